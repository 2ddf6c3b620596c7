/*
 * fuzz_dxp.c -- DXP messages: framing (cd_dxp_reader), decoding, encoding,
 * and the moves and positions they carry.
 *
 * Input: byte 0 picks the variant (fz_variant), byte 1 the size of the
 * pieces the stream is pushed in (1..256); the rest is a byte stream as it
 * would come from the socket. Every framed message is decoded; a message
 * that decodes must encode again and decode to the same fields; a MOVE is
 * matched against the legal moves of a few positions (a match must be
 * legal and its own MOVE must match it again), a GAMEREQ position is read
 * as a position of the variant, a BACKREQ is resolved on a short game.
 */
#include "dxp.h"
#include "fuzz.h"

static void same_msg(const cd_dxp_msg *a, const cd_dxp_msg *b, const char *text)
{
    FZ_CHECK(a->type == b->type, "type after re-encoding '%s'", text);
    switch (a->type) {
    case CD_DXP_CHAT: FZ_CHECK(!strcmp(a->text, b->text), "chat '%s'", text); break;
    case CD_DXP_GAMEREQ:
        FZ_CHECK(a->version == b->version && a->colour == b->colour && a->minutes == b->minutes &&
                     a->moves == b->moves && a->setup == b->setup && !strcmp(a->name, b->name) &&
                     (!a->setup || !strcmp(a->position, b->position)),
                 "GAMEREQ '%s'", text);
        break;
    case CD_DXP_GAMEACC:
        FZ_CHECK(a->code == b->code && !strcmp(a->name, b->name), "GAMEACC '%s'", text);
        break;
    case CD_DXP_MOVE:
        FZ_CHECK(a->seconds == b->seconds && a->from == b->from && a->to == b->to &&
                     a->ncaptured == b->ncaptured &&
                     !memcmp(a->captured, b->captured, (size_t)a->ncaptured * sizeof(int)),
                 "MOVE '%s'", text);
        break;
    case CD_DXP_GAMEEND: FZ_CHECK(a->code == b->code && a->stop == b->stop, "GAMEEND"); break;
    case CD_DXP_BACKREQ:
        FZ_CHECK(a->move_number == b->move_number && a->colour == b->colour, "BACKREQ");
        break;
    case CD_DXP_BACKACC: FZ_CHECK(a->code == b->code, "BACKACC"); break;
    default: FZ_CHECK(0, "decoded unknown type %d", a->type);
    }
}

static void check_move(const cd_rules *r, const cd_dxp_msg *m)
{
    static const char *const fens[] = {NULL, "W:WK46,K28,33,34,38:B12,13,K19,22,23",
                                       "W:WK32,K21,24,27,18:B5,6,K9,14,15",
                                       "W:WK70,40,41,45:B10,K20,30,31,34"};
    for (size_t f = 0; f < sizeof fens / sizeof *fens; f++) {
        cd_position p;
        if (!fens[f])
            cd_position_start(&p, r);
        else if (cd_position_from_fen(&p, r, fens[f], NULL, 0) != CD_OK)
            continue;
        cd_move mv;
        char err[256];
        err[0] = '\0';
        cd_result res = cd_dxp_match_move(&p, m, &mv, err, sizeof err);
        if (res != CD_OK) {
            FZ_CHECK(err[0], "no error message for a MOVE");
            continue;
        }
        cd_movelist *list = malloc(sizeof *list);
        if (!list)
            abort();
        cd_generate(&p, list);
        int legal = 0;
        for (int i = 0; i < list->count; i++)
            legal |= !memcmp(&list->moves[i], &mv, sizeof mv);
        free(list);
        FZ_CHECK(legal, "matched a move that is not legal");
        cd_dxp_msg own;
        cd_dxp_move_msg(&p, &mv, m->seconds, &own);
        cd_move again;
        FZ_CHECK(cd_dxp_match_move(&p, &own, &again, err, sizeof err) == CD_OK &&
                     cd_move_equal(&again, &mv),
                 "our own MOVE does not match: %s", err);
        char buf[CD_DXP_MAX_LEN + 1];
        FZ_CHECK(cd_dxp_encode(&own, buf, sizeof buf, err, sizeof err) > 0, "encode: %s", err);
    }
}

static void one_message(const cd_rules *r, const char *s, size_t n)
{
    cd_dxp_msg m, m2;
    char err[256], buf[CD_DXP_MAX_LEN + 1];
    err[0] = '\0';
    if (cd_dxp_decode(s, n, &m, err, sizeof err) != 0) {
        FZ_CHECK(err[0], "no error message for a bad message");
        return;
    }
    FZ_CHECK(n >= 1 && n <= CD_DXP_MAX_LEN, "decoded %zu characters", n);
    int len = cd_dxp_encode(&m, buf, sizeof buf, err, sizeof err);
    FZ_CHECK(len > 0 && len <= CD_DXP_MAX_LEN, "re-encoding '%.*s' failed: %s", (int)n, s, err);
    FZ_CHECK((size_t)len == strlen(buf), "encode length");
    FZ_CHECK(cd_dxp_decode(buf, (size_t)len, &m2, err, sizeof err) == 0, "re-decode '%s': %s", buf,
             err);
    same_msg(&m, &m2, buf);
    /* a too-small buffer fails cleanly */
    char tiny[4];
    cd_dxp_encode(&m, tiny, sizeof tiny, NULL, 0);

    if (m.type == CD_DXP_MOVE) {
        check_move(r, &m);
    } else if (m.type == CD_DXP_GAMEREQ && m.setup) {
        cd_position p;
        if (cd_position_from_dxp(&p, r, m.position, err, sizeof err) == CD_OK) {
            char back[256];
            cd_position_to_dxp(&p, back, sizeof back);
            FZ_CHECK(!strcmp(back, m.position), "position '%s' -> '%s'", m.position, back);
        }
    } else if (m.type == CD_DXP_BACKREQ) {
        cd_game *g = cd_game_new(r, NULL);
        FZ_CHECK(g, "game");
        for (int i = 0; i < 6; i++) {
            cd_movelist *list = malloc(sizeof *list);
            if (!list)
                abort();
            if (cd_generate(cd_game_position(g), list) > 0)
                cd_game_play(g, &list->moves[list->count - 1]);
            free(list);
        }
        int ply = cd_dxp_back_ply(g, m.move_number, m.colour);
        FZ_CHECK(ply >= -1 && ply <= cd_game_ply(g), "back ply %d", ply);
        if (ply >= 0)
            FZ_CHECK(cd_game_position_at(g, ply)->side == m.colour, "back ply side");
        cd_game_free(g);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 16384)
        return 0;
    const cd_rules *r = fz_variant(data[0]);
    size_t chunk = (size_t)data[1] + 1;
    const char *s = (const char *)data + 2;
    size_t n = size - 2;

    /* the whole rest as one message */
    one_message(r, s, n);

    /* the rest as a stream */
    cd_dxp_reader *rd = malloc(sizeof *rd);
    if (!rd)
        abort();
    cd_dxp_reader_init(rd);
    size_t off = 0;
    int guard = 0;
    while (guard++ < 100000) {
        if (off < n) {
            size_t want = n - off < chunk ? n - off : chunk;
            size_t took = cd_dxp_reader_push(rd, s + off, want);
            FZ_CHECK(took <= want, "pushed %zu of %zu", took, want);
            off += took;
        }
        char msg[CD_DXP_MAX_LEN + 1], err[256];
        size_t mn = 0;
        int got;
        int progress = 0;
        while ((got = cd_dxp_reader_next(rd, msg, sizeof msg, &mn, err, sizeof err)) != 0) {
            progress = 1;
            if (got == 1) {
                FZ_CHECK(mn >= 1 && mn <= CD_DXP_MAX_LEN && strlen(msg) == mn, "frame of %zu", mn);
                one_message(r, msg, mn);
            }
        }
        FZ_CHECK(cd_dxp_reader_space(rd) > 3900, "reader space %zu after next() returned 0",
                 cd_dxp_reader_space(rd));
        if (off >= n && !progress)
            break;
    }
    FZ_CHECK(guard < 100000, "the reader does not finish");
    free(rd);
    return 0;
}
