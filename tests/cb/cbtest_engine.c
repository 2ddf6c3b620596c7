/*
 * cbtest_engine.c -- a tiny CheckerBoard-API engine for the tests (tests/cb/cb.sh), independent
 * of libcondraughts: English checkers only, its own move generator on CheckerBoard's board
 * (board[x][y], playing squares x + y even, Black's men start on y = 0..2 and move to higher y,
 * White's to lower y; captures are compulsory, a capture goes on while it can, a man reaching the
 * far row is crowned and the move ends), and a random legal move from a fixed seed.
 *
 * Built six ways (Makefile, cb-test):
 *   default                 answers by writing the board after its move (the CBmove untouched)
 *   -DCBTEST_ANSWER_CBMOVE  answers through the CBmove only (the board untouched)
 *   -DCBTEST_IGNORE_CAPTURE plays a quiet move even when a capture is compulsory, when it has
 *                           one (an illegal answer the referee must catch), through the board
 *   -DCBTEST_CRASH          aborts (its process dies) at its third move
 *   -DCBTEST_HANG           at its second move sleeps without end, deaf to *playnow
 *   -DCBTEST_CHATTY         prints to stdout when loaded, at every move and every command, as
 *                           Cake++ 1.22's Linux build does (cbhost's lines must stay clean)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_api.h"

#define EXPORT __attribute__((visibility("default")))
#define MAXM   64

#ifdef CBTEST_CHATTY
__attribute__((constructor)) static void chatty_load(void)
{
    printf("cbtest: loaded\n\n");
    fflush(stdout);
}
#define CHAT(what) (printf("cbtest: %s\n", what), fflush(stdout))
#else
#define CHAT(what) ((void)0)
#endif

typedef struct mv {
    int fx, fy, tx, ty;
    int n;          /* pieces captured */
    int cx[12], cy[12];
    int px[12], py[12]; /* landing squares, the last is (tx, ty) */
    int crowned;
} mv;

static unsigned long rng = 12345;

static unsigned pick(unsigned n)
{
    rng = rng * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)((rng >> 33) % n);
}

static int on(int x, int y)
{
    return x >= 0 && x < 8 && y >= 0 && y < 8;
}

static int colour_of(int cell)
{
    return cell & (CB_WHITE | CB_BLACK);
}

/* Continue the capture of the piece `piece` now on (x, y), m so far; taken[][] marks the pieces
 * already jumped. Adds every finished capture to out. */
static void jumps(int b[8][8], int piece, int x, int y, mv *m, int taken[8][8], mv *out, int *n)
{
    int me = colour_of(piece), king = piece & CB_KING;
    int fwd = me == CB_BLACK ? 1 : -1;
    int found = 0;
    for (int dx = -1; dx <= 1; dx += 2)
        for (int dy = -1; dy <= 1; dy += 2) {
            if (!king && dy != fwd)
                continue;
            int ox = x + dx, oy = y + dy, lx = x + 2 * dx, ly = y + 2 * dy;
            if (!on(lx, ly) || taken[ox][oy] || b[lx][ly] != CB_FREE)
                continue;
            int victim = b[ox][oy];
            if (victim == CB_FREE || colour_of(victim) == me)
                continue;
            found = 1;
            mv next = *m;
            next.cx[next.n] = ox;
            next.cy[next.n] = oy;
            next.px[next.n] = lx;
            next.py[next.n] = ly;
            next.n++;
            next.tx = lx;
            next.ty = ly;
            int last = me == CB_BLACK ? 7 : 0;
            taken[ox][oy] = 1;
            if (!king && ly == last) {
                next.crowned = 1;
                if (*n < MAXM)
                    out[(*n)++] = next;
            } else {
                jumps(b, piece, lx, ly, &next, taken, out, n);
            }
            taken[ox][oy] = 0;
        }
    if (!found && m->n && *n < MAXM)
        out[(*n)++] = *m;
}

/* Every legal move of `me`, or with quiet_only the quiet moves alone. */
static int generate(int b[8][8], int me, mv *out, int quiet_only)
{
    int n = 0;
    if (!quiet_only)
        for (int x = 0; x < 8; x++)
            for (int y = 0; y < 8; y++) {
                int piece = b[x][y];
                if (piece == CB_FREE || colour_of(piece) != me)
                    continue;
                int taken[8][8];
                memset(taken, 0, sizeof taken);
                mv m;
                memset(&m, 0, sizeof m);
                m.fx = x;
                m.fy = y;
                b[x][y] = CB_FREE; /* the origin is empty while the piece jumps */
                jumps(b, piece, x, y, &m, taken, out, &n);
                b[x][y] = piece;
            }
    if (n)
        return n;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            int piece = b[x][y];
            if (piece == CB_FREE || colour_of(piece) != me)
                continue;
            int fwd = me == CB_BLACK ? 1 : -1, last = me == CB_BLACK ? 7 : 0;
            for (int dx = -1; dx <= 1; dx += 2)
                for (int dy = -1; dy <= 1; dy += 2) {
                    if (!(piece & CB_KING) && dy != fwd)
                        continue;
                    if (!on(x + dx, y + dy) || b[x + dx][y + dy] != CB_FREE || n >= MAXM)
                        continue;
                    mv m;
                    memset(&m, 0, sizeof m);
                    m.fx = x;
                    m.fy = y;
                    m.tx = x + dx;
                    m.ty = y + dy;
                    m.crowned = !(piece & CB_KING) && m.ty == last;
                    out[n++] = m;
                }
        }
    return n;
}

EXPORT int getmove(int board[8][8], int color, double maxtime, char str[CB_STR_SIZE],
                   int *playnow, int info, int moreinfo, struct cb_move *move)
{
    (void)maxtime;
    (void)playnow;
    (void)info;
    (void)moreinfo;
    CHAT("thinking");
    if (color != CB_WHITE && color != CB_BLACK) {
        snprintf(str, CB_STR_SIZE, "cbtest: bad colour %d", color);
        return CB_UNKNOWN;
    }
#if defined(CBTEST_CRASH) || defined(CBTEST_HANG)
    static int calls;
    calls++;
#endif
#ifdef CBTEST_CRASH
    if (calls == 3)
        abort();
#endif
#ifdef CBTEST_HANG
    while (calls == 2)
        sleep(1);
#endif
    mv list[MAXM];
    int n = 0;
#ifdef CBTEST_IGNORE_CAPTURE
    n = generate(board, color, list, 1);
#endif
    if (!n)
        n = generate(board, color, list, 0);
    if (!n) {
        snprintf(str, CB_STR_SIZE, "cbtest: no move");
        return CB_LOSS;
    }
    const mv *m = &list[pick((unsigned)n)];
    int piece = board[m->fx][m->fy];
    int newpiece = m->crowned ? (colour_of(piece) | CB_KING) : piece;
#ifdef CBTEST_ANSWER_CBMOVE
    memset(move, 0, sizeof *move);
    move->jumps = m->n;
    move->oldpiece = piece;
    move->newpiece = newpiece;
    move->from.x = m->fx;
    move->from.y = m->fy;
    move->to.x = m->tx;
    move->to.y = m->ty;
    for (int i = 0; i < m->n; i++) {
        move->del[i].x = m->cx[i];
        move->del[i].y = m->cy[i];
        move->delpiece[i] = board[m->cx[i]][m->cy[i]];
        move->path[i + 1].x = m->px[i];
        move->path[i + 1].y = m->py[i];
    }
#else
    (void)move;
    board[m->fx][m->fy] = CB_FREE;
    for (int i = 0; i < m->n; i++)
        board[m->cx[i]][m->cy[i]] = CB_FREE;
    board[m->tx][m->ty] = newpiece;
#endif
    snprintf(str, CB_STR_SIZE, "cbtest: %d moves", n);
    return CB_UNKNOWN;
}

EXPORT int enginecommand(const char *command, char reply[CB_REPLY_SIZE])
{
    CHAT(command);
    if (!strcmp(command, "name")) {
#if defined(CBTEST_ANSWER_CBMOVE)
        snprintf(reply, CB_REPLY_SIZE, "cbtest-cbmove");
#elif defined(CBTEST_IGNORE_CAPTURE)
        snprintf(reply, CB_REPLY_SIZE, "cbtest-illegal");
#elif defined(CBTEST_CRASH)
        snprintf(reply, CB_REPLY_SIZE, "cbtest-crash");
#elif defined(CBTEST_HANG)
        snprintf(reply, CB_REPLY_SIZE, "cbtest-hang");
#elif defined(CBTEST_CHATTY)
        snprintf(reply, CB_REPLY_SIZE, "cbtest-chatty");
#else
        snprintf(reply, CB_REPLY_SIZE, "cbtest-board");
#endif
        return 1;
    }
    if (!strcmp(command, "get gametype")) {
        snprintf(reply, CB_REPLY_SIZE, "%d", CB_GT_ENGLISH);
        return 1;
    }
    if (!strcmp(command, "get protocolversion")) {
        snprintf(reply, CB_REPLY_SIZE, "2");
        return 1;
    }
    snprintf(reply, CB_REPLY_SIZE, "?");
    return 0;
}
