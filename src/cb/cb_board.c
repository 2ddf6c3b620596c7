/*
 * cb_board.c -- CheckerBoard's boards, moves and numbers <-> the library's (see cb_board.h).
 */
#include "cb_board.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout cb_api.h states: CheckerBoard reads and writes these structures in place. */
_Static_assert(sizeof(struct cb_coor) == 8, "struct cb_coor is two ints");
_Static_assert(sizeof(struct cb_move) == 268, "struct cb_move is 67 ints");

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static const struct {
    int gt;
    const char *name;
} game_types[] = {{CB_GT_ENGLISH, "english"}, {CB_GT_ITALIAN, "italian"},
                  {CB_GT_SPANISH, "spanish"}, {CB_GT_RUSSIAN, "russian"},
                  {CB_GT_BRAZILIAN, "brazilian"}, {CB_GT_CZECH, "czech"}};
#define NTYPES (int)(sizeof game_types / sizeof game_types[0])

const cd_rules *cbb_rules(int gametype)
{
    for (int i = 0; i < NTYPES; i++)
        if (game_types[i].gt == gametype)
            return cd_rules_find(game_types[i].name);
    return NULL;
}

int cbb_gametype(const cd_rules *r)
{
    for (int i = 0; r && i < NTYPES; i++)
        if (!strcmp(r->name, game_types[i].name))
            return game_types[i].gt;
    return 0;
}

void cbb_xy(const cd_rules *r, int sq, int *x, int *y)
{
    int col = cd_square_col(r, sq);
    *y = cd_square_row(r, sq);
    *x = (r->flags & CD_RULE_MIRRORED) ? col : 7 - col;
}

int cbb_square(const cd_rules *r, int x, int y)
{
    if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2)
        return 0;
    for (int sq = 1; sq <= 32; sq++) {
        int sx = 0, sy = 0;
        cbb_xy(r, sq, &sx, &sy);
        if (sx == x && sy == y)
            return sq;
    }
    return 0;
}

int cbb_xy_number(int gt, int x, int y)
{
    if (x < 0 || x > 7 || y < 0 || y > 7 || (x + y) % 2)
        return 0;
    switch (gt) {
    case CB_GT_ITALIAN: return 1 + 4 * y + x / 2;
    case CB_GT_SPANISH: return 1 + 4 * (7 - y) + (7 - x) / 2;
    case CB_GT_CZECH: return 32 - 4 * y - x / 2;
    default: return 4 * (y + 1) - x / 2;
    }
}

int cbb_number_xy(int gt, int n, int *x, int *y)
{
    if (n < 1 || n > 32)
        return 0;
    /* the inverse of cbb_xy_number, by search: 32 squares */
    for (int yy = 0; yy < 8; yy++)
        for (int xx = yy % 2; xx < 8; xx += 2)
            if (cbb_xy_number(gt, xx, yy) == n) {
                *x = xx;
                *y = yy;
                return 1;
            }
    return 0;
}

static int cb_code(int piece)
{
    switch (piece) {
    case CD_WHITE_MAN: return CB_WHITE | CB_MAN;
    case CD_BLACK_MAN: return CB_BLACK | CB_MAN;
    case CD_WHITE_KING: return CB_WHITE | CB_KING;
    case CD_BLACK_KING: return CB_BLACK | CB_KING;
    default: return CB_FREE;
    }
}

static int cd_code(int cell)
{
    switch (cell) {
    case CB_WHITE | CB_MAN: return CD_WHITE_MAN;
    case CB_BLACK | CB_MAN: return CD_BLACK_MAN;
    case CB_WHITE | CB_KING: return CD_WHITE_KING;
    case CB_BLACK | CB_KING: return CD_BLACK_KING;
    case CB_FREE: return CD_EMPTY;
    default: return -1;
    }
}

cd_result cbb_to_position(const cd_rules *r, const int board[8][8], int color, cd_position *pos,
                          char *err, size_t errlen)
{
    if (color != CB_WHITE && color != CB_BLACK) {
        set_err(err, errlen, "colour %d is neither CB_WHITE (1) nor CB_BLACK (2)", color);
        return CD_ERR_ARG;
    }
    cd_position p;
    cd_position_empty(&p, r, color == CB_WHITE ? CD_WHITE : CD_BLACK);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int cell = board[x][y], code = cd_code(cell);
            if (code < 0) {
                set_err(err, errlen, "board[%d][%d] holds %d, not a piece code (0, 5, 6, 9, 10)",
                        x, y, cell);
                return CD_ERR_POSITION;
            }
            int sq = cbb_square(r, x, y);
            if (!sq) {
                if (code != CD_EMPTY) {
                    set_err(err, errlen, "board[%d][%d] holds %d on a square that is not played on",
                            x, y, cell);
                    return CD_ERR_POSITION;
                }
                continue;
            }
            if (code != CD_EMPTY)
                cd_position_set(&p, sq, code);
        }
    char why[200];
    if (cd_position_validate(&p, why, sizeof why) != CD_OK) {
        set_err(err, errlen, "impossible position: %s", why);
        return CD_ERR_POSITION;
    }
    *pos = p;
    return CD_OK;
}

void cbb_from_position(const cd_position *pos, int board[8][8])
{
    memset(board, 0, 64 * sizeof(int));
    for (int sq = 1; sq <= 32; sq++) {
        int x = 0, y = 0;
        cbb_xy(pos->rules, sq, &x, &y);
        board[x][y] = cb_code(cd_position_piece(pos, sq));
    }
}

int cbb_same(const cd_position *a, const cd_position *b)
{
    if (a->side != b->side)
        return 0;
    for (int sq = 1; sq <= 32; sq++)
        if (cd_position_piece(a, sq) != cd_position_piece(b, sq))
            return 0;
    return 1;
}

void cbb_move_to_cb(const cd_position *pos, const cd_move *m, struct cb_move *out)
{
    const cd_rules *r = pos->rules;
    memset(out, 0, sizeof *out);
    int from = cd_move_from(pos, m), to = cd_move_to(pos, m);
    out->oldpiece = cb_code(cd_position_piece(pos, from));
    out->newpiece = out->oldpiece;
    if (m->flags & CD_MOVE_PROMOTES)
        out->newpiece = (out->oldpiece & (CB_WHITE | CB_BLACK)) | CB_KING;
    cbb_xy(r, from, &out->from.x, &out->from.y);
    cbb_xy(r, to, &out->to.x, &out->to.y);
    int caps[32], path[32];
    int nc = cd_move_captures(pos, m, caps, 32);
    int np = nc ? cd_move_path(pos, m, path, 32) : 0;
    if (nc > 12)
        nc = 12; /* 12 is the most an 8x8 capture can take */
    out->jumps = nc;
    for (int i = 0; i < nc; i++) {
        cbb_xy(r, caps[i], &out->del[i].x, &out->del[i].y);
        out->delpiece[i] = cb_code(cd_position_piece(pos, caps[i]));
    }
    for (int i = 0; i < np && i + 1 < 12; i++)
        cbb_xy(r, path[i], &out->path[i + 1].x, &out->path[i + 1].y);
}

int cbb_find_by_board(const cd_position *pos, const int after[8][8], cd_move *out, char *err,
                      size_t errlen)
{
    cd_position target;
    char why[256];
    if (cbb_to_position(pos->rules, after, pos->side == CD_WHITE ? CB_BLACK : CB_WHITE, &target,
                        why, sizeof why) != CD_OK) {
        set_err(err, errlen, "board after the move: %s", why);
        return 0;
    }
    cd_movelist ml;
    cd_generate(pos, &ml);
    for (int i = 0; i < ml.count; i++) {
        cd_position next;
        cd_play(pos, &ml.moves[i], &next);
        if (cbb_same(&next, &target)) {
            *out = ml.moves[i];
            return 1;
        }
    }
    int changed = 0;
    for (int sq = 1; sq <= 32; sq++)
        changed += cd_position_piece(pos, sq) != cd_position_piece(&target, sq);
    set_err(err, errlen, "the board it returned (%d squares changed) is the result of none of the "
                         "%d legal moves",
            changed, ml.count);
    return 0;
}

/* The library's squares of the coordinates c, 0 if not a playing square. */
static int coor_square(const cd_rules *r, struct cb_coor c)
{
    return cbb_square(r, c.x, c.y);
}

int cbb_find_by_cb(const cd_position *pos, const struct cb_move *cm, cd_move *out, char *err,
                   size_t errlen)
{
    const cd_rules *r = pos->rules;
    int from = coor_square(r, cm->from), to = coor_square(r, cm->to);
    if (!from || !to) {
        set_err(err, errlen, "CBmove from (%d,%d) to (%d,%d): not a playing square", cm->from.x,
                cm->from.y, cm->to.x, cm->to.y);
        return 0;
    }
    if (cm->jumps < 0 || cm->jumps > 12) {
        set_err(err, errlen, "CBmove jumps %d (0 to 12)", cm->jumps);
        return 0;
    }
    int want[12];
    for (int i = 0; i < cm->jumps; i++)
        if (!(want[i] = coor_square(r, cm->del[i]))) {
            set_err(err, errlen, "CBmove del[%d] (%d,%d): not a playing square", i, cm->del[i].x,
                    cm->del[i].y);
            return 0;
        }
    cd_movelist ml;
    cd_generate(pos, &ml);
    int found = 0;
    for (int i = 0; i < ml.count; i++) {
        const cd_move *m = &ml.moves[i];
        if (cd_move_from(pos, m) != from || cd_move_to(pos, m) != to)
            continue;
        int caps[32], nc = cd_move_captures(pos, m, caps, 32);
        if (nc != cm->jumps)
            continue;
        int same = 1;
        for (int j = 0; j < nc && same; j++) {
            int in = 0;
            for (int k = 0; k < cm->jumps; k++)
                in |= want[k] == caps[j];
            same = in;
        }
        if (!same)
            continue;
        if (found++)
            continue;
        *out = *m;
    }
    if (found == 1)
        return 1;
    char f[8], t[8];
    cd_square_to_text(r, from, 0, f, sizeof f);
    cd_square_to_text(r, to, 0, t, sizeof t);
    set_err(err, errlen, "CBmove %s%c%s with %d captures: %s", f, cm->jumps ? 'x' : '-', t,
            cm->jumps, found ? "more than one legal move" : "no legal move");
    return found ? -1 : 0;
}

/* ------------------------------------------------------------------ FEN, moves, history */

cd_result cbb_parse_fen(int gt, const char *s, cd_position *pos, const char **end, char *err,
                        size_t errlen)
{
    const cd_rules *r = cbb_rules(gt);
    if (!r) {
        set_err(err, errlen, "game type %d is not played", gt);
        return CD_ERR_VARIANT;
    }
    int board[8][8];
    memset(board, 0, sizeof board);
    while (*s == ' ')
        s++;
    int color = *s == 'W' ? CB_WHITE : *s == 'B' ? CB_BLACK : 0;
    if (!color || s[1] != ':') {
        set_err(err, errlen, "FEN '%.40s' does not start with W: or B:", s);
        return CD_ERR_FEN;
    }
    s += 2;
    for (int part = 0; part < 2; part++) {
        int who = *s == 'W' ? CB_WHITE : *s == 'B' ? CB_BLACK : 0;
        if (!who) {
            set_err(err, errlen, "FEN: W or B expected at '%.20s'", s);
            return CD_ERR_FEN;
        }
        s++;
        while (*s && *s != ':' && *s != ' ') {
            int king = *s == 'K';
            s += king;
            char *e;
            long a = strtol(s, &e, 10), b = a;
            if (e == s) {
                set_err(err, errlen, "FEN: a square number expected at '%.20s'", s);
                return CD_ERR_FEN;
            }
            s = e;
            if (*s == '-') {
                b = strtol(s + 1, &e, 10);
                if (e == s + 1) {
                    set_err(err, errlen, "FEN: a range's end expected at '%.20s'", s);
                    return CD_ERR_FEN;
                }
                s = e;
            }
            for (long n = a; n <= b; n++) {
                int x = 0, y = 0;
                if (!cbb_number_xy(gt, (int)n, &x, &y)) {
                    set_err(err, errlen, "FEN: square %ld is not 1 to 32", n);
                    return CD_ERR_FEN;
                }
                board[x][y] = who | (king ? CB_KING : CB_MAN);
            }
            if (*s == ',')
                s++;
        }
        if (part == 0) {
            if (*s != ':') {
                set_err(err, errlen, "FEN: the second side is missing");
                return CD_ERR_FEN;
            }
            s++;
        }
    }
    if (end)
        *end = s;
    return cbb_to_position(r, (const int(*)[8])board, color, pos, err, errlen);
}

size_t cbb_write_fen(int gt, const cd_position *pos, char *buf, size_t len)
{
    size_t used = 0;
    char tmp[256];
    used += (size_t)snprintf(tmp, sizeof tmp, "%c", pos->side == CD_WHITE ? 'W' : 'B');
    for (int c = 0; c < 2; c++) {
        int colour = c ? CD_BLACK : CD_WHITE;
        used += (size_t)snprintf(tmp + used, sizeof tmp - used, ":%c", c ? 'B' : 'W');
        int first = 1;
        for (int n = 1; n <= 32; n++) {
            int x = 0, y = 0;
            cbb_number_xy(gt, n, &x, &y);
            int piece = cd_position_piece(pos, cbb_square(pos->rules, x, y));
            int mine = colour == CD_WHITE ? (piece == CD_WHITE_MAN || piece == CD_WHITE_KING)
                                          : (piece == CD_BLACK_MAN || piece == CD_BLACK_KING);
            if (!mine)
                continue;
            int king = piece == CD_WHITE_KING || piece == CD_BLACK_KING;
            used += (size_t)snprintf(tmp + used, sizeof tmp - used, "%s%s%d", first ? "" : ",",
                                     king ? "K" : "", n);
            first = 0;
        }
    }
    return (size_t)snprintf(buf, len, "%s", tmp);
}

/* CheckerBoard's number of the library's square sq. */
static int cb_number(int gt, const cd_rules *r, int sq)
{
    int x = 0, y = 0;
    cbb_xy(r, sq, &x, &y);
    return cbb_xy_number(gt, x, y);
}

size_t cbb_write_move(int gt, const cd_position *pos, const cd_move *m, char *buf, size_t len)
{
    return (size_t)snprintf(buf, len, "%d%c%d", cb_number(gt, pos->rules, cd_move_from(pos, m)),
                            m->ncaptured ? 'x' : '-', cb_number(gt, pos->rules, cd_move_to(pos, m)));
}

size_t cbb_write_gamehist(int gt, const cd_game *g, char *buf, size_t len)
{
    int n = cd_game_ply(g), from = n;
    while (from > 0) {
        const cd_move *m = cd_game_move(g, from - 1);
        if (m->ncaptured || !(m->flags & CD_MOVE_KING))
            break;
        from--;
    }
    size_t used = cbb_write_fen(gt, cd_game_position_at(g, from), buf, len);
    for (int i = from; i < n && used < len; i++) {
        char mv[32];
        cbb_write_move(gt, cd_game_position_at(g, i), cd_game_move(g, i), mv, sizeof mv);
        used += (size_t)snprintf(buf + used, len - used, " %s", mv);
    }
    return used < len ? used : 0;
}

cd_game *cbb_read_gamehist(int gt, const char *s, char *err, size_t errlen)
{
    cd_position start;
    const char *p;
    if (cbb_parse_fen(gt, s, &start, &p, err, errlen) != CD_OK)
        return NULL;
    cd_game *g = cd_game_new(start.rules, &start);
    if (!g) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            return g;
        char *e;
        long a = strtol(p, &e, 10);
        if (e == p || (*e != '-' && *e != 'x')) {
            set_err(err, errlen, "gamehist: a move expected at '%.20s'", p);
            break;
        }
        const char *q = e + 1;
        long b = strtol(q, &e, 10);
        if (e == q) {
            set_err(err, errlen, "gamehist: a move's destination expected at '%.20s'", q);
            break;
        }
        p = e;
        const cd_position *pos = cd_game_position(g);
        cd_movelist ml;
        cd_generate(pos, &ml);
        int found = 0, pick = 0;
        for (int i = 0; i < ml.count; i++)
            if (cb_number(gt, pos->rules, cd_move_from(pos, &ml.moves[i])) == a &&
                cb_number(gt, pos->rules, cd_move_to(pos, &ml.moves[i])) == b) {
                found++;
                pick = i;
            }
        if (found != 1) {
            set_err(err, errlen, "gamehist: move %ld-%ld %s", a, b,
                    found ? "is ambiguous" : "is not legal");
            break;
        }
        cd_game_play(g, &ml.moves[pick]);
    }
    cd_game_free(g);
    return NULL;
}
