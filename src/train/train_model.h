/*
 * train_model.h -- the trainer's side of the learned evaluation: the writers of the weights file
 * (CDW1, pattern.h) and the network file (CDN1, net.h), whose readers are the engine's, and the
 * network's float forward pass (the trainer fits the float weights; the engine computes with the
 * integers quantized from them, net.h). Not in libcondraughts.a: the engine never writes a file
 * nor computes in floats.
 */
#ifndef CD_TRAIN_MODEL_H
#define CD_TRAIN_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"
#include "pattern.h"

/* Serialise w into buf (NULL: just the size); returns the size in bytes. */
size_t train_pattern_write(const cd_pattern_weights *w, unsigned char *buf);
/* Serialise n's float weights into buf (NULL: just the size); returns the size in bytes. */
size_t train_net_write(const cd_net *n, unsigned char *buf);

/* The float pass: b3 + w3 . h2 (out / 100 before the clamp), with the first layer's sums acc
 * (before the clip), h1 in a1 and the second layer's sums z (the gradient's inputs). */
float train_net_forward(const cd_net *n, const uint16_t *in, int count, float *acc, float *a1,
                        float *z);
/* out of the inputs in the float form, hundredths of a man, the side to move's view, clamped as
 * cd_net_eval's. */
double train_net_eval(const cd_net *n, const uint16_t *in, int count);

#endif
