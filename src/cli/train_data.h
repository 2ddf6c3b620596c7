/*
 * train_data.h -- what the two halves of `condraughts train` share (internal to src/cli): the
 * training data file's record (its format is in train.c's header), little-endian helpers, the
 * seeded generator, and train fit's options and entry point (train_fit.c).
 */
#ifndef CD_TRAIN_DATA_H
#define CD_TRAIN_DATA_H

#include <stdint.h>

#include "cliutil.h"
#include "condraughts.h"

#define REC_SIZE 40
#define HDR_SIZE 32

#define fail(...) cli_die("condraughts train: ", __VA_ARGS__)

typedef struct record {
    uint64_t white, black, kings;
    uint32_t game;
    int16_t score;
    uint16_t ply;
    uint8_t side, result;
} record;

static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The data file, written as games finish: the games 0..written-1 in order, the header's count
 * rewritten after each flush, so a file cut short by a kill holds a consistent prefix. */
/* train fit's command line. */
typedef struct fit_options {
    const cd_rules *rules;
    const char *data, *out, *init; /* init: a weights file to start from, or NULL */
    long epochs, batch;
    int wide; /* the wide layout (pattern.h) */
    double lr, lambda, l2, valid;
    uint64_t seed;
} fit_options;

/* Fit the weights to the data files and write the weights file; 0, or the program stops with a
 * message (cli_die) on bad input. */
int train_fit(const fit_options *o);

#endif
