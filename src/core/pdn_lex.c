/*
 * pdn_lex.c -- the PDN reader's errors and warnings ("line L col C: ...") and the text between
 * words: white space, comments (kept in the game), %lines and skipped variations (pdn_lex.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdn_lex.h"

/* ------------------------------------------------------------------ reader: errors */

/* Line and column (1-based) of offset at, as "line L col C: ". */
static int where_at(const char *text, size_t at, char *out, size_t len)
{
    int line = 1;
    size_t line_start = 0;
    for (size_t k = 0; k < at && text[k]; k++)
        if (text[k] == '\n') {
            line++;
            line_start = k + 1;
        }
    return snprintf(out, len, "line %d col %zu: ", line, at - line_start + 1);
}

/* Set err to "line L col C: message" for offset `at`; returns code. */
cd_result pdn_fail(pdn_reader *rd, size_t at, cd_result code, const char *fmt, ...)
{
    rd->err_at = at;
    if (!rd->err || !rd->errlen)
        return code;
    int n = where_at(rd->text, at, rd->err, rd->errlen);
    if (n >= 0 && (size_t)n < rd->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Note a warning at offset at: the first one is kept in rd->warn, later ones only counted. */
void pdn_warn(pdn_reader *rd, size_t at, const char *fmt, ...)
{
    if (rd->trial)
        return;
    if (rd->warnings++ || !rd->warn || !rd->warnlen)
        return;
    int n = where_at(rd->text, at, rd->warn, rd->warnlen);
    if (n >= 0 && (size_t)n < rd->warnlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rd->warn + n, rd->warnlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

/* A printable copy of s[0..n) for messages: at most 40 bytes, others as '?'. */
const char *pdn_shown(const char *s, size_t n, char *out, size_t outlen)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 4 < outlen; i++) {
        if (k >= 40) {
            memcpy(out + k, "...", 3);
            k += 3;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[k] = '\0';
    return out;
}

/* ------------------------------------------------------------------ reader: lexing */

static int at_line_start(const pdn_reader *rd, size_t i)
{
    return i == 0 || rd->text[i - 1] == '\n';
}

/* Add the comment t[from..to) to g at its current ply (after any comment already there), its
 * runs of white space made one space. CD_ERR_OVERFLOW out of memory. */
static cd_result keep_comment(cd_game *g, const char *t, size_t from, size_t to)
{
    const char *old = cd_game_comment(g, cd_game_ply(g));
    size_t had = old ? strlen(old) : 0, n = 0;
    char *text = malloc(had + 1 + (to - from) + 1);
    if (!text)
        return CD_ERR_OVERFLOW;
    if (had)
        memcpy(text, old, had);
    n = had;
    for (size_t i = from; i < to; i++) {
        if (pdn_is_space((unsigned char)t[i])) {
            if (n > 0 && text[n - 1] != ' ')
                text[n++] = ' ';
        } else {
            if (n > 0 && n == had)
                text[n++] = ' ';
            text[n++] = t[i];
        }
    }
    while (n > 0 && text[n - 1] == ' ')
        n--;
    text[n] = '\0';
    cd_result r = n > had ? cd_game_set_comment(g, cd_game_ply(g), text) : CD_OK;
    free(text);
    return r;
}

/* Skip white space, a UTF-8 byte order mark, {comments}, ;comments and %lines; the comments
 * are kept in `keep` at its current ply when it is not NULL. */
cd_result pdn_skip_filler(pdn_reader *rd, cd_game *keep)
{
    const char *t = rd->text;
    for (;;) {
        unsigned char c = (unsigned char)t[rd->i];
        size_t from = rd->i + 1;
        if (pdn_is_space(c)) {
            rd->i++;
        } else if (c == 0xEF && (unsigned char)t[rd->i + 1] == 0xBB &&
                   (unsigned char)t[rd->i + 2] == 0xBF) {
            rd->i += 3;
        } else if (c == ';' || (c == '%' && at_line_start(rd, rd->i))) {
            while (t[rd->i] && t[rd->i] != '\n')
                rd->i++;
            if (c == ';' && keep && keep_comment(keep, t, from, rd->i) != CD_OK)
                return pdn_fail(rd, from - 1, CD_ERR_OVERFLOW, "out of memory for a comment");
        } else if (c == '{') {
            size_t open = rd->i;
            while (t[rd->i] && t[rd->i] != '}')
                rd->i++;
            if (!t[rd->i])
                return pdn_fail(rd, open, CD_ERR_MOVE, "unterminated comment: '{' without '}'");
            if (keep && keep_comment(keep, t, from, rd->i) != CD_OK)
                return pdn_fail(rd, open, CD_ERR_OVERFLOW, "out of memory for a comment");
            rd->i++;
        } else {
            return CD_OK;
        }
    }
}

/* "(!)", "(?)", "(!?)" ...: a move strength in parentheses at offset i; its length or 0. */
size_t pdn_strength_in_parens(const char *t, size_t i)
{
    size_t k = i + 1;
    while (t[k] == '!' || t[k] == '?')
        k++;
    return k > i + 1 && k <= i + 4 && t[k] == ')' ? k + 1 - i : 0;
}

/* Skip a variation starting at the '(' at rd->i, with everything nested in it. */
cd_result pdn_skip_variation(pdn_reader *rd)
{
    const char *t = rd->text;
    size_t open[CD_PDN_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        char c = t[rd->i];
        if (c == '(') {
            size_t s = pdn_strength_in_parens(t, rd->i);
            if (s) {
                rd->i += s;
                continue;
            }
            if (depth == CD_PDN_MAX_DEPTH)
                return pdn_fail(rd, rd->i, CD_ERR_OVERFLOW, "variations nested deeper than %d",
                                CD_PDN_MAX_DEPTH);
            open[depth++] = rd->i++;
        } else if (c == ')') {
            rd->i++;
            if (--depth == 0)
                return CD_OK;
        } else if (c == '{' || c == ';' || (c == '%' && at_line_start(rd, rd->i))) {
            cd_result r = pdn_skip_filler(rd, NULL);
            if (r != CD_OK)
                return r;
        } else if (c == '\0' || c == '[') {
            return pdn_fail(rd, open[depth - 1], CD_ERR_MOVE,
                            "unterminated variation: '(' without ')'");
        } else {
            rd->i++;
        }
    }
}
