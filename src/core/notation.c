/*
 * notation.c -- every text form of squares, positions and moves:
 * numeric/algebraic squares, PDN FEN, Hub and DXP position strings, Hub move
 * form, standard move text (short, or with the landing path when needed) and
 * the move parser.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "strbuf.h"

void cd_position_rekey(cd_position *pos);

/* ------------------------------------------------------------------ squares */

int cd_square_row(const cd_rules *r, int sq)
{
    const cd_geom *g = cd_geom_of(r);
    return (sq < 1 || sq > g->squares) ? -1 : (sq - 1) / g->half;
}

int cd_square_col(const cd_rules *r, int sq)
{
    const cd_geom *g = cd_geom_of(r);
    if (sq < 1 || sq > g->squares)
        return -1;
    int row = (sq - 1) / g->half, k = (sq - 1) % g->half;
    if (g->full)
        return k; /* every cell is a square */
    int odd_first = (r->flags & CD_RULE_MIRRORED) ? (row & 1) : !(row & 1);
    return 2 * k + odd_first;
}

size_t cd_square_to_text(const cd_rules *r, int sq, int algebraic, char *buf, size_t len)
{
    char tmp[16];
    if (algebraic < 0)
        algebraic = (r->flags & CD_RULE_ALGEBRAIC) != 0;
    if (algebraic && cd_square_row(r, sq) >= 0)
        snprintf(tmp, sizeof tmp, "%c%d", 'a' + cd_square_col(r, sq),
                 cd_geom_of(r)->height - cd_square_row(r, sq));
    else
        snprintf(tmp, sizeof tmp, "%d", sq);
    sbuf b = {buf, len, 0};
    sb_puts(&b, tmp);
    return sb_end(&b);
}

int cd_square_parse(const cd_rules *r, const char *s, const char **end)
{
    const cd_geom *g = cd_geom_of(r);
    const char *p = s;
    int sq = 0;
    if (isdigit((unsigned char)*p)) {
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (*p++ - '0');
        while (isdigit((unsigned char)*p))
            p++, v = 1000;
        sq = (v >= 1 && v <= g->squares) ? (int)v : 0;
    } else if (isalpha((unsigned char)*p) && isdigit((unsigned char)p[1])) {
        int col = tolower((unsigned char)*p++) - 'a';
        int rank = 0;
        while (isdigit((unsigned char)*p) && rank < 100)
            rank = rank * 10 + (*p++ - '0');
        int row = g->height - rank;
        if (col >= 0 && col < g->width && row >= 0 && row < g->height) {
            for (int n = row * g->half + 1; n <= (row + 1) * g->half; n++)
                if (cd_square_col(r, n) == col)
                    sq = n;
        }
    }
    if (end)
        *end = p;
    return sq;
}

/* ------------------------------------------------------------------ FEN */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

cd_result cd_position_from_fen(cd_position *out, const cd_rules *rules, const char *fen, char *err,
                               size_t errlen)
{
    if (!out || !rules || !fen) {
        set_err(err, errlen, "FEN: missing argument");
        return CD_ERR_ARG;
    }
    const cd_geom *g = cd_geom_of(rules);
    const char *p = skip_ws(fen);
    if (*p == '"')
        p = skip_ws(p + 1);
    int side;
    char c = (char)toupper((unsigned char)*p);
    if (c == 'W')
        side = CD_WHITE;
    else if (c == 'B')
        side = CD_BLACK;
    else {
        set_err(err, errlen, "FEN: expected side to move 'W' or 'B' at column %d",
                (int)(p - fen) + 1);
        return CD_ERR_FEN;
    }
    cd_position pos;
    cd_position_empty(&pos, rules, side);
    p = skip_ws(p + 1);
    int seen[2] = {0, 0};
    while (*p == ':') {
        p = skip_ws(p + 1);
        char f = (char)toupper((unsigned char)*p);
        if (f == 'H' || f == 'F') { /* tolerated PDN counters: :H0:F1 */
            p++;
            while (isdigit((unsigned char)*p))
                p++;
            p = skip_ws(p);
            continue;
        }
        int colour;
        if (f == 'W')
            colour = CD_WHITE;
        else if (f == 'B')
            colour = CD_BLACK;
        else {
            set_err(err, errlen, "FEN: expected a 'W' or 'B' field at column %d",
                    (int)(p - fen) + 1);
            return CD_ERR_FEN;
        }
        if (seen[colour]) {
            set_err(err, errlen, "FEN: second %s field at column %d",
                    colour == CD_WHITE ? "white" : "black", (int)(p - fen) + 1);
            return CD_ERR_FEN;
        }
        seen[colour] = 1;
        p = skip_ws(p + 1);
        while (*p && *p != ':' && *p != '"' && *p != '.') {
            int king = 0;
            /* 'K' is the king prefix; so is 'k', except before a digit on a board that has a
             * k-file (12x12), where "k5" is the algebraic square (a king there is "Kk5"). */
            if (*p == 'K' || (*p == 'k' && !(g->width > 10 && isdigit((unsigned char)p[1])))) {
                king = 1;
                p = skip_ws(p + 1);
            }
            const char *at = p, *e;
            int a = cd_square_parse(rules, p, &e);
            if (e == p) {
                set_err(err, errlen, "FEN: expected a square at column %d", (int)(p - fen) + 1);
                return CD_ERR_FEN;
            }
            if (!a) {
                set_err(err, errlen, "FEN: square '%.*s' at column %d is not on the board (1-%d)",
                        (int)(e - p), p, (int)(p - fen) + 1, g->squares);
                return CD_ERR_FEN;
            }
            p = skip_ws(e);
            int b = a;
            if (*p == '-') {
                p = skip_ws(p + 1);
                b = cd_square_parse(rules, p, &e);
                if (e == p || !b) {
                    set_err(err, errlen, "FEN: bad range end at column %d", (int)(p - fen) + 1);
                    return CD_ERR_FEN;
                }
                if (b < a) {
                    set_err(err, errlen, "FEN: empty range %d-%d at column %d", a, b,
                            (int)(at - fen) + 1);
                    return CD_ERR_FEN;
                }
                p = skip_ws(e);
            }
            for (int sq = a; sq <= b; sq++) {
                if (cd_position_piece(&pos, sq) != CD_EMPTY) {
                    set_err(err, errlen, "FEN: square %d given twice (column %d)", sq,
                            (int)(at - fen) + 1);
                    return CD_ERR_FEN;
                }
                cd_position_set(&pos, sq,
                                colour == CD_WHITE ? (king ? CD_WHITE_KING : CD_WHITE_MAN)
                                                   : (king ? CD_BLACK_KING : CD_BLACK_MAN));
            }
            if (*p == ',')
                p = skip_ws(p + 1);
            else if (*p && *p != ':' && *p != '"' && *p != '.') {
                set_err(err, errlen, "FEN: unexpected '%c' at column %d", *p, (int)(p - fen) + 1);
                return CD_ERR_FEN;
            }
        }
    }
    if (*p == '.')
        p++;
    if (*p == '"')
        p++;
    p = skip_ws(p);
    if (*p) {
        set_err(err, errlen, "FEN: unexpected '%c' at column %d", *p, (int)(p - fen) + 1);
        return CD_ERR_FEN;
    }
    cd_result res = cd_position_validate(&pos, err, errlen);
    if (res != CD_OK)
        return res;
    *out = pos;
    return CD_OK;
}

static void put_square(sbuf *b, const cd_rules *r, int sq, int algebraic)
{
    char tmp[16];
    cd_square_to_text(r, sq, algebraic, tmp, sizeof tmp);
    sb_puts(b, tmp);
}

size_t cd_position_to_fen(const cd_position *pos, int algebraic, char *buf, size_t len)
{
    sbuf b = {buf, len, 0};
    const cd_rules *r = pos->rules;
    int n = cd_geom_of(r)->squares;
    sb_putc(&b, pos->side == CD_WHITE ? 'W' : 'B');
    for (int c = 0; c < 2; c++) {
        int man = c == 0 ? CD_WHITE_MAN : CD_BLACK_MAN,
            king = c == 0 ? CD_WHITE_KING : CD_BLACK_KING;
        sb_puts(&b, c == 0 ? ":W" : ":B");
        int first = 1;
        for (int sq = 1; sq <= n; sq++) {
            int pc = cd_position_piece(pos, sq);
            if (pc != man && pc != king)
                continue;
            if (!first)
                sb_putc(&b, ',');
            first = 0;
            if (pc == king) {
                sb_putc(&b, 'K');
                put_square(&b, r, sq, algebraic);
                continue;
            }
            int end = sq;
            while (end < n && cd_position_piece(pos, end + 1) == man)
                end++;
            put_square(&b, r, sq, algebraic);
            if (!algebraic && end >= sq + 2) {
                sb_putc(&b, '-');
                put_square(&b, r, end, 0);
                sq = end;
            }
        }
    }
    return sb_end(&b);
}

/* ------------------------------------------------------------------ Hub and DXP strings */

static cd_result from_chars(cd_position *out, const cd_rules *rules, const char *s,
                            const char *sides, const char *pieces, const char *what, char *err,
                            size_t errlen)
{
    int n = cd_geom_of(rules)->squares;
    if (!s || !rules) {
        set_err(err, errlen, "%s: missing argument", what);
        return CD_ERR_ARG;
    }
    size_t len = strlen(s);
    while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
        len--;
    if (len != (size_t)n + 1) {
        set_err(err, errlen, "%s: expected %d characters (side + %d squares), got %zu", what, n + 1,
                n, len);
        return CD_ERR_FEN;
    }
    int side;
    if (s[0] == sides[0])
        side = CD_WHITE;
    else if (s[0] == sides[1])
        side = CD_BLACK;
    else {
        set_err(err, errlen, "%s: side to move must be '%c' or '%c' at column 1", what, sides[0],
                sides[1]);
        return CD_ERR_FEN;
    }
    cd_position pos;
    cd_position_empty(&pos, rules, side);
    static const int codes[5] = {CD_WHITE_MAN, CD_BLACK_MAN, CD_WHITE_KING, CD_BLACK_KING,
                                 CD_EMPTY};
    for (int i = 1; i <= n; i++) {
        const char *c = strchr(pieces, s[i]);
        if (!c || !s[i]) {
            set_err(err, errlen, "%s: bad square character '%c' at column %d", what, s[i], i + 1);
            return CD_ERR_FEN;
        }
        cd_position_set(&pos, i, codes[c - pieces]);
    }
    cd_result res = cd_position_validate(&pos, err, errlen);
    if (res == CD_OK)
        *out = pos;
    return res;
}

static size_t to_chars(const cd_position *pos, const char *sides, const char *pieces, char *buf,
                       size_t len)
{
    sbuf b = {buf, len, 0};
    sb_putc(&b, sides[pos->side]);
    int n = cd_geom_of(pos->rules)->squares;
    static const int idx[5] = {4, 0, 1, 2, 3}; /* piece code -> position in `pieces` */
    for (int sq = 1; sq <= n; sq++)
        sb_putc(&b, pieces[idx[cd_position_piece(pos, sq)]]);
    return sb_end(&b);
}

cd_result cd_position_from_hub(cd_position *pos, const cd_rules *rules, const char *s, char *err,
                               size_t errlen)
{
    return from_chars(pos, rules, s, "WB", "wbWBe", "Hub position", err, errlen);
}

size_t cd_position_to_hub(const cd_position *pos, char *buf, size_t len)
{
    return to_chars(pos, "WB", "wbWBe", buf, len);
}

cd_result cd_position_from_dxp(cd_position *pos, const cd_rules *rules, const char *s, char *err,
                               size_t errlen)
{
    return from_chars(pos, rules, s, "WZ", "wzWZe", "DXP position", err, errlen);
}

size_t cd_position_to_dxp(const cd_position *pos, char *buf, size_t len)
{
    return to_chars(pos, "WZ", "wzWZe", buf, len);
}

/* ------------------------------------------------------------------ moves */

int cd_move_from(const cd_position *pos, const cd_move *m)
{
    return cd_bit_to_sq(pos->rules, m->from);
}
int cd_move_to(const cd_position *pos, const cd_move *m) { return cd_bit_to_sq(pos->rules, m->to); }

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int cd_move_captures(const cd_position *pos, const cd_move *m, int *squares, int max)
{
    int n = 0;
    uint64_t cap[2] = {m->captured, m->captured_hi};
    for (int w = 0; w < 2; w++)
        for (uint64_t x = cap[w]; x; x &= x - 1) {
            if (n < max)
                squares[n] = cd_bit_to_sq(pos->rules, w * 64 + __builtin_ctzll(x));
            n++;
        }
    qsort(squares, (size_t)(n < max ? n : max), sizeof *squares, cmp_int);
    return n;
}

int cd_move_path(const cd_position *pos, const cd_move *m, int *squares, int max)
{
    if (!m->ncaptured) {
        if (max > 0)
            squares[0] = cd_move_to(pos, m);
        return 1;
    }
    cd_movelist list;
    int path[CD_MAX_PATH], len = 0;
    cd_generate_ex(pos, &list, m, path, &len);
    for (int i = 0; i < len && i < max; i++)
        squares[i] = cd_bit_to_sq(pos->rules, path[i]);
    return len;
}

size_t cd_move_to_hub(const cd_position *pos, const cd_move *m, char *buf, size_t len)
{
    sbuf b = {buf, len, 0};
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%d", cd_move_from(pos, m));
    sb_puts(&b, tmp);
    snprintf(tmp, sizeof tmp, "%c%d", m->ncaptured ? 'x' : '-', cd_move_to(pos, m));
    sb_puts(&b, tmp);
    int caps[128];
    int n = cd_move_captures(pos, m, caps, 128);
    for (int i = 0; i < n && i < 128; i++) {
        snprintf(tmp, sizeof tmp, "x%d", caps[i]);
        sb_puts(&b, tmp);
    }
    return sb_end(&b);
}

size_t cd_move_to_text(const cd_position *pos, const cd_move *m, int algebraic, char *buf,
                       size_t len)
{
    const cd_rules *r = pos->rules;
    sbuf b = {buf, len, 0};
    char sep = m->ncaptured ? r->capture_sep : '-';
    put_square(&b, r, cd_move_from(pos, m), algebraic);
    int ambiguous = 0;
    if (m->ncaptured) {
        cd_movelist list;
        cd_generate(pos, &list);
        for (int i = 0; i < list.count; i++)
            if (list.moves[i].from == m->from && list.moves[i].to == m->to &&
                !cd_move_equal(&list.moves[i], m))
                ambiguous = 1;
    }
    if (ambiguous) {
        int path[CD_MAX_PATH];
        int n = cd_move_path(pos, m, path, CD_MAX_PATH);
        for (int i = 0; i < n; i++) {
            sb_putc(&b, sep);
            put_square(&b, r, path[i], algebraic);
        }
    } else {
        sb_putc(&b, sep);
        put_square(&b, r, cd_move_to(pos, m), algebraic);
    }
    return sb_end(&b);
}

/*
 * How move m matches the squares sq[0..n-1] (n >= 2) of the text: 2 when they are its full
 * landing path (from, every landing square), 1 when they match otherwise (short form "from-to"
 * of a longer capture, Hub form with the captured squares), 0 not at all. An exact path wins over
 * a looser reading: "18x25" names the one-jump capture even when a longer one also goes 18 to 25.
 */
static int move_matches(const cd_position *pos, const cd_move *m, const int *sq, int n)
{
    if (cd_move_from(pos, m) != sq[0])
        return 0;
    int path[CD_MAX_PATH];
    int len = cd_move_path(pos, m, path, CD_MAX_PATH);
    if (len == n - 1) {
        int ok = 1;
        for (int i = 0; i < len; i++)
            ok &= path[i] == sq[i + 1];
        if (ok)
            return 2;
    }
    if (n == 2)
        return cd_move_to(pos, m) == sq[1];
    /* Hub form: from, to, captured squares in any order */
    if (!m->ncaptured || cd_move_to(pos, m) != sq[1] || m->ncaptured != n - 2)
        return 0;
    int caps[128];
    int nc = cd_move_captures(pos, m, caps, 128);
    for (int i = 2; i < n; i++) {
        int found = 0;
        for (int j = 0; j < nc; j++)
            found |= caps[j] == sq[i];
        if (!found)
            return 0;
    }
    return 1;
}

/* The squares of move text into sq[0..*n) (n >= 2); CD_ERR_MOVE with err set when malformed. A
 * separator must be followed by a square ("32-27x" is refused). */
static cd_result parse_squares(const cd_rules *r, const char *text, int *sq, int *n, char *err,
                               size_t errlen)
{
    const char *p = skip_ws(text);
    *n = 0;
    while (*p) {
        const char *e;
        int s = cd_square_parse(r, p, &e);
        if (e == p) {
            set_err(err, errlen, "move '%s': expected a square at column %d", text,
                    (int)(p - text) + 1);
            return CD_ERR_MOVE;
        }
        if (!s) {
            set_err(err, errlen, "move '%s': '%.*s' at column %d is not a square of this board",
                    text, (int)(e - p), p, (int)(p - text) + 1);
            return CD_ERR_MOVE;
        }
        if (*n == 64) {
            set_err(err, errlen, "move '%s': too many squares", text);
            return CD_ERR_MOVE;
        }
        sq[(*n)++] = s;
        p = e;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':') {
            p = skip_ws(p + 1);
            if (!*p) {
                set_err(err, errlen, "move '%s': '%c' at column %d is not followed by a square",
                        text, e[0], (int)(e - text) + 1);
                return CD_ERR_MOVE;
            }
        } else if (*p && !isspace((unsigned char)*p)) {
            set_err(err, errlen, "move '%s': unexpected '%c' at column %d", text, *p,
                    (int)(p - text) + 1);
            return CD_ERR_MOVE;
        }
        p = skip_ws(p);
    }
    if (*n < 2) {
        set_err(err, errlen, "move '%s': need at least two squares (from and to)", text);
        return CD_ERR_MOVE;
    }
    return CD_OK;
}

/* How well the legal moves of list match sq[0..n): the best level (see move_matches), 0 if none. */
static int best_match(const cd_position *pos, const cd_movelist *list, const int *sq, int n)
{
    int best = 0;
    for (int i = 0; i < list->count; i++) {
        int how = move_matches(pos, &list->moves[i], sq, n);
        best = how > best ? how : best;
    }
    return best;
}

int cd_move_candidates(const cd_position *pos, const char *text, cd_move *out, int max)
{
    if (!pos || !text)
        return -1;
    int sq[64], n = 0;
    if (parse_squares(pos->rules, text, sq, &n, NULL, 0) != CD_OK)
        return -1;
    cd_movelist list;
    cd_generate(pos, &list);
    int best = best_match(pos, &list, sq, n), count = 0;
    for (int i = 0; best && i < list.count; i++)
        if (move_matches(pos, &list.moves[i], sq, n) == best) {
            if (out && count < max)
                out[count] = list.moves[i];
            count++;
        }
    return count;
}

cd_result cd_move_parse(const cd_position *pos, const char *text, cd_move *out, char *err,
                        size_t errlen)
{
    if (!pos || !text || !out) {
        set_err(err, errlen, "move: missing argument");
        return CD_ERR_ARG;
    }
    int sq[64], n = 0;
    cd_result pr = parse_squares(pos->rules, text, sq, &n, err, errlen);
    if (pr != CD_OK)
        return pr;
    cd_movelist *list = malloc(sizeof *list);
    if (!list) {
        set_err(err, errlen, "move: out of memory");
        return CD_ERR_OVERFLOW;
    }
    cd_generate(pos, list);
    int found = -1, count = 0, best = 1;
    for (int i = 0; i < list->count; i++) {
        int how = move_matches(pos, &list->moves[i], sq, n);
        if (how > best) {
            best = how;
            found = -1;
            count = 0;
        }
        if (how == best) {
            if (found < 0)
                found = i;
            count++;
        }
    }
    cd_result res = CD_OK;
    if (count == 1) {
        *out = list->moves[found];
    } else if (count > 1) {
        sbuf b = {err, errlen, 0};
        char tmp[256];
        snprintf(tmp, sizeof tmp, "move '%s' is ambiguous; candidates:", text);
        sb_puts(&b, tmp);
        for (int i = 0; i < list->count; i++)
            if (move_matches(pos, &list->moves[i], sq, n) == best) {
                cd_move_to_text(pos, &list->moves[i], -1, tmp, sizeof tmp);
                sb_putc(&b, ' ');
                sb_puts(&b, tmp);
            }
        if (err && errlen)
            sb_end(&b);
        res = CD_ERR_AMBIGUOUS;
    } else {
        sbuf b = {err, errlen, 0};
        char tmp[256];
        /* every legal move captures: say that this is why the move is refused */
        int forced = list->count > 0;
        for (int i = 0; i < list->count; i++)
            forced &= list->moves[i].ncaptured > 0;
        snprintf(tmp, sizeof tmp, "move '%s' is not legal here%s; legal moves:", text,
                 forced ? " (capturing is compulsory)" : "");
        sb_puts(&b, tmp);
        for (int i = 0; i < list->count && i < 40; i++) {
            cd_move_to_text(pos, &list->moves[i], -1, tmp, sizeof tmp);
            sb_putc(&b, ' ');
            sb_puts(&b, tmp);
        }
        if (list->count > 40)
            sb_puts(&b, " ...");
        if (err && errlen)
            sb_end(&b);
        res = CD_ERR_ILLEGAL;
    }
    free(list);
    return res;
}

int cd_king_zone(const cd_position *pos, int sq, int *squares, int max)
{
    int piece = cd_position_piece(pos, sq);
    if (piece != CD_WHITE_KING && piece != CD_BLACK_KING)
        return 0;
    /* the king alone among its side's kings (the others block as men), its side to move */
    cd_position p = *pos;
    int colour = piece == CD_WHITE_KING ? CD_WHITE : CD_BLACK;
    int n = cd_geom_of(pos->rules)->squares;
    for (int s = 1; s <= n; s++)
        if (s != sq && cd_position_piece(pos, s) == piece)
            cd_position_set(&p, s, colour == CD_WHITE ? CD_WHITE_MAN : CD_BLACK_MAN);
    p.side = colour;
    uint64_t z[2];
    cd_king_zone_bits(&p, z);
    int k = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t x = z[w]; x; x &= x - 1) {
            if (k < max)
                squares[k] = cd_bit_to_sq(pos->rules, w * 64 + __builtin_ctzll(x));
            k++;
        }
    qsort(squares, (size_t)(k < max ? k : max), sizeof *squares, cmp_int);
    return k;
}
