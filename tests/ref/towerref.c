/*
 * towerref.c -- deliberately naive reference move generator for two
 * tower-draughts games, written from rule texts only (nothing taken from the
 * library's own tower generator). Interface: towerref.h.
 *
 * ======================================================== RULE DECISIONS
 *
 * Common to both games (brief; all sources agree): a tower (column) belongs
 * to the colour of its top piece and moves as that piece; jumping an enemy
 * tower takes only its top piece, which goes to the BOTTOM of the capturing
 * tower (several captures: in the order they were made, the first one
 * highest); the rest of the jumped tower stays on its square. Capture is
 * compulsory, free choice among captures (no majority rule), the chosen
 * sequence must be completed. A side with no legal move has no moves.
 *
 * bashni (Russian stolbovye shashki):
 *  B1. Same tower twice in one move: NOT allowed. Each tower may be jumped at
 *      most once per move, and a tower already jumped stays where it is,
 *      untouched, until the move ends: its square is occupied, so it can be
 *      neither jumped again, nor passed over by a flying king, nor landed on
 *      (the Russian "Turkish strike"). The jumped top pieces are moved under
 *      the capturing tower only when the move is complete.
 *      Sources: the brief (Russian draughts rules for capture);
 *      /work/shared/sources/checkers-varieties-russian-international.txt
 *      line 211 (Russian rules: taken pieces removed only at the end of the
 *      move, each jumped only once, the Turkish strike); rules of the Russian
 *      "Bashni Draughts" app (com.kirlanik.BashniDraughts, store text at
 *      wingame.info): "the captured checkers are placed under the checker
 *      that took them after the completion of the whole move, not during the
 *      capture ... if, while capturing, it returns to the square occupied by an
 *      already beaten checker, the capture stops". ru.wikipedia "Turkish
 *      strike" (seen only as a translation on perceptiopt.com, excerpt cut
 *      short) calls the question disputed for column draughts and says one
 *      of the two varieties ("pillars" / "towers") is played with the
 *      Turkish-strike rule; the excerpt ends before saying which.
 *      Sources for the other reading, NOT followed: Ludii Bashni.lud (after
 *      Michaelsen & Pakhomov 2000): a stack may be captured again in the same
 *      turn after an intervening capture; jpneto "Bashnya" page
 *      (di.fc.ul.pt/~jpn/gv/bashnya.htm): "A piece may attack the same stack
 *      twice in the same move", pieces picked up as they are leapt.
 *      self-test: bashni "tower jumped once" and "Turkish strike" positions.
 *  B2. Men move one square diagonally forward; men capture forward and
 *      backward over an adjacent enemy tower to the empty square behind it.
 *  B3. Kings fly: quiet moves any distance over empty squares; capture: any
 *      number of empty squares, the enemy tower, then any empty square beyond
 *      (up to the next occupied square or the edge). If from some of those
 *      landing squares the capture can be continued, the king must land on one
 *      of them (Russian rule that the capture must be completed; also stated
 *      in the Ludii Bashni rules text: "an option which allows further
 *      captures must be taken if possible").
 *  B4. Promotion: a man ending a quiet move on the last row is crowned; a man
 *      reaching the last row during a capture is crowned at once and
 *      continues capturing as a king in the same move (brief; Russian rules;
 *      draughts.github.io/bashni.html; Ludii Bashni.lud). Only the TOP piece
 *      of the tower changes; pieces below keep their rank (Ludii: "Kings
 *      retain their rank when in a stack"; draughts.github.io: "only its upper
 *      piece becomes the king").
 *  B5. A man on its last row without having been crowned (it was released
 *      there when an enemy top above it was taken) stays a man: it has no
 *      forward move but may still capture backward. No source promotes a
 *      released piece; promotion needs reaching the row by a move.
 *  B6. The capturing tower's own start square is empty during its move (it
 *      may be passed over or landed on again).
 *
 * lasker (Lasca, Emanuel Lasker 1911):
 *  L1. Same column twice in one move: NOT allowed. lasca.org rules (show?6UW):
 *      "a piece may not attack the same piece twice in the course of a single
 *      move. Thus ... the black officer may only jump over the three-man
 *      column once, not three times." Same in jpneto Lasca page and in the
 *      kubpica/Laska README ("you cannot jump the same column a second time").
 *  L2. Jumped pieces are taken at once (lasca.org show?2M1: "picked up under
 *      the attacker as he leaps over it"). With one-square jumps this cannot
 *      differ from taking them at the end: landing squares keep the parity of
 *      the start square in both coordinates, jumped squares have the other
 *      parity, so no capture can ever land on or pass a jumped square.
 *  L3. Promotion during a capture ends the move. lasca.org (show?6UW):
 *      "promotion only comes at the end of a move", and the new officer may
 *      not go on capturing until the following move; kubpica/Laska README:
 *      "promotion ends a multi-capture". (A soldier on the far row has no
 *      forward capture anyway, so both readings give the same moves.) The top
 *      piece is promoted when the move ends; a soldier ending a quiet move on
 *      the far row is promoted too.
 *  L4. Soldiers move and capture one square diagonally forward only; officers
 *      one square diagonally in any direction (no flying).
 *  L5. A prisoner keeps its rank and uses it when released (lasca.org
 *      show?6UW: "If captured, an officer retains its rank"); a soldier
 *      released on the far row stays a soldier (and cannot move).
 *
 * ======================================================== REPRESENTATION
 *
 * Pos.s[row][col] is a NUL-terminated string listing one stack top first;
 * row 0 is rank 1, col 0 is file a. Playable cells: (row + col) even (a1 is
 * playable on both boards). White men move towards higher rows.
 * Capture sequences: plain depth-first search, copying the whole state at
 * every jump. Speed is not a goal.
 */
#include "towerref.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 8
#define MAXPIECES 64          /* pieces accepted in one position (all stacks together) */
#define STK (MAXPIECES + 1)   /* one stack string: can hold every piece, plus NUL */
#define MAXPATH 64            /* landing squares in one capture, start included */

typedef struct {
    const char *name;
    int n;                 /* board is n x n */
    int flying_kings;      /* kings move and capture any distance (bashni) */
    int men_capture_back;  /* men capture backward too (bashni) */
    int deferred;          /* jumped towers untouched until the move ends (bashni, B1) */
    int crown_and_go_on;   /* man crowned mid-capture continues as a king (bashni, B4);
                              0: promotion at the end of the move, capture stops (lasker, L3) */
} Rules;

static const Rules RULES[] = {
    {"bashni", 8, 1, 1, 1, 1},
    {"lasker", 7, 0, 0, 0, 0},
};

typedef struct {
    char side;                        /* 'W' or 'B' */
    char s[MAXN][MAXN][STK];
} Pos;

typedef struct {
    char text[TREF_MOVE_LEN];
    Pos after;
} Move;

typedef struct {
    Move *v;
    int n, cap;
    int failed;                       /* out of memory or over-long move text */
} MoveList;

static const int DR[4] = {1, 1, -1, -1};
static const int DC[4] = {1, -1, 1, -1};

/* ------------------------------------------------------------ small helpers */

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const Rules *find_rules(const char *game)
{
    if (!game)
        return NULL;
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (strcmp(game, RULES[i].name) == 0)
            return &RULES[i];
    return NULL;
}

static int playable(const Rules *R, int r, int c)
{
    return r >= 0 && r < R->n && c >= 0 && c < R->n && (r + c) % 2 == 0;
}

static char colour_of(char piece) /* 'w', 'b' or 0 */
{
    if (piece == 'w' || piece == 'W')
        return 'w';
    if (piece == 'b' || piece == 'B')
        return 'b';
    return 0;
}

static int is_king(char piece) { return piece == 'W' || piece == 'B'; }

static char top_colour(const Pos *p, int r, int c) { return colour_of(p->s[r][c][0]); }

static int empty_at(const Pos *p, int r, int c) { return p->s[r][c][0] == '\0'; }

static int forward(char colour) { return colour == 'w' ? 1 : -1; }

static int last_row(const Rules *R, char colour) { return colour == 'w' ? R->n - 1 : 0; }

static char enemy_of(char colour) { return colour == 'w' ? 'b' : 'w'; }

static void square_name(int r, int c, char *buf) /* 3 bytes */
{
    buf[0] = (char)('a' + c);
    buf[1] = (char)('1' + r);
    buf[2] = '\0';
}

/* take the top piece off a stack and return it */
static char pop_top(char *stack)
{
    char t = stack[0];
    memmove(stack, stack + 1, strlen(stack)); /* moves the NUL too */
    return t;
}

/* put a piece at the bottom of a stack */
static void add_bottom(char *stack, char piece)
{
    size_t len = strlen(stack);
    if (len + 1 < STK) { /* always true: a stack never holds more than MAXPIECES */
        stack[len] = piece;
        stack[len + 1] = '\0';
    }
}

/* ------------------------------------------------------------ move lists */

static void ml_free(MoveList *ml)
{
    free(ml->v);
    ml->v = NULL;
    ml->n = ml->cap = 0;
}

static void ml_add(MoveList *ml, const char *text, const Pos *after)
{
    if (ml->failed)
        return;
    if (strlen(text) >= TREF_MOVE_LEN) {
        ml->failed = 1;
        return;
    }
    for (int i = 0; i < ml->n; i++) /* one move per distinct landing path */
        if (strcmp(ml->v[i].text, text) == 0)
            return;
    if (ml->n == ml->cap) {
        int ncap = ml->cap ? 2 * ml->cap : 16;
        Move *nv = realloc(ml->v, (size_t)ncap * sizeof *nv);
        if (!nv) {
            ml->failed = 1;
            return;
        }
        ml->v = nv;
        ml->cap = ncap;
    }
    strcpy(ml->v[ml->n].text, text);
    ml->v[ml->n].after = *after;
    ml->n++;
}

static int cmp_move(const void *a, const void *b)
{
    return strcmp(((const Move *)a)->text, ((const Move *)b)->text);
}

/* ------------------------------------------------------------ position text */

static int parse_pos(const Rules *R, const char *text, Pos *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (!text) {
        seterr(err, errlen, "position is NULL");
        return -1;
    }
    const char *s = text;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' ||
                       s[len - 1] == '\r'))
        len--;
    if (len < 2 || (s[0] != 'W' && s[0] != 'B') || s[1] != ':') {
        seterr(err, errlen, "position must start with \"W:\" or \"B:\"");
        return -1;
    }
    p->side = s[0];
    size_t i = 2;
    int total = 0;
    if (i == len)
        return 0; /* no pieces at all */
    for (;;) {
        /* square */
        if (i >= len || s[i] < 'a' || s[i] >= 'a' + R->n) {
            seterr(err, errlen, "bad file at offset %zu", i);
            return -1;
        }
        int c = s[i] - 'a';
        i++;
        if (i >= len || !isdigit((unsigned char)s[i])) {
            seterr(err, errlen, "bad rank at offset %zu", i);
            return -1;
        }
        int rank = 0;
        while (i < len && isdigit((unsigned char)s[i]) && rank <= 99)
            rank = rank * 10 + (s[i++] - '0');
        if (rank < 1 || rank > R->n) {
            seterr(err, errlen, "rank %d out of range", rank);
            return -1;
        }
        int r = rank - 1;
        if (!playable(R, r, c)) {
            seterr(err, errlen, "%c%d is not a playable square", 'a' + c, rank);
            return -1;
        }
        if (!empty_at(p, r, c)) {
            seterr(err, errlen, "square %c%d given twice", 'a' + c, rank);
            return -1;
        }
        if (i >= len || s[i] != '=') {
            seterr(err, errlen, "expected '=' after %c%d", 'a' + c, rank);
            return -1;
        }
        i++;
        /* stack, top first */
        int k = 0;
        while (i < len && s[i] != ',') {
            if (!colour_of(s[i])) {
                seterr(err, errlen, "bad piece '%c' on %c%d", s[i], 'a' + c, rank);
                return -1;
            }
            if (++total > MAXPIECES) {
                seterr(err, errlen, "more than %d pieces", MAXPIECES);
                return -1;
            }
            p->s[r][c][k++] = s[i++];
        }
        if (k == 0) {
            seterr(err, errlen, "empty stack on %c%d", 'a' + c, rank);
            return -1;
        }
        p->s[r][c][k] = '\0';
        if (i == len)
            return 0;
        i++; /* ',' */
        if (i == len) {
            seterr(err, errlen, "trailing ','");
            return -1;
        }
    }
}

static int format_pos(const Rules *R, const Pos *p, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return -1;
    size_t used = 0;
    int w = snprintf(out, outlen, "%c:", p->side);
    if (w < 0 || (size_t)w >= outlen)
        return -1;
    used = (size_t)w;
    int first = 1;
    for (int r = 0; r < R->n; r++)
        for (int c = 0; c < R->n; c++) {
            if (!playable(R, r, c) || empty_at(p, r, c))
                continue;
            char sq[3];
            square_name(r, c, sq);
            w = snprintf(out + used, outlen - used, "%s%s=%s", first ? "" : ",", sq, p->s[r][c]);
            if (w < 0 || (size_t)w >= outlen - used)
                return -1;
            used += (size_t)w;
            first = 0;
        }
    return 0;
}

static void start_pos(const Rules *R, Pos *p)
{
    memset(p, 0, sizeof *p);
    p->side = 'W';
    for (int r = 0; r < R->n; r++)
        for (int c = 0; c < R->n; c++) {
            if (!playable(R, r, c))
                continue;
            if (r < 3)
                strcpy(p->s[r][c], "w");
            else if (r >= R->n - 3)
                strcpy(p->s[r][c], "b");
        }
}

/* ------------------------------------------------------------ quiet moves */

static void gen_quiet(const Rules *R, const Pos *p, MoveList *ml)
{
    char me = (char)tolower((unsigned char)p->side);
    for (int r = 0; r < R->n; r++)
        for (int c = 0; c < R->n; c++) {
            if (!playable(R, r, c) || top_colour(p, r, c) != me)
                continue;
            int king = is_king(p->s[r][c][0]);
            int maxdist = (king && R->flying_kings) ? R->n : 1;
            for (int d = 0; d < 4; d++) {
                if (!king && DR[d] != forward(me))
                    continue;
                for (int k = 1; k <= maxdist; k++) {
                    int tr = r + k * DR[d], tc = c + k * DC[d];
                    if (!playable(R, tr, tc) || !empty_at(p, tr, tc))
                        break;
                    Pos after = *p;
                    strcpy(after.s[tr][tc], p->s[r][c]);
                    after.s[r][c][0] = '\0';
                    if (!king && tr == last_row(R, me))
                        after.s[tr][tc][0] = (char)toupper((unsigned char)me); /* only the top */
                    after.side = p->side == 'W' ? 'B' : 'W';
                    char a[3], b[3], text[8];
                    square_name(r, c, a);
                    square_name(tr, tc, b);
                    snprintf(text, sizeof text, "%s-%s", a, b);
                    ml_add(ml, text, &after);
                }
            }
        }
}

/* ------------------------------------------------------------ captures */

typedef struct {
    Pos b;                         /* board during the move; the mover is lifted off its start */
    char mover[STK];               /* the moving tower, top first, as it was at the start */
    char colour;                   /* 'w' or 'b' */
    int king;                      /* the top piece captures as a king now */
    int promote_at_end;            /* lasker: reached the far row, promote when the move ends */
    unsigned char jumped[MAXN][MAXN];
    int jr[MAXPATH], jc[MAXPATH], nj; /* jumped squares, in order */
    char taken[MAXPATH];           /* immediate mode: pieces taken, in order */
    int pr[MAXPATH], pc[MAXPATH], np; /* landing path, start square included */
} CapState;

typedef struct {
    int er, ec; /* jumped tower */
    int lr, lc; /* landing square */
} Leg;

/* every single jump available from the current square; legs over the same
 * tower are consecutive in the array */
static int cap_legs(const Rules *R, const CapState *st, Leg *legs)
{
    int r = st->pr[st->np - 1], c = st->pc[st->np - 1];
    int flying = st->king && R->flying_kings;
    int n = 0;
    for (int d = 0; d < 4; d++) {
        if (!st->king && !R->men_capture_back && DR[d] != forward(st->colour))
            continue;
        int k = 1;
        if (flying)
            while (playable(R, r + k * DR[d], c + k * DC[d]) &&
                   empty_at(&st->b, r + k * DR[d], c + k * DC[d]))
                k++;
        int er = r + k * DR[d], ec = c + k * DC[d];
        if (!playable(R, er, ec) || empty_at(&st->b, er, ec))
            continue;
        if (top_colour(&st->b, er, ec) != enemy_of(st->colour) || st->jumped[er][ec])
            continue; /* own tower, or a tower already jumped in this move: blocks */
        for (int j = 1;; j++) {
            int lr = er + j * DR[d], lc = ec + j * DC[d];
            if (!playable(R, lr, lc) || !empty_at(&st->b, lr, lc))
                break;
            legs[n].er = er;
            legs[n].ec = ec;
            legs[n].lr = lr;
            legs[n].lc = lc;
            n++;
            if (!flying)
                break;
        }
    }
    return n;
}

static void apply_leg(const Rules *R, const CapState *st, const Leg *g, CapState *child)
{
    *child = *st;
    child->jumped[g->er][g->ec] = 1;
    child->jr[child->nj] = g->er;
    child->jc[child->nj] = g->ec;
    if (!R->deferred)
        child->taken[child->nj] = pop_top(child->b.s[g->er][g->ec]);
    child->nj++;
    child->pr[child->np] = g->lr;
    child->pc[child->np] = g->lc;
    child->np++;
    if (!child->king && g->lr == last_row(R, child->colour)) {
        if (R->crown_and_go_on)
            child->king = 1;
        else
            child->promote_at_end = 1;
    }
}

static void cap_emit(const Rules *R, const CapState *st, MoveList *ml)
{
    Pos after = st->b;
    char stack[STK];
    strcpy(stack, st->mover);
    for (int i = 0; i < st->nj; i++) {
        char piece = R->deferred ? pop_top(after.s[st->jr[i]][st->jc[i]]) : st->taken[i];
        add_bottom(stack, piece);
    }
    if (st->king || st->promote_at_end)
        stack[0] = (char)toupper((unsigned char)st->colour);
    int fr = st->pr[st->np - 1], fc = st->pc[st->np - 1];
    strcpy(after.s[fr][fc], stack);
    after.side = st->colour == 'w' ? 'B' : 'W';

    char text[TREF_MOVE_LEN + 8];
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < st->np; i++) {
        char sq[3];
        square_name(st->pr[i], st->pc[i], sq);
        if (used + 4 >= sizeof text) {
            ml->failed = 1;
            return;
        }
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? ":" : "", sq);
    }
    ml_add(ml, text, &after);
}

static void cap_search(const Rules *R, const CapState *st, MoveList *ml)
{
    Leg legs[4 * MAXN], tmp[4 * MAXN];
    int cont[4 * MAXN];
    if (st->promote_at_end) { /* lasker L3: promotion ends the move */
        cap_emit(R, st, ml);
        return;
    }
    int n = cap_legs(R, st, legs);
    if (n == 0) {
        if (st->np > 1)
            cap_emit(R, st, ml);
        return;
    }
    if (st->np >= MAXPATH) { /* cannot happen: each tower is jumped once at most */
        ml->failed = 1;
        return;
    }
    CapState *child = malloc(sizeof *child);
    if (!child) {
        ml->failed = 1;
        return;
    }
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && legs[j].er == legs[i].er && legs[j].ec == legs[i].ec)
            j++;
        /* legs i..j-1 jump the same tower. A flying king must land where it can
         * go on capturing, if there is such a square (B3). */
        int anycont = 0;
        for (int k = i; k < j; k++) {
            cont[k] = 1;
            if (st->king && R->flying_kings) {
                apply_leg(R, st, &legs[k], child);
                cont[k] = !child->promote_at_end && cap_legs(R, child, tmp) > 0;
                anycont |= cont[k];
            }
        }
        for (int k = i; k < j; k++) {
            if (st->king && R->flying_kings && anycont && !cont[k])
                continue;
            apply_leg(R, st, &legs[k], child);
            cap_search(R, child, ml);
        }
        i = j;
    }
    free(child);
}

static void gen_captures(const Rules *R, const Pos *p, MoveList *ml)
{
    char me = (char)tolower((unsigned char)p->side);
    CapState *st = malloc(sizeof *st);
    if (!st) {
        ml->failed = 1;
        return;
    }
    for (int r = 0; r < R->n; r++)
        for (int c = 0; c < R->n; c++) {
            if (!playable(R, r, c) || top_colour(p, r, c) != me)
                continue;
            memset(st, 0, sizeof *st);
            st->b = *p;
            strcpy(st->mover, p->s[r][c]);
            st->b.s[r][c][0] = '\0'; /* B6: the start square is empty during the move */
            st->colour = me;
            st->king = is_king(st->mover[0]);
            st->pr[0] = r;
            st->pc[0] = c;
            st->np = 1;
            cap_search(R, st, ml);
        }
    free(st);
}

/* all legal moves, sorted; -1 on internal failure */
static int gen_moves(const Rules *R, const Pos *p, MoveList *ml)
{
    memset(ml, 0, sizeof *ml);
    gen_captures(R, p, ml);
    if (!ml->failed && ml->n == 0)
        gen_quiet(R, p, ml); /* capture is compulsory */
    if (ml->failed) {
        ml_free(ml);
        return -1;
    }
    if (ml->n > 1)
        qsort(ml->v, (size_t)ml->n, sizeof ml->v[0], cmp_move);
    return ml->n;
}

/* ------------------------------------------------------------ public API */

static int setup(const char *game, const char *pos, const Rules **R, Pos *p, char *err,
                 size_t errlen)
{
    *R = find_rules(game);
    if (!*R) {
        seterr(err, errlen, "unknown game \"%s\" (bashni, lasker)", game ? game : "(null)");
        return -1;
    }
    return parse_pos(*R, pos, p, err, errlen);
}

int tref_moves(const char *game, const char *pos, char (*out)[TREF_MOVE_LEN], int max,
               char *err, size_t errlen)
{
    const Rules *R;
    Pos *p = malloc(sizeof *p);
    MoveList ml;
    if (!p) {
        seterr(err, errlen, "out of memory");
        return -1;
    }
    if (setup(game, pos, &R, p, err, errlen) != 0) {
        free(p);
        return -1;
    }
    int n = gen_moves(R, p, &ml);
    free(p);
    if (n < 0) {
        seterr(err, errlen, "move generation failed (out of memory)");
        return -1;
    }
    if (out) {
        if (n > max) {
            seterr(err, errlen, "%d moves do not fit in %d", n, max);
            ml_free(&ml);
            return -1;
        }
        for (int i = 0; i < n; i++)
            memcpy(out[i], ml.v[i].text, TREF_MOVE_LEN);
    }
    ml_free(&ml);
    return n;
}

static long long perft_rec(const Rules *R, const Pos *p, int depth)
{
    if (depth == 0)
        return 1;
    MoveList ml;
    int n = gen_moves(R, p, &ml);
    if (n < 0)
        return -1;
    long long total = 0;
    if (depth == 1) {
        total = n;
    } else {
        for (int i = 0; i < n; i++) {
            long long sub = perft_rec(R, &ml.v[i].after, depth - 1);
            if (sub < 0) {
                total = -1;
                break;
            }
            total += sub;
        }
    }
    ml_free(&ml);
    return total;
}

long long tref_perft(const char *game, const char *pos, int depth, char *err, size_t errlen)
{
    const Rules *R;
    if (depth < 0) {
        seterr(err, errlen, "negative depth");
        return -1;
    }
    Pos *p = malloc(sizeof *p);
    if (!p) {
        seterr(err, errlen, "out of memory");
        return -1;
    }
    if (setup(game, pos, &R, p, err, errlen) != 0) {
        free(p);
        return -1;
    }
    long long n = perft_rec(R, p, depth);
    free(p);
    if (n < 0)
        seterr(err, errlen, "move generation failed (out of memory)");
    return n;
}

int tref_start(const char *game, char *out, size_t outlen)
{
    const Rules *R = find_rules(game);
    if (!R)
        return -1;
    Pos *p = malloc(sizeof *p);
    if (!p)
        return -1;
    start_pos(R, p);
    int rc = format_pos(R, p, out, outlen);
    free(p);
    return rc;
}

int tref_play(const char *game, const char *pos, const char *move, char *out, size_t outlen,
              char *err, size_t errlen)
{
    const Rules *R;
    if (!move) {
        seterr(err, errlen, "move is NULL");
        return -1;
    }
    Pos *p = malloc(sizeof *p);
    MoveList ml;
    if (!p) {
        seterr(err, errlen, "out of memory");
        return -1;
    }
    if (setup(game, pos, &R, p, err, errlen) != 0) {
        free(p);
        return -1;
    }
    int n = gen_moves(R, p, &ml);
    free(p);
    if (n < 0) {
        seterr(err, errlen, "move generation failed (out of memory)");
        return -1;
    }
    int found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (strcmp(ml.v[i].text, move) == 0)
            found = i;
    int rc = -1;
    if (found < 0)
        seterr(err, errlen, "illegal move \"%.*s\"", 40, move);
    else if ((rc = format_pos(R, &ml.v[found].after, out, outlen)) != 0)
        seterr(err, errlen, "output buffer too small");
    ml_free(&ml);
    return rc;
}
