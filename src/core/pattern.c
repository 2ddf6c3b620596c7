/*
 * pattern.c -- the learned evaluation (pattern.h): layouts, features, scoring, the weights file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "net.h"
#include "pattern.h"

/* A family's name (the weights file's name and header, at most 15 characters) and the variant
 * it evaluates (its canonical name: the two differ where the variant's name is longer). */
static const struct {
    const char *name, *variant;
    int geometry;
} families[CD_PAT_FAMILIES] = {
    {"international", "international", CD_GEOM_10X10},
    {"constitutional", "constitutional", CD_GEOM_10X10},
    {"russian", "russian", CD_GEOM_8X8},
    {"killer", "killer", CD_GEOM_10X10},
    {"modern", "modern", CD_GEOM_10X10},
    {"brazilian", "brazilian", CD_GEOM_8X8},
    {"russian-const", "russian-constitutional", CD_GEOM_8X8},
    {"brazilian-const", "brazilian-constitutional", CD_GEOM_8X8},
};

static cd_pattern_weights *loaded[CD_PAT_FAMILIES];

#if defined(__BMI2__)
#include <immintrin.h> /* pext: a window's squares gathered in one instruction */
static inline unsigned gather(uint64_t x, uint64_t mask) { return (unsigned)_pext_u64(x, mask); }
#else
/* The bits of x under mask, packed low (pext without BMI2: sanitizer and portable builds). */
static inline unsigned gather(uint64_t x, uint64_t mask)
{
    unsigned out = 0;
    for (int i = 0; mask; mask &= mask - 1, i++)
        if (x & mask & -mask)
            out |= 1u << i;
    return out;
}
#endif

int cd_pattern_family(const cd_rules *r)
{
    /* Every evaluation asks; the answer for the last rules of this thread is kept, keyed by
     * what decides it (the name's pointer and the geometry), so strcmp runs once a search. */
    static _Thread_local const cd_rules *last;
    static _Thread_local const char *last_name;
    static _Thread_local int last_geometry, last_family;
    if (!r || !r->name)
        return -1;
    if (r == last && r->name == last_name && (int)r->geometry == last_geometry)
        return last_family;
    int f = -1;
    for (int i = 0; i < CD_PAT_FAMILIES && f < 0; i++)
        if (!strcmp(r->name, families[i].variant) && (int)r->geometry == families[i].geometry)
            f = i;
    last = r;
    last_name = r->name;
    last_geometry = (int)r->geometry;
    last_family = f;
    return f;
}

const char *cd_pattern_family_name(int family)
{
    return family >= 0 && family < CD_PAT_FAMILIES ? families[family].name : NULL;
}

/* ternary[b]: the base-3 number whose digits are the bits of b. Filled by the first
 * cd_pattern_layout_of, which every layout (and so every weights table) comes from. */
static uint16_t ternary[256];

static void init_ternary(void)
{
    if (ternary[255])
        return;
    for (int b = 0; b < 256; b++) {
        int v = 0, p = 1;
        for (int i = 0; i < 8; i++, p *= 3)
            if (b >> i & 1)
                v += p;
        ternary[b] = (uint16_t)v;
    }
}

int cd_pattern_layout_of(int geometry, cd_pattern_layout *out)
{
    return cd_pattern_layout_wide(geometry, 0, out);
}

int cd_pattern_layout_wide(int geometry, int wide, cd_pattern_layout *out)
{
    if (geometry != CD_GEOM_10X10 && geometry != CD_GEOM_8X8)
        return 0;
    const cd_geom *g = &cd_geoms[geometry];
    init_ternary();
    memset(out, 0, sizeof *out);
    out->geometry = geometry;
    out->start = geometry == CD_GEOM_10X10 ? 40 : 24;
    for (int odd = 0; odd <= (wide != 0); odd++)
        for (int r0 = odd; r0 + 4 <= g->height; r0 += 2)
            for (int c0 = odd; c0 + 4 <= g->width; c0 += 2) {
                uint64_t m = 0;
                for (int r = r0; r < r0 + 4; r++)
                    for (int c = c0; c < c0 + 4; c++)
                        if ((r + c) & 1)
                            m |= 1ull << cd_bit_of_internal(g, r * g->half + c / 2 + 1);
                out->mask[out->regions++] = m;
            }
    out->squares = g->squares;
    out->step = g->half;
    memset(out->square, -1, sizeof out->square);
    for (int n = 1; n <= g->squares; n++) {
        int bit = cd_bit_of_internal(g, n), row = (n - 1) / g->half;
        int col = 2 * ((n - 1) % g->half) + !(row & 1);
        out->board |= 1ull << bit;
        for (int b = 0; b < 4; b++)
            if (col >> b & 1)
                out->colbit[b] |= 1ull << bit;
        out->square[bit] = (int8_t)(n - 1);
    }
    return 1;
}

void cd_pattern_twin(const cd_pattern_layout *l, int region, int config, int *region2, int *config2)
{
    const cd_geom *g = &cd_geoms[l->geometry];
    uint64_t m = l->mask[region], rot = 0;
    int bits[CD_PAT_SQUARES], n = 0;
    for (uint64_t x = m; x; x &= x - 1) {
        int sq = cd_internal_of_bit(g, __builtin_ctzll(x));
        bits[n++] = cd_bit_of_internal(g, g->squares + 1 - sq);
        rot |= 1ull << bits[n - 1];
    }
    int r2 = 0;
    while (r2 < l->regions && l->mask[r2] != rot)
        r2++;
    int c2 = 0, p3[CD_PAT_SQUARES];
    for (int i = 0, p = 1; i < CD_PAT_SQUARES; i++, p *= 3)
        p3[i] = p;
    for (int i = 0; i < n; i++) {
        int digit = config % 3;
        config /= 3;
        /* its place among the twin window's squares, in ascending bit order */
        int j = __builtin_popcountll(rot & ((1ull << bits[i]) - 1));
        c2 += p3[j] * (digit == 0 ? 0 : 3 - digit);
    }
    *region2 = r2;
    *config2 = c2;
}

/* The empty squares a king on bit reaches along its four lines, up to the first piece. */
static inline uint64_t king_reach(int bit, uint64_t empty, int step)
{
    uint64_t out = 0, from = 1ull << bit;
    for (int d = step; d <= step + 1; d++) {
        for (uint64_t x = from >> d; x & empty; x >>= d)
            out |= x;
        for (uint64_t x = from << d; x & empty; x <<= d)
            out |= x;
    }
    return out;
}

/* Empty squares where a man of `men` could take a piece standing there: the man diagonally next
 * to the square, the square beyond it (seen from the man) empty. Men take in all four directions
 * in every family. */
static inline uint64_t exposed_squares(uint64_t men, uint64_t empty, int step)
{
    uint64_t x = 0;
    for (int d = step; d <= step + 1; d++)
        x |= ((men >> d) & (empty << d)) | ((men << d) & (empty >> d));
    return x & empty;
}

/* reach and exposed counts of one side's kings */
static inline void king_lines(const cd_pattern_layout *l, uint64_t kings, uint64_t enemy_men,
                              uint64_t empty, int *reach, int *exposed)
{
    uint64_t danger = exposed_squares(enemy_men, empty, l->step);
    int r = 0, e = 0;
    for (uint64_t x = kings; x; x &= x - 1) {
        uint64_t a = king_reach(__builtin_ctzll(x), empty, l->step);
        r += __builtin_popcountll(a & ~danger);
        e += __builtin_popcountll(a & danger);
    }
    *reach = r;
    *exposed = e;
}

/* |sum over men of 2 * column - (width - 1)|: the columns' sum taken by their binary digits */
static inline int skew(const cd_pattern_layout *l, uint64_t men, int width)
{
    int cols = 0;
    for (int b = 0; b < 4; b++)
        cols += __builtin_popcountll(men & l->colbit[b]) << b;
    int s = 2 * cols - (width - 1) * __builtin_popcountll(men);
    return s < 0 ? -s : s;
}

/* The scalar features (pattern.h), White's view. */
static inline __attribute__((always_inline)) void
scalars_of(const cd_position *pos, const cd_pattern_layout *l, int x[CD_PAT_SCALARS])
{
    uint64_t k = pos->kings[0], w = pos->white[0], b = pos->black[0];
    uint64_t wm = w & ~k, bm = b & ~k, wk = w & k, bk = b & k;
    int nwk = __builtin_popcountll(wk), nbk = __builtin_popcountll(bk);
    x[CD_PAT_S_MEN] = __builtin_popcountll(wm) - __builtin_popcountll(bm);
    x[CD_PAT_S_KING] = (nwk > 0) - (nbk > 0);
    x[CD_PAT_S_KINGS_MORE] = (nwk > 1 ? nwk - 1 : 0) - (nbk > 1 ? nbk - 1 : 0);
    x[CD_PAT_S_TEMPO] = pos->side == CD_WHITE ? 1 : -1;
    x[CD_PAT_S_SOLE] = (nwk && !nbk) - (nbk && !nwk);
    x[CD_PAT_S_REACH] = x[CD_PAT_S_EXPOSED] = 0;
    if (k) {
        uint64_t empty = l->board & ~(w | b);
        int wr, we, br, be;
        king_lines(l, wk, bm, empty, &wr, &we);
        king_lines(l, bk, wm, empty, &br, &be);
        x[CD_PAT_S_REACH] = wr - br;
        x[CD_PAT_S_EXPOSED] = we - be;
    }
    int width = 2 * l->step;
    x[CD_PAT_S_BALANCE] = skew(l, bm, width) - skew(l, wm, width);
}

void cd_pattern_features_of(const cd_position *pos, const cd_pattern_layout *l,
                            cd_pattern_features *f)
{
    uint64_t k = pos->kings[0], w = pos->white[0], b = pos->black[0];
    uint64_t wm = w & ~k, bm = b & ~k;
    f->regions = l->regions;
    for (int r = 0; r < l->regions; r++)
        f->config[r] =
            (uint16_t)(ternary[gather(wm, l->mask[r])] + 2 * ternary[gather(bm, l->mask[r])]);
    int x[CD_PAT_SCALARS];
    scalars_of(pos, l, x);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        f->scalar[s] = (int16_t)x[s];
    f->kings = 0;
    for (uint64_t y = w & k; y; y &= y - 1)
        f->king[f->kings++] = (int8_t)(l->square[__builtin_ctzll(y)] + 1);
    for (uint64_t y = b & k; y; y &= y - 1)
        f->king[f->kings++] = (int8_t) - (l->squares - l->square[__builtin_ctzll(y)]);
    int pieces = __builtin_popcountll(w | b);
    f->start = l->start;
    f->phase = pieces < l->start ? pieces : l->start;
}

/* The windows' sums (middle game, endgame) of `regions` windows: called with the layouts' counts
 * as constants, so that the loop is unrolled with every window's table at a fixed offset. */
static inline __attribute__((always_inline)) void
windows(const cd_pattern_weights *w, int regions, uint64_t wm, uint64_t bm, int *mg, int *eg)
{
    const cd_pattern_layout *l = &w->layout;
    int a = 0, b = 0;
#pragma GCC unroll 25
    for (int r = 0; r < regions; r++) {
        unsigned c = ternary[gather(wm, l->mask[r])] + 2u * ternary[gather(bm, l->mask[r])];
        a += w->pat[r][c][0];
        b += w->pat[r][c][1];
    }
    *mg = a;
    *eg = b;
}

int cd_pattern_eval_white(const cd_pattern_weights *w, const cd_position *pos)
{
    const cd_pattern_layout *l = &w->layout;
    uint64_t k = pos->kings[0], wh = pos->white[0], bl = pos->black[0];
    uint64_t wm = wh & ~k, bm = bl & ~k;
    int mg, eg;
    if (l->regions == 16) /* 10x10 */
        windows(w, 16, wm, bm, &mg, &eg);
    else if (l->regions == 9) /* 8x8 */
        windows(w, 9, wm, bm, &mg, &eg);
    else /* the wide layouts */
        windows(w, l->regions, wm, bm, &mg, &eg);
    int x[CD_PAT_SCALARS];
    scalars_of(pos, l, x);
    for (int s = 0; s < CD_PAT_SCALARS; s++) {
        mg += x[s] * w->scalar[s][0];
        eg += x[s] * w->scalar[s][1];
    }
    for (uint64_t y = wh & k; y; y &= y - 1) {
        int i = l->square[__builtin_ctzll(y)];
        mg += w->king_square[i][0];
        eg += w->king_square[i][1];
    }
    for (uint64_t y = bl & k; y; y &= y - 1) {
        int i = l->squares - 1 - l->square[__builtin_ctzll(y)];
        mg -= w->king_square[i][0];
        eg -= w->king_square[i][1];
    }
    int pieces = __builtin_popcountll(wh | bl), start = l->start;
    int ph = pieces < start ? pieces : start;
    long long sum = (long long)mg * ph + (long long)eg * (start - ph);
    /* (the divisors of 10x10 and 8x8 as constants: a multiplication, not a division) */
    if (start == 40)
        return (int)(sum / (CD_PAT_UNIT * 40));
    if (start == 24)
        return (int)(sum / (CD_PAT_UNIT * 24));
    return (int)(sum / (CD_PAT_UNIT * start));
}

/* ------------------------------------------------------------------ the file */

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void put32(unsigned char **p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        *(*p)++ = (unsigned char)(v >> (8 * i));
}

static void put16(unsigned char **p, int16_t v)
{
    uint16_t u = (uint16_t)v;
    *(*p)++ = (unsigned char)u;
    *(*p)++ = (unsigned char)(u >> 8);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t get16(const unsigned char *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

enum { HEADER = 4 + 4 + 16 + 6 * 4, VERSION = 2 };

static size_t image_size(int regions, int squares)
{
    return HEADER + (size_t)regions * CD_PAT_CONFIGS * 2 * 2 + CD_PAT_SCALARS * 2 * 2 +
           (size_t)squares * 2 * 2 + 4;
}

size_t cd_pattern_write(const cd_pattern_weights *w, unsigned char *buf)
{
    const cd_pattern_layout *l = &w->layout;
    size_t size = image_size(l->regions, l->squares);
    if (!buf)
        return size;
    unsigned char *p = buf;
    memcpy(p, "CDW1", 4);
    p += 4;
    put32(&p, VERSION);
    memset(p, 0, 16);
    for (int i = 0; i < 15 && w->family[i]; i++)
        p[i] = (unsigned char)w->family[i];
    p += 16;
    put32(&p, (uint32_t)l->geometry);
    put32(&p, (uint32_t)l->regions);
    put32(&p, CD_PAT_CONFIGS);
    put32(&p, CD_PAT_SCALARS);
    put32(&p, (uint32_t)l->start);
    put32(&p, (uint32_t)l->squares);
    for (int r = 0; r < l->regions; r++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++)
                put16(&p, w->pat[r][c][ph]);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        for (int ph = 0; ph < 2; ph++)
            put16(&p, w->scalar[s][ph]);
    for (int i = 0; i < l->squares; i++)
        for (int ph = 0; ph < 2; ph++)
            put16(&p, w->king_square[i][ph]);
    put32(&p, fnv1a(buf, (size_t)(p - buf)));
    return size;
}

static cd_result bad(char *err, size_t errlen, const char *what)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", what);
    return CD_ERR_IO;
}

cd_result cd_pattern_read(cd_pattern_weights *w, const unsigned char *buf, size_t len, char *err,
                          size_t errlen)
{
    if (len < HEADER || memcmp(buf, "CDW1", 4))
        return bad(err, errlen, "not a condraughts weights file (no CDW1 header)");
    if (get32(buf + 4) == 1)
        return bad(err, errlen,
                   "weights file version 1 (before the king features): make the weights files "
                   "again with this program (docs/training.md)");
    if (get32(buf + 4) != VERSION)
        return bad(err, errlen, "unsupported weights file version");
    memset(w, 0, sizeof *w);
    memcpy(w->family, buf + 8, 15);
    int family = -1;
    for (int i = 0; i < CD_PAT_FAMILIES; i++)
        if (!strcmp(w->family, families[i].name))
            family = i;
    if (family < 0)
        return bad(err, errlen, "unknown family in the weights file header");
    const unsigned char *p = buf + 24;
    uint32_t geometry = get32(p), regions = get32(p + 4), configs = get32(p + 8);
    uint32_t scalars = get32(p + 12), start = get32(p + 16), squares = get32(p + 20);
    if ((int)geometry != families[family].geometry ||
        !cd_pattern_layout_of((int)geometry, &w->layout))
        return bad(err, errlen, "the weights file's geometry does not match its family");
    if ((int)regions != w->layout.regions)
        cd_pattern_layout_wide((int)geometry, 1, &w->layout);
    if ((int)regions != w->layout.regions || configs != CD_PAT_CONFIGS ||
        scalars != CD_PAT_SCALARS || (int)start != w->layout.start ||
        (int)squares != w->layout.squares)
        return bad(err, errlen, "the weights file's table sizes do not match its geometry");
    if (len != image_size((int)regions, (int)squares))
        return bad(err, errlen, "the weights file has the wrong size (truncated or padded)");
    if (fnv1a(buf, len - 4) != get32(buf + len - 4))
        return bad(err, errlen, "the weights file's checksum does not match (corrupt)");
    w->checksum = get32(buf + len - 4);
    p = buf + HEADER;
    for (uint32_t r = 0; r < regions; r++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++, p += 2)
                w->pat[r][c][ph] = get16(p);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        for (int ph = 0; ph < 2; ph++, p += 2)
            w->scalar[s][ph] = get16(p);
    for (uint32_t i = 0; i < squares; i++)
        for (int ph = 0; ph < 2; ph++, p += 2)
            w->king_square[i][ph] = get16(p);
    return CD_OK;
}

const cd_pattern_weights *cd_pattern_loaded(int family)
{
    return family >= 0 && family < CD_PAT_FAMILIES ? loaded[family] : NULL;
}

const cd_pattern_weights *cd_pattern_for(const cd_rules *r)
{
    return cd_pattern_loaded(cd_pattern_family(r));
}

cd_result cd_pattern_install(cd_pattern_weights *w, char *err, size_t errlen)
{
    for (int i = 0; i < CD_PAT_FAMILIES; i++)
        if (!strcmp(w->family, families[i].name)) {
            if (loaded[i])
                cd_net_free(loaded[i]->net);
            free(loaded[i]);
            loaded[i] = w;
            return CD_OK;
        }
    return bad(err, errlen, "unknown family");
}

cd_result cd_pattern_install_net(const char *family, struct cd_net *net, char *err, size_t errlen)
{
    cd_pattern_weights *w = NULL;
    for (int i = 0; i < CD_PAT_FAMILIES; i++)
        if (!strcmp(family, families[i].name))
            w = loaded[i];
    if (!w)
        return bad(err, errlen, "no weights of the network's family are loaded");
    if (net && (strcmp(net->family, w->family) || net->geometry != w->layout.geometry))
        return bad(err, errlen, "the network is not of its family's board");
    if (net && net->base_checksum != w->checksum) {
        char why[256];
        snprintf(why, sizeof why,
                 "the network was trained on the %s weights with checksum %08x, the loaded ones "
                 "have %08x (remove it, or make it again for them: docs/training.md)",
                 w->family, net->base_checksum, w->checksum);
        return bad(err, errlen, why);
    }
    if (w->net != net)
        cd_net_free(w->net);
    w->net = net;
    return CD_OK;
}

/* ------------------------------------------------------------------ public loading */

/* A whole file of at most max bytes: NULL with *missing 1 if there is none, *missing 0 if it
 * cannot be read (errno); a longer file is cut at max + 1 bytes, which the readers refuse by its
 * size. */
static unsigned char *read_file(const char *path, size_t max, size_t *len, int *missing)
{
    FILE *f = fopen(path, "rb");
    *missing = !f && errno == ENOENT;
    if (!f)
        return NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    rewind(f);
    size_t cap = size < 0 || (size_t)size > max ? max + 1 : (size_t)size;
    unsigned char *buf = malloc(cap + 1);
    if (buf)
        *len = fread(buf, 1, cap, f);
    fclose(f);
    return buf;
}

cd_result cd_eval_load(const char *dir, char *err, size_t errlen)
{
    return cd_pattern_load(dir, 1, err, errlen);
}

cd_result cd_pattern_load(const char *dir, int nets, char *err, size_t errlen)
{
    for (int i = 0; i < CD_PAT_FAMILIES; i++) {
        char path[4096], why[160];
        snprintf(path, sizeof path, "%s/%s.cdw", dir, families[i].name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            snprintf(err, errlen, "weights file %s is missing (see docs/training.md)", path);
            return CD_ERR_IO;
        }
        size_t cap = image_size(CD_PAT_MAX_REG, CD_PAT_KSQ_MAX) + 1, len;
        unsigned char *buf = malloc(cap);
        cd_pattern_weights *w = malloc(sizeof *w);
        if (!buf || !w) {
            fclose(f);
            free(buf);
            free(w);
            snprintf(err, errlen, "out of memory reading %s", path);
            return CD_ERR_OVERFLOW;
        }
        len = fread(buf, 1, cap, f);
        fclose(f);
        cd_result rc = cd_pattern_read(w, buf, len, why, sizeof why);
        free(buf);
        if (rc == CD_OK && strcmp(w->family, families[i].name)) {
            snprintf(why, sizeof why, "it holds the weights of '%s'", w->family);
            rc = CD_ERR_IO;
        }
        if (rc != CD_OK) {
            free(w);
            snprintf(err, errlen, "weights file %s: %s", path, why);
            return rc;
        }
        cd_pattern_install(w, NULL, 0);
    }
    for (int i = 0; nets && i < CD_PAT_FAMILIES; i++) {
        char path[4096], why[300];
        snprintf(path, sizeof path, "%s/%s.cdn", dir, families[i].name);
        size_t len = 0;
        int missing;
        unsigned char *img = read_file(path, (size_t)16 << 20, &len, &missing);
        if (!img && missing) /* none shipped: a network is read where there is one */
            continue;
        if (!img) {
            snprintf(err, errlen, "network file %s cannot be read: %s", path, strerror(errno));
            return CD_ERR_IO;
        }
        cd_net *n = cd_net_read(img, len, why, sizeof why);
        free(img);
        cd_result rc = n ? CD_OK : CD_ERR_IO;
        if (n && strcmp(n->family, families[i].name)) {
            snprintf(why, sizeof why, "it holds the network of '%s'", n->family);
            rc = CD_ERR_IO;
        }
        if (rc == CD_OK)
            rc = cd_pattern_install_net(families[i].name, n, why, sizeof why);
        if (rc != CD_OK) {
            cd_net_free(n);
            snprintf(err, errlen, "network file %s: %s", path, why);
            return rc;
        }
    }
    return CD_OK;
}

int cd_eval_learned(const cd_rules *r) { return cd_pattern_for(r) != NULL; }
