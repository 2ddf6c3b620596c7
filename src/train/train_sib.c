/*
 * train_sib.c -- `condraughts train siblings`: positions with the leaf of every legal move and
 * the move a deeper search prefers, for the ordering target of train fit (--siblings;
 * docs/training.md).
 *
 * Record i of a train gen file is drawn when a hash of (seed, i) falls below --share and its
 * position has at least two legal moves and more than --min-pieces pieces. The teacher searches
 * it for --nodes nodes from a cleared table of 8 MiB, with no game history; a position it scores
 * as won or lost is left out (every move's order is then the tables' or the mate's, not the
 * evaluation's). For each legal move the child is searched to --leaf-depth plies from a cleared
 * table of 1 MiB; its principal variation is played out, then the captures still due are played
 * by depth-1 searches until the side to move has none: the quiet position reached is the move's
 * leaf, the position whose static value the search would back up for that move. A move whose
 * leaf ends the game (no legal move) leaves the group out. Everything is a function of the
 * position, the limits and the weights, so the file is the same for any --threads.
 *
 * The file (CDTS): docs/formats.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "slurp.h"
#include "pool.h"
#include "train_data.h"

#define SIB_HDR  32
#define SIB_GRP  8
#define SIB_LEAF 32

typedef struct sib_shared {
    const sib_options *o;
    const record *rec;
    size_t *drawn; /* the indices of the records drawn, in order */
    sib_group *out;
    size_t n;
    atomic_size_t next, done, kept;
} sib_shared;

typedef struct pv_catch {
    int len;
    cd_move pv[CD_MAX_PLY];
} pv_catch;

static void catch_pv(const cd_search_info *info, void *user)
{
    pv_catch *c = user;
    c->len = info->pvlen;
    memcpy(c->pv, info->pv, (size_t)info->pvlen * sizeof c->pv[0]);
}

static int has_capture(const cd_position *p)
{
    cd_movelist l;
    int sq[64];
    return cd_generate(p, &l) > 0 && cd_move_captures(p, &l.moves[0], sq, 64) > 0;
}

/* Search *p to depth from a cleared table and play its principal variation (whole, or its first
 * move) on *p; 0 if the search fails or the game ends on the way. */
static int play_line(const sib_options *o, cd_engine *e, cd_position *p, int depth, int whole)
{
    cd_game *g = cd_game_new(o->rules, p);
    if (!g)
        fail("out of memory");
    cd_engine_clear(e);
    cd_limits l = {0};
    l.depth = depth;
    pv_catch pc = {0};
    cd_search_result res;
    cd_result rc = cd_search(e, g, &l, catch_pv, &pc, &res);
    cd_game_free(g);
    if (rc != CD_OK || !res.has_move)
        return 0;
    if (pc.len == 0) {
        pc.pv[0] = res.best;
        pc.len = 1;
    }
    for (int i = 0; i < (whole ? pc.len : 1); i++) {
        cd_play(p, &pc.pv[i], p);
        if (cd_count_moves(p) == 0)
            return 0;
    }
    return 1;
}

/* The leaf of the child c (module header): its line at --leaf-depth, then up to 39 captures still
 * due, each by a depth-1 search; 0 if the game ends on the way or captures remain. */
static int leaf_of(const sib_options *o, cd_engine *e, const cd_position *c, cd_position *leaf)
{
    cd_position p = *c;
    if (cd_count_moves(&p) == 0 || !play_line(o, e, &p, (int)o->leaf_depth, 1))
        return 0;
    for (int round = 1; has_capture(&p); round++)
        if (round == 40 || !play_line(o, e, &p, 1, 0))
            return 0;
    *leaf = p;
    return 1;
}

/* The group of record x; 0 if it is left out. */
static int make_group(const sib_options *o, cd_engine *teacher, cd_engine *shallow, const record *x,
                      sib_group *gr)
{
    cd_position p;
    train_position(o->rules, x, &p);
    if (cd_position_count(&p, CD_WHITE, -1) + cd_position_count(&p, CD_BLACK, -1) <= o->min_pieces)
        return 0;
    cd_movelist ml;
    int n = cd_generate(&p, &ml);
    if (n < 2)
        return 0;
    cd_game *g = cd_game_new(o->rules, &p);
    if (!g)
        fail("out of memory");
    cd_engine_clear(teacher);
    cd_limits l = {0};
    l.nodes = (uint64_t)o->nodes;
    cd_search_result res;
    cd_result rc = cd_search(teacher, g, &l, NULL, NULL, &res);
    cd_game_free(g);
    if (rc != CD_OK || !res.has_move || CD_SCORE_IS_WIN(res.score))
        return 0;
    int best = -1;
    for (int i = 0; i < n; i++)
        if (cd_move_equal(&ml.moves[i], &res.best))
            best = i;
    if (best < 0)
        return 0;
    gr->leaf = malloc((size_t)n * sizeof *gr->leaf);
    if (!gr->leaf)
        fail("out of memory");
    for (int i = 0; i < n; i++) {
        cd_position c, leaf;
        cd_play(&p, &ml.moves[i], &c);
        if (!leaf_of(o, shallow, &c, &leaf)) {
            free(gr->leaf);
            gr->leaf = NULL;
            return 0;
        }
        gr->leaf[i] = (sib_leaf){leaf.white[0], leaf.black[0], leaf.kings[0], (uint8_t)leaf.side};
    }
    gr->side = x->side;
    gr->n = (uint16_t)n;
    gr->best = (uint16_t)best;
    gr->score = (int16_t)res.score;
    return 1;
}

static int sib_worker(void *arg)
{
    sib_shared *s = arg;
    cd_engine *teacher = cd_engine_new(8), *shallow = cd_engine_new(1);
    if (!teacher || !shallow)
        fail("out of memory (engine)");
    cd_engine_set_eval(teacher, s->o->eval);
    cd_engine_set_eval(shallow, s->o->eval);
    for (;;) {
        size_t k = atomic_fetch_add(&s->next, 1);
        if (k >= s->n)
            break;
        if (make_group(s->o, teacher, shallow, &s->rec[s->drawn[k]], &s->out[k]))
            atomic_fetch_add(&s->kept, 1);
        atomic_fetch_add(&s->done, 1);
    }
    cd_engine_free(teacher);
    cd_engine_free(shallow);
    return 0;
}

static void put_header(FILE *f, const cd_rules *r, uint64_t groups)
{
    unsigned char h[SIB_HDR] = "CDTS";
    cd_put_le(h + 4, 1, 4);
    snprintf((char *)h + 8, 16, "%s", train_file_name(r));
    cd_put_le(h + 24, groups, 8);
    if (fseek(f, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, f) != sizeof h)
        fail("cannot write the siblings file");
}

typedef struct sib_run {
    sib_shared *s;
    double t0;
} sib_run;

/* Once a second: the progress line; 1 once every position drawn is done. */
static int sib_tick(void *arg)
{
    sib_run *run = arg;
    size_t n = run->s->n, done = atomic_load(&run->s->done);
    char extra[64];
    snprintf(extra, sizeof extra, "%zu kept", atomic_load(&run->s->kept));
    train_progress("siblings", done, n, "positions", extra, run->t0);
    return done >= n;
}

int train_siblings(const sib_options *o)
{
    size_t total, n, *drawn;
    record *rec =
        train_read_sample(o->data, o->rules, o->limit, o->share, o->seed, &total, &drawn, &n);
    sib_shared s = {o, rec, drawn, calloc(n + 1, sizeof(sib_group)), n, 0, 0, 0};
    if (!s.out)
        fail("out of memory");
    sib_run run = {&s, train_now()};
    cd_pool_run((int)o->threads, sib_worker, &s, 0, sib_tick, &run);
    fputc('\n', stderr);
    double t0 = run.t0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", o->out);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        fail("cannot write %s", o->out);
    put_header(f, o->rules, 0);
    uint64_t groups = 0, leaves = 0;
    for (size_t k = 0; k < n; k++) {
        const sib_group *g = &s.out[k];
        if (!g->leaf)
            continue;
        unsigned char b[SIB_GRP] = {g->side, 0};
        cd_put_le(b + 2, g->n, 2);
        cd_put_le(b + 4, g->best, 2);
        cd_put_le(b + 6, (uint16_t)g->score, 2);
        if (fwrite(b, 1, sizeof b, f) != sizeof b)
            fail("cannot write %s", o->out);
        for (int i = 0; i < g->n; i++) {
            unsigned char lb[SIB_LEAF] = {0};
            cd_put_le(lb, g->leaf[i].white, 8);
            cd_put_le(lb + 8, g->leaf[i].black, 8);
            cd_put_le(lb + 16, g->leaf[i].kings, 8);
            lb[24] = g->leaf[i].side;
            if (fwrite(lb, 1, sizeof lb, f) != sizeof lb)
                fail("cannot write %s", o->out);
        }
        groups++;
        leaves += g->n;
        free(g->leaf);
    }
    put_header(f, o->rules, groups);
    if (fclose(f) != 0 || rename(tmp, o->out) != 0)
        fail("cannot write %s", o->out);
    printf("wrote %s: %llu positions of %zu drawn (%llu leaves), teacher %ld nodes, leaves at "
           "depth %ld, %.0f s\n",
           o->out, (unsigned long long)groups, n, (unsigned long long)leaves, o->nodes,
           o->leaf_depth, train_now() - t0);
    free(rec);
    free(drawn);
    free(s.out);
    return 0;
}

static sib_group *read_siblings(const char *path, const cd_rules *r, size_t *n)
{
    size_t len;
    unsigned char *img = (unsigned char *)cd_slurp(path, (size_t)4 << 30, &len);
    if (!img)
        fail("cannot read %s", path);
    if (len < SIB_HDR || memcmp(img, "CDTS", 4) != 0)
        fail("%s is not a siblings file (train siblings writes them)", path);
    if (cd_get_le(img + 4, 4) != 1)
        fail("%s: siblings file version %u, expected 1", path, (unsigned)cd_get_le(img + 4, 4));
    char variant[17] = {0};
    memcpy(variant, img + 8, 16);
    const char *want = train_file_name(r);
    if (strcmp(variant, want) != 0)
        fail("%s holds %s positions, not %s", path, variant, want);
    uint64_t groups = cd_get_le(img + 24, 8);
    sib_group *out = calloc(groups + 1, sizeof *out);
    if (!out)
        fail("out of memory");
    size_t at = SIB_HDR;
    uint64_t board = cd_geom_playable(cd_geom_of(r));
    for (uint64_t k = 0; k < groups; k++) {
        if (len - at < SIB_GRP)
            fail("%s: truncated at group %llu", path, (unsigned long long)k);
        sib_group *g = &out[k];
        g->side = img[at];
        g->n = (uint16_t)cd_get_le(img + at + 2, 2);
        g->best = (uint16_t)cd_get_le(img + at + 4, 2);
        g->score = (int16_t)cd_get_le(img + at + 6, 2);
        at += SIB_GRP;
        if (g->side > 1 || g->n < 2 || g->n > CD_MAX_MOVES || g->best >= g->n ||
            len - at < (size_t)g->n * SIB_LEAF)
            fail("%s: group %llu is damaged or truncated", path, (unsigned long long)k);
        g->leaf = malloc((size_t)g->n * sizeof *g->leaf);
        if (!g->leaf)
            fail("out of memory");
        for (int i = 0; i < g->n; i++, at += SIB_LEAF) {
            sib_leaf *lf = &g->leaf[i];
            lf->white = cd_get_le(img + at, 8);
            lf->black = cd_get_le(img + at + 8, 8);
            lf->kings = cd_get_le(img + at + 16, 8);
            lf->side = img[at + 24];
            if (lf->side > 1 || (lf->white & lf->black) || (lf->kings & ~(lf->white | lf->black)) ||
                ((lf->white | lf->black) & ~board))
                fail("%s: group %llu, leaf %d is not a position", path, (unsigned long long)k, i);
        }
    }
    if (at != len)
        fail("%s: %zu bytes after the last group", path, len - at);
    free(img);
    *n = (size_t)groups;
    return out;
}

sib_group *train_read_siblings(const char *list, const cd_rules *r, size_t *n)
{
    size_t ng = 0;
    sib_group *sg = NULL;
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        fail("out of memory");
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t got;
        sib_group *part = read_siblings(tok, r, &got);
        sib_group *all = realloc(sg, (ng + got + 1) * sizeof *sg);
        if (!all)
            fail("out of memory");
        memcpy(all + ng, part, got * sizeof *part);
        free(part);
        sg = all;
        ng += got;
    }
    free(copy);
    *n = ng;
    return sg;
}
