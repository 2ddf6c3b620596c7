/*
 * test_turkish.c -- Turkish draughts (Dama) through the public header: the full 8x8
 * geometry (squares 1-64, a8 = 1 ... h1 = 64), squares and FEN / Hub strings in and out,
 * validation, move text, the keep and drop conventions, copy-make with captures that end on
 * a square emptied during the move, the Zobrist key, PDN (GameType 30), the evaluation and
 * the engine, and the tablebases' refusal. The move rules themselves are in
 * tests/rules/turkish.moves and tests/perft/turkish.*.perft.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

#include "check.h"

static const cd_rules *T;
static cd_movelist list;

static cd_position fen(const char *text)
{
    cd_position p;
    char err[256];
    if (cd_position_from_fen(&p, T, text, err, sizeof err) != CD_OK) {
        fprintf(stderr, "bad test FEN %s: %s\n", text, err);
        exit(1);
    }
    return p;
}

static const char *sq_text(int sq, int algebraic)
{
    static char buf[16];
    cd_square_to_text(T, sq, algebraic, buf, sizeof buf);
    return buf;
}

static void test_geometry(void)
{
    CHECK(T && !strcmp(T->name, "turkish"));
    CHECK(cd_rules_find("dama") == T);
    CHECK(!strcmp(T->gametype, "30"));
    CHECK(cd_rules_squares(T) == 64 && cd_rules_width(T) == 8 && cd_rules_height(T) == 8);
    /* rows and columns: row 0 at the top (rank 8), every cell a square */
    CHECK(cd_square_row(T, 1) == 0 && cd_square_col(T, 1) == 0);
    CHECK(cd_square_row(T, 8) == 0 && cd_square_col(T, 8) == 7);
    CHECK(cd_square_row(T, 9) == 1 && cd_square_col(T, 9) == 0);
    CHECK(cd_square_row(T, 36) == 4 && cd_square_col(T, 36) == 3);
    CHECK(cd_square_row(T, 64) == 7 && cd_square_col(T, 64) == 7);
    CHECK(cd_square_row(T, 65) == -1 && cd_square_col(T, 0) == -1);
    CHECK_STR(sq_text(1, 1), "a8");
    CHECK_STR(sq_text(8, 1), "h8");
    CHECK_STR(sq_text(36, 1), "d4");
    CHECK_STR(sq_text(57, 1), "a1");
    CHECK_STR(sq_text(64, -1), "h1"); /* algebraic is the variant's default */
    CHECK_STR(sq_text(64, 0), "64");
    /* parsing: every algebraic square and number round-trips */
    for (int sq = 1; sq <= 64; sq++) {
        char a[16], n[16];
        cd_square_to_text(T, sq, 1, a, sizeof a);
        cd_square_to_text(T, sq, 0, n, sizeof n);
        CHECK(cd_square_parse(T, a, NULL) == sq);
        CHECK(cd_square_parse(T, n, NULL) == sq);
    }
    CHECK(cd_square_parse(T, "65", NULL) == 0);
    CHECK(cd_square_parse(T, "i1", NULL) == 0);
    CHECK(cd_square_parse(T, "a9", NULL) == 0);
    CHECK(cd_square_parse(T, "D4", NULL) == 36);
}

static void test_positions(void)
{
    cd_position p, q;
    char buf[512], err[256];
    cd_position_start(&p, T);
    CHECK(p.side == CD_WHITE);
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W41-56:B9-24");
    for (int sq = 1; sq <= 64; sq++) {
        int want = sq >= 41 && sq <= 56 ? CD_WHITE_MAN : sq >= 9 && sq <= 24 ? CD_BLACK_MAN : 0;
        CHECK(cd_position_piece(&p, sq) == want);
    }
    CHECK(cd_position_count(&p, CD_WHITE, -1) == 16 && cd_position_count(&p, CD_BLACK, -1) == 16);
    /* algebraic FEN out and in */
    cd_position_to_fen(&p, 1, buf, sizeof buf);
    CHECK(!strncmp(buf, "W:Wa3,b3,", 9));
    CHECK(cd_position_from_fen(&q, T, buf, err, sizeof err) == CD_OK && q.key == p.key);
    /* kings, ranges, both notations mixed */
    q = fen("B:WKa8,g1,41-43:BK64,d5");
    CHECK(q.side == CD_BLACK);
    CHECK(cd_position_piece(&q, 1) == CD_WHITE_KING);
    CHECK(cd_position_piece(&q, 64) == CD_BLACK_KING);
    CHECK(cd_position_piece(&q, 28) == CD_BLACK_MAN);
    CHECK(cd_position_piece(&q, 42) == CD_WHITE_MAN);
    cd_position_to_fen(&q, 0, buf, sizeof buf);
    CHECK_STR(buf, "B:WK1,41-43,63:B28,K64");
    /* h1 is both a white man's square (given) and a black king's: an error */
    CHECK(cd_position_from_fen(&q, T, "W:W64:BK64", err, sizeof err) == CD_ERR_FEN);
    /* validation: men on their promotion row, too many pieces, squares past 64 */
    CHECK(cd_position_from_fen(&q, T, "W:W4:B20", err, sizeof err) == CD_ERR_POSITION);
    CHECK(strstr(err, "square 4") != NULL);
    CHECK(cd_position_from_fen(&q, T, "W:W40:B60", err, sizeof err) == CD_ERR_POSITION);
    CHECK(cd_position_from_fen(&q, T, "W:W57:B1", err, sizeof err) == CD_OK); /* own back rows */
    CHECK(cd_position_from_fen(&q, T, "W:W25-41:B1", err, sizeof err) == CD_ERR_POSITION);
    CHECK(cd_position_from_fen(&q, T, "W:W65:B1", err, sizeof err) == CD_ERR_FEN);
    /* Hub and DXP strings: side + 64 squares */
    size_t n = cd_position_to_hub(&p, buf, sizeof buf);
    CHECK(n == 65 && buf[0] == 'W' && buf[1] == 'e' && buf[9] == 'b' && buf[41] == 'w');
    CHECK(cd_position_from_hub(&q, T, buf, err, sizeof err) == CD_OK && q.key == p.key);
    CHECK(cd_position_from_hub(&q, T, "We", err, sizeof err) == CD_ERR_FEN);
    n = cd_position_to_dxp(&p, buf, sizeof buf);
    CHECK(n == 65 && cd_position_from_dxp(&q, T, buf, err, sizeof err) == CD_OK && q.key == p.key);
}

/* The Hub strings of the legal moves, sorted, space separated. */
static const char *moves_of(const cd_position *p)
{
    static char out[8192];
    static char mv[CD_MAX_MOVES][128];
    int n = cd_generate(p, &list);
    for (int i = 0; i < n; i++)
        cd_move_to_hub(p, &list.moves[i], mv[i], sizeof mv[i]);
    qsort(mv, (size_t)n, sizeof mv[0], (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, mv[i]);
    }
    return out;
}

static void test_moves(void)
{
    cd_position p, q;
    cd_move m;
    char buf[256], err[512];
    cd_position_start(&p, T);
    CHECK(cd_generate(&p, &list) == 8 && cd_count_moves(&p) == 8);
    CHECK(cd_perft(&p, 4) == 7538);
    /* text in: algebraic, numeric, Hub */
    CHECK(cd_move_parse(&p, "c3-c4", &m, err, sizeof err) == CD_OK);
    CHECK(cd_move_from(&p, &m) == 43 && cd_move_to(&p, &m) == 35 && !m.ncaptured);
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "c3-c4");
    cd_move_to_text(&p, &m, 0, buf, sizeof buf);
    CHECK_STR(buf, "43-35");
    CHECK(cd_move_parse(&p, "43-35", &m, err, sizeof err) == CD_OK && cd_move_to(&p, &m) == 35);
    CHECK(cd_move_parse(&p, "c3-d4", &m, err, sizeof err) == CD_ERR_ILLEGAL); /* diagonal */
    CHECK(cd_move_parse(&p, "b2-b3", &m, err, sizeof err) == CD_ERR_ILLEGAL); /* occupied */
    /* c3-c4 c6-c5: c4 takes c5 and c7, landing on the promotion row c8 */
    cd_play(&p, &m, &p);
    CHECK(cd_move_parse(&p, "c6-c5", &m, err, sizeof err) == CD_OK);
    cd_play(&p, &m, &p);
    CHECK_STR(moves_of(&p), "35x3x11x27");
    CHECK(cd_move_parse(&p, "c4xc8", &m, err, sizeof err) == CD_OK);
    CHECK(m.ncaptured == 2 && (m.flags & CD_MOVE_PROMOTES));
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "c4xc8");
    int path[8];
    CHECK(cd_move_path(&p, &m, path, 8) == 2 && path[0] == 19 && path[1] == 3);
    CHECK(cd_move_parse(&p, "c4xc6xc8", &m, err, sizeof err) == CD_OK);
    CHECK(cd_move_parse(&p, "35x3x27x11", &m, err, sizeof err) == CD_OK); /* Hub, any order */
    cd_play(&p, &m, &q);
    CHECK(cd_position_piece(&q, 3) == CD_WHITE_KING);
    CHECK(cd_position_piece(&q, 11) == CD_EMPTY && cd_position_piece(&q, 27) == CD_EMPTY);
    CHECK(cd_position_count(&q, CD_BLACK, -1) == 14);

    /* Round the rectangle a3 (41), c6 (19), f3 (46), king c1 (59) from a1 (57): up over a3 to a6,
     * right over c6 to f6, down over f3 to f1, left over c1 to b1 or back to a1; or the other way
     * round, right over c1 to f1, up over f3 to f6, left over c6 to a6, down over a3 to a2 or a1.
     * Every other line ends sooner. Drop: the two ways home to a1 are one move; keep: two, and
     * their text gives the landing path. */
    p = fen("W:WK57:B19,41,46,K59");
    CHECK_STR(moves_of(&p), "57x49x19x41x46x59 57x57x19x41x46x59 57x58x19x41x46x59");
    CHECK(cd_count_moves(&p) == 3);
    CHECK(cd_move_parse(&p, "a1xa1", &m, err, sizeof err) == CD_OK);
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "a1xa1");
    cd_play(&p, &m, &q);
    CHECK(cd_position_piece(&q, 57) == CD_WHITE_KING && cd_position_count(&q, CD_BLACK, -1) == 0);
    cd_rules keep = *T;
    keep.flags |= CD_RULE_KEEP_DUPLICATES;
    p.rules = &keep;
    CHECK_STR(moves_of(&p),
              "57x49x19x41x46x59 57x57x19x41x46x59 57x57x19x41x46x59 57x58x19x41x46x59");
    CHECK(cd_count_moves(&p) == 4);
    CHECK(cd_perft(&p, 1) == 4);
    /* (kept duplicates are equal cd_move values, as in every variant: text names them together) */
    CHECK(cd_move_parse(&p, "a1xa1", &m, err, sizeof err) == CD_ERR_AMBIGUOUS);

    /* keep and drop: a king going on straight from each landing square (kish's paths) */
    p = fen("W:WK57:B17,41");
    CHECK(cd_generate(&p, &list) == 2 && cd_count_moves(&p) == 2);
    p.rules = &keep;
    CHECK(cd_generate(&p, &list) == 4 && cd_count_moves(&p) == 4);
    CHECK(cd_perft(&p, 1) == 4);
    CHECK_STR(moves_of(&p), "57x1x17x41 57x1x17x41 57x9x17x41 57x9x17x41");
}

/* A capture that ends on the square of a piece it took (tests/rules/turkish.moves): the king e1
 * takes e3, g6, h4 and g3 and may land on e3. */
static void test_play_on_emptied_square(void)
{
    cd_position p = fen("W:WK61:B23,40,45,47"), q;
    cd_move m;
    char err[512], buf[128];
    CHECK(cd_move_parse(&p, "e1xe3", &m, err, sizeof err) == CD_OK);
    CHECK(m.ncaptured == 4 && cd_move_to(&p, &m) == 45);
    cd_play(&p, &m, &q);
    CHECK(cd_position_piece(&q, 45) == CD_WHITE_KING);
    CHECK(cd_position_piece(&q, 61) == CD_EMPTY);
    CHECK(cd_position_count(&q, CD_BLACK, -1) == 0 && cd_position_count(&q, CD_WHITE, 1) == 1);
    CHECK(q.side == CD_BLACK);
    /* the key made by cd_play is the key of the position read back from its FEN */
    cd_position_to_fen(&q, 0, buf, sizeof buf);
    CHECK_STR(buf, "B:WK45:B");
    cd_position r;
    CHECK(cd_position_from_fen(&r, T, buf, err, sizeof err) == CD_OK && r.key == q.key);
    int path[8];
    CHECK(cd_move_path(&p, &m, path, 8) == 4 && path[0] == 21 && path[1] == 24 && path[2] == 48 &&
          path[3] == 45);
}

/* Random games: the key after cd_play equals the key rebuilt from the FEN, cd_count_moves agrees
 * with cd_generate, the evaluation is antisymmetric under the colour mirror. */
static void test_random_games(void)
{
    unsigned long long s = 12345;
    char buf[512], err[256];
    int plies = 0;
    for (int game = 0; game < 200; game++) {
        cd_position p;
        cd_position_start(&p, T);
        for (int ply = 0; ply < 150; ply++) {
            int n = cd_generate(&p, &list);
            CHECK(n == cd_count_moves(&p));
            if (!n)
                break;
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            cd_play(&p, &list.moves[(s >> 33) % (unsigned long long)n], &p);
            plies++;
            cd_position_to_fen(&p, 0, buf, sizeof buf);
            cd_position r;
            CHECK(cd_position_from_fen(&r, T, buf, err, sizeof err) == CD_OK && r.key == p.key);
            /* the mirror (square n -> 65 - n, colours and side swapped) scores the opposite */
            cd_position m;
            cd_position_empty(&m, T, p.side ^ 1);
            for (int sq = 1; sq <= 64; sq++) {
                static const int swap[5] = {0, CD_BLACK_MAN, CD_WHITE_MAN, CD_BLACK_KING,
                                            CD_WHITE_KING};
                int pc = cd_position_piece(&p, sq);
                if (pc)
                    cd_position_set(&m, 65 - sq, swap[pc]);
            }
            CHECK(cd_evaluate(NULL, &m) == cd_evaluate(NULL, &p));
        }
    }
    CHECK(plies > 10000);
}

static void test_pdn_engine_egtb(void)
{
    cd_game *g = cd_game_new(T, NULL);
    char err[256];
    static char buf[16384];
    CHECK(g != NULL);
    CHECK(cd_game_play_text(g, "c3-c4", err, sizeof err) == CD_OK);
    CHECK(cd_game_play_text(g, "c6-c5", err, sizeof err) == CD_OK);
    CHECK(cd_game_play_text(g, "c4xc8", err, sizeof err) == CD_OK);
    cd_pdn_write(g, NULL, buf, sizeof buf);
    CHECK(strstr(buf, "[GameType \"30\"]") != NULL);
    CHECK(strstr(buf, "[Variant") == NULL);
    CHECK(strstr(buf, "1. c3-c4 c6-c5 2. c4xc8") != NULL);
    size_t pos = 0;
    cd_game *h = NULL;
    CHECK(cd_pdn_read(buf, &pos, NULL, &h, NULL, err, sizeof err) == CD_OK && h);
    if (h) {
        CHECK(cd_game_position(h)->rules == T && cd_game_ply(h) == 3);
        CHECK(cd_game_position(h)->key == cd_game_position(g)->key);
        cd_game_free(h);
    }
    /* the engine finds the only capture and a legal move from the start */
    cd_engine *e = cd_engine_new(1);
    CHECK(e != NULL);
    if (e) {
        cd_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.depth = 6;
        cd_search_result res;
        cd_game *s = cd_game_new(T, NULL);
        CHECK(cd_search(e, s, &lim, NULL, NULL, &res) == CD_OK && res.has_move);
        CHECK(cd_game_play(s, &res.best) == CD_OK);
        cd_game_free(s);
        cd_engine_free(e);
    }
    cd_game_free(g);
    /* no tablebases for Turkish */
    CHECK(cd_egtb_open(T, "/tmp") == NULL);
}

int main(void)
{
    T = cd_rules_find("turkish");
    if (!T) {
        fprintf(stderr, "no turkish rules\n");
        return 1;
    }
    test_geometry();
    test_positions();
    test_moves();
    test_play_on_emptied_square();
    test_random_games();
    test_pdn_engine_egtb();
    printf("test_turkish: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
