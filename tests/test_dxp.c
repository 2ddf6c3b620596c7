/*
 * test_dxp.c -- unit tests of the DXP codec (src/proto/dxp_codec.c, dxp.h): encode/decode of
 * every message type (fixed widths, the spec's examples, round trips, malformed input),
 * framing, move matching, BACKREQ plies, and random garbage. The session is tested through
 * the program by test_dxp_peer.c.
 *
 * Prints "test_dxp: N checks, 0 failures" and exits 0, or lists the failures and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/proto/dxp.h"
#include "check.h"

/* ------------------------------------------------------------------ encode / decode */

/* Decode s, encode the result again: must give s back. */
static void round_trip(const char *s)
{
    cd_dxp_msg m;
    char err[256], buf[256];
    int rc = cd_dxp_decode(s, strlen(s), &m, err, sizeof err);
    CHECKF(rc == 0, "decode '%s': %s", s, err);
    if (rc)
        return;
    int n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECKF(n == (int)strlen(s) && !strcmp(buf, s), "round trip '%s' -> '%s' (%s)", s, buf,
           n < 0 ? err : "");
}

static void bad(const char *s, const char *why)
{
    cd_dxp_msg m;
    char err[256] = "";
    CHECKF(cd_dxp_decode(s, strlen(s), &m, err, sizeof err) < 0, "accepted bad message '%s' (%s)",
           s, why);
    CHECKF(err[0] != '\0', "no error text for '%s'", s);
}

static void test_examples(void)
{
    cd_dxp_msg m;
    char err[256];
    /* the examples of the DamExchange pages */
    const char *mv = "M001205250422122320";
    CHECKF(cd_dxp_decode(mv, strlen(mv), &m, err, sizeof err) == 0, "%s", err);
    CHECKF(m.type == 'M' && m.seconds == 12 && m.from == 5 && m.to == 25 && m.ncaptured == 4,
           "MOVE fields");
    CHECKF(m.captured[0] == 22 && m.captured[1] == 12 && m.captured[2] == 23 && m.captured[3] == 20,
           "MOVE captured");
    round_trip(mv);
    round_trip("M0012061100");
    const char *acc = "ATornado voor Windows 4.0        0";
    CHECKF(cd_dxp_decode(acc, strlen(acc), &m, err, sizeof err) == 0, "%s", err);
    CHECKF(m.type == 'A' && !strcmp(m.name, "Tornado voor Windows 4.0") && m.code == 0,
           "GAMEACC name '%s' code %d", m.name, m.code);
    round_trip(acc);
    /* a blank name field is well formed: it decodes to "" and is sent back as 32 blanks */
    const char *blank = "A                                0";
    CHECKF(cd_dxp_decode(blank, strlen(blank), &m, err, sizeof err) == 0 && m.name[0] == '\0',
           "blank GAMEACC name");
    round_trip(blank);
    round_trip("E00");
    round_trip("E21");
    CHECKF(cd_dxp_decode("B005Z", 5, &m, err, sizeof err) == 0 && m.move_number == 5 &&
               m.colour == CD_BLACK,
           "BACKREQ");
    round_trip("B005Z");
    round_trip("B123W");
    round_trip("K0");
    round_trip("K2");
    round_trip("CWhat do you think about move 35?");
    CHECKF(cd_dxp_decode("Chi", 3, &m, err, sizeof err) == 0 && !strcmp(m.text, "hi"), "CHAT");
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
    CHECKF(n == 43, "GAMEREQ 'A' length %d (%s)", n, err);
    CHECKF(!strcmp(buf, "R01Kingsrow                        Z005075A"), "GAMEREQ '%s'", buf);
    CHECKF(cd_dxp_decode(buf, (size_t)n, &d, err, sizeof err) == 0, "%s", err);
    CHECKF(d.version == 1 && !strcmp(d.name, "Kingsrow") && d.colour == CD_BLACK &&
               d.minutes == 5 && d.moves == 75 && !d.setup,
           "GAMEREQ fields");

    /* 'B' with the 10x10 start, white to move */
    cd_position pos;
    cd_position_start(&pos, cd_rules_find("international"));
    m.setup = 1;
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECKF(n == 94, "GAMEREQ 'B' length %d (%s)", n, err);
    CHECKF(buf[42] == 'B' && buf[43] == 'W' && buf[44] == 'z' && buf[93] == 'w', "GAMEREQ 'B' %s",
           buf);
    CHECKF(cd_dxp_decode(buf, (size_t)n, &d, err, sizeof err) == 0 && d.setup &&
               !strcmp(d.position, m.position),
           "GAMEREQ 'B' decode: %s", err);
    cd_position back;
    CHECKF(cd_position_from_dxp(&back, pos.rules, d.position, err, sizeof err) == CD_OK &&
               back.key == pos.key,
           "GAMEREQ position back: %s", err);
    round_trip(buf);
    /* 8x8: a 32-square position */
    cd_position_start(&pos, cd_rules_find("brazilian"));
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECKF(n == 44 + 32, "8x8 GAMEREQ length %d", n);
    round_trip(buf);
    /* 12x12: 72 squares still fit in 127 characters */
    cd_position_start(&pos, cd_rules_find("canadian"));
    cd_position_to_dxp(&pos, m.position, sizeof m.position);
    n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECKF(n == 44 + 72, "12x12 GAMEREQ length %d (%s)", n, err);

    /* a name is padded to 32, a dctl-style right-justified one is read too */
    char rj[64];
    snprintf(rj, sizeof rj, "R01%32sW010000A", "dctl");
    CHECKF(cd_dxp_decode(rj, strlen(rj), &d, err, sizeof err) == 0 && !strcmp(d.name, "dctl"),
           "right-justified name '%s' (%s)", d.name, err);
    /* encode refuses what it cannot write */
    m.setup = 0;
    m.minutes = 1000;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "minutes 1000 encoded");
    m.minutes = 5;
    strcpy(m.name, " lead");
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "leading blank name");
    strcpy(m.name, "123456789012345678901234567890123");
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "33-character name");
    strcpy(m.name, "x");
    m.colour = 7;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "bad colour");
    m.colour = CD_WHITE;
    m.setup = 1;
    strcpy(m.position, "Wwzq");
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "bad square char");
    CHECKF(cd_dxp_encode(&m, buf, 10, err, sizeof err) < 0, "small buffer");
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
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 11 && !strcmp(buf, "M0007015000"),
           "MOVE '%s'", buf);
    m.seconds = 10000;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "seconds 10000");
    m.seconds = 0;
    m.from = 0;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "from 0");
    m.from = 1;
    m.ncaptured = CD_DXP_MAX_CAPTURES;
    for (int i = 0; i < m.ncaptured; i++)
        m.captured[i] = 1 + i;
    int n = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    CHECKF(n == 11 + 2 * CD_DXP_MAX_CAPTURES && n <= CD_DXP_MAX_LEN, "max captures %d (%s)", n,
           err);
    round_trip(buf);
    m.ncaptured = CD_DXP_MAX_CAPTURES + 1;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "too many captures");

    memset(&m, 0, sizeof m);
    m.type = CD_DXP_GAMEACC;
    strcpy(m.name, "condraughts 0.1.0");
    m.code = 3;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 34 &&
               !strcmp(buf, "Acondraughts 0.1.0               3"),
           "GAMEACC '%s'", buf);
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_BACKREQ;
    m.move_number = 1000;
    m.colour = CD_WHITE;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "move number 1000");
    m.move_number = 7;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == 5 && !strcmp(buf, "B007W"),
           "BACKREQ '%s'", buf);
    memset(&m, 0, sizeof m);
    m.type = CD_DXP_CHAT;
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "empty chat");
    memset(m.text, 'a', CD_DXP_MAX_LEN - 1);
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) == CD_DXP_MAX_LEN, "126-char chat");
    memset(m.text, 'a', CD_DXP_MAX_LEN);
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "127-char chat");
    m.type = 'X';
    CHECKF(cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err) < 0, "unknown type");
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
    CHECKF(cd_dxp_decode("Ca\0b", 4, &m, err, sizeof err) < 0, "embedded NUL");
    /* over-long */
    char lng[200];
    memset(lng, 'a', sizeof lng);
    lng[0] = 'C';
    CHECKF(cd_dxp_decode(lng, CD_DXP_MAX_LEN + 1, &m, err, sizeof err) < 0, "128-char message");
    CHECKF(cd_dxp_decode(lng, CD_DXP_MAX_LEN, &m, err, sizeof err) == 0, "127-char chat");
    /* the version is read, not judged: a follower answers GAMEACC code 1 */
    CHECKF(cd_dxp_decode("R02Kingsrow                        Z005075A", 43, &m, err, sizeof err) ==
                   0 &&
               m.version == 2,
           "version 02");
    /* NULL arguments */
    CHECKF(cd_dxp_decode(NULL, 3, &m, err, sizeof err) < 0, "NULL input");
    CHECKF(cd_dxp_encode(NULL, lng, sizeof lng, err, sizeof err) < 0, "NULL message");
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
    CHECKF(next_str(&r, out) == 0, "empty reader");

    /* one byte at a time */
    const char one[] = "M0012061100";
    for (size_t i = 0; i < sizeof one; i++) { /* with the '\0' */
        CHECKF(next_str(&r, out) == 0, "early message at byte %zu", i);
        cd_dxp_reader_push(&r, one + i, 1);
    }
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, one), "byte-wise message '%s'", out);
    CHECKF(next_str(&r, out) == 0, "nothing left");

    /* several messages, an empty frame and a partial one in a single push */
    const char many[] = "E00\0\0Chello\0K0\0M00";
    cd_dxp_reader_push(&r, many, sizeof many - 1);
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "E00"), "first of many");
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "Chello"), "second of many (empty skipped)");
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "K0"), "third of many");
    CHECKF(next_str(&r, out) == 0, "partial held back");
    cd_dxp_reader_push(&r, "12061100", 9);
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "M0012061100"), "partial completed '%s'", out);

    /* an over-long message is dropped and reported once; the next one gets through */
    char big[1000];
    memset(big, 'x', sizeof big);
    big[0] = 'C';
    cd_dxp_reader_push(&r, big, 300);
    CHECKF(next_str(&r, out) == -1, "over-long reported");
    cd_dxp_reader_push(&r, big, 600);
    CHECKF(next_str(&r, out) == 0, "rest of over-long dropped silently");
    cd_dxp_reader_push(&r, "xx\0E01\0", 7);
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "E01"), "message after over-long '%s'", out);
    /* over-long with its '\0' in the same push */
    big[200] = '\0';
    cd_dxp_reader_push(&r, big, 201);
    cd_dxp_reader_push(&r, "K1", 3);
    CHECKF(next_str(&r, out) == -1, "over-long (terminated) reported");
    CHECKF(next_str(&r, out) == 1 && !strcmp(out, "K1"), "message after terminated over-long");
    /* exactly 127 characters is fine, 128 is not */
    memset(big, 'y', sizeof big);
    big[0] = 'C';
    big[CD_DXP_MAX_LEN] = '\0';
    cd_dxp_reader_push(&r, big, CD_DXP_MAX_LEN + 1);
    CHECKF(next_str(&r, out) == 1 && strlen(out) == CD_DXP_MAX_LEN, "127-character frame");
    big[CD_DXP_MAX_LEN] = 'y';
    big[CD_DXP_MAX_LEN + 1] = '\0';
    cd_dxp_reader_push(&r, big, CD_DXP_MAX_LEN + 2);
    CHECKF(next_str(&r, out) == -1, "128-character frame");
    CHECKF(next_str(&r, out) == 0, "reader empty at the end");
    /* the buffer never fills: push returns what fits */
    cd_dxp_reader_init(&r);
    char lots[5000];
    memset(lots, 'z', sizeof lots);
    size_t took = cd_dxp_reader_push(&r, lots, sizeof lots);
    CHECKF(took == sizeof r.buf, "push takes what fits (%zu)", took);
    CHECKF(next_str(&r, out) == -1 && cd_dxp_reader_space(&r) == sizeof r.buf, "full buffer drop");
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
    CHECKF(cd_dxp_decode("M0003322800", 11, &m, err, sizeof err) == 0, "%s", err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_OK, "32-28: %s", err);
    CHECKF(cd_move_from(&pos, &mv) == 32 && cd_move_to(&pos, &mv) == 28, "32-28 squares");
    cd_dxp_msg back;
    cd_dxp_move_msg(&pos, &mv, 3, &back);
    char buf[256];
    CHECKF(cd_dxp_encode(&back, buf, sizeof buf, err, sizeof err) == 11 &&
               !strcmp(buf, "M0003322800"),
           "move -> MOVE '%s'", buf);
    /* illegal: wrong direction, empty origin, a capture that is not there */
    cd_dxp_decode("M0000322600", 11, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "32-26 legal?");
    cd_dxp_decode("M0000252800", 11, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "25-28 legal?");
    cd_dxp_decode("M000032280127", 13, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL,
           "32-28 with a capture legal?");

    /* captures: a white man on 28, black men on 23, 13 and 4 */
    cd_position cap;
    CHECKF(cd_position_from_fen(&cap, intl, "W:W28:B23,13,4", err, sizeof err) == CD_OK, "%s", err);
    cd_move first;
    /* 28 over 23 to 19, over 13 to 8: to is 8, captured 23 and 13 */
    CHECKF(cd_dxp_decode("M000028080223", 13, &m, err, sizeof err) < 0, "count/length mismatch");
    CHECKF(cd_dxp_decode("M00002808022313", 15, &m, err, sizeof err) == 0, "%s", err);
    CHECKF(cd_dxp_match_move(&cap, &m, &first, err, sizeof err) == CD_OK, "28x8: %s", err);
    CHECKF(first.ncaptured == 2, "28x8 captures two");
    /* the captured squares in any order */
    cd_dxp_decode("M00002808021323", 15, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_OK && cd_move_equal(&mv, &first),
           "captured squares in another order: %s", err);
    /* count 00 for a capture: accepted when from and to decide */
    cd_dxp_decode("M0000280800", 11, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_OK && cd_move_equal(&mv, &first),
           "capture without its squares: %s", err);
    /* wrong captured set, duplicate squares */
    cd_dxp_decode("M00002808022314", 15, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "wrong set");
    cd_dxp_decode("M00002808022323", 15, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "duplicate");
    /* a capture not taking the maximum is illegal (28x19 only takes one) */
    cd_dxp_decode("M000028190123", 13, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&cap, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "not maximal");

    /* ambiguity with count 00: the king on 44 reaches 42 taking 24,27,37,40 or 21,24,37,40 */
    cd_position amb;
    CHECKF(cd_position_from_fen(&amb, intl, "W:WK44:B21,24,27,37,40", err, sizeof err) == CD_OK,
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
                CHECKF(cd_dxp_match_move(&amb, &m, &mv, err, sizeof err) == CD_ERR_AMBIGUOUS,
                       "ambiguous without squares");
                cd_dxp_move_msg(&amb, &list->moves[j], 0, &m);
                CHECKF(cd_dxp_match_move(&amb, &m, &mv, err, sizeof err) == CD_OK &&
                           cd_move_equal(&mv, &list->moves[j]),
                       "disambiguated by its squares");
                found = 1;
            }
    CHECKF(found, "no same-from-to captures in the ambiguity position (%d moves)", n);
    /* every legal move of some positions survives move -> MOVE -> text -> MOVE -> move */
    const char *fens[] = {"W:W31-50:B1-20", "W:WK44:B21,24,27,37,40", "W:W28:B23,13,4",
                          "B:W27,28,32,33,37,38:B12,13,17,18,22,23"};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        cd_position p;
        if (cd_position_from_fen(&p, intl, fens[f], err, sizeof err) != CD_OK) {
            CHECKF(0, "fen %s: %s", fens[f], err);
            continue;
        }
        n = cd_generate(&p, list);
        for (int i = 0; i < n; i++) {
            cd_dxp_move_msg(&p, &list->moves[i], 1, &m);
            int k = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
            cd_dxp_msg d;
            CHECKF(k > 0 && cd_dxp_decode(buf, (size_t)k, &d, err, sizeof err) == 0 &&
                       cd_dxp_match_move(&p, &d, &mv, err, sizeof err) == CD_OK &&
                       cd_move_equal(&mv, &list->moves[i]),
                   "move %d of %s: '%s' %s", i, fens[f], buf, err);
        }
    }
    /* 8x8: 32-square numbering */
    const cd_rules *br = cd_rules_find("brazilian");
    cd_position_start(&pos, br);
    cd_dxp_decode("M0000211700", 11, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_OK, "8x8 21-17: %s", err);
    cd_dxp_decode("M0000413700", 11, &m, err, sizeof err);
    CHECKF(cd_dxp_match_move(&pos, &m, &mv, err, sizeof err) == CD_ERR_ILLEGAL, "8x8 41-37");
    free(list);
}

static void test_back_ply(void)
{
    const cd_rules *intl = cd_rules_find("international");
    cd_game *g = cd_game_new(intl, NULL);
    char err[256];
    const char *moves[] = {"32-28", "19-23", "28x19", "14x23", "37-32"};
    for (int i = 0; i < 5; i++)
        CHECKF(cd_game_play_text(g, moves[i], err, sizeof err) == CD_OK, "%s: %s", moves[i], err);
    CHECKF(cd_dxp_back_ply(g, 1, CD_WHITE) == 0, "1 W");
    CHECKF(cd_dxp_back_ply(g, 1, CD_BLACK) == 1, "1 Z");
    CHECKF(cd_dxp_back_ply(g, 3, CD_WHITE) == 4, "3 W");
    CHECKF(cd_dxp_back_ply(g, 3, CD_BLACK) == 5, "3 Z (the current position)");
    CHECKF(cd_dxp_back_ply(g, 4, CD_WHITE) == -1, "4 W is in the future");
    CHECKF(cd_dxp_back_ply(g, 0, CD_WHITE) == -1, "move 0");
    cd_game_free(g);
    /* a start with Black to move: move 1 is then Black's half of move 1 */
    cd_position p;
    CHECKF(cd_position_from_fen(&p, intl, "B:W31-50:B1-20", err, sizeof err) == CD_OK, "%s", err);
    g = cd_game_new(intl, &p);
    CHECKF(cd_game_play_text(g, "19-23", err, sizeof err) == CD_OK, "%s", err);
    CHECKF(cd_game_play_text(g, "32-28", err, sizeof err) == CD_OK, "%s", err);
    CHECKF(cd_dxp_back_ply(g, 1, CD_WHITE) == -1, "1 W before the start");
    CHECKF(cd_dxp_back_ply(g, 1, CD_BLACK) == 0, "1 Z is the start");
    CHECKF(cd_dxp_back_ply(g, 2, CD_WHITE) == 1, "2 W");
    CHECKF(cd_dxp_back_ply(g, 2, CD_BLACK) == 2, "2 Z");
    cd_game_free(g);
    /* English: Black moves first in the standard start */
    const cd_rules *en = cd_rules_find("english");
    g = cd_game_new(en, NULL);
    CHECKF(cd_dxp_back_ply(g, 1, en->first) == 0, "english 1 first mover");
    CHECKF(cd_dxp_back_ply(g, 1, en->first ^ 1) == -1, "english 1 second mover (future)");
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
                    CHECKF(same, "garbage round trip '%s' -> '%s'", out, e > 0 ? again : err);
                }
            }
        }
    }
    CHECKF(msgs > 1000 && drops > 10, "garbage produced %d frames, %d dropped", msgs, drops);
}

int main(void)
{
    test_examples();
    test_gamereq();
    test_other_encodes();
    test_malformed();
    test_framing();
    test_moves();
    test_back_ply();
    test_garbage();
    printf("test_dxp: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
