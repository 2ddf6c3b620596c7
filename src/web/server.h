/*
 * server.h -- `condraughts serve`: the HTTP/JSON server behind the browser front end.
 *
 * The command line is read by src/cli (main.c, `condraughts serve --help`); the API is
 * documented in docs/api.md.
 */
#ifndef CD_WEB_SERVER_H
#define CD_WEB_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

#define CD_SERVE_PROXIES 4 /* --trust-proxy: at most this many */

/* What `condraughts serve` was asked for (src/cli reads the command line and picks the tables
 * folder, cli_egtb_default): NULL fields take their defaults (host 127.0.0.1, data "games", web
 * "web", egtb none, db DATA.sqlite beside the games folder). */
typedef struct cd_serve_config {
    long port; /* 0: any free port */
    const char *host, *data, *web, *egtb, *db;
    long per_ip;    /* connections at once from one TCP peer (0: no limit, and, without
                     * proxies, no other limit by address; the CLI: CD_SERVE_PER_IP) */
    /* the IPv4 addresses of the proxies in front (--trust-proxy, text; at most
     * CD_SERVE_PROXIES): a request from one of them names its client in X-Real-IP, the address
     * the limits by address count (then on whatever per_ip is) */
    const char *proxies[CD_SERVE_PROXIES];
    int nproxies;
    long max_games; /* live games between people at most (0: PLAY_MAX) */
    long max_conn;  /* connections answered at once (0: as many as the file descriptors allow,
                     * cd_serve_run raising its soft limit to the hard one, at most 32768) */
    const cd_eval *eval; /* the learned evaluation every search uses (not owned; kept while the
                            server runs), or NULL: by hand */
    /* the opening books of the engine's moves (/engine), at most one a variant (not owned;
     * kept while the server runs), and how many (0: no book) */
    const cd_book *const *books;
    int nbooks;
} cd_serve_config;

/* The default of --per-ip: a browser opens at most 6 connections to a server plus one stream per
 * open game, so 64 leaves room for a household or an office behind one address while one address
 * cannot take more than a sixteenth of the 1024 connections of the smallest server (a machine
 * whose ulimit -n is 1024). */
#define CD_SERVE_PER_IP 64

/* Serve until SIGINT/SIGTERM; the exit status (0, 1 when the server cannot start, 2 for a bad
 * setting), a message on stderr for each fault. */
int cd_serve_run(const cd_serve_config *c);

/*
 * The API without HTTP, for tests and fuzzing (one process, no socket):
 * cd_web_setup: games are saved in data_dir (NULL: not saved), endgame tables are read from
 * egtb_dir (NULL: none; never ./egtb by default here), every search is also capped at max_nodes
 * nodes (0: no cap) and uses a hash_mb MiB table (0: the default); no request may be running;
 * cd_web_request: answer one request (method "GET"/"POST"/"DELETE", url "/api/..." with an
 * optional "?query", the body): *status and *out (the body, malloc'ed; free it; NULL when
 * empty). An SSE analysis is started and dropped at once. Returns 0, or -1 out of memory.
 * cd_web_reset: forget every game.
 */
int cd_web_request(const char *method, const char *url, const char *body, size_t len,
                   unsigned *status, char **out, size_t *outlen);
void cd_web_setup(const char *data_dir, const char *egtb_dir, uint64_t max_nodes, size_t hash_mb);
void cd_web_reset(void);

#endif
