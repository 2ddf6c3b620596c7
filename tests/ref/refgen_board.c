/*
 * refgen_board.c -- the reference generator's rules and board (refgen_board.h): the variants
 * table with its aliases, the board geometry, and FEN reading. The rules' sources and the
 * representation are described at the top of refgen.c.
 */
#include "refgen_board.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const int DR[NDIRS] = {-1, -1, 1, 1, -2, 0, 0, 2, -1, 0, 0, 1};
const int DC[NDIRS] = {-1, 1, -1, 1, 0, -2, 2, 0, 0, -1, 1, 0};

/* ------------------------------------------------------------ variants */

/*
 * variants.md table 1, killer-modern-hoogland.md, constitutional.md.
 * Frisian: variants.md table 1 (men and kings capture diagonally and
 * orthogonally, value precedence, then a king) and table 2 (the king-move
 * limit); Frysk! is Frisian from W:W46-50:B1-5 (perft.md 2.8).
 * Mirrored boards (Italian, Spanish, Portuguese; variants.md table 1 and the
 * notes for implementers) have the playable cells where row + col is even,
 * and are numbered like the others on their own playable cells, from the
 * top-left one (include/condraughts.h "Squares"), so square 1 is cell (0,0).
 * The newer rows use designated initialisers; see the comment at the top for
 * their rules and start positions in refgen.h.
 */
/* clang-format off */
static const variant_t VARIANTS[] = {
    {.name = "international", .size = 10, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END},
    {.name = "constitutional", .size = 10, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END, .rule_c = true},
    {.name = "killer", .size = 10, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END, .halt = HALT_KILLER},
    {.name = "modern", .size = 10, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END, .halt = HALT_MODERN},
    {.name = "antidraughts", .size = 10, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END},
    {.name = "breakthrough", .size = 10, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END},
    {.name = "brazilian", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END},
    {.name = "brazilian-constitutional", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END, .rule_c = true},
    {.name = "modern-8x8", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END, .halt = HALT_MODERN},
    {.name = "canadian", .size = 12, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END},
    {.name = "russian", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_FREE, .promo = PROMO_CONTINUE},
    {.name = "russian-constitutional", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE, .rule_c = true},
    {.name = "english", .size = 8, .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_STOP},
    {.name = "italian", .size = 8, .prec = PREC_ITALIAN, .promo = PROMO_STOP, .mirrored = true},
    {.name = "spanish", .size = 8, .flying = true, .men_take_kings = true, .prec = PREC_SPANISH,
     .promo = PROMO_STOP, .mirrored = true},
    {.name = "portuguese", .size = 8, .flying = true, .men_take_kings = true, .prec = PREC_SPANISH,
     .promo = PROMO_STOP, .mirrored = true},
    {.name = "czech", .size = 8, .flying = true, .men_take_kings = true, .prec = PREC_CZECH,
     .promo = PROMO_STOP},
    {.name = "pool", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_FREE, .promo = PROMO_END},
    {.name = "frisian", .size = 10, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_VALUE, .promo = PROMO_END, .ortho = true, .king_moves = 3},
    {.name = "frysk", .size = 10, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_VALUE, .promo = PROMO_END, .ortho = true, .king_moves = 3},
    /* Hoogland: International + orthogonal king-takes-king captures. */
    {.name = "hoogland", .size = 10, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_MAJORITY, .promo = PROMO_END, .hoogland = true},
    /* The Russian row (docs/variants.md). */
    {.name = "spantsiretti", .size = 8, .cols = 10, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE},
    {.name = "russian-giveaway", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE},
    {.name = "russian-diagonal", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE},
    {.name = "russian-northern", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE, .folk = FOLK_NORTHERN},
    {.name = "samoyed", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_FREE, .promo = PROMO_CONTINUE, .folk = FOLK_SAMOYED},
    {.name = "stavropol", .size = 8, .men_backward = true, .flying = true, .men_take_kings = true,
     .prec = PREC_FREE, .promo = PROMO_CONTINUE, .folk = FOLK_STAVROPOL},
    {.name = "russian-two-move", .size = 8, .men_backward = true, .flying = true,
     .men_take_kings = true, .prec = PREC_FREE, .promo = PROMO_CONTINUE, .folk = FOLK_TWO_MOVE},
    /* Turkish: every cell, orthogonal; promo is PROMO_CONTINUE with REF_TURKISH_PROMOTE_CONTINUE. */
    {.name = "turkish", .size = 8, .geom = GEOM_ALL, .men_backward = false, .flying = true,
     .men_take_kings = true, .prec = PREC_MAJORITY, .promo = PROMO_END, .remove_now = true,
     .no_reverse = true, .keep_landings = true},
    /* Thai. */
    {.name = "thai", .size = 8, .men_backward = false, .flying = true, .men_take_kings = true,
     .prec = PREC_FREE, .promo = PROMO_END, .remove_now = true, .land_behind = true},
};
/* clang-format on */

static const struct {
    const char *alias, *name;
} ALIASES[] = {
    {"normal", "international"},      {"standard", "international"},
    {"american", "english"},          {"checkers", "english"},
    {"shashki", "russian"},           {"killer-light", "modern"},
    {"losing", "antidraughts"},       {"80-cell", "spantsiretti"},
    {"poddavki", "russian-giveaway"}, {"giveaway", "russian-giveaway"},
};

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

const variant_t *rg_find_variant(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (same_name(name, ALIASES[i].alias))
            name = ALIASES[i].name;
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; i++)
        if (same_name(name, VARIANTS[i].name))
            return &VARIANTS[i];
    return NULL;
}

int ref_variant_known(const char *variant) { return rg_find_variant(variant) != NULL; }

/* The variant with the per-call switches applied (Turkish promotion, Hoogland switches). */
variant_t rg_effective_variant(const variant_t *v, unsigned flags)
{
    variant_t e = *v;
    if (e.geom == GEOM_ALL && (flags & REF_TURKISH_PROMOTE_CONTINUE))
        e.promo = PROMO_CONTINUE;
    if (e.hoogland)
        e.hoog = flags & (REF_HOOG_KINGS_ONLY | REF_HOOG_FIRST_JUMP);
    return e;
}

/* ------------------------------------------------------------ board */

/* The direction opposite to d. */
int rg_opposite_dir(int d)
{
    for (int e = 0; e < NDIRS; e++)
        if (DR[e] == -DR[d] && DC[e] == -DC[d])
            return e;
    return -1;
}

/* An orthogonal direction of the dark-square boards (Frisian geometry). */
bool rg_dark_ortho_dir(int d) { return d >= 4 && d < 8; }

/* The directions of non-capturing moves (men keep only their forward, and on the Turkish board
   sideways, ones). */
int rg_move_dirs(const variant_t *v, int dirs[NDIRS])
{
    int base = v->geom == GEOM_ALL ? 8 : 0;
    for (int i = 0; i < 4; i++)
        dirs[i] = base + i;
    return 4;
}

/* The directions a capture of a man (king: `king`) may take, before the men's forward filter:
   the 4 diagonals; and the 4 orthogonals in Frisian, and for Hoogland kings; the 4 one-cell
   orthogonals on the Turkish board. */
int rg_capture_dirs(const variant_t *v, bool king, int dirs[NDIRS])
{
    int n = 0;
    if (v->geom == GEOM_ALL) {
        for (int d = 8; d < 12; d++)
            dirs[n++] = d;
        return n;
    }
    int top = (v->ortho || (v->hoogland && king)) ? 8 : 4;
    for (int d = 0; d < top; d++)
        dirs[n++] = d;
    return n;
}

int rg_colour_of(int p)
{
    if (p == WMAN || p == WKING)
        return WHITE;
    if (p == BMAN || p == BKING)
        return BLACK;
    return -1; /* empty or the neutral blocker */
}

bool rg_is_king(int p) { return p == WKING || p == BKING; }

bool rg_on_board(const board_t *b, int r, int c)
{
    return r >= 0 && r < b->rows && c >= 0 && c < b->cols;
}

static bool playable(const board_t *b, int r, int c)
{
    return rg_on_board(b, r, c) && (b->all || (r + c) % 2 == (b->mirrored ? 0 : 1));
}

static int nsquares(const board_t *b) { return b->all ? b->rows * b->cols : b->rows * b->cols / 2; }

int rg_sq_of(const board_t *b, int r, int c)
{
    if (b->all)
        return r * b->cols + c + 1;
    return r * (b->cols / 2) + c / 2 + 1;
}

/* Cell of square sq: row-major over the playable cells of each row. */
void rg_rc_of(const board_t *b, int sq, int *r, int *c)
{
    int i = sq - 1;
    if (b->all) {
        *r = i / b->cols;
        *c = i % b->cols;
        return;
    }
    int half = b->cols / 2;
    *r = i / half;
    int odd_row = *r % 2;
    /* Normal board: row 0 starts at col 1. Mirrored: row 0 starts at col 0. */
    int shift = b->mirrored ? odd_row : 1 - odd_row;
    *c = 2 * (i % half) + shift;
}

/* The row where `side`'s men are crowned. */
int rg_far_row(const board_t *b, int side) { return side == WHITE ? 0 : b->rows - 1; }

int rg_forward_dr(int side) { return side == WHITE ? -1 : 1; }

bool rg_has_men(const board_t *b, int side)
{
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++)
            if (b->c[r][c] == (side == WHITE ? WMAN : BMAN))
                return true;
    return false;
}

bool rg_has_pieces(const board_t *b, int side)
{
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++)
            if (rg_colour_of(b->c[r][c]) == side)
                return true;
    return false;
}

/* ------------------------------------------------------------ FEN */

void rg_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
}

static void skip_spaces(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* A decimal number; values too large for any board come back as 100000. */
static bool read_int(const char **p, int *v)
{
    skip_spaces(p);
    if (!isdigit((unsigned char)**p))
        return false;
    long x = 0;
    while (isdigit((unsigned char)**p)) {
        if (x < 100000)
            x = x * 10 + (**p - '0');
        (*p)++;
    }
    *v = x < 100000 ? (int)x : 100000;
    return true;
}

/* An algebraic square (file a.. from White's left, rank 1 at White's side) at *p: its square
   number, 0 if it is no playable cell of the board, -1 if *p is not algebraic. */
static int read_algebraic(const char **p, const board_t *b)
{
    const char *q = *p;
    if (!islower((unsigned char)*q) || !isdigit((unsigned char)q[1]))
        return -1;
    int col = *q - 'a';
    q++;
    int rank;
    read_int(&q, &rank);
    *p = q;
    int row = b->rows - rank;
    if (rank < 1 || !playable(b, row, col))
        return 0;
    return rg_sq_of(b, row, col);
}

/* Parse one piece field after its colour letter, up to ':' or the end. Squares are numbers (also
   ranges "a-z") or algebraic ("c3"). */
static int parse_field(const char **pp, board_t *b, int colour, char *err, size_t errlen)
{
    const char *p = *pp;
    int nsq = nsquares(b);
    skip_spaces(&p);
    if (*p == ':' || *p == '\0') {
        *pp = p;
        return 0; /* empty field */
    }
    for (;;) {
        skip_spaces(&p);
        bool king = false;
        if (*p == 'K' || *p == 'k') {
            king = true;
            p++;
        }
        int a, z;
        int alg = read_algebraic(&p, b);
        if (alg == 0) {
            rg_set_err(err, errlen, "FEN: algebraic square not on the board before \"%.20s\"", p);
            return -1;
        }
        if (alg > 0) {
            a = z = alg;
        } else {
            if (!read_int(&p, &a)) {
                rg_set_err(err, errlen, "FEN: square number expected at \"%.20s\"", p);
                return -1;
            }
            z = a;
            skip_spaces(&p);
            if (*p == '-') {
                p++;
                if (!read_int(&p, &z)) {
                    rg_set_err(err, errlen, "FEN: range end expected at \"%.20s\"", p);
                    return -1;
                }
            }
        }
        if (a < 1 || z > nsq || z < a) {
            rg_set_err(err, errlen, "FEN: bad square or range ending at %d", z);
            return -1;
        }
        for (int s = a; s <= z; s++) {
            int r, c;
            rg_rc_of(b, s, &r, &c);
            if (b->c[r][c] != EMPTY) {
                rg_set_err(err, errlen, "FEN: square %d given twice", s);
                return -1;
            }
            if (colour == WHITE)
                b->c[r][c] = king ? WKING : WMAN;
            else
                b->c[r][c] = king ? BKING : BMAN;
        }
        skip_spaces(&p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ':' || *p == '\0')
            break;
        rg_set_err(err, errlen, "FEN: unexpected text \"%.20s\"", p);
        return -1;
    }
    *pp = p;
    return 0;
}

int rg_parse_fen(const char *fen, const variant_t *v, board_t *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->rows = v->size;
    b->cols = v->cols ? v->cols : v->size;
    b->mirrored = v->mirrored;
    b->all = v->geom == GEOM_ALL;
    if (!fen) {
        rg_set_err(err, errlen, "FEN: NULL");
        return -1;
    }
    const char *p = fen;
    skip_spaces(&p);
    if (*p == 'W' || *p == 'w')
        b->side = WHITE;
    else if (*p == 'B' || *p == 'b')
        b->side = BLACK;
    else {
        rg_set_err(err, errlen, "FEN: side to move (W or B) expected at \"%.20s\"", p);
        return -1;
    }
    p++;
    skip_spaces(&p);
    /* At most two piece fields follow; anything after them (":H0:F1") is ignored. */
    for (int field = 0; field < 2; field++) {
        if (*p != ':')
            break;
        p++;
        skip_spaces(&p);
        int colour;
        if (*p == 'W' || *p == 'w')
            colour = WHITE;
        else if (*p == 'B' || *p == 'b')
            colour = BLACK;
        else
            break; /* some other field: ignore the rest */
        p++;
        if (parse_field(&p, b, colour, err, errlen) < 0)
            return -1;
    }
    skip_spaces(&p);
    if (*p != '\0' && *p != ':') {
        rg_set_err(err, errlen, "FEN: unexpected text \"%.20s\"", p);
        return -1;
    }
    return 0;
}
