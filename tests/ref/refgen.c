/*
 * refgen.c -- naive reference move generator (see refgen.h).
 *
 * Sources: /work/shared/RULES.md, rules/constitutional.md (section 2, switches
 * of section 3), rules/killer-modern-hoogland.md (sections 0-3),
 * rules/variants.md (tables 1 and 2: Frisian), perft.md sections 0 and 2.7.
 * Nothing here is taken from the library's generator.
 *
 * Frisian (and Frysk!, the same rules from 5 men each), from the rule text:
 * pieces also capture along ranks and files, over the nearest square of their
 * colour two cells away (steps of two cells); a king flies along those lines
 * too, but its non-capturing moves stay diagonal. The capture of highest value
 * is compulsory, a king counting just under two men; on equal value one made
 * with a king; then free. A king may not make more than 3 consecutive
 * non-capturing moves while its side has men: the state (which king, how many)
 * is kept per side beside the board (ref_run).
 *
 * Representation: board[row][col], row 0 at the top as White sees the board,
 * col 0 at the left. On the normal boards cell (0,0) is not playable, so the
 * playable cells are those with row + col odd; on the mirrored boards
 * (Italian, Spanish, Portuguese: the bottom-left corner is not playable) cell
 * (0,0) is playable and the playable cells have row + col even. Square numbers
 * run 1..N over the playable cells row by row, left to right, from the
 * top-left playable cell. White men move up (row decreasing), Black men down.
 *
 * Speed is not a goal: every question is answered by direct loops over the
 * board and by plain depth-first search over capture sequences.
 */
#include "refgen.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ variants */

enum { EMPTY = 0, WMAN = 1, BMAN = 2, WKING = 3, BKING = 4, BLOCK = 5 };
enum { WHITE = 0, BLACK = 1 };
enum { PREC_FREE, PREC_MAJORITY, PREC_SPANISH, PREC_ITALIAN, PREC_CZECH, PREC_VALUE };
enum { PROMO_END, PROMO_CONTINUE, PROMO_STOP };
enum { HALT_NONE, HALT_KILLER, HALT_MODERN };

typedef struct {
    const char *name;
    int size;            /* board is size x size cells */
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
} variant_t;

/*
 * variants.md table 1, killer-modern-hoogland.md, constitutional.md.
 * Frisian: variants.md table 1 (men and kings capture diagonally and
 * orthogonally, value precedence, then a king) and table 2 (the king-move
 * limit); Frysk! is Frisian from W:W46-50:B1-5 (perft.md 2.8).
 * Mirrored boards (Italian, Spanish, Portuguese; variants.md table 1 and the
 * notes for implementers) have the playable cells where row + col is even,
 * and are numbered like the others on their own playable cells, from the
 * top-left one (include/condraughts.h "Squares"), so square 1 is cell (0,0).
 */
static const variant_t VARIANTS[] = {
    /* name                      size back   fly   m>K    precedence     promotion       halt C
       mirrored ortho king-moves */
    {"international", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, false, false,
     false, 0},
    {"constitutional", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, true, false,
     false, 0},
    {"killer", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_KILLER, false, false, false, 0},
    {"modern", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_MODERN, false, false, false, 0},
    {"antidraughts", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, false, false, false,
     0},
    {"breakthrough", 10, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, false, false, false,
     0},
    {"brazilian", 8, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, false, false, false, 0},
    {"brazilian-constitutional", 8, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, true,
     false, false, 0},
    {"modern-8x8", 8, true, true, true, PREC_MAJORITY, PROMO_END, HALT_MODERN, false, false, false,
     0},
    {"canadian", 12, true, true, true, PREC_MAJORITY, PROMO_END, HALT_NONE, false, false, false, 0},
    {"russian", 8, true, true, true, PREC_FREE, PROMO_CONTINUE, HALT_NONE, false, false, false, 0},
    {"russian-constitutional", 8, true, true, true, PREC_FREE, PROMO_CONTINUE, HALT_NONE, true,
     false, false, 0},
    {"english", 8, false, false, true, PREC_FREE, PROMO_STOP, HALT_NONE, false, false, false, 0},
    {"italian", 8, false, false, false, PREC_ITALIAN, PROMO_STOP, HALT_NONE, false, true, false, 0},
    {"spanish", 8, false, true, true, PREC_SPANISH, PROMO_STOP, HALT_NONE, false, true, false, 0},
    {"portuguese", 8, false, true, true, PREC_SPANISH, PROMO_STOP, HALT_NONE, false, true, false,
     0},
    {"czech", 8, false, true, true, PREC_CZECH, PROMO_STOP, HALT_NONE, false, false, false, 0},
    {"pool", 8, true, true, true, PREC_FREE, PROMO_END, HALT_NONE, false, false, false, 0},
    {"frisian", 10, true, true, true, PREC_VALUE, PROMO_END, HALT_NONE, false, false, true, 3},
    {"frysk", 10, true, true, true, PREC_VALUE, PROMO_END, HALT_NONE, false, false, true, 3},
};

static const struct {
    const char *alias, *name;
} ALIASES[] = {
    {"normal", "international"}, {"standard", "international"}, {"american", "english"},
    {"checkers", "english"},     {"shashki", "russian"},        {"killer-light", "modern"},
    {"losing", "antidraughts"},
};

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static const variant_t *find_variant(const char *name)
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

int ref_variant_known(const char *variant) { return find_variant(variant) != NULL; }

/* ------------------------------------------------------------ board */

#define MAXN   12
#define MAXCAP 80 /* more than the pieces one side can have on 12x12 (30) */

typedef struct {
    int n;         /* cells per side */
    bool mirrored; /* playable cells have row + col even (else odd) */
    int side;      /* side to move */
    unsigned char c[MAXN][MAXN];
    ref_run run; /* king-move limit: per colour the counted king's square and its moves */
} board_t;

/* Step directions: the 4 diagonals (one cell each way), then the 4 orthogonal ones of Frisian
   captures (two cells: the nearest cell of the same colour along a rank or file). */
#define NDIRS 8
static const int DR[NDIRS] = {-1, -1, 1, 1, -2, 0, 0, 2};
static const int DC[NDIRS] = {-1, 1, -1, 1, 0, -2, 2, 0};

/* The directions a capture may take: the 4 diagonals, and the 4 orthogonals in Frisian. */
static int capture_dirs(const variant_t *v) { return v->ortho ? 8 : 4; }

static int colour_of(int p)
{
    if (p == WMAN || p == WKING)
        return WHITE;
    if (p == BMAN || p == BKING)
        return BLACK;
    return -1; /* empty or the neutral blocker */
}

static bool is_king(int p) { return p == WKING || p == BKING; }

static bool on_board(const board_t *b, int r, int c)
{
    return r >= 0 && r < b->n && c >= 0 && c < b->n;
}

static int sq_of(int n, int r, int c) { return r * (n / 2) + c / 2 + 1; }

/* Cell of square sq: row-major over the playable cells of each row. */
static void rc_of(const board_t *b, int sq, int *r, int *c)
{
    int i = sq - 1, half = b->n / 2;
    *r = i / half;
    int odd_row = *r % 2;
    /* Normal board: row 0 starts at col 1. Mirrored: row 0 starts at col 0. */
    int shift = b->mirrored ? odd_row : 1 - odd_row;
    *c = 2 * (i % half) + shift;
}

/* The row where `side`'s men are crowned. */
static int far_row(int n, int side) { return side == WHITE ? 0 : n - 1; }

static int forward_dr(int side) { return side == WHITE ? -1 : 1; }

/* ------------------------------------------------------------ FEN */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
set_err(char *err, size_t errlen, const char *fmt, ...)
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

/* Parse one piece field after its colour letter, up to ':' or the end. */
static int parse_field(const char **pp, board_t *b, int colour, char *err, size_t errlen)
{
    const char *p = *pp;
    int nsq = b->n * b->n / 2;
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
        if (!read_int(&p, &a)) {
            set_err(err, errlen, "FEN: square number expected at \"%.20s\"", p);
            return -1;
        }
        z = a;
        skip_spaces(&p);
        if (*p == '-') {
            p++;
            if (!read_int(&p, &z)) {
                set_err(err, errlen, "FEN: range end expected at \"%.20s\"", p);
                return -1;
            }
        }
        if (a < 1 || z > nsq || z < a) {
            set_err(err, errlen, "FEN: bad square or range ending at %d", z);
            return -1;
        }
        for (int s = a; s <= z; s++) {
            int r, c;
            rc_of(b, s, &r, &c);
            if (b->c[r][c] != EMPTY) {
                set_err(err, errlen, "FEN: square %d given twice", s);
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
        set_err(err, errlen, "FEN: unexpected text \"%.20s\"", p);
        return -1;
    }
    *pp = p;
    return 0;
}

static int parse_fen(const char *fen, const variant_t *v, board_t *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->n = v->size;
    b->mirrored = v->mirrored;
    if (!fen) {
        set_err(err, errlen, "FEN: NULL");
        return -1;
    }
    const char *p = fen;
    skip_spaces(&p);
    if (*p == 'W' || *p == 'w')
        b->side = WHITE;
    else if (*p == 'B' || *p == 'b')
        b->side = BLACK;
    else {
        set_err(err, errlen, "FEN: side to move (W or B) expected at \"%.20s\"", p);
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
        set_err(err, errlen, "FEN: unexpected text \"%.20s\"", p);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ moves */

typedef struct {
    int from, to;                /* square numbers */
    int ncap;                    /* pieces captured */
    int caps[MAXCAP];            /* captured squares in the order they were jumped */
    int turns[MAXCAP];           /* after jump i: the square where the piece turned to make jump
                                    i + 1, 0 where it went on straight (and after the last jump) */
    unsigned char kinds[MAXCAP]; /* 1 if that captured piece is a king */
    bool with_king;              /* the moving piece was a king when the move started */
    bool ends_king;              /* the moving piece is a king after the move */
} move_t;

typedef struct {
    move_t *m;
    int n, cap;
    bool oom;
} mvec_t;

static void mvec_push(mvec_t *v, const move_t *m)
{
    if (v->n == v->cap) {
        int nc = v->cap ? 2 * v->cap : 64;
        move_t *nm = realloc(v->m, (size_t)nc * sizeof *nm);
        if (!nm) {
            v->oom = true;
            return;
        }
        v->m = nm;
        v->cap = nc;
    }
    v->m[v->n++] = *m;
}

/* ------------------------------------------------------------ jumps */

/* One jump available to a piece: its direction, the piece jumped and every landing square. */
typedef struct {
    int dir;
    int cr, cc;
    int nland;
    int lr[MAXN], lc[MAXN];
} jump_t;

/*
 * All jumps of a piece of `side` standing (conceptually) on (r,c), a king if
 * `king`. `cap` marks pieces already jumped in this sequence: they stay on the
 * board (they block) but cannot be jumped again. Only EMPTY cells are free;
 * the caller empties the moving piece's start square.
 */
static int find_jumps(const variant_t *v, const board_t *b, bool cap[MAXN][MAXN], int side, int r,
                      int c, bool king, jump_t out[NDIRS])
{
    int nj = 0;
    bool fly = king && v->flying;
    for (int d = 0; d < capture_dirs(v); d++) {
        /* men without backward captures: forward diagonals, forward and sideways orthogonals */
        if (!king && !v->men_backward && DR[d] != 2 * forward_dr(side) &&
            DR[d] != forward_dr(side) && DR[d] != 0)
            continue;
        int rr = r + DR[d], cc = c + DC[d];
        if (fly)
            while (on_board(b, rr, cc) && b->c[rr][cc] == EMPTY) {
                rr += DR[d];
                cc += DC[d];
            }
        if (!on_board(b, rr, cc))
            continue;
        int p = b->c[rr][cc];
        if (colour_of(p) != 1 - side || cap[rr][cc])
            continue;
        if (!king && !v->men_take_kings && is_king(p))
            continue;
        jump_t *j = &out[nj];
        j->dir = d;
        j->cr = rr;
        j->cc = cc;
        j->nland = 0;
        int lr = rr + DR[d], lc = cc + DC[d];
        while (on_board(b, lr, lc) && b->c[lr][lc] == EMPTY) {
            j->lr[j->nland] = lr;
            j->lc[j->nland] = lc;
            j->nland++;
            if (!fly)
                break;
            lr += DR[d];
            lc += DC[d];
        }
        if (j->nland > 0)
            nj++;
    }
    return nj;
}

/* A piece of `side` lands on row lr during a capture: is it a king now (Russian
   crowns a man at once on the far row and it goes on capturing as a king)? */
static bool king_after_landing(const variant_t *v, int n, int side, bool king, int lr)
{
    return king || (v->promo == PROMO_CONTINUE && lr == far_row(n, side));
}

/* Does the capture end there (English and the other forward-capture variants:
   a man that reaches the far row ends its move)? */
static bool stops_after_landing(const variant_t *v, int n, int side, bool king, int lr)
{
    return !king && v->promo == PROMO_STOP && lr == far_row(n, side);
}

/* ------------------------------------------------------------ legal captures */

typedef struct {
    const variant_t *v;
    board_t b; /* the position with the moving piece lifted from its start square */
    int side;
    int from;
    bool start_king;
    bool cap[MAXN][MAXN];
    int ncap;
    int caps[MAXCAP];
    int dirs[MAXCAP];  /* direction of each jump */
    int lands[MAXCAP]; /* square each jump landed on */
    unsigned char kinds[MAXCAP];
    mvec_t *out;
} cctx;

static bool can_continue(cctx *x, int r, int c, bool king)
{
    jump_t j[NDIRS];
    return find_jumps(x->v, &x->b, x->cap, x->side, r, c, king, j) > 0;
}

static void record(cctx *x, int r, int c, bool king)
{
    move_t m;
    memset(&m, 0, sizeof m);
    m.from = x->from;
    m.to = sq_of(x->b.n, r, c);
    m.ncap = x->ncap;
    memcpy(m.caps, x->caps, sizeof(int) * (size_t)x->ncap);
    memcpy(m.kinds, x->kinds, (size_t)x->ncap);
    for (int i = 0; i + 1 < x->ncap; i++)
        m.turns[i] = x->dirs[i + 1] != x->dirs[i] ? x->lands[i] : 0;
    m.with_king = x->start_king;
    m.ends_king = king || r == far_row(x->b.n, x->side);
    mvec_push(x->out, &m);
}

static bool halt_applies(const variant_t *v, bool last_is_king, int ncap)
{
    if (v->halt == HALT_KILLER)
        return last_is_king;
    if (v->halt == HALT_MODERN)
        return last_is_king && ncap >= 2;
    return false;
}

/*
 * Depth-first search over capture sequences from (r,c). A jump's landing
 * squares are split into those from which the capture can go on and those from
 * which it cannot: if any can go on, only those may be chosen (the capture must
 * be continued while possible); otherwise each landing ends the move (a halt
 * rule keeps only the square right behind the last captured piece).
 */
static void explore(cctx *x, int r, int c, bool king)
{
    jump_t js[NDIRS];
    int nj = find_jumps(x->v, &x->b, x->cap, x->side, r, c, king, js);
    for (int k = 0; k < nj; k++) {
        jump_t *j = &js[k];
        int p = x->b.c[j->cr][j->cc];
        x->cap[j->cr][j->cc] = true;
        x->caps[x->ncap] = sq_of(x->b.n, j->cr, j->cc);
        x->dirs[x->ncap] = j->dir;
        x->kinds[x->ncap] = is_king(p) ? 1 : 0;
        x->ncap++;
        bool cont[MAXN], nk[MAXN], any = false;
        for (int l = 0; l < j->nland; l++) {
            nk[l] = king_after_landing(x->v, x->b.n, x->side, king, j->lr[l]);
            cont[l] = !stops_after_landing(x->v, x->b.n, x->side, king, j->lr[l]) &&
                      can_continue(x, j->lr[l], j->lc[l], nk[l]);
            any = any || cont[l];
        }
        if (any) {
            for (int l = 0; l < j->nland; l++)
                if (cont[l]) {
                    x->lands[x->ncap - 1] = sq_of(x->b.n, j->lr[l], j->lc[l]);
                    explore(x, j->lr[l], j->lc[l], nk[l]);
                }
        } else {
            int nl = j->nland;
            if (king && halt_applies(x->v, is_king(p), x->ncap))
                nl = 1; /* the square immediately beyond the last captured piece */
            for (int l = 0; l < nl; l++)
                record(x, j->lr[l], j->lc[l], nk[l]);
        }
        x->ncap--;
        x->cap[j->cr][j->cc] = false;
    }
}

/* All complete capture sequences of the side to move, before precedence. */
static void all_captures(const variant_t *v, const board_t *b, mvec_t *out)
{
    for (int r = 0; r < b->n; r++)
        for (int c = 0; c < b->n; c++) {
            int p = b->c[r][c];
            if (colour_of(p) != b->side)
                continue;
            cctx *x = calloc(1, sizeof *x);
            if (!x) {
                out->oom = true;
                return;
            }
            x->v = v;
            x->b = *b;
            x->b.c[r][c] = EMPTY; /* the start square counts as empty */
            x->side = b->side;
            x->from = sq_of(b->n, r, c);
            x->start_king = is_king(p);
            x->out = out;
            explore(x, r, c, is_king(p));
            free(x);
        }
}

static int nkings(const move_t *m)
{
    int k = 0;
    for (int i = 0; i < m->ncap; i++)
        k += m->kinds[i];
    return k;
}

/* Italian order: pieces, with a king, kings, then king met earlier. >0 if a is better. */
static int italian_cmp(const move_t *a, const move_t *b)
{
    if (a->ncap != b->ncap)
        return a->ncap > b->ncap ? 1 : -1;
    if (a->with_king != b->with_king)
        return a->with_king ? 1 : -1;
    int ka = nkings(a), kb = nkings(b);
    if (ka != kb)
        return ka > kb ? 1 : -1;
    for (int i = 0; i < a->ncap; i++)
        if (a->kinds[i] != b->kinds[i])
            return a->kinds[i] ? 1 : -1;
    return 0;
}

/* Frisian value: a man counts 1, a king just under 2 (men + 2 kings, then fewer kings), then a
   capture made with a king. >0 if a is better. */
static int value_cmp(const move_t *a, const move_t *b)
{
    int ka = nkings(a), kb = nkings(b);
    int va = a->ncap + ka, vb = b->ncap + kb; /* men + 2 kings */
    if (va != vb)
        return va > vb ? 1 : -1;
    if (ka != kb)
        return ka < kb ? 1 : -1;
    return (int)a->with_king - (int)b->with_king;
}

static int prec_cmp(const variant_t *v, const move_t *a, const move_t *b)
{
    switch (v->prec) {
    case PREC_VALUE: return value_cmp(a, b);
    case PREC_MAJORITY: return (a->ncap > b->ncap) - (a->ncap < b->ncap);
    case PREC_SPANISH:
        if (a->ncap != b->ncap)
            return a->ncap > b->ncap ? 1 : -1;
        return (nkings(a) > nkings(b)) - (nkings(a) < nkings(b));
    case PREC_ITALIAN: return italian_cmp(a, b);
    case PREC_CZECH: return (int)a->with_king - (int)b->with_king;
    default: return 0;
    }
}

/* Keep only the captures that no other capture beats. */
static void filter_precedence(const variant_t *v, mvec_t *mv)
{
    if (mv->n == 0)
        return;
    int best = 0;
    for (int i = 1; i < mv->n; i++)
        if (prec_cmp(v, &mv->m[i], &mv->m[best]) > 0)
            best = i;
    move_t bm = mv->m[best];
    int k = 0;
    for (int i = 0; i < mv->n; i++)
        if (prec_cmp(v, &mv->m[i], &bm) == 0)
            mv->m[k++] = mv->m[i];
    mv->n = k;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Same move: same from and to, and the same captured set (drop) or path (keep: the same pieces in
   the same order, turning on the same squares; a king going on straight over a second piece may
   have "landed" anywhere between the two, which is one path). */
static bool same_move(const move_t *a, const move_t *b, bool keep)
{
    if (a->from != b->from || a->to != b->to || a->ncap != b->ncap)
        return false;
    if (keep)
        return memcmp(a->caps, b->caps, sizeof(int) * (size_t)a->ncap) == 0 &&
               memcmp(a->turns, b->turns, sizeof(int) * (size_t)a->ncap) == 0;
    int sa[MAXCAP], sb[MAXCAP];
    memcpy(sa, a->caps, sizeof(int) * (size_t)a->ncap);
    memcpy(sb, b->caps, sizeof(int) * (size_t)b->ncap);
    qsort(sa, (size_t)a->ncap, sizeof(int), cmp_int);
    qsort(sb, (size_t)b->ncap, sizeof(int), cmp_int);
    return memcmp(sa, sb, sizeof(int) * (size_t)a->ncap) == 0;
}

static void remove_duplicates(mvec_t *mv, bool keep)
{
    int k = 0;
    for (int i = 0; i < mv->n; i++) {
        bool dup = false;
        for (int j = 0; j < k && !dup; j++)
            dup = same_move(&mv->m[j], &mv->m[i], keep);
        if (!dup)
            mv->m[k++] = mv->m[i];
    }
    mv->n = k;
}

/* ------------------------------------------------------------ Rule C */

/*
 * Track search: can the piece of `side` on (r,c) (already lifted from its
 * start square), a king if `king`, reach a jump over (tr,tc) by some sequence
 * of jumps (partial, not necessarily maximal)? The variant's own capture
 * mechanics apply (Russian: a man crowned on the far row goes on as a king).
 */
static bool track(const variant_t *v, const board_t *b, bool cap[MAXN][MAXN], int side, int r,
                  int c, bool king, int tr, int tc)
{
    jump_t js[NDIRS];
    int nj = find_jumps(v, b, cap, side, r, c, king, js);
    for (int k = 0; k < nj; k++)
        if (js[k].cr == tr && js[k].cc == tc)
            return true;
    for (int k = 0; k < nj; k++) {
        jump_t *j = &js[k];
        bool found = false;
        cap[j->cr][j->cc] = true;
        for (int l = 0; l < j->nland && !found; l++) {
            if (stops_after_landing(v, b->n, side, king, j->lr[l]))
                continue;
            bool nk = king_after_landing(v, b->n, side, king, j->lr[l]);
            found = track(v, b, cap, side, j->lr[l], j->lc[l], nk, tr, tc);
        }
        cap[j->cr][j->cc] = false;
        if (found)
            return true;
    }
    return false;
}

/* capturable(X, who) in the hypothetical position h: X holds the king of the side to move. */
static bool capturable(const variant_t *v, const board_t *h, int tr, int tc, bool kings_only)
{
    int enemy = 1 - h->side;
    for (int r = 0; r < h->n; r++)
        for (int c = 0; c < h->n; c++) {
            int p = h->c[r][c];
            if (colour_of(p) != enemy || (kings_only && !is_king(p)))
                continue;
            board_t b = *h;
            b.c[r][c] = EMPTY; /* the capturer's own start square counts as empty */
            bool cap[MAXN][MAXN];
            memset(cap, 0, sizeof cap);
            if (track(v, &b, cap, enemy, r, c, is_king(p), tr, tc))
                return true;
        }
    return false;
}

/* H(X): the king lifted from O and put on X; O empty, or a neutral blocker with the switch. */
static void hypothetical(const board_t *b, unsigned flags, int or_, int oc, int xr, int xc,
                         board_t *h)
{
    *h = *b;
    int king = h->c[or_][oc];
    h->c[or_][oc] = (flags & REF_CON_ORIGIN_OCCUPIED) ? BLOCK : EMPTY;
    h->c[xr][xc] = (unsigned char)king;
}

static bool kt(const variant_t *v, const board_t *b, unsigned flags, int or_, int oc, int xr,
               int xc)
{
    board_t h;
    hypothetical(b, flags, or_, oc, xr, xc, &h);
    return capturable(v, &h, xr, xc, !(flags & REF_CON_OBSTRUCT_BY_MEN));
}

static bool sac(const variant_t *v, const board_t *b, unsigned flags, int or_, int oc, int xr,
                int xc)
{
    board_t h;
    hypothetical(b, flags, or_, oc, xr, xc, &h);
    return capturable(v, &h, xr, xc, (flags & REF_CON_SAC_KINGS_ONLY) != 0);
}

/* ------------------------------------------------------------ quiet moves */

static bool has_men(const board_t *b, int side)
{
    for (int r = 0; r < b->n; r++)
        for (int c = 0; c < b->n; c++)
            if (b->c[r][c] == (side == WHITE ? WMAN : BMAN))
                return true;
    return false;
}

/* The king-move limit (Frisian): a king that has made king_moves non-capturing moves in a row may
   not make another while its side still has men. */
static bool king_may_move(const variant_t *v, const board_t *b, int r, int c)
{
    int s = b->side;
    return !(v->king_moves && b->run.len[s] >= v->king_moves && b->run.sq[s] == sq_of(b->n, r, c) &&
             has_men(b, s));
}

static void add_quiet(mvec_t *out, const board_t *b, int fr, int fc, int tr, int tc, bool king)
{
    move_t m;
    memset(&m, 0, sizeof m);
    m.from = sq_of(b->n, fr, fc);
    m.to = sq_of(b->n, tr, tc);
    m.with_king = king;
    m.ends_king = king || tr == far_row(b->n, b->side);
    mvec_push(out, &m);
}

static void quiet_moves(const variant_t *v, unsigned flags, const board_t *b, mvec_t *out)
{
    for (int r = 0; r < b->n; r++)
        for (int c = 0; c < b->n; c++) {
            int p = b->c[r][c];
            if (colour_of(p) != b->side)
                continue;
            if (!is_king(p)) {
                int tr = r + forward_dr(b->side);
                for (int dc = -1; dc <= 1; dc += 2) {
                    int tc = c + dc;
                    if (on_board(b, tr, tc) && b->c[tr][tc] == EMPTY)
                        add_quiet(out, b, r, c, tr, tc, false);
                }
                continue;
            }
            if (!king_may_move(v, b, r, c))
                continue;
            for (int d = 0; d < 4; d++) {
                /* The empty squares P1, P2, ... along this diagonal. */
                int pr[MAXN], pc[MAXN], np = 0;
                int tr = r + DR[d], tc = c + DC[d];
                while (on_board(b, tr, tc) && b->c[tr][tc] == EMPTY) {
                    pr[np] = tr;
                    pc[np] = tc;
                    np++;
                    if (!v->flying)
                        break;
                    tr += DR[d];
                    tc += DC[d];
                }
                if (!v->rule_c) {
                    for (int j = 0; j < np; j++)
                        add_quiet(out, b, r, c, pr[j], pc[j], true);
                    continue;
                }
                /* Rule C: legal iff SAC(D) or no passed square is king-threatened
                   (with NO_PASS_TO_SAC: iff no passed square is threatened). */
                bool passed_threat = false; /* KT(Pi) for some i < j */
                for (int j = 0; j < np; j++) {
                    bool legal;
                    if (!passed_threat)
                        legal = true;
                    else if (flags & REF_CON_NO_PASS_TO_SAC)
                        legal = false;
                    else
                        legal = sac(v, b, flags, r, c, pr[j], pc[j]);
                    if (legal)
                        add_quiet(out, b, r, c, pr[j], pc[j], true);
                    if (!passed_threat && j + 1 < np)
                        passed_threat = kt(v, b, flags, r, c, pr[j], pc[j]);
                }
            }
        }
}

/* ------------------------------------------------------------ generation */

/* All legal moves of b (structured). Returns false on memory exhaustion. */
static bool generate(const variant_t *v, unsigned flags, const board_t *b, mvec_t *out)
{
    out->n = 0;
    all_captures(v, b, out);
    if (out->n > 0) {
        filter_precedence(v, out);
        remove_duplicates(out, (flags & REF_RULE_KEEP_DUPLICATES) != 0);
    } else {
        quiet_moves(v, flags, b, out);
    }
    return !out->oom;
}

static int hub_string(const move_t *m, char *buf, size_t len)
{
    if (m->ncap == 0)
        return snprintf(buf, len, "%d-%d", m->from, m->to);
    int s[MAXCAP];
    memcpy(s, m->caps, sizeof(int) * (size_t)m->ncap);
    qsort(s, (size_t)m->ncap, sizeof(int), cmp_int);
    int k = snprintf(buf, len, "%dx%d", m->from, m->to);
    for (int i = 0; i < m->ncap && k >= 0 && (size_t)k < len; i++)
        k += snprintf(buf + k, len - (size_t)k, "x%d", s[i]);
    return k;
}

int ref_moves(const char *variant, unsigned flags, const char *fen, char (*out)[REF_MOVE_LEN],
              int max, char *err, size_t errlen)
{
    return ref_moves_run(variant, flags, fen, NULL, out, max, err, errlen);
}

int ref_moves_run(const char *variant, unsigned flags, const char *fen, const ref_run *run,
                  char (*out)[REF_MOVE_LEN], int max, char *err, size_t errlen)
{
    const variant_t *v = find_variant(variant);
    if (!v) {
        set_err(err, errlen, "unknown variant \"%s\"", variant ? variant : "(null)");
        return -1;
    }
    board_t b;
    if (parse_fen(fen, v, &b, err, errlen) < 0)
        return -1;
    if (run)
        b.run = *run;
    mvec_t mv = {0};
    if (!generate(v, flags, &b, &mv)) {
        free(mv.m);
        set_err(err, errlen, "out of memory");
        return -1;
    }
    if (mv.n > max) {
        set_err(err, errlen, "more than max moves (%d)", mv.n);
        free(mv.m);
        return -1;
    }
    for (int i = 0; i < mv.n; i++) {
        int k = hub_string(&mv.m[i], out[i], REF_MOVE_LEN);
        if (k < 0 || k >= REF_MOVE_LEN) {
            set_err(err, errlen, "move string too long (%d)", k);
            free(mv.m);
            return -1;
        }
    }
    int n = mv.n;
    free(mv.m);
    return n;
}

/* ------------------------------------------------------------ perft */

/* Make the move, and keep the king-move count (Frisian): a non-capturing king move of a side that
   has men counts one more for that king if it made the side's previous moves, else starts at 1
   for it; any other move (a man's, a capture) and a side without men have no count; a side that
   loses its counted king or its last man in the opponent's capture loses its count. */
static void play(const variant_t *v, board_t *b, const move_t *m)
{
    int fr, fc, tr, tc;
    rc_of(b, m->from, &fr, &fc);
    rc_of(b, m->to, &tr, &tc);
    int p = b->c[fr][fc];
    bool king_move = is_king(p);
    b->c[fr][fc] = EMPTY;
    for (int i = 0; i < m->ncap; i++) {
        int r, c;
        rc_of(b, m->caps[i], &r, &c);
        b->c[r][c] = EMPTY;
    }
    if (m->ends_king)
        p = b->side == WHITE ? WKING : BKING;
    b->c[tr][tc] = (unsigned char)p;
    int me = b->side, opp = 1 - me;
    if (v->king_moves) {
        if (king_move && m->ncap == 0 && has_men(b, me)) {
            bool same = b->run.len[me] > 0 && b->run.sq[me] == m->from;
            b->run.len[me] = same ? b->run.len[me] + 1 : 1;
            b->run.sq[me] = m->to;
        } else {
            b->run.len[me] = b->run.sq[me] = 0;
        }
        if (b->run.len[opp]) {
            int r, c;
            rc_of(b, b->run.sq[opp], &r, &c);
            if (b->c[r][c] != (opp == WHITE ? WKING : BKING) || !has_men(b, opp))
                b->run.len[opp] = b->run.sq[opp] = 0;
        }
    }
    b->side = opp;
}

static long long perft_rec(const variant_t *v, unsigned flags, const board_t *b, int depth)
{
    mvec_t mv = {0};
    if (!generate(v, flags, b, &mv)) {
        free(mv.m);
        return -1;
    }
    long long total = 0;
    if (depth == 1) {
        total = mv.n;
    } else {
        for (int i = 0; i < mv.n && total >= 0; i++) {
            board_t nb = *b;
            play(v, &nb, &mv.m[i]);
            long long s = perft_rec(v, flags, &nb, depth - 1);
            total = s < 0 ? -1 : total + s;
        }
    }
    free(mv.m);
    return total;
}

long long ref_perft(const char *variant, unsigned flags, const char *fen, int depth, char *err,
                    size_t errlen)
{
    return ref_perft_run(variant, flags, fen, NULL, depth, err, errlen);
}

long long ref_perft_run(const char *variant, unsigned flags, const char *fen, const ref_run *run,
                        int depth, char *err, size_t errlen)
{
    const variant_t *v = find_variant(variant);
    if (!v) {
        set_err(err, errlen, "unknown variant \"%s\"", variant ? variant : "(null)");
        return -1;
    }
    board_t b;
    if (parse_fen(fen, v, &b, err, errlen) < 0)
        return -1;
    if (run)
        b.run = *run;
    if (depth <= 0)
        return 1;
    long long r = perft_rec(v, flags, &b, depth);
    if (r < 0)
        set_err(err, errlen, "out of memory");
    return r;
}
