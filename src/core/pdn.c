/*
 * pdn.c -- PDN 3.0 games read (cd_pdn_read): tag pairs, GameType/Variant/FEN, the
 * movetext of the main line, results. Writing is pdn_write.c's; the tag list and the
 * GameType table are pdn_tags.c's, errors and the text between words pdn_lex.c's (pdn.h).
 *
 * Reading is one pass over the text with an offset; nothing is recursive
 * (variations are skipped with an explicit stack of open parentheses, at most
 * CD_PDN_MAX_DEPTH deep) and every loop advances the offset, so any input ends
 * in a game or an error. Line and column are computed only for the error.
 *
 * Movetext words are maximal runs of letters, digits and . - : / ! ? * (and
 * bytes >= 0x80, so that garbage is reported whole). A word is a result
 * (2-0, 0-2, 1-1, 1-0, 0-1, 1/2-1/2, 0-0), or an optional move number
 * ("12." / "12...") followed by a move with optional trailing ! ? *, or "...".
 * Whole-word matching keeps "1-18" apart from "1-1". A lone '*' ends the game;
 * one attached to a move is an annotation (the PDN 3.0 "issues" page).
 *
 * Files other programs write are read where their intent is certain: a move
 * split by white space ("1- 6", allowed by the reading grammar), '?' as the
 * side to move, lidraughts' GameTypes, and with a warning (the first is handed
 * back in err with CD_OK) an unknown move '-', an ambiguous capture of which
 * one path alone lets the rest of the main line replay, a capture written as
 * single jumps (playstrategy). tests/pdncheck-real.sh holds the reader to the
 * files of ../shared/data/real-pdn.
 *
 * Sources: the PDN 3.0 draft (grammar, reading grammar, GameType, FEN and tag
 * pages) at wiegerw.github.io/pdn.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"
#include "game.h"
#include "pdn.h"
#include "pdn_lex.h"
#include "strbuf.h"

/* ------------------------------------------------------------------ reader: tags */

/* The tags the pdn_reader acts on, with the offset of each value for messages. */
typedef struct {
    char gametype[CD_PDN_MAX_VALUE], variant[CD_PDN_MAX_VALUE], fen[CD_PDN_MAX_VALUE];
    char result[CD_PDN_MAX_VALUE];
    size_t gametype_at, variant_at, fen_at;
    int has_gametype, has_variant, has_fen, has_result;
} header;

/*
 * Read one tag pair at the '[' at rd->i into tags and h. *again is set (and
 * nothing read) when the tag's name is already in tags: it starts the next
 * game's header.
 */
static cd_result read_tag(pdn_reader *rd, cd_pdn_tags *tags, header *h, int *again)
{
    const char *t = rd->text;
    size_t open = rd->i++;
    while (t[rd->i] == ' ' || t[rd->i] == '\t')
        rd->i++;
    size_t name_at = rd->i;
    while (isalnum((unsigned char)t[rd->i]) || t[rd->i] == '_')
        rd->i++;
    size_t nlen = rd->i - name_at;
    char tmp[64];
    if (nlen == 0)
        return pdn_fail(rd, name_at, CD_ERR_MOVE, "tag: expected a name after '['");
    if (!pdn_valid_name(t + name_at, nlen))
        return pdn_fail(rd, name_at, nlen >= CD_PDN_MAX_NAME ? CD_ERR_OVERFLOW : CD_ERR_MOVE,
                        "tag name '%s' is not a valid name (a letter, then letters, digits, '_'; "
                        "at most %d)",
                        pdn_shown(t + name_at, nlen, tmp, sizeof tmp), CD_PDN_MAX_NAME - 1);
    if (pdn_tag_index(tags, t + name_at, nlen) >= 0) {
        rd->i = open;
        *again = 1;
        return CD_OK;
    }
    while (t[rd->i] == ' ' || t[rd->i] == '\t')
        rd->i++;
    if (t[rd->i] != '"')
        return pdn_fail(rd, rd->i, CD_ERR_MOVE, "tag %.*s: expected '\"' before the value",
                        (int)nlen, t + name_at);
    size_t value_at = rd->i++;
    char value[CD_PDN_MAX_VALUE];
    size_t vlen = 0;
    for (;;) {
        char c = t[rd->i];
        if (c == '\0' || c == '\n' || c == '\r')
            return pdn_fail(rd, value_at, CD_ERR_MOVE,
                            "tag %.*s: unterminated value ('\"' without '\"')", (int)nlen,
                            t + name_at);
        if (c == '"')
            break;
        if (c == '\\' && (t[rd->i + 1] == '"' || t[rd->i + 1] == '\\'))
            c = t[++rd->i];
        if (vlen + 1 >= CD_PDN_MAX_VALUE)
            return pdn_fail(rd, value_at, CD_ERR_OVERFLOW, "tag %.*s: value longer than %d bytes",
                            (int)nlen, t + name_at, CD_PDN_MAX_VALUE - 1);
        value[vlen++] = c;
        rd->i++;
    }
    value[vlen] = '\0';
    rd->i++;
    while (t[rd->i] == ' ' || t[rd->i] == '\t')
        rd->i++;
    if (t[rd->i] != ']')
        return pdn_fail(rd, open, CD_ERR_MOVE, "unterminated tag %.*s: '[' without ']'", (int)nlen,
                        t + name_at);
    rd->i++;
    if (!pdn_tags_add(tags, t + name_at, nlen, value, vlen))
        tags->dropped++;

    struct {
        const char *name;
        char *dest;
        size_t *at;
        int *has;
    } known[] = {{"GameType", h->gametype, &h->gametype_at, &h->has_gametype},
                 {"Variant", h->variant, &h->variant_at, &h->has_variant},
                 {"FEN", h->fen, &h->fen_at, &h->has_fen},
                 {"Result", h->result, NULL, &h->has_result}};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strlen(known[k].name) == nlen && !memcmp(known[k].name, t + name_at, nlen)) {
            memcpy(known[k].dest, value, vlen + 1);
            if (known[k].at)
                *known[k].at = value_at + 1;
            *known[k].has = 1;
        }
    return CD_OK;
}

/* Parse ",W,10,10,N2,0" after the GameType number: checks the board size against r. */
static cd_result check_gametype(pdn_reader *rd, const header *h, const cd_rules *r)
{
    const char *s = h->gametype;
    while (*s == ' ' || *s == '\t')
        s++;
    while (isdigit((unsigned char)*s))
        s++;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return CD_OK;
    int w = -1, ht = -1, ok = *s == ',';
    if (ok) {
        s++;
        while (*s == ' ')
            s++;
        ok = *s == 'W' || *s == 'B' || *s == 'w' || *s == 'b';
        if (ok)
            s++;
        while (*s == ' ')
            s++;
    }
    if (ok && *s == ',') {
        char *end;
        long v = strtol(s + 1, &end, 10);
        w = v > 0 && v < 100 && end > s + 1 ? (int)v : -1;
        s = end;
        while (*s == ' ')
            s++;
        if (*s == ',') {
            v = strtol(s + 1, &end, 10);
            ht = v > 0 && v < 100 && end > s + 1 ? (int)v : -1;
        }
    }
    if (!ok || w < 0 || ht < 0)
        return pdn_fail(
            rd, h->gametype_at, CD_ERR_VARIANT,
            "GameType \"%s\": expected \"type\" or \"type,colour,width,height,notation\"",
            h->gametype);
    if (w != cd_rules_width(r) || ht != cd_rules_height(r))
        return pdn_fail(rd, h->gametype_at, CD_ERR_VARIANT,
                        "GameType \"%s\": board %dx%d, but %s is played on %dx%d", h->gametype, w,
                        ht, r->name, cd_rules_width(r), cd_rules_height(r));
    return CD_OK;
}

/* The variant of the game from its tags and the caller's rules. */
static cd_result pick_rules(pdn_reader *rd, const header *h, const cd_rules *rules,
                            const cd_rules **out)
{
    int type = -1;
    if (h->has_gametype) {
        type = pdn_gametype_number(h->gametype);
        if (type < 0)
            return pdn_fail(rd, h->gametype_at, CD_ERR_VARIANT,
                            "GameType \"%s\": expected a game type number", h->gametype);
    }
    const cd_rules *r;
    if (h->has_variant) {
        r = rules && pdn_name_eq(rules->name, h->variant) ? rules : cd_rules_find(h->variant);
        if (!r)
            return pdn_fail(rd, h->variant_at, CD_ERR_VARIANT, "unknown Variant \"%s\"",
                            h->variant);
        const char *typed = type >= 0 ? pdn_gametype_variant(type) : NULL;
        if (type >= 0 && pdn_gametype_number(r->gametype) != type &&
            !(typed && pdn_name_eq(typed, r->name)))
            return pdn_fail(rd, h->gametype_at, CD_ERR_VARIANT,
                            "GameType %d does not match Variant \"%s\" (GameType %s)", type,
                            h->variant, r->gametype);
    } else if (h->has_gametype) {
        const char *name = pdn_gametype_variant(type);
        if (!name) {
            char list[768];
            pdn_gametype_list(list, sizeof list);
            return pdn_fail(rd, h->gametype_at, CD_ERR_VARIANT,
                            "unsupported GameType %d (supported: %s; or give a Variant tag)", type,
                            list);
        }
        r = rules && pdn_name_eq(rules->name, name) ? rules : cd_rules_find(name);
        if (!r)
            return pdn_fail(rd, h->gametype_at, CD_ERR_VARIANT, "no rules for GameType %d", type);
    } else {
        r = rules ? rules : cd_rules_find("international");
    }
    if (h->has_gametype) {
        cd_result res = check_gametype(rd, h, r);
        if (res != CD_OK)
            return res;
    }
    *out = r;
    return CD_OK;
}

/* ------------------------------------------------------------------ reader: movetext */

/* A result word: CD_WHITE_WINS.. / CD_ONGOING for "0-0" (the first score taken as White's:
 * cd_status_first_mover turns it into the rules' own); -1 if not a result. */
static int result_of(const char *w, size_t n)
{
    static const struct {
        const char *text;
        int status;
    } results[] = {{"2-0", CD_WHITE_WINS}, {"1-0", CD_WHITE_WINS},
                   {"0-2", CD_BLACK_WINS}, {"0-1", CD_BLACK_WINS},
                   {"1-1", CD_DRAW},       {"1/2-1/2", CD_DRAW},
                   {"0-0", CD_ONGOING},    {"\xC2\xBD-\xC2\xBD", CD_DRAW}};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strlen(results[i].text) == n && !memcmp(results[i].text, w, n))
            return results[i].status;
    return -1;
}

/*
 * Check the shape of a move -- squares ("32", "c3") separated by - x X : or,
 * between algebraic squares, nothing -- and copy it with '-' put between
 * squares that had no separator (cd_move_parse needs one). 0 if not a move.
 *
 * turned (not NULL): the rules of a variant where Black moves first, whose
 * algebraic squares PDN gives from the first mover's side (GameType notation
 * "A0": a1 at the bottom left of the starting player, as playstrategy writes
 * American/English): they are turned half a circle into the library's view
 * from White.
 */
static int move_shape(const char *w, size_t n, char *out, size_t outlen, const cd_rules *turned)
{
    size_t i = 0, k = 0;
    int squares = 0;
    for (;;) {
        if (k + 12 >= outlen)
            return 0;
        int letter = 0;
        if (i + 1 < n && isalpha((unsigned char)w[i]) && isdigit((unsigned char)w[i + 1]))
            letter = (unsigned char)w[i++];
        if (i >= n || !isdigit((unsigned char)w[i]))
            return 0;
        size_t digits = i;
        while (i < n && isdigit((unsigned char)w[i]) && i - digits < 6)
            i++;
        if (i < n && isdigit((unsigned char)w[i]))
            return 0;
        int num = 0;
        for (size_t d = digits; d < i; d++)
            num = num * 10 + (w[d] - '0');
        if (letter && turned) {
            int width = cd_rules_width(turned), height = cd_rules_height(turned);
            int col = tolower(letter) - 'a';
            if (col >= 0 && col < width && num >= 1 && num <= height) {
                letter = 'a' + (width - 1 - col);
                num = height + 1 - num;
            }
        }
        if (letter) {
            out[k++] = (char)letter;
            k += (size_t)snprintf(out + k, outlen - k, "%d", num);
        } else {
            for (size_t d = digits; d < i; d++)
                out[k++] = w[d];
        }
        squares++;
        if (i == n)
            break;
        if (w[i] == '-' || w[i] == 'x' || w[i] == 'X' || w[i] == ':')
            out[k++] = w[i++];
        else if (isalpha((unsigned char)w[i]))
            out[k++] = '-';
        else
            return 0;
    }
    out[k] = '\0';
    return squares >= 2;
}

/* "12." / "12..." for messages: the move number and side of the ply about to be played. */
static void ply_name(const cd_game *g, char *out, size_t len)
{
    const cd_position *start = cd_game_position_at(g, 0);
    int offset = start->side == start->rules->first ? 0 : 1;
    int k = cd_game_ply(g) + offset;
    snprintf(out, len, "%d%s (%s to move)", k / 2 + 1, k % 2 ? "..." : ".",
             cd_game_position(g)->side == CD_WHITE ? "White" : "Black");
}

static cd_result read_movetext(pdn_reader *rd, cd_game *g, int *result);

#define PDN_MAX_PATHS  16 /* paths of an ambiguous capture tried */
#define PDN_MAX_TRIALS 32 /* paths tried for one ambiguous capture, later ones' included */

/*
 * An ambiguous capture `text` (perr lists the paths): each path is played and the rest of the
 * main line replayed after it (in a trial: no messages, comments not kept). A later ambiguous
 * capture met in a trial is tried the same way, and the trial replays when one of its paths
 * does; an unknown move ('-') ends a trial as replayed. When exactly one path lets the game go
 * on, it is played with a warning (as lidraughts' importer does); else the ambiguity is the
 * error. Past PDN_MAX_TRIALS paths tried, a trial that meets another ambiguous capture counts
 * as replayed so far.
 */
static cd_result resolve_ambiguous(pdn_reader *rd, cd_game *g, size_t at, const char *text,
                                   const char *where, const char *perr)
{
    int trials = PDN_MAX_TRIALS;
    int *left = rd->trial ? rd->trials : &trials;
    if (rd->trial && *left <= 0) {
        rd->stopped = 1;
        return CD_OK;
    }
    cd_move paths[PDN_MAX_PATHS];
    int n = cd_move_candidates(cd_game_position(g), text, paths, PDN_MAX_PATHS);
    if (n < 2 || n > PDN_MAX_PATHS)
        return pdn_fail(rd, at, CD_ERR_AMBIGUOUS, "%s: %s", where, perr);
    int ply = cd_game_ply(g), good = -1, goods = 0;
    for (int k = 0; k < n && !(rd->trial && goods); k++) {
        if (cd_game_play(g, &paths[k]) != CD_OK)
            continue;
        (*left)--;
        pdn_reader trial = *rd;
        trial.err = NULL;
        trial.errlen = 0;
        trial.warn = NULL;
        trial.trial = 1;
        trial.stopped = 0;
        trial.trials = left;
        int result;
        if (read_movetext(&trial, g, &result) == CD_OK) {
            good = k;
            goods++;
        }
        while (cd_game_ply(g) > ply)
            cd_game_undo(g);
    }
    if (rd->trial) { /* the rest replays after this path of the outer capture, or not */
        if (!goods)
            return pdn_fail(rd, at, CD_ERR_AMBIGUOUS, "%s: %s", where, perr);
        rd->stopped = 1;
        return CD_OK;
    }
    if (goods != 1)
        return pdn_fail(rd, at, CD_ERR_AMBIGUOUS, "%s: %s (%s)", where, perr,
                        goods ? "the rest of the main line replays after more than one of them"
                              : "the rest of the main line replays after none of them");
    char full[256];
    cd_move_to_text(cd_game_position(g), &paths[good], -1, full, sizeof full);
    cd_result r = cd_game_play(g, &paths[good]);
    if (r != CD_OK)
        return pdn_fail(rd, at, r, "%s: move '%s' could not be played (%s)", where, full,
                        cd_result_str(r));
    pdn_warn(rd, at,
             "%s: move '%s' is ambiguous; took %s, the only path after which the game goes on",
             where, text, full);
    return CD_OK;
}

/*
 * A capture written as its single jumps, each as a move of its own ("23... b6xd4 24. d4xb2", as
 * playstrategy writes American/English): while the next word (after a move number) starts on
 * the square where text ends, it is joined to text, until text names a legal move (*m, 1, with
 * rd->i past the words used). 0 and nothing consumed when no such path is found.
 */
static int join_jumps(pdn_reader *rd, cd_game *g, char *text, size_t cap, cd_move *m)
{
    const char *t = rd->text;
    size_t save = rd->i, len = strlen(text), keep = len;
    for (int k = 0; k < 32; k++) { /* at most 32 jumps */
        size_t j = rd->i;
        while (pdn_is_space((unsigned char)t[j]))
            j++;
        size_t d = j;
        while (isdigit((unsigned char)t[d]))
            d++;
        if (d > j && t[d] == '.') {
            while (t[d] == '.')
                d++;
            for (j = d; pdn_is_space((unsigned char)t[j]);)
                j++;
        }
        size_t e = j;
        while (pdn_is_word_char((unsigned char)t[e]))
            e++;
        char next[CD_PDN_MAX_TOKEN + CD_PDN_MAX_TOKEN / 2 + 8];
        if (e == j || e - j > CD_PDN_MAX_TOKEN ||
            !move_shape(t + j, e - j, next, sizeof next,
                        rd->turned ? cd_game_position(g)->rules : NULL))
            break;
        size_t last = len, first = strcspn(next, "-xX:");
        while (last > 0 && !strchr("-xX:", text[last - 1]))
            last--;
        if (!strchr("xX:", next[first]) || len - last != first ||
            memcmp(text + last, next, first) || len + strlen(next + first) >= cap)
            break;
        memcpy(text + len, next + first, strlen(next + first) + 1);
        len = strlen(text);
        rd->i = e;
        if (cd_move_parse(cd_game_position(g), text, m, NULL, 0) == CD_OK)
            return 1;
    }
    rd->i = save;
    text[keep] = '\0';
    return 0;
}

/* Play the move word w[0..n) at offset at; the word may still carry annotations. */
static cd_result play_word(pdn_reader *rd, cd_game *g, size_t at, const char *w, size_t n)
{
    char tmp[64], text[CD_PDN_MAX_TOKEN + CD_PDN_MAX_TOKEN / 2 + 8], where[64];
    size_t core = n;
    while (core > 0 && (w[core - 1] == '!' || w[core - 1] == '?' || w[core - 1] == '*'))
        core--;
    if (core == 0)
        return CD_OK; /* a lone annotation */
    if (!move_shape(w, core, text, sizeof text, rd->turned ? cd_game_position(g)->rules : NULL))
        return pdn_fail(rd, at, CD_ERR_MOVE,
                        "unexpected '%s' (expected a move, move number or result)",
                        pdn_shown(w, n, tmp, sizeof tmp));
    ply_name(g, where, sizeof where);
    cd_reason why;
    if (cd_game_status(g, &why) != CD_ONGOING)
        return pdn_fail(rd, at, CD_ERR_ILLEGAL, "%s: move '%s' after the end of the game (%s)",
                        where, text, cd_reason_str(why));
    char perr[512];
    cd_move m;
    cd_result r = cd_move_parse(cd_game_position(g), text, &m, perr, sizeof perr);
    if (r == CD_ERR_OVERFLOW)
        return pdn_fail(rd, at, CD_ERR_OVERFLOW, "%s: out of memory", where);
    if (r == CD_ERR_AMBIGUOUS)
        return resolve_ambiguous(rd, g, at, text, where, perr);
    if (r == CD_ERR_ILLEGAL && strpbrk(text, "xX:")) {
        char jumps[sizeof text];
        memcpy(jumps, text, sizeof jumps);
        if (join_jumps(rd, g, jumps, sizeof jumps, &m)) {
            char words[64];
            size_t k = 0;
            for (size_t i = at; i < rd->i && k + 4 < sizeof words; i++)
                if (!pdn_is_space((unsigned char)rd->text[i]))
                    words[k++] = rd->text[i];
                else if (k && words[k - 1] != ' ')
                    words[k++] = ' ';
            words[k] = '\0';
            pdn_warn(rd, at, "%s: the capture '%s' is written as separate jumps", where, words);
            r = CD_OK;
        }
    }
    if (r == CD_ERR_ILLEGAL && rd->result_tag && strlen(rd->result_tag) == core &&
        !memcmp(rd->result_tag, w, core))
        return pdn_fail(
            rd, at, r,
            "%s: '%s' (the Result tag's value) ends the game, but it is not a PDN result "
            "(2-0 0-2 1-1 1-0 0-1 1/2-1/2 0-0 *) and not a legal move",
            where, rd->result_tag);
    if (r != CD_OK)
        return pdn_fail(rd, at, r, "%s: %s", where, perr);
    r = cd_game_play(g, &m);
    if (r != CD_OK)
        return pdn_fail(rd, at, r, "%s: move '%s' could not be played (%s)", where, text,
                        cd_result_str(r));
    return CD_OK;
}

/*
 * Read the movetext of one game into g. *result gets the result word's status
 * (-1 when the game ended without one, or with '*').
 */
static cd_result read_movetext(pdn_reader *rd, cd_game *g, int *result)
{
    const char *t = rd->text;
    *result = -1;
    for (;;) {
        /* comments of the main line are kept, not those met in a trial or past an unknown move */
        cd_result r = pdn_skip_filler(rd, rd->trial || rd->unknown ? NULL : g);
        if (r != CD_OK)
            return r;
        size_t at = rd->i;
        unsigned char c = (unsigned char)t[at];
        if (c == '\0' || c == '[')
            return CD_OK;
        if (c == '(') {
            size_t s = pdn_strength_in_parens(t, at);
            if (s)
                rd->i += s;
            else if ((r = pdn_skip_variation(rd)) != CD_OK)
                return r;
            continue;
        }
        if (c == ')')
            return pdn_fail(rd, at, CD_ERR_MOVE, "')' without '('");
        if (c == '}')
            return pdn_fail(rd, at, CD_ERR_MOVE, "'}' without '{'");
        if (c == '$') {
            rd->i++;
            if (!isdigit((unsigned char)t[rd->i]))
                return pdn_fail(rd, at, CD_ERR_MOVE, "'$' without a number (NAG)");
            while (isdigit((unsigned char)t[rd->i]))
                rd->i++;
            continue;
        }
        if (c == '/')
            return pdn_fail(rd, at, CD_ERR_MOVE,
                            "a set-up '/.../' inside the main line is not supported");
        if (c == '*' && (t[at + 1] == '\0' || !pdn_is_word_char((unsigned char)t[at + 1]))) {
            rd->i++;
            return CD_OK;
        }
        if (!pdn_is_word_char(c)) {
            char tmp[8];
            return pdn_fail(rd, at, CD_ERR_MOVE, "unexpected character '%s' (0x%02x)",
                            pdn_shown(t + at, 1, tmp, sizeof tmp), c);
        }
        while (pdn_is_word_char((unsigned char)t[rd->i]))
            rd->i++;
        size_t n = rd->i - at;
        if (n > CD_PDN_MAX_TOKEN)
            return pdn_fail(rd, at, CD_ERR_OVERFLOW, "a word of %zu characters (at most %d)", n,
                            CD_PDN_MAX_TOKEN);
        const char *w = t + at;
        int res = result_of(w, n);
        if (res >= 0) {
            *result = res;
            return CD_OK;
        }
        /* a move number: digits then dots, maybe with the move glued on ("1.32-28") */
        size_t k = 0;
        while (k < n && isdigit((unsigned char)w[k]))
            k++;
        if (k > 0 && k < n && w[k] == '.') {
            while (k < n && w[k] == '.')
                k++;
            w += k;
            n -= k;
            at += k;
            if (n == 0)
                continue;
            if ((res = result_of(w, n)) >= 0) {
                *result = res;
                return CD_OK;
            }
        }
        while (n > 0 && *w == '.') /* "..." for a move left out, "1. ...19-23" */
            w++, n--, at++;
        if (n == 0 || rd->unknown) /* after an unknown move nothing can be replayed */
            continue;
        size_t dashes = 0;
        while (dashes < n && w[dashes] == '-')
            dashes++;
        if (dashes == n) { /* "-": a move not known (lidraughts' and Aurora's "1. - -") */
            rd->unknown = 1;
            if (rd->trial) {
                rd->stopped = 1;
                return CD_OK;
            }
            char where[64];
            ply_name(g, where, sizeof where);
            pdn_warn(
                rd, at,
                "%s: an unknown move '-': the game is kept up to here, the rest of its main line "
                "is not replayed",
                where);
            continue;
        }
        /* A move split by white space, "1- 6" or "28x 6": PDN 3.0's reading grammar takes the
         * squares and separators of a move as separate tokens. */
        char joined[CD_PDN_MAX_TOKEN + 1];
        while (n >= 2 && strchr("-xX:", w[n - 1]) && isdigit((unsigned char)w[n - 2])) {
            size_t j = rd->i;
            while (pdn_is_space((unsigned char)t[j]))
                j++;
            if (!isdigit((unsigned char)t[j]) &&
                !(isalpha((unsigned char)t[j]) && isdigit((unsigned char)t[j + 1])))
                break;
            size_t e = j;
            while (pdn_is_word_char((unsigned char)t[e]))
                e++;
            if (n + (e - j) > CD_PDN_MAX_TOKEN)
                break;
            if (w != joined)
                memmove(joined, w, n);
            memcpy(joined + n, t + j, e - j);
            n += e - j;
            w = joined;
            rd->i = e;
        }
        if ((r = play_word(rd, g, at, w, n)) != CD_OK)
            return r;
        if (rd->stopped)
            return CD_OK;
    }
}

/*
 * After an error: the next line that opens a game header, scanning from
 * offset i. in_header: i lies in a header, whose remaining tag lines are
 * skipped first. Always past `from`, so a caller's loop ends.
 */
static size_t resync(const char *t, size_t from, size_t i, int in_header)
{
    size_t k = i;
    while (t[k] == ' ' || t[k] == '\t')
        k++;
    if (!in_header && t[k] == '[' && (i == 0 || t[i - 1] == '\n') && i > from)
        return i;
    for (;;) {
        while (t[i] && t[i] != '\n')
            i++;
        if (!t[i])
            return i > from ? i : from + (t[from] != '\0');
        i++;
        for (k = i; t[k] == ' ' || t[k] == '\t' || t[k] == '\r'; k++)
            ;
        if (t[k] == '[') {
            if (!in_header)
                return i;
        } else {
            in_header = 0; /* a movetext or blank line: the header is over */
        }
    }
}

cd_result cd_pdn_read(const char *text, size_t *pos, const cd_rules *rules, cd_game **out,
                      cd_pdn_tags *tags, char *err, size_t errlen)
{
    if (out)
        *out = NULL;
    if (err && errlen)
        err[0] = '\0';
    if (!text || !pos || !out) {
        if (err && errlen)
            snprintf(err, errlen, "PDN: missing argument");
        return CD_ERR_ARG;
    }
    cd_pdn_tags local;
    if (!tags)
        tags = &local;
    cd_pdn_tags_init(tags);
    char warned[512] = "";
    pdn_reader rd = {.text = text,
                     .i = *pos,
                     .err = err,
                     .errlen = errlen,
                     .err_at = *pos,
                     .in_header = 1,
                     .warn = warned,
                     .warnlen = sizeof warned};
    header *h = calloc(1, sizeof *h);
    if (!h) {
        if (err && errlen)
            snprintf(err, errlen, "PDN: out of memory");
        return CD_ERR_OVERFLOW;
    }
    cd_game *g = NULL;
    cd_result r = pdn_skip_filler(&rd, NULL);
    if (r != CD_OK)
        goto done;
    if (!text[rd.i]) {
        *pos = rd.i;
        free(h);
        return CD_OK;
    }
    size_t after_tags = rd.i;
    while (text[rd.i] == '[') {
        int again = 0;
        if ((r = read_tag(&rd, tags, h, &again)) != CD_OK)
            goto done;
        if (again)
            break;
        after_tags = rd.i;
        if ((r = pdn_skip_filler(&rd, NULL)) != CD_OK)
            goto done;
    }
    if (text[rd.i] != '[')
        rd.i = after_tags; /* the comments before the first move belong to the game */

    rd.in_header = 0;
    const cd_rules *use = NULL;
    if ((r = pick_rules(&rd, h, rules, &use)) != CD_OK)
        goto done;
    rd.turned = use->first == CD_BLACK;
    rd.result_tag = h->has_result ? h->result : NULL;
    /* PDN 3.0 allows '?' for the side to move: the variant's first mover, else (when the first
     * move is not legal for it) the other side. */
    size_t side_at = 0;
    while (h->fen[side_at] == ' ' || h->fen[side_at] == '\t')
        side_at++;
    int sides = h->has_fen && h->fen[side_at] == '?' ? 2 : 1;
    if (sides == 2)
        h->fen[side_at] = use->first == CD_WHITE ? 'W' : 'B';
    size_t body = rd.i;
    char first_err[512] = "";
    unsigned draw = 0;
    int result = -1;
    for (int attempt = 0; attempt < sides; attempt++) {
        cd_position start;
        if (h->has_fen) {
            char ferr[256];
            r = cd_position_from_fen(&start, use, h->fen, ferr, sizeof ferr);
            if (r != CD_OK) {
                r = pdn_fail(&rd, h->fen_at, r, "%s", ferr);
                goto done;
            }
        } else {
            cd_position_start(&start, use);
        }
        cd_game_free(g);
        g = cd_game_new(use, &start);
        if (!g) {
            r = pdn_fail(&rd, rd.i, CD_ERR_OVERFLOW, "out of memory");
            goto done;
        }
        draw = cd_game_draw_rules(g);
        cd_game_set_draw_rules(g, 0);
        rd.i = body;
        rd.unknown = 0;
        rd.warnings = 0;
        r = read_movetext(&rd, g, &result);
        if (r == CD_OK || attempt + 1 == sides || cd_game_ply(g) > 0 ||
            (r != CD_ERR_ILLEGAL && r != CD_ERR_AMBIGUOUS))
            break;
        if (err && errlen)
            snprintf(first_err, sizeof first_err, "%s", err);
        h->fen[side_at] = h->fen[side_at] == 'W' ? 'B' : 'W';
    }
    if (r != CD_OK) {
        if (first_err[0] && cd_game_ply(g) == 0)
            snprintf(err, errlen, "%s", first_err);
        goto done;
    }
    cd_game_set_draw_rules(g, draw);

    /* The result: the movetext's, else the Result tag's; kept only where the rules allow. */
    if (result < 0 && h->has_result)
        result = result_of(h->result, strlen(h->result));
    if (result >= 0)
        result = (int)cd_status_first_mover(cd_game_position(g)->rules, (cd_status)result);
    cd_reason why;
    cd_status st = cd_game_status(g, &why);
    int rule_draw = st == CD_DRAW && (why == CD_REASON_REPETITION || why == CD_REASON_NO_PROGRESS ||
                                      why == CD_REASON_ENDGAME);
    if (st == CD_ONGOING || (rule_draw && (result == CD_WHITE_WINS || result == CD_BLACK_WINS))) {
        if (result == CD_WHITE_WINS)
            cd_game_resign(g, CD_BLACK);
        else if (result == CD_BLACK_WINS)
            cd_game_resign(g, CD_WHITE);
        else if (result == CD_DRAW && st == CD_ONGOING)
            cd_game_agree_draw(g);
    }
    while (pdn_is_space((unsigned char)text[rd.i]))
        rd.i++;

done:
    free(h);
    if (r != CD_OK) {
        cd_game_free(g);
        size_t from = rd.in_header ? rd.err_at : rd.err_at > rd.i ? rd.err_at : rd.i;
        *pos = resync(text, *pos, from, rd.in_header);
        return r;
    }
    *pos = rd.i;
    *out = g;
    if (rd.warnings && err && errlen)
        snprintf(err, errlen, "%s%s", warned,
                 rd.warnings > 1 ? " (and more warnings in this game)" : "");
    return CD_OK;
}
