/*
 * router.c -- which handler answers a request (route()), the static files of the front end, and
 * the API without HTTP for tests and fuzzing (cd_web_setup, cd_web_request, cd_web_reset:
 * server.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "server.h"
#include "towers_api.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- static files */

static const char *content_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".htm", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
        {".pdn", "text/plain; charset=utf-8"},
        {".md", "text/plain; charset=utf-8"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcmp(dot, types[i].ext))
                return types[i].type;
    return "application/octet-stream";
}

static enum MHD_Result serve_static(reply *c, const char *url)
{
    const char *rel = !strcmp(url, "/") ? "index.html" : url + 1;
    if (url[0] != '/' || !rel[0] || rel[0] == '/' || strstr(rel, "..") ||
        strspn(rel, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/") !=
            strlen(rel))
        return send_error(c, MHD_HTTP_NOT_FOUND, "not found");
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", srv.web, rel);
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return send_error(c, MHD_HTTP_NOT_FOUND, "not found");
    }
    c->status = MHD_HTTP_OK;
    c->type = content_type(rel);
    c->fd = fd;
    c->fd_size = (uint64_t)st.st_size;
    return MHD_YES;
}

/* ---------------------------------------------------------------- routing */

enum { M_GET = 1, M_POST = 2, M_DELETE = 4 };

static int method_bit(const char *method)
{
    if (!strcmp(method, "GET") || !strcmp(method, "HEAD"))
        return M_GET;
    if (!strcmp(method, "POST"))
        return M_POST;
    if (!strcmp(method, "DELETE"))
        return M_DELETE;
    return 0;
}

enum MHD_Result route(reply *c, const char *url, const char *method, request *rq, query_fn query,
                      void *qctx)
{
    int m = method_bit(method);
    if (strncmp(url, "/api/", 5) && strcmp(url, "/api")) {
        if (m != M_GET)
            return send_405(c, "GET, HEAD");
        return serve_static(c, url);
    }
    const char *p = url + 4;
    if (!strncmp(p, "/towers", 7) && (!p[7] || p[7] == '/')) { /* tower draughts: towers_api.c */
        towers_reply t;
        towers_api(p + 7, method, rq->body, rq->len, &t);
        c->allow = t.allow;
        return t.body ? send_buffer(c, t.status, "application/json", t.body, t.len) : MHD_NO;
    }
    if (!strncmp(p, "/play", 5) && (!p[5] || p[5] == '/'))
        return api_play(c, p + 5, method, rq, query, qctx);
    if (!strncmp(p, "/account", 8) && (!p[8] || p[8] == '/'))
        return api_account(c, p + 8, method, rq);
    if (!strncmp(p, "/players", 8) && (!p[8] || p[8] == '/'))
        return api_players(c, p + 8, method, rq, query, qctx);
    if (!strncmp(p, "/leaderboard", 12) && (!p[12] || p[12] == '/'))
        return api_leaderboard(c, p + 12, method, query, qctx);
    if (!strcmp(p, "/variants"))
        return m == M_GET ? api_variants(c) : send_405(c, "GET");
    if (!strcmp(p, "/games") || !strcmp(p, "/games/")) {
        if (m == M_POST)
            return api_create(c, rq);
        return m == M_GET ? api_list(c) : send_405(c, "GET, POST");
    }
    if (!strcmp(p, "/games/import"))
        return m == M_POST ? api_import(c, rq) : send_405(c, "POST");
    if (!strncmp(p, "/games/", 7)) {
        const char *idp = p + 7;
        const char *slash = strchr(idp, '/');
        size_t n = slash ? (size_t)(slash - idp) : strlen(idp);
        const char *action = slash ? slash + 1 : "";
        static const struct {
            const char *name;
            int methods;
            const char *allow;
        } actions[] = {
            {"", M_GET | M_DELETE, "GET, DELETE"},
            {"move", M_POST, "POST"},
            {"engine", M_POST, "POST"},
            {"undo", M_POST, "POST"},
            {"hint", M_POST, "POST"},
            {"analyse", M_GET, "GET"},
            {"analyze", M_GET, "GET"},
            {"review", M_GET, "GET"},
            {"pdn", M_GET, "GET"},
        };
        int k = -1;
        for (int i = 0; i < (int)(sizeof actions / sizeof actions[0]); i++)
            if (!strcmp(action, actions[i].name))
                k = i;
        if (k < 0 || n == 0)
            return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route");
        if (!(m & actions[k].methods))
            return send_405(c, actions[k].allow);
        char id[64];
        if (n >= sizeof id)
            return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
        memcpy(id, idp, n);
        id[n] = 0;
        const char *a = actions[k].name;
        if (!a[0])
            return m == M_GET ? api_get(c, id) : api_delete(c, id, rq);
        if (!strcmp(a, "move"))
            return api_move(c, id, rq);
        if (!strcmp(a, "engine"))
            return api_search(c, id, rq, 1);
        if (!strcmp(a, "hint"))
            return api_search(c, id, rq, 0);
        if (!strcmp(a, "undo"))
            return api_undo(c, id, rq);
        if (!strcmp(a, "pdn"))
            return api_pdn(c, id);
        if (!strcmp(a, "review"))
            return api_review(c, id, query, qctx);
        return api_analyse(c, id, query, qctx);
    }
    return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route");
}

int route_slow(const char *url, const char *method)
{
    if (strcmp(method, "POST") || strncmp(url, "/api/", 5))
        return 0;
    size_t n = strlen(url);
    static const char *const slow_ends[] = {"/engine", "/hint"}; /* searches */
    for (size_t i = 0; i < sizeof slow_ends / sizeof slow_ends[0]; i++) {
        size_t k = strlen(slow_ends[i]);
        if (n > k && !strcmp(url + n - k, slow_ends[i]))
            return 1;
    }
    return !strncmp(url, "/api/account/", 13); /* register, login and password hash one */
}

/* ---------------------------------------------------------------- without HTTP (server.h) */

void cd_web_setup(const char *data_dir, const char *egtb_dir, uint64_t max_nodes, size_t hash_mb)
{
    egtb_set_dir(egtb_dir);
    snprintf(srv.data, sizeof srv.data, "%s", data_dir ? data_dir : "");
    snprintf(srv.web, sizeof srv.web, "%s", "/dev/null/no-static-files");
    srv.persist = data_dir != NULL;
    srv.max_nodes = max_nodes;
    srv.hash_mb = hash_mb ? hash_mb : ENGINE_HASH_MB;
}

void cd_web_reset(void)
{
    srv_lock();
    while (srv.games) {
        web_game *next = srv.games->next;
        free_game(srv.games);
        srv.games = next;
    }
    srv.ngames = 0;
    srv_unlock();
    engine_pool_free();
    play_close();
}

typedef struct {
    const char *query; /* "a=1&b=2" */
    char value[256];
} url_query;

static const char *url_query_get(void *ctx, const char *name)
{
    url_query *q = ctx;
    size_t n = strlen(name);
    for (const char *p = q->query; p && *p;) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        if (len > n && !strncmp(p, name, n) && p[n] == '=') {
            size_t v = len - n - 1;
            if (v >= sizeof q->value)
                v = sizeof q->value - 1;
            memcpy(q->value, p + n + 1, v);
            q->value[v] = '\0';
            return q->value;
        }
        p = amp ? amp + 1 : NULL;
    }
    return NULL;
}

int cd_web_request(const char *method, const char *url, const char *body, size_t len,
                   unsigned *status, char **out, size_t *outlen)
{
    request rq;
    memset(&rq, 0, sizeof rq);
    if (len > MAX_BODY)
        rq.too_large = 1;
    else if (len) {
        rq.body = malloc(len + 1);
        if (!rq.body)
            return -1;
        memcpy(rq.body, body, len);
        rq.body[len] = '\0';
        rq.len = len;
    }
    char path[1024];
    url_query q = {NULL, ""};
    snprintf(path, sizeof path, "%s", url);
    char *qm = strchr(path, '?');
    if (qm) {
        *qm = '\0';
        q.query = qm + 1;
    }
    reply r;
    reply_init(&r);
    enum MHD_Result ret = rq.too_large
                              ? send_error(&r, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large")
                              : route(&r, path, method, &rq, url_query_get, &q);
    free(rq.body);
    if (r.fd >= 0)
        close(r.fd);
    if (r.live)
        play_live_free(r.live);
    if (r.stream) { /* a stream is started and at once given up, as by a client that leaves */
        sse_free(r.stream);
        r.stream = NULL;
    }
    *status = r.status;
    *out = r.body;
    *outlen = r.len;
    return ret == MHD_YES ? 0 : -1;
}
