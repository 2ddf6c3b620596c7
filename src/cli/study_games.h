/*
 * study_games.h -- the games of a study (study_games.c): its settings, its openings and their
 * shuffled order, and what follows from them alone: each game's file, tags and opening. The
 * command (study.c) plays the games and the report (study_report.c) reads them back through it.
 */
#ifndef CD_STUDY_GAMES_H
#define CD_STUDY_GAMES_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

#define STUDY_MAX_VARIANTS 16
#define STUDY_MAX_GAMES    99998 /* per variant: five-digit file names */
/* The largest game or openings file read (cd_slurp, slurp.h). */
#define STUDY_MAX_FILE (64u << 20)

/* The settings of a study: its game list is a function of these. */
typedef struct study_config {
    const char *out; /* DIR */
    int nvariants;
    const cd_rules *variants[STUDY_MAX_VARIANTS];
    const char *openings[STUDY_MAX_VARIANTS]; /* the openings file of each variant */
    int games;                                /* per variant (even) */
    uint64_t nodes;                           /* node limit a move, or 0 */
    double movetime;                          /* seconds a move, or 0 */
    uint64_t seed;
    const char *egtb; /* tablebase folder, or NULL */
    int max_plies;    /* a draw after this many plies past the opening */
    size_t hash;      /* MiB of each engine's table */
    char command[2048];
} study_config;

/* The loaded study: settings, openings and their shuffled order. */
typedef struct study study;

/* The study of settings c (copied, the openings files' names too): each variant's openings
 * read and shuffled by the seed. NULL with err set when a file cannot be read or holds a bad
 * opening, when a variant has fewer than games / 2 openings, or out of memory. */
study *study_load(const study_config *c, char *err, size_t errlen);
void study_free(study *s);

const study_config *study_config_of(const study *s);
/* The number of openings of variant v, and the opening of game j (0-based): its line number in
 * the file and its text; the game plays it as written (j even) or with colours reversed. */
int study_openings_count(const study *s, int v);
const char *study_opening_of(const study *s, int v, int j, int *number);
/* The opening of game j of variant v played out (or set up) under the variant. */
const cd_game *study_opening_game(const study *s, int v, int j);
/* Plies game j of variant v starts with (the opening's moves; 0 when it starts from a FEN). */
int study_opening_plies(const study *s, int v, int j);

/* DIR/VARIANT/NNNNN.pdn of game j (0-based) of variant v. */
void study_game_path(const study *s, int v, int j, char *buf, size_t len);
/* DIR/VARIANT.pdn.xz: the games of variant v kept (study_kept.h). */
void study_kept_path(const study *s, int v, char *buf, size_t len);
/* Read every variant's kept games, if any: 0, or -1 with err set (the file and what is wrong:
 * damaged, not PDN, out of order). */
int study_load_kept(study *s, char *err, size_t errlen);
/* The text of game j of variant v: its file's, else the kept game's (after study_load_kept);
 * malloc'ed, NUL-terminated, its length in *len; where names it for messages (the file, or
 * "DIR/VARIANT.pdn.xz (game N)"). NULL with errno ENOENT when the game is in neither, another
 * errno when its file cannot be read. */
char *study_game_text(const study *s, int v, int j, size_t *len, char *where, size_t wlen);
/* The tags game j of variant v is written with. */
void study_game_tags(const study *s, int v, int j, cd_pdn_tags *tags);
/* 0 when the tags read from a game file are those of game (v, j) of this study, else 1 with
 * the first difference in err. */
int study_check_tags(const study *s, int v, int j, const cd_pdn_tags *got, char *err,
                     size_t errlen);

/* 0..n-1 in a shuffled order that depends on seed alone (free it); NULL if out of memory. */
int *study_shuffle(int n, uint64_t seed);
/* The position turned by 180 degrees with the colours swapped and the other side to move: the
 * same game seen from the other side of the board. */
void study_mirror(const cd_position *in, cd_position *out);
/* Write text to path through a temporary file (fsync, rename); 0 or -1 with errno set. */
int study_write_atomic(const char *path, const char *text, size_t len);

#endif
