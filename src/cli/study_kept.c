/*
 * study_kept.c -- the games a study keeps, DIR/VARIANT.pdn.xz (study_kept.h): read and checked.
 */
#define _POSIX_C_SOURCE 200809L
#include "study_kept.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurp.h"
#include "xz.h"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The number a Round tag gives (1 to 99999), else 0. */
static int round_of(const cd_pdn_tags *t)
{
    const char *r = cd_pdn_tag(t, "Round");
    size_t n = r ? strlen(r) : 0;
    if (!n || n > 5 || strspn(r, "0123456789") != n)
        return 0;
    return atoi(r);
}

/* Room for one more game in k; 0, or -1 out of memory. */
static int grow(kept_games *k, int *cap)
{
    if (k->n < *cap)
        return 0;
    int c = *cap ? 2 * *cap : 256;
    int *round = realloc(k->round, (size_t)c * sizeof *round);
    if (round)
        k->round = round;
    size_t *start = realloc(k->start, (size_t)c * sizeof *start);
    if (start)
        k->start = start;
    size_t *end = realloc(k->end, (size_t)c * sizeof *end);
    if (end)
        k->end = end;
    if (!round || !start || !end)
        return -1;
    *cap = c;
    return 0;
}

int kept_read(const char *path, const cd_rules *rules, kept_games *k, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    size_t xzlen, len;
    char *xz = cd_slurp(path, KEPT_MAX_FILE, &xzlen);
    if (!xz) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    const char *why;
    k->text = (char *)cd_xz_decode(xz, xzlen, &len, &why);
    free(xz);
    if (!k->text) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    cd_pdn_tags *tags = malloc(sizeof *tags);
    int cap = 0, rc = tags ? 0 : -1;
    if (!tags)
        snprintf(err, errlen, "out of memory");
    if (!rc && strlen(k->text) != len) {
        snprintf(err, errlen, "%s: a NUL byte in the games (damaged)", path);
        rc = -1;
    }
    for (size_t pos = 0; !rc;) {
        while (pos < len && is_space(k->text[pos]))
            pos++;
        if (pos == len)
            break;
        size_t start = pos;
        int game = k->n + 1;
        cd_game *g = NULL;
        char what[512];
        cd_result r = cd_pdn_read(k->text, &pos, rules, &g, tags, what, sizeof what);
        int round = round_of(tags), read = r == CD_OK && g && pos > start;
        cd_game_free(g);
        rc = -1;
        if (!read)
            snprintf(err, errlen, "%s: game %d: %s", path, game, r != CD_OK ? what : "no game");
        else if (!round)
            snprintf(err, errlen, "%s: game %d: no Round tag with its number", path, game);
        else if (k->n && round <= k->round[k->n - 1])
            snprintf(err, errlen,
                     "%s: game %d: Round %d after Round %d (the games must be in "
                     "the order of their numbers)",
                     path, game, round, k->round[k->n - 1]);
        else if (!cd_pdn_tag(tags, "Termination"))
            snprintf(err, errlen, "%s: game %d (Round %d): no Termination tag", path, game, round);
        else if (grow(k, &cap) != 0)
            snprintf(err, errlen, "out of memory");
        else
            rc = 0;
        if (rc)
            break;
        size_t end = pos;
        while (end > start && is_space(k->text[end - 1]))
            end--;
        k->round[k->n] = round;
        k->start[k->n] = start;
        k->end[k->n] = end;
        k->n++;
    }
    free(tags);
    if (rc)
        kept_free(k);
    return rc;
}

void kept_free(kept_games *k)
{
    free(k->text);
    free(k->round);
    free(k->start);
    free(k->end);
    memset(k, 0, sizeof *k);
}

int kept_find(const kept_games *k, int round)
{
    int lo = 0, hi = k->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (k->round[mid] == round)
            return mid;
        if (k->round[mid] < round)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}
