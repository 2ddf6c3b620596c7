/*
 * main.c -- the `condraughts` command line: a thin front end over the library.
 *
 *   condraughts perft [--variant V] [--fen FEN] [--after MOVES] [--keep] [--switch S] [--divide]
 * DEPTH condraughts moves [--variant V] [--fen FEN] [--after MOVES] [--keep] [--switch S]
 * condraughts show  [--variant V] [--fen FEN] [--after MOVES] condraughts variants
 *
 * --after MOVES: the position after these moves from the FEN (or the start), comma or space
 * separated, in any form cd_move_parse reads; the way to reach state a FEN cannot hold (the
 * Frisian king-move count).
 *
 * Errors: exit status 2 and one line on stderr saying what and where.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cliutil.h"
#include "condraughts.h"
#include "dxp_cmd.h"
#include "egtb_cmd.h"
#include "hub.h"
#include "match.h"
#include "pdncheck.h"
#include "server.h"
#include "study.h"
#include "towers_cmd.h"
#include "train.h"

#define BENCH_DEPTH 11

#define die(...) cli_die("condraughts: ", __VA_ARGS__)

static const struct {
    const char *name;
    unsigned flag;
} switches[] = {
    {"obstruct-by-men", CD_CON_OBSTRUCT_BY_MEN},
    {"origin-occupied", CD_CON_ORIGIN_OCCUPIED},
    {"sacrifice-by-kings-only", CD_CON_SAC_KINGS_ONLY},
    {"no-pass-to-sacrifice", CD_CON_NO_PASS_TO_SAC},
    {"keep-duplicates", CD_RULE_KEEP_DUPLICATES},
    {"hoogland-kings-only", CD_HOOG_KINGS_ONLY},
    {"hoogland-first-jump", CD_HOOG_FIRST_JUMP},
};

/* Options shared by the commands. */
typedef struct {
    cd_rules rules;
    const char *fen;
    const char *after; /* --after: moves played from the position first */
    int have_rules;
    int divide;
    int depth, multipv, level, side;
    double time;
    size_t hash;
    int threads;      /* --threads: search threads (analyse, play) */
    const char *egtb; /* endgame tables folder (--egtb) */
    const char *args[8];
    int nargs;
} options;

static void parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    unsigned add = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--variant") || !strcmp(a, "-v")) {
            if (++i >= argc)
                die("--variant needs a name");
            const cd_rules *r = cd_rules_find(argv[i]);
            if (!r)
                die("unknown variant '%s' (try: condraughts variants)", argv[i]);
            o->rules = *r;
            o->have_rules = 1;
        } else if (!strcmp(a, "--fen")) {
            if (++i >= argc)
                die("--fen needs a position");
            o->fen = argv[i];
        } else if (!strcmp(a, "--after")) {
            if (++i >= argc)
                die("--after needs moves");
            o->after = argv[i];
        } else if (!strcmp(a, "--egtb")) {
            if (++i >= argc)
                die("--egtb needs a folder");
            o->egtb = argv[i];
        } else if (!strcmp(a, "--keep")) {
            add |= CD_RULE_KEEP_DUPLICATES;
        } else if (!strcmp(a, "--divide")) {
            o->divide = 1;
        } else if (!strcmp(a, "--depth") || !strcmp(a, "--multipv") || !strcmp(a, "--level") ||
                   !strcmp(a, "--hash") || !strcmp(a, "--threads")) {
            if (++i >= argc)
                die("%s needs a number", a);
            char *end;
            long v = strtol(argv[i], &end, 10);
            if (*end || v < 1 || v > 100000)
                die("%s: bad number '%s'", a, argv[i]);
            if (!strcmp(a, "--level") && v > 10)
                die("--level: bad number '%s' (levels are 1 to 10)", argv[i]);
            if (!strcmp(a, "--depth"))
                o->depth = v > 100 ? 100 : (int)v;
            else if (!strcmp(a, "--multipv"))
                o->multipv = v > 64 ? 64 : (int)v;
            else if (!strcmp(a, "--level"))
                o->level = (int)v;
            else if (!strcmp(a, "--threads"))
                o->threads = v > 64 ? 64 : (int)v;
            else
                o->hash = (size_t)v;
        } else if (!strcmp(a, "--time")) {
            if (++i >= argc)
                die("--time needs seconds");
            char *end;
            double v = strtod(argv[i], &end);
            if (*end || !(v > 0) || v > 1e6)
                die("--time: bad number of seconds '%s'", argv[i]);
            o->time = v;
        } else if (!strcmp(a, "--side")) {
            if (++i >= argc)
                die("--side needs white or black");
            if (!strcmp(argv[i], "white"))
                o->side = 1;
            else if (!strcmp(argv[i], "black"))
                o->side = 2;
            else
                die("--side: '%s' is not white or black", argv[i]);
        } else if (!strcmp(a, "--switch")) {
            if (++i >= argc)
                die("--switch needs a name");
            size_t k;
            for (k = 0; k < sizeof switches / sizeof switches[0]; k++)
                if (!strcmp(argv[i], switches[k].name))
                    break;
            if (k == sizeof switches / sizeof switches[0])
                die("unknown switch '%s' (obstruct-by-men, origin-occupied, "
                    "sacrifice-by-kings-only, no-pass-to-sacrifice, keep-duplicates, "
                    "hoogland-kings-only, hoogland-first-jump)",
                    argv[i]);
            add |= switches[k].flag;
        } else if (a[0] == '-' && a[1] == '-') {
            die("unknown option '%s'", a);
        } else if (o->nargs < 8) {
            o->args[o->nargs++] = a;
        } else {
            die("too many arguments");
        }
    }
    if (!o->have_rules) {
        o->rules = *cd_rules_find("international");
        o->have_rules = 1;
    }
    o->rules.flags |= add;
}

static void load_position(const options *o, cd_position *pos)
{
    char err[1024];
    if (!o->fen) {
        cd_position_start(pos, &o->rules);
    } else {
        cd_result r = cd_position_from_fen(pos, &o->rules, o->fen, err, sizeof err);
        if (r != CD_OK)
            die("%s", err);
    }
    for (const char *p = o->after; p && *p;) {
        size_t n = strcspn(p, ", \t");
        if (n) {
            char text[256];
            cd_move m;
            if (n >= sizeof text)
                die("--after: move too long: %.20s...", p);
            memcpy(text, p, n);
            text[n] = '\0';
            if (cd_move_parse(pos, text, &m, err, sizeof err) != CD_OK)
                die("--after: %s", err);
            cd_play(pos, &m, pos);
        }
        p += n;
        p += strspn(p, ", \t");
    }
}

/* Endgame tables for the engine: --egtb DIR, else ./egtb when that folder exists. */
static cd_egtb *attach_egtb(const options *o, cd_engine *e)
{
    const char *dir = o->egtb;
    struct stat st;
    if (!dir && stat("egtb", &st) == 0 && S_ISDIR(st.st_mode))
        dir = "egtb";
    if (!dir)
        return NULL;
    cd_egtb *tb = cd_egtb_open(&o->rules, dir);
    if (tb)
        cd_engine_set_egtb(e, tb);
    return tb;
}

static int cmd_perft(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    if (o.nargs != 1)
        die("perft: give one DEPTH");
    char *end;
    long depth = strtol(o.args[0], &end, 10);
    if (*end || depth < 0 || depth > 64)
        die("perft: bad depth '%s' (0-64)", o.args[0]);
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
        for (int d = 1; d <= depth; d++) {
            uint64_t n = cd_perft(&pos, d);
            printf("perft %d %llu\n", d, (unsigned long long)n);
            fflush(stdout);
            total += n;
        }
    }
    double s = cli_now() - t0;
    printf("total %llu nodes %.3f s %.0f nodes/s\n", (unsigned long long)total, s,
           s > 0 ? (double)total / s : 0.0);
    return 0;
}

static int cmd_moves(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    if (o.nargs)
        die("moves: unexpected argument '%s'", o.args[0]);
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
    parse_options(argc, argv, &o);
    cd_position pos;
    load_position(&o, &pos);
    draw_position(&pos);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    int depth = BENCH_DEPTH;
    if (o.nargs == 1) {
        char *end;
        long d = strtol(o.args[0], &end, 10);
        if (*end || d < 1 || d > 40)
            die("bench: bad depth '%s' (1-40)", o.args[0]);
        depth = (int)d;
    } else if (o.nargs > 1) {
        die("bench: give at most one DEPTH");
    }
    uint64_t nodes;
    double secs;
    cd_bench(depth, &nodes, &secs);
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

static int cmd_analyse(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    if (o.nargs)
        die("analyse: unexpected argument '%s'", o.args[0]);
    cd_position pos;
    load_position(&o, &pos);
    cd_game *g = cd_game_new(&o.rules, &pos);
    cd_engine *e = cd_engine_new(o.hash);
    if (e && o.threads > 1 && cd_engine_set_option(e, "threads", o.threads) != CD_OK)
        die("cannot start %d search threads", o.threads);
    if (!g || !e)
        die("out of memory");
    cd_egtb *tb = attach_egtb(&o, e);
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
        cd_engine_free(e);
        cd_egtb_close(tb);
        cd_game_free(g);
        return 0;
    }
    analyse_ctx a = {&pos};
    cd_search_result res;
    cd_search(e, g, &l, on_analyse, &a, &res);
    char mv[256];
    cd_move_to_text(&pos, &res.best, -1, mv, sizeof mv);
    printf("bestmove %s\n", mv);
    cd_engine_free(e);
    cd_egtb_close(tb);
    cd_game_free(g);
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

static void engine_move(cd_engine *e, cd_game *g, const cd_limits *l, int quietly)
{
    cd_search_result res;
    const cd_position *p = cd_game_position(g);
    if (cd_search(e, g, l, NULL, NULL, &res) != CD_OK || !res.has_move)
        return;
    char mv[256], sc[32];
    cd_move_to_text(p, &res.best, -1, mv, sizeof mv);
    format_score(res.score, sc, sizeof sc);
    if (!quietly)
        printf("engine plays %s  (depth %d, score %s, %llu nodes, %.2f s)\n", mv, res.depth, sc,
               (unsigned long long)res.nodes, res.time);
    cd_game_play(g, &res.best);
}

static int cmd_play(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    if (o.nargs)
        die("play: unexpected argument '%s'", o.args[0]);
    cd_position start;
    load_position(&o, &start);
    cd_game *g = cd_game_new(&o.rules, &start);
    cd_engine *e = cd_engine_new(o.hash);
    if (e && o.threads > 1 && cd_engine_set_option(e, "threads", o.threads) != CD_OK)
        die("cannot start %d search threads", o.threads);
    if (!g || !e)
        die("out of memory");
    cd_egtb *tb = attach_egtb(&o, e);
    int level = o.level ? o.level : 5;
    cd_limits l = {0};
    l.movetime = o.time > 0 ? o.time : 0.05 * level * level;
    l.depth = o.depth;
    int human = o.side == 2 ? CD_BLACK : CD_WHITE;
    printf("condraughts %s: %s. You play %s. Level %d (%.2f s a move).\n"
           "Type a move (e.g. 32-28 or 28x19), or: undo, hint, fen, pdn, moves, resign, "
           "quit, help.\n\n",
           CD_VERSION, o.rules.title, human == CD_WHITE ? "White" : "Black", level, l.movetime);
    char line[1024];
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
            engine_move(e, g, &l, 0);
            continue;
        }
        printf("\n");
        draw_position(p);
        printf("your move> ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            break;
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = line;
        while (*cmd == ' ' || *cmd == '\t')
            cmd++;
        if (!*cmd)
            continue;
        if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
            break;
        if (!strcmp(cmd, "help")) {
            printf("moves: 32-28, 28x19, full paths 28x19x10, or algebraic for algebraic variants\n"
                   "undo: take back your last move   hint: the engine's suggestion\n"
                   "fen: the position   pdn: the game so far   moves: the legal moves\n"
                   "resign, quit\n");
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
            char err[2048];
            cd_result res = cd_game_play_text(g, cmd, err, sizeof err);
            if (res != CD_OK)
                printf("%s\n", err);
        }
    }
    print_pdn(g, human);
    cd_engine_free(e);
    cd_egtb_close(tb);
    cd_game_free(g);
    return 0;
}

static int cmd_match(int argc, char **argv) { return cd_match_cli(argc, argv); }

/* condraughts hub [--variant V]: the Hub protocol on stdin/stdout (for the Hub GUI). */
static int cmd_hub(int argc, char **argv)
{
    const char *variant = NULL;
    for (int i = 0; i < argc; i++) {
        if ((!strcmp(argv[i], "--variant") || !strcmp(argv[i], "-v")) && i + 1 < argc)
            variant = argv[++i];
        else
            die("hub: unexpected argument '%s' (usage: condraughts hub [--variant V])", argv[i]);
    }
    return cd_hub_main(stdin, stdout, variant);
}

static int cmd_variants(void)
{
    for (int i = 0; cd_rules_at(i); i++) {
        const cd_rules *r = cd_rules_at(i);
        printf("%-26s %dx%d  %s\n", r->name, cd_rules_width(r), cd_rules_height(r), r->title);
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: condraughts <command> [options]\n"
        "  perft --variant V [--fen FEN] [--after MOVES] [--keep] [--switch S] [--divide] DEPTH\n"
        "  moves --variant V [--fen FEN] [--after MOVES] [--keep] [--switch S]\n"
        "  show  --variant V [--fen FEN] [--after MOVES]\n"
        "  analyse [--variant V] [--fen FEN] [--depth D | --time S] [--multipv K] [--hash MB]\n"
        "          [--egtb DIR]  (endgame tables; default ./egtb when it exists) [--threads N]\n"
        "  play  [--variant V] [--fen FEN] [--level 1-10 | --time S] [--side white|black]\n"
        "        [--egtb DIR] [--threads N]\n"
        "  bench [DEPTH]\n"
        "  match --variant V [--engine1 CMD|self] [--engine2 CMD|self] [--openings FILE]\n"
        "        [--games N] [--depth D | --nodes N | --time S | --clock S --inc S] [--pdn FILE]\n"
        "        [--engine1-protocol|--engine2-protocol auto|hub2|hub1] [--concurrency N]\n"
        "        [--sprt ELO0,ELO1[,ALPHA,BETA]] [--egtb DIR] [--max-plies P]\n"
        "        [--resign-score S --resign-moves N] [--draw-score S --draw-moves N\n"
        "        --draw-after P] [--timemargin S] [--hang S] [--move-limit S]\n"
        "        (--openings auto:K plays every K-move opening, shuffled)\n"
        "  serve [--port 8080] [--host 127.0.0.1] [--data DIR] [--web DIR]  (browser UI)\n"
        "        [--db FILE] [--egtb DIR]  (games between people; endgame tables)\n"
        "  pdn check FILE [--variant V] [--verbose]  (replay every game of a PDN file)\n"
        "  study [--variants V,V,...] [--games N] [--nodes N | --movetime S] [--seed S]\n"
        "        [--openings FILE] [--egtb DIR] [--max-plies P] [--hash MB] --out DIR\n"
        "        (self-play draw rates and DIR/report.md; mpirun -np K shares the games out)\n"
        "  study openings --variants V,V,... --plies K --depth D --max-score S --count N\n"
        "        [--seed S] --out FILE  (balanced short openings for the openings files)\n"
        "  egtb build --variant V --pieces N [--kings-pieces N] [--dir egtb] [--threads T]\n"
        "  egtb stats --variant V --white KK --black K [--to-move white|black] [--dir egtb]\n"
        "  egtb probe --variant V --fen FEN [--moves] [--dir egtb]\n"
        "  egtb report --claims FILE [--dir egtb]  (Markdown: claims checked, statistics)\n"
        "  towers perft|moves|show|play --game bashni|lasker [--pos TEXT] ...  (tower draughts)\n"
        "  variants\n"
        "  version\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    /* the commands that search load the learned evaluation first */
    static const char *searching[] = {"bench", "analyse", "analyze", "play", "hub", "dxp",
                                      "match", "serve", "study"};
    for (size_t i = 0; i < sizeof searching / sizeof searching[0]; i++)
        if (!strcmp(cmd, searching[i]) && !(argc > 2 && (!strcmp(argv[2], "--help") ||
                                                        !strcmp(argv[2], "-h"))))
            cli_load_weights();
    if (!strcmp(cmd, "perft"))
        return cmd_perft(argc - 2, argv + 2);
    if (!strcmp(cmd, "moves"))
        return cmd_moves(argc - 2, argv + 2);
    if (!strcmp(cmd, "show"))
        return cmd_show(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(cmd, "analyse") || !strcmp(cmd, "analyze"))
        return cmd_analyse(argc - 2, argv + 2);
    if (!strcmp(cmd, "play"))
        return cmd_play(argc - 2, argv + 2);
    if (!strcmp(cmd, "hub"))
        return cmd_hub(argc - 2, argv + 2);
    if (!strcmp(cmd, "dxp"))
        return cd_dxp_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "match"))
        return cmd_match(argc - 2, argv + 2);
    if (!strcmp(cmd, "serve"))
        return cd_serve_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "egtb"))
        return cmd_egtb(argc - 2, argv + 2);
    if (!strcmp(cmd, "pdn"))
        return cmd_pdn(argc - 2, argv + 2);
    if (!strcmp(cmd, "study"))
        return cmd_study(argc - 2, argv + 2);
    if (!strcmp(cmd, "train"))
        return cmd_train(argc - 2, argv + 2);
    if (!strcmp(cmd, "towers")) /* tower draughts: src/cli/towers_cmd.c */
        return cmd_towers(argc - 2, argv + 2);
    if (!strcmp(cmd, "variants"))
        return cmd_variants();
    if (!strcmp(cmd, "version")) {
        printf("condraughts %s\n", CD_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    die("unknown command '%s' (try: condraughts help)", cmd);
    return 2;
}
