/*
 * pdncheck.c -- `condraughts pdn check`: read a whole PDN file with cd_pdn_read, game after
 * game, as the library replays them (every move of the main line must be legal under the
 * game's variant, tags well-formed, FEN valid, comments and variations closed).
 *
 * The file is read whole (at most PDN_MAX_FILE bytes); a NUL byte is an error at its place
 * (the library reads C strings). A game that cannot be read is reported and skipped (the
 * library resumes at the next game header), so one run lists every refused game. Errors and
 * warnings come out as FILE:LINE:COL: message, the form compilers use, so editors can jump
 * to them.
 */
#define _POSIX_C_SOURCE 200809L
#include "pdncheck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"
#include "opts.h"
#include "pdn_annotate.h"
#include "slurp.h"

#define PDN_MAX_FILE (512u << 20)

/* Line and column (1-based) of offset `at`. */
static void place(const char *text, size_t at, int *line, size_t *col)
{
    size_t start = 0;
    *line = 1;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    *col = at - start + 1;
}

void pdn_report(const char *file, const char *msg, const char *kind)
{
    int line = 0, col = 0, n = 0;
    if (sscanf(msg, "line %d col %d: %n", &line, &col, &n) == 2 && n > 0)
        fprintf(stderr, "%s:%d:%d: %s%s\n", file, line, col, kind, msg + n);
    else
        fprintf(stderr, "%s: %s%s\n", file, kind, msg);
}

char *pdn_read_file(const char *file, size_t *len)
{
    char *text = cd_slurp(file, PDN_MAX_FILE, len);
    if (!text) {
        fprintf(stderr, "%s: cannot read: %s\n", file, strerror(errno));
        return NULL;
    }
    size_t nul = strlen(text);
    if (nul < *len) {
        int line;
        size_t col;
        place(text, nul, &line, &col);
        fprintf(stderr, "%s:%d:%zu: NUL byte in the file\n", file, line, col);
        free(text);
        return NULL;
    }
    return text;
}

int pdn_next_game(const char *file, const char *text, size_t len, size_t *pos,
                  const cd_rules *rules, cd_pdn_tags *tags, cd_game **g, size_t *start,
                  int *refused)
{
    while (*pos < len) {
        char err[1024] = "";
        size_t at = *pos;
        *g = NULL;
        cd_result r = cd_pdn_read(text, pos, rules, g, tags, err, sizeof err);
        if (r != CD_OK) {
            pdn_report(file, err[0] ? err : cd_result_str(r), "");
            (*refused)++;
            if (*pos <= at)
                return 0;
            continue;
        }
        if (!*g)
            return 0;
        if (err[0])
            pdn_report(file, err, "warning: ");
        if (start) {
            while (at < len && strchr(" \t\r\n", text[at]))
                at++;
            *start = at;
        }
        return 1;
    }
    return 0;
}

enum { O_VARIANT, O_VERBOSE };

static const cli_opt check_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V",
                  "for games without a GameType or Variant tag (default international)"),
     .alias = 'v'},
    {CLI_FLAG_OPT(O_VERBOSE, "verbose", "a line per game")},
    {0}};

static int cmd_pdn_check(int argc, char **argv);

static const cli_command check_cmd = {
    .name = "pdn check",
    .operands = "FILE",
    .about = "Replay every game of a PDN file (- for stdin) under its variant; `ok N games`.",
    .opts = check_opts,
    .notes = "A game that cannot be read is reported as FILE:LINE:COL: message on stderr and\n"
             "skipped; the run then ends with `N games read, M refused` and exit status 2.\n"
             "What is read from other programs' files: docs/pdn.md.\n",
    .run = cmd_pdn_check,
};
static const cli_command *const pdn_subs[] = {&check_cmd, &cd_pdn_annotate_command, NULL};
const cli_command cd_pdn_command = {
    .name = "pdn",
    .about = "PDN files.",
    .subs = pdn_subs,
};

typedef struct check_options {
    const cd_rules *rules;
    int verbose;
} check_options;

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    check_options *o = user;
    if (opt->id == O_VARIANT)
        o->rules = cli_variant(&check_cmd, v->text);
    else
        o->verbose = 1;
}

static int cmd_pdn_check(int argc, char **argv)
{
    check_options o = {NULL, 0};
    const char *file = NULL;
    if (cli_parse(&check_cmd, argc, argv, set_option, &o, &file, 1) != 1)
        cli_fail(&check_cmd, "no file (try: condraughts pdn check --help)");
    const cd_rules *rules = o.rules;
    int verbose = o.verbose;
    size_t len = 0;
    char *text = pdn_read_file(file, &len);
    if (!text)
        return 2;
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags) {
        fprintf(stderr, "%s: out of memory\n", file);
        free(text);
        return 2;
    }
    size_t pos = 0, at;
    int games = 0, refused = 0;
    cd_game *g;
    while (pdn_next_game(file, text, len, &pos, rules, tags, &g, &at, &refused)) {
        games++;
        if (verbose) {
            int line;
            size_t col;
            place(text, at, &line, &col);
            cd_reason why;
            const cd_position *start = cd_game_position_at(g, 0);
            cd_status st = cd_game_status(g, &why);
            printf("game %d (line %d): %s, %d plies, %s%s%s%s\n", games, line, start->rules->name,
                   cd_game_ply(g), cd_status_pdn(start->rules, st), why ? " (" : "",
                   why ? cd_reason_str(why) : "", why ? ")" : "");
        }
        cd_game_free(g);
    }
    if (refused == 0)
        printf("ok %d games\n", games);
    else
        printf("%d games read, %d refused\n", games, refused);
    free(tags);
    free(text);
    return refused ? 2 : 0;
}
