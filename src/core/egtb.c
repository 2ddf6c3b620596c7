/*
 * egtb.c -- endgame tablebases: perfect indexing, retrograde build, files,
 * probing.
 *
 * Signatures. A table holds one material signature m = (wk, wm, bk, bm),
 * both sides to move. Colour flip (turn the board 180 degrees, swap the
 * colours and the side to move) maps m to (bk, bm, wk, wm) with the same
 * values, so only the canonical one of the pair is stored: the one whose
 * White has more pieces, or as many and more kings. Probing a flipped
 * signature flips the position.
 *
 * Index (perfect: every number names exactly one position, and every position
 * of the signature one number). Squares are "dense" numbers 0..N-1 (internal
 * square number - 1; square 1 is top-left, White promotes on dense 0..half-1
 * and Black on N-half..N-1). A set of k identical pieces on an ordered list of
 * allowed squares is ranked colexicographically: sum C(p_i, i + 1) over its
 * positions p_0 < p_1 < ... in the list.
 *   rw  White men among the N - half squares off White's promotion row;
 *   rb  Black men among the squares off Black's promotion row not taken by
 *       White men (how many that is depends on rw, so off[rw] is the number
 *       of men placements before rw: a prefix sum over the White men ranks);
 *   rkw White kings among the squares without men, C(N - men, wk) ways;
 *   rkb Black kings among the squares left, C(N - men - wk, bk) ways;
 *   index = side * n + ((off[rw] + rb) * kw + rkw) * kb + rkb.
 *
 * Build (retrograde analysis by levels). Every position is first looked at
 * once with the move generator: a move that changes the material (a capture,
 * a promotion) leads into a smaller table already built, whose value is
 * known; a move that keeps the material stays in the table. Terminal
 * positions are level 0. Level k then holds the positions whose value is
 * final with distance k; for each, the generator run backwards (un-moves of
 * the side that just moved: king slides, men steps back) finds the
 * predecessors: those of a lost position win at k + 1; a won position
 * lowers each predecessor's count of moves not yet known to lose, and at 0
 * the predecessor is lost at k + 1 (or later, if a material-changing move
 * loses more slowly). Values reached through material-changing moves wait in
 * per-level buckets. Positions never reached are draws. A predecessor is
 * real only if it has no capture (captures are compulsory) and, under Rule C,
 * its king slide is legal there (checked with the generator).
 *
 * File: a 128-byte header (magic, version, variant name, rules fingerprint,
 * signature, positions per side, distance width, longest distance, counts,
 * payload checksum, header checksum; little-endian), then the 2-bit values
 * (0 draw, 1 win, 2 loss; four per byte, side-major) and the distances (one or
 * two bytes each).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "board.h"
#include "movegen.h"
#include "strbuf.h"

#if defined(__BMI2__)
#include <immintrin.h> /* pdep/pext: one instruction for select and dense <-> bits */
#endif

#define MAXP     CD_EGTB_MAX_PIECES
#define MAGIC    "CDEGTB1\n"
#define HDR_SIZE 128

enum { ST_UNKNOWN = 0, ST_NOLOSS = 1, ST_WIN = 2, ST_LOSS = 3, ST_HASCAP = 4 };

typedef struct layout {
    cd_egtb_material m;
    int nsq, half;
    uint64_t nw;   /* White men placements */
    uint64_t *off; /* nw + 1 prefix sums of Black men placements */
    uint64_t kw, kb;
    uint64_t n; /* positions per side */
} layout;

typedef struct table {
    layout L;
    uint8_t *wdl; /* 2 bits per position */
    uint8_t *d8;  /* distances, one of d8/d16 */
    uint16_t *d16;
    int maxdist;
    uint64_t counts[2][3]; /* [side][draw, win, loss] */
    atomic_int state;      /* 0 not tried, 1 ready, -1 unavailable */
} table;

struct cd_egtb {
    const cd_rules *rules;
    int nsq, half, steps[4];
    uint64_t playable; /* ghost-layout bits of the squares */
    int bit2d[64], d2bit[64];
    int monotone; /* d2bit increases: dense <-> bits is pext/pdep of playable */
    uint64_t fingerprint;
    char dir[1024];
    char err[512];
    mtx_t lock;
    table *t[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1];
    int maxpieces;
};

static uint64_t binom[65][MAXP + 2];
static once_flag binom_once = ONCE_FLAG_INIT;

static void binom_init(void)
{
    for (int n = 0; n <= 64; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= MAXP + 1; k++)
            binom[n][k] = n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    }
}

static inline uint64_t C(int n, int k) { return n < 0 || k < 0 ? 0 : binom[n][k]; }

static inline uint64_t below(int d) { return ((uint64_t)1 << d) - 1; }

/* The p-th (0-based) set bit of mask. */
static inline int select_bit(uint64_t mask, int p)
{
#if defined(__BMI2__)
    return __builtin_ctzll(_pdep_u64((uint64_t)1 << p, mask));
#else
    while (p-- > 0)
        mask &= mask - 1;
    return __builtin_ctzll(mask);
#endif
}

/* Positions p[0] < ... < p[k-1] of colex rank r: each p[i] is the largest x with
 * C(x, i + 1) <= r (binary search; C(x, i + 1) grows with x for x >= i). */
static void unrank(uint64_t r, int k, int *p)
{
    int hi = 63;
    for (int i = k - 1; i >= 0; i--) {
        int lo = i; /* C(i, i + 1) = 0 <= r */
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (C(mid, i + 1) <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        p[i] = lo;
        r -= C(lo, i + 1);
        hi = lo - 1;
    }
}

static int mat_pieces(cd_egtb_material m) { return m.wk + m.wm + m.bk + m.bm; }

static cd_egtb_material mat_flip(cd_egtb_material m)
{
    return (cd_egtb_material){m.bk, m.bm, m.wk, m.wm};
}

static int mat_canonical(cd_egtb_material m)
{
    int w = m.wk + m.wm, b = m.bk + m.bm;
    return w > b || (w == b && m.wk >= m.bk);
}

static int mat_equal(cd_egtb_material a, cd_egtb_material b)
{
    return a.wk == b.wk && a.wm == b.wm && a.bk == b.bk && a.bm == b.bm;
}

static void mat_name(cd_egtb_material m, char *buf)
{
    int n = 0;
    for (int i = 0; i < m.wk; i++)
        buf[n++] = 'K';
    for (int i = 0; i < m.wm; i++)
        buf[n++] = 'M';
    buf[n++] = '_';
    for (int i = 0; i < m.bk; i++)
        buf[n++] = 'K';
    for (int i = 0; i < m.bm; i++)
        buf[n++] = 'M';
    buf[n] = '\0';
}

static cd_egtb_material mat_of(const cd_position *p)
{
    uint64_t k = p->kings[0];
    return (cd_egtb_material){
        __builtin_popcountll(p->white[0] & k), __builtin_popcountll(p->white[0] & ~k),
        __builtin_popcountll(p->black[0] & k), __builtin_popcountll(p->black[0] & ~k)};
}

/* ---------------------------------------------------------------- layout */

static int layout_init(layout *L, cd_egtb_material m, int nsq, int half)
{
    memset(L, 0, sizeof *L);
    L->m = m;
    L->nsq = nsq;
    L->half = half;
    int region = nsq - half;
    L->nw = C(region, m.wm);
    L->off = malloc((L->nw + 1) * sizeof *L->off);
    if (!L->off)
        return -1;
    L->off[0] = 0;
    int p[MAXP];
    for (uint64_t rw = 0; rw < L->nw; rw++) {
        unrank(rw, m.wm, p);
        int inb = 0; /* White men on Black men's squares (dense < nsq - half) */
        for (int i = 0; i < m.wm; i++)
            inb += p[i] + half < region;
        L->off[rw + 1] = L->off[rw] + C(region - inb, m.bm);
    }
    int men = m.wm + m.bm;
    L->kw = C(nsq - men, m.wk);
    L->kb = C(nsq - men - m.wk, m.bk);
    L->n = L->off[L->nw] * L->kw * L->kb;
    return 0;
}

static void layout_free(layout *L)
{
    free(L->off);
    L->off = NULL;
}

/* Dense masks of the four groups (White men, Black men, White kings, Black kings). */
typedef struct dense {
    uint64_t wm, bm, wk, bk;
    int side;
} dense;

static uint64_t to_dense(const cd_egtb *tb, uint64_t bits, int flip)
{
#if defined(__BMI2__)
    if (!flip && tb->monotone)
        return _pext_u64(bits, tb->playable);
#endif
    uint64_t d = 0;
    while (bits) {
        int b = __builtin_ctzll(bits);
        bits &= bits - 1;
        int x = tb->bit2d[b];
        d |= (uint64_t)1 << (flip ? tb->nsq - 1 - x : x);
    }
    return d;
}

static uint64_t from_dense(const cd_egtb *tb, uint64_t d)
{
#if defined(__BMI2__)
    if (tb->monotone)
        return _pdep_u64(d, tb->playable);
#endif
    uint64_t bits = 0;
    while (d) {
        int x = __builtin_ctzll(d);
        d &= d - 1;
        bits |= (uint64_t)1 << tb->d2bit[x];
    }
    return bits;
}

static void pos_dense(const cd_egtb *tb, const cd_position *p, int flip, dense *D)
{
    uint64_t k = p->kings[0];
    uint64_t w = p->white[0], b = p->black[0];
    if (flip) {
        uint64_t t = w;
        w = b;
        b = t;
    }
    D->wm = to_dense(tb, w & ~k, flip);
    D->wk = to_dense(tb, w & k, flip);
    D->bm = to_dense(tb, b & ~k, flip);
    D->bk = to_dense(tb, b & k, flip);
    D->side = flip ? 1 - p->side : p->side;
}

static uint64_t dense_index(const layout *L, const dense *D)
{
    uint64_t rw = 0, rb = 0, rkw = 0, rkb = 0, x;
    int i = 0;
    for (x = D->wm; x; x &= x - 1, i++)
        rw += C(__builtin_ctzll(x) - L->half, i + 1);
    i = 0;
    for (x = D->bm; x; x &= x - 1, i++) {
        int d = __builtin_ctzll(x);
        rb += C(d - __builtin_popcountll(D->wm & below(d)), i + 1);
    }
    uint64_t men = D->wm | D->bm;
    i = 0;
    for (x = D->wk; x; x &= x - 1, i++) {
        int d = __builtin_ctzll(x);
        rkw += C(d - __builtin_popcountll(men & below(d)), i + 1);
    }
    uint64_t occ = men | D->wk;
    i = 0;
    for (x = D->bk; x; x &= x - 1, i++) {
        int d = __builtin_ctzll(x);
        rkb += C(d - __builtin_popcountll(occ & below(d)), i + 1);
    }
    return (uint64_t)D->side * L->n + ((L->off[rw] + rb) * L->kw + rkw) * L->kb + rkb;
}

static void dense_of_index(const layout *L, uint64_t idx, dense *D)
{
    D->side = idx >= L->n;
    if (D->side)
        idx -= L->n;
    uint64_t rkb = idx % L->kb;
    idx /= L->kb;
    uint64_t rkw = idx % L->kw;
    uint64_t mi = idx / L->kw;
    /* rw: the last White men rank whose prefix sum is <= mi */
    uint64_t lo = 0, hi = L->nw;
    while (hi - lo > 1) {
        uint64_t mid = (lo + hi) / 2;
        if (L->off[mid] <= mi)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t rb = mi - L->off[lo];
    int p[MAXP];
    const cd_egtb_material *m = &L->m;
    uint64_t all = below(L->nsq);
    D->wm = 0;
    unrank(lo, m->wm, p);
    for (int i = 0; i < m->wm; i++)
        D->wm |= (uint64_t)1 << (p[i] + L->half);
    uint64_t freeb = below(L->nsq - L->half) & ~D->wm;
    D->bm = 0;
    unrank(rb, m->bm, p);
    for (int i = 0; i < m->bm; i++)
        D->bm |= (uint64_t)1 << select_bit(freeb, p[i]);
    uint64_t freek = all & ~(D->wm | D->bm);
    D->wk = 0;
    unrank(rkw, m->wk, p);
    for (int i = 0; i < m->wk; i++)
        D->wk |= (uint64_t)1 << select_bit(freek, p[i]);
    freek &= ~D->wk;
    D->bk = 0;
    unrank(rkb, m->bk, p);
    for (int i = 0; i < m->bk; i++)
        D->bk |= (uint64_t)1 << select_bit(freek, p[i]);
}

static void position_of_dense(const cd_egtb *tb, const dense *D, cd_position *p)
{
    cd_position_empty(p, tb->rules, D->side);
    uint64_t wk = from_dense(tb, D->wk), bk = from_dense(tb, D->bk);
    p->white[0] = from_dense(tb, D->wm) | wk;
    p->black[0] = from_dense(tb, D->bm) | bk;
    p->kings[0] = wk | bk;
}

/* ---------------------------------------------------------------- handle */

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

/* Fingerprint of everything in a rules row that can change a move list. */
static uint64_t rules_fingerprint(const cd_rules *r)
{
    int f[6] = {(int)r->geometry,  (int)r->flags, (int)r->precedence,
                (int)r->promotion, (int)r->halt,  (int)r->goal};
    return fnv(0xcbf29ce484222325ull, f, sizeof f);
}

cd_egtb *cd_egtb_open(const cd_rules *rules, const char *dir)
{
    call_once(&binom_once, binom_init);
    if (!rules || !dir || strlen(dir) >= sizeof((cd_egtb *)0)->dir - 64)
        return NULL;
    /* Not Turkish either (CD_GEOM_8X8_FULL): its orthogonal moves, all 64 squares and captures
     * that remove pieces as they go have no retrograde generator here. */
    if ((rules->geometry != CD_GEOM_8X8 && rules->geometry != CD_GEOM_10X10) ||
        rules->goal == CD_GOAL_BREAKTHROUGH)
        return NULL;
    /* Frisian: the retrograde steps here are diagonal only, and the king-move count is state the
     * table index does not hold. */
    if ((rules->flags & CD_RULE_ORTHOGONAL) || rules->king_moves ||
        rules->precedence == CD_PREC_VALUE)
        return NULL;
    /* Stavropol: a position's predecessors include moves of the other colour; two-move: the
     * half of the turn is state the index does not hold; Northern: a capture of a king keeps
     * the piece count (king to man) while a promotion goes back (man to king), a cycle
     * between tables of one size that the build order by size cannot break. */
    if (rules->flags & (CD_RULE_STAVROPOL | CD_RULE_TWO_MOVE | CD_RULE_NORTHERN))
        return NULL;
    cd_egtb *tb = calloc(1, sizeof *tb);
    if (!tb)
        return NULL;
    if (mtx_init(&tb->lock, mtx_plain) != thrd_success) {
        free(tb);
        return NULL;
    }
    tb->rules = rules;
    const cd_geom *g = cd_geom_of(rules);
    tb->nsq = g->squares;
    tb->half = g->half;
    tb->steps[0] = -(g->half + 1);
    tb->steps[1] = -g->half;
    tb->steps[2] = g->half;
    tb->steps[3] = g->half + 1;
    for (int n = 1; n <= g->squares; n++) {
        int b = cd_bit_of_internal(g, n);
        tb->bit2d[b] = n - 1;
        tb->d2bit[n - 1] = b;
        tb->playable |= (uint64_t)1 << b;
    }
    tb->monotone = 1;
    for (int n = 1; n < g->squares; n++)
        tb->monotone &= tb->d2bit[n] > tb->d2bit[n - 1];
    tb->fingerprint = rules_fingerprint(rules);
    strcpy(tb->dir, dir);
    return tb;
}

static void table_free(table *t)
{
    if (!t)
        return;
    layout_free(&t->L);
    free(t->wdl);
    free(t->d8);
    free(t->d16);
    free(t);
}

void cd_egtb_close(cd_egtb *tb)
{
    if (!tb)
        return;
    for (int a = 0; a <= MAXP; a++)
        for (int b = 0; b <= MAXP; b++)
            for (int c = 0; c <= MAXP; c++)
                for (int d = 0; d <= MAXP; d++)
                    table_free(tb->t[a][b][c][d]);
    mtx_destroy(&tb->lock);
    free(tb);
}

const char *cd_egtb_error(const cd_egtb *tb) { return tb ? tb->err : "no tablebase"; }

static void table_path(const cd_egtb *tb, cd_egtb_material m, char *path, size_t len)
{
    char name[2 * MAXP + 4];
    mat_name(m, name);
    snprintf(path, len, "%s/%s-%s.cdtb", tb->dir, tb->rules->name, name);
}

/* ---------------------------------------------------------------- file format */

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t payload_sum(const table *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, t->wdl, (2 * t->L.n + 3) / 4);
    if (t->d8)
        h = fnv(h, t->d8, 2 * t->L.n);
    else
        h = fnv(h, t->d16, 2 * t->L.n * 2);
    return h;
}

/* Header layout (offsets): 0 magic[8], 8 variant[32], 40 fingerprint, 48 wk wm bk bm
 * (one byte each), 52 distance bytes, 53..55 zero, 56 n, 64 maxdist, 72 counts[2][3]
 * (6 x 8 bytes, to 120), 120 payload checksum; the header checksum is the payload
 * checksum's fnv over bytes 0..119, kept in the file right after the header. */
static void header_write(const cd_egtb *tb, const table *t, unsigned char *h, uint64_t sum)
{
    memset(h, 0, HDR_SIZE);
    memcpy(h, MAGIC, 8);
    snprintf((char *)h + 8, 32, "%s", tb->rules->name);
    put64(h + 40, tb->fingerprint);
    h[48] = (unsigned char)t->L.m.wk;
    h[49] = (unsigned char)t->L.m.wm;
    h[50] = (unsigned char)t->L.m.bk;
    h[51] = (unsigned char)t->L.m.bm;
    h[52] = t->d8 ? 1 : 2;
    put64(h + 56, t->L.n);
    put64(h + 64, (uint64_t)t->maxdist);
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 3; v++)
            put64(h + 72 + 8 * (3 * s + v), t->counts[s][v]);
    put64(h + 120, sum);
}

static int table_write(cd_egtb *tb, const table *t, char *err, size_t errlen)
{
    char path[1200], tmp[1300];
    table_path(tb, t->L.m, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unsigned char h[HDR_SIZE + 8];
    uint64_t sum = payload_sum(t);
    header_write(tb, t, h, sum);
    put64(h + HDR_SIZE, fnv(0xcbf29ce484222325ull, h, HDR_SIZE));
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        set_err(err, errlen, "cannot write %s (does the folder exist?)", tmp);
        return -1;
    }
    size_t nd = 2 * t->L.n * (t->d8 ? 1 : 2);
    int ok = fwrite(h, 1, sizeof h, f) == sizeof h &&
             fwrite(t->wdl, 1, (2 * t->L.n + 3) / 4, f) == (2 * t->L.n + 3) / 4 &&
             fwrite(t->d8 ? (void *)t->d8 : (void *)t->d16, 1, nd, f) == nd;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        set_err(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

/* Read a table file into t (layout already set). 0 ok, -1 missing, -2 bad (message in err). */
static int table_read(cd_egtb *tb, table *t, char *err, size_t errlen)
{
    char path[1200];
    table_path(tb, t->L.m, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "%s: no such table", path);
        return -1;
    }
    unsigned char h[HDR_SIZE + 8];
    int rc = -2;
    size_t nv = (2 * t->L.n + 3) / 4;
    if (fread(h, 1, sizeof h, f) != sizeof h) {
        set_err(err, errlen, "%s: truncated header", path);
        goto out;
    }
    if (memcmp(h, MAGIC, 8) != 0) {
        set_err(err, errlen, "%s: not a condraughts table", path);
        goto out;
    }
    if (get64(h + HDR_SIZE) != fnv(0xcbf29ce484222325ull, h, HDR_SIZE)) {
        set_err(err, errlen, "%s: header checksum mismatch (corrupt file)", path);
        goto out;
    }
    if (get64(h + 40) != tb->fingerprint || strncmp((char *)h + 8, tb->rules->name, 32) != 0) {
        set_err(err, errlen, "%s: built for other rules (%.32s)", path, (char *)h + 8);
        goto out;
    }
    if (h[48] != t->L.m.wk || h[49] != t->L.m.wm || h[50] != t->L.m.bk || h[51] != t->L.m.bm ||
        get64(h + 56) != t->L.n || (h[52] != 1 && h[52] != 2)) {
        set_err(err, errlen, "%s: header does not match its signature", path);
        goto out;
    }
    size_t nd = 2 * t->L.n * h[52];
    t->wdl = malloc(nv ? nv : 1);
    if (h[52] == 1)
        t->d8 = malloc(nd ? nd : 1);
    else
        t->d16 = malloc(nd ? nd : 1);
    if (!t->wdl || (!t->d8 && !t->d16)) {
        set_err(err, errlen, "%s: out of memory", path);
        goto out;
    }
    if (fread(t->wdl, 1, nv, f) != nv ||
        fread(t->d8 ? (void *)t->d8 : (void *)t->d16, 1, nd, f) != nd) {
        set_err(err, errlen, "%s: truncated (expected %zu bytes)", path, sizeof h + nv + nd);
        goto out;
    }
    if (fgetc(f) != EOF) {
        set_err(err, errlen, "%s: trailing bytes after the table", path);
        goto out;
    }
    if (payload_sum(t) != get64(h + 120)) {
        set_err(err, errlen, "%s: checksum mismatch (corrupt file)", path);
        goto out;
    }
    t->maxdist = (int)get64(h + 64);
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 3; v++)
            t->counts[s][v] = get64(h + 72 + 8 * (3 * s + v));
    rc = 0;
out:
    fclose(f);
    if (rc) {
        free(t->wdl);
        free(t->d8);
        free(t->d16);
        t->wdl = NULL;
        t->d8 = NULL;
        t->d16 = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------- lookup */

static table **slot(cd_egtb *tb, cd_egtb_material m) { return &tb->t[m.wk][m.wm][m.bk][m.bm]; }

static int mat_ok(cd_egtb_material m)
{
    return m.wk >= 0 && m.wm >= 0 && m.bk >= 0 && m.bm >= 0 && mat_pieces(m) <= MAXP &&
           m.wk + m.wm > 0 && m.bk + m.bm > 0;
}

/* The canonical table of m, loading it on first use; NULL if unavailable. */
static table *get_table(cd_egtb *tb, cd_egtb_material m)
{
    if (!mat_ok(m))
        return NULL;
    table **sp = slot(tb, m);
    table *t = *sp;
    if (t && atomic_load_explicit(&t->state, memory_order_acquire) != 0)
        return atomic_load_explicit(&t->state, memory_order_relaxed) == 1 ? t : NULL;
    mtx_lock(&tb->lock);
    t = *sp;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t || layout_init(&t->L, m, tb->nsq, tb->half) != 0) {
            if (t)
                free(t);
            mtx_unlock(&tb->lock);
            snprintf(tb->err, sizeof tb->err, "out of memory");
            return NULL;
        }
        *sp = t;
    }
    if (atomic_load_explicit(&t->state, memory_order_relaxed) == 0) {
        char e[sizeof tb->err];
        int rc = table_read(tb, t, e, sizeof e);
        if (rc == 0) {
            int p = mat_pieces(m);
            if (p > tb->maxpieces)
                tb->maxpieces = p;
        } else if (rc == -2 || tb->err[0] == '\0') {
            memcpy(tb->err, e, sizeof e);
        }
        atomic_store_explicit(&t->state, rc == 0 ? 1 : -1, memory_order_release);
    }
    mtx_unlock(&tb->lock);
    return atomic_load_explicit(&t->state, memory_order_acquire) == 1 ? t : NULL;
}

static inline int wdl_get(const table *t, uint64_t i)
{
    return (t->wdl[i >> 2] >> (2 * (i & 3))) & 3;
}

static inline int dist_get(const table *t, uint64_t i) { return t->d8 ? t->d8[i] : t->d16[i]; }

/* Terminal value of a side to move without a move. */
static int terminal_value(const cd_rules *r)
{
    return r->goal == CD_GOAL_LOSING ? CD_EGTB_WIN : CD_EGTB_LOSS;
}

int cd_egtb_probe(cd_egtb *tb, const cd_position *pos, int *dist)
{
    if (!tb || !pos || !pos->rules)
        return CD_EGTB_UNKNOWN;
    if (pos->rules != tb->rules && /* an equal copy of the row will do */
        (strcmp(pos->rules->name, tb->rules->name) != 0 ||
         rules_fingerprint(pos->rules) != tb->fingerprint))
        return CD_EGTB_UNKNOWN;
    cd_egtb_material m = mat_of(pos);
    int mover = pos->side == CD_WHITE ? m.wk + m.wm : m.bk + m.bm;
    if (mover == 0) {
        if (dist)
            *dist = 0;
        return terminal_value(tb->rules);
    }
    int flip = !mat_canonical(m);
    table *t = get_table(tb, flip ? mat_flip(m) : m);
    if (!t)
        return CD_EGTB_UNKNOWN;
    dense D;
    pos_dense(tb, pos, flip, &D);
    uint64_t i = dense_index(&t->L, &D);
    int v = wdl_get(t, i);
    if (dist)
        *dist = v == CD_EGTB_DRAW ? 0 : dist_get(t, i);
    return v == 3 ? CD_EGTB_UNKNOWN : v;
}

int cd_egtb_pieces(const cd_egtb *tb) { return tb ? tb->maxpieces : 0; }

/* ---------------------------------------------------------------- threads */

typedef struct worker_pool {
    int nthreads;
    atomic_ullong next, done;
    uint64_t total, chunk;
    void *ctx;
    void (*fn)(void *ctx, int tid, uint64_t begin, uint64_t end);
} worker_pool;

typedef struct worker_arg {
    worker_pool *pool;
    int tid;
} worker_arg;

static void pool_work(worker_pool *p, int tid)
{
    for (;;) {
        uint64_t b = atomic_fetch_add(&p->next, p->chunk);
        if (b >= p->total)
            return;
        uint64_t e = b + p->chunk < p->total ? b + p->chunk : p->total;
        p->fn(p->ctx, tid, b, e);
        atomic_fetch_add(&p->done, e - b);
    }
}

static int pool_thread(void *a)
{
    worker_arg *w = a;
    pool_work(w->pool, w->tid);
    return 0;
}

/* Run fn over [0, total) in chunks on nthreads threads (the caller is thread 0). */
static void pool_run(int nthreads, uint64_t total, uint64_t chunk, void *ctx,
                     void (*fn)(void *, int, uint64_t, uint64_t))
{
    worker_pool p = {.nthreads = nthreads, .total = total, .chunk = chunk, .ctx = ctx, .fn = fn};
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    thrd_t th[64];
    worker_arg args[64];
    int started = 0;
    if (total > chunk)
        for (int i = 1; i < nthreads && i < 64; i++) {
            args[i] = (worker_arg){&p, i};
            if (thrd_create(&th[i], pool_thread, &args[i]) == thrd_success)
                started = i;
            else
                break;
        }
    pool_work(&p, 0);
    for (int i = 1; i <= started; i++)
        thrd_join(th[i], NULL);
}

/* ---------------------------------------------------------------- build */

typedef struct vec32 {
    uint32_t *v;
    size_t n, cap;
} vec32;

static int vec_push(vec32 *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

#define MAXLEVEL 4096

typedef struct build {
    cd_egtb *tb;
    table *t;
    const layout *L;
    _Atomic uint8_t *st;
    _Atomic uint8_t *cnt;
    uint16_t *dist;
    uint16_t *xmax; /* slowest losing material-changing move (plies), 0 none */
    int nthreads, level, rule_c, failed;
    int oom; /* the failure was an allocation */
    char failmsg[640];
    vec32 next[64];        /* per thread: final at level + 1 */
    vec32 pend[64];        /* per thread: (level, index) pairs for the buckets */
    vec32 pwin[MAXLEVEL];  /* buckets: wins through a material change at that level */
    vec32 ploss[MAXLEVEL]; /* buckets: losses waiting for their level */
    int failed_thread;
    cd_egtb_progress_fn progress;
    void *user;
    const char *signame;
    uint64_t all_done, all_total;
    cd_movelist *lists[64];
    mtx_t fail_lock;
} build;

/* The build's first failure wins: its message, and whether it was an allocation (oom). */
static void build_fail(build *B, int oom, const char *msg)
{
    mtx_lock(&B->fail_lock);
    if (!B->failed) {
        B->failed = 1;
        B->oom = oom;
        snprintf(B->failmsg, sizeof B->failmsg, "%s", msg);
    }
    mtx_unlock(&B->fail_lock);
}

/* Append x to a, or fail the build for lack of memory (a lost entry would be a wrong value). */
static void push(build *B, vec32 *a, uint32_t x)
{
    if (vec_push(a, x) != 0)
        build_fail(B, 1, "out of memory");
}

static void init_range(void *ctx, int tid, uint64_t begin, uint64_t end)
{
    build *B = ctx;
    cd_egtb *tb = B->tb;
    const layout *L = B->L;
    cd_movelist *list = B->lists[tid];
    const cd_rules *r = tb->rules;
    for (uint64_t i = begin; i < end && !B->failed; i++) {
        dense D;
        cd_position p, c;
        dense_of_index(L, i, &D);
        position_of_dense(tb, &D, &p);
        int nm = cd_generate(&p, list);
        int inside = 0, hascap = 0, noloss = 0, winmin = 0, lossmax = 0;
        for (int k = 0; k < nm; k++) {
            const cd_move *mv = &list->moves[k];
            if (mv->ncaptured)
                hascap = 1;
            cd_play_nokey(&p, mv, &c);
            cd_egtb_material cm = mat_of(&c);
            if (mat_equal(cm, L->m)) {
                inside++;
                continue;
            }
            int d, v = cd_egtb_probe(tb, &c, &d);
            if (v == CD_EGTB_UNKNOWN) {
                char name[2 * MAXP + 4], msg[600];
                mat_name(mat_canonical(cm) ? cm : mat_flip(cm), name);
                snprintf(msg, sizeof msg, "table %s is needed first (%s)", name, tb->err);
                build_fail(B, 0, msg);
                return;
            }
            if (v == CD_EGTB_LOSS) {
                if (!winmin || d + 1 < winmin)
                    winmin = d + 1;
            } else if (v == CD_EGTB_DRAW) {
                noloss = 1;
            } else if (d + 1 > lossmax) {
                lossmax = d + 1;
            }
        }
        uint8_t s = hascap ? ST_HASCAP : 0;
        B->cnt[i] = (uint8_t)inside;
        B->xmax[i] = (uint16_t)lossmax;
        B->dist[i] = 0;
        if (nm == 0) {
            atomic_store_explicit(&B->st[i],
                                  s | (terminal_value(r) == CD_EGTB_WIN ? ST_WIN : ST_LOSS),
                                  memory_order_relaxed);
            push(B, &B->pend[tid], 0);
            push(B, &B->pend[tid], (uint32_t)(i << 1 | 1));
            continue;
        }
        if (winmin || noloss) {
            atomic_store_explicit(&B->st[i], s | ST_NOLOSS, memory_order_relaxed);
            if (winmin) {
                push(B, &B->pend[tid], (uint32_t)winmin);
                push(B, &B->pend[tid], (uint32_t)(i << 1));
            }
        } else {
            atomic_store_explicit(&B->st[i], s | ST_UNKNOWN, memory_order_relaxed);
            if (inside == 0) { /* every move changes the material and loses */
                push(B, &B->pend[tid], (uint32_t)lossmax);
                push(B, &B->pend[tid], (uint32_t)(i << 1 | 1));
            }
        }
    }
}

/* Is the non-capturing king slide from bit o to bit d legal in p (Rule C)? p has no capture. */
static int slide_legal(const cd_position *p, int o, int d)
{
    uint64_t to[2];
    cd_king_targets(p, o, to);
    return (int)((to[0] >> d) & 1);
}

/* One predecessor (index pi, position pred, the move o -> d over len steps) of a final
 * position that is lost for its side to move (lost = 1) or won (lost = 0). */
static void relax(build *B, int tid, uint64_t pi, int lost, const cd_position *pred, int o, int d,
                  int len, int king, int opp_kings)
{
    uint8_t old = atomic_load_explicit(&B->st[pi], memory_order_relaxed);
    if ((old & 2) || (old & ST_HASCAP) || (!lost && (old & 3) != ST_UNKNOWN))
        return; /* final, not a real predecessor, or cannot lose */
    /* Rule C: a slide over at least one square may be forbidden (a one-step move passes
     * over nothing) */
    if (B->rule_c && king && opp_kings && len >= 2 && !slide_legal(pred, o, d))
        return;
    int level1 = B->level + 1;
    if (lost) {
        while (!(old & 2)) { /* still unknown or no-loss */
            if (atomic_compare_exchange_weak_explicit(&B->st[pi], &old,
                                                      (uint8_t)((old & ST_HASCAP) | ST_WIN),
                                                      memory_order_relaxed, memory_order_relaxed)) {
                B->dist[pi] = (uint16_t)level1;
                push(B, &B->next[tid], (uint32_t)pi);
                return;
            }
        }
        return;
    }
    uint8_t left = atomic_fetch_sub_explicit(&B->cnt[pi], 1, memory_order_relaxed) - 1;
    if (left != 0)
        return;
    int at = B->xmax[pi] > level1 ? B->xmax[pi] : level1;
    if (at == level1) {
        atomic_store_explicit(&B->st[pi], (uint8_t)((old & ST_HASCAP) | ST_LOSS),
                              memory_order_relaxed);
        B->dist[pi] = (uint16_t)level1;
        push(B, &B->next[tid], (uint32_t)pi);
    } else {
        push(B, &B->pend[tid], (uint32_t)at);
        push(B, &B->pend[tid], (uint32_t)(pi << 1 | 1));
    }
}

typedef struct level_ctx {
    build *B;
    const uint32_t *items;
} level_ctx;

static void level_range(void *ctx, int tid, uint64_t begin, uint64_t end)
{
    level_ctx *lc = ctx;
    build *B = lc->B;
    cd_egtb *tb = B->tb;
    const layout *L = B->L;
    for (uint64_t j = begin; j < end; j++) {
        uint64_t qi = lc->items[j];
        int lost = (atomic_load_explicit(&B->st[qi], memory_order_relaxed) & 3) == ST_LOSS;
        dense D;
        cd_position q;
        dense_of_index(L, qi, &D);
        position_of_dense(tb, &D, &q);
        int mover = 1 - q.side; /* the side that made the last move */
        uint64_t own = mover == CD_WHITE ? q.white[0] : q.black[0];
        uint64_t opp = mover == CD_WHITE ? q.black[0] : q.white[0];
        uint64_t occ = q.white[0] | q.black[0];
        int opp_kings = (opp & q.kings[0]) != 0 || (tb->rules->flags & CD_CON_OBSTRUCT_BY_MEN);
        int flying = (tb->rules->flags & CD_RULE_FLYING_KINGS) != 0;
        for (uint64_t x = own; x; x &= x - 1) {
            int b = __builtin_ctzll(x);
            int king = (int)((q.kings[0] >> b) & 1);
            for (int k = 0; k < 4; k++) {
                int st = tb->steps[k];
                if (!king) { /* a man came from one step behind it */
                    if ((mover == CD_WHITE) != (st > 0))
                        continue;
                }
                int len = 0;
                for (int o = b + st;
                     o >= 0 && o < 64 && ((tb->playable >> o) & 1) && !((occ >> o) & 1); o += st) {
                    len++;
                    cd_position p = q;
                    uint64_t from = (uint64_t)1 << b, to = (uint64_t)1 << o;
                    if (mover == CD_WHITE)
                        p.white[0] ^= from | to;
                    else
                        p.black[0] ^= from | to;
                    if (king)
                        p.kings[0] ^= from | to;
                    p.side = mover;
                    dense P;
                    pos_dense(tb, &p, 0, &P);
                    uint64_t pi = dense_index(L, &P);
                    relax(B, tid, pi, lost, &p, o, b, len, king, opp_kings);
                    if (!king || !flying)
                        break;
                }
            }
        }
    }
}

static void bucket_push(build *B, vec32 *bk, uint32_t level, uint32_t x)
{
    if (level >= MAXLEVEL)
        build_fail(B, 0, "distance beyond the table format's limit");
    else
        push(B, &bk[level], x);
}

/* Move the threads' pending (level, index) pairs into the buckets. */
static void gather_pending(build *B)
{
    for (int t = 0; t < B->nthreads; t++) {
        vec32 *p = &B->pend[t];
        for (size_t k = 0; k + 1 < p->n; k += 2) {
            uint32_t lv = p->v[k], x = p->v[k + 1];
            bucket_push(B, (x & 1) ? B->ploss : B->pwin, lv, x >> 1);
        }
        p->n = 0;
    }
}

static void report(build *B, const char *phase, uint64_t done, uint64_t total)
{
    if (B->progress)
        B->progress(B->signame, phase, done, total,
                    B->all_done + (strcmp(phase, "scan") == 0 ? done : total), B->all_total,
                    B->user);
}

static cd_result build_table(cd_egtb *tb, table *t, int nthreads, cd_egtb_progress_fn progress,
                             void *user, uint64_t all_done, uint64_t all_total, char *err,
                             size_t errlen)
{
    uint64_t total = 2 * t->L.n;
    char name[2 * MAXP + 4];
    mat_name(t->L.m, name);
    if (total >= (1ull << 31)) {
        set_err(err, errlen, "table %s has %llu positions: more than this builder indexes", name,
                (unsigned long long)total);
        return CD_ERR_ARG;
    }
    build *B = calloc(1, sizeof *B);
    if (!B) {
        set_err(err, errlen, "out of memory");
        return CD_ERR_OVERFLOW;
    }
    B->tb = tb;
    B->t = t;
    B->L = &t->L;
    B->nthreads = nthreads < 1 ? 1 : nthreads > 64 ? 64 : nthreads;
    B->rule_c = (tb->rules->flags & CD_RULE_CONSTITUTIONAL) != 0;
    B->progress = progress;
    B->user = user;
    B->signame = name;
    B->all_done = all_done;
    B->all_total = all_total;
    mtx_init(&B->fail_lock, mtx_plain);
    B->st = malloc(total);
    B->cnt = malloc(total);
    B->dist = malloc(total * sizeof *B->dist);
    B->xmax = malloc(total * sizeof *B->xmax);
    int ok = B->st && B->cnt && B->dist && B->xmax;
    for (int i = 0; ok && i < B->nthreads; i++)
        ok = (B->lists[i] = malloc(sizeof(cd_movelist))) != NULL;
    cd_result rc = CD_ERR_OVERFLOW;
    vec32 cur = {0};
    if (!ok) {
        set_err(err, errlen, "out of memory for table %s", name);
        goto out;
    }
    report(B, "scan", 0, total);
    pool_run(B->nthreads, total, 4096, B, init_range);
    if (B->failed) {
        set_err(err, errlen, "%s: %s", name, B->failmsg);
        rc = B->oom ? CD_ERR_OVERFLOW : CD_ERR_ARG;
        goto out;
    }
    gather_pending(B);
    report(B, "scan", total, total);
    uint64_t resolved = 0;
    for (B->level = 0; B->level < MAXLEVEL && !B->failed; B->level++) {
        int lv = B->level;
        /* cur holds the finals found at this level by the last one; add the buckets */
        for (size_t k = 0; k < B->pwin[lv].n; k++) {
            uint32_t x = B->pwin[lv].v[k];
            uint8_t old = atomic_load_explicit(&B->st[x], memory_order_relaxed);
            if ((old & 3) == ST_NOLOSS) {
                atomic_store_explicit(&B->st[x], (uint8_t)((old & ST_HASCAP) | ST_WIN),
                                      memory_order_relaxed);
                B->dist[x] = (uint16_t)lv;
                push(B, &cur, x);
            }
        }
        for (size_t k = 0; k < B->ploss[lv].n; k++) {
            uint32_t x = B->ploss[lv].v[k];
            uint8_t old = atomic_load_explicit(&B->st[x], memory_order_relaxed);
            if (lv == 0 || (old & 3) == ST_UNKNOWN) { /* level 0: terminal, already set */
                if (lv != 0)
                    atomic_store_explicit(&B->st[x], (uint8_t)((old & ST_HASCAP) | ST_LOSS),
                                          memory_order_relaxed);
                B->dist[x] = (uint16_t)lv;
                push(B, &cur, x);
            }
        }
        free(B->pwin[lv].v);
        free(B->ploss[lv].v);
        B->pwin[lv] = (vec32){0};
        B->ploss[lv] = (vec32){0};
        if (cur.n) {
            level_ctx lc = {B, cur.v};
            pool_run(B->nthreads, cur.n, 1024, &lc, level_range);
            resolved += cur.n;
            cur.n = 0;
            for (int i = 0; i < B->nthreads; i++) {
                for (size_t k = 0; k < B->next[i].n; k++)
                    push(B, &cur, B->next[i].v[k]);
                B->next[i].n = 0;
            }
            gather_pending(B);
            report(B, "solve", resolved, total);
        }
        int more = cur.n != 0;
        for (int k = lv + 1; k < MAXLEVEL && !more; k++)
            more = B->pwin[k].n || B->ploss[k].n;
        if (!more)
            break;
    }
    if (B->failed) {
        set_err(err, errlen, "%s: %s", name, B->failmsg);
        rc = B->oom ? CD_ERR_OVERFLOW : CD_ERR_ARG;
        goto out;
    }
    /* final values */
    size_t nv = (total + 3) / 4;
    int maxd = 0;
    t->wdl = calloc(nv ? nv : 1, 1);
    if (!t->wdl) {
        set_err(err, errlen, "out of memory");
        goto out;
    }
    memset(t->counts, 0, sizeof t->counts);
    for (uint64_t i = 0; i < total; i++) {
        int s = atomic_load_explicit(&B->st[i], memory_order_relaxed) & 3;
        int v = s == ST_WIN ? CD_EGTB_WIN : s == ST_LOSS ? CD_EGTB_LOSS : CD_EGTB_DRAW;
        if (v == CD_EGTB_DRAW)
            B->dist[i] = 0;
        else if (B->dist[i] > maxd)
            maxd = B->dist[i];
        t->wdl[i >> 2] |= (uint8_t)(v << (2 * (i & 3)));
        t->counts[i >= t->L.n][v]++;
    }
    t->maxdist = maxd;
    if (maxd < 256) {
        t->d8 = malloc(total ? total : 1);
        if (!t->d8) {
            set_err(err, errlen, "out of memory");
            goto out;
        }
        for (uint64_t i = 0; i < total; i++)
            t->d8[i] = (uint8_t)B->dist[i];
    } else {
        t->d16 = B->dist;
        B->dist = NULL;
    }
    rc = CD_OK;
out:
    free(cur.v);
    for (int i = 0; i < 64; i++) {
        free(B->next[i].v);
        free(B->pend[i].v);
        free(B->lists[i]);
    }
    for (int i = 0; i < MAXLEVEL; i++) {
        free(B->pwin[i].v);
        free(B->ploss[i].v);
    }
    free((void *)B->st);
    free((void *)B->cnt);
    free(B->dist);
    free(B->xmax);
    mtx_destroy(&B->fail_lock);
    free(B);
    if (rc) {
        free(t->wdl);
        free(t->d8);
        t->wdl = NULL;
        t->d8 = NULL;
    }
    return rc;
}

/* Every canonical signature of up to `pieces` pieces (and kings-only up to kpieces), in
 * build order: fewer pieces first, then fewer men. */
static int signatures(int pieces, int kpieces, cd_egtb_material *out, int max)
{
    int n = 0;
    int top = pieces > kpieces ? pieces : kpieces;
    for (int p = 2; p <= top; p++)
        for (int men = 0; men <= p; men++)
            for (int wm = 0; wm <= men; wm++) {
                int bm = men - wm;
                for (int wk = 0; wk + wm + bm <= p; wk++) {
                    int bk = p - wk - wm - bm;
                    cd_egtb_material m = {wk, wm, bk, bm};
                    if (!mat_ok(m) || !mat_canonical(m))
                        continue;
                    if (p > pieces && men > 0)
                        continue;
                    if (n < max)
                        out[n] = m;
                    n++;
                }
            }
    return n;
}

cd_result cd_egtb_build(cd_egtb *tb, int pieces, int kings_pieces, int threads,
                        cd_egtb_progress_fn progress, void *user, char *err, size_t errlen)
{
    if (!tb || pieces < 2 || pieces > MAXP || kings_pieces > MAXP || threads < 1) {
        set_err(err, errlen, "pieces must be 2..%d", MAXP);
        return CD_ERR_ARG;
    }
    cd_egtb_material list[4096];
    int n = signatures(pieces, kings_pieces, list, 4096);
    uint64_t all_total = 0, all_done = 0;
    uint64_t sizes[4096];
    for (int i = 0; i < n; i++) {
        layout L;
        if (layout_init(&L, list[i], tb->nsq, tb->half) != 0) {
            set_err(err, errlen, "out of memory");
            return CD_ERR_OVERFLOW;
        }
        sizes[i] = 2 * L.n;
        all_total += 2 * L.n;
        layout_free(&L);
    }
    for (int i = 0; i < n; i++) {
        table *t = get_table(tb, list[i]);
        int built = !t;
        if (!t) {
            t = *slot(tb, list[i]);
            if (!t) {
                set_err(err, errlen, "out of memory");
                return CD_ERR_OVERFLOW;
            }
            tb->err[0] = '\0';
            cd_result r =
                build_table(tb, t, threads, progress, user, all_done, all_total, err, errlen);
            if (r != CD_OK)
                return r;
            if (table_write(tb, t, err, errlen) != 0)
                return CD_ERR_IO;
            int p = mat_pieces(list[i]);
            if (p > tb->maxpieces)
                tb->maxpieces = p;
            atomic_store_explicit(&t->state, 1, memory_order_release);
        }
        all_done += sizes[i];
        if (progress) {
            char name[2 * MAXP + 4];
            mat_name(list[i], name);
            progress(name, built ? "done" : "kept", 1, 1, all_done, all_total, user);
        }
    }
    return CD_OK;
}

/* ---------------------------------------------------------------- statistics */

cd_result cd_egtb_stats_of(cd_egtb *tb, cd_egtb_material m, int side, cd_egtb_stats *st, char *err,
                           size_t errlen)
{
    if (!tb || !st || !mat_ok(m) || (side != CD_WHITE && side != CD_BLACK)) {
        set_err(err, errlen, "bad material or side");
        return CD_ERR_ARG;
    }
    int flip = !mat_canonical(m);
    cd_egtb_material cm = flip ? mat_flip(m) : m;
    table *t = get_table(tb, cm);
    if (!t) {
        char name[2 * MAXP + 4];
        mat_name(cm, name);
        set_err(err, errlen, "table %s not available: %s", name, tb->err);
        return CD_ERR_IO;
    }
    int s = flip ? 1 - side : side;
    memset(st, 0, sizeof *st);
    st->wins = t->counts[s][CD_EGTB_WIN];
    st->draws = t->counts[s][CD_EGTB_DRAW];
    st->losses = t->counts[s][CD_EGTB_LOSS];
    uint64_t best = UINT64_MAX;
    uint64_t base = (uint64_t)s * t->L.n;
    for (uint64_t i = 0; i < t->L.n; i++) {
        uint64_t x = base + i;
        if (wdl_get(t, x) == CD_EGTB_WIN && dist_get(t, x) > st->longest) {
            st->longest = dist_get(t, x);
            best = x;
        }
    }
    if (best != UINT64_MAX) {
        dense D;
        dense_of_index(&t->L, best, &D);
        if (flip) { /* back to the asked colours */
            cd_position p;
            position_of_dense(tb, &D, &p);
            pos_dense(tb, &p, 1, &D);
        }
        position_of_dense(tb, &D, &st->example);
        cd_position_rekey(&st->example);
    }
    return CD_OK;
}

cd_result cd_egtb_each(cd_egtb *tb, cd_egtb_material m, int side, cd_egtb_each_fn fn, void *user,
                       char *err, size_t errlen)
{
    if (!tb || !fn || !mat_ok(m) || (side != CD_WHITE && side != CD_BLACK)) {
        set_err(err, errlen, "bad material or side");
        return CD_ERR_ARG;
    }
    int flip = !mat_canonical(m);
    table *t = get_table(tb, flip ? mat_flip(m) : m);
    if (!t) {
        set_err(err, errlen, "table not available: %s", tb->err);
        return CD_ERR_IO;
    }
    int s = flip ? 1 - side : side;
    uint64_t base = (uint64_t)s * t->L.n;
    for (uint64_t i = 0; i < t->L.n; i++) {
        dense D;
        cd_position p;
        dense_of_index(&t->L, base + i, &D);
        position_of_dense(tb, &D, &p);
        if (flip) {
            pos_dense(tb, &p, 1, &D);
            position_of_dense(tb, &D, &p);
        }
        cd_position_rekey(&p);
        int v = wdl_get(t, base + i);
        if (fn(&p, v, v == CD_EGTB_DRAW ? 0 : dist_get(t, base + i), user))
            break;
    }
    return CD_OK;
}
