/*
 * match.c -- `condraughts match`: the referee of engine-against-engine matches, the measuring
 * instrument behind every strength claim of the project (docs/strength.md).
 *
 * Each opening is played twice with colours reversed (a game pair). A player is the built-in
 * engine ("self", "self:option=value,..."), a Hub engine command line (match_player.c: Hub 2,
 * or Hub 1 as Scan 2.0 speaks it) or a CheckerBoard engine library ("cb:LIB"). The referee keeps the clocks: time is measured here on the
 * monotonic clock, each engine is told its real remaining time, the increment is added after
 * each move. Results that the rules do not give:
 *   time forfeit   a move took longer than the remaining clock (--clock), the move time (--time)
 *                  or, without a time limit, --move-limit, each plus --timemargin. The rule is
 *                  simply "loses on time" (no draw for an opponent unable to win).
 *   hung           after that limit the referee sends `stop` and waits --hang seconds more; an
 *                  engine still silent loses on time, is killed and started again, and the match
 *                  goes on. An engine whose output closes loses and is started again.
 *   illegal move   the mover loses (the move text is reported).
 *   adjudication   --egtb DIR: the tablebase value as soon as the position is in the tables;
 *                  --resign-score S --resign-moves N: an engine whose own score was <= -S
 *                  (hundredths of a man) on N moves in a row loses (one-sided, as cutechess by
 *                  default); --draw-score S --draw-moves N --draw-after P: a draw once both
 *                  engines' scores were within [-S, S] on their last N moves each, from ply P on;
 *                  --max-plies P: a draw after P plies of a game.
 * Adjudicated games are recorded in the PDN with a Termination tag saying why.
 *
 * --sprt elo0,elo1[,alpha,beta] stops as soon as the sequential test on the pentanomial counts of
 * the finished game pairs accepts H0 or H1 (stats_sprt_penta in stats.c), from the 8th pair on.
 * Games already started then (--concurrency) are played out and counted in the score, and the
 * decision stands: it is reported with the games and the LLR at which it was made.
 * --concurrency N plays N games at once, one thread and one pair of players each.
 *
 * SIGINT or SIGTERM (Ctrl-C) stops the match: no new game starts, the games under way are played
 * out and the summary of the games played is printed, as at the end; then the program ends by
 * that signal (a shell sees status 130 or 143). A second signal of either kind ends it at once.
 * The engines run in their own process groups, so a Ctrl-C at the terminal reaches the referee
 * only. An inherited "ignore SIGINT" (a shell's background job) is kept.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "cliutil.h"
#include "condraughts.h"
#include "match.h"
#include "match_player.h"
#include "openings.h"
#include "opts.h"
#include "pool.h"
#include "stats.h"

#define MATCH_MAX_CONCURRENCY 64
/* No SPRT verdict before this many game pairs: with a handful of pairs the variance estimate,
 * and with it the normal approximation of the LLR, is meaningless (one won pair alone gives an
 * LLR of about 18 after the regularisation). */
#define MATCH_SPRT_MIN_PAIRS 8

#define fail(...) cli_die("condraughts match: ", __VA_ARGS__)

/* ------------------------------------------------------------------ the match */

/* How a game ended, when not by the rules alone. */
enum {
    END_RULES,
    END_TABLEBASE,
    END_RESIGN,
    END_DRAW,
    END_MAX_PLIES,
    END_TIME,
    END_HUNG,
    END_ILLEGAL,
    END_KINDS
};
static const char *const end_names[END_KINDS] = {
    "rules", "tablebase", "resign", "draw score", "max plies", "time forfeit", "hung", "illegal"};

typedef struct shared {
    const match_options *o;
    cd_game **openings;
    int nopen;
    int games; /* games to play at most */
    cd_egtb *tb;
    FILE *pdn;
    char name[2][128];
    mtx_t lock;
    int next, stop;
    signed char *score2; /* per game: engine 1's points x 2 (0, 1, 2), -1 not finished */
    int cap;
    long w, d, l, played;
    long penta[5], pairs;
    long ends[END_KINDS];
    stats_sprt sprt;
    /* the SPRT's decision, kept once made: the games already started when it was made are
     * played out and counted, but do not undo it */
    int verdict;
    double verdict_llr;
    long verdict_games;
    double used_sum[2], used_max[2]; /* per engine: seconds per move, referee's clock */
    long moves[2];
} shared;

typedef struct worker {
    shared *sh;
    match_player pl[2]; /* pl[0] is engine 1 */
    double used_sum[2], used_max[2]; /* this worker's moves, added to shared at the end */
    long moves[2];
} worker;

typedef struct game_end {
    int kind;
    char why[512];
} game_end;

static void set_end(game_end *e, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    e->kind = kind;
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
}

static const char *colour_name(int c) { return c == CD_WHITE ? "White" : "Black"; }

/* The tablebase's verdict on the position, if it has one: 1 and the game ended. */
static int adjudicate_tb(cd_egtb *tb, cd_game *g, game_end *e)
{
    const cd_position *p = cd_game_position(g);
    if (!tb || cd_position_count(p, CD_WHITE, -1) + cd_position_count(p, CD_BLACK, -1) >
                   CD_EGTB_MAX_PIECES)
        return 0;
    int dist = 0, val = cd_egtb_probe(tb, p, &dist);
    if (val == CD_EGTB_DRAW) {
        cd_game_agree_draw(g);
        set_end(e, END_TABLEBASE, "adjudication: tablebase draw");
        return 1;
    }
    if (val == CD_EGTB_WIN || val == CD_EGTB_LOSS) {
        int winner = val == CD_EGTB_WIN ? p->side : p->side ^ 1;
        cd_game_resign(g, winner ^ 1);
        set_end(e, END_TABLEBASE, "adjudication: tablebase, %s wins in %d plies",
                colour_name(winner), dist);
        return 1;
    }
    return 0;
}

static void restart(match_player *p)
{
    char err[512];
    if (mp_restart(p, err, sizeof err))
        fail("%s (restarting it after a lost game)", err);
}

/* Play game gi (0-based) to its end. */
static cd_game *play_game(worker *w, int gi, int *e1_side_out, game_end *e)
{
    const shared *sh = w->sh;
    const match_options *o = sh->o;
    const cd_game *op = sh->openings[(gi / 2) % sh->nopen];
    cd_game *g = cd_game_new(o->rules, cd_game_position_at(op, 0));
    if (!g)
        fail("out of memory");
    for (int i = 0; i < cd_game_ply(op); i++)
        cd_game_play(g, cd_game_move(op, i));
    /* engine 1 plays the side to move at the start in even games */
    int start_side = cd_game_position(g)->side;
    int e1_side = gi % 2 == 0 ? start_side : start_side ^ 1;
    *e1_side_out = e1_side;
    mp_new_game(&w->pl[0]);
    mp_new_game(&w->pl[1]);
    mp_limits lim = {
        o->depth,    o->nodes, o->movetime, o->game_time > 0, {o->game_time, o->game_time},
        o->increment};
    int start_ply = cd_game_ply(g);
    int resign_run[2] = {0, 0}, draw_run[2] = {0, 0};
    set_end(e, END_RULES, "");
    while (cd_game_status(g, NULL) == CD_ONGOING) {
        if (adjudicate_tb(sh->tb, g, e))
            break;
        if (cd_game_ply(g) - start_ply >= o->max_plies) {
            cd_game_agree_draw(g);
            set_end(e, END_MAX_PLIES, "adjudication: draw after %d plies (--max-plies)",
                    o->max_plies);
            break;
        }
        int side = cd_game_position(g)->side;
        int who = side == e1_side ? 0 : 1;
        match_player *p = &w->pl[who];
        double allowed = lim.clocked       ? fmax(lim.clock[side], 0.0)
                         : p->movetime > 0 ? p->movetime
                         : o->movetime > 0 ? o->movetime
                                           : o->move_limit;
        mp_reply rep;
        mp_move(p, g, &lim, allowed + o->timemargin, o->hang, &rep);
        w->used_sum[who] += rep.used;
        w->used_max[who] = fmax(w->used_max[who], rep.used);
        w->moves[who]++;
        if (rep.status == MP_HUNG) {
            cd_game_time_loss(g, side);
            if (rep.why[0])
                set_end(e, END_HUNG, "hung: %s (%s): %s, restarted", p->name, colour_name(side),
                        rep.why);
            else
                set_end(e, END_HUNG,
                        "hung: %s (%s) gave no move %.1f s after its %.3f s limit, "
                        "restarted",
                        p->name, colour_name(side), o->hang, allowed + o->timemargin);
            restart(p);
            break;
        }
        if (rep.status == MP_DIED) {
            cd_game_resign(g, side);
            set_end(e, END_ILLEGAL, "%s (%s) closed its output, restarted", p->name,
                    colour_name(side));
            restart(p);
            break;
        }
        if (rep.status == MP_ILLEGAL) {
            cd_game_resign(g, side);
            if (rep.why[0])
                set_end(e, END_ILLEGAL, "illegal answer by %s (%s): %s", p->name,
                        colour_name(side), rep.why);
            else
                set_end(e, END_ILLEGAL, "illegal move '%s' by %s (%s)", rep.text, p->name,
                        colour_name(side));
            break;
        }
        if (rep.status == MP_LATE || rep.used > allowed + o->timemargin) {
            cd_game_time_loss(g, side);
            set_end(e, END_TIME, "time forfeit: %s (%s) took %.3f s with %.3f s allowed", p->name,
                    colour_name(side), rep.used, allowed);
            break;
        }
        if (lim.clocked)
            lim.clock[side] += o->increment - rep.used;
        if (cd_game_play(g, &rep.move) != CD_OK) {
            cd_game_resign(g, side);
            set_end(e, END_ILLEGAL, "illegal move by %s (%s)", p->name, colour_name(side));
            break;
        }
        if (cd_game_status(g, NULL) != CD_ONGOING)
            break;
        /* score adjudication on the scores the engines reported */
        int sc = rep.score;
        resign_run[side] = rep.has_score && sc <= -o->resign_score ? resign_run[side] + 1 : 0;
        draw_run[side] = rep.has_score && abs(sc) <= o->draw_score ? draw_run[side] + 1 : 0;
        if (o->resign_moves > 0 && resign_run[side] >= o->resign_moves) {
            cd_game_resign(g, side);
            set_end(e, END_RESIGN,
                    "adjudication: %s (%s) resigns, score <= -%d for %d moves (score %d)", p->name,
                    colour_name(side), o->resign_score, o->resign_moves, sc);
            break;
        }
        if (o->draw_moves > 0 && cd_game_ply(g) >= o->draw_after && draw_run[0] >= o->draw_moves &&
            draw_run[1] >= o->draw_moves) {
            cd_game_agree_draw(g);
            set_end(e, END_DRAW, "adjudication: draw, both scores within +-%d for %d moves",
                    o->draw_score, o->draw_moves);
            break;
        }
    }
    return g;
}

static void print_sprt_line(const shared *sh)
{
    const match_options *o = sh->o;
    printf("sprt: LLR %.2f [%.2f, %.2f] elo0 %g elo1 %g, %ld pairs [%ld %ld %ld %ld %ld]\n",
           sh->sprt.llr, sh->sprt.lower, sh->sprt.upper, o->elo0, o->elo1, sh->pairs, sh->penta[0],
           sh->penta[1], sh->penta[2], sh->penta[3], sh->penta[4]);
}

/* Count a finished game (under the lock); the SPRT may decide. */
static void record(shared *sh, int gi, cd_game *g, int e1_side, const game_end *e)
{
    const match_options *o = sh->o;
    cd_reason reason = CD_REASON_NONE;
    cd_status st = cd_game_status(g, &reason);
    int s2 = st == CD_DRAW ? 1 : ((st == CD_WHITE_WINS) == (e1_side == CD_WHITE)) ? 2 : 0;
    if (gi >= sh->cap) {
        int ncap = sh->cap ? sh->cap * 2 : 256;
        while (ncap <= gi)
            ncap *= 2;
        sh->score2 = realloc(sh->score2, (size_t)ncap);
        if (!sh->score2)
            fail("out of memory");
        memset(sh->score2 + sh->cap, -1, (size_t)(ncap - sh->cap));
        sh->cap = ncap;
    }
    sh->score2[gi] = (signed char)s2;
    sh->played++;
    if (s2 == 2)
        sh->w++;
    else if (s2 == 1)
        sh->d++;
    else
        sh->l++;
    sh->ends[e->kind]++;
    const char *white = sh->name[e1_side == CD_WHITE ? 0 : 1];
    const char *black = sh->name[e1_side == CD_WHITE ? 1 : 0];
    if (sh->pdn) {
        char rnd[16];
        snprintf(rnd, sizeof rnd, "%d", gi + 1);
        cd_pdn_tags *tags = malloc(sizeof *tags);
        if (!tags)
            fail("out of memory");
        cd_pdn_tags_init(tags);
        cd_pdn_tag_set(tags, "Event", "condraughts match");
        cd_pdn_tag_set(tags, "Round", rnd);
        cd_pdn_tag_set(tags, "White", white);
        cd_pdn_tag_set(tags, "Black", black);
        if (e->kind != END_RULES)
            cd_pdn_tag_set(tags, "Termination", e->why);
        size_t need = cd_pdn_write(g, tags, NULL, 0);
        char *buf = malloc(need + 1);
        if (!buf)
            fail("out of memory");
        cd_pdn_write(g, tags, buf, need + 1);
        fputs(buf, sh->pdn);
        fputs("\n", sh->pdn);
        fflush(sh->pdn);
        free(buf);
        free(tags);
    }
    if (!o->quiet)
        printf("game %d: %s - %s %s (%s, %d plies)  score %ld-%ld-%ld\n", gi + 1, white, black,
               cd_status_pdn(o->rules, st), e->kind != END_RULES ? e->why : cd_reason_str(reason),
               cd_game_ply(g), sh->w, sh->d, sh->l);
    int mate = gi ^ 1;
    if (mate < sh->cap && sh->score2[mate] >= 0) {
        sh->penta[sh->score2[gi] + sh->score2[mate]]++;
        sh->pairs++;
        if (o->sprt) {
            sh->sprt = stats_sprt_penta(sh->penta, o->elo0, o->elo1, o->alpha, o->beta);
            if (!o->quiet)
                print_sprt_line(sh);
            if (sh->pairs < MATCH_SPRT_MIN_PAIRS)
                sh->sprt.verdict = 0;
            if (sh->sprt.verdict && !sh->verdict) {
                sh->verdict = sh->sprt.verdict;
                sh->verdict_llr = sh->sprt.llr;
                sh->verdict_games = sh->played;
                sh->stop = 1;
            }
        }
    }
    fflush(stdout);
}

/* The signal that stopped the match (SIGINT, SIGTERM), or 0: a lock-free atomic, safe to set in
 * the handler and to read from the worker threads. SIGINT is caught only when the program did
 * not inherit it ignored (a background job of a shell keeps ignoring Ctrl-C). */
static atomic_int interrupted;
static int catch_int;

static void on_interrupt(int sig)
{
    atomic_store(&interrupted, sig);
    if (catch_int) /* the second signal, of either kind, ends the program */
        signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

static void catch_interrupts(void)
{
#ifdef _WIN32 /* Ctrl-C arrives as SIGINT (the console's handler); there is no SIGTERM, SIGPIPE */
    catch_int = 1;
    signal(SIGINT, on_interrupt);
#else
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESTART; /* reads from the engines go on */
    sigemptyset(&sa.sa_mask);
    catch_int = sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN;
    if (catch_int)
        sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
#endif
}

static int run_worker(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    for (;;) {
        mtx_lock(&sh->lock);
        int gi = sh->stop || atomic_load(&interrupted) || sh->next >= sh->games ? -1 : sh->next++;
        mtx_unlock(&sh->lock);
        if (gi < 0)
            break;
        int e1_side;
        game_end e;
        cd_game *g = play_game(w, gi, &e1_side, &e);
        mtx_lock(&sh->lock);
        record(sh, gi, g, e1_side, &e);
        mtx_unlock(&sh->lock);
        cd_game_free(g);
    }
    return 0;
}

int cd_match_main(const match_options *o)
{
    const cd_rules *r = o->rules;
    catch_interrupts();
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.o = o;
    if (mtx_init(&sh.lock, mtx_plain) != thrd_success)
        fail("cannot make a lock");
    char why[1024];
    sh.nopen = cli_load_openings(o->openings, r, &sh.openings, why, sizeof why);
    if (sh.nopen < 0)
        fail("%s", why);
    sh.games = o->games > 0 ? o->games : o->sprt ? INT_MAX - 1 : 2 * sh.nopen;
    if (o->egtb && !(sh.tb = cd_egtb_open(r, o->egtb)))
        fail("--egtb: variant %s cannot have tablebases", r->name);
    if (o->pdn_file && !(sh.pdn = fopen(o->pdn_file, "w")))
        fail("cannot write %s", o->pdn_file);
    int nw = o->concurrency > 0 ? o->concurrency : 1;
    if (nw > sh.games)
        nw = sh.games;
    worker *ws = calloc((size_t)nw, sizeof *ws);
    if (!ws)
        fail("out of memory");
    for (int i = 0; i < nw; i++) {
        ws[i].sh = &sh;
        for (int k = 0; k < 2; k++) {
            match_player *p = &ws[i].pl[k];
            p->spec = o->engine[k] ? o->engine[k] : "self";
            p->proto = o->proto[k];
            p->rules = r;
            p->hash = o->hash;
            char err[512];
            if (mp_start(p, err, sizeof err))
                fail("engine%d: %s", k + 1, err);
            if (p->movetime > 0 && !(o->movetime > 0))
                fail("engine%d: time= is its own seconds a move in place of the match's --time; "
                     "the match has no --time",
                     k + 1);
            if (p->proto == MP_CB && (o->depth || o->nodes))
                fail("engine%d: a CheckerBoard engine takes a time (--time or --clock), not "
                     "--depth or --nodes",
                     k + 1);
            if (p->proto == MP_HUB1 && o->nodes)
                fail("engine%d: Hub 1 has no nodes limit (use --depth or a time)", k + 1);
            if (p->proto == MP_HUB1 && strcmp(r->name, "international"))
                fail("engine%d: Hub 1 has no variants; it plays International only", k + 1);
            if (i == 0) {
                snprintf(sh.name[k], sizeof sh.name[k], "%s", p->name);
                if (!o->quiet)
                    printf("engine%d: %s (%s)\n", k + 1, p->name, mp_proto_name(p->proto));
            }
        }
    }
    fflush(stdout);
    cd_pool_run(nw, run_worker, ws, sizeof ws[0], NULL, NULL);
    for (int i = 0; i < nw; i++) {
        mp_stop(&ws[i].pl[0]);
        mp_stop(&ws[i].pl[1]);
        for (int k = 0; k < 2; k++) {
            sh.used_sum[k] += ws[i].used_sum[k];
            sh.used_max[k] = fmax(sh.used_max[k], ws[i].used_max[k]);
            sh.moves[k] += ws[i].moves[k];
        }
    }
    free(ws);

    int sig = atomic_load(&interrupted);
    if (sig)
        printf("match stopped by %s after %ld games (those under way played out)\n",
               sig == SIGINT ? "SIGINT" : "SIGTERM", sh.played);
    static const double tri_v[3] = {0.0, 0.5, 1.0}, penta_v[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    long tri[3] = {sh.l, sh.d, sh.w};
    stats_elo_est e = stats_elo_estimate(tri, tri_v, 3, STATS_Z95);
    printf("match %s: %s vs %s: %ld games, +%ld =%ld -%ld, score %.1f%%, Elo %+.0f [%+.0f, "
           "%+.0f] (95%%)\n",
           r->name, sh.name[0], sh.name[1], sh.played, sh.w, sh.d, sh.l, 100.0 * e.score, e.elo,
           e.lo, e.hi);
    if (sh.pairs > 0) {
        stats_elo_est pe = stats_elo_estimate(sh.penta, penta_v, 5, STATS_Z95);
        printf("pairs: %ld, pentanomial [%ld %ld %ld %ld %ld], Elo %+.0f [%+.0f, %+.0f] (95%%)\n",
               sh.pairs, sh.penta[0], sh.penta[1], sh.penta[2], sh.penta[3], sh.penta[4], pe.elo,
               pe.lo, pe.hi);
    }
    for (int k = 0; k < 2; k++)
        printf("engine%d: %ld moves, %.3f s a move on average, %.3f s at most\n", k + 1,
               sh.moves[k], sh.moves[k] ? sh.used_sum[k] / (double)sh.moves[k] : 0.0,
               sh.used_max[k]);
    printf("endings:");
    for (int k = 0; k < END_KINDS; k++)
        printf(" %s %ld%s", end_names[k], sh.ends[k], k + 1 < END_KINDS ? "," : "\n");
    if (o->sprt) {
        print_sprt_line(&sh);
        if (sh.verdict) {
            if (sh.verdict > 0)
                printf("sprt: H1 accepted (Elo >= %g) after %ld games", o->elo1, sh.verdict_games);
            else
                printf("sprt: H0 accepted (Elo <= %g) after %ld games", o->elo0, sh.verdict_games);
            long more = sh.played - sh.verdict_games;
            if (more > 0)
                printf(" (LLR %.2f then; %ld game%s already started played out)", sh.verdict_llr,
                       more, more > 1 ? "s" : "");
            printf("\n");
        } else
            printf("sprt: no decision after %ld games\n", sh.played);
    }
    if (sh.pdn)
        fclose(sh.pdn);
    cd_egtb_close(sh.tb);
    cli_free_openings(sh.openings, sh.nopen);
    free(sh.score2);
    mtx_destroy(&sh.lock);
    if (sig) { /* end by the signal, so that a calling shell script stops too */
        fflush(stdout);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return 0;
}

/* ------------------------------------------------------------------ options */

static void sprt_arg(match_options *m, const char *v)
{
    double x[4] = {0, 0, 0.05, 0.05};
    int n = 0;
    const char *s = v;
    while (n < 4) {
        char *end;
        x[n++] = strtod(s, &end);
        if (end == s)
            fail("--sprt: bad value '%s' (elo0,elo1[,alpha,beta])", v);
        if (*end == '\0')
            break;
        if (*end != ',')
            fail("--sprt: bad value '%s' (elo0,elo1[,alpha,beta])", v);
        s = end + 1;
    }
    if (n != 2 && n != 4)
        fail("--sprt: bad value '%s' (elo0,elo1[,alpha,beta])", v);
    if (!(x[1] > x[0]) || !(x[2] > 0 && x[2] < 0.5) || !(x[3] > 0 && x[3] < 0.5))
        fail("--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5, got '%s'", v);
    m->sprt = 1;
    m->elo0 = x[0];
    m->elo1 = x[1];
    m->alpha = x[2];
    m->beta = x[3];
}

enum {
    O_VARIANT,
    O_ENGINE1,
    O_ENGINE2,
    O_PROTO1,
    O_PROTO2,
    O_OPENINGS,
    O_GAMES,
    O_DEPTH,
    O_NODES,
    O_TIME,
    O_CLOCK,
    O_INC,
    O_PDN,
    O_CONCURRENCY,
    O_SPRT,
    O_EGTB,
    O_MAX_PLIES,
    O_HASH,
    O_RESIGN_SCORE,
    O_RESIGN_MOVES,
    O_DRAW_SCORE,
    O_DRAW_MOVES,
    O_DRAW_AFTER,
    O_TIMEMARGIN,
    O_HANG,
    O_MOVE_LIMIT,
    O_QUIET,
};

#define SECONDS(i, n, what)                                                                        \
    {                                                                                              \
        CLI_REAL_OPT(i, n, "S", 0, 1e6, what)                                                      \
    }
#define COUNT(i, n, m, low, high, what)                                                            \
    {                                                                                              \
        CLI_INT_OPT(i, n, m, low, high, what)                                                      \
    }
#define PROTOCOLS "auto|hub2|hub1"

static const cli_opt match_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", "the variant (default international)"), .alias = 'v'},
    {CLI_TEXT_OPT(O_ENGINE1, "engine1", "CMD|self|cb:LIB",
                  "a Hub engine's command line, self[:option=value,...] (default self), or "
                  "cb:LIB a CheckerBoard engine library")},
    {CLI_TEXT_OPT(O_ENGINE2, "engine2", "CMD|self|cb:LIB", "the other player, as --engine1")},
    {CLI_CHOICE_OPT(O_PROTO1, "engine1-protocol", PROTOCOLS,
                    "engine1's Hub version (default auto: from its answer to `hub`)")},
    {CLI_CHOICE_OPT(O_PROTO2, "engine2-protocol", PROTOCOLS, "engine2's Hub version")},
    {CLI_TEXT_OPT(O_OPENINGS, "openings", "FILE|auto:K",
                  "a FEN or move list a line; auto:K: every K-move opening, shuffled")},
    COUNT(O_GAMES, "games", "N", 1, 100000000, "games (default: each opening twice)"),
    COUNT(O_DEPTH, "depth", "D", 1, 100, "each move searched to depth D"),
    COUNT(O_NODES, "nodes", "N", 1, 1e12, "each move searched N nodes"),
    SECONDS(O_TIME, "time", "seconds a move (default 0.1)"),
    SECONDS(O_CLOCK, "clock", "seconds a game for each side"),
    SECONDS(O_INC, "inc", "seconds added to the clock after each move (with --clock)"),
    {CLI_TEXT_OPT(O_PDN, "pdn", "FILE", "write the games here")},
    COUNT(O_CONCURRENCY, "concurrency", "N", 1, MATCH_MAX_CONCURRENCY, "games played at once"),
    {CLI_TEXT_OPT(O_SPRT, "sprt", "ELO0,ELO1[,ALPHA,BETA]",
                  "stop on a verdict of the sequential test on game pairs (alpha, beta 0.05)")},
    {CLI_TEXT_OPT(O_EGTB, "egtb", "DIR", "adjudicate by these endgame tables")},
    COUNT(O_MAX_PLIES, "max-plies", "P", 1, 100000, "a draw after P plies (default 400)"),
    COUNT(O_HASH, "hash", "MB", 1, 65536, "the built-in engine's hash table in MiB"),
    COUNT(O_RESIGN_SCORE, "resign-score", "S", 0, 100000,
          "a player whose score was <= -S (hundredths of a man)..."),
    COUNT(O_RESIGN_MOVES, "resign-moves", "N", 1, 100000, "...on N moves in a row loses"),
    COUNT(O_DRAW_SCORE, "draw-score", "S", 0, 100000, "a draw once both scores were within S..."),
    COUNT(O_DRAW_MOVES, "draw-moves", "N", 1, 100000, "...on their last N moves each..."),
    COUNT(O_DRAW_AFTER, "draw-after", "P", 0, 100000, "...from ply P on"),
    SECONDS(O_TIMEMARGIN, "timemargin", "seconds a move may overrun (default 0.1)"),
    SECONDS(O_HANG, "hang", "seconds after stop before a silent engine loses (default 5)"),
    SECONDS(O_MOVE_LIMIT, "move-limit", "seconds a move without a time limit (default 120)"),
    {CLI_FLAG_OPT(O_QUIET, "quiet", "no line per game")},
    {0}};

static int match_cli(int argc, char **argv);

const cli_command cd_match_command = {
    .name = "match",
    .about = "Engine against engine: each opening twice with colours reversed, then the score and "
             "Elo.",
    .opts = match_opts,
    .notes = "Give one of --depth, --nodes, --time and --clock. Method, options and measured\n"
             "figures: docs/strength.md. Ctrl-C (SIGINT) or SIGTERM: no new game starts, the\n"
             "games under way are played out, the summary is printed and the program ends by\n"
             "the signal (status 130 or 143); a second signal stops it at once.\n",
    .run = match_cli,
    .flags = CLI_SEARCHES,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    static const mp_proto protocols[] = {MP_AUTO, MP_HUB2, MP_HUB1};
    match_options *m = user;
    switch (opt->id) {
    case O_VARIANT: m->rules = cli_variant(&cd_match_command, v->text); break;
    case O_ENGINE1: m->engine[0] = v->text; break;
    case O_ENGINE2: m->engine[1] = v->text; break;
    case O_PROTO1: m->proto[0] = protocols[v->n]; break;
    case O_PROTO2: m->proto[1] = protocols[v->n]; break;
    case O_OPENINGS: m->openings = v->text; break;
    case O_PDN: m->pdn_file = v->text; break;
    case O_EGTB:
        m->egtb = cli_egtb_folder(&cd_match_command, v->text); /* '' for none */
        break;
    case O_SPRT: sprt_arg(m, v->text); break;
    case O_GAMES: m->games = (int)v->n; break;
    case O_DEPTH: m->depth = (int)v->n; break;
    case O_NODES: m->nodes = (uint64_t)v->n; break;
    case O_MAX_PLIES: m->max_plies = (int)v->n; break;
    case O_HASH: m->hash = (size_t)v->n; break;
    case O_CONCURRENCY: m->concurrency = (int)v->n; break;
    case O_RESIGN_SCORE: m->resign_score = (int)v->n; break;
    case O_RESIGN_MOVES: m->resign_moves = (int)v->n; break;
    case O_DRAW_SCORE: m->draw_score = (int)v->n; break;
    case O_DRAW_MOVES: m->draw_moves = (int)v->n; break;
    case O_DRAW_AFTER: m->draw_after = (int)v->n; break;
    case O_TIME: m->movetime = v->x; break;
    case O_CLOCK: m->game_time = v->x; break;
    case O_INC: m->increment = v->x; break;
    case O_TIMEMARGIN: m->timemargin = v->x; break;
    case O_HANG: m->hang = v->x; break;
    case O_MOVE_LIMIT: m->move_limit = v->x; break;
    case O_QUIET: m->quiet = 1; break;
    }
}

static int match_cli(int argc, char **argv)
{
    match_options m;
    memset(&m, 0, sizeof m);
    m.rules = cd_rules_find("international");
    m.max_plies = 400;
    m.timemargin = 0.1;
    m.hang = 5.0;
    m.move_limit = 120.0;
    m.concurrency = 1;
    cli_parse(&cd_match_command, argc, argv, set_option, &m, NULL, 0);
    int kinds = (m.depth > 0) + (m.nodes > 0) + (m.movetime > 0) + (m.game_time > 0);
    if (kinds > 1)
        fail("give one of --depth, --nodes, --time and --clock");
    if (m.increment > 0 && m.game_time <= 0)
        fail("--inc needs --clock");
    if (!kinds)
        m.movetime = 0.1;
    return cd_match_main(&m);
}
