/*
 * egtb_build.c -- the tablebases built (cd_egtb_build): every signature up to the asked size in
 * order, each table by retrograde analysis on a pool of threads, then written (egtb.h, egtb.c).
 *
 * Build (retrograde analysis by levels). Every position is first looked at
 * once with the move generator: a move that changes the material (a capture,
 * a promotion) leads into a smaller table already built, whose value is
 * known; a move that keeps the material stays in the table. Terminal
 * positions are level 0. Level k then holds the positions whose value is
 * final with distance k; for each, the generator run backwards (un-moves of
 * the side that just moved: king slides, men steps back) finds the
 * predecessors: those of a lost position win at k + 1; a won position
 * lowers each predecessor's count of moves not yet known to lose, and at 0
 * the predecessor is lost at k + 1 (or later, if a material-changing move
 * loses more slowly). Values reached through material-changing moves wait in
 * per-level buckets. Positions never reached are draws. A predecessor is
 * real only if it has no capture (captures are compulsory) and, under Rule C,
 * its king slide is legal there (checked with the generator).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "board.h"
#include "egtb.h"
#include "movegen.h"
#include "pool.h"
#include "strbuf.h"

/* A position's state while the build runs. */
enum { ST_UNKNOWN = 0, ST_NOLOSS = 1, ST_WIN = 2, ST_LOSS = 3, ST_HASCAP = 4 };

/* ---------------------------------------------------------------- threads */

typedef struct worker_pool {
    int nthreads;
    atomic_ullong next, done;
    uint64_t total, chunk;
    void *ctx;
    void (*fn)(void *ctx, int tid, uint64_t begin, uint64_t end);
} worker_pool;

typedef struct worker_arg {
    worker_pool *pool;
    int tid;
} worker_arg;

static void pool_work(worker_pool *p, int tid)
{
    for (;;) {
        uint64_t b = atomic_fetch_add(&p->next, p->chunk);
        if (b >= p->total)
            return;
        uint64_t e = b + p->chunk < p->total ? b + p->chunk : p->total;
        p->fn(p->ctx, tid, b, e);
        atomic_fetch_add(&p->done, e - b);
    }
}

static int pool_thread(void *a)
{
    worker_arg *w = a;
    pool_work(w->pool, w->tid);
    return 0;
}

/* Run fn over [0, total) in chunks on nthreads threads (the caller is thread 0). */
static void pool_run(int nthreads, uint64_t total, uint64_t chunk, void *ctx,
                     void (*fn)(void *, int, uint64_t, uint64_t))
{
    worker_pool p = {.nthreads = nthreads, .total = total, .chunk = chunk, .ctx = ctx, .fn = fn};
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    worker_arg args[64];
    int n = total > chunk ? (nthreads < 64 ? nthreads : 64) : 1;
    for (int i = 0; i < n; i++)
        args[i] = (worker_arg){&p, i};
    cd_pool_run(n, pool_thread, args, sizeof args[0], NULL, NULL);
}

/* ---------------------------------------------------------------- build */

typedef struct vec32 {
    uint32_t *v;
    size_t n, cap;
} vec32;

static int vec_push(vec32 *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

#define MAXLEVEL 4096

typedef struct build {
    cd_egtb *tb;
    table *t;
    const layout *L;
    _Atomic uint8_t *st;
    _Atomic uint8_t *cnt;
    uint16_t *dist;
    uint16_t *xmax; /* slowest losing material-changing move (plies), 0 none */
    int nthreads, level, rule_c, failed;
    int oom; /* the failure was an allocation */
    char failmsg[640];
    vec32 next[64];        /* per thread: final at level + 1 */
    vec32 pend[64];        /* per thread: (level, index) pairs for the buckets */
    vec32 pwin[MAXLEVEL];  /* buckets: wins through a material change at that level */
    vec32 ploss[MAXLEVEL]; /* buckets: losses waiting for their level */
    int failed_thread;
    cd_egtb_progress_fn progress;
    void *user;
    const char *signame;
    uint64_t all_done, all_total;
    cd_movelist *lists[64];
    mtx_t fail_lock;
} build;

/* The build's first failure wins: its message, and whether it was an allocation (oom). */
static void build_fail(build *B, int oom, const char *msg)
{
    mtx_lock(&B->fail_lock);
    if (!B->failed) {
        B->failed = 1;
        B->oom = oom;
        snprintf(B->failmsg, sizeof B->failmsg, "%s", msg);
    }
    mtx_unlock(&B->fail_lock);
}

/* Append x to a, or fail the build for lack of memory (a lost entry would be a wrong value). */
static void push(build *B, vec32 *a, uint32_t x)
{
    if (vec_push(a, x) != 0)
        build_fail(B, 1, "out of memory");
}

static void init_range(void *ctx, int tid, uint64_t begin, uint64_t end)
{
    build *B = ctx;
    cd_egtb *tb = B->tb;
    const layout *L = B->L;
    cd_movelist *list = B->lists[tid];
    const cd_rules *r = tb->rules;
    for (uint64_t i = begin; i < end && !B->failed; i++) {
        dense D;
        cd_position p, c;
        egtb_dense_of_index(L, i, &D);
        egtb_position_of_dense(tb, &D, &p);
        int nm = cd_generate(&p, list);
        int inside = 0, hascap = 0, noloss = 0, winmin = 0, lossmax = 0;
        for (int k = 0; k < nm; k++) {
            const cd_move *mv = &list->moves[k];
            if (mv->ncaptured)
                hascap = 1;
            cd_play_nokey(&p, mv, &c);
            cd_egtb_material cm = mat_of(&c);
            if (mat_equal(cm, L->m)) {
                inside++;
                continue;
            }
            int d, v = cd_egtb_probe(tb, &c, &d);
            if (v == CD_EGTB_UNKNOWN) {
                char name[2 * MAXP + 4], msg[600];
                egtb_mat_name(mat_canonical(cm) ? cm : mat_flip(cm), name);
                snprintf(msg, sizeof msg, "table %s is needed first (%s)", name, tb->err);
                build_fail(B, 0, msg);
                return;
            }
            if (v == CD_EGTB_LOSS) {
                if (!winmin || d + 1 < winmin)
                    winmin = d + 1;
            } else if (v == CD_EGTB_DRAW) {
                noloss = 1;
            } else if (d + 1 > lossmax) {
                lossmax = d + 1;
            }
        }
        uint8_t s = hascap ? ST_HASCAP : 0;
        B->cnt[i] = (uint8_t)inside;
        B->xmax[i] = (uint16_t)lossmax;
        B->dist[i] = 0;
        if (nm == 0) {
            atomic_store_explicit(&B->st[i],
                                  s | (terminal_value(r) == CD_EGTB_WIN ? ST_WIN : ST_LOSS),
                                  memory_order_relaxed);
            push(B, &B->pend[tid], 0);
            push(B, &B->pend[tid], (uint32_t)(i << 1 | 1));
            continue;
        }
        if (winmin || noloss) {
            atomic_store_explicit(&B->st[i], s | ST_NOLOSS, memory_order_relaxed);
            if (winmin) {
                push(B, &B->pend[tid], (uint32_t)winmin);
                push(B, &B->pend[tid], (uint32_t)(i << 1));
            }
        } else {
            atomic_store_explicit(&B->st[i], s | ST_UNKNOWN, memory_order_relaxed);
            if (inside == 0) { /* every move changes the material and loses */
                push(B, &B->pend[tid], (uint32_t)lossmax);
                push(B, &B->pend[tid], (uint32_t)(i << 1 | 1));
            }
        }
    }
}

/* Is the non-capturing king slide from bit o to bit d legal in p (Rule C)? p has no capture. */
static int slide_legal(const cd_position *p, int o, int d)
{
    uint64_t to[2];
    cd_king_targets(p, o, to);
    return (int)((to[0] >> d) & 1);
}

/* One predecessor (index pi, position pred, the move o -> d over len steps) of a final
 * position that is lost for its side to move (lost = 1) or won (lost = 0). */
static void relax(build *B, int tid, uint64_t pi, int lost, const cd_position *pred, int o, int d,
                  int len, int king, int opp_kings)
{
    uint8_t old = atomic_load_explicit(&B->st[pi], memory_order_relaxed);
    if ((old & 2) || (old & ST_HASCAP) || (!lost && (old & 3) != ST_UNKNOWN))
        return; /* final, not a real predecessor, or cannot lose */
    /* Rule C: a slide over at least one square may be forbidden (a one-step move passes
     * over nothing) */
    if (B->rule_c && king && opp_kings && len >= 2 && !slide_legal(pred, o, d))
        return;
    int level1 = B->level + 1;
    if (lost) {
        while (!(old & 2)) { /* still unknown or no-loss */
            if (atomic_compare_exchange_weak_explicit(&B->st[pi], &old,
                                                      (uint8_t)((old & ST_HASCAP) | ST_WIN),
                                                      memory_order_relaxed, memory_order_relaxed)) {
                B->dist[pi] = (uint16_t)level1;
                push(B, &B->next[tid], (uint32_t)pi);
                return;
            }
        }
        return;
    }
    uint8_t left = atomic_fetch_sub_explicit(&B->cnt[pi], 1, memory_order_relaxed) - 1;
    if (left != 0)
        return;
    int at = B->xmax[pi] > level1 ? B->xmax[pi] : level1;
    if (at == level1) {
        atomic_store_explicit(&B->st[pi], (uint8_t)((old & ST_HASCAP) | ST_LOSS),
                              memory_order_relaxed);
        B->dist[pi] = (uint16_t)level1;
        push(B, &B->next[tid], (uint32_t)pi);
    } else {
        push(B, &B->pend[tid], (uint32_t)at);
        push(B, &B->pend[tid], (uint32_t)(pi << 1 | 1));
    }
}

typedef struct level_ctx {
    build *B;
    const uint32_t *items;
} level_ctx;

static void level_range(void *ctx, int tid, uint64_t begin, uint64_t end)
{
    level_ctx *lc = ctx;
    build *B = lc->B;
    cd_egtb *tb = B->tb;
    const layout *L = B->L;
    for (uint64_t j = begin; j < end; j++) {
        uint64_t qi = lc->items[j];
        int lost = (atomic_load_explicit(&B->st[qi], memory_order_relaxed) & 3) == ST_LOSS;
        dense D;
        cd_position q;
        egtb_dense_of_index(L, qi, &D);
        egtb_position_of_dense(tb, &D, &q);
        int mover = 1 - q.side; /* the side that made the last move */
        uint64_t own = mover == CD_WHITE ? q.white[0] : q.black[0];
        uint64_t opp = mover == CD_WHITE ? q.black[0] : q.white[0];
        uint64_t occ = q.white[0] | q.black[0];
        int opp_kings = (opp & q.kings[0]) != 0 || (tb->rules->flags & CD_CON_OBSTRUCT_BY_MEN);
        int flying = (tb->rules->flags & CD_RULE_FLYING_KINGS) != 0;
        for (uint64_t x = own; x; x &= x - 1) {
            int b = __builtin_ctzll(x);
            int king = (int)((q.kings[0] >> b) & 1);
            for (int k = 0; k < 4; k++) {
                int st = tb->steps[k];
                if (!king) { /* a man came from one step behind it */
                    if ((mover == CD_WHITE) != (st > 0))
                        continue;
                }
                int len = 0;
                for (int o = b + st;
                     o >= 0 && o < 64 && ((tb->playable >> o) & 1) && !((occ >> o) & 1); o += st) {
                    len++;
                    cd_position p = q;
                    uint64_t from = (uint64_t)1 << b, to = (uint64_t)1 << o;
                    if (mover == CD_WHITE)
                        p.white[0] ^= from | to;
                    else
                        p.black[0] ^= from | to;
                    if (king)
                        p.kings[0] ^= from | to;
                    p.side = mover;
                    dense P;
                    egtb_pos_dense(tb, &p, 0, &P);
                    uint64_t pi = egtb_dense_index(L, &P);
                    relax(B, tid, pi, lost, &p, o, b, len, king, opp_kings);
                    if (!king || !flying)
                        break;
                }
            }
        }
    }
}

static void bucket_push(build *B, vec32 *bk, uint32_t level, uint32_t x)
{
    if (level >= MAXLEVEL)
        build_fail(B, 0, "distance beyond the table format's limit");
    else
        push(B, &bk[level], x);
}

/* Move the threads' pending (level, index) pairs into the buckets. */
static void gather_pending(build *B)
{
    for (int t = 0; t < B->nthreads; t++) {
        vec32 *p = &B->pend[t];
        for (size_t k = 0; k + 1 < p->n; k += 2) {
            uint32_t lv = p->v[k], x = p->v[k + 1];
            bucket_push(B, (x & 1) ? B->ploss : B->pwin, lv, x >> 1);
        }
        p->n = 0;
    }
}

static void report(build *B, const char *phase, uint64_t done, uint64_t total)
{
    if (B->progress)
        B->progress(B->signame, phase, done, total,
                    B->all_done + (strcmp(phase, "scan") == 0 ? done : total), B->all_total,
                    B->user);
}

static cd_result build_table(cd_egtb *tb, table *t, int nthreads, cd_egtb_progress_fn progress,
                             void *user, uint64_t all_done, uint64_t all_total, char *err,
                             size_t errlen)
{
    uint64_t total = 2 * t->L.n;
    char name[2 * MAXP + 4];
    egtb_mat_name(t->L.m, name);
    if (total >= (1ull << 31)) {
        set_err(err, errlen, "table %s has %llu positions: more than this builder indexes", name,
                (unsigned long long)total);
        return CD_ERR_ARG;
    }
    build *B = calloc(1, sizeof *B);
    if (!B) {
        set_err(err, errlen, "out of memory");
        return CD_ERR_OVERFLOW;
    }
    B->tb = tb;
    B->t = t;
    B->L = &t->L;
    B->nthreads = nthreads < 1 ? 1 : nthreads > 64 ? 64 : nthreads;
    B->rule_c = (tb->rules->flags & CD_RULE_CONSTITUTIONAL) != 0;
    B->progress = progress;
    B->user = user;
    B->signame = name;
    B->all_done = all_done;
    B->all_total = all_total;
    mtx_init(&B->fail_lock, mtx_plain);
    B->st = malloc(total);
    B->cnt = malloc(total);
    B->dist = malloc(total * sizeof *B->dist);
    B->xmax = malloc(total * sizeof *B->xmax);
    int ok = B->st && B->cnt && B->dist && B->xmax;
    for (int i = 0; ok && i < B->nthreads; i++)
        ok = (B->lists[i] = malloc(sizeof(cd_movelist))) != NULL;
    cd_result rc = CD_ERR_OVERFLOW;
    vec32 cur = {0};
    if (!ok) {
        set_err(err, errlen, "out of memory for table %s", name);
        goto out;
    }
    report(B, "scan", 0, total);
    pool_run(B->nthreads, total, 4096, B, init_range);
    if (B->failed) {
        set_err(err, errlen, "%s: %s", name, B->failmsg);
        rc = B->oom ? CD_ERR_OVERFLOW : CD_ERR_ARG;
        goto out;
    }
    gather_pending(B);
    report(B, "scan", total, total);
    uint64_t resolved = 0;
    for (B->level = 0; B->level < MAXLEVEL && !B->failed; B->level++) {
        int lv = B->level;
        /* cur holds the finals found at this level by the last one; add the buckets */
        for (size_t k = 0; k < B->pwin[lv].n; k++) {
            uint32_t x = B->pwin[lv].v[k];
            uint8_t old = atomic_load_explicit(&B->st[x], memory_order_relaxed);
            if ((old & 3) == ST_NOLOSS) {
                atomic_store_explicit(&B->st[x], (uint8_t)((old & ST_HASCAP) | ST_WIN),
                                      memory_order_relaxed);
                B->dist[x] = (uint16_t)lv;
                push(B, &cur, x);
            }
        }
        for (size_t k = 0; k < B->ploss[lv].n; k++) {
            uint32_t x = B->ploss[lv].v[k];
            uint8_t old = atomic_load_explicit(&B->st[x], memory_order_relaxed);
            if (lv == 0 || (old & 3) == ST_UNKNOWN) { /* level 0: terminal, already set */
                if (lv != 0)
                    atomic_store_explicit(&B->st[x], (uint8_t)((old & ST_HASCAP) | ST_LOSS),
                                          memory_order_relaxed);
                B->dist[x] = (uint16_t)lv;
                push(B, &cur, x);
            }
        }
        free(B->pwin[lv].v);
        free(B->ploss[lv].v);
        B->pwin[lv] = (vec32){0};
        B->ploss[lv] = (vec32){0};
        if (cur.n) {
            level_ctx lc = {B, cur.v};
            pool_run(B->nthreads, cur.n, 1024, &lc, level_range);
            resolved += cur.n;
            cur.n = 0;
            for (int i = 0; i < B->nthreads; i++) {
                for (size_t k = 0; k < B->next[i].n; k++)
                    push(B, &cur, B->next[i].v[k]);
                B->next[i].n = 0;
            }
            gather_pending(B);
            report(B, "solve", resolved, total);
        }
        int more = cur.n != 0;
        for (int k = lv + 1; k < MAXLEVEL && !more; k++)
            more = B->pwin[k].n || B->ploss[k].n;
        if (!more)
            break;
    }
    if (B->failed) {
        set_err(err, errlen, "%s: %s", name, B->failmsg);
        rc = B->oom ? CD_ERR_OVERFLOW : CD_ERR_ARG;
        goto out;
    }
    /* final values */
    size_t nv = (total + 3) / 4;
    int maxd = 0;
    uint8_t *wdl = calloc(nv ? nv : 1, 1);
    t->wdl = wdl;
    if (!wdl) {
        set_err(err, errlen, "out of memory");
        goto out;
    }
    memset(t->counts, 0, sizeof t->counts);
    for (uint64_t i = 0; i < total; i++) {
        int s = atomic_load_explicit(&B->st[i], memory_order_relaxed) & 3;
        int v = s == ST_WIN ? CD_EGTB_WIN : s == ST_LOSS ? CD_EGTB_LOSS : CD_EGTB_DRAW;
        if (v == CD_EGTB_DRAW)
            B->dist[i] = 0;
        else if (B->dist[i] > maxd)
            maxd = B->dist[i];
        wdl[i >> 2] |= (uint8_t)(v << (2 * (i & 3)));
        t->counts[i >= t->L.n][v]++;
    }
    t->maxdist = maxd;
    if (maxd < 256) {
        uint8_t *d8 = malloc(total ? total : 1);
        t->dist = d8;
        t->dbytes = 1;
        if (!d8) {
            set_err(err, errlen, "out of memory");
            goto out;
        }
        for (uint64_t i = 0; i < total; i++)
            d8[i] = (uint8_t)B->dist[i];
    } else { /* in place, as the file has them: little-endian */
        uint8_t *d16 = (uint8_t *)B->dist;
        for (uint64_t i = 0; i < total; i++) {
            uint16_t d = B->dist[i];
            d16[2 * i] = (uint8_t)d;
            d16[2 * i + 1] = (uint8_t)(d >> 8);
        }
        t->dist = d16;
        t->dbytes = 2;
        B->dist = NULL;
    }
    rc = CD_OK;
out:
    free(cur.v);
    for (int i = 0; i < 64; i++) {
        free(B->next[i].v);
        free(B->pend[i].v);
        free(B->lists[i]);
    }
    for (int i = 0; i < MAXLEVEL; i++) {
        free(B->pwin[i].v);
        free(B->ploss[i].v);
    }
    free((void *)B->st);
    free((void *)B->cnt);
    free(B->dist);
    free(B->xmax);
    mtx_destroy(&B->fail_lock);
    free(B);
    if (rc) {
        free((void *)t->wdl);
        free((void *)t->dist);
        t->wdl = t->dist = NULL;
    }
    return rc;
}

/* Every canonical signature of up to `pieces` pieces (and kings-only up to kpieces), in
 * build order: fewer pieces first, then fewer men. */
static int signatures(int pieces, int kpieces, cd_egtb_material *out, int max)
{
    int n = 0;
    int top = pieces > kpieces ? pieces : kpieces;
    for (int p = 2; p <= top; p++)
        for (int men = 0; men <= p; men++)
            for (int wm = 0; wm <= men; wm++) {
                int bm = men - wm;
                for (int wk = 0; wk + wm + bm <= p; wk++) {
                    int bk = p - wk - wm - bm;
                    cd_egtb_material m = {wk, wm, bk, bm};
                    if (!mat_ok(m) || !mat_canonical(m))
                        continue;
                    if (p > pieces && men > 0)
                        continue;
                    if (n < max)
                        out[n] = m;
                    n++;
                }
            }
    return n;
}

cd_result cd_egtb_build(cd_egtb *tb, int pieces, int kings_pieces, int threads,
                        cd_egtb_progress_fn progress, void *user, char *err, size_t errlen)
{
    if (!tb || pieces < 2 || pieces > MAXP || kings_pieces > MAXP || threads < 1) {
        set_err(err, errlen, "pieces must be 2..%d", MAXP);
        return CD_ERR_ARG;
    }
    cd_egtb_material list[4096];
    int n = signatures(pieces, kings_pieces, list, 4096);
    uint64_t all_total = 0, all_done = 0;
    uint64_t sizes[4096];
    for (int i = 0; i < n; i++) {
        layout L;
        if (egtb_layout_init(&L, list[i], tb->nsq, tb->half) != 0) {
            set_err(err, errlen, "out of memory");
            return CD_ERR_OVERFLOW;
        }
        sizes[i] = 2 * L.n;
        all_total += 2 * L.n;
        egtb_layout_free(&L);
    }
    for (int i = 0; i < n; i++) {
        table *t = egtb_get_table(tb, list[i], 1);
        int built = !t;
        if (!t) {
            t = *slot(tb, list[i]);
            if (!t || egtb_table_layout(tb, t) != 0) {
                set_err(err, errlen, "out of memory");
                return CD_ERR_OVERFLOW;
            }
            tb->err[0] = '\0';
            cd_result r =
                build_table(tb, t, threads, progress, user, all_done, all_total, err, errlen);
            if (r != CD_OK)
                return r;
            if (egtb_table_write(tb, t, err, errlen) != 0)
                return CD_ERR_IO;
            int p = mat_pieces(list[i]);
            if (p > tb->maxpieces)
                tb->maxpieces = p;
            atomic_store_explicit(&t->state, 1, memory_order_release);
        }
        all_done += sizes[i];
        if (progress) {
            char name[2 * MAXP + 4];
            egtb_mat_name(list[i], name);
            progress(name, built ? "done" : "kept", 1, 1, all_done, all_total, user);
        }
    }
    return CD_OK;
}
