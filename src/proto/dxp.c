/*
 * dxp.c -- the DamExchange protocol (DXP) front end. See dxp.h for the
 * message layouts; the dialogue (edxplg2.htm at mesander.nl/damexchange):
 *
 *   Initiator -> GAMEREQ, Follower -> GAMEACC, then MOVE messages strictly
 *   alternating. The side to move may send GAMEEND instead of a MOVE; the
 *   other side always answers with a GAMEEND and the game is over. CHAT at
 *   any time; BACKREQ (answered by BACKACC) to take moves back. The Initiator
 *   may then send the next GAMEREQ.
 *
 * The pure part (encode, decode, framing, move matching) works on buffers and
 * is unit-tested in tests/test_dxp.c; the session part below it does the
 * sockets, the clock and the engine.
 */
#define _POSIX_C_SOURCE 200809L
#include "dxp.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"

/* ------------------------------------------------------------------ helpers */

/* width zero-padded decimal digits of v (0 <= v < 10^width). */
static void sb_num(sbuf *b, int v, int width)
{
    char d[8];
    for (int i = width - 1; i >= 0; i--) {
        d[i] = (char)('0' + v % 10);
        v /= 10;
    }
    for (int i = 0; i < width; i++)
        sb_putc(b, d[i]);
}

/* Fixed-width decimal field at s[0..width): the value, or -1 if a character is not a digit. */
static int get_num(const char *s, int width)
{
    int v = 0;
    for (int i = 0; i < width; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static int colour_char(int colour) { return colour == CD_WHITE ? 'W' : 'Z'; }

static int char_colour(char c) { return c == 'W' ? CD_WHITE : c == 'Z' ? CD_BLACK : -1; }

/* ------------------------------------------------------------------ encode */

static int check_range(const char *what, int v, int lo, int hi, char *err, size_t errlen)
{
    if (v < lo || v > hi) {
        set_err(err, errlen, "%s %d out of range %d..%d", what, v, lo, hi);
        return -1;
    }
    return 0;
}

/* A name may be empty (32 blanks on the wire): a peer that sends a blank name field has sent a
 * well-formed message, and what we decode we must be able to send back. */
static int check_name(const char *name, char *err, size_t errlen)
{
    size_t n = strlen(name);
    if (n > CD_DXP_NAME_LEN) {
        set_err(err, errlen, "name must have at most %d characters", CD_DXP_NAME_LEN);
        return -1;
    }
    if (name[0] == ' ') {
        set_err(err, errlen, "name must not start with a blank");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 32 || (unsigned char)name[i] > 126) {
            set_err(err, errlen, "name: bad character at %zu", i + 1);
            return -1;
        }
    return 0;
}

static void sb_name(sbuf *b, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < CD_DXP_NAME_LEN; i++)
        sb_putc(b, i < n ? name[i] : ' ');
}

int cd_dxp_encode(const cd_dxp_msg *m, char *buf, size_t len, char *err, size_t errlen)
{
    if (!m || !buf || !len) {
        set_err(err, errlen, "missing argument");
        return -1;
    }
    buf[0] = '\0';
    sbuf b = {buf, len, 0};
    sb_putc(&b, (char)m->type);
    switch (m->type) {
    case CD_DXP_CHAT: {
        size_t n = strlen(m->text);
        if (n == 0 || n > CD_DXP_MAX_LEN - 1) {
            set_err(err, errlen, "chat text must have 1..%d characters", CD_DXP_MAX_LEN - 1);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            if ((unsigned char)m->text[i] > 127) {
                set_err(err, errlen, "chat text: non-ASCII character at %zu", i + 1);
                return -1;
            }
            sb_putc(&b, m->text[i]);
        }
        break;
    }
    case CD_DXP_GAMEREQ:
        if (check_range("version", m->version, 0, 99, err, errlen) ||
            check_name(m->name, err, errlen) ||
            check_range("minutes", m->minutes, 0, 999, err, errlen) ||
            check_range("moves", m->moves, 0, 999, err, errlen))
            return -1;
        if (m->colour != CD_WHITE && m->colour != CD_BLACK) {
            set_err(err, errlen, "follower colour must be white or black");
            return -1;
        }
        sb_num(&b, m->version, 2);
        sb_name(&b, m->name);
        sb_putc(&b, (char)colour_char(m->colour));
        sb_num(&b, m->minutes, 3);
        sb_num(&b, m->moves, 3);
        if (!m->setup) {
            sb_putc(&b, 'A');
        } else {
            size_t n = strlen(m->position);
            if (n < 2 || n > CD_DXP_MAX_LEN - 43) {
                set_err(err, errlen, "position must have 2..%d characters", CD_DXP_MAX_LEN - 43);
                return -1;
            }
            if (char_colour(m->position[0]) < 0) {
                set_err(err, errlen, "position: side to move must be 'W' or 'Z'");
                return -1;
            }
            for (size_t i = 1; i < n; i++)
                if (!strchr("wzWZe", m->position[i])) {
                    set_err(err, errlen, "position: bad square character at %zu", i + 1);
                    return -1;
                }
            sb_putc(&b, 'B');
            for (size_t i = 0; i < n; i++)
                sb_putc(&b, m->position[i]);
        }
        break;
    case CD_DXP_GAMEACC:
        if (check_name(m->name, err, errlen) || check_range("code", m->code, 0, 9, err, errlen))
            return -1;
        sb_name(&b, m->name);
        sb_num(&b, m->code, 1);
        break;
    case CD_DXP_MOVE:
        if (check_range("seconds", m->seconds, 0, 9999, err, errlen) ||
            check_range("from", m->from, 1, 99, err, errlen) ||
            check_range("to", m->to, 1, 99, err, errlen) ||
            check_range("captured count", m->ncaptured, 0, CD_DXP_MAX_CAPTURES, err, errlen))
            return -1;
        sb_num(&b, m->seconds, 4);
        sb_num(&b, m->from, 2);
        sb_num(&b, m->to, 2);
        sb_num(&b, m->ncaptured, 2);
        for (int i = 0; i < m->ncaptured; i++) {
            if (check_range("captured square", m->captured[i], 1, 99, err, errlen))
                return -1;
            sb_num(&b, m->captured[i], 2);
        }
        break;
    case CD_DXP_GAMEEND:
        if (check_range("reason", m->code, 0, 9, err, errlen) ||
            check_range("stop code", m->stop, 0, 9, err, errlen))
            return -1;
        sb_num(&b, m->code, 1);
        sb_num(&b, m->stop, 1);
        break;
    case CD_DXP_BACKREQ:
        if (check_range("move number", m->move_number, 1, 999, err, errlen))
            return -1;
        if (m->colour != CD_WHITE && m->colour != CD_BLACK) {
            set_err(err, errlen, "colour to move must be white or black");
            return -1;
        }
        sb_num(&b, m->move_number, 3);
        sb_putc(&b, (char)colour_char(m->colour));
        break;
    case CD_DXP_BACKACC:
        if (check_range("code", m->code, 0, 9, err, errlen))
            return -1;
        sb_num(&b, m->code, 1);
        break;
    default:
        set_err(err, errlen, "unknown message type %d", m->type);
        buf[0] = '\0';
        return -1;
    }
    if (b.n >= b.len || b.n > CD_DXP_MAX_LEN) {
        set_err(err, errlen, "message too long (%zu characters)", b.n);
        buf[0] = '\0';
        return -1;
    }
    return (int)sb_end(&b);
}

/* ------------------------------------------------------------------ decode */

static const char *type_name(int type)
{
    switch (type) {
    case CD_DXP_CHAT: return "CHAT";
    case CD_DXP_GAMEREQ: return "GAMEREQ";
    case CD_DXP_GAMEACC: return "GAMEACC";
    case CD_DXP_MOVE: return "MOVE";
    case CD_DXP_GAMEEND: return "GAMEEND";
    case CD_DXP_BACKREQ: return "BACKREQ";
    case CD_DXP_BACKACC: return "BACKACC";
    }
    return "message";
}

/* Copy a 32-character name field without its leading and trailing blanks; characters a name
 * may not hold (control characters, DEL) become '?', so the name can be shown and sent back. */
static void get_name(const char *s, char *out)
{
    int a = 0, z = CD_DXP_NAME_LEN;
    while (a < z && s[a] == ' ')
        a++;
    while (z > a && s[z - 1] == ' ')
        z--;
    for (int i = a; i < z; i++)
        out[i - a] = (unsigned char)s[i] < 32 || (unsigned char)s[i] > 126 ? '?' : s[i];
    out[z - a] = '\0';
}

/* A fixed-width number at column col (0-based) or an error naming the field. */
#define NUM(dst, col, width, what)                                                                 \
    do {                                                                                           \
        (dst) = get_num(s + (col), (width));                                                       \
        if ((dst) < 0) {                                                                           \
            set_err(err, errlen, "%s: %s must be %d digits at column %d", tn, (what), (width),     \
                    (col) + 1);                                                                    \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

static int expect_len(const char *tn, size_t n, size_t want, char *err, size_t errlen)
{
    if (n != want) {
        set_err(err, errlen, "%s: expected %zu characters, got %zu", tn, want, n);
        return -1;
    }
    return 0;
}

int cd_dxp_decode(const char *s, size_t n, cd_dxp_msg *m, char *err, size_t errlen)
{
    if (!s || !m) {
        set_err(err, errlen, "missing argument");
        return -1;
    }
    memset(m, 0, sizeof *m);
    if (n == 0) {
        set_err(err, errlen, "empty message");
        return -1;
    }
    m->type = (unsigned char)s[0];
    const char *tn = type_name(m->type);
    if (n > CD_DXP_MAX_LEN) {
        set_err(err, errlen, "%s: %zu characters, more than %d", tn, n, CD_DXP_MAX_LEN);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\0' || (unsigned char)s[i] > 127) {
            set_err(err, errlen, "%s: byte %u at column %zu is not ASCII 1..127", tn,
                    (unsigned)(unsigned char)s[i], i + 1);
            return -1;
        }
    switch (m->type) {
    case CD_DXP_CHAT:
        if (n < 2) {
            set_err(err, errlen, "CHAT: no text");
            return -1;
        }
        memcpy(m->text, s + 1, n - 1);
        m->text[n - 1] = '\0';
        return 0;
    case CD_DXP_GAMEREQ: {
        if (n < 43) {
            set_err(err, errlen, "GAMEREQ: expected at least 43 characters, got %zu", n);
            return -1;
        }
        NUM(m->version, 1, 2, "version");
        get_name(s + 3, m->name);
        m->colour = char_colour(s[35]);
        if (m->colour < 0) {
            set_err(err, errlen, "GAMEREQ: follower colour must be 'W' or 'Z' at column 36");
            return -1;
        }
        NUM(m->minutes, 36, 3, "thinking time");
        NUM(m->moves, 39, 3, "number of moves");
        if (s[42] == 'A') {
            m->setup = 0;
            return expect_len(tn, n, 43, err, errlen);
        }
        if (s[42] != 'B') {
            set_err(err, errlen, "GAMEREQ: starting position must be 'A' or 'B' at column 43");
            return -1;
        }
        m->setup = 1;
        if (n < 45) {
            set_err(err, errlen, "GAMEREQ: 'B' needs the colour to move and the squares");
            return -1;
        }
        if (char_colour(s[43]) < 0) {
            set_err(err, errlen, "GAMEREQ: colour to move must be 'W' or 'Z' at column 44");
            return -1;
        }
        for (size_t i = 44; i < n; i++)
            if (!strchr("wzWZe", s[i])) {
                set_err(err, errlen, "GAMEREQ: bad square character '%c' at column %zu", s[i],
                        i + 1);
                return -1;
            }
        memcpy(m->position, s + 43, n - 43);
        m->position[n - 43] = '\0';
        return 0;
    }
    case CD_DXP_GAMEACC:
        if (expect_len(tn, n, 34, err, errlen))
            return -1;
        get_name(s + 1, m->name);
        NUM(m->code, 33, 1, "acceptance code");
        return 0;
    case CD_DXP_MOVE: {
        if (n < 11) {
            set_err(err, errlen, "MOVE: expected at least 11 characters, got %zu", n);
            return -1;
        }
        NUM(m->seconds, 1, 4, "time");
        NUM(m->from, 5, 2, "from field");
        NUM(m->to, 7, 2, "to field");
        NUM(m->ncaptured, 9, 2, "number captured");
        if (m->from == 0 || m->to == 0) {
            set_err(err, errlen, "MOVE: square 00 at column %d", m->from == 0 ? 6 : 8);
            return -1;
        }
        if (n != 11 + 2 * (size_t)m->ncaptured) {
            set_err(err, errlen, "MOVE: %d captured pieces need %d characters, got %zu",
                    m->ncaptured, 11 + 2 * m->ncaptured, n);
            return -1;
        }
        for (int i = 0; i < m->ncaptured; i++) {
            NUM(m->captured[i], 11 + 2 * i, 2, "captured square");
            if (m->captured[i] == 0) {
                set_err(err, errlen, "MOVE: captured square 00 at column %d", 12 + 2 * i);
                return -1;
            }
        }
        return 0;
    }
    case CD_DXP_GAMEEND:
        if (expect_len(tn, n, 3, err, errlen))
            return -1;
        NUM(m->code, 1, 1, "reason");
        NUM(m->stop, 2, 1, "stop code");
        return 0;
    case CD_DXP_BACKREQ:
        if (expect_len(tn, n, 5, err, errlen))
            return -1;
        NUM(m->move_number, 1, 3, "move number");
        if (m->move_number == 0) {
            set_err(err, errlen, "BACKREQ: move number 000");
            return -1;
        }
        m->colour = char_colour(s[4]);
        if (m->colour < 0) {
            set_err(err, errlen, "BACKREQ: colour to move must be 'W' or 'Z' at column 5");
            return -1;
        }
        return 0;
    case CD_DXP_BACKACC:
        if (expect_len(tn, n, 2, err, errlen))
            return -1;
        NUM(m->code, 1, 1, "acceptance code");
        return 0;
    }
    if (m->type >= 32 && m->type < 127)
        set_err(err, errlen, "unknown message type '%c'", (char)m->type);
    else
        set_err(err, errlen, "unknown message type (byte %d)", m->type);
    return -1;
}

#undef NUM

/* ------------------------------------------------------------------ framing */

void cd_dxp_reader_init(cd_dxp_reader *r)
{
    r->len = 0;
    r->discard = 0;
}

size_t cd_dxp_reader_space(const cd_dxp_reader *r) { return sizeof r->buf - r->len; }

size_t cd_dxp_reader_push(cd_dxp_reader *r, const char *data, size_t n)
{
    size_t k = cd_dxp_reader_space(r);
    if (n < k)
        k = n;
    memcpy(r->buf + r->len, data, k);
    r->len += k;
    return k;
}

static void reader_drop(cd_dxp_reader *r, size_t k)
{
    memmove(r->buf, r->buf + k, r->len - k);
    r->len -= k;
}

int cd_dxp_reader_next(cd_dxp_reader *r, char *out, size_t outlen, size_t *outn, char *err,
                       size_t errlen)
{
    for (;;) {
        char *z = memchr(r->buf, '\0', r->len);
        if (r->discard) {
            if (!z) {
                r->len = 0;
                return 0;
            }
            reader_drop(r, (size_t)(z - r->buf) + 1);
            r->discard = 0;
            continue;
        }
        if (!z) {
            if (r->len > CD_DXP_MAX_LEN) {
                set_err(err, errlen, "message longer than %d characters dropped", CD_DXP_MAX_LEN);
                r->len = 0;
                r->discard = 1;
                return -1;
            }
            return 0;
        }
        size_t n = (size_t)(z - r->buf);
        if (n == 0) { /* an empty frame: skip it */
            reader_drop(r, 1);
            continue;
        }
        if (n > CD_DXP_MAX_LEN || n + 1 > outlen) {
            set_err(err, errlen, "message of %zu characters dropped (limit %d)", n, CD_DXP_MAX_LEN);
            reader_drop(r, n + 1);
            return -1;
        }
        memcpy(out, r->buf, n);
        out[n] = '\0';
        if (outn)
            *outn = n;
        reader_drop(r, n + 1);
        return 1;
    }
}

/* ------------------------------------------------------------------ moves */

void cd_dxp_move_msg(const cd_position *pos, const cd_move *m, int seconds, cd_dxp_msg *out)
{
    memset(out, 0, sizeof *out);
    out->type = CD_DXP_MOVE;
    out->seconds = seconds < 0 ? 0 : seconds > 9999 ? 9999 : seconds;
    out->from = cd_move_from(pos, m);
    out->to = cd_move_to(pos, m);
    out->ncaptured = cd_move_captures(pos, m, out->captured, CD_DXP_MAX_CAPTURES);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* "32-28" or "28x19" plus captured squares, for messages. */
static void msg_move_text(const cd_dxp_msg *m, char *buf, size_t len)
{
    int k = snprintf(buf, len, "%d%c%d", m->from, m->ncaptured ? 'x' : '-', m->to);
    for (int i = 0; i < m->ncaptured && k > 0 && (size_t)k < len; i++)
        k += snprintf(buf + k, len - (size_t)k, "%s%d", i ? "," : " captures ", m->captured[i]);
}

cd_result cd_dxp_match_move(const cd_position *pos, const cd_dxp_msg *msg, cd_move *out, char *err,
                            size_t errlen)
{
    char text[256];
    if (!pos || !msg || !out || msg->type != CD_DXP_MOVE) {
        set_err(err, errlen, "not a MOVE message");
        return CD_ERR_ARG;
    }
    msg_move_text(msg, text, sizeof text);
    int n = msg->ncaptured;
    if (n < 0 || n > CD_DXP_MAX_CAPTURES) {
        set_err(err, errlen, "move %s: bad capture count", text);
        return CD_ERR_ILLEGAL;
    }
    int want[CD_DXP_MAX_CAPTURES];
    memcpy(want, msg->captured, (size_t)n * sizeof want[0]);
    qsort(want, (size_t)n, sizeof want[0], cmp_int);
    for (int i = 1; i < n; i++)
        if (want[i] == want[i - 1]) {
            set_err(err, errlen, "move %s: square %d captured twice", text, want[i]);
            return CD_ERR_ILLEGAL;
        }
    cd_movelist *list = malloc(sizeof *list);
    if (!list) {
        set_err(err, errlen, "out of memory");
        return CD_ERR_OVERFLOW;
    }
    int count = cd_generate(pos, list);
    int exact = -1, loose = -1, nloose = 0;
    for (int i = 0; i < count; i++) {
        const cd_move *m = &list->moves[i];
        if (cd_move_from(pos, m) != msg->from || cd_move_to(pos, m) != msg->to)
            continue;
        int caps[CD_DXP_MAX_CAPTURES + 8];
        int k = cd_move_captures(pos, m, caps, CD_DXP_MAX_CAPTURES + 8);
        if (k == n && (n == 0 || !memcmp(caps, want, (size_t)n * sizeof caps[0]))) {
            exact = i;
            break;
        }
        /* count 00 for a capture: match on from and to alone (distinct captured sets) */
        if (n == 0 && k > 0 && (loose < 0 || !cd_move_equal(&list->moves[loose], m))) {
            if (loose < 0)
                loose = i;
            nloose++;
        }
    }
    cd_result res = CD_OK;
    if (exact >= 0) {
        *out = list->moves[exact];
    } else if (nloose == 1) {
        *out = list->moves[loose];
    } else if (nloose > 1) {
        set_err(err, errlen, "move %s is ambiguous: %d captures go from %d to %d", text, nloose,
                msg->from, msg->to);
        res = CD_ERR_AMBIGUOUS;
    } else {
        set_err(err, errlen, "move %s is not legal here", text);
        res = CD_ERR_ILLEGAL;
    }
    free(list);
    return res;
}

int cd_dxp_back_ply(const cd_game *g, int move_number, int colour)
{
    if (!g || move_number < 1 || (colour != CD_WHITE && colour != CD_BLACK))
        return -1;
    const cd_position *start = cd_game_position_at(g, 0);
    int first = start->rules->first;
    int half = (move_number - 1) * 2 + (colour == first ? 0 : 1);
    int ply = half - (start->side == first ? 0 : 1);
    if (ply < 0 || ply > cd_game_ply(g))
        return -1;
    if (cd_game_position_at(g, ply)->side != colour)
        return -1;
    return ply;
}

/* ================================================================== the command */

typedef struct options {
    const cd_rules *rules;
    const char *host, *port;
    int initiate, follow;
    double time; /* seconds per game per player */
    int moves, depth, games, games_given;
    char name[CD_DXP_NAME_LEN + 1];
    const char *fen;
    int colour;     /* the initiator's colour in game 1 */
    double timeout; /* seconds; 0: the defaults */
    size_t hash_mb;
    int no_takeback, verbose;
} options;

typedef struct session {
    const options *o;
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
} session;

enum { RX_MSG, RX_BAD, RX_CLOSED, RX_TIMEOUT, RX_ERROR };
#define MAX_BAD 32

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dxp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Text from the peer made safe for the terminal. */
static void printable(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++)
        out[k++] = (*s >= 32 && *s < 127) ? *s : '?';
    out[k] = '\0';
}

static int send_msg(session *s, const cd_dxp_msg *m)
{
    char buf[CD_DXP_MAX_LEN + 2], err[160];
    int n = cd_dxp_encode(m, buf, sizeof buf, err, sizeof err);
    if (n < 0) {
        say("error: cannot encode %s: %s", type_name(m->type), err);
        return -1;
    }
    if (s->o->verbose)
        say("> %s", buf);
    size_t total = (size_t)n + 1, off = 0; /* with the '\0' */
    while (off < total) {
        ssize_t w = send(s->fd, buf + off, total - off, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            say("error: send: %s", strerror(errno));
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
    printable(text, m.text, CD_DXP_MAX_LEN);
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
                printable(frame, shown, sizeof shown);
                say("< %s", shown);
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
    say("warning: ignoring a malformed message: %s", err);
    if (++s->bad >= MAX_BAD) {
        say("error: %d malformed messages in a row; giving up", MAX_BAD);
        s->failed = 1;
        return 1;
    }
    return 0;
}

static void show_chat(session *s, const cd_dxp_msg *m)
{
    char t[CD_DXP_MAX_LEN + 1];
    printable(m->text, t, sizeof t);
    say("chat from %s: %s", s->peer[0] ? s->peer : "peer", t);
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
    const options *o = s->o;
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
                say("warning: ignoring %s while waiting for GAMEEND", type_name(m.type));
        } else if (rx == RX_BAD) {
            if (too_bad(s, err))
                return END_ERROR;
        } else if (rx == RX_CLOSED) {
            say("peer closed the connection without acknowledging GAMEEND");
            s->stop = 1;
            return END_NORMAL;
        } else {
            say("error: waiting for GAMEEND: %s", err);
            s->failed = 1;
            return END_ERROR;
        }
    }
}

/* Search and send our move. */
static int our_move(session *s)
{
    const options *o = s->o;
    const cd_position *pos = cd_game_position(s->game);
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = o->depth;
    if (s->game_time > 0) {
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
        say("error: out of memory");
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
            say("error: no legal move to play");
            s->failed = 1;
            return -1;
        }
        say("warning: the search returned no legal move (%s); playing the first one",
            cd_result_str(r));
        mv = list->moves[0];
    }
    free(list);
    cd_dxp_msg msg;
    cd_dxp_move_msg(pos, &mv, (int)(dt + 0.5), &msg);
    if (o->verbose) {
        char t[64];
        cd_move_to_text(pos, &mv, 0, t, sizeof t);
        say("we play %s (score %d, depth %d)", t, res.score, res.depth);
    }
    if (cd_game_play(s->game, &mv) != CD_OK) {
        say("error: cannot play our own move");
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
        say("refusing BACKREQ to move %d (%s to move): not in this game", m->move_number,
            m->colour == CD_WHITE ? "white" : "black");
        k.code = 2;
    } else {
        while (cd_game_ply(s->game) > ply)
            cd_game_undo(s->game);
        say("took back to move %d, %s to move", m->move_number,
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
    say("moves: %s", k ? line : "(none)");
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
            say("error: the peer closed the connection during the game");
            note = "peer disconnected";
            s->failed = 1;
            s->stop = 1;
            outcome = END_ERROR;
            break;
        }
        if (rx == RX_TIMEOUT || rx == RX_ERROR) {
            say("error: %s", err);
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
            if (rx == RX_BAD) {
                snprintf(notebuf, sizeof notebuf, "malformed move from the peer: %s", err);
            } else if (st != CD_ONGOING) {
                say("warning: the peer moved after the game ended; ending it");
                outcome = end_by_us(s, reason_code(s, st), my_stop);
                break;
            } else if (cd_dxp_match_move(pos, &m, &mv, err, sizeof err) == CD_OK) {
                s->used[peer] += now() - t0;
                cd_game_play(s->game, &mv);
                continue;
            } else {
                snprintf(notebuf, sizeof notebuf, "illegal move from the peer: %s", err);
            }
            say("error: %s", notebuf);
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
                say("warning: new GAMEREQ during the game; abandoning it");
                s->pending = m;
                s->has_pending = 1;
                note = "abandoned for a new GAMEREQ";
                goto done;
            }
            say("warning: ignoring GAMEREQ from the follower");
            break;
        default: say("warning: ignoring %s during the game", type_name(m.type)); break;
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
    s->games_done++;
    return outcome;
}

static int start_game(session *s, const cd_position *start)
{
    cd_game_free(s->game);
    s->game = cd_game_new(s->o->rules, start);
    if (!s->game) {
        say("error: out of memory");
        return -1;
    }
    s->used[0] = s->used[1] = 0;
    cd_engine_clear(s->engine);
    char limit[32] = "no move limit";
    if (s->move_limit > 0)
        snprintf(limit, sizeof limit, "%d moves", s->move_limit);
    say("game %d: %s (%s) against %s (%s), %.0f s per player, %s", s->games_done + 1, s->o->name,
        s->mine == CD_WHITE ? "white" : "black", s->peer[0] ? s->peer : "peer",
        s->mine == CD_WHITE ? "black" : "white", s->game_time, limit);
    return 0;
}

/* ------------------------------------------------------------------ roles */

/* Accept or refuse a GAMEREQ (follower). 1: play it; 0: refused; -1: stop. */
static int answer_gamereq(session *s, const cd_dxp_msg *m, cd_position *start)
{
    cd_dxp_msg a = {.type = CD_DXP_GAMEACC};
    snprintf(a.name, sizeof a.name, "%s", s->o->name);
    printable(m->name, s->peer, sizeof s->peer);
    if (s->o->games > 0 && s->games_done >= s->o->games) {
        a.code = 3;
        send_msg(s, &a);
        s->stop = 1;
        return -1;
    }
    if (m->version != 1) {
        say("refusing GAMEREQ: protocol version %02d (we speak 01)", m->version);
        a.code = 1;
        return send_msg(s, &a) < 0 ? -1 : 0;
    }
    if (m->setup) {
        char err[256];
        if (cd_position_from_dxp(start, s->o->rules, m->position, err, sizeof err) != CD_OK) {
            say("refusing GAMEREQ: %s (variant %s)", err, s->o->rules->name);
            a.code = 2;
            return send_msg(s, &a) < 0 ? -1 : 0;
        }
    } else {
        cd_position_start(start, s->o->rules);
    }
    if (cd_count_moves(start) == 0) {
        say("refusing GAMEREQ: no legal move in the starting position");
        a.code = 2;
        return send_msg(s, &a) < 0 ? -1 : 0;
    }
    a.code = 0;
    if (send_msg(s, &a) < 0)
        return -1;
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
                say("error: %s", err);
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
        default: say("warning: ignoring %s between games", type_name(m.type)); break;
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

static int run_initiator(session *s, const cd_position *start)
{
    const options *o = s->o;
    cd_position std_start;
    char a[160], b[160];
    cd_position_start(&std_start, o->rules);
    cd_position_to_dxp(&std_start, a, sizeof a);
    cd_position_to_dxp(start, b, sizeof b);
    int standard = !strcmp(a, b);
    for (int g = 1; g <= o->games && !s->stop; g++) {
        s->mine = (g % 2 == 1) ? o->colour : o->colour ^ 1;
        s->game_time = o->time;
        s->move_limit = o->moves;
        cd_dxp_msg m = {.type = CD_DXP_GAMEREQ, .version = 1};
        snprintf(m.name, sizeof m.name, "%s", o->name);
        m.colour = s->mine ^ 1;
        m.minutes = (int)(o->time / 60); /* whole minutes (parse_options) */
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
                say("error: the peer closed the connection before answering GAMEREQ");
                return 1;
            }
            if (rx == RX_TIMEOUT || rx == RX_ERROR) {
                say("error: waiting for GAMEACC: %s", err);
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
                say("warning: ignoring %s while waiting for GAMEACC", type_name(m.type));
        }
        printable(m.name, s->peer, sizeof s->peer);
        if (m.code != 0) {
            say("error: %s refused the game: code %d (%s)", s->peer, m.code, refusal(m.code));
            return 1;
        }
        if (start_game(s, start) < 0)
            return 1;
        play_game(s, g);
        if (s->stop && !s->failed && g < o->games)
            say("%s wants no more games; stopping after %d of %d", s->peer, g, o->games);
    }
    return s->failed;
}

/* ------------------------------------------------------------------ sockets */

static int open_listener(const char *host, const char *port)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        say("error: %s:%s: %s", host, port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, saved = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1) == 0)
            break;
        saved = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        say("error: cannot listen on %s:%s: %s", host, port, strerror(saved));
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    char h[256], p[32];
    if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0 &&
        getnameinfo((struct sockaddr *)&sa, len, h, sizeof h, p, sizeof p,
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0)
        say("listening on %s port %s", h, p);
    return fd;
}

static int accept_one(int lfd, double timeout)
{
    double deadline = timeout > 0 ? now() + timeout : 0;
    for (;;) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - now();
            if (left <= 0) {
                say("error: no connection within %.0f s", timeout);
                return -1;
            }
            ms = (int)(left * 1000) + 1;
        }
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        int pr = poll(&p, 1, ms);
        if (pr < 0 && errno != EINTR) {
            say("error: poll: %s", strerror(errno));
            return -1;
        }
        if (pr <= 0)
            continue;
        int fd = accept(lfd, NULL, NULL);
        if (fd >= 0)
            return fd;
        if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN) {
            say("error: accept: %s", strerror(errno));
            return -1;
        }
    }
}

static int connect_to(const char *host, const char *port, double timeout)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        say("error: %s:%s: %s", host, port, gai_strerror(rc));
        return -1;
    }
    double deadline = now() + timeout;
    int saved = 0;
    for (;;) { /* retry while nobody listens yet */
        for (ai = res; ai; ai = ai->ai_next) {
            int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
            if (fd < 0) {
                saved = errno;
                continue;
            }
            if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
                freeaddrinfo(res);
                return fd;
            }
            saved = errno;
            close(fd);
        }
        if (now() >= deadline || (saved != ECONNREFUSED && saved != ETIMEDOUT && saved != EINTR))
            break;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    freeaddrinfo(res);
    say("error: cannot connect to %s:%s: %s", host, port, strerror(saved));
    return -1;
}

/* ------------------------------------------------------------------ options */

static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("condraughts: dxp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fputs("usage: condraughts dxp [--variant V] [--host H] [--port P] (--initiate | --follow)\n"
          "         [--time SECONDS_PER_GAME] [--moves N] [--depth D] [--games N] [--name NAME]\n"
          "         [--fen FEN] [--colour white|black] [--timeout S] [--hash MB] [--no-takeback]\n"
          "         [--verbose]\n",
          stderr);
    return 2;
}

static int int_arg(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return usage("%s needs a whole number in %ld..%ld, got '%s'", opt, lo, hi, s);
    *out = v;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->rules = cd_rules_find("international");
    o->host = NULL;
    o->port = "27531";
    o->time = 300;
    o->games = 1;
    o->colour = CD_WHITE;
    snprintf(o->name, sizeof o->name, "condraughts %s", CD_VERSION);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long v = 0;
        int has = i + 1 < argc;
        const char *val = has ? argv[i + 1] : NULL;
        if (!strcmp(a, "--initiate")) {
            o->initiate = 1;
            continue;
        }
        if (!strcmp(a, "--follow")) {
            o->follow = 1;
            continue;
        }
        if (!strcmp(a, "--no-takeback")) {
            o->no_takeback = 1;
            continue;
        }
        if (!strcmp(a, "--verbose")) {
            o->verbose = 1;
            continue;
        }
        static const char *const with_value[] = {
            "--variant", "-v",     "--host", "--port",   "--time",  "--moves",   "--depth",
            "--games",   "--name", "--fen",  "--colour", "--color", "--timeout", "--hash"};
        size_t k, nk = sizeof with_value / sizeof with_value[0];
        for (k = 0; k < nk; k++)
            if (!strcmp(a, with_value[k]))
                break;
        if (k == nk)
            return usage("unknown option '%s'", a);
        if (!has)
            return usage("%s needs a value", a);
        i++;
        if (!strcmp(a, "--variant") || !strcmp(a, "-v")) {
            o->rules = cd_rules_find(val);
            if (!o->rules)
                return usage("unknown variant '%s' (try: condraughts variants)", val);
        } else if (!strcmp(a, "--host")) {
            o->host = val;
        } else if (!strcmp(a, "--port")) {
            if (int_arg(a, val, 0, 65535, &v))
                return 2;
            o->port = val;
        } else if (!strcmp(a, "--time")) {
            if (int_arg(a, val, 1, 999 * 60, &v))
                return 2;
            if (v % 60) /* GAMEREQ carries minutes: both sides must get the same clock */
                return usage("--time %ld is not whole minutes (DXP sends minutes), e.g. %ld", v,
                             (v + 30) / 60 > 0 ? (v + 30) / 60 * 60 : 60);
            o->time = (double)v;
        } else if (!strcmp(a, "--moves")) {
            if (int_arg(a, val, 0, 999, &v))
                return 2;
            o->moves = (int)v;
        } else if (!strcmp(a, "--depth")) {
            if (int_arg(a, val, 0, CD_MAX_PLY - 1, &v))
                return 2;
            o->depth = (int)v;
        } else if (!strcmp(a, "--games")) {
            if (int_arg(a, val, 0, 100000, &v))
                return 2;
            o->games = (int)v;
            o->games_given = 1;
        } else if (!strcmp(a, "--name")) {
            const char *p = val;
            while (*p == ' ')
                p++;
            char clean[CD_DXP_NAME_LEN + 1];
            printable(p, clean, sizeof clean);
            if (!clean[0])
                return usage("--name must not be empty");
            snprintf(o->name, sizeof o->name, "%s", clean);
        } else if (!strcmp(a, "--fen")) {
            o->fen = val;
        } else if (!strcmp(a, "--colour") || !strcmp(a, "--color")) {
            if (!strcmp(val, "white"))
                o->colour = CD_WHITE;
            else if (!strcmp(val, "black"))
                o->colour = CD_BLACK;
            else
                return usage("%s must be white or black", a);
        } else if (!strcmp(a, "--timeout")) {
            if (int_arg(a, val, 1, 1000000, &v))
                return 2;
            o->timeout = (double)v;
        } else if (!strcmp(a, "--hash")) {
            if (int_arg(a, val, 1, 1 << 20, &v))
                return 2;
            o->hash_mb = (size_t)v;
        }
    }
    if (o->initiate == o->follow)
        return usage("give exactly one of --initiate and --follow");
    if (o->follow && o->fen)
        return usage("--fen is for the initiator (the follower takes the GAMEREQ position)");
    if (o->initiate && o->games < 1)
        return usage("--games must be at least 1 for the initiator");
    if (o->follow && !o->games_given)
        o->games = 0; /* the follower plays until the initiator stops */
    if (!o->host)
        o->host = "127.0.0.1";
    return 0;
}

int cd_dxp_main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc;
    cd_position start;
    if (o.initiate) {
        if (o.fen) {
            char err[256];
            if (cd_position_from_fen(&start, o.rules, o.fen, err, sizeof err) != CD_OK)
                return usage("--fen: %s", err);
        } else {
            cd_position_start(&start, o.rules);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    session s;
    memset(&s, 0, sizeof s);
    s.o = &o;
    s.fd = -1;
    cd_dxp_reader_init(&s.rd);
    s.engine = cd_engine_new(o.hash_mb);
    if (!s.engine) {
        say("error: cannot create the engine (out of memory)");
        return 1;
    }
    if (o.follow) {
        int lfd = open_listener(o.host, o.port);
        if (lfd >= 0) {
            s.fd = accept_one(lfd, o.timeout);
            close(lfd);
        }
    } else {
        s.fd = connect_to(o.host, o.port, o.timeout > 0 ? o.timeout : 10);
    }
    if (s.fd < 0) {
        cd_engine_free(s.engine);
        return 1;
    }
    int one = 1;
    setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    say("connected (%s, variant %s)", o.follow ? "follower" : "initiator", o.rules->name);
    rc = o.follow ? run_follower(&s) : run_initiator(&s, &start);
    close(s.fd);
    cd_game_free(s.game);
    cd_engine_free(s.engine);
    return rc ? 1 : 0;
}
