/*
 * egtb.c -- endgame tablebases: perfect indexing, files, probing, statistics; the
 * retrograde build is egtb_build.c's (egtb.h holds what they share).
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
 * File (docs/formats.md gives it byte by byte): a 128-byte header (magic,
 * version, variant name, rules fingerprint, signature, positions per side,
 * distance width, longest distance, counts, payload checksum, header checksum;
 * little-endian), then the 2-bit values (0 draw, 1 win, 2 loss; four per byte,
 * side-major) and the distances (one or two bytes each, little-endian).
 *
 * Reading. A table is read at its first probe: mapped read-only where the system has mmap (the
 * page cache then holds one copy for all the processes that probe it, and pages come in as
 * probes touch them), otherwise read into memory. The header and the file's size are checked at
 * once. The payload checksum of a small table (tb->check_sync bytes or fewer) is checked then
 * too; a larger one (Russian 6-piece tables are up to 300 MB) is checked by a thread of its own
 * while the search goes on: cd_egtb_probe waits for that check, cd_egtb_probe_ready answers
 * CD_EGTB_UNKNOWN until it has passed. One such thread runs at a time (they queue on
 * check_lock), and cd_egtb_close stops them.
 */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* mmap, fstat */
#define EGTB_MMAP       1
#include <sys/mman.h>
#include <sys/stat.h>
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "board.h"
#include "bytes.h"
#include "egtb.h"
#include "movegen.h"
#include "strbuf.h"

#if defined(__BMI2__)
#include <immintrin.h> /* pdep/pext: one instruction for select and dense <-> bits */
#endif

#define MAGIC    "CDEGTB1\n"
#define HDR_SIZE 128
#define DATA_OFF (HDR_SIZE + 8) /* the header and its checksum */

/* Payloads up to this size are checked at the first probe (1 MB: about a millisecond; a search
 * meets many tables in one move). */
#define CHECK_SYNC_DEFAULT ((size_t)1 << 20)
#define CHECK_STEP         ((size_t)1 << 20) /* a check looks for cd_egtb_close this often */

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

void egtb_mat_name(cd_egtb_material m, char *buf)
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

/* ---------------------------------------------------------------- layout */

int egtb_layout_init(layout *L, cd_egtb_material m, int nsq, int half)
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

void egtb_layout_free(layout *L)
{
    free(L->off);
    L->off = NULL;
}

/* Dense masks of the four groups (White men, Black men, White kings, Black kings). */
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

void egtb_pos_dense(const cd_egtb *tb, const cd_position *p, int flip, dense *D)
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

uint64_t egtb_dense_index(const layout *L, const dense *D)
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

void egtb_dense_of_index(const layout *L, uint64_t idx, dense *D)
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

void egtb_position_of_dense(const cd_egtb *tb, const dense *D, cd_position *p)
{
    cd_position_empty(p, tb->rules, D->side);
    uint64_t wk = from_dense(tb, D->wk), bk = from_dense(tb, D->bk);
    p->white[0] = from_dense(tb, D->wm) | wk;
    p->black[0] = from_dense(tb, D->bm) | bk;
    p->kings[0] = wk | bk;
}

/* ---------------------------------------------------------------- handle */

/* Fingerprint of everything in a rules row that can change a move list. */
static uint64_t rules_fingerprint(const cd_rules *r)
{
    int f[6] = {(int)r->geometry,  (int)r->flags, (int)r->precedence,
                (int)r->promotion, (int)r->halt,  (int)r->goal};
    return cd_fnv1a64(CD_FNV64_BASIS, f, sizeof f);
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
    if (mtx_init(&tb->check_lock, mtx_plain) != thrd_success) {
        mtx_destroy(&tb->lock);
        free(tb);
        return NULL;
    }
    tb->check_sync = CHECK_SYNC_DEFAULT;
    tb->rules = rules;
    const cd_geom *g = cd_geom_of(rules);
    tb->nsq = g->squares;
    tb->half = g->half;
    tb->steps[0] = -(g->half + 1);
    tb->steps[1] = -g->half;
    tb->steps[2] = g->half;
    tb->steps[3] = g->half + 1;
    tb->playable = cd_geom_playable(g);
    for (int n = 1; n <= g->squares; n++) {
        int b = cd_bit_of_internal(g, n);
        tb->bit2d[b] = n - 1;
        tb->d2bit[n - 1] = b;
    }
    tb->monotone = 1;
    for (int n = 1; n < g->squares; n++)
        tb->monotone &= tb->d2bit[n] > tb->d2bit[n - 1];
    tb->fingerprint = rules_fingerprint(rules);
    strcpy(tb->dir, dir);
    return tb;
}

/* Let go of t's contents (read or built); t itself stays. */
static void table_release(table *t)
{
    if (t->base) {
#ifdef EGTB_MMAP
        if (t->mapped)
            munmap(t->base, t->size);
        else
#endif
            free(t->base);
    } else {
        free((void *)t->wdl);
        free((void *)t->dist);
    }
    t->base = NULL;
    t->size = 0;
    t->mapped = 0;
    t->wdl = t->dist = NULL;
}

static void table_free(table *t)
{
    if (!t)
        return;
    if (t->checker)
        thrd_join(t->check_thread, NULL);
    egtb_layout_free(&t->L);
    table_release(t);
    free(t);
}

void cd_egtb_close(cd_egtb *tb)
{
    if (!tb)
        return;
    atomic_store(&tb->closing, 1); /* background checks under way stop */
    for (int a = 0; a <= MAXP; a++)
        for (int b = 0; b <= MAXP; b++)
            for (int c = 0; c <= MAXP; c++)
                for (int d = 0; d <= MAXP; d++)
                    table_free(tb->t[a][b][c][d]);
    mtx_destroy(&tb->check_lock);
    mtx_destroy(&tb->lock);
    free(tb);
}

void cd_egtb_set_check_sync(cd_egtb *tb, size_t bytes)
{
    if (tb)
        tb->check_sync = bytes;
}

const char *cd_egtb_error(const cd_egtb *tb) { return tb ? tb->err : "no tablebase"; }

static void table_path(const cd_egtb *tb, cd_egtb_material m, char *path, size_t len)
{
    char name[2 * MAXP + 4];
    egtb_mat_name(m, name);
    snprintf(path, len, "%s/%s-%s.cdtb", tb->dir, tb->rules->name, name);
}

/* ---------------------------------------------------------------- file format */

/* The payload checksum of t (the values, then the distances) in *sum: 0, or -1 when *stop (may
 * be NULL) was set (looked at every CHECK_STEP bytes, so that cd_egtb_close need not wait for a
 * whole table). */
static int payload_sum(const table *t, atomic_int *stop, uint64_t *sum)
{
    const uint8_t *part[2] = {t->wdl, t->dist};
    size_t len[2] = {(2 * t->L.n + 3) / 4, 2 * t->L.n * (size_t)t->dbytes};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < 2; k++)
        for (size_t at = 0; at < len[k]; at += CHECK_STEP) {
            if (stop && atomic_load_explicit(stop, memory_order_relaxed))
                return -1;
            h = cd_fnv1a64(h, part[k] + at, len[k] - at < CHECK_STEP ? len[k] - at : CHECK_STEP);
        }
    *sum = h;
    return 0;
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
    cd_put_le(h + 40, tb->fingerprint, 8);
    h[48] = (unsigned char)t->L.m.wk;
    h[49] = (unsigned char)t->L.m.wm;
    h[50] = (unsigned char)t->L.m.bk;
    h[51] = (unsigned char)t->L.m.bm;
    h[52] = (unsigned char)t->dbytes;
    cd_put_le(h + 56, t->L.n, 8);
    cd_put_le(h + 64, (uint64_t)t->maxdist, 8);
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 3; v++)
            cd_put_le(h + 72 + 8 * (3 * s + v), t->counts[s][v], 8);
    cd_put_le(h + 120, sum, 8);
}

int egtb_table_write(cd_egtb *tb, const table *t, char *err, size_t errlen)
{
    char path[1200], tmp[1300];
    table_path(tb, t->L.m, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unsigned char h[HDR_SIZE + 8];
    uint64_t sum;
    payload_sum(t, NULL, &sum);
    header_write(tb, t, h, sum);
    cd_put_le(h + HDR_SIZE, cd_fnv1a64(CD_FNV64_BASIS, h, HDR_SIZE), 8);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        set_err(err, errlen, "cannot write %s (does the folder exist?)", tmp);
        return -1;
    }
    size_t nd = 2 * t->L.n * (size_t)t->dbytes;
    int ok = fwrite(h, 1, sizeof h, f) == sizeof h &&
             fwrite(t->wdl, 1, (2 * t->L.n + 3) / 4, f) == (2 * t->L.n + 3) / 4 &&
             fwrite(t->dist, 1, nd, f) == nd;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        set_err(err, errlen, "cannot write %s", path);
        return -1;
    }
    return 0;
}

/* The file's bytes: mapped read-only where the system can, else read into memory. 0, or -1
 * with a message. */
static int file_bytes(FILE *f, const char *path, table *t, char *err, size_t errlen)
{
#ifdef EGTB_MMAP
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < 0) {
        set_err(err, errlen, "%s: cannot read", path);
        return -1;
    }
    t->size = (size_t)st.st_size;
    if (t->size > 0) {
        void *p = mmap(NULL, t->size, PROT_READ, MAP_SHARED, fileno(f), 0);
        if (p != MAP_FAILED) {
            t->base = p;
            t->mapped = 1;
            return 0;
        }
    }
#endif
    if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
        set_err(err, errlen, "%s: cannot read", path);
        return -1;
    }
    t->size = (size_t)ftell(f);
    rewind(f);
    t->base = malloc(t->size ? t->size : 1);
    if (!t->base) {
        set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (fread(t->base, 1, t->size, f) != t->size) {
        set_err(err, errlen, "%s: cannot read", path);
        return -1;
    }
    return 0;
}

/* Read a table file into t (t->L.m set; the layout is set up here once the file is found: a
 * search probes every material it meets up to CD_EGTB_MAX_PIECES, and the layout of one with
 * many men takes long to set up). Everything but the payload checksum is checked (the caller
 * checks that: payload_ok). 0 ok, -1 missing, -2 bad (message in err). */
static int table_read(cd_egtb *tb, table *t, char *err, size_t errlen)
{
    char path[1200];
    table_path(tb, t->L.m, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "%s: no such table", path);
        return -1;
    }
    if (egtb_table_layout(tb, t) != 0) {
        fclose(f);
        set_err(err, errlen, "%s: out of memory", path);
        return -2;
    }
    int rc = -2;
    if (file_bytes(f, path, t, err, errlen) != 0)
        goto out;
    const unsigned char *h = t->base;
    size_t nv = (2 * t->L.n + 3) / 4;
    if (t->size < DATA_OFF) {
        set_err(err, errlen, "%s: truncated header", path);
        goto out;
    }
    if (memcmp(h, MAGIC, 8) != 0) {
        set_err(err, errlen, "%s: not a condraughts table", path);
        goto out;
    }
    if (cd_get_le(h + HDR_SIZE, 8) != cd_fnv1a64(CD_FNV64_BASIS, h, HDR_SIZE)) {
        set_err(err, errlen, "%s: header checksum mismatch (corrupt file)", path);
        goto out;
    }
    if (cd_get_le(h + 40, 8) != tb->fingerprint ||
        strncmp((char *)h + 8, tb->rules->name, 32) != 0) {
        set_err(err, errlen, "%s: built for other rules (%.32s)", path, (char *)h + 8);
        goto out;
    }
    if (h[48] != t->L.m.wk || h[49] != t->L.m.wm || h[50] != t->L.m.bk || h[51] != t->L.m.bm ||
        cd_get_le(h + 56, 8) != t->L.n || (h[52] != 1 && h[52] != 2)) {
        set_err(err, errlen, "%s: header does not match its signature", path);
        goto out;
    }
    size_t want = DATA_OFF + nv + 2 * t->L.n * h[52];
    if (t->size < want) {
        set_err(err, errlen, "%s: truncated (expected %zu bytes)", path, want);
        goto out;
    }
    if (t->size > want) {
        set_err(err, errlen, "%s: trailing bytes after the table", path);
        goto out;
    }
    t->dbytes = h[52];
    t->wdl = t->base + DATA_OFF;
    t->dist = t->wdl + nv;
    t->maxdist = (int)cd_get_le(h + 64, 8);
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 3; v++)
            t->counts[s][v] = cd_get_le(h + 72 + 8 * (3 * s + v), 8);
    rc = 0;
out:
    fclose(f);
    if (rc)
        table_release(t);
    return rc;
}

/* Whether t's payload matches the checksum its header gives: 1 yes, 0 no, -1 stopped because
 * the handle is closing. */
static int payload_matches(cd_egtb *tb, const table *t)
{
    uint64_t h;
    return payload_sum(t, &tb->closing, &h) != 0 ? -1 : h == cd_get_le(t->base + 120, 8);
}

/* The end of a read: t checked (ok 1), damaged (0) or its check stopped (-1); its state set and
 * the handle told. */
static void table_settle(cd_egtb *tb, table *t, int ok)
{
    mtx_lock(&tb->lock);
    if (ok == 1) {
        int p = mat_pieces(t->L.m);
        if (p > tb->maxpieces)
            tb->maxpieces = p;
    } else {
        if (ok == 0) {
            char path[1200];
            table_path(tb, t->L.m, path, sizeof path);
            set_err(tb->err, sizeof tb->err, "%.470s: checksum mismatch (corrupt file)", path);
        }
        table_release(t);
    }
    atomic_store_explicit(&t->state, ok == 1 ? 1 : -1, memory_order_release);
    mtx_unlock(&tb->lock);
}

typedef struct check_job {
    cd_egtb *tb;
    table *t;
} check_job;

static int check_thread(void *arg)
{
    check_job j = *(check_job *)arg;
    free(arg);
    /* one background check at a time: each reads a large table through, and two at once would
     * only share the memory bandwidth and take a second core from the search */
    mtx_lock(&j.tb->check_lock);
    int ok = payload_matches(j.tb, j.t);
    mtx_unlock(&j.tb->check_lock);
    table_settle(j.tb, j.t, ok);
    return 0;
}

/* ---------------------------------------------------------------- lookup */

int egtb_table_layout(const cd_egtb *tb, table *t)
{
    return t->L.off ? 0 : egtb_layout_init(&t->L, t->L.m, tb->nsq, tb->half);
}

/* The canonical table of m, loading it on first use; NULL if unavailable (egtb.h). */
table *egtb_get_table(cd_egtb *tb, cd_egtb_material m, int wait)
{
    if (!mat_ok(m))
        return NULL;
    table **sp = slot(tb, m);
    table *t = *sp;
    int st = t ? atomic_load_explicit(&t->state, memory_order_acquire) : 0;
    if (st == 1)
        return t;
    if (st == -1 || (st == 2 && !wait))
        return NULL;
    if (st == 0) {
        mtx_lock(&tb->lock);
        t = *sp;
        if (!t) {
            t = calloc(1, sizeof *t);
            if (!t) {
                mtx_unlock(&tb->lock);
                snprintf(tb->err, sizeof tb->err, "out of memory");
                return NULL;
            }
            t->L.m = m; /* the layout is set up by table_read, once the file is found */
            *sp = t;
        }
        if (atomic_load_explicit(&t->state, memory_order_relaxed) == 0) {
            char e[sizeof tb->err];
            int rc = table_read(tb, t, e, sizeof e);
            if (rc != 0) {
                if (rc == -2 || tb->err[0] == '\0')
                    memcpy(tb->err, e, sizeof e);
                atomic_store_explicit(&t->state, -1, memory_order_release);
            } else {
                size_t bytes = t->size - DATA_OFF;
                check_job *j = bytes > tb->check_sync ? malloc(sizeof *j) : NULL;
                atomic_store_explicit(&t->state, 2, memory_order_release);
                if (j) {
                    *j = (check_job){tb, t};
                    if (thrd_create(&t->check_thread, check_thread, j) == thrd_success) {
                        t->checker = 1;
                    } else {
                        free(j);
                        j = NULL;
                    }
                }
                if (!j) { /* small, or no thread: checked here */
                    mtx_unlock(&tb->lock);
                    table_settle(tb, t, payload_matches(tb, t));
                    mtx_lock(&tb->lock);
                }
            }
        }
        mtx_unlock(&tb->lock);
    }
    while (wait && atomic_load_explicit(&t->state, memory_order_acquire) == 2)
        thrd_sleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    return atomic_load_explicit(&t->state, memory_order_acquire) == 1 ? t : NULL;
}

static inline int wdl_get(const table *t, uint64_t i)
{
    return (t->wdl[i >> 2] >> (2 * (i & 3))) & 3;
}

static inline int dist_get(const table *t, uint64_t i)
{
    return t->dbytes == 1 ? t->dist[i] : t->dist[2 * i] | t->dist[2 * i + 1] << 8;
}

/* cd_egtb_probe (wait: for a table's check under way) and cd_egtb_probe_ready (not). */
static int probe(cd_egtb *tb, const cd_position *pos, int *dist, int wait)
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
    table *t = egtb_get_table(tb, flip ? mat_flip(m) : m, wait);
    if (!t)
        return CD_EGTB_UNKNOWN;
    dense D;
    egtb_pos_dense(tb, pos, flip, &D);
    uint64_t i = egtb_dense_index(&t->L, &D);
    int v = wdl_get(t, i);
    if (dist)
        *dist = v == CD_EGTB_DRAW ? 0 : dist_get(t, i);
    return v == 3 ? CD_EGTB_UNKNOWN : v;
}

int cd_egtb_probe(cd_egtb *tb, const cd_position *pos, int *dist)
{
    return probe(tb, pos, dist, 1);
}

int cd_egtb_probe_ready(cd_egtb *tb, const cd_position *pos, int *dist)
{
    return probe(tb, pos, dist, 0);
}

int cd_egtb_pieces(const cd_egtb *tb) { return tb ? tb->maxpieces : 0; }

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
    table *t = egtb_get_table(tb, cm, 1);
    if (!t) {
        char name[2 * MAXP + 4];
        egtb_mat_name(cm, name);
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
        egtb_dense_of_index(&t->L, best, &D);
        if (flip) { /* back to the asked colours */
            cd_position p;
            egtb_position_of_dense(tb, &D, &p);
            egtb_pos_dense(tb, &p, 1, &D);
        }
        egtb_position_of_dense(tb, &D, &st->example);
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
    table *t = egtb_get_table(tb, flip ? mat_flip(m) : m, 1);
    if (!t) {
        set_err(err, errlen, "table not available: %s", tb->err);
        return CD_ERR_IO;
    }
    int s = flip ? 1 - side : side;
    uint64_t base = (uint64_t)s * t->L.n;
    for (uint64_t i = 0; i < t->L.n; i++) {
        dense D;
        cd_position p;
        egtb_dense_of_index(&t->L, base + i, &D);
        egtb_position_of_dense(tb, &D, &p);
        if (flip) {
            egtb_pos_dense(tb, &p, 1, &D);
            egtb_position_of_dense(tb, &D, &p);
        }
        cd_position_rekey(&p);
        int v = wdl_get(t, base + i);
        if (fn(&p, v, v == CD_EGTB_DRAW ? 0 : dist_get(t, base + i), user))
            break;
    }
    return CD_OK;
}
