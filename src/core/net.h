/*
 * net.h -- a small neural network stacked on the learned pattern evaluation (pattern.h): it adds
 * a correction to the pattern score of a family, read from a file of its own.
 *
 * Representation. The inputs are seen from the side to move ("us"): a board square s (internal
 * square number 0..N-1, N the board's playable squares) is read as it stands when White is to
 * move, and as N-1-s (the board turned 180 degrees) with the colours exchanged when Black is to
 * move. Input type * N + s, type 0 our man, 1 our king, 2 their man, 3 their king: 4N
 * inputs, one per piece, each 0 or 1. Two hidden layers with the clipped
 * linear unit c(x) = min(max(x, 0), 1):
 *
 *   h1 = c(b1 + sum over the pieces' inputs i of W1[i])            (H1 values)
 *   h2 = c(b2 + W2 h1)                                             (H2 values)
 *   out = 100 * (b3 + w3 . h2)        hundredths of a man, the side to move's view,
 *                                     clamped to +-CD_NET_OUT_MAX (30 men, below the win scores)
 *
 * The evaluation of a position with a network is its pattern score plus out (White's view: out
 * negated when Black is to move), before the lone-king and drawish scalings of eval.c. Because
 * the inputs are the mover's, a position turned round with colours exchanged gets the same out
 * from the mover's side: the colour symmetry of the pattern score stays exact.
 *
 * The file holds the trainer's float weights; the engine computes with integers quantized from
 * them at load (the same on every compiler and machine, so node counts do not change with the
 * build): W1, b1 times 255 (16-bit sums), W2 times 1024, b2 times 255 * 1024, w3 times 100 * 16,
 * b3 times 100 * 255 * 1024 * 16; h1 in 0..255, h2 in 0..255 * 1024, each rounded to nearest.
 * cd_net_eval is that integer form (the quotient truncated towards 0); the float form is the
 * trainer's (train_net_eval, src/train/train_model.h), a few hundredths from it at most.
 *
 * Bounds, checked at load (so no 16-bit sum can overflow with up to 41 pieces and biases):
 * |W1|, |b1| <= 3; |W2| <= 8; |b2| <= 64; |w3|, |b3| <= 64. H1 a multiple of 16 up to 512, H2 a
 * multiple of 8 up to 64.
 *
 * File: one per family (weights/russian.cdn, ...), "CDN1" version 1: a header with the family,
 * board and layer sizes and the checksum of the weights file it corrects, the f32 weights, an
 * FNV-1a checksum. docs/formats.md gives it byte by byte, with what a reader refuses and when the
 * version changes.
 */
#ifndef CD_NET_H
#define CD_NET_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

#define CD_NET_MAX_H1 512
#define CD_NET_MAX_H2 64
#define CD_NET_MAX_SQ 50
#define CD_NET_MAX_IN (4 * CD_NET_MAX_SQ)

#define CD_NET_Q1      255  /* h1's 1.0 */
#define CD_NET_Q2      1024 /* W2's 1.0 */
#define CD_NET_Q3      16   /* w3's one hundredth of a man */
#define CD_NET_OUT     100  /* out's unit: a man */
#define CD_NET_W1_MAX  3.0f
#define CD_NET_W2_MAX  8.0f
#define CD_NET_B2_MAX  64.0f
#define CD_NET_W3_MAX  64.0f
#define CD_NET_OUT_MAX 3000 /* |out| at most this (hundredths): below every win score */

typedef struct cd_net {
    char family[16];
    int geometry, squares, inputs, h1, h2;
    uint32_t base_checksum;
    uint64_t serial;   /* set anew by every cd_net_quantize: the caches' key (cd_net_cache) */
    int8_t square[64]; /* internal bit -> square 0..N-1, or -1 */
    /* the trainer's weights */
    float *w1; /* [inputs][h1] */
    float *b1; /* [h1] */
    float *w2; /* [h2][h1] */
    float *b2; /* [h2] */
    float *w3; /* [h2] */
    float b3;
    /* the engine's, quantized from them (cd_net_quantize) */
    int16_t *q1;  /* [inputs][h1] */
    int16_t *qb1; /* [h1] */
    int16_t *q2;  /* [h2][h1] */
    int32_t *qb2; /* [h2] */
    int32_t *q3;  /* [h2] */
    int64_t qb3;
} cd_net;

/* The first layer's sums of the last position evaluated from each side's view (a search thread's
 * own): the next evaluation from that side adds and takes away the rows of the squares that
 * changed, which gives the same sums (integers) as making them from the bias. */
typedef struct cd_net_cache {
    int16_t acc[2][CD_NET_MAX_H1]; /* [side to move] */
    uint64_t serial; /* the network the sums are of (cd_net.serial; another: made again) */
    int valid[2];
    uint64_t white[2], black[2], kings[2]; /* the position they are of */
} cd_net_cache;

/* A network of the given shape for a geometry (8x8 or 10x10 diagonal boards), weights all 0;
 * NULL on a bad shape or out of memory. */
cd_net *cd_net_new(const char *family, int geometry, int h1, int h2);
void cd_net_free(cd_net *n);
/* Quantize the float weights into the engine's integers (after any change to the floats). */
void cd_net_quantize(cd_net *n);
/* The inputs of a position (indices, at most one per piece), the mover's view; returns their
 * count. */
int cd_net_inputs(const cd_net *n, const cd_position *pos, uint16_t *in);
/* out of the position, hundredths of a man, the side to move's view: integer and float forms. */
int cd_net_eval(const cd_net *n, const cd_position *pos);
int cd_net_eval_inputs(const cd_net *n, const uint16_t *in, int count);
/* cd_net_eval through a cache (zeroed before its first use): the same value. */
int cd_net_eval_cached(const cd_net *n, const cd_position *pos, cd_net_cache *c);

/* The file's header size and version, and the size of a file of this shape (its writer is the
 * trainer's: train_net_write, src/train/train_model.h). */
#define CD_NET_HEADER  (4 + 4 + 16 + 6 * 4)
#define CD_NET_VERSION 1
size_t cd_net_image_size(int inputs, int h1, int h2);
/* Parse a file image into a new network; NULL with a message in err on any fault. */
cd_net *cd_net_read(const unsigned char *buf, size_t len, char *err, size_t errlen);

#endif
