/*
 * test_engine.c -- the engine through the public API:
 *  - it returns a legal move in random positions of every variant;
 *  - quiescence with exchanges ("qexch") sees a shot that a depth-1 search misses without;
 *  - it finds the forced wins of a set of positions (the constitutional
 *    article's king endings, a killer ending, simple shots);
 *  - it keeps to a time limit (within 5% plus a small constant);
 *  - stop from another thread ends an infinite search at once;
 *  - the same with two search threads (lazy SMP);
 *  - the options' table: names, defaults and ranges (the run-time options; built with -DCD_TUNE,
 *    `make tune-test`, also the search's parameters, and the checks that switch them: qexch,
 *    sedepth and corr must change the search);
 *  - the endgame move-count rules on the search's path (Russian 15 moves, FMJD 5 moves, Frisian
 *    2 and 7 moves).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "condraughts.h"
#include "engine.h"
#include "eval_io.h"
#include "game.h"

#include "check.h"

static cd_movelist list;

/* The learned evaluation every engine of the tests searches with: none (by hand) until
 * main reads the shipped weights for the last tests. */
static cd_eval *learned;

static cd_engine *engine_new(size_t mb)
{
    cd_engine *e = cd_engine_new(mb);
    if (e)
        cd_engine_set_eval(e, learned);
    return e;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_legal_moves(int per_variant, const char *option, int value)
{
    cd_engine *e = engine_new(8);
    if (option)
        CHECK(cd_engine_set_option(e, option, value) == CD_OK);
    uint64_t seed = 2024;
    int searched = 0;
    for (int v = 0; cd_rules_at(v); v++) {
        const cd_rules *r = cd_rules_at(v);
        for (int k = 0; k < per_variant; k++) {
            cd_game *g = cd_game_new(r, NULL);
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int plies = (int)((seed >> 33) % 60);
            for (int i = 0; i < plies && cd_game_status(g, NULL) == CD_ONGOING; i++) {
                int n = cd_generate(cd_game_position(g), &list);
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                cd_game_play(g, &list.moves[(seed >> 33) % (uint64_t)n]);
            }
            if (cd_game_status(g, NULL) == CD_ONGOING) {
                cd_limits l = {0};
                l.depth = 1 + k % 5;
                l.nodes = 20000;
                cd_search_result res;
                CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
                CHECK(res.has_move);
                cd_result pr = cd_game_play(g, &res.best);
                CHECK(pr == CD_OK);
                if (pr != CD_OK) {
                    char fen[512];
                    cd_position_to_fen(cd_game_position(g), 0, fen, sizeof fen);
                    fprintf(stderr, "  illegal engine move in %s %s\n", r->name, fen);
                }
                searched++;
            }
            cd_game_free(g);
        }
    }
    printf("engine: legal moves in %d random positions%s%s%s\n", searched, option ? " (" : "",
           option ? option : "", option ? ")" : "");
    cd_engine_free(e);
}

/* The engine must see a forced win (score) and play a winning first move: one of the
 * comma-separated list first (NULL: any). */
static void expect_win(const char *variant, const char *fen, int depth, const char *first)
{
    const cd_rules *r = cd_rules_find(variant);
    cd_position p;
    char err[256];
    if (cd_position_from_fen(&p, r, fen, err, sizeof err) != CD_OK) {
        fprintf(stderr, "bad FEN %s: %s\n", fen, err);
        failures++;
        return;
    }
    cd_game *g = cd_game_new(r, &p);
    cd_engine *e = engine_new(8);
    cd_limits l = {0};
    l.depth = depth;
    cd_search_result res;
    CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
    char mv[128];
    cd_move_to_text(&p, &res.best, -1, mv, sizeof mv);
    int found = !first;
    for (const char *f = first; f && !found; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL) {
        size_t len = strcspn(f, ",");
        found = strlen(mv) == len && !strncmp(mv, f, len);
    }
    int ok = res.score > CD_SCORE_WIN - 1000 && found;
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  %s %s: got %s score %d\n", variant, fen, mv, res.score);
    cd_engine_free(e);
    cd_game_free(g);
}

static void test_wins(void)
{
    /* Article diagram 4/5: 1.35-13! and the lone king on the edge is lost. */
    expect_win("constitutional", "W:WK35:BK3", 12, "35-13");
    /* Article diagram 6: 1.15-10! 23x5 2.27-4 wins (the corner is a mousetrap). The tables
     * (`egtb probe --moves`) rate 15-20 and 15-24 as the same win in 5 plies: any of the three. */
    expect_win("constitutional", "W:WK15,K27:BK23", 12, "15-10,15-20,15-24");
    /* Article diagram 17: 1.50-17 3x21 2.26x3. */
    expect_win("constitutional", "W:WK26,K50:BK3", 10, "50-17");
    /* Two kings beat one (article: "two kings always win"). */
    expect_win("constitutional", "W:WK46,K47:BK3", 14, NULL);
    /* Killer: the halt rule wins 2 kings against 1. */
    expect_win("killer", "W:WK46,K47:BK3", 16, NULL);
    /* Modern: three kings beat one. */
    expect_win("modern", "W:WK46,K47,K48:BK3", 14, NULL);
}

/* Exchanges in quiescence ("qexch"): after any White move, Black has 23-28, and 33x22 is
 * forced, answered by 18x27x36, two men for one (a depth-9 search finds the line and scores
 * White about -0.7 men). A depth-1 search sees it only with qexch: Black's exchange is tried
 * at the first quiescence ply. */
static int exchange_score(const char *option, int value)
{
    const cd_rules *r = cd_rules_find("international");
    cd_position p;
    char err[256];
    CHECK(cd_position_from_fen(&p, r,
                               "W:W29-31,33,35,37-40,43,44,47,48,50:B1,3,5,7,8,10-13,16-18,21,23",
                               err, sizeof err) == CD_OK);
    cd_game *g = cd_game_new(r, &p);
    cd_engine *e = engine_new(8);
    if (option)
        CHECK(cd_engine_set_option(e, option, value) == CD_OK);
    cd_limits l = {0};
    l.depth = 1;
    cd_search_result res;
    CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
    cd_engine_free(e);
    cd_game_free(g);
    return res.score;
}

static void test_exchange(void)
{
    int seen = exchange_score(NULL, 0); /* (qexch is on) */
    CHECK(seen < -100);                 /* a man down */
    if (seen >= -100)
        fprintf(stderr, "  exchange: depth-1 score %d\n", seen);
#ifdef CD_TUNE
    int unseen = exchange_score("qexch", 0);
    CHECK(unseen > -50); /* about equal */
    if (unseen <= -50)
        fprintf(stderr, "  exchange: depth-1 score %d with qexch 0\n", unseen);
#endif
}

/* The search counts the endgame move-count rules as the game does, from the ply at which the
 * balance of men and kings arose (here set back as if the game had been set up that far into
 * the ending). Score of the position from a fresh balance, and `left` plies short of the limit. */
static void endgame_rule(const char *variant, const char *fen, int limit, int left, int depth,
                         int contempt, int score[2])
{
    const cd_rules *r = cd_rules_find(variant);
    cd_position p;
    char err[256];
    CHECK(cd_position_from_fen(&p, r, fen, err, sizeof err) == CD_OK);
    for (int late = 0; late < 2; late++) {
        cd_game *g = cd_game_new(r, &p);
        g->since[0] = late ? -(limit - left) : 0;
        cd_engine *e = engine_new(8);
        CHECK(cd_engine_set_option(e, "contempt", contempt) == CD_OK);
        cd_limits l = {0};
        l.depth = depth;
        cd_search_result res;
        CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
        score[late] = res.score;
        cd_engine_free(e);
        cd_game_free(g);
    }
}

/* Whether the side to move in p can force a win (the opponent left without a piece or a move)
 * within `plies` plies (odd: its own move ends the line), by plain minimax over the move
 * generator: an answer independent of the search. */
static int wins_within(const cd_position *p, int plies)
{
    cd_movelist mine;
    cd_generate(p, &mine);
    for (int i = 0; i < mine.count; i++) {
        cd_position q;
        cd_play(p, &mine.moves[i], &q);
        cd_movelist reply;
        if (!cd_generate(&q, &reply)) /* no piece left, or none that can move */
            return 1;
        int all = plies >= 3;
        for (int j = 0; j < reply.count && all; j++) {
            cd_position r;
            cd_play(&q, &reply.moves[j], &r);
            all = wins_within(&r, plies - 2);
        }
        if (all)
            return 1;
    }
    return 0;
}

static void test_endgame_rules(void)
{
    int s[2];
    /* Russian, 3 kings against a lone king: drawn after 15 moves (30 plies) of that balance.
     * Fresh, the kings' material (about 5 men); a ply short of the limit, White has no capture,
     * so every move reaches the limit: a draw. */
    endgame_rule("russian", "W:WKa1,Kc1,Ke1:BKb8", 30, 1, 10, 0, s);
    CHECK(s[0] >= 300 && s[0] < CD_SCORE_WIN - 1000 && s[1] == 0);
    if (!(s[0] >= 300 && s[0] < CD_SCORE_WIN - 1000 && s[1] == 0))
        fprintf(stderr, "  russian 3 kings against 1: scores %d (fresh), %d (late)\n", s[0], s[1]);
    /* International, 2 kings against 1: drawn after 5 moves (10 plies). 1.47-15 takes the king
     * on its third ply (a win); 2 plies short of the limit the game is drawn before it. */
    endgame_rule("international", "W:WK46,K47:BK5", 10, 2, 10, 0, s);
    CHECK(s[0] == CD_SCORE_WIN - 3 && s[1] == 0);
    if (!(s[0] == CD_SCORE_WIN - 3 && s[1] == 0))
        fprintf(stderr, "  international 2 kings against 1: scores %d (fresh), %d (late)\n", s[0],
                s[1]);
    /* Frisian, kings only (variant.c): 1 king against 1 drawn after 4 plies, 2 kings against 1
     * after 14. In both positions White takes the black king on its second move and not on its
     * first (minimax over the generator); 2 plies short of the limit that is too late. */
    static const struct {
        const char *fen;
        int limit;
    } fr[] = {{"W:WK28:BK5", 4}, {"W:WK28,K50:BK5", 14}};
    for (int i = 0; i < 2; i++) {
        const cd_rules *r = cd_rules_find("frisian");
        cd_position p;
        CHECK(cd_position_from_fen(&p, r, fr[i].fen, NULL, 0) == CD_OK);
        CHECK(!wins_within(&p, 1) && wins_within(&p, 3));
        endgame_rule("frisian", fr[i].fen, fr[i].limit, 2, 8, 0, s);
        CHECK(s[0] == CD_SCORE_WIN - 3 && s[1] == 0);
        if (!(s[0] == CD_SCORE_WIN - 3 && s[1] == 0))
            fprintf(stderr, "  frisian %s: scores %d (fresh), %d (late)\n", fr[i].fen, s[0], s[1]);
    }
    /* Contempt (option "contempt"): a draw is worth -contempt to the side to move at the root,
     * whichever colour it is: the late Russian ending above, then with Black to move (its lone
     * king has no capture either, so every move reaches the limit). Out of range: refused. */
    endgame_rule("russian", "W:WKa1,Kc1,Ke1:BKb8", 30, 1, 10, 20, s);
    CHECK(s[0] >= 300 && s[1] == -20);
    endgame_rule("russian", "B:WKa1,Kc1,Ke1:BKb8", 30, 1, 10, 20, s);
    CHECK(s[0] <= -300 && s[1] == -20);
    if (s[1] != -20)
        fprintf(stderr, "  russian ending with contempt 20, Black to move: %d (late)\n", s[1]);
    cd_engine *e = engine_new(1);
    CHECK(cd_engine_set_option(e, "contempt", 101) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, "contempt", -1) == CD_ERR_ARG);
    cd_engine_free(e);
}

/* The budget of a fixed time a move: the whole time less a margin (4%, 8 to 20 ms). */
static void test_movetime_budget(void)
{
    static const struct {
        double movetime;
        long long ms;
    } cases[] = {{0.2, 192}, {0.1, 92}, {0.5, 480}, {1.0, 980}, {5.0, 4980}, {0.06, 40}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cd_limits l = {0};
        l.movetime = cases[i].movetime;
        long long soft, hard;
        cd_time_budget(&l, 0, &soft, &hard);
        CHECK(soft == cases[i].ms && hard == cases[i].ms);
    }
}

static void test_time_limit(int threads)
{
    cd_engine *e = engine_new(16);
    CHECK(cd_engine_set_option(e, "threads", threads) == CD_OK);
    cd_game *g = cd_game_new(cd_rules_find("international"), NULL);
    double worst = 0, worst_run = 0;
    for (int i = 0; i < 3; i++) {
        cd_limits l = {0};
        l.movetime = 0.3;
        cd_search_result res;
        double t0 = now();
        clock_t c0 = clock();
        cd_search(e, g, &l, NULL, NULL, &res);
        double t = now() - t0;
        /* the time the search's threads were not running (a loaded machine took the cores):
         * the wall time less their processor time, shared out over the threads */
        double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC / threads;
        double run = cpu < t ? cpu : t;
        if (t > worst)
            worst = t;
        if (run > worst_run)
            worst_run = run;
    }
    /* measured on the time the search ran, not on the time others took from it; with more
     * threads than free cores (the thread sanitizer) a helper may wait for a time slice before
     * it sees the stop: 10 ms more */
    CHECK(worst_run <= 0.3 * 1.05 + (threads > 1 ? 0.02 : 0.01));
    printf("engine: movetime 0.300 s, worst %.3f s, running %.3f s (%d thread%s)\n", worst,
           worst_run, threads, threads > 1 ? "s" : "");
    /* depth and node limits */
    cd_limits ld = {0};
    ld.depth = 5;
    cd_search_result rd;
    cd_search(e, g, &ld, NULL, NULL, &rd);
    CHECK(rd.depth == 5);
    if (threads > 1) { /* node counts of helpers are not bounded by the limit */
        cd_game_free(g);
        cd_engine_free(e);
        return;
    }
    cd_limits ln = {0};
    ln.nodes = 100000;
    cd_search_result rn;
    cd_search(e, g, &ln, NULL, NULL, &rn);
    CHECK(rn.nodes <= 100000 + 100000 / 20);
    CHECK(rn.nodes >= 100000 * 95 / 100 || rn.depth >= CD_MAX_PLY - 8);
    printf("engine: node limit 100000, searched %llu\n", (unsigned long long)rn.nodes);
    /* a clock of 10 s for the game uses a fraction of it */
    cd_limits l = {0};
    l.time[CD_WHITE] = 10;
    cd_search_result res;
    double t0 = now();
    cd_search(e, g, &l, NULL, NULL, &res);
    double t = now() - t0;
    CHECK(t < 10 * 0.4);
    cd_game_free(g);
    cd_engine_free(e);
}

typedef struct stopper {
    cd_engine *e;
    double delay;
} stopper;

static int stop_later(void *arg)
{
    stopper *s = arg;
    struct timespec d = {0, (long)(s->delay * 1e9)};
    thrd_sleep(&d, NULL);
    cd_engine_stop(s->e);
    return 0;
}

static void test_stop(int threads)
{
    cd_engine *e = engine_new(16);
    CHECK(cd_engine_set_option(e, "threads", threads) == CD_OK);
    cd_game *g = cd_game_new(cd_rules_find("constitutional"), NULL);
    stopper st = {e, 0.2};
    thrd_t t;
    CHECK(thrd_create(&t, stop_later, &st) == thrd_success);
    cd_limits l = {0};
    l.infinite = 1;
    cd_search_result res;
    double t0 = now();
    CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
    double el = now() - t0;
    thrd_join(t, NULL);
    CHECK(res.has_move);
    CHECK(el < 0.2 + 0.1);
    CHECK(cd_game_play(g, &res.best) == CD_OK);
    cd_game_free(g);
    cd_engine_free(e);
}

/* The options' table (cd_engine_option_at): each listed option takes its default and both ends
 * of its range, and its range is cd_engine_option_range's; the run-time options are there in
 * every build, the search's parameters only in a tuning build (-DCD_TUNE). */
static void test_option_list(cd_engine *e)
{
    cd_option_info o;
    int n = 0, runtime = 0, lo, hi;
    for (; cd_engine_option_at(n, &o); n++) {
        CHECK(o.name && o.about && *o.about && o.lo <= o.def && o.def <= o.hi);
        CHECK(cd_engine_option_range(o.name, &lo, &hi) == 1 && lo == o.lo && hi == o.hi);
        CHECK(cd_engine_set_option(e, o.name, o.lo) == CD_OK);
        CHECK(cd_engine_set_option(e, o.name, o.hi) == CD_OK);
        CHECK(cd_engine_set_option(e, o.name, o.def) == CD_OK);
        runtime += !strcmp(o.name, "threads") || !strcmp(o.name, "contempt") ||
                   !strcmp(o.name, "classic-eval") || !strcmp(o.name, "drawscale") ||
                   !strcmp(o.name, "net");
    }
    CHECK(runtime == 5 && !cd_engine_option_at(-1, &o) && !cd_engine_option_at(n, &o));
#ifdef CD_TUNE
    CHECK(n > 5);
#else
    CHECK(n == 5);
    CHECK(cd_engine_set_option(e, "lmrdiv", 230) == CD_ERR_ARG); /* a constant here */
#endif
    printf("engine: %d options listed\n", n);
}

static void test_options(void)
{
    cd_engine *e = engine_new(1);
    test_option_list(e);
    CHECK(cd_engine_set_option(e, "threads", 4) == CD_OK);
    CHECK(cd_engine_set_option(e, "threads", 1) == CD_OK);
    CHECK(cd_engine_set_option(e, "threads", 0) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, "threads", 65) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, "nonsense", 1) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, NULL, 1) == CD_ERR_ARG);
    /* the ranges the front ends quote in their messages */
    int lo = -7, hi = -7;
    CHECK(cd_engine_option_range("contempt", &lo, &hi) == 1 && lo == 0 && hi == 100);
    CHECK(cd_engine_option_range("threads", &lo, &hi) == 1 && lo == 1 && hi == 64);
    CHECK(cd_engine_option_range("classic-eval", &lo, &hi) == 1 && lo == 0 && hi == 1);
    CHECK(cd_engine_set_option(e, "classic-eval", 7) == CD_OK); /* a switch: nonzero on */
    CHECK(cd_engine_option_range("nonsense", &lo, &hi) == 0);
    CHECK(cd_engine_option_range(NULL, NULL, NULL) == 0);
#ifdef CD_TUNE
    const char *on_off[] = {"aspiration", "killers", "history", "ttcut",
                            "single",     "probcut", "timeman"};
    for (size_t i = 0; i < sizeof on_off / sizeof on_off[0]; i++) {
        CHECK(cd_engine_set_option(e, on_off[i], 0) == CD_OK);
        CHECK(cd_engine_set_option(e, on_off[i], 1) == CD_OK);
    }
    CHECK(cd_engine_set_option(e, "lmrdiv", 150) == CD_OK);
    CHECK(cd_engine_set_option(e, "lmrdiv", 0) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, "pcmargin", 100) == CD_OK);
    CHECK(cd_engine_set_option(e, "pcmargin", -1) == CD_ERR_ARG);
    CHECK(cd_engine_set_option(e, "qexch", 1) == CD_OK);
    CHECK(cd_engine_set_option(e, "qexch", 2) == CD_ERR_ARG);
    CHECK(cd_engine_option_range("lmrdiv", &lo, &hi) == 1 && lo == 50 && hi == 1000);
    CHECK(cd_engine_option_range("aspwin", &lo, &hi) == 1 && lo == 5 && hi == 1000);
    CHECK(cd_engine_set_option(e, "aspwin", 4) == CD_ERR_ARG);
    CHECK(cd_engine_option_range("killers", &lo, &hi) == 1 && lo == 0 && hi == 1);
    CHECK(cd_engine_set_option(e, "killers", 7) == CD_OK); /* a switch: any value, nonzero on */
#endif
    cd_engine_free(e);
}

#ifdef CD_TUNE
/* "sedepth" must reach the search: with singular extensions the tree to depth 14 from the
 * Russian start is a different size */
static void test_singular(void)
{
    uint64_t nodes[2];
    for (int k = 0; k < 2; k++) {
        cd_engine *e = engine_new(16);
        CHECK(cd_engine_set_option(e, "sedepth", k == 0 ? 0 : 6) == CD_OK);
        cd_game *g = cd_game_new(cd_rules_find("russian"), NULL);
        cd_limits l = {0};
        l.depth = 14;
        cd_search_result res;
        CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
        CHECK(res.has_move && res.depth == 14);
        nodes[k] = res.nodes;
        cd_game_free(g);
        cd_engine_free(e);
    }
    CHECK(nodes[0] != nodes[1]); /* the extensions change the tree */
    printf("engine: Russian depth 14 from the start, %llu nodes without singular extensions, "
           "%llu with them\n",
           (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
}

#endif

/* Step 21, the correction history: it changes the Russian tree (and not the International one,
 * where it does not act), and cd_engine_clear forgets what it learned
 * (the second search after a clear is the first one) */
static uint64_t corr_nodes(cd_engine *e, const char *variant, int depth)
{
    cd_game *g = cd_game_new(cd_rules_find(variant), NULL);
    cd_limits l = {0};
    l.depth = depth;
    cd_search_result res;
    CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
    CHECK(res.has_move && res.depth == depth);
    cd_game_free(g);
    return res.nodes;
}

static void test_corr(void)
{
    cd_engine *e = engine_new(16); /* (with it: on by default) */
    uint64_t with = corr_nodes(e, "russian", 14);
    cd_engine_clear(e); /* a clear forgets the corrections with the table */
    CHECK(corr_nodes(e, "russian", 14) == with);
    cd_engine_free(e);
#ifdef CD_TUNE
    e = engine_new(16);
    CHECK(cd_engine_set_option(e, "corr", 0) == CD_OK);
    uint64_t without = corr_nodes(e, "russian", 14);
    cd_engine_free(e);
    CHECK(without != with); /* the correction changes the tree */
    uint64_t intl[2];       /* it acts with the Russian family's weights only */
    for (int k = 0; k < 2; k++) {
        e = engine_new(16);
        CHECK(cd_engine_set_option(e, "corr", k ? 200 : 0) == CD_OK);
        intl[k] = corr_nodes(e, "international", 9);
        cd_engine_free(e);
    }
    CHECK(intl[0] == intl[1]);
    printf("engine: Russian depth 14 from the start, %llu nodes without the correction history, "
           "%llu with it\n",
           (unsigned long long)without, (unsigned long long)with);
#endif
}

/* One set shared by two engines searching at once in two threads: each search is the one an
 * engine makes alone (the set is read-only; under make tsan, no race). */
typedef struct shared_search {
    cd_engine *e;
    int depth;      /* searched from the Russian start */
    uint64_t nodes; /* its nodes (0: no search) */
} shared_search;

static int search_russian(void *arg)
{
    shared_search *s = arg;
    cd_game *g = cd_game_new(cd_rules_find("russian"), NULL);
    cd_limits l = {0};
    l.depth = s->depth;
    cd_search_result res;
    s->nodes = g && cd_search(s->e, g, &l, NULL, NULL, &res) == CD_OK ? res.nodes : 0;
    cd_game_free(g);
    return 0;
}

static void test_shared_eval(void)
{
    shared_search s[2] = {{engine_new(16), 10, 0}, {engine_new(16), 10, 0}};
    search_russian(&s[0]);
    uint64_t alone = s[0].nodes;
    cd_engine_clear(s[0].e);
    thrd_t t[2];
    for (int k = 0; k < 2; k++)
        CHECK(thrd_create(&t[k], search_russian, &s[k]) == thrd_success);
    for (int k = 0; k < 2; k++)
        thrd_join(t[k], NULL);
    CHECK(alone > 0 && s[0].nodes == alone && s[1].nodes == alone);
    shared_search hand = {cd_engine_new(16), 10, 0}; /* no set: another tree */
    search_russian(&hand);
    CHECK(hand.nodes > 0 && hand.nodes != alone);
    cd_engine_free(hand.e);
    for (int k = 0; k < 2; k++)
        cd_engine_free(s[k].e);
}

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 60;
    test_options();
    test_legal_moves(per, NULL, 0);
    test_legal_moves(per / 4 + 1, "threads", 2);
#ifdef CD_TUNE
    test_legal_moves(per / 4 + 1, "sedepth", 2);
    test_singular();
#endif
    test_wins();
    test_exchange();
    test_endgame_rules();
    test_movetime_budget();
    test_time_limit(1);
    test_time_limit(2);
    test_stop(1);
    test_stop(2);
    char err[256]; /* the learned weights, which step 21 needs: run last */
    CHECK((learned = eval_io_load("weights", 1, err, sizeof err)) != NULL);
    test_corr();
    test_legal_moves(per / 4 + 1, "classic-eval", 0); /* with the weights, step 21 on */
    test_shared_eval();
    cd_eval_free(learned);
    printf("engine: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
