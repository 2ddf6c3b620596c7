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
 *    single foreign checker, the game ends in a draw"); and the endgame
 *    counts (CD_DRAW_FRISIAN_ENDGAME) as lidraughts, the largest site that
 *    plays Frisian, states them: with kings only, 2 kings against 1 is drawn
 *    after both sides made 7 moves, 1 king against 1 after both made 2,
 *    counted from the ply at which that balance arose (a capture or a
 *    promotion). The federation's rule for 1 against 1, a draw at once
 *    unless a king can be taken now or by force next move, lets every such
 *    win be played within the 2 moves; it differs only in calling drawn a
 *    game in which a side blunders its king within them. (Mats Winther's
 *    and other rule pages give the same 7 moves for 2 kings against 1.)
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
/* Draw rules: FMJD (International), FMJD-64 (Russian, Brazilian), Frisian (its endgame counts:
 * the comment at the top), and the constitutional/killer/modern set without endgame move counts
 * (RULES.md). */
#define D_FMJD    (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_FMJD_ENDGAME)
#define D_FMJD64  (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_RUSSIAN_ENDGAME)
#define D_FRISIAN (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_FRISIAN_ENDGAME)
#define D_OPEN    (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY)

/* One row a variant (designated initialisers, so each value names its field), grouped: names;
 * board and men; captures and promotion; goal, notation and draw rules. Fields left out are 0
 * (king_moves: no limit). */
/* clang-format off */
static const cd_rules rows[] = {
    {.name = "international", .title = "International draughts", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FMJD, .repetitions = 3,
     .no_progress = 25},
    {.name = "constitutional", .title = "Constitutional draughts", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL | CON,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 25},
    {.name = "killer", .title = "Killer draughts", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_KILLER,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 25},
    {.name = "modern", .title = "Modern draughts (Killer Light)", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_MODERN,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 25},
    {.name = "brazilian", .title = "Brazilian draughts", .gametype = "26",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FMJD64, .repetitions = 3,
     .no_progress = 15},
    {.name = "brazilian-constitutional", .title = "Constitutional Brazilian draughts",
     .gametype = "26",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG | CON,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "modern-8x8", .title = "Modern checkers 8x8", .gametype = "26",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_MODERN,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "canadian", .title = "Canadian draughts", .gametype = "27",
     .geometry = CD_GEOM_12X12, .first = CD_WHITE, .men_rows = 5, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FMJD, .repetitions = 3,
     .no_progress = 25},
    {.name = "russian", .title = "Russian draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_FMJD64, .repetitions = 3,
     .no_progress = 15},
    {.name = "russian-constitutional", .title = "Constitutional Russian draughts",
     .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG | CON,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "english", .title = "English draughts / American checkers", .gametype = "21",
     .geometry = CD_GEOM_8X8, .first = CD_BLACK, .men_rows = 3, .flags = CD_RULE_MEN_TAKE_KINGS,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_STOP, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 40},
    {.name = "italian", .title = "Italian draughts", .gametype = "22",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = MIR,
     .precedence = CD_PREC_ITALIAN, .promotion = CD_PROMO_STOP, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 4,
     .no_progress = 40},
    {.name = "spanish", .title = "Spanish draughts", .gametype = "24",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS,
     .precedence = CD_PREC_SPANISH, .promotion = CD_PROMO_STOP, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = CD_DRAW_REPETITION, .repetitions = 3},
    {.name = "portuguese", .title = "Portuguese draughts", .gametype = "28",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS,
     .precedence = CD_PREC_SPANISH, .promotion = CD_PROMO_STOP, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = CD_DRAW_REPETITION, .repetitions = 3},
    {.name = "czech", .title = "Czech draughts", .gametype = "29",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = ALG | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS,
     .precedence = CD_PREC_CZECH, .promotion = CD_PROMO_STOP, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "pool", .title = "American pool checkers", .gametype = "23",
     .geometry = CD_GEOM_8X8, .first = CD_BLACK, .men_rows = 3, .flags = INTL,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = CD_DRAW_REPETITION | CD_DRAW_POOL_3V1,
     .repetitions = 3},
    {.name = "antidraughts", .title = "Antidraughts (losing draughts)", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_LOSING, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 25},
    {.name = "breakthrough", .title = "Breakthrough draughts", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_BREAKTHROUGH, .capture_sep = 'x', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 25},
    /* issue 8: Hoogland and the folk rules of the Russian row (docs/variants.md) */
    {.name = "hoogland", .title = "Hoogland draughts", .gametype = "20",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL | CD_RULE_HOOGLAND,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FMJD, .repetitions = 3,
     .no_progress = 25},
    {.name = "russian-giveaway", .title = "Russian giveaway (poddavki)", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_LOSING, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "spantsiretti", .title = "80-cell draughts (Spantsiretti)", .gametype = "41",
     .geometry = CD_GEOM_10X8, .first = CD_WHITE, .men_rows = 3, .flags = INTL | ALG,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_FMJD64, .repetitions = 3,
     .no_progress = 15},
    {.name = "russian-diagonal", .title = "Diagonal Russian draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = INTL | ALG | CD_RULE_DIAGONAL_START,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_FMJD64, .repetitions = 3,
     .no_progress = 15},
    {.name = "russian-two-move", .title = "Two-move Russian draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = INTL | ALG | CD_RULE_TWO_MOVE,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "russian-northern", .title = "Northern Russian draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = INTL | ALG | CD_RULE_NORTHERN,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "samoyed", .title = "Samoyed draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = INTL | ALG | CD_RULE_SAMOYED,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "stavropol", .title = "Stavropol draughts", .gametype = "25",
     .geometry = CD_GEOM_8X8, .first = CD_WHITE, .men_rows = 3,
     .flags = INTL | ALG | CD_RULE_STAVROPOL,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_CONTINUE, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = ':', .draw = D_OPEN, .repetitions = 3,
     .no_progress = 15},
    {.name = "thai", .title = "Thai draughts", .gametype = "31",
     .geometry = CD_GEOM_8X8, .first = CD_BLACK, .men_rows = 2,
     .flags = CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS | CD_RULE_REMOVE_AT_ONCE,
     .precedence = CD_PREC_FREE, .promotion = CD_PROMO_STOP, .halt = CD_HALT_EVERY,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = CD_DRAW_REPETITION, .repetitions = 3},
    {.name = "frisian", .title = "Frisian draughts", .gametype = "40",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 4, .flags = INTL | ORTHO,
     .precedence = CD_PREC_VALUE, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FRISIAN, .repetitions = 3,
     .no_progress = 25, .king_moves = 3},
    {.name = "frysk", .title = "Frysk! (Frisian, 5 men each)", .gametype = "40",
     .geometry = CD_GEOM_10X10, .first = CD_WHITE, .men_rows = 1, .flags = INTL | ORTHO,
     .precedence = CD_PREC_VALUE, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = D_FRISIAN, .repetitions = 3,
     .no_progress = 25, .king_moves = 3},
    /* Turkish draughts (Dama): all 64 squares, orthogonal moves, captured pieces leave at once,
     * no 180-degree turn, majority; a man crossing the last row mid-capture goes on as a man
     * (docs/turkish.md, movegen_turkish.c). men_rows 2: rows 2-3 and 6-7 (the back rows stay
     * empty, position.c). */
    {.name = "turkish", .title = "Turkish draughts (Dama)", .gametype = "30",
     .geometry = CD_GEOM_8X8_FULL, .first = CD_WHITE, .men_rows = 2,
     .flags = ALG | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS,
     .precedence = CD_PREC_MAJORITY, .promotion = CD_PROMO_END, .halt = CD_HALT_NONE,
     .goal = CD_GOAL_NORMAL, .capture_sep = 'x', .draw = CD_DRAW_REPETITION, .repetitions = 3},
};
/* clang-format on */

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
    case CD_ERR_OVERFLOW: return "buffer too small or out of memory";
    case CD_ERR_IO: return "file error";
    }
    return "unknown error";
}
