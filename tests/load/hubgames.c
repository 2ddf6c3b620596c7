/*
 * hubgames.c -- drive `condraughts hub` engines over pipes, as a Hub GUI would, and measure.
 *
 *   hubgames --bin PATH --stress
 *       Robustness: garbage lines (random bytes, a line of more than 1 MiB, NUL bytes, broken
 *       syntax) must each get one `error` line and the engine must go on serving, also while it
 *       searches; `stop` during every kind of search (analyze, ponder, infinite, long move
 *       time, deep depth, huge node budget, a long clock), sent at once or after a while, must
 *       give `done` with a legal move within STOP_LIMIT seconds; `quit` must end the process.
 *
 *   hubgames --bin PATH --games N [--movetime S] [--max-plies P] [--seed K]
 *       N fast games between two engines (variants in turn, a few random opening plies), each
 *       move searched with `level move-time=S` / `go think`. The time from sending `go` to
 *       reading `done` is measured for every move: prints the distribution, the worst overrun
 *       over S, and fails if any move took more than 5% longer than S (or --tolerance) and
 *       did so again when searched again, twice, from the same position (a move whose retry
 *       keeps to the time is reported as a stall of the machine and not counted).
 *       --nice N runs the engines and the driver at priority N (e.g. -10 on a machine shared
 *       with CPU-heavy jobs, so that what is measured is the engine's timing, not the
 *       scheduler's).
 *
 * Output ends with a line "hubgames: N passed, M failed". Exit 0 = all passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "condraughts.h"

#define STOP_LIMIT   0.25 /* seconds from `stop` to `done` */
#define LINE_MAX_LEN 65536
#define RETRIES      2 /* searches again of a move over its time before it counts */

static const char *bin = "./build/condraughts";
static int engine_nice; /* --nice: priority of the engine processes (0: as ours) */
static int passed, failed;

static void pass(void) { passed++; }

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    failed++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------------ an engine process */

typedef struct engine {
    pid_t pid;
    int to, from; /* pipe ends */
    char buf[LINE_MAX_LEN];
    size_t len; /* bytes in buf */
    int eof;
} engine;

static int engine_start(engine *e, const char *variant)
{
    int in[2], out[2];
    memset(e, 0, sizeof *e);
    if (pipe(in) || pipe(out))
        return -1;
    e->pid = fork();
    if (e->pid < 0)
        return -1;
    if (e->pid == 0) {
        if (engine_nice)
            setpriority(PRIO_PROCESS, 0, engine_nice);
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        if (variant)
            execl(bin, bin, "hub", "--variant", variant, (char *)NULL);
        else
            execl(bin, bin, "hub", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    e->from = out[0];
    return 0;
}

static int send_raw(engine *e, const char *data, size_t n)
{
    while (n) {
        ssize_t k = write(e->to, data, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        data += k;
        n -= (size_t)k;
    }
    return 0;
}

static int sendf(engine *e, const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1)
        return -1;
    line[n++] = '\n';
    return send_raw(e, line, (size_t)n);
}

/* The next line (without '\n') within timeout seconds: 1, 0 on timeout, -1 at end of output. */
static int get_line(engine *e, char *out, size_t outlen, double timeout)
{
    double end = now() + timeout;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t c = n < outlen - 1 ? n : outlen - 1;
            memcpy(out, e->buf, c);
            out[c] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return 1;
        }
        if (e->eof)
            return -1;
        if (e->len == sizeof e->buf) { /* an over-long line: cut it */
            e->len = 0;
            continue;
        }
        double left = end - now();
        if (left <= 0)
            return 0;
        struct pollfd p = {e->from, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        ssize_t k = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            e->eof = 1;
        else
            e->len += (size_t)k;
    }
}

/* Read lines until one starts with `word`; 1 (line in out), 0 timeout, -1 EOF. Other lines are
 * passed to `other` (may be NULL). */
static int expect(engine *e, const char *word, char *out, size_t outlen, double timeout,
                  void (*other)(const char *line, void *ctx), void *ctx)
{
    double end = now() + timeout;
    size_t n = strlen(word);
    for (;;) {
        double left = end - now();
        int r = get_line(e, out, outlen, left > 0 ? left : 0);
        if (r <= 0)
            return r;
        if (!strncmp(out, word, n) && (out[n] == '\0' || out[n] == ' '))
            return 1;
        if (other)
            other(out, ctx);
    }
}

/* Close the engine's input and wait for it: its exit status, or -1 if it had to be killed. */
static int engine_end(engine *e, double timeout)
{
    if (e->to >= 0)
        close(e->to);
    e->to = -1;
    double end = now() + timeout;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid)
            break;
        if (now() > end) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
            close(e->from);
            return -1;
        }
        char line[256];
        get_line(e, line, sizeof line, 0.01); /* drain */
    }
    close(e->from);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* CPU time used by a process so far (user + system, all its threads, dead ones included), in
 * seconds; the kernel counts it in clock ticks (10 ms), so it only tells a move that computed
 * for its whole time from one that waited for the CPU. */
static double cpu_seconds(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* after the command name */
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* ------------------------------------------------------------------ moves */

/* The value of field `name=` in a Hub line ("" if absent). */
static void field(const char *line, const char *name, char *out, size_t len)
{
    out[0] = '\0';
    size_t n = strlen(name);
    for (const char *p = line; (p = strstr(p, name)); p++) {
        if ((p == line || p[-1] == ' ') && p[n] == '=') {
            const char *v = p + n + 1;
            size_t k = strcspn(v, " ");
            if (k >= len)
                k = len - 1;
            memcpy(out, v, k);
            out[k] = '\0';
            return;
        }
    }
}

/* The move of a `done` line, checked against pos: 1 if legal (in *m). */
static int done_move(const cd_position *pos, const char *line, cd_move *m, char *why, size_t wlen)
{
    char text[512];
    field(line, "move", text, sizeof text);
    if (!text[0]) {
        snprintf(why, wlen, "no move in '%s'", line);
        return 0;
    }
    if (cd_move_parse(pos, text, m, why, wlen) != CD_OK)
        return 0;
    return 1;
}

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

/* ------------------------------------------------------------------ stress */

static void count_error(const char *line, void *ctx)
{
    int *c = ctx;
    if (!strncmp(line, "error message=\"", 15))
        c[0]++;
    else if (strncmp(line, "info ", 5))
        c[1]++; /* anything else is unexpected */
}

static int handshake(engine *e, const char *what)
{
    char line[LINE_MAX_LEN];
    sendf(e, "hub");
    if (expect(e, "wait", line, sizeof line, 5, NULL, NULL) != 1) {
        fail("%s: no `wait` after `hub`", what);
        return -1;
    }
    sendf(e, "set-param name=hash value=16");
    sendf(e, "init");
    if (expect(e, "ready", line, sizeof line, 5, NULL, NULL) != 1) {
        fail("%s: no `ready` after `init`", what);
        return -1;
    }
    return 0;
}

/* Send `count` random garbage lines (each an unknown command or a syntax error, so a running
 * search goes on) and, with `fixed`, bad lines of known commands; returns how many errors they
 * must produce. */
static int send_garbage(engine *e, int count, int fixed_too)
{
    int want = 0;
    char line[512];
    for (int i = 0; i < count; i++) {
        int n = 1 + (int)rnd(200);
        line[0] = '~'; /* never a command name: each line is one unknown command or bad syntax */
        for (int k = 1; k < n; k++) {
            int c;
            do
                c = 1 + (int)rnd(255);
            while (c == '\n');
            line[k] = (char)c;
        }
        if (i % 17 == 5)
            line[n / 2] = '\0'; /* a NUL byte inside the line */
        line[n] = '\n';
        send_raw(e, line, (size_t)n + 1);
        want++;
    }
    static const char *const fixed[] = {"",
                                        "   ",
                                        "=",
                                        "\"quoted\"",
                                        "level depth=\"3",
                                        "level =3",
                                        "level depth=0",
                                        "level move-time=nan",
                                        "level move-time=1e999",
                                        "level nodes=-1",
                                        "set-param name=hash value=99999999",
                                        "set-param name=variant value=chess",
                                        "pos pos=Wxyz",
                                        "pos moves=\"32-28 32-28\"",
                                        "pos pos=W" /* short */,
                                        "go",
                                        "go fast",
                                        "\x1b[2J\x1b[H",
                                        "\xff\xfe\xfd",
                                        "PING",
                                        "level depth=3 \"x\""};
    for (size_t i = 0; fixed_too && i < sizeof fixed / sizeof *fixed; i++) {
        sendf(e, "%s", fixed[i]);
        want++;
    }
    return want;
}

static void stress_garbage(void)
{
    engine e;
    char line[LINE_MAX_LEN];
    if (engine_start(&e, NULL)) {
        fail("garbage: cannot start %s", bin);
        return;
    }
    if (handshake(&e, "garbage")) {
        engine_end(&e, 2);
        return;
    }
    int want = send_garbage(&e, 300, 1);
    /* a line of more than 1 MiB */
    size_t big = (1u << 20) + 1000;
    char *blob = malloc(big + 1);
    if (blob) {
        memset(blob, 'x', big);
        memcpy(blob, "pos moves=\"", 11);
        blob[big] = '\n';
        send_raw(&e, blob, big + 1);
        free(blob);
        want++;
    }
    sendf(&e, "ping");
    int counts[2] = {0, 0};
    int r = expect(&e, "pong", line, sizeof line, 20, count_error, counts);
    if (r != 1)
        fail("garbage: no pong after the garbage (%s)", r ? "the engine exited" : "timeout");
    else if (counts[0] != want || counts[1])
        fail("garbage: %d error lines and %d other lines for %d bad lines", counts[0], counts[1],
             want);
    else
        pass();

    /* still serving: a search gives a legal move of the start position */
    cd_position start;
    cd_position_start(&start, cd_rules_find("international"));
    sendf(&e, "pos start");
    sendf(&e, "level depth=4");
    sendf(&e, "go think");
    cd_move m;
    char why[512];
    r = expect(&e, "done", line, sizeof line, 10, NULL, NULL);
    if (r != 1 || !done_move(&start, line, &m, why, sizeof why))
        fail("garbage: no legal move after the garbage: %s", r == 1 ? why : "no done");
    else
        pass();

    /* garbage during a search: errors, and the search goes on until stop */
    sendf(&e, "go analyze");
    pause_s(0.1);
    int want2 = send_garbage(&e, 50, 0);
    sendf(&e, "ping");
    counts[0] = counts[1] = 0;
    r = expect(&e, "pong", line, sizeof line, 10, count_error, counts);
    if (r != 1 || counts[0] != want2 || counts[1])
        fail("garbage during a search: %d errors, %d other lines for %d bad lines (%d)", counts[0],
             counts[1], want2, r);
    else
        pass();
    sendf(&e, "stop");
    r = expect(&e, "done", line, sizeof line, 2, NULL, NULL);
    if (r != 1 || !done_move(&start, line, &m, why, sizeof why))
        fail("garbage during a search: no legal move after stop: %s", r == 1 ? why : "no done");
    else
        pass();
    sendf(&e, "quit");
    int st = engine_end(&e, 3);
    if (st != 0)
        fail("garbage: exit status %d after quit", st);
    else
        pass();
}

typedef struct stop_case {
    const char *variant, *fen;
} stop_case;

static double worst_stop;

static void stress_stop(void)
{
    static const stop_case cases[] = {
        {"international", NULL},
        {"constitutional", "W:WK46,K28,33,34,38:B12,13,K19,22,23"},
        {"russian", NULL},
        {"english", NULL},
        {"killer", "B:WK3,K35,K48:BK8,K19,K44"},
        {"canadian", NULL},
        {"antidraughts", NULL},
    };
    static const struct {
        const char *level, *go;
    } kinds[] = {
        {NULL, "go analyze"},
        {NULL, "go ponder"},
        {"level infinite", "go think"},
        {"level move-time=100", "go think"},
        {"level depth=120", "go think"},
        {"level nodes=1000000000000", "go think"},
        {"level time=3000 inc=10", "go think"},
        {"level move-time=100", "go ponder"},
    };
    static const double delays[] = {0, 0.001, 0.05, 0.3};
    char line[LINE_MAX_LEN], why[512];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        engine e;
        if (engine_start(&e, cases[c].variant)) {
            fail("stop: cannot start %s", bin);
            return;
        }
        if (handshake(&e, "stop")) {
            engine_end(&e, 2);
            continue;
        }
        const cd_rules *r = cd_rules_find(cases[c].variant);
        cd_position pos;
        if (cases[c].fen)
            cd_position_from_fen(&pos, r, cases[c].fen, NULL, 0);
        else
            cd_position_start(&pos, r);
        char hub[256];
        cd_position_to_hub(&pos, hub, sizeof hub);
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            double delay = delays[(c + k) % (sizeof delays / sizeof *delays)];
            sendf(&e, "pos pos=%s", hub);
            if (kinds[k].level)
                sendf(&e, "%s", kinds[k].level);
            sendf(&e, "%s", kinds[k].go);
            pause_s(delay);
            double t0 = now();
            sendf(&e, "stop");
            int got = expect(&e, "done", line, sizeof line, 5, NULL, NULL);
            double dt = now() - t0;
            cd_move m;
            if (got != 1)
                fail("stop: %s, %s / %s after %.3f s: no done within 5 s", cases[c].variant,
                     kinds[k].level ? kinds[k].level : "-", kinds[k].go, delay);
            else if (!done_move(&pos, line, &m, why, sizeof why))
                fail("stop: %s, %s: '%s': %s", cases[c].variant, kinds[k].go, line, why);
            else if (dt > STOP_LIMIT)
                fail("stop: %s, %s / %s: done %.3f s after stop (limit %.2f)", cases[c].variant,
                     kinds[k].level ? kinds[k].level : "-", kinds[k].go, dt, STOP_LIMIT);
            else
                pass();
            if (dt > worst_stop)
                worst_stop = dt;
            /* nothing more may come: a ping is answered next */
            sendf(&e, "ping");
            int counts[2] = {0, 0};
            if (expect(&e, "pong", line, sizeof line, 5, count_error, counts) != 1 || counts[0] ||
                counts[1])
                fail("stop: %s, %s: unexpected lines after done", cases[c].variant, kinds[k].go);
        }
        /* stop then an immediate new search (Scan's "stop, pos, level, go" in one go) */
        sendf(&e, "go analyze");
        sendf(&e, "stop\npos pos=%s\nlevel depth=2\ngo think", hub);
        int dones = 0;
        for (int i = 0; i < 2; i++) {
            cd_move m;
            if (expect(&e, "done", line, sizeof line, 5, NULL, NULL) == 1 &&
                done_move(&pos, line, &m, why, sizeof why))
                dones++;
        }
        if (dones != 2)
            fail("stop: %s: stop+pos+level+go gave %d legal dones, not 2", cases[c].variant, dones);
        else
            pass();
        /* quit during a search ends the process at once, without done */
        sendf(&e, "go analyze");
        pause_s(0.02);
        sendf(&e, "quit");
        double t0 = now();
        int st = engine_end(&e, 3);
        if (st != 0 || now() - t0 > 1.0)
            fail("stop: %s: quit during a search: status %d after %.2f s", cases[c].variant, st,
                 now() - t0);
        else
            pass();
    }
    printf("stop: slowest done after stop %.1f ms\n", worst_stop * 1000);
}

/* ------------------------------------------------------------------ games */

/* One timed move: the position and level, a ping (what came before, such as new-game's table
 * clearing, is done), then `go think` until `done` (in line). *dt is the time from go to done and
 * *cpu (unless NULL) the engine's CPU time in it. Returns expect's value for done, or -2 without
 * a pong. */
static int timed_go(engine *e, const char *start, const char *moves, double movetime, char *line,
                    size_t len, double *dt, double *cpu)
{
    sendf(e, "pos pos=%s moves=\"%s\"", start, moves);
    sendf(e, "level move-time=%g", movetime);
    sendf(e, "ping");
    if (expect(e, "pong", line, len, 10, NULL, NULL) != 1)
        return -2;
    double c0 = cpu_seconds(e->pid);
    double t0 = now();
    sendf(e, "go think");
    int got = expect(e, "done", line, len, movetime * 4 + 5, NULL, NULL);
    *dt = now() - t0;
    if (cpu)
        *cpu = cpu_seconds(e->pid) - c0;
    return got;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void games(int n, double movetime, int max_plies, double tolerance)
{
    static const char *const variants[] = {
        "international", "constitutional", "russian", "english", "brazilian", "killer",
        "italian",       "canadian",       "czech",   "pool",    "spanish",   "antidraughts"};
    const int nv = (int)(sizeof variants / sizeof *variants);
    engine eng[2];
    char line[LINE_MAX_LEN], why[512];
    for (int i = 0; i < 2; i++)
        if (engine_start(&eng[i], NULL) || handshake(&eng[i], "games")) {
            fail("games: cannot start the engines");
            return;
        }
    size_t cap = 4096, nmoves = 0;
    double *ratio = malloc(cap * sizeof *ratio);
    double worst = 0;
    char worst_where[256] = "";
    int over = 0, stalls = 0, results[4] = {0, 0, 0, 0}, bad = 0;
    double t_start = now();
    char *moves = malloc(65536);
    for (int g = 0; g < n && ratio && moves; g++) {
        const char *v = variants[g % nv];
        const cd_rules *r = cd_rules_find(v);
        for (int i = 0; i < 2; i++) {
            sendf(&eng[i], "set-param name=variant value=%s", v);
            sendf(&eng[i], "new-game");
        }
        cd_game *game = cd_game_new(r, NULL);
        char start[256];
        cd_position_to_hub(cd_game_position(game), start, sizeof start);
        size_t mlen = 0;
        moves[0] = '\0';
        int opening = 2 + (int)rnd(3);
        cd_movelist list;
        for (int ply = 0; ply < max_plies && cd_game_status(game, NULL) == CD_ONGOING; ply++) {
            const cd_position *pos = cd_game_position(game);
            cd_move m;
            if (ply < opening) { /* a random opening move */
                cd_generate(pos, &list);
                m = list.moves[rnd((unsigned)list.count)];
            } else {
                engine *e = &eng[(g + ply) % 2];
                double dt, cpu;
                int got = timed_go(e, start, moves, movetime, line, sizeof line, &dt, &cpu);
                if (got == -2) {
                    fail("games: game %d: no pong", g + 1);
                    bad++;
                    break;
                }
                if (got != 1 || !done_move(pos, line, &m, why, sizeof why)) {
                    fail("games: game %d (%s) ply %d: %s", g + 1, v, ply,
                         got == 1 ? why
                         : got    ? "the engine exited"
                                  : "no done in time");
                    bad++;
                    break;
                }
                if (nmoves == cap) {
                    cap *= 2;
                    double *nr = realloc(ratio, cap * sizeof *ratio);
                    if (!nr)
                        break;
                    ratio = nr;
                }
                double q = dt / movetime;
                ratio[nmoves++] = q;
                if (q > 1 + tolerance) {
                    /* the same search again: an engine that overruns in this position does so
                     * again; a stall of the machine (a preempted virtual CPU, which also counts
                     * as the engine's CPU time) seldom comes twice; the move is in m already, so
                     * line is free */
                    double again = 0;
                    int k;
                    for (k = 0; k < RETRIES; k++) {
                        int r2 =
                            timed_go(e, start, moves, movetime, line, sizeof line, &again, NULL);
                        if (r2 != 1 || again / movetime <= 1 + tolerance)
                            break;
                    }
                    int counted = k == RETRIES;
                    if (counted)
                        over++;
                    else
                        stalls++;
                    if (over + stalls <= 20)
                        printf("games: game %d (%s), ply %d: %.1f ms for %.0f ms (engine CPU %.0f "
                               "ms)%s%.1f ms%s\n",
                               g + 1, v, ply + 1, dt * 1000, movetime * 1000, cpu * 1000,
                               counted ? "; every retry over too, the last " : "; retry ",
                               again * 1000, counted ? "" : ": a stall, not counted");
                }
                if (q > worst) {
                    worst = q;
                    snprintf(worst_where, sizeof worst_where, "game %d (%s), ply %d: %.1f ms",
                             g + 1, v, ply + 1, dt * 1000);
                }
            }
            char text[512];
            cd_move_to_hub(pos, &m, text, sizeof text);
            size_t tl = strlen(text);
            if (mlen + tl + 2 < 65536) {
                if (mlen)
                    moves[mlen++] = ' ';
                memcpy(moves + mlen, text, tl + 1);
                mlen += tl;
            }
            if (cd_game_play(game, &m) != CD_OK) {
                fail("games: game %d: the move %s could not be played", g + 1, text);
                bad++;
                break;
            }
        }
        results[cd_game_status(game, NULL)]++;
        cd_game_free(game);
        if ((g + 1) % 100 == 0) {
            printf("games: %d played, %zu moves timed, worst %.1f%% over, %.0f s\n", g + 1, nmoves,
                   (worst - 1) * 100, now() - t_start);
            fflush(stdout);
        }
    }
    for (int i = 0; i < 2; i++) {
        sendf(&eng[i], "quit");
        if (engine_end(&eng[i], 3) != 0)
            fail("games: engine %d did not quit cleanly", i + 1);
    }
    if (nmoves) {
        qsort(ratio, nmoves, sizeof *ratio, cmp_double);
        double sum = 0;
        for (size_t i = 0; i < nmoves; i++)
            sum += ratio[i];
        printf("games: %d games (%d white wins, %d black wins, %d draws, %d unfinished at %d "
               "plies), %zu moves at move-time %g s in %.0f s\n",
               n, results[CD_WHITE_WINS], results[CD_BLACK_WINS], results[CD_DRAW],
               results[CD_ONGOING], max_plies, nmoves, movetime, now() - t_start);
        printf("games: time used / move-time: mean %.3f, median %.3f, p99 %.3f, p99.9 %.3f, max "
               "%.3f\n",
               sum / (double)nmoves, ratio[nmoves / 2], ratio[(size_t)((double)nmoves * 0.99)],
               ratio[(size_t)((double)nmoves * 0.999)], ratio[nmoves - 1]);
        printf("games: worst overrun %+.1f%% (%s); %d move(s) over +%.0f%% (%d more within it on "
               "a retry)\n",
               (worst - 1) * 100, worst_where, over, tolerance * 100, stalls);
    }
    if (over)
        fail("games: %d move(s) took more than %.0f%% over the move time", over, tolerance * 100);
    else if (!bad && nmoves)
        pass();
    free(ratio);
    free(moves);
}

int main(int argc, char **argv)
{
    int stress = 0, ngames = 0, max_plies = 40;
    double movetime = 0.05, tolerance = 0.05;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--bin") && v)
            bin = argv[++i];
        else if (!strcmp(a, "--stress"))
            stress = 1;
        else if (!strcmp(a, "--games") && v)
            ngames = atoi(argv[++i]);
        else if (!strcmp(a, "--movetime") && v)
            movetime = atof(argv[++i]);
        else if (!strcmp(a, "--max-plies") && v)
            max_plies = atoi(argv[++i]);
        else if (!strcmp(a, "--tolerance") && v)
            tolerance = atof(argv[++i]);
        else if (!strcmp(a, "--nice") && v)
            engine_nice = atoi(argv[++i]);
        else if (!strcmp(a, "--seed") && v)
            rng_state = strtoull(argv[++i], NULL, 10) * 2654435761ull + 1;
        else {
            fprintf(stderr, "usage: hubgames --bin PATH [--stress] [--games N [--movetime S] "
                            "[--max-plies P] [--tolerance F] [--seed K]] [--nice N]\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    if (engine_nice) /* the driver's reading of `done` is part of what is timed */
        setpriority(PRIO_PROCESS, 0, engine_nice);
    if (access(bin, X_OK) != 0) {
        fprintf(stderr, "hubgames: no executable %s\n", bin);
        return 2;
    }
    if (stress) {
        stress_garbage();
        stress_stop();
    }
    if (ngames > 0)
        games(ngames, movetime, max_plies, tolerance);
    printf("hubgames: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
