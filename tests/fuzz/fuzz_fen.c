/*
 * fuzz_fen.c -- position strings: PDN FEN, Hub and DXP position strings.
 *
 * Input: byte 0 picks the variant (fz_variant: low bits the row, high bits
 * Rule C switches); the rest is the text, read as FEN, as a Hub string and
 * as a DXP string. A position that is accepted must survive the round trip
 * (FEN numeric and algebraic, Hub, DXP) unchanged, key included, pass
 * cd_position_validate, and its legal moves must each print (Hub form and
 * standard text) and parse back to the same move, and be playable.
 */
#include "fuzz.h"

static void check_position(const cd_position *p)
{
    char buf[2048], err[512];
    cd_position q;
    FZ_CHECK(cd_position_validate(p, err, sizeof err) == CD_OK, "validate: %s", err);
    for (int alg = 0; alg < 2; alg++) {
        size_t n = cd_position_to_fen(p, alg, buf, sizeof buf);
        FZ_CHECK(n < sizeof buf, "FEN of %zu bytes", n);
        FZ_CHECK(strlen(buf) == n, "FEN length %zu, returned %zu", strlen(buf), n);
        cd_result r = cd_position_from_fen(&q, p->rules, buf, err, sizeof err);
        FZ_CHECK(r == CD_OK, "re-reading our FEN '%s': %s", buf, err);
        FZ_CHECK(fz_same_position(p, &q), "FEN round trip differs: %s", buf);
    }
    size_t n = cd_position_to_hub(p, buf, sizeof buf);
    FZ_CHECK(n < sizeof buf && (int)n == cd_rules_squares(p->rules) + 1, "hub length %zu", n);
    FZ_CHECK(cd_position_from_hub(&q, p->rules, buf, err, sizeof err) == CD_OK, "hub: %s", err);
    FZ_CHECK(fz_same_position(p, &q), "Hub round trip differs: %s", buf);
    n = cd_position_to_dxp(p, buf, sizeof buf);
    FZ_CHECK(n < sizeof buf, "dxp length %zu", n);
    FZ_CHECK(cd_position_from_dxp(&q, p->rules, buf, err, sizeof err) == CD_OK, "dxp: %s", err);
    FZ_CHECK(fz_same_position(p, &q), "DXP round trip differs: %s", buf);

    /* a small output buffer: cut, NUL-terminated, same length needed */
    char small[8];
    size_t need = cd_position_to_fen(p, 0, small, sizeof small);
    FZ_CHECK(need == cd_position_to_fen(p, 0, NULL, 0), "length differs with a NULL buffer");
    FZ_CHECK(strlen(small) == (need < sizeof small ? need : sizeof small - 1), "cut FEN");

    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        abort();
    int count = cd_generate(p, list);
    FZ_CHECK(count == list->count && count >= 0 && count <= CD_MAX_MOVES, "count %d", count);
    if (!list->overflow)
        FZ_CHECK(cd_count_moves(p) == count, "cd_count_moves %d, generated %d", cd_count_moves(p),
                 count);
    int dups = (p->rules->flags & CD_RULE_KEEP_DUPLICATES) != 0;
    for (int i = 0; i < list->count && i < 64; i++) {
        const cd_move *m = &list->moves[i];
        cd_move back;
        char text[1024];
        for (int form = 0; form < 3; form++) {
            if (form == 0)
                n = cd_move_to_hub(p, m, text, sizeof text);
            else
                n = cd_move_to_text(p, m, form == 1 ? 0 : 1, text, sizeof text);
            FZ_CHECK(n < sizeof text, "move text of %zu bytes", n);
            cd_result r = cd_move_parse(p, text, &back, err, sizeof err);
            FZ_CHECK(r == CD_OK || (dups && r == CD_ERR_AMBIGUOUS), "parse '%s' (form %d): %s",
                     text, form, err);
            if (r == CD_OK)
                FZ_CHECK(cd_move_equal(&back, m), "'%s' parsed to another move", text);
        }
        int caps[128], path[128];
        int nc = cd_move_captures(p, m, caps, 128);
        FZ_CHECK(nc == m->ncaptured, "captures %d, ncaptured %d", nc, m->ncaptured);
        int np = cd_move_path(p, m, path, 128);
        FZ_CHECK(np >= 1 && path[np - 1] == cd_move_to(p, m), "path of %d squares", np);
        cd_position next;
        cd_play(p, m, &next);
        int before = cd_position_count(p, CD_WHITE, -1) + cd_position_count(p, CD_BLACK, -1);
        int after = cd_position_count(&next, CD_WHITE, -1) + cd_position_count(&next, CD_BLACK, -1);
        int stay = 0; /* Northern: a captured king stays as a man */
        for (int c = 0; c < nc && (p->rules->flags & CD_RULE_NORTHERN); c++) {
            int pc = cd_position_piece(p, caps[c]);
            stay += pc == CD_WHITE_KING || pc == CD_BLACK_KING;
        }
        FZ_CHECK(after == before - nc + stay, "%d pieces after the move, %d before, %d captured",
                 after, before, nc);
        if (p->rules->flags & CD_RULE_TWO_MOVE) /* the same side again after a first move */
            FZ_CHECK((next.side != p->side) == (p->second == 1), "side to move after a move");
        else
            FZ_CHECK(next.side != p->side, "side to move after a move");
    }
    free(list);
    int nsq = cd_rules_squares(p->rules);
    for (int sq = 1; sq <= nsq; sq++) {
        int zone[128];
        int k = cd_king_zone(p, sq, zone, 128);
        FZ_CHECK(k >= 0 && k <= nsq, "zone of %d squares", k);
        char t[16];
        cd_square_to_text(p->rules, sq, 1, t, sizeof t);
        const char *end;
        FZ_CHECK(cd_square_parse(p->rules, t, &end) == sq && !*end, "square %d is '%s'", sq, t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    const cd_rules *r = fz_variant(data[0]);
    char *s = fz_cstr(data + 1, size - 1);
    char err[512];
    cd_position p;
    for (int kind = 0; kind < 3; kind++) {
        err[0] = '\0';
        cd_result res = kind == 0   ? cd_position_from_fen(&p, r, s, err, sizeof err)
                        : kind == 1 ? cd_position_from_hub(&p, r, s, err, sizeof err)
                                    : cd_position_from_dxp(&p, r, s, err, sizeof err);
        if (res == CD_OK) {
            FZ_CHECK(p.rules == r, "rules");
            check_position(&p);
        } else {
            FZ_CHECK(res == CD_ERR_FEN || res == CD_ERR_POSITION, "result %d", (int)res);
            FZ_CHECK(err[0] != '\0', "no error message (kind %d)", kind);
        }
        /* the error buffer may be NULL or tiny */
        cd_position_from_fen(&p, r, s, NULL, 0);
        char tiny[2];
        cd_position_from_fen(&p, r, s, tiny, sizeof tiny);
    }
    free(s);
    return 0;
}
