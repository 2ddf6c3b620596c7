/*
 * pattern.h -- the learned evaluation: weights over board regions, read from a file per family.
 *
 * Representation. The board (8x8 or 10x10, the diagonal geometries) is covered by overlapping
 * windows of 4x4 cells whose top-left cell is at an even row and an even column: 16 windows on
 * 10x10, 9 on 8x8. The wide layout adds the 4x4 windows whose top-left cell is at an odd row and
 * an odd column (9 on 10x10, 4 on 8x8: 25 and 13 in all), after the others; a weights file's
 * window count says which layout it holds. Each window holds 8 playable squares. A window's
 * configuration is the base-3 number over those squares in ascending internal bit order, the digit
 * 0 for an empty square or a king, 1 for a white man, 2 for a black man: 3^8 = 6561 configurations.
 * Kings enter through the scalar features and the king squares, which see the whole board.
 * Flank strips (10x10 only, a layout with `strips`, as Scan 2.0's evaluation has them): the three
 * outer columns of each wing over six rows, Black's side (rows 0-5, columns 0-2 and 7-9) and
 * White's (rows 4-9, the same columns), 9 playable squares each, after the windows; a strip's
 * configuration is read as a window's, 3^9 = 19683 of them. The
 * scalars, each White's minus Black's (so turning the board round with colours exchanged negates
 * every one): men      men king     1 for a side with at least one king kings+   kings beyond the
 * first tempo    +1 with White to move, -1 with Black to move sole     +1 when only White has
 * kings, -1 when only Black has, else 0 reach    empty squares the side's kings reach along their
 * lines (up to the first piece) where no enemy man could take a king standing there (a man
 * diagonally next to it with the square beyond empty) exposed  the other squares they reach (an
 * enemy man could take a king there) balance  |Black's skew| - |White's skew|, a side's skew being
 * the sum over its men of 2 * column - (width - 1): men spread evenly over both wings score 0.
 * Short rules (the layout's short_rules, English and Italian: kings move one square, men take
 * forwards only): reach and exposed count the empty squares next to a king (its one step); under
 * English rules a square is exposed when an enemy man could take a king there moving forwards,
 * under Italian rules, where a man never takes a king, when an enemy king could (diagonally next
 * to it, in any direction, the square beyond empty). Spanish and Czech (CD_PAT_FLYING_FORWARD):
 * kings fly, so reach and exposed count the squares along their lines as the flying families' do,
 * but a square is exposed only when an enemy man could take a king there moving forwards, as
 * under English rules (Czech's rule that a king able to capture must, before any man, is not
 * read: the count is of the board, not of the captures allowed); the other families' kings fly
 * and their men take in all four directions.
 * King squares: a white king on internal square n counts +1 for king-square weight n - 1, a black
 * king on n counts -1 for weight N - n (the square seen from Black's side). Every weight exists
 * twice, for the middle game and for the endgame; the score blends them by the phase, measured
 * one of two ways (the layout's `pip`, stored in the file):
 *   pieces (pip 0, every file before the pip phase): phase = min(pieces, start) / start, where
 *          start is the number of pieces in the start position (40 on 10x10, 24 on 8x8);
 *   pip    (pip 1, as Scan 2.0 blends): phase = min(pip, pip_start) / pip_start, where pip is the
 *          men's total distance to promotion, each man the rows it still has to go (a man on its
 *          own back row height - 1, on the row before promotion 1; kings count 0), and pip_start
 *          that of the start position: 2 * 5 * (9 + 8 + 7 + 6) = 300 on 10x10, 2 * 4 * (7 + 6 +
 *          5) = 144 on 8x8. Men advanced or exchanged make a position later, kings or not.
 *
 *   score(White) = (phase * sum of middle-game weights + (1 - phase) * sum of endgame weights)
 *
 * Weights are stored as 16-bit integers in units of 1/8 of a hundredth of a man (the engine's
 * score unit), so the score is the weighted sum divided by 8 * start (8 * pip_start with pip),
 * truncated towards 0 (so a position turned round with colours exchanged, whose pip is the same,
 * scores exactly the negation under a colour-symmetric table).
 *
 * File: one per family (weights/international.cdw, ...), "CDW1" version 2 (3 with strips, 4 with
 * the pip phase): a header with the family, geometry and table sizes, the weights above as i16
 * pairs, an FNV-1a checksum.
 * docs/formats.md gives it byte by byte, with what a reader refuses and when the version changes.
 *
 * Which variants use which file: cd_pattern_family() (by the variant's canonical name). The
 * weights are held by a cd_eval (eval_set.c), the value an engine is handed; variants without a
 * family, or a family the engine's cd_eval has no weights for, use the hand-set evaluation
 * (eval.c). A table is never changed once read: engines and threads share it read-only.
 */
#ifndef CD_PATTERN_H
#define CD_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

#define CD_PAT_CONFIGS  6561
#define CD_PAT_MAX_REG  25
#define CD_PAT_SCALARS  8
#define CD_PAT_KSQ_MAX  50 /* king-square weights: the board's squares */
#define CD_PAT_SQUARES  8
#define CD_PAT_UNIT     8 /* stored weight units per hundredth of a man */
#define CD_PAT_FAMILIES 12
#define CD_PAT_STRIP_CONFIGS 19683
#define CD_PAT_MAX_STRIPS    4
#define CD_PAT_STRIP_SQUARES 9
#define CD_PAT_MAX_SQUARES   9 /* squares in a window or a strip */

/* The layout's short_rules: how the kings' scalars read the board ("Short rules" above) */
enum {
    CD_PAT_FLYING = 0,        /* flying kings, men take in all four directions */
    CD_PAT_SHORT_ENGLISH = 1, /* short kings, men take forwards only, kings as well as men */
    CD_PAT_SHORT_ITALIAN = 2, /* short kings, men take forwards only and never a king */
    CD_PAT_FLYING_FORWARD = 3 /* flying kings, men take forwards only, kings as well as men */
};

enum {
    CD_PAT_S_MEN = 0,
    CD_PAT_S_KING,
    CD_PAT_S_KINGS_MORE,
    CD_PAT_S_TEMPO,
    CD_PAT_S_SOLE,
    CD_PAT_S_REACH,
    CD_PAT_S_EXPOSED,
    CD_PAT_S_BALANCE
};

typedef struct cd_pattern_layout {
    int geometry;
    int regions;
    int start;                     /* pieces in the start position */
    uint64_t mask[CD_PAT_MAX_REG]; /* internal bits of each window's 8 squares */
    int strips;                    /* flank strips after the windows: 0, or 4 on 10x10 */
    uint64_t strip_mask[CD_PAT_MAX_STRIPS]; /* internal bits of each strip's 9 squares */
    int squares;                   /* playable squares N (king-square weights) */
    int step;                      /* the short diagonal shift (half); the long one is step + 1 */
    uint64_t board;                /* every playable bit */
    uint64_t colbit[4];            /* bit b: the playable bits of the columns c with c & (1 << b) */
    uint64_t rowbit[4];            /* bit b: the playable bits of the rows r with r & (1 << b) */
    int pip;                       /* the phase: 0 by pieces, 1 by pip (above) */
    int pip_start;                 /* pip of the start position: 300 on 10x10, 144 on 8x8 */
    int8_t square[64];             /* bit -> internal square - 1, or -1 */
    int short_rules;               /* the family's CD_PAT_FLYING, _SHORT_* or _FLYING_FORWARD */
    int drawscale; /* 1: drawish material scaled by default (engine option "drawscale" 2; eval.c) */
} cd_pattern_layout;

struct cd_net;

typedef struct cd_pattern_weights {
    char family[16];
    uint32_t checksum;  /* the file's checksum (its last 4 bytes), 0 if not read from a file */
    struct cd_net *net; /* the network stacked on these weights (net.h), owned, or NULL */
    cd_pattern_layout layout;
    int16_t pat[CD_PAT_MAX_REG][CD_PAT_CONFIGS][2];
    int16_t strip[CD_PAT_MAX_STRIPS][CD_PAT_STRIP_CONFIGS][2];
    int16_t scalar[CD_PAT_SCALARS][2];
    int16_t king_square[CD_PAT_KSQ_MAX][2];
} cd_pattern_weights;

/* The features of one position, White's view: a configuration per window (then per strip), the
 * scalars and the kings' squares (king[i] = +(n) for a white king counting for weight n - 1, -(n) for a black
 * king counting -1 for weight n - 1). */
typedef struct cd_pattern_features {
    int regions, strips;
    uint16_t config[CD_PAT_MAX_REG + CD_PAT_MAX_STRIPS]; /* the windows', then the strips' */
    int16_t scalar[CD_PAT_SCALARS];
    int kings;
    int8_t king[64];
    int phase; /* pieces on the board, at most start; with the pip phase the pip, at most start */
    int start; /* the layout's start, or with the pip phase its pip_start */
} cd_pattern_features;

/* The family index (0..CD_PAT_FAMILIES-1) of a variant, or -1 if it has none. */
int cd_pattern_family(const cd_rules *r);
/* The family's name ("international", "constitutional", "russian", "killer", "modern",
 * "brazilian", "russian-const" for russian-constitutional, "brazilian-const" for
 * brazilian-constitutional, "english", "italian", "spanish", "czech"), which is also its file's
 * name. */
const char *cd_pattern_family_name(int family);
/* The layout of a geometry (8x8 or 10x10); 0 if the geometry has none. */
int cd_pattern_layout_of(int geometry, cd_pattern_layout *out);
/* The same with wide != 0: the wide layout, the windows above followed by the 4x4 windows whose
 * top-left cell is at an odd row and an odd column (9 more on 10x10, 4 on 8x8). */
int cd_pattern_layout_wide(int geometry, int wide, cd_pattern_layout *out);

/* Add the flank strips to a 10x10 layout (after its windows); 0 on another board. */
int cd_pattern_layout_strips(cd_pattern_layout *l);

/* The men's total distance to promotion (pattern.h, the pip phase), both sides', not clamped. */
int cd_pattern_pip(const cd_pattern_layout *l, const cd_position *pos);

/* Set the layout's rules and defaults of the family (short_rules, drawscale; cd_pattern_layout_of
 * and _wide leave them 0, the flying kings' rules; a read file's layout has its family's). */
void cd_pattern_layout_family(int family, cd_pattern_layout *l);

/* The configurations of region r: a window's 3^8, or at or past l->regions a strip's 3^9. */
int cd_pattern_region_configs(const cd_pattern_layout *l, int r);

/* The window and configuration that (region, config) becomes when the board is turned 180
 * degrees and the colours exchanged (a region at or past l->regions is the strip region -
 * l->regions, and so is its twin). A weights table is colour-symmetric when every weight is
 * the negation of its twin's: then a position turned round scores exactly the negation. */
void cd_pattern_twin(const cd_pattern_layout *l, int region, int config, int *region2,
                     int *config2);

/* Extract the features (the position's rules must have a layout). */
void cd_pattern_features_of(const cd_position *pos, const cd_pattern_layout *l,
                            cd_pattern_features *f);
/* The learned score of a position, White's view, hundredths of a man. */
int cd_pattern_eval_white(const cd_pattern_weights *w, const cd_position *pos);

/* The file's header size and version, and the size of a file of this layout (its writer is the
 * trainer's: train_pattern_write, src/train/train_model.h). Version 3 is version 2 with a seventh
 * header word, the strips, and their tables after the windows'; version 4 is version 3 with an
 * eighth, the phase's measure (CD_PAT_PHASE_PIP, the only one it holds: a reader refuses any
 * other value). A layout with the pip phase is written as version 4 (its strips word 0 without
 * strips), one without it as version 3 with strips, else as version 2, so every file of the
 * pieces phase keeps its bytes. */
#define CD_PAT_HEADER         (4 + 4 + 16 + 6 * 4)
#define CD_PAT_VERSION        2
#define CD_PAT_VERSION_STRIPS 3
#define CD_PAT_VERSION_PIP    4
#define CD_PAT_PHASE_PIP      1
/* The header's bytes of a file of this version (2, 3 or 4). */
size_t cd_pattern_header_size(uint32_t version);
/* The version a layout is written as. */
uint32_t cd_pattern_version(const cd_pattern_layout *l);
size_t cd_pattern_image_size(uint32_t version, int regions, int strips, int squares);
/* Parse a file image; CD_ERR_IO with a message in err on any fault. */
cd_result cd_pattern_read(cd_pattern_weights *w, const unsigned char *buf, size_t len, char *err,
                          size_t errlen);

/* The weights ev holds for a variant's family (eval_set.c), or NULL (ev NULL, a variant without
 * a family, or a family ev has no weights for): then the hand-set evaluation applies. */
const cd_pattern_weights *cd_eval_for(const cd_eval *ev, const cd_rules *r);

#endif
