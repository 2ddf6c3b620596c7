/*
 * study_openings.c -- `condraughts study openings`: the balanced short openings of the
 * openings files (openings/10x10.txt, openings/8x8.txt).
 *
 * Every line of K plies from the start position of the first variant is played out; lines
 * that transpose into a position met before are dropped. Each line must be legal, move for
 * move, in every variant named and lead to the same position there; the engine searches the
 * position to a fixed depth in each variant, and the line is kept when every score is within
 * the margin of equal. When more are kept than asked for, a random choice (by seed) of them is
 * written, in the order of the move generator, each line with its scores in a comment.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliutil.h"
#include "study.h"
#include "study_games.h"

#define MAX_PLIES 8

#define fail(...) cli_die("condraughts study openings: ", __VA_ARGS__)

typedef struct line {
    cd_move moves[MAX_PLIES];
    char text[MAX_PLIES * 48];
    int score[STUDY_MAX_VARIANTS]; /* White's view */
    int worst;                     /* the largest |score| */
} line;

typedef struct lines {
    line *v;
    int n, cap;
    uint64_t *seen; /* open addressing: keys of the positions met */
    size_t seen_cap, seen_n;
    long all; /* lines played out, transpositions included */
} lines;

/* 1 when the key was not seen before (and is now). */
static int first_visit(lines *L, uint64_t key)
{
    if (key == 0)
        key = 1;
    if (2 * (L->seen_n + 1) > L->seen_cap) {
        size_t cap = L->seen_cap ? L->seen_cap * 2 : 4096;
        uint64_t *ns = calloc(cap, sizeof *ns);
        if (!ns)
            fail("out of memory");
        for (size_t i = 0; i < L->seen_cap; i++)
            if (L->seen[i])
                for (size_t h = L->seen[i] & (cap - 1);; h = (h + 1) & (cap - 1))
                    if (!ns[h]) {
                        ns[h] = L->seen[i];
                        break;
                    }
        free(L->seen);
        L->seen = ns;
        L->seen_cap = cap;
    }
    for (size_t h = key & (L->seen_cap - 1);; h = (h + 1) & (L->seen_cap - 1)) {
        if (L->seen[h] == key)
            return 0;
        if (!L->seen[h]) {
            L->seen[h] = key;
            L->seen_n++;
            return 1;
        }
    }
}

static void collect(cd_game *g, int plies, int depth, lines *L)
{
    if (cd_game_status(g, NULL) != CD_ONGOING)
        return;
    if (depth == plies) {
        L->all++;
        if (!first_visit(L, cd_game_position(g)->key))
            return;
        if (L->n == L->cap) {
            L->cap = L->cap ? L->cap * 2 : 256;
            line *nv = realloc(L->v, (size_t)L->cap * sizeof *nv);
            if (!nv)
                fail("out of memory");
            L->v = nv;
        }
        line *ln = &L->v[L->n++];
        memset(ln, 0, sizeof *ln);
        size_t used = 0;
        for (int i = 0; i < plies; i++) {
            ln->moves[i] = *cd_game_move(g, i);
            char mv[256];
            cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), -1, mv, sizeof mv);
            /* 'x' for captures: a ':' would make `match --openings` read the line as a FEN */
            for (char *c = mv; *c; c++)
                if (*c == ':')
                    *c = 'x';
            used +=
                (size_t)snprintf(ln->text + used, sizeof ln->text - used, "%s%s", i ? " " : "", mv);
            if (used >= sizeof ln->text)
                fail("opening text too long");
        }
        return;
    }
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        fail("out of memory");
    int k = cd_generate(cd_game_position(g), list);
    for (int i = 0; i < k; i++) {
        cd_game_play(g, &list->moves[i]);
        collect(g, plies, depth + 1, L);
        cd_game_undo(g);
    }
    free(list);
}

static int same_pieces(const cd_position *a, const cd_position *b)
{
    return a->side == b->side && !memcmp(a->white, b->white, sizeof a->white) &&
           !memcmp(a->black, b->black, sizeof a->black) &&
           !memcmp(a->kings, b->kings, sizeof a->kings);
}

/* The line's text replayed under r: the game, or NULL when a move is not legal there or the
 * line does not lead to `want`. */
static cd_game *replay(const cd_rules *r, const char *text, const cd_position *want)
{
    cd_game *g = cd_game_new(r, NULL);
    if (!g)
        fail("out of memory");
    char buf[MAX_PLIES * 48], err[512];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (cd_game_status(g, NULL) != CD_ONGOING ||
            cd_game_play_text(g, tok, err, sizeof err) != CD_OK) {
            cd_game_free(g);
            return NULL;
        }
    if (cd_game_status(g, NULL) != CD_ONGOING || !same_pieces(cd_game_position(g), want)) {
        cd_game_free(g);
        return NULL;
    }
    return g;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Append a comment paragraph to out, wrapped at 100 columns. */
static size_t comment(char *out, size_t cap, size_t used, const char *text)
{
    const char *p = text;
    while (*p && used < cap) {
        size_t room = 97, k = strlen(p);
        if (k > room) {
            k = room;
            while (k > 0 && p[k] != ' ')
                k--;
            if (!k)
                k = room;
        }
        used += (size_t)snprintf(out + used, cap - used, "# %.*s\n", (int)k, p);
        p += k;
        while (*p == ' ')
            p++;
    }
    return used;
}

enum { O_VARIANTS, O_VARIANT, O_PLIES, O_DEPTH, O_MAX_SCORE, O_COUNT, O_SEED, O_HASH, O_OUT };

static const cli_opt openings_opts[] = {
    {CLI_TEXT_OPT(O_VARIANTS, "variants", "V,V,...",
                  "variants of one board: a line must be balanced in each"),
     .required = 1},
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V,V,...", "the same as --variants"), .hidden = 1},
    {CLI_INT_OPT(O_PLIES, "plies", "K", 1, MAX_PLIES, "the openings' length in plies"),
     .required = 1},
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 1, 30, "each line searched to depth D"), .required = 1},
    {CLI_INT_OPT(O_MAX_SCORE, "max-score", "S", 0, 10000,
                 "kept when within S hundredths of a man of equal"),
     .required = 1},
    {CLI_INT_OPT(O_COUNT, "count", "N", 1, 1000000, "at most N openings"), .required = 1},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, 2147483647, "the seed of the choice (default 1)")},
    {CLI_INT_OPT(O_HASH, "hash", "MB", 1, 65536, "hash table size in MiB (default 16)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the openings file"), .required = 1},
    {0}};

const cli_command study_openings_command = {
    .name = "study openings",
    .about = "Balanced short openings for the openings files (one process, not under mpirun).",
    .opts = openings_opts,
    .run = study_openings_main,
    .flags = CLI_SEARCHES,
};

typedef struct params {
    const cd_rules *var[STUDY_MAX_VARIANTS];
    int nv, plies, depth, margin, count;
    uint64_t seed;
    size_t hash;
    const char *out;
} params;

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    params *p = user;
    switch (opt->id) {
    case O_VARIANTS:
    case O_VARIANT: {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v->text);
        p->nv = 0;
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const cd_rules *r = cli_variant(&study_openings_command, tok);
            if (p->nv == STUDY_MAX_VARIANTS)
                fail("--variants: at most %d variants", STUDY_MAX_VARIANTS);
            if (p->nv && r->geometry != p->var[0]->geometry)
                fail("--variants: %s is not played on the board of %s", r->name, p->var[0]->name);
            p->var[p->nv++] = r;
        }
        break;
    }
    case O_PLIES: p->plies = (int)v->n; break;
    case O_DEPTH: p->depth = (int)v->n; break;
    case O_MAX_SCORE: p->margin = (int)v->n; break;
    case O_COUNT: p->count = (int)v->n; break;
    case O_SEED: p->seed = (uint64_t)v->n; break;
    case O_HASH: p->hash = (size_t)v->n; break;
    case O_OUT: p->out = v->text; break;
    }
}

int study_openings_main(int argc, char **argv)
{
    if (getenv("OMPI_COMM_WORLD_SIZE"))
        fail("run it as one process, not under mpirun");
    params p = {.margin = -1, .seed = 1, .hash = 16};
    cli_parse(&study_openings_command, argc, argv, set_option, &p, NULL, 0);
    if (!p.nv || !p.plies || !p.depth || p.margin < 0 || !p.count || !p.out)
        fail("give --variants, --plies, --depth, --max-score, --count and --out (try: condraughts "
             "study openings --help)");
    char command[1024];
    size_t cu = (size_t)snprintf(command, sizeof command, "condraughts study openings");
    for (int i = 0; i < argc && cu < sizeof command; i++)
        cu += (size_t)snprintf(command + cu, sizeof command - cu, " %s", argv[i]);
    const cd_rules *const *var = p.var;
    int nv = p.nv, plies = p.plies, depth = p.depth, margin = p.margin, count = p.count;
    uint64_t seed = p.seed;
    size_t hash = p.hash;
    const char *out = p.out;

    lines L;
    memset(&L, 0, sizeof L);
    cd_game *root = cd_game_new(var[0], NULL);
    if (!root)
        fail("out of memory");
    collect(root, plies, 0, &L);
    cd_game_free(root);
    if (!L.n)
        fail("no lines of %d plies in %s", plies, var[0]->name);

    cd_engine *e = cd_engine_new(hash);
    if (!e)
        fail("out of memory");
    cd_engine_set_eval(e, cli_eval());
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = depth;
    int *kept = malloc((size_t)L.n * sizeof *kept), nkept = 0, illegal = 0;
    if (!kept)
        fail("out of memory");
    int tty = isatty(2), tenth = 0;
    for (int i = 0; i < L.n; i++) {
        line *ln = &L.v[i];
        /* the position of the line under the first variant */
        cd_position want;
        cd_position_start(&want, var[0]);
        for (int k = 0; k < plies; k++)
            cd_play(&want, &ln->moves[k], &want);
        int ok = 1;
        for (int v = 0; v < nv && ok; v++) {
            cd_game *g = replay(var[v], ln->text, &want);
            if (!g) {
                ok = 0;
                illegal++;
                break;
            }
            cd_engine_clear(e);
            cd_search_result res;
            if (cd_search(e, g, &lim, NULL, NULL, &res) != CD_OK)
                ok = 0;
            int sc = cd_game_position(g)->side == CD_WHITE ? res.score : -res.score;
            ln->score[v] = sc;
            if (abs(sc) > ln->worst)
                ln->worst = abs(sc);
            cd_game_free(g);
        }
        if (ok && ln->worst <= margin)
            kept[nkept++] = i;
        int t = (int)(10L * (i + 1) / L.n);
        if (t != tenth || tty) {
            tenth = t;
            fprintf(stderr,
                    tty ? "\ropenings: %d/%d positions searched, %d kept"
                        : "openings: %d/%d positions searched, %d kept\n",
                    i + 1, L.n, nkept);
        }
    }
    if (tty)
        fputc('\n', stderr);
    cd_engine_free(e);
    if (!nkept)
        fail("no line is within %d of equal at depth %d", margin, depth);
    int chosen = nkept;
    if (nkept > count) {
        int *order = study_shuffle(nkept, seed);
        if (!order)
            fail("out of memory");
        int *pick = malloc((size_t)count * sizeof *pick);
        if (!pick)
            fail("out of memory");
        for (int i = 0; i < count; i++)
            pick[i] = kept[order[i]];
        qsort(pick, (size_t)count, sizeof *pick, cmp_int);
        memcpy(kept, pick, (size_t)count * sizeof *pick);
        free(pick);
        free(order);
        chosen = count;
    } else if (nkept < count) {
        fprintf(stderr, "condraughts study openings: only %d lines are within %d of equal\n", nkept,
                margin);
    }

    size_t cap = (size_t)chosen * 256 + 8192, used = 0;
    char *buf = malloc(cap);
    if (!buf)
        fail("out of memory");
    char para[2048];
    size_t pu = (size_t)snprintf(para, sizeof para, "Balanced %d-ply openings for %dx%d draughts (",
                                 plies, cd_rules_width(var[0]), cd_rules_height(var[0]));
    for (int v = 0; v < nv; v++)
        pu += (size_t)snprintf(para + pu, sizeof para - pu, "%s%s", v ? ", " : "", var[v]->name);
    snprintf(para + pu, sizeof para - pu,
             "), one line each, for `condraughts study` and "
             "`condraughts match --openings`.");
    used = comment(buf, cap, used, para);
    used += (size_t)snprintf(buf + used, cap - used, "#\n# Made by: %s\n#\n", command);
    snprintf(para, sizeof para,
             "Every line of %d plies from the start position (%ld lines, %d distinct positions) "
             "was searched to depth %d by condraughts %s in each variant above. Kept: the lines "
             "legal in every one of them, each leading to the same position there, whose "
             "scores are all within %d hundredths of a man of equal (%d lines; %d were not "
             "legal in all variants). Written: %d of them, chosen at random (seed %llu), in the "
             "order of the move generator. After each line: its scores, White's view, in "
             "hundredths of a man, in the order of the variants above.",
             plies, L.all, L.n, depth, CD_VERSION, margin, nkept, illegal, chosen,
             (unsigned long long)seed);
    used = comment(buf, cap, used, para);
    for (int i = 0; i < chosen && used < cap; i++) {
        const line *ln = &L.v[kept[i]];
        used += (size_t)snprintf(buf + used, cap - used, "%s  #", ln->text);
        for (int v = 0; v < nv; v++)
            used += (size_t)snprintf(buf + used, cap - used, " %+d", ln->score[v]);
        used += (size_t)snprintf(buf + used, cap - used, "\n");
    }
    if (used >= cap)
        fail("openings file too long");
    if (study_write_atomic(out, buf, used) != 0)
        fail("cannot write %s: %s", out, strerror(errno));
    printf("%s: %d openings of %d plies (%d of %d positions within %d at depth %d)\n", out, chosen,
           plies, nkept, L.n, margin, depth);
    free(buf);
    free(kept);
    free(L.v);
    free(L.seen);
    return 0;
}
