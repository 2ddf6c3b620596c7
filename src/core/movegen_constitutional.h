/*
 * movegen_constitutional.h -- part of the move generator's body (movegen_body.h, which includes
 * it where it stands, after the captures, and defines the instance's macros): Rule C, the
 * constitutional king filter of quiet king moves (zones, threatened and sacrifice squares).
 * Not a header of its own: it is only ever included by movegen_body.h.
 */

/*
 * Rule C (../shared/rules/constitutional.md section 2). For a king of the side
 * to move on O, compute the sets KT (king-threatened) and SAC (sacrifice
 * squares) over the empty squares, each judged in H(X): the king lifted from O
 * and put on X.
 *
 * Fast path (pure bitboards): if the enemy pieces that count have no capture
 * at all in the position without our king, every enemy capture track in H(X)
 * must start by jumping X (adding our king on X cannot enable a jump over
 * another piece; it only removes empty squares), so "capturable" is the direct
 * one-jump test: enemy king on X's diagonal with a clear path and an empty
 * square behind X, or an enemy man next to X with an empty square behind.
 * Otherwise an exact track search per candidate square (F(track_hits)).
 */
typedef struct F(tctx) {
    const cd_rules *r;
    BB victims, vman, empty, target, promo;
    int mandirs, flying;
} F(tctx);

/* Does some capture track of the piece on sq (king or man) jump t->target? */
static CD_RECURSIVE int F(track_hits)(const F(tctx) * t, BB sq, int king, BB cap)
{
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (king) {
            BB x = F(sh)(sq, d);
            if (t->flying)
                while (x & t->empty)
                    x = F(sh)(x, d);
            if (!(x & t->victims & ~cap))
                continue;
            BB land = F(sh)(x, d) & t->empty;
            if (!land)
                continue;
            if (x == t->target)
                return 1;
            for (BB l = land; l; l = t->flying ? F(sh)(l, d) & t->empty : 0)
                if (F(track_hits)(t, l, 1, cap | x))
                    return 1;
        } else {
            if (!(t->mandirs >> d & 1))
                continue;
            BB over = F(sh)(sq, d) & t->vman & ~cap;
            BB land = F(sh)(over, d) & t->empty;
            if (!over || !land)
                continue;
            if (over == t->target)
                return 1;
            if (land & t->promo) {
                if (t->r->promotion == CD_PROMO_STOP)
                    continue;
                if (t->r->promotion == CD_PROMO_CONTINUE) {
                    if (F(track_hits)(t, land, 1, cap | over))
                        return 1;
                    continue;
                }
            }
            if (F(track_hits)(t, land, 0, cap | over))
                return 1;
        }
    }
    return 0;
}

/* Direct one-jump capturability of every empty square, by kings and by men. */
static void F(direct_threats)(const cd_rules *r, BB ekings, BB emen, BB empty, int emandirs,
                              BB *bykings, BB *bymen)
{
    BB kt = 0, mt = 0;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        BB behind = F(sh)(empty, 3 - d); /* squares whose d-neighbour is empty */
        BB reach = flying ? F(slide)(ekings, empty, d) : F(sh)(ekings, d) & empty;
        kt |= reach & behind;
        if (emandirs >> d & 1)
            mt |= F(sh)(emen, d) & empty & behind;
    }
    *bykings = kt;
    *bymen = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? mt : 0;
}

/* Rule C state for one of our kings on O: the direct sets, and the enemy
 * pieces that have a capture without our king (only they can have a track
 * that jumps X after another piece, so only they need the exact search). */
typedef struct F(con) {
    BB kt, sac;  /* direct one-jump threats by kings (+ men where they count) */
    BB kjump;    /* enemy kings with a capture in the position without our king */
    BB mjump;    /* enemy men likewise (only when men count) */
    BB ours;     /* our pieces the enemy may jump, without the moving king */
    BB ourkings; /* those of them that are kings */
    int men_obstruct, men_sacrifice;
    F(tctx) t;
} F(con);

static void F(con_init)(const cd_position *pos, BB o, F(con) * c)
{
    const cd_rules *r = pos->rules;
    unsigned fl = r->flags;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB occ = (w | b) & ~o;
    if (fl & CD_CON_ORIGIN_OCCUPIED)
        occ |= o; /* the origin stays a blocker that cannot be jumped */
    BB empty = ALLM & ~occ;
    BB ekings = opp & k, emen = opp & ~k;
    int emandirs = F(man_dirs)(r, pos->side ^ 1);
    int flying = (fl & CD_RULE_FLYING_KINGS) != 0;
    c->men_obstruct = (fl & CD_CON_OBSTRUCT_BY_MEN) != 0;
    c->men_sacrifice = !(fl & CD_CON_SAC_KINGS_ONLY);
    c->ours = own & ~o;
    c->ourkings = c->ours & k;
    BB vman = (fl & CD_RULE_MEN_TAKE_KINGS) ? c->ours : c->ours & ~k;
    BB bk, bm;
    F(direct_threats)(r, ekings, emen, empty, emandirs, &bk, &bm);
    c->kt = c->men_obstruct ? bk | bm : bk;
    c->sac = c->men_sacrifice ? bk | bm : bk;
    c->kjump = 0;
    for (BB e = ekings; e; e &= e - 1)
        if (F(king_can_jump)(e & (~e + 1), c->ours, empty, flying, 15))
            c->kjump |= e & (~e + 1);
    c->mjump =
        (c->men_obstruct || c->men_sacrifice) ? F(man_jumpers)(emen, vman, empty, emandirs) : 0;
    c->t.r = r;
    c->t.promo = pos->side == CD_WHITE ? BOTM : TOPM; /* the enemy's promotion row */
    c->t.mandirs = emandirs;
    c->t.flying = flying;
    c->t.empty = empty;
}

/* Exact test: can one of the enemy pieces `kings`/`men` jump our king put on x?
 * Each attacker's own start square counts as empty during its track. */
static int F(con_exact)(const F(con) * c, BB x, BB kings, BB men)
{
    F(tctx) t = c->t;
    t.target = x;
    t.victims = c->ours | x;
    t.vman = (t.r->flags & CD_RULE_MEN_TAKE_KINGS) ? c->ours | x : c->ours & ~c->ourkings;
    BB empty = t.empty & ~x;
    for (; kings; kings &= kings - 1) {
        BB a = kings & (~kings + 1);
        t.empty = empty | a;
        if (F(track_hits)(&t, a, 1, 0))
            return 1;
    }
    for (; men; men &= men - 1) {
        BB a = men & (~men + 1);
        t.empty = empty | a;
        if (F(track_hits)(&t, a, 0, 0))
            return 1;
    }
    return 0;
}

static inline int F(con_kt)(const F(con) * c, BB x)
{
    if (x & c->kt)
        return 1;
    BB men = c->men_obstruct ? c->mjump : 0;
    return (c->kjump | men) && F(con_exact)(c, x, c->kjump, men);
}

static inline int F(con_sac)(const F(con) * c, BB x)
{
    if (x & c->sac)
        return 1;
    BB men = c->men_sacrifice ? c->mjump : 0;
    return (c->kjump | men) && F(con_exact)(c, x, c->kjump, men);
}
