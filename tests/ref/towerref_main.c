/*
 * towerref_main.c -- tiny driver for the tower-draughts reference generator.
 *
 *   towerref start GAME
 *   towerref moves GAME [POS]
 *   towerref perft GAME DEPTH [POS]
 *   towerref divide GAME DEPTH [POS]
 *   towerref play GAME POS MOVE
 *   towerref selftest
 *
 * GAME is bashni or lasker; POS defaults to the start position.
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 -o /tmp/towerref \
 *            tests/ref/towerref.c tests/ref/towerref_main.c
 */
#include "towerref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POSLEN 8192

static int usage(void)
{
    fprintf(stderr, "usage: towerref start GAME\n"
                    "       towerref moves GAME [POS]\n"
                    "       towerref perft GAME DEPTH [POS]\n"
                    "       towerref divide GAME DEPTH [POS]\n"
                    "       towerref play GAME POS MOVE\n"
                    "       towerref selftest\n"
                    "GAME: bashni | lasker\n");
    return 2;
}

/* all moves in a freshly allocated array; *n their number; NULL on error */
static char (*get_moves(const char *game, const char *pos, int *n, char *err,
                        size_t errlen))[TREF_MOVE_LEN]
{
    *n = tref_moves(game, pos, NULL, 0, err, errlen);
    if (*n < 0)
        return NULL;
    char(*mv)[TREF_MOVE_LEN] = malloc((size_t)(*n + 1) * TREF_MOVE_LEN);
    if (!mv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (tref_moves(game, pos, mv, *n, err, errlen) != *n) {
        free(mv);
        return NULL;
    }
    return mv;
}

/* ------------------------------------------------------------ self-test */

static int failures, checks;

#define CHECK(cond, ...)                                                                    \
    do {                                                                                    \
        checks++;                                                                           \
        if (!(cond)) {                                                                      \
            failures++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fputc('\n', stderr);                                                            \
        }                                                                                   \
    } while (0)

/* the move list must be exactly the space-separated moves in `want` (any order) */
static void expect_moves(const char *game, const char *pos, const char *want, const char *what)
{
    char err[256] = "";
    int n;
    char(*mv)[TREF_MOVE_LEN] = get_moves(game, pos, &n, err, sizeof err);
    CHECK(mv != NULL, "%s: %s %s: error %s", what, game, pos, err);
    if (!mv)
        return;
    char got[8192] = "";
    for (int i = 0; i < n; i++) {
        strncat(got, mv[i], sizeof got - strlen(got) - 2);
        strcat(got, " ");
    }
    int nwant = 0, ok = 1;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", want);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        nwant++;
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(mv[i], tok) == 0)
                found = 1;
        if (!found)
            ok = 0;
    }
    CHECK(ok && nwant == n, "%s: %s %s: want {%s} got {%s}", what, game, pos, want, got);
    free(mv);
}

static void expect_play(const char *game, const char *pos, const char *move, const char *want,
                        const char *what)
{
    char out[POSLEN], err[256] = "";
    int rc = tref_play(game, pos, move, out, sizeof out, err, sizeof err);
    CHECK(rc == 0, "%s: play %s on %s: error %s", what, move, pos, err);
    if (rc == 0)
        CHECK(strcmp(out, want) == 0, "%s: play %s on %s: want %s got %s", what, move, pos, want,
              out);
}

static void expect_bad(const char *game, const char *pos, const char *what)
{
    char err[256] = "";
    int n = tref_moves(game, pos, NULL, 0, err, sizeof err);
    CHECK(n == -1 && err[0] != '\0', "%s: %s \"%s\" should be rejected (got %d)", what,
          game ? game : "(null)", pos ? pos : "(null)", n);
}

static int selftest(void)
{
    char start[POSLEN], err[256];

    /* ---------------- bashni */
    CHECK(tref_start("bashni", start, sizeof start) == 0, "bashni start");
    CHECK(strcmp(start, "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,h2=w,a3=w,c3=w,e3=w,g3=w,"
                        "b6=b,d6=b,f6=b,h6=b,a7=b,c7=b,e7=b,g7=b,b8=b,d8=b,f8=b,h8=b") == 0,
          "bashni start text %s", start);
    expect_moves("bashni", start, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4", "B start");

    /* B2: a man captures backward; capture is compulsory */
    expect_moves("bashni", "W:c3=b,d4=w", "d4:b2", "B man captures backward");
    expect_moves("bashni", "W:c3=b,g3=w,d4=w", "d4:b2", "B capture compulsory");
    expect_play("bashni", "W:c3=b,d4=w", "d4:b2", "B:b2=wb", "B capture makes a tower");

    /* free choice, no majority rule */
    expect_moves("bashni", "W:c3=w,b4=b,d4=b,f6=b", "c3:a5 c3:e5:g7", "B free choice");

    /* only the top is taken; the rest stays and may change owner */
    expect_moves("bashni", "W:c3=w,d4=bw", "c3:e5", "B jump a tower");
    expect_play("bashni", "W:c3=w,d4=bw", "c3:e5", "B:d4=w,e5=wb", "B top only, prisoner freed");

    /* ownership by the top piece */
    expect_moves("bashni", "W:c3=bw", "", "B white has no tower");
    expect_moves("bashni", "B:c3=bw", "c3-b2 c3-d2", "B black tower moves down");
    CHECK(tref_perft("bashni", "W:c3=bw", 3, err, sizeof err) == 0, "B perft of stuck side");

    /* B4: crowned mid-capture, goes on as a flying king; capture order */
    expect_moves("bashni", "W:b6=w,c7=B,f6=b", "b6:d8:g5 b6:d8:h4", "B crown and go on");
    expect_play("bashni", "W:b6=w,c7=B,f6=b", "b6:d8:g5", "B:g5=WBb", "B crown, order of prisoners");

    /* B3: king quiet moves fly; crowning on a quiet move changes only the top */
    expect_moves("bashni", "W:a1=W", "a1-b2 a1-c3 a1-d4 a1-e5 a1-f6 a1-g7 a1-h8", "B king flies");
    expect_moves("bashni", "W:a1=W,c3=b,d4=b", "a1-b2", "B two in a row cannot be jumped");
    expect_play("bashni", "W:c7=w", "c7-d8", "B:d8=W", "B quiet crowning");
    expect_play("bashni", "W:c7=wb", "c7-b8", "B:b8=Wb", "B quiet crowning of a tower");

    /* B3: the king must land where it can go on capturing */
    expect_moves("bashni", "W:a1=W,c3=b,f4=b", "a1:e5:g3 a1:e5:h2", "B king landing rule");

    /* B1: a tower is jumped once per move (a man's loop back to its start) */
    expect_moves("bashni", "W:c3=w,b4=b,d4=Bb,b6=b,d6=b", "c3:a5:c7:e5:c3 c3:e5:c7:a5:c3",
                 "B tower jumped once");
    expect_play("bashni", "W:c3=w,b4=b,d4=Bb,b6=b,d6=b", "c3:e5:c7:a5:c3", "B:c3=wBbbb,d4=b",
                "B loop result");
    expect_play("bashni", "W:c3=w,b4=b,d4=Bb,b6=b,d6=b", "c3:a5:c7:e5:c3", "B:c3=wbbbB,d4=b",
                "B loop result, other way");

    /* B1: Turkish strike: the jumped man on c3 still blocks the king on e1 */
    expect_moves("bashni", "W:a1=W,c3=b,b4=b,f2=b,f4=b", "a1:d4:g1 a1:e5:g3:e1",
                 "B Turkish strike");
    expect_play("bashni", "W:a1=W,c3=b,b4=b,f2=b,f4=b", "a1:e5:g3:e1", "B:e1=Wbbb,b4=b",
                "B Turkish strike result");

    /* B5: a man freed on its last row stays a man and captures backward */
    expect_moves("bashni", "W:b8=w,c7=b", "b8:d6", "B freed man on last row captures");
    expect_moves("bashni", "W:b8=w", "", "B freed man on last row cannot move");

    /* ---------------- lasker */
    CHECK(tref_start("lasker", start, sizeof start) == 0, "lasker start");
    CHECK(strcmp(start, "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,a3=w,c3=w,e3=w,g3=w,"
                        "a5=b,c5=b,e5=b,g5=b,b6=b,d6=b,f6=b,a7=b,c7=b,e7=b,g7=b") == 0,
          "lasker start text %s", start);
    expect_moves("lasker", start, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4", "L start");

    /* L4: soldiers capture forward only; officers one square any way */
    expect_moves("lasker", "W:c3=b,d4=w,e5=b", "d4:f6", "L soldier captures forward only");
    expect_moves("lasker", "W:c3=b,d4=W", "d4:b2", "L officer captures backward");
    expect_moves("lasker", "W:c3=b,e5=W", "e5-d4 e5-d6 e5-f4 e5-f6", "L officer does not fly");
    expect_moves("lasker", "B:d4=b,e3=w", "d4:f2", "L black soldier captures down");

    /* L3: promotion ends the capture (as an officer it could take f6 next) */
    expect_moves("lasker", "W:c5=w,d6=b,f6=b", "c5:e7", "L promotion ends the move");
    expect_play("lasker", "W:c5=w,d6=b,f6=b", "c5:e7", "B:f6=b,e7=Wb", "L promoted at the end");

    /* L1: a column is jumped once per move */
    expect_moves("lasker", "W:c3=W,d4=bbb", "c3:e5", "L column jumped once");
    expect_play("lasker", "W:c3=W,d4=bbb", "c3:e5", "B:d4=bb,e5=Wb", "L column reduced by one");
    expect_moves("lasker", "W:c3=W,b4=b,d4=b,b6=b,d6=b", "c3:a5:c7:e5:c3 c3:e5:c7:a5:c3",
                 "L officer loop");
    expect_play("lasker", "W:c3=W,b4=B,d4=b,b6=b,d6=b", "c3:a5:c7:e5:c3", "B:c3=WBbbb",
                "L loop, order of prisoners");

    /* L5: a freed officer keeps its rank; a freed soldier on the far row is stuck */
    expect_play("lasker", "W:c3=w,d4=bW", "c3:e5", "B:d4=W,e5=wb", "L freed officer");
    expect_moves("lasker", "W:a7=w", "", "L soldier on far row");
    expect_moves("lasker", "W:c3=bw", "", "L white has no column");
    expect_play("lasker", "W:b6=w", "b6-c7", "B:c7=W", "L quiet promotion");
    expect_play("lasker", "W:b6=wbb", "b6-a7", "B:a7=Wbb", "L quiet promotion of a column");

    /* ---------------- input handling */
    expect_moves("bashni", "W:", "", "empty board");
    expect_moves("bashni", "  W:a1=W \n", "a1-b2 a1-c3 a1-d4 a1-e5 a1-f6 a1-g7 a1-h8",
                 "surrounding whitespace");
    expect_moves("bashni", "W:h8=b,a1=W", "a1-b2 a1-c3 a1-d4 a1-e5 a1-f6 a1-g7",
                 "entries in any order");
    expect_bad("chess", "W:", "unknown game");
    expect_bad(NULL, "W:", "NULL game");
    expect_bad("bashni", NULL, "NULL position");
    expect_bad("bashni", "", "empty text");
    expect_bad("bashni", "X:a1=w", "bad side");
    expect_bad("bashni", "W", "no colon");
    expect_bad("bashni", "W:a2=w", "light square");
    expect_bad("bashni", "W:i1=w", "bad file");
    expect_bad("bashni", "W:a9=w", "bad rank");
    expect_bad("bashni", "W:a0=w", "rank 0");
    expect_bad("bashni", "W:a=w", "no rank");
    expect_bad("bashni", "W:a1=x", "bad piece");
    expect_bad("bashni", "W:a1=", "empty stack");
    expect_bad("bashni", "W:a1w", "no =");
    expect_bad("bashni", "W:a1=w,a1=b", "duplicate square");
    expect_bad("bashni", "W:a1=w,", "trailing comma");
    expect_bad("bashni", "W:a1=w,,c1=w", "empty entry");
    expect_bad("bashni", "W:a111111111111=w", "huge rank");
    expect_bad("lasker", "W:h8=w", "lasker h8");
    expect_bad("lasker", "W:b1=w", "lasker light square");
    {
        char big[200] = "W:a1=";
        for (int i = 0; i < 65; i++)
            strcat(big, "w");
        expect_bad("bashni", big, "too many pieces");
    }
    {
        char out[2][TREF_MOVE_LEN];
        CHECK(tref_moves("bashni", "W:a1=W", out, 2, err, sizeof err) == -1,
              "too small move buffer");
        char small[4];
        CHECK(tref_play("bashni", "W:a1=W", "a1-b2", small, sizeof small, err, sizeof err) == -1,
              "too small position buffer");
        CHECK(tref_play("bashni", "W:a1=W", "a1-a2", small, sizeof small, err, sizeof err) == -1,
              "illegal move");
        CHECK(tref_perft("bashni", "W:a1=W", -1, err, sizeof err) == -1, "negative depth");
        CHECK(tref_start("chess", start, sizeof start) == -1, "unknown game start");
        CHECK(tref_start("bashni", small, sizeof small) == -1, "start buffer too small");
        CHECK(tref_moves("bashni", "W:a1=W", NULL, 0, NULL, 0) == 7, "NULL err buffer");
        CHECK(tref_moves("bashni", "W:a1=q", NULL, 0, NULL, 0) == -1, "NULL err buffer, bad");
    }

    printf("selftest: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    char err[256] = "", start[POSLEN];
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "selftest") == 0)
        return selftest();
    if (argc < 3)
        return usage();
    const char *game = argv[2];
    if (tref_start(game, start, sizeof start) != 0) {
        fprintf(stderr, "unknown game %s\n", game);
        return 2;
    }
    if (strcmp(cmd, "start") == 0) {
        puts(start);
        return 0;
    }
    if (strcmp(cmd, "moves") == 0) {
        const char *pos = argc > 3 ? argv[3] : start;
        int n;
        char(*mv)[TREF_MOVE_LEN] = get_moves(game, pos, &n, err, sizeof err);
        if (!mv) {
            fprintf(stderr, "error: %s\n", err);
            return 1;
        }
        for (int i = 0; i < n; i++)
            puts(mv[i]);
        free(mv);
        return 0;
    }
    if (strcmp(cmd, "perft") == 0 || strcmp(cmd, "divide") == 0) {
        if (argc < 4)
            return usage();
        char *end;
        long depth = strtol(argv[3], &end, 10);
        if (*end || depth < 0 || depth > 64)
            return usage();
        const char *pos = argc > 4 ? argv[4] : start;
        if (strcmp(cmd, "perft") == 0) {
            long long n = tref_perft(game, pos, (int)depth, err, sizeof err);
            if (n < 0) {
                fprintf(stderr, "error: %s\n", err);
                return 1;
            }
            printf("%lld\n", n);
            return 0;
        }
        if (depth < 1)
            return usage();
        int n;
        char(*mv)[TREF_MOVE_LEN] = get_moves(game, pos, &n, err, sizeof err);
        if (!mv) {
            fprintf(stderr, "error: %s\n", err);
            return 1;
        }
        long long total = 0;
        char *after = malloc(POSLEN);
        if (!after) {
            free(mv);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            if (tref_play(game, pos, mv[i], after, POSLEN, err, sizeof err) != 0) {
                fprintf(stderr, "error: %s\n", err);
                free(after);
                free(mv);
                return 1;
            }
            long long sub = tref_perft(game, after, (int)depth - 1, err, sizeof err);
            if (sub < 0) {
                fprintf(stderr, "error: %s\n", err);
                free(after);
                free(mv);
                return 1;
            }
            printf("%s %lld\n", mv[i], sub);
            total += sub;
        }
        printf("total %lld\n", total);
        free(after);
        free(mv);
        return 0;
    }
    if (strcmp(cmd, "play") == 0) {
        if (argc < 5)
            return usage();
        char *out = malloc(POSLEN);
        if (!out)
            return 1;
        if (tref_play(game, argv[3], argv[4], out, POSLEN, err, sizeof err) != 0) {
            fprintf(stderr, "error: %s\n", err);
            free(out);
            return 1;
        }
        puts(out);
        free(out);
        return 0;
    }
    return usage();
}
