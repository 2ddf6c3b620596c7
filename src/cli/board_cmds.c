/*
 * board_cmds.c -- the commands on a position and the engine: perft, moves, show, analyse, play,
 * bench and hub. Their options (one table each, with shared rows) fill one `options` value; a
 * position is the FEN (or the start) and then the --after moves.
 */
#define _POSIX_C_SOURCE 200809L
#include "board_cmds.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliutil.h"
#include "condraughts.h"
#include "book_cmd.h"
#include "hub.h"

#define BENCH_DEPTH 11

/* The --switch names, in the order of switch_flags. */
#define SWITCHES                                                                                   \
    "obstruct-by-men|origin-occupied|sacrifice-by-kings-only|no-pass-to-sacrifice|"                \
    "keep-duplicates|hoogland-kings-only|hoogland-first-jump"
static const unsigned switch_flags[] = {
    CD_CON_OBSTRUCT_BY_MEN,  CD_CON_ORIGIN_OCCUPIED, CD_CON_SAC_KINGS_ONLY, CD_CON_NO_PASS_TO_SAC,
    CD_RULE_KEEP_DUPLICATES, CD_HOOG_KINGS_ONLY,     CD_HOOG_FIRST_JUMP,
};

#define STR_(x) #x
#define STR(x)  STR_(x) /* a number macro as a string literal */

/* Options shared by the commands of this file. */
typedef struct {
    cd_rules rules;
    const char *fen;
    const char *after; /* --after: moves played from the position first */
    unsigned add;      /* rule flags from --keep and --switch */
    int divide;
    int list_options; /* analyse --options */
    int depth, multipv, level, side;
    double time;
    size_t hash;
    int threads;      /* --threads: search threads (analyse, play) */
    int contempt;     /* --contempt: the engine's contempt in play (CD_PLAY_CONTEMPT) */
    const char *egtb; /* endgame tables folder (--egtb) */
    const char *book; /* --book: the opening book of play (NULL: the shipped one) */
    const cli_command *cmd;
    const char *args[1];
    int nargs;
} options;

enum {
    O_VARIANT,
    O_FEN,
    O_AFTER,
    O_KEEP,
    O_SWITCH,
    O_DIVIDE,
    O_DEPTH,
    O_TIME,
    O_MULTIPV,
    O_HASH,
    O_EGTB,
    O_THREADS,
    O_LEVEL,
    O_SIDE,
    O_CONTEMPT,
    O_OPTIONS,
    O_BOOK,
};

/* The rows the commands share. */
#define OPT_VARIANT                                                                                \
    {                                                                                              \
        CLI_TEXT_OPT(O_VARIANT, "variant", "V",                                                    \
                     "the variant (condraughts variants); default international"),                 \
            .alias = 'v'                                                                           \
    }
#define OPT_FEN                                                                                    \
    {                                                                                              \
        CLI_TEXT_OPT(O_FEN, "fen", "FEN", "the position (PDN FEN); default the start")             \
    }
#define OPT_AFTER                                                                                  \
    {                                                                                              \
        CLI_TEXT_OPT(O_AFTER, "after", "MOVES",                                                    \
                     "then play these moves (comma or space separated)")                           \
    }
#define OPT_KEEP                                                                                   \
    {                                                                                              \
        CLI_FLAG_OPT(O_KEEP, "keep", "keep duplicate captures (same from, to and captured set)")   \
    }
#define OPT_SWITCH                                                                                 \
    {                                                                                              \
        CLI_CHOICE_OPT(O_SWITCH, "switch", "S",                                                    \
                       "an alternative reading of a rule (repeatable; see below)"),                \
            .choices = SWITCHES                                                                    \
    }
#define OPT_EGTB                                                                                   \
    {                                                                                              \
        CLI_TEXT_OPT(O_EGTB, "egtb", "DIR",                                                        \
                     "endgame tables folder; default ./egtb when it exists")                       \
    }
#define OPT_BOOK                                                                                   \
    {                                                                                              \
        CLI_TEXT_OPT(O_BOOK, "book", "FILE",                                                       \
                     "opening book; default the shipped books/VARIANT.cdb, none: no book")         \
    }
#define OPT_THREADS                                                                                \
    {                                                                                              \
        CLI_INT_OPT(O_THREADS, "threads", "N", 1, 64, "search threads sharing the hash table")     \
    }
#define OPT_HASH                                                                                   \
    {                                                                                              \
        CLI_INT_OPT(O_HASH, "hash", "MB", 1, 100000, "hash table size in MiB")                     \
    }
#define OPT_TIME                                                                                   \
    {                                                                                              \
        CLI_REAL_OPT(O_TIME, "time", "S", 0.001, 1e6, "seconds a move")                            \
    }

#define SWITCH_NOTE                                                                                \
    "--switch: Rule C (../shared/rules/constitutional.md section 3) read as obstruct-by-men,\n"    \
    "origin-occupied, sacrifice-by-kings-only or no-pass-to-sacrifice; Hoogland\n"                 \
    "(docs/variants.md) as hoogland-kings-only or hoogland-first-jump; keep-duplicates as "        \
    "--keep.\n"

static void set_option(void *user, const cli_opt *opt, const cli_value *v);

static int cmd_perft(int argc, char **argv);
static int cmd_moves(int argc, char **argv);
static int cmd_show(int argc, char **argv);
static int cmd_analyse(int argc, char **argv);
static int cmd_play(int argc, char **argv);
static int cmd_bench(int argc, char **argv);
static int cmd_hub(int argc, char **argv);

static const cli_opt perft_opts[] = {
    OPT_VARIANT, OPT_FEN,    OPT_AFTER,
    OPT_KEEP,    OPT_SWITCH, {CLI_FLAG_OPT(O_DIVIDE, "divide", "each root move with its count")},
    {0}};
const cli_command cd_perft_command = {
    .name = "perft",
    .operands = "DEPTH",
    .about = "Count the move tree's leaves at each depth up to DEPTH (0 to 64), and the speed.",
    .opts = perft_opts,
    .notes =
        "Prints `perft D N` for each depth, then `total N nodes S s R nodes/s`. Duplicate\n"
        "captures are dropped (FMJD: same from, to and captured set is one move).\n" SWITCH_NOTE,
    .run = cmd_perft,
};

static const cli_opt moves_opts[] = {OPT_VARIANT, OPT_FEN, OPT_AFTER, OPT_KEEP, OPT_SWITCH, {0}};
const cli_command cd_moves_command = {
    .name = "moves",
    .about = "Print every legal move in Hub form: 32-28, or 28x19x23 (from, to, captured squares).",
    .opts = moves_opts,
    .notes = SWITCH_NOTE,
    .run = cmd_moves,
};

#define THREATENS_NOTE                                                                             \
    "In constitutional variants a line `white king 28 threatens: 6 11 17 22` under the board\n"    \
    "lists the squares that king attacks (its capture zone, Rule C): a man of the other side\n"    \
    "may not move onto them unless it must (../shared/rules/constitutional.md).\n"
static const cli_opt show_opts[] = {OPT_VARIANT, OPT_FEN, OPT_AFTER, {0}};
const cli_command cd_show_command = {
    .name = "show",
    .about = "Draw the board with its square numbers, the side to move and the FEN.",
    .opts = show_opts,
    .notes = THREATENS_NOTE,
    .run = cmd_show,
};

static const cli_opt analyse_opts[] = {
    OPT_VARIANT,
    OPT_FEN,
    OPT_AFTER,
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 1, 100,
                 "search to this depth (default 12 without --time)")},
    OPT_TIME,
    {CLI_INT_OPT(O_MULTIPV, "multipv", "K", 1, 64, "the K best moves")},
    OPT_HASH,
    OPT_EGTB,
    OPT_THREADS,
    {CLI_FLAG_OPT(O_OPTIONS, "options", "list the engine's options instead (see below)")},
    {0}};
const cli_command cd_analyse_command = {
    .name = "analyse",
    .about = "Search the position and print a line per completed depth, then `bestmove M`.",
    .opts = analyse_opts,
    .notes = "Each line: depth, selective depth, score, nodes, time, nodes/s and the principal\n"
             "variation. Scores are in men from the side to move's view (+0.35 men), or\n"
             "`win in N moves` / `loss in N moves`. `analyze` is the same command.\n"
             "--options prints the engine's options instead, a line each: name, default,\n"
             "range and meaning (set them with `match --engine1 self:NAME=V` or Hub's\n"
             "set-param; a tuning build, `make tune`, also lists the search's parameters).\n",
    .run = cmd_analyse,
    .flags = CLI_SEARCHES,
};

static const cli_opt play_opts[] = {
    OPT_VARIANT,
    OPT_FEN,
    OPT_AFTER,
    {CLI_INT_OPT(O_LEVEL, "level", "L", 1, 10,
                 "the engine thinks 0.05 L^2 seconds a move (default 5: 1.25 s)")},
    OPT_TIME,
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 1, 100, "limit the engine's depth")},
    {CLI_CHOICE_OPT(O_SIDE, "side", "white|black", "your colour (default white)")},
    {CLI_INT_OPT(O_CONTEMPT, "contempt", "C", 0, 100,
                 "a draw costs the engine C hundredths of a man (default " STR(
                     CD_PLAY_CONTEMPT) "; hints: 0)")},
    OPT_HASH,
    OPT_EGTB,
    OPT_THREADS,
    OPT_BOOK,
    {0}};
const cli_command cd_play_command = {
    .name = "play",
    .about = "A game against the engine in the terminal.",
    .opts = play_opts,
    .notes = "Type moves in the variant's notation (32-28, 28x19, full paths 28x19x10, or\n"
             "algebraic; blanks around - and x and control characters are ignored), or, in any\n"
             "case: undo (takes back your move and the engine's reply and names them), hint,\n"
             "fen, pdn, moves, resign, quit, help. Scores are in men from the engine's\n"
             "view (+0.35 men), or `win in N moves`. The game's PDN is printed at the "
             "end.\n" THREATENS_NOTE,
    .run = cmd_play,
    .flags = CLI_SEARCHES,
};

const cli_command cd_bench_command = {
    .name = "bench",
    .operands = "[DEPTH]",
    .about = "Search fixed positions to DEPTH (default 11, 1 to 40) with a cleared 16 MiB table.",
    .notes = "Prints `Nodes: N`, the engine's signature (tests/bench.expected), and nodes/s.\n",
    .run = cmd_bench,
    .flags = CLI_SEARCHES,
};

static const cli_opt hub_opts[] = {OPT_VARIANT, OPT_EGTB, OPT_BOOK, {0}};
const cli_command cd_hub_command = {
    .name = "hub",
    .about = "Speak the Hub protocol (version 2) on stdin and stdout, for the Hub GUI and bots.",
    .opts = hub_opts,
    .notes = "`go think` in a position of the opening book answers its move at once, without a\n"
             "search (docs/book.md). --book's default is the shipped book of --variant, else\n"
             "of English (books/english.cdb); it is probed in positions of its own variant.\n",
    .run = cmd_hub,
    .flags = CLI_SEARCHES,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = *cli_variant(o->cmd, v->text); break;
    case O_FEN: o->fen = v->text; break;
    case O_AFTER: o->after = v->text; break;
    case O_EGTB:
        cli_egtb_check(o->cmd, v->text);
        o->egtb = v->text;
        break;
    case O_KEEP: o->add |= CD_RULE_KEEP_DUPLICATES; break;
    case O_SWITCH: o->add |= switch_flags[v->n]; break;
    case O_DIVIDE: o->divide = 1; break;
    case O_OPTIONS: o->list_options = 1; break;
    case O_DEPTH: o->depth = (int)v->n; break;
    case O_MULTIPV: o->multipv = (int)v->n; break;
    case O_LEVEL: o->level = (int)v->n; break;
    case O_THREADS: o->threads = (int)v->n; break;
    case O_HASH: o->hash = (size_t)v->n; break;
    case O_TIME: o->time = v->x; break;
    case O_SIDE: o->side = (int)v->n + 1; break;
    case O_CONTEMPT: o->contempt = (int)v->n; break;
    case O_BOOK: o->book = v->text; break;
    }
}

static void parse_options(const cli_command *cmd, int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->rules = *cd_rules_find("international");
    o->contempt = CD_PLAY_CONTEMPT;
    o->nargs = cli_parse(cmd, argc, argv, set_option, o, o->args, cmd->operands ? 1 : 0);
    o->rules.flags |= o->add;
}

static void load_position(const options *o, cd_position *pos)
{
    char err[1024];
    if (!o->fen) {
        cd_position_start(pos, &o->rules);
    } else {
        cd_result r = cd_position_from_fen(pos, &o->rules, o->fen, err, sizeof err);
        if (r != CD_OK)
            cli_fail(o->cmd, "%s", err);
    }
    for (const char *p = o->after; p && *p;) {
        size_t n = strcspn(p, ", \t");
        if (n) {
            char text[256];
            cd_move m;
            if (n >= sizeof text)
                cli_fail(o->cmd, "--after: move too long: %.20s...", p);
            memcpy(text, p, n);
            text[n] = '\0';
            if (cd_move_parse(pos, text, &m, err, sizeof err) != CD_OK)
                cli_fail(o->cmd, "--after: %s", err);
            cd_play(pos, &m, pos);
        }
        p += n;
        p += strspn(p, ", \t");
    }
}

/* Endgame tables for the engine: --egtb DIR (a folder, checked as it was read; '' for none), else
 * ./egtb when that folder exists. */
static cd_egtb *attach_egtb(const options *o, cd_engine *e)
{
    const char *dir = cli_egtb_default(o->egtb);
    if (!dir)
        return NULL;
    cd_egtb *tb = cd_egtb_open(&o->rules, dir);
    if (tb)
        cd_engine_set_egtb(e, tb);
    return tb;
}

/* What analyse and play run on: the game from pos, an engine with the hash and threads asked for,
 * and the endgame tables (attach_egtb; NULL without). */
typedef struct setup {
    cd_game *game;
    cd_engine *engine;
    cd_egtb *tb;
} setup;

static void setup_open(const options *o, const cd_position *pos, setup *s)
{
    s->game = cd_game_new(&o->rules, pos);
    s->engine = cd_engine_new(o->hash);
    if (s->engine && o->threads > 1 &&
        cd_engine_set_option(s->engine, "threads", o->threads) != CD_OK)
        cli_fail(o->cmd, "cannot start %d search threads", o->threads);
    if (!s->game || !s->engine)
        cli_fail(o->cmd, "out of memory");
    cd_engine_set_eval(s->engine, cli_eval());
    s->tb = attach_egtb(o, s->engine);
}

static void setup_close(setup *s)
{
    cd_engine_free(s->engine);
    cd_egtb_close(s->tb);
    cd_game_free(s->game);
}

/* cd_perft for cli_perft_depths. */
static uint64_t count_perft(void *pos, int depth) { return cd_perft(pos, depth); }

static int cmd_perft(int argc, char **argv)
{
    options o;
    parse_options(&cd_perft_command, argc, argv, &o);
    if (o.nargs != 1)
        cli_fail(&cd_perft_command, "give one DEPTH");
    char *end;
    long depth = strtol(o.args[0], &end, 10);
    if (*end || depth < 0 || depth > 64)
        cli_fail(&cd_perft_command, "bad depth '%s' (0 to 64)", o.args[0]);
    cd_position pos;
    load_position(&o, &pos);
    double t0 = cli_now();
    uint64_t total = 0;
    if (o.divide && depth >= 1) {
        static cd_movelist list;
        cd_generate(&pos, &list);
        for (int i = 0; i < list.count; i++) {
            cd_position next;
            char mv[256];
            cd_play(&pos, &list.moves[i], &next);
            cd_move_to_hub(&pos, &list.moves[i], mv, sizeof mv);
            uint64_t n = cd_perft(&next, (int)depth - 1);
            printf("%s %llu\n", mv, (unsigned long long)n);
            total += n;
        }
        printf("perft %ld %llu\n", depth, (unsigned long long)total);
    } else {
        total = cli_perft_depths(count_perft, &pos, (int)depth);
    }
    cli_perft_total(total, t0);
    return 0;
}

static int cmd_moves(int argc, char **argv)
{
    options o;
    parse_options(&cd_moves_command, argc, argv, &o);
    cd_position pos;
    load_position(&o, &pos);
    static cd_movelist list;
    cd_generate(&pos, &list);
    for (int i = 0; i < list.count; i++) {
        char mv[512];
        cd_move_to_hub(&pos, &list.moves[i], mv, sizeof mv);
        puts(mv);
    }
    return 0;
}

/* The board (Unicode), the side to move, the FEN and, for constitutional
 * variants, each king's capture zone. */
static void draw_position(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    int w = cd_rules_width(r), h = cd_rules_height(r), n = cd_rules_squares(r);
    int alg = (r->flags & CD_RULE_ALGEBRAIC) != 0;
    int at[16][16];
    memset(at, 0, sizeof at);
    for (int sq = 1; sq <= n; sq++)
        at[cd_square_row(r, sq)][cd_square_col(r, sq)] = sq;
    static const char *glyph[] = {"\u00b7", "\u25cb", "\u25cf", "\u2654", "\u265a"};
    printf("%s\n", r->title);
    for (int row = 0; row < h; row++) {
        printf(alg ? "%2d  " : "    ", h - row);
        for (int col = 0; col < w; col++) {
            int sq = at[row][col];
            printf("%s ", sq ? glyph[cd_position_piece(pos, sq)] : " ");
        }
        printf("   ");
        for (int col = 0; col < w; col++) {
            int sq = at[row][col];
            if (sq)
                printf("%3d", sq);
            else
                printf("   ");
        }
        printf("\n");
    }
    if (alg) {
        printf("    ");
        for (int col = 0; col < w; col++)
            printf("%c ", 'a' + col);
        printf("\n");
    }
    char fen[1024];
    cd_position_to_fen(pos, 0, fen, sizeof fen);
    printf("%s to move\nFEN %s\n", pos->side == CD_WHITE ? "White" : "Black", fen);
    for (int c = 0; r->king_moves && c < 2; c++) {
        int sq, len = cd_position_king_run(pos, c, &sq);
        if (len) {
            char name[16];
            cd_square_to_text(r, sq, -1, name, sizeof name);
            printf("%s king %s has made %d of %d non-capturing moves in a row\n",
                   c == CD_WHITE ? "white" : "black", name, len, r->king_moves);
        }
    }
    if (r->flags & CD_RULE_CONSTITUTIONAL) {
        for (int sq = 1; sq <= n; sq++) {
            int pc = cd_position_piece(pos, sq);
            if (pc != CD_WHITE_KING && pc != CD_BLACK_KING)
                continue;
            int zone[128];
            int k = cd_king_zone(pos, sq, zone, 128);
            char name[16];
            cd_square_to_text(r, sq, -1, name, sizeof name);
            printf("%s king %s threatens:", pc == CD_WHITE_KING ? "white" : "black", name);
            for (int i = 0; i < k && i < 128; i++) {
                cd_square_to_text(r, zone[i], -1, name, sizeof name);
                printf(" %s", name);
            }
            printf("%s\n", k ? "" : " (none)");
        }
    }
}

static int cmd_show(int argc, char **argv)
{
    options o;
    parse_options(&cd_show_command, argc, argv, &o);
    cd_position pos;
    load_position(&o, &pos);
    draw_position(&pos);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    options o;
    parse_options(&cd_bench_command, argc, argv, &o);
    int depth = BENCH_DEPTH;
    if (o.nargs == 1) {
        char *end;
        long d = strtol(o.args[0], &end, 10);
        if (*end || d < 1 || d > 40)
            cli_fail(&cd_bench_command, "bad depth '%s' (1 to 40)", o.args[0]);
        depth = (int)d;
    }
    uint64_t nodes;
    double secs;
    cd_bench(cli_eval(), depth, &nodes, &secs);
    printf("Depth: %d\nTime: %.3f s\nNodes: %llu\nNPS: %.0f\n", depth, secs,
           (unsigned long long)nodes, secs > 0 ? (double)nodes / secs : 0.0);
    return 0;
}

/* Text of a principal variation in the variant's notation, played out from pos. */
static void pv_text(const cd_position *pos, const cd_move *pv, int n, char *buf, size_t len)
{
    cd_position p = *pos;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 64 < len; i++) {
        char mv[256];
        cd_move_to_text(&p, &pv[i], -1, mv, sizeof mv);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", mv);
        cd_play(&p, &pv[i], &p);
    }
}

/* A score for people: "+0.35 men" (the engine counts hundredths of a man, side to move's view),
 * or "win in 3 moves" / "loss in 3 moves" (moves of the side to move). */
static void format_score(int score, char *buf, size_t len)
{
    if (CD_SCORE_IS_WIN(score)) {
        int plies = CD_SCORE_WIN - (score > 0 ? score : -score);
        int moves = (plies + 1) / 2;
        snprintf(buf, len, "%s in %d move%s", score > 0 ? "win" : "loss", moves,
                 moves == 1 ? "" : "s");
    } else {
        snprintf(buf, len, "%+.2f men", score / 100.0);
    }
}

typedef struct analyse_ctx {
    const cd_position *pos;
} analyse_ctx;

static void on_analyse(const cd_search_info *info, void *user)
{
    const analyse_ctx *a = user;
    char pv[4096], sc[32];
    pv_text(a->pos, info->pv, info->pvlen, pv, sizeof pv);
    format_score(info->score, sc, sizeof sc);
    printf("depth %d", info->depth);
    if (info->multipv > 1 || info->multipv == 0)
        printf(" multipv %d", info->multipv);
    printf(" seldepth %d score %s nodes %llu time %.2f nps %.0f pv %s\n", info->seldepth, sc,
           (unsigned long long)info->nodes, info->time, info->nps, pv);
    fflush(stdout);
}

/* analyse --options: the engine's options table, a line each: name, default, range, meaning. */
static void list_engine_options(void)
{
    cd_option_info info;
    for (int i = 0; cd_engine_option_at(i, &info); i++)
        printf("%-13s %5d  %d-%d  %s\n", info.name, info.def, info.lo, info.hi, info.about);
}

static int cmd_analyse(int argc, char **argv)
{
    options o;
    parse_options(&cd_analyse_command, argc, argv, &o);
    if (o.list_options) {
        list_engine_options();
        return 0;
    }
    cd_position pos;
    load_position(&o, &pos);
    setup su;
    setup_open(&o, &pos, &su);
    cd_game *g = su.game;
    cd_limits l = {0};
    l.depth = o.depth;
    l.movetime = o.time;
    l.multipv = o.multipv;
    if (!l.depth && l.movetime <= 0)
        l.depth = 12;
    cd_reason why;
    cd_status st = cd_game_status(g, &why);
    if (st != CD_ONGOING) {
        printf("game over: %s (%s)\n", cd_status_pdn(&o.rules, st), cd_reason_str(why));
        setup_close(&su);
        return 0;
    }
    analyse_ctx a = {&pos};
    cd_search_result res;
    cd_search(su.engine, g, &l, on_analyse, &a, &res);
    char mv[256];
    cd_move_to_text(&pos, &res.best, -1, mv, sizeof mv);
    printf("bestmove %s\n", mv);
    setup_close(&su);
    return 0;
}

/* ------------------------------------------------------------------ play */

/* The game so far as PDN. */
static void print_pdn(const cd_game *g, int human)
{
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags)
        return;
    cd_pdn_tags_init(tags);
    cd_pdn_tag_set(tags, "Event", "condraughts play");
    cd_pdn_tag_set(tags, "White", human == CD_WHITE ? "you" : "condraughts");
    cd_pdn_tag_set(tags, "Black", human == CD_BLACK ? "you" : "condraughts");
    size_t need = cd_pdn_write(g, tags, NULL, 0);
    char *buf = malloc(need + 1);
    if (buf) {
        cd_pdn_write(g, tags, buf, need + 1);
        fputs(buf, stdout);
        free(buf);
    }
    free(tags);
}

/* The engine's move: the book's first legal move when the position is in it, else a search's. */
static void engine_move(cd_engine *e, cd_game *g, const cd_limits *l, int contempt,
                        const cd_book *book)
{
    cd_search_result res;
    const cd_position *p = cd_game_position(g);
    cd_book_move bm;
    char mv[256], sc[32];
    if (cd_book_probe(book, p, &bm, 1)) {
        cd_move_to_text(p, &bm.move, -1, mv, sizeof mv);
        format_score(bm.score, sc, sizeof sc);
        printf("engine plays %s  (book, score %s)\n", mv, sc);
        cd_game_play(g, &bm.move);
        return;
    }
    cd_engine_set_option(e, "contempt", contempt);
    if (cd_search(e, g, l, NULL, NULL, &res) != CD_OK || !res.has_move)
        return;
    cd_move_to_text(p, &res.best, -1, mv, sizeof mv);
    format_score(res.score, sc, sizeof sc);
    printf("engine plays %s  (depth %d, score %s, %llu nodes, %.2f s)\n", mv, res.depth, sc,
               (unsigned long long)res.nodes, res.time);
    cd_game_play(g, &res.best);
}

/* A legal move of p as the variant writes it, to show what moves look like: one from the middle
 * of the list (the first ones are moves along the edge): 32-28 at the International start. */
static void example_move(const cd_position *p, char *buf, size_t len)
{
    static cd_movelist list;
    cd_generate(p, &list);
    if (list.count == 0)
        snprintf(buf, len, "32-28");
    else
        cd_move_to_text(p, &list.moves[list.count * 2 / 3], -1, buf, len);
}

/* A line typed at `your move>` made plain: control characters dropped (a tab is a blank), the
 * blanks at either end and those around '-', 'x' and ':' removed ("33 - 29" is 33-29, as the PDN
 * reader takes "1- 6"). In place. */
static void clean_line(char *line)
{
    size_t n = 0;
    for (const char *q = line; *q; q++) {
        unsigned char c = (unsigned char)*q;
        if (c == '\t')
            c = ' ';
        if (c < 0x20 || c == 0x7f)
            continue;
        int sep = c == '-' || c == 'x' || c == 'X' || c == ':';
        if (sep)
            while (n && line[n - 1] == ' ')
                n--;
        if (c == ' ' && (!n || strchr("-xX:", line[n - 1])))
            continue;
        line[n++] = (char)c;
    }
    while (n && line[n - 1] == ' ')
        n--;
    line[n] = '\0';
}

/* The command a line names (its first word, any case) or "" for a move: a word is letters
 * only, and no move is. In out (len bytes), lower case. */
static void command_word(const char *line, char *out, size_t len)
{
    size_t n = 0;
    for (; *line && *line != ' '; line++) {
        if (!isalpha((unsigned char)*line)) {
            n = 0;
            break;
        }
        if (n + 1 < len)
            out[n++] = (char)tolower((unsigned char)*line);
    }
    out[n] = '\0';
}

static int cmd_play(int argc, char **argv)
{
    options o;
    parse_options(&cd_play_command, argc, argv, &o);
    cd_position start;
    load_position(&o, &start);
    setup su;
    setup_open(&o, &start, &su);
    cd_game *g = su.game;
    cd_engine *e = su.engine;
    int level = o.level ? o.level : 5;
    cd_limits l = {0};
    l.movetime = o.time > 0 ? o.time : 0.05 * level * level;
    l.depth = o.depth;
    int human = o.side == 2 ? CD_BLACK : CD_WHITE;
    cd_book *book;
    char example[256], book_err[4600];
    if (!cli_book_open(o.book, cd_rules_find(o.rules.name), &book, book_err, sizeof book_err))
        cli_fail(&cd_play_command, "%s", book_err);
    example_move(cd_game_position(g), example, sizeof example);
    printf("condraughts %s: %s. You play %s. Level %d (%.2f s a move).\n"
           "Type a move (e.g. %s; captures with x), or: undo, hint, fen, pdn, moves, resign, "
           "quit, help.\n\n",
           CD_VERSION, o.rules.title, human == CD_WHITE ? "White" : "Black", level, l.movetime,
           example);
    char line[1024], word[16];
    for (;;) {
        cd_reason why;
        cd_status st = cd_game_status(g, &why);
        const cd_position *p = cd_game_position(g);
        if (st != CD_ONGOING) {
            draw_position(p);
            printf("Game over: %s, %s (%s).\n", cd_status_pdn(&o.rules, st),
                   st == CD_DRAW         ? "draw"
                   : st == CD_WHITE_WINS ? "White wins"
                                         : "Black wins",
                   cd_reason_str(why));
            break;
        }
        if (p->side != human) {
            engine_move(e, g, &l, o.contempt, book);
            continue;
        }
        printf("\n");
        draw_position(p);
        printf("your move> ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n");
            break;
        }
        clean_line(line);
        if (!*line)
            continue;
        command_word(line, word, sizeof word);
        const char *cmd = word;
        if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
            break;
        if (!*cmd) {
            char err[2048];
            cd_result res = cd_game_play_text(g, line, err, sizeof err);
            if (res != CD_OK)
                printf("%s\n", err);
        } else if (!strcmp(cmd, "help")) {
            example_move(p, example, sizeof example);
            printf("moves: as %s (the variant's notation), captures with x, full paths 28x19x10\n"
                   "undo: take back your last move   hint: the engine's suggestion\n"
                   "fen: the position   pdn: the game so far   moves: the legal moves\n"
                   "resign, quit (commands in any case)\n",
                   example);
        } else if (!strcmp(cmd, "undo")) {
            /* take back the engine's reply and your move: your turn again */
            int plies = cd_game_ply(g);
            int back = plies >= 2 ? 2 : 0;
            char taken[2][256];
            for (int i = 0; i < back; i++)
                cd_move_to_text(cd_game_position_at(g, plies - back + i),
                                cd_game_move(g, plies - back + i), -1, taken[i], sizeof taken[i]);
            for (int i = 0; i < back; i++)
                cd_game_undo(g);
            if (back)
                printf("took back your %s and the engine's %s; your move\n", taken[0], taken[1]);
            else
                printf("nothing to undo\n");
        } else if (!strcmp(cmd, "hint")) {
            cd_search_result res;
            cd_engine_set_option(e, "contempt", 0);
            if (cd_search(e, g, &l, NULL, NULL, &res) == CD_OK && res.has_move) {
                char mv[256];
                cd_move_to_text(p, &res.best, -1, mv, sizeof mv);
                printf("hint: %s\n", mv);
            }
        } else if (!strcmp(cmd, "fen")) {
            char fen[1024];
            cd_position_to_fen(p, 0, fen, sizeof fen);
            printf("%s\n", fen);
        } else if (!strcmp(cmd, "pdn")) {
            print_pdn(g, human);
        } else if (!strcmp(cmd, "moves")) {
            static cd_movelist list;
            cd_generate(p, &list);
            for (int i = 0; i < list.count; i++) {
                char mv[256];
                cd_move_to_text(p, &list.moves[i], -1, mv, sizeof mv);
                printf("%s%s", i ? " " : "", mv);
            }
            printf("\n");
        } else if (!strcmp(cmd, "resign")) {
            cd_game_resign(g, human);
        } else {
            char shown[64];
            snprintf(shown, sizeof shown, "%.*s", (int)strcspn(line, " "), line);
            example_move(p, example, sizeof example);
            printf("unknown command '%s'; moves look like %s\n", shown, example);
        }
    }
    print_pdn(g, human);
    cd_book_free(book);
    setup_close(&su);
    return 0;
}

typedef struct hub_cli {
    cd_hub_options h;
    const char *book; /* --book, or NULL */
} hub_cli;

static void set_hub(void *user, const cli_opt *opt, const cli_value *v)
{
    hub_cli *c = user;
    if (opt->id == O_EGTB)
        c->h.egtb = v->text;
    else if (opt->id == O_BOOK)
        c->book = v->text;
    else
        c->h.variant = v->text;
}

/* The variant name goes to the Hub session as it is: it also takes other programs' names. The
 * engine probes the endgame tables of --egtb DIR, else of ./egtb when that folder exists. */
static int cmd_hub(int argc, char **argv)
{
    hub_cli c;
    memset(&c, 0, sizeof c);
    cli_parse(&cd_hub_command, argc, argv, set_hub, &c, NULL, 0);
    c.h.egtb = cli_egtb_folder(&cd_hub_command, c.h.egtb);
    c.h.eval = cli_eval();
    const cd_rules *r = c.h.variant ? cd_rules_find(c.h.variant) : NULL;
    cd_book *book = NULL;
    char err[4600];
    if (!cli_book_open(c.book, r ? r : cd_rules_find("english"), &book, err, sizeof err))
        cli_fail(&cd_hub_command, "%s", err);
    if (!book && !c.book && r)
        cli_book_open(NULL, cd_rules_find("english"), &book, err, sizeof err);
    c.h.book = book;
    int rc = cd_hub_run(stdin, stdout, &c.h);
    cd_book_free(book);
    return rc;
}
