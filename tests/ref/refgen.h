/*
 * refgen.h -- a deliberately naive reference move generator for the draughts
 * variants of condraughts (the diagonal ones, Frisian, Hoogland, the folk
 * rules of the Russian row, Spantsiretti, Turkish and Thai).
 *
 * Written only from the rule texts (/work/shared/RULES.md, the rules/ directory,
 * perft.md sections 0 and 3.8-3.9, docs/variants.md), independently of the
 * library's bitboard generator, so that the two can be compared on random
 * positions (tests/test_reference.c). Plain arrays and (row, col) loops; pure
 * C11 and libc; no dependency on the library.
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
/* Hoogland switches: orthogonal captures only while only kings are on the board; an orthogonal
   jump only as the first jump of a capture. */
#define REF_HOOG_KINGS_ONLY 0x10000u
#define REF_HOOG_FIRST_JUMP 0x20000u
/* Turkish: a man reaching the far row during a capture is crowned at once and goes on capturing
   as a king (default: it goes on as a man and is crowned only if the move ends there, which is
   what kish does; perft from the start is the same both ways to depth 9 at least). Not a library
   flag; its value is outside the library's rule bits. */
#define REF_TURKISH_PROMOTE_CONTINUE 0x80000000u

/* Longest Hub move string (including the terminating NUL). */
#define REF_MOVE_LEN 128

/*
 * Squares are numbered as in include/condraughts.h: the playable squares row
 * by row from the top-left playable square as White sees the board (White at
 * the bottom, its men move up). On the mirrored boards (italian, spanish,
 * portuguese) the top-left cell itself is playable and is square 1.
 * spantsiretti (alias 80-cell): 10 files x 8 ranks, a1 dark, squares 1..40
 * (5 a row; the top-left cell is not playable); start W:W26-40:B1-15.
 * turkish: all 64 cells, 1..64 row by row from the top-left (a8 = 1, h8 = 8,
 * a7 = 9, ..., h1 = 64); start W:W41-56:B9-24.
 * thai: the 8x8 dark squares (as russian); the game starts with two rows of
 * men each, W:W25-32:B1-8 (Black first per PDN; the position is symmetric),
 * but perft.md 3.8's numbers (dctl "initial(2)") are from the three-row
 * position W:W21-32:B1-12.
 * russian-diagonal: start W:W12,16,19,20,23,24,26,27,28,30,31,32:
 * B1,2,3,5,6,7,9,10,13,14,17,21 (docs/variants.md).
 * FEN piece fields hold square numbers, ranges "21-32", and (any variant)
 * algebraic squares "c3" (file a.. from White's left, rank 1 at White's side),
 * each with an optional K for a king.
 *
 * Legal moves of the position, in Hub form, one string per move: "from-to" for
 * a quiet move, "fromxtoxc1xc2..." for a capture (captured squares ascending).
 * variant: canonical name (or a usual alias). flags: REF_* bits above (other
 * bits are ignored). With REF_RULE_KEEP_DUPLICATES every distinct capture path
 * (distinct ordered sequence of captured pieces, or distinct final square) is
 * one entry, so a Hub string may repeat; without it captures with the same
 * from, to and captured set appear once. A king that goes on straight over a
 * second piece makes one path wherever it "landed" between the two, except in
 * turkish, where each such landing square makes its own path (as the kish
 * numbers of perft.md 3.9 count them).
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
 * (Russian: crowned during the capture; russian-northern: a captured king
 * becomes a man of its colour when the move ends). russian-two-move: each
 * turn is two moves of the same side, and the FEN is taken as the start of
 * a turn (see ref_perft_two_move). Returns -1 on error.
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

/*
 * Perft for russian-two-move from the middle of a turn: second_move != 0 means
 * the side to move in the FEN has already made the first move of its turn (so
 * it makes one more move, then the other side makes two). second_move == 0 is
 * ref_perft. Other variants ignore second_move.
 */
long long ref_perft_two_move(const char *variant, unsigned flags, const char *fen, int second_move,
                             int depth, char *err, size_t errlen);

/* 1 if the reference knows the variant name (canonical or alias), else 0. */
int ref_variant_known(const char *variant);

#endif
