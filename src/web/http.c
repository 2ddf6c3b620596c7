/*
 * http.c -- libmicrohttpd glue: a request's body is gathered (at most MAX_BODY), routed, and its
 * reply queued as a response (a buffer, a file or an SSE stream); the watchdog that closes the
 * connections of clients too slow to send their requests and wakes the parked event streams
 * (web.h, stream_hook); the slow handlers (route_slow) run in threads of their own.
 *
 * libmicrohttpd runs POOL_THREADS threads, each an epoll loop over its share of the connections,
 * so a handler or a content reader must never wait: an event stream with nothing to send parks
 * (suspends) its connection, and a request that may take long (an engine search, a password hash)
 * suspends its connection while a thread of its own runs route(), then resumes it to send the
 * reply.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "lazy_lock.h"
#include "server.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdatomic.h>
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------- parked streams, slow jobs */

static struct {
    mtx_t m;           /* made on first use (s_lock) */
    cnd_t idle;        /* jobs fell to 0 */
    stream_hook *head; /* (m) the parked streams */
    struct http_job *held; /* (m) the replies waiting for the store's disk (hold_reply) */
    int stopping;      /* (m) http_stop began: no stream parks, no job starts */
    int jobs;          /* (m) slow handlers running, and replies held */
} S;

static once_flag s_once = ONCE_FLAG_INIT;

static void s_init(void)
{
    mtx_init(&S.m, mtx_plain);
    cnd_init(&S.idle);
}

static void s_lock(void)
{
    call_once(&s_once, s_init);
    mtx_lock(&S.m);
}

/* Take h out of the list and resume it (under S.m). */
static void unpark(stream_hook *h, int resume)
{
    if (!h->parked)
        return;
    if (h->prev)
        h->prev->next = h->next;
    else
        S.head = h->next;
    if (h->next)
        h->next->prev = h->prev;
    h->prev = h->next = NULL;
    h->parked = 0;
    if (resume)
        MHD_resume_connection(h->conn);
}

int stream_park(stream_hook *h)
{
    s_lock();
    int ok = !S.stopping && h->conn;
    if (ok && !h->parked) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(h->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        h->fd = ci ? ci->connect_fd : -1;
        MHD_suspend_connection(h->conn);
        h->parked = 1;
        h->since = mono_ms();
        h->prev = NULL;
        h->next = S.head;
        if (S.head)
            S.head->prev = h;
        S.head = h;
    }
    mtx_unlock(&S.m);
    return ok;
}

void stream_wake(stream_hook *h)
{
    s_lock();
    unpark(h, 1);
    mtx_unlock(&S.m);
}

void stream_drop(stream_hook *h)
{
    s_lock();
    unpark(h, 0);
    mtx_unlock(&S.m);
}

/* Wake every parked stream: the server stops. */
static void wake_all(void)
{
    s_lock();
    while (S.head)
        unpark(S.head, 1);
    mtx_unlock(&S.m);
}

/* Whether the client of a parked stream has gone, by its socket's poll events: hung up or failed,
 * or readable and reading its end (a byte sent instead, as a pipelined request, leaves it be). */
static int departed(int fd, short revents)
{
    if (revents & (POLLHUP | POLLERR | POLLNVAL))
        return 1;
    if (!(revents & POLLIN))
        return 0;
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* The watchdog's tick for the parked streams, in one walk of them: wake those parked for
 * KEEPALIVE_MS (their reader sends a keep-alive), and those whose client has gone (web.h), found
 * by one poll that does not wait of the sockets of a share of them: the streams whose socket
 * number is `share` modulo DEPART_SHARES, so each tick polls a different share and a stream is
 * polled every DEPART_SHARES ticks while it stays parked. The reader then ends each stream whose
 * client left within DEPART_SHARES ticks of the departure instead of at its next keep-alive. Only
 * the watchdog calls it: the arrays are its own. */
static void tend_parked(unsigned share)
{
    static struct pollfd *fds;
    static stream_hook **who;
    static size_t cap;
    long long now = mono_ms();
    int room = 1; /* out of memory: the streams not polled are seen at their keep-alive */
    s_lock();
    size_t n = 0;
    for (stream_hook *h = S.head, *next; h; h = next) {
        next = h->next;
        if (now - h->since >= KEEPALIVE_MS) {
            unpark(h, 1);
            continue;
        }
        if (h->fd < 0 || (unsigned)h->fd % DEPART_SHARES != share || !room)
            continue;
        if (n == cap) {
            size_t c = cap ? 2 * cap : 256;
            struct pollfd *f = realloc(fds, c * sizeof *f);
            if (f)
                fds = f;
            stream_hook **w = f ? realloc(who, c * sizeof *w) : NULL;
            if (w)
                who = w;
            if (!f || !w) {
                room = 0;
                continue;
            }
            cap = c;
        }
        fds[n].fd = h->fd;
        fds[n].events = POLLIN;
        fds[n].revents = 0;
        who[n++] = h;
    }
    if (n && poll(fds, (nfds_t)n, 0) > 0)
        for (size_t i = 0; i < n; i++)
            if (fds[i].revents && departed(fds[i].fd, fds[i].revents))
                unpark(who[i], 1);
    mtx_unlock(&S.m);
}

/* A request whose route() runs in a thread of its own (route_slow), or whose reply waits for the
 * store's disk (held: web.h, reply.hold). */
typedef struct http_job {
    struct MHD_Connection *conn;
    char *url, *method;
    request *rq;
    reply out;
    enum MHD_Result ret;
    uint64_t until;        /* held: the store's change number to be on disk first */
    struct http_job *next; /* (S.m) held, in S.held */
} http_job;

static const char *mhd_query(void *ctx, const char *name);

/* An API answer (not a stream) is sent once every change the store had committed when it was
 * made is on disk (store.h, store_written): nothing is answered, and no state shown, that a
 * machine losing power could take back. */
static void hold_from(reply *out, const char *url)
{
    if (!strncmp(url, "/api/", 5) && !out->stream && !out->live)
        out->hold = store_written();
}

static int job_run(void *arg)
{
    http_job *j = arg;
    j->ret = route(&j->out, j->url, j->method, j->rq, mhd_query, j->conn);
    hold_from(&j->out, j->url);
    s_lock();
    MHD_resume_connection(j->conn); /* the handler is called again and sends j->out */
    if (--S.jobs == 0)
        cnd_broadcast(&S.idle);
    mtx_unlock(&S.m);
    return 0;
}

/* Run route() for the request in a thread of its own, the connection suspended meanwhile; 0 when
 * it cannot (the server is stopping, out of memory): the caller runs it. */
static int job_start(struct MHD_Connection *conn, const char *url, const char *method, request *rq)
{
    http_job *j = calloc(1, sizeof *j);
    if (!j || !(j->url = strdup(url)) || !(j->method = strdup(method))) {
        if (j)
            free(j->url);
        free(j);
        return 0;
    }
    j->conn = conn;
    j->rq = rq;
    reply_init(&j->out);
    s_lock();
    int ok = !S.stopping;
    if (ok) {
        S.jobs++;
        rq->job = j;
        MHD_suspend_connection(conn);
        thrd_t t;
        if (thrd_create(&t, job_run, j) == thrd_success) {
            thrd_detach(t);
        } else {
            MHD_resume_connection(conn);
            S.jobs--;
            rq->job = NULL;
            ok = 0;
        }
    }
    mtx_unlock(&S.m);
    if (!ok) {
        free(j->url);
        free(j->method);
        free(j);
    }
    return ok;
}

/* Hold out (route()'s reply, ret MHD_YES) until the store has synced out->hold, the connection
 * suspended meanwhile; 0 when it need not wait (or cannot: out of memory): send it now. */
static int hold_reply(struct MHD_Connection *conn, request *rq, reply *out)
{
    if (!out->hold || store_synced() >= out->hold)
        return 0;
    http_job *j = calloc(1, sizeof *j);
    if (!j)
        return 0;
    j->conn = conn;
    j->rq = rq;
    j->out = *out;
    j->out.hold = 0;
    j->until = out->hold;
    j->ret = MHD_YES;
    s_lock();
    int wait = store_synced() < out->hold;
    if (wait) {
        S.jobs++;
        rq->job = j;
        j->next = S.held;
        S.held = j;
        MHD_suspend_connection(conn);
    }
    mtx_unlock(&S.m);
    if (!wait)
        free(j);
    return wait;
}

/* store_on_synced: the replies held for the changes up to `synced` are sent. */
static void http_synced(uint64_t synced)
{
    s_lock();
    for (http_job **pp = &S.held; *pp;) {
        http_job *j = *pp;
        if (j->until <= synced) {
            *pp = j->next;
            MHD_resume_connection(j->conn); /* the handler is called again and sends j->out */
            if (--S.jobs == 0)
                cnd_broadcast(&S.idle);
        } else {
            pp = &j->next;
        }
    }
    mtx_unlock(&S.m);
}

/* ---------------------------------------------------------------- HTTP */

#define CSP                                                                                        \
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "              \
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "                 \
    "frame-ancestors 'none'"

/* Turn a reply into the connection's response (takes what the reply owns). */
static enum MHD_Result queue_reply(struct MHD_Connection *conn, reply *r)
{
    struct MHD_Response *resp;
    if (r->hook)
        r->hook->conn = conn;
    if (r->live) {
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, play_live_read, r->live,
                                                 play_live_free);
        if (!resp) {
            play_live_free(r->live);
            return MHD_NO;
        }
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    } else if (r->stream) {
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, r->stream,
                                                 sse_free);
        if (!resp) {
            sse_free(r->stream);
            return MHD_NO;
        }
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    } else if (r->fd >= 0) {
        resp = MHD_create_response_from_fd(r->fd_size, r->fd);
        if (!resp) {
            close(r->fd);
            return MHD_NO;
        }
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    } else {
        resp = r->body ? MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE)
                       : MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        if (!resp) {
            free(r->body);
            return MHD_NO;
        }
        r->body = NULL;
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
        if (r->allow)
            MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
        if (r->close)
            MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
        if (r->retry_after) {
            char secs[16];
            snprintf(secs, sizeof secs, "%d", r->retry_after);
            MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
        }
    }
    if (r->type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type);
    /* Every answer: the pages (web/) load their scripts, styles and images from this server only
     * and have no inline script or style; no other site may frame them or sniff a type. */
    MHD_add_response_header(resp, "Content-Security-Policy", CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
    if (r->cookie[0]) {
        char cookie[160];
        snprintf(cookie, sizeof cookie,
                 "cd_player=%s; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict", r->cookie);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, cookie);
    }
    /* The idle timeout counts from here, not from the request's last byte: a handler that waited
     * (for the play lock, on a loaded machine) must not find its answer's connection timed out
     * as it queues it (the move applied, its answer lost, a browser sending it again). Setting
     * no timeout, then IDLE_SECONDS, restarts the timer (microhttpd.h). */
    MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
    MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, IDLE_SECONDS);
    enum MHD_Result ret = MHD_queue_response(conn, r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* Query arguments of an HTTP request. */
static const char *mhd_query(void *ctx, const char *name)
{
    return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

/*
 * The request-time watchdog. Every connection is watched from its start. While it receives a
 * request (from the connection's start or the end of its previous request until the request's
 * headers and body are in) it has REQUEST_SECONDS, or PRESSURE_MS while more than half of the
 * connections allowed (W.limit) are receiving (slow clients trying to take every connection) or
 * when it came over the limit (it is only to be told 503); making and sending the response has no
 * limit here. A connection over its time gets shutdown(2) on its
 * socket, so its thread sees the end of the stream and closes it. libmicrohttpd calls
 * NOTIFY_CLOSED before it closes the socket, and that takes the entry out under W.m, so a socket
 * number is never shut after its reuse. The entries receiving are in W.recv in the order of their
 * `since` (oldest first: an entry starting a request goes to the end, with `since` read under
 * W.m), the others in W.idle, so a tick looks only at the entries receiving for over PRESSURE_MS,
 * the shortest limit, and stops at the first younger one.
 */
typedef struct watched {
    int fd;
    int receiving;   /* waiting for (the rest of) a request */
    int over;        /* opened while W.limit connections were open: answered 503, then closed */
    long long since; /* ms, CLOCK_MONOTONIC: when the current request began */
    struct watched *prev, *next;
} watched;

typedef struct {
    watched *head, *tail;
} watched_list;

static struct {
    mtx_t m; /* made on first use (w_lock) */
    watched_list recv; /* the entries receiving, by since (oldest first) */
    watched_list idle; /* the others */
    int stop;
    unsigned receiving;    /* the entries whose receiving is 1 */
    unsigned long dropped; /* connections shut for being too slow */
    thrd_t thread;
    int live;              /* the watchdog thread runs */
    unsigned limit;        /* connections answered (http_start's max_conn) */
    atomic_uint open;      /* connections open (notify_connection) */
} W;

WEB_LAZY_LOCK(static, w_lock, W.m)

/* Under W.m: take w out of its list (w_unlink), or put it at the end of its list (w_append, by
 * w->receiving, with since now when it receives). */
static void w_unlink(watched *w)
{
    watched_list *l = w->receiving ? &W.recv : &W.idle;
    if (w->prev)
        w->prev->next = w->next;
    else
        l->head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    else
        l->tail = w->prev;
    w->prev = w->next = NULL;
}

static void w_append(watched *w)
{
    watched_list *l = w->receiving ? &W.recv : &W.idle;
    if (w->receiving)
        w->since = mono_ms();
    w->prev = l->tail;
    w->next = NULL;
    if (l->tail)
        l->tail->next = w;
    else
        l->head = w;
    l->tail = w;
}

/* Under W.m: set whether w receives, moving it to the end of that list. */
static void w_set_receiving(watched *w, int receiving)
{
    W.receiving += (unsigned)receiving - (unsigned)w->receiving;
    w_unlink(w);
    w->receiving = receiving;
    w_append(w);
}

static void notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                              enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        watched *w = ci ? calloc(1, sizeof *w) : NULL;
        if (!w)
            return;
        w->fd = ci->connect_fd;
        w->receiving = 1;
        w->over = atomic_fetch_add(&W.open, 1) >= W.limit;
        w_lock();
        W.receiving++;
        w_append(w);
        mtx_unlock(&W.m);
        *socket_context = w;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        watched *w = *socket_context;
        if (!w)
            return;
        w_lock();
        W.receiving -= (unsigned)w->receiving;
        w_unlink(w);
        mtx_unlock(&W.m);
        atomic_fetch_sub(&W.open, 1);
        free(w);
        *socket_context = NULL;
    }
}

static watched *watched_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

/* The connection starts (1) or ends (0) receiving a request. */
static void watch_receiving(struct MHD_Connection *c, int receiving)
{
    watched *w = watched_of(c);
    if (!w)
        return;
    w_lock();
    w_set_receiving(w, receiving != 0);
    mtx_unlock(&W.m);
}

/* Every TICK_MS: a relative sleep (thrd_sleep) and times on CLOCK_MONOTONIC, so a step of the
 * wall clock neither stalls the watchdog nor cuts a connection early; http_stop waits at most one
 * tick for it. It also tends the parked streams (tend_parked). At most one walk of each list a
 * tick, and of the receiving connections only those receiving for over PRESSURE_MS: with
 * thousands of games the lists hold thousands, and the watchdog was 6% of the server's CPU when it
 * walked each twice and polled every parked socket each tick (docs/api.md, "Many games"). */
static int watchdog(void *arg)
{
    (void)arg;
    unsigned share = 0;
    w_lock();
    while (!W.stop) {
        mtx_unlock(&W.m);
        struct timespec tick = {0, TICK_MS * 1000000L};
        thrd_sleep(&tick, NULL);
        tend_parked(share);
        share = (share + 1) % DEPART_SHARES;
        w_lock();
        long long now = mono_ms();
        long long limit = W.receiving > W.limit / 2 ? PRESSURE_MS : REQUEST_SECONDS * 1000;
        for (watched *w = W.recv.head, *next; w && now - w->since > PRESSURE_MS; w = next) {
            next = w->next;
            if (now - w->since > (w->over ? PRESSURE_MS : limit) && w->fd >= 0) {
                shutdown(w->fd, SHUT_RDWR);
                w_set_receiving(w, 0);
                W.dropped++;
            }
        }
    }
    mtx_unlock(&W.m);
    return 0;
}

static enum MHD_Result finish(struct MHD_Connection *conn, const char *url, request *rq, reply *out,
                              enum MHD_Result ret);

/* The bytes refused in a URL (after its %XX are decoded: unescape() turns %00 into \x7f). */
#define URL_CONTROLS                                                                               \
    "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17" \
    "\x18\x19"                                                                                     \
    "\x1a\x1b\x1c\x1d\x1e\x1f\x7f"

/* libmicrohttpd's unescaping of the URL and its arguments, except that %00 becomes \x7f: a NUL
 * would end the string there and cut the URL (/api/play/ID%00/pdn read as /api/play/ID), so it
 * is kept as a byte that handler() refuses (400) in the URL and no argument's reader takes. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    for (char *p = s; (p = strstr(p, "%00")) != NULL; p += 3)
        memcpy(p, "%7f", 3);
    return MHD_http_unescape(s);
}

/* MHD_get_connection_values' iterator: the size of the request's headers, as sent, into *cls. */
static enum MHD_Result add_header_size(void *cls, enum MHD_ValueKind kind, const char *key,
                                       const char *value)
{
    (void)kind;
    *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 4; /* ": ", CRLF */
    return MHD_YES;
}

/* The proxies in front (http_start's): their requests name the client in X-Real-IP. Set before
 * the daemon starts, read only after. */
static struct {
    struct in_addr addr[CD_SERVE_PROXIES];
    int n;
} Proxies;

/* MHD_get_connection_values' iterator over the request's headers: its X-Real-IP headers, counted,
 * and the value of the first. */
struct real_ip {
    const char *value;
    unsigned n;
};

static enum MHD_Result find_real_ip(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    (void)kind;
    struct real_ip *r = cls;
    if (strcasecmp(key, "X-Real-IP") == 0 && r->n++ == 0)
        r->value = value;
    return MHD_YES;
}

/* The client's address as text ("" when unknown): the key of the limits by address. It is the
 * TCP peer's, or, when the peer is a proxy of --trust-proxy, the address its X-Real-IP header
 * names (written as inet_ntop writes it, an IPv4-mapped IPv6 address as IPv4, so each client has
 * one key). 0, or 400 with err set: the proxy's X-Real-IP is missing, repeated, or not an IPv4 or
 * IPv6 address. Another peer's X-Real-IP is ignored: anyone could send one. */
static unsigned client_address(struct MHD_Connection *conn, char *out, size_t len, char *err,
                               size_t errlen)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    int proxy = 0;
    out[0] = 0;
    if (sa && sa->sa_family == AF_INET) {
        const struct in_addr *peer = &((const struct sockaddr_in *)(const void *)sa)->sin_addr;
        inet_ntop(AF_INET, peer, out, (socklen_t)len);
        for (int i = 0; i < Proxies.n; i++)
            proxy |= Proxies.addr[i].s_addr == peer->s_addr;
    } else if (sa && sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
                  (socklen_t)len);
    }
    if (!proxy)
        return 0;
    struct real_ip hdr = {NULL, 0};
    MHD_get_connection_values(conn, MHD_HEADER_KIND, find_real_ip, &hdr);
    const char *real = hdr.value;
    struct in6_addr a6;
    struct in_addr a4;
    const char *peer = out[0] ? out : "?";
    if (!real) {
        snprintf(err, errlen, "no X-Real-IP header from the proxy %s (--trust-proxy): it must "
                 "name the client's address", peer);
    } else if (hdr.n > 1) {
        snprintf(err, errlen, "X-Real-IP %u times from the proxy %s: one address only", hdr.n,
                 peer);
    } else if (inet_pton(AF_INET, real, &a4) == 1) {
        inet_ntop(AF_INET, &a4, out, (socklen_t)len);
        return 0;
    } else if (inet_pton(AF_INET6, real, &a6) == 1) {
        if (IN6_IS_ADDR_V4MAPPED(&a6))
            inet_ntop(AF_INET, &a6.s6_addr[12], out, (socklen_t)len);
        else
            inet_ntop(AF_INET6, &a6, out, (socklen_t)len);
        return 0;
    } else {
        snprintf(err, errlen, "X-Real-IP '%.64s' from the proxy %s is not an IPv4 or IPv6 address",
                 real, peer);
    }
    return MHD_HTTP_BAD_REQUEST;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    request *rq = *con_cls;
    reply out;
    reply_init(&out);
    if (rq && rq->job) { /* resumed: the slow handler is done */
        http_job *j = rq->job;
        rq->job = NULL;
        out = j->out;
        enum MHD_Result ret = j->ret;
        free(j->url);
        free(j->method);
        free(j);
        return finish(conn, url, rq, &out, ret);
    }
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        *con_cls = rq;
        guard_token(MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "cd_player"), rq->token);
        char err[512] = "";
        unsigned bad_addr = client_address(conn, rq->addr, sizeof rq->addr, err, sizeof err);
        int write = strcmp(method, "GET") && strcmp(method, "HEAD") && strcmp(method, "OPTIONS");
        const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
        const char *cl =
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        size_t header = strlen(url);
        MHD_get_connection_values(conn, MHD_HEADER_KIND, add_header_size, &header);
        unsigned status = 0;
        watched *w = watched_of(conn);
        if (w && w->over) { /* set when the connection opened, before its first request */
            status = MHD_HTTP_SERVICE_UNAVAILABLE;
            out.retry_after = 5;
            out.close = 1;
            snprintf(err, sizeof err, "the server is at its limit of %u connections: try again",
                     W.limit);
        } else if (header > MAX_HEADER) {
            status = MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE;
            snprintf(err, sizeof err, "request headers too large (limit %d bytes)", MAX_HEADER);
        } else if (bad_addr) { /* err says why */
            status = bad_addr;
        } else if (!host && !strcmp(version, MHD_HTTP_VERSION_1_1)) {
            status = MHD_HTTP_BAD_REQUEST;
            snprintf(err, sizeof err, "an HTTP/1.1 request needs a Host header");
        } else if (strpbrk(url, URL_CONTROLS)) {
            status = MHD_HTTP_BAD_REQUEST;
            snprintf(err, sizeof err, "a control character (NUL included) in the URL");
        } else if (guard_check(host, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin"),
                               MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Sec-Fetch-Site"),
                               write, err, sizeof err) != 0) {
            status = MHD_HTTP_FORBIDDEN;
        } else if (cl && strtoull(cl, NULL, 10) > MAX_BODY) {
            status = MHD_HTTP_CONTENT_TOO_LARGE;
            snprintf(err, sizeof err, "request body too large (limit %d)", MAX_BODY);
        }
        if (status) { /* refused before any handler: the body, if any, is read and dropped */
            rq->too_large = rq->responded = 1;
            watch_receiving(conn, 0);
            if (send_error(&out, status, "%s", err) == MHD_NO)
                return MHD_NO;
            return queue_reply(conn, &out);
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (rq->too_large)
            return MHD_YES;
        if (rq->len + n > MAX_BODY) {
            rq->too_large = 1;
            free(rq->body);
            rq->body = NULL;
            rq->len = 0;
            return MHD_YES;
        }
        char *nb = realloc(rq->body, rq->len + n + 1);
        if (!nb)
            return MHD_NO;
        memcpy(nb + rq->len, upload_data, n);
        rq->body = nb;
        rq->len += n;
        rq->body[rq->len] = 0;
        return MHD_YES;
    }
    if (rq->responded)
        return MHD_YES;
    rq->responded = 1;
    watch_receiving(conn, 0); /* the request is in: no limit while we answer */
    if (!rq->too_large && route_slow(url, method) && job_start(conn, url, method, rq))
        return MHD_YES; /* called again when the job resumes the connection */
    enum MHD_Result ret = rq->too_large ? send_error(&out, MHD_HTTP_CONTENT_TOO_LARGE,
                                                     "request body too large (limit %d)", MAX_BODY)
                                        : route(&out, url, method, rq, mhd_query, conn);
    hold_from(&out, url);
    return finish(conn, url, rq, &out, ret);
}

/* Send route()'s reply out (or drop it when route failed). */
static enum MHD_Result finish(struct MHD_Connection *conn, const char *url, request *rq, reply *out,
                              enum MHD_Result ret)
{
    if (ret == MHD_NO) {
        free(out->body);
        if (out->fd >= 0)
            close(out->fd);
        if (out->stream)
            sse_free(out->stream);
        if (out->live)
            play_live_free(out->live);
        return MHD_NO;
    }
    /* A browser gets its player token with its first API answer, so the board games it creates
     * are its own (api_games.c) and its seats of games between people are held (play.h). */
    if (!rq->token[0] && !out->cookie[0] && !strncmp(url, "/api/", 5) &&
        play_new_token(out->cookie) != 0)
        out->cookie[0] = 0;
    if (hold_reply(conn, rq, out))
        return MHD_YES; /* called again when the store has synced the change */
    return queue_reply(conn, out);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)toe;
    request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
    watch_receiving(c, 1); /* the next request's time starts */
}

unsigned http_spare(unsigned max_conn) { return max_conn / 16 > 16 ? max_conn / 16 : 16; }

struct MHD_Daemon *http_start(const void *sockaddr_in, uint16_t port, unsigned per_ip,
                              unsigned max_conn, const struct in_addr *proxies, int nproxies)
{
    Proxies.n = nproxies;
    if (Proxies.n > 0)
        memcpy(Proxies.addr, proxies, (size_t)Proxies.n * sizeof *proxies);
    W.limit = max_conn;
    atomic_store(&W.open, 0);
    s_lock();
    S.stopping = 0;
    mtx_unlock(&S.m);
    W.stop = 0;
    store_on_synced(http_synced);
    W.live = thrd_create(&W.thread, watchdog, NULL) == thrd_success;
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, port, NULL,
        NULL, handler, NULL, MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)sockaddr_in,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS, MHD_OPTION_CONNECTION_TIMEOUT,
        IDLE_SECONDS, MHD_OPTION_CONNECTION_LIMIT, max_conn + http_spare(max_conn),
        MHD_OPTION_LISTEN_BACKLOG_SIZE, max_conn,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)CONN_MEMORY, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, NULL, MHD_OPTION_UNESCAPE_CALLBACK,
        unescape, NULL, MHD_OPTION_END);
    if (!d)
        http_stop(NULL);
    return d;
}

void http_stop(struct MHD_Daemon *d)
{
    /* libmicrohttpd may not be stopped with a connection suspended: the streams are woken (and
     * end), the slow handlers finish (a search lasts at most MAX_SEARCH). */
    s_lock();
    S.stopping = 1;
    mtx_unlock(&S.m);
    wake_all();
    s_lock();
    while (S.jobs > 0)
        cnd_wait(&S.idle, &S.m);
    mtx_unlock(&S.m);
    if (d)
        MHD_stop_daemon(d);
    if (W.live) {
        w_lock();
        W.stop = 1;
        mtx_unlock(&W.m);
        thrd_join(W.thread, NULL);
        W.live = 0;
    }
}
