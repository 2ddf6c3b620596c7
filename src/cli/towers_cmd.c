/*
 * towers_cmd.c -- `condraughts towers`: tower draughts (src/towers/, docs/towers.md).
 *
 * The subcommands and their options are in the tables below (`condraughts towers --help`).
 * Errors: exit status 2 and one line on stderr saying what and where.
 */
#define _POSIX_C_SOURCE 200809L
#include "cliutil.h"
#include "opts.h"
#include "towers_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../towers/towers.h"

#define die(...) cli_die("condraughts: towers ", __VA_ARGS__)

typedef struct topts {
    cd_tw_game game;
    const char *pos;
    int rules; /* -1 = the game's default */
    int divide;
    int side; /* the human's colour in play */
    int depth;
    const cli_command *cmd;
    const char *args[1];
    int nargs;
} topts;

static const struct {
    const char *name;
    int rules;
} rule_names[] = {
    {"rejump", CD_TW_RULE_REJUMP},
    {"once", 0},
    {"turkish", CD_TW_RULE_BLOCK},
};

enum { O_GAME, O_POS, O_RULE, O_DIVIDE, O_SIDE, O_DEPTH };

#define OPT_GAME                                                                                   \
    {                                                                                              \
        CLI_TEXT_OPT(O_GAME, "game", "bashni|lasker", "the game (default bashni)")                 \
    }
#define OPT_POS                                                                                    \
    {                                                                                              \
        CLI_TEXT_OPT(O_POS, "pos", "TEXT",                                                         \
                     "the position, e.g. W:a1=w,c1=wbb,e5=B (stacks top first)")                   \
    }
#define OPT_RULE                                                                                   \
    {                                                                                              \
        CLI_TEXT_OPT(O_RULE, "rule", "R",                                                          \
                     "the capture convention: turkish, once or rejump (docs/towers.md)")           \
    }

static const cli_opt perft_opts[] = {
    OPT_GAME,
    OPT_POS,
    OPT_RULE,
    {CLI_FLAG_OPT(O_DIVIDE, "divide", "each root move with its count")},
    {0}};
static const cli_opt moves_opts[] = {OPT_GAME, OPT_POS, OPT_RULE, {0}};
static const cli_opt show_opts[] = {OPT_GAME, OPT_POS, {0}};
static const cli_opt play_opts[] = {
    OPT_GAME,
    OPT_POS,
    OPT_RULE,
    {CLI_CHOICE_OPT(O_SIDE, "side", "white|black", "your colour (default white)")},
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 1, 30, "the engine's depth in plies (default 6)")},
    {0}};

static int sub_perft(int argc, char **argv);
static int sub_moves(int argc, char **argv);
static int sub_show(int argc, char **argv);
static int sub_play(int argc, char **argv);

#define RULE_NOTE                                                                                  \
    "--rule turkish: a tower is jumped at most once a move and a jumped square can be neither\n"   \
    "passed nor landed on until the move ends (the Bashni default); once: at most once, emptied\n" \
    "squares are free (the Lasca default); rejump: a reduced tower whose top is still an enemy\n"  \
    "piece may be jumped again.\n"
static const cli_command perft_cmd = {
    .name = "towers perft",
    .operands = "DEPTH",
    .about = "Count the move tree's leaves at each depth up to DEPTH (0 to 64).",
    .opts = perft_opts,
    .notes = RULE_NOTE,
    .run = sub_perft,
};
static const cli_command moves_cmd = {
    .name = "towers moves",
    .about = "Print every legal move: c3-d4, or a capture c3:e5:c7.",
    .opts = moves_opts,
    .notes = RULE_NOTE,
    .run = sub_moves,
};
static const cli_command show_cmd = {
    .name = "towers show",
    .about = "Draw the board with the stacks, then every tower in full.",
    .opts = show_opts,
    .run = sub_show,
};
static const cli_command play_cmd = {
    .name = "towers play",
    .about = "A game against the engine in the terminal: moves, or moves, show, quit, help.",
    .opts = play_opts,
    .notes = RULE_NOTE,
    .run = sub_play,
};
static const cli_command *const towers_subs[] = {&perft_cmd, &moves_cmd, &show_cmd, &play_cmd,
                                                 NULL};
const cli_command cd_towers_command = {
    .name = "towers",
    .about = "Tower draughts: Bashni (8x8) and Lasca (7x7), where captured pieces stay under the "
             "capturing piece (docs/towers.md).",
    .subs = towers_subs,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    topts *o = user;
    switch (opt->id) {
    case O_GAME:
        if (cd_tw_game_find(v->text, &o->game) != CD_OK)
            cli_fail(o->cmd, "unknown game '%s' (bashni, lasker)", v->text);
        break;
    case O_POS: o->pos = v->text; break;
    case O_RULE: {
        size_t k;
        for (k = 0; k < sizeof rule_names / sizeof rule_names[0]; k++)
            if (!strcmp(v->text, rule_names[k].name))
                break;
        if (k == sizeof rule_names / sizeof rule_names[0])
            cli_fail(o->cmd, "unknown rule '%s' (rejump, once, turkish)", v->text);
        o->rules = rule_names[k].rules;
        break;
    }
    case O_DIVIDE: o->divide = 1; break;
    case O_SIDE: o->side = (int)v->n; break;
    case O_DEPTH: o->depth = (int)v->n; break;
    }
}

static void parse(const cli_command *cmd, int argc, char **argv, topts *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->game = CD_TW_BASHNI;
    o->rules = -1;
    o->nargs = cli_parse(cmd, argc, argv, set_option, o, o->args, cmd->operands ? 1 : 0);
}

static void load(const char *cmd, const topts *o, cd_tw_pos *p)
{
    if (o->pos) {
        char err[768];
        if (cd_tw_parse(p, o->game, o->pos, err, sizeof err) != CD_OK)
            die("%s: %s", cmd, err);
    } else {
        cd_tw_start(p, o->game);
    }
    if (o->rules >= 0)
        p->rules = (uint8_t)o->rules;
}

static const char *rules_name(unsigned rules)
{
    for (size_t k = 0; k < sizeof rule_names / sizeof rule_names[0]; k++)
        if ((unsigned)rule_names[k].rules == rules)
            return rule_names[k].name;
    return "?";
}

/* cd_tw_perft for cli_perft_depths. */
static uint64_t count_perft(void *pos, int depth) { return cd_tw_perft(pos, depth); }

static int sub_perft(int argc, char **argv)
{
    topts o;
    parse(&perft_cmd, argc, argv, &o);
    if (o.nargs != 1)
        die("perft: give one DEPTH");
    char *end;
    long depth = strtol(o.args[0], &end, 10);
    if (*end || end == o.args[0] || depth < 0 || depth > 64)
        die("perft: bad depth '%s' (0-64)", o.args[0]);
    cd_tw_pos p;
    load("perft", &o, &p);
    double t0 = cli_now();
    uint64_t total = 0;
    if (o.divide && depth >= 1) {
        cd_tw_move *moves;
        long n;
        if (cd_tw_generate_all(&p, &moves, &n) != CD_OK)
            die("perft: out of memory");
        char(*text)[CD_TW_MOVE_TEXT] = malloc((size_t)(n ? n : 1) * sizeof *text);
        if (!text)
            die("perft: out of memory");
        for (long i = 0; i < n; i++) {
            cd_tw_make(&p, &moves[i]);
            uint64_t k = cd_tw_perft(&p, (int)depth - 1);
            cd_tw_unmake(&p, &moves[i]);
            cd_tw_move_text((cd_tw_game)p.game, &moves[i], text[i], CD_TW_MOVE_TEXT);
            printf("%s %llu\n", text[i], (unsigned long long)k);
            total += k;
        }
        free(text);
        free(moves);
        printf("perft %ld %llu\n", depth, (unsigned long long)total);
    } else {
        total = cli_perft_depths(count_perft, &p, (int)depth);
    }
    cli_perft_total(total, t0);
    return 0;
}

static void print_moves(const cd_tw_pos *p, const char *indent)
{
    cd_tw_move *moves;
    long n;
    if (cd_tw_generate_all(p, &moves, &n) != CD_OK)
        die("moves: out of memory");
    free(moves);
    char(*text)[CD_TW_MOVE_TEXT] = malloc((size_t)(n ? n : 1) * sizeof *text);
    if (!text)
        die("moves: out of memory");
    cd_tw_move_texts(p, text, n);
    for (long i = 0; i < n; i++)
        printf("%s%s\n", indent, text[i]);
    free(text);
}

static int sub_moves(int argc, char **argv)
{
    topts o;
    parse(&moves_cmd, argc, argv, &o);
    cd_tw_pos p;
    load("moves", &o, &p);
    print_moves(&p, "");
    return 0;
}

/* The board with the stacks (top first) in each cell, then every tower in full. */
static void show(const cd_tw_pos *p)
{
    cd_tw_game g = (cd_tw_game)p->game;
    int w = cd_tw_width(g), n = cd_tw_squares(g), cell = 1;
    for (int sq = 0; sq < n; sq++)
        if (p->height[sq] > cell)
            cell = p->height[sq];
    if (cell > 6)
        cell = 6;
    printf("%s, %s to move, captures: %s\n",
           g == CD_TW_BASHNI ? "Bashni (column draughts)" : "Lasca (Lasker)",
           p->side ? "Black" : "White", rules_name(p->rules));
    for (int r = w - 1; r >= 0; r--) {
        printf("%2d ", r + 1);
        for (int f = 0; f < w; f++) {
            int sq = cd_tw_square_at(g, f, r);
            char st[64];
            if (sq < 0)
                snprintf(st, sizeof st, " ");
            else if (!p->height[sq])
                snprintf(st, sizeof st, ".");
            else {
                cd_tw_stack_text(p, sq, st, sizeof st);
                if (p->height[sq] > cell) {
                    st[cell - 1] = '+';
                    st[cell] = '\0';
                }
            }
            printf(" %-*s", cell, st);
        }
        printf("\n");
    }
    printf("   ");
    for (int f = 0; f < w; f++)
        printf(" %-*c", cell, 'a' + f);
    printf("\n");
    for (int sq = 0; sq < n; sq++) {
        if (p->height[sq] < 2)
            continue;
        char name[8], st[64];
        cd_tw_square_name(g, sq, name, sizeof name);
        cd_tw_stack_text(p, sq, st, sizeof st);
        int own = 1;
        while (own < p->height[sq] && (p->stack[sq] >> (2 * own) & 1) == (p->stack[sq] & 1))
            own++;
        printf("tower %s = %s (%s: %d %s, %d prisoner%s)\n", name, st,
               p->stack[sq] & 1 ? "black" : "white", own, own > 1 ? "pieces" : "piece",
               p->height[sq] - own, p->height[sq] - own == 1 ? "" : "s");
    }
    char text[CD_TW_POS_TEXT];
    cd_tw_format(p, text, sizeof text);
    printf("position %s\n", text);
}

static int sub_show(int argc, char **argv)
{
    topts o;
    parse(&show_cmd, argc, argv, &o);
    cd_tw_pos p;
    load("show", &o, &p);
    show(&p);
    return 0;
}

static int sub_play(int argc, char **argv)
{
    topts o;
    parse(&play_cmd, argc, argv, &o);
    cd_tw_pos p;
    load("play", &o, &p);
    int depth = o.depth ? o.depth : 6;
    int human = o.side;
    printf("condraughts towers: %s. You play %s; the engine searches %d plies.\n"
           "Type a move (c3-d4, or a capture c3:e5:c7), or: moves, show, quit, help.\n\n",
           cd_tw_game_name((cd_tw_game)p.game), human ? "Black" : "White", depth);
    char line[1024];
    int ply = 0, shown = 0;
    for (;;) {
        if (!shown) {
            show(&p);
            shown = 1;
        }
        if (cd_tw_game_over(&p)) {
            printf("Game over: %s has no move, %s wins.\n", p.side ? "Black" : "White",
                   p.side ? "White" : "Black");
            return 0;
        }
        if (p.side != human) {
            cd_tw_search_result r;
            cd_tw_search(&p, depth, 4000000, &r);
            char mv[CD_TW_MOVE_TEXT];
            cd_tw_move_text((cd_tw_game)p.game, &r.best, mv, sizeof mv);
            printf("%d%s %s  (engine: score %d, depth %d, %llu nodes)\n\n", ply / 2 + 1,
                   p.side ? "..." : ".", mv, r.score, r.depth, (unsigned long long)r.nodes);
            cd_tw_make(&p, &r.best);
            ply++;
            shown = 0;
            continue;
        }
        printf("%s> ", p.side ? "Black" : "White");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n");
            return 0;
        }
        char *cmd = cli_trim(line);
        if (!*cmd)
            continue;
        if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
            return 0;
        if (!strcmp(cmd, "help")) {
            printf("A quiet move is from-to (c3-d4); a capture lists every landing square: "
                   "c3:e5:c7.\nCommands: moves (the legal moves), show (the board), quit.\n");
        } else if (!strcmp(cmd, "moves")) {
            print_moves(&p, "  ");
        } else if (!strcmp(cmd, "show")) {
            shown = 0;
        } else {
            cd_tw_move m;
            char err[512];
            if (cd_tw_move_parse(&p, cmd, &m, err, sizeof err) != CD_OK) {
                printf("%s\n", err);
                continue;
            }
            char mv[CD_TW_MOVE_TEXT];
            cd_tw_move_text((cd_tw_game)p.game, &m, mv, sizeof mv);
            printf("%d%s %s\n", ply / 2 + 1, p.side ? "..." : ".", mv);
            cd_tw_make(&p, &m);
            ply++;
            shown = 0;
        }
    }
}
