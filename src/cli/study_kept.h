/*
 * study_kept.h -- the games a study keeps (study_kept.c): DIR/VARIANT.pdn.xz holds the games of
 * one variant in the order of their numbers (Round tag), each as its file DIR/VARIANT/NNNNN.pdn
 * was, white space at its end made one blank line, xz-compressed. `condraughts study pack` moves
 * the game files into it, so that a study can live in a git repository and grow across machines;
 * the study and its report read a game from its file, else from there (study_games.h).
 */
#ifndef CD_STUDY_KEPT_H
#define CD_STUDY_KEPT_H

#include <stddef.h>

#include "condraughts.h"

#define KEPT_MAX_FILE (64u << 20) /* the largest kept file read, compressed */

/* The kept games of one variant, decompressed. */
typedef struct kept_games {
    char *text;
    int n;
    int *round;          /* each game's number (1-based), increasing */
    size_t *start, *end; /* each game's text: text[start, end), without white space around */
} kept_games;

/* Read the kept games at path into k: 0 (k empty when there is no such file), or -1 with err
 * set ("PATH: what"), k empty. Every game must read as a PDN game of rules with a Termination tag
 * and a Round tag, its number, the numbers increasing. */
int kept_read(const char *path, const cd_rules *rules, kept_games *k, char *err, size_t errlen);
void kept_free(kept_games *k);
/* The index in k of game number round (1-based), or -1. */
int kept_find(const kept_games *k, int round);

#endif
