/*
 * book_cmd.c -- `condraughts book build|probe`: an opening book made by the program's own
 * searches (the book itself, its file and its key: src/core/book.c; docs/book.md), and the book
 * files the players read (cli_book_open).
 *
 * build: for each opening of --openings (a move list or a FEN a line, openings.h), every position
 * on the way to it and then, from its last position, the tree in which one side plays the book's
 * move and the other every legal move, --plies plies deep, once with White as the side of the
 * book and once with Black. Each position where the book's side moves is searched once, alone
 * (a game of that position, no history), by one thread with a cleared table of --hash MiB, to
 * --nodes nodes; its best move goes into the book with the search's score and depth. A search
 * so made depends on the position, the program and its weights only, so the same command writes
 * the same bytes (tests/book.sh checks it).
 */
#include "book_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliutil.h"
#include "openings.h"
#include "opts.h"
#include "slurp.h"

/* The largest book file read: 2^24 entries of 20 bytes and the header. */
#define BOOK_FILE_MAX ((size_t)20 << 24)

int cli_book_open(const char *given, const cd_rules *rules, cd_book **out, char *err,
                  size_t errlen)
{
    *out = NULL;
    if (given && !strcmp(given, "none"))
        return 1;
    char path[4400];
    if (given) {
        snprintf(path, sizeof path, "%s", given);
    } else {
        char dir[4096], file[128];
        snprintf(file, sizeof file, "%s%s", rules->name, CLI_BOOK_EXT);
        if (!cli_data_path(CLI_BOOK_DIR, file, dir, sizeof dir))
            return 1;
        snprintf(path, sizeof path, "%s/%s", dir, file);
    }
    size_t len;
    char *img = cd_slurp(path, BOOK_FILE_MAX, &len);
    if (!img) {
        snprintf(err, errlen, "book file %s cannot be read: %s", path,
                 errno == EFBIG ? "larger than any book" : strerror(errno));
        return 0;
    }
    char why[512];
    cd_book *b = cd_book_read((const unsigned char *)img, len, why, sizeof why);
    free(img);
    if (!b) {
        snprintf(err, errlen, "book file %s: %s", path, why);
        return 0;
    }
    *out = b;
    return 1;
}

int cli_books_open(const char *given, cd_book ***out, int *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (given && !strcmp(given, "none"))
        return 1;
    int rows = 0;
    while (cd_rules_at(rows))
        rows++;
    cd_book **b = calloc((size_t)rows + 1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory for the opening books");
        return 0;
    }
    int k = 0, ok = 1;
    if (given && (ok = cli_book_open(given, NULL, &b[0], err, errlen)))
        k = 1;
    for (int i = 0; ok && i < rows; i++) {
        const cd_rules *r = cd_rules_at(i);
        if (given && !strcmp(cd_book_rules(b[0])->name, r->name))
            continue; /* the variant of the book given */
        if ((ok = cli_book_open(NULL, r, &b[k], err, errlen)) && b[k])
            k++;
    }
    if (!ok) {
        for (int i = 0; i < k; i++)
            cd_book_free(b[i]);
        free(b);
        return 0;
    }
    if (k == 0) {
        free(b);
        b = NULL;
    }
    *out = b;
    *n = k;
    return 1;
}

/* ---------------------------------------------------------------- options */

typedef struct book_options {
    const cli_command *cmd;
    const cd_rules *rules;
    const char *openings, *out, *fen, *book;
    int plies;
    long long nodes, hash;
} book_options;

enum { O_VARIANT, O_OPENINGS, O_OUT, O_PLIES, O_NODES, O_HASH, O_FEN, O_BOOK };

#define OPT_VARIANT                                                                                \
    {                                                                                              \
        CLI_TEXT_OPT(O_VARIANT, "variant", "V", "the variant"), .alias = 'v', .required = 1        \
    }

static const cli_opt build_opts[] = {
    OPT_VARIANT,
    {CLI_TEXT_OPT(O_OPENINGS, "openings", "FILE",
                  "the openings, a move list or a FEN a line (as match reads them)"),
     .required = 1},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the book file to write"), .required = 1},
    {CLI_INT_OPT(O_PLIES, "plies", "N", 0, 12,
                 "plies beyond each opening: the book's side its move, the other every move "
                 "(default 4)")},
    {CLI_INT_OPT(O_NODES, "nodes", "N", 1, 1e12, "nodes of each search (default 200000)")},
    {CLI_INT_OPT(O_HASH, "hash", "MB", 1, 100000, "hash table of the searches (default 16)")},
    {0}};
static const cli_opt probe_opts[] = {
    OPT_VARIANT,
    {CLI_TEXT_OPT(O_FEN, "fen", "FEN", "the position (default the start)")},
    {CLI_TEXT_OPT(O_BOOK, "book", "FILE", "the book (default the shipped books/VARIANT.cdb)")},
    {0}};

static int run_build(int argc, char **argv);
static int run_probe(int argc, char **argv);

static const cli_command build_cmd = {
    .name = "book build",
    .about = "Make an opening book by the program's own fixed-node searches of the openings' "
             "lines.",
    .opts = build_opts,
    .notes = "One thread, a cleared table and a fixed number of nodes for every position: the "
             "same command\nwrites the same bytes (docs/book.md).\n",
    .run = run_build,
    .flags = CLI_SEARCHES,
};
static const cli_command probe_cmd = {
    .name = "book probe",
    .about = "What the book says for a position: its moves with their scores, or that it is "
             "not in it.",
    .opts = probe_opts,
    .notes = "Exit status 0 when the position is in the book, 1 when not, 2 on an error.\n",
    .run = run_probe,
};
static const cli_command *const book_subs[] = {&build_cmd, &probe_cmd, NULL};
const cli_command cd_book_command = {
    .name = "book",
    .about = "Opening books: build one by the program's own analysis, probe one.",
    .subs = book_subs,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    book_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = cli_variant(o->cmd, v->text); break;
    case O_OPENINGS: o->openings = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_PLIES: o->plies = (int)v->n; break;
    case O_NODES: o->nodes = v->n; break;
    case O_HASH: o->hash = v->n; break;
    case O_FEN: o->fen = v->text; break;
    case O_BOOK: o->book = v->text; break;
    }
}

static void parse(const cli_command *cmd, int argc, char **argv, book_options *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->plies = 4;
    o->nodes = 200000;
    o->hash = 16;
    cli_parse(cmd, argc, argv, set_option, o, NULL, 0);
    if (!o->rules)
        cli_fail(cmd, "--variant is required");
}

/* ---------------------------------------------------------------- build */

typedef struct builder {
    const book_options *o;
    cd_book *book;
    cd_engine *engine;
    size_t searched;
    uint64_t nodes;
    double t0;
} builder;

/* The book's move of pos into *m: the book's when it has one, else the search's, added to the
 * book. 0 when the position has no move. */
static int book_move(builder *bd, const cd_position *pos, cd_move *m)
{
    cd_book_move bm;
    if (cd_book_probe(bd->book, pos, &bm, 1)) {
        *m = bm.move;
        return 1;
    }
    if (cd_count_moves(pos) == 0)
        return 0;
    cd_game *g = cd_game_new(pos->rules, pos);
    if (!g)
        cli_fail(bd->o->cmd, "out of memory");
    cd_engine_clear(bd->engine);
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = (uint64_t)bd->o->nodes;
    cd_search_result res;
    cd_result r = cd_search(bd->engine, g, &lim, NULL, NULL, &res);
    cd_game_free(g);
    if (r != CD_OK || !res.has_move)
        return 0;
    r = cd_book_add(bd->book, pos, &res.best, res.score, res.depth);
    if (r != CD_OK)
        cli_fail(bd->o->cmd, "cannot add to the book: %s", cd_result_str(r));
    *m = res.best;
    bd->nodes += res.nodes;
    if (++bd->searched % 1000 == 0)
        fprintf(stderr, "book build: %zu positions searched, %.0f s\n", bd->searched,
                cli_now() - bd->t0);
    return 1;
}

/* The tree below pos, `plies` deep, in which `side` plays the book's move and the other side
 * every legal move; a position of `side`'s at the end still gets its move. */
static void expand(builder *bd, const cd_position *pos, int plies, int side)
{
    cd_position next;
    if (pos->side == side) {
        cd_move m;
        if (!book_move(bd, pos, &m) || plies == 0)
            return;
        cd_play(pos, &m, &next);
        expand(bd, &next, plies - 1, side);
        return;
    }
    if (plies == 0)
        return;
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        cli_fail(bd->o->cmd, "out of memory");
    int n = cd_generate(pos, list);
    for (int i = 0; i < n; i++) {
        cd_play(pos, &list->moves[i], &next);
        expand(bd, &next, plies - 1, side);
    }
    free(list);
}

static int cmd_build(const book_options *o)
{
    if (!o->openings)
        cli_fail(o->cmd, "--openings FILE is required");
    if (!o->out)
        cli_fail(o->cmd, "--out FILE is required");
    cd_game **games;
    char err[1024];
    int k = cli_load_openings(o->openings, o->rules, &games, err, sizeof err);
    if (k < 0)
        cli_fail(o->cmd, "%s", err);
    builder bd = {.o = o, .t0 = cli_now()};
    bd.book = cd_book_new(o->rules);
    bd.engine = cd_engine_new((size_t)o->hash);
    if (!bd.book || !bd.engine)
        cli_fail(o->cmd, "out of memory");
    cd_engine_set_eval(bd.engine, cli_eval());
    for (int i = 0; i < k; i++) {
        int plies = cd_game_ply(games[i]);
        cd_move m;
        for (int p = 0; p < plies; p++)
            book_move(&bd, cd_game_position_at(games[i], p), &m);
        const cd_position *last = cd_game_position(games[i]);
        expand(&bd, last, o->plies, CD_WHITE);
        expand(&bd, last, o->plies, CD_BLACK);
    }
    cli_free_openings(games, k);
    cd_engine_free(bd.engine);
    unsigned char *img;
    size_t len = cd_book_write(bd.book, &img);
    if (!len)
        cli_fail(o->cmd, "out of memory");
    FILE *f = fopen(o->out, "wb");
    int ok = f && fwrite(img, 1, len, f) == len;
    if (f && fclose(f))
        ok = 0;
    free(img);
    if (!ok)
        cli_fail(o->cmd, "cannot write %s: %s", o->out, strerror(errno));
    printf("book %s: %d openings, %d plies beyond, %lld nodes a search: %zu positions, %zu bytes "
           "-> %s (%llu nodes, %.0f s)\n",
           o->rules->name, k, o->plies, o->nodes, cd_book_entries(bd.book), len, o->out,
           (unsigned long long)bd.nodes, cli_now() - bd.t0);
    cd_book_free(bd.book);
    return 0;
}

/* ---------------------------------------------------------------- probe */

static int cmd_probe(const book_options *o)
{
    cd_position pos;
    char err[4600];
    if (!o->fen)
        cd_position_start(&pos, o->rules);
    else if (cd_position_from_fen(&pos, o->rules, o->fen, err, sizeof err) != CD_OK)
        cli_fail(o->cmd, "--fen: %s", err);
    cd_book *b;
    if (!cli_book_open(o->book, o->rules, &b, err, sizeof err))
        cli_fail(o->cmd, "%s", err);
    if (!b)
        cli_fail(o->cmd, "no book for %s (no %s/%s%s; give --book FILE)", o->rules->name,
                 CLI_BOOK_DIR, o->rules->name, CLI_BOOK_EXT);
    cd_book_move bm[256];
    int n = cd_book_probe(b, &pos, bm, 256);
    if (!n)
        printf("not in the book\n");
    for (int i = 0; i < n; i++) {
        char mv[256];
        cd_move_to_text(&pos, &bm[i].move, 0, mv, sizeof mv);
        printf("%s score %+.2f depth %d rank %d\n", mv, bm[i].score / 100.0, bm[i].depth,
               bm[i].rank);
    }
    cd_book_free(b);
    return n ? 0 : 1;
}

static int run_build(int argc, char **argv)
{
    book_options o;
    parse(&build_cmd, argc, argv, &o);
    return cmd_build(&o);
}

static int run_probe(int argc, char **argv)
{
    book_options o;
    parse(&probe_cmd, argc, argv, &o);
    return cmd_probe(&o);
}
