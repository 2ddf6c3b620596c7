/*
 * test_towers.c -- unit tests of tower draughts (src/towers/): position text both ways and its
 * error messages, hand-derived moves for each capture rule of docs/towers.md, make/unmake and
 * the invariants along random games, the perft table (tests/perft/towers.counts) and, with
 * --bin, the `condraughts towers` command.
 *
 * usage: test_towers [--perft FILE] [--max-nodes N] [--bin PATH]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "towers.h"

/* ---------------------------------------------------------------- helpers */

static const char *moves_of(cd_tw_game g, int rules, const char *text)
{
    static char out[8192];
    cd_tw_pos p;
    char err[512];
    if (cd_tw_parse(&p, g, text, err, sizeof err)) {
        snprintf(out, sizeof out, "parse error: %s", err);
        return out;
    }
    if (rules >= 0)
        p.rules = (uint8_t)rules;
    static char texts[512][CD_TW_MOVE_TEXT];
    long n = cd_tw_move_texts(&p, texts, 512);
    out[0] = '\0';
    for (long i = 0; i < n && i < 512; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, texts[i]);
    }
    return out;
}

/* The position after `move` (checks that unmake restores the position). */
static const char *after(cd_tw_game g, int rules, const char *text, const char *move)
{
    static char out[CD_TW_POS_TEXT];
    cd_tw_pos p, q;
    cd_tw_move m;
    char err[400];
    if (cd_tw_parse(&p, g, text, err, sizeof err) ||
        (rules >= 0 && (p.rules = (uint8_t)rules, 0)) ||
        cd_tw_move_parse(&p, move, &m, err, sizeof err)) {
        snprintf(out, sizeof out, "error: %s", err);
        return out;
    }
    q = p;
    cd_tw_make(&p, &m);
    CHECK(cd_tw_pos_check(&p, NULL, 0) == CD_OK);
    cd_tw_format(&p, out, sizeof out);
    cd_tw_unmake(&p, &m);
    CHECK(!memcmp(&p, &q, sizeof p));
    return out;
}

static const char *parse_error(cd_tw_game g, const char *text)
{
    static char err[512];
    cd_tw_pos p;
    strcpy(err, "(accepted)");
    cd_tw_parse(&p, g, text, err, sizeof err);
    return err;
}

static const char *move_error(cd_tw_game g, const char *pos, const char *move)
{
    static char err[512];
    cd_tw_pos p;
    cd_tw_move m;
    strcpy(err, "(accepted)");
    if (cd_tw_parse(&p, g, pos, err, sizeof err) == CD_OK)
        cd_tw_move_parse(&p, move, &m, err, sizeof err);
    return err;
}

#define CHECK_HAS(got, part)                                                                       \
    do {                                                                                           \
        const char *g_ = (got);                                                                    \
        checks++;                                                                                  \
        if (!strstr(g_, part)) {                                                                   \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, g_, part);  \
        }                                                                                          \
    } while (0)

/* ---------------------------------------------------------------- text */

static void test_text(void)
{
    cd_tw_pos p;
    char buf[CD_TW_POS_TEXT], err[512];
    cd_tw_start(&p, CD_TW_BASHNI);
    cd_tw_format(&p, buf, sizeof buf);
    CHECK_STR(buf, "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,h2=w,a3=w,c3=w,e3=w,g3=w,"
                   "b6=b,d6=b,f6=b,h6=b,a7=b,c7=b,e7=b,g7=b,b8=b,d8=b,f8=b,h8=b");
    cd_tw_start(&p, CD_TW_LASKER);
    cd_tw_format(&p, buf, sizeof buf);
    CHECK_STR(buf, "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,a3=w,c3=w,e3=w,g3=w,"
                   "a5=b,c5=b,e5=b,g5=b,b6=b,d6=b,f6=b,a7=b,c7=b,e7=b,g7=b");
    CHECK(cd_tw_pieces(&p, 0) == 11 && cd_tw_pieces(&p, 1) == 11);

    /* round trips; input in any order, output sorted by square */
    static const struct {
        cd_tw_game g;
        const char *in, *out;
    } rt[] = {
        {CD_TW_BASHNI, "W:a1=w,c1=wbb,e5=B", "W:a1=w,c1=wbb,e5=B"},
        {CD_TW_BASHNI, "B:h8=Bw,e5=B,a1=wWbB", "B:a1=wWbB,e5=B,h8=Bw"},
        {CD_TW_BASHNI, "W:", "W:"},
        {CD_TW_LASKER, "B:g7=W,a1=b,d4=wwbb", "B:a1=b,d4=wwbb,g7=W"},
        {CD_TW_LASKER, "W:g1=bbbbbbbbbbb", "W:g1=bbbbbbbbbbb"},
    };
    for (size_t i = 0; i < sizeof rt / sizeof rt[0]; i++) {
        CHECK(cd_tw_parse(&p, rt[i].g, rt[i].in, err, sizeof err) == CD_OK);
        CHECK(cd_tw_pos_check(&p, err, sizeof err) == CD_OK);
        cd_tw_format(&p, buf, sizeof buf);
        CHECK_STR(buf, rt[i].out);
    }
    /* squares */
    CHECK(cd_tw_square_at(CD_TW_BASHNI, 0, 0) == 0 && cd_tw_square_at(CD_TW_BASHNI, 7, 7) == 31);
    CHECK(cd_tw_square_at(CD_TW_BASHNI, 1, 0) == -1);
    CHECK(cd_tw_square_at(CD_TW_LASKER, 6, 0) == 3 && cd_tw_square_at(CD_TW_LASKER, 1, 1) == 4);
    CHECK(cd_tw_square_at(CD_TW_LASKER, 6, 6) == 24 && cd_tw_square_at(CD_TW_LASKER, 7, 7) == -1);
    for (int g = 0; g < CD_TW_GAME_COUNT; g++)
        for (int sq = 0; sq < cd_tw_squares((cd_tw_game)g); sq++)
            CHECK(cd_tw_square_at((cd_tw_game)g, cd_tw_square_file((cd_tw_game)g, sq),
                                  cd_tw_square_rank((cd_tw_game)g, sq)) == sq);
    cd_tw_game g;
    CHECK(cd_tw_game_find("lasca", &g) == CD_OK && g == CD_TW_LASKER);
    CHECK(cd_tw_game_find("bashni", &g) == CD_OK && g == CD_TW_BASHNI);
    CHECK(cd_tw_game_find("chess", &g) == CD_ERR_VARIANT);

    /* the error codes (include/condraughts.h) */
    CHECK(cd_tw_parse(&p, CD_TW_BASHNI, "X:a1=w", NULL, 0) == CD_ERR_FEN);
    CHECK(cd_tw_parse(&p, CD_TW_BASHNI, "W:a1=wwwwwwwwwwwww", NULL, 0) == CD_ERR_POSITION);
    CHECK(cd_tw_parse(&p, CD_TW_GAME_COUNT, "W:a1=w", NULL, 0) == CD_ERR_VARIANT);
    CHECK(cd_tw_parse(&p, CD_TW_BASHNI, NULL, NULL, 0) == CD_ERR_ARG);
    cd_tw_start(&p, CD_TW_BASHNI);
    cd_tw_move m;
    CHECK(cd_tw_move_parse(&p, "c3-z9", &m, NULL, 0) == CD_ERR_MOVE);
    CHECK(cd_tw_move_parse(&p, "c3-c4", &m, NULL, 0) == CD_ERR_MOVE);
    CHECK(cd_tw_move_parse(&p, "c3-b2", &m, NULL, 0) == CD_ERR_ILLEGAL);
    CHECK(cd_tw_move_parse(&p, NULL, &m, NULL, 0) == CD_ERR_ARG);
    CHECK(cd_tw_move_parse(&p, "c3-d4", &m, NULL, 0) == CD_OK);
    cd_tw_clear(&p, CD_TW_BASHNI);
    CHECK(cd_tw_set_stack(&p, 0, "wq") == CD_ERR_ARG && cd_tw_set_stack(&p, 32, "w") == CD_ERR_ARG);
    CHECK(cd_tw_set_stack(&p, 0, "wb") == CD_OK && cd_tw_pos_check(&p, NULL, 0) == CD_OK);
    p.kings ^= 1;
    CHECK(cd_tw_pos_check(&p, NULL, 0) == CD_ERR_POSITION);

    /* malformed position text: what and where */
    CHECK_HAS(parse_error(CD_TW_BASHNI, ""), "side to move must be W or B");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "X:a1=w"), "column 1: the side to move must be W or B");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W"), "column 2: expected ':'");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a2=w"), "'a2' is not a playing square");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:i1=w"), "column 3: expected a square (file a-h)");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a9=w"), "'a9' is not on the 8x8 board");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a=w"), "expected a rank");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1=wx"), "column 7: 'x' is not a piece");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1="), "empty stack for square 'a1'");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1=w,c1=b,a1=b"), "column 13: square 'a1' given twice");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1=w,"), "a square must follow ','");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1w"), "expected '=' after square 'a1'");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1=wwwwwwwbbb,c1=wwwwww"),
              "13 white pieces, more than the 12 of a set");
    CHECK_HAS(parse_error(CD_TW_LASKER, "W:h8=w"), "file a-g");
    CHECK_HAS(parse_error(CD_TW_LASKER, "W:b1=w"), "'b1' is not a playing square");
    CHECK_HAS(parse_error(CD_TW_LASKER, "B:a1=bbbbbbbbbbbb"), "12 black pieces, more than the 11");
    CHECK_HAS(parse_error(CD_TW_BASHNI, "W:a1=w;c1=w"), "';' is not a piece");

    /* move text */
    const char *start = "W:c3=w,f6=b";
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3-d9"), "column 4: expected a square");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3"), "needs at least two squares");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3-d4-e5"), "a quiet move is from-to");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3:d4-e5"), "mixed '-' and ':'");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3/d4"), "expected '-' or ':'");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c4-d5"), "'c4' is not a playing square");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, "c3-c5"), "move 'c3-c5' is not legal here");
    CHECK_HAS(move_error(CD_TW_BASHNI, start, ""), "expected a square");
    CHECK_HAS(move_error(CD_TW_BASHNI, "W:c3=w,d4=b", "c3-b4"), "(a capture is compulsory)");
    CHECK_STR(move_error(CD_TW_BASHNI, start, "c3-d4"), "(accepted)");
    CHECK_STR(move_error(CD_TW_BASHNI, "W:c3=w,d4=b", "c3xe5"), "(accepted)");
}

/* ---------------------------------------------------------------- rules */

static void test_rules(void)
{
    const int B = CD_TW_BASHNI, L = CD_TW_LASKER;
    /* start: Russian draughts moves (no capture is possible in the first 4 plies) */
    CHECK_STR(moves_of(B, -1, "W:a3=w,c3=w,e3=w,g3=w"),
              "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4");

    /* a tower moves as its top piece: a man (forward only), a flying king */
    CHECK_STR(moves_of(B, -1, "W:c3=wbb"), "c3-b4 c3-d4");
    CHECK_STR(moves_of(B, -1, "B:c3=bww"), "c3-b2 c3-d2");
    CHECK_STR(moves_of(B, -1, "W:b2=Wb,d4=w"), "b2-a1 b2-a3 b2-c1 b2-c3 d4-c5 d4-e5");

    /* capturing takes the top piece only, to the bottom of the capturing tower */
    CHECK_STR(after(B, -1, "W:c3=w,d4=bwb", "c3:e5"), "B:d4=wb,e5=wb");
    CHECK_STR(after(B, CD_TW_RULE_REJUMP, "W:c3=wb,d4=bb,h8=w", "c3:e5:c3"), "B:c3=wbbb,h8=w");
    /* liberation: the piece under the captured top is free again, and keeps its rank */
    CHECK_STR(after(B, -1, "W:c3=w,d4=bW", "c3:e5"), "B:d4=W,e5=wb");
    /* the liberated piece is White's own: it cannot be jumped again */
    CHECK_STR(moves_of(B, -1, "W:c3=w,d4=bw"), "c3:e5");

    /* the jump-twice rule. Bashni (default "turkish"): a tower is jumped at most once a move,
     * even when its new top is still an enemy piece */
    CHECK_STR(moves_of(B, -1, "W:c3=w,d4=bb"), "c3:e5");
    CHECK_STR(after(B, -1, "W:c3=w,d4=bb", "c3:e5"), "B:d4=b,e5=wb");
    CHECK_STR(moves_of(B, 0, "W:c3=w,d4=bb"), "c3:e5");
    /* ... under "rejump" a reduced tower whose top is still an enemy piece may be jumped again
     * in the same move: here the man goes back and forth */
    CHECK_STR(moves_of(B, CD_TW_RULE_REJUMP, "W:c3=w,d4=bb"), "c3:e5:c3");
    CHECK_STR(after(B, CD_TW_RULE_REJUMP, "W:c3=w,d4=bb", "c3:e5:c3"), "B:c3=wbb");
    CHECK_STR(moves_of(B, CD_TW_RULE_REJUMP, "W:c3=w,d4=bbb"), "c3:e5:c3:e5");
    /* Lasca: a column may not be jumped twice (lasca.org), even by an officer */
    CHECK_STR(moves_of(L, -1, "W:c3=W,d4=bb"), "c3:e5");
    CHECK_STR(after(L, -1, "W:c3=W,d4=bb", "c3:e5"), "B:d4=b,e5=Wb");
    CHECK_STR(moves_of(L, CD_TW_RULE_REJUMP, "W:c3=W,d4=bb"), "c3:e5:c3");

    /* "turkish" (Bashni default): a jumped square blocks until the move ends, even when its
     * single piece was taken; the king's own origin is free. Under "once" and "rejump" a
     * square emptied by a capture is empty at once and may be passed */
    CHECK_STR(moves_of(B, -1, "W:c3=W,d4=b,f6=b,b2=b"), "c3:a1 c3:e5:g7 c3:e5:h8");
    CHECK_STR(moves_of(B, -1, "W:c3=W,d4=b,f6=b,a1=b"), "c3:e5:g7 c3:e5:h8");
    CHECK_STR(moves_of(B, -1, "W:c3=W,d4=b,b2=b"), "c3:a1 c3:e5 c3:f6 c3:g7 c3:h8");
    CHECK_STR(moves_of(B, -1, "W:c3=w,d4=b,f4=b,f2=b,d2=b"), "c3:e1:g3:e5:c3 c3:e5:g3:e1:c3");
    CHECK_STR(after(B, -1, "W:c3=w,d4=b,f4=b,f2=b,d2=b", "c3:e1:g3:e5:c3"), "B:c3=wbbbb");
    CHECK_STR(moves_of(B, 0, "W:c3=W,d4=b,f6=b,b2=b"),
              "c3:a1:e5:g7 c3:a1:e5:h8 c3:e5:a1:g7 c3:e5:a1:h8 c3:e5:g7:a1 c3:e5:h8:a1");
    CHECK_STR(moves_of(B, CD_TW_RULE_REJUMP, "W:c3=W,d4=b,f6=b,b2=b"),
              "c3:a1:e5:g7 c3:a1:e5:h8 c3:e5:a1:g7 c3:e5:a1:h8 c3:e5:g7:a1 c3:e5:h8:a1");
    CHECK_STR(after(B, 0, "W:c3=W,d4=b,f6=b,b2=b", "c3:e5:a1:g7"), "B:g7=Wbbb");
    CHECK_STR(after(B, -1, "W:c3=W,d4=b,f6=b,b2=b", "c3:e5:h8"), "B:b2=b,h8=Wbb");

    /* a flying king must land where the capture goes on, when it can (Russian rule) */
    CHECK_STR(moves_of(B, -1, "W:a1=W,c3=b,f4=b"), "a1:e5:g3 a1:e5:h2");
    CHECK_STR(moves_of(B, -1, "W:a1=W,c3=b"), "a1:d4 a1:e5 a1:f6 a1:g7 a1:h8");
    /* a king jumps a tower at a distance; the tower's remainder then blocks the line */
    CHECK_STR(moves_of(B, -1, "W:a1=W,d4=bw"), "a1:e5 a1:f6 a1:g7 a1:h8");
    CHECK_STR(after(B, -1, "W:a1=W,d4=bw", "a1:g7"), "B:d4=w,g7=Wb");

    /* men capture backwards in Bashni, not in Lasca */
    CHECK_STR(moves_of(B, -1, "W:d4=w,c3=b"), "d4:b2");
    CHECK_STR(moves_of(L, -1, "W:d4=w,c3=b"), "d4-c5 d4-e5");

    /* Bashni: a man reaching the last row during a capture is crowned at once and goes on as a
     * king (here it takes f6 from d8 at a distance) */
    CHECK_STR(moves_of(B, -1, "W:b6=w,c7=b,f6=b"), "b6:d8:g5 b6:d8:h4");
    CHECK_STR(after(B, -1, "W:b6=w,c7=b,f6=b", "b6:d8:h4"), "B:h4=Wbb");
    /* ... only the top piece is crowned */
    CHECK_STR(after(B, -1, "W:b6=wwb,c7=b", "b6:d8"), "B:d8=Wwbb");
    CHECK_STR(after(B, -1, "W:a7=wb", "a7-b8"), "B:b8=Wb");
    CHECK_STR(after(B, -1, "B:h2=bw", "h2-g1"), "W:g1=Bw");
    /* Lasca: promotion ends the capture; the new officer may not take f6 backwards now */
    CHECK_STR(moves_of(L, -1, "W:c5=w,d6=b,f6=b"), "c5:e7");
    CHECK_STR(after(L, -1, "W:c5=w,d6=b,f6=b", "c5:e7"), "B:f6=b,e7=Wb");

    /* Lasca officers move and capture one square in any direction, not flying */
    CHECK_STR(moves_of(L, -1, "W:d4=W"), "d4-c3 d4-c5 d4-e3 d4-e5");
    CHECK_STR(moves_of(L, -1, "W:d4=W,b2=b"), "d4-c3 d4-c5 d4-e3 d4-e5");
    CHECK_STR(moves_of(L, -1, "W:d4=W,c3=b"), "d4:b2");
    CHECK_STR(moves_of(L, -1, "W:d4=Wbb,e3=b,e5=b,c5=bw"), "d4:b6 d4:f2 d4:f6");
    CHECK_STR(moves_of(L, -1, "B:d4=B,c3=w,e5=w,e3=w,c5=w"), "d4:b2 d4:b6 d4:f2 d4:f6");
    CHECK_STR(moves_of(L, -1, "W:a1=w,c3=w"), "a1-b2 c3-b4 c3-d4");
    /* Lasca soldiers: a multiple capture forward, free choice among captures */
    CHECK_STR(moves_of(L, -1, "W:a1=w,b2=b,d4=b,g1=w,f2=b"), "a1:c3:e5 g1:e3:c5");
    CHECK_STR(after(L, -1, "W:a1=w,b2=b,d4=bw,g1=w,f2=b", "a1:c3:e5"), "B:g1=w,f2=b,d4=w,e5=wbb");
    /* Bashni: free choice, a shorter capture is allowed */
    CHECK_STR(moves_of(B, -1, "W:c1=w,d2=b,f4=b,a3=w,b4=b"), "a3:c5 c1:e3:g5");

    /* a side with no move loses: no pieces, or all blocked */
    cd_tw_pos p;
    cd_tw_parse(&p, CD_TW_BASHNI, "W:h8=b", NULL, 0);
    CHECK(cd_tw_game_over(&p));
    cd_tw_parse(&p, CD_TW_BASHNI, "W:a1=w,b2=b,c3=b", NULL, 0);
    CHECK(cd_tw_game_over(&p));
    cd_tw_parse(&p, CD_TW_LASKER, "W:a7=w,g1=b", NULL,
                0); /* a soldier on the far row (liberated) */
    CHECK(cd_tw_game_over(&p));
    cd_tw_start(&p, CD_TW_LASKER);
    CHECK(!cd_tw_game_over(&p));
}

/* ---------------------------------------------------------------- random games */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* At most two colour layers in a tower (lasca.org: no white-black-white). */
static int layered(const cd_tw_pos *p)
{
    for (int sq = 0; sq < cd_tw_squares((cd_tw_game)p->game); sq++) {
        int changes = 0;
        for (int k = 1; k < p->height[sq]; k++)
            changes += (p->stack[sq] >> (2 * k) & 1) != (p->stack[sq] >> (2 * k - 2) & 1);
        if (changes > 1)
            return 0;
    }
    return 1;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

static void test_games(int games)
{
    long positions = 0, most = 0;
    for (int g = 0; g < CD_TW_GAME_COUNT; g++)
        for (int r = 0; r < 3; r++) {
            int rules = r == 0 ? 0 : r == 1 ? (int)CD_TW_RULE_REJUMP : (int)CD_TW_RULE_BLOCK;
            for (int game = 0; game < games; game++) {
                cd_tw_pos p;
                cd_tw_start(&p, (cd_tw_game)g);
                if (rules >= 0)
                    p.rules = (uint8_t)rules;
                for (int ply = 0; ply < 300; ply++) {
                    positions++;
                    char err[256], text[CD_TW_POS_TEXT];
                    if (cd_tw_pos_check(&p, err, sizeof err)) {
                        CHECK_STR(err, "");
                        break;
                    }
                    CHECK(layered(&p));
                    CHECK(cd_tw_pieces(&p, 0) == cd_tw_set_size((cd_tw_game)g));
                    CHECK(cd_tw_pieces(&p, 1) == cd_tw_set_size((cd_tw_game)g));
                    /* text round trip */
                    cd_tw_pos q;
                    cd_tw_format(&p, text, sizeof text);
                    CHECK(cd_tw_parse(&q, (cd_tw_game)g, text, err, sizeof err) == CD_OK);
                    q.rules = p.rules;
                    CHECK(!memcmp(&p, &q, sizeof p));
                    cd_tw_move *moves;
                    long n;
                    CHECK(cd_tw_generate_all(&p, &moves, &n) == CD_OK);
                    if (n > most)
                        most = n;
                    CHECK(cd_tw_game_over(&p) == (n == 0));
                    CHECK((uint64_t)n == cd_tw_perft(&p, 1));
                    if (n <= 0) {
                        free(moves);
                        break;
                    }
                    char(*texts)[CD_TW_MOVE_TEXT] = malloc((size_t)n * sizeof *texts);
                    /* every move's text reads back as that move; make/unmake restore */
                    for (long i = 0; i < n; i++) {
                        cd_tw_move m;
                        cd_tw_move_text((cd_tw_game)g, &moves[i], texts[i], CD_TW_MOVE_TEXT);
                        CHECK(cd_tw_move_parse(&p, texts[i], &m, err, sizeof err) == CD_OK);
                        CHECK(!memcmp(&m, &moves[i], sizeof m));
                        q = p;
                        cd_tw_make(&q, &moves[i]);
                        cd_tw_unmake(&q, &moves[i]);
                        CHECK(!memcmp(&p, &q, sizeof p));
                        /* captures are compulsory: all moves are captures or none is */
                        CHECK(!moves[i].njumps == !moves[0].njumps);
                    }
                    /* no two moves have the same text */
                    qsort(texts, (size_t)n, sizeof texts[0], cmp_text);
                    for (long i = 1; i < n; i++)
                        CHECK(strcmp(texts[i - 1], texts[i]) < 0);
                    free(texts);
                    cd_tw_make(&p, &moves[next_rand() % (uint64_t)n]);
                    free(moves);
                }
            }
        }
    printf("random games: %ld positions, at most %ld moves in one\n", positions, most);
}

/* ---------------------------------------------------------------- perft table */

/* Lines: game ; rule ; position|start ; D1 n ; D2 n ; ...   ('#' comments) */
static void test_perft(const char *file, uint64_t max_nodes)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", file);
        failures++;
        return;
    }
    char line[4096];
    int lines = 0, run = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        lines++;
        char *fields[64];
        int nf = 0;
        for (char *tok = strtok(line, ";\n"); tok && nf < 64; tok = strtok(NULL, ";\n")) {
            while (*tok == ' ')
                tok++;
            char *e = tok + strlen(tok);
            while (e > tok && e[-1] == ' ')
                *--e = '\0';
            fields[nf++] = tok;
        }
        cd_tw_game g;
        cd_tw_pos p;
        char err[512];
        if (nf < 4 || cd_tw_game_find(fields[0], &g)) {
            fprintf(stderr, "%s: bad line %d\n", file, lines);
            failures++;
            continue;
        }
        if (!strcmp(fields[2], "start"))
            cd_tw_start(&p, g);
        else if (cd_tw_parse(&p, g, fields[2], err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", file, err);
            failures++;
            continue;
        }
        if (!strcmp(fields[1], "rejump"))
            p.rules = CD_TW_RULE_REJUMP;
        else if (!strcmp(fields[1], "once"))
            p.rules = 0;
        else if (!strcmp(fields[1], "turkish"))
            p.rules = CD_TW_RULE_BLOCK;
        else if (strcmp(fields[1], "default")) {
            fprintf(stderr, "%s: line %d: unknown rule '%s'\n", file, lines, fields[1]);
            failures++;
            continue;
        }
        for (int i = 3; i < nf; i++) {
            int d;
            unsigned long long want;
            if (sscanf(fields[i], "D%d %llu", &d, &want) != 2)
                continue;
            if (want > max_nodes)
                break;
            uint64_t got = cd_tw_perft(&p, d);
            checks++;
            run++;
            if (got != want) {
                failures++;
                fprintf(stderr, "perft %s %s %s depth %d: got %llu, want %llu\n", fields[0],
                        fields[1], fields[2], d, (unsigned long long)got, want);
            }
        }
    }
    fclose(f);
    printf("perft: %d counts from %d lines of %s\n", run, lines, file);
}

/* ---------------------------------------------------------------- the command */

/* Runs `bin towers ARGS`, with `input` on stdin; returns the exit status, stdout in out,
 * stderr in err. */
static int run(const char *bin, const char *args, const char *input, char *out, size_t outsz,
               char *err, size_t errsz)
{
    char cmd[2048], tmp[] = "/tmp/test_towers_XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    close(fd);
    snprintf(cmd, sizeof cmd, "printf '%%b' '%s' | %s towers %s 2>%s", input, bin, args, tmp);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t n = fread(out, 1, outsz - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    FILE *e = fopen(tmp, "r");
    n = e ? fread(err, 1, errsz - 1, e) : 0;
    err[n] = '\0';
    if (e)
        fclose(e);
    remove(tmp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect_error(const char *bin, const char *args, const char *part)
{
    static char out[65536], err[4096];
    int st = run(bin, args, "", out, sizeof out, err, sizeof err);
    int lines = 0;
    for (const char *s = err; *s; s++)
        lines += *s == '\n';
    checks++;
    if (st != 2 || lines != 1 || !strstr(err, part)) {
        failures++;
        fprintf(stderr, "towers %s: status %d, stderr '%s' (want 2, one line with '%s')\n", args,
                st, err, part);
    }
}

static void test_cli(const char *bin)
{
    static char out[1 << 16], err[4096];
    CHECK(run(bin, "moves --game bashni", "", out, sizeof out, err, sizeof err) == 0);
    CHECK_STR(out, "a3-b4\nc3-b4\nc3-d4\ne3-d4\ne3-f4\ng3-f4\ng3-h4\n");
    CHECK(run(bin, "moves --game lasker --pos 'W:c3=W,d4=bb' --rule rejump", "", out, sizeof out,
              err, sizeof err) == 0);
    CHECK_STR(out, "c3:e5:c3\n");
    CHECK(run(bin, "perft --game lasker 5", "", out, sizeof out, err, sizeof err) == 0);
    CHECK_HAS(out, "perft 1 6\nperft 2 6\nperft 3 18\nperft 4 54\nperft 5 116\n");
    CHECK(run(bin, "perft --divide --game bashni 2", "", out, sizeof out, err, sizeof err) == 0);
    CHECK_HAS(out, "a3-b4 7\n");
    CHECK_HAS(out, "perft 2 49\n");
    CHECK(run(bin, "show --game bashni --pos 'B:c1=wbb,e5=B'", "", out, sizeof out, err,
              sizeof err) == 0);
    CHECK_HAS(out, "Black to move");
    CHECK_HAS(out, "tower c1 = wbb (white: 1 piece, 2 prisoners)");
    CHECK_HAS(out, "position B:c1=wbb,e5=B");
    /* play: a bad move is refused, a good one answered, quit ends with status 0 */
    CHECK(run(bin, "play --game lasker --depth 3", "c3-c5\\nc3-d4\\nquit\\n", out, sizeof out, err,
              sizeof err) == 0);
    CHECK_HAS(out, "move 'c3-c5' is not legal here");
    CHECK_HAS(out, "1. c3-d4");
    CHECK_HAS(out, "1... ");
    /* play to the end: White has one capture, then Black has no move */
    CHECK(run(bin, "play --game bashni --pos 'W:c3=w,d4=b' --depth 2", "c3:e5\\n", out, sizeof out,
              err, sizeof err) == 0);
    CHECK_HAS(out, "Game over: Black has no move, White wins.");
    /* the engine as White finds the win */
    CHECK(run(bin, "play --game bashni --side black --pos 'W:c3=w,d4=b,h8=B' --depth 4", "quit\\n",
              out, sizeof out, err, sizeof err) == 0);
    CHECK_HAS(out, "1. c3:e5");
    /* bad input: status 2, one line on stderr */
    expect_error(bin, "", "needs a subcommand");
    expect_error(bin, "frob", "unknown subcommand 'frob'");
    expect_error(bin, "moves --game chess", "unknown game 'chess'");
    expect_error(bin, "moves --pos 'W:a2=w'", "'a2' is not a playing square");
    expect_error(bin, "moves --game lasker --pos 'W:a1=w,a1=b'", "square 'a1' given twice");
    expect_error(bin, "moves --rule sometimes", "unknown rule 'sometimes'");
    expect_error(bin, "perft x", "bad depth 'x'");
    expect_error(bin, "perft", "give one DEPTH");
    expect_error(bin, "show --frob", "unknown option '--frob'");
    expect_error(bin, "play --side green", "'green' is not white or black");
    expect_error(bin, "play --depth 0", "bad number '0'");
}

int main(int argc, char **argv)
{
    const char *perft = NULL, *bin = NULL;
    uint64_t max_nodes = 30000000;
    int games = 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--perft") && i + 1 < argc)
            perft = argv[++i];
        else if (!strcmp(argv[i], "--bin") && i + 1 < argc)
            bin = argv[++i];
        else if (!strcmp(argv[i], "--max-nodes") && i + 1 < argc)
            max_nodes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--perft FILE] [--max-nodes N] [--games N] [--bin PATH]\n",
                    argv[0]);
            return 2;
        }
    }
    test_text();
    test_rules();
    test_games(games);
    if (perft)
        test_perft(perft, max_nodes);
    if (bin)
        test_cli(bin);
    printf("towers: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
