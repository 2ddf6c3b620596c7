/*
 * fuzz_move.c -- move text: cd_move_parse on fixed positions and
 * cd_game_play_text on a game.
 *
 * Input: byte 0 picks the variant (fz_variant), byte 1 the position (the
 * start, or one of a few middle-game and king positions per board size);
 * the rest is move text. The whole text goes to cd_move_parse: a move it
 * returns must be legal and print back to text that parses to the same move.
 * Then the text is split at blanks and each word is played with
 * cd_game_play_text: the game changes only on CD_OK (one more ply, a legal
 * move) and otherwise stays as it was.
 */
#include "fuzz.h"

static const char *const fens8[] = {
    "W:WK32,K21,24,27,18:B5,6,K9,14,15",
    "B:W18,19,22,23,26,K30:B1,2,7,10,11,K28",
    "W:WK29:BK4,K13,K22",
    "W:W21,22,23,25,26:B13,14,15,17,18",
};
static const char *const fens10[] = {
    "W:WK46,K28,33,34,38:B12,13,K19,22,23",
    "W:W27,28,32,33,37,38,39:B7,8,12,13,17,18,19,22",
    "B:WK3,K35,K48:BK8,K19,K44",
    "W:WK35:BK3,K12,K24",
    "W:W31,32,33,34,35,36:B16,17,18,19,20,21,22,23,24,25",
};
static const char *const fens12[] = {
    "W:WK70,40,41,45:B10,K20,30,31,34",
    "B:W43,44,45,46,49,50,51:B25,26,27,28,31,32,33",
};

static void start_position(const cd_rules *r, uint8_t which, cd_position *p)
{
    int nsq = cd_rules_squares(r);
    const char *const *fens = nsq == 32 ? fens8 : nsq == 50 ? fens10 : fens12;
    int nf = nsq == 32   ? (int)(sizeof fens8 / sizeof *fens8)
             : nsq == 50 ? (int)(sizeof fens10 / sizeof *fens10)
                         : (int)(sizeof fens12 / sizeof *fens12);
    int k = which % (nf + 1);
    if (k == 0 || cd_position_from_fen(p, r, fens[k - 1], NULL, 0) != CD_OK)
        cd_position_start(p, r);
}

static int is_legal(const cd_position *p, const cd_move *m)
{
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        abort();
    cd_generate(p, list);
    int found = 0;
    for (int i = 0; i < list->count; i++)
        found |= !memcmp(&list->moves[i], m, sizeof *m);
    free(list);
    return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    const cd_rules *r = fz_variant(data[0]);
    cd_position p;
    start_position(r, data[1], &p);
    char *text = fz_cstr(data + 2, size - 2);
    char err[1024];
    cd_move m;
    err[0] = '\0';
    cd_result res = cd_move_parse(&p, text, &m, err, sizeof err);
    if (res == CD_OK) {
        FZ_CHECK(is_legal(&p, &m), "'%s' parsed to a move not in the list", text);
        char back[1024];
        cd_move_to_text(&p, &m, -1, back, sizeof back);
        cd_move again;
        cd_result r2 = cd_move_parse(&p, back, &again, err, sizeof err);
        FZ_CHECK(r2 == CD_OK || ((r->flags & CD_RULE_KEEP_DUPLICATES) && r2 == CD_ERR_AMBIGUOUS),
                 "'%s' printed as '%s': %s", text, back, err);
        if (r2 == CD_OK)
            FZ_CHECK(cd_move_equal(&m, &again), "'%s' -> '%s' is another move", text, back);
    } else {
        FZ_CHECK(res == CD_ERR_MOVE || res == CD_ERR_ILLEGAL || res == CD_ERR_AMBIGUOUS,
                 "result %d", (int)res);
        FZ_CHECK(err[0], "no error message for '%s'", text);
    }
    cd_move_parse(&p, text, &m, NULL, 0);

    /* word by word on a game */
    cd_game *g = cd_game_new(r, &p);
    FZ_CHECK(g != NULL, "cd_game_new");
    char *save = NULL;
    int words = 0;
    for (char *w = strtok_r(text, " \t\r\n", &save); w && words < 200;
         w = strtok_r(NULL, " \t\r\n", &save), words++) {
        int ply = cd_game_ply(g);
        cd_position before = *cd_game_position(g);
        cd_status st = cd_game_status(g, NULL);
        res = cd_game_play_text(g, w, err, sizeof err);
        if (res == CD_OK) {
            FZ_CHECK(st == CD_ONGOING, "a move was played after the end");
            FZ_CHECK(cd_game_ply(g) == ply + 1, "ply %d after %d", cd_game_ply(g), ply);
            FZ_CHECK(is_legal(&before, cd_game_move(g, ply)), "illegal move played");
            FZ_CHECK(fz_same_position(cd_game_position_at(g, ply), &before), "history");
        } else {
            FZ_CHECK(cd_game_ply(g) == ply, "ply changed on error");
            FZ_CHECK(fz_same_position(cd_game_position(g), &before), "position changed on error");
        }
        if (words % 7 == 6 && cd_game_ply(g) > 0) {
            FZ_CHECK(cd_game_undo(g) == 1, "undo");
            FZ_CHECK(cd_game_ply(g) == ply + (res == CD_OK) - 1, "ply after undo");
        }
    }
    cd_reason why;
    cd_status st = cd_game_status(g, &why);
    FZ_CHECK(st >= CD_ONGOING && st <= CD_DRAW, "status %d", (int)st);
    FZ_CHECK(cd_reason_str(why) != NULL, "reason");
    cd_game_free(g);
    free(text);
    return 0;
}
