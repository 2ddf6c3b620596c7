/*
 * refgen.h -- a deliberately naive reference move generator for the draughts
 * variants of condraughts (the diagonal ones and Frisian).
 *
 * Written only from the rule texts (/work/shared/RULES.md, the rules/ directory,
 * perft.md section 0), independently of the library's bitboard generator,
 * so that the two can be compared on random positions (tests/test_reference.c).
 * Plain arrays and (row, col) loops; pure C11 and libc; no dependency on the
 * library.
 */
#ifndef REFGEN_H
#define REFGEN_H

#include <stddef.h>

/* Switch bits: the same numeric values as the CD_* flags in include/condraughts.h. */
#define REF_CON_OBSTRUCT_BY_MEN  0x0002u /* KT: men threats also obstruct */
#define REF_CON_ORIGIN_OCCUPIED  0x0004u /* threat judged with the origin still occupied */
#define REF_CON_SAC_KINGS_ONLY   0x0008u /* SAC: only an enemy king capture counts */
#define REF_CON_NO_PASS_TO_SAC   0x0010u /* a king may not pass a threatened square at all */
#define REF_RULE_KEEP_DUPLICATES 0x0100u /* every distinct capture path is its own move */

/* Longest Hub move string (including the terminating NUL). */
#define REF_MOVE_LEN 128

/*
 * Squares are numbered as in include/condraughts.h: the playable squares row
 * by row from the top-left playable square as White sees the board (White at
 * the bottom, its men move up). On the mirrored boards (italian, spanish,
 * portuguese) the top-left cell itself is playable and is square 1.
 *
 * Legal moves of the position, in Hub form, one string per move: "from-to" for
 * a quiet move, "fromxtoxc1xc2..." for a capture (captured squares ascending).
 * variant: canonical name (or a usual alias). flags: REF_* bits above (other
 * bits are ignored). With REF_RULE_KEEP_DUPLICATES every distinct capture path
 * (distinct ordered sequence of captured pieces, or distinct final square) is
 * one entry, so a Hub string may repeat; without it captures with the same
 * from, to and captured set appear once.
 * The moves are written in no particular order.
 * Returns the number of moves, or -1 on error (unknown variant, bad FEN, more
 * than `max` moves); then `err` (if not NULL) gets a message.
 */
int ref_moves(const char *variant, unsigned flags, const char *fen, char (*out)[REF_MOVE_LEN],
              int max, char *err, size_t errlen);

/*
 * Perft with the reference generator (number of leaves at `depth`, no draw
 * rules, game over only when the side to move has no move). Moves are played
 * on the reference's own arrays, with the promotion rule of the variant
 * (Russian: crowned during the capture). Returns -1 on error.
 */
long long ref_perft(const char *variant, unsigned flags, const char *fen, int depth, char *err,
                    size_t errlen);

/*
 * The Frisian king-move limit state, which a FEN cannot hold: per colour
 * (0 white, 1 black) the square number of the king whose consecutive
 * non-capturing moves are counted and how many it has made (0: none). A king
 * that has made the variant's limit (3) may not make another while its side
 * has men. Ignored by variants without the limit.
 */
typedef struct ref_run {
    int sq[2], len[2];
} ref_run;

/* ref_moves and ref_perft from a position with this state (NULL: none, as a FEN starts). */
int ref_moves_run(const char *variant, unsigned flags, const char *fen, const ref_run *run,
                  char (*out)[REF_MOVE_LEN], int max, char *err, size_t errlen);
long long ref_perft_run(const char *variant, unsigned flags, const char *fen, const ref_run *run,
                        int depth, char *err, size_t errlen);

/* 1 if the reference knows the variant name (canonical or alias), else 0. */
int ref_variant_known(const char *variant);

#endif
