/*
 * movegen_captures.h -- part of the move generator's body (movegen_body.h, which includes it
 * where it stands and defines the instance's macros: GN, BB, F(), NDIR, FOLK_THAI,
 * FRISIAN_HOOGLAND ...): the capture search. Men's and kings' recursive captures with their
 * precedence order, the folk and Thai variants, the Frisian-Hoogland orthogonal ones, the
 * capture lists longer than a cd_movelist in perft, and the test whether any capture exists.
 * Not a header of its own: it is only ever included by movegen_body.h.
 */

/* Where captures are stored. The diagonal bodies store into a cd_movelist (CD_MAX_MOVES); the
 * Frisian-Hoogland one into any buffer (CTX_ROOM), so that perft can go on with a bigger one when a
 * crowded position has more capture paths than that (F(captures_big)). */
#if FRISIAN_HOOGLAND
#define CTX_MOVES(c)    ((c)->moves)
#define CTX_COUNT(c)    ((c)->count)
#define CTX_OVERFLOW(c) ((c)->overflow)
#define CTX_ROOM(c)     ((c)->room)
#else
#define CTX_MOVES(c)    ((c)->list->moves)
#define CTX_COUNT(c)    ((c)->list->count)
#define CTX_OVERFLOW(c) ((c)->list->overflow)
#define CTX_ROOM(c)     CD_MAX_MOVES
#endif

typedef struct F(ctx) {
#if FRISIAN_HOOGLAND
    cd_move *moves; /* room of them */
    int count, room, overflow;
#else
    cd_movelist *list;
#endif
    const cd_rules *r;
    BB opp;      /* enemy pieces (all may be jumped by a king) */
    BB vman;     /* enemy pieces a man may jump */
    BB oppk;     /* enemy kings */
    BB empty;    /* empty squares, the mover's origin included */
    BB promo;    /* the mover's promotion row */
    int mandirs; /* bit d set: men capture in direction d */
#if FRISIAN_HOOGLAND
    int kdirs;  /* directions kings capture in from the start square */
    int kdirs2; /* ... after the first jump (Hoogland first-jump switch: diagonals only) */
    BB ovict;   /* pieces a king may jump orthogonally (Hoogland: enemy kings only) */
#endif
#if FOLK_THAI
    int remove; /* Thai: a jumped piece leaves at once (no block, its square may be crossed) */
    int every;  /* Thai: a king lands right behind every piece it jumps */
#endif
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
#if FRISIAN_HOOGLAND
    /* men + 2 kings, then fewer kings, then made by a king (only in this body: a bigger switch
     * costs the diagonal bodies the inlining of this function into the man capture search) */
    case CD_PREC_VALUE: rank = ((n + nk) * 32 - nk) * 2 + c->king; break;
#endif
    default: rank = 0; break;
    }
    if (rank < c->best)
        return;
    if (rank > c->best) {
        CTX_COUNT(c) = 0;
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
        for (int i = 0; i < CTX_COUNT(c); i++)
            if (cd_move_equal(&CTX_MOVES(c)[i], &m))
                return;
    }
    if (CTX_COUNT(c) >= CTX_ROOM(c)) {
        CTX_OVERFLOW(c) = 1;
        return;
    }
    CTX_MOVES(c)[CTX_COUNT(c)++] = m;
}

static CD_RECURSIVE int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                     int promoted, int dirs);

#if FOLK_THAI
/* King jumps under the Thai rules (c->remove, c->every): jumped pieces leave the board at once,
 * so they block nothing and their squares may be crossed and landed on again; the king flies up
 * to a piece but lands right behind it (c->every), then may jump on in any direction, even back
 * (nothing of the piece just taken is left to stop it). */
static CD_RECURSIVE int F(king_caps_thai)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                          int promoted, int dirs)
{
    int found = 0;
    BB empty = c->remove ? c->empty | cap : c->empty;
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(sq, d);
        if (c->flying)
            while (x & empty)
                x = F(sh)(x, d);
        if (!(x & c->opp & ~cap))
            continue;
        BB land = F(sh)(x, d) & empty;
        if (!land)
            continue;
        found = 1;
        int k = (x & c->oppk) != 0;
        BB cap2 = cap | x;
        int next_dirs = c->remove ? 15 : ((d == 0 || d == 3) ? 6 : 9) | 1 << d;
        for (BB l = land; l; l = c->flying && !c->every ? F(sh)(l, d) & empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            if (!F(king_caps)(c, l, cap2, n + 1, nk + k, order, promoted, next_dirs))
                F(add_capture)(c, l, cap2, n + 1, nk + k, order, promoted);
        }
    }
    return found;
}
#endif

/* Jumps of a man standing on sq. Returns 1 if it can jump at all; the caller
 * adds the move ending on sq when it cannot. */
static int F(man_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order)
{
    int found = 0;
    UNROLL_DIRS
    for (int d = 0; d < NDIR; d++) {
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
 * jumped. With orthogonal captures "the other directions" are the 6 that are
 * neither straight on nor back. */
static CD_RECURSIVE int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                     int promoted, int dirs)
{
    int found = 0;
#if FOLK_THAI
    if (c->remove | c->every)
        return F(king_caps_thai)(c, sq, cap, n, nk, order, promoted, dirs);
#endif
    UNROLL_DIRS
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(sq, d);
        if (c->flying)
            while (x & c->empty)
                x = F(sh)(x, d);
#if FRISIAN_HOOGLAND
        if (!(x & (d < 4 ? c->opp : c->ovict) & ~cap))
            continue;
#else
        if (!(x & c->opp & ~cap))
            continue;
#endif
        BB land = F(sh)(x, d) & c->empty;
        if (!land)
            continue;
        found = 1;
        int k = (x & c->oppk) != 0;
        unsigned ord = order | (k && n < 16 ? 1u << (15 - n) : 0u);
        BB cap2 = cap | x;
#if FRISIAN_HOOGLAND
        int more = 0, perp = c->kdirs2 & ~(1 << d | 1 << (d ^ 3)), on = c->kdirs2 & 1 << d;
#else
        int more = 0, perp = (d == 0 || d == 3) ? 6 : 9, on = 1 << d; /* the other diagonals */
#endif
        for (BB l = land; l; l = c->flying ? F(sh)(l, d) & c->empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            BB next = c->flying ? F(sh)(l, d) & c->empty : 0;
            more |= F(king_caps)(c, l, cap2, n + 1, nk + k, ord, promoted, next ? perp : perp | on);
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
#pragma GCC unroll 8
    for (int d = 0; d < NDIR; d++)
        if (dirs >> d & 1)
            r |= men & F(sh)(victims & F(sh)(empty, d ^ 3), d ^ 3);
    return r;
}

/* Does any king of `kings` have a jump in one of the directions `dirs`? */
static inline int F(king_can_jump)(BB kings, BB victims, BB empty, int flying, int dirs)
{
#pragma GCC unroll 8
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(kings, d);
        if (flying) {
            BB f = x & empty;
            while (f) {
                x |= F(sh)(f, d);
                f = F(sh)(f, d) & empty;
            }
        }
        if (x & victims & F(sh)(empty, d ^ 3))
            return 1;
    }
    return 0;
}

/* Capture directions of men: the diagonals (forward only unless men capture backwards), and in
 * the Frisian-Hoogland body with orthogonal captures also up, left, right and down (without
 * backward captures: forward and sideways). */
static inline int F(man_dirs)(const cd_rules *r, int side)
{
    int dirs = (r->flags & CD_RULE_MEN_BACKWARD) ? 15 : side == CD_WHITE ? 3 : 12;
#if FRISIAN_HOOGLAND
    if (r->flags & CD_RULE_ORTHOGONAL)
        dirs |= (r->flags & CD_RULE_MEN_BACKWARD) ? 0xf0 : side == CD_WHITE ? 0x70 : 0xe0;
#endif
    return dirs;
}

/* Capture directions of kings: the diagonals, and the orthogonals in Frisian and in Hoogland
 * (there only over enemy kings, and under its kings-only switch only while no man is on the
 * board). */
static inline int F(king_dirs)(const cd_position *pos)
{
#if FRISIAN_HOOGLAND
    unsigned fl = pos->rules->flags;
    if (fl & CD_RULE_ORTHOGONAL)
        return 0xff;
    if ((fl & CD_RULE_HOOGLAND) &&
        (!(fl & CD_HOOG_KINGS_ONLY) ||
         !((LOADBB(pos->white) | LOADBB(pos->black)) & ~LOADBB(pos->kings))))
        return 0xff;
#endif
    (void)pos;
    return 15;
}

#if FRISIAN_HOOGLAND
/* The king of the side to move that has used up its non-capturing moves (cd_king_run), or 0. */
static inline BB F(run_blocked)(const cd_position *pos)
{
    int c = pos->side, len = pos->run.len[c], limit = pos->rules->king_moves;
    return limit && len >= limit ? (BB)1 << pos->run.sq[c] : 0;
}
#endif

/* Generate all captures of the side to move; returns their number (0: none). With `counting`,
 * only captures that could have duplicates are stored. The diagonal bodies store into list; the
 * Frisian-Hoogland one into moves[0..room-1] (*stored of them, *overflow set when they did not all
 * fit). */
#if FRISIAN_HOOGLAND
static int F(gen_captures_into)(const cd_position *pos, cd_move *moves, int room, int *stored,
                                int *overflow, const cd_move *want, int *path, int *pathlen,
                                int counting)
#else
static int F(gen_captures)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                           int *path, int *pathlen, int counting)
#endif
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
#if FOLK_THAI
    int samoyed = (r->flags & CD_RULE_SAMOYED) != 0;
    if (samoyed)
        opp = w | b; /* narrowed to "all but the mover" for each mover below */
#endif
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    int mandirs = F(man_dirs)(r, pos->side);
    BB men = F(man_jumpers)(own & ~k, vman, empty, mandirs);
    BB kings = own & k;
    F(ctx) c;
#if FRISIAN_HOOGLAND
    *stored = 0;
    *overflow = 0;
    if (!men && !kings)
        return 0;
    c.moves = moves;
    c.count = 0;
    c.room = room;
    c.overflow = 0;
    c.kdirs = F(king_dirs)(pos);
    c.kdirs2 = (r->flags & CD_HOOG_FIRST_JUMP) ? 15 : c.kdirs;
    c.ovict = (r->flags & CD_RULE_HOOGLAND) ? opp & k : opp;
#else
    list->count = 0;
    list->overflow = 0;
    if (!men && !kings)
        return 0;
    c.list = list;
#endif
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
#if FOLK_THAI
    c.remove = (r->flags & CD_RULE_REMOVE_AT_ONCE) != 0;
    c.every = r->halt == CD_HALT_EVERY;
#endif
    for (; men; men &= men - 1) {
        BB m = men & (~men + 1);
        c.from = BBCTZ(m);
        c.king = 0;
        c.empty = empty | m;
#if FOLK_THAI
        if (samoyed) { /* every piece but the mover itself */
            c.opp = c.vman = (w | b) & ~m;
            c.oppk = k & ~m;
        }
#endif
        F(man_caps)(&c, m, 0, 0, 0, 0);
    }
    for (; kings; kings &= kings - 1) {
        BB m = kings & (~kings + 1);
        c.from = BBCTZ(m);
        c.king = 1;
        c.empty = empty | m;
#if FOLK_THAI
        if (samoyed) {
            c.opp = c.vman = (w | b) & ~m;
            c.oppk = k & ~m;
        }
#endif
        F(king_caps)(&c, m, 0, 0, 0, 0, 0, F(king_dirs)(pos));
    }
#if FRISIAN_HOOGLAND
    *stored = c.count;
    *overflow = c.overflow;
#endif
    return CTX_COUNT(&c) + c.uncounted;
}

#if FRISIAN_HOOGLAND
static int F(gen_captures)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                           int *path, int *pathlen, int counting)
{
    return F(gen_captures_into)(pos, list->moves, CD_MAX_MOVES, &list->count, &list->overflow, want,
                                path, pathlen, counting);
}

/*
 * Captures that do not fit a cd_movelist (CD_MAX_MOVES): possible in crowded
 * positions under the keep convention, where every path counts (a Frisian
 * king alone against 15 pieces can have over a thousand). The number of
 * captures (depth 1: counting), or the perft below them, with a heap buffer
 * grown until they all fit; 0 if memory runs out. (The diagonal bodies keep
 * the plain cd_movelist: their keep lists stay far below CD_MAX_MOVES in
 * play, and a bigger store would cost their hot path; README, "Variants".)
 */
static uint64_t F(perft)(const cd_position *pos, int depth);
static void F(play)(const cd_position *pos, const cd_move *m, cd_position *out);

__attribute__((cold, noinline)) static uint64_t F(captures_big)(const cd_position *pos, int depth)
{
    for (size_t room = 4 * CD_MAX_MOVES; room <= ((size_t)1 << 24); room *= 4) {
        cd_move *moves = malloc(room * sizeof *moves);
        if (!moves)
            return 0;
        int stored, overflow;
        int n = F(gen_captures_into)(pos, moves, (int)room, &stored, &overflow, NULL, NULL, NULL,
                                     depth <= 1);
        uint64_t total = depth <= 1 ? (uint64_t)n : 0;
        for (int i = 0; !overflow && depth > 1 && i < stored; i++) {
            cd_position next;
            F(play)(pos, &moves[i], &next);
            total += F(perft)(&next, depth - 1);
        }
        free(moves);
        if (!overflow)
            return total;
    }
    return 0;
}
#endif

/* Cheap test for any capture (bitboards only), so that the capture search
 * and its set-up run only where a capture exists. */
static inline int F(has_captures)(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
#if FOLK_THAI
    if (r->flags & CD_RULE_SAMOYED)
        opp = w | b; /* a piece next to itself is impossible: every piece is a victim */
#endif
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    if (F(man_jumpers)(own & ~k, vman, empty, F(man_dirs)(r, pos->side)))
        return 1;
    if (!(own & k))
        return 0;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0, kd = F(king_dirs)(pos);
#if FRISIAN_HOOGLAND
    if (r->flags & CD_RULE_HOOGLAND) /* orthogonally only over kings */
        return F(king_can_jump)(own & k, opp, empty, flying, 15) ||
               ((kd & 0xf0) && F(king_can_jump)(own & k, opp & k, empty, flying, 0xf0));
#endif
    return F(king_can_jump)(own & k, opp, empty, flying, kd);
}
