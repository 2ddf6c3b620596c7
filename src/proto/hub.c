/*
 * hub.c -- the Hub protocol, version 2: the text protocol of Fabien Letouzey's Scan engine and
 * of the Hub GUI. Source: "Hub protocol for draughts, version 2 (used by Scan 3.1 and Hub 2.1)",
 * protocol.txt of Scan 3.1 (2019-07-06); behaviour details (level reset after each search, `pos
 * start`, quiet `stop` when idle, `error message=...`) follow Scan 3.1's hub loop. Own code.
 *
 * Syntax: every line is `<command> <arg>=<value> <arg>=<value> ...`; a value is a run of
 * characters other than blanks, '=' and '"', or any text in double quotes; an argument without
 * "=value" is a flag. Unknown arguments are ignored (the spec asks for that); an unknown command,
 * an empty line, a syntax error or a bad value gets `error message="..."` and changes nothing.
 *
 * GUI -> engine                         engine -> GUI
 *   hub                                   id name=.. version=.. author=".." country=..
 *                                         param name=variant|hash|threads|numbering|contempt,
 *                                         then the engine's other options; wait
 *   init                                  ready
 *   set-param name=N value=V              (nothing, or error)
 *   new-game                              clears the hash table, back to the start position
 *   pos [pos=P] [start] [moves="m1 m2"]   (nothing, or error: the game is then unchanged, and
 *                                         `go` answers an error until a `pos` or `new-game`)
 *   level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite
 *                                         fields combine; they apply to the next `go` only
 *   go think | ponder | analyze           info ... (per iteration), then done move=M [ponder=M]
 *   ponder-hit, stop                      (during a search; ignored otherwise)
 *   ping                                  pong (also during a search)
 *   quit, end of input                    stop the search and exit (no done)
 * Any other command arriving during a search ends it first (its done comes out first), as Scan
 * does; a bad line during a search gets an error and the search goes on.
 * Errors: `error message="..."` (the spec's form). Parameters: variant (enum of every
 * condraughts variant; Hub's normal/killer/bt/losing, pydraughts' and lidraughts' names such as
 * standard and frysk! are accepted as values too), hash (MiB, default 64, applied at `init` or
 * at once after it), threads (1 to HUB_THREADS_MAX, lazy SMP), numbering (top-left or variant,
 * see Moves), contempt (0 to 100 hundredths of a man, default 0: what a draw costs the engine in
 * `go think` and `go ponder`, for play against weaker opponents; `go analyze` always scores a
 * draw 0); then the engine's other options from its table (cd_engine_option_at: classic-eval,
 * drawscale, net; a tuning build also the search's parameters), each `type=int` with its range,
 * applied to the engine when it is made or at once after.
 * Limits: `go think` with no level searches HUB_DEFAULT_MOVETIME seconds; `go analyze` keeps
 * depth= and nodes= but no time limit and runs until `stop`; `go ponder` has no time limit until
 * `ponder-hit`; the clock (time/inc/moves) is the side to move's.
 * Book: `go think` in a position of the session's opening book (cd_hub_options.book) answers
 * `done move=M` at once, M the book's first legal move (rank order), with no info and no search;
 * `go ponder` and `go analyze` always search.
 *
 * Positions (`pos=`): the side to move ('W' or 'B') and then one character per playable square
 * in square-number order: 'w' white man, 'b' black man, 'W' white king, 'B' black king, 'e'
 * empty. 10x10 variants: 1 + 50 characters; 8x8 variants: 1 + 32 (squares 1-32 numbered as in
 * the README: row by row from the top-left playable square as White sees the board, so the
 * Russian start is "W" + 12 'b' + 8 'e' + 12 'w'; Italian, Spanish and Portuguese use the same
 * numbering on their own playable squares); 12x12: 1 + 72.
 * Moves (`moves=`, `done`, `pv`): Hub form "32-28" or "28x19x23" (from x to x captured squares,
 * in any order when read); standard move text of the variant is also read. With `set-param
 * name=numbering value=variant` their squares are in pydraughts' numbering of 8x8 variants (see
 * variant_square); the default, top-left, is the numbering above.
 * No legal move: `go` answers `done move=0-0` (see cmd_go).
 *
 * `info` fields: depth, score (in men, side to move's view), nodes, time (s), nps (millions of
 * nodes per second, as Scan), pv. Scan's mean-depth (average leaf depth) is not measured by
 * this engine and is not sent.
 *
 * Threads: the main thread reads commands; `go` starts one search thread that runs cd_search
 * and prints `info` and `done`. All output goes through one mutex, which also guards the
 * search flags (searching, stop/ponder-hit requests).
 *
 * This file is the session (state, search thread, commands); the text of lines, numbers, moves
 * and the square numbering is hub_codec.c's.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "condraughts.h"
#include "hub.h"
#include "hub_codec.h"

#define HUB_NAME             "condraughts"
#define HUB_VERSION          "0.1"
#define HUB_AUTHOR           "condraughts developers"
#define HUB_COUNTRY          "International"
#define HUB_HASH_DEFAULT     64
#define HUB_HASH_MAX         32768
#define HUB_THREADS_MAX      64  /* the engine's CD_MAX_THREADS */
#define HUB_CONTEMPT_MAX     100 /* the engine's option "contempt" */
#define HUB_ENGINE_OPTIONS   64  /* the engine's options table, at most (cd_engine_option_at) */
#define HUB_DEFAULT_MOVETIME 1.0 /* seconds, for `go think` when `level` set no limit */
#define HUB_PV_LEN           16384

/* ------------------------------------------------------------------ state */

typedef struct hub_level {
    int depth;
    uint64_t nodes;
    double movetime;
    int clock; /* time, inc or moves given */
    double time, inc;
    int moves;
    int infinite;
} hub_level;

enum { MODE_THINK, MODE_PONDER, MODE_ANALYZE };

typedef struct hub {
    FILE *in, *out;
    mtx_t lock; /* output and the fields marked (lock) */
    const cd_rules *rules;
    cd_game *game;
    cd_engine *engine; /* created at `init` or the first search */
    int pos_refused;   /* the last `pos` was refused: `go` answers an error until a `pos` is
                          taken or `new-game` */
    long hash_mb;
    long max_hash_mb;     /* set-param hash limit */
    int numbering;        /* squares in moves: 0 top-left (ours, Scan's), 1 variant (pydraughts) */
    long threads;         /* search threads (set-param threads), 0: 1 */
    long contempt;        /* set-param contempt: a draw's cost to the engine in `go think` and
                             `go ponder`, hundredths of a man (analysis: always 0) */
    int option[HUB_ENGINE_OPTIONS]; /* the engine's other options by cd_engine_option_at's
                                       index: their defaults, or what set-param gave */
    uint64_t max_nodes;   /* cap on every search's nodes (0: none) */
    const char *egtb_dir; /* endgame tables folder, or NULL */
    cd_egtb *tb;          /* its tables for h->rules, given to the engine (NULL: none) */
    const cd_eval *eval;  /* the learned evaluation given to the engine (NULL: by hand) */
    const cd_book *book;  /* the opening book of `go think` (NULL: none) */
    hub_level level;

    /* the search */
    thrd_t thread;
    int thread_live;      /* main thread: a search thread to join */
    int searching;        /* (lock) a search runs and has not printed `done` */
    int stop_req;         /* (lock) `stop` arrived during this search */
    int ponderhit_req;    /* (lock) 1: `ponder-hit` arrived; 2: also re-sent from on_info */
    int quiet;            /* (lock) quitting: print nothing more */
    cd_game *search_game; /* the game searched: h->game or an owned copy */
    cd_position root;
    cd_limits limits;
    cd_movelist scratch; /* (lock) used while formatting output */
    char pv[HUB_PV_LEN]; /* (lock) */
} hub;

/* ------------------------------------------------------------------ output */

static void say_locked(hub *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(h->out, fmt, ap);
    va_end(ap);
    fputc('\n', h->out);
    fflush(h->out);
}

static void say(hub *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mtx_lock(&h->lock);
    vfprintf(h->out, fmt, ap);
    fputc('\n', h->out);
    fflush(h->out);
    mtx_unlock(&h->lock);
    va_end(ap);
}

/* error message="..." (quotes and control characters in the text are replaced). */
static void hub_error(hub *h, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *c = msg; *c; c++)
        if (*c == '"')
            *c = '\'';
        else if (iscntrl((unsigned char)*c))
            *c = ' ';
    say(h, "error message=\"%s\"", msg);
}

/* ------------------------------------------------------------------ moves */

/* Hub text of a move legal in pos (checked with h->scratch); 0 if it is not legal. */
static int move_hub_locked(hub *h, const cd_position *pos, const cd_move *m, cd_move *legal,
                           char *buf, size_t len)
{
    cd_generate(pos, &h->scratch);
    if (!hub_find_legal(&h->scratch, m, legal))
        return 0;
    if (cd_move_to_hub(pos, legal, buf, len) >= len)
        return 0;
    if (h->numbering) {
        char ours[512];
        snprintf(ours, sizeof ours, "%s", buf);
        hub_renumber(pos->rules, ours, buf, len);
    }
    return 1;
}

/* ------------------------------------------------------------------ search thread */

static void on_info(const cd_search_info *info, void *user)
{
    hub *h = user;
    mtx_lock(&h->lock);
    /* A stop or ponder-hit that arrived before cd_search took over the engine may have been
     * reset by it: pass it on again. */
    if (h->stop_req)
        cd_engine_stop(h->engine);
    if (h->ponderhit_req == 1) {
        cd_engine_ponderhit(h->engine);
        h->ponderhit_req = 2;
    }
    if (!h->quiet && (info->multipv <= 1)) {
        char *pv = h->pv;
        size_t used = 0;
        pv[0] = '\0';
        cd_position p = h->root;
        int n = info->pvlen < CD_MAX_PLY ? info->pvlen : CD_MAX_PLY;
        for (int i = 0; i < n; i++) {
            char mv[512];
            cd_move m;
            if (!move_hub_locked(h, &p, &info->pv[i], &m, mv, sizeof mv))
                break;
            size_t l = strlen(mv);
            if (used + l + 2 > HUB_PV_LEN)
                break;
            if (used)
                pv[used++] = ' ';
            memcpy(pv + used, mv, l + 1);
            used += l;
            cd_play(&p, &m, &p);
        }
        say_locked(h, "info depth=%d score=%.2f nodes=%llu time=%.3f nps=%.2f pv=\"%s\"",
                   info->depth, info->score / 100.0, (unsigned long long)info->nodes, info->time,
                   info->nps / 1e6, pv);
    }
    mtx_unlock(&h->lock);
}

/* done move=.. [ponder=..]: the search's move if legal, else the first legal move. */
static void print_done_locked(hub *h, const cd_search_result *res)
{
    char line[1200] = "done";
    char mv[512];
    cd_move best;
    int have = 0, ours = 0;
    if (res && res->has_move && move_hub_locked(h, &h->root, &res->best, &best, mv, sizeof mv))
        have = ours = 1;
    if (!have) {
        cd_generate(&h->root, &h->scratch);
        if (h->scratch.count > 0) {
            cd_move first = h->scratch.moves[0];
            have = move_hub_locked(h, &h->root, &first, &best, mv, sizeof mv);
        }
    }
    if (have) {
        strcat(line, " move=");
        strcat(line, mv);
        if (ours && res->has_ponder) {
            cd_position next;
            cd_move reply;
            cd_play(&h->root, &best, &next);
            if (move_hub_locked(h, &next, &res->ponder, &reply, mv, sizeof mv)) {
                strcat(line, " ponder=");
                strcat(line, mv);
            }
        }
    }
    say_locked(h, "%s", line);
}

static int search_main(void *arg)
{
    hub *h = arg;
    cd_search_result res;
    memset(&res, 0, sizeof res);
    cd_result r = cd_search(h->engine, h->search_game, &h->limits, on_info, h, &res);
    mtx_lock(&h->lock);
    if (!h->quiet) {
        if (r != CD_OK)
            say_locked(h, "error message=\"search failed: %s\"", cd_result_str(r));
        print_done_locked(h, &res);
    }
    h->searching = 0;
    mtx_unlock(&h->lock);
    return 0;
}

static int is_searching(hub *h)
{
    mtx_lock(&h->lock);
    int s = h->searching;
    mtx_unlock(&h->lock);
    return s;
}

/* Join a finished search thread and free what it used. */
static void reap(hub *h)
{
    if (!h->thread_live)
        return;
    thrd_join(h->thread, NULL);
    h->thread_live = 0;
    if (h->search_game != h->game)
        cd_game_free(h->search_game);
    h->search_game = NULL;
}

static void stop_search(hub *h, int quiet)
{
    mtx_lock(&h->lock);
    int s = h->searching;
    if (s) {
        h->stop_req = 1;
        if (quiet)
            h->quiet = 1;
    }
    mtx_unlock(&h->lock);
    if (s)
        cd_engine_stop(h->engine);
}

/* ------------------------------------------------------------------ commands */

static const cd_rules *find_variant(const char *name)
{
    static const struct {
        const char *hub, *ours;
    } hub_names[] = {
        {"normal", "international"},
        {"bt", "breakthrough"},
        {"losing", "antidraughts"},
    };
    for (size_t i = 0; i < sizeof hub_names / sizeof hub_names[0]; i++)
        if (hub_name_eq(name, hub_names[i].hub))
            return cd_rules_find(hub_names[i].ours);
    return cd_rules_find(name);
}

/* Option i of the engine's table when Hub passes it through as a parameter of its own name: 1
 * with it in *o. threads and contempt are Hub parameters with their own handling. */
static int engine_param(int i, cd_option_info *o)
{
    return i < HUB_ENGINE_OPTIONS && cd_engine_option_at(i, o) && strcmp(o->name, "threads") &&
           strcmp(o->name, "contempt");
}

/* The engine, made on first use with the options set so far, with the endgame tables of the
 * current variant (none where the variant cannot have them). */
static int ensure_engine(hub *h)
{
    cd_option_info o;
    if (!h->engine && (h->engine = cd_engine_new((size_t)h->hash_mb))) {
        cd_engine_set_eval(h->engine, h->eval);
        if (h->threads > 1)
            cd_engine_set_option(h->engine, "threads", (int)h->threads);
        for (int i = 0; cd_engine_option_at(i, &o); i++)
            if (engine_param(i, &o))
                cd_engine_set_option(h->engine, o.name, h->option[i]);
    }
    if (h->engine && h->egtb_dir && !h->tb && (h->tb = cd_egtb_open(h->rules, h->egtb_dir)))
        cd_engine_set_egtb(h->engine, h->tb);
    return h->engine != NULL;
}

/* Another variant: its tables are other files (opened again by ensure_engine). No search runs. */
static void drop_tables(hub *h)
{
    if (h->engine)
        cd_engine_set_egtb(h->engine, NULL);
    cd_egtb_close(h->tb);
    h->tb = NULL;
}

static void cmd_hub(hub *h, const hub_line *l)
{
    (void)l;
    char values[1024];
    size_t used = 0;
    values[0] = '\0';
    for (int i = 0; cd_rules_at(i); i++) {
        const char *name = cd_rules_at(i)->name;
        size_t len = strlen(name);
        if (used + len + 2 > sizeof values)
            break;
        if (used)
            values[used++] = ' ';
        memcpy(values + used, name, len + 1);
        used += len;
    }
    mtx_lock(&h->lock);
    say_locked(h, "id name=%s version=%s author=\"%s\" country=%s", HUB_NAME, HUB_VERSION,
               HUB_AUTHOR, HUB_COUNTRY);
    say_locked(h, "param name=variant value=%s type=enum values=\"%s\"", h->rules->name, values);
    say_locked(h, "param name=hash value=%ld type=int min=1 max=%ld", h->hash_mb, h->max_hash_mb);
    say_locked(h, "param name=threads value=%ld type=int min=1 max=%d", h->threads ? h->threads : 1,
               HUB_THREADS_MAX);
    say_locked(h, "param name=numbering value=%s type=enum values=\"top-left variant\"",
               h->numbering ? "variant" : "top-left");
    say_locked(h, "param name=contempt value=%ld type=int min=0 max=%d", h->contempt,
               HUB_CONTEMPT_MAX);
    cd_option_info o;
    for (int i = 0; cd_engine_option_at(i, &o); i++)
        if (engine_param(i, &o))
            say_locked(h, "param name=%s value=%d type=int min=%d max=%d", o.name, h->option[i],
                       o.lo, o.hi);
    say_locked(h, "wait");
    mtx_unlock(&h->lock);
}

static void cmd_init(hub *h, const hub_line *l)
{
    (void)l;
    if (!ensure_engine(h))
        hub_error(h, "cannot allocate the engine with a %ld MiB hash table", h->hash_mb);
    say(h, "ready");
}

/* set-param of one of the engine's other options (engine_param), or an unknown name. */
static void set_engine_param(hub *h, const char *name, const char *value)
{
    cd_option_info o;
    int i = 0;
    while (cd_engine_option_at(i, &o) && !(engine_param(i, &o) && !strcmp(o.name, name)))
        i++;
    if (!engine_param(i, &o)) {
        hub_error(h,
                  "set-param: unknown parameter '%s' (variant, hash, threads, numbering, contempt, "
                  "or an engine option: condraughts analyse --options)",
                  name);
        return;
    }
    long x;
    if (!hub_parse_long(value, o.lo, o.hi, &x)) {
        hub_error(h, "set-param: %s must be an integer from %d to %d, not '%s'", name, o.lo, o.hi,
                  value);
        return;
    }
    h->option[i] = (int)x;
    if (h->engine)
        cd_engine_set_option(h->engine, name, (int)x);
}

static void cmd_set_param(hub *h, const hub_line *l)
{
    const hub_arg *n = hub_arg_get(l, "name"), *v = hub_arg_get(l, "value");
    if (!n || !n->has_value || !*n->value) {
        hub_error(h, "set-param: missing name=");
        return;
    }
    if (!v || !v->has_value) {
        hub_error(h, "set-param: missing value= for '%s'", n->value);
        return;
    }
    if (!strcmp(n->value, "variant")) {
        const cd_rules *r = find_variant(v->value);
        if (!r) {
            hub_error(h, "set-param: unknown variant '%s'", v->value);
            return;
        }
        if (r != h->rules) {
            cd_game *g = cd_game_new(r, NULL);
            if (!g) {
                hub_error(h, "set-param: out of memory");
                return;
            }
            cd_game_free(h->game);
            h->game = g;
            h->rules = r;
            drop_tables(h);
        }
    } else if (!strcmp(n->value, "hash")) {
        long mb;
        if (!hub_parse_long(v->value, 1, h->max_hash_mb, &mb)) {
            hub_error(h, "set-param: hash must be an integer from 1 to %ld (MiB), not '%s'",
                      h->max_hash_mb, v->value);
            return;
        }
        if (h->engine && cd_engine_set_hash(h->engine, (size_t)mb) != CD_OK) {
            hub_error(h, "set-param: cannot allocate a %ld MiB hash table", mb);
            return;
        }
        h->hash_mb = mb;
    } else if (!strcmp(n->value, "threads")) {
        long t;
        if (!hub_parse_long(v->value, 1, HUB_THREADS_MAX, &t)) {
            hub_error(h, "set-param: threads must be an integer from 1 to %d, not '%s'",
                      HUB_THREADS_MAX, v->value);
            return;
        }
        if (h->engine && cd_engine_set_option(h->engine, "threads", (int)t) != CD_OK) {
            hub_error(h, "set-param: cannot allocate %ld search threads", t);
            return;
        }
        h->threads = t;
    } else if (!strcmp(n->value, "numbering")) {
        if (strcmp(v->value, "top-left") && strcmp(v->value, "variant")) {
            hub_error(h, "set-param: numbering must be top-left or variant, not '%s'", v->value);
            return;
        }
        h->numbering = !strcmp(v->value, "variant");
    } else if (!strcmp(n->value, "contempt")) {
        long c;
        if (!hub_parse_long(v->value, 0, HUB_CONTEMPT_MAX, &c)) {
            hub_error(h,
                      "set-param: contempt must be an integer from 0 to %d (hundredths of a man), "
                      "not '%s'",
                      HUB_CONTEMPT_MAX, v->value);
            return;
        }
        h->contempt = c;
    } else {
        set_engine_param(h, n->value, v->value);
    }
}

static void cmd_new_game(hub *h, const hub_line *l)
{
    (void)l;
    cd_game *g = cd_game_new(h->rules, NULL);
    if (!g) {
        hub_error(h, "new-game: out of memory");
        return;
    }
    cd_game_free(h->game);
    h->game = g;
    h->pos_refused = 0;
    if (h->engine)
        cd_engine_clear(h->engine);
}

/* Set the game from a `pos` line: 1, or 0 after an error (the game unchanged). */
static int load_pos(hub *h, const hub_line *l)
{
    const char *text = NULL, *moves = NULL;
    for (int i = 0; i < l->nargs; i++) {
        const hub_arg *a = &l->args[i];
        if (!strcmp(a->name, "pos")) {
            if (!a->has_value) {
                hub_error(h, "pos: pos= needs a position");
                return 0;
            }
            text = a->value;
        } else if (!strcmp(a->name, "start")) {
            text = NULL;
        } else if (!strcmp(a->name, "moves")) {
            moves = a->value;
        }
    }
    char err[256] = "";
    cd_position start;
    if (text) {
        if (cd_position_from_hub(&start, h->rules, text, err, sizeof err) != CD_OK) {
            hub_error(h, "pos: bad position for %s: %s", h->rules->name, err);
            return 0;
        }
    } else {
        cd_position_start(&start, h->rules);
    }
    cd_game *g = cd_game_new(h->rules, &start);
    if (!g) {
        hub_error(h, "pos: out of memory");
        return 0;
    }
    if (moves) {
        char *copy = strdup(moves);
        if (!copy) {
            cd_game_free(g);
            hub_error(h, "pos: out of memory");
            return 0;
        }
        int i = 0;
        char *save = NULL;
        for (char *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            i++;
            if (cd_game_status(g, NULL) != CD_ONGOING) {
                /* Over by our draw rules but the GUI goes on: keep the moves, drop the history. */
                cd_game *fresh = cd_game_new(h->rules, cd_game_position(g));
                if (!fresh) {
                    hub_error(h, "pos: out of memory");
                    free(copy);
                    cd_game_free(g);
                    return 0;
                }
                cd_game_free(g);
                g = fresh;
            }
            cd_move m;
            err[0] = '\0';
            char ours[512];
            if (h->numbering && isdigit((unsigned char)tok[0]))
                hub_renumber(h->rules, tok, ours, sizeof ours);
            else
                snprintf(ours, sizeof ours, "%s", tok);
            cd_result r = hub_parse_move(cd_game_position(g), ours, &m, err, sizeof err);
            if (r == CD_OK)
                r = cd_game_play(g, &m);
            if (r != CD_OK) {
                hub_error(h, "pos: move %d '%s': %s", i, tok, err[0] ? err : cd_result_str(r));
                free(copy);
                cd_game_free(g);
                return 0;
            }
        }
        free(copy);
    }
    cd_game_free(h->game);
    h->game = g;
    return 1;
}

static void cmd_pos(hub *h, const hub_line *l) { h->pos_refused = !load_pos(h, l); }

static void cmd_level(hub *h, const hub_line *l)
{
    hub_level lv = h->level;
    for (int i = 0; i < l->nargs; i++) {
        const hub_arg *a = &l->args[i];
        const char *k = a->name;
        long n;
        double x;
        if (!strcmp(k, "depth")) {
            if (!hub_parse_long(a->value, 1, 1000, &n))
                goto bad;
            lv.depth = n < CD_MAX_PLY ? (int)n : CD_MAX_PLY;
        } else if (!strcmp(k, "nodes")) {
            if (!hub_parse_u64(a->value, &lv.nodes) || !lv.nodes)
                goto bad;
        } else if (!strcmp(k, "move-time")) {
            if (!hub_parse_real(a->value, &x) || x < 0)
                goto bad;
            lv.movetime = x > 0.001 ? x : 0.001;
        } else if (!strcmp(k, "time")) {
            if (!hub_parse_real(a->value, &x))
                goto bad;
            lv.time = x > 0.001 ? x : 0.001; /* an overrun clock is sent as <= 0 */
            lv.clock = 1;
        } else if (!strcmp(k, "inc")) {
            if (!hub_parse_real(a->value, &x) || x < 0)
                goto bad;
            lv.inc = x;
            lv.clock = 1;
        } else if (!strcmp(k, "moves")) {
            if (!hub_parse_long(a->value, 0, 100000, &n))
                goto bad;
            lv.moves = (int)n;
            lv.clock = 1;
        } else if (!strcmp(k, "infinite")) {
            lv.infinite = 1;
        } /* other arguments ("ponder", future ones) are ignored */
        continue;
    bad:
        hub_error(h, "level: bad value for %s: '%s'", k, a->value);
        return;
    }
    h->level = lv;
}

static void cmd_go(hub *h, const hub_line *l)
{
    int mode = -1;
    if (hub_arg_get(l, "think"))
        mode = MODE_THINK;
    else if (hub_arg_get(l, "ponder"))
        mode = MODE_PONDER;
    else if (hub_arg_get(l, "analyze") || hub_arg_get(l, "analyse"))
        mode = MODE_ANALYZE;
    if (mode < 0) {
        hub_error(h, "go: expected think, ponder or analyze");
        return;
    }
    if (h->pos_refused) {
        hub_error(h, "go: no position to search: the last pos was refused");
        return;
    }
    hub_level lv = h->level;
    memset(&h->level, 0, sizeof h->level); /* a level applies to one search */

    const cd_position *pos = cd_game_position(h->game);
    h->root = *pos;
    mtx_lock(&h->lock);
    h->searching = 0;
    h->stop_req = 0;
    h->ponderhit_req = 0;
    mtx_unlock(&h->lock);

    if (cd_count_moves(pos) == 0) {
        /* Scan's protocol text: "the GUI will never ask the engine to search a terminal
         * position", so it is silent here; Scan itself answers a bare `done`, which pydraughts
         * cannot read (it takes the first field's value). `move=0-0` is pydraughts' null move
         * (Move.is_null), so its play() returns instead of crashing. */
        say(h, "done move=0-0");
        return;
    }
    cd_book_move bm;
    if (mode == MODE_THINK && cd_book_probe(h->book, pos, &bm, 1)) {
        /* the book's first legal move at once, with no search (docs/book.md) */
        cd_search_result res;
        memset(&res, 0, sizeof res);
        res.best = bm.move;
        res.has_move = 1;
        mtx_lock(&h->lock);
        print_done_locked(h, &res);
        mtx_unlock(&h->lock);
        return;
    }
    if (!ensure_engine(h)) {
        hub_error(h, "go: cannot allocate the engine with a %ld MiB hash table", h->hash_mb);
        mtx_lock(&h->lock);
        print_done_locked(h, NULL);
        mtx_unlock(&h->lock);
        return;
    }
    h->search_game = h->game;
    if (cd_game_status(h->game, NULL) != CD_ONGOING) {
        /* Over by a draw rule here, yet the GUI asks for a move: search the position alone. */
        h->search_game = cd_game_new(h->rules, pos);
        if (!h->search_game) {
            hub_error(h, "go: out of memory");
            mtx_lock(&h->lock);
            print_done_locked(h, NULL);
            mtx_unlock(&h->lock);
            return;
        }
    }

    cd_limits *lim = &h->limits;
    memset(lim, 0, sizeof *lim);
    lim->depth = lv.depth;
    lim->nodes = lv.nodes;
    if (mode == MODE_ANALYZE) {
        lim->infinite = 1;
    } else {
        lim->movetime = lv.movetime;
        if (lv.clock) {
            lim->time[pos->side] = lv.time;
            lim->inc[pos->side] = lv.inc;
            lim->moves_to_go = lv.moves;
        }
        lim->infinite = lv.infinite;
        lim->ponder = mode == MODE_PONDER;
        if (!lv.depth && !lv.nodes && lv.movetime <= 0 && !lv.clock && !lv.infinite)
            lim->movetime = HUB_DEFAULT_MOVETIME;
    }
    if (h->max_nodes && (!lim->nodes || lim->nodes > h->max_nodes))
        lim->nodes = h->max_nodes;
    cd_engine_set_option(h->engine, "contempt", mode == MODE_ANALYZE ? 0 : (int)h->contempt);

    mtx_lock(&h->lock);
    h->searching = 1;
    mtx_unlock(&h->lock);
    if (thrd_create(&h->thread, search_main, h) != thrd_success) {
        mtx_lock(&h->lock);
        h->searching = 0;
        say_locked(h, "error message=\"go: cannot start the search thread\"");
        print_done_locked(h, NULL);
        mtx_unlock(&h->lock);
        if (h->search_game != h->game)
            cd_game_free(h->search_game);
        h->search_game = NULL;
        return;
    }
    h->thread_live = 1;
}

static const struct {
    const char *name;
    void (*run)(hub *h, const hub_line *l);
} commands[] = {
    {"hub", cmd_hub},
    {"init", cmd_init},
    {"set-param", cmd_set_param},
    {"new-game", cmd_new_game},
    {"pos", cmd_pos},
    {"level", cmd_level},
    {"go", cmd_go},
};

/*
 * Handle one line. Returns 1 on quit. During a search, ping, stop and ponder-hit act at once;
 * any other known command first ends the search (as `stop`, its `done` comes first) and then
 * runs, as in Scan: so "stop, pos, level, go" sent in one go works. A bad or unknown line gets
 * an error and the search goes on.
 */
static int handle_line(hub *h, const char *text, char *store)
{
    hub_line l;
    char err[256];
    if (hub_parse_line(text, &l, store, err, sizeof err) != 0) {
        hub_error(h, "%s", err);
        if (l.cmd && !strcmp(l.cmd, "pos"))
            h->pos_refused = 1; /* a bad `pos` line is a refused `pos` */
        return 0;
    }
    const char *c = l.cmd;
    if (!is_searching(h))
        reap(h);

    if (!strcmp(c, "ping")) {
        say(h, "pong");
    } else if (!strcmp(c, "quit")) {
        return 1;
    } else if (!strcmp(c, "stop")) {
        stop_search(h, 0); /* idle: nothing to stop (the search may just have ended) */
    } else if (!strcmp(c, "ponder-hit")) {
        mtx_lock(&h->lock);
        int s = h->searching;
        if (s && !h->ponderhit_req)
            h->ponderhit_req = 1;
        mtx_unlock(&h->lock);
        if (s)
            cd_engine_ponderhit(h->engine);
    } else {
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(c, commands[i].name)) {
                stop_search(h, 0);
                reap(h); /* waits for the search's done */
                commands[i].run(h, &l);
                return 0;
            }
        char shown[64];
        snprintf(shown, sizeof shown, "%s", c);
        hub_error(h, "unknown command '%s'", shown);
    }
    return 0;
}

/* ------------------------------------------------------------------ main loop */

int cd_hub_main(FILE *in, FILE *out, const char *default_variant)
{
    cd_hub_options opt;
    memset(&opt, 0, sizeof opt);
    opt.variant = default_variant;
    return cd_hub_run(in, out, &opt);
}

int cd_hub_run(FILE *in, FILE *out, const cd_hub_options *opt)
{
    const char *default_variant = opt ? opt->variant : NULL;
    const cd_rules *rules = find_variant(default_variant ? default_variant : "international");
    if (!rules) {
        fprintf(stderr, "condraughts hub: unknown variant '%s' (try: condraughts variants)\n",
                default_variant);
        return 2;
    }
    hub *h = calloc(1, sizeof *h);
    if (!h) {
        fprintf(stderr, "condraughts hub: out of memory\n");
        return 2;
    }
    h->in = in;
    h->out = out;
    h->rules = rules;
    h->max_hash_mb = opt && opt->max_hash_mb > 0 ? opt->max_hash_mb : HUB_HASH_MAX;
    h->hash_mb = opt && opt->hash_mb > 0 ? opt->hash_mb : HUB_HASH_DEFAULT;
    if (h->hash_mb > h->max_hash_mb)
        h->hash_mb = h->max_hash_mb;
    h->max_nodes = opt ? opt->max_nodes : 0;
    cd_option_info o;
    for (int i = 0; i < HUB_ENGINE_OPTIONS && cd_engine_option_at(i, &o); i++)
        h->option[i] = o.def;
    h->egtb_dir = opt ? opt->egtb : NULL;
    h->eval = opt ? opt->eval : NULL;
    h->book = opt ? opt->book : NULL;
    h->game = cd_game_new(rules, NULL);
    if (!h->game || mtx_init(&h->lock, mtx_plain) != thrd_success) {
        fprintf(stderr, "condraughts hub: out of memory\n");
        cd_game_free(h->game);
        free(h);
        return 2;
    }

    char *line = NULL, *store = NULL;
    size_t cap = 0, store_cap = 0;
    for (;;) {
        size_t len = 0;
        int nul = 0, too_long = 0;
        if (hub_read_line(in, &line, &cap, &len, &nul, &too_long) < 0)
            break; /* end of input (or a read error): the GUI is gone */
        if (too_long) {
            hub_error(h, "line too long (more than %d bytes)", HUB_MAX_LINE);
            continue;
        }
        if (nul) {
            hub_error(h, "NUL byte in the line");
            continue;
        }
        if (2 * len + 2 > store_cap) {
            char *s = realloc(store, 2 * len + 2);
            if (!s) {
                hub_error(h, "out of memory");
                continue;
            }
            store = s;
            store_cap = 2 * len + 2;
        }
        if (handle_line(h, line, store))
            break;
    }

    stop_search(h, 1);
    reap(h);
    free(line);
    free(store);
    if (h->engine)
        cd_engine_free(h->engine);
    cd_egtb_close(h->tb);
    cd_game_free(h->game);
    mtx_destroy(&h->lock);
    free(h);
    return 0;
}
