/*
 * web.h -- what the modules of `condraughts serve` share (internal to src/web):
 *
 *   store_pdn.c    the game table (web_game, guarded by srv.lock) and its PDN files
 *   egtb_cache.c   one endgame-table handle per rules row, opened on first use
 *   game_json.c    the game object (docs/api.md) and its "egtb" verdict
 *   reply.c        a handler's answer (reply) and the JSON error replies; request bodies
 *   apiutil.c      JSON fields read with a clear error, random ids (apiutil.h; used by the
 *                  handlers of both APIs and by play.c)
 *   engine_pool.c  search limits, search slots, the engine pool and the SSE analysis and review
 *                  streams
 *   api_games.c    the /api/games handlers
 *   towers_api.c   the /api/towers handlers: Bashni and Lasca games in memory, with their own
 *                  reply type and lock (towers_api.h; reached from route())
 *   router.c       static files, route(), and the API without HTTP (server.h)
 *   http.c         libmicrohttpd glue: requests in, replies out, the slow-client watchdog,
 *                  event streams that wait (stream_hook), slow handlers off the pool threads
 *   serve_main.c   `condraughts serve`: options, binding, signals
 *   play.c, play_game.c, play_json.c, api_play.c, store.c (store_sqlite.c, store_pg.c): games
 *   between people (play.h), glicko.c their ratings, api_account.c accounts
 *   guard.c        Host and Origin checks (DNS rebinding, other sites' pages)
 *   names.c        players' names checked, in NFKC, keyed by their look (names.h; ICU)
 *   ratelimit.c    token buckets by key in a table of fixed size (ratelimit.h): the limits of a
 *                  client (games created, failed logins)
 *   lazy_lock.h    WEB_LAZY_LOCK: a module's static mutex, made on first use
 *
 * Handlers fill a `reply` and know nothing of sockets; http.c turns it into an HTTP response
 * and cd_web_request (router.c) drives the same handlers without a socket (tests, fuzzing).
 * Locking: srv.lock guards the game table, the search count and the engine pool; a search
 * never holds it (it works on a copy of the game, applied only if the version is unchanged).
 */
#ifndef CD_WEB_H
#define CD_WEB_H

#include <cjson/cJSON.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <threads.h>

#include "condraughts.h"
#include "play.h"

#define MAX_BODY        (64 * 1024) /* request body limit */
#define MAX_HEADER      (16 * 1024) /* a request's headers (431 beyond, in JSON) */
#define CONN_MEMORY     (32 * 1024) /* libmicrohttpd's memory for a connection's request headers,
                                     * body chunks and reply headers: headers over it get its own
                                     * 431, in HTML. At most 32 KiB, libmicrohttpd takes it with
                                     * malloc; above, it maps each connection's memory (mmap) and
                                     * unmaps it at close: with thousands of connections the
                                     * threads then queue on the process's memory map (munmap, page
                                     * faults), and 2,000 games took 600 MB resident, not 290 */
#define FD_RESERVE      256         /* file descriptors kept beside the connections: the stores,
                                     * game files, endgame tables, pages being sent, the pool
                                     * threads' own (serve_main.c sizes the connections) */
#define CONN_AUTO_MAX   32768u      /* connections at most when the machine sizes them (each is
                                     * a socket and up to CONN_MEMORY: 1 GiB for them all) */
#define POOL_THREADS    4           /* libmicrohttpd's threads (epoll loops) */
#define KEEPALIVE_MS    15000       /* a waiting event stream sends a comment line after this */
#define TICK_MS         250         /* the watchdog's period (http.c) */
#define DEPART_SHARES   4u          /* each tick polls the sockets of one such share of the parked
                                     * streams for departures: each every TICK_MS * 4 (1 s) */
#define REQUEST_SECONDS 10          /* a request's headers and body must arrive within this */
#define PRESSURE_MS     2000        /* ... within this while over half the connections wait */
#define IDLE_SECONDS    10u         /* an idle connection is closed after this */
#define MAX_SEARCHES    4           /* engine searches and analyses running at once */
#define MAX_GAMES       10000       /* games kept */
#define MAX_SEARCH      8.0         /* seconds an /engine or /hint search may take */
#define MAX_ANALYSE     120.0       /* seconds an /analyse stream may search */
#define REVIEW_TIME     0.3         /* seconds a /review searches each position by default */
#define REVIEW_TIME_MIN 0.05        /* ... at least (?time=) */
#define REVIEW_TIME_MAX 1.0         /* ... at most */
#define MAX_REVIEW      120.0       /* seconds a /review may search in all (shorter each position
                                     * in a long game) */
#define REVIEW_DEPTH    20          /* ?depth= of a /review at most */
#define ENGINE_HASH_MB  16
#define ID_HEX          8

/* ---------------------------------------------------------------- the game table (store_pdn.c) */

enum { HUMAN_WHITE, HUMAN_BLACK, HUMAN_BOTH, HUMAN_NONE };
extern const char *const human_names[4];

typedef struct web_game {
    char id[ID_HEX + 1];
    cd_game *game;
    int human, level;
    cd_pdn_tags *orig; /* tags of an imported game (Event, Site, players ...), kept; or NULL */
    unsigned version;  /* bumped on every change: a search result is applied only if unchanged */
    int has_last;      /* last_engine is valid */
    char last_move[256];
    int last_score, last_depth;
    int last_book; /* the move came from the opening book (no search: nodes and time 0) */
    uint64_t last_nodes;
    double last_time;
    char owner[PLAY_TOKEN + 1]; /* the player token that created it ("": anyone may change it) */
    struct web_game *next;
} web_game;

typedef struct web_state {
    mtx_t lock; /* made on first use: srv_lock */
    web_game *games;
    int ngames;   /* (lock) games in the table */
    int searches; /* (lock) searches and analyses running */
    char data[4096], web[4096];
    int persist;                   /* save games in data (0 in cd_web_setup without a directory) */
    size_t hash_mb;                /* engine table per search */
    uint64_t max_nodes;            /* cap on every search's nodes (0: none; tests, fuzzing) */
    const cd_eval *eval;           /* the learned evaluation of every search (cd_serve_config's;
                                      NULL in cd_web_setup: by hand) */
    const cd_book *const *books;   /* the opening books of /engine (cd_serve_config's, set before
                                      the server answers and never changed while it runs; none in
                                      cd_web_setup) */
    int nbooks;
    cd_engine *pool[MAX_SEARCHES]; /* (lock) idle engines, kept for the next search */
    int npool;                     /* (lock) */
} web_state;

extern web_state srv;

/* Take and release srv.lock (made on first use: C11 has no static mutex initialiser, and both
 * cd_serve_run and cd_web_setup's callers reach it). */
void srv_lock(void);
void srv_unlock(void);

web_game *find_game(const char *id);
void free_game(web_game *w);
/* A fresh copy of g's moves from its start position (same draw rules). NULL on failure. */
cd_game *copy_game(const cd_game *g);
const cd_rules *game_rules(const cd_game *g);
void game_path(const char *id, int tmp, char *buf, size_t len);
/* The tags a game is saved and exported with (NULL when out of memory; free it). */
cd_pdn_tags *make_tags(const web_game *w, int with_owner);
/* May the request's player token change w? (Yes when w has no owner.) */
int owner_ok(const web_game *w, const char *token);
/* Save w atomically. Called with the lock held. Returns 0 on success, -2 when the disk is full,
 * -1 on another failure (the first of a run of failures is logged, and the first success after). */
int save_game(const web_game *w);
int parse_human(const char *s);
/* Load every <hex id>.pdn of the data directory. */
void load_games(void);

/* ---------------------------------------------------------------- endgame tables (egtb_cache.c) */

void egtb_close_all(void);
void egtb_set_dir(const char *dir);
/* The tables' folder ("" when none). */
const char *egtb_dir(void);
cd_egtb *egtb_for(const cd_rules *r);

/* ---------------------------------------------------------------- game JSON (game_json.c) */

/* What the "egtb" field of a game object needs, taken under the lock and probed after it. */
typedef struct egtb_query {
    cd_position pos;
    int probe; /* 0: the field stays null (the game is over, or no game object) */
} egtb_query;

const char *status_name(cd_status s);
cJSON *game_json(const web_game *w, egtb_query *q);
/* The fields of a game object that come from the game alone (variant ... history, threats). */
void game_board_json(cJSON *o, const cd_game *g);
/* pos's squares as the "board" field of a game object: ["w","","B",...], square 1 first. */
void position_board_json(cJSON *o, const cd_position *pos);
void egtb_fill(cJSON *o, const egtb_query *q);

/* ---------------------------------------------------------------- waiting streams (http.c) */

/*
 * An event stream (SSE) with nothing to send does not hold a thread: its content reader calls
 * stream_park, which suspends the connection (MHD_suspend_connection), and returns 0; whoever has
 * an event for it calls stream_wake, which resumes it, and libmicrohttpd calls the reader again.
 * The watchdog wakes every stream parked for KEEPALIVE_MS, so the reader sends a keep-alive (for
 * proxies and routers that end a silent connection), and every parked stream whose client left
 * (its socket hung up or reads its end: libmicrohttpd does not look at a suspended connection),
 * within a second (DEPART_SHARES ticks), so the reader's send or libmicrohttpd's read ends it.
 * The reader decides to park under the lock that guards its events and the waker wakes under
 * the same lock, so no event falls between the look and the park. Lock order: that lock, then the
 * hooks' own.
 */
typedef struct stream_hook {
    struct MHD_Connection *conn; /* set when the response is queued (NULL without HTTP) */
    int parked;                  /* (hooks' lock) suspended, waiting for stream_wake */
    long long since;             /* (hooks' lock) when it was parked (ms, CLOCK_MONOTONIC) */
    int fd;                      /* (hooks' lock) its socket while parked, or -1 */
    struct stream_hook *prev, *next;
} stream_hook;

/* From a content reader with nothing to send: 1 parked (return 0 from the reader), 0 the server
 * is stopping (end the stream). */
int stream_park(stream_hook *h);
/* Resume h if it is parked (any thread). */
void stream_wake(stream_hook *h);
/* h's response is freed: forget it. */
void stream_drop(stream_hook *h);

/* ---------------------------------------------------------------- replies (reply.c) */

struct analysis;

/* What a handler answers: a body, a static file or an SSE analysis; http.c sends it. */
typedef struct reply {
    unsigned status;
    const char *type; /* Content-Type */
    char *body;       /* malloc'ed */
    size_t len;
    const char *allow; /* 405: the Allow header */
    int retry_after;   /* 503: seconds (0: no header) */
    int close;         /* the connection closes after this answer (Connection: close) */
    int fd;            /* a static file to send instead of body (-1: none) */
    uint64_t fd_size;
    struct analysis *stream;     /* an analysis to stream instead of body */
    struct play_live *live;      /* a game's live stream instead of body (api_play.c) */
    stream_hook *hook;           /* the stream's hook (stream or live), or NULL */
    char cookie[PLAY_TOKEN + 1]; /* a new player token to set as the cd_player cookie, or "" */
    uint64_t hold; /* (http.c) sent once store_synced() reaches it (0: at once) */
} reply;

typedef struct request {
    char *body;
    size_t len;
    int too_large, responded;
    char token[PLAY_TOKEN + 1]; /* the cd_player cookie (the player's secret), or "" */
    char addr[PLAY_ADDR];       /* the client's address (text; "" without HTTP) */
    struct http_job *job;       /* http.c: route() running off the pool threads, or NULL */
} request;

/* A query argument of the request (NULL when absent). */
typedef const char *(*query_fn)(void *ctx, const char *name);

void reply_init(reply *r);
enum MHD_Result send_buffer(reply *c, unsigned status, const char *type, char *body, size_t len);
enum MHD_Result send_json(reply *c, unsigned status, cJSON *j);
enum MHD_Result send_error(reply *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
enum MHD_Result send_405(reply *c, const char *allow);
enum MHD_Result send_busy(reply *c, const char *what);
cJSON *parse_body(const request *rq, int required, char *err, size_t errlen);

/* ---------------------------------------------------------------- searches (engine_pool.c) */

typedef struct search_opts {
    double movetime;
    int depth;
} search_opts;

typedef enum { SNAP_OK, SNAP_UNKNOWN, SNAP_OVER, SNAP_NOMEM } snap_result;

int read_search_opts(const cJSON *body, int level, double cap, search_opts *so, char *err,
                     size_t errlen);
void set_limits(const search_opts *so, cd_limits *lim);
snap_result snapshot(const char *id, cd_game **copy, unsigned *version, int *level);
int search_begin(void);
void search_end(void);
cd_engine *engine_take(int contempt);
/* The opening book's move for pos (its first legal move in rank order, from the book of pos's
 * variant) into *bm: 1, or 0 when no book has pos. */
int book_move(const cd_position *pos, cd_book_move *bm);
void engine_give(cd_engine *e);
void engine_pool_free(void);
enum MHD_Result snapshot_error(reply *c, snap_result r);
ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max);
void sse_free(void *cls);
enum MHD_Result api_analyse(reply *c, const char *id, query_fn query, void *qctx);
enum MHD_Result api_review(reply *c, const char *id, query_fn query, void *qctx);

/* ---------------------------------------------------------------- handlers (api_games.c) */

enum MHD_Result api_variants(reply *c);
enum MHD_Result api_list(reply *c);
enum MHD_Result api_create(reply *c, const request *rq);
enum MHD_Result api_import(reply *c, const request *rq);
enum MHD_Result api_get(reply *c, const char *id);
enum MHD_Result api_delete(reply *c, const char *id, const request *rq);
enum MHD_Result api_pdn(reply *c, const char *id);
enum MHD_Result api_move(reply *c, const char *id, const request *rq);
enum MHD_Result api_undo(reply *c, const char *id, const request *rq);
enum MHD_Result api_search(reply *c, const char *id, const request *rq, int play);

/* ---------------------------------------------------------------- games between people */

/* Everything under /api/account (api_account.c; path: the rest of the URL). */
enum MHD_Result api_account(reply *c, const char *path, const char *method, request *rq);
/* Everything under /api/play (api_play.c; path: the rest of the URL, "" or "/..."). */
enum MHD_Result api_play(reply *c, const char *path, const char *method, request *rq,
                         query_fn query, void *qctx);
ssize_t play_live_read(void *cls, uint64_t pos, char *out, size_t max);
/* Everything under /api/players and /api/leaderboard (api_profile.c; path: the rest of the URL,
 * "" or "/..."). */
enum MHD_Result api_players(reply *c, const char *path, const char *method, const request *rq,
                            query_fn query, void *qctx);
enum MHD_Result api_leaderboard(reply *c, const char *path, const char *method, query_fn query,
                                void *qctx);
void play_live_free(void *cls);

/* ---------------------------------------------------------------- other sites (guard.c) */

/* The server's own address: the bound host (as --host gave it) and the port. */
void guard_set(const char *bind_host, unsigned port);
/* The real port, once the server listens (guard_set gave 0). */
void guard_port(unsigned port);
/* May this request be answered? host: the Host header (NULL: none), origin: the Origin header,
 * fetch_site: Sec-Fetch-Site, write: the method changes state. 0, or -1 with err set (403). */
int guard_check(const char *host, const char *origin, const char *fetch_site, int write, char *err,
                size_t errlen);
/* The player token of a cd_player cookie's value into out ("" when it is not one). */
void guard_token(const char *cookie, char *out);

/* ---------------------------------------------------------------- routing, HTTP */

enum MHD_Result route(reply *c, const char *url, const char *method, request *rq, query_fn query,
                      void *qctx);
/* May route() take long for this request (an engine search, a password hash)? http.c runs those
 * in a thread of their own, so that they never hold one of the POOL_THREADS. */
int route_slow(const char *url, const char *method);
/* Start the daemon (and the watchdog) on sa, at most per_ip connections from one address (0: no
 * limit) and max_conn answered connections in all (beyond them, up to http_spare(max_conn) more
 * are accepted and answered 503 at once, then closed; past those, new connections wait in the
 * listen backlog); NULL when it cannot listen. A request from one of the nproxies addresses of
 * proxies (--trust-proxy; 0 <= nproxies <= CD_SERVE_PROXIES, cd_serve_run's clamp) names its
 * client in X-Real-IP: the request's addr (400 when it names none); the header of any other peer
 * is ignored. */
struct MHD_Daemon *http_start(const void *sockaddr_in, uint16_t port, unsigned per_ip,
                              unsigned max_conn, const struct in_addr *proxies, int nproxies);
/* The connections accepted beyond max_conn only to be told 503 (a sixteenth, at least 16). */
unsigned http_spare(unsigned max_conn);
/* Stop the daemon and the watchdog (d may be NULL): end the parked streams, wait for the slow
 * handlers and the replies held for the store's disk (reply.hold), then stop. */
void http_stop(struct MHD_Daemon *d);

#endif
