/*
 * study.c -- `condraughts study`: the built-in engine against itself in several variants under
 * identical conditions, to measure how drawish each variant is.
 *
 * The game list is a function of the settings alone (study_games.c). Each game is
 * written at once to DIR/VARIANT/NNNNN.pdn (temporary file, rename); a game whose file exists
 * is not played again, so a killed run resumes where it stopped; nor is a game kept in
 * DIR/VARIANT.pdn.xz (`study pack`, study_pack.c), so a study kept in a repository grows across
 * machines. The games are played an opening's pair of each variant in turn. Under mpirun (Open
 * MPI, built in when mpicc was found) rank r of K plays the games of that order whose index % K
 * == r and tells rank 0 of each result for the progress line; rank 0 waits for every rank, then
 * builds the report from the games (study_report.c) as a single process does.
 */
#define _POSIX_C_SOURCE 200809L
#include "cliutil.h"
#include "study.h"
#include "study_games.h"
#include "study_report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CD_HAVE_MPI
#include <mpi.h>
#endif

#define TAG_GAME 1 /* MPI message: a game finished {variant, drawn} */
#define TAG_DONE 2 /* MPI message: a rank played all its games */

/* This process's place in the run: rank and size, and whether MPI_Init was called. */
static struct {
    int rank, size, mpi;
} world = {0, 1, 0};

/* Bad arguments or input: one line on stderr, exit status 2 (under MPI: the whole run stops). */
static void fail(const char *fmt, ...)
{
    /* before MPI is up every rank reads the same arguments: only the first one speaks */
    const char *env = getenv("OMPI_COMM_WORLD_RANK");
    if (world.mpi || !env || !strcmp(env, "0")) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "condraughts study: ");
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
#ifdef CD_HAVE_MPI
    if (world.mpi)
        MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fail("out of memory");
    return p;
}

/* ------------------------------------------------------------------ files */

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        fail("cannot create %s: %s", path, strerror(errno));
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        fail("%s is not a folder", path);
}

/* ------------------------------------------------------------------ openings */

/* The openings file for a board when --openings is not given: openings/NAME in the current
 * folder, else next to the program (BIN/../openings/NAME). */
static int default_openings(const cd_rules *r, char *path, size_t len)
{
    const char *name = r->geometry == CD_GEOM_10X10 ? "10x10.txt"
                       : r->geometry == CD_GEOM_8X8 ? "8x8.txt"
                                                    : NULL;
    /* the files hold openings from the usual start with one move a turn (4 and 3 rows of men) */
    if (!name || r->men_rows != (r->geometry == CD_GEOM_10X10 ? 4 : 3) ||
        (r->flags & (CD_RULE_DIAGONAL_START | CD_RULE_TWO_MOVE | CD_RULE_STAVROPOL)))
        return 0;
    char dir[4096];
    if (!cli_data_path("openings", name, dir, sizeof dir))
        return 0;
    return (size_t)snprintf(path, len, "%s/%s", dir, name) < len;
}

/* ------------------------------------------------------------------ games already played */

/* A game of this study already played, in its file or kept: 1 if it is there and right, 0 if
 * there is none; a game of other settings or an unreadable one stops the run. */
static int game_done(const study *s, int v, int j)
{
    char path[PATH_MAX + 64], err[1024], why[600] = "";
    size_t len;
    char *text = study_game_text(s, v, j, &len, path, sizeof path);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        fail("cannot read %s: %s", path, strerror(errno));
    }
    size_t pos = 0;
    cd_game *g = NULL;
    cd_pdn_tags *tags = xmalloc(sizeof *tags);
    cd_result r =
        cd_pdn_read(text, &pos, study_config_of(s)->variants[v], &g, tags, err, sizeof err);
    free(text);
    if (r != CD_OK || !g)
        fail("%s: %s (remove it to play the game again)", path, r != CD_OK ? err : "no game");
    cd_game_free(g);
    if (!study_check_tags(s, v, j, tags, why, sizeof why) && !cd_pdn_tag(tags, "Termination"))
        snprintf(why, sizeof why, "no Termination tag");
    if (why[0])
        fail("%s is not a game of this study (%s): use another --out, or remove the file to "
             "play the game again",
             path, why);
    free(tags);
    return 1;
}

/* ------------------------------------------------------------------ playing */

/* Play game j of variant v to its end. adjud gets the Adjudication tag. */
static cd_game *play_game(const study *s, int v, int j, cd_engine *eng[2], cd_egtb *tb, char *adjud,
                          size_t alen)
{
    const cd_rules *r = study_config_of(s)->variants[v];
    const cd_game *op = study_opening_game(s, v, j);
    cd_game *g;
    if (j % 2 == 0) {
        g = cd_game_new(r, cd_game_position_at(op, 0));
        for (int i = 0; g && i < cd_game_ply(op); i++)
            cd_game_play(g, cd_game_move(op, i));
    } else {
        cd_position m;
        study_mirror(cd_game_position(op), &m);
        g = cd_game_new(r, &m);
    }
    if (!g)
        fail("out of memory");
    cd_engine_clear(eng[0]);
    cd_engine_clear(eng[1]);
    int start = cd_game_ply(g);
    snprintf(adjud, alen, "none");
    cd_limits l;
    memset(&l, 0, sizeof l);
    l.nodes = study_config_of(s)->nodes;
    l.movetime = study_config_of(s)->movetime;
    while (cd_game_status(g, NULL) == CD_ONGOING) {
        const cd_position *p = cd_game_position(g);
        int side = p->side;
        if (tb && cd_position_count(p, CD_WHITE, -1) + cd_position_count(p, CD_BLACK, -1) <=
                      CD_EGTB_MAX_PIECES) {
            int dist = 0, val = cd_egtb_probe(tb, p, &dist);
            if (val == CD_EGTB_DRAW) {
                cd_game_agree_draw(g);
                snprintf(adjud, alen, "tablebase: draw");
                break;
            }
            if (val == CD_EGTB_WIN || val == CD_EGTB_LOSS) {
                int winner = val == CD_EGTB_WIN ? side : side ^ 1;
                cd_game_resign(g, winner ^ 1);
                snprintf(adjud, alen, "tablebase: %s wins in %d plies",
                         winner == CD_WHITE ? "White" : "Black", dist);
                break;
            }
        }
        if (cd_game_ply(g) - start >= study_config_of(s)->max_plies) {
            cd_game_agree_draw(g);
            snprintf(adjud, alen, "max plies: a draw after %d plies",
                     study_config_of(s)->max_plies);
            break;
        }
        cd_search_result res;
        if (cd_search(eng[side], g, &l, NULL, NULL, &res) != CD_OK || !res.has_move ||
            cd_game_play(g, &res.best) != CD_OK)
            fail("%s game %d: the engine gave no legal move", r->name, j + 1);
    }
    return g;
}

/* Write a finished game to its file. */
static void write_game(const study *s, int v, int j, const cd_game *g, const char *adjud)
{
    cd_pdn_tags *t = xmalloc(sizeof *t);
    study_game_tags(s, v, j, t);
    cd_reason why = CD_REASON_NONE;
    cd_game_status(g, &why);
    int adjudicated = strcmp(adjud, "none") != 0;
    cd_pdn_tag_set(t, "Termination", adjudicated ? "adjudication" : cd_reason_str(why));
    cd_pdn_tag_set(t, "Adjudication", adjud);
    size_t need = cd_pdn_write(g, t, NULL, 0);
    char *buf = xmalloc(need + 1);
    cd_pdn_write(g, t, buf, need + 1);
    char path[PATH_MAX + 32];
    study_game_path(s, v, j, path, sizeof path);
    if (study_write_atomic(path, buf, need) != 0)
        fail("cannot write %s: %s", path, strerror(errno));
    free(buf);
    free(t);
}

/* ------------------------------------------------------------------ progress */

typedef struct progress {
    long total, done, shown_done;
    long games[STUDY_MAX_VARIANTS], draws[STUDY_MAX_VARIANTS];
    double start, shown;
    int tty, tenth;
} progress;

static void progress_show(const study *s, progress *p, int last)
{
    double t = cli_now();
    int tenth = p->total ? (int)(10 * p->done / p->total) : 10;
    if (p->tty ? !last && t - p->shown < 0.25 && p->done < p->total
               : tenth == p->tenth && (!last || p->shown_done == p->done))
        return;
    p->shown = t;
    p->tenth = tenth;
    p->shown_done = p->done;
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line, "study: %ld/%ld games", p->done, p->total);
    int any = 0;
    for (int v = 0; v < study_config_of(s)->nvariants && n < sizeof line - 80; v++)
        if (p->games[v])
            n += (size_t)snprintf(line + n, sizeof line - n, "%s %s %.0f%%",
                                  any++ ? "," : "; draws", study_config_of(s)->variants[v]->name,
                                  100.0 * (double)p->draws[v] / (double)p->games[v]);
    if (p->done && p->done < p->total) {
        double left = (t - p->start) / (double)p->done * (double)(p->total - p->done);
        if (left >= 3600)
            snprintf(line + n, sizeof line - n, "; %dh%02dm left", (int)(left / 3600),
                     (int)(left / 60) % 60);
        else
            snprintf(line + n, sizeof line - n, "; %dm%02ds left", (int)(left / 60),
                     (int)left % 60);
    }
    if (p->tty)
        fprintf(stderr, "\r\033[K%s%s", line, last ? "\n" : "");
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

static void progress_add(const study *s, progress *p, int v, int drawn)
{
    p->done++;
    if (v >= 0 && v < study_config_of(s)->nvariants) {
        p->games[v]++;
        p->draws[v] += drawn != 0;
    }
    progress_show(s, p, 0);
}

/* Rank 0: take the other ranks' messages; with wait, until every rank is done. */
static void take_messages(const study *s, progress *p, int *ranks_done, int wait)
{
#ifdef CD_HAVE_MPI
    if (!world.mpi)
        return;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            if (!wait || *ranks_done >= world.size - 1)
                return;
            struct timespec pause = {0, 20000000}; /* no busy waiting on a shared machine */
            nanosleep(&pause, NULL);
            continue;
        }
        int msg[2];
        MPI_Recv(msg, 2, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_DONE)
            ++*ranks_done;
        else
            progress_add(s, p, msg[0], msg[1]);
    }
#else
    (void)s;
    (void)p;
    (void)ranks_done;
    (void)wait;
#endif
}

/* ------------------------------------------------------------------ arguments */

static uint64_t number_arg(const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
    char *end;
    errno = 0;
    if (!v[0] || v[0] == '-' || v[0] == ' ')
        fail("%s: bad number '%s'", opt, v);
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || errno || n < lo || n > hi)
        fail("%s: bad number '%s' (%llu to %llu)", opt, v, (unsigned long long)lo,
             (unsigned long long)hi);
    return (uint64_t)n;
}

static void parse_variants(study_config *c, const char *list)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf)
        fail("--variants: list too long");
    strcpy(buf, list);
    c->nvariants = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const cd_rules *r = cd_rules_find(tok);
        if (!r)
            fail("unknown variant '%s' (try: condraughts variants)", tok);
        for (int i = 0; i < c->nvariants; i++)
            if (c->variants[i] == r)
                fail("--variants: %s is named twice", r->name);
        if (c->nvariants == STUDY_MAX_VARIANTS)
            fail("--variants: at most %d variants", STUDY_MAX_VARIANTS);
        c->variants[c->nvariants++] = r;
    }
    if (!c->nvariants)
        fail("--variants needs at least one variant");
}

enum {
    O_VARIANTS,
    O_VARIANT,
    O_GAMES,
    O_NODES,
    O_MOVETIME,
    O_SEED,
    O_OPENINGS,
    O_EGTB,
    O_MAX_PLIES,
    O_HASH,
    O_OUT
};

static const cli_opt study_opts[] = {
    {CLI_TEXT_OPT(O_VARIANTS, "variants", "V,V,...",
                  "the variants (default international,constitutional,killer,modern)")},
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V,V,...", "the same as --variants"), .hidden = 1},
    {CLI_INT_OPT(O_GAMES, "games", "N", 2, STUDY_MAX_GAMES,
                 "games a variant, even: each opening twice (default 100)")},
    {CLI_INT_OPT(O_NODES, "nodes", "N", 1, 1e12, "nodes a move (default 5000)")},
    {CLI_REAL_OPT(O_MOVETIME, "movetime", "S", 0.001, 3600, "seconds a move, instead of --nodes")},
    {CLI_TEXT_OPT(O_SEED, "seed", "S", "the seed of the openings' order (default 1)")},
    {CLI_TEXT_OPT(O_OPENINGS, "openings", "FILE",
                  "the openings (default openings/8x8.txt or openings/10x10.txt)")},
    {CLI_TEXT_OPT(O_EGTB, "egtb", "DIR", "end a game by these endgame tables' result")},
    {CLI_INT_OPT(O_MAX_PLIES, "max-plies", "P", 1, 100000,
                 "a draw after P plies past the opening (default 300)")},
    {CLI_INT_OPT(O_HASH, "hash", "MB", 1, 65536, "each engine's hash table in MiB (default 16)")},
    {CLI_TEXT_OPT(O_OUT, "out", "DIR", "the games (DIR/VARIANT/NNNNN.pdn) and DIR/report.md"),
     .required = 1},
    {0}};

static const cli_command *const study_subs[] = {&study_openings_command, &study_pack_command, NULL};
const cli_command cd_study_command = {
    .name = "study",
    .about = "Self-play draw rates of variants: the games and DIR/report.md.",
    .opts = study_opts,
    .notes = "Under mpirun -np K the processes share the games out. See the README's "
             "\"Draw-rate\nstudies\".\n",
    .run = cmd_study,
    .flags = CLI_SEARCHES,
    .subs = study_subs,
};

/* What the options set besides the configuration. */
typedef struct parsing {
    study_config *c;
    const char *openings;
    int have_nodes;
} parsing;

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    parsing *p = user;
    study_config *c = p->c;
    switch (opt->id) {
    case O_VARIANTS:
    case O_VARIANT: parse_variants(c, v->text); break;
    case O_GAMES:
        c->games = (int)v->n;
        if (c->games % 2)
            fail("--games %s: give an even number (each opening is played twice)", v->text);
        break;
    case O_NODES:
        c->nodes = (uint64_t)v->n;
        p->have_nodes = 1;
        break;
    case O_MOVETIME: c->movetime = v->x; break;
    case O_SEED: c->seed = number_arg("--seed", v->text, 0, UINT64_MAX); break;
    case O_OPENINGS: p->openings = v->text; break;
    case O_EGTB:
        c->egtb = cli_egtb_folder(&cd_study_command, v->text); /* '' for none */
        break;
    case O_MAX_PLIES: c->max_plies = (int)v->n; break;
    case O_HASH: c->hash = (size_t)v->n; break;
    case O_OUT:
        if (!v->text[0])
            fail("--out needs a folder");
        c->out = v->text;
        break;
    }
}

/* The settings from the command line; the openings files' names are kept in paths. */
static void parse_args(int argc, char **argv, study_config *c, char (*paths)[PATH_MAX])
{
    memset(c, 0, sizeof *c);
    parse_variants(c, "international,constitutional,killer,modern");
    c->games = 100;
    c->seed = 1;
    c->max_plies = 300;
    c->hash = 16;
    size_t used = (size_t)snprintf(c->command, sizeof c->command, "condraughts study");
    for (int i = 0; i < argc && used < sizeof c->command; i++)
        used += (size_t)snprintf(c->command + used, sizeof c->command - used,
                                 strpbrk(argv[i], " \t'\"") ? " '%s'" : " %s", argv[i]);
    parsing p = {c, NULL, 0};
    cli_parse(&cd_study_command, argc, argv, set_option, &p, NULL, 0);
    const char *openings = p.openings;
    int have_nodes = p.have_nodes;
    if (!c->out)
        fail("give the output folder: --out DIR (try: condraughts study --help)");
    if (have_nodes && c->movetime > 0)
        fail("give --nodes or --movetime, not both");
    if (!have_nodes && !(c->movetime > 0))
        c->nodes = 5000;
    for (int v = 0; v < c->nvariants; v++) {
        if (openings)
            snprintf(paths[v], PATH_MAX, "%s", openings);
        else if (!default_openings(c->variants[v], paths[v], PATH_MAX))
            fail("no openings file for %s (%dx%d; openings/8x8.txt and openings/10x10.txt are "
                 "looked for in the current folder and next to the program): give --openings "
                 "FILE",
                 c->variants[v]->name, cd_rules_width(c->variants[v]),
                 cd_rules_height(c->variants[v]));
        c->openings[v] = paths[v];
    }
}

/* ------------------------------------------------------------------ the command */

/* Open MPI: set up when launched by mpirun; returns 0 if this process has nothing to do. */
static int join_world(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size)
        return 1;
#ifdef CD_HAVE_MPI
    MPI_Init(NULL, NULL);
    world.mpi = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world.size);
    return 1;
#else
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank && strcmp(rank, "0"))
        return 0;
    fprintf(stderr, "condraughts study: MPI is not built in (install libopenmpi-dev and "
                    "rebuild); running as a single process\n");
    return 1;
#endif
}

static void leave_world(void)
{
#ifdef CD_HAVE_MPI
    if (world.mpi)
        MPI_Finalize();
    world.mpi = 0;
#endif
}

int cmd_study(int argc, char **argv)
{
    study_config config;
    char paths[STUDY_MAX_VARIANTS][PATH_MAX];
    parse_args(argc, argv, &config, paths);
    char err[4096];
    study *s = study_load(&config, err, sizeof err);
    if (!s || study_load_kept(s, err, sizeof err) != 0)
        fail("%s", err);
    const study_config *c = study_config_of(s);
    if (!join_world()) {
        study_free(s);
        return 0;
    }
    make_dir(c->out);
    char path[PATH_MAX + 32];
    for (int v = 0; v < c->nvariants; v++) {
        snprintf(path, sizeof path, "%s/%s", c->out, c->variants[v]->name);
        make_dir(path);
    }

    /* this rank's games still to play (v * N + j), an opening's pair of each variant in turn:
     * a run stopped early has played about as many games of each */
    long total = (long)c->nvariants * c->games, mine = 0;
    int *todo = xmalloc((size_t)total * sizeof *todo);
    for (long i = 0; i < total; i++) {
        int v = (int)(i / 2 % c->nvariants), j = (int)(i / (2 * c->nvariants) * 2 + i % 2);
        if (i % world.size == world.rank && !game_done(s, v, j))
            todo[mine++] = v * c->games + j;
    }
    progress p;
    memset(&p, 0, sizeof p);
    p.total = mine;
#ifdef CD_HAVE_MPI
    if (world.mpi)
        MPI_Allreduce(&mine, &p.total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
#endif
    p.tty = isatty(2);
    p.start = p.shown = cli_now();
    int speak = world.rank == 0;
    if (speak && p.total < total)
        fprintf(stderr, "study: %ld of %ld games already played in %s\n", total - p.total, total,
                c->out);

    cd_engine *eng[2] = {cd_engine_new(c->hash), cd_engine_new(c->hash)};
    if (!eng[0] || !eng[1])
        fail("out of memory for two engines of %zu MiB", c->hash);
    cd_engine_set_eval(eng[0], cli_eval());
    cd_engine_set_eval(eng[1], cli_eval());
    cd_egtb *tb[STUDY_MAX_VARIANTS] = {0};
    if (c->egtb)
        for (int v = 0; v < c->nvariants; v++)
            tb[v] = cd_egtb_open(c->variants[v], c->egtb);
    int ranks_done = 0;
    double t0 = cli_now();
    for (long k = 0; k < mine; k++) {
        int v = todo[k] / c->games, j = todo[k] % c->games;
        char adjud[128];
        cd_game *g = play_game(s, v, j, eng, tb[v], adjud, sizeof adjud);
        write_game(s, v, j, g, adjud);
        int drawn = cd_game_status(g, NULL) == CD_DRAW;
        cd_game_free(g);
        if (speak) {
            progress_add(s, &p, v, drawn);
            take_messages(s, &p, &ranks_done, 0);
        }
#ifdef CD_HAVE_MPI
        else {
            int msg[2] = {v, drawn};
            MPI_Send(msg, 2, MPI_INT, 0, TAG_GAME, MPI_COMM_WORLD);
        }
#endif
    }
    double played = cli_now() - t0;
#ifdef CD_HAVE_MPI
    if (world.mpi && world.rank) {
        int msg[2] = {0, 0};
        MPI_Send(msg, 2, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD);
    }
#endif
    if (speak)
        take_messages(s, &p, &ranks_done, 1);
    for (int v = 0; v < c->nvariants; v++)
        cd_egtb_close(tb[v]);
    cd_engine_free(eng[0]);
    cd_engine_free(eng[1]);
    free(todo);
    if (speak && p.total)
        progress_show(s, &p, 1);
    char who[32] = "";
    if (world.size > 1)
        snprintf(who, sizeof who, "rank %d ", world.rank);
    if (mine)
        fprintf(stderr, "study: %splayed %ld games in %.1f s (%.0f games an hour)\n", who, mine,
                played, played > 0 ? 3600.0 * (double)mine / played : 0.0);
    leave_world();
    int rc = speak ? study_report(s) : 0;
    study_free(s);
    return rc;
}
