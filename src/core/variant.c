/*
 * variant.c -- the rules as data: one const row per variant.
 *
 * A new variant is a new row plus tests, not a new code path. Sources for
 * every field: ../shared/rules/variants.md (tables 1 and 2),
 * ../shared/rules/constitutional.md and ../shared/rules/killer-modern-hoogland.md.
 */
#include <ctype.h>
#include <string.h>

#include "board.h"

const cd_geom cd_geoms[CD_GEOM_COUNT] = {
    [CD_GEOM_8X8] = {8, 8, 4, 32, 35},
    [CD_GEOM_10X10] = {10, 10, 5, 50, 54},
    [CD_GEOM_12X12] = {12, 12, 6, 72, 77},
    [CD_GEOM_10X8] = {10, 8, 5, 40, 43},
};

/* Movement shared by the International family: men capture backwards, kings fly. */
#define INTL (CD_RULE_MEN_BACKWARD | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS)
#define CON  CD_RULE_CONSTITUTIONAL
#define ALG  CD_RULE_ALGEBRAIC
#define MIR  CD_RULE_MIRRORED
/* Draw rules: FMJD (International), FMJD-64 (Russian, Brazilian), and the
 * constitutional/killer/modern set without endgame move counts (RULES.md). */
#define D_FMJD   (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_FMJD_ENDGAME)
#define D_FMJD64 (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY | CD_DRAW_RUSSIAN_ENDGAME)
#define D_OPEN   (CD_DRAW_REPETITION | CD_DRAW_KINGS_ONLY)

static const cd_rules rows[] = {
    {"international", "International draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD, 3, 25},
    {"constitutional", "Constitutional draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL | CON,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25},
    {"killer", "Killer draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL, CD_PREC_MAJORITY,
     CD_PROMO_END, CD_HALT_KILLER, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25},
    {"modern", "Modern draughts (Killer Light)", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_MODERN, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 25},
    {"brazilian", "Brazilian draughts", "26", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD64, 3, 15},
    {"brazilian-constitutional", "Constitutional Brazilian draughts", "26", CD_GEOM_8X8, CD_WHITE,
     3, INTL | ALG | CON, CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN,
     3, 15},
    {"modern-8x8", "Modern checkers 8x8", "26", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_MODERN, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 15},
    {"canadian", "Canadian draughts", "27", CD_GEOM_12X12, CD_WHITE, 5, INTL, CD_PREC_MAJORITY,
     CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_FMJD, 3, 25},
    {"russian", "Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3, INTL | ALG, CD_PREC_FREE,
     CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_FMJD64, 3, 15},
    {"russian-constitutional", "Constitutional Russian draughts", "25", CD_GEOM_8X8, CD_WHITE, 3,
     INTL | ALG | CON, CD_PREC_FREE, CD_PROMO_CONTINUE, CD_HALT_NONE, CD_GOAL_NORMAL, ':', D_OPEN,
     3, 15},
    {"english", "English draughts / American checkers", "21", CD_GEOM_8X8, CD_BLACK, 3,
     CD_RULE_MEN_TAKE_KINGS, CD_PREC_FREE, CD_PROMO_STOP, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN,
     3, 40},
    {"italian", "Italian draughts", "22", CD_GEOM_8X8, CD_WHITE, 3, MIR, CD_PREC_ITALIAN,
     CD_PROMO_STOP, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 4, 40},
    {"spanish", "Spanish draughts", "24", CD_GEOM_8X8, CD_WHITE, 3,
     MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_SPANISH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0},
    {"portuguese", "Portuguese draughts", "28", CD_GEOM_8X8, CD_WHITE, 3,
     MIR | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_SPANISH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION, 3, 0},
    {"czech", "Czech draughts", "29", CD_GEOM_8X8, CD_WHITE, 3,
     ALG | CD_RULE_FLYING_KINGS | CD_RULE_MEN_TAKE_KINGS, CD_PREC_CZECH, CD_PROMO_STOP,
     CD_HALT_NONE, CD_GOAL_NORMAL, 'x', D_OPEN, 3, 15},
    {"pool", "American pool checkers", "23", CD_GEOM_8X8, CD_BLACK, 3, INTL, CD_PREC_FREE,
     CD_PROMO_END, CD_HALT_NONE, CD_GOAL_NORMAL, 'x', CD_DRAW_REPETITION | CD_DRAW_POOL_3V1, 3, 0},
    {"antidraughts", "Antidraughts (losing draughts)", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_LOSING, 'x', D_OPEN, 3, 25},
    {"breakthrough", "Breakthrough draughts", "20", CD_GEOM_10X10, CD_WHITE, 4, INTL,
     CD_PREC_MAJORITY, CD_PROMO_END, CD_HALT_NONE, CD_GOAL_BREAKTHROUGH, 'x', D_OPEN, 3, 25},
};

static const struct {
    const char *alias, *name;
} aliases[] = {
    {"normal", "international"}, {"standard", "international"}, {"american", "english"},
    {"checkers", "english"},     {"shashki", "russian"},        {"killer-light", "modern"},
    {"losing", "antidraughts"},  {"frysk", "frisian"},
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
