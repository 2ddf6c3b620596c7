/*
 * fuzz_pdn.c -- a whole PDN file: the cd_pdn_read loop, as `condraughts pdn
 * check` runs it, and the round trip of every game read.
 *
 * Input: byte 0 picks the default variant (fz_variant, used when a game has
 * no GameType/Variant tag); the rest is the file. Every call must advance the
 * offset (or the file is at its end); an error must say "line L col C: ..."
 * with L and C inside the text. Each game read is written with cd_pdn_write,
 * read back under its own rules, and must be the same game (start, moves,
 * result and reason); writing that again gives the same text.
 */
#include "fuzz.h"

static char *write_game(const cd_game *g, const cd_pdn_tags *tags)
{
    size_t need = cd_pdn_write(g, tags, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf)
        abort();
    size_t again = cd_pdn_write(g, tags, buf, need + 1);
    FZ_CHECK(again == need && strlen(buf) == need, "cd_pdn_write lengths %zu %zu", need, again);
    return buf;
}

static void same_game(const cd_game *a, const cd_game *b, const char *text)
{
    FZ_CHECK(fz_same_position(cd_game_position_at(a, 0), cd_game_position_at(b, 0)),
             "start differs after the round trip:\n%s", text);
    FZ_CHECK(cd_game_ply(a) == cd_game_ply(b), "%d plies, %d after the round trip:\n%s",
             cd_game_ply(a), cd_game_ply(b), text);
    for (int i = 0; i < cd_game_ply(a); i++)
        FZ_CHECK(cd_move_equal(cd_game_move(a, i), cd_game_move(b, i)),
                 "move %d differs after the round trip:\n%s", i, text);
    cd_reason ra, rb;
    cd_status sa = cd_game_status(a, &ra), sb = cd_game_status(b, &rb);
    FZ_CHECK(sa == sb && ra == rb, "result %d (%s), %d (%s) after the round trip:\n%s", (int)sa,
             cd_reason_str(ra), (int)sb, cd_reason_str(rb), text);
}

static void check_error(const char *text, size_t len, const char *err)
{
    int line = 0, col = 0;
    FZ_CHECK(sscanf(err, "line %d col %d: ", &line, &col) == 2, "error without a place: %s", err);
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    FZ_CHECK(line >= 1 && line <= lines && col >= 1, "error place outside the text: %s", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 64 * 1024)
        return 0;
    const cd_rules *rules = fz_variant(data[0]);
    char *text = fz_cstr(data + 1, size - 1);
    size_t len = strlen(text);
    cd_pdn_tags *tags = malloc(sizeof *tags), *tags2 = malloc(sizeof *tags2);
    if (!tags || !tags2)
        abort();
    char err[512];
    size_t pos = 0;
    for (int games = 0; games < 10000; games++) {
        size_t before = pos;
        cd_game *g = NULL;
        err[0] = '\0';
        cd_result r = cd_pdn_read(text, &pos, rules, &g, tags, err, sizeof err);
        FZ_CHECK(pos <= len, "offset %zu past the end %zu", pos, len);
        if (r != CD_OK) {
            FZ_CHECK(!g, "a game returned with an error");
            check_error(text, len, err);
            FZ_CHECK(pos > before || pos == len, "no progress after an error at %zu", pos);
            if (pos == len)
                break;
            continue;
        }
        if (!g) {
            FZ_CHECK(pos == len || !text[pos], "no game before the end");
            break;
        }
        FZ_CHECK(pos > before, "a game read without progress at %zu", pos);
        FZ_CHECK(tags->count >= 0 && tags->count <= CD_PDN_MAX_TAGS, "tag count");
        for (int i = 0; i < tags->count; i++)
            FZ_CHECK(cd_pdn_tag(tags, cd_pdn_tag_name(tags, i)) != NULL, "tag lookup");

        /* round trip */
        char *out = write_game(g, tags);
        size_t p2 = 0;
        cd_game *g2 = NULL;
        const cd_rules *own = cd_game_position(g)->rules;
        r = cd_pdn_read(out, &p2, own, &g2, tags2, err, sizeof err);
        FZ_CHECK(r == CD_OK && g2, "our own PDN does not read back (%s):\n%s", err, out);
        FZ_CHECK(cd_game_position(g2)->rules == own, "read back as %s, written as %s:\n%s",
                 cd_game_position(g2)->rules->name, own->name, out);
        same_game(g, g2, out);
        size_t p3 = p2;
        cd_game *g3 = NULL;
        r = cd_pdn_read(out, &p3, own, &g3, NULL, err, sizeof err);
        FZ_CHECK(r == CD_OK && !g3, "more than one game in our own PDN:\n%s", out);
        if (!tags->dropped && !tags2->dropped) {
            char *out2 = write_game(g2, tags2);
            FZ_CHECK(!strcmp(out, out2), "written twice differently:\n%s\n---\n%s", out, out2);
            free(out2);
        }
        free(out);
        cd_game_free(g2);
        cd_game_free(g);
    }
    free(tags);
    free(tags2);
    free(text);
    return 0;
}
