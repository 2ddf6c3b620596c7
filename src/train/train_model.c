/*
 * train_model.c -- the writers of the weights and network files and the network's float forward
 * pass (train_model.h).
 */
#include "train_model.h"

#include <assert.h>
#include <string.h>

#include "bytes.h"

/* v at *p, little-endian, and *p past it */
static void put32(unsigned char **p, uint32_t v)
{
    cd_put_le(*p, v, 4);
    *p += 4;
}

static void put16(unsigned char **p, int16_t v)
{
    cd_put_le(*p, (uint16_t)v, 2);
    *p += 2;
}

static void putf(unsigned char **p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(p, u);
}

/* The files' common header: magic, version, the family's name NUL-padded to 16 bytes, then
 * `words` words of the format's own (six for CD_PAT_HEADER and CD_NET_HEADER, one more for each
 * word cd_pattern_header_size adds). */
static void put_header(unsigned char **p, const char *magic, uint32_t version, const char *family,
                       const uint32_t *word, size_t words)
{
    memcpy(*p, magic, 4);
    *p += 4;
    put32(p, version);
    memset(*p, 0, 16);
    for (int i = 0; i < 15 && family[i]; i++)
        (*p)[i] = (unsigned char)family[i];
    *p += 16;
    for (size_t i = 0; i < words; i++)
        put32(p, word[i]);
}

size_t train_pattern_write(const cd_pattern_weights *w, unsigned char *buf)
{
    const cd_pattern_layout *l = &w->layout;
    uint32_t version = cd_pattern_version(l);
    size_t size = cd_pattern_image_size(version, l->regions, l->strips, l->squares);
    if (!buf)
        return size;
    unsigned char *p = buf;
    const uint32_t word[8] = {(uint32_t)l->geometry, (uint32_t)l->regions, CD_PAT_CONFIGS,
                              CD_PAT_SCALARS,        (uint32_t)l->start,   (uint32_t)l->squares,
                              (uint32_t)l->strips,   CD_PAT_PHASE_PIP};
    size_t words = 6 + (cd_pattern_header_size(version) - CD_PAT_HEADER) / 4;
    assert(words <= sizeof word / sizeof *word);
    put_header(&p, "CDW1", version, w->family, word, words);
    for (int r = 0; r < l->regions; r++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++)
                put16(&p, w->pat[r][c][ph]);
    for (int r = 0; r < l->strips; r++)
        for (int c = 0; c < CD_PAT_STRIP_CONFIGS; c++)
            for (int ph = 0; ph < 2; ph++)
                put16(&p, w->strip[r][c][ph]);
    for (int s = 0; s < CD_PAT_SCALARS; s++)
        for (int ph = 0; ph < 2; ph++)
            put16(&p, w->scalar[s][ph]);
    for (int i = 0; i < l->squares; i++)
        for (int ph = 0; ph < 2; ph++)
            put16(&p, w->king_square[i][ph]);
    put32(&p, cd_fnv1a32(buf, (size_t)(p - buf)));
    return size;
}

size_t train_net_write(const cd_net *n, unsigned char *buf)
{
    size_t size = cd_net_image_size(n->inputs, n->h1, n->h2);
    if (!buf)
        return size;
    unsigned char *p = buf;
    const uint32_t word[6] = {(uint32_t)n->geometry, (uint32_t)n->squares, (uint32_t)n->inputs,
                              (uint32_t)n->h1,       (uint32_t)n->h2,      n->base_checksum};
    put_header(&p, "CDN1", CD_NET_VERSION, n->family, word, 6);
    size_t in = (size_t)n->inputs, h1 = (size_t)n->h1, h2 = (size_t)n->h2;
    for (size_t i = 0; i < in * h1; i++)
        putf(&p, n->w1[i]);
    for (size_t i = 0; i < h1; i++)
        putf(&p, n->b1[i]);
    for (size_t i = 0; i < h2 * h1; i++)
        putf(&p, n->w2[i]);
    for (size_t i = 0; i < h2; i++)
        putf(&p, n->b2[i]);
    for (size_t i = 0; i < h2; i++)
        putf(&p, n->w3[i]);
    putf(&p, n->b3);
    put32(&p, cd_fnv1a32(buf, (size_t)(p - buf)));
    return size;
}

static inline float clip1(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

float train_net_forward(const cd_net *n, const uint16_t *in, int count, float *acc, float *a1,
                        float *z)
{
    int H1 = n->h1, H2 = n->h2;
    memcpy(acc, n->b1, (size_t)H1 * sizeof *acc);
    for (int i = 0; i < count; i++) {
        const float *row = n->w1 + (size_t)in[i] * (size_t)H1;
        for (int h = 0; h < H1; h++)
            acc[h] += row[h];
    }
    for (int h = 0; h < H1; h++)
        a1[h] = clip1(acc[h]);
    float inner = n->b3;
    for (int j = 0; j < H2; j++) {
        const float *row = n->w2 + (size_t)j * (size_t)H1;
        float v = n->b2[j];
        for (int h = 0; h < H1; h++)
            v += a1[h] * row[h];
        z[j] = v;
        inner += n->w3[j] * clip1(v);
    }
    return inner;
}

double train_net_eval(const cd_net *n, const uint16_t *in, int count)
{
    float acc[CD_NET_MAX_H1], a1[CD_NET_MAX_H1], z[CD_NET_MAX_H2];
    double out = CD_NET_OUT * (double)train_net_forward(n, in, count, acc, a1, z);
    return out > CD_NET_OUT_MAX ? CD_NET_OUT_MAX : out < -CD_NET_OUT_MAX ? -CD_NET_OUT_MAX : out;
}
