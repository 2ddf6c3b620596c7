/*
 * dxp_session.c -- a DXP session: the dialogue of one connection, games
 * played with the engine on the clock. The dialogue (edxplg2.htm at
 * mesander.nl/damexchange):
 *
 *   Initiator -> GAMEREQ, Follower -> GAMEACC, then MOVE messages strictly
 *   alternating. The side to move may send GAMEEND instead of a MOVE; the
 *   other side always answers with a GAMEEND and the game is over. CHAT at
 *   any time; BACKREQ (answered by BACKACC) to take moves back. The Initiator
 *   may then send the next GAMEREQ.
 *
 * Messages go through the codec (dxp_codec.c) over a connected stream socket
 * that the program entry (src/cli/dxp_cmd.c) opens; tests/dxp.sh and the
 * scripted peers of tests/test_dxp.c drive it through `condraughts dxp`.
 */
#define _POSIX_C_SOURCE 200809L
#include "dxp_session.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

#include "hub_codec.h"
#include "strbuf.h"

typedef struct session {
    const cd_dxp_settings *o;
    int fd, eof;
    cd_dxp_reader rd;
    cd_engine *engine;
    char peer[CD_DXP_NAME_LEN + 1];
    int games_done;
    int failed; /* a protocol or network error happened: exit status 1 */
    int stop;   /* a side asked for no more games */
    int bad;    /* consecutive malformed messages */
    /* the game */
    cd_game *game;
    int mine;         /* our colour */
    double game_time; /* seconds per player, 0: no clock */
    int move_limit;   /* moves per game, 0: none */
    double used[2];   /* seconds used by each colour */
    int has_pending;  /* a GAMEREQ arrived during a game (follower) */
    cd_dxp_msg pending;
    /* the results */
    cd_dxp_tally *tally;
    int odd_score2; /* our points x 2 in the pair's first game (0..2), -1: unfinished */
} session;

enum { RX_MSG, RX_BAD, RX_CLOSED, RX_TIMEOUT, RX_ERROR };
#define MAX_BAD 32

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cd_dxp_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dxp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int send_msg(session *s, const cd_dxp_msg *m)
{
    char buf[CD_DXP_MAX_LEN + 2], err[160];
    int n = cd_dxp_encode(m, buf, sizeof buf, err, sizeof err);
    if (n < 0) {
        cd_dxp_log("error: cannot encode %s: %s", cd_dxp_type_name(m->type), err);
        return -1;
    }
    if (s->o->verbose)
        cd_dxp_log("> %s", buf);
    size_t total = (size_t)n + 1, off = 0; /* with the '\0' */
    while (off < total) {
        ssize_t w = send(s->fd, buf + off, total - off, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            cd_dxp_log("error: send: %s", strerror(errno));
            s->failed = 1;
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

static void send_chat(session *s, const char *text)
{
    cd_dxp_msg m = {.type = CD_DXP_CHAT};
    cd_dxp_printable(text, m.text, CD_DXP_MAX_LEN);
    send_msg(s, &m);
}

/*
 * The next message within timeout seconds (<= 0: wait forever). RX_BAD: a
 * malformed message (err says why; m->type is its first character or 0).
 */
static int recv_msg(session *s, double timeout, cd_dxp_msg *m, char *err, size_t errlen)
{
    double deadline = timeout > 0 ? now() + timeout : 0;
    char frame[CD_DXP_MAX_LEN + 1], shown[CD_DXP_MAX_LEN + 1];
    for (;;) {
        size_t n = 0;
        int r = cd_dxp_reader_next(&s->rd, frame, sizeof frame, &n, err, errlen);
        if (r > 0) {
            if (s->o->verbose) {
                cd_dxp_printable(frame, shown, sizeof shown);
                cd_dxp_log("< %s", shown);
            }
            if (cd_dxp_decode(frame, n, m, err, errlen) < 0)
                return RX_BAD;
            return RX_MSG;
        }
        if (r < 0) {
            memset(m, 0, sizeof *m);
            return RX_BAD;
        }
        if (s->eof)
            return RX_CLOSED;
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - now();
            if (left <= 0) {
                set_err(err, errlen, "no message from the peer for %.0f s", timeout);
                return RX_TIMEOUT;
            }
            ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        }
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        int pr = poll(&p, 1, ms);
        if (pr < 0) {
            if (errno == EINTR)
                continue;
            set_err(err, errlen, "poll: %s", strerror(errno));
            return RX_ERROR;
        }
        if (pr == 0)
            continue;
        char tmp[4096];
        size_t want = cd_dxp_reader_space(&s->rd);
        if (want > sizeof tmp)
            want = sizeof tmp;
        ssize_t got = recv(s->fd, tmp, want, 0);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            if (errno == ECONNRESET) {
                s->eof = 1;
                continue;
            }
            set_err(err, errlen, "recv: %s", strerror(errno));
            return RX_ERROR;
        }
        if (got == 0) {
            s->eof = 1;
            continue;
        }
        cd_dxp_reader_push(&s->rd, tmp, (size_t)got);
    }
}

/* Count a malformed message; 1 if there have been too many in a row. */
static int too_bad(session *s, const char *err)
{
    cd_dxp_log("warning: ignoring a malformed message: %s", err);
    if (++s->bad >= MAX_BAD) {
        cd_dxp_log("error: %d malformed messages in a row; giving up", MAX_BAD);
        s->failed = 1;
        return 1;
    }
    return 0;
}

static void show_chat(session *s, const cd_dxp_msg *m)
{
    char t[CD_DXP_MAX_LEN + 1];
    cd_dxp_printable(m->text, t, sizeof t);
    cd_dxp_log("chat from %s: %s", s->peer[0] ? s->peer : "peer", t);
}

/* How long to wait for the peer's next message in a game. */
static double peer_timeout(const session *s)
{
    if (s->o->timeout > 0)
        return s->o->timeout;
    return s->game_time > 0 ? s->game_time + 60 : 600;
}

static int last_game(const session *s)
{
    const cd_dxp_settings *o = s->o;
    return o->games > 0 && s->games_done + 1 >= o->games;
}

/* ------------------------------------------------------------------ one game */

enum { END_NORMAL, END_ERROR };

/* GAMEEND reason from our side: 1 we lose, 2 draw, 3 we win, 0 unknown. */
static int reason_code(const session *s, cd_status st)
{
    switch (st) {
    case CD_WHITE_WINS: return s->mine == CD_WHITE ? 3 : 1;
    case CD_BLACK_WINS: return s->mine == CD_BLACK ? 3 : 1;
    case CD_DRAW: return 2;
    default: return 0;
    }
}

/* We end the game: send GAMEEND and wait for the peer's GAMEEND. */
static int end_by_us(session *s, int reason, int stop)
{
    cd_dxp_msg m = {.type = CD_DXP_GAMEEND, .code = reason, .stop = stop};
    if (stop)
        s->stop = 1;
    if (send_msg(s, &m) < 0)
        return END_ERROR;
    for (;;) {
        char err[256];
        int rx = recv_msg(s, peer_timeout(s), &m, err, sizeof err);
        if (rx == RX_MSG) {
            s->bad = 0;
            if (m.type == CD_DXP_GAMEEND) {
                if (m.stop == 1)
                    s->stop = 1;
                return END_NORMAL;
            }
            if (m.type == CD_DXP_CHAT)
                show_chat(s, &m);
            else
                cd_dxp_log("warning: ignoring %s while waiting for GAMEEND",
                           cd_dxp_type_name(m.type));
        } else if (rx == RX_BAD) {
            if (too_bad(s, err))
                return END_ERROR;
        } else if (rx == RX_CLOSED) {
            cd_dxp_log("peer closed the connection without acknowledging GAMEEND");
            s->stop = 1;
            return END_NORMAL;
        } else {
            cd_dxp_log("error: waiting for GAMEEND: %s", err);
            s->failed = 1;
            return END_ERROR;
        }
    }
}

static int cmp_square(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* With --numbering variant, a MOVE's squares from ours to the peer's or back (the map is its own
 * inverse); the captured squares stay ascending. Only the variants written in algebraic
 * notation are mapped: over DXP pydraughts writes English and the others in our numbering (its
 * game request for English has Black, the first mover, on 1-12 as ours), though Hub's map turns
 * English. */
static void renumber_msg(const session *s, cd_dxp_msg *m)
{
    const cd_rules *r = s->o->rules;
    if (!s->o->numbering || !(r->flags & CD_RULE_ALGEBRAIC))
        return;
    m->from = hub_variant_square(r, m->from);
    m->to = hub_variant_square(r, m->to);
    for (int i = 0; i < m->ncaptured; i++)
        m->captured[i] = hub_variant_square(r, m->captured[i]);
    qsort(m->captured, (size_t)m->ncaptured, sizeof m->captured[0], cmp_square);
}

/* Search and send our move. */
static int our_move(session *s)
{
    const cd_dxp_settings *o = s->o;
    const cd_position *pos = cd_game_position(s->game);
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = o->depth;
    if (o->movetime > 0) {
        lim.movetime = o->movetime; /* the clock still counts the time used, below */
    } else if (s->game_time > 0) {
        for (int c = 0; c < 2; c++) {
            double left = s->game_time - s->used[c];
            lim.time[c] = left > 0.05 ? left : 0.05;
        }
        if (s->move_limit > 0) {
            int mine = 0;
            for (int i = 0; i < cd_game_ply(s->game); i++)
                mine += cd_game_position_at(s->game, i)->side == s->mine;
            int togo = s->move_limit - mine;
            lim.moves_to_go = togo > 1 ? togo : 1;
        }
    } else if (o->depth == 0) {
        lim.movetime = 1.0;
    }
    cd_search_result res;
    memset(&res, 0, sizeof res);
    double t0 = now();
    cd_result r = cd_search(s->engine, s->game, &lim, NULL, NULL, &res);
    double dt = now() - t0;
    s->used[s->mine] += dt;
    cd_move mv;
    cd_movelist *list = malloc(sizeof *list);
    if (!list) {
        cd_dxp_log("error: out of memory");
        s->failed = 1;
        return -1;
    }
    int n = cd_generate(pos, list), legal = 0;
    if (r == CD_OK && res.has_move)
        for (int i = 0; i < n && !legal; i++)
            if (cd_move_equal(&list->moves[i], &res.best)) {
                mv = list->moves[i];
                legal = 1;
            }
    if (!legal) {
        if (n == 0) {
            free(list);
            cd_dxp_log("error: no legal move to play");
            s->failed = 1;
            return -1;
        }
        cd_dxp_log("warning: the search returned no legal move (%s); playing the first one",
                   cd_result_str(r));
        mv = list->moves[0];
    }
    free(list);
    cd_dxp_msg msg;
    cd_dxp_move_msg(pos, &mv, (int)(dt + 0.5), &msg);
    renumber_msg(s, &msg);
    if (o->verbose) {
        char t[64];
        cd_move_to_text(pos, &mv, 0, t, sizeof t);
        cd_dxp_log("we play %s (score %d, depth %d, %.3f s)", t, res.score, res.depth, dt);
    }
    if (cd_game_play(s->game, &mv) != CD_OK) {
        cd_dxp_log("error: cannot play our own move");
        s->failed = 1;
        return -1;
    }
    return send_msg(s, &msg);
}

static void handle_backreq(session *s, const cd_dxp_msg *m)
{
    cd_dxp_msg k = {.type = CD_DXP_BACKACC};
    int ply = s->game ? cd_dxp_back_ply(s->game, m->move_number, m->colour) : -1;
    if (s->o->no_takeback) {
        k.code = 1;
    } else if (ply < 0) {
        cd_dxp_log("refusing BACKREQ to move %d (%s to move): not in this game", m->move_number,
                   m->colour == CD_WHITE ? "white" : "black");
        k.code = 2;
    } else {
        while (cd_game_ply(s->game) > ply)
            cd_game_undo(s->game);
        cd_dxp_log("took back to move %d, %s to move", m->move_number,
                   m->colour == CD_WHITE ? "white" : "black");
        k.code = 0;
    }
    send_msg(s, &k);
}

static void print_moves(const session *s)
{
    char line[8192];
    size_t k = 0;
    line[0] = '\0';
    for (int i = 0; i < cd_game_ply(s->game) && k + 32 < sizeof line; i++) {
        char t[48];
        cd_move_to_text(cd_game_position_at(s->game, i), cd_game_move(s->game, i), -1, t, sizeof t);
        k += (size_t)snprintf(line + k, sizeof line - k, "%s%s", i ? " " : "", t);
    }
    cd_dxp_log("moves: %s", k ? line : "(none)");
}

/* Count the game's result in the tally, and its pair's when it is the pair's second game. */
static void count_game(session *s, int game_no, cd_status st)
{
    cd_dxp_tally *t = s->tally;
    if (!t)
        return;
    int s2 = -1; /* our points x 2 */
    if (st == CD_DRAW)
        s2 = 1;
    else if (st == CD_WHITE_WINS || st == CD_BLACK_WINS)
        s2 = (st == CD_WHITE_WINS) == (s->mine == CD_WHITE) ? 2 : 0;
    if (s2 == 2)
        t->w++;
    else if (s2 == 1)
        t->d++;
    else if (s2 == 0)
        t->l++;
    else
        t->unfinished++;
    if (game_no % 2 == 1)
        s->odd_score2 = s2;
    else if (s->odd_score2 >= 0 && s2 >= 0)
        t->penta[s->odd_score2 + s2]++;
}

/* Append the game to the PDN file, if any: Event, Round, White and Black (our name and the
 * peer's), the start position when not the standard one (cd_pdn_write), and a Termination tag
 * when the rules did not end it. */
static void write_pdn(session *s, int game_no, cd_status st, cd_reason why, const char *note)
{
    FILE *f = s->o->pdn;
    if (!f)
        return;
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags) {
        cd_dxp_log("error: out of memory (game %d not written to the PDN file)", game_no);
        return;
    }
    char round[16], end[320];
    const char *peer = s->peer[0] ? s->peer : "?";
    snprintf(round, sizeof round, "%d", game_no);
    cd_pdn_tags_init(tags);
    cd_pdn_tag_set(tags, "Event", "condraughts dxp");
    cd_pdn_tag_set(tags, "Round", round);
    cd_pdn_tag_set(tags, "White", s->mine == CD_WHITE ? s->o->name : peer);
    cd_pdn_tag_set(tags, "Black", s->mine == CD_WHITE ? peer : s->o->name);
    end[0] = '\0';
    if (st == CD_ONGOING)
        snprintf(end, sizeof end, "%s", note ? note : "unfinished");
    else if (why == CD_REASON_RESIGNATION || why == CD_REASON_AGREEMENT)
        snprintf(end, sizeof end, "GAMEEND from the peer (%s)", cd_reason_str(why));
    if (end[0])
        cd_pdn_tag_set(tags, "Termination", end);
    size_t need = cd_pdn_write(s->game, tags, NULL, 0);
    char *buf = malloc(need + 1);
    if (buf) {
        cd_pdn_write(s->game, tags, buf, need + 1);
        fputs(buf, f);
        fputs("\n", f);
        if (fflush(f) != 0)
            cd_dxp_log("warning: writing the PDN file: %s", strerror(errno));
    } else {
        cd_dxp_log("error: out of memory (game %d not written to the PDN file)", game_no);
    }
    free(buf);
    free(tags);
}

/* Play the game set up in s->game to its end; prints the result line. */
static int play_game(session *s, int game_no)
{
    const char *note = NULL;
    char notebuf[320];
    int outcome = END_NORMAL;
    int peer = s->mine ^ 1;
    int my_stop = last_game(s);
    s->bad = 0;
    for (;;) {
        const cd_position *pos = cd_game_position(s->game);
        cd_status st = cd_game_status(s->game, NULL);
        if (pos->side == s->mine) {
            if (st != CD_ONGOING) {
                outcome = end_by_us(s, reason_code(s, st), my_stop);
                break;
            }
            if (s->move_limit > 0 && cd_game_ply(s->game) >= 2 * s->move_limit) {
                note = "move limit reached";
                outcome = end_by_us(s, 0, my_stop);
                break;
            }
            if (our_move(s) < 0) {
                note = "network error";
                outcome = END_ERROR;
                break;
            }
            continue;
        }
        cd_dxp_msg m;
        char err[256];
        double t0 = now();
        int rx = recv_msg(s, peer_timeout(s), &m, err, sizeof err);
        if (rx == RX_CLOSED) {
            cd_dxp_log("error: the peer closed the connection during the game");
            note = "peer disconnected";
            s->failed = 1;
            s->stop = 1;
            outcome = END_ERROR;
            break;
        }
        if (rx == RX_TIMEOUT || rx == RX_ERROR) {
            cd_dxp_log("error: %s", err);
            note = rx == RX_TIMEOUT ? "peer timed out" : "network error";
            s->failed = 1;
            if (rx == RX_TIMEOUT) {
                cd_dxp_msg e = {.type = CD_DXP_GAMEEND, .code = 0, .stop = 1};
                send_msg(s, &e);
            }
            s->stop = 1;
            outcome = END_ERROR;
            break;
        }
        if (rx == RX_BAD && m.type != CD_DXP_MOVE) {
            if (too_bad(s, err)) {
                note = "garbage from the peer";
                s->stop = 1;
                outcome = END_ERROR;
                break;
            }
            continue;
        }
        s->bad = 0;
        if (m.type == CD_DXP_MOVE) {
            cd_move mv;
            if (rx != RX_BAD)
                renumber_msg(s, &m);
            if (rx == RX_BAD) {
                snprintf(notebuf, sizeof notebuf, "malformed move from the peer: %s", err);
            } else if (st != CD_ONGOING) {
                cd_dxp_log("warning: the peer moved after the game ended; ending it");
                outcome = end_by_us(s, reason_code(s, st), my_stop);
                break;
            } else if (cd_dxp_match_move(pos, &m, &mv, err, sizeof err) == CD_OK) {
                s->used[peer] += now() - t0;
                cd_game_play(s->game, &mv);
                continue;
            } else {
                snprintf(notebuf, sizeof notebuf, "illegal move from the peer: %s%s", err,
                         s->o->numbering ? " (squares in our numbering)" : "");
            }
            cd_dxp_log("error: %s", notebuf);
            char chat[CD_DXP_MAX_LEN];
            snprintf(chat, sizeof chat, "condraughts: %.100s", notebuf);
            send_chat(s, chat);
            note = notebuf;
            s->failed = 1;
            end_by_us(s, 0, 1);
            outcome = END_ERROR;
            break;
        }
        switch (m.type) {
        case CD_DXP_GAMEEND: {
            /* the peer ends the game: their reason counts only where our rules see no result */
            if (st == CD_ONGOING) {
                if (m.code == 1)
                    cd_game_resign(s->game, peer);
                else if (m.code == 2)
                    cd_game_agree_draw(s->game);
                else if (m.code == 3)
                    note = "ended by the peer, who claims a win";
                else if (s->move_limit > 0 && cd_game_ply(s->game) >= 2 * s->move_limit)
                    note = "move limit reached";
                else
                    note = "ended by the peer";
            }
            if (m.stop == 1)
                s->stop = 1;
            cd_dxp_msg e = {.type = CD_DXP_GAMEEND, .code = 0, .stop = my_stop};
            if (my_stop)
                s->stop = 1;
            if (send_msg(s, &e) < 0)
                outcome = END_ERROR;
            goto done;
        }
        case CD_DXP_CHAT: show_chat(s, &m); break;
        case CD_DXP_BACKREQ: handle_backreq(s, &m); break;
        case CD_DXP_GAMEREQ:
            if (s->o->follow) {
                cd_dxp_log("warning: new GAMEREQ during the game; abandoning it");
                s->pending = m;
                s->has_pending = 1;
                note = "abandoned for a new GAMEREQ";
                goto done;
            }
            cd_dxp_log("warning: ignoring GAMEREQ from the follower");
            break;
        default:
            cd_dxp_log("warning: ignoring %s during the game", cd_dxp_type_name(m.type));
            break;
        }
    }
done:;
    cd_reason why;
    cd_status st = cd_game_status(s->game, &why);
    print_moves(s);
    if (st != CD_ONGOING)
        printf("game %d: %s (%s)\n", game_no, cd_status_pdn(s->o->rules, st), cd_reason_str(why));
    else
        printf("game %d: * (%s)\n", game_no, note ? note : "unfinished");
    fflush(stdout);
    count_game(s, game_no, st);
    write_pdn(s, game_no, st, why, note);
    s->games_done++;
    return outcome;
}

static int start_game(session *s, const cd_position *start)
{
    cd_game_free(s->game);
    s->game = cd_game_new(s->o->rules, start);
    if (!s->game) {
        cd_dxp_log("error: out of memory");
        return -1;
    }
    s->used[0] = s->used[1] = 0;
    cd_engine_clear(s->engine);
    char limit[32] = "no move limit";
    if (s->move_limit > 0)
        snprintf(limit, sizeof limit, "%d moves", s->move_limit);
    cd_dxp_log("game %d: %s (%s) against %s (%s), %.0f s per player, %s", s->games_done + 1,
               s->o->name, s->mine == CD_WHITE ? "white" : "black", s->peer[0] ? s->peer : "peer",
               s->mine == CD_WHITE ? "black" : "white", s->game_time, limit);
    return 0;
}

/* ------------------------------------------------------------------ roles */

/* Accept or refuse a GAMEREQ (follower). 1: play it; 0: refused; -1: stop. */
static int answer_gamereq(session *s, const cd_dxp_msg *m, cd_position *start)
{
    cd_dxp_msg a = {.type = CD_DXP_GAMEACC};
    snprintf(a.name, sizeof a.name, "%s", s->o->name);
    cd_dxp_printable(m->name, s->peer, sizeof s->peer);
    if (s->o->games > 0 && s->games_done >= s->o->games) {
        a.code = 3;
        send_msg(s, &a);
        s->stop = 1;
        return -1;
    }
    if (m->version != 1) {
        cd_dxp_log("refusing GAMEREQ: protocol version %02d (we speak 01)", m->version);
        a.code = 1;
        return send_msg(s, &a) < 0 ? -1 : 0;
    }
    if (m->setup) {
        char err[256];
        if (cd_position_from_dxp(start, s->o->rules, m->position, err, sizeof err) != CD_OK) {
            cd_dxp_log("refusing GAMEREQ: %s (variant %s)", err, s->o->rules->name);
            a.code = 2;
            return send_msg(s, &a) < 0 ? -1 : 0;
        }
    } else {
        cd_position_start(start, s->o->rules);
    }
    if (cd_count_moves(start) == 0) {
        cd_dxp_log("refusing GAMEREQ: no legal move in the starting position");
        a.code = 2;
        return send_msg(s, &a) < 0 ? -1 : 0;
    }
    a.code = 0;
    if (send_msg(s, &a) < 0)
        return -1;
    if (start->side == m->colour) {
        /* we move first: a pause between GAMEACC and our move, or a peer that takes two messages
         * arriving together for one (pydraughts' DXPEngine keeps the first) never sees the move */
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    s->mine = m->colour;
    s->game_time = m->minutes * 60.0;
    s->move_limit = m->moves;
    return 1;
}

static int run_follower(session *s)
{
    for (;;) {
        cd_dxp_msg m;
        char err[256];
        if (s->has_pending) {
            m = s->pending;
            s->has_pending = 0;
        } else {
            /* between games: the initiator sends GAMEREQ at once or hangs up */
            int rx = recv_msg(s, s->o->timeout > 0 ? s->o->timeout : 600, &m, err, sizeof err);
            if (rx == RX_CLOSED)
                return s->failed;
            if (rx == RX_TIMEOUT || rx == RX_ERROR) {
                cd_dxp_log("error: %s", err);
                return 1;
            }
            if (rx == RX_BAD) {
                if (too_bad(s, err))
                    return 1;
                continue;
            }
        }
        s->bad = 0;
        switch (m.type) {
        case CD_DXP_GAMEREQ: {
            cd_position start;
            int r = answer_gamereq(s, &m, &start);
            if (r < 0)
                return s->failed;
            if (r == 0)
                break;
            if (start_game(s, &start) < 0)
                return 1;
            play_game(s, s->games_done + 1);
            if (s->stop && !s->has_pending)
                return s->failed;
            break;
        }
        case CD_DXP_CHAT: show_chat(s, &m); break;
        case CD_DXP_GAMEEND:
            if (m.stop == 1)
                return s->failed;
            break;
        case CD_DXP_BACKREQ: {
            cd_dxp_msg k = {.type = CD_DXP_BACKACC, .code = 2};
            send_msg(s, &k);
            break;
        }
        default: cd_dxp_log("warning: ignoring %s between games", cd_dxp_type_name(m.type)); break;
        }
    }
}

static const char *refusal(int code)
{
    switch (code) {
    case 1: return "protocol version not supported";
    case 2: return "the follower does not accept this game";
    case 3: return "the follower does not want to play";
    }
    return "unknown reason";
}

static int run_initiator(session *s, const cd_position *starts, int nstarts)
{
    const cd_dxp_settings *o = s->o;
    cd_position std_start;
    char a[160], b[160];
    cd_position_start(&std_start, o->rules);
    cd_position_to_dxp(&std_start, a, sizeof a);
    for (int g = 1; g <= o->games && !s->stop; g++) {
        /* games 2k+1 and 2k+2 from starts[k], colours reversed */
        const cd_position *start = &starts[((g - 1) / 2) % nstarts];
        cd_position_to_dxp(start, b, sizeof b);
        int standard = !strcmp(a, b);
        s->mine = (g % 2 == 1) ? o->colour : o->colour ^ 1;
        s->game_time = o->time;
        s->move_limit = o->moves;
        cd_dxp_msg m = {.type = CD_DXP_GAMEREQ, .version = 1};
        snprintf(m.name, sizeof m.name, "%s", o->name);
        m.colour = s->mine ^ 1;
        m.minutes = (int)(o->time / 60); /* whole minutes (src/cli/dxp_cmd.c) */
        m.moves = o->moves;
        m.setup = !standard;
        if (m.setup)
            snprintf(m.position, sizeof m.position, "%.127s", b);
        if (send_msg(s, &m) < 0)
            return 1;
        for (;;) {
            char err[256];
            int rx = recv_msg(s, peer_timeout(s), &m, err, sizeof err);
            if (rx == RX_CLOSED) {
                cd_dxp_log("error: the peer closed the connection before answering GAMEREQ");
                return 1;
            }
            if (rx == RX_TIMEOUT || rx == RX_ERROR) {
                cd_dxp_log("error: waiting for GAMEACC: %s", err);
                return 1;
            }
            if (rx == RX_BAD) {
                if (too_bad(s, err))
                    return 1;
                continue;
            }
            s->bad = 0;
            if (m.type == CD_DXP_GAMEACC)
                break;
            if (m.type == CD_DXP_CHAT)
                show_chat(s, &m);
            else
                cd_dxp_log("warning: ignoring %s while waiting for GAMEACC",
                           cd_dxp_type_name(m.type));
        }
        cd_dxp_printable(m.name, s->peer, sizeof s->peer);
        if (m.code != 0) {
            cd_dxp_log("error: %s refused the game: code %d (%s)", s->peer, m.code,
                       refusal(m.code));
            return 1;
        }
        if (start_game(s, start) < 0)
            return 1;
        play_game(s, g);
        if (s->stop && !s->failed && g < o->games)
            cd_dxp_log("%s wants no more games; stopping after %d of %d", s->peer, g, o->games);
    }
    return s->failed;
}

int cd_dxp_session_run(const cd_dxp_settings *set, int fd, cd_engine *engine,
                       const cd_position *starts, int nstarts, cd_dxp_tally *tally)
{
    session s;
    memset(&s, 0, sizeof s);
    s.o = set;
    s.fd = fd;
    s.engine = engine;
    s.tally = tally;
    s.odd_score2 = -1;
    if (tally)
        memset(tally, 0, sizeof *tally);
    cd_dxp_reader_init(&s.rd);
    int rc;
    if (set->follow)
        rc = run_follower(&s);
    else if (!starts || nstarts < 1) {
        cd_dxp_log("error: the initiator has no starting position");
        rc = 1;
    } else
        rc = run_initiator(&s, starts, nstarts);
    if (tally)
        snprintf(tally->peer, sizeof tally->peer, "%s", s.peer);
    cd_game_free(s.game);
    return rc ? 1 : 0;
}
