/*
 * search_options.c -- the engine's options, in one table, and the engine's lifetime (new, free,
 * hash, clear, tables, threads).
 *
 * An option is an int: a field of cd_engine (the run-time options, in every build) or, in a
 * tuning build (-DCD_TUNE, `make tune`), a field of the engine's cd_search_params (the rows
 * CD_SEARCH_PARAMS makes, search_params.h). A release build reads the search's parameters as
 * constants and takes only the run-time options. The table gives each option's default, range
 * and meaning: cd_engine_new sets the defaults from it, cd_engine_set_option checks the range,
 * and cd_engine_option_at lists it (`condraughts analyse --options`, Hub's `param` lines).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "aligned.h"
#include "search_internal.h"

enum { IN_ENGINE, IN_PARAMS };

typedef struct option {
    const char *name;
    int def, lo, hi;
    int any;      /* a switch: every value is taken, nonzero as on (range 0 to 1) */
    int where;    /* IN_ENGINE: a field of cd_engine; IN_PARAMS: of cd_search_params */
    size_t field; /* its offset */
    const char *about;
} option;

#define PARAM_OPTION(field, name, def, lo, hi, sw, about)                                          \
    {name, def, lo, hi, sw, IN_PARAMS, offsetof(cd_search_params, field), about},

static const option options[] = {
    {"threads", 1, 1, CD_MAX_THREADS, 0, IN_ENGINE, offsetof(cd_engine, threads),
     "search threads sharing the table (lazy SMP)"},
    {"contempt", 0, 0, 100, 0, IN_ENGINE, offsetof(cd_engine, contempt),
     "a draw's cost to the side to move at the root, 1/100 man"},
    {"classic-eval", 0, 0, 1, 1, IN_ENGINE, offsetof(cd_engine, use_classic_eval),
     "the hand-set evaluation even where learned weights are loaded"},
    {"drawscale", 2, 0, 2, 0, IN_ENGINE, offsetof(cd_engine, use_drawscale),
     "drawish material scaled down: 0 off, 1 on, 2 where it pays (8x8, International)"},
    {"net", 1, 0, 1, 0, IN_ENGINE, offsetof(cd_engine, use_net),
     "the network stacked on the learned weights, where one is loaded"},
#ifdef CD_TUNE
    CD_SEARCH_PARAMS(PARAM_OPTION)
#endif
};
enum { NOPTIONS = sizeof options / sizeof options[0] };

static int *option_field(cd_engine *e, const option *o)
{
#ifdef CD_TUNE
    char *base = o->where == IN_PARAMS ? (char *)&e->params : (char *)e;
#else
    char *base = (char *)e; /* (no IN_PARAMS rows) */
#endif
    return (int *)(base + o->field);
}

/* ln(x) for x >= 1, without libm: x = m 2^k with m in [1, 2), ln m = 2 atanh((m-1)/(m+1)) */
static double ln(double x)
{
    int k = 0;
    while (x >= 2.0) {
        x /= 2.0;
        k++;
    }
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, sum = 0.0, term = y;
    for (int i = 1; i < 40; i += 2) {
        sum += term / i;
        term *= y2;
    }
    return 2.0 * sum + k * 0.69314718055994531;
}

/* 10. the LMR table: 0.5 + ln(depth) ln(moves searched) / (lmr_div / 100) */
static void lmr_init(cd_engine *e)
{
    int div = search_params(e)->lmr_div;
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++) {
            double r = d && m ? 0.5 + ln(d) * ln(m) * 100.0 / div : 0.0;
            e->lmr[d][m] = (int8_t)(r > 30 ? 30 : r);
        }
}

/* n threads' tables, the main thread's kept (its history and correction history), the helpers'
 * new; 0 when they cannot be allocated */
static int set_threads(cd_engine *e, int n)
{
    if (n < 1 || n > CD_MAX_THREADS)
        return 0;
    cd_worker *w = calloc((size_t)n, sizeof *w);
    if (!w)
        return 0;
    if (e->workers)
        memcpy(&w[0], &e->workers[0], sizeof w[0]);
    free(e->workers);
    e->workers = w;
    e->threads = n;
    return 1;
}

cd_engine *cd_engine_new(size_t tt_mb)
{
    cd_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!cd_tt_alloc(e, tt_mb) || !set_threads(e, 1)) {
        cd_aligned_free(e->tt);
        free(e);
        return NULL;
    }
#ifdef CD_TUNE
    e->params = cd_search_defaults;
#endif
    for (int i = 0; i < NOPTIONS; i++)
        if (options[i].where == IN_ENGINE && strcmp(options[i].name, "threads"))
            *option_field(e, &options[i]) = options[i].def;
    lmr_init(e);
    atomic_init(&e->stop, 0);
    atomic_init(&e->pondering, 0);
    atomic_init(&e->ponderhit_ms, 0);
    atomic_init(&e->helpers_stop, 0);
    atomic_init(&e->helper_nodes, 0);
    return e;
}

static const option *find_option(const char *name)
{
    for (int i = 0; name && i < NOPTIONS; i++)
        if (!strcmp(name, options[i].name))
            return &options[i];
    return NULL;
}

int cd_engine_option_range(const char *name, int *lo, int *hi)
{
    const option *o = find_option(name);
    if (!o)
        return 0;
    if (lo)
        *lo = o->lo;
    if (hi)
        *hi = o->hi;
    return 1;
}

int cd_engine_option_at(int i, cd_option_info *out)
{
    if (i < 0 || i >= NOPTIONS)
        return 0;
    const option *o = &options[i];
    *out = (cd_option_info){o->name, o->about, o->def, o->lo, o->hi};
    return 1;
}

cd_result cd_engine_set_option(cd_engine *e, const char *name, int value)
{
    const option *o = find_option(name);
    if (!e || !o)
        return CD_ERR_ARG;
    if (!o->any && (value < o->lo || value > o->hi))
        return CD_ERR_ARG;
    if (!strcmp(name, "threads"))
        return set_threads(e, value) ? CD_OK : CD_ERR_OVERFLOW;
    *option_field(e, o) = o->any ? value != 0 : value;
    if (!strcmp(name, "lmrdiv"))
        lmr_init(e);
    return CD_OK;
}

void cd_engine_set_egtb(cd_engine *e, cd_egtb *tb) { e->egtb = tb; }

void cd_engine_free(cd_engine *e)
{
    if (!e)
        return;
    cd_aligned_free(e->tt);
    free(e->workers);
    free(e);
}

cd_result cd_engine_set_hash(cd_engine *e, size_t tt_mb)
{
    return cd_tt_alloc(e, tt_mb) ? CD_OK : CD_ERR_OVERFLOW;
}

void cd_engine_clear(cd_engine *e)
{
    cd_tt_clear(e);
    for (int i = 0; i < e->threads; i++) { /* not their node moves */
        memset(e->workers[i].history, 0, sizeof e->workers[i].history);
        memset(e->workers[i].killers, 0, sizeof e->workers[i].killers);
        memset(e->workers[i].corr, 0, sizeof e->workers[i].corr);
    }
    atomic_store(&e->stop, 0); /* a stop that came after the last search ended */
}
