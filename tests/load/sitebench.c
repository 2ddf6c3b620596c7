/*
 * sitebench.c -- games between people on `condraughts serve` with browser-like clients, in one
 * epoll loop (loopback only). Every person comes from a loopback address of its own (127.a.b.c),
 * holds its game's live stream (GET /api/play/ID/events, SSE) and one keep-alive connection for
 * its POSTs, as a browser tab does.
 *
 *   sitebench games PORTS G S SECONDS THINK_LO THINK_HI
 *     PORTS: one port, or several (comma-separated, at most 8) of servers sharing one store:
 *     every game's creator uses the first, its joiner the second (so that every move crosses
 *     from one server to the other: PostgreSQL's NOTIFY), spectator k server k mod the number
 *     of servers, the lobby's probe the first.
 *     G games (two players each: the creator's realtime 10+5 game, joined by the other) and S
 *     spectators (spectator k watches game k mod G); each player answers its turn after THINK_LO
 *     to THINK_HI ms (drawn evenly) with a random legal move, from its game's first state on (the
 *     games set up first play while the others are set up, as people would); the figures count
 *     SECONDS from the moment every stream is open (a move counts when its answer, and its
 *     latency when the opponent's stream shows it, comes in that span). The lobby
 *     (GET /api/play/lobby) is asked every second meanwhile.
 *   sitebench streams PORT N A
 *     one game, N streams on it opened at once from A addresses (round robin); ends when each has
 *     its first state or after 10 s. The lobby is asked every 100 ms meanwhile, on a keep-alive
 *     connection opened before the streams (as a page showing the lobby has one).
 *
 * Prints one line of figures (move-to-opponent latency: a player's move sent to the opponent's
 * stream showing it; first state: a stream's connect() to its first state), then
 *   result: first N late L errors E p99 P lobby M
 * (N streams had their first state, L of all streams not within 1 s, E errors, P the latency p99
 * in ms, M the lobby's slowest answer in ms). Exit status 0, 2 on bad arguments or a setup failure.
 * `games` writes "sitebench: playing" and "sitebench: played" on stderr as the span counted begins
 * and ends, and its own CPU time over the span in its line of figures.
 *
 * With SITEBENCH_TRACE=FILE set, every event is also written to FILE, one a line, times in ms
 * from the client's start (the first line: "start T", T the start on CLOCK_MONOTONIC in ms, for
 * lining the trace up with the server's, e.g. `perf record -k CLOCK_MONOTONIC`):
 *   move SENT LATENCY GAME ANSWER
 *                            a move sent at SENT reached the opponent's stream LATENCY ms later;
 *                            its own answer had come ANSWER ms after it was sent (-1: not yet)
 *   first OPENED MS          a stream opened at OPENED had its first state MS ms later
 *   loop AT WAITED WORK N    an epoll_wait begun at AT returned N events after WAITED ms and
 *                            they took WORK ms (written when it came back over 10 ms past its
 *                            timeout, the client waiting for a CPU, or WORK is over 10 ms)
 *   gap AT MS                MS ms between two epoll_waits (written when over 10 ms)
 *   playing AT, played AT    the span counted
 *
 * A connection's answer is read as HTTP/1.1: Content-Length or chunked (a stream's SSE events
 * arrive in chunks; an event may span chunks); JSON is read with cJSON. A request on a reused
 * keep-alive connection that the server closed before any byte of its answer (its idle timeout
 * met the request on the way) is sent again on a new connection, as browsers do, and counted
 * apart from the errors.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---------------------------------------------------------------- figures */

typedef struct {
    double *v;
    size_t n, cap;
} series;

static void add(series *s, double x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n++] = x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(series *s, double p)
{
    if (!s->n)
        return 0;
    qsort(s->v, s->n, sizeof *s->v, cmp_double);
    size_t i = (size_t)(p * (double)s->n);
    return s->v[i < s->n ? i : s->n - 1];
}

static FILE *trace; /* SITEBENCH_TRACE: one line an event (below), or NULL */
static double trace_t0; /* the client's start */

static struct {
    series lat, first, lobby;
    long errors, moves, streams, resent;
    char kinds[512]; /* the first errors' kinds */
} F;

static void fail(const char *what)
{
    F.errors++;
    size_t n = strlen(F.kinds);
    if (n < sizeof F.kinds - 64 && !strstr(F.kinds, what))
        snprintf(F.kinds + n, sizeof F.kinds - n, "%s%s", n ? "; " : "", what);
}

/* ---------------------------------------------------------------- connections */

enum { C_REQUEST, C_STREAM };

struct person;
typedef struct conn {
    int fd;
    int kind;
    struct person *who;
    char *in; /* bytes read, not yet taken */
    size_t len, cap;
    int head_done, chunked, status, busy;
    long clen;     /* Content-Length (-1: none) */
    size_t chunk;  /* bytes left in the current chunk */
    char *body;    /* a request's body, or a stream's SSE text not yet taken */
    size_t blen, bcap;
    char out[2048]; /* the request being sent */
    size_t olen, ooff;
    int served; /* answers read on this connection */
    double t0;     /* the request was sent (a stream: its connect) */
    int got_first; /* a stream's first state came */
    void (*done)(struct conn *c); /* a request's answer is in (status, body) */
    struct conn *prev, *next;     /* every open connection, in one list (live) */
} conn;

typedef struct person {
    struct sockaddr_in addr;
    char cookie[80];
    conn *ka;   /* the keep-alive connection (NULL: none open) */
    conn *sse;  /* the stream */
    int game;   /* its game (index), -1: none */
    int seat;   /* 0 white, 1 black, 2 a spectator */
    int server; /* its server: an index in ports */
    int last_ply;
    double due; /* when to move (0: nothing to do) */
    char move[64];
} person;

enum { MAX_PORTS = 8 };
static int ep, ports[MAX_PORTS], nports; /* the servers (sitebench games PORTS) */
static conn *live; /* the open connections, closed at the end by close_all */

static void addr_of(struct sockaddr_in *sa, int block, int k)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_addr.s_addr = htonl((127u << 24) | ((unsigned)block << 16) |
                                ((unsigned)(k / 250 % 256) << 8) | (unsigned)(k % 250 + 1));
}

static void conn_close(conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    if (c->who && c->who->ka == c)
        c->who->ka = NULL;
    if (c->who && c->who->sse == c)
        c->who->sse = NULL;
    if (c->prev)
        c->prev->next = c->next;
    else if (live == c)
        live = c->next;
    if (c->next)
        c->next->prev = c->prev;
    free(c->in);
    free(c->body);
    free(c);
}

/* Open a connection from who's address (connected in the background). */
static conn *conn_open(person *who, int kind)
{
    conn *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->kind = kind;
    c->who = who;
    c->next = live;
    if (live)
        live->prev = c;
    live = c;
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in to;
    memset(&to, 0, sizeof to);
    to.sin_family = AF_INET;
    to.sin_port = htons((unsigned short)ports[who->server]);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (c->fd < 0 || bind(c->fd, (struct sockaddr *)&who->addr, sizeof who->addr) != 0 ||
        (connect(c->fd, (struct sockaddr *)&to, sizeof to) != 0 && errno != EINPROGRESS)) {
        fail(c->fd < 0 ? "socket (ulimit -n?)" : "connect");
        conn_close(c);
        return NULL;
    }
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
    return c;
}

/* Send what is left of c->out; what cannot go now (a connection still connecting, a full
 * buffer) goes on EPOLLOUT. 0, or -1 when the connection is broken. */
static int flush(conn *c)
{
    while (c->ooff < c->olen) {
        ssize_t k = send(c->fd, c->out + c->ooff, c->olen - c->ooff, MSG_NOSIGNAL);
        if (k > 0) {
            c->ooff += (size_t)k;
            continue;
        }
        if (k < 0 && (errno == EAGAIN || errno == ENOTCONN)) {
            struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP, .data.ptr = c};
            epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
            return 0;
        }
        return -1;
    }
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
    return 0;
}

static int send_request(conn *c, const char *method, const char *path, const char *body)
{
    person *w = c->who;
    int n = snprintf(c->out, sizeof c->out,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%s%s"
                     "Content-Length: %zu\r\n\r\n%s",
                     method, path, w->cookie[0] ? "Cookie: " : "", w->cookie,
                     w->cookie[0] ? "\r\n" : "",
                     body ? "Content-Type: application/json\r\n" : "",
                     c->kind == C_STREAM ? "Accept: text/event-stream\r\n" : "",
                     body ? strlen(body) : 0, body ? body : "");
    c->t0 = c->kind == C_STREAM && c->t0 > 0 ? c->t0 : now_ms();
    c->busy = 1;
    c->head_done = c->chunked = c->status = 0;
    c->clen = -1;
    c->blen = 0;
    c->olen = (size_t)n;
    c->ooff = 0;
    return flush(c);
}

/* ---------------------------------------------------------------- the game logic */

typedef struct {
    char id[16];
    person *p[2];
    double sent[2]; /* when the move of ply `ply_sent[i]` was sent by seat i */
    double answered[2]; /* its answer came this many ms after it was sent (-1: not yet) */
    int ply_sent[2];
} game;

static game *games;
static int ngames, setup_left;
static int running = 1;
static double think_lo = 1000, think_hi = 2000;

static void on_state(person *w, conn *c, const char *json)
{
    if (!c->got_first) {
        c->got_first = 1;
        add(&F.first, now_ms() - c->t0);
        if (trace)
            fprintf(trace, "first %.1f %.1f\n", c->t0 - trace_t0, now_ms() - c->t0);
    }
    if (w->seat == 2 || w->game < 0)
        return;
    cJSON *j = cJSON_Parse(json);
    if (!j) {
        fail("a state not JSON");
        return;
    }
    const cJSON *ply = cJSON_GetObjectItem(j, "ply"), *side = cJSON_GetObjectItem(j, "side"),
                *state = cJSON_GetObjectItem(j, "state"), *moves = cJSON_GetObjectItem(j, "moves");
    game *g = &games[w->game];
    int me = w->seat, p = cJSON_IsNumber(ply) ? ply->valueint : -1;
    int my_turn = cJSON_IsString(side) && !strcmp(side->valuestring, me ? "black" : "white");
    /* the opponent's move, seen by this player */
    if (my_turn && g->sent[!me] > 0 && g->ply_sent[!me] == p) {
        add(&F.lat, now_ms() - g->sent[!me]);
        if (trace)
            fprintf(trace, "move %.1f %.1f %d %.1f\n", g->sent[!me] - trace_t0,
                    now_ms() - g->sent[!me], w->game, g->answered[!me]);
        g->sent[!me] = 0;
    }
    if (running && my_turn && p != w->last_ply && cJSON_IsString(state) &&
        !strcmp(state->valuestring, "ongoing") && cJSON_GetArraySize(moves) > 0) {
        w->last_ply = p;
        const cJSON *m = cJSON_GetArrayItem(moves, rand() % cJSON_GetArraySize(moves));
        const cJSON *text = cJSON_GetObjectItem(m, "text");
        if (cJSON_IsString(text)) {
            snprintf(w->move, sizeof w->move, "%s", text->valuestring);
            w->due = now_ms() + think_lo + (think_hi - think_lo) * (rand() / (RAND_MAX + 1.0));
        }
    }
    cJSON_Delete(j);
}

/* SSE text in c->body: take the complete events. */
static void sse_take(conn *c)
{
    size_t off = 0;
    for (;;) {
        char *end = NULL;
        for (size_t i = off; i + 1 < c->blen; i++)
            if (c->body[i] == '\n' && c->body[i + 1] == '\n') {
                end = c->body + i;
                break;
            }
        if (!end)
            break;
        *end = 0;
        const char *ev = c->body + off;
        if (!strncmp(ev, "event: state\ndata: ", 19))
            on_state(c->who, c, ev + 19);
        off = (size_t)(end - c->body) + 2;
    }
    if (off) { /* (nothing read yet: no body, and nothing to move) */
        memmove(c->body, c->body + off, c->blen - off);
        c->blen -= off;
    }
}

static void body_add(conn *c, const char *p, size_t n)
{
    if (c->blen + n + 1 > c->bcap) {
        c->bcap = (c->blen + n + 1) * 2;
        c->body = realloc(c->body, c->bcap);
        if (!c->body)
            abort();
    }
    memcpy(c->body + c->blen, p, n);
    c->blen += n;
    c->body[c->blen] = 0;
}

/* Parse what came in; 1: a request's answer is complete, 0: more to come, -1: broken. */
static int parse(conn *c)
{
    if (!c->head_done) {
        char *e = c->len >= 4 ? strstr(c->in, "\r\n\r\n") : NULL;
        if (!e)
            return 0;
        *e = 0;
        c->status = atoi(c->in + 9);
        for (char *l = strstr(c->in, "\r\n"); l; l = strstr(l + 2, "\r\n")) {
            char *h = l + 2;
            if (!strncasecmp(h, "Content-Length:", 15))
                c->clen = atol(h + 15);
            else if (!strncasecmp(h, "Transfer-Encoding: chunked", 26))
                c->chunked = 1;
            else if (!strncasecmp(h, "Set-Cookie: cd_player=", 22)) {
                size_t k = strcspn(h + 12, ";\r");
                snprintf(c->who->cookie, sizeof c->who->cookie, "%.*s", (int)k, h + 12);
            }
        }
        size_t used = (size_t)(e - c->in) + 4;
        memmove(c->in, c->in + used, c->len - used + 1);
        c->len -= used;
        c->head_done = 1;
        c->chunk = 0;
        if (c->kind == C_STREAM && c->status != 200)
            return -1;
    }
    size_t off = 0;
    int complete = 0;
    if (c->chunked) {
        while (off < c->len) {
            if (c->chunk == 0) {
                char *nl = memchr(c->in + off, '\n', c->len - off);
                if (!nl)
                    break;
                size_t size = strtoul(c->in + off, NULL, 16);
                off = (size_t)(nl - c->in) + 1;
                if (size == 0) { /* the last chunk, and its CRLF */
                    complete = 1;
                    off = c->len;
                    break;
                }
                c->chunk = size + 2; /* its CRLF taken with it */
            }
            size_t n = c->len - off < c->chunk ? c->len - off : c->chunk;
            size_t data = c->chunk > 2 ? (n < c->chunk - 2 ? n : c->chunk - 2) : 0;
            body_add(c, c->in + off, data);
            off += n;
            c->chunk -= n;
        }
    } else {
        body_add(c, c->in, c->len);
        off = c->len;
        complete = c->clen >= 0 && (long)c->blen >= c->clen;
    }
    memmove(c->in, c->in + off, c->len - off + 1);
    c->len -= off;
    if (c->kind == C_STREAM) {
        sse_take(c);
        return complete ? -1 : 0;
    }
    return complete;
}

static void conn_read(conn *c)
{
    for (;;) {
        if (c->cap - c->len < 16385) {
            c->cap = c->cap * 2 + 32768;
            c->in = realloc(c->in, c->cap);
            if (!c->in)
                abort();
        }
        ssize_t n = recv(c->fd, c->in + c->len, 16384, 0);
        if (n > 0) {
            c->len += (size_t)n;
            c->in[c->len] = 0;
            int r = parse(c);
            while (r == 1) {
                c->busy = 0;
                c->served++;
                c->head_done = 0;
                c->done(c);
                if (!c->len || c->busy)
                    break;
                r = parse(c);
            }
            if (r < 0) {
                if (running) {
                    char what[64];
                    snprintf(what, sizeof what, "stream %d", c->status);
                    fail(what);
                }
                conn_close(c);
                return;
            }
            continue;
        }
        if (n < 0 && errno == EAGAIN)
            return;
        /* closed: a keep-alive connection may be closed when idle (it is opened again). A request
         * on a reused connection closed before any byte of its answer (the server's idle timeout
         * met it on the way) is sent again on a new one, as a browser does. */
        if (c->kind == C_REQUEST && c->busy && c->served > 0 && !c->head_done && c->len == 0) {
            person *w = c->who;
            conn *again = NULL;
            w->ka = NULL;
            if ((again = conn_open(w, C_REQUEST)) != NULL) {
                memcpy(again->out, c->out, c->olen);
                again->olen = c->olen;
                again->done = c->done;
                again->busy = 1;
                again->clen = -1;
                again->t0 = c->t0;
                w->ka = again;
                F.resent++;
                c->who = NULL;
                conn_close(c);
                if (flush(again) != 0) {
                    fail("send");
                    conn_close(again);
                }
                return;
            }
        }
        if (running && (c->kind == C_STREAM || c->busy))
            fail(c->kind == C_STREAM ? "stream closed" : "connection closed mid-request");
        conn_close(c);
        return;
    }
}

/* POST/GET on who's keep-alive connection (opened when it has none). */
static int request(person *who, const char *method, const char *path, const char *body,
                   void (*done)(conn *))
{
    if (!who->ka && !(who->ka = conn_open(who, C_REQUEST)))
        return -1;
    who->ka->done = done;
    if (send_request(who->ka, method, path, body) != 0) {
        fail("send");
        conn_close(who->ka);
        return -1;
    }
    return 0;
}

static int open_stream(person *who, const char *id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/play/%s/events", id);
    double t0 = now_ms();
    if (!(who->sse = conn_open(who, C_STREAM)))
        return -1;
    who->sse->t0 = t0;
    F.streams++;
    return send_request(who->sse, "GET", path, NULL);
}

static void moved(conn *c)
{
    const person *w = c->who;
    game *g = &games[w->game];
    if (g->sent[w->seat] > 0)
        g->answered[w->seat] = now_ms() - g->sent[w->seat];
    if (c->status == 200)
        F.moves++;
    else if (running) {
        char what[96];
        snprintf(what, sizeof what, "move %d %.60s", c->status, c->body ? c->body : "");
        fail(what);
    }
}

static void lobby_done(conn *c)
{
    add(&F.lobby, c->status == 200 ? now_ms() - c->t0 : 1e9);
}

/* Setup: create, join, then both streams. */
static void joined(conn *c)
{
    person *b = c->who;
    game *g = &games[b->game];
    if (c->status != 200) {
        fail("join");
        setup_left--;
        return;
    }
    open_stream(g->p[0], g->id);
    open_stream(b, g->id);
    setup_left--;
}

static void created(conn *c)
{
    person *a = c->who;
    game *g = &games[a->game];
    cJSON *j = c->status == 201 || c->status == 200 ? cJSON_Parse(c->body) : NULL;
    const cJSON *id = cJSON_GetObjectItem(j, "id");
    if (!cJSON_IsString(id)) {
        char what[96];
        snprintf(what, sizeof what, "create %d %.60s", c->status, c->body ? c->body : "");
        fail(what);
        cJSON_Delete(j);
        setup_left--;
        return;
    }
    snprintf(g->id, sizeof g->id, "%s", id->valuestring);
    cJSON_Delete(j);
    if (!g->p[1]) { /* streams: nobody joins */
        setup_left--;
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/api/play/%s/join", g->id);
    if (request(g->p[1], "POST", path, "{}", joined) != 0)
        setup_left--;
}

/* Every player whose thinking is over (due by t) and whose connection is free sends its move. */
static void move_due(person *players, int n, double t)
{
    for (int k = 0; k < n; k++) {
        person *p = &players[k];
        if (p->due > 0 && t >= p->due && !(p->ka && p->ka->busy)) {
            game *g = &games[p->game];
            char path[64], body[128];
            snprintf(path, sizeof path, "/api/play/%s/move", g->id);
            snprintf(body, sizeof body, "{\"move\":\"%s\"}", p->move);
            p->due = 0;
            g->sent[p->seat] = now_ms();
            g->answered[p->seat] = -1;
            g->ply_sent[p->seat] = p->last_ply + 1;
            request(p, "POST", path, body, moved);
        }
    }
}

static void loop_once(int wait_ms)
{
    struct epoll_event evs[256];
    double a = trace ? now_ms() : 0;
    int n = epoll_wait(ep, evs, 256, wait_ms);
    double b = trace ? now_ms() : 0;
    static double last_end;
    if (trace && last_end > 0 && a - last_end > 10)
        fprintf(trace, "gap %.1f %.1f\n", last_end - trace_t0, a - last_end);
    for (int i = 0; i < n; i++) {
        conn *c = evs[i].data.ptr;
        if ((evs[i].events & EPOLLOUT) && c->ooff < c->olen && flush(c) != 0) {
            if (running)
                fail(c->kind == C_STREAM ? "stream refused" : "request refused");
            conn_close(c);
            continue;
        }
        if (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP))
            conn_read(c);
    }
    if (trace && (b - a > wait_ms + 10 || now_ms() - b > 10))
        fprintf(trace, "loop %.1f %.1f %.1f %d\n", a - trace_t0, b - a, now_ms() - b, n);
    if (trace)
        last_end = now_ms();
}

/* The end: every connection closed, every figure freed (the figures are printed by then). */
static void close_all(void)
{
    while (live)
        conn_close(live);
    free(F.lat.v);
    free(F.first.v);
    free(F.lobby.v);
    close(ep);
    if (trace)
        fclose(trace);
}

/* This process's CPU time (user and system), in seconds. */
static double cpu_s(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static void raise_fds(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

int main(int argc, char **argv)
{
    int games_mode = argc == 8 && !strcmp(argv[1], "games");
    if (!games_mode && !(argc == 5 && !strcmp(argv[1], "streams"))) {
        fprintf(stderr, "usage: sitebench games PORT[,PORT...] G S SECONDS THINK_LO THINK_HI\n"
                        "       sitebench streams PORT N ADDRESSES\n");
        return 2;
    }
    int bad_port = 0;
    for (const char *q = argv[2]; !bad_port;) {
        char *end;
        long v = strtol(q, &end, 10);
        bad_port = end == q || v < 1 || v > 65535 || nports == MAX_PORTS || (*end && *end != ',');
        if (!bad_port)
            ports[nports++] = (int)v;
        if (*end != ',')
            break;
        q = end + 1;
    }
    int n = atoi(argv[3]), s = atoi(argv[4]);
    if (bad_port || (!games_mode && nports != 1) || n < 1 || n > 60000 || s < 0 || s > 60000 ||
        (!games_mode && s < 1)) {
        fprintf(stderr, "sitebench: bad arguments\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    raise_fds();
    srand(12345);
    const char *tpath = getenv("SITEBENCH_TRACE");
    if (tpath && *tpath && !(trace = fopen(tpath, "w"))) {
        fprintf(stderr, "sitebench: cannot write %s\n", tpath);
        return 2;
    }
    trace_t0 = now_ms();
    if (trace)
        fprintf(trace, "start %.3f\n", trace_t0); /* CLOCK_MONOTONIC, ms */
    ep = epoll_create1(0);
    person lobby_probe = {.game = -1};
    addr_of(&lobby_probe.addr, 9, 2);

    if (!games_mode) { /* ---------------------------------------- streams */
        ngames = 1;
        games = calloc(1, sizeof *games);
        person owner = {.game = 0, .seat = 2};
        addr_of(&owner.addr, 9, 0);
        if (request(&owner, "POST", "/api/play", "{\"variant\":\"international\",\"open\":true}",
                    created) != 0)
            return 2;
        games[0].p[0] = &owner;
        setup_left = 1;
        while (!games[0].id[0] && F.errors == 0)
            loop_once(10);
        if (!games[0].id[0]) {
            fprintf(stderr, "sitebench: cannot create a game: %s\n", F.kinds);
            return 2;
        }
        person *viewers = calloc((size_t)s, sizeof *viewers);
        for (int k = 0; k < s; k++) {
            addr_of(&viewers[k].addr, 20, k);
            viewers[k].game = -1;
            viewers[k].seat = 2;
        }
        request(&lobby_probe, "GET", "/api/play/lobby", NULL, lobby_done);
        while (lobby_probe.ka && lobby_probe.ka->busy)
            loop_once(10);
        F.lobby.n = 0;
        conn **streams = calloc((size_t)n, sizeof *streams);
        for (int k = 0; k < n; k++) {
            person *v = &viewers[k % s];
            open_stream(v, games[0].id);
            streams[k] = v->sse;
            v->sse = NULL; /* a person holds several streams here */
        }
        double t0 = now_ms(), next_lobby = t0;
        while (F.first.n < (size_t)n && now_ms() - t0 < 10000) {
            if (now_ms() >= next_lobby && !(lobby_probe.ka && lobby_probe.ka->busy)) {
                request(&lobby_probe, "GET", "/api/play/lobby", NULL, lobby_done);
                next_lobby = now_ms() + 100;
            }
            loop_once(5);
        }
        long late = n;
        for (size_t k = 0; k < F.first.n; k++)
            late -= F.first.v[k] <= 1000;
        running = 0;
        printf("streams %d on one game from %d addresses: %zu had their first state, %ld not "
               "within 1 s, first state p50 %.0f ms, max %.0f ms; lobby slowest %.0f ms of %zu; "
               "errors %ld%s%s\n",
               n, s, F.first.n, late, pct(&F.first, 0.5), pct(&F.first, 1), pct(&F.lobby, 1),
               F.lobby.n, F.errors, F.errors ? ": " : "", F.kinds);
        printf("result: first %zu late %ld errors %ld p99 0 lobby %.0f\n", F.first.n, late, F.errors,
               pct(&F.lobby, 1));
        close_all();
        free(streams);
        free(viewers);
        free(games);
        return 0;
    }

    /* -------------------------------------------------------------- games */
    double seconds = atof(argv[5]);
    think_lo = atof(argv[6]);
    think_hi = atof(argv[7]);
    ngames = n;
    games = calloc((size_t)n, sizeof *games);
    person *people = calloc((size_t)(2 * n + s), sizeof *people);
    if (!games || !people)
        return 2;
    for (int i = 0; i < n; i++)
        for (int seat = 0; seat < 2; seat++) {
            person *p = &people[2 * i + seat];
            addr_of(&p->addr, 10 + seat + 2 * (i / 64000), i % 64000);
            p->game = i;
            p->seat = seat;
            p->server = seat % nports;
            p->last_ply = -1;
            games[i].p[seat] = p;
        }
    double t0 = now_ms();
    setup_left = n;
    int started = 0;
    while (setup_left > 0 && now_ms() - t0 < 120000) { /* at most 64 setups at once */
        while (started < n && started - (n - setup_left) < 64) {
            person *a = games[started].p[0];
            char body[160];
            snprintf(body, sizeof body,
                     "{\"variant\":\"%s\",\"colour\":\"white\",\"clock\":{\"type\":\"realtime\","
                     "\"base\":600,\"increment\":5}}",
                     started % 2 ? "international" : "russian");
            if (request(a, "POST", "/api/play", body, created) != 0)
                setup_left--;
            started++;
        }
        /* the games set up play on meanwhile, as people do: their first moves are not held
         * back until every game is set up (that made one burst of ~1,600 moves at once) */
        move_due(people, 2 * started, now_ms());
        loop_once(5);
    }
    for (int k = 0; k < s; k++) {
        person *p = &people[2 * n + k];
        addr_of(&p->addr, 200 + k / 64000, k % 64000);
        p->game = -1;
        p->seat = 2;
        p->server = k % nports;
        if (games[k % n].id[0])
            open_stream(p, games[k % n].id);
    }
    double setup = (now_ms() - t0) / 1000;
    /* the figures count from here: every stream open, the first moves on their way (stderr
     * marks the span for site_bench.sh, which measures the server's CPU over it) */
    fprintf(stderr, "sitebench: playing\n");
    if (trace)
        fprintf(trace, "playing %.1f\n", now_ms() - trace_t0);
    fflush(stderr);
    F.lat.n = 0;
    long moves0 = F.moves;
    double cpu0 = cpu_s();
    double t1 = now_ms(), next_lobby = t1 + 1000;
    while (now_ms() - t1 < seconds * 1000) {
        double t = now_ms();
        move_due(people, 2 * n, t);
        if (t >= next_lobby && !(lobby_probe.ka && lobby_probe.ka->busy)) {
            request(&lobby_probe, "GET", "/api/play/lobby", NULL, lobby_done);
            next_lobby = t + 1000;
        }
        loop_once(2);
    }
    running = 0;
    double span = (now_ms() - t1) / 1000, cpu = cpu_s() - cpu0;
    fprintf(stderr, "sitebench: played\n");
    if (trace)
        fprintf(trace, "played %.1f\n", now_ms() - trace_t0);
    fflush(stderr);
    long late = F.streams;
    for (size_t k = 0; k < F.first.n; k++)
        late -= F.first.v[k] <= 1000;
    long moves = F.moves - moves0;
    double p99 = pct(&F.lat, 0.99);
    printf("games %d, players %d, spectators %d, think %.0f-%.0f ms; setup %.0f s, then %.0f s: "
           "moves %ld (%.0f/s), move-to-opponent latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
           "streams %ld, without their first state within 1 s: %ld (first state p99 %.0f ms); "
           "lobby slowest %.0f ms of %zu; %ld requests sent again (a kept connection closed "
           "idle as they went); errors %ld%s%s; the client's CPU in play %.1f s\n",
           n, 2 * n, s, think_lo, think_hi, setup, span, moves, (double)moves / span,
           pct(&F.lat, 0.5), p99, pct(&F.lat, 1), F.streams, late, pct(&F.first, 0.99),
           pct(&F.lobby, 1), F.lobby.n, F.resent, F.errors, F.errors ? ": " : "", F.kinds, cpu);
    printf("result: first %zu late %ld errors %ld p99 %.1f lobby %.0f\n", F.first.n, late, F.errors,
           p99, pct(&F.lobby, 1));
    close_all();
    free(people);
    free(games);
    return 0;
}
