/*
 * train_data.h -- what the parts of the trainer share (internal to src/train): the
 * training data file's record (its format is in train.c's header; its integers through
 * bytes.h), the seeded generator, the file's reading and writing (train_io.c), and the options
 * and entry points of train fit (train_fit.c) and train label (train_label.c).
 */
#ifndef CD_TRAIN_DATA_H
#define CD_TRAIN_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "bytes.h"
#include "condraughts.h"
#include "pattern.h"
#include "train.h"

#define REC_SIZE 40
#define HDR_SIZE 32

/* Stop the program with "condraughts train: " and the message on stderr, exit status 2 (the
 * trainer is a batch tool: bad input or a full disk ends the run). */
_Noreturn void train_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define fail(...) train_fail(__VA_ARGS__)

/* Seconds on the monotonic clock. */
double train_now(void);
/* The progress line of a long run on stderr (carriage return, no newline): "train NAME: done/total
 * UNIT, EXTRA, rate/s, eta S s", the rate and the time left from the run's start t0; extra may
 * be "" (left out). */
void train_progress(const char *name, size_t done, size_t total, const char *unit,
                    const char *extra, double t0);

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
/* The same, with the deep labels of the corpus files found in the folders of the comma-separated
 * list labels (labels_apply; NULL: none). */
record *train_read_labelled(const char *list, const char *labels, const cd_rules *r, size_t *n,
                            uint32_t *games);
FILE *train_create(const char *path, const cd_rules *r);
void train_put(FILE *f, const record *x);
void train_set_count(FILE *f, uint64_t records);
/* The indices (ascending) of the records among the first total drawn by a hash of (seed, index)
 * with probability share (all for share 1), as train label and train siblings draw them; *n: how
 * many. */
size_t *train_draw(size_t total, double share, uint64_t seed, size_t *n);
/* The records of a data file (train_read) cut to its first limit (0: all), *total of them, and
 * the indices drawn among those (train_draw: *n of them), as train label and train siblings take
 * their sample. */
record *train_read_sample(const char *path, const cd_rules *r, long limit, double share,
                          uint64_t seed, size_t *total, size_t **drawn, size_t *n);
/* The position of a record (pieces, side to move, key). */
void train_position(const cd_rules *r, const record *x, cd_position *p);
/* The name a data file's header holds for variant r: its learned family's (pattern.c: at most
 * 15 characters; the variant's own name for the first five families, so older files read as
 * before); the variant's name for a variant without one (train refuses those). */
static inline const char *train_file_name(const cd_rules *r)
{
    const char *family = cd_pattern_family_name(cd_pattern_family(r));
    return family ? family : r->name;
}

/* train_corpus.c: the game corpus (docs/formats.md, "Game corpus"). A file holds games of one
 * variant as move indices into cd_generate's list, each game's records' search scores and its
 * results, xz-compressed; its records are re-derived by replay, the same records train gen
 * writes to a data file. corpus_begin starts the payload with the games' configuration,
 * corpus_put_game appends game number `game` (g played out, its first `opening` plies the random
 * opening, label the result of the records that have none of their own, rec its nrec records),
 * corpus_write compresses it into path (through path.part, renamed) and frees it. */
typedef struct corpus_buf {
    unsigned char *data;
    size_t len, cap;
} corpus_buf;
void corpus_begin(corpus_buf *b, const gen_options *c);
void corpus_put_game(corpus_buf *b, const cd_game *g, uint32_t game, int opening, int label,
                     const record *rec, int nrec);
/* Move game's bytes to the end of b (game is left empty). */
void corpus_append(corpus_buf *b, corpus_buf *game);
void corpus_write(corpus_buf *b, const char *path);
/* A corpus file's identity, from its header and its replay: what a labels file names. */
typedef struct corpus_id {
    uint64_t seed;
    uint32_t first, games, records;
} corpus_id;
/* The records of a corpus file of variant r, in order, and its identity into *id (unless NULL)
 * (the program stops on a fault). */
record *corpus_read(const char *path, const cd_rules *r, size_t *n, corpus_id *id);
/* 1 if path names a labels file (it ends in ".cdl.xz"). */
int labels_is(const char *path);
/* Write the labels file (docs/formats.md, "Deep labels") of the corpus file id: the records
 * rec[drawn[0..ndrawn-1]] whose deep flag train label set, with their new scores, each stored as
 * its difference from before[k], the score the game gave rec[drawn[k]]. */
void labels_write(const char *path, const cd_rules *r, const corpus_id *id, long nodes, long depth,
                  uint64_t seed, double share, const record *rec, const int16_t *before,
                  const size_t *drawn, size_t ndrawn);
/* The labels of corpus file `chunk` (its records rec[0..n-1], identity id) from the folders of
 * the comma-separated list dirs: the file of the chunk's name with ".cdl.xz" for ".cdg.xz" in
 * one of them sets the scores and deep flags it holds; none: nothing changes. The program stops
 * on a damaged file, a file of another chunk, or the chunk's labels in two folders. Returns the
 * records it labelled. */
size_t labels_apply(const char *chunk, const char *dirs, const cd_rules *r, const corpus_id *id,
                    record *rec, size_t n);
/* The corpus files in folder dir, sorted by name (malloc'ed paths, *n of them); NULL if dir is
 * not a folder. */
char **corpus_list_dir(const char *dir, size_t *n);

#endif
