/*
 * refgen_board.h -- the naive reference generator's rules and board (internal to tests/ref):
 * the variants as data, the board of cells and its geometry, FEN reading (refgen_board.c).
 * refgen.c generates moves on them. Plain arrays and (row, col) loops, as refgen.h says.
 */
#ifndef REFGEN_BOARD_H
#define REFGEN_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "refgen.h"

enum { EMPTY = 0, WMAN = 1, BMAN = 2, WKING = 3, BKING = 4, BLOCK = 5 };
enum { WHITE = 0, BLACK = 1 };
enum { PREC_FREE, PREC_MAJORITY, PREC_SPANISH, PREC_ITALIAN, PREC_CZECH, PREC_VALUE };
enum { PROMO_END, PROMO_CONTINUE, PROMO_STOP };
enum { HALT_NONE, HALT_KILLER, HALT_MODERN };
enum { GEOM_DARK = 0, GEOM_ALL };
enum { FOLK_NONE = 0, FOLK_NORTHERN, FOLK_SAMOYED, FOLK_STAVROPOL, FOLK_TWO_MOVE };

typedef struct {
    const char *name;
    int size;            /* board is size x size cells (size rows of `cols` cells if cols is set) */
    bool men_backward;   /* men capture in all 4 diagonals (else forward only) */
    bool flying;         /* kings move and capture any distance */
    bool men_take_kings; /* men may capture kings */
    int prec;            /* capture precedence */
    int promo;           /* what a man reaching the far row during a capture does */
    int halt;            /* halt rule for the final landing of a king capture */
    bool rule_c;         /* constitutional Rule C on quiet king moves */
    bool mirrored;       /* the bottom-left corner is not playable, so cell (0,0) is */
    bool ortho;          /* captures also along ranks and files (Frisian) */
    int king_moves;      /* max consecutive non-capturing moves of one king while men remain, 0 */
    /* The fields below are zero for the variants above them in the table. */
    int cols;           /* cells per row when not `size` (Spantsiretti: 10) */
    int geom;           /* GEOM_DARK: the dark cells; GEOM_ALL: every cell, orthogonal play */
    int folk;           /* FOLK_*: a folk rule of the Russian row */
    bool remove_now;    /* captured pieces leave at once (Turkish, Thai) */
    bool no_reverse;    /* no 180-degree turn between two jumps (Turkish) */
    bool land_behind;   /* a capturing king lands right behind the captured piece (Thai) */
    bool hoogland;      /* kings also capture enemy kings orthogonally (Frisian geometry) */
    bool keep_landings; /* keep: a king going on straight from different landing squares makes
                           different paths (Turkish, as kish counts: perft.md 3.9) */
    unsigned hoog;      /* the REF_HOOG_* switches in force (set per call from the flags) */
} variant_t;

#define MAXN   12
#define MAXCAP 80 /* more than the pieces one board can hold in play (Turkish: 32, 12x12: 60) */

typedef struct {
    int rows, cols; /* cells: rows top to bottom, cols left to right */
    bool mirrored;  /* playable cells have row + col even (else odd) */
    bool all;       /* every cell is playable (Turkish) */
    int side;       /* side to move */
    unsigned char c[MAXN][MAXN];
    ref_run run; /* king-move limit: per colour the counted king's square and its moves */
} board_t;

/* Step directions: the 4 diagonals (one cell each way), then the 4 orthogonal ones of Frisian
   and Hoogland captures (two cells: the nearest cell of the same colour along a rank or file),
   then the 4 orthogonal ones of the Turkish board (one cell). */
#define NDIRS 12
extern const int DR[NDIRS], DC[NDIRS];

/* The variants (refgen_board.c's table) */

/* The row of `name` (or of one of its aliases, any case), or NULL. */
const variant_t *rg_find_variant(const char *name);
/* The variant with the per-call switches applied (Turkish promotion, Hoogland switches). */
variant_t rg_effective_variant(const variant_t *v, unsigned flags);

/* Directions */

/* The directions of non-capturing moves (men keep only their forward, and on the Turkish board
   sideways, ones). */
int rg_move_dirs(const variant_t *v, int dirs[NDIRS]);
/* The directions a capture of a man (king: `king`) may take, before the men's forward filter:
   the 4 diagonals; and the 4 orthogonals in Frisian, and for Hoogland kings; the 4 one-cell
   orthogonals on the Turkish board. */
int rg_capture_dirs(const variant_t *v, bool king, int dirs[NDIRS]);
/* The direction opposite to d. */
int rg_opposite_dir(int d);
/* An orthogonal direction of the dark-square boards (Frisian geometry). */
bool rg_dark_ortho_dir(int d);
/* The row step of `side`'s men forward: -1 for White (up), 1 for Black. */
int rg_forward_dr(int side);

/* Pieces and cells */

/* WHITE or BLACK for a piece; -1 for an empty cell or the neutral blocker. */
int rg_colour_of(int p);
bool rg_is_king(int p);
bool rg_on_board(const board_t *b, int r, int c);
/* The square number of cell (r, c), and the cell of square sq: row-major over the playable
   cells of each row. */
int rg_sq_of(const board_t *b, int r, int c);
void rg_rc_of(const board_t *b, int sq, int *r, int *c);
/* The row where `side`'s men are crowned. */
int rg_far_row(const board_t *b, int side);
/* Has `side` a man, a piece on the board? */
bool rg_has_men(const board_t *b, int side);
bool rg_has_pieces(const board_t *b, int side);

/* FEN */

/* Read fen into b for variant v; 0, or -1 with a message in err. */
int rg_parse_fen(const char *fen, const variant_t *v, board_t *b, char *err, size_t errlen);
/* printf into err (err may be NULL). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void rg_set_err(char *err, size_t errlen, const char *fmt, ...);

#endif
