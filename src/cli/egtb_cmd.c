/*
 * egtb_cmd.c -- `condraughts egtb build|stats|probe`: the endgame tablebases
 * from the command line (the library does the work: src/core/egtb.c).
 */
#include "cliutil.h"
#include "egtb_cmd.h"
#include "egtb_report.h"
#include "opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The folder made for the tables and the threads' default: Windows has neither mkdir's mode nor
 * sysconf. */
#ifdef _WIN32
#include <windows.h>
static int make_dir(const char *dir)
{
    return mkdir(dir);
}
static long online_cores(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (long)si.dwNumberOfProcessors;
}
#else
static int make_dir(const char *dir)
{
    return mkdir(dir, 0777);
}
static long online_cores(void)
{
    return sysconf(_SC_NPROCESSORS_ONLN);
}
#endif

#define DEFAULT_DIR "egtb"

/* An error of the subcommand being run (o in scope): "condraughts egtb build: ..." */
#define die(...) cli_fail(o->cmd, __VA_ARGS__)

typedef struct egtb_options {
    const cd_rules *rules;
    const cli_command *cmd;
    const char *dir, *fen, *white, *black, *claims;
    int pieces, kings_pieces, threads, side, moves;
} egtb_options;

enum {
    O_VARIANT,
    O_DIR,
    O_FEN,
    O_CLAIMS,
    O_WHITE,
    O_BLACK,
    O_PIECES,
    O_KINGS_PIECES,
    O_THREADS,
    O_TO_MOVE,
    O_MOVES
};

#define OPT_VARIANT(req)                                                                           \
    {                                                                                              \
        CLI_TEXT_OPT(O_VARIANT, "variant", "V", "the variant"), .alias = 'v', .required = req      \
    }
#define OPT_DIR                                                                                    \
    {                                                                                              \
        CLI_TEXT_OPT(O_DIR, "dir", "egtb", "the tables' folder (default egtb)")                    \
    }

static const cli_opt build_opts[] = {
    OPT_VARIANT(1),
    {CLI_INT_OPT(O_PIECES, "pieces", "N", 2, CD_EGTB_MAX_PIECES, "every table of up to N pieces"),
     .required = 1},
    {CLI_INT_OPT(O_KINGS_PIECES, "kings-pieces", "N", 2, CD_EGTB_MAX_PIECES,
                 "and the kings-only tables up to N pieces")},
    OPT_DIR,
    {CLI_INT_OPT(O_THREADS, "threads", "T", 1, 64, "worker threads (default: the cores)")},
    {0}};
static const cli_opt stats_opts[] = {
    OPT_VARIANT(1),
    {CLI_TEXT_OPT(O_WHITE, "white", "KK",
                  "White's pieces: K a king, M a man (KKM: two kings and a man)"),
     .required = 1},
    {CLI_TEXT_OPT(O_BLACK, "black", "K", "Black's pieces"), .required = 1},
    {CLI_CHOICE_OPT(O_TO_MOVE, "to-move", "white|black", "the side to move (default white)")},
    OPT_DIR,
    {0}};
static const cli_opt probe_opts[] = {
    OPT_VARIANT(1),
    {CLI_TEXT_OPT(O_FEN, "fen", "FEN", "the position"), .required = 1},
    {CLI_FLAG_OPT(O_MOVES, "moves", "also the value after each move")},
    OPT_DIR,
    {0}};
static const cli_opt report_opts[] = {
    {CLI_TEXT_OPT(O_CLAIMS, "claims", "FILE", "the claims to check (docs/claims/)"), .required = 1},
    OPT_DIR,
    {0}};

static int run_build(int argc, char **argv);
static int run_stats(int argc, char **argv);
static int run_probe(int argc, char **argv);
static int run_report(int argc, char **argv);

static const cli_command build_cmd = {
    .name = "egtb build",
    .about = "Build the endgame tables (win, draw or loss and the distance) up to N pieces.",
    .opts = build_opts,
    .run = run_build,
};
static const cli_command stats_cmd = {
    .name = "egtb stats",
    .about = "Count one table's wins, draws and losses and show its longest win.",
    .opts = stats_opts,
    .run = run_stats,
};
static const cli_command probe_cmd = {
    .name = "egtb probe",
    .about = "The tables' value of a position: win in N, draw or loss in N (plies).",
    .opts = probe_opts,
    .run = run_probe,
};
static const cli_command report_cmd = {
    .name = "egtb report",
    .about = "Check a file of claims against the tables; Markdown with statistics on stdout.",
    .opts = report_opts,
    .run = run_report,
};
static const cli_command *const egtb_subs[] = {&build_cmd, &stats_cmd, &probe_cmd, &report_cmd,
                                               NULL};
const cli_command cd_egtb_command = {
    .name = "egtb",
    .about = "Endgame tablebases: build, statistics, probe, claims report.",
    .subs = egtb_subs,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    egtb_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = cli_variant(o->cmd, v->text); break;
    case O_DIR: o->dir = v->text; break;
    case O_FEN: o->fen = v->text; break;
    case O_CLAIMS: o->claims = v->text; break;
    case O_WHITE: o->white = v->text; break;
    case O_BLACK: o->black = v->text; break;
    case O_PIECES: o->pieces = (int)v->n; break;
    case O_KINGS_PIECES: o->kings_pieces = (int)v->n; break;
    case O_THREADS: o->threads = (int)v->n; break;
    case O_TO_MOVE: o->side = v->n ? CD_BLACK : CD_WHITE; break;
    case O_MOVES: o->moves = 1; break;
    }
}

/* The options of cmd (a subcommand's own table). */
static void parse(const cli_command *cmd, int argc, char **argv, egtb_options *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->dir = DEFAULT_DIR;
    o->side = CD_WHITE;
    long cores = online_cores();
    o->threads = cores > 0 ? (int)(cores > 64 ? 64 : cores) : 1;
    cli_parse(cmd, argc, argv, set_option, o, NULL, 0);
    if (cmd != &report_cmd && !o->rules)
        cli_fail(cmd, "--variant is required");
}

static cd_egtb *open_tables(const egtb_options *o)
{
    cd_egtb *tb = cd_egtb_open(o->rules, o->dir);
    if (!tb)
        die("variant %s has no tablebases (the diagonal 8x8 and 10x10 boards only; not "
            "breakthrough, "
            "Frisian, Stavropol, two-move or Northern)",
            o->rules->name);
    return tb;
}

/* ---------------------------------------------------------------- build */

typedef struct progress_state {
    double start, last;
    int tty;
    char sig[32];
    double sig_start;
} progress_state;

static void fmt_time(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, len, "%lds", t);
}

static void on_progress(const char *sig, const char *phase, uint64_t done, uint64_t total,
                        uint64_t all_done, uint64_t all_total, void *user)
{
    progress_state *ps = user;
    double t = cli_now();
    if (strcmp(ps->sig, sig) != 0) {
        snprintf(ps->sig, sizeof ps->sig, "%s", sig);
        ps->sig_start = t;
    }
    if (!strcmp(phase, "done") || !strcmp(phase, "kept")) {
        if (ps->tty)
            fputs("\r\033[K", stderr);
        fflush(stderr);
        if (!strcmp(phase, "done"))
            printf("  %-12s %6.1f s\n", sig, t - ps->sig_start);
        fflush(stdout);
        return;
    }
    if (!ps->tty || (t - ps->last < 0.2 && done != total))
        return;
    ps->last = t;
    double frac = all_total ? (double)all_done / (double)all_total : 1.0;
    char eta[32] = "?";
    if (frac > 0.001)
        fmt_time((t - ps->start) * (1 - frac) / frac, eta, sizeof eta);
    char bar[31];
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r\033[K[%s] %5.1f%%  %s %s %llu/%llu  time left %s", bar, 100 * frac, sig,
            phase, (unsigned long long)done, (unsigned long long)total, eta);
    fflush(stderr);
}

static int cmd_build(const egtb_options *o)
{
    if (!o->pieces)
        die("--pieces N is required");
    if (make_dir(o->dir) != 0 && errno != EEXIST)
        die("cannot create folder %s: %s", o->dir, strerror(errno));
    cd_egtb *tb = open_tables(o);
    progress_state ps = {.start = cli_now(), .tty = isatty(2)};
    char err[1024];
    cd_result r = cd_egtb_build(tb, o->pieces, o->kings_pieces, o->threads, on_progress, &ps, err,
                                sizeof err);
    cd_egtb_close(tb);
    if (r != CD_OK)
        die("%s", err);
    char el[32];
    fmt_time(cli_now() - ps.start, el, sizeof el);
    printf("built %s tables up to %d pieces", o->rules->name, o->pieces);
    if (o->kings_pieces > o->pieces)
        printf(" (kings only up to %d)", o->kings_pieces);
    printf(" in %s (%.1f s) with %d threads, folder %s\n", el, cli_now() - ps.start, o->threads,
           o->dir);
    return 0;
}

/* ---------------------------------------------------------------- stats */

static int parse_side(const egtb_options *o, const char *s, int *k, int *m, const char *opt)
{
    *k = *m = 0;
    if (!s)
        die("%s is required (letters K and M, e.g. --white KK --black K)", opt);
    for (const char *p = s; *p; p++) {
        if (*p == 'K' || *p == 'k')
            ++*k;
        else if (*p == 'M' || *p == 'm')
            ++*m;
        else
            die("%s: '%c' in '%s' is not K (king) or M (man)", opt, *p, s);
    }
    if (*k + *m == 0)
        die("%s: each side needs at least one piece", opt);
    return 0;
}

static int cmd_stats(const egtb_options *o)
{
    cd_egtb_material m;
    parse_side(o, o->white, &m.wk, &m.wm, "--white");
    parse_side(o, o->black, &m.bk, &m.bm, "--black");
    if (m.wk + m.wm + m.bk + m.bm > CD_EGTB_MAX_PIECES)
        die("at most %d pieces", CD_EGTB_MAX_PIECES);
    cd_egtb *tb = open_tables(o);
    cd_egtb_stats st;
    char err[1024];
    if (cd_egtb_stats_of(tb, m, o->side, &st, err, sizeof err) != CD_OK) {
        cd_egtb_close(tb);
        die("%s (build it with: condraughts egtb build --variant %s --pieces %d --dir %s)", err,
            o->rules->name, m.wk + m.wm + m.bk + m.bm, o->dir);
    }
    printf("wins %llu\ndraws %llu\nlosses %llu\n", (unsigned long long)st.wins,
           (unsigned long long)st.draws, (unsigned long long)st.losses);
    if (st.longest) {
        char fen[512];
        cd_position_to_fen(&st.example, 0, fen, sizeof fen);
        printf("longest win %d plies: %s\n", st.longest, fen);
    } else {
        printf("longest win none\n");
    }
    cd_egtb_close(tb);
    return 0;
}

/* ---------------------------------------------------------------- probe */

static int cmd_probe(const egtb_options *o)
{
    if (!o->fen)
        die("--fen FEN is required");
    cd_position pos;
    char err[1024];
    if (cd_position_from_fen(&pos, o->rules, o->fen, err, sizeof err) != CD_OK)
        die("%s", err);
    cd_egtb *tb = open_tables(o);
    int d, v = cd_egtb_probe(tb, &pos, &d);
    char text[64];
    egtb_value_text(v, d, "unknown", text, sizeof text);
    if (v == CD_EGTB_UNKNOWN) {
        const char *why = cd_egtb_error(tb);
        fprintf(stderr, "condraughts: egtb: probe: not in the tables%s%s\n", *why ? ": " : "", why);
        cd_egtb_close(tb);
        return 2;
    }
    printf("%s\n", text);
    if (o->moves) {
        cd_movelist *list = malloc(sizeof *list);
        if (!list)
            die("out of memory");
        int n = cd_generate(&pos, list);
        for (int i = 0; i < n; i++) {
            cd_position c;
            cd_play(&pos, &list->moves[i], &c);
            int cd, cv = cd_egtb_probe(tb, &c, &cd);
            /* the mover's view: the child's loss is the mover's win, one ply later */
            int mv = cv == CD_EGTB_WIN ? CD_EGTB_LOSS : cv == CD_EGTB_LOSS ? CD_EGTB_WIN : cv;
            char mt[128];
            cd_move_to_text(&pos, &list->moves[i], 0, mt, sizeof mt);
            egtb_value_text(mv, cd + 1, "unknown", text, sizeof text);
            printf("%-12s %s\n", mt, text);
        }
        free(list);
    }
    cd_egtb_close(tb);
    return 0;
}

static int run_build(int argc, char **argv)
{
    egtb_options o;
    parse(&build_cmd, argc, argv, &o);
    return cmd_build(&o);
}

static int run_stats(int argc, char **argv)
{
    egtb_options o;
    parse(&stats_cmd, argc, argv, &o);
    return cmd_stats(&o);
}

static int run_probe(int argc, char **argv)
{
    egtb_options o;
    parse(&probe_cmd, argc, argv, &o);
    return cmd_probe(&o);
}

static int run_report(int argc, char **argv)
{
    egtb_options o;
    parse(&report_cmd, argc, argv, &o);
    return egtb_report(o.claims, o.dir, stdout);
}
