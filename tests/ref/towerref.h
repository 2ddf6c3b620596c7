/*
 * towerref.h -- naive, independent reference move generator for two
 * tower-draughts games ("bashni" and "lasker"). See towerref.c for the rule
 * decisions and their sources. C11 + libc only.
 *
 * Position text: "<side>:<sq>=<stack>,<sq>=<stack>,..."  side 'W' or 'B';
 * squares algebraic (bashni a1..h8, a1 dark; lasker a1..g7, a1 playable;
 * files a.. left to right from White's side, ranks 1.. from White's side);
 * a stack lists its pieces from TOP to BOTTOM: 'w' white man/soldier,
 * 'W' white king/officer, 'b' black man, 'B' black king. Empty squares
 * omitted; entries in any order. Example "W:a1=w,c1=wbb,e5=B".
 * Positions written by this module list the squares rank by rank from rank 1,
 * files a.. within a rank.
 *
 * Move text: quiet "c3-d4"; capture: every landing square from the start
 * joined by ':', e.g. "c3:e5:c7". Each distinct landing path is one move.
 */
#ifndef TOWERREF_H
#define TOWERREF_H

#include <stddef.h>

#define TREF_MOVE_LEN 128

/* Legal moves of the side to move, sorted by strcmp. Returns their number,
 * or -1 with err set (malformed input, unknown game, or more than max moves
 * when out is not NULL). With out == NULL only the number is returned. */
int tref_moves(const char *game, const char *pos, char (*out)[TREF_MOVE_LEN], int max,
               char *err, size_t errlen);

/* Number of leaves at the given depth (depth 0 -> 1); -1 on error. */
long long tref_perft(const char *game, const char *pos, int depth, char *err, size_t errlen);

/* Start position text; 0 ok, -1 unknown game or buffer too small. */
int tref_start(const char *game, char *out, size_t outlen);

/* Position text after a legal move (exact move text as tref_moves writes it);
 * 0 ok, -1 if illegal or on error (err set). */
int tref_play(const char *game, const char *pos, const char *move, char *out, size_t outlen,
              char *err, size_t errlen);

#endif
