/*
 * server.c -- `condraughts serve`: static files for the browser front end and a JSON API over
 * the library's games, PDN and engine (docs/api.md). HTTP is libmicrohttpd (one thread per
 * connection, so engine searches run in the connection's own worker thread), JSON is cJSON.
 *
 * Games live in a table guarded by one mutex and are saved, one PDN file per game, in the data
 * directory after every change (written to a temporary file, fsync'ed, renamed). A search never
 * holds the mutex: it works on a copy of the game and its move is applied only if the game has
 * not changed meanwhile.
 *
 * Endgame tables (--egtb DIR, else ./egtb when that folder exists): one cd_egtb handle per rules
 * row, opened on first use and closed at exit. Every search probes them, and the game object
 * carries their verdict on the current position ("egtb"), probed without the game table's mutex
 * since the first probe of a table reads its file.
 *
 * Limits (hostile clients): a request body of at most MAX_BODY bytes (413), headers within
 * MAX_HEADER bytes (431 from libmicrohttpd), at most MAX_CONNECTIONS connections, a request's
 * headers and body must arrive within REQUEST_SECONDS, or PRESSURE_MS while more than half the
 * connections are waiting for theirs (a watchdog shuts the socket of a slower client, so
 * clients sending a byte a second cannot hold the server), at most MAX_SEARCHES engine searches
 * and analyses at once (503 beyond), at most MAX_GAMES games (503 beyond).
 *
 * The API handlers fill a `reply` and know nothing of sockets; handler() turns it into an HTTP
 * response. cd_web_request (server.h) drives the same handlers without a socket (tests, fuzzing).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "server.h"
#include "apiutil.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "condraughts.h"
#include "towers_api.h"

#define MAX_BODY        (64 * 1024) /* request body limit */
#define MAX_HEADER      (32 * 1024) /* memory for a request's headers (and body chunks) */
#define MAX_CONNECTIONS 128u        /* open connections (one thread each) */
#define REQUEST_SECONDS 10          /* a request's headers and body must arrive within this */
#define PRESSURE_MS     2000        /* ... within this while over half the connections wait */
#define IDLE_SECONDS    10u         /* an idle connection is closed after this */
#define MAX_SEARCHES    4           /* engine searches and analyses running at once */
#define MAX_GAMES       10000       /* games kept */
#define MAX_SEARCH      8.0         /* seconds an /engine or /hint search may take */
#define MAX_ANALYSE     120.0       /* seconds an /analyse stream may search */
#define ENGINE_HASH_MB  16
#define ID_HEX          8

/* ---------------------------------------------------------------- game table */

enum { HUMAN_WHITE, HUMAN_BLACK, HUMAN_BOTH, HUMAN_NONE };
static const char *const human_names[] = {"white", "black", "both", "none"};

typedef struct web_game {
    char id[ID_HEX + 1];
    cd_game *game;
    int human, level;
    cd_pdn_tags *orig; /* tags of an imported game (Event, Site, players ...), kept; or NULL */
    unsigned version;  /* bumped on every change: a search result is applied only if unchanged */
    int has_last;      /* last_engine is valid */
    char last_move[256];
    int last_score, last_depth;
    uint64_t last_nodes;
    double last_time;
    struct web_game *next;
} web_game;

static struct {
    pthread_mutex_t lock;
    web_game *games;
    int ngames;   /* (lock) games in the table */
    int searches; /* (lock) searches and analyses running */
    char data[4096], web[4096];
    int persist;                   /* save games in data (0 in cd_web_setup without a directory) */
    size_t hash_mb;                /* engine table per search */
    uint64_t max_nodes;            /* cap on every search's nodes (0: none; tests, fuzzing) */
    cd_engine *pool[MAX_SEARCHES]; /* (lock) idle engines, kept for the next search */
    int npool;                     /* (lock) */
} S = {.lock = PTHREAD_MUTEX_INITIALIZER, .persist = 1, .hash_mb = ENGINE_HASH_MB};

static web_game *find_game(const char *id)
{
    for (web_game *w = S.games; w; w = w->next)
        if (!strcmp(w->id, id))
            return w;
    return NULL;
}

static void free_game(web_game *w)
{
    cd_game_free(w->game);
    free(w->orig);
    free(w);
}

/* A fresh copy of g's moves from its start position (same draw rules). NULL on failure. */
static cd_game *copy_game(const cd_game *g)
{
    const cd_position *start = cd_game_position_at(g, 0);
    cd_game *c = cd_game_new(start->rules, start);
    if (!c)
        return NULL;
    cd_game_set_draw_rules(c, cd_game_draw_rules(g));
    for (int i = 0; i < cd_game_ply(g); i++) {
        if (cd_game_play(c, cd_game_move(g, i)) != CD_OK) {
            cd_game_free(c);
            return NULL;
        }
    }
    return c;
}

static const cd_rules *game_rules(const cd_game *g) { return cd_game_position(g)->rules; }

/* ---------------------------------------------------------------- endgame tables */

/* The handle of one rules row (tb NULL: that row cannot have tables, or out of memory). */
typedef struct egtb_row {
    const cd_rules *rules; /* the built-in row */
    cd_egtb *tb;
    struct egtb_row *next;
} egtb_row;

static struct {
    pthread_mutex_t lock;
    char dir[4096]; /* the tables' folder ("": none) */
    egtb_row *rows; /* (lock) rows opened so far */
} T = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Close every handle (no search may be running). */
static void egtb_close_all(void)
{
    pthread_mutex_lock(&T.lock);
    while (T.rows) {
        egtb_row *next = T.rows->next;
        cd_egtb_close(T.rows->tb);
        free(T.rows);
        T.rows = next;
    }
    pthread_mutex_unlock(&T.lock);
}

/* Use the tables in dir (NULL or "": none) from now on (no search may be running). */
static void egtb_set_dir(const char *dir)
{
    egtb_close_all();
    pthread_mutex_lock(&T.lock);
    snprintf(T.dir, sizeof T.dir, "%s", dir ? dir : "");
    pthread_mutex_unlock(&T.lock);
}

/* The tables of r's row, opened on first use (thread-safe); NULL when there are none. */
static cd_egtb *egtb_for(const cd_rules *r)
{
    const cd_rules *row = r && r->name ? cd_rules_find(r->name) : NULL;
    if (!row)
        return NULL;
    pthread_mutex_lock(&T.lock);
    egtb_row *e = NULL;
    if (T.dir[0]) {
        for (e = T.rows; e && e->rules != row;)
            e = e->next;
        if (!e && (e = malloc(sizeof *e))) {
            e->rules = row;
            e->tb = cd_egtb_open(row, T.dir);
            e->next = T.rows;
            T.rows = e;
        }
    }
    cd_egtb *tb = e ? e->tb : NULL;
    pthread_mutex_unlock(&T.lock);
    return tb;
}

/* ---------------------------------------------------------------- persistence */

static void game_path(const char *id, int tmp, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s%s.pdn%s", S.data, tmp ? "." : "", id, tmp ? ".tmp" : "");
}

/* The tags a game is saved and exported with (NULL when out of memory; free it). */
static cd_pdn_tags *make_tags(const web_game *w)
{
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags)
        return NULL;
    cd_pdn_tags_init(tags);
    if (w->orig) /* an imported game keeps its tags; ours only fill the gaps */
        *tags = *w->orig;
    const char *hw = w->human == HUMAN_WHITE || w->human == HUMAN_BOTH ? "Human" : "condraughts";
    const char *hb = w->human == HUMAN_BLACK || w->human == HUMAN_BOTH ? "Human" : "condraughts";
    const char *ours[][2] = {{"Event", "condraughts web game"}, {"White", hw}, {"Black", hb}};
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (!w->orig || !cd_pdn_tag(tags, ours[i][0]))
            cd_pdn_tag_set(tags, ours[i][0], ours[i][1]);
    char level[16];
    snprintf(level, sizeof level, "%d", w->level);
    cd_pdn_tag_set(tags, "GameId", w->id);
    cd_pdn_tag_set(tags, "Human", human_names[w->human]);
    cd_pdn_tag_set(tags, "Level", level);
    return tags;
}

/* Save w atomically. Called with the lock held. Returns 0 on success. */
static int save_game(const web_game *w)
{
    if (!S.persist)
        return 0;
    cd_pdn_tags *tags = make_tags(w);
    if (!tags)
        return -1;
    size_t cap = 8192;
    char *buf = malloc(cap);
    size_t need = buf ? cd_pdn_write(w->game, tags, buf, cap) : 0;
    if (buf && need >= cap) {
        free(buf);
        cap = need + 1;
        buf = malloc(cap);
        if (buf)
            need = cd_pdn_write(w->game, tags, buf, cap);
    }
    free(tags);
    if (!buf)
        return -1;

    char tmp[4200], path[4200];
    game_path(w->id, 1, tmp, sizeof tmp);
    game_path(w->id, 0, path, sizeof path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0;
    for (size_t off = 0; ok && off < need;) {
        ssize_t n = write(fd, buf + off, need - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            ok = 0;
        else
            off += (size_t)n;
    }
    free(buf);
    if (fd >= 0) {
        if (fsync(fd) != 0)
            ok = 0;
        if (close(fd) != 0)
            ok = 0;
    }
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "condraughts: cannot save game %s in %s: %s\n", w->id, S.data,
                strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int parse_human(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, human_names[i]))
            return i;
    return -1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

/* Load every <hex id>.pdn of the data directory. */
static void load_games(void)
{
    DIR *d = opendir(S.data);
    if (!d)
        return;
    struct dirent *e;
    int loaded = 0;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        size_t n = strlen(name);
        if (n == ID_HEX + 9 && name[0] == '.' && !strcmp(name + 1 + ID_HEX, ".pdn.tmp") &&
            strspn(name + 1, "0123456789abcdef") == ID_HEX) {
            /* a save cut short (the server was killed while writing): the game file it was to
             * replace is still whole, so the temporary file goes */
            char path[sizeof S.data + 300];
            snprintf(path, sizeof path, "%s/%s", S.data, name);
            if (unlink(path) == 0)
                fprintf(stderr, "condraughts: removed %s (an unfinished save)\n", path);
            continue;
        }
        if (n != ID_HEX + 4 || strcmp(name + ID_HEX, ".pdn"))
            continue;
        if (strspn(name, "0123456789abcdef") != ID_HEX)
            continue;
        char id[ID_HEX + 1];
        memcpy(id, name, ID_HEX);
        id[ID_HEX] = 0;
        char path[4200];
        game_path(id, 0, path, sizeof path);
        size_t len = 0;
        char *text = read_file(path, &len);
        if (!text)
            continue;
        cd_pdn_tags *tags = malloc(sizeof *tags);
        cd_game *g = NULL;
        char err[512] = "";
        size_t pos = 0;
        if (tags && cd_pdn_read(text, &pos, NULL, &g, tags, err, sizeof err) == CD_OK && g) {
            web_game *w = calloc(1, sizeof *w);
            if (w) {
                memcpy(w->id, id, sizeof w->id);
                w->game = g;
                const char *h = cd_pdn_tag(tags, "Human");
                w->human = h && parse_human(h) >= 0 ? parse_human(h) : HUMAN_WHITE;
                const char *l = cd_pdn_tag(tags, "Level");
                w->level = l ? atoi(l) : 3;
                if (w->level < 1 || w->level > 10)
                    w->level = 3;
                const char *ev = cd_pdn_tag(tags, "Event");
                if (!ev || strcmp(ev, "condraughts web game")) { /* imported: keep its tags */
                    w->orig = tags;
                    tags = NULL;
                }
                w->next = S.games;
                S.games = w;
                S.ngames++;
                loaded++;
            } else {
                cd_game_free(g);
            }
        } else {
            fprintf(stderr, "condraughts: skipping %s: %s\n", path, err[0] ? err : "no game");
        }
        free(tags);
        free(text);
    }
    closedir(d);
    if (loaded)
        fprintf(stderr, "condraughts: resumed %d game%s from %s\n", loaded, loaded == 1 ? "" : "s",
                S.data);
}

/* ---------------------------------------------------------------- game JSON */

static const char *status_name(cd_status s)
{
    switch (s) {
    case CD_WHITE_WINS: return "white wins";
    case CD_BLACK_WINS: return "black wins";
    case CD_DRAW: return "draw";
    default: return "ongoing";
    }
}

static cJSON *int_array(const int *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* What the "egtb" field of a game object needs, taken under the lock and probed after it. */
typedef struct egtb_query {
    cd_position pos;
    int probe; /* 0: the field stays null (the game is over, or no game object) */
} egtb_query;

/* The game object of w, its "egtb" field null; *q gets what egtb_fill needs. Under the lock. */
static cJSON *game_json(const web_game *w, egtb_query *q)
{
    const cd_game *g = w->game;
    const cd_position *pos = cd_game_position(g);
    const cd_rules *r = pos->rules;
    int nsq = cd_rules_squares(r);
    char buf[1024];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", w->id);
    cJSON_AddStringToObject(o, "variant", r->name);
    cJSON_AddStringToObject(o, "title", r->title);
    cJSON_AddNumberToObject(o, "width", cd_rules_width(r));
    cJSON_AddNumberToObject(o, "height", cd_rules_height(r));
    cJSON_AddStringToObject(o, "human", human_names[w->human]);
    cJSON_AddNumberToObject(o, "level", w->level);
    cJSON_AddStringToObject(o, "side", pos->side == CD_WHITE ? "white" : "black");
    cd_position_to_fen(pos, 0, buf, sizeof buf);
    cJSON_AddStringToObject(o, "fen", buf);
    cd_reason reason = CD_REASON_NONE;
    cd_status st = cd_game_status(g, &reason);
    cJSON_AddStringToObject(o, "status", status_name(st));
    cJSON_AddStringToObject(o, "reason", reason == CD_REASON_NONE ? "" : cd_reason_str(reason));
    cJSON_AddStringToObject(o, "result", cd_status_pdn(r, st));
    cJSON_AddNumberToObject(o, "ply", cd_game_ply(g));
    cJSON_AddNullToObject(o, "egtb");
    q->pos = *pos;
    q->probe = st == CD_ONGOING;

    static const char *const piece_names[] = {"", "w", "b", "W", "B"};
    cJSON *board = cJSON_AddArrayToObject(o, "board");
    cJSON *squares = cJSON_AddArrayToObject(o, "squares");
    for (int sq = 1; sq <= nsq; sq++) {
        int pc = cd_position_piece(pos, sq);
        cJSON_AddItemToArray(board, cJSON_CreateString(pc >= 0 && pc <= 4 ? piece_names[pc] : ""));
        cJSON *s = cJSON_CreateObject();
        cJSON_AddNumberToObject(s, "n", sq);
        cJSON_AddNumberToObject(s, "row", cd_square_row(r, sq));
        cJSON_AddNumberToObject(s, "col", cd_square_col(r, sq));
        cJSON_AddItemToArray(squares, s);
    }

    cJSON *moves = cJSON_AddArrayToObject(o, "moves");
    cd_movelist *list = st == CD_ONGOING ? malloc(sizeof *list) : NULL;
    if (list) {
        cd_generate(pos, list);
        for (int i = 0; i < list->count; i++) {
            const cd_move *m = &list->moves[i];
            cJSON *mo = cJSON_CreateObject();
            cd_move_to_text(pos, m, -1, buf, sizeof buf);
            cJSON_AddStringToObject(mo, "text", buf);
            cd_move_to_hub(pos, m, buf, sizeof buf);
            cJSON_AddStringToObject(mo, "hub", buf);
            cJSON_AddNumberToObject(mo, "from", cd_move_from(pos, m));
            cJSON_AddNumberToObject(mo, "to", cd_move_to(pos, m));
            int sqs[128];
            int n = cd_move_path(pos, m, sqs, 128);
            cJSON_AddItemToObject(mo, "path", int_array(sqs, n < 128 ? n : 128));
            n = cd_move_captures(pos, m, sqs, 128);
            cJSON_AddItemToObject(mo, "captures", int_array(sqs, n < 128 ? n : 128));
            cJSON_AddItemToArray(moves, mo);
        }
        free(list);
    }

    cJSON *history = cJSON_AddArrayToObject(o, "history");
    for (int i = 0; i < cd_game_ply(g); i++) {
        cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), -1, buf, sizeof buf);
        cJSON_AddItemToArray(history, cJSON_CreateString(buf));
    }

    if (r->flags & CD_RULE_CONSTITUTIONAL) {
        cJSON *threats = cJSON_AddObjectToObject(o, "threats");
        for (int sq = 1; sq <= nsq; sq++) {
            int pc = cd_position_piece(pos, sq);
            if (pc != CD_WHITE_KING && pc != CD_BLACK_KING)
                continue;
            int zone[128];
            int k = cd_king_zone(pos, sq, zone, 128);
            char key[16];
            snprintf(key, sizeof key, "%d", sq);
            cJSON_AddItemToObject(threats, key, int_array(zone, k < 128 ? k : 128));
        }
    }

    if (w->has_last) {
        cJSON *le = cJSON_AddObjectToObject(o, "last_engine");
        cJSON_AddStringToObject(le, "move", w->last_move);
        cJSON_AddNumberToObject(le, "score", w->last_score);
        cJSON_AddNumberToObject(le, "depth", w->last_depth);
        cJSON_AddNumberToObject(le, "nodes", (double)w->last_nodes);
        cJSON_AddNumberToObject(le, "time", w->last_time);
    }
    return o;
}

/* Fill the "egtb" field of game object o: the tables' value of the position for the side to
 * move, its distance in plies (not for a draw) and the winner; null when it is not in the
 * tables. Called without the lock: the first probe of a table reads its file. */
static void egtb_fill(cJSON *o, const egtb_query *q)
{
    if (!o || !q->probe)
        return;
    cd_egtb *tb = egtb_for(q->pos.rules);
    int dist = 0;
    int v = tb ? cd_egtb_probe(tb, &q->pos, &dist) : CD_EGTB_UNKNOWN;
    if (v != CD_EGTB_WIN && v != CD_EGTB_DRAW && v != CD_EGTB_LOSS)
        return;
    cJSON *e = cJSON_CreateObject();
    if (!e)
        return;
    int white = q->pos.side == CD_WHITE;
    cJSON_AddStringToObject(e, "value",
                            v == CD_EGTB_WIN    ? "win"
                            : v == CD_EGTB_LOSS ? "loss"
                                                : "draw");
    if (v != CD_EGTB_DRAW) {
        cJSON_AddNumberToObject(e, "plies", dist);
        cJSON_AddStringToObject(e, "winner", (v == CD_EGTB_WIN) == white ? "white" : "black");
    } else {
        cJSON_AddNullToObject(e, "winner");
    }
    if (!cJSON_ReplaceItemInObjectCaseSensitive(o, "egtb", e))
        cJSON_Delete(e);
}

/* ---------------------------------------------------------------- responses */

struct analysis;

/* What a handler answers: a body, a static file or an SSE analysis; handler() sends it. */
typedef struct reply {
    unsigned status;
    const char *type; /* Content-Type */
    char *body;       /* malloc'ed */
    size_t len;
    const char *allow; /* 405: the Allow header */
    int retry_after;   /* 503: seconds (0: no header) */
    int fd;            /* a static file to send instead of body (-1: none) */
    uint64_t fd_size;
    struct analysis *stream; /* an analysis to stream instead of body */
} reply;

static void reply_init(reply *r)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

static enum MHD_Result send_buffer(reply *c, unsigned status, const char *type, char *body,
                                   size_t len)
{
    free(c->body);
    c->status = status;
    c->type = type;
    c->body = body;
    c->len = body ? len : 0;
    return MHD_YES;
}

static enum MHD_Result send_json(reply *c, unsigned status, cJSON *j)
{
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return MHD_NO;
    return send_buffer(c, status, "application/json", text, strlen(text));
}

static enum MHD_Result send_error(reply *c, unsigned status, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "error", msg);
    return send_json(c, status, j);
}

static enum MHD_Result send_405(reply *c, const char *allow)
{
    c->allow = allow;
    return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed");
}

/* 503 with Retry-After: a limit of the server is reached for now. */
static enum MHD_Result send_busy(reply *c, const char *what)
{
    c->retry_after = 1;
    return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "%s", what);
}

/* ---------------------------------------------------------------- request bodies */

typedef struct request {
    char *body;
    size_t len;
    int too_large, responded;
} request;

/* The request body as a JSON object (apiutil.h). */
static cJSON *parse_body(const request *rq, int required, char *err, size_t errlen)
{
    return cd_json_body(rq->body, rq->len, required, err, errlen);
}

/* ---------------------------------------------------------------- search helpers */

typedef struct search_opts {
    double movetime;
    int depth;
} search_opts;

/* Search limits from a body ({"movetime":s} or {"depth":d}), else the level's time
 * (0.05 * L * L seconds), capped at `cap` seconds. */
static int read_search_opts(const cJSON *body, int level, double cap, search_opts *so, char *err,
                            size_t errlen)
{
    double mt = 0, depth = 0;
    int has_mt = 0, has_depth = 0;
    if (cd_json_number(body, "movetime", 0.001, MAX_SEARCH, 0, &mt, &has_mt, err, errlen) ||
        cd_json_number(body, "depth", 1, 64, 1, &depth, &has_depth, err, errlen))
        return -1;
    so->depth = has_depth ? (int)depth : 0;
    so->movetime = has_mt ? mt : has_depth ? 0 : 0.05 * level * level;
    if (so->movetime > cap)
        so->movetime = cap;
    return 0;
}

static void set_limits(const search_opts *so, cd_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->depth = so->depth;
    lim->movetime = so->movetime;
    lim->nodes = S.max_nodes;
    if (!so->depth && !so->movetime)
        lim->movetime = 1.0;
    if (so->depth && !so->movetime)
        lim->movetime = MAX_SEARCH; /* a depth search still ends in time */
}

/* Copy the game for a search (under the lock). 404/409 replies are sent by the caller. */
typedef enum { SNAP_OK, SNAP_UNKNOWN, SNAP_OVER, SNAP_NOMEM } snap_result;

static snap_result snapshot(const char *id, cd_game **copy, unsigned *version, int *level)
{
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    snap_result res = SNAP_OK;
    if (!w)
        res = SNAP_UNKNOWN;
    else if (cd_game_status(w->game, NULL) != CD_ONGOING)
        res = SNAP_OVER;
    else if (!(*copy = copy_game(w->game)))
        res = SNAP_NOMEM;
    else {
        *version = w->version;
        *level = w->level;
    }
    pthread_mutex_unlock(&S.lock);
    return res;
}

/* Take one of the MAX_SEARCHES search slots; 0 if all are in use. */
static int search_begin(void)
{
    pthread_mutex_lock(&S.lock);
    int ok = S.searches < MAX_SEARCHES;
    if (ok)
        S.searches++;
    pthread_mutex_unlock(&S.lock);
    return ok;
}

static void search_end(void)
{
    pthread_mutex_lock(&S.lock);
    S.searches--;
    pthread_mutex_unlock(&S.lock);
}

/* An engine for one search: an idle one from the pool (cleared: every search starts alike), or a
 * new one; NULL when out of memory. At most MAX_SEARCHES run at once, so the pool stays small. */
static cd_engine *engine_take(void)
{
    pthread_mutex_lock(&S.lock);
    cd_engine *e = S.npool > 0 ? S.pool[--S.npool] : NULL;
    pthread_mutex_unlock(&S.lock);
    if (e)
        cd_engine_clear(e);
    else
        e = cd_engine_new(S.hash_mb);
    return e;
}

/* Give an engine back to the pool (NULL: nothing). */
static void engine_give(cd_engine *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&S.lock);
    if (S.npool < MAX_SEARCHES) {
        S.pool[S.npool++] = e;
        e = NULL;
    }
    pthread_mutex_unlock(&S.lock);
    cd_engine_free(e);
}

/* Free the idle engines (at shutdown). */
static void engine_pool_free(void)
{
    pthread_mutex_lock(&S.lock);
    while (S.npool > 0)
        cd_engine_free(S.pool[--S.npool]);
    pthread_mutex_unlock(&S.lock);
}

static enum MHD_Result snapshot_error(reply *c, snap_result r)
{
    if (r == SNAP_UNKNOWN)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (r == SNAP_OVER)
        return send_error(c, MHD_HTTP_CONFLICT, "the game is over");
    return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
}

/* ---------------------------------------------------------------- API handlers */

static enum MHD_Result api_variants(reply *c)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; cd_rules_at(i); i++) {
        const cd_rules *r = cd_rules_at(i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->name);
        cJSON_AddStringToObject(o, "title", r->title);
        cJSON_AddNumberToObject(o, "width", cd_rules_width(r));
        cJSON_AddNumberToObject(o, "height", cd_rules_height(r));
        cJSON_AddNumberToObject(o, "squares", cd_rules_squares(r));
        cJSON_AddBoolToObject(o, "algebraic", (r->flags & CD_RULE_ALGEBRAIC) != 0);
        cJSON_AddBoolToObject(o, "mirrored", (r->flags & CD_RULE_MIRRORED) != 0);
        cJSON_AddBoolToObject(o, "constitutional", (r->flags & CD_RULE_CONSTITUTIONAL) != 0);
        cJSON_AddItemToArray(a, o);
    }
    return send_json(c, MHD_HTTP_OK, a);
}

static enum MHD_Result api_list(reply *c)
{
    cJSON *a = cJSON_CreateArray();
    pthread_mutex_lock(&S.lock);
    for (web_game *w = S.games; w; w = w->next) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", w->id);
        cJSON_AddStringToObject(o, "variant", game_rules(w->game)->name);
        cJSON_AddStringToObject(o, "status", status_name(cd_game_status(w->game, NULL)));
        cJSON_AddNumberToObject(o, "ply", cd_game_ply(w->game));
        cJSON_AddItemToArray(a, o);
    }
    pthread_mutex_unlock(&S.lock);
    return send_json(c, MHD_HTTP_OK, a);
}

/* Register a new game (takes g) and reply with it (201). */
/* A new game in the table; orig (owned, may be NULL): the tags of an imported game. */
static enum MHD_Result add_game(reply *c, cd_game *g, int human, int level, cd_pdn_tags *orig)
{
    web_game *w = calloc(1, sizeof *w);
    if (!w) {
        cd_game_free(g);
        free(orig);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    w->orig = orig;
    w->game = g;
    w->human = human;
    w->level = level;
    pthread_mutex_lock(&S.lock);
    if (S.ngames >= MAX_GAMES) {
        pthread_mutex_unlock(&S.lock);
        free_game(w);
        return send_busy(c, "too many games (delete some)");
    }
    do
        cd_api_random_id(w->id, ID_HEX);
    while (find_game(w->id));
    w->next = S.games;
    S.games = w;
    S.ngames++;
    save_game(w);
    egtb_query q;
    cJSON *j = game_json(w, &q);
    pthread_mutex_unlock(&S.lock);
    egtb_fill(j, &q);
    return send_json(c, MHD_HTTP_CREATED, j);
}

/* "human" and "level" fields shared by create and import. */
static int read_player_opts(const cJSON *body, int *human, int *level, char *err, size_t errlen)
{
    const char *h = NULL;
    double lv = 0;
    int has_level = 0;
    if (cd_json_string(body, "human", &h, err, errlen))
        return -1;
    if (h && (*human = parse_human(h)) < 0) {
        snprintf(err, errlen, "'human' must be \"white\", \"black\", \"both\" or \"none\"");
        return -1;
    }
    if (cd_json_number(body, "level", 1, 10, 1, &lv, &has_level, err, errlen))
        return -1;
    if (has_level)
        *level = (int)lv;
    return 0;
}

static enum MHD_Result api_create(reply *c, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *variant = "constitutional", *fen = NULL;
    int human = HUMAN_WHITE, level = 3;
    if (cd_json_string(body, "variant", &variant, err, sizeof err) ||
        cd_json_string(body, "fen", &fen, err, sizeof err) ||
        read_player_opts(body, &human, &level, err, sizeof err)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    const cd_rules *r = cd_rules_find(variant);
    if (!r) {
        enum MHD_Result ret = send_error(c, MHD_HTTP_BAD_REQUEST, "unknown variant '%s'", variant);
        cJSON_Delete(body);
        return ret;
    }
    cd_position pos;
    if (fen && cd_position_from_fen(&pos, r, fen, err, sizeof err) != CD_OK) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err[0] ? err : "bad FEN");
    }
    cJSON_Delete(body);
    cd_game *g = cd_game_new(r, fen ? &pos : NULL);
    if (!g)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return add_game(c, g, human, level, NULL);
}

static enum MHD_Result api_import(reply *c, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *pdn = NULL, *variant = NULL;
    int human = HUMAN_WHITE, level = 3;
    if (cd_json_string(body, "pdn", &pdn, err, sizeof err) ||
        cd_json_string(body, "variant", &variant, err, sizeof err) ||
        read_player_opts(body, &human, &level, err, sizeof err) ||
        (!pdn && snprintf(err, sizeof err, "'pdn' is required") > 0)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    /* "variant": the rules of a PDN without GameType/Variant tags (the tags win) */
    const cd_rules *rules = variant ? cd_rules_find(variant) : NULL;
    if (variant && !rules) {
        snprintf(err, sizeof err, "unknown variant '%.200s'", variant);
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cd_game *g = NULL;
    size_t pos = 0;
    cd_pdn_tags *tags = malloc(sizeof *tags);
    cd_result r = tags ? cd_pdn_read(pdn, &pos, rules, &g, tags, err, sizeof err) : CD_ERR_ARG;
    cJSON_Delete(body);
    if (r != CD_OK || !g) {
        cd_game_free(g);
        free(tags);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s",
                          r != CD_OK ? (err[0] ? err : cd_result_str(r)) : "no game in the PDN");
    }
    return add_game(c, g, human, level, tags);
}

static enum MHD_Result api_get(reply *c, const char *id)
{
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    egtb_query q = {.probe = 0};
    cJSON *j = w ? game_json(w, &q) : NULL;
    pthread_mutex_unlock(&S.lock);
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    egtb_fill(j, &q);
    return send_json(c, MHD_HTTP_OK, j);
}

static enum MHD_Result api_delete(reply *c, const char *id)
{
    pthread_mutex_lock(&S.lock);
    web_game **pp = &S.games;
    while (*pp && strcmp((*pp)->id, id))
        pp = &(*pp)->next;
    web_game *w = *pp;
    if (w) {
        *pp = w->next;
        S.ngames--;
        if (S.persist) {
            char path[4200];
            game_path(id, 0, path, sizeof path);
            unlink(path);
        }
        free_game(w);
    }
    pthread_mutex_unlock(&S.lock);
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "ok", 1);
    return send_json(c, MHD_HTTP_OK, j);
}

static enum MHD_Result api_pdn(reply *c, const char *id)
{
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    char *buf = NULL;
    size_t need = 0;
    if (w) {
        cd_pdn_tags *tags = make_tags(w);
        need = cd_pdn_write(w->game, tags, NULL, 0);
        buf = malloc(need + 1);
        if (buf)
            cd_pdn_write(w->game, tags, buf, need + 1);
        free(tags);
    }
    pthread_mutex_unlock(&S.lock);
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (!buf)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return send_buffer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", buf, need);
}

static enum MHD_Result api_move(reply *c, const char *id, const request *rq)
{
    char err[2048] = "";
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *text = NULL;
    if (cd_json_string(body, "move", &text, err, sizeof err) ||
        (!text && snprintf(err, sizeof err, "'move' is required") > 0)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    unsigned status = MHD_HTTP_OK;
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    if (!w) {
        status = MHD_HTTP_NOT_FOUND;
        snprintf(err, sizeof err, "unknown game");
    } else if (cd_game_status(w->game, NULL) != CD_ONGOING) {
        status = MHD_HTTP_CONFLICT;
        snprintf(err, sizeof err, "the game is over");
    } else {
        cd_result r = cd_game_play_text(w->game, text, err, sizeof err);
        if (r != CD_OK) {
            status = MHD_HTTP_BAD_REQUEST;
            if (!err[0])
                snprintf(err, sizeof err, "%s", cd_result_str(r));
        } else {
            w->version++;
            w->has_last = 0;
            save_game(w);
            j = game_json(w, &q);
        }
    }
    pthread_mutex_unlock(&S.lock);
    cJSON_Delete(body);
    if (!j)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    return send_json(c, status, j);
}

static enum MHD_Result api_undo(reply *c, const char *id, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    double plies = 1;
    if (!body || cd_json_number(body, "plies", 0, 100000, 1, &plies, NULL, err, sizeof err)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cJSON_Delete(body);
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    if (w) {
        int n = 0;
        for (int i = 0; i < (int)plies && cd_game_undo(w->game); i++)
            n++;
        if (n || plies == 0) {
            w->version++;
            w->has_last = 0;
            save_game(w);
        }
        j = game_json(w, &q);
    }
    pthread_mutex_unlock(&S.lock);
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    egtb_fill(j, &q);
    return send_json(c, MHD_HTTP_OK, j);
}

/* /engine (play = 1) and /hint (play = 0). */
static enum MHD_Result api_search(reply *c, const char *id, const request *rq, int play)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    cd_game *copy = NULL;
    unsigned version = 0;
    int level = 3;
    snap_result sr = snapshot(id, &copy, &version, &level);
    if (sr != SNAP_OK) {
        cJSON_Delete(body);
        return snapshot_error(c, sr);
    }
    search_opts so;
    int bad = read_search_opts(body, level, play ? MAX_SEARCH : 2.0, &so, err, sizeof err);
    cJSON_Delete(body);
    if (bad) {
        cd_game_free(copy);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cd_limits lim;
    set_limits(&so, &lim);
    if (!search_begin()) {
        cd_game_free(copy);
        return send_busy(c, "the engine is busy (too many searches at once)");
    }
    cd_engine *e = engine_take();
    if (e)
        cd_engine_set_egtb(e, egtb_for(game_rules(copy)));
    cd_search_result res;
    memset(&res, 0, sizeof res);
    cd_result r = e ? cd_search(e, copy, &lim, NULL, NULL, &res) : CD_ERR_ARG;
    engine_give(e);
    search_end();
    char text[256] = "", hub[256] = "";
    if (r == CD_OK && res.has_move) {
        cd_move_to_text(cd_game_position(copy), &res.best, -1, text, sizeof text);
        cd_move_to_hub(cd_game_position(copy), &res.best, hub, sizeof hub);
    }
    cd_game_free(copy);
    if (!e)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    if (r != CD_OK || !res.has_move)
        return send_error(c, MHD_HTTP_CONFLICT, "the engine found no move (the game is over)");

    if (!play) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "move", text);
        cJSON_AddStringToObject(j, "hub", hub);
        cJSON_AddNumberToObject(j, "score", res.score);
        cJSON_AddNumberToObject(j, "depth", res.depth);
        return send_json(c, MHD_HTTP_OK, j);
    }

    unsigned status = MHD_HTTP_OK;
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    pthread_mutex_lock(&S.lock);
    web_game *w = find_game(id);
    if (!w) {
        status = MHD_HTTP_NOT_FOUND;
        snprintf(err, sizeof err, "unknown game");
    } else if (w->version != version) {
        status = MHD_HTTP_CONFLICT;
        snprintf(err, sizeof err, "the game changed during the search");
    } else if (cd_game_play(w->game, &res.best) != CD_OK) {
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        snprintf(err, sizeof err, "the engine's move could not be played");
    } else {
        w->version++;
        w->has_last = 1;
        snprintf(w->last_move, sizeof w->last_move, "%s", text);
        w->last_score = res.score;
        w->last_depth = res.depth;
        w->last_nodes = res.nodes;
        w->last_time = res.time;
        save_game(w);
        j = game_json(w, &q);
    }
    pthread_mutex_unlock(&S.lock);
    if (!j)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    return send_json(c, status, j);
}

/* ---------------------------------------------------------------- analysis (SSE) */

typedef struct sse_item {
    struct sse_item *next;
    size_t len, off;
    char text[];
} sse_item;

typedef struct analysis {
    pthread_mutex_t m;
    pthread_cond_t cv;
    sse_item *head, *tail;
    int done, stop;
    cd_engine *engine;
    cd_game *game;
    cd_limits limits;
    pthread_t thread;
} analysis;

static void sse_push(analysis *a, const char *event, cJSON *data)
{
    char *json = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    if (!json)
        return;
    size_t len = strlen(event) + strlen(json) + 32;
    sse_item *it = malloc(sizeof *it + len);
    if (it) {
        it->len = (size_t)snprintf(it->text, len, "event: %s\ndata: %s\n\n", event, json);
        it->off = 0;
        it->next = NULL;
        pthread_mutex_lock(&a->m);
        if (a->tail)
            a->tail->next = it;
        else
            a->head = it;
        a->tail = it;
        pthread_cond_broadcast(&a->cv);
        pthread_mutex_unlock(&a->m);
    }
    free(json);
}

static void on_info(const cd_search_info *info, void *user)
{
    analysis *a = user;
    pthread_mutex_lock(&a->m);
    int stop = a->stop;
    pthread_mutex_unlock(&a->m);
    if (stop) {
        cd_engine_stop(a->engine); /* in case the stop came before the search began */
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "depth", info->depth);
    cJSON_AddNumberToObject(o, "score", info->score);
    cJSON_AddNumberToObject(o, "nodes", (double)info->nodes);
    cJSON_AddNumberToObject(o, "time", info->time);
    cJSON_AddNumberToObject(o, "nps", (double)(uint64_t)(info->nps + 0.5));
    cJSON *pv = cJSON_AddArrayToObject(o, "pv");
    cd_position pos = *cd_game_position(a->game);
    for (int i = 0; i < info->pvlen && i < CD_MAX_PLY; i++) {
        char text[256];
        cd_move_to_text(&pos, &info->pv[i], -1, text, sizeof text);
        cJSON_AddItemToArray(pv, cJSON_CreateString(text));
        cd_play(&pos, &info->pv[i], &pos);
    }
    sse_push(a, "info", o);
}

static void *analysis_thread(void *arg)
{
    analysis *a = arg;
    cd_search_result res;
    memset(&res, 0, sizeof res);
    cd_result r = cd_search(a->engine, a->game, &a->limits, on_info, a, &res);
    cJSON *o = cJSON_CreateObject();
    char text[256] = "";
    if (r == CD_OK && res.has_move)
        cd_move_to_text(cd_game_position(a->game), &res.best, -1, text, sizeof text);
    cJSON_AddStringToObject(o, "move", text);
    cJSON_AddNumberToObject(o, "score", res.score);
    cJSON_AddNumberToObject(o, "depth", res.depth);
    sse_push(a, "done", o);
    pthread_mutex_lock(&a->m);
    a->done = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->m);
    return NULL;
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    analysis *a = cls;
    pthread_mutex_lock(&a->m);
    if (!a->head && !a->done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        while (!a->head && !a->done)
            if (pthread_cond_timedwait(&a->cv, &a->m, &ts) == ETIMEDOUT)
                break;
    }
    if (!a->head) {
        int done = a->done;
        pthread_mutex_unlock(&a->m);
        if (done)
            return MHD_CONTENT_READER_END_OF_STREAM;
        /* A comment line keeps the connection alive and finds out if the client left. */
        static const char keepalive[] = ": keepalive\n\n";
        if (max < sizeof keepalive - 1)
            return 0;
        memcpy(buf, keepalive, sizeof keepalive - 1);
        return (ssize_t)(sizeof keepalive - 1);
    }
    sse_item *it = a->head;
    size_t n = it->len - it->off;
    if (n > max)
        n = max;
    memcpy(buf, it->text + it->off, n);
    it->off += n;
    if (it->off == it->len) {
        a->head = it->next;
        if (!a->head)
            a->tail = NULL;
        free(it);
    }
    pthread_mutex_unlock(&a->m);
    return (ssize_t)n;
}

/* The response is gone (finished or the client disconnected): stop and clean up. */
static void sse_free(void *cls)
{
    analysis *a = cls;
    pthread_mutex_lock(&a->m);
    a->stop = 1;
    pthread_mutex_unlock(&a->m);
    cd_engine_stop(a->engine);
    pthread_join(a->thread, NULL);
    while (a->head) {
        sse_item *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    engine_give(a->engine);
    cd_game_free(a->game);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->m);
    free(a);
    search_end();
}

/* A query argument of the request (NULL when absent). */
typedef const char *(*query_fn)(void *ctx, const char *name);

static enum MHD_Result api_analyse(reply *c, const char *id, query_fn query, void *qctx)
{
    const char *ts = query(qctx, "time");
    const char *ds = query(qctx, "depth");
    double t = 2.0;
    int depth = 0;
    if (ts) {
        char *end;
        t = strtod(ts, &end);
        if (end == ts || *end || !(t > 0 && t <= MAX_ANALYSE))
            return send_error(c, MHD_HTTP_BAD_REQUEST,
                              "'time' must be a number of seconds from 0 "
                              "to %g",
                              MAX_ANALYSE);
    }
    if (ds) {
        char *end;
        long d = strtol(ds, &end, 10);
        if (end == ds || *end || d < 1 || d > 64)
            return send_error(c, MHD_HTTP_BAD_REQUEST, "'depth' must be an integer from 1 to 64");
        depth = (int)d;
        if (!ts)
            t = MAX_ANALYSE;
    }
    cd_game *copy = NULL;
    unsigned version;
    int level;
    snap_result sr = snapshot(id, &copy, &version, &level);
    if (sr != SNAP_OK)
        return snapshot_error(c, sr);
    if (!search_begin()) {
        cd_game_free(copy);
        return send_busy(c, "the engine is busy (too many searches at once)");
    }
    analysis *a = calloc(1, sizeof *a);
    cd_engine *e = a ? engine_take() : NULL;
    if (!e) {
        free(a);
        cd_game_free(copy);
        search_end();
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    pthread_mutex_init(&a->m, NULL);
    pthread_cond_init(&a->cv, NULL);
    cd_engine_set_egtb(e, egtb_for(game_rules(copy)));
    a->engine = e;
    a->game = copy;
    a->limits.movetime = t;
    a->limits.depth = depth;
    a->limits.nodes = S.max_nodes;
    if (pthread_create(&a->thread, NULL, analysis_thread, a) != 0) {
        engine_give(e);
        cd_game_free(copy);
        pthread_cond_destroy(&a->cv);
        pthread_mutex_destroy(&a->m);
        free(a);
        search_end();
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot start the search");
    }
    c->status = MHD_HTTP_OK;
    c->type = "text/event-stream";
    c->stream = a;
    return MHD_YES;
}

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
    snprintf(path, sizeof path, "%s/%s", S.web, rel);
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

static enum MHD_Result route(reply *c, const char *url, const char *method, const request *rq,
                             query_fn query, void *qctx)
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
            return m == M_GET ? api_get(c, id) : api_delete(c, id);
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
        return api_analyse(c, id, query, qctx);
    }
    return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route");
}

/* ---------------------------------------------------------------- HTTP */

/* Turn a reply into the connection's response (takes what the reply owns). */
static enum MHD_Result queue_reply(struct MHD_Connection *conn, reply *r)
{
    struct MHD_Response *resp;
    if (r->stream) {
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
        if (r->retry_after) {
            char secs[16];
            snprintf(secs, sizeof secs, "%d", r->retry_after);
            MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
        }
    }
    if (r->type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type);
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
 * headers and body are in) it has REQUEST_SECONDS, or PRESSURE_MS while more than half of
 * MAX_CONNECTIONS are receiving (slow clients trying to take every connection); making and
 * sending the response has no limit here. A connection over its time gets shutdown(2) on its
 * socket, so its thread sees the end of the stream and closes it. libmicrohttpd calls
 * NOTIFY_CLOSED before it closes the socket, and that takes the entry out under W.m, so a socket
 * number is never shut after its reuse.
 */
typedef struct watched {
    int fd;
    int receiving;   /* waiting for (the rest of) a request */
    long long since; /* ms, CLOCK_MONOTONIC: when the current request began */
    struct watched *prev, *next;
} watched;

static struct {
    pthread_mutex_t m;
    pthread_cond_t cv;
    watched *head;
    int stop;
    unsigned long dropped; /* connections shut for being too slow */
} W = {.m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
        w->since = mono_ms();
        pthread_mutex_lock(&W.m);
        w->next = W.head;
        if (W.head)
            W.head->prev = w;
        W.head = w;
        pthread_mutex_unlock(&W.m);
        *socket_context = w;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        watched *w = *socket_context;
        if (!w)
            return;
        pthread_mutex_lock(&W.m);
        if (w->prev)
            w->prev->next = w->next;
        else
            W.head = w->next;
        if (w->next)
            w->next->prev = w->prev;
        pthread_mutex_unlock(&W.m);
        free(w);
        *socket_context = NULL;
    }
}

/* The connection starts (1) or ends (0) receiving a request. */
static void watch_receiving(struct MHD_Connection *c, int receiving)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    watched *w = ci ? ci->socket_context : NULL;
    if (!w)
        return;
    pthread_mutex_lock(&W.m);
    w->receiving = receiving;
    w->since = mono_ms();
    pthread_mutex_unlock(&W.m);
}

static void *watchdog(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&W.m);
    while (!W.stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&W.cv, &W.m, &ts);
        long long now = mono_ms();
        unsigned waiting = 0;
        for (watched *w = W.head; w; w = w->next)
            waiting += w->receiving != 0;
        long long limit = waiting > MAX_CONNECTIONS / 2 ? PRESSURE_MS : REQUEST_SECONDS * 1000;
        for (watched *w = W.head; w; w = w->next)
            if (w->receiving && now - w->since > limit && w->fd >= 0) {
                shutdown(w->fd, SHUT_RDWR);
                w->receiving = 0;
                W.dropped++;
            }
    }
    pthread_mutex_unlock(&W.m);
    return NULL;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
    (void)cls;
    (void)version;
    request *rq = *con_cls;
    reply out;
    reply_init(&out);
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        *con_cls = rq;
        const char *cl =
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > MAX_BODY) {
            rq->too_large = rq->responded = 1;
            watch_receiving(conn, 0);
            if (send_error(&out, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large (limit %d)",
                           MAX_BODY) == MHD_NO)
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
    enum MHD_Result ret = rq->too_large ? send_error(&out, MHD_HTTP_CONTENT_TOO_LARGE,
                                                     "request body too large (limit %d)", MAX_BODY)
                                        : route(&out, url, method, rq, mhd_query, conn);
    if (ret == MHD_NO) {
        free(out.body);
        if (out.fd >= 0)
            close(out.fd);
        if (out.stream)
            sse_free(out.stream);
        return MHD_NO;
    }
    return queue_reply(conn, &out);
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

/* ---------------------------------------------------------------- without HTTP (server.h) */

void cd_web_setup(const char *data_dir, const char *egtb_dir, uint64_t max_nodes, size_t hash_mb)
{
    egtb_set_dir(egtb_dir);
    snprintf(S.data, sizeof S.data, "%s", data_dir ? data_dir : "");
    snprintf(S.web, sizeof S.web, "%s", "/dev/null/no-static-files");
    S.persist = data_dir != NULL;
    S.max_nodes = max_nodes;
    S.hash_mb = hash_mb ? hash_mb : ENGINE_HASH_MB;
}

void cd_web_reset(void)
{
    pthread_mutex_lock(&S.lock);
    while (S.games) {
        web_game *next = S.games->next;
        free_game(S.games);
        S.games = next;
    }
    S.ngames = 0;
    pthread_mutex_unlock(&S.lock);
    engine_pool_free();
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
    if (r.stream) { /* a stream is started and at once given up, as by a client that leaves */
        sse_free(r.stream);
        r.stream = NULL;
    }
    *status = r.status;
    *out = r.body;
    *outlen = r.len;
    return ret == MHD_YES ? 0 : -1;
}

/* ---------------------------------------------------------------- main */

#define SERVE_USAGE                                                                                \
    "condraughts serve [--port 8080] [--host 127.0.0.1] [--data DIR] [--web DIR] [--egtb DIR]"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "condraughts serve: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nusage: %s\n", SERVE_USAGE);
    return 2;
}

int cd_serve_main(int argc, char **argv)
{
    long port = 8080;
    const char *host = "127.0.0.1", *data = "games", *web = "web", *egtb = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: %s\n", SERVE_USAGE);
            return 0;
        }
        if (i + 1 >= argc)
            return usage_error("unexpected argument or missing value: '%s'", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--port")) {
            char *end;
            port = strtol(v, &end, 10);
            if (end == v || *end || port < 0 || port > 65535)
                return usage_error("bad port '%s'", v);
        } else if (!strcmp(a, "--host")) {
            host = v;
        } else if (!strcmp(a, "--data")) {
            data = v;
        } else if (!strcmp(a, "--web")) {
            web = v;
        } else if (!strcmp(a, "--egtb")) {
            egtb = v;
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    snprintf(S.data, sizeof S.data, "%s", data);
    snprintf(S.web, sizeof S.web, "%s", web);
    struct stat st;
    if (!egtb && stat("egtb", &st) == 0 && S_ISDIR(st.st_mode))
        egtb = "egtb"; /* as the CLI's analyse and play */
    if (egtb && egtb[0]) {
        cd_egtb *check = cd_egtb_open(cd_rules_find("international"), egtb);
        if (!check)
            return usage_error("cannot use '%s' for endgame tables (name too long?)", egtb);
        cd_egtb_close(check);
        if (stat(egtb, &st) != 0 || !S_ISDIR(st.st_mode))
            fprintf(stderr, "condraughts serve: warning: no folder %s (no endgame tables)\n", egtb);
        egtb_set_dir(egtb);
    }
    if (mkdir(S.data, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "condraughts serve: cannot create %s: %s\n", S.data, strerror(errno));
        return 1;
    }

    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    int gai = getaddrinfo(host, NULL, &hints, &ai);
    if (gai != 0 || !ai) {
        fprintf(stderr, "condraughts serve: cannot resolve host %s: %s\n", host, gai_strerror(gai));
        return 1;
    }
    struct sockaddr_in sa;
    memcpy(&sa, ai->ai_addr, sizeof sa);
    freeaddrinfo(ai);
    sa.sin_port = htons((uint16_t)port);

    load_games();

#ifdef __GLIBC__
    /* Every search allocates its engine's table (ENGINE_HASH_MB) in its connection's thread. With
     * glibc's default, freeing such a block raises the mmap threshold above it, so later tables
     * come from the per-thread arenas and stay there after free: under load the resident size
     * grew by ENGINE_HASH_MB per arena (+240 MB). A fixed threshold keeps big blocks mmap'ed and
     * returned to the system when freed. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif

    /* SIGINT/SIGTERM are taken by sigwait below; every thread inherits the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    pthread_t wd;
    int wd_live = pthread_create(&wd, NULL, watchdog, NULL) == 0;
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG,
        (uint16_t)port, NULL, NULL, handler, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_CONNECTION_TIMEOUT, IDLE_SECONDS, MHD_OPTION_CONNECTION_LIMIT, MAX_CONNECTIONS,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MAX_HEADER, MHD_OPTION_NOTIFY_COMPLETED,
        completed, NULL, MHD_OPTION_NOTIFY_CONNECTION, notify_connection, NULL, MHD_OPTION_END);
    int rc = 0;
    if (!d) {
        fprintf(stderr, "condraughts serve: cannot listen on %s:%ld\n", host, port);
        rc = 1;
    } else {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        unsigned real = info ? info->port : (unsigned)port;
        printf("condraughts: serving http://%s:%u/\n", host, real);
        if (T.dir[0])
            printf("condraughts: endgame tables from %s\n", T.dir);
        fflush(stdout);
        int sig = 0;
        sigwait(&sigs, &sig);
        MHD_stop_daemon(d);
    }
    if (wd_live) {
        pthread_mutex_lock(&W.m);
        W.stop = 1;
        pthread_cond_signal(&W.cv);
        pthread_mutex_unlock(&W.m);
        pthread_join(wd, NULL);
    }
    pthread_mutex_lock(&S.lock);
    while (S.games) {
        web_game *next = S.games->next;
        free_game(S.games);
        S.games = next;
    }
    pthread_mutex_unlock(&S.lock);
    engine_pool_free();
    egtb_close_all();
    return rc;
}
