/*
 * pattern.c -- the learned evaluation (pattern.h): layouts, features, scoring, the weights file's
 * reader (its writer is the trainer's, src/train/train_model.c; the families' weights are held by
 * a cd_eval, eval_set.c).
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "bytes.h"
#include "pattern.h"

/* A family's name (the weights file's name and header, at most 15 characters), the variant it
 * evaluates (its canonical name: the two differ where the variant's name is longer), its rules
 * for the kings' scalars (pattern.h, the layout's `short_rules`: flying kings, English's or
 * Italian's short ones, Spanish's and Czech's flying kings with men taking forwards) and whether
 * its learned score is scaled for drawish material by default (the layout's `drawscale`: where it
 * measured a gain, docs/strength.md). */
static const struct {
    const char *name, *variant;
    int geometry, short_rules, drawscale;
} families[CD_PAT_FAMILIES] = {
    {"international", "international", CD_GEOM_10X10, 0, 1},
    {"constitutional", "constitutional", CD_GEOM_10X10, 0, 0},
    {"russian", "russian", CD_GEOM_8X8, 0, 1},
    {"killer", "killer", CD_GEOM_10X10, 0, 0},
    {"modern", "modern", CD_GEOM_10X10, 0, 0},
    {"brazilian", "brazilian", CD_GEOM_8X8, 0, 1},
    {"russian-const", "russian-constitutional", CD_GEOM_8X8, 0, 1},
    {"brazilian-const", "brazilian-constitutional", CD_GEOM_8X8, 0, 1},
    {"english", "english", CD_GEOM_8X8, CD_PAT_SHORT_ENGLISH, 1},
    {"italian", "italian", CD_GEOM_8X8, CD_PAT_SHORT_ITALIAN, 0},
    {"spanish", "spanish", CD_GEOM_8X8, CD_PAT_FLYING_FORWARD, 0},
    {"czech", "czech", CD_GEOM_8X8, CD_PAT_FLYING_FORWARD, 0},
};

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

void cd_pattern_layout_family(int family, cd_pattern_layout *l)
{
    int known = family >= 0 && family < CD_PAT_FAMILIES;
    l->short_rules = known ? families[family].short_rules : CD_PAT_FLYING;
    l->drawscale = known && families[family].drawscale;
}

/* ternary[b]: the base-3 number whose digits are the bits of b (a constant table; 9 bits, a
 * strip's squares). */
#define T1(b) ((b)&1)
#define T9(b)                                                                                      \
    (T1(b) + 3 * T1((b) >> 1) + 9 * T1((b) >> 2) + 27 * T1((b) >> 3) + 81 * T1((b) >> 4) +         \
     243 * T1((b) >> 5) + 729 * T1((b) >> 6) + 2187 * T1((b) >> 7) + 6561 * T1((b) >> 8))
#define R4(b)   T9(b), T9((b) + 1), T9((b) + 2), T9((b) + 3)
#define R16(b)  R4(b), R4((b) + 4), R4((b) + 8), R4((b) + 12)
#define R64(b)  R16(b), R16((b) + 16), R16((b) + 32), R16((b) + 48)
#define R256(b) R64(b), R64((b) + 64), R64((b) + 128), R64((b) + 192)
static const uint16_t ternary[512] = {R256(0), R256(256)};

int cd_pattern_layout_of(int geometry, cd_pattern_layout *out)
{
    return cd_pattern_layout_wide(geometry, 0, out);
}

/* The playable squares of the rectangle of rows r0.. and columns c0.. (0 at the top left). */
static uint64_t rect_mask(const cd_geom *g, int r0, int c0, int rows, int cols)
{
    uint64_t m = 0;
    for (int r = r0; r < r0 + rows; r++)
        for (int c = c0; c < c0 + cols; c++)
            if ((r + c) & 1)
                m |= 1ull << cd_bit_of_internal(g, r * g->half + c / 2 + 1);
    return m;
}

int cd_pattern_layout_wide(int geometry, int wide, cd_pattern_layout *out)
{
    if (geometry != CD_GEOM_10X10 && geometry != CD_GEOM_8X8)
        return 0;
    const cd_geom *g = &cd_geoms[geometry];
    memset(out, 0, sizeof *out);
    out->geometry = geometry;
    out->start = geometry == CD_GEOM_10X10 ? 40 : 24;
    for (int odd = 0; odd <= (wide != 0); odd++)
        for (int r0 = odd; r0 + 4 <= g->height; r0 += 2)
            for (int c0 = odd; c0 + 4 <= g->width; c0 += 2)
                out->mask[out->regions++] = rect_mask(g, r0, c0, 4, 4);
    out->squares = g->squares;
    out->step = g->half;
    memset(out->square, -1, sizeof out->square);
    for (int n = 1; n <= g->squares; n++) {
        int bit = cd_bit_of_internal(g, n), row = (n - 1) / g->half;
        int col = 2 * ((n - 1) % g->half) + !(row & 1);
        out->board |= 1ull << bit;
        for (int b = 0; b < 4; b++) {
            if (col >> b & 1)
                out->colbit[b] |= 1ull << bit;
            if (row >> b & 1)
                out->rowbit[b] |= 1ull << bit;
        }
        out->square[bit] = (int8_t)(n - 1);
    }
    /* each side's men fill the rows before the middle two: height - 1, height - 2, ... to go */
    for (int i = 0; i < (g->height - 2) / 2; i++)
        out->pip_start += 2 * g->half * (g->height - 1 - i);
    return 1;
}

int cd_pattern_layout_strips(cd_pattern_layout *l)
{
    if (l->geometry != CD_GEOM_10X10)
        return 0;
    const cd_geom *g = &cd_geoms[l->geometry];
    l->strips = 0;
    for (int r0 = 0; r0 <= g->height - 6; r0 += g->height - 6)
        for (int c0 = 0; c0 <= g->width - 3; c0 += g->width - 3)
            l->strip_mask[l->strips++] = rect_mask(g, r0, c0, 6, 3);
    return 1;
}

/* The squares of region r: a window's, or past the windows a strip's. */
static uint64_t region_mask(const cd_pattern_layout *l, int r)
{
    return r < l->regions ? l->mask[r] : l->strip_mask[r - l->regions];
}

int cd_pattern_region_configs(const cd_pattern_layout *l, int r)
{
    return r < l->regions ? CD_PAT_CONFIGS : CD_PAT_STRIP_CONFIGS;
}

void cd_pattern_twin(const cd_pattern_layout *l, int region, int config, int *region2, int *config2)
{
    const cd_geom *g = &cd_geoms[l->geometry];
    uint64_t m = region_mask(l, region), rot = 0;
    int bits[CD_PAT_MAX_SQUARES], n = 0;
    for (uint64_t x = m; x; x &= x - 1) {
        int sq = cd_internal_of_bit(g, __builtin_ctzll(x));
        bits[n++] = cd_bit_of_internal(g, g->squares + 1 - sq);
        rot |= 1ull << bits[n - 1];
    }
    int r2 = 0;
    while (r2 < l->regions + l->strips && region_mask(l, r2) != rot)
        r2++;
    int c2 = 0, p3[CD_PAT_MAX_SQUARES];
    for (int i = 0, p = 1; i < CD_PAT_MAX_SQUARES; i++, p *= 3)
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

/* The empty squares a king on bit reaches along its four lines, up to the first piece (a short
 * king: the empty squares next to it). */
static inline uint64_t king_reach(int bit, uint64_t empty, int step, int short_kings)
{
    uint64_t out = 0, from = 1ull << bit;
    if (short_kings) {
        for (int d = step; d <= step + 1; d++)
            out |= (from >> d | from << d) & empty;
        return out;
    }
    for (int d = step; d <= step + 1; d++) {
        for (uint64_t x = from >> d; x & empty; x >>= d)
            out |= x;
        for (uint64_t x = from << d; x & empty; x <<= d)
            out |= x;
    }
    return out;
}

/* Empty squares where a man of `men` could take a piece standing there: the man diagonally next
 * to the square, the square beyond it (seen from the man) empty (the same for a short king). Men
 * take in all four directions, or with `forward` only in their direction of travel: +1 white men
 * (towards lower bits, up the board), -1 black men. */
static inline uint64_t exposed_squares(uint64_t men, uint64_t empty, int step, int forward)
{
    uint64_t x = 0;
    for (int d = step; d <= step + 1; d++) {
        if (forward >= 0)
            x |= (men >> d) & (empty << d);
        if (forward <= 0)
            x |= (men << d) & (empty >> d);
    }
    return x & empty;
}

/* reach and exposed counts of one side's kings; enemy_dir: the enemy men's direction (+1 white,
 * -1 black), used where men take forwards only (all rules but the flying families'). Under
 * Italian rules men never take a king: only the enemy kings (short, taking in all four
 * directions) make a square exposed. */
static inline void king_lines(const cd_pattern_layout *l, uint64_t kings, uint64_t enemy_men,
                              uint64_t enemy_kings, int enemy_dir, uint64_t empty, int *reach,
                              int *exposed)
{
    int sr = l->short_rules;
    int short_kings = sr == CD_PAT_SHORT_ENGLISH || sr == CD_PAT_SHORT_ITALIAN;
    uint64_t danger =
        sr == CD_PAT_SHORT_ITALIAN
            ? exposed_squares(enemy_kings, empty, l->step, 0)
            : exposed_squares(enemy_men, empty, l->step, sr == CD_PAT_FLYING ? 0 : enemy_dir);
    int r = 0, e = 0;
    for (uint64_t x = kings; x; x &= x - 1) {
        uint64_t a = king_reach(__builtin_ctzll(x), empty, l->step, short_kings);
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

/* The sum of the rows of men (row 0 at the top), by the rows' binary digits. */
static inline int row_sum(const cd_pattern_layout *l, uint64_t men)
{
    int rows = 0;
    for (int b = 0; b < 4; b++)
        rows += __builtin_popcountll(men & l->rowbit[b]) << b;
    return rows;
}

/* White's men promote on row 0 (a man on row r has r rows to go), Black's on the last row. */
static inline int pip_of(const cd_pattern_layout *l, uint64_t wm, uint64_t bm)
{
    return row_sum(l, wm) + (2 * l->step - 1) * __builtin_popcountll(bm) - row_sum(l, bm);
}

int cd_pattern_pip(const cd_pattern_layout *l, const cd_position *pos)
{
    uint64_t k = pos->kings[0];
    return pip_of(l, pos->white[0] & ~k, pos->black[0] & ~k);
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
        king_lines(l, wk, bm, bk, -1, empty, &wr, &we);
        king_lines(l, bk, wm, wk, +1, empty, &br, &be);
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
    f->strips = l->strips;
    for (int r = 0; r < l->regions + l->strips; r++) {
        uint64_t m = region_mask(l, r);
        f->config[r] = (uint16_t)(ternary[gather(wm, m)] + 2 * ternary[gather(bm, m)]);
    }
    int x[CD_PAT_SCALARS];
    scalars_of(pos, l, x);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        f->scalar[s] = (int16_t)x[s];
    f->kings = 0;
    for (uint64_t y = w & k; y; y &= y - 1)
        f->king[f->kings++] = (int8_t)(l->square[__builtin_ctzll(y)] + 1);
    for (uint64_t y = b & k; y; y &= y - 1)
        f->king[f->kings++] = (int8_t) - (l->squares - l->square[__builtin_ctzll(y)]);
    int now = l->pip ? pip_of(l, wm, bm) : __builtin_popcountll(w | b);
    f->start = l->pip ? l->pip_start : l->start;
    f->phase = now < f->start ? now : f->start;
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
    if (l->strips)
        for (int s = 0; s < CD_PAT_MAX_STRIPS; s++) {
            unsigned c = ternary[gather(wm, l->strip_mask[s])] +
                         2u * ternary[gather(bm, l->strip_mask[s])];
            mg += w->strip[s][c][0];
            eg += w->strip[s][c][1];
        }
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
    int now, start;
    if (l->pip) {
        now = pip_of(l, wm, bm);
        start = l->pip_start;
    } else {
        now = __builtin_popcountll(wh | bl);
        start = l->start;
    }
    int ph = now < start ? now : start;
    long long sum = (long long)mg * ph + (long long)eg * (start - ph);
    /* (the divisors of 10x10 and 8x8 as constants: a multiplication, not a division) */
    if (start == 40)
        return (int)(sum / (CD_PAT_UNIT * 40));
    if (start == 24)
        return (int)(sum / (CD_PAT_UNIT * 24));
    if (start == 300)
        return (int)(sum / (CD_PAT_UNIT * 300));
    if (start == 144)
        return (int)(sum / (CD_PAT_UNIT * 144));
    return (int)(sum / (CD_PAT_UNIT * start));
}

/* ------------------------------------------------------------------ the file */

static uint32_t get32(const unsigned char *p) { return (uint32_t)cd_get_le(p, 4); }

static int16_t get16(const unsigned char *p) { return (int16_t)(uint16_t)cd_get_le(p, 2); }

size_t cd_pattern_header_size(uint32_t version)
{
    return CD_PAT_HEADER + (version >= CD_PAT_VERSION_STRIPS ? 4 : 0) +
           (version >= CD_PAT_VERSION_PIP ? 4 : 0);
}

uint32_t cd_pattern_version(const cd_pattern_layout *l)
{
    return l->pip ? CD_PAT_VERSION_PIP : l->strips ? CD_PAT_VERSION_STRIPS : CD_PAT_VERSION;
}

size_t cd_pattern_image_size(uint32_t version, int regions, int strips, int squares)
{
    return cd_pattern_header_size(version) + (size_t)regions * CD_PAT_CONFIGS * 2 * 2 +
           (size_t)strips * CD_PAT_STRIP_CONFIGS * 2 * 2 + CD_PAT_SCALARS * 2 * 2 +
           (size_t)squares * 2 * 2 + 4;
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
    if (len < CD_PAT_HEADER || memcmp(buf, "CDW1", 4))
        return bad(err, errlen, "not a condraughts weights file (no CDW1 header)");
    if (get32(buf + 4) == 1)
        return bad(err, errlen,
                   "weights file version 1 (before the king features): make the weights files "
                   "again with this program (docs/training.md)");
    uint32_t version = get32(buf + 4);
    if (version < CD_PAT_VERSION || version > CD_PAT_VERSION_PIP) {
        char msg[128];
        snprintf(msg, sizeof msg,
                 "weights file version %lu: this program reads versions %d to %d (a newer "
                 "program's file?)",
                 (unsigned long)version, CD_PAT_VERSION, CD_PAT_VERSION_PIP);
        return bad(err, errlen, msg);
    }
    size_t header = cd_pattern_header_size(version);
    if (len < header)
        return bad(err, errlen, "the weights file has the wrong size (truncated or padded)");
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
    uint32_t strips = version >= CD_PAT_VERSION_STRIPS ? get32(p + 24) : 0;
    uint32_t phase = version >= CD_PAT_VERSION_PIP ? get32(p + 28) : 0;
    if (version >= CD_PAT_VERSION_PIP && phase != CD_PAT_PHASE_PIP)
        return bad(err, errlen,
                   "the weights file's phase measure is unknown (version 4 holds 1, the pip)");
    if ((int)geometry != families[family].geometry ||
        !cd_pattern_layout_of((int)geometry, &w->layout))
        return bad(err, errlen, "the weights file's geometry does not match its family");
    if ((int)regions != w->layout.regions)
        cd_pattern_layout_wide((int)geometry, 1, &w->layout);
    cd_pattern_layout_family(family, &w->layout);
    if (strips && !cd_pattern_layout_strips(&w->layout))
        return bad(err, errlen, "the weights file has flank strips on a board without them");
    if ((int)regions != w->layout.regions || configs != CD_PAT_CONFIGS ||
        (int)strips != w->layout.strips ||
        scalars != CD_PAT_SCALARS || (int)start != w->layout.start ||
        (int)squares != w->layout.squares)
        return bad(err, errlen, "the weights file's table sizes do not match its geometry");
    w->layout.pip = phase == CD_PAT_PHASE_PIP;
    if (len != cd_pattern_image_size(version, (int)regions, (int)strips, (int)squares))
        return bad(err, errlen, "the weights file has the wrong size (truncated or padded)");
    if (cd_fnv1a32(buf, len - 4) != get32(buf + len - 4))
        return bad(err, errlen, "the weights file's checksum does not match (corrupt)");
    w->checksum = get32(buf + len - 4);
    p = buf + header;
    for (uint32_t r = 0; r < regions; r++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++, p += 2)
                w->pat[r][c][ph] = get16(p);
    for (uint32_t r = 0; r < strips; r++)
        for (int c = 0; c < CD_PAT_STRIP_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++, p += 2)
                w->strip[r][c][ph] = get16(p);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        for (int ph = 0; ph < 2; ph++, p += 2)
            w->scalar[s][ph] = get16(p);
    for (uint32_t i = 0; i < squares; i++)
        for (int ph = 0; ph < 2; ph++, p += 2)
            w->king_square[i][ph] = get16(p);
    return CD_OK;
}
