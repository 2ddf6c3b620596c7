/*
 * test_dxp.c -- tests of the DXP front end (src/proto/dxp.c).
 *
 *   test_dxp                 unit tests: encode/decode of every message type
 *                            (fixed widths, the spec's examples, round trips,
 *                            malformed input), framing, move matching, BACKREQ
 *                            plies, and random garbage
 *   test_dxp --bin PATH      also scripted-peer tests: runs `PATH dxp --follow`
 *                            and plays against it over a socket (refusals,
 *                            takeback, garbage, illegal move, disconnect, timeout)
 *
 * Prints "test_dxp: N checks ok" and exits 0, or lists the failures and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../src/proto/dxp.h"

static int checks, failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* ------------------------------------------------------------------ encode / decode */

/* Decode s, encode the result again: must give s back. */
static void round_trip(const char *s)
{
    cd_dxp_msg m;
    char err[256], buf[256];
    int rc = cd_dxp_decode(s, strlen(s), &m, err, sizeof err);
    CHECK(rc == 0, "decode '%s': %s", s, err);
    if (rc)
        return;
    int n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == (int)strlen(s) && !strcmp(buf, s), "round trip '%s' -> '%s' (%s)", s, buf,
          n < 0 ? err : "");
}

static void bad(const char *s, const char *why)
{
    cd_dxp_msg m;
    char err[256] = "";
    CHECK(cd_dxp_decode(s, strlen(s), &m, err, sizeof err) < 0, "accepted bad message '%s' (%s)", s,
          why);
    CHECK(err[0] != '\0', "no error text for '%s'", s);
}

static void test_examples(void)
{
    cd_dxp_msg m;
    char err[256];
    /* the examples of the DamExchange pages */
    const char *mv = "M001205250422122320";
    CHECK(cd_dxp_decode(mv, strlen(mv), &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.type == 'M' && m.seconds == 12 && m.from == 5 && m.to == 25 && m.ncaptured == 4,
          "MOVE fields");
    CHECK(m.captured[0] == 22 && m.captured[1] == 12 && m.captured[2] == 23 && m.captured[3] == 20,
          "MOVE captured");
    round_trip(mv);
    round_trip("M0012061100");
    const char *acc = "ATornado voor Windows 4.0        0";
    CHECK(cd_dxp_decode(acc, strlen(acc), &m, err, sizeof err) == 0, "%s", err);
    CHECK(m.type == 'A' && !strcmp(m.name, "Tornado voor Windows 4.0") && m.code == 0,
          "GAMEACC name '%s' code %d", m.name, m.code);
    round_trip(acc);
    /* a blank name field is well formed: it decodes to "" and is sent back as 32 blanks */
    const char *blank = "A                                0";
    CHECK(cd_dxp_decode(blank, strlen(blank), &m, err, sizeof err) == 0 && m.name[0] == '\0',
          "blank GAMEACC name");
    round_trip(blank);
    round_trip("E00");
    round_trip("E21");
    CHECK(cd_dxp_decode("B005Z", 5, &m, err, sizeof err) == 0 && m.move_number == 5 &&
              m.colour == CD_BLACK,
          "BACKREQ");
    round_trip("B005Z");
    round_trip("B123W");
    round_trip("K0");
    round_trip("K2");
    round_trip("CWhat do you think about move 35?");
    CHECK(cd_dxp_decode("Chi", 3, &m, err, sizeof err) == 0 && !strcmp(m.text, "hi"), "CHAT");
}

static void test_gamereq(void)
{
    cd_dxp_msg m, d;
    char buf[256], err[256];
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_GAMEREQ;
    m.version = 1;
    strcpy(m.name, "Kingsrow");
    m.colour = CD_BLACK;
    m.minutes = 5;
    m.moves = 75;
    int n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == 43, "GAMEREQ 'A' length %d (%s)", n, err);
    CHECK(!strcmp(buf, "R01Kingsrow                        Z005075A"), "GAMEREQ '%s'", buf);
    CHECK(cd_dxp_decode(buf, (size_t)n, &d, err, sizeof err) == 0, "%s", err);
    CHECK(d.version == 1 && !strcmp(d.name, "Kingsrow") && d.colour == CD_BLACK && d.minutes == 5 &&
              d.moves == 75 && !d.setup,
          "GAMEREQ fields");

    /* 'B' with the 10x10 start, white to move */
    cd_position pos;
    cd_position_start(&pos, cd_rules_find("international"));
    m.setup = 1;
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == 94, "GAMEREQ 'B' length %d (%s)", n, err);
    CHECK(buf[42] == 'B' && buf[43] == 'W' && buf[44] == 'z' && buf[93] == 'w', "GAMEREQ 'B' %s",
          buf);
    CHECK(cd_dxp_decode(buf, (size_t)n, &d, err, sizeof err) == 0 && d.setup &&
              !strcmp(d.position, m.position),
          "GAMEREQ 'B' decode: %s", err);
    cd_position back;
    CHECK(cd_position_from_dxp(&back, pos.rules, d.position, err, sizeof err) == CD_OK &&
              back.key == pos.key,
          "GAMEREQ position back: %s", err);
    round_trip(buf);
    /* 8x8: a 32-square position */
    cd_position_start(&pos, cd_rules_find("brazilian"));
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == 44 + 32, "8x8 GAMEREQ length %d", n);
    round_trip(buf);
    /* 12x12: 72 squares still fit in 127 characters */
    cd_position_start(&pos, cd_rules_find("canadian"));
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == 44 + 72, "12x12 GAMEREQ length %d (%s)", n, err);

    /* a name is padded to 32, a dctl-style right-justified one is read too */
    char rj[64];
    snprintf(rj, sizeof rj, "R01%32sW010000A", "dctl");
    CHECK(cd_dxp_decode(rj, strlen(rj), &d, err, sizeof err) == 0 && !strcmp(d.name, "dctl"),
          "right-justified name '%s' (%s)", d.name, err);
    /* encode refuses what it cannot write */
    m.setup = 0;
    m.minutes = 1000;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "minutes 1000 encoded");
    m.minutes = 5;
    strcpy(m.name, " lead");
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "leading blank name");
    strcpy(m.name, "123456789012345678901234567890123");
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "33-character name");
    strcpy(m.name, "x");
    m.colour = 7;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "bad colour");
    m.colour = CD_WHITE;
    m.setup = 1;
    strcpy(m.position, "Wwzq");
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "bad square char");
    CHECK(cd_dxp_encode(&m, buf, 10, err, sizeof err) < 0, "small buffer");
}

static void test_other_encodes(void)
{
    cd_dxp_msg m;
    char buf[256], err[256];
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_MOVE;
    m.seconds = 7;
    m.from = 1;
    m.to = 50;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 11 && !strcmp(buf, "M0007015000"),
          "MOVE '%s'", buf);
    m.seconds = 10000;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "seconds 10000");
    m.seconds = 0;
    m.from = 0;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "from 0");
    m.from = 1;
    m.ncaptured = CD_DXP_MAX_CAPTURES;
    for (int i = 0; i < m.ncaptured; i++)
        m.captured[i] = 1 + i;
    int n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECK(n == 11 + 2 * CD_DXP_MAX_CAPTURES && n <= CD_DXP_MAX_LEN, "max captures %d (%s)", n, err);
    round_trip(buf);
    m.ncaptured = CD_DXP_MAX_CAPTURES + 1;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "too many captures");

    memset(&m, 0, sizeof m);
    m.type = CD_DXP_GAMEACC;
    strcpy(m.name, "condraughts 0.1.0");
    m.code = 3;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 34 &&
              !strcmp(buf, "Acondraughts 0.1.0               3"),
          "GAMEACC '%s'", buf);
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_BACKREQ;
    m.move_number = 1000;
    m.colour = CD_WHITE;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "move number 1000");
    m.move_number = 7;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 5 && !strcmp(buf, "B007W"),
          "BACKREQ '%s'", buf);
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_CHAT;
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "empty chat");
    memset(m.text, 'a', CD_DXP_MAX_LEN - 1);
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == CD_DXP_MAX_LEN, "126-char chat");
    memset(m.text, 'a', CD_DXP_MAX_LEN);
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "127-char chat");
    m.type = 'X';
    CHECK(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "unknown type");
}

static void test_malformed(void)
{
    bad("", "empty");
    bad("X", "unknown type");
    bad("m0012061100", "lower-case type");
    bad("M001206110", "MOVE too short");
    bad("M00120611000", "MOVE one character too many");
    bad("M0012061101", "count 1 without a square");
    bad("M00120611011213", "count 1 with two squares");
    bad("M00a2061100", "letter in time");
    bad("M0012 61100", "blank in from");
    bad("M0012001100", "from 00");
    bad("M0012060000", "to 00");
    bad("M001206110100", "captured 00");
    bad("M-012061100", "sign");
    bad("E0", "GAMEEND short");
    bad("E000", "GAMEEND long");
    bad("Ex0", "GAMEEND letter");
    bad("B05Z", "BACKREQ short");
    bad("B005X", "BACKREQ colour");
    bad("B000W", "BACKREQ move 0");
    bad("K", "BACKACC short");
    bad("K00", "BACKACC long");
    bad("A name", "GAMEACC short");
    bad("Acondraughts 0.1.0               ", "GAMEACC without code");
    bad("C", "CHAT without text");
    bad("R01Kingsrow                        Z005075", "GAMEREQ without start");
    bad("R01Kingsrow                        X005075A", "GAMEREQ colour");
    bad("R01Kingsrow                        Z0a5075A", "GAMEREQ minutes");
    bad("R01Kingsrow                        Z005075C", "GAMEREQ start flag");
    bad("R01Kingsrow                        Z005075AW", "GAMEREQ 'A' with extra");
    bad("R01Kingsrow                        Z005075B", "GAMEREQ 'B' without position");
    bad("R01Kingsrow                        Z005075BXeeee", "GAMEREQ 'B' side");
    bad("R01Kingsrow                        Z005075BWeexe", "GAMEREQ 'B' square");
    bad("Rx1Kingsrow                        Z005075A", "GAMEREQ version");
    /* non-ASCII and embedded NUL */
    const char hi[] = {'C', 'a', (char)0xC3, (char)0xA9, 0};
    bad(hi, "byte > 127");
    cd_dxp_msg m;
    char err[256];
    CHECK(cd_dxp_decode("Ca\0b", 4, &m, err, sizeof err) < 0, "embedded NUL");
    /* over-long */
    char lng[200];
    memset(lng, 'a', sizeof lng);
    lng[0] = 'C';
    CHECK(cd_dxp_decode(lng, CD_DXP_MAX_LEN + 1, &m, err, sizeof err) < 0, "128-char message");
    CHECK(cd_dxp_decode(lng, CD_DXP_MAX_LEN, &m, err, sizeof err) == 0, "127-char chat");
    /* the version is read, not judged: a follower answers GAMEACC code 1 */
    CHECK(cd_dxp_decode("R02Kingsrow                        Z005075A", 43, &m, err, sizeof err) ==
                  0 &&
              m.version == 2,
          "version 02");
    /* NULL arguments */
    CHECK(cd_dxp_decode(NULL, 3, &m, err, sizeof err) < 0, "NULL input");
    CHECK(cd_dxp_encode(NULL, lng, sizeof lng, err, sizeof err) < 0, "NULL message");
}

/* ------------------------------------------------------------------ framing */

static int next_str(cd_dxp_reader *r, char *out)
{
    char err[256];
    size_t n;
    return cd_dxp_reader_next(r, out, CD_DXP_MAX_LEN + 1, &n, err, sizeof err);
}

static void test_framing(void)
{
    cd_dxp_reader r;
    char out[CD_DXP_MAX_LEN + 1];
    cd_dxp_reader_init(&r);
    CHECK(next_str(&r, out) == 0, "empty reader");

    /* one byte at a time */
    const char one[] = "M0012061100";
    for (size_t i = 0; i < sizeof one; i++) { /* with the '\0' */
        CHECK(next_str(&r, out) == 0, "early message at byte %zu", i);
        cd_dxp_reader_push(&r, one + i, 1);
    }
    CHECK(next_str(&r, out) == 1 && !strcmp(out, one), "byte-wise message '%s'", out);
    CHECK(next_str(&r, out) == 0, "nothing left");

    /* several messages, an empty frame and a partial one in a single push */
    const char many[] = "E00\0\0Chello\0K0\0M00";
    cd_dxp_reader_push(&r, many, sizeof many - 1);
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "E00"), "first of many");
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "Chello"), "second of many (empty skipped)");
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "K0"), "third of many");
    CHECK(next_str(&r, out) == 0, "partial held back");
    cd_dxp_reader_push(&r, "12061100", 9);
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "M0012061100"), "partial completed '%s'", out);

    /* an over-long message is dropped and reported once; the next one gets through */
    char big[1000];
    memset(big, 'x', sizeof big);
    big[0] = 'C';
    cd_dxp_reader_push(&r, big, 300);
    CHECK(next_str(&r, out) == -1, "over-long reported");
    cd_dxp_reader_push(&r, big, 600);
    CHECK(next_str(&r, out) == 0, "rest of over-long dropped silently");
    cd_dxp_reader_push(&r, "xx\0E01\0", 7);
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "E01"), "message after over-long '%s'", out);
    /* over-long with its '\0' in the same push */
    big[200] = '\0';
    cd_dxp_reader_push(&r, big, 201);
    cd_dxp_reader_push(&r, "K1", 3);
    CHECK(next_str(&r, out) == -1, "over-long (terminated) reported");
    CHECK(next_str(&r, out) == 1 && !strcmp(out, "K1"), "message after terminated over-long");
    /* exactly 127 characters is fine, 128 is not */
    memset(big, 'y', sizeof big);
    big[0] = 'C';
    big[CD_DXP_MAX_LEN] = '\0';
    cd_dxp_reader_push(&r, big, CD_DXP_MAX_LEN + 1);
    CHECK(next_str(&r, out) == 1 && strlen(out) == CD_DXP_MAX_LEN, "127-character frame");
    big[CD_DXP_MAX_LEN] = 'y';
    big[CD_DXP_MAX_LEN + 1] = '\0';
    cd_dxp_reader_push(&r, big, CD_DXP_MAX_LEN + 2);
    CHECK(next_str(&r, out) == -1, "128-character frame");
    CHECK(next_str(&r, out) == 0, "reader empty at the end");
    /* the buffer never fills: push returns what fits */
    cd_dxp_reader_init(&r);
    char lots[5000];
    memset(lots, 'z', sizeof lots);
    size_t took = cd_dxp_reader_push(&r, lots, sizeof lots);
    CHECK(took == sizeof r.buf, "push takes what fits (%zu)", took);
    CHECK(next_str(&r, out) == -1 && cd_dxp_reader_space(&r) == sizeof r.buf, "full buffer drop");
}

/* ------------------------------------------------------------------ moves */

static void test_moves(void)
{
    char err[256];
    const cd_rules *intl = cd_rules_find("international");
    cd_position pos;
    cd_position_start(&pos, intl);
    cd_dxp_msg m;
    cd_move mv;
    /* a quiet move */
    CHECK(cd_dxp_decode("M0003322800", 11, &m, err, sizeof err) == 0, "%s", err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_OK, "32-28: %s", err);
    CHECK(cd_move_from(&pos, &mv) == 32 && cd_move_to(&pos, &mv) == 28, "32-28 squares");
    cd_dxp_msg back;
    cd_dxp_move_msg(&pos, &mv, 3, &back);
    char buf[256];
    CHECK(cd_dxp_encode(&back, buf, sizeof buf, err, sizeof err) == 11 &&
              !strcmp(buf, "M0003322800"),
          "move -> MOVE '%s'", buf);
    /* illegal: wrong direction, empty origin, a capture that is not there */
    cd_dxp_decode("M0000322600", 11, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "32-26 legal?");
    cd_dxp_decode("M0000252800", 11, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "25-28 legal?");
    cd_dxp_decode("M000032280127", 13, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL,
          "32-28 with a capture legal?");

    /* captures: a white man on 28, black men on 23, 13 and 4 */
    cd_position cap;
    CHECK(cd_position_from_fen(&cap, intl, "W:W28:B23,13,4", err, sizeof err) == CD_OK, "%s", err);
    cd_move first;
    /* 28 over 23 to 19, over 13 to 8: to is 8, captured 23 and 13 */
    CHECK(cd_dxp_decode("M000028080223", 13, &m, err, sizeof err) < 0, "count/length mismatch");
    CHECK(cd_dxp_decode("M00002808022313", 15, &m, err, sizeof err) == 0, "%s", err);
    CHECK(cd_dxp_match_move(&cap, &m, &first, err, sizeof err) == CD_OK, "28x8: %s", err);
    CHECK(first.ncaptured == 2, "28x8 captures two");
    /* the captured squares in any order */
    cd_dxp_decode("M00002808021323", 15, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_OK && cd_move_equal(&mv, &first),
          "captured squares in another order: %s", err);
    /* count 00 for a capture: accepted when from and to decide */
    cd_dxp_decode("M0000280800", 11, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_OK && cd_move_equal(&mv, &first),
          "capture without its squares: %s", err);
    /* wrong captured set, duplicate squares */
    cd_dxp_decode("M00002808022314", 15, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "wrong set");
    cd_dxp_decode("M00002808022323", 15, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "duplicate");
    /* a capture not taking the maximum is illegal (28x19 only takes one) */
    cd_dxp_decode("M000028190123", 13, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "not maximal");

    /* ambiguity with count 00: the king on 44 reaches 42 taking 24,27,37,40 or 21,24,37,40 */
    cd_position amb;
    CHECK(cd_position_from_fen(&amb, intl, "W:WK44:B21,24,27,37,40", err, sizeof err) == CD_OK,
          "%s", err);
    cd_movelist *list = malloc(sizeof *list);
    int n = cd_generate(&amb, list);
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        for (int j = i + 1; j < n && !found; j++)
            if (cd_move_from(&amb, &list->moves[i]) == cd_move_from(&amb, &list->moves[j]) &&
                cd_move_to(&amb, &list->moves[i]) == cd_move_to(&amb, &list->moves[j]) &&
                !cd_move_equal(&list->moves[i], &list->moves[j])) {
                memset(&m, 0, sizeof m);
                m.type = CD_DXP_MOVE;
                m.from = cd_move_from(&amb, &list->moves[i]);
                m.to = cd_move_to(&amb, &list->moves[i]);
                CHECK(cd_dxp_match_move(&amb, &m, &mv, err, sizeof err) == CD_ERR_AMBIGUOUS,
                      "ambiguous without squares");
                cd_dxp_move_msg(&amb, &list->moves[j], 0, &m);
                CHECK(cd_dxp_match_move(&amb, &m, &mv, err, sizeof err) == CD_OK &&
                          cd_move_equal(&mv, &list->moves[j]),
                      "disambiguated by its squares");
                found = 1;
            }
    CHECK(found, "no same-from-to captures in the ambiguity position (%d moves)", n);
    /* every legal move of some positions survives move -> MOVE -> text -> MOVE -> move */
    const char *fens[] = {"W:W31-50:B1-20", "W:WK44:B21,24,27,37,40", "W:W28:B23,13,4",
                          "B:W27,28,32,33,37,38:B12,13,17,18,22,23"};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        cd_position p;
        if (cd_position_from_fen(&p, intl, fens[f], err, sizeof err) != CD_OK) {
            CHECK(0, "fen %s: %s", fens[f], err);
            continue;
        }
        n = cd_generate(&p, list);
        for (int i = 0; i < n; i++) {
            cd_dxp_move_msg(&p, &list->moves[i], 1, &m);
            int k = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
            cd_dxp_msg d;
            CHECK(k > 0 && cd_dxp_decode(buf, (size_t)k, &d, err, sizeof err) == 0 &&
                      cd_dxp_match_move(&p, &d, &mv, err, sizeof err) == CD_OK &&
                      cd_move_equal(&mv, &list->moves[i]),
                  "move %d of %s: '%s' %s", i, fens[f], buf, err);
        }
    }
    /* 8x8: 32-square numbering */
    const cd_rules *br = cd_rules_find("brazilian");
    cd_position_start(&pos, br);
    cd_dxp_decode("M0000211700", 11, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_OK, "8x8 21-17: %s", err);
    cd_dxp_decode("M0000413700", 11, &m, err, sizeof err);
    CHECK(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "8x8 41-37");
    free(list);
}

static void test_back_ply(void)
{
    const cd_rules *intl = cd_rules_find("international");
    cd_game *g = cd_game_new(intl, NULL);
    char err[256];
    const char *moves[] = {"32-28", "19-23", "28x19", "14x23", "37-32"};
    for (int i = 0; i < 5; i++)
        CHECK(cd_game_play_text(g, moves[i], err, sizeof err) == CD_OK, "%s: %s", moves[i], err);
    CHECK(cd_dxp_back_ply(g, 1, CD_WHITE) == 0, "1 W");
    CHECK(cd_dxp_back_ply(g, 1, CD_BLACK) == 1, "1 Z");
    CHECK(cd_dxp_back_ply(g, 3, CD_WHITE) == 4, "3 W");
    CHECK(cd_dxp_back_ply(g, 3, CD_BLACK) == 5, "3 Z (the current position)");
    CHECK(cd_dxp_back_ply(g, 4, CD_WHITE) == -1, "4 W is in the future");
    CHECK(cd_dxp_back_ply(g, 0, CD_WHITE) == -1, "move 0");
    cd_game_free(g);
    /* a start with Black to move: move 1 is then Black's half of move 1 */
    cd_position p;
    CHECK(cd_position_from_fen(&p, intl, "B:W31-50:B1-20", err, sizeof err) == CD_OK, "%s", err);
    g = cd_game_new(intl, &p);
    CHECK(cd_game_play_text(g, "19-23", err, sizeof err) == CD_OK, "%s", err);
    CHECK(cd_game_play_text(g, "32-28", err, sizeof err) == CD_OK, "%s", err);
    CHECK(cd_dxp_back_ply(g, 1, CD_WHITE) == -1, "1 W before the start");
    CHECK(cd_dxp_back_ply(g, 1, CD_BLACK) == 0, "1 Z is the start");
    CHECK(cd_dxp_back_ply(g, 2, CD_WHITE) == 1, "2 W");
    CHECK(cd_dxp_back_ply(g, 2, CD_BLACK) == 2, "2 Z");
    cd_game_free(g);
    /* English: Black moves first in the standard start */
    const cd_rules *en = cd_rules_find("english");
    g = cd_game_new(en, NULL);
    CHECK(cd_dxp_back_ply(g, 1, en->first) == 0, "english 1 first mover");
    CHECK(cd_dxp_back_ply(g, 1, en->first ^ 1) == -1, "english 1 second mover (future)");
    cd_game_free(g);
}

/* Random bytes through the reader and the decoder: no crash, no accepted nonsense. */
static void test_garbage(void)
{
    unsigned long x = 12345;
    cd_dxp_reader r;
    cd_dxp_reader_init(&r);
    char out[CD_DXP_MAX_LEN + 1], err[256], chunk[300];
    int msgs = 0, drops = 0;
    for (int round = 0; round < 20000; round++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        size_t n = 0, len = (x >> 40) % sizeof chunk;
        for (n = 0; n < len; n++) {
            x = x * 6364136223846793005ul + 1442695040888963407ul;
            unsigned v = (unsigned)(x >> 33);
            /* mostly protocol-looking characters, sometimes anything */
            static const char alpha[] = "RAMEBKCWZwze0123456789 \0";
            chunk[n] = (v & 7) ? alpha[(v >> 3) % (sizeof alpha - 1)] : (char)(v >> 8);
        }
        size_t off = 0;
        while (off < len) {
            off += cd_dxp_reader_push(&r, chunk + off, len - off);
            size_t k;
            int rc;
            while ((rc = cd_dxp_reader_next(&r, out, sizeof out, &k, err, sizeof err)) != 0) {
                if (rc < 0) {
                    drops++;
                    continue;
                }
                msgs++;
                cd_dxp_msg m;
                if (cd_dxp_decode(out, k, &m, err, sizeof err) == 0) {
                    /* whatever decodes must encode back to the same text */
                    char again[CD_DXP_MAX_LEN + 2];
                    int e = cd_dxp_encode(&m, again, sizeof again, err, sizeof err);
                    int same = e == (int)k && !memcmp(again, out, k);
                    /* names are re-padded on the right; encode refuses control characters */
                    if (m.type == CD_DXP_GAMEREQ || m.type == CD_DXP_GAMEACC) {
                        int ctrl = 0;
                        for (const char *c = m.name; *c; c++)
                            ctrl |= (unsigned char)*c < 32 || *c == 127;
                        same = e > 0 || ctrl;
                    }
                    CHECK(same, "garbage round trip '%s' -> '%s'", out, e > 0 ? again : err);
                }
            }
        }
    }
    CHECK(msgs > 1000 && drops > 10, "garbage produced %d frames, %d dropped", msgs, drops);
}

/* ================================================================== scripted peer */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

typedef struct child {
    pid_t pid;
    char out[64], err[64]; /* temp file names of its stdout and stderr */
    int port;
    int status; /* exit status once reaped, -1 before */
} child;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = malloc(1 << 20);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Start `bin dxp --follow --port 0 extra...` and wait for its "listening ... port N" line. */
static int spawn_follower(child *c, const char *bin, const char *const *extra)
{
    memset(c, 0, sizeof *c);
    c->status = -1;
    strcpy(c->out, "/tmp/test_dxp_outXXXXXX");
    strcpy(c->err, "/tmp/test_dxp_errXXXXXX");
    int fo = mkstemp(c->out), fe = mkstemp(c->err);
    if (fo < 0 || fe < 0)
        return -1;
    const char *argv[32];
    int k = 0;
    argv[k++] = bin;
    argv[k++] = "dxp";
    argv[k++] = "--follow";
    argv[k++] = "--port";
    argv[k++] = "0";
    argv[k++] = "--hash";
    argv[k++] = "8";
    for (int i = 0; extra && extra[i] && k < 30; i++)
        argv[k++] = extra[i];
    argv[k] = NULL;
    c->pid = fork();
    if (c->pid < 0)
        return -1;
    if (c->pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    close(fo);
    close(fe);
    double t0 = now();
    while (now() - t0 < 10) {
        char *s = slurp(c->err);
        char *p = s ? strstr(s, " port ") : NULL;
        if (p) {
            c->port = atoi(p + 6);
            free(s);
            return c->port > 0 ? 0 : -1;
        }
        free(s);
        int st;
        if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
            c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
            return -1;
        }
        sleep_ms(20);
    }
    return -1;
}

/* Wait up to `seconds` for the child to exit; kill it after that. Returns its exit status. */
static int reap(child *c, double seconds)
{
    if (c->status >= 0)
        return c->status;
    double t0 = now();
    int st;
    while (now() - t0 < seconds) {
        if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
            c->status =
                WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
            return c->status;
        }
        sleep_ms(20);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, &st, 0);
    c->status = 200;
    return c->status;
}

static void cleanup(child *c, int show)
{
    if (show) {
        char *s = slurp(c->err);
        fprintf(stderr, "--- follower stderr:\n%s--- follower stdout:\n", s ? s : "");
        free(s);
        s = slurp(c->out);
        fprintf(stderr, "%s---\n", s ? s : "");
        free(s);
    }
    unlink(c->out);
    unlink(c->err);
}

typedef struct peer {
    int fd;
    cd_dxp_reader rd;
} peer;

static int peer_connect(peer *p, int port)
{
    p->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cd_dxp_reader_init(&p->rd);
    if (connect(p->fd, (struct sockaddr *)&a, sizeof a) < 0)
        return -1;
    int one = 1;
    setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return 0;
}

/* Raw bytes, as given (include the '\0's yourself). */
static void peer_raw(peer *p, const char *data, size_t n)
{
    while (n) {
        ssize_t w = send(p->fd, data, n, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        data += w;
        n -= (size_t)w;
    }
}

static void peer_send(peer *p, const char *msg) { peer_raw(p, msg, strlen(msg) + 1); }

/* The next message that is not a CHAT, within seconds; "" on timeout, "EOF" on close. */
static void peer_recv(peer *p, double seconds, char *out)
{
    double t0 = now();
    char err[256];
    for (;;) {
        size_t n;
        int rc = cd_dxp_reader_next(&p->rd, out, CD_DXP_MAX_LEN + 1, &n, err, sizeof err);
        if (rc > 0 && out[0] != 'C')
            return;
        if (rc != 0)
            continue;
        double left = seconds - (now() - t0);
        if (left <= 0) {
            out[0] = '\0';
            return;
        }
        struct pollfd pf = {.fd = p->fd, .events = POLLIN};
        if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
            continue;
        char tmp[512];
        ssize_t got = recv(p->fd, tmp, sizeof tmp, 0);
        if (got <= 0) {
            strcpy(out, "EOF");
            return;
        }
        cd_dxp_reader_push(&p->rd, tmp, (size_t)got);
    }
}

static const char *REQ_BLACK = "R01scripted peer                   Z001000A"; /* follower black */
static const char *REQ_WHITE = "R01scripted peer                   W001000A"; /* follower white */

/* Play the first legal move for the peer in game g and send it. */
static void peer_move(peer *p, cd_game *g)
{
    cd_movelist *list = malloc(sizeof *list);
    int n = cd_generate(cd_game_position(g), list);
    if (n > 0) {
        cd_dxp_msg m;
        char buf[256], err[256];
        cd_dxp_move_msg(cd_game_position(g), &list->moves[0], 0, &m);
        cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
        cd_game_play(g, &list->moves[0]);
        peer_send(p, buf);
    }
    free(list);
}

/* Receive the follower's MOVE and play it in g; 0 if it is a legal move. */
static int peer_take(peer *p, cd_game *g, char *raw)
{
    char err[256];
    cd_dxp_msg m;
    cd_move mv;
    peer_recv(p, 20, raw);
    if (cd_dxp_decode(raw, strlen(raw), &m, err, sizeof err) < 0 || m.type != 'M')
        return -1;
    if (cd_dxp_match_move(cd_game_position(g), &m, &mv, err, sizeof err) != CD_OK)
        return -1;
    return cd_game_play(g, &mv) == CD_OK ? 0 : -1;
}

static int contains(const char *path, const char *needle)
{
    char *s = slurp(path);
    int r = s && strstr(s, needle);
    free(s);
    return r;
}

/* A game with refusals first, chat, takeback, garbage, split and batched frames, resignation. */
static void scenario_game(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECK(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECK(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    /* version 02: refused with code 1 */
    peer_send(&p, "Chello from the script");
    peer_send(&p, "R02scripted peer                   Z001000A");
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && strlen(r) == 34 && r[33] == '1', "GAMEACC code 1 for version 02: '%s'", r);
    /* a position of the wrong size: refused with code 2 */
    peer_send(&p, "R01scripted peer                   Z001000BWwwwwzzzzeeee");
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '2', "GAMEACC code 2 for a bad position: '%s'", r);
    /* BACKREQ between games: refused */
    peer_send(&p, "B001W");
    peer_recv(&p, 10, r);
    CHECK(!strcmp(r, "K2"), "BACKACC 2 between games: '%s'", r);
    /* a good request: we are white */
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    CHECK(!strncmp(r + 1, "condraughts", 11), "follower name: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("international"), NULL);
    for (int i = 0; i < 3; i++) {
        peer_move(&p, g);
        CHECK(peer_take(&p, g, r) == 0, "follower's move %d legal: '%s'", i + 1, r);
    }
    /* take back to move 2 with black (the follower) to move: it answers and moves again */
    peer_send(&p, "B002Z");
    peer_recv(&p, 10, r);
    CHECK(!strcmp(r, "K0"), "BACKACC 0 for 002Z: '%s'", r);
    while (cd_game_ply(g) > 3)
        cd_game_undo(g);
    CHECK(peer_take(&p, g, r) == 0, "the follower moves after a takeback to its turn: '%s'", r);
    peer_move(&p, g);
    CHECK(peer_take(&p, g, r) == 0, "the follower's move after the takeback: '%s'", r);
    /* take back to the start (move 1, white to move) */
    peer_send(&p, "B001W");
    peer_recv(&p, 10, r);
    CHECK(!strcmp(r, "K0"), "BACKACC 0: '%s'", r);
    while (cd_game_ply(g) > 0)
        cd_game_undo(g);
    /* a takeback into the future is refused */
    peer_send(&p, "B050W");
    peer_recv(&p, 10, r);
    CHECK(!strcmp(r, "K2"), "BACKACC 2 for move 50: '%s'", r);
    /* garbage: over-long, non-ASCII, unknown type, bad GAMEEND -- all ignored */
    char big[400];
    memset(big, 'x', sizeof big);
    big[0] = 'C';
    big[399] = '\0';
    peer_raw(&p, big, sizeof big);
    peer_raw(&p, "C\xff\xfe\0", 4);
    peer_send(&p, "X123");
    peer_send(&p, "E0");
    /* a move split across two sends, then a chat batched with nothing else */
    cd_movelist *list = malloc(sizeof *list);
    cd_generate(cd_game_position(g), list);
    cd_dxp_msg m;
    char buf[256], err[256];
    cd_dxp_move_msg(cd_game_position(g), &list->moves[1], 0, &m);
    cd_game_play(g, &list->moves[1]);
    cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    peer_raw(&p, buf, 4);
    sleep_ms(100);
    peer_raw(&p, buf + 4, strlen(buf) - 3);
    CHECK(peer_take(&p, g, r) == 0, "move after takeback and garbage: '%s'", r);
    /* two messages in one send: a chat and our move */
    cd_generate(cd_game_position(g), list);
    cd_dxp_move_msg(cd_game_position(g), &list->moves[0], 0, &m);
    cd_game_play(g, &list->moves[0]);
    char both[300];
    int k = snprintf(both, sizeof both, "Cbatched");
    both[k++] = '\0';
    k += cd_dxp_encode(&m, both + k, sizeof both - (size_t)k, err, sizeof err);
    both[k++] = '\0';
    peer_raw(&p, both, (size_t)k);
    CHECK(peer_take(&p, g, r) == 0, "move after a batched send: '%s'", r);
    free(list);
    /* we resign, stop code 1: the follower acknowledges and exits 0 */
    peer_send(&p, "E11");
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'E' && strlen(r) == 3 && r[1] == '0', "GAMEEND acknowledged: '%s'", r);
    int st = reap(&c, 10);
    CHECK(st == 0, "follower exit status %d after our resignation", st);
    CHECK(contains(c.out, "game 1: 0-2 (resignation)"), "result line for a resignation");
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

/* The follower plays white, then we send an illegal move. */
static void scenario_illegal(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECK(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECK(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_WHITE);
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("international"), NULL);
    CHECK(peer_take(&p, g, r) == 0, "the follower opens as white: '%s'", r);
    peer_send(&p, "M0000010600"); /* black man 1 cannot go to 6 */
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'E' && r[2] == '1', "GAMEEND with stop code 1 after an illegal move: '%s'", r);
    peer_send(&p, "E00");
    int st = reap(&c, 10);
    CHECK(st == 1, "follower exit status %d after an illegal move", st);
    CHECK(contains(c.out, "game 1: * (illegal move"), "result line for an illegal move");
    CHECK(contains(c.err, "illegal move"), "error on stderr for an illegal move");
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

/* The peer disconnects in the middle of a game. */
static void scenario_disconnect(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "20", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECK(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECK(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    peer_raw(&p, "M00", 3); /* half a message, then gone */
    close(p.fd);
    double t0 = now();
    int st = reap(&c, 10);
    CHECK(st == 1, "follower exit status %d after a disconnect", st);
    CHECK(now() - t0 < 5, "disconnect noticed at once");
    CHECK(contains(c.out, "game 1: * (peer disconnected)"), "result line for a disconnect");
    cleanup(&c, failures != f0);
}

/* The peer goes silent: --timeout ends the game. */
static void scenario_timeout(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "1", "--timeout", "1", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECK(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECK(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, REQ_BLACK);
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    double t0 = now();
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'E', "GAMEEND after the timeout: '%s'", r);
    int st = reap(&c, 10);
    CHECK(st == 1, "follower exit status %d after a timeout", st);
    CHECK(now() - t0 < 5, "timeout took %.1f s", now() - t0);
    CHECK(contains(c.out, "game 1: * (peer timed out)"), "result line for a timeout");
    close(p.fd);
    cleanup(&c, failures != f0);
}

/* A whole game to its end: the peer plays first legal moves, the follower searches. */
static void scenario_full_game(const char *bin)
{
    child c;
    const char *extra[] = {"--depth", "2", "--timeout", "20", "--variant", "brazilian", NULL};
    int f0 = failures;
    if (spawn_follower(&c, bin, extra) < 0) {
        CHECK(0, "cannot start the follower");
        cleanup(&c, 1);
        return;
    }
    peer p;
    CHECK(peer_connect(&p, c.port) == 0, "connect");
    char r[CD_DXP_MAX_LEN + 1];
    peer_send(&p, "R01scripted peer                   W001000A");
    peer_recv(&p, 10, r);
    CHECK(r[0] == 'A' && r[33] == '0', "GAMEACC 0: '%s'", r);
    cd_game *g = cd_game_new(cd_rules_find("brazilian"), NULL);
    int ok = 1;
    for (int ply = 0; ply < 600 && ok; ply++) {
        if (cd_game_status(g, NULL) != CD_ONGOING) {
            if (cd_game_position(g)->side == CD_BLACK) { /* our turn: we end it */
                peer_send(&p, "E01");
                peer_recv(&p, 10, r);
                CHECK(r[0] == 'E', "GAMEEND acknowledged: '%s'", r);
            } else { /* the follower's turn: it ends it */
                peer_recv(&p, 10, r);
                CHECK(r[0] == 'E', "the follower ends the finished game: '%s'", r);
                peer_send(&p, "E01");
            }
            break;
        }
        if (cd_game_position(g)->side == CD_WHITE) {
            ok = peer_take(&p, g, r) == 0;
            CHECK(ok, "follower's move legal: '%s'", r);
        } else {
            peer_move(&p, g);
        }
    }
    int st = reap(&c, 10);
    CHECK(st == 0, "follower exit status %d after a full game", st);
    cd_reason why;
    cd_status s = cd_game_status(g, &why);
    char line[128];
    snprintf(line, sizeof line, "game 1: %s (%s)", cd_status_pdn(cd_rules_find("brazilian"), s),
             cd_reason_str(why));
    CHECK(s != CD_ONGOING && contains(c.out, line), "result line '%s'", line);
    close(p.fd);
    cd_game_free(g);
    cleanup(&c, failures != f0);
}

int main(int argc, char **argv)
{
    const char *bin = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bin") && i + 1 < argc)
            bin = argv[++i];
        else {
            fprintf(stderr, "usage: test_dxp [--bin PATH]\n");
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    test_examples();
    test_gamereq();
    test_other_encodes();
    test_malformed();
    test_framing();
    test_moves();
    test_back_ply();
    test_garbage();
    if (bin) {
        scenario_game(bin);
        scenario_illegal(bin);
        scenario_disconnect(bin);
        scenario_timeout(bin);
        scenario_full_game(bin);
    }
    if (failures) {
        fprintf(stderr, "test_dxp: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_dxp: %d checks ok%s\n", checks, bin ? " (with scripted peers)" : "");
    return 0;
}
