/*
 * main.c -- the `condraughts` command line: a thin front end over the library.
 *
 *   condraughts perft --variant V [--fen FEN] [--keep] [--switch S] [--divide] DEPTH
 *   condraughts moves --variant V [--fen FEN] [--keep] [--switch S]
 *   condraughts show  --variant V [--fen FEN]
 *   condraughts variants
 *
 * Errors: exit status 2 and one line on stderr saying what and where.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "condraughts.h"

static const char *prog = "condraughts";

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static const struct {
    const char *name;
    unsigned flag;
} switches[] = {
    {"obstruct-by-men", CD_CON_OBSTRUCT_BY_MEN},
    {"origin-occupied", CD_CON_ORIGIN_OCCUPIED},
    {"sacrifice-by-kings-only", CD_CON_SAC_KINGS_ONLY},
    {"no-pass-to-sacrifice", CD_CON_NO_PASS_TO_SAC},
    {"keep-duplicates", CD_RULE_KEEP_DUPLICATES},
};

/* Options shared by the commands. */
typedef struct {
    cd_rules rules;
    const char *fen;
    int have_rules;
    int divide;
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
        } else if (!strcmp(a, "--keep")) {
            add |= CD_RULE_KEEP_DUPLICATES;
        } else if (!strcmp(a, "--divide")) {
            o->divide = 1;
        } else if (!strcmp(a, "--switch")) {
            if (++i >= argc)
                die("--switch needs a name");
            size_t k;
            for (k = 0; k < sizeof switches / sizeof switches[0]; k++)
                if (!strcmp(argv[i], switches[k].name))
                    break;
            if (k == sizeof switches / sizeof switches[0])
                die("unknown switch '%s' (obstruct-by-men, origin-occupied, "
                    "sacrifice-by-kings-only, no-pass-to-sacrifice, keep-duplicates)",
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
    if (!o->fen) {
        cd_position_start(pos, &o->rules);
        return;
    }
    char err[256];
    cd_result r = cd_position_from_fen(pos, &o->rules, o->fen, err, sizeof err);
    if (r != CD_OK)
        die("%s", err);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
    double t0 = now();
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
    double s = now() - t0;
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

/* One king's capture zone: make it the only king of its side, its side to move. */
static int king_zone(const cd_position *pos, int sq, int *out, int max)
{
    cd_position p = *pos;
    int piece = cd_position_piece(pos, sq);
    int colour = piece == CD_WHITE_KING ? CD_WHITE : CD_BLACK;
    int n = cd_rules_squares(pos->rules);
    for (int s = 1; s <= n; s++) {
        int pc = cd_position_piece(pos, s);
        if (s != sq && pc == piece)
            cd_position_set(&p, s, colour == CD_WHITE ? CD_WHITE_MAN : CD_BLACK_MAN);
    }
    p.side = colour;
    return cd_threatened_squares(&p, out, max);
}

static int cmd_show(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    cd_position pos;
    load_position(&o, &pos);
    const cd_rules *r = &o.rules;
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
            printf("%s ", sq ? glyph[cd_position_piece(&pos, sq)] : " ");
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
    cd_position_to_fen(&pos, 0, fen, sizeof fen);
    printf("%s to move\nFEN %s\n", pos.side == CD_WHITE ? "White" : "Black", fen);
    if (r->flags & CD_RULE_CONSTITUTIONAL) {
        for (int sq = 1; sq <= n; sq++) {
            int pc = cd_position_piece(&pos, sq);
            if (pc != CD_WHITE_KING && pc != CD_BLACK_KING)
                continue;
            int zone[128];
            int k = king_zone(&pos, sq, zone, 128);
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
    return 0;
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
    fprintf(f, "usage: condraughts <command> [options]\n"
               "  perft --variant V [--fen FEN] [--keep] [--switch S] [--divide] DEPTH\n"
               "  moves --variant V [--fen FEN] [--keep] [--switch S]\n"
               "  show  --variant V [--fen FEN]\n"
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
    if (!strcmp(cmd, "perft"))
        return cmd_perft(argc - 2, argv + 2);
    if (!strcmp(cmd, "moves"))
        return cmd_moves(argc - 2, argv + 2);
    if (!strcmp(cmd, "show"))
        return cmd_show(argc - 2, argv + 2);
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
