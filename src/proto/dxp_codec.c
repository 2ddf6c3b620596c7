/*
 * dxp_codec.c -- the DamExchange protocol (DXP) codec: messages to and from
 * their text (dxp.h has the layouts), framing of the byte stream, and the
 * MOVE and BACKREQ messages matched against positions and games. Pure: no
 * I/O, no global state; unit-tested in tests/test_dxp.c and fuzzed
 * (tests/fuzz/fuzz_dxp.c). The dialogue is played by dxp_session.c.
 */
#include "dxp.h"

#include <stdlib.h>
#include <string.h>

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

const char *cd_dxp_type_name(int type)
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
    const char *tn = cd_dxp_type_name(m->type);
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

void cd_dxp_printable(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++)
        out[k++] = (*s >= 32 && *s < 127) ? *s : '?';
    out[k] = '\0';
}
