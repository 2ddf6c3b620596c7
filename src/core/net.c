/*
 * net.c -- the network stacked on the pattern evaluation (net.h): inputs, the integer forward
 * pass, quantization, the file's reader (the float pass and the writer are the trainer's:
 * src/train/train_model.c).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aligned.h"
#include "board.h"
#include "bytes.h"
#include "net.h"

static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

void cd_net_free(cd_net *n)
{
    if (!n)
        return;
    free(n->w1);
    free(n->b1);
    free(n->w2);
    free(n->b2);
    free(n->w3);
    cd_aligned_free(n->q1);
    cd_aligned_free(n->qb1);
    cd_aligned_free(n->q2);
    free(n->qb2);
    free(n->q3);
    free(n);
}

cd_net *cd_net_new(const char *family, int geometry, int h1, int h2)
{
    if ((geometry != CD_GEOM_8X8 && geometry != CD_GEOM_10X10) || h1 <= 0 || h1 % 16 ||
        h1 > CD_NET_MAX_H1 || h2 <= 0 || h2 % 8 || h2 > CD_NET_MAX_H2)
        return NULL;
    cd_net *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    snprintf(n->family, sizeof n->family, "%s", family);
    const cd_geom *g = &cd_geoms[geometry];
    n->geometry = geometry;
    n->squares = g->squares;
    n->inputs = 4 * g->squares;
    n->h1 = h1;
    n->h2 = h2;
    memset(n->square, -1, sizeof n->square);
    for (int s = 1; s <= g->squares; s++)
        n->square[cd_bit_of_internal(g, s)] = (int8_t)(s - 1);
    size_t in = (size_t)n->inputs;
    n->w1 = zalloc(in * (size_t)h1, sizeof *n->w1);
    n->b1 = zalloc((size_t)h1, sizeof *n->b1);
    n->w2 = zalloc((size_t)h2 * (size_t)h1, sizeof *n->w2);
    n->b2 = zalloc((size_t)h2, sizeof *n->b2);
    n->w3 = zalloc((size_t)h2, sizeof *n->w3);
    n->q1 = cd_aligned_alloc(32, in * (size_t)h1 * sizeof *n->q1);
    n->qb1 = cd_aligned_alloc(32, (size_t)h1 * sizeof *n->qb1);
    n->q2 = cd_aligned_alloc(32, (size_t)h2 * (size_t)h1 * sizeof *n->q2);
    n->qb2 = zalloc((size_t)h2, sizeof *n->qb2);
    n->q3 = zalloc((size_t)h2, sizeof *n->q3);
    if (!n->w1 || !n->b1 || !n->w2 || !n->b2 || !n->w3 || !n->q1 || !n->qb1 || !n->q2 || !n->qb2 ||
        !n->q3) {
        cd_net_free(n);
        return NULL;
    }
    cd_net_quantize(n);
    return n;
}

/* x rounded to the nearest integer, halves away from 0 (no libm in the core) */
static long long qround(double x) { return (long long)(x >= 0 ? x + 0.5 : x - 0.5); }

/* every quantization gets a serial of its own, so that no cache takes one network's sums for
 * another's, even one allocated where a freed one was */
static atomic_ullong serials = 1;

void cd_net_quantize(cd_net *n)
{
    n->serial = atomic_fetch_add(&serials, 1);
    size_t in = (size_t)n->inputs, h1 = (size_t)n->h1, h2 = (size_t)n->h2;
    for (size_t i = 0; i < in * h1; i++)
        n->q1[i] = (int16_t)qround((double)n->w1[i] * CD_NET_Q1);
    for (size_t i = 0; i < h1; i++)
        n->qb1[i] = (int16_t)qround((double)n->b1[i] * CD_NET_Q1);
    for (size_t i = 0; i < h2 * h1; i++)
        n->q2[i] = (int16_t)qround((double)n->w2[i] * CD_NET_Q2);
    for (size_t j = 0; j < h2; j++) {
        n->qb2[j] = (int32_t)qround((double)n->b2[j] * CD_NET_Q1 * CD_NET_Q2);
        n->q3[j] = (int32_t)qround((double)n->w3[j] * CD_NET_OUT * CD_NET_Q3);
    }
    n->qb3 = (int64_t)qround((double)n->b3 * CD_NET_OUT * CD_NET_Q1 * CD_NET_Q2 * CD_NET_Q3);
}

int cd_net_inputs(const cd_net *n, const cd_position *pos, uint16_t *in)
{
    uint64_t k = pos->kings[0], w = pos->white[0], b = pos->black[0];
    int black = pos->side != CD_WHITE, N = n->squares, c = 0;
    uint64_t us = black ? b : w, them = black ? w : b;
    const uint64_t set[4] = {us & ~k, us & k, them & ~k, them & k};
    for (int t = 0; t < 4; t++)
        for (uint64_t x = set[t]; x; x &= x - 1) {
            int s = n->square[__builtin_ctzll(x)];
            in[c++] = (uint16_t)(t * N + (black ? N - 1 - s : s));
        }
    return c;
}

/* The last two layers from h2's sums before the bias: h2, then out. */
static inline int finish(const cd_net *n, int H2, const int32_t *z2)
{
    int64_t out = n->qb3;
    for (int j = 0; j < H2; j++) {
        int32_t z = z2[j] + n->qb2[j];
        z = z < 0 ? 0 : z > CD_NET_Q1 * CD_NET_Q2 ? CD_NET_Q1 * CD_NET_Q2 : z;
        out += (int64_t)z * n->q3[j];
    }
    out /= CD_NET_Q1 * CD_NET_Q2 * CD_NET_Q3;
    return out > CD_NET_OUT_MAX    ? CD_NET_OUT_MAX
           : out < -CD_NET_OUT_MAX ? -CD_NET_OUT_MAX
                                   : (int)out;
}

/* The input feature of the piece on bit (of white, black, kings) seen by the side p. */
static inline int feature(const cd_net *n, int p, int bit, uint64_t white, uint64_t kings)
{
    int s = n->square[bit], N = n->squares;
    uint64_t m = 1ull << bit;
    int ours = ((white & m) != 0) == (p == CD_WHITE);
    int type = (ours ? 0 : 2) + ((kings & m) != 0);
    return type * N + (p == CD_WHITE ? s : N - 1 - s);
}

#if defined(__AVX2__)
#include <immintrin.h>

/* acc += sign * row of W1 for each input (16-bit lanes; V vectors of 16). */
static inline __attribute__((always_inline)) void acc_add(const cd_net *n, int16_t *acc, int V,
                                                          const uint16_t *in, int count, int sub)
{
    __m256i a[CD_NET_MAX_H1 / 16];
    for (int v = 0; v < V; v++)
        a[v] = _mm256_loadu_si256((const __m256i *)acc + v);
    for (int i = 0; i < count; i++) {
        const __m256i *row = (const __m256i *)(n->q1 + (size_t)in[i] * (size_t)(16 * V));
        for (int v = 0; v < V; v++)
            a[v] = sub ? _mm256_sub_epi16(a[v], _mm256_load_si256(row + v))
                       : _mm256_add_epi16(a[v], _mm256_load_si256(row + v));
    }
    for (int v = 0; v < V; v++)
        _mm256_storeu_si256((__m256i *)acc + v, a[v]);
}

/* h1 = c(acc), then h2's sums by vpmaddwd, eight outputs reduced together; then out. */
static inline __attribute__((always_inline)) int layers_of(const cd_net *n, const int16_t *accp,
                                                           int V, int H2)
{
    __m256i acc[CD_NET_MAX_H1 / 16];
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(CD_NET_Q1);
    for (int v = 0; v < V; v++)
        acc[v] = _mm256_min_epi16(
            _mm256_max_epi16(_mm256_loadu_si256((const __m256i *)accp + v), zero), top);
    int32_t z2[CD_NET_MAX_H2] __attribute__((aligned(32)));
    for (int j0 = 0; j0 < H2; j0 += 8) {
        __m256i sum[8];
        for (int k = 0; k < 8; k++) {
            const __m256i *row = (const __m256i *)(n->q2 + (size_t)(j0 + k) * (size_t)(16 * V));
            __m256i s = _mm256_madd_epi16(acc[0], _mm256_load_si256(row));
            for (int v = 1; v < V; v++)
                s = _mm256_add_epi32(s, _mm256_madd_epi16(acc[v], _mm256_load_si256(row + v)));
            sum[k] = s;
        }
        /* eight vectors of eight partial sums -> one vector of the eight totals */
        __m256i a = _mm256_hadd_epi32(sum[0], sum[1]), b = _mm256_hadd_epi32(sum[2], sum[3]);
        __m256i c = _mm256_hadd_epi32(sum[4], sum[5]), d = _mm256_hadd_epi32(sum[6], sum[7]);
        a = _mm256_hadd_epi32(a, b);
        c = _mm256_hadd_epi32(c, d);
        __m256i lo = _mm256_permute2x128_si256(a, c, 0x20);
        __m256i hi = _mm256_permute2x128_si256(a, c, 0x31);
        _mm256_store_si256((__m256i *)(z2 + j0), _mm256_add_epi32(lo, hi));
    }
    return finish(n, H2, z2);
}

/* The shapes in use with their sizes as constants (the loops unrolled, h1 in registers). */
#define SHAPES(call)                                                                               \
    do {                                                                                           \
        if (n->h1 == 128 && n->h2 == 32)                                                           \
            call(8, 32);                                                                           \
        else if (n->h1 == 64 && n->h2 == 32)                                                       \
            call(4, 32);                                                                           \
        else if (n->h1 == 64 && n->h2 == 16)                                                       \
            call(4, 16);                                                                           \
        else if (n->h1 == 128 && n->h2 == 16)                                                      \
            call(8, 16);                                                                           \
        else if (n->h1 == 256 && n->h2 == 32)                                                      \
            call(16, 32);                                                                          \
        else                                                                                       \
            call(n->h1 / 16, n->h2);                                                               \
    } while (0)

static void accumulate(const cd_net *n, int16_t *acc, const uint16_t *in, int count, int sub)
{
#define ADD(V, H2) acc_add(n, acc, V, in, count, sub)
    SHAPES(ADD);
#undef ADD
}

static int layers(const cd_net *n, const int16_t *acc)
{
    int v;
#define LAYERS(V, H2) v = layers_of(n, acc, V, H2)
    SHAPES(LAYERS);
#undef LAYERS
    return v;
}
#else
/* Plain C: the same integer sums (integer arithmetic is exact, so the values are the same). */
static void accumulate(const cd_net *n, int16_t *acc, const uint16_t *in, int count, int sub)
{
    int H1 = n->h1;
    for (int i = 0; i < count; i++) {
        const int16_t *row = n->q1 + (size_t)in[i] * (size_t)H1;
        for (int h = 0; h < H1; h++)
            acc[h] = (int16_t)(sub ? acc[h] - row[h] : acc[h] + row[h]);
    }
}

static int layers(const cd_net *n, const int16_t *accp)
{
    int H1 = n->h1, H2 = n->h2;
    int16_t acc[CD_NET_MAX_H1];
    for (int h = 0; h < H1; h++)
        acc[h] = accp[h] < 0 ? 0 : accp[h] > CD_NET_Q1 ? CD_NET_Q1 : accp[h];
    int32_t z2[CD_NET_MAX_H2];
    for (int j = 0; j < H2; j++) {
        const int16_t *row = n->q2 + (size_t)j * (size_t)H1;
        int32_t z = 0;
        for (int h = 0; h < H1; h++)
            z += (int32_t)acc[h] * row[h];
        z2[j] = z;
    }
    return finish(n, H2, z2);
}
#endif

int cd_net_eval(const cd_net *n, const cd_position *pos)
{
    uint16_t in[64];
    return cd_net_eval_inputs(n, in, cd_net_inputs(n, pos, in));
}

/* The first layer's sums of the inputs, from the bias. */
static void sums_of(const cd_net *n, int16_t *acc, const uint16_t *in, int count)
{
    memcpy(acc, n->qb1, (size_t)n->h1 * sizeof *acc);
    accumulate(n, acc, in, count, 0);
}

int cd_net_eval_inputs(const cd_net *n, const uint16_t *in, int count)
{
    int16_t acc[CD_NET_MAX_H1] __attribute__((aligned(32)));
    sums_of(n, acc, in, count);
    return layers(n, acc);
}

/* Past this many changed squares the sums are made again from the bias. */
#define UPDATE_MAX 12

int cd_net_eval_cached(const cd_net *n, const cd_position *pos, cd_net_cache *c)
{
    int p = pos->side == CD_WHITE ? 0 : 1;
    uint64_t w = pos->white[0], b = pos->black[0], k = pos->kings[0];
    int16_t *acc = c->acc[p];
    if (c->serial != n->serial) {
        c->serial = n->serial;
        c->valid[0] = c->valid[1] = 0;
    }
    uint64_t changed = (w ^ c->white[p]) | (b ^ c->black[p]) | (k ^ c->kings[p]);
    if (c->valid[p] && __builtin_popcountll(changed) <= UPDATE_MAX) {
        uint16_t add[UPDATE_MAX], sub[UPDATE_MAX];
        int na = 0, ns = 0;
        uint64_t ow = c->white[p], ob = c->black[p], ok = c->kings[p];
        for (uint64_t x = changed; x; x &= x - 1) {
            int bit = __builtin_ctzll(x);
            uint64_t m = 1ull << bit;
            if ((ow | ob) & m)
                sub[ns++] = (uint16_t)feature(n, pos->side, bit, ow, ok);
            if ((w | b) & m)
                add[na++] = (uint16_t)feature(n, pos->side, bit, w, k);
        }
        accumulate(n, acc, sub, ns, 1);
        accumulate(n, acc, add, na, 0);
    } else {
        uint16_t in[64];
        sums_of(n, acc, in, cd_net_inputs(n, pos, in));
        c->valid[p] = 1;
    }
    c->white[p] = w;
    c->black[p] = b;
    c->kings[p] = k;
    return layers(n, acc);
}

/* ------------------------------------------------------------------ the file */

size_t cd_net_image_size(int inputs, int h1, int h2)
{
    size_t floats =
        (size_t)inputs * (size_t)h1 + (size_t)h1 + (size_t)h2 * (size_t)h1 + 2 * (size_t)h2 + 1;
    return CD_NET_HEADER + 4 * floats + 4;
}

static uint32_t get32(const unsigned char *p) { return (uint32_t)cd_get_le(p, 4); }

static float getf(const unsigned char *p)
{
    uint32_t u = get32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static cd_net *fault(cd_net *n, char *err, size_t errlen, const char *what)
{
    cd_net_free(n);
    if (err && errlen)
        snprintf(err, errlen, "%s", what);
    return NULL;
}

/* Every float of a[0..count) finite and within [-bound, bound]. */
static int within(const float *a, size_t count, float bound)
{
    for (size_t i = 0; i < count; i++)
        if (!(a[i] >= -bound && a[i] <= bound))
            return 0;
    return 1;
}

cd_net *cd_net_read(const unsigned char *buf, size_t len, char *err, size_t errlen)
{
    if (len < 4 || memcmp(buf, "CDN1", 4))
        return fault(NULL, err, errlen, "not a condraughts network file (no CDN1 header)");
    if (len < CD_NET_HEADER)
        return fault(NULL, err, errlen, "the network file is truncated (in its header)");
    if (get32(buf + 4) != CD_NET_VERSION)
        return fault(NULL, err, errlen, "unsupported network file version");
    char family[16] = {0};
    memcpy(family, buf + 8, 15);
    const unsigned char *p = buf + 24;
    uint32_t geometry = get32(p), squares = get32(p + 4), inputs = get32(p + 8);
    uint32_t h1 = get32(p + 12), h2 = get32(p + 16);
    if (geometry != CD_GEOM_8X8 && geometry != CD_GEOM_10X10)
        return fault(NULL, err, errlen, "the network file's geometry is not 8x8 or 10x10");
    if ((int)squares != cd_geoms[geometry].squares || inputs != 4 * squares)
        return fault(NULL, err, errlen, "the network file's input count does not match its board");
    if (h1 == 0 || h1 % 16 || h1 > CD_NET_MAX_H1 || h2 == 0 || h2 % 8 || h2 > CD_NET_MAX_H2)
        return fault(NULL, err, errlen,
                     "the network file's layer sizes are out of range (H1 a multiple of 16 up to "
                     "512, H2 a multiple of 8 up to 64)");
    if (len != cd_net_image_size((int)inputs, (int)h1, (int)h2))
        return fault(NULL, err, errlen,
                     "the network file has the wrong size (truncated or padded)");
    if (cd_fnv1a32(buf, len - 4) != get32(buf + len - 4))
        return fault(NULL, err, errlen, "the network file's checksum does not match (corrupt)");
    cd_net *n = cd_net_new(family, (int)geometry, (int)h1, (int)h2);
    if (!n)
        return fault(NULL, err, errlen, "out of memory reading the network file");
    n->base_checksum = get32(p + 20);
    p = buf + CD_NET_HEADER;
    size_t in = inputs, a = h1, b = h2;
    for (size_t i = 0; i < in * a; i++, p += 4)
        n->w1[i] = getf(p);
    for (size_t i = 0; i < a; i++, p += 4)
        n->b1[i] = getf(p);
    for (size_t i = 0; i < b * a; i++, p += 4)
        n->w2[i] = getf(p);
    for (size_t i = 0; i < b; i++, p += 4)
        n->b2[i] = getf(p);
    for (size_t i = 0; i < b; i++, p += 4)
        n->w3[i] = getf(p);
    n->b3 = getf(p);
    if (!within(n->w1, in * a, CD_NET_W1_MAX) || !within(n->b1, a, CD_NET_W1_MAX) ||
        !within(n->w2, b * a, CD_NET_W2_MAX) || !within(n->b2, b, CD_NET_B2_MAX) ||
        !within(n->w3, b, CD_NET_W3_MAX) || !within(&n->b3, 1, CD_NET_W3_MAX))
        return fault(n, err, errlen,
                     "a weight in the network file is not finite or out of its bounds (net.h)");
    cd_net_quantize(n);
    return n;
}
