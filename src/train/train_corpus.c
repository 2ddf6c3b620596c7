/*
 * train_corpus.c -- the game corpus: self-play games kept as the indices of their moves in the
 * legal move list, their search scores and results, xz-compressed (docs/formats.md, "Game
 * corpus"); the training records re-derived from them by replay, the same records train gen
 * writes to a data file.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurp.h"
#include "train_data.h"
#include "xz.h"

#define CORPUS_HDR 96
#define LABELS_HDR 112

/* The two xz files of this module share the start of their header: magic, version, the family's
 * and the variant's names (docs/formats.md); what differs is named here for the messages. */
typedef struct file_kind {
    const char *magic;
    const char *name;  /* "not a condraughts NAME file" */
    const char *noun;  /* "NOUN version V" */
    const char *holds; /* "PATH holds HOLDSVARIANT games" */
    unsigned version;
    size_t hdr;
} file_kind;
static const file_kind CORPUS = {"CDGC", "game corpus", "corpus", "", 1, CORPUS_HDR};
static const file_kind LABELS = {"CDGL", "labels", "labels", "labels of ", 1, LABELS_HDR};

/* ---------------------------------------------------------------- the payload, in memory */

static void buf_grow(corpus_buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more)
        cap *= 2;
    unsigned char *p = realloc(b->data, cap);
    if (!p)
        fail("out of memory");
    b->data = p;
    b->cap = cap;
}

static void put_bytes(corpus_buf *b, const void *p, size_t n)
{
    buf_grow(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_varint(corpus_buf *b, uint64_t v)
{
    unsigned char t[10];
    int n = 0;
    do {
        t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put_bytes(b, t, (size_t)n);
}

void corpus_append(corpus_buf *b, corpus_buf *game)
{
    put_bytes(b, game->data, game->len);
    free(game->data);
    memset(game, 0, sizeof *game);
}

/* A signed value as an unsigned one, small magnitudes small (zigzag). */
static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static int64_t unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

/* The shared start of a header of kind k for games of variant r into h (zeroed, k->hdr bytes). */
static void put_prefix(unsigned char *h, const file_kind *k, const cd_rules *r)
{
    memcpy(h, k->magic, 4);
    cd_put_le(h + 4, k->version, 4);
    strncpy((char *)h + 8, train_file_name(r), 15);
    strncpy((char *)h + 24, r->name, 31);
}

void corpus_begin(corpus_buf *b, const gen_options *c)
{
    memset(b, 0, sizeof *b);
    unsigned char h[CORPUS_HDR] = {0};
    put_prefix(h, &CORPUS, c->rules);
    cd_put_le(h + 56, (uint64_t)c->nodes, 4);
    cd_put_le(h + 60, (uint64_t)c->max_plies, 4);
    cd_put_le(h + 64, (uint64_t)c->lo, 2);
    cd_put_le(h + 66, (uint64_t)c->hi, 2);
    cd_put_le(h + 68, (uint64_t)c->balance, 4);
    cd_put_le(h + 72, c->seed, 8);
    cd_put_le(h + 80, (uint64_t)c->first, 4);
    cd_put_le(h + 84, (uint64_t)c->games, 4);
    h[88] = (unsigned char)c->classic;
    h[89] = (unsigned char)(c->tb ? cd_egtb_pieces(c->tb) : 0);
    put_bytes(b, h, sizeof h);
}

/* The index of m in the legal moves of p (the program stops if it is not one: a bug). */
static int move_index(const cd_position *p, const cd_move *m)
{
    cd_movelist list;
    int n = cd_generate(p, &list);
    for (int i = 0; i < n; i++)
        if (cd_move_equal(&list.moves[i], m))
            return i;
    fail("internal error: a played move is not in the legal move list");
}

void corpus_put_game(corpus_buf *b, const cd_game *g, uint32_t game, int opening, int label,
                     const record *rec, int nrec)
{
    int plies = cd_game_ply(g);
    put_varint(b, game);
    put_varint(b, (uint64_t)label);
    put_varint(b, (uint64_t)opening);
    put_varint(b, (uint64_t)plies);
    for (int i = 0; i < plies; i++)
        put_varint(b, (uint64_t)move_index(cd_game_position_at(g, i), cd_game_move(g, i)));
    put_varint(b, (uint64_t)nrec);
    int prev = 0; /* scores as differences from the one before: neighbours are close */
    for (int i = 0; i < nrec; i++) {
        put_varint(b, zigzag(rec[i].score - prev));
        prev = rec[i].score;
    }
    int exceptions = 0;
    for (int i = 0; i < nrec; i++)
        exceptions += rec[i].result != label;
    put_varint(b, (uint64_t)exceptions);
    for (int i = 0, last = 0; i < nrec; i++)
        if (rec[i].result != label) {
            put_varint(b, (uint64_t)(i - last));
            put_varint(b, rec[i].result);
            last = i;
        }
}

/* b's payload xz-compressed into path, through path.part renamed (a killed run leaves no half
 * file under the name); b freed. */
void corpus_write(corpus_buf *b, const char *path)
{
    size_t out = 0;
    const char *why;
    unsigned char *x = cd_xz_encode(b->data, b->len, &out, &why);
    if (!x)
        fail("%s: %s", path, why);
    /* written beside it, then renamed: a killed run leaves no half file under the name */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp)
        fail("%s: the name is too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(x, 1, out, f) != out || fclose(f) != 0 || rename(tmp, path) != 0)
        fail("cannot write %s", path);
    free(x);
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- reading by replay */

typedef struct reader {
    const unsigned char *p, *end;
    const char *path;
} reader;

static uint64_t get_varint(reader *rd)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (rd->p == rd->end)
            fail("%s: truncated", rd->path);
        unsigned char c = *rd->p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    fail("%s: a number is too long (damaged)", rd->path);
}

int corpus_is(const char *path)
{
    size_t n = strlen(path);
    return n > 7 && !strcmp(path + n - 7, ".cdg.xz");
}

/* One game replayed into records appended to *rec (capacity *cap, count *n). */
static void replay_game(reader *rd, const cd_rules *r, record **rec, size_t *n, size_t *cap)
{
    uint32_t game = (uint32_t)get_varint(rd);
    uint64_t label = get_varint(rd), opening = get_varint(rd), plies = get_varint(rd);
    if (label > 2 || opening > plies || plies > 100000)
        fail("%s: game %u: bad header (damaged)", rd->path, game);
    cd_position start;
    cd_position_start(&start, r);
    cd_game *g = cd_game_new(r, &start);
    if (!g)
        fail("out of memory");
    size_t first = *n;
    for (uint64_t i = 0; i < plies; i++) {
        const cd_position *p = cd_game_position(g);
        cd_movelist list;
        int k = cd_generate(p, &list);
        uint64_t m = get_varint(rd);
        if (m >= (uint64_t)k || cd_game_status(g, NULL) != CD_ONGOING)
            fail("%s: game %u, ply %llu: move %llu of %d is not legal (damaged, or another "
                 "version of the rules)",
                 rd->path, game, (unsigned long long)i, (unsigned long long)m, k);
        if (i >= opening && list.moves[0].ncaptured == 0) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 1 << 16;
                record *bigger = realloc(*rec, *cap * sizeof **rec + 1);
                if (!bigger)
                    fail("out of memory");
                *rec = bigger;
            }
            (*rec)[(*n)++] = (record){p->white[0], p->black[0], p->kings[0], game, 0,
                                      (uint16_t)cd_game_ply(g), (uint8_t)p->side,
                                      (uint8_t)label, 0};
        }
        cd_game_play(g, &list.moves[m]);
    }
    cd_game_free(g);
    uint64_t nrec = get_varint(rd);
    if (nrec != *n - first)
        fail("%s: game %u replays to %zu positions, the file says %llu (damaged, or another "
             "version of the rules)",
             rd->path, game, *n - first, (unsigned long long)nrec);
    int64_t score = 0;
    for (size_t i = first; i < *n; i++) {
        score += unzigzag(get_varint(rd));
        if (score < -30000 || score > 30000)
            fail("%s: game %u: a score out of range (damaged)", rd->path, game);
        (*rec)[i].score = (int16_t)score;
    }
    uint64_t exceptions = get_varint(rd);
    for (uint64_t e = 0, at = first; e < exceptions; e++) {
        at += get_varint(rd);
        uint64_t result = get_varint(rd);
        if (at >= *n || result > 2)
            fail("%s: game %u: a bad result (damaged)", rd->path, game);
        (*rec)[at].result = (uint8_t)result;
    }
}

/* The payload of the xz file path of kind k, its length in *len, its header checked: the magic,
 * the version, and games of variant r (the program stops with a message otherwise). */
static unsigned char *read_payload(const char *path, const file_kind *k, const cd_rules *r,
                                   size_t *len)
{
    size_t xzlen;
    unsigned char *xz = (unsigned char *)cd_slurp(path, (size_t)1 << 30, &xzlen);
    if (!xz)
        fail("cannot read %s", path);
    const char *why;
    unsigned char *data = cd_xz_decode(xz, xzlen, len, &why);
    free(xz);
    if (!data)
        fail("%s: %s", path, why);
    if (*len < k->hdr || memcmp(data, k->magic, 4))
        fail("%s: not a condraughts %s file", path, k->name);
    if (cd_get_le(data + 4, 4) != k->version)
        fail("%s: %s version %u, this program reads %u", path, k->noun,
             (unsigned)cd_get_le(data + 4, 4), k->version);
    char family[16] = {0}, variant[32] = {0};
    memcpy(family, data + 8, 15);
    memcpy(variant, data + 24, 31);
    if (strcmp(family, train_file_name(r)) || strcmp(variant, r->name))
        fail("%s holds %s%s games, not %s", path, k->holds, variant, r->name);
    return data;
}

record *corpus_read(const char *path, const cd_rules *r, size_t *n, corpus_id *id)
{
    size_t len;
    unsigned char *data = read_payload(path, &CORPUS, r, &len);
    uint64_t games = cd_get_le(data + 84, 4);
    reader rd = {data + CORPUS_HDR, data + len, path};
    record *rec = NULL;
    size_t cap = 0;
    *n = 0;
    for (uint64_t i = 0; i < games; i++)
        replay_game(&rd, r, &rec, n, &cap);
    if (rd.p != rd.end)
        fail("%s: %zu bytes after the last game (damaged)", path, (size_t)(rd.end - rd.p));
    if (id)
        *id = (corpus_id){cd_get_le(data + 72, 8), (uint32_t)cd_get_le(data + 80, 4),
                          (uint32_t)games, (uint32_t)*n};
    free(data);
    if (!rec && !(rec = malloc(1)))
        fail("out of memory");
    return rec;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **corpus_list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = malloc(sizeof *names);
    size_t k = 0;
    if (!names)
        fail("out of memory");
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (!corpus_is(ent->d_name))
            continue;
        char **more = realloc(names, (k + 1) * sizeof *names);
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        if (!more || !(more[k] = malloc(len)))
            fail("out of memory");
        names = more;
        snprintf(names[k++], len, "%s/%s", dir, ent->d_name);
    }
    closedir(d);
    if (k)
        qsort(names, k, sizeof *names, by_name);
    *n = k;
    return names;
}

/* ---------------------------------------------------------------- deep labels */

int labels_is(const char *path)
{
    size_t n = strlen(path);
    return n > 7 && !strcmp(path + n - 7, ".cdl.xz");
}

void labels_write(const char *path, const cd_rules *r, const corpus_id *id, long nodes, long depth,
                  uint64_t seed, double share, const record *rec, const int16_t *before,
                  const size_t *drawn, size_t ndrawn)
{
    corpus_buf b = {0};
    size_t count = 0;
    for (size_t k = 0; k < ndrawn; k++)
        count += rec[drawn[k]].deep;
    unsigned char h[LABELS_HDR] = {0};
    put_prefix(h, &LABELS, r);
    cd_put_le(h + 56, id->seed, 8);
    cd_put_le(h + 64, id->first, 4);
    cd_put_le(h + 68, id->games, 4);
    cd_put_le(h + 72, id->records, 4);
    cd_put_le(h + 76, depth ? 0 : (uint64_t)nodes, 4);
    cd_put_le(h + 80, (uint64_t)depth, 4);
    cd_put_le(h + 84, count, 4);
    cd_put_le(h + 88, seed, 8);
    uint64_t bits;
    memcpy(&bits, &share, sizeof bits);
    cd_put_le(h + 96, bits, 8);
    put_bytes(&b, h, sizeof h);
    size_t last = 0;
    for (size_t k = 0, any = 0; k < ndrawn; k++) {
        const record *x = &rec[drawn[k]];
        if (!x->deep)
            continue;
        /* the first record's index, then each one's distance from the one before less 1 */
        put_varint(&b, any ? drawn[k] - last - 1 : drawn[k]);
        put_varint(&b, zigzag((int64_t)x->score - before[k]));
        last = drawn[k];
        any = 1;
    }
    corpus_write(&b, path);
}

/* The labels file of chunk in folder dir (its name with ".cdl.xz" for ".cdg.xz"), written into
 * out; 0 if the name does not fit. */
static int labels_name(const char *chunk, const char *dir, char *out, size_t len)
{
    const char *base = strrchr(chunk, '/');
    base = base ? base + 1 : chunk;
    size_t n = strlen(base) - 7; /* corpus_is: it ends in ".cdg.xz" */
    return snprintf(out, len, "%s/%.*s.cdl.xz", dir, (int)n, base) < (int)len;
}

size_t labels_apply(const char *chunk, const char *dirs, const cd_rules *r, const corpus_id *id,
                    record *rec, size_t n)
{
    char *copy = strdup(dirs), *save = NULL, path[4096], found[4096] = "";
    if (!copy)
        fail("out of memory");
    for (char *dir = strtok_r(copy, ",", &save); dir; dir = strtok_r(NULL, ",", &save)) {
        if (!labels_name(chunk, dir, path, sizeof path))
            fail("%s: the name is too long", dir);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fclose(f);
        if (found[0])
            fail("the labels of %s are in %s and in %s: name one folder", chunk, found, path);
        snprintf(found, sizeof found, "%s", path);
    }
    free(copy);
    if (!found[0])
        return 0;
    size_t len;
    unsigned char *data = read_payload(found, &LABELS, r, &len);
    if (cd_get_le(data + 56, 8) != id->seed || cd_get_le(data + 64, 4) != id->first ||
        cd_get_le(data + 68, 4) != id->games || cd_get_le(data + 72, 4) != id->records ||
        id->records != n)
        fail("%s labels games %u-%u of seed %llu (%u positions), not %s's", found,
             (unsigned)cd_get_le(data + 64, 4),
             (unsigned)(cd_get_le(data + 64, 4) + cd_get_le(data + 68, 4) - 1),
             (unsigned long long)cd_get_le(data + 56, 8), (unsigned)cd_get_le(data + 72, 4),
             chunk);
    uint64_t count = cd_get_le(data + 84, 4);
    reader rd = {data + LABELS_HDR, data + len, found};
    uint64_t at = 0;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t step = get_varint(&rd);
        at = step >= n ? n : k ? at + step + 1 : step;
        if (at >= n)
            fail("%s: label %llu names position %llu of %zu (damaged)", found,
                 (unsigned long long)k, (unsigned long long)at, n);
        int64_t score = rec[at].score + unzigzag(get_varint(&rd));
        if (score < -30000 || score > 30000)
            fail("%s: label %llu: a score out of range (damaged)", found, (unsigned long long)k);
        rec[at].score = (int16_t)score;
        rec[at].deep = 1;
    }
    if (rd.p != rd.end)
        fail("%s: %zu bytes after the last label (damaged)", found, (size_t)(rd.end - rd.p));
    free(data);
    return (size_t)count;
}
