/*
 * eval.c -- static evaluation, per variant family, weights as data.
 *
 * Score: hundredths of a man, from the side to move's point of view.
 * Terms (each a weight in cd_eval_weights, so they can be tuned):
 *   material      men and kings; the king's value depends on the family
 *                 (a constitutional king is worth more: two beat one);
 *   advance       tempo: rows each man has advanced (development);
 *   centre        men on the central rows away from the side edges;
 *   back          men still guarding their own back row (stops breakthroughs);
 *   runaway       a man near promotion whose path forward is open;
 *   king endings  kings-only and king-vs-few endings: which of them are
 *                 wins in the family (Rule C and the halt rules make 2 or 3
 *                 kings beat a lone king; in International they draw), and
 *                 for constitutional the lone king's drawing squares
 *                 (the four edge squares that pair up: 1, 6, 45, 50 on 10x10,
 *                 the corner pairs on other boards).
 * Antidraughts inverts material; breakthrough values advance above all.
 *
 * Variants with a learned family (pattern.c: International, Constitutional, Killer, Modern,
 * Russian, Brazilian, and the constitutional rows of Russian and Brazilian) use the learned score
 * where the engine's cd_eval holds the family's weights (cd_engine_set_eval), with the same
 * lone-king scaling; this hand-set evaluation stays selectable per engine (option
 * "classic-eval").
 */
#include <stdlib.h>

#include "board.h"
#include "engine.h"
#include "net.h"
#include "pattern.h"

typedef struct cd_eval_weights {
    int man, king;
    int advance;    /* per row advanced, per man */
    int centre;     /* per man on the central rows, off the side edges */
    int back;       /* per man on its own back row while the opponent has men */
    int runaway;    /* per man on the last two rows before promotion with a free square ahead */
    int king_bonus; /* extra for the first king when the opponent has none */
    int kings_win;  /* lone king against this many kings (no men) is a win, 0: never */
    int drawn_div;  /* divisor for endings the family's rules make drawn */
} cd_eval_weights;

/* International family (10x10, 12x12): a king is worth about three men. */
static const cd_eval_weights w_intl = {100, 300, 3, 6, 5, 40, 50, 4, 8};
/* Killer, Modern, Constitutional: kings win endings, worth more. */
static const cd_eval_weights w_killer = {100, 350, 3, 6, 5, 40, 50, 2, 8};
static const cd_eval_weights w_const = {100, 400, 3, 6, 5, 40, 50, 2, 8};
/* 8x8 flying kings (Russian, Brazilian, Pool, Czech, Spanish). */
static const cd_eval_weights w_flying8 = {100, 250, 3, 5, 6, 40, 40, 3, 8};
static const cd_eval_weights w_const8 = {100, 330, 3, 5, 6, 40, 40, 2, 8};
/* Short kings (English, Italian). */
static const cd_eval_weights w_short = {100, 150, 2, 5, 8, 30, 20, 2, 4};

static const cd_eval_weights *weights_of(const cd_rules *r)
{
    int big = r->geometry != CD_GEOM_8X8;
    if (!(r->flags & CD_RULE_FLYING_KINGS))
        return &w_short;
    if (r->flags & CD_RULE_CONSTITUTIONAL)
        return big ? &w_const : &w_const8;
    if (r->halt != CD_HALT_NONE)
        return big ? &w_killer : &w_const8;
    return big ? &w_intl : &w_flying8;
}

/* Bits [lo, lo + n) of a two-word bitboard, n <= 8. */
static inline unsigned bits_at(const uint64_t bb[2], int lo, int n)
{
    uint64_t x;
    if (lo >= 64)
        x = bb[1] >> (lo - 64);
    else
        x = (bb[0] >> lo) | (lo ? bb[1] << (64 - lo) : 0);
    return (unsigned)(x & ((1u << n) - 1));
}

typedef struct side_stats {
    int men, kings;
    int advance, centre, back, runaway;
} side_stats;

static void stats(const cd_position *pos, int colour, side_stats *st)
{
    const cd_geom *g = cd_geom_of(pos->rules);
    const uint64_t *bb = colour == CD_WHITE ? pos->white : pos->black;
    uint64_t men[2] = {bb[0] & ~pos->kings[0], bb[1] & ~pos->kings[1]};
    uint64_t kings[2] = {bb[0] & pos->kings[0], bb[1] & pos->kings[1]};
    uint64_t all[2] = {pos->white[0] | pos->black[0], pos->white[1] | pos->black[1]};
    st->men = cd_bb_count(men);
    st->kings = cd_bb_count(kings);
    st->advance = st->centre = st->back = st->runaway = 0;
    int h = g->height, half = g->half;
    for (int row = 0; row < h; row++) {
        int lo = row * half + row / 2;
        unsigned m = bits_at(men, lo, half);
        if (!m)
            continue;
        int n = __builtin_popcount(m);
        /* rows advanced from the own back row */
        int adv = colour == CD_WHITE ? h - 1 - row : row;
        st->advance += n * adv;
        if (adv == 0)
            st->back += n;
        if (row >= h / 2 - 2 && row <= h / 2 + 1) {
            /* odd rows start at the left edge, even rows end at the right edge */
            unsigned edge = (row & 1) ? 1u : 1u << (half - 1);
            st->centre += __builtin_popcount(m & ~edge);
        }
        int togo = h - 1 - adv;
        if (togo <= 2) {
            /* the square(s) in front: the next row towards promotion */
            int next = colour == CD_WHITE ? row - 1 : row + 1;
            unsigned ahead = bits_at(all, next * half + next / 2, half);
            for (unsigned x = m; x; x &= x - 1) {
                int k = __builtin_ctz(x);
                /* forward neighbours in the next row: k and k-1 on odd rows, k and k+1 on even */
                int k2 = (row & 1) ? k - 1 : k + 1;
                int free = !(ahead >> k & 1) || (k2 >= 0 && k2 < half && !(ahead >> k2 & 1));
                if (free)
                    st->runaway += 3 - togo;
            }
        }
    }
}

/* The lone king's drawing squares in a constitutional ending: the two
 * double-corner pairs at the ends of the double diagonal (1, 6 and 45, 50 on
 * 10x10). In numbering: squares half+... computed from the geometry. */
static int on_drawing_square(const cd_position *pos, int colour)
{
    const cd_geom *g = cd_geom_of(pos->rules);
    const uint64_t *bb = colour == CD_WHITE ? pos->white : pos->black;
    int n = g->squares, half = g->half;
    int sq[4] = {1, half + 1, n - half, n};
    for (int i = 0; i < 4; i++) {
        int bit = cd_bit_of_internal(g, sq[i]);
        if (cd_bb_test(bb, bit) && cd_bb_test(pos->kings, bit))
            return 1;
    }
    return 0;
}

/*
 * Turkish draughts (the full 8x8 board, every cell a square, bit = row * 8 + col): its own small
 * evaluation. Material (a man 100, a flying orthogonal king 300), advance (rows from the start
 * rows, more near promotion), men on the four central files, and a runaway bonus for a man on the
 * last two rows before promotion whose square ahead is free; endings with kings only and at most
 * one king more are scored down (the lone king runs along the open lines).
 */
static int eval_turkish(const cd_position *pos)
{
    static const int adv[8] = {0, 0, 0, 4, 10, 18, 30, 0}; /* by rows advanced from rank 1 */
    uint64_t w = pos->white[0], b = pos->black[0], k = pos->kings[0];
    uint64_t occ = w | b;
    int score = 0, men[2], kings[2];
    for (int c = 0; c < 2; c++) {
        men[c] = __builtin_popcountll((c == CD_WHITE ? w : b) & ~k);
        kings[c] = __builtin_popcountll((c == CD_WHITE ? w : b) & k);
    }
    for (int c = 0; c < 2; c++) {
        uint64_t m = (c == CD_WHITE ? w : b) & ~k;
        int t = men[c] * 100 + kings[c] * 300;
        for (uint64_t x = m; x; x &= x - 1) {
            int bit = __builtin_ctzll(x), row = bit / 8, col = bit % 8;
            int ranks = c == CD_WHITE ? 7 - row : row; /* 0 on the own back row */
            t += adv[ranks];
            if (col >= 2 && col <= 5)
                t += 4;
            int ahead = c == CD_WHITE ? bit - 8 : bit + 8;
            if (ranks >= 5 && !(occ >> ahead & 1))
                t += ranks == 6 ? 40 : 15;
        }
        if (kings[c] && !kings[c ^ 1])
            t += 50;
        score += c == CD_WHITE ? t : -t;
    }
    if (!men[0] && !men[1] && kings[0] && kings[1] && abs(kings[0] - kings[1]) <= 1)
        score /= 4;
    return score;
}

/* Endings with a lone king against kings: the family's rules make the small ones drawn (scaled
 * down by drawn_div) or won; in constitutional 1 against 1 the defender holds on the drawing
 * squares. Applied to the hand-set and to the learned score alike. */
static int scale_lone_king(const cd_position *pos, const cd_eval_weights *w, const side_stats s[2],
                           int score)
{
    for (int c = 0; c < 2; c++) {
        int opp = c ^ 1;
        if (s[c].men || s[c].kings != 1 || !s[opp].kings)
            continue;
        int strong = s[opp].men + s[opp].kings;
        int wins = w->kings_win && strong >= w->kings_win;
        if (!wins && strong <= 3) {
            score /= w->drawn_div;
        } else if (wins && (pos->rules->flags & CD_RULE_CONSTITUTIONAL) && strong == 1 &&
                   on_drawing_square(pos, c)) {
            score /= 2;
        }
    }
    return score;
}

int cd_eval_classic_white(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    if (r->geometry == CD_GEOM_8X8_FULL)
        return eval_turkish(pos);
    const cd_eval_weights *w = weights_of(r);
    side_stats s[2];
    stats(pos, CD_WHITE, &s[0]);
    stats(pos, CD_BLACK, &s[1]);
    int mat[2];
    for (int c = 0; c < 2; c++)
        mat[c] = s[c].men * w->man + s[c].kings * w->king;

    if (r->goal == CD_GOAL_LOSING)
        return (mat[1] - mat[0]) + 2 * (s[0].advance - s[1].advance);
    if (r->goal == CD_GOAL_BREAKTHROUGH)
        return (mat[0] - mat[1]) / 2 + 10 * (s[0].advance - s[1].advance) +
               60 * (s[0].runaway - s[1].runaway);

    int score = mat[0] - mat[1];
    for (int c = 0; c < 2; c++) {
        int sign = c == CD_WHITE ? 1 : -1;
        int opp = c ^ 1;
        int t = s[c].advance * w->advance + s[c].centre * w->centre + s[c].runaway * w->runaway;
        if (s[opp].men)
            t += s[c].back * w->back;
        if (s[c].kings && !s[opp].kings)
            t += w->king_bonus;
        score += sign * t;
    }
    return scale_lone_king(pos, w, s, score);
}

/* Men and kings of each side (the other fields of side_stats are left alone). */
static void count_pieces(const cd_position *pos, side_stats s[2])
{
    for (int c = 0; c < 2; c++) {
        const uint64_t *bb = c == CD_WHITE ? pos->white : pos->black;
        uint64_t k[2] = {bb[0] & pos->kings[0], bb[1] & pos->kings[1]};
        s[c].kings = cd_bb_count(k);
        s[c].men = cd_bb_count(bb) - s[c].kings;
    }
}

/* The learned score, White's view, of weights pw (not NULL) with the lone-king scaling; with
 * net, the network stacked on the weights (net.h) adds its correction when there is one. */
static int learned_white(const cd_pattern_weights *pw, const cd_position *pos, int net,
                         cd_net_cache *nc)
{
    int score = cd_pattern_eval_white(pw, pos);
    if (net && pw->net) {
        int d = nc ? cd_net_eval_cached(pw->net, pos, nc) : cd_net_eval(pw->net, pos);
        score += pos->side == CD_WHITE ? d : -d;
    }
    if (!cd_bb_count(pos->kings))
        return score;
    /* a lone king against kings: the same scaling as the hand-set evaluation */
    side_stats s[2];
    count_pieces(pos, s);
    return scale_lone_king(pos, weights_of(pos->rules), s, score);
}

int cd_evaluate(const cd_eval *ev, const cd_position *pos)
{
    const cd_pattern_weights *pw = cd_eval_for(ev, pos->rules);
    int s = pw ? learned_white(pw, pos, 1, NULL) : cd_eval_classic_white(pos);
    return pos->side == CD_WHITE ? s : -s;
}

/* Drawish material for the learned score (engine option "drawscale"): the side ahead is scored
 * down when the other side has a king and (a) where a lone king never loses to kings
 * (International), the side ahead has at most 3 pieces: divided by 8, or (b) the side ahead has
 * at most one king and two pieces more (which includes as many kings and men at most one apart,
 * the case before step 30): halved. A lone king is left to scale_lone_king. */
static int scale_drawish(const cd_position *pos, int score)
{
    if (!score || !cd_bb_count(pos->kings))
        return score;
    side_stats s[2];
    count_pieces(pos, s);
    int a = score > 0 ? CD_WHITE : CD_BLACK, b = a ^ 1;
    if (!s[b].kings || (s[b].kings == 1 && !s[b].men))
        return score;
    if (!weights_of(pos->rules)->kings_win && s[a].men + s[a].kings <= 3)
        return score / 8;
    int more = s[a].men + s[a].kings - s[b].men - s[b].kings;
    if (s[a].kings <= s[b].kings + 1 && more <= 2)
        return score / 2;
    return score;
}

int cd_engine_evaluate_with(const cd_engine *e, const cd_pattern_weights *pw,
                            const cd_position *pos, cd_net_cache *nc)
{
    int s;
    if (e->use_classic_eval || !pw)
        s = cd_eval_classic_white(pos);
    else {
        s = learned_white(pw, pos, e->use_net, nc);
        /* "drawscale" 2 (the default): on where the family's layout says so (pattern.c): the
         * 8x8 families (Russian, where it measured +15 [+4, +25] at 20,000 nodes, and those
         * begun from it; in russian-constitutional switching it off measured -26 [-52, -0]) and
         * International (+17 [+7, +28] at 300,000 nodes a move); off with the other 10x10
         * families, not measured since International's -17 [-42, +7] at 20,000 nodes */
        if (e->use_drawscale == 1 || (e->use_drawscale == 2 && pw->layout.drawscale))
            s = scale_drawish(pos, s);
    }
    return pos->side == CD_WHITE ? s : -s;
}

int cd_engine_evaluate(const cd_engine *e, const cd_position *pos)
{
    return cd_engine_evaluate_with(e, cd_eval_for(e->eval, pos->rules), pos, NULL);
}
