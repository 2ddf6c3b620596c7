/*
 * openings.c -- the opening lines of engine matches: a file of FEN positions or move lists, or
 * every line of K plies from the start (auto:K). Read by `condraughts match` (match.c) and
 * `condraughts dxp` (dxp_cmd.c); errors come back as text, each command reports them its way.
 */
#include "openings.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void cli_free_openings(cd_game **games, int n)
{
    for (int i = 0; games && i < n; i++)
        cd_game_free(games[i]);
    free(games);
}

/* Append g to the array; -1 (g freed) when out of memory. */
static int add_game(cd_game ***out, int *n, int *cap, cd_game *g)
{
    if (!g)
        return -1;
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        cd_game **grown = realloc(*out, (size_t)ncap * sizeof **out);
        if (!grown) {
            cd_game_free(g);
            return -1;
        }
        *out = grown;
        *cap = ncap;
    }
    (*out)[(*n)++] = g;
    return 0;
}

/* All lines of `plies` moves from the game's position (ongoing games only); -1 when out of
 * memory. */
static int collect_lines(cd_game *g, int plies, cd_game ***out, int *n, int *cap)
{
    if (cd_game_status(g, NULL) != CD_ONGOING)
        return 0;
    if (plies == 0) {
        cd_game *c = cd_game_new(cd_game_position(g)->rules, cd_game_position_at(g, 0));
        for (int i = 0; c && i < cd_game_ply(g); i++)
            cd_game_play(c, cd_game_move(g, i));
        return add_game(out, n, cap, c);
    }
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return -1;
    int k = cd_generate(cd_game_position(g), list), rc = 0;
    for (int i = 0; i < k && rc == 0; i++) {
        cd_game_play(g, &list->moves[i]);
        rc = collect_lines(g, plies - 1, out, n, cap);
        cd_game_undo(g);
    }
    free(list);
    return rc;
}

/* auto:K: every line of `plies` moves from the start, in a fixed shuffled order. */
static int auto_openings(int plies, const cd_rules *r, cd_game ***out, char *err, size_t errlen)
{
    cd_game **games = NULL;
    int n = 0, cap = 0;
    cd_game *root = cd_game_new(r, NULL);
    int rc = root ? collect_lines(root, plies, &games, &n, &cap) : -1;
    cd_game_free(root);
    if (rc < 0) {
        cli_free_openings(games, n);
        set_err(err, errlen, "out of memory");
        return -1;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((seed >> 33) % (uint64_t)(i + 1));
        cd_game *t = games[i];
        games[i] = games[j];
        games[j] = t;
    }
    if (!n) {
        free(games);
        set_err(err, errlen, "no openings of %d plies", plies);
        return -1;
    }
    *out = games;
    return n;
}

int cli_load_openings(const char *file, const cd_rules *r, cd_game ***out, char *err, size_t errlen)
{
    cd_game **games = NULL;
    int n = 0, cap = 0;
    if (!file) {
        if (add_game(&games, &n, &cap, cd_game_new(r, NULL)) < 0) {
            set_err(err, errlen, "out of memory");
            return -1;
        }
        *out = games;
        return n;
    }
    if (!strncmp(file, "auto:", 5)) {
        int plies = atoi(file + 5);
        if (plies < 1 || plies > 6) {
            set_err(err, errlen, "openings auto:N needs N from 1 to 6");
            return -1;
        }
        return auto_openings(plies, r, out, err, errlen);
    }
    FILE *f = fopen(file, "r");
    if (!f) {
        set_err(err, errlen, "cannot open openings file %s", file);
        return -1;
    }
    char line[8192];
    int lineno = 0, failed = 0;
    while (!failed && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n#")] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            continue;
        cd_game *g = NULL;
        char why[1024];
        if (strchr(s, ':')) {
            cd_position p;
            if (cd_position_from_fen(&p, r, s, why, sizeof why) != CD_OK) {
                set_err(err, errlen, "%s:%d: %s", file, lineno, why);
                failed = 1;
                break;
            }
            g = cd_game_new(r, &p);
        } else {
            g = cd_game_new(r, NULL);
            for (char *tok = strtok(s, " \t"); g && tok; tok = strtok(NULL, " \t")) {
                if (strchr(tok, '.') && !strchr(tok, '-') && !strchr(tok, 'x'))
                    continue; /* move number */
                if (cd_game_play_text(g, tok, why, sizeof why) != CD_OK) {
                    set_err(err, errlen, "%s:%d: %s", file, lineno, why);
                    cd_game_free(g);
                    g = NULL;
                    failed = 1;
                    break;
                }
            }
            if (failed)
                break;
        }
        if (add_game(&games, &n, &cap, g) < 0) {
            set_err(err, errlen, "out of memory");
            failed = 1;
        }
    }
    fclose(f);
    if (!failed && !n) {
        set_err(err, errlen, "%s: no openings", file);
        failed = 1;
    }
    if (failed) {
        cli_free_openings(games, n);
        return -1;
    }
    *out = games;
    return n;
}
