/*
 * test_pdn_read_errors.c -- PDN reading through the public header, where it refuses or warns:
 * malformed input with its error code and "line L col C", and what other programs write (the
 * field files of issue 15). The rest is test_pdn.c's.
 *
 * Usage: build/test_pdn_read_errors (no files needed).
 */
#include "pdn_check.h"

/* ------------------------------------------------------------------ errors */

static void test_errors(void)
{
    expect_error("[Event \"x\"]\n[Site \"y\"\n1. 32-28 *", NULL, CD_ERR_MOVE,
                 "line 2 col 1: unterminated tag Site", NULL);
    expect_error("[Event \"abc]\n1. 32-28 *", NULL, CD_ERR_MOVE,
                 "line 1 col 8: tag Event: unterminated value", NULL);
    expect_error("[Event \"abc", NULL, CD_ERR_MOVE, "line 1 col 8", "unterminated value");
    expect_error("[Event", NULL, CD_ERR_MOVE, "line 1 col 7", "expected '\"'");
    expect_error("[Event x]\n*", NULL, CD_ERR_MOVE, "line 1 col 8", "expected '\"'");
    expect_error("[\"x\"]\n*", NULL, CD_ERR_MOVE, "line 1 col 2", "expected a name");
    expect_error("[1Event \"x\"]\n*", NULL, CD_ERR_MOVE, "line 1 col 2", "not a valid name");
    expect_error("\n\n  [FEN \"W:W31-50:B1-20x\"]\n*", NULL, CD_ERR_FEN, "line 3 col 9: FEN", NULL);
    expect_error("[GameType \"21\"]\n[FEN \"hello\"]\n*", NULL, CD_ERR_FEN, "line 2 col 7", NULL);
    expect_error("[FEN \"W:W1:B50\"]\n*", NULL, CD_ERR_POSITION, "line 1 col 7", NULL);
    /* an illegal move names line, column, the move and the legal ones */
    expect_error("[GameType \"20\"]\n\n1. 32-28 19-23\n2. 28x19 14x23\n3. 33-28 20-24 *\n", NULL,
                 CD_ERR_ILLEGAL, "line 5 col 10: 3... (Black to move): move '20-24'",
                 "legal moves: 23x32");
    expect_error("1. 32-28 18-23\n   2. 31-26 23-29 *", NULL, CD_ERR_ILLEGAL,
                 "line 2 col 13: 2... (Black to move): move '23-29'", NULL);
    expect_error("[FEN \"W:WK1:B7,9,11,19,30\"]\n1. 1x3 *", NULL, CD_ERR_AMBIGUOUS,
                 "line 2 col 4: 1. (White to move): move '1x3' is ambiguous", "1x34x25x3");
    expect_error("1. 32-99 *", NULL, CD_ERR_MOVE, "line 1 col 4", "not a square");
    expect_error("1. 32-28 18-23 2. 2-0-1 *", NULL, CD_ERR_MOVE, "line 1 col 19", "not a square");
    /* move after the end */
    expect_error("[GameType \"20\"]\n[Variant \"constitutional\"]\n[FEN \"B:WK23:BK3,K35,K50\"]\n"
                 "1... 3-8 2. 23-40 35x44 3. 12-17 0-2",
                 NULL, CD_ERR_ILLEGAL, "line 4 col 28", "after the end of the game (no pieces");
    /* comments and variations */
    expect_error("1. 32-28 { never closed\n18-23 *", NULL, CD_ERR_MOVE,
                 "line 1 col 10: unterminated comment", NULL);
    expect_error("1. 32-28 (1. 33-28 18-23\n2. 38-33 *", NULL, CD_ERR_MOVE,
                 "line 1 col 10: unterminated variation", NULL);
    expect_error("1. 32-28 (18-23 (17-22) 2-0\n[Event \"next\"]\n*", NULL, CD_ERR_MOVE,
                 "line 1 col 10: unterminated variation", NULL);
    expect_error("1. 32-28 ) *", NULL, CD_ERR_MOVE, "line 1 col 10: ')' without '('", NULL);
    expect_error("1. 32-28 } *", NULL, CD_ERR_MOVE, "line 1 col 10: '}' without '{'", NULL);
    expect_error("1. 32-28 $x *", NULL, CD_ERR_MOVE, "line 1 col 10", "NAG");
    expect_error("1. 32-28 /FEN \"W:W1\"/ *", NULL, CD_ERR_MOVE, "line 1 col 10", "set-up");
    /* garbage */
    expect_error("hello world", NULL, CD_ERR_MOVE, "line 1 col 1: unexpected 'hello'", NULL);
    expect_error("1. 32-28 @", NULL, CD_ERR_MOVE, "line 1 col 10: unexpected character '@'", NULL);
    expect_error("\x01\x02\x03", NULL, CD_ERR_MOVE, "line 1 col 1", "0x01");
    expect_error("1. 32-28 \xff\xfe", NULL, CD_ERR_MOVE, "line 1 col 10", "unexpected '?\?'");
    expect_error("\"quoted\"", NULL, CD_ERR_MOVE, "line 1 col 1", NULL);
    expect_error("1. 41. -x- *", NULL, CD_ERR_MOVE, "line 1 col 8: unexpected '-x-'", NULL);
    /* length limits */
    static char text[1 << 14];
    memset(text, '(', 200);
    strcpy(text + 200, " *");
    expect_error(text, NULL, CD_ERR_OVERFLOW, "line 1 col 65: variations nested deeper than 64",
                 NULL);
    memset(text, '7', 300);
    text[300] = '\0';
    expect_error(text, NULL, CD_ERR_OVERFLOW, "line 1 col 1: a word of 300 characters", NULL);
    strcpy(text, "[Event \"");
    memset(text + 8, 'e', 2000);
    strcpy(text + 2008, "\"]\n*");
    expect_error(text, NULL, CD_ERR_OVERFLOW, "line 1 col 8", "longer than 1023");
    strcpy(text, "[");
    memset(text + 1, 'N', 100);
    strcpy(text + 101, " \"x\"]\n*");
    expect_error(text, NULL, CD_ERR_OVERFLOW, "line 1 col 2", "not a valid name");

    /* arguments */
    size_t pos = 0;
    cd_game *g = NULL;
    CHECK(cd_pdn_read(NULL, &pos, NULL, &g, NULL, err, sizeof err) == CD_ERR_ARG);
    CHECK(cd_pdn_read("*", NULL, NULL, &g, NULL, err, sizeof err) == CD_ERR_ARG);
    CHECK(cd_pdn_read("*", &pos, NULL, NULL, NULL, err, sizeof err) == CD_ERR_ARG);
    CHECK(cd_pdn_read("1. 32-99", &pos, NULL, &g, NULL, NULL, 0) == CD_ERR_MOVE);
    CHECK(cd_pdn_write(NULL, NULL, buf, sizeof buf) == 0 && buf[0] == '\0');

    /* after an error, reading goes on with the next game */
    const char *three = "[Event \"one\"]\n1. 32-28 *\n\n"
                        "[Event \"two\"]\n[Round \"2\"]\n1. 32-28 18-23\n2. 28x19 *\n\n"
                        "[Event \"three\"]\n1. 31-26 *\n"
                        "[Event \"four\"\n[Round \"4\"]\n1. 31-26 *\n"
                        "[Event \"five\"]\n1. 34-29 *\n";
    const char *events[] = {"one", NULL, "three", NULL, "five"};
    pos = 0;
    for (int k = 0; k < 5; k++) {
        cd_result r = cd_pdn_read(three, &pos, NULL, &g, &tags, err, sizeof err);
        if (events[k]) {
            CHECK(r == CD_OK && g != NULL);
            CHECK_STR(cd_pdn_tag(&tags, "Event"), events[k]);
        } else {
            CHECK(r != CD_OK && g == NULL);
        }
        cd_game_free(g);
    }
    CHECK(cd_pdn_read(three, &pos, NULL, &g, &tags, err, sizeof err) == CD_OK && g == NULL);
}

/* ------------------------------------------------------------------ field files */

/* Read the one game of text; *warning gets the warning (err on CD_OK), "" when there is none. */
static cd_game *read_warned(const char *text, const cd_rules *rules, const char **warning)
{
    cd_game *g = read1(text, rules);
    *warning = g ? err : "";
    return g;
}

/* The text of move i of g (numeric). */
static const char *move_text(const cd_game *g, int i)
{
    static char mv[128];
    cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), 0, mv, sizeof mv);
    return mv;
}

/*
 * What other programs write (issue 15; the files of ../shared/data/real-pdn): a space inside a
 * move, lidraughts' GameTypes, playstrategy's American/English, '?' as the side to move, '-' for
 * an unknown move, an ambiguous capture of which one path lets the game go on, a multi-capture
 * written as single jumps, a match score as the result.
 */
static void test_field_files(void)
{
    const char *w;
    /* "1- 6" and "35x 4" (DUTCH96H.pdn, schildpad.pdn): PDN 3.0's reading grammar separates
     * tokens by white space */
    cd_game *g = read_warned("[GameType \"20\"]\n1. 32-28 19- 23 2. 28x\n19 14x 23 *", NULL, &w);
    CHECK(g && cd_game_ply(g) == 4 && !strcmp(move_text(g, 1), "19-23") && w[0] == '\0');
    CHECK(g && !strcmp(move_text(g, 2), "28x19"));
    cd_game_free(g);
    /* lidraughts' GameTypes (its Variant classes): 96 Breakthrough, 97 Frysk!, 98 Antidraughts;
     * PDN 3.0's 31 is Thai */
    static const struct {
        const char *type, *variant;
    } lidraughts[] = {
        {"96", "breakthrough"}, {"97", "frysk"}, {"98", "antidraughts"}, {"31", "thai"}};
    for (size_t i = 0; i < sizeof lidraughts / sizeof lidraughts[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[GameType \"%s\"]\n*", lidraughts[i].type);
        g = read1(text, NULL);
        CHECK(g && cd_game_position(g)->rules == cd_rules_find(lidraughts[i].variant));
        cd_game_free(g);
        /* the same with --variant given, and with the Variant tag as lidraughts writes it */
        g = read1(text, cd_rules_find(lidraughts[i].variant));
        CHECK(g && cd_game_position(g)->rules == cd_rules_find(lidraughts[i].variant));
        cd_game_free(g);
    }
    g = read1("[GameType \"97\"]\n[Variant \"Frysk!\"]\n1. 46-41 5-10 *", NULL);
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("frysk") && cd_game_ply(g) == 2);
    cd_game_free(g);
    /* the message lists every GameType read, 31 and 41 among them */
    expect_error("[GameType \"99\"]\n*", NULL, CD_ERR_VARIANT, "31 thai", "41 spantsiretti");
    /* playstrategy: American/English in algebraic squares from the first mover's side, so c3-d4
     * is the classic first move 11-15 (Black's men on 1-12) */
    g = read_warned("[Variant \"American/English\"]\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1", NULL, &w);
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("english") && cd_game_ply(g) == 4);
    CHECK(g && !strcmp(move_text(g, 0), "11-15") && !strcmp(move_text(g, 1), "24-19"));
    /* 0-1: the second mover, White, won (the first score is the first mover's) */
    CHECK(g && cd_game_status(g, NULL) == CD_WHITE_WINS);
    cd_game_free(g);
    /* ... and a capture written as single jumps: 3... g7xe5 4. e5xg3 is White's g7xe5xg3 */
    g = read_warned("[Variant \"American/English\"]\n1. g3-f4 b6-a5 2. c3-d4 f6-e5 3. d4xf6 g7xe5 "
                    "4. e5xg3 h2xf4 *",
                    NULL, &w);
    CHECK(g && cd_game_ply(g) == 7 &&
          strstr(w, "line 2 col 40: 3... (White to move): the capture "
                    "'g7xe5 4. e5xg3' is written as separate jumps"));
    cd_game_free(g);
    /* '?' for the side to move (PDN 3.0's FEN page): the first mover, or the side the first move
     * is legal for */
    g = read_warned("[FEN \"?:W29,13,11:B22,4,2\"]\n*", NULL, &w);
    CHECK(g && cd_game_position(g)->side == CD_WHITE && w[0] == '\0');
    cd_game_free(g);
    g = read1("[FEN \"?:W29,13,11:B22,4,2\"]\n1. 22-27 *", NULL);
    CHECK(g && cd_game_position_at(g, 0)->side == CD_BLACK && cd_game_ply(g) == 1);
    cd_game_free(g);
    expect_error("[FEN \"?:W29,13,11:B22,4,2\"]\n1. 22-33 *", NULL, CD_ERR_ILLEGAL,
                 "line 2 col 4: 1. (White to move): move '22-33' is not legal", NULL);
    /* '-' for an unknown move (abatsiev.pdn): the game up to it, the result, a warning */
    g = read_warned("[Result \"1-1\"]\n1. 32-28 - 2. - - 3. 33-29 - 1-1", NULL, &w);
    CHECK(g && cd_game_ply(g) == 1 && cd_game_status(g, NULL) == CD_DRAW);
    CHECK(strstr(w, "line 2 col 10: 1... (Black to move): an unknown move '-'"));
    cd_game_free(g);
    /* An ambiguous king capture where only one path lets the game go on ("Tricks traps and
     * shots", game 38, the PDN 3.0 repository's English problem collection): 19. 10x26 goes
     * 10x17x26 or 10x19x26, and only after the first is 18-14 legal. */
    const char *tts =
        "[Event \"TTS Game 38 The Paisley Pickle Barrel\"]\n[Result \"1-0\"]\n"
        "1. 11-16 24-19 2. 8-11 22-18 3. 10-14 25-22 4. 16-20 29-25 5. 11-16 18-15 "
        "6. 4-8 28-24 7. 7-10 22-18 8. 3-7 26-22 9. 7-11 31-26 10. 9-13 18x9 "
        "11. 5x14 22-18 12. 1-5 18x9 13. 5x14 26-22 14. 11x18 22x15 15. 2-7 25-22 "
        "16. 14-18 23x14 17. 16x23 27x18 18. 20x27 32x23 19. 10x26 18-14 20. 26-31 1-0";
    g = read_warned(tts, cd_rules_find("english"), &w);
    CHECK(g && cd_game_ply(g) == 39 && !strcmp(move_text(g, 36), "10x17x26"));
    CHECK(strstr(w, "move '10x26' is ambiguous; took 10x17x26, the only path after which"));
    cd_game_free(g);
    /* with the game stopping right after it, both paths replay: still ambiguous, the file's
     * fault (as "Campionato Assoluto 2005.pdn", 13... 3x26) */
    char cut[2048];
    snprintf(cut, sizeof cut, "%.*s 1-0", (int)(strstr(tts, " 18-14") - tts), tts);
    expect_error(cut, cd_rules_find("english"), CD_ERR_AMBIGUOUS,
                 "19. (Black to move): move '10x26'", "replays after more than one of them");
    /* A later ambiguous capture tells the paths of an earlier one apart (schildpad.pdn, game 3,
     * issue 50): after 35. 36x16 by 36x18x7x16, 43. 49x16 is ambiguous and neither of its
     * paths lets the game go on; after 36x13x2x16 the game replays, 49x16 having one path. */
    const char *schildpad =
        "[Event \"10x10II\"]\n[White \"schildpad\"]\n[Black \"ArthurdeSwart\"]\n"
        "[Result \"2-0\"]\n\n"
        "  1. 32-28 18-23  2. 33-29 23x32  3. 37x28 20-24  4. 29x20 15x24  5. 39-33 12-18\n"
        "  6. 44-39  7-12  7. 41-37  1- 7  8. 46-41 10-15  9. 31-27 17-22 10. 28x17 11x31\n"
        " 11. 36x27 18-23 12. 38-32 14-20 13. 34-29 23x34 14. 39x30 20-25 15. 40-34 12-18\n"
        " 16. 43-38  7-12 17. 32-28  5-10 18. 45-40  9-14 19. 38-32  4- 9 20. 41-36  2- 7\n"
        " 21. 36-31 15-20 22. 33-29 24x22 23. 30-24 19x39 24. 40-34 39x30 25. 35x 4  7-11\n"
        " 26. 42-38 14-20 27. 49-44 20-24 28. 48-42 24-29 29. 44-39  9-14 30. 50-45 13-19\n"
        " 31. 31-26 22x31 32.  4x36 29-34 33. 39x30 25x34 34. 26-21 16x27 35. 36x16 19-24\n"
        " 36. 38-33 24-30 37. 32-28 30-35 38. 16-32 14-20 39. 28-22 20-25 40. 32-49  6-11\n"
        " 41. 33-29 34x23 42. 45-40 35x44 43. 49x16 25-30 44. 22-18 30-35 45. 18-13 35-40\n"
        " 46. 16-11 40-45 47. 11-50  3- 9\n2-0\n";
    g = read_warned(schildpad, NULL, &w);
    CHECK(g && cd_game_ply(g) == 94 && !strcmp(move_text(g, 68), "36x13x2x16") &&
          !strcmp(move_text(g, 84), "49x16"));
    CHECK(strstr(w, "35. (White to move): move '36x16' is ambiguous; took 36x13x2x16, the only "
                    "path after which the game goes on"));
    cd_game_free(g);
    /* a match score in place of the result (delfts.pdn): an error that says so */
    expect_error("[Result \"4-6\"]\n1. 32-28 19-23 4-6", NULL, CD_ERR_ILLEGAL,
                 "line 2 col 16: 2. (White to move): '4-6' (the Result tag's value)", NULL);
}

int main(void)
{
    test_errors();
    test_field_files();
    printf("test_pdn_read_errors: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
