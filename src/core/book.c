/*
 * book.c -- the opening book (cd_book, condraughts.h): positions of one variant mapped to ranked
 * moves with their scores, read from and written to the CDBK file image (docs/formats.md,
 * "Opening book (CDBK)"). The library opens no file: the front ends read and write the images.
 *
 * Representation: `e`, `n` entries (capacity `cap`) sorted by (key, rank), each position's ranks
 * 0..k-1 with no gap; every entry's squares within the variant's board and its captured count at
 * most the board's squares. cd_book_add keeps the order (a binary search and one memmove), so a
 * book is always ready to probe and its image is a straight copy of the array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "condraughts.h"

#define BOOK_MAGIC      "CDBK"
#define BOOK_VERSION    1u
#define BOOK_NAME_LEN   32 /* the variant's name, NUL-padded: the longest built-in name is 24 */
#define BOOK_HEADER     48
#define BOOK_RECORD     20
#define BOOK_MAX_RANK   255

typedef struct book_entry {
    uint64_t key;
    uint32_t capsig; /* FNV-1a 32 of the captured squares' numbers, one byte each, ascending;
                        0 without captures */
    int16_t score;
    uint8_t from, to, ncap, depth, rank;
} book_entry;

struct cd_book {
    const cd_rules *rules;
    book_entry *e;
    size_t n, cap;
};

uint64_t cd_book_key(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    uint64_t h = cd_fnv1a64(CD_FNV64_BASIS, r->name, strlen(r->name) + 1);
    unsigned char b[80];
    int n = cd_rules_squares(r);
    b[0] = pos->side == CD_WHITE ? 'W' : 'B';
    h = cd_fnv1a64(h, b, 1);
    for (int sq = 1; sq <= n; sq++)
        b[sq - 1] = (unsigned char)cd_position_piece(pos, sq);
    h = cd_fnv1a64(h, b, (size_t)n);
    for (int c = 0; c < 2; c++) {
        int sq = 0;
        int len = cd_position_king_run(pos, c == 0 ? CD_WHITE : CD_BLACK, &sq);
        b[2 * c] = (unsigned char)len;
        b[2 * c + 1] = (unsigned char)sq;
    }
    b[4] = pos->second;
    return cd_fnv1a64(h, b, 5);
}

/* A move's squares as the book keeps them: from, to, captured count and signature. */
static void move_fields(const cd_position *pos, const cd_move *m, book_entry *out)
{
    int caps[CD_MAX_PLY];
    int k = cd_move_captures(pos, m, caps, CD_MAX_PLY);
    unsigned char b[CD_MAX_PLY];
    for (int i = 0; i < k; i++)
        b[i] = (unsigned char)caps[i];
    out->from = (uint8_t)cd_move_from(pos, m);
    out->to = (uint8_t)cd_move_to(pos, m);
    out->ncap = (uint8_t)k;
    out->capsig = k ? cd_fnv1a32(b, (size_t)k) : 0;
}

cd_book *cd_book_new(const cd_rules *rules)
{
    cd_book *b = calloc(1, sizeof *b);
    if (b)
        b->rules = rules;
    return b;
}

void cd_book_free(cd_book *b)
{
    if (!b)
        return;
    free(b->e);
    free(b);
}

const cd_rules *cd_book_rules(const cd_book *b) { return b->rules; }

size_t cd_book_entries(const cd_book *b) { return b->n; }

/* The first entry with a key >= key. */
static size_t lower_bound(const cd_book *b, uint64_t key)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->e[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int same_move(const book_entry *a, const book_entry *b)
{
    return a->from == b->from && a->to == b->to && a->ncap == b->ncap && a->capsig == b->capsig;
}

/* Whether legal move m of pos is the move the entry names. */
static int is_legal(const cd_position *pos, const cd_move *m)
{
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    int n = cd_generate(pos, list), found = 0;
    for (int i = 0; i < n && !found; i++)
        found = cd_move_equal(&list->moves[i], m);
    free(list);
    return found;
}

cd_result cd_book_add(cd_book *b, const cd_position *pos, const cd_move *m, int score, int depth)
{
    if (!b || !pos || !m || strcmp(pos->rules->name, b->rules->name))
        return CD_ERR_ARG;
    if (!is_legal(pos, m))
        return CD_ERR_ARG;
    book_entry x;
    memset(&x, 0, sizeof x);
    x.key = cd_book_key(pos);
    move_fields(pos, m, &x);
    x.score = (int16_t)(score > INT16_MAX ? INT16_MAX : score < INT16_MIN ? INT16_MIN : score);
    x.depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    size_t at = lower_bound(b, x.key);
    int rank = 0;
    for (; at < b->n && b->e[at].key == x.key; at++, rank++)
        if (same_move(&b->e[at], &x))
            return CD_ERR_ARG;
    if (rank > BOOK_MAX_RANK)
        return CD_ERR_OVERFLOW;
    x.rank = (uint8_t)rank;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        book_entry *e = realloc(b->e, cap * sizeof *e);
        if (!e)
            return CD_ERR_OVERFLOW;
        b->e = e;
        b->cap = cap;
    }
    memmove(b->e + at + 1, b->e + at, (b->n - at) * sizeof *b->e);
    b->e[at] = x;
    b->n++;
    return CD_OK;
}

int cd_book_probe(const cd_book *b, const cd_position *pos, cd_book_move *out, int max)
{
    if (!b || !pos || max <= 0 || strcmp(pos->rules->name, b->rules->name))
        return 0;
    uint64_t key = cd_book_key(pos);
    size_t at = lower_bound(b, key);
    if (at >= b->n || b->e[at].key != key)
        return 0;
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    int n = cd_generate(pos, list), found = 0;
    for (; at < b->n && b->e[at].key == key && found < max; at++) {
        for (int i = 0; i < n; i++) {
            book_entry f;
            move_fields(pos, &list->moves[i], &f);
            if (same_move(&f, &b->e[at])) {
                out[found].move = list->moves[i];
                out[found].score = b->e[at].score;
                out[found].depth = b->e[at].depth;
                out[found].rank = b->e[at].rank;
                found++;
                break;
            }
        }
    }
    free(list);
    return found;
}

size_t cd_book_write(const cd_book *b, unsigned char **img)
{
    size_t len = BOOK_HEADER + b->n * BOOK_RECORD + 4;
    unsigned char *p = calloc(1, len);
    *img = p;
    if (!p)
        return 0;
    memcpy(p, BOOK_MAGIC, 4);
    cd_put_le(p + 4, BOOK_VERSION, 4);
    memcpy(p + 8, b->rules->name, strlen(b->rules->name));
    cd_put_le(p + 40, b->n, 4);
    cd_put_le(p + 44, BOOK_RECORD, 4);
    for (size_t i = 0; i < b->n; i++) {
        unsigned char *r = p + BOOK_HEADER + i * BOOK_RECORD;
        const book_entry *x = &b->e[i];
        cd_put_le(r, x->key, 8);
        cd_put_le(r + 8, x->capsig, 4);
        cd_put_le(r + 12, (uint16_t)x->score, 2);
        r[14] = x->from;
        r[15] = x->to;
        r[16] = x->ncap;
        r[17] = x->depth;
        r[18] = x->rank;
    }
    cd_put_le(p + len - 4, cd_fnv1a32(p, len - 4), 4);
    return len;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (errlen)                                                                                \
            snprintf(err, errlen, __VA_ARGS__);                                                    \
        cd_book_free(b);                                                                           \
        return NULL;                                                                               \
    } while (0)

cd_book *cd_book_read(const unsigned char *img, size_t len, char *err, size_t errlen)
{
    cd_book *b = NULL;
    if (len < 8 || memcmp(img, BOOK_MAGIC, 4))
        FAIL("not an opening book (no CDBK magic)");
    uint32_t version = (uint32_t)cd_get_le(img + 4, 4);
    if (version != BOOK_VERSION)
        FAIL("book version %u; this program reads version %u", version, BOOK_VERSION);
    if (len < BOOK_HEADER + 4)
        FAIL("truncated: %zu bytes, shorter than the %d-byte header and checksum", len,
             BOOK_HEADER + 4);
    char name[BOOK_NAME_LEN + 1];
    memcpy(name, img + 8, BOOK_NAME_LEN);
    name[BOOK_NAME_LEN] = '\0';
    const cd_rules *rules = cd_rules_find(name);
    if (!rules || strcmp(rules->name, name))
        FAIL("unknown variant '%.32s'", name);
    uint64_t n = cd_get_le(img + 40, 4);
    uint32_t rec = (uint32_t)cd_get_le(img + 44, 4);
    if (rec != BOOK_RECORD)
        FAIL("record size %u, not %d", rec, BOOK_RECORD);
    uint64_t want = BOOK_HEADER + n * BOOK_RECORD + 4;
    if (len < want)
        FAIL("truncated: %zu bytes, its header says %llu entries (%llu bytes)", len,
             (unsigned long long)n, (unsigned long long)want);
    if (len > want)
        FAIL("%zu bytes, longer than its header's %llu entries (%llu bytes)", len,
             (unsigned long long)n, (unsigned long long)want);
    uint32_t sum = (uint32_t)cd_get_le(img + len - 4, 4);
    if (sum != cd_fnv1a32(img, len - 4))
        FAIL("checksum does not match (the file is damaged)");
    if (!(b = cd_book_new(rules)) || (n && !(b->e = malloc((size_t)n * sizeof *b->e))))
        FAIL("out of memory");
    b->cap = (size_t)n;
    int squares = cd_rules_squares(rules);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *r = img + BOOK_HEADER + i * BOOK_RECORD;
        book_entry x;
        x.key = cd_get_le(r, 8);
        x.capsig = (uint32_t)cd_get_le(r + 8, 4);
        x.score = (int16_t)(uint16_t)cd_get_le(r + 12, 2);
        x.from = r[14];
        x.to = r[15];
        x.ncap = r[16];
        x.depth = r[17];
        x.rank = r[18];
        if (r[19])
            FAIL("entry %zu: reserved byte is %u, not 0", i, r[19]);
        if (x.from < 1 || x.from > squares || x.to < 1 || x.to > squares || x.ncap > squares)
            FAIL("entry %zu: squares %u-%u (%u captured) outside the %d squares of %s", i, x.from,
                 x.to, x.ncap, squares, rules->name);
        int first = i == 0 || b->e[i - 1].key != x.key;
        if (i && b->e[i - 1].key > x.key)
            FAIL("entry %zu: not sorted by position key", i);
        if (first ? x.rank != 0 : x.rank != b->e[i - 1].rank + 1)
            FAIL("entry %zu: rank %u out of order", i, x.rank);
        b->e[i] = x;
        b->n = i + 1;
    }
    return b;
}
