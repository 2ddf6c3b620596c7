/*
 * test_dxp_peer.c -- the DXP session through the program: `BIN dxp --follow` is started and
 * played against over a socket by a scripted peer (refusals, takeback, garbage, an illegal
 * move, a disconnect, a timeout, a full game, games in pydraughts' numbering).
 *
 * Usage: test_dxp_peer --bin PATH. Prints "test_dxp_peer: N checks, 0 failures" and exits 0,
 * or lists the failures and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../src/proto/dxp.h"
#include "check.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

typedef struct child {
    pid_t pid;
    char out[64], err[64]; /* temp file names of its stdout and stderr */
    int port;
    int status; /* exit status once reaped, -1 before */
} child;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = malloc(1 << 20);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Start `bin dxp --follow --port 0 extra...` and wait for its "listening ... port N" line. */
static int spawn_follower(child *c, const char *bin, const char *const *extra)
{
    memset(c, 0, sizeof *c);
    c->status = -1;
    strcpy(c->out, "/tmp/test_dxp_outXXXXXX");
    strcpy(c->err, "/tmp/test_dxp_errXXXXXX");
    int fo = mkstemp(c->out), fe = mkstemp(c->err);
    if (fo < 0 || fe < 0)
        return -1;
    const char *argv[32];
    int k = 0;
    argv[k++] = bin;
    argv[k++] = "dxp";
    argv[k++] = "--follow";
    argv[k++] = "--port";
    argv[k++] = "0";
    argv[k++] = "--hash";
    argv[k++] = "8";
    for (int i = 0; extra && extra[i] && k < 30; i++)
        argv[k++] = extra[i];
    argv[k] = NULL;
    c->pid = fork();
    if (c->pid < 0)
        return -1;
    if (c->pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    close(fo);
    close(fe);
    double t0 = now();
    while (now() - t0 < 10) {
        char *s = slurp(c->err);
        char *p = s ? strstr(s, " port ") : NULL;
        if (p) {
            c->port = atoi(p + 6);
            free(s);
            return c->port > 0 ? 0 : -1;
        }
        free(s);
        int st;
        if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
            c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
            return -1;
        }
        sleep_ms(20);
    }
    return -1;
}

/* Wait up to `seconds` for the child to exit; kill it after that. Returns its exit status. */
static int reap(child *c, double seconds)
{
    if (c->status >= 0)
        return c->status;
    double t0 = now();
    int st;
    while (now() - t0 < seconds) {
        if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
            c->status =
                WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
            return c->status;
        }
        sleep_ms(20);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, &st, 0);
    c->status = 200;
    return c->status;
}

static void cleanup(child *c, int show)
{
    if (show) {
        char *s = slurp(c->err);
        fprintf(stderr, "--- follower stderr:\n%s--- follower stdout:\n", s ? s : "");
        free(s);
        s = slurp(c->out);
        fprintf(stderr, "%s---\n", s ? s : "");
        free(s);
    }
    unlink(c->out);
    unlink(c->err);
}

typedef struct peer {
    int fd;
    cd_dxp_reader rd;
} peer;

static int peer_connect(peer *p, int port)
{
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cd_dxp_reader_init(&p->rd);
    if (connect(p->fd, (struct sockaddr *)&a, sizeof a) < 0)
        return -1;
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return 0;
}

/* Raw bytes, as given (include the '\0's yourself). */
static void peer_raw(peer *p, const char *data, size_t n)
{
    while (n) {
        ssize_t w = send(p->fd, data, n, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        data += w;
        n -= (size_t)w;
    }
}

static void peer_send(peer *p, const char *msg) { peer_raw(p, msg, strlen(msg) + 1); }

/* The next message that is not a CHAT, within seconds; "" on timeout, "EOF" on close. */
static void peer_recv(peer *p, double seconds, char *out)
{
    double t0 = now();
    char err[256];
    for (;;) {
        size_t n;
        int rc = cd_dxp_reader_next(&p->rd, out, CD_DXP_MAX_LEN + 1, &n, err, sizeof err);
        if (rc > 0 && out[0] != 'C')
            return;
        if (rc != 0)
            continue;
        double left = seconds - (now() - t0);
        if (left <= 0) {
            out[0] = '\0';
            return;
        }
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        char tmp[512];
        ssize_t got = recv(p->fd, tmp, sizeof tmp, 0);
        if (got <= 0) {
            strcpy(out, "EOF");
            return;
        }
        cd_dxp_reader_push(&p->rd, tmp, (size_t)got);
    }
}

static const char *REQ_BLACK = "R01scripted peer                   Z001000A"; /* follower black */
static const char *REQ_WHITE = "R01scripted peer                   W001000A"; /* follower white */

/* Play the first legal move for the peer in game g and send it. */
static void peer_move(peer *p, cd_game *g)
{
    cd_movelist *list = malloc(sizeof *list);
    int n = cd_generate(cd_game_position(g), list);
    if (n > 0) {
        cd_dxp_msg m;
        char buf[256], err[256];
        cd_dxp_move_msg(cd_game_position(g), &list->moves[0], 0, &m);
        cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
        cd_game_play(g, &list->moves[0]);
        peer_send(p, buf);
    }
    free(list);
}

/* Receive the follower's MOVE and play it in g; 0 if it is a legal move. */
static int peer_take(peer *p, cd_game *g, char *raw)
{
    char err[256];
    cd_dxp_msg m;
    cd_move mv;
    peer_recv(p, 20, raw);
    if (cd_dxp_decode(raw, strlen(raw), &m, err, sizeof err) < 0 || m.type != 'M')
        return -1;
    if (cd_dxp_match_move(cd_game_position(g), &m, &mv, err, sizeof err) != CD_OK)
        return -1;
    return cd_game_play(g, &mv) == CD_OK ? 0 : -1;
}

static int contains(const char *path, const char *needle)
{
    char *s = slurp(path);
    int r = s && strstr(s, needle);
    free(s);
    return r;
}

/* A game with refusals first, chat, takeback, garbage, split and batched frames, resignation. */
static void scenario_game(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    /* version 02: refused with code 1 */
    peer_send(&p, "Chello from the script");
    peer_send(&p, "R02scripted peer                   Z001000A");
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && strlen(r) == 34 && r[33] == '1', "GAMEACC code 1 for version 02: '%s'",
           r);
    /* a position of the wrong size: refused with code 2 */
    peer_send(&p, "R01scripted peer                   Z001000BWwwwwzzzzeeee");
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '2', "GAMEACC code 2 for a bad position: '%s'", r);
    /* BACKREQ between games: refused */
    peer_send(&p, "B001W");
    peer_recv(&p, 10, r);
    CHECKF(!strcmp(r, "K2"), "BACKACC 2 between games: '%s'", r);
    /* a good request: we are white */
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    CHECKF(!strncmp(r + 1, "condraughts", 11), "follower name: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("international"), NULL);
    for (int i = 0; i < 3; i++) {
        peer_move(&p, g);
        CHECKF(peer_take(&p, g, r) == 0, "follower's move %d legal: '%s'", i + 1, r);
    }
    /* take back to move 2 with black (the follower) to move: it answers and moves again */
    peer_send(&p, "B002Z");
    peer_recv(&p, 10, r);
    CHECKF(!strcmp(r, "K0"), "BACKACC 0 for 002Z: '%s'", r);
    while (cd_game_ply(g) > 3)
        cd_game_undo(g);
    CHECKF(peer_take(&p, g, r) == 0, "the follower moves after a takeback to its turn: '%s'", r);
    peer_move(&p, g);
    CHECKF(peer_take(&p, g, r) == 0, "the follower's move after the takeback: '%s'", r);
    /* take back to the start (move 1, white to move) */
    peer_send(&p, "B001W");
    peer_recv(&p, 10, r);
    CHECKF(!strcmp(r, "K0"), "BACKACC 0: '%s'", r);
    while (cd_game_ply(g) > 0)
        cd_game_undo(g);
    /* a takeback into the future is refused */
    peer_send(&p, "B050W");
    peer_recv(&p, 10, r);
    CHECKF(!strcmp(r, "K2"), "BACKACC 2 for move 50: '%s'", r);
    /* garbage: over-long, non-ASCII, unknown type, bad GAMEEND -- all ignored */
    char big[400];
    memset(big, 'x', sizeof big);
    big[0] = 'C';
    big[399] = '\0';
    peer_raw(&p, big, sizeof big);
    peer_raw(&p, "C\xff\xfe\0", 4);
    peer_send(&p, "X123");
    peer_send(&p, "E0");
    /* a move split across two sends, then a chat batched with nothing else */
    cd_movelist *list = malloc(sizeof *list);
    cd_generate(cd_game_position(g), list);
    cd_dxp_msg m;
    char buf[256], err[256];
    cd_dxp_move_msg(cd_game_position(g), &list->moves[1], 0, &m);
    cd_game_play(g, &list->moves[1]);
    cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    peer_raw(&p, buf, 4);
    sleep_ms(100);
    peer_raw(&p, buf + 4, strlen(buf) - 3);
    CHECKF(peer_take(&p, g, r) == 0, "move after takeback and garbage: '%s'", r);
    /* two messages in one send: a chat and our move */
    cd_generate(cd_game_position(g), list);
    cd_dxp_move_msg(cd_game_position(g), &list->moves[0], 0, &m);
    cd_game_play(g, &list->moves[0]);
    char both[300];
    int k = snprintf(both, sizeof both, "Cbatched");
    both[k++] = '\0';
    k += cd_dxp_encode(&m, both + k, sizeof both - (size_t)k, err, sizeof err);
    both[k++] = '\0';
    peer_raw(&p, both, (size_t)k);
    CHECKF(peer_take(&p, g, r) == 0, "move after a batched send: '%s'", r);
    free(list);
    /* we resign, stop code 1: the follower acknowledges and exits 0 */
    peer_send(&p, "E11");
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'E' && strlen(r) == 3 && r[1] == '0', "GAMEEND acknowledged: '%s'", r);
    int st = reap(&c, 10);
    CHECKF(st == 0, "follower exit status %d after our resignation", st);
    CHECKF(contains(c.out, "game 1: 0-2 (resignation)"), "result line for a resignation");
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

/* The follower plays white, then we send an illegal move. */
static void scenario_illegal(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_WHITE);
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("international"), NULL);
    CHECKF(peer_take(&p, g, r) == 0, "the follower opens as white: '%s'", r);
    peer_send(&p, "M0000010600"); /* black man 1 cannot go to 6 */
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'E' && r[2] == '1', "GAMEEND with stop code 1 after an illegal move: '%s'", r);
    peer_send(&p, "E00");
    int st = reap(&c, 10);
    CHECKF(st == 1, "follower exit status %d after an illegal move", st);
    CHECKF(contains(c.out, "game 1: * (illegal move"), "result line for an illegal move");
    CHECKF(contains(c.err, "illegal move"), "error on stderr for an illegal move");
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

/* The peer disconnects in the middle of a game. */
static void scenario_disconnect(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    peer_raw(&p, "M00", 3); /* half a message, then gone */
    close(p.fd);
    double t0 = now();
    int st = reap(&c, 10);
    CHECKF(st == 1, "follower exit status %d after a disconnect", st);
    CHECKF(now() - t0 < 5, "disconnect noticed at once");
    CHECKF(contains(c.out, "game 1: * (peer disconnected)"), "result line for a disconnect");
    cleanup(&c, failures != f0);
}

/* The peer goes silent: --timeout ends the game. */
static void scenario_timeout(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "1", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    double t0 = now();
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'E', "GAMEEND after the timeout: '%s'", r);
    int st = reap(&c, 10);
    CHECKF(st == 1, "follower exit status %d after a timeout", st);
    CHECKF(now() - t0 < 5, "timeout took %.1f s", now() - t0);
    CHECKF(contains(c.out, "game 1: * (peer timed out)"), "result line for a timeout");
    close(p.fd);
    cleanup(&c, failures != f0);
}

/* A whole game to its end: the peer plays first legal moves, the follower searches. */
static void scenario_full_game(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "2", "--timeout", "20", "--variant", "brazilian", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, "R01scripted peer                   W001000A");
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("brazilian"), NULL);
    int ok = 1;
    for (int ply = 0; ply < 600 && ok; ply++) {
        if (cd_game_status(g, NULL) != CD_ONGOING) {
            if (cd_game_position(g)->side == CD_BLACK) { /* our turn: we end it */
                peer_send(&p, "E01");
                peer_recv(&p, 10, r);
                CHECKF(r[0] == 'E', "GAMEEND acknowledged: '%s'", r);
            } else { /* the follower's turn: it ends it */
                peer_recv(&p, 10, r);
                CHECKF(r[0] == 'E', "the follower ends the finished game: '%s'", r);
                peer_send(&p, "E01");
            }
            break;
        }
        if (cd_game_position(g)->side == CD_WHITE) {
            ok = peer_take(&p, g, r) == 0;
            CHECKF(ok, "follower's move legal: '%s'", r);
        } else {
            peer_move(&p, g);
        }
    }
    int st = reap(&c, 10);
    CHECKF(st == 0, "follower exit status %d after a full game", st);
    cd_reason why;
    cd_status s = cd_game_status(g, &why);
    char line[128];
    snprintf(line, sizeof line, "game 1: %s (%s)", cd_status_pdn(cd_rules_find("brazilian"), s),
             cd_reason_str(why));
    CHECKF(s != CD_ONGOING && contains(c.out, line), "result line '%s'", line);
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

/* Square sq of our 8x8 numbering in pydraughts' (its convert.py, notation 0 of the algebraic
 * variants: reverse_row_and_column then reverse_column), derived here from those rules and not
 * from the program's map; per squares a row, n on the board. */
static int pyd_square(int sq, int per, int n)
{
    sq = n + 1 - sq;
    int in_row = sq % per ? sq % per : per;
    return (sq - 1) / per * per + (per - (in_row - 1));
}

static void pyd_msg(cd_dxp_msg *m, int per, int n)
{
    m->from = pyd_square(m->from, per, n);
    m->to = pyd_square(m->to, per, n);
    for (int i = 0; i < m->ncaptured; i++)
        m->captured[i] = pyd_square(m->captured[i], per, n);
}

/*
 * pydraughts over DXP (issue 50): `dxp --follow --numbering variant` plays a game as pydraughts'
 * DXPEngine would send it: its GAMEREQ (name "DXP Client", 0 minutes, the position in our order),
 * then moves in its numbering, the first one `first` (Russian and Brazilian `M0000221800`, our
 * 10-14, which the follower refused before --numbering existed). The follower's moves must be
 * legal once read in that numbering; the peer then plays first legal moves for `plies` plies.
 */
static void scenario_pydraughts(const char *bin, const char *variant, const char *first)
{
    child c;
    const char *extra[] = {"--depth", "1",           "--timeout", "20", "--variant",
                           variant,   "--numbering", "variant",   NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECKF(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    const cd_rules *rules = cd_rules_find(variant);
    int n = cd_rules_squares(rules), per = n / 8;
    peer p;
    CHECKF(peer_connect(&p, c.port) == 0, "connect");
    cd_game *g = cd_game_new(rules, NULL);
    char pos[160], req[256], r[CD_DXP_MAX_LEN + 1], err[256];
    cd_position_to_dxp(cd_game_position(g), pos, sizeof pos);
    snprintf(req, sizeof req, "R01%-32sW000000B%s", "DXP Client", pos);
    peer_send(&p, req);
    peer_recv(&p, 10, r);
    CHECKF(r[0] == 'A' && r[33] == '0', "%s: GAMEACC 0: '%s'", variant, r);
    int ok = 1, ply;
    for (ply = 0; ply < 40 && ok && cd_game_status(g, NULL) == CD_ONGOING; ply++) {
        cd_dxp_msg m;
        cd_move mv;
        if (cd_game_position(g)->side ==
            CD_WHITE) { /* the follower's move, in pydraughts' squares */
            peer_recv(&p, 20, r);
            ok = cd_dxp_decode(r, strlen(r), &m, err, sizeof err) == 0 && m.type == 'M';
            if (ok) {
                pyd_msg(&m, per, n);
                ok = cd_dxp_match_move(cd_game_position(g), &m, &mv, err, sizeof err) == CD_OK;
            }
            CHECKF(ok, "%s: the follower's move '%s' is legal in pydraughts' numbering", variant,
                   r);
        } else {
            char buf[CD_DXP_MAX_LEN + 1];
            if (ply == 1) {
                snprintf(buf, sizeof buf, "%s", first);
                ok = cd_dxp_decode(buf, strlen(buf), &m, err, sizeof err) == 0;
                pyd_msg(&m, per, n);
                ok =
                    ok && cd_dxp_match_move(cd_game_position(g), &m, &mv, err, sizeof err) == CD_OK;
                CHECKF(ok, "%s: the test's first move %s is legal: %s", variant, first, err);
            } else {
                cd_movelist *list = malloc(sizeof *list);
                cd_generate(cd_game_position(g), list);
                mv = list->moves[0];
                free(list);
                cd_dxp_move_msg(cd_game_position(g), &mv, 0, &m);
                pyd_msg(&m, per, n);
                cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
            }
            peer_send(&p, buf);
        }
        if (ok)
            cd_game_play(g, &mv);
    }
    CHECKF(ply > 2, "%s: only %d plies", variant, ply);
    if (cd_game_status(g, NULL) == CD_ONGOING && cd_game_position(g)->side == CD_BLACK) {
        peer_send(&p, "E01");
        peer_recv(&p, 10, r);
        CHECKF(r[0] == 'E', "%s: GAMEEND acknowledged: '%s'", variant, r);
    } else { /* the follower's turn (or the game is over): it moves or ends it; we stop */
        peer_recv(&p, 10, r);
        peer_send(&p, "E01");
        if (r[0] == 'M')
            peer_recv(&p, 10, r);
    }
    int st = reap(&c, 10);
    CHECKF(st == 0, "%s: follower exit status %d after a pydraughts game", variant, st);
    CHECKF(!contains(c.err, "illegal"), "%s: the follower called a move illegal", variant);
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

int main(int argc, char **argv)
{
    if (argc != 3 || strcmp(argv[1], "--bin")) {
        fprintf(stderr, "usage: test_dxp_peer --bin PATH\n");
        return 2;
    }
    const char *bin = argv[2];
    signal(SIGPIPE, SIG_IGN);
    scenario_game(bin);
    scenario_illegal(bin);
    scenario_disconnect(bin);
    scenario_timeout(bin);
    scenario_full_game(bin);
    scenario_pydraughts(bin, "russian", "M0000221800");
    scenario_pydraughts(bin, "brazilian", "M0000221800");
    scenario_pydraughts(bin, "turkish", "M0000413300"); /* our 17-25 */
    printf("test_dxp_peer: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
