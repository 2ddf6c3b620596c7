/*
 * test_unit.c -- unit tests of the library through its public header:
 * variant table, FEN/Hub/DXP parsing and writing with their error messages,
 * move text in and out, copy-make and the Zobrist key, the Frisian king-move
 * count (position state, key, validation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

#include "check.h"

static cd_movelist list;

static cd_position fen(const char *variant, const char *text)
{
    cd_position p;
    char err[256];
    const cd_rules *r = cd_rules_find(variant);
    if (cd_position_from_fen(&p, r, text, err, sizeof err) != CD_OK) {
        fprintf(stderr, "bad test FEN %s: %s\n", text, err);
        exit(1);
    }
    return p;
}

/* The sorted Hub strings of all legal moves, space separated. */
static const char *moves_of(const cd_position *p)
{
    static char out[8192];
    char mv[128][128];
    int n = cd_generate(p, &list);
    for (int i = 0; i < n && i < 128; i++)
        cd_move_to_hub(p, &list.moves[i], mv[i], sizeof mv[i]);
    qsort(mv, (size_t)(n < 128 ? n : 128), sizeof mv[0],
          (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < n && i < 128; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, mv[i]);
    }
    return out;
}

/* A move's loss and mark (cd_move_loss): worked by hand from the rule in condraughts.h. */
static void test_move_loss(void)
{
    CHECK(cd_move_loss(30, -30, 1) == 0);                /* the best move loses nothing */
    CHECK(cd_move_loss(30, 20, 0) == 50);                /* +0.30 before, -0.20 after: 0.50 */
    CHECK(cd_move_loss(30, -40, 0) == 0);                /* better than the search: never < 0 */
    CHECK(cd_move_loss(CD_SCORE_WIN - 9, 0, 0) == 1000); /* a win counts 10 men */
    CHECK(cd_move_loss(0, CD_SCORE_WIN - 4, 0) == 1000); /* a loss after the move: -10 men */
    CHECK(cd_move_loss(-CD_SCORE_WIN + 5, CD_SCORE_WIN - 4, 0) == 0); /* lost either way */
    /* the marks against mark 50: '?!' from 25, '?' from 50, '??' from 150 */
    CHECK(cd_loss_mark(0, 50) == CD_MARK_NONE && cd_loss_mark(24, 50) == CD_MARK_NONE);
    CHECK(cd_loss_mark(25, 50) == CD_MARK_DUBIOUS && cd_loss_mark(49, 50) == CD_MARK_DUBIOUS);
    CHECK(cd_loss_mark(50, 50) == CD_MARK_MISTAKE && cd_loss_mark(149, 50) == CD_MARK_MISTAKE);
    CHECK(cd_loss_mark(150, 50) == CD_MARK_BLUNDER && cd_loss_mark(1000, 50) == CD_MARK_BLUNDER);
    /* an odd mark: half of 51 is 25.5, so 25 is not '?!' and 26 is */
    CHECK(cd_loss_mark(25, 51) == CD_MARK_NONE && cd_loss_mark(26, 51) == CD_MARK_DUBIOUS);
    CHECK(CD_MARK_NONE == 0 && CD_MARK_DUBIOUS == 1 && CD_MARK_MISTAKE == 2 &&
          CD_MARK_BLUNDER == 3 && CD_MARK_LEVELS == 4);
    CHECK(!strcmp(cd_mark_text(0), "") && !strcmp(cd_mark_text(1), "?!") &&
          !strcmp(cd_mark_text(2), "?") && !strcmp(cd_mark_text(3), "??") &&
          !strcmp(cd_mark_text(4), "") && !strcmp(cd_mark_text(-1), ""));
}

static void test_variants(void)
{
    CHECK(cd_rules_find("international") != NULL);
    CHECK(cd_rules_find("normal") == cd_rules_find("international"));
    CHECK(cd_rules_find("Standard") == cd_rules_find("international"));
    CHECK(cd_rules_find("american") == cd_rules_find("english"));
    CHECK(cd_rules_find("checkers") == cd_rules_find("english"));
    CHECK(cd_rules_find("shashki") == cd_rules_find("russian"));
    CHECK(cd_rules_find("killer-light") == cd_rules_find("modern"));
    CHECK(cd_rules_find("losing") == cd_rules_find("antidraughts"));
    CHECK(cd_rules_find("Frisian") && cd_rules_find("frysk") &&
          cd_rules_find("frisian") != cd_rules_find("frysk"));
    CHECK(cd_rules_find("nonsense") == NULL);
    CHECK(cd_rules_find(NULL) == NULL);
    int n = 0;
    while (cd_rules_at(n))
        n++;
    CHECK(n >= 28);
    for (int i = 0; i < n; i++) /* names are unique: each row is found by its own name */
        CHECK(cd_rules_find(cd_rules_at(i)->name) == cd_rules_at(i));
    const char *names[] = {"international",
                           "constitutional",
                           "killer",
                           "modern",
                           "brazilian",
                           "brazilian-constitutional",
                           "modern-8x8",
                           "canadian",
                           "russian",
                           "russian-constitutional",
                           "english",
                           "italian",
                           "spanish",
                           "portuguese",
                           "czech",
                           "pool",
                           "antidraughts",
                           "breakthrough",
                           "frisian",
                           "frysk",
                           "hoogland",
                           "russian-giveaway",
                           "spantsiretti",
                           "russian-diagonal",
                           "russian-two-move",
                           "russian-northern",
                           "samoyed",
                           "stavropol"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(cd_rules_find(names[i]) && !strcmp(cd_rules_find(names[i])->name, names[i]));
    CHECK(cd_rules_find("constitutional")->flags & CD_RULE_CONSTITUTIONAL);
    CHECK(cd_rules_find("russian-constitutional")->flags & CD_RULE_CONSTITUTIONAL);
    CHECK(!(cd_rules_find("constitutional")->draw & CD_DRAW_FMJD_ENDGAME));
    CHECK(cd_rules_find("international")->draw & CD_DRAW_FMJD_ENDGAME);
    CHECK(cd_rules_squares(cd_rules_find("canadian")) == 72);
    CHECK(cd_rules_squares(cd_rules_find("english")) == 32);
}

static void test_fen(void)
{
    char buf[512], err[256];
    cd_position p;
    const cd_rules *intl = cd_rules_find("international");
    cd_position_start(&p, intl);
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W31-50:B1-20");
    cd_position_start(&p, cd_rules_find("english"));
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "B:W21-32:B1-12");
    cd_position_start(&p, cd_rules_find("canadian"));
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W43-72:B1-30");

    p = fen("international", " b : wk4, 28 , 29: bK12 :H0:F1");
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "B:WK4,28,29:BK12");
    CHECK(cd_position_piece(&p, 4) == CD_WHITE_KING);
    CHECK(cd_position_piece(&p, 28) == CD_WHITE_MAN);
    CHECK(cd_position_piece(&p, 12) == CD_BLACK_KING);
    CHECK(cd_position_piece(&p, 51) == -1);
    p = fen("international", "W:W:B5");
    CHECK(cd_position_count(&p, CD_WHITE, -1) == 0);
    p = fen("international", "\"W:W31,32:B1.\"");
    CHECK(cd_position_count(&p, CD_BLACK, 0) == 1);

    /* algebraic squares */
    p = fen("russian", "W:Wa1,c3,Kh2:Bb8,Kd6");
    cd_position_to_fen(&p, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W22,K28,29:B1,K10");
    cd_position_to_fen(&p, 1, buf, sizeof buf);
    CHECK_STR(buf, "W:Wc3,Kh2,a1:Bb8,Kd6");

    /* errors: code, message with the place, position untouched */
    cd_position keep = fen("international", "W:W31:B1");
    p = keep;
    CHECK(cd_position_from_fen(&p, intl, "X:W31", err, sizeof err) == CD_ERR_FEN);
    CHECK(strstr(err, "column 1") != NULL);
    CHECK(cd_position_from_fen(&p, intl, "W:W51", err, sizeof err) == CD_ERR_FEN);
    CHECK(strstr(err, "'51'") && strstr(err, "column 4"));
    CHECK(cd_position_from_fen(&p, intl, "W:W31,31", err, sizeof err) == CD_ERR_FEN);
    CHECK(strstr(err, "twice") != NULL);
    CHECK(cd_position_from_fen(&p, intl, "W:W31:B31", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "W:W3", err, sizeof err) == CD_ERR_POSITION);
    CHECK(strstr(err, "promotion row") != NULL);
    CHECK(cd_position_from_fen(&p, intl, "W:B46", err, sizeof err) == CD_ERR_POSITION);
    CHECK(cd_position_from_fen(&p, intl, "W:W6-30", err, sizeof err) == CD_ERR_POSITION);
    CHECK(strstr(err, "more than") != NULL);
    CHECK(cd_position_from_fen(&p, intl, "W:W31-20", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "W:W31;B1", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "W:W31:Q1", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "W:W31:W32", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, "W:W99999999999999999999", err, sizeof err) == CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, cd_rules_find("russian"), "W:Wi1", err, sizeof err) ==
          CD_ERR_FEN);
    CHECK(cd_position_from_fen(&p, intl, NULL, err, sizeof err) == CD_ERR_ARG);
    CHECK(!memcmp(&p, &keep, sizeof p));
}

static void test_hub_dxp(void)
{
    char buf[128], err[256];
    cd_position p, q;
    const cd_rules *intl = cd_rules_find("international");
    cd_position_start(&p, intl);
    cd_position_to_hub(&p, buf, sizeof buf);
    CHECK_STR(buf, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    CHECK(cd_position_from_hub(&q, intl, buf, err, sizeof err) == CD_OK);
    CHECK(q.key == p.key);
    cd_position_to_dxp(&p, buf, sizeof buf);
    CHECK_STR(buf, "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    CHECK(cd_position_from_dxp(&q, intl, buf, err, sizeof err) == CD_OK);
    CHECK(q.key == p.key);
    CHECK(cd_position_from_hub(&q, intl, "W", err, sizeof err) == CD_ERR_FEN);
    CHECK(strstr(err, "51") != NULL);
    CHECK(cd_position_from_hub(&q, intl, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx", err,
                               sizeof err) == CD_ERR_FEN);
    CHECK(strstr(err, "column 51") != NULL);
    cd_position_start(&p, cd_rules_find("english"));
    cd_position_to_hub(&p, buf, sizeof buf);
    CHECK_STR(buf, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
}

static void test_moves_text(void)
{
    char buf[256], err[512];
    cd_move m;
    cd_position p;
    const cd_rules *intl = cd_rules_find("international");
    cd_position_start(&p, intl);
    CHECK_STR(moves_of(&p), "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30");
    CHECK(cd_move_parse(&p, "32-28", &m, err, sizeof err) == CD_OK);
    CHECK(cd_move_from(&p, &m) == 32 && cd_move_to(&p, &m) == 28);
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "32-28");
    CHECK(cd_move_parse(&p, "32-26", &m, err, sizeof err) == CD_ERR_ILLEGAL);
    CHECK(strstr(err, "32-28") != NULL);
    CHECK(cd_move_parse(&p, "32", &m, err, sizeof err) == CD_ERR_MOVE);
    CHECK(cd_move_parse(&p, "32-99", &m, err, sizeof err) == CD_ERR_MOVE);
    CHECK(cd_move_parse(&p, "32?28", &m, err, sizeof err) == CD_ERR_MOVE);
    CHECK(strstr(err, "column 3") != NULL);

    /* a simple capture: 33 jumps 28 and lands on 22 */
    p = fen("international", "W:W33:B28");
    CHECK_STR(moves_of(&p), "33x22x28");
    CHECK(cd_move_parse(&p, "33x22", &m, err, sizeof err) == CD_OK);
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "33x22");
    CHECK(cd_move_parse(&p, "33-22", &m, err, sizeof err) == CD_OK);
    CHECK(cd_move_parse(&p, "33x22x28", &m, err, sizeof err) == CD_OK);

    /* two captures from 1 to 3 over different pieces: the text gives the landing path */
    p = fen("international", "W:WK1:B7,9,11,19,30");
    CHECK(cd_move_parse(&p, "1x3", &m, err, sizeof err) == CD_ERR_AMBIGUOUS);
    CHECK(strstr(err, "1x34x25x3") && strstr(err, "1x23x14x3"));
    CHECK(cd_move_parse(&p, "1x34x25x3", &m, err, sizeof err) == CD_OK);
    cd_move_to_hub(&p, &m, buf, sizeof buf);
    CHECK_STR(buf, "1x3x7x9x30");
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "1x34x25x3");
    CHECK(cd_move_parse(&p, "1x3x7x19x9", &m, err, sizeof err) == CD_OK);
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "1x23x14x3");
    int n = cd_generate(&p, &list);
    for (int i = 0; i < n; i++) {
        cd_move_to_text(&p, &list.moves[i], -1, buf, sizeof buf);
        cd_move x;
        CHECK(cd_move_parse(&p, buf, &x, err, sizeof err) == CD_OK);
        CHECK(cd_move_equal(&x, &list.moves[i]));
        cd_move_to_hub(&p, &list.moves[i], buf, sizeof buf);
        CHECK(cd_move_parse(&p, buf, &x, err, sizeof err) == CD_OK);
        CHECK(cd_move_equal(&x, &list.moves[i]));
    }

    /* algebraic Russian text with ':' */
    p = fen("russian", "W:Wc3:Bd4");
    CHECK(cd_generate(&p, &list) == 1);
    cd_move_to_text(&p, &list.moves[0], -1, buf, sizeof buf);
    CHECK_STR(buf, "c3:e5");
    cd_move_to_text(&p, &list.moves[0], 0, buf, sizeof buf);
    CHECK_STR(buf, "22:15");
    CHECK(cd_move_parse(&p, "c3:e5", &m, err, sizeof err) == CD_OK);
    CHECK(cd_move_parse(&p, "C3xE5", &m, err, sizeof err) == CD_OK);

    /* Two captures from d4 to b2: one jump over c3, and a round trip d4:b6:d8:f6:b2. The writer
     * gives the one-jump capture as "d4:b2" (its full path), so the parser must read that text as
     * the one whose whole landing path it is, not as the short form of the round trip (found by
     * fuzzing, tests/fuzz/regress/fen/russian-short-capture-path). */
    p = fen("russian", "W:WK3,18:B7,6,K8,14,22");
    CHECK(cd_move_parse(&p, "d4:b2", &m, err, sizeof err) == CD_OK);
    cd_move_to_hub(&p, &m, buf, sizeof buf);
    CHECK_STR(buf, "18x25x22");
    cd_move_to_text(&p, &m, -1, buf, sizeof buf);
    CHECK_STR(buf, "d4:b2");
    CHECK(cd_move_parse(&p, "d4:b6:d8:f6:b2", &m, err, sizeof err) == CD_OK);
    cd_move_to_hub(&p, &m, buf, sizeof buf);
    CHECK_STR(buf, "18x25x6x7x14x22");
    CHECK(cd_move_parse(&p, "18x25x6x7x14x22", &m, err, sizeof err) == CD_OK);
    CHECK(m.ncaptured == 4);
    n = cd_generate(&p, &list);
    for (int i = 0; i < n; i++)
        for (int alg = 0; alg < 2; alg++) {
            cd_move_to_text(&p, &list.moves[i], alg, buf, sizeof buf);
            cd_move x;
            CHECK(cd_move_parse(&p, buf, &x, err, sizeof err) == CD_OK);
            CHECK(cd_move_equal(&x, &list.moves[i]));
        }
}

/* A man may capture round a block and stop on its own origin square. */
static void test_circle(void)
{
    cd_position p = fen("brazilian", "B:W17-19,21,25-30,32:B1-5,7-10,12,15"), q;
    CHECK_STR(moves_of(&p), "15x13x17x19x26x27 15x15x18x19x26x27");
    cd_move m;
    char err[256], buf[256];
    CHECK(cd_move_parse(&p, "15x15x18x19x26x27", &m, err, sizeof err) == CD_OK);
    cd_play(&p, &m, &q);
    cd_position_to_fen(&q, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W17,21,25,28-30,32:B1-5,7-10,12,15");
    /* the incremental key equals the key computed from scratch */
    cd_position r = fen("brazilian", buf);
    CHECK(r.key == q.key);
}

/* Incremental Zobrist keys agree with scratch keys along random games. */
static void test_keys(void)
{
    uint64_t seed = 12345;
    for (int v = 0; cd_rules_at(v); v++) {
        for (int game = 0; game < 20; game++) {
            cd_position p;
            cd_position_start(&p, cd_rules_at(v));
            for (int ply = 0; ply < 200; ply++) {
                int n = cd_generate(&p, &list);
                if (!n)
                    break;
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                cd_position q;
                cd_play(&p, &list.moves[(seed >> 33) % (uint64_t)n], &q);
                char buf[512], err[256];
                cd_position_to_fen(&q, 0, buf, sizeof buf);
                cd_position r;
                CHECK(cd_position_from_fen(&r, cd_rules_at(v), buf, err, sizeof err) == CD_OK);
                for (int c = 0; c < 2; c++) { /* the king-move count a FEN cannot hold */
                    int sq, len = cd_position_king_run(&q, c, &sq);
                    if (len)
                        CHECK(cd_position_set_king_run(&r, c, sq, len) == CD_OK);
                }
                if (q.second) /* nor the two-move state */
                    CHECK(cd_position_set_second(&r, 1) == CD_OK);
                CHECK(cd_position_validate(&q, err, sizeof err) == CD_OK);
                if (r.key != q.key || cd_count_moves(&q) != cd_generate(&q, &list)) {
                    CHECK(r.key == q.key);
                    fprintf(stderr, "  %s %s\n", cd_rules_at(v)->name, buf);
                    return;
                }
                p = q;
            }
        }
    }
}

/* p after the moves of text (space separated), each checked legal. */
static cd_position after(cd_position p, const char *text)
{
    char buf[256], err[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        cd_move m;
        if (cd_move_parse(&p, t, &m, err, sizeof err) != CD_OK) {
            fprintf(stderr, "test move %s: %s\n", t, err);
            failures++;
            return p;
        }
        cd_play(&p, &m, &p);
    }
    return p;
}

/* The key of pos computed from scratch: its FEN, then its king-move counts. */
static uint64_t scratch_key(const cd_position *pos)
{
    char buf[512];
    cd_position_to_fen(pos, 0, buf, sizeof buf);
    cd_position r = fen(pos->rules->name, buf);
    for (int c = 0; c < 2; c++) {
        int sq, len = cd_position_king_run(pos, c, &sq);
        if (len && cd_position_set_king_run(&r, c, sq, len) != CD_OK)
            return 0;
    }
    return r.key;
}

/* The Frisian king-move count (cd_king_run): how moves change it, the key, validation. */
static void test_king_run(void)
{
    const cd_rules *fr = cd_rules_find("frisian");
    CHECK(fr->king_moves == 3 && (fr->flags & CD_RULE_ORTHOGONAL) &&
          fr->precedence == CD_PREC_VALUE);
    CHECK(cd_rules_find("international")->king_moves == 0);
    cd_position s;
    char buf[256], err[256];
    cd_position_start(&s, cd_rules_find("frysk"));
    cd_position_to_fen(&s, 0, buf, sizeof buf);
    CHECK_STR(buf, "W:W46-50:B1-5");
    CHECK(!s.run.len[0] && !s.run.len[1] && !s.run.sq[0] && !s.run.sq[1]);

    /* White: king 48, man 46; Black: king 1, man 5. */
    cd_position p0 = fen("frisian", "W:WK48,46:BK1,5"), sq_only;
    int sq = -1;
    CHECK(cd_position_king_run(&p0, CD_WHITE, &sq) == 0 && sq == 0);
    cd_position p1 = after(p0, "48-43");
    CHECK(cd_position_king_run(&p1, CD_WHITE, &sq) == 1 && sq == 43);
    CHECK(p1.key == scratch_key(&p1));
    /* the same pieces without the count are another position */
    cd_position_to_fen(&p1, 0, buf, sizeof buf);
    sq_only = fen("frisian", buf);
    CHECK(sq_only.key != p1.key && cd_position_king_run(&sq_only, CD_WHITE, NULL) == 0);
    /* back to the start's pieces, both kings with 2 moves: not the start position */
    cd_position p4 = after(p0, "48-43 1-7 43-48 7-1");
    CHECK(!memcmp(p4.white, p0.white, sizeof p0.white) &&
          !memcmp(p4.kings, p0.kings, sizeof p0.kings));
    CHECK(cd_position_king_run(&p4, CD_WHITE, &sq) == 2 && sq == 48);
    CHECK(cd_position_king_run(&p4, CD_BLACK, &sq) == 2 && sq == 1);
    CHECK(p4.key != p0.key && p4.key == scratch_key(&p4));
    /* a third move makes 3: that king is stuck, the man must move */
    cd_position p6 = after(p4, "48-43 1-7");
    CHECK(cd_position_king_run(&p6, CD_WHITE, &sq) == 3 && sq == 43);
    CHECK(cd_position_king_run(&p6, CD_BLACK, &sq) == 3 && sq == 7);
    CHECK_STR(moves_of(&p6), "46-41");
    CHECK(cd_count_moves(&p6) == 1);
    CHECK(p6.key == scratch_key(&p6));
    /* a man move clears the mover's count; Black's king is stuck too: only its man moves */
    cd_position p7 = after(p6, "46-41");
    CHECK(cd_position_king_run(&p7, CD_WHITE, NULL) == 0);
    CHECK(cd_position_king_run(&p7, CD_BLACK, &sq) == 3 && sq == 7);
    CHECK_STR(moves_of(&p7), "5-10");
    CHECK(p7.key == scratch_key(&p7));
    /* a move of another king starts a new count */
    cd_position q0 = fen("frisian", "W:WK48,K50,46:B1");
    cd_position q1 = after(q0, "48-43 1-7 43-48 7-12 50-44");
    CHECK(cd_position_king_run(&q1, CD_WHITE, &sq) == 1 && sq == 44);
    /* losing the counted king, or the last man, to a capture clears the count */
    cd_position c0 = fen("frisian", "W:WK47,46:B1,15");
    cd_position c1 = after(c0, "47-42 1-6 42-47 6-11");
    CHECK(cd_position_king_run(&c1, CD_WHITE, &sq) == 2 && sq == 47);
    cd_position c2 = after(fen("frisian", "W:WK47,50:BK23,1"), "47-41");
    CHECK(cd_position_king_run(&c2, CD_WHITE, &sq) == 1 && sq == 41);
    cd_position c3 = after(c2, "23x46x41"); /* the black king takes the white king... */
    CHECK(cd_position_count(&c3, CD_WHITE, 1) == 0 &&
          cd_position_king_run(&c3, CD_WHITE, NULL) == 0);
    CHECK(c3.key == scratch_key(&c3));
    cd_position d2 = after(fen("frisian", "W:WK3,31:B1,26"), "3-9");
    CHECK(cd_position_king_run(&d2, CD_WHITE, NULL) == 1);
    cd_position d3 = after(d2, "26x37x31"); /* ... or the last white man */
    CHECK(cd_position_count(&d3, CD_WHITE, 0) == 0 &&
          cd_position_king_run(&d3, CD_WHITE, NULL) == 0);
    CHECK(d3.key == scratch_key(&d3));
    /* a side without men has no count */
    cd_position k1 = after(fen("frisian", "W:WK48:B1"), "48-43");
    CHECK(cd_position_king_run(&k1, CD_WHITE, NULL) == 0);

    /* setting it: a king of that colour with men, 0..limit; count 0 clears */
    cd_position e = fen("frisian", "W:WK48,46:BK5,1");
    uint64_t k0 = e.key;
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 48, 3) == CD_OK && e.key != k0);
    CHECK(cd_position_validate(&e, err, sizeof err) == CD_OK);
    CHECK_STR(moves_of(&e), "46-41");
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 48, 0) == CD_OK && e.key == k0);
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 48, 4) == CD_ERR_ARG);
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 46, 1) == CD_ERR_ARG); /* a man */
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 5, 1) == CD_ERR_ARG);  /* the other colour's */
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 47, 1) == CD_ERR_ARG); /* empty */
    CHECK(cd_position_set_king_run(&e, 7, 48, 1) == CD_ERR_ARG);
    cd_position i = fen("international", "W:WK48,46:BK5,1");
    CHECK(cd_position_set_king_run(&i, CD_WHITE, 48, 1) == CD_ERR_ARG);
    cd_position nomen = fen("frisian", "W:WK48:BK5,1");
    CHECK(cd_position_set_king_run(&nomen, CD_WHITE, 48, 1) == CD_ERR_ARG);
    /* editing the board keeps the count consistent: removing the king or the last man clears it */
    CHECK(cd_position_set_king_run(&e, CD_BLACK, 5, 2) == CD_OK);
    cd_position_set(&e, 5, CD_EMPTY);
    CHECK(cd_position_king_run(&e, CD_BLACK, NULL) == 0 && e.key == scratch_key(&e));
    CHECK(cd_position_set_king_run(&e, CD_WHITE, 48, 2) == CD_OK);
    cd_position_set(&e, 46, CD_WHITE_KING);
    CHECK(cd_position_king_run(&e, CD_WHITE, NULL) == 0 && e.key == scratch_key(&e));
    /* validation catches a count the pieces do not allow */
    cd_position bad = fen("frisian", "W:WK48,46:B1");
    bad.run.len[0] = 1;
    bad.run.sq[0] = (uint8_t)((47 - 1) + (47 - 1) / 10); /* square 47: empty */
    CHECK(cd_position_validate(&bad, err, sizeof err) == CD_ERR_POSITION);
    CHECK(strstr(err, "king-move count") != NULL);
    bad.run.len[0] = 0; /* a square without a count */
    CHECK(cd_position_validate(&bad, err, sizeof err) == CD_ERR_POSITION);
    cd_position ib = fen("international", "W:WK48,46:B1");
    ib.run.len[0] = 1;
    ib.run.sq[0] = (uint8_t)((48 - 1) + (48 - 1) / 10);
    CHECK(cd_position_validate(&ib, err, sizeof err) == CD_ERR_POSITION);
    /* diagonal variants never get a count */
    cd_position in = after(fen("international", "W:WK48,46:BK5,1"), "48-43 5-10 43-48");
    CHECK(!in.run.len[0] && !in.run.len[1] && !in.run.sq[0] && !in.run.sq[1]);
}

static cd_game *game_from(const char *variant, const char *text)
{
    cd_position p = fen(variant, text);
    return cd_game_new(cd_rules_find(variant), &p);
}

static void play_all(cd_game *g, const char *const *mv, int n)
{
    char err[512];
    for (int i = 0; i < n; i++) {
        cd_result r = cd_game_play_text(g, mv[i], err, sizeof err);
        if (r != CD_OK)
            fprintf(stderr, "move %s: %s\n", mv[i], err);
        CHECK(r == CD_OK);
    }
}

/* Plays plies moves cycling through the 4 of shuffle: the game goes on until the last of them,
 * which ends it in a draw for reason why, that many plies on. */
static void drawn_after(cd_game *g, const char *const shuffle[4], int plies, cd_reason why)
{
    int start = cd_game_ply(g);
    cd_reason got;
    for (int i = 0; i < plies - 1; i++)
        play_all(g, shuffle + i % 4, 1);
    CHECK(cd_game_status(g, NULL) == CD_ONGOING);
    play_all(g, shuffle + (plies - 1) % 4, 1);
    CHECK(cd_game_status(g, &got) == CD_DRAW && got == why);
    CHECK(cd_game_ply(g) == start + plies);
}

static void test_game(void)
{
    cd_reason why;
    static const char *const shuffle[] = {"47-42", "1-7", "42-47", "7-1"};

    /* threefold repetition: the start position again at plies 4 and 8 */
    cd_game *g = game_from("international", "W:WK47:BK1");
    cd_game_set_draw_rules(g, CD_DRAW_REPETITION);
    play_all(g, shuffle, 4);
    play_all(g, shuffle, 3);
    CHECK(cd_game_status(g, &why) == CD_ONGOING);
    play_all(g, shuffle + 3, 1);
    CHECK(cd_game_status(g, &why) == CD_DRAW && why == CD_REASON_REPETITION);
    CHECK(cd_game_play_text(g, "47-42", NULL, 0) == CD_ERR_ARG); /* the game is over */
    CHECK(cd_game_undo(g) && cd_game_status(g, NULL) == CD_ONGOING);
    cd_game_free(g);

    /* FMJD 5-move rule for 1 king against 1 king: 10 plies */
    g = game_from("international", "W:WK47:BK1");
    cd_game_set_draw_rules(g, CD_DRAW_FMJD_ENDGAME);
    drawn_after(g, shuffle, 10, CD_REASON_ENDGAME);
    cd_game_free(g);

    /* the same ending in constitutional has no move-count rule by default */
    CHECK(!(cd_rules_find("constitutional")->draw & CD_DRAW_FMJD_ENDGAME));

    /* 25 moves each with only kings: 50 plies */
    g = game_from("international", "W:WK47,36:BK1,15");
    cd_game_set_draw_rules(g, CD_DRAW_KINGS_ONLY);
    drawn_after(g, shuffle, 50, CD_REASON_NO_PROGRESS);
    cd_game_free(g);

    /* Frisian: 25 moves each with kings and no capture is a draw ([V] line 241) */
    static const char *const fshuffle[] = {"50-45", "1-6", "45-50", "6-1"};
    g = game_from("frisian", "W:WK46,K50:BK1,K5"); /* kings only: no king-move limit */
    cd_game_set_draw_rules(g, cd_game_draw_rules(g) & ~CD_DRAW_REPETITION);
    drawn_after(g, fshuffle, 50, CD_REASON_NO_PROGRESS);
    cd_game_free(g);

    /* Frisian endgame counts (variant.c; lidraughts' rule): kings only, 1 king against 1 is drawn
     * after 2 moves each (4 plies), 2 kings against 1 after 7 moves each (14 plies). The kings
     * shuffle between edge squares where none can be taken. */
    g = game_from("frisian", "W:WK50:BK1");
    CHECK(cd_game_draw_rules(g) & CD_DRAW_FRISIAN_ENDGAME);
    drawn_after(g, fshuffle, 4, CD_REASON_ENDGAME);
    cd_game_free(g);
    g = game_from("frysk", "W:WK50,K46:BK1");
    cd_game_set_draw_rules(g, cd_game_draw_rules(g) & ~CD_DRAW_REPETITION); /* a shuffle repeats */
    drawn_after(g, fshuffle, 14, CD_REASON_ENDGAME);
    cd_game_free(g);
    /* counted from the capture that made the balance: 46x37 takes the king on 41, then 14 plies */
    static const char *const bshuffle[] = {"1-6", "50-45", "6-1", "45-50"};
    g = game_from("frisian", "W:WK50,K46:BK1,K41");
    cd_game_set_draw_rules(g, cd_game_draw_rules(g) & ~CD_DRAW_REPETITION);
    play_all(g, (const char *const[]){"46x37"}, 1);
    drawn_after(g, bshuffle, 14, CD_REASON_ENDGAME);
    cd_game_free(g);
    /* (2 kings against 2 have no count: the 25-move test above reaches its 50 plies) */

    /* win by capturing the last piece; antidraughts reverses it */
    g = game_from("international", "W:W33:B28");
    play_all(g, (const char *const[]){"33x22"}, 1);
    CHECK(cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_NO_PIECES);
    CHECK(!strcmp(cd_status_pdn(cd_rules_find("international"), CD_WHITE_WINS), "2-0"));
    cd_game_free(g);
    g = game_from("antidraughts", "W:W33:B28");
    play_all(g, (const char *const[]){"33x22"}, 1);
    CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_PIECES);
    cd_game_free(g);

    /* blocked: black man 45... white to move with a blocked man loses */
    g = game_from("international", "W:W46:B41,37");
    CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_MOVES);
    cd_game_free(g);

    /* breakthrough: the first king wins */
    g = game_from("breakthrough", "W:W6:B45");
    play_all(g, (const char *const[]){"6-1"}, 1);
    CHECK(cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_BREAKTHROUGH);
    cd_game_free(g);

    /* illegal moves change nothing; resignation */
    g = cd_game_new(cd_rules_find("english"), NULL);
    char err[512];
    CHECK(cd_game_play_text(g, "21-17", err, sizeof err) == CD_ERR_ILLEGAL); /* Black starts */
    CHECK(cd_game_ply(g) == 0);
    play_all(g, (const char *const[]){"9-13", "22-18"}, 2);
    CHECK(cd_game_ply(g) == 2);
    cd_game_resign(g, CD_BLACK);
    CHECK(cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_RESIGNATION);
    /* the first score is the first mover's: Black's in English, White's in Russian */
    CHECK(!strcmp(cd_status_pdn(cd_rules_find("english"), CD_WHITE_WINS), "0-1"));
    CHECK(!strcmp(cd_status_pdn(cd_rules_find("english"), CD_BLACK_WINS), "1-0"));
    CHECK(!strcmp(cd_status_pdn(cd_rules_find("russian"), CD_WHITE_WINS), "1-0"));
    CHECK(!strcmp(cd_status_pdn(cd_rules_find("thai"), CD_BLACK_WINS), "1-0"));
    cd_game_free(g);
}

/* Rule C threat tracks in which the attacker passes over its own start square
 * (found by the reference comparison, tests/test_reference.c). */
static int has_move(const char *variant, unsigned sw, const char *text, const char *mv)
{
    cd_rules r = *cd_rules_find(variant);
    r.flags |= sw;
    cd_position p;
    char err[256], buf[128];
    if (cd_position_from_fen(&p, &r, text, err, sizeof err) != CD_OK)
        return -1;
    int n = cd_generate(&p, &list);
    for (int i = 0; i < n; i++) {
        cd_move_to_hub(&p, &list.moves[i], buf, sizeof buf);
        if (!strcmp(buf, mv))
            return 1;
    }
    return 0;
}

static void test_king_zone(void)
{
    cd_position p = fen("constitutional", "W:W33,K46:BK5,12");
    int z[64];
    int n = cd_king_zone(&p, 46, z, 64);
    CHECK(n == 7 && z[0] == 14 && z[1] == 19 && z[5] == 37 && z[6] == 41);
    n = cd_king_zone(&p, 5, z, 64);
    CHECK(n == 7 && z[0] == 10 && z[6] == 37);
    CHECK(cd_king_zone(&p, 33, z, 64) == 0); /* a man has no zone */
}

static void test_rule_c_tracks(void)
{
    CHECK(has_move("brazilian-constitutional", 0, "B:WK22,K25:BK6,K17,K18,19,K26,27", "17-10") ==
          1);
    CHECK(has_move("russian-constitutional", CD_CON_NO_PASS_TO_SAC, "B:WK17:B2,K11,K13,14,21,22,24",
                   "13-6") == 0);
    CHECK(has_move("brazilian-constitutional", CD_CON_SAC_KINGS_ONLY, "W:W14,16,K18,19,22,27:B4,K7",
                   "18-8") == 1);
    CHECK(has_move("constitutional", CD_CON_NO_PASS_TO_SAC, "W:W12,K24,K35,38,42,43,45:BK30",
                   "35-44") == 0);
    CHECK(has_move("russian-constitutional", CD_CON_OBSTRUCT_BY_MEN, "B:W18,23,26:B6,7,14,K30",
                   "30-21") == 0);
}

/* Issue 8: the 80-cell geometry, the giveaway goal, the two-move turn. */
static void test_family(void)
{
    /* The 10x8 board with International rules against dctl's Spantsiretti perft (drop; dctl
     * board_rectangular.cpp, FMJD-forum t=3014): checks the geometry that spantsiretti (Russian
     * rules on it) uses. */
    cd_rules intl108 = *cd_rules_find("international");
    intl108.geometry = CD_GEOM_10X8;
    intl108.men_rows = 3;
    static const uint64_t dctl[] = {9, 81, 658, 4265, 27117, 167140, 1029319, 6127190};
    cd_position p;
    cd_position_start(&p, &intl108);
    for (int d = 1; d <= 8; d++)
        CHECK(cd_perft(&p, d) == dctl[d - 1]);

    /* Thai captures (pieces leave as they are jumped, kings land right behind each) against
     * dctl's Thai perft (perft.md 3.8), which starts from 12 men a side (3 rows; Thai is
     * played with 8): this row's rules with men_rows 3 */
    cd_rules thai12 = *cd_rules_find("thai");
    thai12.men_rows = 3;
    static const uint64_t dthai[] = {7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648};
    cd_position_start(&p, &thai12);
    for (int d = 1; d <= 9; d++)
        CHECK(cd_perft(&p, d) == dthai[d - 1]);

    /* giveaway: the side to move without a move wins (here: without pieces) */
    cd_reason why;
    cd_game *g = game_from("russian-giveaway", "W:WK29:B25");
    char err[256];
    CHECK(cd_game_play_text(g, "29x22", err, sizeof err) == CD_OK);
    CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_PIECES);
    cd_game_free(g);
    g = game_from("russian", "W:WK29:B25");
    CHECK(cd_game_play_text(g, "29x22", err, sizeof err) == CD_OK);
    CHECK(cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_NO_PIECES);
    cd_game_free(g);

    /* two-move: White, White, Black, Black, White; the key tells the two halves apart */
    cd_position_start(&p, cd_rules_find("russian-two-move"));
    cd_position q = after(p, "c3-d4");
    CHECK(q.side == CD_WHITE && q.second == 1);
    cd_position q2 = q;
    CHECK(cd_position_set_second(&q2, 0) == CD_OK && q2.key != q.key);
    q = after(q, "d4-c5");
    CHECK(q.side == CD_BLACK && q.second == 0);
    q = after(q, "b6:d4");
    CHECK(q.side == CD_BLACK && q.second == 1);
    q = after(q, "d4-c3");
    CHECK(q.side == CD_WHITE && q.second == 0);
    CHECK(cd_position_set_second(&p, 1) == CD_OK);
    cd_position_start(&p, cd_rules_find("russian"));
    CHECK(cd_position_set_second(&p, 1) == CD_ERR_ARG);
}

int main(void)
{
    test_variants();
    test_fen();
    test_hub_dxp();
    test_moves_text();
    test_circle();
    test_keys();
    test_king_run();
    test_game();
    test_rule_c_tracks();
    test_king_zone();
    test_family();
    test_move_loss();
    printf("unit: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
