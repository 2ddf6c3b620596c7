/*
 * towers.h -- tower draughts: Bashni (Russian column draughts, 8x8) and Lasca (Emanuel Lasker,
 * 7x7). A room of the condraughts library (C11 + libc, built into libcondraughts.a; the CLI's
 * `condraughts towers` and the web server's /api/towers/ call it): its own position type with
 * stacks, move generator, text notation, perft and a small alpha-beta engine.
 * Every name starts with cd_tw_ / CD_TW_. The rules chosen, with their sources: docs/towers.md.
 *
 * Representation
 * - Squares are the playable squares only, numbered 0..N-1 rank-major from rank 1 (White's
 *   side), file a first: the order in which position text is written. Bashni: N = 32, a1 dark,
 *   square i is file 2*(i%4) + (i/4)%2, rank i/4 (0 = a1, 1 = c1, 4 = b2, 31 = h8). Lasca:
 *   N = 25 (the corners are playable), square i is cell 2*i of the 7x7 board in rank-major
 *   order, file (2*i)%7, rank (2*i)/7 (0 = a1, 3 = g1, 4 = b2, 24 = g7).
 *   cd_tw_square_at / cd_tw_square_file / cd_tw_square_rank / cd_tw_square_name convert.
 * - Why 0-based from a1, unlike the core's 1..N (square 1 on Black's side, bit n - 1; board.h):
 *   these numbers are internal indices, in no notation or output (only cd_tw_pos_check's
 *   messages name one). Both games are written in algebraic notation on the full board, and
 *   Lasca has no 1..N convention at all (25 squares, the corners playable); like Turkish's
 *   full-board geometry in board.h (bit = row * 8 + col), the layout follows the board, not a
 *   numbering. The index is the bit of the uint32_t masks and the index of height[] / stack[],
 *   so 0..N-1 needs no offset; and counting from a1 makes index order the written order of
 *   position text (rank 1 first), which a 1..N count from Black's side would reverse. The web
 *   API (/api/towers/) gives squares by name, file and rank, never by index.
 * - A stack (tower, column) is a uint64_t of 2-bit levels, level 0 = the TOP piece in bits 0-1,
 *   level k in bits 2k..2k+1; in each level bit 0 is the colour (0 white, 1 black) and bit 1 is
 *   set for a king (Lasca: officer). height[sq] is the number of pieces (0 = empty square).
 * - top[c] has bit sq set when square sq holds a stack whose top piece has colour c; kings has
 *   bit sq set when that top piece is a king. A stack belongs to, and moves as, its top piece.
 *
 * Invariants (cd_tw_pos_check tests them; every function keeps them)
 * - stack[sq] has no bits at or above level height[sq]; an empty square has stack 0.
 * - top[0], top[1] and kings are exactly derived from stack/height as above; top[0] & top[1]
 *   is 0; kings is inside top[0] | top[1]; no bit at or above N is set.
 * - Each colour has at most the pieces of its set (Bashni 12, Lasca 11), so a stack has at most
 *   24 (Lasca 22) levels and a capture at most 12 (11) jumps (each jump takes an enemy piece).
 *
 * Conventions
 * - No I/O, no global mutable state. Functions that can fail return the library's cd_result
 *   (include/condraughts.h; CD_OK is 0): CD_ERR_ARG for a bad argument, CD_ERR_VARIANT for an
 *   unknown game, CD_ERR_FEN for malformed position text, CD_ERR_POSITION for a well-formed but
 *   impossible position, CD_ERR_MOVE for malformed move text, CD_ERR_ILLEGAL for a well-formed
 *   move that is not legal, CD_ERR_OVERFLOW when out of memory. Parsers take a caller-owned
 *   `err` buffer (may be NULL) that receives one line saying what is wrong and where.
 * - Output strings go to caller-owned buffers; the functions return the length they needed
 *   (like snprintf).
 *
 * Text
 * - Position: <side>:<sq>=<stack>,<sq>=<stack>,... side W or B; squares algebraic; a stack is
 *   its pieces from TOP to BOTTOM, w = white man (soldier), W = white king (officer), b / B the
 *   same for Black. Example: W:a1=w,c1=wbb,e5=B. Entries in any order on input; written sorted
 *   by square; empty squares omitted.
 * - Move: a quiet move is from-to (c3-d4); a capture is every landing square joined by ':' from
 *   the start (c3:e5:c7). Each distinct landing path is a distinct move.
 */
#ifndef CD_TOWERS_H
#define CD_TOWERS_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cd_tw_game {
    CD_TW_BASHNI = 0, /* 8x8, 12 men each, Russian rules (flying kings, men capture backwards) */
    CD_TW_LASKER = 1, /* Lasca 7x7, 11 soldiers each, officers move one square any direction */
    CD_TW_GAME_COUNT
} cd_tw_game;

/* Capture conventions (cd_tw_pos.rules). The defaults (cd_tw_default_rules): Bashni
 * CD_TW_RULE_BLOCK (the Russian "Turkish strike"), Lasca 0 (the same moves there: a one-square jump
 * never lands on or passes a jumped square). See docs/towers.md. */
/* CD_TW_RULE_REJUMP: a tower whose top is still an enemy piece after it was jumped may be jumped
 * again in the same move. CD_TW_RULE_BLOCK: a jumped square can be neither passed nor landed on
 * until the move ends (the jumped pieces stay in place until the move is over); use it without
 * CD_TW_RULE_REJUMP. Neither: a tower is jumped at most once, a square emptied by a capture is
 * empty at once. */
#define CD_TW_RULE_REJUMP 0x1u
#define CD_TW_RULE_BLOCK  0x2u

#define CD_TW_MAX_SQUARES 32
#define CD_TW_MAX_JUMPS   16   /* > 12, the most enemy pieces a capture can take */
#define CD_TW_MAX_MOVES   1024 /* cd_tw_movelist capacity; cd_tw_generate_all has no limit */
#define CD_TW_MOVE_TEXT   128  /* enough for any move's text */
#define CD_TW_POS_TEXT    512  /* enough for any position's text */

typedef struct cd_tw_pos {
    uint8_t game;  /* cd_tw_game */
    uint8_t side;  /* 0 = White to move, 1 = Black */
    uint8_t rules; /* CD_TW_RULE_* */
    uint8_t height[CD_TW_MAX_SQUARES];
    uint64_t stack[CD_TW_MAX_SQUARES];
    uint32_t top[2]; /* squares topped by a white / black piece */
    uint32_t kings;  /* squares topped by a king (officer) */
} cd_tw_pos;

typedef struct cd_tw_move {
    uint8_t from, to;
    uint8_t njumps;                /* 0 = quiet move */
    uint8_t promote;               /* the moving top piece is crowned by this move */
    uint8_t land[CD_TW_MAX_JUMPS]; /* landing square of each jump; land[njumps - 1] == to */
    uint8_t over[CD_TW_MAX_JUMPS]; /* the square jumped by each jump */
} cd_tw_move;

typedef struct cd_tw_movelist {
    int count;
    int overflow; /* more than CD_TW_MAX_MOVES moves: the list holds the first CD_TW_MAX_MOVES */
    cd_tw_move moves[CD_TW_MAX_MOVES];
} cd_tw_movelist;

/* ---------------------------------------------------------------- games and squares */

const char *cd_tw_game_name(cd_tw_game g); /* "bashni", "lasker" */
/* "bashni" (also "towers", "stolbovye"), "lasker" (also "lasca", "laska"); CD_ERR_VARIANT if
 * unknown. */
cd_result cd_tw_game_find(const char *name, cd_tw_game *out);
unsigned cd_tw_default_rules(cd_tw_game g);
int cd_tw_squares(cd_tw_game g);  /* 32, 25 */
int cd_tw_width(cd_tw_game g);    /* 8, 7 (the board is square) */
int cd_tw_set_size(cd_tw_game g); /* pieces per side: 12, 11 */
int cd_tw_square_file(cd_tw_game g, int sq);
int cd_tw_square_rank(cd_tw_game g, int sq);
/* The square at file f, rank r (0-based), or -1 when that cell is not playable / off board. */
int cd_tw_square_at(cd_tw_game g, int file, int rank);
/* "c3"; returns the length needed. */
size_t cd_tw_square_name(cd_tw_game g, int sq, char *buf, size_t size);

/* ---------------------------------------------------------------- positions */

void cd_tw_start(cd_tw_pos *p, cd_tw_game g); /* the start position, default rules */
void cd_tw_clear(cd_tw_pos *p, cd_tw_game g); /* empty board, White to move, default rules */
/* Parse position text: CD_ERR_FEN when malformed, CD_ERR_POSITION when a tower is taller or a
 * colour has more pieces than a set allows, CD_ERR_VARIANT for a bad game, CD_ERR_ARG when text
 * is NULL; on error *p is unspecified. */
cd_result cd_tw_parse(cd_tw_pos *p, cd_tw_game g, const char *text, char *err, size_t errlen);
size_t cd_tw_format(const cd_tw_pos *p, char *buf, size_t size);
/* One stack as text, top first ("wbb"); "" for an empty square. */
size_t cd_tw_stack_text(const cd_tw_pos *p, int sq, char *buf, size_t size);
/* Put a stack given top first as text ("wbb", "" to empty the square); CD_ERR_ARG on a bad
 * letter, square or height (the position is then unchanged). */
cd_result cd_tw_set_stack(cd_tw_pos *p, int sq, const char *pieces);
/* CD_OK when the invariants hold, else CD_ERR_POSITION with a message. */
cd_result cd_tw_pos_check(const cd_tw_pos *p, char *err, size_t errlen);
int cd_tw_pieces(const cd_tw_pos *p, int colour); /* pieces of a colour anywhere in the stacks */

/* ---------------------------------------------------------------- moves */

/* Called for each legal move. */
typedef void (*cd_tw_emit)(void *ctx, const cd_tw_move *m);
/* Every legal move of the side to move, each passed to `emit`; returns their number. */
long cd_tw_generate_each(const cd_tw_pos *p, cd_tw_emit emit, void *ctx);
/* The legal moves in a fixed list (overflow flag beyond CD_TW_MAX_MOVES); returns count. */
int cd_tw_generate(const cd_tw_pos *p, cd_tw_movelist *list);
/* All legal moves in a malloc'ed array (*out, free it) and their number in *count;
 * CD_ERR_OVERFLOW if out of memory (then *out is NULL and *count 0). */
cd_result cd_tw_generate_all(const cd_tw_pos *p, cd_tw_move **out, long *count);
/* The move's text ("c3-d4", "c3:e5:c7"); returns the length needed. */
size_t cd_tw_move_text(cd_tw_game g, const cd_tw_move *m, char *buf, size_t size);
/* The legal move whose text is `text`; with a message, CD_ERR_MOVE when malformed, CD_ERR_ILLEGAL
 * when not legal here, CD_ERR_ARG when text is NULL. */
cd_result cd_tw_move_parse(const cd_tw_pos *p, const char *text, cd_tw_move *out, char *err,
                           size_t errlen);
void cd_tw_make(cd_tw_pos *p, const cd_tw_move *m);
void cd_tw_unmake(cd_tw_pos *p,
                  const cd_tw_move *m); /* exactly undoes cd_tw_make of the same move */
/* The move texts of the position, sorted (strcmp), at most `max`; returns the number of legal
 * moves (may exceed max: then only max are written). */
long cd_tw_move_texts(const cd_tw_pos *p, char (*out)[CD_TW_MOVE_TEXT], long max);

/* Leaf count at `depth` (position restored on return). */
uint64_t cd_tw_perft(cd_tw_pos *p, int depth);
/* 1 when the side to move has no legal move: it has lost. */
int cd_tw_game_over(const cd_tw_pos *p);

/* ---------------------------------------------------------------- engine (engine.c) */

typedef struct cd_tw_search_result {
    cd_tw_move best;
    int has_move; /* 0 when the side to move has no move */
    int score;    /* centi-men from the side to move's view; > CD_TW_WIN - 1000 = win */
    int depth;    /* deepest iteration completed */
    uint64_t nodes;
} cd_tw_search_result;

#define CD_TW_WIN 1000000

/* Material evaluation from the side to move's view. */
int cd_tw_evaluate(const cd_tw_pos *p);
/* Iterative-deepening alpha-beta to `depth`, stopping early (keeping the last completed
 * iteration) when `max_nodes` (0 = no limit) is exceeded. Deterministic. */
void cd_tw_search(const cd_tw_pos *p, int depth, uint64_t max_nodes, cd_tw_search_result *out);

#ifdef __cplusplus
}
#endif

#endif
