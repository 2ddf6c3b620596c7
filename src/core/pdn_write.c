/*
 * pdn_write.c -- a game written as PDN (cd_pdn_write): the tag roster, GameType, Variant, SetUp
 * and FEN, the movetext with its comments wrapped at 80 columns, and the result.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "pdn.h"
#include "pdn_lex.h"
#include "strbuf.h"

/* ------------------------------------------------------------------ writer */

static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black"};
static const char *const written[] = {"Event",  "Site",     "Date",    "Round", "White", "Black",
                                      "Result", "GameType", "Variant", "SetUp", "FEN"};

static void put_tag(sbuf *b, const char *name, const char *value)
{
    sb_putc(b, '[');
    sb_puts(b, name);
    sb_puts(b, " \"");
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            sb_putc(b, '\\');
        sb_putc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
    }
    sb_puts(b, "\"]\n");
}

static int same_position(const cd_position *a, const cd_position *b)
{
    return a->side == b->side && !memcmp(a->white, b->white, sizeof a->white) &&
           !memcmp(a->black, b->black, sizeof a->black) &&
           !memcmp(a->kings, b->kings, sizeof a->kings);
}

/* Put a movetext unit, breaking the line before it when it would pass 80 columns. */
static void put_unit(sbuf *b, int *col, const char *s)
{
    int n = (int)strlen(s);
    if (*col > 0 && *col + 1 + n > 80) {
        sb_putc(b, '\n');
        *col = 0;
    } else if (*col > 0) {
        sb_putc(b, ' ');
        (*col)++;
    }
    sb_puts(b, s);
    *col += n;
}

/* Put a comment as {words}, wrapped as the movetext is; a '}' in it is written as ')'. */
static void put_comment(sbuf *b, int *col, const char *text)
{
    if (!text || !*text)
        return;
    char word[CD_PDN_MAX_TOKEN + 2];
    const char *p = text;
    int first = 1;
    while (*p) {
        while (pdn_is_space((unsigned char)*p))
            p++;
        size_t n = 0;
        if (first)
            word[n++] = '{';
        for (; *p && !pdn_is_space((unsigned char)*p) && n < CD_PDN_MAX_TOKEN; p++)
            word[n++] = *p == '}' ? ')' : *p;
        while (pdn_is_space((unsigned char)*p))
            p++;
        if (!*p)
            word[n++] = '}';
        word[n] = '\0';
        put_unit(b, col, word);
        first = 0;
    }
}

size_t cd_pdn_write(const cd_game *g, const cd_pdn_tags *tags, char *buf, size_t len)
{
    sbuf b = {buf, len, 0};
    if (!g)
        return sb_end(&b);
    const cd_position *start = cd_game_position_at(g, 0);
    const cd_rules *r = start->rules;
    const char *result = cd_status_pdn(r, cd_game_status(g, NULL));

    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *v = cd_pdn_tag(tags, roster[i]);
        put_tag(&b, roster[i], v ? v : !strcmp(roster[i], "Date") ? "????.??.??" : "?");
    }
    put_tag(&b, "Result", result);
    char gametype[64];
    pdn_gametype_tag(r, gametype, sizeof gametype);
    put_tag(&b, "GameType", gametype);
    if (!pdn_own_gametype(r))
        put_tag(&b, "Variant", r->name);
    cd_position initial;
    cd_position_start(&initial, r);
    if (!same_position(start, &initial)) {
        char fen[1024];
        cd_position_to_fen(start, (r->flags & CD_RULE_ALGEBRAIC) != 0, fen, sizeof fen);
        put_tag(&b, "SetUp", "1");
        put_tag(&b, "FEN", fen);
    }
    for (int i = 0; tags && i < tags->count; i++) {
        const char *name = cd_pdn_tag_name(tags, i);
        int skip = 0;
        for (size_t k = 0; k < sizeof written / sizeof written[0]; k++)
            skip |= !strcmp(name, written[k]);
        if (!skip)
            put_tag(&b, name, cd_pdn_tag_value(tags, i));
    }
    sb_putc(&b, '\n');

    /* Movetext: "N." before the first mover's move, "N..." when the game starts with the other
     * or a comment stands before it; each comment as {...} where it was. */
    int col = 0, offset = start->side == r->first ? 0 : 1;
    put_comment(&b, &col, cd_game_comment(g, 0));
    for (int i = 0; i < cd_game_ply(g); i++) {
        char unit[1024];
        int k = i + offset, n = 0;
        if (k % 2 == 0)
            n = snprintf(unit, sizeof unit, "%d. ", k / 2 + 1);
        else if (i == 0 || cd_game_comment(g, i)) /* the second mover's move after a comment */
            n = snprintf(unit, sizeof unit, "%d... ", k / 2 + 1);
        cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), -1, unit + n,
                        sizeof unit - (size_t)n);
        put_unit(&b, &col, unit);
        put_comment(&b, &col, cd_game_comment(g, i + 1));
    }
    put_unit(&b, &col, result);
    sb_puts(&b, "\n\n");
    return sb_end(&b);
}
