/*
 * variant.c -- the rules as data: one const row per variant.
 *
 * A new variant is a new row plus tests, not a new code path. Sources for
 * every field: ../shared/rules/variants.md (tables 1 and 2),
 * ../shared/rules/constitutional.md and ../shared/rules/killer-modern-hoogland.md.
 *
 * Frisian (GameType 40) and Frysk! (the same rules from W:W46-50:B1-5,
 * lidraughts) -- variants.md table 1 and perft.md 2.7/2.8; where those are
 * silent we follow Scan 3.1 and dctl, which agree on the published perft:
 *  - Captures: men and kings also capture along ranks and files, over the
 *    nearest square of their colour two cells away (a man jumps the piece
 *    there and lands two cells further; a king flies over empty squares of
 *    its colour). Men capture backwards and may capture kings; a man passing
 *    the back row during a capture goes on as a man (as International).
 *    Quiet moves stay diagonal: men one step forward, kings fly.
 *  - Precedence (CD_PREC_VALUE): the capture of highest value, a man worth 1
 *    and a king just under 2: compare men + 2 * kings captured, then fewer
 *    kings (so 2 kings beat 3 men, 4 men beat 2 kings, 2 men beat 1 king,
 *    king + man beats 2 men); on equal value a capture made by a king beats
 *    one made by a man; the rest is free. This is dctl's (men + 2 kings) * B
 *    - kings and ranks every capture as Scan's men * 64 + kings * 126 does.
 *  - King-move limit (king_moves = 3, Scan's "wolf" state, cd_king_run):
 *    while its side has men, a king may not make more than 3 consecutive
 *    non-capturing moves. The count is per side: a non-capturing move of the
 *    counted king adds one, of another king starts a new count of 1 for that
 *    king; a man move or a capture of the side clears it, as does the loss of
 *    the counted king or of the side's last men to an enemy capture, and a
 *    side without men has no count. A king that has made 3 may still capture,
 *    and the side may move a man or another king. FEN, Hub and DXP positions
 *    cannot express the count; they start with none (count 0), so a game
 *    started from a FEN with kings may allow a king one run of 3 more moves
 *    than the game that led to it.
 *  - Draw rules: threefold repetition, and 25 moves each with kings only and
 *    no capture (../shared/sources/checkers-varieties-russian-international.txt:
 *    "If the opponents made 25 moves with kings in a row and did not take a
 *    single foreign checker, the game ends in a draw"). The official Frisian
 *    endgame counts were not found; none is implemented.
 *  - Duplicate captures: dropped by default (same from, to and captured set
 *    is one move), every distinct path with CD_RULE_KEEP_DUPLICATES (a path:
 *    the pieces taken in order and the squares where the piece turns).
 */
#include <ctype.h>
#include <string.h>

#include "board.h"

const cd_geom cd_geoms[CD_GEOM_COUNT] = {
    [CD_GEOM_8X8] = {8, 8, 4, 32, 35, 0},      [CD_GEOM_10X10] = {10, 10, 5, 50, 54, 0},
    [CD_GEOM_12X12] = {12, 12, 6, 72, 77, 0},  [CD_GEOM_10X8] = {10, 8, 5, 40, 43, 0},
    [CD_GEOM_8X8_FULL] = {8, 8, 8, 64, 64, 1},
};

/* Movement shared by the International family: men capture backwards, kings fly. */
#define INTL  (CD_RULE_MEN_BACKWARD | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS)
#define CON   CD_RULE_CONSTITUTIONAL
#define ALG   CD_RULE_ALGEBRAIC
#define MIR   CD_RULE_MIRRORED
#define ORTHO CD_RULE_ORTHOGONAL
/* Draw rules: FMJD (International), FMJD-64 (Russian, Brazilian), and the
 * constitutional/killer/modern set without endgame move counts (RULES.md). */
#define D_FMJD   (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_FMJD_ENDGAME)
#define D_FMJD64 (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_RUSSIAN_ENDGAME)
#define D_OPEN   (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY)

static const cd_rules rows[] = {
    {"international", "International draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD, 3, 25, 0},
    {"constitutional", "Constitutional draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL | CON,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25, 0},
    {"killer", "Killer draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL, CD_PREC_MAJORITY,
     CD_PROMO_END, CD_HALT_KILLER, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25, 0},
    {"modern", "Modern draughts (Killer Light)", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_MODERN, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25, 0},
    {"brazilian", "Brazilian draughts", "26", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD64, 3, 15, 0},
    {"brazilian-constitutional", "Constitutional Brazilian draughts", "26", CD_GEOM_8X8, CD_WHITE,
     3, INTL | ALG | CON, CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN,
     3, 15, 0},
    {"modern-8x8", "Modern checkers 8x8", "26", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_MODERN, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 15, 0},
    {"canadian", "Canadian draughts", "27", CD_GEOM_12X12, CD_WHITE, 5, INTL, CD_PREC_MAJORITY,
     CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD, 3, 25, 0},
    {"russian", "Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG, CD_PREC_FREE,
     CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_FMJD64, 3, 15, 0},
    {"russian-constitutional", "Constitutional Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CON, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_OPEN,
     3, 15, 0},
    {"english", "English draughts / American checkers", "21", CD_GEOM_8X8, CD_BLACK, 3,
     CD_RULE_MEN_TAKE_KINGS, CD_PREC_FREE, CD_PROMO_STOP, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN,
     3, 40, 0},
    {"italian", "Italian draughts", "22", CD_GEOM_8X8, CD_WHITE, 3, MIR, CD_PREC_ITALIAN,
     CD_PROMO_STOP, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 4, 40, 0},
    {"spanish", "Spanish draughts", "24", CD_GEOM_8X8, CD_WHITE, 3,
     MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_SPANISH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0, 0},
    {"portuguese", "Portuguese draughts", "28", CD_GEOM_8X8, CD_WHITE, 3,
     MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_SPANISH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0, 0},
    {"czech", "Czech draughts", "29", CD_GEOM_8X8, CD_WHITE, 3,
     ALG | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_CZECH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 15, 0},
    {"pool", "American pool checkers", "23", CD_GEOM_8X8, CD_BLACK, 3, INTL, CD_PREC_FREE,
     CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION | CD_DRAW_POOL_3V1, 3, 0,
     0},
    {"antidraughts", "Antidraughts (losing draughts)", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_LOSING, 'x', D_OPEN, 3, 25, 0},
    {"breakthrough", "Breakthrough draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_BREAKTHROUGH, 'x', D_OPEN, 3, 25, 0},
    /* issue 8: Hoogland and the folk rules of the Russian row (docs/variants.md) */
    {"hoogland", "Hoogland draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL | CD_RULE_HOOGLAND,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD, 3, 25, 0},
    {"russian-giveaway", "Russian giveaway (poddavki)", "25", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_LOSING, ':', D_OPEN, 3, 15, 0},
    {"spantsiretti", "80-cell draughts (Spantsiretti)", "41", CD_GEOM_10X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_FMJD64, 3, 15, 0},
    {"russian-diagonal", "Diagonal Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CD_RULE_DIAGONAL_START, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE,
     CD_GOAL_NORMAL, ':', D_FMJD64, 3, 15, 0},
    {"russian-two-move", "Two-move Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CD_RULE_TWO_MOVE, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL,
     ':', D_OPEN, 3, 15, 0},
    {"russian-northern", "Northern Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CD_RULE_NORTHERN, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL,
     ':', D_OPEN, 3, 15, 0},
    {"samoyed", "Samoyed draughts", "25", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG | CD_RULE_SAMOYED,
     CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_OPEN, 3, 15, 0},
    {"stavropol", "Stavropol draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CD_RULE_STAVROPOL, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL,
     ':', D_OPEN, 3, 15, 0},
    {"thai", "Thai draughts", "31", CD_GEOM_8X8, CD_BLACK, 2,
     CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS | CD_RULE_REMOVE_AT_ONCE, CD_PREC_FREE,
     CD_PROMO_STOP, CD_HALT_EVERY, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0, 0},
    {"frisian", "Frisian draughts", "40", CD_GEOM_10X10, CD_WHITE, 4, INTL | ORTHO, CD_PREC_VALUE,
     CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY, 3,
     25, 3},
    {"frysk", "Frysk! (Frisian, 5 men each)", "40", CD_GEOM_10X10, CD_WHITE, 1, INTL | ORTHO,
     CD_PREC_VALUE, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x',
     CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY, 3, 25, 3},
    /* Turkish draughts (Dama): all 64 squares, orthogonal moves, captured pieces leave at once,
     * no 180-degree turn, majority; a man crossing the last row mid-capture goes on as a man
     * (docs/turkish.md, movegen_turkish.c). men_rows 2: rows 2-3 and 6-7 (the back rows stay
     * empty, position.c). */
    {"turkish", "Turkish draughts (Dama)", "30", CD_GEOM_8X8_FULL, CD_WHITE, 2,
     ALG | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_MAJORITY, CD_PROMO_END,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0, 0},
};

static const struct {
    const char *alias, *name;
} aliases[] = {
    {"normal", "international"},
    {"standard", "international"},
    {"american", "english"},
    {"checkers", "english"},
    {"shashki", "russian"},
    {"killer-light", "modern"},
    {"losing", "antidraughts"},
    {"poddavki", "russian-giveaway"},
    {"giveaway", "russian-giveaway"},
    {"80-cell", "spantsiretti"},
    {"dama", "turkish"},
    /* names other tools use: Scan ("bt"), pydraughts and lidraughts ("frysk!"), playstrategy's
     * PDN Variant tag ("American/English") */
    {"bt", "breakthrough"},
    {"frysk!", "frysk"},
    {"american/english", "english"},
};

static int name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca == '_' || ca == ' ')
            ca = '-';
        if (ca != cb)
            return 0;
    }
    return *a == *b;
}

const cd_rules *cd_rules_at(int i)
{
    if (i < 0 || i >= (int)(sizeof rows / sizeof rows[0]))
        return NULL;
    return &rows[i];
}

const cd_rules *cd_rules_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (name_eq(name, aliases[i].alias))
            name = aliases[i].name;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (name_eq(name, rows[i].name))
            return &rows[i];
    return NULL;
}

int cd_rules_squares(const cd_rules *r) { return cd_geom_of(r)->squares; }
int cd_rules_width(const cd_rules *r) { return cd_geom_of(r)->width; }
int cd_rules_height(const cd_rules *r) { return cd_geom_of(r)->height; }

const char *cd_result_str(cd_result r)
{
    switch (r) {
    case CD_OK: return "ok";
    case CD_ERR_VARIANT: return "unknown variant";
    case CD_ERR_FEN: return "malformed position";
    case CD_ERR_POSITION: return "impossible position";
    case CD_ERR_MOVE: return "malformed move";
    case CD_ERR_ILLEGAL: return "illegal move";
    case CD_ERR_AMBIGUOUS: return "ambiguous move";
    case CD_ERR_ARG: return "bad argument";
    case CD_ERR_OVERFLOW: return "buffer too small";
    case CD_ERR_IO: return "file error";
    }
    return "unknown error";
}
