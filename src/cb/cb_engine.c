/*
 * cb_engine.c -- condraughts as a CheckerBoard engine: the library exporting getmove,
 * enginecommand and islegal (cb_api.h) over libcondraughts, built as build/condraughts_cb.so
 * (`make cb`) and condraughts_cb.dll (`make windows`). docs/gui.md tells how to install it.
 *
 * State: the API is a set of plain functions, so the engine's state is this file's (one engine
 * per loaded library; CheckerBoard calls one function at a time, from one thread):
 *   gametype, rules   the game played: 21 English by default; the library's file name may name
 *                     another (condraughts_cb_russian.dll: see engine_init), and `set gametype N`
 *                     changes it
 *   engine, eval      the search (its table of hash_mb MiB, threads) and the weights built in
 *   hist              the game as known: the position of the last getmove after its move, with
 *                     the moves before it, so that repetitions are seen
 *   gamehist          the last `set gamehist` text, used by the next getmove only
 * How getmove finds the history (cb_api_reference.htm, info bit 0 and `set gamehist`): the
 * `set gamehist` sent just before it, when its last position is the board; otherwise, without the
 * reset bit, the kept game extended by the one opponent move that leads to the board; otherwise a
 * game starting at the board.
 */
#if !defined(_WIN32)
#define _GNU_SOURCE /* dladdr */
#endif
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "cb_api.h"
#include "cb_board.h"
#include "condraughts.h"
#include "eval_io.h"

#if defined(_WIN32)
#include <windows.h>
#define CB_EXPORT __declspec(dllexport)
#else
#include <dlfcn.h>
#define CB_EXPORT __attribute__((visibility("default")))
#endif

#define CB_NAME "condraughts " CD_VERSION
#define CB_DEFAULT_HASH 64

static int gametype = CB_GT_ENGLISH;
static const cd_rules *rules;
static cd_engine *engine;
static cd_eval *eval;
static size_t hash_mb = CB_DEFAULT_HASH;
static int threads = 1;
static cd_game *hist;
static char *gamehist;
static int started;

static void say(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* The game type named in the library's own file name, or 0. */
static int gametype_from_file_name(void)
{
    char path[4096] = "";
#if defined(_WIN32)
    HMODULE self = NULL;
    if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                               GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)(void *)gametype_from_file_name, &self))
        GetModuleFileNameA(self, path, sizeof path - 1);
#else
    Dl_info info;
    if (dladdr((void *)gametype_from_file_name, &info) && info.dli_fname)
        snprintf(path, sizeof path, "%s", info.dli_fname);
#endif
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    static const struct {
        const char *word;
        int gt;
    } names[] = {{"english", CB_GT_ENGLISH}, {"italian", CB_GT_ITALIAN},
                 {"spanish", CB_GT_SPANISH}, {"russian", CB_GT_RUSSIAN},
                 {"brazilian", CB_GT_BRAZILIAN}, {"czech", CB_GT_CZECH}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strstr(base, names[i].word))
            return names[i].gt;
    return 0;
}

static void forget_history(void)
{
    cd_game_free(hist);
    hist = NULL;
    free(gamehist);
    gamehist = NULL;
}

/* The engine on first use. 0, or -1 with a message. */
static int engine_init(char *msg, size_t len)
{
    if (!started) {
        started = 1;
        int gt = gametype_from_file_name();
        if (gt)
            gametype = gt;
        rules = cbb_rules(gametype);
    }
    if (engine)
        return 0;
    if (!eval) {
        char err[256];
        if (!(eval = eval_io_builtin(err, sizeof err))) {
            say(msg, len, "condraughts: the built-in weights: %s", err);
            return -1;
        }
    }
    if (!(engine = cd_engine_new(hash_mb))) {
        say(msg, len, "condraughts: out of memory for a %zu MiB hash table", hash_mb);
        return -1;
    }
    cd_engine_set_eval(engine, eval);
    cd_engine_set_option(engine, "threads", threads);
    return 0;
}

/* ------------------------------------------------------------------ getmove */

typedef struct watch {
    int *playnow;
    atomic_int done;
} watch;

/* Stop the search as soon as CheckerBoard sets *playnow ("Play" in its menu). */
static int watch_playnow(void *arg)
{
    watch *w = arg;
    while (!atomic_load(&w->done)) {
        if (*(volatile int *)w->playnow) {
            cd_engine_stop(engine);
            break;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        thrd_sleep(&ts, NULL);
    }
    return 0;
}

/* The game to search from the board: see the header comment. NULL when out of memory. */
static cd_game *game_for(const cd_position *pos, int info)
{
    if (gamehist) {
        char err[256];
        cd_game *g = cbb_read_gamehist(gametype, gamehist, err, sizeof err);
        free(gamehist);
        gamehist = NULL;
        if (g && cbb_same(cd_game_position(g), pos)) {
            cd_game_free(hist);
            return hist = g;
        }
        cd_game_free(g);
    }
    if (hist && !(info & CB_RESET_MOVES) && cd_game_status(hist, NULL) == CD_ONGOING) {
        const cd_position *last = cd_game_position(hist);
        if (last->rules == pos->rules && cbb_same(last, pos))
            return hist;
        cd_movelist ml;
        cd_generate(last, &ml);
        for (int i = 0; i < ml.count; i++) {
            cd_position next;
            cd_play(last, &ml.moves[i], &next);
            if (cbb_same(&next, pos) && cd_game_play(hist, &ml.moves[i]) == CD_OK &&
                cd_game_status(hist, NULL) == CD_ONGOING)
                return hist;
        }
    }
    cd_game_free(hist);
    return hist = cd_game_new(pos->rules, pos);
}

static void set_limits(cd_limits *lim, const cd_position *pos, double maxtime, int info,
                       int moreinfo)
{
    memset(lim, 0, sizeof *lim);
    int mode = (info >> CB_INCR_TIME_SHIFT) & 3;
    if (mode) {
        static const double unit[] = {0.001, 0.01, 0.1};
        unsigned m = (unsigned)moreinfo;
        double inc = (double)(m & 0xffffu) * unit[mode - 1];
        double left = (double)(m >> 16) * unit[mode - 1];
        lim->time[pos->side] = left > 0.001 ? left : 0.001;
        lim->inc[pos->side] = inc;
        return;
    }
    if (!(maxtime > 0.001))
        maxtime = 0.001; /* also a NaN */
    if (maxtime > 86400)
        maxtime = 86400;
    lim->movetime = maxtime;
}

CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[CB_STR_SIZE],
                              int *playnow, int info, int moreinfo, struct cb_move *move)
{
    char err[400];
    if (!board) {
        say(str, CB_STR_SIZE, "condraughts: no board");
        return CB_UNKNOWN;
    }
    if (engine_init(str, CB_STR_SIZE))
        return CB_UNKNOWN;
    if (!rules) {
        say(str, CB_STR_SIZE, "condraughts: game type %d is not played", gametype);
        return CB_UNKNOWN;
    }
    cd_position pos;
    if (cbb_to_position(rules, (const int(*)[8])board, color, &pos, err, sizeof err) != CD_OK) {
        say(str, CB_STR_SIZE, "condraughts: %s", err);
        return CB_UNKNOWN;
    }
    cd_game *g = game_for(&pos, info);
    if (!g) {
        say(str, CB_STR_SIZE, "condraughts: out of memory");
        return CB_UNKNOWN;
    }
    cd_status st = cd_game_status(g, NULL);
    if (st != CD_ONGOING) {
        int lost = (st == CD_WHITE_WINS && pos.side == CD_BLACK) ||
                   (st == CD_BLACK_WINS && pos.side == CD_WHITE);
        say(str, CB_STR_SIZE, "condraughts: the game is over (%s)",
            st == CD_DRAW ? "draw" : lost ? "lost" : "won");
        return st == CD_DRAW ? CB_DRAW : lost ? CB_LOSS : CB_WIN;
    }
    cd_limits lim;
    set_limits(&lim, &pos, maxtime, info, moreinfo);
    watch w = {playnow, 0};
    thrd_t th;
    int watching = playnow && thrd_create(&th, watch_playnow, &w) == thrd_success;
    cd_search_result res;
    cd_result rc = cd_search(engine, g, &lim, NULL, NULL, &res);
    if (watching) {
        atomic_store(&w.done, 1);
        thrd_join(th, NULL);
    }
    if (rc != CD_OK || !res.has_move) {
        say(str, CB_STR_SIZE, "condraughts: no move (%s)", cd_result_str(rc));
        return CB_UNKNOWN;
    }
    char text[32];
    cbb_write_move(gametype, &pos, &res.best, text, sizeof text);
    if (move)
        cbb_move_to_cb(&pos, &res.best, move);
    cd_game_play(g, &res.best);
    cbb_from_position(cd_game_position(g), board);
    say(str, CB_STR_SIZE, "best %s  score %.2f  depth %d  nodes %llu  %.2f s", text,
        res.score / 100.0, res.depth, (unsigned long long)res.nodes, res.time);
    st = cd_game_status(g, NULL);
    if (st == CD_DRAW)
        return CB_DRAW;
    if (st != CD_ONGOING)
        return CB_WIN;
    if (CD_SCORE_IS_WIN(res.score))
        return res.score > 0 ? CB_WIN : CB_LOSS;
    return CB_UNKNOWN;
}

/* ------------------------------------------------------------------ islegal */

CB_EXPORT int CB_CALL islegal(int board[8][8], int color, int from, int to, struct cb_move *move)
{
    if (!board || engine_init(NULL, 0) || !rules)
        return 0;
    cd_position pos;
    if (cbb_to_position(rules, (const int(*)[8])board, color, &pos, NULL, 0) != CD_OK)
        return 0;
    int fx = 0, fy = 0, tx = 0, ty = 0;
    if (!cbb_number_xy(gametype, from, &fx, &fy) || !cbb_number_xy(gametype, to, &tx, &ty))
        return 0;
    int f = cbb_square(rules, fx, fy), t = cbb_square(rules, tx, ty);
    cd_movelist ml;
    cd_generate(&pos, &ml);
    int found = 0, pick = 0;
    for (int i = 0; i < ml.count; i++)
        if (cd_move_from(&pos, &ml.moves[i]) == f && cd_move_to(&pos, &ml.moves[i]) == t) {
            found++;
            pick = i;
        }
    if (found != 1)
        return 0; /* none, or several captures between the same squares: `get movelist` */
    if (move)
        cbb_move_to_cb(&pos, &ml.moves[pick], move);
    return 1;
}

/* ------------------------------------------------------------------ enginecommand */

/* `get movelist FEN`: "movelist N,<jumps>,<old>,<new>,<from>,<to>,<landed>,<captured>,<piece>,
 * ...;" each move ended by ';', squares in CheckerBoard's numbers. */
static int movelist(const char *fen, char *reply)
{
    cd_position pos;
    char err[256];
    if (cbb_parse_fen(gametype, fen, &pos, NULL, err, sizeof err) != CD_OK) {
        say(reply, CB_REPLY_SIZE, "? %s", err);
        return 0;
    }
    cd_movelist ml;
    cd_generate(&pos, &ml);
    size_t used = (size_t)snprintf(reply, CB_REPLY_SIZE, "movelist %d", ml.count);
    for (int i = 0; i < ml.count; i++) {
        struct cb_move cm;
        cbb_move_to_cb(&pos, &ml.moves[i], &cm);
        char one[512];
        size_t k = (size_t)snprintf(one, sizeof one, "%s%d,%d,%d,%d,%d", i ? "" : ",", cm.jumps,
                                    cm.oldpiece, cm.newpiece,
                                    cbb_xy_number(gametype, cm.from.x, cm.from.y),
                                    cbb_xy_number(gametype, cm.to.x, cm.to.y));
        for (int j = 0; j < cm.jumps; j++)
            k += (size_t)snprintf(one + k, sizeof one - k, ",%d,%d,%d",
                                  cbb_xy_number(gametype, cm.path[j + 1].x, cm.path[j + 1].y),
                                  cbb_xy_number(gametype, cm.del[j].x, cm.del[j].y),
                                  cm.delpiece[j]);
        if (used + k + 2 >= CB_REPLY_SIZE) {
            say(reply, CB_REPLY_SIZE, "? %d moves do not fit in the reply", ml.count);
            return 0;
        }
        used += (size_t)snprintf(reply + used, CB_REPLY_SIZE - used, "%s;", one);
    }
    return 1;
}

/* A whole number in s from lo to hi into *v: 1, else 0. */
static int number(const char *s, long lo, long hi, long *v)
{
    char *end;
    long n = strtol(s, &end, 10);
    while (*end == ' ')
        end++;
    if (end == s || *end || n < lo || n > hi)
        return 0;
    *v = n;
    return 1;
}

CB_EXPORT int CB_CALL enginecommand(const char *command, char reply[CB_REPLY_SIZE])
{
    char dummy[CB_REPLY_SIZE];
    if (!reply)
        reply = dummy;
    reply[0] = '\0';
    if (!command) {
        say(reply, CB_REPLY_SIZE, "?");
        return 0;
    }
    if (engine_init(reply, CB_REPLY_SIZE))
        return 0;
    long v;
    if (!strcmp(command, "name")) {
        say(reply, CB_REPLY_SIZE, "%s", CB_NAME);
        return 1;
    }
    if (!strcmp(command, "about")) {
        say(reply, CB_REPLY_SIZE,
            "%s\nA draughts engine: English, Italian, Spanish, Russian, Brazilian and Czech "
            "draughts.\nNow playing %s (game type %d).",
            CB_NAME, rules ? rules->title : "nothing", gametype);
        return 1;
    }
    if (!strcmp(command, "get protocolversion")) {
        say(reply, CB_REPLY_SIZE, "2");
        return 1;
    }
    if (!strcmp(command, "get gametype")) {
        say(reply, CB_REPLY_SIZE, "%d", gametype);
        return 1;
    }
    if (!strncmp(command, "set gametype ", 13)) {
        const cd_rules *r;
        if (!number(command + 13, 0, 1000, &v) || !(r = cbb_rules((int)v))) {
            say(reply, CB_REPLY_SIZE,
                "? game type '%s': 21 English, 22 Italian, 24 Spanish, 25 Russian, 26 Brazilian "
                "or 29 Czech",
                command + 13);
            return 0;
        }
        gametype = (int)v;
        rules = r;
        forget_history();
        cd_engine_clear(engine);
        say(reply, CB_REPLY_SIZE, "gametype %d (%s)", gametype, r->title);
        return 1;
    }
    if (!strcmp(command, "get hashsize")) {
        say(reply, CB_REPLY_SIZE, "%zu", hash_mb);
        return 1;
    }
    if (!strncmp(command, "set hashsize ", 13)) {
        if (!number(command + 13, 1, 65536, &v)) {
            say(reply, CB_REPLY_SIZE, "? hashsize '%s': MiB, 1 to 65536", command + 13);
            return 0;
        }
        if (cd_engine_set_hash(engine, (size_t)v) != CD_OK) {
            cd_engine_set_hash(engine, hash_mb);
            say(reply, CB_REPLY_SIZE, "hashsize %zu (no memory for %ld MiB)", hash_mb, v);
            return 0;
        }
        hash_mb = (size_t)v;
        say(reply, CB_REPLY_SIZE, "hashsize %zu", hash_mb);
        return 1;
    }
    if (!strcmp(command, "get searchthreads")) {
        say(reply, CB_REPLY_SIZE, "%d", threads);
        return 1;
    }
    if (!strncmp(command, "set searchthreads ", 18)) {
        if (!number(command + 18, 1, 64, &v) ||
            cd_engine_set_option(engine, "threads", (int)v) != CD_OK) {
            say(reply, CB_REPLY_SIZE, "? searchthreads '%s': 1 to 64", command + 18);
            return 0;
        }
        threads = (int)v;
        say(reply, CB_REPLY_SIZE, "searchthreads %d", threads);
        return 1;
    }
    if (!strncmp(command, "set gamehist ", 13)) {
        free(gamehist);
        gamehist = malloc(strlen(command + 13) + 1);
        if (!gamehist) {
            say(reply, CB_REPLY_SIZE, "? out of memory");
            return 0;
        }
        strcpy(gamehist, command + 13);
        say(reply, CB_REPLY_SIZE, "gamehist");
        return 1;
    }
    if (!strncmp(command, "get movelist ", 13))
        return movelist(command + 13, reply);
    say(reply, CB_REPLY_SIZE, "?");
    return 0;
}
