/*
 * study_report.c -- DIR/report.md of `condraughts study`, built from the games alone (the files
 * DIR/VARIANT/NNNNN.pdn, else the games kept in DIR/VARIANT.pdn.xz), so a single process, an MPI
 * run, a resumed run and a study grown across machines give the same report: per variant the
 * results with the draw rate and its 95% Wilson interval, the draw rate against the base rules
 * (Newcombe's interval of the difference), game lengths, how the games ended, how decisive games
 * were won (material 20 plies before the end, king endings), and two plots drawn by gnuplot
 * (SVG). Every game is replayed under its variant's rules with the draw rules on, which checks
 * the Termination tag the file gives.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cliutil.h"
#include "stats.h"
#include "study_report.h"

#define KING_ENDING_PIECES 6  /* a king ending: only kings, or this many pieces with a king each */
#define EDGE_PLIES         20 /* material is weighed this many plies before the end */
#define KING_VALUE         3  /* a king counts as three men in the material balance */

typedef enum ending {
    END_NO_PIECES,
    END_NO_MOVES,
    END_BREAKTHROUGH,
    END_TB_WIN,
    END_OTHER_WIN,
    END_REPETITION,
    END_NO_PROGRESS,
    END_ENDGAME_RULE,
    END_TB_DRAW,
    END_MAX_PLIES,
    END_OTHER_DRAW,
    END_COUNT
} ending;

static const char *ending_name[END_COUNT] = {
    "no pieces left", "no legal moves", "first king",       "tablebase win",
    "other win",      "repetition",     "no-progress rule", "endgame move-count rule",
    "tablebase draw", "max plies",      "other draw"};

/* What one game file says. */
typedef struct game_rec {
    cd_status result;
    int length; /* plies after the opening */
    ending end; /* how it ended */
    int edge;   /* the winner's material 20 plies before the end: -1 behind, 0 equal, 1 ahead */
    int king_ending; /* reached a king ending */
} game_rec;

/* The sums of one variant. */
typedef struct summary {
    long games, white, black, draws, missing;
    long end[END_COUNT];
    long edge[3]; /* decisive games: winner behind, equal, ahead in material */
    long won_in_king_ending;
    long king_endings, king_won, king_drawn;
    long pairs, mirrored;
    double *lengths;
    stats_interval rate;
} summary;

/* A growing text. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = t->cap - t->len;
        int k = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if ((size_t)k < room) {
            t->len += (size_t)k;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap - t->len <= (size_t)k)
            cap *= 2;
        char *ns = realloc(t->s, cap);
        if (!ns) {
            fprintf(stderr, "condraughts study: out of memory\n");
            exit(2);
        }
        t->s = ns;
        t->cap = cap;
    }
}

/* An error line; the exit status 2. */
#define report_error(...) (cli_warn("condraughts study: ", __VA_ARGS__), 2)

/* ------------------------------------------------------------------ one game */

static int material(const cd_position *p, int colour)
{
    return cd_position_count(p, colour, 0) + KING_VALUE * cd_position_count(p, colour, 1);
}

static int is_king_ending(const cd_position *p)
{
    int wk = cd_position_count(p, CD_WHITE, 1), bk = cd_position_count(p, CD_BLACK, 1);
    int men = cd_position_count(p, CD_WHITE, 0) + cd_position_count(p, CD_BLACK, 0);
    if (!wk || !bk)
        return 0;
    return men == 0 || wk + bk + men <= KING_ENDING_PIECES;
}

static int same_position(const cd_position *a, const cd_position *b)
{
    return a->side == b->side && !memcmp(a->white, b->white, sizeof a->white) &&
           !memcmp(a->black, b->black, sizeof a->black) &&
           !memcmp(a->kings, b->kings, sizeof a->kings);
}

static ending ending_of_reason(cd_reason why, int decisive)
{
    switch (why) {
    case CD_REASON_NO_PIECES: return END_NO_PIECES;
    case CD_REASON_NO_MOVES: return END_NO_MOVES;
    case CD_REASON_BREAKTHROUGH: return END_BREAKTHROUGH;
    case CD_REASON_REPETITION: return END_REPETITION;
    case CD_REASON_NO_PROGRESS: return END_NO_PROGRESS;
    case CD_REASON_ENDGAME: return END_ENDGAME_RULE;
    default: return decisive ? END_OTHER_WIN : END_OTHER_DRAW;
    }
}

/*
 * Read game j of variant v (its file, else the game kept): 0 and *out NULL when it is missing,
 * 0 with the game read and checked, 2 after an error message (unreadable, of other settings, or
 * a Termination that the moves do not give).
 */
static int read_game(const study *s, int v, int j, cd_game **out, game_rec *rec)
{
    const study_config *c = study_config_of(s);
    char path[PATH_MAX + 64], err[1024];
    *out = NULL;
    size_t len;
    char *buf = study_game_text(s, v, j, &len, path, sizeof path);
    if (!buf)
        return errno == ENOENT ? 0 : report_error("cannot read %s: %s", path, strerror(errno));
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags) {
        free(buf);
        return report_error("out of memory");
    }
    size_t pos = 0;
    cd_game *g = NULL;
    cd_result rr = cd_pdn_read(buf, &pos, c->variants[v], &g, tags, err, sizeof err);
    free(buf);
    int rc = 0;
    if (rr != CD_OK || !g) {
        rc = report_error("%s: %s (remove it and run the study again)", path,
                          rr != CD_OK ? err : "no game");
    } else if (study_check_tags(s, v, j, tags, err, sizeof err)) {
        rc = report_error("%s is not a game of this study (%s)", path, err);
    }
    const char *term = rc ? NULL : cd_pdn_tag(tags, "Termination");
    const char *adj = rc ? NULL : cd_pdn_tag(tags, "Adjudication");
    if (!rc && (!term || !adj))
        rc = report_error("%s: no Termination or Adjudication tag", path);
    if (rc) {
        free(tags);
        cd_game_free(g);
        return rc;
    }

    /* replay with the variant's draw rules on: the game must end as the file says */
    int opening = study_opening_plies(s, v, j), plies = cd_game_ply(g);
    cd_game *r = cd_game_new(c->variants[v], cd_game_position_at(g, 0));
    if (!r) {
        free(tags);
        cd_game_free(g);
        return report_error("out of memory");
    }
    for (int i = 0; i < plies && !rc; i++)
        if (cd_game_status(r, NULL) != CD_ONGOING || cd_game_play(r, cd_game_move(g, i)) != CD_OK)
            rc = report_error("%s: the game is over before ply %d", path, i + 1);
    cd_reason why = CD_REASON_NONE;
    cd_status ruled = cd_game_status(r, &why), result = cd_game_status(g, NULL);
    cd_game_free(r);
    if (!rc) {
        int adjudicated = !strcmp(term, "adjudication");
        if (adjudicated && ruled != CD_ONGOING)
            rc = report_error("%s: says adjudicated, but the rules ended the game (%s)", path,
                              cd_reason_str(why));
        else if (!adjudicated &&
                 (ruled == CD_ONGOING || ruled != result || strcmp(term, cd_reason_str(why))))
            rc = report_error("%s: says \"%s\", but the moves give %s (%s)", path, term,
                              cd_status_pdn(c->variants[v], ruled), cd_reason_str(why));
        else if (result == CD_ONGOING || plies < opening)
            rc = report_error("%s: the game has no result", path);
        else if (adjudicated && !strncmp(adj, "tablebase", 9))
            rec->end = result == CD_DRAW ? END_TB_DRAW : END_TB_WIN;
        else if (adjudicated && !strncmp(adj, "max plies", 9) && result == CD_DRAW)
            rec->end = END_MAX_PLIES;
        else if (adjudicated)
            rc = report_error("%s: unknown adjudication \"%s\"", path, adj);
        else
            rec->end = ending_of_reason(why, result != CD_DRAW);
    }
    free(tags);
    if (rc) {
        cd_game_free(g);
        return rc;
    }
    rec->result = result;
    rec->length = plies - opening;
    rec->edge = 0;
    if (result != CD_DRAW) {
        int winner = result == CD_WHITE_WINS ? CD_WHITE : CD_BLACK;
        int at = plies - EDGE_PLIES < opening ? opening : plies - EDGE_PLIES;
        const cd_position *p = cd_game_position_at(g, at);
        int d = material(p, winner) - material(p, winner ^ 1);
        rec->edge = (d > 0) - (d < 0);
    }
    rec->king_ending = 0;
    for (int i = opening; i <= plies && !rec->king_ending; i++)
        rec->king_ending = is_king_ending(cd_game_position_at(g, i));
    *out = g;
    return 0;
}

/* The reversed game b is the first game a seen from the other side, move for move. */
static int is_mirror(const cd_game *a, int opening, const cd_game *b)
{
    int n = cd_game_ply(a) - opening;
    if (n != cd_game_ply(b))
        return 0;
    for (int i = 0; i <= n; i++) {
        cd_position m;
        study_mirror(cd_game_position_at(a, opening + i), &m);
        if (!same_position(&m, cd_game_position_at(b, i)))
            return 0;
    }
    return 1;
}

static void add_game(summary *sum, const game_rec *g)
{
    sum->lengths[sum->games++] = g->length;
    if (g->result == CD_DRAW)
        sum->draws++;
    else if (g->result == CD_WHITE_WINS)
        sum->white++;
    else
        sum->black++;
    sum->end[g->end]++;
    if (g->result != CD_DRAW) {
        sum->edge[g->edge + 1]++;
        sum->won_in_king_ending += g->king_ending;
    }
    if (g->king_ending) {
        sum->king_endings++;
        if (g->result == CD_DRAW)
            sum->king_drawn++;
        else
            sum->king_won++;
    }
}

/* Read every game file of variant v into sum; 0, or 2 after an error message. */
static int read_variant(const study *s, int v, summary *sum)
{
    const study_config *c = study_config_of(s);
    sum->lengths = calloc((size_t)c->games, sizeof *sum->lengths);
    if (!sum->lengths)
        return report_error("out of memory");
    for (int j = 0; j < c->games; j += 2) {
        cd_game *g[2];
        game_rec rec[2];
        for (int k = 0; k < 2; k++) {
            int rc = read_game(s, v, j + k, &g[k], &rec[k]);
            if (rc) {
                if (k)
                    cd_game_free(g[0]);
                return rc;
            }
            if (g[k])
                add_game(sum, &rec[k]);
            else
                sum->missing++;
        }
        if (g[0] && g[1]) {
            sum->pairs++;
            sum->mirrored += is_mirror(g[0], study_opening_plies(s, v, j), g[1]);
        }
        cd_game_free(g[0]);
        cd_game_free(g[1]);
    }
    stats_sort(sum->lengths, (size_t)sum->games);
    sum->rate = stats_wilson(sum->draws, sum->games, STATS_Z95);
    return 0;
}

/* ------------------------------------------------------------------ plots */

/* Is there an executable `name` on PATH? */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char dir[PATH_MAX + 64];
    while (*path) {
        size_t k = strcspn(path, ":");
        if (k && k < PATH_MAX) {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)k, path, name);
            if (access(dir, X_OK) == 0)
                return 1;
        }
        path += k;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* Write a file in the study folder; 0 or 2 after an error message. */
static int write_out(const char *dir, const char *name, const text *t)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (study_write_atomic(path, t->s ? t->s : "", t->len) != 0)
        return report_error("cannot write %s: %s", path, strerror(errno));
    return 0;
}

/*
 * The data files and gnuplot script, then gnuplot itself (in the study folder). Returns 1 when
 * the plots were drawn, 0 when gnuplot is missing, -1 when it failed (note says why), 2 after
 * an error message.
 */
static int draw_plots(const study *s, const summary *sum, char *note, size_t notelen)
{
    const study_config *c = study_config_of(s);
    int nv = c->nvariants;
    text rate = {0}, len = {0}, raw = {0}, gp = {0};
    put(&rate, "# variant index, name, draw rate, 95%% Wilson interval low and high, games\n");
    for (int v = 0; v < nv; v++)
        put(&rate, "%d %s %.6f %.6f %.6f %ld\n", v, c->variants[v]->name,
            sum[v].games ? (double)sum[v].draws / (double)sum[v].games : 0.0, sum[v].rate.lo,
            sum[v].rate.hi, sum[v].games);
    int width = c->max_plies > 400 ? (c->max_plies + 39) / 40 : 10;
    int nbins = c->max_plies / width + 1;
    put(&len, "plies");
    for (int v = 0; v < nv; v++)
        put(&len, " %s", c->variants[v]->name);
    put(&len, "\n");
    long *bins = calloc((size_t)nv * (size_t)nbins, sizeof *bins);
    if (!bins)
        return report_error("out of memory");
    for (int v = 0; v < nv; v++)
        stats_histogram(sum[v].lengths, (size_t)sum[v].games, width, bins + v * nbins, nbins);
    for (int b = 0; b < nbins; b++) {
        put(&len, "%g", b * width + width / 2.0);
        for (int v = 0; v < nv; v++)
            put(&len, " %.6f",
                sum[v].games ? (double)bins[v * nbins + b] / (double)sum[v].games : 0.0);
        put(&len, "\n");
    }
    free(bins);
    /* every game's length, a block per variant, for the box plot */
    put(&raw, "# plies after the opening of each game, a block per variant (gnuplot: index)\n");
    for (int v = 0; v < nv; v++) {
        put(&raw, "%s# %s\n", v ? "\n\n" : "", c->variants[v]->name);
        for (long k = 0; k < sum[v].games; k++)
            put(&raw, "%.0f\n", sum[v].lengths[k]);
        if (!sum[v].games)
            put(&raw, "NaN\n");
    }
    put(&gp,
        "# the plots of report.md: gnuplot plots.gp (in this folder)\n"
        "set terminal svg size 760,440 dynamic enhanced font 'sans,12' background rgb "
        "'white'\n"
        "set output 'draw_rate.svg'\n"
        "set title 'Draw rate in self-play, with 95%% Wilson intervals'\n"
        "set ylabel 'draws / games'\n"
        "set yrange [0:1.05]\n"
        "set xrange [-0.6:%g]\n"
        "set style fill solid 0.6 border -1\n"
        "set boxwidth 0.6\n"
        "set grid ytics\n"
        "set xtics nomirror%s\n"
        "plot 'draw_rate.dat' using 1:3:xtic(2) with boxes lc rgb '#6f9bd1' notitle, \\\n"
        "     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 7 ps 0.6 lw 1.5 notitle\n"
        "set terminal svg size 1000,440 dynamic enhanced font 'sans,12' background rgb "
        "'white'\n"
        "set output 'game_length.svg'\n"
        "set multiplot layout 1,2 title 'Game length (plies after the opening)'\n"
        "set title 'median, quartiles, whiskers to 1.5 IQR'\n"
        "set ylabel 'plies'\n"
        "set yrange [0:*]\n"
        "set style fill solid 0.4 border -1\n"
        "set boxwidth 0.5\n"
        "set style boxplot outliers pointtype 7\n"
        "set xtics (",
        nv - 0.4, nv > 4 ? " rotate by -25" : "");
    for (int v = 0; v < nv; v++)
        put(&gp, "%s'%s' %d", v ? ", " : "", c->variants[v]->name, v);
    put(&gp,
        ")%s\n"
        "plot for [k=0:%d] 'lengths.dat' index k using (k):1 with boxplot lc k+1 ps 0.5 notitle\n"
        "set title 'share of games, %d plies a bin'\n"
        "set xlabel 'plies'\n"
        "set ylabel 'share of games'\n"
        "set xrange [0:%d]\n"
        "set xtics auto norotate\n"
        "set key top right\n"
        "plot for [k=2:%d] 'game_length.dat' using 1:k with histeps lw 2 lc k-1 "
        "title columnheader(k)\n"
        "unset multiplot\n",
        nv > 4 ? " rotate by -25" : "", nv - 1, width, nbins * width, nv + 1);
    int rc = write_out(c->out, "draw_rate.dat", &rate);
    if (!rc)
        rc = write_out(c->out, "game_length.dat", &len);
    if (!rc)
        rc = write_out(c->out, "lengths.dat", &raw);
    if (!rc)
        rc = write_out(c->out, "plots.gp", &gp);
    free(rate.s);
    free(len.s);
    free(raw.s);
    free(gp.s);
    if (rc)
        return rc;
    if (!on_path("gnuplot")) {
        snprintf(note, notelen,
                 "gnuplot is not installed (Debian package gnuplot-nox), so this report has no "
                 "plots; their data are in draw_rate.dat, game_length.dat and lengths.dat, and "
                 "`gnuplot plots.gp` in this folder draws them.");
        return 0;
    }
    char log[PATH_MAX + 64];
    snprintf(log, sizeof log, "%s/plots.log", c->out);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(note, notelen, "gnuplot could not be started: %s.", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_RDWR);
        if (fd < 0 || null < 0 || chdir(c->out) != 0)
            _exit(126);
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd, 2);
        execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    struct stat st;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(note, notelen, "gnuplot failed (see plots.log), so this report has no plots.");
        return -1;
    }
    if (stat(log, &st) == 0 && st.st_size == 0)
        unlink(log);
    return 1;
}

/* ------------------------------------------------------------------ the report */

/* The rules a variant changes: constitutional, killer and modern change International's. */
static const char *base_of(const char *name)
{
    static const char *pairs[][2] = {{"constitutional", "international"},
                                     {"killer", "international"},
                                     {"modern", "international"},
                                     {"russian-constitutional", "russian"},
                                     {"brazilian-constitutional", "brazilian"},
                                     {"modern-8x8", "brazilian"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (!strcmp(name, pairs[i][0]))
            return pairs[i][1];
    return NULL;
}

static double pct(long k, long n) { return n ? 100.0 * (double)k / (double)n : 0.0; }

static void write_markdown(const study *s, const summary *sum, int plots, const char *note, text *t)
{
    const study_config *c = study_config_of(s);
    int nv = c->nvariants;
    put(t, "# Draw rates in self-play\n\n");
    put(t,
        "The built-in engine (condraughts %s) against itself with the same settings in each "
        "variant. Made by\n\n    %s\n\n",
        CD_VERSION, c->command);
    put(t,
        "- Games: %d a variant; the first %d openings of the openings file, shuffled with seed "
        "%llu, each played twice: as written, and with colours reversed (the position after "
        "the opening turned by 180 degrees with the colours swapped, the other side to move). "
        "Swapping the players alone would replay the same game, as the engine is "
        "deterministic under a node limit.\n",
        c->games, c->games / 2, (unsigned long long)c->seed);
    put(t, "- Openings:");
    for (int v = 0; v < nv; v++) {
        int first = 1;
        for (int u = 0; u < v; u++)
            first &= strcmp(c->openings[u], c->openings[v]) != 0;
        if (!first)
            continue;
        put(t, "%s `%s` (", v ? ";" : "", c->openings[v]);
        int any = 0;
        for (int u = v; u < nv; u++)
            if (!strcmp(c->openings[u], c->openings[v]))
                put(t, "%s%s", any++ ? ", " : "", c->variants[u]->name);
        put(t, ", %d openings)", study_openings_count(s, v));
    }
    put(t, ".\n");
    if (c->nodes)
        put(t,
            "- Each move: a search of %llu nodes (deterministic: the same seed gives the "
            "same games); a table of %zu MiB for each side, cleared before each game.\n",
            (unsigned long long)c->nodes, c->hash);
    else
        put(t,
            "- Each move: %g s of search; a table of %zu MiB for each side, cleared before "
            "each game.\n",
            c->movetime, c->hash);
    put(t, "- Evaluation:");
    for (int learned = 1, parts = 0; learned >= 0; learned--) {
        int any = 0;
        for (int v = 0; v < nv; v++)
            if (cd_eval_learned(cli_eval(), c->variants[v]) == learned) {
                if (!any++)
                    put(t, "%s %s for ", parts++ ? ";" : "",
                        learned ? "learned weights (docs/training.md)" : "the hand-set evaluation");
                else
                    put(t, ", ");
                put(t, "%s", c->variants[v]->name);
            }
    }
    put(t, ".\n");
    put(t, "- Adjudication: a draw after %d plies past the opening.", c->max_plies);
    if (c->egtb)
        put(t,
            " A position in the endgame tables of `%s` ends the game with the tables' "
            "result (the tables know no move-count draw rule: a win they see counts as a win "
            "even where such a rule would have drawn the game first).",
            c->egtb);
    put(t, "\n");
    put(t, "- Game length: plies played after the opening. Draw-rate intervals: 95%% Wilson "
           "score intervals.\n");
    long missing = 0;
    for (int v = 0; v < nv; v++)
        missing += sum[v].missing;
    if (missing)
        put(t,
            "\n**Incomplete: %ld games have no file yet; run the same command again to play "
            "them.**\n",
            missing);

    put(t, "\n## Results\n\n| variant | games | White wins | Black wins | draws | draw rate | "
           "95%% interval |\n|---|---:|---:|---:|---:|---:|---|\n");
    for (int v = 0; v < nv; v++)
        put(t, "| %s | %ld | %ld | %ld | %ld | %.1f%% | %.1f%% to %.1f%% |\n", c->variants[v]->name,
            sum[v].games, sum[v].white, sum[v].black, sum[v].draws, pct(sum[v].draws, sum[v].games),
            100 * sum[v].rate.lo, 100 * sum[v].rate.hi);
    if (plots == 1)
        put(t, "\n![Draw rate per variant with its 95%% interval](draw_rate.svg)\n");

    int compared = 0;
    for (int v = 0; v < nv; v++) {
        const char *base = base_of(c->variants[v]->name);
        for (int b = 0; base && b < nv; b++) {
            if (strcmp(c->variants[b]->name, base))
                continue;
            if (!compared++)
                put(t, "\n## Against the base rules\n\nDraw rate of the variant minus that of "
                       "its base rules, with Newcombe's 95%% interval for a difference of two "
                       "proportions (it treats the two samples as independent; they share "
                       "their openings, so it is likely on the cautious side). An interval "
                       "wholly below 0 means the variant is less drawish.\n\n"
                       "| variant | base | draw rate | base draw rate | difference | 95%% "
                       "interval |\n|---|---|---:|---:|---:|---|\n");
            stats_interval d =
                stats_newcombe(sum[v].draws, sum[v].games, sum[b].draws, sum[b].games, STATS_Z95);
            put(t, "| %s | %s | %.1f%% | %.1f%% | %+.1f points | %+.1f to %+.1f |\n",
                c->variants[v]->name, base, pct(sum[v].draws, sum[v].games),
                pct(sum[b].draws, sum[b].games),
                pct(sum[v].draws, sum[v].games) - pct(sum[b].draws, sum[b].games), 100 * d.lo,
                100 * d.hi);
        }
    }

    put(t, "\n## Game length\n\nPlies after the opening.\n\n| variant | mean | median | "
           "quartiles | shortest | longest |\n|---|---:|---:|---|---:|---:|\n");
    for (int v = 0; v < nv; v++) {
        size_t n = (size_t)sum[v].games;
        const double *x = sum[v].lengths;
        put(t, "| %s | %.1f | %.1f | %.1f to %.1f | %.0f | %.0f |\n", c->variants[v]->name,
            stats_mean(x, n), stats_quantile(x, n, 0.5), stats_quantile(x, n, 0.25),
            stats_quantile(x, n, 0.75), n ? x[0] : 0.0, n ? x[n - 1] : 0.0);
    }
    if (plots == 1)
        put(t, "\n![Game length distribution per variant](game_length.svg)\n");

    /* the ways games ended, leaving out those no game took */
    long seen[END_COUNT] = {0};
    for (int v = 0; v < nv; v++)
        for (int e = 0; e < END_COUNT; e++)
            seen[e] += sum[v].end[e];
    put(t, "\n## How the games ended\n\nBy the rules, or adjudicated (tablebase, max plies).\n\n"
           "| variant |");
    for (int e = 0; e < END_COUNT; e++)
        if (seen[e])
            put(t, " %s |", ending_name[e]);
    put(t, "\n|---|");
    for (int e = 0; e < END_COUNT; e++)
        if (seen[e])
            put(t, "---:|");
    put(t, "\n");
    for (int v = 0; v < nv; v++) {
        put(t, "| %s |", c->variants[v]->name);
        for (int e = 0; e < END_COUNT; e++)
            if (seen[e])
                put(t, " %ld |", sum[v].end[e]);
        put(t, "\n");
    }

    put(t,
        "\n## How decisive games were won\n\nThe end: the opponent without pieces, without "
        "moves, or a tablebase win. The material %d plies before the end (men count 1, kings "
        "%d), from the winner's side: a win from a material edge, a conversion from equal "
        "material, or a win from behind. Won in a king ending: the game had reached a king "
        "ending (below) before it was won.\n\n| variant | decisive | opponent without pieces "
        "| without moves | tablebase | from a material edge | from equal material | from behind "
        "| won in a king ending |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        EDGE_PLIES, KING_VALUE);
    for (int v = 0; v < nv; v++) {
        long dec = sum[v].white + sum[v].black;
        put(t,
            "| %s | %ld | %ld | %ld | %ld | %ld (%.0f%%) | %ld (%.0f%%) | %ld | %ld (%.0f%%) |\n",
            c->variants[v]->name, dec, sum[v].end[END_NO_PIECES], sum[v].end[END_NO_MOVES],
            sum[v].end[END_TB_WIN], sum[v].edge[2], pct(sum[v].edge[2], dec), sum[v].edge[1],
            pct(sum[v].edge[1], dec), sum[v].edge[0], sum[v].won_in_king_ending,
            pct(sum[v].won_in_king_ending, dec));
    }

    put(t,
        "\n## King endings\n\nA game reached a king ending when only kings were left (a king "
        "or more each side), or at most %d pieces with a king each side.\n\n| variant | "
        "reached | share of games | then won | then drawn |\n|---|---:|---:|---:|---:|\n",
        KING_ENDING_PIECES);
    for (int v = 0; v < nv; v++)
        put(t, "| %s | %ld | %.1f%% | %ld | %ld |\n", c->variants[v]->name, sum[v].king_endings,
            pct(sum[v].king_endings, sum[v].games), sum[v].king_won, sum[v].king_drawn);

    put(t, "\n## Pairs\n\nEach opening gives a pair: the game as written and the game with "
           "colours reversed. When the second game is the mirror image of the first, move for "
           "move, the pair holds one game's worth of information.\n\n| variant | pairs | "
           "mirror images |\n|---|---:|---:|\n");
    for (int v = 0; v < nv; v++)
        put(t, "| %s | %ld | %ld |\n", c->variants[v]->name, sum[v].pairs, sum[v].mirrored);

    put(t,
        "\n## Files\n\nEvery game is `VARIANT/NNNNN.pdn` in this folder (tags: Opening, "
        "OpeningNumber, Colours, Seed, Limit, Hash, MaxPlies, Tablebases, Termination, "
        "Adjudication). The plots are drawn by gnuplot from `plots.gp`, `draw_rate.dat`, "
        "`game_length.dat` and `lengths.dat`.%s%s\n",
        note[0] ? " " : "", note);
}

int study_report(const study *s)
{
    const study_config *c = study_config_of(s);
    int nv = c->nvariants;
    summary *sum = calloc((size_t)nv, sizeof *sum);
    if (!sum)
        return report_error("out of memory");
    int rc = 0;
    for (int v = 0; v < nv && !rc; v++)
        rc = read_variant(s, v, &sum[v]);
    char note[512] = "";
    int plots = rc ? 0 : draw_plots(s, sum, note, sizeof note);
    if (plots == 2)
        rc = 2;
    text md = {0};
    long missing = 0;
    if (!rc) {
        write_markdown(s, sum, plots, note, &md);
        rc = write_out(c->out, "report.md", &md);
    }
    for (int v = 0; v < nv && !rc; v++) {
        missing += sum[v].missing;
        printf("%-26s %5ld games  +%ld -%ld =%ld  draws %5.1f%% [%.1f%%, %.1f%%]\n",
               c->variants[v]->name, sum[v].games, sum[v].white, sum[v].black, sum[v].draws,
               pct(sum[v].draws, sum[v].games), 100 * sum[v].rate.lo, 100 * sum[v].rate.hi);
    }
    if (!rc) {
        printf("report: %s/report.md\n", c->out);
        if (note[0])
            printf("%s\n", note);
        if (missing) {
            fprintf(stderr, "condraughts study: %ld games missing; run the same command again\n",
                    missing);
            rc = 1;
        }
    }
    for (int v = 0; v < nv; v++)
        free(sum[v].lengths);
    free(sum);
    free(md.s);
    return rc;
}
