/*
 * refgen.c -- naive reference move generator (see refgen.h): moves, captures, Rule C, play
 * and perft; the variants table, board and FEN are refgen_board.c's (refgen_board.h).
 *
 * Sources: /work/shared/RULES.md, rules/constitutional.md (section 2, switches
 * of section 3), rules/killer-modern-hoogland.md (sections 0-4),
 * rules/variants.md (tables 1 and 2: Frisian, Turkish, Thai, 80-cell),
 * perft.md sections 0, 2.7, 3.8 and 3.9, and docs/variants.md (our chosen
 * folk rules of the Russian row and Hoogland). Nothing here is taken from the
 * library's generator.
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
 * Hoogland (killer-modern-hoogland.md section 4, docs/variants.md):
 * International, and a king may also capture an enemy KING along a rank or
 * file with the Frisian geometry (flying: empty squares, exactly one enemy
 * king, any empty square beyond); never a man that way; men never capture
 * orthogonally; majority by piece count; the two kinds of jump mix freely
 * (decision 1), jumped pieces block until the move ends (decision 3).
 * Switches: REF_HOOG_KINGS_ONLY (orthogonal jumps only while the board holds
 * kings only), REF_HOOG_FIRST_JUMP (an orthogonal jump only as the first jump
 * of a capture; later jumps diagonal).
 *
 * The Russian row (docs/variants.md): Spantsiretti is Russian on 10 files x
 * 8 ranks; russian-giveaway and russian-diagonal generate as Russian (goal and
 * start position differ); russian-northern turns a captured king into a man
 * of its colour when the move ends (in play()); samoyed jumps pieces of either
 * colour; stavropol lets the side to move move a piece of either colour by that
 * colour's rules, capture compulsory over both colours; russian-two-move makes
 * each turn two moves (perft only: ref_perft_two_move).
 *
 * Turkish (variants.md table 1, perft.md 3.9): all 64 cells, orthogonal play.
 * Men step forward or sideways and capture forward or sideways over an
 * adjacent piece; kings fly along ranks and files. Captured pieces leave the
 * board at once (squares may be crossed again), a 180-degree turn between two
 * jumps is illegal, majority (every piece 1). A man reaching the far row
 * during a capture stays a man (crowned if the move ends there), or with
 * REF_TURKISH_PROMOTE_CONTINUE is crowned at once and goes on as a king.
 * Both give the kish perft numbers of perft.md 3.9 to depth 9; kish's own
 * source crowns only at the end, hence the default. Those numbers also need
 * the keep convention to count a king that goes on straight from each of its
 * landing squares as a separate path (keep_landings).
 *
 * Thai (variants.md table 1, perft.md 3.8; dctl's rule traits for thai:
 * flying kings, men jump forward only, "land behind piece", "passing capture",
 * which there also allows a king to reverse): men move and capture forward
 * only; a king moves flying, and when capturing it may approach from any
 * distance but lands on the square right behind the captured piece; captured
 * pieces leave at once; free choice; a man reaching the far row is crowned
 * when the move ends (it cannot go on capturing forward from there anyway).
 * perft.md 3.8's numbers are reproduced from the three-row start
 * W:W21-32:B1-12 (dctl's test position), not from the two-row game start.
 *
 * Representation: board[row][col], row 0 at the top as White sees the board,
 * col 0 at the left. On the normal boards cell (0,0) is not playable, so the
 * playable cells are those with row + col odd; on the mirrored boards
 * (Italian, Spanish, Portuguese: the bottom-left corner is not playable) cell
 * (0,0) is playable and the playable cells have row + col even; on the Turkish
 * board every cell is playable. Boards have `rows` rows and `cols` columns
 * (10 x 8 cells for Spantsiretti: 8 rows of 10). Square numbers run 1..N over
 * the playable cells row by row, left to right, from the top-left playable
 * cell. White men move up (row decreasing), Black men down.
 *
 * Speed is not a goal: every question is answered by direct loops over the
 * board and by plain depth-first search over capture sequences.
 */
#include "refgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refgen_board.h"

/* ------------------------------------------------------------ moves */

typedef struct {
    int from, to;                /* square numbers */
    int ncap;                    /* pieces captured */
    int caps[MAXCAP];            /* captured squares in the order they were jumped */
    int turns[MAXCAP];           /* after jump i: the square where the piece turned to make jump
                                    i + 1, 0 where it went on straight (and after the last jump);
                                    with keep_landings (Turkish) the landing square of every jump
                                    but the last */
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

/* May a piece of `side` jump piece p? Samoyed: a piece of either colour; else an enemy piece. */
static bool jumpable(const variant_t *v, int side, int p)
{
    if (v->folk == FOLK_SAMOYED)
        return rg_colour_of(p) >= 0;
    return rg_colour_of(p) == 1 - side;
}

/*
 * All jumps of a piece of `side` standing (conceptually) on (r,c), a king if
 * `king`, as jump number ncap + 1 of its capture, the previous jump (if any)
 * having gone in direction prev_dir (-1: none). `cap` marks pieces already
 * jumped in this sequence: they stay on the board (they block) but cannot be
 * jumped again (in the variants where captured pieces leave at once the caller
 * empties their cells instead). Only EMPTY cells are free; the caller empties
 * the moving piece's start square.
 */
static int find_jumps(const variant_t *v, const board_t *b, bool cap[MAXN][MAXN], int side, int r,
                      int c, bool king, int ncap, int prev_dir, jump_t out[NDIRS])
{
    int nj = 0;
    bool fly = king && v->flying;
    int dirs[NDIRS];
    int nd = rg_capture_dirs(v, king, dirs);
    for (int i = 0; i < nd; i++) {
        int d = dirs[i];
        /* men without backward captures: forward diagonals, forward and sideways orthogonals */
        if (!king && !v->men_backward && DR[d] != 2 * rg_forward_dr(side) &&
            DR[d] != rg_forward_dr(side) && DR[d] != 0)
            continue;
        /* Turkish: no 180-degree turn between two jumps */
        if (v->no_reverse && prev_dir >= 0 && d == rg_opposite_dir(prev_dir))
            continue;
        /* Hoogland: an orthogonal jump is a king's, over a king; the switches restrict it */
        bool hoog = v->hoogland && rg_dark_ortho_dir(d);
        if (hoog) {
            if (!king)
                continue;
            if ((v->hoog & REF_HOOG_FIRST_JUMP) && ncap > 0)
                continue;
            if ((v->hoog & REF_HOOG_KINGS_ONLY) && (rg_has_men(b, WHITE) || rg_has_men(b, BLACK)))
                continue;
        }
        int rr = r + DR[d], cc = c + DC[d];
        if (fly)
            while (rg_on_board(b, rr, cc) && b->c[rr][cc] == EMPTY) {
                rr += DR[d];
                cc += DC[d];
            }
        if (!rg_on_board(b, rr, cc))
            continue;
        int p = b->c[rr][cc];
        if (!jumpable(v, side, p) || cap[rr][cc])
            continue;
        if (!king && !v->men_take_kings && rg_is_king(p))
            continue;
        if (hoog && !rg_is_king(p))
            continue;
        jump_t *j = &out[nj];
        j->dir = d;
        j->cr = rr;
        j->cc = cc;
        j->nland = 0;
        int lr = rr + DR[d], lc = cc + DC[d];
        while (rg_on_board(b, lr, lc) && b->c[lr][lc] == EMPTY) {
            j->lr[j->nland] = lr;
            j->lc[j->nland] = lc;
            j->nland++;
            if (!fly || v->land_behind)
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
static bool king_after_landing(const variant_t *v, const board_t *b, int side, bool king, int lr)
{
    return king || (v->promo == PROMO_CONTINUE && lr == rg_far_row(b, side));
}

/* Does the capture end there (English and the other forward-capture variants:
   a man that reaches the far row ends its move)? */
static bool stops_after_landing(const variant_t *v, const board_t *b, int side, bool king, int lr)
{
    return !king && v->promo == PROMO_STOP && lr == rg_far_row(b, side);
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

static bool can_continue(cctx *x, int r, int c, bool king, int prev_dir)
{
    jump_t j[NDIRS];
    return find_jumps(x->v, &x->b, x->cap, x->side, r, c, king, x->ncap, prev_dir, j) > 0;
}

static void record(cctx *x, int r, int c, bool king)
{
    move_t m;
    memset(&m, 0, sizeof m);
    m.from = x->from;
    m.to = rg_sq_of(&x->b, r, c);
    m.ncap = x->ncap;
    memcpy(m.caps, x->caps, sizeof(int) * (size_t)x->ncap);
    memcpy(m.kinds, x->kinds, (size_t)x->ncap);
    for (int i = 0; i + 1 < x->ncap; i++)
        m.turns[i] = (x->v->keep_landings || x->dirs[i + 1] != x->dirs[i]) ? x->lands[i] : 0;
    m.with_king = x->start_king;
    m.ends_king = king || r == rg_far_row(&x->b, x->side);
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
 * rule keeps only the square right behind the last captured piece). In the
 * variants where captured pieces leave at once (Turkish, Thai) the jumped
 * piece's cell is emptied for the rest of the search instead of being marked.
 */
static void explore(cctx *x, int r, int c, bool king, int prev_dir)
{
    jump_t js[NDIRS];
    int nj = find_jumps(x->v, &x->b, x->cap, x->side, r, c, king, x->ncap, prev_dir, js);
    for (int k = 0; k < nj; k++) {
        jump_t *j = &js[k];
        int p = x->b.c[j->cr][j->cc];
        if (x->v->remove_now)
            x->b.c[j->cr][j->cc] = EMPTY;
        else
            x->cap[j->cr][j->cc] = true;
        x->caps[x->ncap] = rg_sq_of(&x->b, j->cr, j->cc);
        x->dirs[x->ncap] = j->dir;
        x->kinds[x->ncap] = rg_is_king(p) ? 1 : 0;
        x->ncap++;
        bool cont[MAXN], nk[MAXN], any = false;
        for (int l = 0; l < j->nland; l++) {
            nk[l] = king_after_landing(x->v, &x->b, x->side, king, j->lr[l]);
            cont[l] = !stops_after_landing(x->v, &x->b, x->side, king, j->lr[l]) &&
                      can_continue(x, j->lr[l], j->lc[l], nk[l], j->dir);
            any = any || cont[l];
        }
        if (any) {
            for (int l = 0; l < j->nland; l++)
                if (cont[l]) {
                    x->lands[x->ncap - 1] = rg_sq_of(&x->b, j->lr[l], j->lc[l]);
                    explore(x, j->lr[l], j->lc[l], nk[l], j->dir);
                }
        } else {
            int nl = j->nland;
            if (king && halt_applies(x->v, rg_is_king(p), x->ncap))
                nl = 1; /* the square immediately beyond the last captured piece */
            for (int l = 0; l < nl; l++)
                record(x, j->lr[l], j->lc[l], nk[l]);
        }
        x->ncap--;
        if (x->v->remove_now)
            x->b.c[j->cr][j->cc] = (unsigned char)p;
        else
            x->cap[j->cr][j->cc] = false;
    }
}

/* All complete capture sequences of the pieces of `side` (normally the side to move), before
   precedence. */
static void all_captures(const variant_t *v, const board_t *b, int side, mvec_t *out)
{
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++) {
            int p = b->c[r][c];
            if (rg_colour_of(p) != side)
                continue;
            cctx *x = calloc(1, sizeof *x);
            if (!x) {
                out->oom = true;
                return;
            }
            x->v = v;
            x->b = *b;
            x->b.c[r][c] = EMPTY; /* the start square counts as empty */
            x->side = side;
            x->from = rg_sq_of(b, r, c);
            x->start_king = rg_is_king(p);
            x->out = out;
            explore(x, r, c, rg_is_king(p), -1);
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
   have "landed" anywhere between the two, which is one path; except in Turkish, where each of
   those landing squares makes its own path, as the kish numbers of perft.md 3.9 count them). */
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
    int nj = find_jumps(v, b, cap, side, r, c, king, 0, -1, js);
    for (int k = 0; k < nj; k++)
        if (js[k].cr == tr && js[k].cc == tc)
            return true;
    for (int k = 0; k < nj; k++) {
        jump_t *j = &js[k];
        bool found = false;
        cap[j->cr][j->cc] = true;
        for (int l = 0; l < j->nland && !found; l++) {
            if (stops_after_landing(v, b, side, king, j->lr[l]))
                continue;
            bool nk = king_after_landing(v, b, side, king, j->lr[l]);
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
    for (int r = 0; r < h->rows; r++)
        for (int c = 0; c < h->cols; c++) {
            int p = h->c[r][c];
            if (rg_colour_of(p) != enemy || (kings_only && !rg_is_king(p)))
                continue;
            board_t b = *h;
            b.c[r][c] = EMPTY; /* the capturer's own start square counts as empty */
            bool cap[MAXN][MAXN];
            memset(cap, 0, sizeof cap);
            if (track(v, &b, cap, enemy, r, c, rg_is_king(p), tr, tc))
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

/* The king-move limit (Frisian): a king that has made king_moves non-capturing moves in a row may
   not make another while its side still has men. */
static bool king_may_move(const variant_t *v, const board_t *b, int r, int c)
{
    int s = b->side;
    return !(v->king_moves && b->run.len[s] >= v->king_moves && b->run.sq[s] == rg_sq_of(b, r, c) &&
             rg_has_men(b, s));
}

static void add_quiet(mvec_t *out, const board_t *b, int side, int fr, int fc, int tr, int tc,
                      bool king)
{
    move_t m;
    memset(&m, 0, sizeof m);
    m.from = rg_sq_of(b, fr, fc);
    m.to = rg_sq_of(b, tr, tc);
    m.with_king = king;
    m.ends_king = king || tr == rg_far_row(b, side);
    mvec_push(out, &m);
}

/* The non-capturing moves of the pieces of `side` (normally the side to move). */
static void quiet_moves(const variant_t *v, unsigned flags, const board_t *b, int side, mvec_t *out)
{
    int dirs[NDIRS];
    int nd = rg_move_dirs(v, dirs);
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++) {
            int p = b->c[r][c];
            if (rg_colour_of(p) != side)
                continue;
            if (!rg_is_king(p)) {
                /* one step forward; on the Turkish board also sideways */
                for (int i = 0; i < nd; i++) {
                    int d = dirs[i];
                    if (DR[d] != rg_forward_dr(side) && !(v->geom == GEOM_ALL && DR[d] == 0))
                        continue;
                    int tr = r + DR[d], tc = c + DC[d];
                    if (rg_on_board(b, tr, tc) && b->c[tr][tc] == EMPTY)
                        add_quiet(out, b, side, r, c, tr, tc, false);
                }
                continue;
            }
            if (!king_may_move(v, b, r, c))
                continue;
            for (int i = 0; i < nd; i++) {
                int d = dirs[i];
                /* The empty squares P1, P2, ... along this line. */
                int pr[MAXN], pc[MAXN], np = 0;
                int tr = r + DR[d], tc = c + DC[d];
                while (rg_on_board(b, tr, tc) && b->c[tr][tc] == EMPTY) {
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
                        add_quiet(out, b, side, r, c, pr[j], pc[j], true);
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
                        add_quiet(out, b, side, r, c, pr[j], pc[j], true);
                    if (!passed_threat && j + 1 < np)
                        passed_threat = kt(v, b, flags, r, c, pr[j], pc[j]);
                }
            }
        }
}

/* ------------------------------------------------------------ generation */

/* All legal moves of b (structured). Returns false on memory exhaustion.
   Stavropol: the pieces of both colours, each by its own colour's rules, capture compulsory over
   both; nothing for a side without pieces of its own. */
static bool generate(const variant_t *v, unsigned flags, const board_t *b, mvec_t *out)
{
    out->n = 0;
    bool both = v->folk == FOLK_STAVROPOL;
    if (both && !rg_has_pieces(b, b->side))
        return !out->oom;
    for (int s = 0; s < 2; s++)
        if (s == b->side || both)
            all_captures(v, b, s, out);
    if (out->n > 0) {
        filter_precedence(v, out);
        remove_duplicates(out, (flags & REF_RULE_KEEP_DUPLICATES) != 0);
    } else {
        for (int s = 0; s < 2; s++)
            if (s == b->side || both)
                quiet_moves(v, flags, b, s, out);
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
    const variant_t *vv = rg_find_variant(variant);
    if (!vv) {
        rg_set_err(err, errlen, "unknown variant \"%s\"", variant ? variant : "(null)");
        return -1;
    }
    variant_t ev = rg_effective_variant(vv, flags);
    const variant_t *v = &ev;
    board_t b;
    if (rg_parse_fen(fen, v, &b, err, errlen) < 0)
        return -1;
    if (run)
        b.run = *run;
    mvec_t mv = {0};
    if (!generate(v, flags, &b, &mv)) {
        free(mv.m);
        rg_set_err(err, errlen, "out of memory");
        return -1;
    }
    if (mv.n > max) {
        rg_set_err(err, errlen, "more than max moves (%d)", mv.n);
        free(mv.m);
        return -1;
    }
    for (int i = 0; i < mv.n; i++) {
        int k = hub_string(&mv.m[i], out[i], REF_MOVE_LEN);
        if (k < 0 || k >= REF_MOVE_LEN) {
            rg_set_err(err, errlen, "move string too long (%d)", k);
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
   loses its counted king or its last man in the opponent's capture loses its count.
   The moving piece is crowned as a piece of its own colour (Stavropol: it may be the opponent's).
   Northern: a captured king stays, as a man of its colour. */
static void play(const variant_t *v, board_t *b, const move_t *m)
{
    int fr, fc, tr, tc;
    rg_rc_of(b, m->from, &fr, &fc);
    rg_rc_of(b, m->to, &tr, &tc);
    int p = b->c[fr][fc];
    bool king_move = rg_is_king(p);
    b->c[fr][fc] = EMPTY;
    for (int i = 0; i < m->ncap; i++) {
        int r, c;
        rg_rc_of(b, m->caps[i], &r, &c);
        int q = b->c[r][c];
        if (v->folk == FOLK_NORTHERN && rg_is_king(q))
            b->c[r][c] = rg_colour_of(q) == WHITE ? WMAN : BMAN;
        else
            b->c[r][c] = EMPTY;
    }
    if (m->ends_king)
        p = rg_colour_of(p) == WHITE ? WKING : BKING;
    b->c[tr][tc] = (unsigned char)p;
    int me = b->side, opp = 1 - me;
    if (v->king_moves) {
        if (king_move && m->ncap == 0 && rg_has_men(b, me)) {
            bool same = b->run.len[me] > 0 && b->run.sq[me] == m->from;
            b->run.len[me] = same ? b->run.len[me] + 1 : 1;
            b->run.sq[me] = m->to;
        } else {
            b->run.len[me] = b->run.sq[me] = 0;
        }
        if (b->run.len[opp]) {
            int r, c;
            rg_rc_of(b, b->run.sq[opp], &r, &c);
            if (b->c[r][c] != (opp == WHITE ? WKING : BKING) || !rg_has_men(b, opp))
                b->run.len[opp] = b->run.sq[opp] = 0;
        }
    }
    b->side = opp;
}

/* `second`: (two-move variant) the side to move has made the first move of its turn. */
static long long perft_rec(const variant_t *v, unsigned flags, const board_t *b, int depth,
                           bool second)
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
        bool two = v->folk == FOLK_TWO_MOVE;
        for (int i = 0; i < mv.n && total >= 0; i++) {
            board_t nb = *b;
            play(v, &nb, &mv.m[i]);
            if (two && !second)
                nb.side = b->side; /* the second move of the same turn */
            long long s = perft_rec(v, flags, &nb, depth - 1, two && !second);
            total = s < 0 ? -1 : total + s;
        }
    }
    free(mv.m);
    return total;
}

static long long perft_start(const char *variant, unsigned flags, const char *fen,
                             const ref_run *run, bool second, int depth, char *err, size_t errlen)
{
    const variant_t *vv = rg_find_variant(variant);
    if (!vv) {
        rg_set_err(err, errlen, "unknown variant \"%s\"", variant ? variant : "(null)");
        return -1;
    }
    variant_t ev = rg_effective_variant(vv, flags);
    const variant_t *v = &ev;
    board_t b;
    if (rg_parse_fen(fen, v, &b, err, errlen) < 0)
        return -1;
    if (run)
        b.run = *run;
    if (depth <= 0)
        return 1;
    long long r = perft_rec(v, flags, &b, depth, second && v->folk == FOLK_TWO_MOVE);
    if (r < 0)
        rg_set_err(err, errlen, "out of memory");
    return r;
}

long long ref_perft(const char *variant, unsigned flags, const char *fen, int depth, char *err,
                    size_t errlen)
{
    return perft_start(variant, flags, fen, NULL, false, depth, err, errlen);
}

long long ref_perft_run(const char *variant, unsigned flags, const char *fen, const ref_run *run,
                        int depth, char *err, size_t errlen)
{
    return perft_start(variant, flags, fen, run, false, depth, err, errlen);
}

long long ref_perft_two_move(const char *variant, unsigned flags, const char *fen, int second_move,
                             int depth, char *err, size_t errlen)
{
    return perft_start(variant, flags, fen, NULL, second_move != 0, depth, err, errlen);
}
