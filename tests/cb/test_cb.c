/*
 * test_cb.c -- condraughts_cb.so (src/cb/cb_engine.c) called as CheckerBoard calls it: loaded
 * with dlopen, its getmove, enginecommand and islegal on positions set up by hand on
 * CheckerBoard's board[x][y] (cb_api.h: x + y even are the playing squares, Black's men start on
 * y = 0..2 and move to higher y, White's move to lower y). The expected boards after a move are
 * worked out here by hand, not by the library.
 *
 * Usage: test_cb PATH/condraughts_cb.so
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_api.h"
#include "check.h"

static cb_getmove_fn getmove;
static cb_enginecommand_fn enginecommand;
static cb_islegal_fn islegal;

#define BM (CB_BLACK | CB_MAN)
#define WM (CB_WHITE | CB_MAN)
#define BK (CB_BLACK | CB_KING)
#define WK (CB_WHITE | CB_KING)

static int command(const char *cmd, char *reply)
{
    reply[0] = '\0';
    return enginecommand(cmd, reply);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "test_cb: cannot load %s: %s\n", path, dlerror());
        return 0;
    }
    *(void **)&getmove = dlsym(h, "getmove");
    *(void **)&enginecommand = dlsym(h, "enginecommand");
    *(void **)&islegal = dlsym(h, "islegal");
    return getmove && enginecommand && islegal;
}

static void test_commands(void)
{
    char reply[CB_REPLY_SIZE];
    CHECK(command("name", reply) == 1);
    CHECKF(!strncmp(reply, "condraughts ", 12), "name: '%s'", reply);
    CHECK(command("get protocolversion", reply) == 1);
    CHECK_STR(reply, "2");
    CHECK(command("get gametype", reply) == 1);
    CHECK_STR(reply, "21");
    CHECK(command("about", reply) == 1);
    CHECK(strstr(reply, "English draughts") != NULL);
    /* unknown commands and bad values: 0 and a question mark */
    CHECK(command("get book", reply) == 0);
    CHECK_STR(reply, "?");
    CHECK(command("set gametype 20", reply) == 0);
    CHECK(reply[0] == '?');
    CHECK(command("set gametype x", reply) == 0);
    CHECK(command("set hashsize 0", reply) == 0);
    CHECK(command("set hashsize 16", reply) == 1);
    CHECK(command("get hashsize", reply) == 1);
    CHECK_STR(reply, "16");
    CHECK(command("set searchthreads 99", reply) == 0);
    CHECK(command("get gametype", reply) == 1);
    CHECK_STR(reply, "21"); /* unchanged by the refused set */
    CHECK(command("set gametype 25", reply) == 1);
    CHECK(command("get gametype", reply) == 1);
    CHECK_STR(reply, "25");
    CHECK(command("set gametype 21", reply) == 1);
    CHECK(enginecommand(NULL, reply) == 0);
}

/* English, Black to move: a black man on (2,2) (square 11) must take the white man on (3,3)
 * (15), landing on (4,4) (18); the man on (0,0) (4) could move but a capture is compulsory. */
static void english_capture(int b[8][8])
{
    memset(b, 0, 64 * sizeof(int));
    b[0][0] = BM;
    b[2][2] = BM;
    b[3][3] = WM;
    b[7][7] = WM;
}

static void test_english_capture(void)
{
    int b[8][8];
    english_capture(b);
    char str[CB_STR_SIZE] = "";
    int playnow = 0;
    struct cb_move m;
    memset(&m, 0x55, sizeof m);
    int ret = getmove(b, CB_BLACK, 0.2, str, &playnow, CB_RESET_MOVES, 0, &m);
    CHECKF(ret >= CB_DRAW && ret <= CB_UNKNOWN, "getmove returned %d", ret);
    int want[8][8];
    memset(want, 0, sizeof want);
    want[0][0] = BM;
    want[4][4] = BM;
    want[7][7] = WM;
    CHECKF(!memcmp(b, want, sizeof want), "board after the forced capture is wrong (%s)", str);
    CHECK(m.jumps == 1);
    CHECK(m.oldpiece == BM && m.newpiece == BM);
    CHECK(m.from.x == 2 && m.from.y == 2 && m.to.x == 4 && m.to.y == 4);
    CHECK(m.del[0].x == 3 && m.del[0].y == 3 && m.delpiece[0] == WM);
    CHECK(strstr(str, "11x18") != NULL);

    /* islegal in CheckerBoard's English numbers; get movelist of the same position */
    english_capture(b);
    CHECK(islegal(b, CB_BLACK, 11, 18, &m) == 1);
    CHECK(m.jumps == 1 && m.del[0].x == 3 && m.del[0].y == 3);
    CHECK(islegal(b, CB_BLACK, 4, 8, &m) == 0); /* a quiet move while a capture is due */
    CHECK(islegal(b, CB_BLACK, 40, 18, &m) == 0);
    char reply[CB_REPLY_SIZE];
    CHECK(command("get movelist B:W15,29:B4,11", reply) == 1);
    CHECK_STR(reply, "movelist 1,1,6,6,11,18,18,15,5;");
    CHECK(command("get movelist W:W:B1", reply) == 1);
    CHECK_STR(reply, "movelist 0");
    CHECK(command("get movelist B:W21-32:B1-12", reply) == 1);
    CHECK(!strncmp(reply, "movelist 7,", 11));
    CHECK(command("get movelist B:W33:B1", reply) == 0);
}

/* Russian, White to move: the white man on (6,6) takes (5,5) and (3,3), landing on (4,4) then
 * (2,2): the only legal move. */
static void test_russian_double(void)
{
    char reply[CB_REPLY_SIZE];
    CHECK(command("set gametype 25", reply) == 1);
    int b[8][8];
    memset(b, 0, sizeof b);
    b[6][6] = WM;
    b[5][5] = BM;
    b[3][3] = BM;
    b[0][6] = BM;
    char str[CB_STR_SIZE] = "";
    struct cb_move m;
    memset(&m, 0, sizeof m);
    getmove(b, CB_WHITE, 0.2, str, NULL, CB_RESET_MOVES, 0, &m);
    int want[8][8];
    memset(want, 0, sizeof want);
    want[2][2] = WM;
    want[0][6] = BM;
    CHECKF(!memcmp(b, want, sizeof want), "board after the double capture is wrong (%s)", str);
    CHECK(m.jumps == 2);
    CHECK(m.from.x == 6 && m.from.y == 6 && m.to.x == 2 && m.to.y == 2);
    CHECK(m.path[1].x == 4 && m.path[1].y == 4);
    CHECK(command("set gametype 21", reply) == 1);
}

/* Bad boards and colours: CB_UNKNOWN, a message, the board untouched. */
static void test_bad_input(void)
{
    int b[8][8], keep[8][8];
    char str[CB_STR_SIZE];
    struct cb_move m;
    english_capture(b);
    b[4][2] = 7; /* not a piece code */
    memcpy(keep, b, sizeof b);
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, 0, 0, &m) == CB_UNKNOWN);
    CHECKF(strstr(str, "board[4][2] holds 7") != NULL, "str: %s", str);
    CHECK(!memcmp(b, keep, sizeof b));

    english_capture(b);
    CHECK(getmove(b, 3, 0.1, str, NULL, 0, 0, &m) == CB_UNKNOWN);
    CHECKF(strstr(str, "colour 3") != NULL, "str: %s", str);
    CHECK(getmove(b, 0, 0.1, str, NULL, 0, 0, &m) == CB_UNKNOWN);

    english_capture(b);
    b[1][0] = WM; /* x + y odd: not a playing square */
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, 0, 0, &m) == CB_UNKNOWN);
    CHECKF(strstr(str, "not played on") != NULL, "str: %s", str);

    english_capture(b);
    b[1][7] = BM; /* a black man on its crowning row */
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, 0, 0, &m) == CB_UNKNOWN);
    CHECKF(strstr(str, "impossible position") != NULL, "str: %s", str);

    /* no piece of the side to move: it has lost, and says so */
    memset(b, 0, sizeof b);
    b[3][3] = WM;
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, CB_RESET_MOVES, 0, &m) == CB_LOSS);
    CHECK(b[3][3] == WM);
    /* a NaN or negative time is taken as the shortest */
    english_capture(b);
    CHECK(getmove(b, CB_BLACK, -1.0, str, NULL, CB_RESET_MOVES, 0, &m) != CB_LOSS);
    CHECK(b[4][4] == BM);
}

/* `set gamehist`: kings shuffling 12-16 25-22 16-12 22-25 twice bring the start back a third
 * time; English draws on the third repetition, so getmove on that board reports the draw and
 * leaves the board as it was. The same board without the history is searched and moved. */
static void test_gamehist(void)
{
    char reply[CB_REPLY_SIZE], str[CB_STR_SIZE];
    const char *fen = "B:W30,31,32,K25:B1,2,3,K12";
    int b[8][8];
    memset(b, 0, sizeof b);
    int x, y;
    /* English numbers: n = 4 (y + 1) - x / 2 on x + y even */
    static const struct {
        int n, piece;
    } pieces[] = {{30, WM}, {31, WM}, {32, WM}, {25, WK}, {1, BM}, {2, BM}, {3, BM}, {12, BK}};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        int n = pieces[i].n;
        y = (n - 1) / 4;
        x = 2 * (4 * (y + 1) - n) + (y % 2);
        CHECK((x + y) % 2 == 0 && 4 * (y + 1) - x / 2 == n);
        b[x][y] = pieces[i].piece;
    }
    int keep[8][8];
    memcpy(keep, b, sizeof b);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "set gamehist %s 12-16 25-22 16-12 22-25 12-16 25-22 16-12 22-25",
             fen);
    CHECK(command(cmd, reply) == 1);
    struct cb_move m;
    CHECKF(getmove(b, CB_BLACK, 0.1, str, NULL, 0, 0, &m) == CB_DRAW, "str: %s", str);
    CHECK(!memcmp(b, keep, sizeof b));
    snprintf(cmd, sizeof cmd, "set gamehist %s", fen);
    CHECK(command(cmd, reply) == 1);
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, 0, 0, &m) != CB_DRAW);
    CHECK(memcmp(b, keep, sizeof b) != 0);
    /* a history that does not end in the board is ignored */
    memcpy(b, keep, sizeof b);
    snprintf(cmd, sizeof cmd, "set gamehist %s 12-16", fen);
    CHECK(command(cmd, reply) == 1);
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, CB_RESET_MOVES, 0, &m) != CB_DRAW);
    CHECK(command("set gamehist B:W30:B99", reply) == 1); /* read at getmove: refused there */
    memcpy(b, keep, sizeof b);
    CHECK(getmove(b, CB_BLACK, 0.1, str, NULL, CB_RESET_MOVES, 0, &m) != CB_DRAW);
}

/* *playnow already set: the search stops at once instead of thinking for 60 s. */
static void test_playnow(void)
{
    int b[8][8];
    english_capture(b);
    b[7][7] = 0;
    b[7][5] = WM;
    b[1][5] = WM;
    char str[CB_STR_SIZE];
    struct cb_move m;
    int playnow = 1;
    double t0 = now();
    getmove(b, CB_BLACK, 60.0, str, &playnow, CB_RESET_MOVES, 0, &m);
    double took = now() - t0;
    CHECKF(took < 5.0, "getmove with playnow set took %.1f s", took);
    CHECK(b[4][4] == BM && b[2][2] == 0);
}

/* The time: maxtime with the "exact" bit, and the incremental clock of info bits 2-3 and
 * moreinfo (0.2 s left in milliseconds, no increment) in place of a maxtime of 60 s. Bounds
 * generous for a loaded machine: the point is that neither search takes its own minute. */
static void test_time(void)
{
    int b[8][8];
    char str[CB_STR_SIZE];
    struct cb_move m;
    memset(b, 0, sizeof b);
    for (int y = 0; y < 8; y++)
        for (int x = y % 2; x < 8; x += 2)
            b[x][y] = y < 3 ? BM : y > 4 ? WM : 0;
    double t0 = now();
    getmove(b, CB_BLACK, 0.3, str, NULL, CB_RESET_MOVES | CB_EXACT_TIME, 0, &m);
    double took = now() - t0;
    CHECKF(took > 0.1 && took < 5.0, "exact 0.3 s took %.2f s", took);
    t0 = now();
    getmove(b, CB_WHITE, 60.0, str, NULL, 1 << CB_INCR_TIME_SHIFT, 200 << 16, &m);
    took = now() - t0;
    CHECKF(took < 5.0, "a clock of 0.2 s took %.2f s", took);
}

/* Every game type from CheckerBoard's start board (Black's men on y = 0..2, White's on y = 5..7,
 * the same in every game): the first mover (White but in English) answers with one man one row
 * forward (White's to lower y), and `get movelist` of the start in CheckerBoard's numbers of the
 * game gives the 7 opening moves (Spanish and Czech number White's men 1-12, the others 21-32). */
static void test_start_positions(void)
{
    static const struct {
        int gt, first;
        const char *fen;
    } games[] = {{21, CB_BLACK, "B:W21-32:B1-12"}, {22, CB_WHITE, "W:W21-32:B1-12"},
                 {24, CB_WHITE, "W:W1-12:B21-32"}, {25, CB_WHITE, "W:W21-32:B1-12"},
                 {26, CB_WHITE, "W:W21-32:B1-12"}, {29, CB_WHITE, "W:W1-12:B21-32"}};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char cmd[64], reply[CB_REPLY_SIZE], str[CB_STR_SIZE] = "";
        snprintf(cmd, sizeof cmd, "set gametype %d", games[i].gt);
        CHECK(command(cmd, reply) == 1);
        int b[8][8], before[8][8];
        memset(b, 0, sizeof b);
        for (int y = 0; y < 8; y++)
            for (int x = y % 2; x < 8; x += 2)
                b[x][y] = y < 3 ? BM : y > 4 ? WM : 0;
        memcpy(before, b, sizeof b);
        struct cb_move m;
        getmove(b, games[i].first, 0.05, str, NULL, CB_RESET_MOVES, 0, &m);
        int man = games[i].first | CB_MAN, step = games[i].first == CB_WHITE ? -1 : 1;
        int changed = 0;
        for (int x = 0; x < 8; x++)
            for (int y = 0; y < 8; y++)
                changed += b[x][y] != before[x][y];
        CHECKF(changed == 2 && m.jumps == 0 && before[m.from.x][m.from.y] == man &&
                   b[m.from.x][m.from.y] == 0 && b[m.to.x][m.to.y] == man &&
                   m.to.y == m.from.y + step && abs(m.to.x - m.from.x) == 1,
               "game type %d: the first move is not one man one row forward (%s)", games[i].gt,
               str);
        snprintf(cmd, sizeof cmd, "get movelist %s", games[i].fen);
        CHECK(command(cmd, reply) == 1);
        CHECKF(!strncmp(reply, "movelist 7,", 11), "game type %d: %s", games[i].gt, reply);
    }
    char reply[CB_REPLY_SIZE];
    CHECK(command("set gametype 21", reply) == 1);
}

/* The game type named in the library's file name (condraughts_cb_russian.so). */
static void test_file_name(const char *path)
{
    char dir[] = "/tmp/test_cb.XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    char copy[512], cmd[1200];
    snprintf(copy, sizeof copy, "%s/condraughts_cb_russian.so", dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
    CHECK(system(cmd) == 0);
    CHECK(load(copy));
    char reply[CB_REPLY_SIZE];
    CHECK(command("get gametype", reply) == 1);
    CHECK_STR(reply, "25");
    unlink(copy);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_cb PATH/condraughts_cb.so\n");
        return 2;
    }
    if (!load(argv[1])) {
        fprintf(stderr, "test_cb: %s lacks getmove, enginecommand or islegal\n", argv[1]);
        return 1;
    }
    test_commands();
    test_english_capture();
    test_russian_double();
    test_bad_input();
    test_gamehist();
    test_playnow();
    test_start_positions();
    test_time();
    test_file_name(argv[1]);
    printf("test_cb: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
