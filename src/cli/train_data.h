/*
 * train_data.h -- what the parts of `condraughts train` share (internal to src/cli): the
 * training data file's record (its format is in train.c's header), little-endian helpers, the
 * seeded generator, the file's reading and writing (train_io.c), and the options and entry points
 * of train fit (train_fit.c) and train label (train_label.c).
 */
#ifndef CD_TRAIN_DATA_H
#define CD_TRAIN_DATA_H

#include <stdint.h>
#include <stdio.h>

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
    uint8_t deep; /* 1: the score is train label's deeper search, not the game's */
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

/* A search score (side to move's view) as a record's: White's view, clamped to +-30000. */
static inline int16_t white_score(int side, int score)
{
    int sc = side == CD_WHITE ? score : -score;
    return (int16_t)(sc > 30000 ? 30000 : sc < -30000 ? -30000 : sc);
}

/* train_io.c: the data file. train_read reads a whole file of variant r (the program stops with
 * a message on a missing, foreign, truncated or invalid file); train_create writes the header
 * with a count of 0, train_put appends a record, train_set_count rewrites the header's count,
 * so that a file cut short by a kill holds a consistent prefix. */
record *train_read(const char *path, const cd_rules *r, size_t *n);
/* The records of a comma-separated list of files, in order, each file's games numbered after
 * the files' before it; *games: the games in all. */
record *train_read_list(const char *list, const cd_rules *r, size_t *n, uint32_t *games);
FILE *train_create(const char *path, const cd_rules *r);
void train_put(FILE *f, const record *x);
void train_set_count(FILE *f, uint64_t records);
/* The indices (ascending) of the records among the first total drawn by a hash of (seed, index)
 * with probability share (all for share 1), as train label and train siblings draw them; *n: how
 * many. */
size_t *train_draw(size_t total, double share, uint64_t seed, size_t *n);
/* The position of a record (pieces, side to move, key). */
void train_position(const cd_rules *r, const record *x, cd_position *p);
/* The name a data file's header holds for variant r: its learned family's (pattern.c: at most
 * 15 characters; the variant's own name for the first five families, so older files read as
 * before); the variant's name for a variant without one (train refuses those). */
const char *train_file_name(const cd_rules *r);

/* train fit's command line. */
typedef struct fit_options {
    const cd_rules *rules;
    const char *data, *out, *init; /* init: a weights file to start from, or NULL */
    long epochs, batch;
    int wide; /* the wide layout (pattern.h) */
    double lr, lambda, l2, valid;
    double deep_lambda; /* lambda of the records train label scored (deep), <0: lambda */
    double k;           /* the score scale K, or 0: fitted to the hand-set evaluation */
    const char
        *siblings; /* siblings files (a comma-separated list) for the ordering target, or NULL */
    double rank, rank_temp; /* its weight against the results' loss; its temperature */
    uint64_t seed;
} fit_options;

/* train label's command line. */
typedef struct label_options {
    const cd_rules *rules;
    const char *data, *out;
    long nodes, depth;   /* depth, when not 0, instead of nodes */
    long threads, limit; /* limit: only the input's first this many records, 0 for all */
    double share;
    uint64_t seed;
} label_options;

/* train siblings' command line and file (train_sib.c): a position with the leaf of every legal
 * move and the teacher's move among them. */
typedef struct sib_options {
    const cd_rules *rules;
    const char *data, *out;
    long nodes, leaf_depth, min_pieces, threads, limit;
    double share;
    uint64_t seed;
} sib_options;

typedef struct sib_leaf {
    uint64_t white, black, kings;
    uint8_t side;
} sib_leaf;

typedef struct sib_group {
    uint8_t side;     /* the side to move at the position */
    uint16_t n, best; /* legal moves; the teacher's among them */
    int16_t score;    /* the teacher's score, side to move's view */
    sib_leaf *leaf;   /* [n], in the move generator's order; NULL: left out */
} sib_group;

/* Write the siblings file of a sample of a data file's positions; 0, or the program stops. */
int train_siblings(const sib_options *o);
/* The groups of a comma-separated list of siblings files of variant r, in order (the program
 * stops with a message on a fault). */
sib_group *train_read_siblings(const char *list, const cd_rules *r, size_t *n);

/* train net's command line (train_net.c). */
typedef struct net_options {
    const cd_rules *rules;
    const char *data, *out, *init; /* init: a network file to start from, or NULL */
    long epochs, batch, threads, limit;
    long h1, h2; /* the hidden layers' units (0 with --init: the file's) */
    int hidden_given;
    int deep_only; /* only the records train label scored again */
    double lr, lambda, deep_lambda, valid, k;
    uint64_t seed;
} net_options;

/* Fit the network stacked on the loaded pattern weights of the family and write its file. */
int train_net(const net_options *o);

/* Score a sample of a data file's positions again by a deeper search and write the file again
 * with those scores, flagged deep (train_label.c); 0, or the program stops with a message on bad
 * input. */
int train_label(const label_options *o);

/* Fit the weights to the data files and write the weights file; 0, or the program stops with a
 * message (cli_die) on bad input. */
int train_fit(const fit_options *o);

#endif
