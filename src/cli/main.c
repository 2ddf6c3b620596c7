/*
 * main.c -- the `condraughts` command line: the list of commands (the order of `condraughts
 * help` and of the README's command reference), `help`, `variants`, `version`, and serve's
 * options (the server itself is the web library's cd_serve_run, src/web/serve_main.c).
 *
 * Each command describes itself in a cli_command table (opts.h): its options, their values and
 * help; `condraughts CMD --help` and `condraughts help` print from those tables.
 * Errors: exit status 2 and one line on stderr saying what and where.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_cmds.h"
#include "book_cmd.h"
#include "cb_host.h"
#include "cliutil.h"
#include "condraughts.h"
#include "dxp_cmd.h"
#include "egtb_cmd.h"
#include "match.h"
#include "opts.h"
#include "pdncheck.h"
#include "server.h"
#include "study.h"
#include "towers_cmd.h"
#include "train_cmd.h"

static int cmd_variants(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static const cli_command variants_cmd, version_cmd;

#ifndef CD_COMMIT
#define CD_COMMIT "unknown" /* the Makefile gives git describe's */
#endif
#ifndef CD_BUILD_FLAGS
#define CD_BUILD_FLAGS "unknown"
#endif

static int cmd_version(int argc, char **argv)
{
    cli_parse(&version_cmd, argc, argv, NULL, NULL, NULL, 0);
    printf("condraughts %s\ncommit %s\nbuilt with %s\n", CD_VERSION, CD_COMMIT, CD_BUILD_FLAGS);
    /* the weights files the commands that search would read, each with its own checksum (the
     * FNV-1a of its last four bytes, docs/formats.md) */
    char dir[4096];
    if (!cli_weights_dir(dir, sizeof dir)) {
        printf("weights built in (no weights folder found)\n");
        return 0;
    }
    printf("weights %s\n", dir);
    for (int i = 0; cd_eval_family(i); i++) {
        char path[4400];
        unsigned char b[4];
        snprintf(path, sizeof path, "%s/%s.cdw", dir, cd_eval_family(i));
        FILE *f = fopen(path, "rb");
        int ok = f && fseek(f, -4, SEEK_END) == 0 && fread(b, 1, 4, f) == 4;
        if (ok)
            printf("  %-16s checksum %02x%02x%02x%02x\n", cd_eval_family(i), b[3], b[2], b[1], b[0]);
        else
            printf("  %-16s missing\n", cd_eval_family(i));
        if (f)
            fclose(f);
    }
    return 0;
}

enum {
    S_PORT,
    S_HOST,
    S_DATA,
    S_DB,
    S_WEB,
    S_EGTB,
    S_BOOK,
    S_PER_IP,
    S_TRUST_PROXY,
    S_MAX_GAMES,
    S_MAX_CONN
};

static const cli_opt serve_opts[] = {
    {CLI_INT_OPT(S_PORT, "port", "8080", 0, 65535, "the TCP port (0: any free port)")},
    {CLI_TEXT_OPT(S_HOST, "host", "127.0.0.1", "the address to listen on")},
    {CLI_TEXT_OPT(S_DATA, "data", "DIR", "where games are kept (games)")},
    {CLI_TEXT_OPT(S_DB, "db", "DB",
                  "games between people: an SQLite file (DIR.sqlite beside --data), or "
                  "PostgreSQL (postgresql://... or a conninfo)")},
    {CLI_TEXT_OPT(S_WEB, "web", "DIR", "the page's files (web)")},
    {CLI_TEXT_OPT(S_EGTB, "egtb", "DIR", "endgame tables folder; default ./egtb when it exists")},
    {CLI_TEXT_OPT(S_BOOK, "book", "FILE",
                  "opening book of the engine's moves, for the variant the file names; default "
                  "the shipped books/VARIANT.cdb of each variant, none: no book")},
    {CLI_INT_OPT(S_PER_IP, "per-ip", "64", 0, 1024,
                 "connections at once from one address (0: no limit; without --trust-proxy, "
                 "no limit by address at all)")},
    {CLI_TEXT_OPT(S_TRUST_PROXY, "trust-proxy", "ADDR",
                  "the IPv4 address of a proxy in front (up to 4 times): its X-Real-IP header "
                  "names the client, for the limits by address")},
    {CLI_INT_OPT(S_MAX_GAMES, "max-games", "5000", 1, 1000000,
                 "live games between people at once (waiting or in progress)")},
    {CLI_INT_OPT(S_MAX_CONN, "max-connections", "0", 0, 1000000,
                 "connections at once (0: as many as ulimit -Hn allows, at most 32768)")},
    {0}};

typedef struct serve_cli {
    cd_serve_config c;
    const char *book; /* --book, or NULL: the shipped books */
} serve_cli;

static const cli_command serve_cmd;
static void serve_option(void *user, const cli_opt *opt, const cli_value *v)
{
    serve_cli *sc = user;
    cd_serve_config *c = &sc->c;
    switch (opt->id) {
    case S_PORT: c->port = (long)v->n; break;
    case S_HOST: c->host = v->text; break;
    case S_DATA: c->data = v->text; break;
    case S_DB: c->db = v->text; break;
    case S_WEB: c->web = v->text; break;
    case S_EGTB:
        cli_egtb_check(&serve_cmd, v->text);
        c->egtb = v->text;
        break;
    case S_BOOK: sc->book = v->text; break;
    case S_PER_IP: c->per_ip = (long)v->n; break;
    case S_TRUST_PROXY:
        if (c->nproxies == CD_SERVE_PROXIES)
            cli_fail(&serve_cmd, "--trust-proxy: at most %d proxies", CD_SERVE_PROXIES);
        c->proxies[c->nproxies++] = v->text;
        break;
    case S_MAX_GAMES: c->max_games = (long)v->n; break;
    case S_MAX_CONN: c->max_conn = (long)v->n; break;
    }
}

static int run_serve(int argc, char **argv);
static const cli_command serve_cmd = {
    .name = "serve",
    .about = "The browser board and its JSON API (docs/api.md) over HTTP.",
    .opts = serve_opts,
    .notes =
        "The engine's moves in games against it (/engine) come from the opening book at once,\n"
        "without a search, while the game is in it; /hint, /analyse and /review always\n"
        "search (docs/book.md). A book file that cannot be read or is damaged stops the\n"
        "server at start, naming the file.\n",
    .run = run_serve,
    .flags = CLI_SEARCHES,
};
/* serve: the options read here, the server run by the web library (src/web/serve_main.c) */
static int run_serve(int argc, char **argv)
{
    serve_cli sc = {.c = {.port = 8080, .per_ip = CD_SERVE_PER_IP}};
    cli_parse(&serve_cmd, argc, argv, serve_option, &sc, NULL, 0);
#ifdef CD_NO_WEB
    fprintf(stderr, "condraughts serve: not built in (this program was built with NO_WEB=1)\n");
    return 1;
#else
    cd_serve_config c = sc.c;
    static char web[4096]; /* the page's files: ./web, or the build tree's, or installed ones */
    if (!c.web && cli_data_path("web", "index.html", web, sizeof web))
        c.web = web;
    c.egtb = cli_egtb_default(c.egtb);
    c.eval = cli_eval();
    cd_book **books;
    int nbooks;
    char err[4600];
    if (!cli_books_open(sc.book, &books, &nbooks, err, sizeof err))
        cli_fail(&serve_cmd, "%s", err);
    c.books = (const cd_book *const *)books;
    c.nbooks = nbooks;
    int rc = cd_serve_run(&c);
    for (int i = 0; i < nbooks; i++)
        cd_book_free(books[i]);
    free(books);
    return rc;
#endif
}

static const cli_command variants_cmd = {
    .name = "variants",
    .about = "List the variants: name, board, title (the names --variant takes).",
    .run = cmd_variants,
};
static const cli_command version_cmd = {
    .name = "version",
    .about = "Print the version, the commit and flags it was built from, and the weights files "
             "it would read with their checksums (also: condraughts --version).",
    .run = cmd_version,
};

static int cmd_variants(int argc, char **argv)
{
    cli_parse(&variants_cmd, argc, argv, NULL, NULL, NULL, 0);
    for (int i = 0; cd_rules_at(i); i++) {
        const cd_rules *r = cd_rules_at(i);
        printf("%-26s %dx%d  %s\n", r->name, cd_rules_width(r), cd_rules_height(r), r->title);
    }
    return 0;
}

static int cmd_help(int argc, char **argv);
static const cli_opt help_opts[] = {
    {CLI_FLAG_OPT(0, "man", "the manual page of every command (roff: man -l -)")}, {0}};
static const cli_command help_cmd = {
    .name = "help",
    .operands = "[COMMAND]",
    .about = "The synopsis of every command, or one command's help, or the manual page.",
    .opts = help_opts,
    .run = cmd_help,
};

/* Every command, in the order of the help and the README's command reference. */
static const cli_command *const commands[] = {&cd_perft_command,
                                              &cd_moves_command,
                                              &cd_show_command,
                                              &cd_analyse_command,
                                              &cd_play_command,
                                              &cd_bench_command,
                                              &cd_match_command,
                                              &cd_cbhost_command,
                                              &cd_hub_command,
                                              &cd_dxp_command,
                                              &serve_cmd,
                                              &cd_pdn_command,
                                              &cd_study_command,
                                              &cd_egtb_command,
                                              &cd_book_command,
                                              &cd_towers_command,
                                              &cd_train_command,
                                              &variants_cmd,
                                              &version_cmd,
                                              &help_cmd,
                                              NULL};

static const cli_command *find_command(const char *name)
{
    if (!strcmp(name, "analyze"))
        name = "analyse";
    for (int i = 0; commands[i]; i++)
        if (!strcmp(commands[i]->name, name))
            return commands[i];
    return NULL;
}

static void usage(FILE *f)
{
    fputs("usage: condraughts <command> [options]\n\n", f);
    for (int i = 0; commands[i]; i++)
        cli_synopsis(commands[i], f);
    fputs(
        "\n`condraughts <command> --help` tells what a command does and what each option means.\n",
        f);
}

static void help_option(void *user, const cli_opt *opt, const cli_value *v)
{
    (void)opt;
    (void)v;
    *(int *)user = 1;
}

static int cmd_help(int argc, char **argv)
{
    const char *args[1];
    int man = 0;
    int n = cli_parse(&help_cmd, argc, argv, help_option, &man, args, 1);
    if (man) {
        cli_man(commands, CD_VERSION, stdout);
        return 0;
    }
    if (!n) {
        usage(stdout);
        return 0;
    }
    const cli_command *c = find_command(args[0]);
    if (!c)
        cli_fail(&help_cmd, "unknown command '%s'", args[0]);
    cli_help(c, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version"))
        return cli_run(&version_cmd, argc - 2, argv + 2);
    const cli_command *c = find_command(argv[1]);
    if (!c)
        cli_die("condraughts: ", "unknown command '%s' (try: condraughts help)", argv[1]);
    return cli_run(c, argc - 2, argv + 2);
}
