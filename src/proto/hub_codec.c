/*
 * hub_codec.c -- the Hub protocol's text without a session (hub_codec.h): line syntax, numbers,
 * lines of input, move text and pydraughts' square numbering.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "hub_codec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ line syntax */

static int is_blank(char c) { return isspace((unsigned char)c) != 0; }

static int is_id(char c)
{
    unsigned char u = (unsigned char)c;
    return u && !iscntrl(u) && !isspace(u) && u != '=' && u != '"';
}

static void skip_blanks(const char **p)
{
    while (is_blank(**p))
        (*p)++;
}

/* Copy a name at *p into *store (NUL-terminated); NULL if there is none. */
static const char *scan_name(const char **p, char **store)
{
    const char *s = *p;
    if (!is_id(*s))
        return NULL;
    char *out = *store;
    while (is_id(*s))
        *(*store)++ = *s++;
    *(*store)++ = '\0';
    *p = s;
    return out;
}

/*
 * Split a line into command and arguments. `store` must hold 2 * strlen(line) + 2 bytes; the
 * strings of *out point into it. Returns 0, or -1 with a message in err.
 */
int hub_parse_line(const char *line, hub_line *out, char *store, char *err, size_t errlen)
{
    const char *p = line;
    out->cmd = NULL;
    out->nargs = 0;
    skip_blanks(&p);
    if (!*p) {
        snprintf(err, errlen, "missing command");
        return -1;
    }
    out->cmd = scan_name(&p, &store);
    if (!out->cmd) {
        snprintf(err, errlen, "a line must start with a command name");
        return -1;
    }
    for (;;) {
        skip_blanks(&p);
        if (!*p)
            return 0;
        if (out->nargs == HUB_MAX_ARGS) {
            snprintf(err, errlen, "too many arguments (at most %d)", HUB_MAX_ARGS);
            return -1;
        }
        hub_arg *a = &out->args[out->nargs];
        a->name = scan_name(&p, &store);
        if (!a->name) {
            snprintf(err, errlen, "%s",
                     *p == '=' ? "'=' without an argument name"
                               : "quoted text without an argument name");
            return -1;
        }
        skip_blanks(&p);
        if (*p == '=') {
            p++;
            skip_blanks(&p);
            if (*p == '"') {
                p++;
                a->value = store;
                while (*p && *p != '"')
                    *store++ = *p++;
                *store++ = '\0';
                if (!*p) {
                    snprintf(err, errlen, "missing closing quote in the value of '%s'", a->name);
                    return -1;
                }
                p++;
            } else {
                a->value = scan_name(&p, &store);
                if (!a->value) {
                    snprintf(err, errlen, "missing value after '%s='", a->name);
                    return -1;
                }
            }
            a->has_value = 1;
        } else {
            a->value = "";
            a->has_value = 0;
        }
        out->nargs++;
    }
}

/* The last argument called name, or NULL. */
const hub_arg *hub_arg_get(const hub_line *l, const char *name)
{
    for (int i = l->nargs - 1; i >= 0; i--)
        if (!strcmp(l->args[i].name, name))
            return &l->args[i];
    return NULL;
}

int hub_parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > max)
        return 0;
    *out = v;
    return 1;
}

int hub_parse_u64(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return 0;
    *out = (uint64_t)v;
    return 1;
}

int hub_parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

int hub_name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* ------------------------------------------------------------------ square numbering */

/*
 * `set-param name=numbering value=variant`: the squares of moves (`moves=`, `done`, `pv`) in the
 * numbering pydraughts uses for Hub engines on 8x8 (its convert.py, _rotate_move): the variants
 * written in algebraic notation (Russian, Brazilian and their rows, Czech, Turkish) number from
 * a1, row by row from the bottom (notation 0: a1 = 1, c1 = 2, ..., b2 = 5); English and pool
 * turn the board (notation 1: square n is our 33 - n); the others keep ours. Positions (`pos=`)
 * stay in our order, as pydraughts writes them. The map is its own inverse.
 */
int hub_variant_square(const cd_rules *r, int sq)
{
    int width = cd_rules_width(r), height = cd_rules_height(r), n = cd_rules_squares(r);
    if (width != 8 || height != 8 || sq < 1 || sq > n)
        return sq;
    if (r->flags & CD_RULE_ALGEBRAIC) {
        int per = n / height, row = (sq - 1) / per;
        return (height - 1 - row) * per + (sq - 1) % per + 1;
    }
    if (!strcmp(r->name, "english") || !strcmp(r->name, "pool"))
        return n + 1 - sq;
    return sq;
}

/* Copy move text with every square number put through variant_square. */
void hub_renumber(const cd_rules *r, const char *in, char *out, size_t len)
{
    size_t k = 0;
    while (*in && k + 8 < len) {
        if (isdigit((unsigned char)*in)) {
            long v = 0;
            while (isdigit((unsigned char)*in) && v < 100000)
                v = v * 10 + (*in++ - '0');
            k += (size_t)snprintf(out + k, len - k, "%d", hub_variant_square(r, (int)v));
        } else {
            out[k++] = *in++;
        }
    }
    out[k] = '\0';
}

/* ------------------------------------------------------------------ moves */

int hub_find_legal(const cd_movelist *list, const cd_move *m, cd_move *out)
{
    for (int i = 0; i < list->count; i++)
        if (cd_move_equal(&list->moves[i], m)) {
            *out = list->moves[i];
            return 1;
        }
    return 0;
}

/*
 * A Hub capture with its captured squares in any order ("28x23x19"): match from, to and the
 * captured set against the legal moves. Returns 1 on exactly one match.
 */
static int match_hub_capture(const cd_position *pos, const char *text, cd_move *out)
{
    int sq[64], n = 0;
    const char *p = text;
    while (*p) {
        if (!isdigit((unsigned char)*p) || n == 64)
            return 0;
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000)
            v = v * 10 + (*p++ - '0');
        sq[n++] = (int)v;
        if (*p == 'x' || *p == 'X')
            p++;
        else if (*p)
            return 0;
    }
    if (n < 3)
        return 0;
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    cd_generate(pos, list);
    int found = 0;
    for (int i = 0; i < list->count; i++) {
        const cd_move *m = &list->moves[i];
        if (cd_move_from(pos, m) != sq[0] || cd_move_to(pos, m) != sq[1] || m->ncaptured != n - 2)
            continue;
        int caps[64];
        int k = cd_move_captures(pos, m, caps, 64);
        int same = k == n - 2 && k <= 64;
        for (int j = 2; same && j < n; j++) {
            int hit = 0;
            for (int c = 0; c < k; c++)
                hit |= caps[c] == sq[j];
            same = hit;
        }
        if (same) {
            *out = *m;
            found++;
        }
    }
    free(list);
    return found == 1;
}

cd_result hub_parse_move(const cd_position *pos, const char *text, cd_move *m, char *err,
                         size_t errlen)
{
    cd_result r = cd_move_parse(pos, text, m, err, errlen);
    if (r != CD_OK && match_hub_capture(pos, text, m))
        return CD_OK;
    return r;
}

/* ------------------------------------------------------------------ lines of input */

/*
 * Read one line without its '\n' (and '\r') into *buf (NUL-terminated, *len characters).
 * A line of more than HUB_MAX_LINE bytes is read to its end but not kept (*too_long), so a
 * stream without newlines cannot take all memory; *nul says a NUL byte was in the line.
 * Returns -1 at end of input with nothing read.
 */
int hub_read_line(FILE *in, char **buf, size_t *cap, size_t *len, int *nul, int *too_long)
{
    size_t n = 0;
    int c, any = 0;
    while ((c = getc(in)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0')
            *nul = 1;
        if (*too_long)
            continue;
        if (n + 2 > *cap) {
            size_t want = *cap ? *cap * 2 : 256;
            if (want > HUB_MAX_LINE + 2)
                want = HUB_MAX_LINE + 2;
            char *nb = n + 2 > want ? NULL : realloc(*buf, want);
            if (!nb) {
                *too_long = 1;
                continue;
            }
            *buf = nb;
            *cap = want;
        }
        (*buf)[n++] = (char)c;
    }
    if (!any)
        return -1;
    if (!*buf) {
        *buf = malloc(1);
        if (!*buf) {
            *too_long = 1;
            return 0;
        }
        *cap = 1;
    }
    while (n && (*buf)[n - 1] == '\r')
        n--;
    (*buf)[n] = '\0';
    *len = n;
    return 0;
}
