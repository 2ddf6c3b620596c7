/*
 * test_egtb.c -- the tablebases against a plain minimax solver, and the file
 * checks.
 *
 * The solver shares nothing with the tablebase code but the public move
 * generator: it lists every position of up to P pieces by placing pieces on
 * squares one by one (cd_position_set), both sides to move, in a hash table
 * keyed by the Zobrist key; links each to its successors (cd_generate,
 * cd_play); and then solves by plain levels: at level k a position is won if
 * some successor was lost at level k - 1, lost if every successor was won by
 * level k - 1 (and one at k - 1). Every position of both colours is compared
 * with cd_egtb_probe (value and distance), so the colour-flip symmetry the
 * tables rely on is checked too.
 *
 * usage: test_egtb [--variant V --pieces P]... (default: the CI set)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/check.h"
#include "condraughts.h"

typedef struct node {
    cd_position pos;
    int first, count; /* successors in the edge array */
    int value, dist;  /* CD_EGTB_* (-1 unknown) */
} node;

typedef struct solver {
    node *nodes;
    int n, cap;
    int *slots; /* open addressing: node index + 1, 0 empty */
    size_t nslots;
    int *edges;
    size_t nedges, edgecap;
} solver;

static void die(const char *msg)
{
    fprintf(stderr, "test_egtb: %s\n", msg);
    exit(1);
}

static int find(const solver *s, uint64_t key)
{
    size_t h = (size_t)(key % s->nslots);
    while (s->slots[h]) {
        if (s->nodes[s->slots[h] - 1].pos.key == key)
            return s->slots[h] - 1;
        h = (h + 1) % s->nslots;
    }
    return -1;
}

static void add(solver *s, const cd_position *p)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1 << 16;
        s->nodes = realloc(s->nodes, (size_t)s->cap * sizeof *s->nodes);
        if (!s->nodes)
            die("out of memory");
    }
    node *nd = &s->nodes[s->n];
    nd->pos = *p;
    nd->value = -1;
    nd->dist = 0;
    size_t h = (size_t)(p->key % s->nslots);
    while (s->slots[h])
        h = (h + 1) % s->nslots;
    s->slots[h] = ++s->n;
}

/* Place pieces on squares from..N (ascending), up to `left` more. */
static void place(solver *s, cd_position *p, int from, int left, int nsq)
{
    int w = cd_position_count(p, CD_WHITE, -1), b = cd_position_count(p, CD_BLACK, -1);
    if (w > 0 && b > 0) {
        for (int side = 0; side < 2; side++) {
            cd_position q = *p;
            if (q.side != side) {
                /* flip the side to move keeping the key right: rebuild */
                cd_position r;
                cd_position_empty(&r, p->rules, side);
                for (int sq = 1; sq <= nsq; sq++)
                    if (cd_position_piece(p, sq) > 0)
                        cd_position_set(&r, sq, cd_position_piece(p, sq));
                q = r;
            }
            if (cd_position_validate(&q, NULL, 0) == CD_OK)
                add(s, &q);
        }
    }
    if (left == 0)
        return;
    for (int sq = from; sq <= nsq; sq++)
        for (int piece = CD_WHITE_MAN; piece <= CD_BLACK_KING; piece++) {
            cd_position q = *p;
            cd_position_set(&q, sq, piece);
            place(s, &q, sq + 1, left - 1, nsq);
        }
}

static int terminal_value(const cd_rules *r)
{
    return r->goal == CD_GOAL_LOSING ? CD_EGTB_WIN : CD_EGTB_LOSS;
}

static void solve(solver *s, int pieces, const cd_rules *rules)
{
    int nsq = cd_rules_squares(rules);
    s->nslots = 1 << 20;
    while (s->nslots < (size_t)nsq * nsq * nsq * 64 * 2 * 2)
        s->nslots <<= 1;
    s->slots = calloc(s->nslots, sizeof *s->slots);
    if (!s->slots)
        die("out of memory");
    cd_position empty;
    cd_position_empty(&empty, rules, CD_WHITE);
    place(s, &empty, 1, pieces, nsq);
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        die("out of memory");
    for (int i = 0; i < s->n; i++) {
        node *nd = &s->nodes[i];
        int nm = cd_generate(&nd->pos, list);
        nd->first = (int)s->nedges;
        nd->count = nm;
        for (int k = 0; k < nm; k++) {
            cd_position c;
            cd_play(&nd->pos, &list->moves[k], &c);
            int j = find(s, c.key);
            if (j < 0) { /* the side to move has no piece left: it has no move */
                if (cd_position_count(&c, c.side, -1) != 0)
                    die("a successor is missing from the solver's table");
                j = -1;
            }
            if (s->nedges == s->edgecap) {
                s->edgecap = s->edgecap ? 2 * s->edgecap : 1 << 20;
                s->edges = realloc(s->edges, s->edgecap * sizeof *s->edges);
                if (!s->edges)
                    die("out of memory");
            }
            s->edges[s->nedges++] = j;
        }
    }
    free(list);
    /* level 0: no move */
    int tv = terminal_value(rules);
    for (int i = 0; i < s->n; i++)
        if (s->nodes[i].count == 0) {
            s->nodes[i].value = tv;
            s->nodes[i].dist = 0;
        }
    for (int k = 1;; k++) {
        int found = 0;
        for (int i = 0; i < s->n; i++) {
            node *nd = &s->nodes[i];
            if (nd->value >= 0)
                continue;
            int win = 0, allwon = 1, maxw = -1;
            for (int e = 0; e < nd->count; e++) {
                int j = s->edges[nd->first + e];
                int v = j < 0 ? tv : s->nodes[j].value;
                int d = j < 0 ? 0 : s->nodes[j].dist;
                if (v >= 0 && d >= k) /* found at this level: not yet known at k - 1 */
                    v = -1;
                if (v == CD_EGTB_LOSS && d == k - 1)
                    win = 1;
                if (v != CD_EGTB_WIN)
                    allwon = 0;
                else if (d > maxw)
                    maxw = d;
            }
            if (win) {
                nd->value = CD_EGTB_WIN;
                nd->dist = k;
                found++;
            } else if (allwon && maxw == k - 1) {
                nd->value = CD_EGTB_LOSS;
                nd->dist = k;
                found++;
            }
        }
        if (!found)
            break;
    }
    for (int i = 0; i < s->n; i++)
        if (s->nodes[i].value < 0) {
            s->nodes[i].value = CD_EGTB_DRAW;
            s->nodes[i].dist = 0;
        }
}

static void progress_quiet(const char *sig, const char *phase, uint64_t done, uint64_t total,
                           uint64_t all_done, uint64_t all_total, void *user)
{
    (void)sig, (void)phase, (void)done, (void)total, (void)all_done, (void)all_total, (void)user;
}

static void compare(const char *variant, int pieces, const char *dir)
{
    const cd_rules *r = cd_rules_find(variant);
    if (!r)
        die("unknown variant");
    cd_egtb *tb = cd_egtb_open(r, dir);
    CHECK(tb != NULL);
    if (!tb)
        return;
    char err[1024];
    cd_result rc = cd_egtb_build(tb, pieces, 0, 2, progress_quiet, NULL, err, sizeof err);
    CHECK(rc == CD_OK);
    if (rc != CD_OK) {
        fprintf(stderr, "build failed: %s\n", err);
        cd_egtb_close(tb);
        return;
    }
    solver s = {0};
    solve(&s, pieces, r);
    int bad = 0;
    long count[3] = {0, 0, 0};
    for (int i = 0; i < s.n; i++) {
        int d, v = cd_egtb_probe(tb, &s.nodes[i].pos, &d);
        count[s.nodes[i].value]++;
        if (v != s.nodes[i].value || (v != CD_EGTB_DRAW && d != s.nodes[i].dist)) {
            if (bad++ < 5) {
                char fen[256];
                cd_position_to_fen(&s.nodes[i].pos, 0, fen, sizeof fen);
                fprintf(stderr, "%s %s: table %d/%d, solver %d/%d\n", variant, fen, v, d,
                        s.nodes[i].value, s.nodes[i].dist);
            }
        }
    }
    CHECK(bad == 0);
    printf("egtb %s <= %d pieces: %d positions (both colours) compared with the solver, "
           "%ld wins %ld draws %ld losses, %d mismatches\n",
           variant, pieces, s.n, count[CD_EGTB_WIN], count[CD_EGTB_DRAW], count[CD_EGTB_LOSS], bad);
    free(s.nodes);
    free(s.slots);
    free(s.edges);
    cd_egtb_close(tb);
}

/* ---------------------------------------------------------------- file checks */

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int ok = a && b;
    int c;
    while (ok && (c = fgetc(a)) != EOF)
        fputc(c, b);
    if (a)
        fclose(a);
    if (b)
        fclose(b);
    return ok ? 0 : -1;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* cd_egtb_probe_ready's answer once a background check has settled: unknown, with no error,
 * only while the table is being checked (at most 10 s here for a table of a few bytes). */
static int probe_settled(cd_egtb *tb, const cd_position *p, int *d)
{
    int v = CD_EGTB_UNKNOWN;
    for (int i = 0; i < 10000; i++) {
        v = cd_egtb_probe_ready(tb, p, d);
        if (v != CD_EGTB_UNKNOWN || cd_egtb_error(tb)[0])
            break;
        usleep(1000);
    }
    return v;
}

/* Damage the K_K table of `dir` in one way and check the probe says so; sync: the payload size
 * up to which the checksum is checked at the first probe (0: every table in the background);
 * wait: probe once with cd_egtb_probe (else cd_egtb_probe_ready until the check is done). */
static void damaged(const char *dir, const char *how, const char *want, size_t sync, int wait)
{
    const cd_rules *r = cd_rules_find("constitutional");
    char path[512], save[600];
    snprintf(path, sizeof path, "%s/constitutional-K_K.cdtb", dir);
    snprintf(save, sizeof save, "%s.good", path);
    CHECK(copy_file(path, save) == 0);
    long size = file_size(path);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    if (!strcmp(how, "payload")) {
        fseek(f, size - 10, SEEK_SET);
        int c = fgetc(f);
        fseek(f, size - 10, SEEK_SET);
        fputc(c ^ 0x40, f);
        fclose(f);
    } else if (!strcmp(how, "header")) {
        fseek(f, 60, SEEK_SET);
        fputc(0x7f, f);
        fclose(f);
    } else if (!strcmp(how, "magic")) {
        fputs("GARBAGE!", f);
        fclose(f);
    } else if (!strcmp(how, "truncate")) {
        fclose(f);
        CHECK(truncate(path, size / 2) == 0);
    } else if (!strcmp(how, "append")) {
        fseek(f, 0, SEEK_END);
        fputc('x', f);
        fclose(f);
    }
    cd_egtb *tb = cd_egtb_open(r, dir);
    cd_egtb_set_check_sync(tb, sync);
    cd_position p;
    CHECK(cd_position_from_fen(&p, r, "W:WK35:BK3", NULL, 0) == CD_OK);
    int d, v = wait ? cd_egtb_probe(tb, &p, &d) : probe_settled(tb, &p, &d);
    CHECK(v == CD_EGTB_UNKNOWN);
    const char *e = cd_egtb_error(tb);
    if (!strstr(e, want)) {
        fprintf(stderr, "damage %s: error '%s' does not say '%s'\n", how, e, want);
        CHECK(0);
    }
    cd_egtb_close(tb);
    CHECK(rename(save, path) == 0);
}

static void file_checks(const char *dir)
{
    const cd_rules *r = cd_rules_find("constitutional");
    cd_egtb *tb = cd_egtb_open(r, dir);
    char err[512];
    CHECK(cd_egtb_build(tb, 2, 0, 1, NULL, NULL, err, sizeof err) == CD_OK);
    cd_egtb_close(tb);
    /* the article's diagram 4: White to move wins with 1.35-13 */
    tb = cd_egtb_open(r, dir);
    cd_position p;
    CHECK(cd_position_from_fen(&p, r, "W:WK35:BK3", NULL, 0) == CD_OK);
    int d, v = cd_egtb_probe(tb, &p, &d);
    CHECK(v == CD_EGTB_WIN);
    CHECK(cd_egtb_pieces(tb) == 2);
    cd_egtb_close(tb);
    damaged(dir, "payload", "checksum mismatch", 1 << 20, 1);
    damaged(dir, "header", "header checksum", 1 << 20, 1);
    damaged(dir, "magic", "not a condraughts table", 1 << 20, 1);
    damaged(dir, "truncate", "truncated", 1 << 20, 1);
    damaged(dir, "append", "trailing bytes", 1 << 20, 1);
    /* checked in the background: the same answers once the check is done */
    damaged(dir, "payload", "checksum mismatch", 0, 0);
    damaged(dir, "truncate", "truncated", 0, 0);
    tb = cd_egtb_open(r, dir);
    cd_egtb_set_check_sync(tb, 0);
    CHECK(probe_settled(tb, &p, &d) == CD_EGTB_WIN && d == 3);
    CHECK(cd_egtb_pieces(tb) == 2);
    cd_egtb_close(tb);
    /* cd_egtb_probe waits for the check: the answer at the first probe */
    tb = cd_egtb_open(r, dir);
    cd_egtb_set_check_sync(tb, 0);
    CHECK(cd_egtb_probe(tb, &p, &d) == CD_EGTB_WIN && d == 3);
    cd_egtb_close(tb);
    damaged(dir, "payload", "checksum mismatch", 0, 1); /* the first cd_egtb_probe says so too */
    /* a build checks every table it keeps, whatever the size: a damaged one is built again */
    {
        char path[512];
        snprintf(path, sizeof path, "%s/constitutional-K_K.cdtb", dir);
        long size = file_size(path);
        FILE *f = fopen(path, "r+b");
        CHECK(f != NULL);
        if (f) {
            fseek(f, size - 10, SEEK_SET);
            int c = fgetc(f);
            fseek(f, size - 10, SEEK_SET);
            fputc(c ^ 0x40, f);
            fclose(f);
        }
        tb = cd_egtb_open(r, dir);
        cd_egtb_set_check_sync(tb, 0);
        CHECK(cd_egtb_build(tb, 2, 0, 1, NULL, NULL, err, sizeof err) == CD_OK);
        cd_egtb_close(tb);
        tb = cd_egtb_open(r, dir);
        CHECK(cd_egtb_probe(tb, &p, &d) == CD_EGTB_WIN && d == 3);
        CHECK(cd_egtb_error(tb)[0] == '\0');
        cd_egtb_close(tb);
    }
    /* a table of other rules under this name */
    char from[512], to[512];
    const cd_rules *ri = cd_rules_find("international");
    cd_egtb *ti = cd_egtb_open(ri, dir);
    CHECK(cd_egtb_build(ti, 2, 0, 1, NULL, NULL, err, sizeof err) == CD_OK);
    cd_egtb_close(ti);
    snprintf(from, sizeof from, "%s/international-K_K.cdtb", dir);
    snprintf(to, sizeof to, "%s/constitutional-K_K.cdtb", dir);
    CHECK(rename(from, to) == 0);
    tb = cd_egtb_open(r, dir);
    CHECK(cd_egtb_probe(tb, &p, &d) == CD_EGTB_UNKNOWN);
    CHECK(strstr(cd_egtb_error(tb), "built for other rules") != NULL);
    cd_egtb_close(tb);
    /* missing table: unknown, with the reason */
    remove(to);
    tb = cd_egtb_open(r, dir);
    CHECK(cd_egtb_probe(tb, &p, &d) == CD_EGTB_UNKNOWN);
    CHECK(strstr(cd_egtb_error(tb), "no such table") != NULL);
    cd_egtb_close(tb);
    /* boards without tables */
    CHECK(cd_egtb_open(cd_rules_find("canadian"), dir) == NULL);
}

/* The engine with tables: the fastest win, the slowest loss, a draw scored 0. */
static void engine_search(cd_egtb *tb, const cd_rules *r, const char *fen, const char *want_move,
                          int want_score)
{
    cd_position p;
    CHECK(cd_position_from_fen(&p, r, fen, NULL, 0) == CD_OK);
    cd_game *g = cd_game_new(r, &p);
    cd_engine *e = cd_engine_new(1);
    cd_engine_set_egtb(e, tb);
    cd_limits l = {0};
    l.depth = 3;
    cd_search_result res;
    CHECK(cd_search(e, g, &l, NULL, NULL, &res) == CD_OK);
    char mv[64];
    cd_move_to_text(&p, &res.best, 0, mv, sizeof mv);
    if (want_move)
        CHECK_STR(mv, want_move);
    if (res.score != want_score) {
        fprintf(stderr, "%s: engine score %d, want %d\n", fen, res.score, want_score);
        CHECK(0);
    }
    cd_engine_free(e);
    cd_game_free(g);
}

static void engine_checks(const char *dir)
{
    char err[512];
    const cd_rules *c = cd_rules_find("constitutional"), *i = cd_rules_find("international");
    cd_egtb *tc = cd_egtb_open(c, dir), *ti = cd_egtb_open(i, dir);
    CHECK(cd_egtb_build(tc, 3, 0, 2, NULL, NULL, err, sizeof err) == CD_OK);
    CHECK(cd_egtb_build(ti, 3, 0, 2, NULL, NULL, err, sizeof err) == CD_OK);
    /* read again, every table checked in the background: a search without a clock waits for
     * the checks (the exact scores below, the same every run) */
    cd_egtb_close(tc);
    tc = cd_egtb_open(c, dir);
    cd_egtb_set_check_sync(tc, 0);
    /* the article's diagram 6: 1.15-10! wins in 5 plies (15-20 and 15-24 too; the
     * generator lists 15-10 first) */
    engine_search(tc, c, "W:WK15,K27:BK23", "15-10", CD_SCORE_WIN - 5);
    /* after 1.15-10 23x5 2.27-4: Black's only move, lost in 2 */
    engine_search(tc, c, "B:WK4:BK5", "5-10", -(CD_SCORE_WIN - 2));
    /* under International the same position is a draw */
    engine_search(ti, i, "W:WK15,K27:BK23", NULL, 0);
    /* the article's diagram 4: 1.35-13! wins (3 plies) */
    int d;
    cd_position p;
    CHECK(cd_position_from_fen(&p, c, "W:WK35:BK3", NULL, 0) == CD_OK);
    CHECK(cd_egtb_probe(tc, &p, &d) == CD_EGTB_WIN && d == 3);
    cd_egtb_close(tc);
    cd_egtb_close(ti);
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/cd-egtb-XXXXXX";
    if (!mkdtemp(dir))
        die("mkdtemp failed");
    int ran = 0;
    for (int i = 1; i + 3 < argc + 1 && i + 1 < argc; i += 4) {
        if (strcmp(argv[i], "--variant") || i + 3 >= argc || strcmp(argv[i + 2], "--pieces"))
            die("usage: test_egtb [--variant V --pieces P]...");
        compare(argv[i + 1], atoi(argv[i + 3]), dir);
        ran = 1;
    }
    if (!ran) {
        compare("constitutional", 3, dir);
        compare("international", 3, dir);
        compare("killer", 3, dir);
        compare("russian-constitutional", 3, dir);
        compare("english", 3, dir);
        compare("antidraughts", 3, dir);
    }
    char fdir[64];
    snprintf(fdir, sizeof fdir, "%s/files", dir);
    mkdir(fdir, 0777);
    file_checks(fdir);
    char edir[64];
    snprintf(edir, sizeof edir, "%s/engine", dir);
    mkdir(edir, 0777);
    engine_checks(edir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_egtb: could not remove %s\n", dir);
    printf("test_egtb: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
