/*
 * movegen_body.h -- the move generator, compiled once per board geometry.
 *
 * Included by movegen.c with these macros defined:
 *   GN    name suffix (8x8, 10x10, ...)       BB    bitboard type
 *   HALF  playable squares per row (W / 2)    ALLM  mask of playable bits
 *   TOPM  top row (White's promotion row)     BOTM  bottom row (Black's)
 *   LOADBB(a)  build a BB from a uint64_t[2]  BBCTZ(x), BBPOP(x)
 *   BB_BITS    64 or 128
 * Directions: 0 up-left, 1 up-right, 2 down-left, 3 down-right; 3 - d is the
 * opposite of d. A shifted bitboard may carry ghost bits; every use ANDs it
 * with a subset of ALLM (empty, victims, ...) before shifting again.
 */

#define CAT2(a, b) a##_##b
#define CAT(a, b)  CAT2(a, b)
#define F(name)    CAT(name, GN)

#if BB_BITS == 64
/* A rotation instead of a shift: the bits that wrap round land above the
 * board (every board here uses fewer than 57 bits), where every caller masks
 * them off, and a rotation by a table value needs no branch on d. */
static inline BB F(sh)(BB x, int d)
{
    static const int rot[4] = {64 - (HALF + 1), 64 - HALF, HALF, HALF + 1};
    int s = rot[d];
    return (x << s) | (x >> ((64 - s) & 63));
}
#else
static inline BB F(sh)(BB x, int d)
{
    switch (d) {
    case 0: return x >> (HALF + 1);
    case 1: return x >> HALF;
    case 2: return x << HALF;
    default: return x << (HALF + 1);
    }
}
#endif

static inline void F(store)(BB x, uint64_t out[2])
{
    out[0] = (uint64_t)x;
    out[1] = (uint64_t)(x >> 32 >> 32);
}

/* Squares reachable from `from` sliding in direction d over `empty` (excluding from). */
static inline BB F(slide)(BB from, BB empty, int d)
{
    BB r = 0, x = F(sh)(from, d) & empty;
    while (x) {
        r |= x;
        x = F(sh)(x, d) & empty;
    }
    return r;
}

/* ------------------------------------------------------------------ captures */

typedef struct F(ctx) {
    cd_movelist *list;
    const cd_rules *r;
    BB opp;        /* enemy pieces (all may be jumped by a king) */
    BB vman;       /* enemy pieces a man may jump */
    BB oppk;       /* enemy kings */
    BB empty;      /* empty squares, the mover's origin included */
    BB promo;      /* the mover's promotion row */
    int mandirs;   /* bit d set: men capture in direction d */
    int from;      /* origin bit index */
    int best;      /* best precedence rank so far, -1 if no capture yet */
    int king;      /* the moving piece started as a king */
    int counting;  /* only the number of moves is wanted (bulk counting) */
    int uncounted; /* moves counted but not stored (counting mode) */
    int flying;
    /* path recovery (notation): record the path of the capture equal to *want */
    const cd_move *want;
    int *path_out, *pathlen_out;
    int path[CD_MAX_PATH];
} F(ctx);

static void F(add_capture)(F(ctx) * c, BB to, BB cap, int n, int nk, unsigned order, int promotes)
{
    int rank;
    switch (c->r->precedence) {
    case CD_PREC_MAJORITY: rank = n; break;
    case CD_PREC_SPANISH: rank = n * 64 + nk; break;
    case CD_PREC_ITALIAN: rank = (n << 24) | (c->king << 23) | (nk << 18) | (int)order; break;
    case CD_PREC_CZECH: rank = c->king; break;
    default: rank = 0; break;
    }
    cd_movelist *l = c->list;
    if (rank < c->best)
        return;
    if (rank > c->best) {
        l->count = 0;
        c->uncounted = 0;
        c->best = rank;
    }
    if (c->counting && (n < 3 || (c->r->flags & CD_RULE_KEEP_DUPLICATES))) {
        c->uncounted++; /* counting only, and no duplicate is possible: no need to store it */
        return;
    }
    cd_move m;
    m.captured = (uint64_t)cap;
    m.captured_hi = (uint16_t)(cap >> 32 >> 32);
    m.from = (uint8_t)c->from;
    m.to = (uint8_t)BBCTZ(to);
    m.ncaptured = (uint8_t)n;
    m.flags = (uint8_t)((promotes ? CD_MOVE_PROMOTES : 0) | (c->king ? CD_MOVE_KING : 0));
    m.reserved = 0;
    if (c->want && c->path_out && *c->pathlen_out == 0 && cd_move_equal(&m, c->want)) {
        int len = n < CD_MAX_PATH ? n : CD_MAX_PATH;
        for (int i = 0; i < len; i++)
            c->path_out[i] = c->path[i];
        *c->pathlen_out = len;
    }
    if (n >= 3 && !(c->r->flags & CD_RULE_KEEP_DUPLICATES)) {
        for (int i = 0; i < l->count; i++)
            if (cd_move_equal(&l->moves[i], &m))
                return;
    }
    if (l->count >= CD_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    l->moves[l->count++] = m;
}

static int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order, int promoted,
                        int dirs);

/* Jumps of a man standing on sq. Returns 1 if it can jump at all; the caller
 * adds the move ending on sq when it cannot. */
static int F(man_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order)
{
    int found = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!(c->mandirs >> d & 1))
            continue;
        BB over = F(sh)(sq, d) & c->vman & ~cap;
        if (!over)
            continue;
        BB land = F(sh)(over, d) & c->empty;
        if (!land)
            continue;
        found = 1;
        int k = (over & c->oppk) != 0;
        unsigned ord = order | (k && n < 16 ? 1u << (15 - n) : 0u);
        BB cap2 = cap | over;
        if (n < CD_MAX_PATH)
            c->path[n] = BBCTZ(land);
        if (land & c->promo) {
            if (c->r->promotion == CD_PROMO_CONTINUE) {
                if (!F(king_caps)(c, land, cap2, n + 1, nk + k, ord, 1, 15))
                    F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
                continue;
            }
            if (c->r->promotion == CD_PROMO_STOP) {
                F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
                continue;
            }
            if (!F(man_caps)(c, land, cap2, n + 1, nk + k, ord))
                F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
            continue;
        }
        if (!F(man_caps)(c, land, cap2, n + 1, nk + k, ord))
            F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 0);
    }
    return found;
}

/* Jumps of a king standing on sq, in the directions of the mask `dirs`.
 * Returns 1 if it can jump at all. For each jump, landing squares from which
 * the capture continues are taken; if none continues, every landing square
 * ends the move (only the first one under a halt rule that applies).
 * From a landing square the king turns to the two perpendicular directions;
 * going on straight is tried once, from the last landing square (from every
 * landing square it reaches the same next piece: trying it from each would
 * list one capture several times). Going back is blocked by the piece just
 * jumped. */
static int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order, int promoted,
                        int dirs)
{
    int found = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(sq, d);
        if (c->flying)
            while (x & c->empty)
                x = F(sh)(x, d);
        if (!(x & c->opp & ~cap))
            continue;
        BB land = F(sh)(x, d) & c->empty;
        if (!land)
            continue;
        found = 1;
        int k = (x & c->oppk) != 0;
        unsigned ord = order | (k && n < 16 ? 1u << (15 - n) : 0u);
        BB cap2 = cap | x;
        int more = 0, perp = (d == 0 || d == 3) ? 6 : 9; /* the two other diagonals */
        for (BB l = land; l; l = c->flying ? F(sh)(l, d) & c->empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            BB next = c->flying ? F(sh)(l, d) & c->empty : 0;
            more |=
                F(king_caps)(c, l, cap2, n + 1, nk + k, ord, promoted, next ? perp : perp | 1 << d);
        }
        if (more)
            continue;
        int halt = k && (c->r->halt == CD_HALT_KILLER || (c->r->halt == CD_HALT_MODERN && n >= 1));
        for (BB l = land; l; l = c->flying ? F(sh)(l, d) & c->empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            F(add_capture)(c, l, cap2, n + 1, nk + k, ord, promoted);
            if (halt)
                break;
        }
    }
    return found;
}

/* Men of `men` that have a jump (bitboard test, no search). */
static inline BB F(man_jumpers)(BB men, BB victims, BB empty, int dirs)
{
    BB r = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++)
        if (dirs >> d & 1)
            r |= men & F(sh)(victims & F(sh)(empty, 3 - d), 3 - d);
    return r;
}

/* Does any king of `kings` have a jump? */
static inline int F(king_can_jump)(BB kings, BB victims, BB empty, int flying)
{
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        BB x = F(sh)(kings, d);
        if (flying) {
            BB f = x & empty;
            while (f) {
                x |= F(sh)(f, d);
                f = F(sh)(f, d) & empty;
            }
        }
        if (x & victims & F(sh)(empty, 3 - d))
            return 1;
    }
    return 0;
}

static inline int F(man_dirs)(const cd_rules *r, int side)
{
    if (r->flags & CD_RULE_MEN_BACKWARD)
        return 15;
    return side == CD_WHITE ? 3 : 12;
}

/* Generate all captures of the side to move into list; returns their number (0: none).
 * With `counting`, only captures that could have duplicates are stored. */
static int F(gen_captures)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                           int *path, int *pathlen, int counting)
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    int mandirs = F(man_dirs)(r, pos->side);
    BB men = F(man_jumpers)(own & ~k, vman, empty, mandirs);
    BB kings = own & k;
    list->count = 0;
    list->overflow = 0;
    if (!men && !kings)
        return 0;
    F(ctx) c;
    c.list = list;
    c.r = r;
    c.opp = opp;
    c.oppk = opp & k;
    c.vman = vman;
    c.promo = pos->side == CD_WHITE ? TOPM : BOTM;
    c.mandirs = mandirs;
    c.best = -1;
    c.flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    c.want = want;
    c.path_out = path;
    c.pathlen_out = pathlen;
    c.counting = counting;
    c.uncounted = 0;
    for (; men; men &= men - 1) {
        BB m = men & (~men + 1);
        c.from = BBCTZ(m);
        c.king = 0;
        c.empty = empty | m;
        F(man_caps)(&c, m, 0, 0, 0, 0);
    }
    for (; kings; kings &= kings - 1) {
        BB m = kings & (~kings + 1);
        c.from = BBCTZ(m);
        c.king = 1;
        c.empty = empty | m;
        F(king_caps)(&c, m, 0, 0, 0, 0, 0, 15);
    }
    return list->count + c.uncounted;
}

/* Cheap test for any capture (bitboards only), so that the capture search
 * and its set-up run only where a capture exists. */
static inline int F(has_captures)(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    if (F(man_jumpers)(own & ~k, vman, empty, F(man_dirs)(r, pos->side)))
        return 1;
    return (own & k) &&
           F(king_can_jump)(own & k, opp, empty, (r->flags & CD_RULE_FLYING_KINGS) != 0);
}

/* ------------------------------------------------------------ constitutional */

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
static int F(track_hits)(const F(tctx) * t, BB sq, int king, BB cap)
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
        if (F(king_can_jump)(e & (~e + 1), c->ours, empty, flying))
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

/* ------------------------------------------------------------------ quiet moves */

static inline void F(push)(cd_movelist *l, int from, BB to, int flags)
{
    if (l->count >= CD_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    cd_move *m = &l->moves[l->count++];
    m->captured = 0;
    m->captured_hi = 0;
    m->from = (uint8_t)from;
    m->to = (uint8_t)BBCTZ(to);
    m->ncaptured = 0;
    m->flags = (uint8_t)flags;
    m->reserved = 0;
}

/* Is Rule C active for this position (constitutional and the enemy has kings)? */
static inline int F(con_active)(const cd_position *pos, BB opp, BB k)
{
    return (pos->rules->flags & CD_RULE_CONSTITUTIONAL) &&
           ((opp & k) || (pos->rules->flags & CD_CON_OBSTRUCT_BY_MEN));
}

/*
 * Non-capturing destinations of the king on o. Under Rule C, along each ray:
 * every square up to and including the first king-threatened one, and beyond
 * it only the sacrifice squares (none under no-pass-to-sacrifice).
 */
static BB F(king_quiet)(const cd_position *pos, BB o, BB empty, int con)
{
    const cd_rules *r = pos->rules;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    BB res = 0;
    if (!con) {
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            res |= flying ? F(slide)(o, empty, d) : F(sh)(o, d) & empty;
        return res;
    }
    F(con) c;
    F(con_init)(pos, o, &c);
    int nopass = (r->flags & CD_CON_NO_PASS_TO_SAC) != 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        int blocked = 0;
        for (BB x = F(sh)(o, d) & empty; x; x = flying ? F(sh)(x, d) & empty : 0) {
            if (!blocked || F(con_sac)(&c, x))
                res |= x;
            if (F(con_kt)(&c, x)) {
                blocked = 1;
                if (nopass)
                    break;
            }
        }
    }
    return res;
}

static void F(gen_quiet)(const cd_position *pos, cd_movelist *list)
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB men = own & ~k;
    BB promo = pos->side == CD_WHITE ? TOPM : BOTM;
    int d0 = pos->side == CD_WHITE ? 0 : 2;
    list->count = 0;
    list->overflow = 0;
    for (int d = d0; d < d0 + 2; d++) {
        BB to = F(sh)(men, d) & empty;
        while (to) {
            BB t = to & (~to + 1);
            to ^= t;
            F(push)(list, BBCTZ(F(sh)(t, 3 - d)), t, (t & promo) ? CD_MOVE_PROMOTES : 0);
        }
    }
    int con = F(con_active)(pos, opp, k);
    for (BB kings = own & k; kings; kings &= kings - 1) {
        BB o = kings & (~kings + 1);
        int from = BBCTZ(o);
        for (BB to = F(king_quiet)(pos, o, empty, con); to; to &= to - 1)
            F(push)(list, from, to & (~to + 1), CD_MOVE_KING);
    }
}

static int F(generate)(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                       int *pathlen)
{
    if (F(has_captures)(pos) && F(gen_captures)(pos, list, want, path, pathlen, 0))
        return list->count;
    F(gen_quiet)(pos, list);
    return list->count;
}

/* Move count without building the quiet list (bulk counting). */
static int F(count)(const cd_position *pos)
{
    if (F(has_captures)(pos)) {
        cd_movelist list;
        return F(gen_captures)(pos, &list, NULL, NULL, NULL, 1);
    }
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB men = own & ~k, kings = own & k;
    int n;
    if (pos->side == CD_WHITE)
        n = BBPOP(F(sh)(men, 0) & empty) + BBPOP(F(sh)(men, 1) & empty);
    else
        n = BBPOP(F(sh)(men, 2) & empty) + BBPOP(F(sh)(men, 3) & empty);
    if (!kings)
        return n;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    if (!F(con_active)(pos, opp, k)) {
/* rays of different kings in one direction never overlap */
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            n += BBPOP(flying ? F(slide)(kings, empty, d) : F(sh)(kings, d) & empty);
        return n;
    }
    for (; kings; kings &= kings - 1)
        n += BBPOP(F(king_quiet)(pos, kings & (~kings + 1), empty, 1));
    return n;
}

static void F(play)(const cd_position *pos, const cd_move *m, cd_position *out)
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB from = (BB)1 << m->from, to = (BB)1 << m->to;
    BB cap = (BB)m->captured | ((BB)m->captured_hi << 32 << 32);
    /* not XOR: a capture may end on its own origin square (from == to) */
    if ((k & from) || (m->flags & CD_MOVE_PROMOTES))
        k = (k & ~from) | to;
    if (pos->side == CD_WHITE) {
        w = (w & ~from) | to;
        b &= ~cap;
    } else {
        b = (b & ~from) | to;
        w &= ~cap;
    }
    k &= ~cap;
    out->rules = pos->rules;
    out->key = pos->key;
    F(store)(w, out->white);
    F(store)(b, out->black);
    F(store)(k, out->kings);
    out->side = pos->side ^ 1;
}

static uint64_t F(perft)(const cd_position *pos, int depth)
{
    if (depth <= 1)
        return depth == 1 ? (uint64_t)F(count)(pos) : 1;
    cd_movelist list;
    F(generate)(pos, &list, NULL, NULL, NULL);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        cd_position next;
        F(play)(pos, &list.moves[i], &next);
        n += F(perft)(&next, depth - 1);
    }
    return n;
}

/* Direct capture zone of the side to move's kings over empty squares. */
static void F(king_zone)(const cd_position *pos, uint64_t out[2])
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b;
    BB empty = ALLM & ~(w | b), bk, bm;
    F(direct_threats)(pos->rules, own & k, 0, empty, 0, &bk, &bm);
    F(store)(bk, out);
}

/* Non-capturing destinations of the side to move's king on bit `from` (its quiet moves
 * when the position has no capture; Rule C applied). */
static void F(king_targets)(const cd_position *pos, int from, uint64_t out[2])
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB opp = pos->side == CD_WHITE ? b : w;
    BB o = (BB)1 << from;
    F(store)(F(king_quiet)(pos, o, ALLM & ~(w | b), F(con_active)(pos, opp, k)), out);
}

#undef F
#undef CAT
#undef CAT2
