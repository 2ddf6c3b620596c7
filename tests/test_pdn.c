/*
 * test_pdn.c -- PDN reading and writing through the public header: the sample
 * files in tests/pdn/, round trips of every variant (from the start and from
 * set-up positions), the tag list, variant selection, malformed input with
 * its error code and "line L col C", and robustness (truncations, mutations,
 * deep nesting, long words) -- every input must end in a game or an error.
 *
 * Run from the repository root: build/test_pdn [dir-of-samples].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

#include "check.h"

static const char *sample_dir = "tests/pdn";
static cd_pdn_tags tags;
static char buf[1 << 16], err[1024];

/* ------------------------------------------------------------------ helpers */

static char *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", sample_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Read the one game of text (rules as given); NULL and a message on error. */
static cd_game *read1(const char *text, const cd_rules *rules)
{
    size_t pos = 0;
    cd_game *g = NULL;
    cd_result r = cd_pdn_read(text, &pos, rules, &g, &tags, err, sizeof err);
    if (r != CD_OK)
        fprintf(stderr, "unexpected PDN error %s: %s\n", cd_result_str(r), err);
    return g;
}

static const char *final_fen(const cd_game *g)
{
    static char fen[512];
    const cd_position *p = cd_game_position(g);
    cd_position_to_fen(p, 0, fen, sizeof fen);
    return fen;
}

/* The text of ply i in the variant's notation. */
static const char *ply_text(const cd_game *g, int i)
{
    static char t[256];
    cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), -1, t, sizeof t);
    return t;
}

static int same_start(const cd_game *a, const cd_game *b)
{
    const cd_position *p = cd_game_position_at(a, 0), *q = cd_game_position_at(b, 0);
    return p->rules == q->rules && p->side == q->side && p->key == q->key &&
           !memcmp(p->white, q->white, sizeof p->white) &&
           !memcmp(p->black, q->black, sizeof p->black) &&
           !memcmp(p->kings, q->kings, sizeof p->kings);
}

/* Same start, same moves, same result and reason. */
static int same_game(const cd_game *a, const cd_game *b)
{
    if (!a || !b || !same_start(a, b) || cd_game_ply(a) != cd_game_ply(b))
        return 0;
    for (int i = 0; i < cd_game_ply(a); i++)
        if (!cd_move_equal(cd_game_move(a, i), cd_game_move(b, i)))
            return 0;
    cd_reason ra, rb;
    return cd_game_status(a, &ra) == cd_game_status(b, &rb) && ra == rb;
}

/* Write g, read it back, and compare; also write the copy and compare the texts. */
static void round_trip(const cd_game *g, const cd_pdn_tags *t, const char *what)
{
    static char first[1 << 16], again[1 << 16];
    static cd_pdn_tags back;
    size_t n = cd_pdn_write(g, t, first, sizeof first);
    CHECK(n < sizeof first);
    size_t pos = 0;
    cd_game *h = NULL;
    cd_result r = cd_pdn_read(first, &pos, NULL, &h, &back, err, sizeof err);
    CHECK(r == CD_OK);
    if (r != CD_OK || !same_game(g, h)) {
        failures++;
        fprintf(stderr, "round trip of %s differs (%s)\n%s\n", what, err, first);
    }
    CHECK(pos == n);
    if (h) {
        cd_pdn_write(h, &back, again, sizeof again);
        CHECK_STR(again, first);
        /* nothing but the end after one game */
        cd_game *none = h;
        CHECK(cd_pdn_read(first, &pos, NULL, &none, NULL, err, sizeof err) == CD_OK);
        CHECK(none == NULL);
    }
    cd_game_free(h);
}

/* Expect an error: code, and each of the texts in err. */
static void expect_error(const char *text, const cd_rules *rules, cd_result code, const char *want1,
                         const char *want2)
{
    size_t pos = 0;
    cd_game *g = (cd_game *)&pos; /* must be set to NULL */
    err[0] = '\0';
    cd_result r = cd_pdn_read(text, &pos, rules, &g, NULL, err, sizeof err);
    checks++;
    if (r != code || g != NULL || (want1 && !strstr(err, want1)) ||
        (want2 && !strstr(err, want2))) {
        failures++;
        fprintf(stderr, "input <<%.60s>>: got %s \"%s\", want %s with \"%s\" \"%s\"\n", text,
                cd_result_str(r), err, cd_result_str(code), want1 ? want1 : "", want2 ? want2 : "");
    }
    CHECK(pos > 0 && pos <= strlen(text));
    if (g && r != CD_OK)
        cd_game_free(g);
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* A game of random legal moves, at most maxply plies, from start (NULL: the start position). */
static cd_game *random_game(const cd_rules *r, const cd_position *start, int maxply)
{
    static cd_movelist list;
    cd_game *g = cd_game_new(r, start);
    while (cd_game_ply(g) < maxply && cd_game_status(g, NULL) == CD_ONGOING) {
        int n = cd_generate(cd_game_position(g), &list);
        cd_game_play(g, &list.moves[rnd() % (unsigned)n]);
    }
    return g;
}

/* ------------------------------------------------------------------ samples */

static void test_international(void)
{
    char *text = load("international.pdn");
    cd_game *g = read1(text, NULL);
    CHECK(g != NULL);
    if (g) {
        CHECK_STR(cd_game_position(g)->rules->name, "international");
        CHECK(cd_game_ply(g) == 65);
        CHECK_STR(ply_text(g, 0), "32-27");
        CHECK_STR(ply_text(g, 52), "35x4");
        CHECK_STR(ply_text(g, 64), "16x7");
        cd_reason why;
        CHECK(cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_NO_PIECES);
        CHECK_STR(final_fen(g), "B:WK1,7,17,22,32-34,36,40,42,44-46,50:B");
        CHECK(tags.count == 8 && tags.dropped == 0);
        CHECK_STR(cd_pdn_tag(&tags, "White"), "Random, Alpha");
        CHECK_STR(cd_pdn_tag(&tags, "GameType"), "20,W,10,10,N2,0");
        CHECK_STR(cd_pdn_tag_name(&tags, 0), "Event");
        CHECK_STR(cd_pdn_tag_value(&tags, 7), "20,W,10,10,N2,0");
        CHECK(cd_pdn_tag(&tags, "FEN") == NULL);
        round_trip(g, &tags, "international.pdn");
        /* the same text with CRLF line ends and a byte order mark */
        size_t n = strlen(text);
        char *crlf = malloc(2 * n + 4), *p = crlf;
        memcpy(p, "\xEF\xBB\xBF", 3);
        p += 3;
        for (size_t i = 0; i < n; i++) {
            if (text[i] == '\n')
                *p++ = '\r';
            *p++ = text[i];
        }
        *p = '\0';
        cd_game *h = read1(crlf, NULL);
        CHECK(same_game(g, h));
        CHECK_STR(cd_pdn_tag(&tags, "Event"), "condraughts test: International");
        cd_game_free(h);
        free(crlf);
    }
    cd_game_free(g);
    free(text);
}

static void test_russian(void)
{
    char *text = load("russian.pdn");
    cd_game *g = read1(text, NULL);
    CHECK(g != NULL);
    if (g) {
        CHECK_STR(cd_game_position(g)->rules->name, "russian");
        CHECK(cd_game_ply(g) == 94);
        CHECK_STR(ply_text(g, 2), "h4:f6");
        CHECK_STR(ply_text(g, 93), "h8:a1");
        cd_reason why;
        CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_PIECES);
        CHECK_STR(final_fen(g), "W:W:BK29");
        round_trip(g, &tags, "russian.pdn");
        /* numeric squares and 'x' read the same game; so does "c3d4" without separator */
        cd_game *h = read1("[GameType \"25\"]\n1. 22-18 11-15 2. 18x11 8x15 *", NULL);
        CHECK(h && cd_game_ply(h) == 4);
        CHECK(h && !strcmp(ply_text(h, 0), "c3-d4") && !strcmp(ply_text(h, 2), "d4:f6"));
        cd_game_free(h);
        h = read1("[GameType \"25\"]\n1. c3d4 f6g5 2. g3h4 *", NULL);
        CHECK(h && cd_game_ply(h) == 3);
        cd_game_free(h);
        /* GameType 41: 80-cell draughts (Spantsiretti), 10 files a-j; Black's 15 men on 1-15 */
        h = read1("[GameType \"41\"]\n1. c3-d4 h6-g5 2. i3-j4 *", NULL);
        CHECK(h && cd_game_ply(h) == 3 &&
              !strcmp(cd_game_position(h)->rules->name, "spantsiretti"));
        CHECK(h && !strcmp(ply_text(h, 2), "i3-j4"));
        cd_game_free(h);
    }
    cd_game_free(g);
    free(text);
}

static void test_english(void)
{
    char *text = load("english.pdn");
    cd_game *g = read1(text, NULL);
    CHECK(g != NULL);
    if (g) {
        CHECK_STR(cd_game_position(g)->rules->name, "english");
        CHECK(cd_game_position_at(g, 0)->side == CD_BLACK);
        CHECK(cd_game_ply(g) == 39);
        CHECK_STR(ply_text(g, 0), "10-14");
        CHECK_STR(ply_text(g, 38), "15x24");
        cd_reason why;
        CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_PIECES);
        round_trip(g, &tags, "english.pdn");
        /* English writes 1-0 / 0-1 with the first mover's (Black's) score first, and "1."
         * before Black's move */
        cd_pdn_write(g, NULL, buf, sizeof buf);
        CHECK(strstr(buf, "[Result \"1-0\"]") && strstr(buf, "\n1. 10-14 22-18 2. 11-15"));
        CHECK(strstr(buf, "[GameType \"21\"]") && !strstr(buf, "Variant") && !strstr(buf, "FEN"));
    }
    cd_game_free(g);
    free(text);
}

static void test_annotated(void)
{
    char *text = load("annotated.pdn");
    cd_game *g = read1(text, NULL);
    CHECK(g != NULL);
    if (g) {
        CHECK(cd_game_ply(g) == 30);
        CHECK_STR(ply_text(g, 5), "22-27");
        CHECK_STR(ply_text(g, 12), "33-29");
        CHECK_STR(ply_text(g, 26), "38x18");
        CHECK_STR(ply_text(g, 29), "8x17");
        cd_reason why;
        CHECK(cd_game_status(g, &why) == CD_DRAW && why == CD_REASON_AGREEMENT);
        CHECK_STR(cd_pdn_tag(&tags, "White"), "Annotator, \"The\"");
        CHECK_STR(cd_pdn_tag(&tags, "Black"), "Back\\slash");
        CHECK_STR(cd_pdn_tag(&tags, "Annotator"), "condraughts");
        /* the main line's comments are kept where they stand, not those inside variations */
        CHECK_STR(cd_game_comment(g, 0), "Before the first move.");
        CHECK_STR(cd_game_comment(g, 4), "the left wing");
        CHECK_STR(cd_game_comment(g, 30), "Drawn by agreement.");
        int kept = 0;
        for (int i = 0; i <= cd_game_ply(g); i++)
            kept += cd_game_comment(g, i) != NULL;
        CHECK(kept == 3);
        round_trip(g, &tags, "annotated.pdn");
        cd_pdn_write(g, &tags, buf, sizeof buf);
        CHECK(strstr(buf, "[White \"Annotator, \\\"The\\\"\"]\n[Black \"Back\\\\slash\"]\n"));
        CHECK(
            strstr(buf, "[Annotator \"condraughts\"]\n\n{Before the first move.} 1. 35-30 19-23"));
        CHECK(strstr(buf, " 17-22 {the left wing} 3. 39-33"));
        /* read back, the comments are the same */
        size_t at = 0;
        cd_game *h = NULL;
        CHECK(cd_pdn_read(buf, &at, NULL, &h, NULL, err, sizeof err) == CD_OK && h);
        for (int i = 0; h && i <= cd_game_ply(g); i++)
            CHECK((!cd_game_comment(g, i) && !cd_game_comment(h, i)) ||
                  (cd_game_comment(g, i) && cd_game_comment(h, i) &&
                   !strcmp(cd_game_comment(g, i), cd_game_comment(h, i))));
        cd_game_free(h);
        /* every line of movetext within 80 columns */
        int col = 0, longest = 0;
        for (const char *p = buf; *p; p++) {
            col = *p == '\n' ? 0 : col + 1;
            longest = col > longest ? col : longest;
        }
        CHECK(longest <= 80);
    }
    cd_game_free(g);
    free(text);
}

static void test_constitutional(void)
{
    char *text = load("constitutional.pdn");
    cd_game *g = read1(text, NULL);
    CHECK(g != NULL);
    if (g) {
        CHECK_STR(cd_game_position(g)->rules->name, "constitutional");
        CHECK(cd_game_position(g)->rules->flags & CD_RULE_CONSTITUTIONAL);
        char fen[128];
        cd_position_to_fen(cd_game_position_at(g, 0), 0, fen, sizeof fen);
        CHECK_STR(fen, "B:WK23:BK3,K35,K50");
        CHECK(cd_game_ply(g) == 3);
        cd_reason why;
        CHECK(cd_game_status(g, &why) == CD_BLACK_WINS && why == CD_REASON_NO_PIECES);
        round_trip(g, &tags, "constitutional.pdn");
        cd_pdn_write(g, NULL, buf, sizeof buf);
        /* written with condraughts' GameType 60 (docs/pdn.md), no longer "20", which other
         * programs replay as International */
        CHECK(strstr(buf, "[GameType \"60,W,10,10,N2,0\"]\n[Variant \"constitutional\"]\n"
                          "[SetUp \"1\"]\n[FEN \"B:WK23:BK3,K35,K50\"]\n\n1... 3-8 2. 23-40 35x44 "
                          "0-2\n\n"));
    }
    cd_game_free(g);
    /* Rule C: 3-17 passes the threatened 12 -- legal in International, not here */
    const char *rule_c = "[GameType \"20\"]\n[Variant \"constitutional\"]\n"
                         "[FEN \"B:WK23:BK3,K35,K50\"]\n\n1... 3-17 *\n";
    expect_error(rule_c, NULL, CD_ERR_ILLEGAL, "line 5 col 6: 1... (Black to move)", "'3-17'");
    const char *intl = "[GameType \"20\"]\n[FEN \"B:WK23:BK3,K35,K50\"]\n\n1... 3-17 *\n";
    g = read1(intl, NULL);
    CHECK(g && cd_game_ply(g) == 1);
    cd_game_free(g);
    /* the caller's rules row with a switch is kept when its name matches the Variant tag */
    cd_rules custom = *cd_rules_find("constitutional");
    custom.flags |= CD_CON_NO_PASS_TO_SAC;
    g = read1(text, &custom);
    CHECK(g && cd_game_position(g)->rules == &custom);
    cd_game_free(g);
    free(text);
}

static void test_multi(void)
{
    char *text = load("multi.pdn");
    static const struct {
        const char *variant, *event, *last;
        int plies;
        cd_status status;
        cd_reason reason;
    } want[] = {
        {"international", "multi 1: International, resigned", "12-18", 4, CD_WHITE_WINS,
         CD_REASON_RESIGNATION},
        {"international", NULL, "11x22", 4, CD_ONGOING, CD_REASON_NONE},
        {"brazilian", "multi 3: Brazilian", "f8xh6", 31, CD_WHITE_WINS, CD_REASON_NO_PIECES},
        {"international", "multi 4: header only", NULL, 0, CD_ONGOING, CD_REASON_NONE},
        {"pool", "multi 5: pool, no terminator", "21-17", 10, CD_ONGOING, CD_REASON_NONE},
        {"killer", "multi 6: killer", "14x23", 4, CD_BLACK_WINS, CD_REASON_RESIGNATION},
    };
    size_t pos = 0;
    int k = 0;
    for (;;) {
        cd_game *g = NULL;
        size_t before = pos;
        cd_result r = cd_pdn_read(text, &pos, NULL, &g, &tags, err, sizeof err);
        CHECK(r == CD_OK);
        if (r != CD_OK) {
            fprintf(stderr, "multi.pdn game %d: %s\n", k + 1, err);
            break;
        }
        if (!g)
            break;
        CHECK(pos > before);
        if (k < 6) {
            cd_reason why;
            CHECK_STR(cd_game_position(g)->rules->name, want[k].variant);
            if (want[k].event)
                CHECK_STR(cd_pdn_tag(&tags, "Event"), want[k].event);
            else
                CHECK(tags.count == 0);
            CHECK(cd_game_ply(g) == want[k].plies);
            if (want[k].last)
                CHECK_STR(ply_text(g, cd_game_ply(g) - 1), want[k].last);
            CHECK(cd_game_status(g, &why) == want[k].status && why == want[k].reason);
            round_trip(g, &tags, "a game of multi.pdn");
        }
        k++;
        cd_game_free(g);
    }
    CHECK(k == 6);
    CHECK(pos == strlen(text));
    free(text);
}

/* ------------------------------------------------------------------ round trips */

static void test_round_trips(void)
{
    cd_pdn_tags t;
    cd_pdn_tags_init(&t);
    CHECK(cd_pdn_tag_set(&t, "Event", "Round \"trip\" \\ test") == CD_OK);
    CHECK(cd_pdn_tag_set(&t, "White", "W\tB") == CD_OK); /* written as "W B" */
    CHECK(cd_pdn_tag_set(&t, "Annotator", "test_pdn") == CD_OK);
    CHECK(cd_pdn_tag_set(&t, "FEN", "ignored: the writer writes the game's own") == CD_OK);
    int games = 0;
    for (int v = 0; cd_rules_at(v); v++) {
        const cd_rules *r = cd_rules_at(v);
        for (int seed = 0; seed < 12; seed++) {
            char what[128];
            snprintf(what, sizeof what, "%s game %d", r->name, seed);
            cd_game *g = random_game(r, NULL, seed < 4 ? 400 : 20 + seed * 7);
            if (cd_game_status(g, NULL) == CD_ONGOING && seed % 3 == 1)
                cd_game_resign(g, seed % 2);
            else if (cd_game_status(g, NULL) == CD_ONGOING && seed % 3 == 2)
                cd_game_agree_draw(g);
            round_trip(g, seed % 2 ? &t : NULL, what);
            /* from a set-up position: the position after some random plies */
            if (cd_game_ply(g) > 8) {
                int at = 5 + seed % 3;
                if (cd_game_position_at(g, at)->second) /* a FEN cannot say "second move" */
                    at++;
                cd_position start = *cd_game_position_at(g, at);
                cd_game *h = random_game(r, &start, 60);
                snprintf(what, sizeof what, "%s game %d from a position", r->name, seed);
                round_trip(h, &t, what);
                cd_pdn_write(h, NULL, buf, sizeof buf);
                CHECK(strstr(buf, "[SetUp \"1\"]\n[FEN \""));
                if (cd_game_ply(h) > 0)
                    CHECK(strstr(buf, start.side == r->first ? "\n1. " : "\n1... "));
                cd_game_free(h);
            }
            cd_game_free(g);
            games++;
        }
    }
    int rows = 0;
    while (cd_rules_at(rows))
        rows++;
    CHECK(games == rows * 12);

    /* an ambiguous capture is written with its landing path and read back */
    cd_position p;
    CHECK(cd_position_from_fen(&p, cd_rules_find("international"), "W:WK1:B7,9,11,19,30", err,
                               sizeof err) == CD_OK);
    cd_game *g = cd_game_new(cd_rules_find("international"), &p);
    CHECK(cd_game_play_text(g, "1x34x25x3", err, sizeof err) == CD_OK);
    cd_pdn_write(g, NULL, buf, sizeof buf);
    CHECK(strstr(buf, "\n1. 1x34x25x3 "));
    round_trip(g, NULL, "the ambiguous capture");
    cd_game_free(g);

    /* empty game */
    g = cd_game_new(cd_rules_find("italian"), NULL);
    cd_pdn_write(g, NULL, buf, sizeof buf);
    CHECK(strstr(buf, "[GameType \"22\"]\n\n*\n\n"));
    round_trip(g, NULL, "an empty game");
    cd_game_free(g);

    /* the writer's length: truncated output is terminated, the return value is the full length */
    g = random_game(cd_rules_find("international"), NULL, 40);
    size_t n = cd_pdn_write(g, NULL, buf, sizeof buf);
    char small[64];
    CHECK(cd_pdn_write(g, NULL, small, sizeof small) == n);
    CHECK(strlen(small) == sizeof small - 1 && !strncmp(small, buf, sizeof small - 1));
    CHECK(cd_pdn_write(g, NULL, NULL, 0) == n);
    cd_game_free(g);
}

/* Comments set through the game: written where they stand (the second mover's move after one
 * gets its "N..."), read back the same, dropped by undo with the move they follow. */
static void test_comments(void)
{
    cd_game *g = cd_game_new(cd_rules_find("russian"), NULL);
    CHECK(cd_game_set_comment(g, 1, "no move yet") == CD_ERR_ARG);
    CHECK(cd_game_set_comment(g, 0, "A {nested} remark\nover two lines") == CD_OK);
    CHECK(cd_game_play_text(g, "c3-d4", err, sizeof err) == CD_OK);
    CHECK(cd_game_set_comment(g, 1, "the centre") == CD_OK);
    CHECK(cd_game_play_text(g, "f6-g5", err, sizeof err) == CD_OK);
    CHECK(cd_game_play_text(g, "g3-f4", err, sizeof err) == CD_OK);
    CHECK(cd_game_set_comment(g, 3, "dropped by undo") == CD_OK);
    CHECK(cd_game_undo(g) == 1);
    CHECK(cd_game_comment(g, 3) == NULL);
    CHECK(cd_game_play_text(g, "g3-f4", err, sizeof err) == CD_OK);
    CHECK(cd_game_comment(g, 3) == NULL);
    cd_pdn_write(g, NULL, buf, sizeof buf);
    CHECK(strstr(
        buf, "\n{A {nested) remark over two lines} 1. c3-d4 {the centre} 1... f6-g5 2. g3-f4 *"));
    size_t at = 0;
    cd_game *h = NULL;
    CHECK(cd_pdn_read(buf, &at, NULL, &h, NULL, err, sizeof err) == CD_OK && h);
    if (h) {
        CHECK_STR(cd_game_comment(h, 0), "A {nested) remark over two lines");
        CHECK_STR(cd_game_comment(h, 1), "the centre");
        CHECK(cd_game_comment(h, 2) == NULL && cd_game_comment(h, 3) == NULL);
    }
    cd_game_free(h);
    /* ; comments and several comments at one ply */
    h = read1("1. c3-d4 ; a line comment\n{and a second} f6-g5 *", cd_rules_find("russian"));
    CHECK(h && cd_game_comment(h, 1) &&
          !strcmp(cd_game_comment(h, 1), "a line comment and a second"));
    cd_game_free(h);
    CHECK(cd_game_set_comment(g, 1, NULL) == CD_OK && cd_game_comment(g, 1) == NULL);
    cd_game_free(g);
}

/* ------------------------------------------------------------------ variants and tags */

static void test_variants(void)
{
    static const char *const names[] = {"international", "english", "italian",   "pool",
                                        "spanish",       "russian", "brazilian", "canadian",
                                        "portuguese",    "czech"};
    for (int type = 20; type <= 29; type++) {
        char text[64];
        snprintf(text, sizeof text, "[GameType \"%d\"]\n*\n", type);
        cd_game *g = read1(text, cd_rules_find("killer"));
        CHECK(g && !strcmp(cd_game_position(g)->rules->name, names[type - 20]));
        cd_game_free(g);
    }
    /* GameType 40: Frisian (its row is GameType 40's own; Frysk! writes a Variant tag) */
    cd_game *fg = read1("[GameType \"40,W,10,10,N2,0\"]\n1. 32-28 *", cd_rules_find("killer"));
    CHECK(fg && cd_game_position(fg)->rules == cd_rules_find("frisian") && cd_game_ply(fg) == 1);
    cd_game_free(fg);
    /* no tags: the rules argument, else International */
    cd_game *g = read1("1. c3-d4 f6-g5 *", cd_rules_find("russian"));
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("russian") && cd_game_ply(g) == 2);
    cd_game_free(g);
    g = read1("1. 32-28 *", NULL);
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("international"));
    cd_game_free(g);
    /* Variant wins over the rules argument; names as cd_rules_find takes them */
    g = read1("[Variant \"Killer_Light\"]\n1. 32-28 *", cd_rules_find("russian"));
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("modern"));
    cd_game_free(g);
    g = read1("[GameType \"20,W,10,10,N2,0\"]\n[Variant \"antidraughts\"]\n*", NULL);
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("antidraughts"));
    cd_game_free(g);
    /* the writer's Variant tag: only for rows that are not their GameType's own */
    for (int v = 0; cd_rules_at(v); v++) {
        const cd_rules *r = cd_rules_at(v);
        g = cd_game_new(r, NULL);
        cd_pdn_write(g, NULL, buf, sizeof buf);
        int own = 0;
        for (int k = 0; k < 10; k++)
            own |= !strcmp(r->name, names[k]);
        own |= !strcmp(r->name, "frisian") || !strcmp(r->name, "turkish") ||
               !strcmp(r->name, "spantsiretti") || !strcmp(r->name, "thai");
        CHECK((strstr(buf, "[Variant") == NULL) == own);
        cd_game *h = read1(buf, NULL);
        CHECK(h && cd_game_position(h)->rules == r);
        cd_game_free(h);
        /* a row that is not its GameType's own is written with a number PDN 3.0 gives no
         * variant, which names it alone (the Variant tag dropped) */
        const char *type = strstr(buf, "[GameType \"");
        int number = type ? atoi(type + 11) : -1;
        CHECK(own || number == 96 || number == 97 || number == 98 ||
              (number >= 60 && number <= 72));
        if (!own) {
            char *variant = strstr(buf, "[Variant");
            if (variant)
                memmove(variant, strchr(variant, '\n') + 1, strlen(strchr(variant, '\n') + 1) + 1);
            h = read1(buf, NULL);
            CHECK(h && cd_game_position(h)->rules == r);
            cd_game_free(h);
        }
        cd_game_free(g);
    }
    expect_error("[GameType \"39\"]\n1. 32-28 *", NULL, CD_ERR_VARIANT,
                 "line 1 col 12: unsupported GameType 39 (supported: ", NULL);
    expect_error("[GameType \"draughts\"]\n*", NULL, CD_ERR_VARIANT, "line 1 col 12",
                 "expected a game type number");
    expect_error("[Variant \"dameo\"]\n*", NULL, CD_ERR_VARIANT,
                 "line 1 col 11: unknown Variant \"dameo\"", NULL);
    expect_error("[GameType \"25\"]\n[Variant \"international\"]\n*", NULL, CD_ERR_VARIANT,
                 "line 1 col 12: GameType 25 does not match Variant", NULL);
    expect_error("[GameType \"20,W,8,8,N2,0\"]\n*", NULL, CD_ERR_VARIANT, "line 1 col 12",
                 "board 8x8, but international is played on 10x10");
    expect_error("[GameType \"20,W\"]\n*", NULL, CD_ERR_VARIANT, "line 1 col 12", NULL);
}

static void test_tags(void)
{
    cd_pdn_tags t;
    cd_pdn_tags_init(&t);
    CHECK(t.count == 0 && cd_pdn_tag(&t, "Event") == NULL);
    CHECK(cd_pdn_tag_set(&t, "Event", "A") == CD_OK);
    CHECK(cd_pdn_tag_set(&t, "Site", "B") == CD_OK);
    CHECK(cd_pdn_tag_set(&t, "Date", "C") == CD_OK);
    CHECK(cd_pdn_tag_set(&t, "Site", "a longer site") == CD_OK); /* replaced: moves to the end */
    CHECK(t.count == 3);
    CHECK_STR(cd_pdn_tag_name(&t, 0), "Event");
    CHECK_STR(cd_pdn_tag_name(&t, 1), "Date");
    CHECK_STR(cd_pdn_tag_value(&t, 1), "C");
    CHECK_STR(cd_pdn_tag(&t, "Site"), "a longer site");
    CHECK(cd_pdn_tag(&t, "site") == NULL); /* names are case-sensitive */
    CHECK(cd_pdn_tag_set(&t, "Event", NULL) == CD_OK);
    CHECK(t.count == 2 && cd_pdn_tag(&t, "Event") == NULL);
    CHECK_STR(cd_pdn_tag(&t, "Date"), "C");
    CHECK_STR(cd_pdn_tag(&t, "Site"), "a longer site");
    CHECK(cd_pdn_tag_name(&t, 2) == NULL && cd_pdn_tag_name(&t, -1) == NULL);
    CHECK(cd_pdn_tag_set(&t, "", "x") == CD_ERR_ARG);
    CHECK(cd_pdn_tag_set(&t, "1st", "x") == CD_ERR_ARG);
    CHECK(cd_pdn_tag_set(&t, "Bad name", "x") == CD_ERR_ARG);
    CHECK(cd_pdn_tag_set(&t, NULL, "x") == CD_ERR_ARG);
    CHECK(cd_pdn_tag_set(&t, "Gone", NULL) == CD_OK);
    cd_pdn_tags copy = t; /* a value: copies stand alone */
    CHECK(cd_pdn_tag_set(&t, "Date", "D") == CD_OK);
    CHECK_STR(cd_pdn_tag(&copy, "Date"), "C");
    /* limits */
    static char big[CD_PDN_MAX_VALUE + 1];
    memset(big, 'v', CD_PDN_MAX_VALUE);
    CHECK(cd_pdn_tag_set(&t, "Big", big) == CD_ERR_OVERFLOW);
    big[CD_PDN_MAX_VALUE - 1] = '\0';
    cd_pdn_tags_init(&t);
    int ok = 0;
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "T%d", i);
        ok += cd_pdn_tag_set(&t, name, big) == CD_OK;
    }
    CHECK(ok == 7 && t.count == ok); /* 7 x (2 + 1023 + 2) bytes fit in 8192 */
    cd_pdn_tags_init(&t);
    for (int i = 0; i < CD_PDN_MAX_TAGS + 5; i++) {
        char name[16];
        snprintf(name, sizeof name, "T%d", i);
        CHECK(cd_pdn_tag_set(&t, name, "x") == (i < CD_PDN_MAX_TAGS ? CD_OK : CD_ERR_OVERFLOW));
    }

    /* reading: more tags than fit are counted, and the game is still read */
    static char text[1 << 15];
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "[Tag%d \"value %d\"]\n", i, i);
    snprintf(text + n, sizeof text - n, "[GameType \"21\"]\n1. 11-15 *\n");
    cd_game *g = read1(text, NULL);
    CHECK(g && cd_game_position(g)->rules == cd_rules_find("english")); /* GameType was dropped */
    CHECK(tags.count == CD_PDN_MAX_TAGS && tags.dropped == 101 - CD_PDN_MAX_TAGS);
    CHECK_STR(cd_pdn_tag(&tags, "Tag63"), "value 63");
    cd_game_free(g);

    /* tag syntax: spaces, escapes, an unknown escape kept as is, an empty value */
    g = read1("[ Event   \"a \\\"b\\\" \\\\ \\n\" ]\t; comment\n[Site \"\"]\n*", NULL);
    CHECK(g != NULL);
    CHECK_STR(cd_pdn_tag(&tags, "Event"), "a \"b\" \\ \\n");
    CHECK_STR(cd_pdn_tag(&tags, "Site"), "");
    cd_game_free(g);
}

/* ------------------------------------------------------------------ movetext forms */

static void test_movetext(void)
{
    static const struct {
        const char *text;
        int plies;
        cd_status status;
    } cases[] = {
        {"1.32-28 19-23 2.28x19 14x23 *", 4, CD_ONGOING},
        {"1. 32-28 1... 19-23 2. 28x19 2... 14x23 2-0", 4, CD_WHITE_WINS},
        {"[FEN \"B:W31-50:B1-20\"] 1. ... 19-23 *", 1, CD_ONGOING},
        {"1. ... 32-28 0-2", 1, CD_BLACK_WINS},
        {"32-28 18-23 1-1", 2, CD_DRAW}, /* no move numbers */
        {"1. 32-28! 18-23? 2. 37-32!! 12-18?? 3. 41-37!? 7-12?! 1/2-1/2", 6, CD_DRAW},
        {"1. 32-28(!) 18-23 (?) 2. 37-32 (!?) 0-1", 3, CD_BLACK_WINS},
        {"1. 32-28 $1 $22 18-23 $4 *", 2, CD_ONGOING},
        {"1. 32-28* 18-23 *", 2, CD_ONGOING}, /* '*' on a move: annotation */
        {"1. 32-28 18-23 \xC2\xBD-\xC2\xBD", 2, CD_DRAW},
        {"1. 32-28 18-23 0-0", 2, CD_ONGOING}, /* double forfeit: no status */
        {"1. 32-28 {a} {b} ; c\n% d\n18-23 (18-22 (19-23) 33-29) {e (f} *", 2, CD_ONGOING},
        {"1. 32-28 19-23 2. 28X19 14x23 *", 4, CD_ONGOING},
        {"1. 32-28 19-23 2. 28-19 14-23 *", 4, CD_ONGOING},    /* '-' for captures */
        {"1. 32-28 19-23 2. 28x19x23 14x23 *", 4, CD_ONGOING}, /* Hub form */
        {"", 0, CD_ONGOING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t pos = 0;
        cd_game *g = NULL;
        cd_result r = cd_pdn_read(cases[i].text, &pos, NULL, &g, NULL, err, sizeof err);
        checks++;
        if (i + 1 == sizeof cases / sizeof cases[0]) {
            CHECK(r == CD_OK && g == NULL && pos == 0);
            continue;
        }
        if (r != CD_OK || !g || cd_game_ply(g) != cases[i].plies ||
            cd_game_status(g, NULL) != cases[i].status) {
            failures++;
            fprintf(stderr, "movetext <<%s>>: %s %s plies %d\n", cases[i].text, cd_result_str(r),
                    err, g ? cd_game_ply(g) : -1);
        }
        cd_game_free(g);
    }
    /* only comments and space: no game, and *pos at the end */
    const char *blank = "  {comment}\n; line\n% escape\n\n";
    size_t pos = 0;
    cd_game *g = NULL;
    CHECK(cd_pdn_read(blank, &pos, NULL, &g, NULL, err, sizeof err) == CD_OK && g == NULL);
    CHECK(pos == strlen(blank));
    /* several games without tags, one line */
    const char *line = "1. 32-28 2-0 1. 31-26 0-2 1. 34-29 * 1. 33-29";
    int n = 0;
    pos = 0;
    while (cd_pdn_read(line, &pos, NULL, &g, &tags, err, sizeof err) == CD_OK && g) {
        n++;
        CHECK(cd_game_ply(g) == 1);
        cd_game_free(g);
    }
    CHECK(n == 4 && pos == strlen(line));
    /* a file that plays on past a draw our rules would declare: still read */
    g = read1("[GameType \"20\"]\n[FEN \"W:WK50:BK5\"]\n"
              "1. 50-45 5-10 2. 45-50 10-5 3. 50-45 5-10 4. 45-50 10-5 5. 50-44 2-0",
              NULL);
    CHECK(g && cd_game_ply(g) == 9);
    cd_reason why;
    CHECK(g && cd_game_status(g, &why) == CD_WHITE_WINS && why == CD_REASON_RESIGNATION);
    cd_game_free(g);
    /* a drawn result the rules do not give: by agreement; one they give: their reason */
    g = read1("[GameType \"20\"]\n[FEN \"W:WK50:BK5\"]\n"
              "1. 50-45 5-10 2. 45-50 10-5 3. 50-45 5-10 4. 45-50 10-5 1-1",
              NULL);
    CHECK(g && cd_game_status(g, &why) == CD_DRAW && why == CD_REASON_REPETITION);
    cd_game_free(g);
}

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

/* ------------------------------------------------------------------ robustness */

/* Read everything in text; every call must move on or end. Returns the number of calls. */
static int read_all(const char *text, size_t len)
{
    size_t pos = 0;
    int calls = 0;
    for (;;) {
        cd_game *g = NULL;
        size_t before = pos;
        cd_result r = cd_pdn_read(text, &pos, NULL, &g, &tags, err, sizeof err);
        calls++;
        if (r == CD_OK && !g)
            break;
        cd_game_free(g);
        if (pos <= before || pos > len) {
            failures++;
            fprintf(stderr, "no progress at %zu (%s) in <<%.80s>>\n", before, err, text);
            break;
        }
        if (r != CD_OK && !strstr(err, "line ")) {
            failures++;
            fprintf(stderr, "error without a place: %s\n", err);
        }
        if (pos == len)
            break;
    }
    checks++;
    return calls;
}

static void test_robustness(void)
{
    static const char *const files[] = {"international.pdn", "russian.pdn", "english.pdn",
                                        "annotated.pdn",     "multi.pdn",   "constitutional.pdn"};
    char *copy = malloc(1 << 16);
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char *text = load(files[f]);
        size_t n = strlen(text);
        /* every truncation */
        for (size_t cut = 0; cut <= n; cut++) {
            memcpy(copy, text, cut);
            copy[cut] = '\0';
            read_all(copy, cut);
        }
        /* random byte mutations, deletions and duplications */
        static const char alphabet[] = "[]{}()\"\\;%$*!?-x:/.0123456789abcWBK \n\x01\xC2\xff";
        for (int round = 0; round < 400; round++) {
            memcpy(copy, text, n + 1);
            size_t m = n;
            int edits = 1 + (int)(rnd() % 8);
            for (int e = 0; e < edits && m > 1; e++) {
                size_t at = rnd() % m;
                int kind = (int)(rnd() % 3);
                if (kind == 0) {
                    copy[at] = alphabet[rnd() % (sizeof alphabet - 1)];
                } else if (kind == 1) {
                    memmove(copy + at, copy + at + 1, m - at);
                    m--;
                } else if (m + 64 < (1 << 16)) {
                    size_t len = 1 + rnd() % 40;
                    if (at + len > m)
                        len = m - at;
                    memmove(copy + at + len, copy + at, m - at + 1);
                    m += len;
                }
            }
            copy[m] = '\0';
            read_all(copy, strlen(copy));
        }
        free(text);
    }
    /* pathological inputs */
    size_t big = 1 << 20;
    char *s = malloc(big + 1);
    memset(s, '(', big);
    s[big] = '\0';
    read_all(s, big);
    memset(s, '{', big);
    read_all(s, big);
    memset(s, '[', big);
    read_all(s, big);
    for (size_t i = 0; i < big; i++)
        s[i] = "1. 32-28 (18-23) "[i % 17];
    read_all(s, big);
    for (size_t i = 0; i < big; i++)
        s[i] = "[E \"1\"]\n"[i % 8];
    read_all(s, big);
    for (size_t i = 0; i < big; i++)
        s[i] = (char)(1 + rnd() % 255);
    read_all(s, big);
    free(s);
    free(copy);
}

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
    /* a match score in place of the result (delfts.pdn): an error that says so */
    expect_error("[Result \"4-6\"]\n1. 32-28 19-23 4-6", NULL, CD_ERR_ILLEGAL,
                 "line 2 col 16: 2. (White to move): '4-6' (the Result tag's value)", NULL);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        sample_dir = argv[1];
    test_international();
    test_russian();
    test_english();
    test_annotated();
    test_constitutional();
    test_multi();
    test_round_trips();
    test_comments();
    test_variants();
    test_tags();
    test_movetext();
    test_errors();
    test_robustness();
    test_field_files();
    printf("test_pdn: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
