/*
 * match_player.c -- the players of `condraughts match` (see match_player.h): the built-in engine
 * called directly, or an engine process on pipes (proc.h) speaking Hub 2 or the older Hub 1
 * (Scan 2.0), or a CheckerBoard engine library run by `condraughts cbhost` (cb_host.h). Every read from an engine has a deadline, so a silent engine cannot stall the
 * referee; the time a move takes is measured here, on CLOCK_MONOTONIC (cli_now), from the
 * moment the request is written to the moment the answer line is read.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "match_player.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef _WIN32
#include <unistd.h> /* readlink */
#endif

#include "book_cmd.h"
#include "cb_board.h"
#include "cb_host.h"
#include "cliutil.h"

#define MP_START_TIMEOUT 60.0 /* seconds for the handshake and `init` (Scan loads its data) */
#define MP_WRITE_TIMEOUT 10.0 /* seconds a line may wait for an engine to read its full input */

const char *mp_proto_name(mp_proto proto)
{
    return proto == MP_SELF ? "self" : proto == MP_HUB1 ? "hub1" : proto == MP_CB ? "cb" : "hub2";
}

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ pipes */

/* One line into out (without the newline). 1: a line, 0: end of output, -1: deadline passed. */
static int read_line(match_player *p, double deadline, char *out, size_t len)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->blen);
        if (nl) {
            size_t n = (size_t)(nl - p->buf);
            size_t k = n < len - 1 ? n : len - 1;
            memcpy(out, p->buf, k);
            out[k] = '\0';
            out[strcspn(out, "\r")] = '\0';
            p->blen -= n + 1;
            memmove(p->buf, nl + 1, p->blen);
            return 1;
        }
        if (p->blen == sizeof p->buf)
            p->blen = 0; /* a line longer than the buffer: dropped */
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - cli_now();
            if (left <= 0)
                return -1;
            ms = (int)(left * 1000.0) + 1;
        }
        long got = proc_read(&p->proc, p->buf + p->blen, sizeof p->buf - p->blen, ms);
        if (got == 0)
            return 0;
        if (got > 0)
            p->blen += (size_t)got;
    }
}

/* One line to the engine. A failed write is not reported here: an engine gone is found by the
 * next read; one that stopped reading (the line waited MP_WRITE_TIMEOUT) is marked deaf. */
static void send_line(match_player *p, const char *fmt, ...)
{
    char line[16384];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    if (!p->deaf && proc_write(&p->proc, line, (size_t)n, (int)(MP_WRITE_TIMEOUT * 1000)) == -2)
        p->deaf = 1;
}

/* A deaf engine's move: hung, with why saying so. 1 if it is deaf. */
static int deaf_reply(const match_player *p, double t0, mp_reply *out)
{
    if (!p->deaf)
        return 0;
    out->status = MP_HUNG;
    out->used = cli_now() - t0;
    snprintf(out->why, sizeof out->why, "engine '%.150s' read none of its input for %.0f s",
             p->spec, MP_WRITE_TIMEOUT);
    return 1;
}

/* The next line of the answer to a move request written at t0: 1, or 0 with out->status and
 * out->used set: MP_HUNG when nothing came by `limit` seconds (<= 0: no limit), then `stop`
 * (*late set) and `grace` seconds more; MP_DIED when the engine closed its output. */
static int answer_line(match_player *p, double t0, double limit, double grace, int *late,
                       char *line, size_t len, mp_reply *out)
{
    for (;;) {
        double deadline = limit > 0 ? t0 + limit + (*late ? grace : 0) : 0;
        int r = read_line(p, deadline, line, len);
        if (r > 0)
            return 1;
        if (r < 0 && !*late) {
            *late = 1;
            send_line(p, "stop");
            continue;
        }
        out->status = r < 0 ? MP_HUNG : MP_DIED;
        out->used = cli_now() - t0;
        return 0;
    }
}

/* Does the line start with the word `w` (followed by a blank or the end)? */
static int starts(const char *line, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(line, w, n) && (line[n] == '\0' || line[n] == ' ');
}

/* ------------------------------------------------------------------ start and stop */

static int start_self(match_player *p, char *err, size_t errlen)
{
    p->engine = cd_engine_new(p->hash);
    if (!p->engine) {
        set_err(err, errlen, "out of memory for the engine");
        return -1;
    }
    cd_engine_set_eval(p->engine, cli_eval());
    const char *opts = p->spec[4] == ':' ? p->spec + 5 : "";
    snprintf(p->name, sizeof p->name, "condraughts %s%s%s", CD_VERSION, *opts ? " " : "", opts);
    char buf[1024]; /* (every option of a tuning build's table fits) */
    if (strlen(opts) >= sizeof buf) {
        set_err(err, errlen, "engine options '%.40s...' longer than %zu characters", opts,
                sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", opts);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            set_err(err, errlen, "engine option '%s' needs =value", tok);
            return -1;
        }
        *eq = '\0';
        if (!strcmp(tok, "depth") || !strcmp(tok, "nodes")) {
            char *end;
            long long v = strtoll(eq + 1, &end, 10);
            if (end == eq + 1 || *end || v < 1 || (tok[0] == 'd' && v > 100)) {
                set_err(err, errlen, "bad %s '%s' in '%s'", tok, eq + 1, p->spec);
                return -1;
            }
            if (tok[0] == 'd')
                p->depth = (int)v;
            else
                p->nodes = (uint64_t)v;
            continue;
        }
        if (!strcmp(tok, "time")) {
            char *end;
            double v = strtod(eq + 1, &end);
            if (end == eq + 1 || *end || !(v >= 0.001 && v <= 3600)) {
                set_err(err, errlen, "bad time '%s' in '%s' (seconds a move, 0.001 to 3600)",
                        eq + 1, p->spec);
                return -1;
            }
            p->movetime = v;
            continue;
        }
        if (!strcmp(tok, "book")) {
            if (p->book_given) {
                set_err(err, errlen, "book given twice in '%s'", p->spec);
                return -1;
            }
            if (!cli_book_open(eq + 1, p->rules, &p->book, err, errlen))
                return -1;
            if (p->book && strcmp(cd_book_rules(p->book)->name, p->rules->name)) {
                set_err(err, errlen, "book %s is for %s, not %s ('%s')", eq + 1,
                        cd_book_rules(p->book)->name, p->rules->name, p->spec);
                return -1;
            }
            p->book_given = 1;
            continue;
        }
        if (!strcmp(tok, "egtb")) {
            struct stat st;
            if (stat(eq + 1, &st) || !S_ISDIR(st.st_mode)) {
                set_err(err, errlen, "egtb folder '%s' in '%s' is not a folder", eq + 1, p->spec);
                return -1;
            }
            cd_egtb_close(p->tb);
            if (!(p->tb = cd_egtb_open(p->rules, eq + 1))) {
                set_err(err, errlen, "variant %s cannot have endgame tables ('%s')", p->rules->name,
                        p->spec);
                return -1;
            }
            cd_engine_set_egtb(p->engine, p->tb);
            continue;
        }
        int lo, hi;
        if (!cd_engine_option_range(tok, &lo, &hi)) {
            set_err(err, errlen, "unknown engine option '%s' in '%s'", tok, p->spec);
            return -1;
        }
        char *end;
        long v = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || *end || v < INT_MIN || v > INT_MAX) {
            set_err(err, errlen, "engine option %s needs a whole number, not '%s'", tok, eq + 1);
            return -1;
        }
        cd_result rc = cd_engine_set_option(p->engine, tok, (int)v);
        if (rc == CD_ERR_OVERFLOW) {
            set_err(err, errlen, "engine option %s=%ld: out of memory", tok, v);
            return -1;
        }
        if (rc != CD_OK) {
            set_err(err, errlen, "engine option %s takes %d to %d, not %ld", tok, lo, hi, v);
            return -1;
        }
    }
    if (!p->book_given && !cli_book_open(NULL, p->rules, &p->book, err, errlen))
        return -1;
    p->proto = MP_SELF;
    return 0;
}

static int spawn(match_player *p, char *err, size_t errlen)
{
    p->blen = 0;
    p->deaf = 0;
    return proc_start(&p->proc, p->spec, err, errlen);
}

/* The handshake: hub ... wait, then init ... ready (Hub 2 sets the variant first). */
static int handshake(match_player *p, char *err, size_t errlen)
{
    char line[4096];
    double deadline = cli_now() + MP_START_TIMEOUT;
    mp_proto found = MP_HUB2;
    int seen = 0;
    snprintf(p->name, sizeof p->name, "%s", p->spec);
    send_line(p, "hub");
    for (;;) {
        int r = read_line(p, deadline, line, sizeof line);
        if (r <= 0) {
            set_err(err, errlen, "engine '%s' %s before 'wait'", p->spec,
                    r < 0 ? "did not answer 'hub' in time" : "closed its output");
            return -1;
        }
        if (starts(line, "id")) {
            found = MP_HUB2;
            seen = 1;
            char *nm = strstr(line, "name=");
            if (nm) {
                nm += 5;
                int quoted = *nm == '"';
                nm += quoted;
                size_t k = strcspn(nm, quoted ? "\"" : " ");
                snprintf(p->name, sizeof p->name, "%.*s", (int)k, nm);
            }
        } else if (starts(line, "name") && !seen) {
            found = MP_HUB1;
            snprintf(p->name, sizeof p->name, "%.127s", line[4] ? line + 5 : p->spec);
        } else if (!strcmp(line, "wait")) {
            break;
        }
    }
    if (p->proto == MP_AUTO)
        p->proto = found;
    if (p->proto == MP_HUB2)
        send_line(p, "set-param name=variant value=%s", p->rules->name);
    send_line(p, "init");
    for (;;) {
        int r = read_line(p, deadline, line, sizeof line);
        if (r <= 0) {
            set_err(err, errlen, "engine '%s' did not answer 'init'", p->spec);
            return -1;
        }
        if (starts(line, "ready"))
            return 0;
    }
}

/* ------------------------------------------------------------------ CheckerBoard engines */

#ifndef _WIN32
/* s in single quotes for /bin/sh (a quote inside as '\''). 0 if it does not fit. */
static int sh_quote(const char *s, char *out, size_t len)
{
    size_t k = 0;
    if (len < 3)
        return 0;
    out[k++] = '\'';
    for (; *s; s++) {
        if (k + 6 >= len)
            return 0;
        if (*s == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *s;
        }
    }
    out[k++] = '\'';
    out[k] = '\0';
    return 1;
}
#endif

/* `cmd TEXT` and its reply's text into out; the reply's return value, or -1 (with err) if the
 * host gave none by the deadline. */
static int cb_command(match_player *p, const char *text, char *out, size_t outlen, char *err,
                      size_t errlen)
{
    send_line(p, "cmd %s", text);
    if (p->deaf) {
        set_err(err, errlen, "engine '%s' read none of its input for %.0f s", p->spec,
                MP_WRITE_TIMEOUT);
        return -1;
    }
    char line[2048];
    for (;;) {
        int r = read_line(p, cli_now() + MP_START_TIMEOUT, line, sizeof line);
        if (r <= 0) {
            set_err(err, errlen, "engine '%s' %s '%s'", p->spec,
                    r < 0 ? "did not answer" : "closed its output at", text);
            return -1;
        }
        int ret, n = 0;
        if (sscanf(line, "reply %d %n", &ret, &n) == 1 && n > 0) {
            snprintf(out, outlen, "%s", line + n);
            return ret;
        }
    }
}

/* Start `condraughts cbhost LIB` and agree on the game type. */
static int start_cb(match_player *p, char *err, size_t errlen)
{
#ifdef _WIN32
    set_err(err, errlen, "engine '%s': cb: players run `condraughts cbhost`, which the Windows "
                         "program lacks (CheckerBoard loads condraughts_cb.dll itself: docs/gui.md)",
            p->spec);
    return -1;
#else
    char self[PATH_MAX], qself[2 * PATH_MAX], qlib[2 * PATH_MAX], cmd[5 * PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        set_err(err, errlen, "cannot find this program (/proc/self/exe) to run cbhost");
        return -1;
    }
    self[n] = '\0';
    const char *lib = p->spec + 3;
    if (!*lib) {
        set_err(err, errlen, "cb: needs the engine library's path (cb:PATH.so)");
        return -1;
    }
    if (!sh_quote(self, qself, sizeof qself) || !sh_quote(lib, qlib, sizeof qlib)) {
        set_err(err, errlen, "engine library path too long: %.60s", lib);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "exec %s cbhost %s", qself, qlib);
    const char *spec = p->spec;
    p->spec = cmd;
    int rc = spawn(p, err, errlen);
    p->spec = spec;
    if (rc)
        return -1;
    char line[2048];
    int r = read_line(p, cli_now() + MP_START_TIMEOUT, line, sizeof line);
    if (r <= 0 || strncmp(line, "ready ", 6)) {
        set_err(err, errlen, "engine '%s': %s", p->spec,
                r <= 0 ? "cbhost did not start" : !strncmp(line, "error ", 6) ? line + 6 : line);
        return -1;
    }
    snprintf(p->name, sizeof p->name, "%.127s", line + 6);
    p->cb_gametype = cbb_gametype(p->rules);
    if (!p->cb_gametype) {
        set_err(err, errlen, "variant %s has no CheckerBoard game type (english, italian, "
                             "spanish, russian, brazilian, czech)",
                p->rules->name);
        return -1;
    }
    char reply[1100];
    for (int attempt = 0; attempt < 2; attempt++) {
        if (cb_command(p, "get gametype", reply, sizeof reply, err, errlen) < 0)
            return -1;
        if (atoi(reply) == p->cb_gametype)
            return 0;
        if (attempt)
            break;
        char set[64];
        snprintf(set, sizeof set, "set gametype %d", p->cb_gametype);
        if (cb_command(p, set, reply, sizeof reply, err, errlen) < 0)
            return -1;
    }
    set_err(err, errlen, "engine '%s' plays CheckerBoard game type '%s', not %d (%s)", p->spec,
            reply, p->cb_gametype, p->rules->name);
    return -1;
#endif
}

/* The time of a getmove: maxtime, and the info bits and moreinfo of an incremental clock. */
static double cb_time(const match_player *p, const cd_game *g, const mp_limits *l, int *info,
                      int *moreinfo)
{
    *info = 0;
    *moreinfo = 0;
    if (!l->clocked) {
        *info = CB_EXACT_TIME; /* the referee holds it to the move time */
        return p->movetime > 0 ? p->movetime : l->movetime;
    }
    double left = fmax(l->clock[cd_game_position(g)->side], 0.001), inc = l->inc;
    static const double unit[] = {0.001, 0.01, 0.1};
    int mode = 1;
    while (mode < 3 && (left / unit[mode - 1] > 65535 || inc / unit[mode - 1] > 65535))
        mode++;
    unsigned hi = (unsigned)fmin(left / unit[mode - 1], 65535);
    unsigned lo = (unsigned)fmin(inc / unit[mode - 1], 65535);
    *info = mode << CB_INCR_TIME_SHIFT;
    *moreinfo = (int)((hi << 16) | lo);
    return fmin(left, left / 30 + inc); /* for an engine that reads maxtime only */
}

/* Read a `moved` line's ints (after "moved "): 1 + 64 + CB_HOST_MOVE_INTS. 1, or 0 if short. */
static int cb_read_moved(const char *s, int *ret, int board[8][8], struct cb_move *m)
{
    int v[1 + 64 + CB_HOST_MOVE_INTS];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s)
            return 0;
        v[i] = (int)x;
        s = end;
    }
    int k = 0;
    *ret = v[k++];
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            board[x][y] = v[k++];
    m->jumps = v[k++];
    m->newpiece = v[k++];
    m->oldpiece = v[k++];
    m->from.x = v[k++];
    m->from.y = v[k++];
    m->to.x = v[k++];
    m->to.y = v[k++];
    for (int i = 0; i < 12; i++) {
        m->path[i].x = v[k++];
        m->path[i].y = v[k++];
    }
    for (int i = 0; i < 12; i++) {
        m->del[i].x = v[k++];
        m->del[i].y = v[k++];
    }
    for (int i = 0; i < 12; i++)
        m->delpiece[i] = v[k++];
    return 1;
}

/* The move of a cb engine's answer, checked against the library's generator. */
static void cb_decode(const cd_position *pos, const int sent[8][8], const char *line,
                      const char *str, mp_reply *out)
{
    int ret, board[8][8];
    struct cb_move m;
    out->status = MP_ILLEGAL;
    snprintf(out->text, sizeof out->text, "(getmove)");
    if (!cb_read_moved(line, &ret, board, &m)) {
        snprintf(out->why, sizeof out->why, "malformed answer from cbhost");
        return;
    }
    char why[200];
    int found;
    if (memcmp(board, sent, sizeof board)) {
        found = cbb_find_by_board(pos, (const int(*)[8])board, &out->move, why, sizeof why);
    } else if (m.jumps || m.from.x != m.to.x || m.from.y != m.to.y) {
        found = cbb_find_by_cb(pos, &m, &out->move, why, sizeof why);
    } else {
        snprintf(why, sizeof why, "neither the board nor the CBmove holds a move (getmove "
                                  "returned %d, \"%.60s\")",
                 ret, str);
        found = 0;
    }
    if (found != 1) {
        snprintf(out->why, sizeof out->why, "%s", why);
        return;
    }
    cd_move_to_text(pos, &out->move, 0, out->text, sizeof out->text);
    out->status = MP_MOVED;
}

static void move_cb(match_player *p, const cd_game *g, const mp_limits *l, double limit,
                    double grace, mp_reply *out)
{
    const cd_position *pos = cd_game_position(g);
    int board[8][8];
    cbb_from_position(pos, board);
    char hist[8192], reply[1100], err[256];
    double t0 = cli_now();
    if (cbb_write_gamehist(p->cb_gametype, g, hist, sizeof hist - 16)) {
        char cmd[8200];
        snprintf(cmd, sizeof cmd, "set gamehist %.8180s", hist);
        if (cb_command(p, cmd, reply, sizeof reply, err, sizeof err) < 0) {
            if (!deaf_reply(p, t0, out)) {
                out->status = MP_DIED;
                out->used = cli_now() - t0;
            }
            return;
        }
    }
    int info, moreinfo;
    double maxtime = cb_time(p, g, l, &info, &moreinfo);
    if (p->cb_reset)
        info |= CB_RESET_MOVES;
    p->cb_reset = 0;
    char line[16384];
    size_t k = (size_t)snprintf(line, sizeof line, "getmove %d %.6f %d %d",
                                pos->side == CD_WHITE ? CB_WHITE : CB_BLACK, maxtime, info,
                                moreinfo);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            k += (size_t)snprintf(line + k, sizeof line - k, " %d", board[x][y]);
    t0 = cli_now();
    send_line(p, "%s", line);
    if (deaf_reply(p, t0, out))
        return;
    char str[1100] = "";
    int late = 0;
    for (;;) {
        if (!answer_line(p, t0, limit, grace, &late, line, sizeof line, out))
            return;
        if (!strncmp(line, "str ", 4))
            snprintf(str, sizeof str, "%.1000s", line + 4);
        else if (!strncmp(line, "moved ", 6))
            break;
    }
    out->used = cli_now() - t0;
    cb_decode(pos, (const int(*)[8])board, line + 6, str, out);
    if (out->status == MP_MOVED && late)
        out->status = MP_LATE;
}

int mp_start(match_player *p, char *err, size_t errlen)
{
    p->engine = NULL;
    p->depth = 0;
    p->nodes = 0;
    p->movetime = 0;
    proc_init(&p->proc);
    p->blen = 0;
    if (p->proto == MP_SELF || !strncmp(p->spec, "self", 4)) {
        if (p->spec[4] && p->spec[4] != ':') {
            set_err(err, errlen, "bad engine '%s' (self or self:option=value,...)", p->spec);
            return -1;
        }
        return start_self(p, err, errlen);
    }
    if (!strncmp(p->spec, "cb:", 3)) {
        if (p->proto != MP_AUTO && p->proto != MP_CB) {
            set_err(err, errlen, "engine '%s' is a CheckerBoard library, not a %s engine",
                    p->spec, mp_proto_name(p->proto));
            return -1;
        }
        p->proto = MP_CB;
        p->cb_reset = 1;
        return start_cb(p, err, errlen);
    }
    if (spawn(p, err, errlen))
        return -1;
    return handshake(p, err, errlen);
}

void mp_stop(match_player *p)
{
    if (p->engine) {
        cd_engine_free(p->engine);
        p->engine = NULL;
    }
    cd_egtb_close(p->tb);
    p->tb = NULL;
    cd_book_free(p->book);
    p->book = NULL;
    p->book_given = 0;
    if (proc_running(&p->proc)) {
        send_line(p, "quit");
        proc_end(&p->proc, 1.0);
    }
}

int mp_restart(match_player *p, char *err, size_t errlen)
{
    if (p->engine)
        return 0;
    proc_kill(&p->proc);
    if (p->proto == MP_CB) {
        p->cb_reset = 1;
        return start_cb(p, err, errlen);
    }
    if (spawn(p, err, errlen))
        return -1;
    return handshake(p, err, errlen);
}

void mp_new_game(match_player *p)
{
    if (p->engine)
        cd_engine_clear(p->engine);
    else if (p->proto == MP_CB)
        p->cb_reset = 1;
    else
        send_line(p, p->proto == MP_HUB1 ? "new" : "new-game");
}

/* ------------------------------------------------------------------ moves */

static void move_self(match_player *p, const cd_game *g, const mp_limits *l, mp_reply *out)
{
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = p->depth ? p->depth : l->depth;
    lim.nodes = p->nodes ? p->nodes : l->nodes;
    lim.movetime = p->movetime > 0 ? p->movetime : l->movetime;
    if (l->clocked) {
        for (int c = 0; c < 2; c++) {
            lim.time[c] = l->clock[c] > 0.001 ? l->clock[c] : 0.001;
            lim.inc[c] = l->inc;
        }
    }
    cd_book_move bm;
    if (cd_book_probe(p->book, cd_game_position(g), &bm, 1)) {
        out->status = MP_MOVED;
        out->move = bm.move;
        out->used = 0;
        out->has_score = 1;
        out->score = bm.score;
        return;
    }
    cd_search_result res;
    double t0 = cli_now();
    cd_result r = cd_search(p->engine, g, &lim, NULL, NULL, &res);
    out->used = cli_now() - t0;
    if (r != CD_OK || !res.has_move) {
        out->status = MP_ILLEGAL;
        snprintf(out->text, sizeof out->text, "(no move)");
        return;
    }
    out->status = MP_MOVED;
    out->move = res.best;
    out->has_score = 1;
    out->score = res.score;
}

/* Send the position and the limits, then `go`, in the player's dialect. */
static void request(match_player *p, const cd_game *g, const mp_limits *l)
{
    const cd_position *pos = cd_game_position(g);
    char start[160], mv[256];
    cd_position_to_hub(cd_game_position_at(g, 0), start, sizeof start);
    int n = cd_game_ply(g);
    if (p->proto == MP_HUB1) {
        start[0] = start[0] == 'W' ? 'w' : 'b';
        send_line(p, "pos %s", start);
        for (int i = 0; i < n; i++) {
            cd_move_to_hub(cd_game_position_at(g, i), cd_game_move(g, i), mv, sizeof mv);
            send_line(p, "move %s", mv);
        }
        if (l->depth)
            send_line(p, "depth %d", l->depth);
        if (l->clocked)
            send_line(p, "level 0 %.0f %.0f", 1000.0 * fmax(l->clock[pos->side], 0.001),
                      1000.0 * l->inc);
        else if (l->movetime > 0)
            send_line(p, "time %.0f", 1000.0 * l->movetime);
        send_line(p, "go");
        return;
    }
    char line[16384];
    size_t used = (size_t)snprintf(line, sizeof line, "pos pos=%s", start);
    if (n > 0) {
        used += (size_t)snprintf(line + used, sizeof line - used, " moves=\"");
        for (int i = 0; i < n && used < sizeof line - 300; i++) {
            cd_move_to_hub(cd_game_position_at(g, i), cd_game_move(g, i), mv, sizeof mv);
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", i ? " " : "", mv);
        }
        snprintf(line + used, sizeof line - used, "\"");
    }
    send_line(p, "%s", line);
    if (l->depth)
        send_line(p, "level depth=%d", l->depth);
    else if (l->nodes)
        send_line(p, "level nodes=%llu", (unsigned long long)l->nodes);
    else if (l->clocked)
        send_line(p, "level time=%.3f inc=%.3f", fmax(l->clock[pos->side], 0.001), l->inc);
    else if (l->movetime > 0)
        send_line(p, "level move-time=%.3f", l->movetime);
    send_line(p, "go think");
}

/* A score from an `info` line, in hundredths of a man; 0 if the line has none. */
static int info_score(const match_player *p, const char *line, int *score)
{
    if (p->proto == MP_HUB1) {
        int depth, sc;
        double plies;
        if (sscanf(line, "info %d %lf %d", &depth, &plies, &sc) != 3)
            return 0;
        *score = sc;
        return 1;
    }
    const char *s = strstr(line, " score=");
    if (!s)
        return 0;
    char *end;
    double men = strtod(s + 7, &end);
    if (end == s + 7)
        return 0;
    *score = (int)lround(men * 100.0);
    return 1;
}

/* The move of an answer line (`done move=M` or Hub 1's `move M`) into out->text. */
static int answer_move(const match_player *p, const char *line, mp_reply *out)
{
    const char *m;
    if (p->proto == MP_HUB1) {
        if (!starts(line, "move"))
            return 0;
        m = line + 4;
        while (*m == ' ')
            m++;
    } else {
        if (!starts(line, "done"))
            return 0;
        m = strstr(line, "move=");
        m = m ? m + 5 : "";
    }
    size_t k = strcspn(m, " ");
    snprintf(out->text, sizeof out->text, "%.*s", (int)(k < 63 ? k : 63), m);
    return 1;
}

void mp_move(match_player *p, const cd_game *g, const mp_limits *l, double limit, double grace,
             mp_reply *out)
{
    memset(out, 0, sizeof *out);
    if (p->engine) {
        move_self(p, g, l, out);
        return;
    }
    if (p->proto == MP_CB) {
        move_cb(p, g, l, limit, grace, out);
        return;
    }
    char line[8192];
    double t0 = cli_now();
    request(p, g, l);
    if (deaf_reply(p, t0, out))
        return;
    int late = 0;
    for (;;) {
        if (!answer_line(p, t0, limit, grace, &late, line, sizeof line, out))
            return;
        int sc;
        if (starts(line, "info") && info_score(p, line, &sc)) {
            out->has_score = 1;
            out->score = sc;
        }
        if (answer_move(p, line, out))
            break;
    }
    out->used = cli_now() - t0;
    char err[256];
    if (cd_move_parse(cd_game_position(g), out->text, &out->move, err, sizeof err) != CD_OK)
        out->status = MP_ILLEGAL;
    else
        out->status = late ? MP_LATE : MP_MOVED;
}
