/*
 * train_fit.c -- `condraughts train fit`: logistic regression of the learned evaluation's weights
 * on train gen's data (the method is in train.c's header and docs/training.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "condraughts.h"
#include "engine.h"
#include "pattern.h"
#include "slurp.h"
#include "train_data.h"
#include "train_model.h"

/* ------------------------------------------------------------------ fit */

/* A position's kings beyond this many are too rare to train on: such positions are left out. */
#define SAMPLE_KINGS 22

typedef struct sample {
    uint16_t config[CD_PAT_MAX_REG + CD_PAT_MAX_STRIPS]; /* windows, then strips */
    int16_t scalar[CD_PAT_SCALARS];
    int8_t king[SAMPLE_KINGS]; /* cd_pattern_features.king */
    uint8_t kings;
    float phase;  /* middle-game share, 0..1 */
    float target; /* result mixed with the search score, White's view, 0..1 */
    float result; /* the game result alone */
    int16_t classic;
} sample;

/* The position turned 180 degrees with colours and side to move exchanged. */
static uint64_t rotate(const cd_geom *g, uint64_t bb)
{
    uint64_t out = 0;
    for (uint64_t x = bb; x; x &= x - 1) {
        int n = cd_internal_of_bit(g, __builtin_ctzll(x));
        out |= 1ull << cd_bit_of_internal(g, g->squares + 1 - n);
    }
    return out;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* The sample of a record (turned round if flip); 0 if it has too many kings to keep. */
static int make_sample(const cd_rules *r, const cd_pattern_layout *l, const record *x, int flip,
                       double k, double lambda, sample *s)
{
    record t = *x;
    if (flip) {
        const cd_geom *g = cd_geom_of(r);
        t.white = rotate(g, x->black);
        t.black = rotate(g, x->white);
        t.kings = rotate(g, x->kings);
        t.side = x->side ^ 1;
        t.result = (uint8_t)(2 - x->result);
        t.score = (int16_t)-x->score;
    }
    cd_position p;
    train_position(r, &t, &p);
    double y = t.result / 2.0, sc = t.score;
    cd_pattern_features f;
    cd_pattern_features_of(&p, l, &f);
    if (f.kings > SAMPLE_KINGS)
        return 0;
    memcpy(s->config, f.config, sizeof s->config);
    memcpy(s->scalar, f.scalar, sizeof s->scalar);
    memcpy(s->king, f.king, (size_t)f.kings);
    s->kings = (uint8_t)f.kings;
    s->phase = (float)f.phase / (float)f.start;
    s->result = (float)y;
    s->target = (float)((1 - lambda) * y + lambda * sigmoid(sc / k));
    s->classic = white_score(CD_WHITE, cd_eval_classic_white(&p));
    return 1;
}

/* Mean log loss of predicting y with sigmoid(score / k). */
static double logloss(double p, double y)
{
    const double eps = 1e-9;
    return -(y * log(p + eps) + (1 - y) * log(1 - p + eps));
}

static double classic_loss(const sample *s, size_t n, double k)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += logloss(sigmoid(s[i].classic / k), s[i].result);
    return sum / (double)n;
}

/* K minimising the hand-set evaluation's loss on the results (golden section, 10..2000). */
static double fit_k(const sample *s, size_t n)
{
    double a = 10, b = 2000, g = (sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    for (int it = 0; it < 60; it++) {
        if (classic_loss(s, n, c) < classic_loss(s, n, d))
            b = d;
        else
            a = c;
        c = b - g * (b - a);
        d = a + g * (b - a);
    }
    return (a + b) / 2;
}

/*
 * The model while it is trained: each window's weight is a residual of its own plus the
 * piece-square values of the men in it, a square's value shared out over the windows that hold
 * it (1/k each for a square in k windows). The piece-square values learn from every position,
 * the residuals only from their own configuration (with L2), so a rare configuration still gets
 * a sensible weight. On writing, the piece-square values are folded into the window weights:
 * the file and the engine know windows only.
 * The flank strips (pattern.h), where the layout has them, are residuals alone: the piece-square
 * values are shared over the windows only.
 * Parameters: residuals [region][config][phase], the strips' [strip][config][phase], scalars
 * [scalar][phase], king squares [square][phase], then piece-square values [square][white man,
 * black man][phase].
 */
typedef struct model {
    int regions, strips, squares;
    size_t nwin; /* the first strip parameter */
    size_t npat, nksq, npsq, nparam; /* first scalar, king square, piece-square value; all */
    float *w, *m, *v, *grad;
    int *touched, ntouched;
    unsigned char *mark;
    int sq[CD_PAT_MAX_REG][CD_PAT_SQUARES];      /* the window's i-th square (0-based square) */
    float share[CD_PAT_MAX_REG][CD_PAT_SQUARES]; /* 1 / windows holding that square */
} model;

static uint8_t digits[CD_PAT_CONFIGS][CD_PAT_SQUARES];

static void model_layout(model *md, const cd_pattern_layout *l, const cd_geom *g)
{
    for (int c = 0; c < CD_PAT_CONFIGS; c++)
        for (int i = 0, x = c; i < CD_PAT_SQUARES; i++, x /= 3)
            digits[c][i] = (uint8_t)(x % 3);
    int windows[128] = {0};
    for (int r = 0; r < l->regions; r++)
        for (uint64_t x = l->mask[r]; x; x &= x - 1)
            windows[__builtin_ctzll(x)]++;
    for (int r = 0; r < l->regions; r++) {
        int i = 0;
        for (uint64_t x = l->mask[r]; x; x &= x - 1, i++) {
            int bit = __builtin_ctzll(x);
            md->sq[r][i] = cd_internal_of_bit(g, bit) - 1;
            md->share[r][i] = 1.0f / (float)windows[bit];
        }
    }
    md->squares = g->squares;
}

static inline size_t psq_idx(const model *md, int sq, int digit, int ph)
{
    return md->npsq + ((size_t)sq * 2 + (size_t)(digit - 1)) * 2 + (size_t)ph;
}

static inline size_t pidx(int r, int c, int ph)
{
    return ((size_t)r * CD_PAT_CONFIGS + c) * 2 + ph;
}

static inline size_t sidx(const model *md, int s, int c, int ph)
{
    return md->nwin + ((size_t)s * CD_PAT_STRIP_CONFIGS + c) * 2 + ph;
}

/* The weight of configuration c of region r, a window's or (at or past the windows) a strip's. */
static inline size_t region_idx(const model *md, int r, int c, int ph)
{
    return r < md->regions ? pidx(r, c, ph) : sidx(md, r - md->regions, c, ph);
}

static double predict(const model *md, const sample *s)
{
    double mg = 0, eg = 0;
    for (int r = 0; r < md->regions; r++) {
        mg += md->w[pidx(r, s->config[r], 0)];
        eg += md->w[pidx(r, s->config[r], 1)];
    }
    for (int t = 0; t < md->strips; t++) {
        mg += md->w[sidx(md, t, s->config[md->regions + t], 0)];
        eg += md->w[sidx(md, t, s->config[md->regions + t], 1)];
    }
    for (int k = 0; k < CD_PAT_SCALARS; k++) {
        mg += s->scalar[k] * md->w[md->npat + 2 * k];
        eg += s->scalar[k] * md->w[md->npat + 2 * k + 1];
    }
    for (int i = 0; i < s->kings; i++) {
        int v = s->king[i], sign = v > 0 ? 1 : -1;
        size_t at = md->nksq + 2 * (size_t)(v * sign - 1);
        mg += sign * md->w[at];
        eg += sign * md->w[at + 1];
    }
    for (int r = 0; r < md->regions; r++) {
        const uint8_t *d = digits[s->config[r]];
        for (int i = 0; i < CD_PAT_SQUARES; i++)
            if (d[i]) {
                mg += md->share[r][i] * md->w[psq_idx(md, md->sq[r][i], d[i], 0)];
                eg += md->share[r][i] * md->w[psq_idx(md, md->sq[r][i], d[i], 1)];
            }
    }
    return s->phase * mg + (1 - s->phase) * eg;
}

static void add_grad(model *md, size_t i, double g)
{
    if (!md->mark[i]) {
        md->mark[i] = 1;
        md->touched[md->ntouched++] = (int)i;
    }
    md->grad[i] += (float)g;
}

/* Fisher-Yates on a[0..n) with the seeded generator. */
static void shuffle(size_t *a, size_t n, uint64_t *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix(rng) % i);
        size_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* Add g, the loss's derivative by the predicted score of s, to every parameter s uses. */
static void add_sample_grad(model *md, const sample *s, double g)
{
    double gm = g * s->phase, ge = g * (1 - s->phase);
    for (int rr = 0; rr < md->regions; rr++) {
        add_grad(md, pidx(rr, s->config[rr], 0), gm);
        add_grad(md, pidx(rr, s->config[rr], 1), ge);
    }
    for (int t = 0; t < md->strips; t++) {
        add_grad(md, sidx(md, t, s->config[md->regions + t], 0), gm);
        add_grad(md, sidx(md, t, s->config[md->regions + t], 1), ge);
    }
    for (int kk = 0; kk < CD_PAT_SCALARS; kk++)
        if (s->scalar[kk]) {
            add_grad(md, md->npat + 2 * kk, gm * s->scalar[kk]);
            add_grad(md, md->npat + 2 * kk + 1, ge * s->scalar[kk]);
        }
    for (int i = 0; i < s->kings; i++) {
        int v = s->king[i], sign = v > 0 ? 1 : -1;
        size_t at = md->nksq + 2 * (size_t)(v * sign - 1);
        add_grad(md, at, gm * sign);
        add_grad(md, at + 1, ge * sign);
    }
    for (int rr = 0; rr < md->regions; rr++) {
        const uint8_t *d = digits[s->config[rr]];
        for (int i = 0; i < CD_PAT_SQUARES; i++)
            if (d[i]) {
                add_grad(md, psq_idx(md, md->sq[rr][i], d[i], 0), gm * md->share[rr][i]);
                add_grad(md, psq_idx(md, md->sq[rr][i], d[i], 1), ge * md->share[rr][i]);
            }
    }
}

/*
 * The ordering target (--siblings): a position's legal moves, each scored by the static value
 * of its leaf (train_sib.c) from the side to move's view, divided by the temperature T, make a
 * softmax; the loss is minus the log of the teacher's move's share. It asks that the move a
 * deeper search prefers be the one the leaves' values rank first, which is what a search needs
 * of its evaluation, rather than that each position's value predict its game.
 */
typedef struct rank_group_t {
    size_t first; /* its leaves' samples: leaves[first .. first + n) */
    int n, best;
    int sign; /* +1: White to move at the position, -1: Black */
} rank_group_t;

/* The loss of group g (and its gradient times weight added when learn); *top: 1 when the
 * teacher's move has the highest value. */
static double rank_group(model *md, const sample *leaves, const rank_group_t *g, double temp,
                         double weight, int learn, int *top)
{
    static _Thread_local double v[CD_MAX_MOVES];
    double hi = -1e300;
    int arg = 0;
    for (int i = 0; i < g->n; i++) {
        v[i] = g->sign * predict(md, &leaves[g->first + (size_t)i]) / temp;
        if (v[i] > hi) {
            hi = v[i];
            arg = i;
        }
    }
    double z = 0;
    for (int i = 0; i < g->n; i++)
        z += (v[i] = exp(v[i] - hi));
    *top = arg == g->best || v[arg] == v[g->best];
    double loss = -log(v[g->best] / z);
    if (learn)
        for (int i = 0; i < g->n; i++)
            add_sample_grad(md, &leaves[g->first + (size_t)i],
                            weight * (v[i] / z - (i == g->best)) * g->sign / temp);
    return loss;
}

/* Mean loss and share of the teacher's move ranked first over groups [a, b). */
static void rank_report(model *md, const sample *leaves, const rank_group_t *groups, size_t a,
                        size_t b, double temp, double *loss, double *top1)
{
    double sum = 0, tops = 0;
    for (size_t i = a; i < b; i++) {
        int top;
        sum += rank_group(md, leaves, &groups[i], temp, 0, 0, &top);
        tops += top;
    }
    *loss = b > a ? sum / (double)(b - a) : 0;
    *top1 = b > a ? tops / (double)(b - a) : 0;
}

/* Where parameter i (below md->npsq: windows, strips, scalars, king squares) sits in a weights
 * file. */
static int16_t *file_slot(const model *md, cd_pattern_weights *w, size_t i)
{
    if (i < md->nwin)
        return &w->pat[i / (2 * CD_PAT_CONFIGS)][(i / 2) % CD_PAT_CONFIGS][i % 2];
    if (i < md->npat) {
        size_t j = i - md->nwin;
        return &w->strip[j / (2 * CD_PAT_STRIP_CONFIGS)][(j / 2) % CD_PAT_STRIP_CONFIGS][j % 2];
    }
    if (i < md->nksq)
        return &w->scalar[(i - md->npat) / 2][(i - md->npat) % 2];
    return &w->king_square[(i - md->nksq) / 2][(i - md->nksq) % 2];
}

/* Start from a weights file of the same board (--init): its window weights, scalars and king
 * squares; the piece-square values start at 0, as the file holds them folded into the windows.
 * The file is normally of the variant's family; one of another family on the same board starts
 * a new family from a related one, and the output is the variant's. A file of the narrow layout
 * can start a wide fit: the wide layout begins with the narrow one's windows, and the windows it
 * adds start at 0; so do the strips of a fit with strips from a file without them. A file
 * blended by the pieces can start a fit by the pip phase (its weights a starting point, said on
 * stderr); one by the pip phase needs --pip. A file that does not fit stops the program with the
 * reader's message. */
static void init_from(model *md, const cd_pattern_layout *l, const cd_rules *r, const char *path)
{
    size_t len;
    unsigned char *img = (unsigned char *)cd_slurp(path, (size_t)64 << 20, &len);
    if (!img)
        fail("cannot read %s: %s", path, strerror(errno));
    cd_pattern_weights *w = malloc(sizeof *w);
    char err[256];
    if (!w)
        fail("out of memory");
    if (cd_pattern_read(w, img, len, err, sizeof err) != CD_OK)
        fail("%s: %s", path, err);
    const char *family = cd_pattern_family_name(cd_pattern_family(r));
    if (strcmp(w->family, family) != 0) {
        if ((int)w->layout.geometry != (int)r->geometry)
            fail("%s holds %s weights, not %s", path, w->family, family);
        fprintf(stderr, "train fit: starting the %s weights from %s's (%s)\n", family, w->family,
                path);
    }
    if (w->layout.regions > l->regions)
        fail("%s holds the wide layout (%d windows): give --wide", path, w->layout.regions);
    if (w->layout.strips > l->strips)
        fail("%s holds flank strips: give --strips", path);
    if (w->layout.pip > l->pip)
        fail("%s blends its weights by the pip phase: give --pip", path);
    if (w->layout.pip < l->pip)
        fprintf(stderr,
                "train fit: %s blends its weights by the pieces; they start a fit by the pip "
                "phase\n",
                path);
    for (size_t i = 0; i < md->npsq; i++) {
        int absent = i < md->nwin ? (int)(i / (2 * CD_PAT_CONFIGS)) >= w->layout.regions
                                  : i < md->npat && !w->layout.strips;
        md->w[i] = absent ? 0.0f : (float)*file_slot(md, w, i) / CD_PAT_UNIT;
    }
    free(w);
    free(img);
}

int train_fit(const fit_options *o)
{
    const cd_rules *r = o->rules;
    const char *data = o->data, *out = o->out;
    long epochs = o->epochs, batch = o->batch;
    double lr = o->lr, lambda = o->lambda, l2 = o->l2, valid = o->valid;
    uint64_t seed = o->seed;
    cd_pattern_layout layout;
    cd_pattern_layout_wide(r->geometry, o->wide, &layout);
    cd_pattern_layout_family(cd_pattern_family(r), &layout);
    if (o->strips && !cd_pattern_layout_strips(&layout))
        fail("--strips: the flank strips are for 10x10 boards only");
    layout.pip = o->pip;

    /* the records of every file; games numbered apart per file */
    size_t nrec, ndeep = 0;
    uint32_t game_base;
    record *rec = train_read_labelled(data, o->labels, r, &nrec, &game_base);
    for (size_t i = 0; i < nrec; i++)
        ndeep += rec[i].deep;
    if (nrec < 100)
        fail("too little data: %zu positions", nrec);
    double t0 = train_now();

    /* split by game: the last share of game numbers is held out; a deep record's training
     * samples are there deep_weight times over, as if the record were in the data that many
     * times in a row (held out once; K is fitted on one copy) */
    uint32_t cut = (uint32_t)((double)game_base * (1 - valid));
    size_t ntrain = 0, nvalid = 0, dw = (size_t)o->deep_weight;
    for (size_t i = 0; i < nrec; i++)
        *(rec[i].game < cut ? &ntrain : &nvalid) += rec[i].deep && rec[i].game < cut ? 2 * dw : 2;
    sample *tr = malloc(ntrain * sizeof *tr + 1), *va = malloc(nvalid * sizeof *va + 1);
    if (!tr || !va)
        fail("out of memory for %zu samples", ntrain + nvalid);
    /* K first (given, or fitted to the results alone), then the samples with their targets */
    double k = o->k > 0 ? o->k : 100;
    double deep_lambda = o->deep_lambda < 0 ? lambda : o->deep_lambda;
    for (int pass = o->k > 0; pass < 2; pass++) {
        size_t a = 0, b = 0;
        for (size_t i = 0; i < nrec; i++) {
            int train = rec[i].game < cut;
            double lam = pass == 0 ? 0 : rec[i].deep ? deep_lambda : lambda;
            size_t copies = pass && train && rec[i].deep ? dw : 1;
            for (size_t c = 0; c < copies; c++)
                for (int flip = 0; flip < 2; flip++) {
                    sample *s = train ? &tr[a] : &va[b];
                    if (make_sample(r, &layout, &rec[i], flip, k, lam, s))
                        *(train ? &a : &b) += 1;
                }
        }
        ntrain = a;
        nvalid = b;
        if (pass == 0)
            k = fit_k(tr, ntrain);
    }
    free(rec);
    printf("fit %s: %zu training and %zu held-out samples (positions and their colour-reversed "
           "twins), %u games; K = %.1f%s\n",
           r->name, ntrain, nvalid, game_base, k, o->k > 0 ? " (--k)" : "");
    if (ndeep)
        printf("%zu positions scored again by train label, lambda %.2f, weight %ld\n", ndeep,
               deep_lambda, o->deep_weight);
    printf("hand-set evaluation: loss %.5f training, %.5f held out\n", classic_loss(tr, ntrain, k),
           nvalid ? classic_loss(va, nvalid, k) : 0.0);

    /* the ordering target's groups: each position's leaves as samples, with its colour-reversed
     * twin; the last --valid share held out */
    sample *leaves = NULL;
    rank_group_t *groups = NULL;
    size_t ngroups = 0, ntg = 0, *gorder = NULL;
    if (o->siblings) {
        size_t ng, nleaf = 0;
        sib_group *sg = train_read_siblings(o->siblings, r, &ng);
        for (size_t i = 0; i < ng; i++)
            nleaf += sg[i].n;
        leaves = malloc(2 * nleaf * sizeof *leaves + 1);
        groups = malloc(2 * ng * sizeof *groups + 1);
        gorder = malloc(2 * ng * sizeof *gorder + 1);
        if (!leaves || !groups || !gorder)
            fail("out of memory for %zu leaves", 2 * nleaf);
        size_t at = 0;
        for (size_t i = 0; i < ng; i++) {
            for (int flip = 0; flip < 2; flip++) {
                rank_group_t *g = &groups[ngroups];
                g->first = at;
                g->n = sg[i].n;
                g->best = sg[i].best;
                g->sign = (sg[i].side == CD_WHITE) != flip ? 1 : -1;
                int ok = 1;
                for (int j = 0; j < g->n && ok; j++) {
                    const sib_leaf *lf = &sg[i].leaf[j];
                    record x = {.white = lf->white,
                                .black = lf->black,
                                .kings = lf->kings,
                                .side = lf->side,
                                .result = 1};
                    ok = make_sample(r, &layout, &x, flip, k, 0, &leaves[at + (size_t)j]);
                }
                if (ok) {
                    at += (size_t)g->n;
                    ngroups++;
                }
            }
            free(sg[i].leaf);
        }
        free(sg);
        ntg = (size_t)((double)ngroups * (1 - valid));
        for (size_t i = 0; i < ntg; i++)
            gorder[i] = i;
        printf("ordering target: %zu positions and their twins (%zu held out), %zu leaves, weight "
               "%.3f, temperature %.0f\n",
               ngroups, ngroups - ntg, at, o->rank, o->rank_temp);
    }

    model md = {0};
    md.regions = layout.regions;
    md.strips = layout.strips;
    md.nwin = (size_t)layout.regions * CD_PAT_CONFIGS * 2;
    md.npat = md.nwin + (size_t)layout.strips * CD_PAT_STRIP_CONFIGS * 2;
    model_layout(&md, &layout, cd_geom_of(r));
    md.nksq = md.npat + CD_PAT_SCALARS * 2;
    md.npsq = md.nksq + (size_t)md.squares * 2;
    md.nparam = md.npsq + (size_t)md.squares * 2 * 2;
    md.w = calloc(md.nparam, sizeof(float));
    md.m = calloc(md.nparam, sizeof(float));
    md.v = calloc(md.nparam, sizeof(float));
    md.grad = calloc(md.nparam, sizeof(float));
    md.touched = malloc(md.nparam * sizeof(int));
    md.mark = calloc(md.nparam, 1);
    if (!md.w || !md.m || !md.v || !md.grad || !md.touched || !md.mark)
        fail("out of memory");
    if (o->init) {
        init_from(&md, &layout, r, o->init);
    } else { /* start from material: a man 100, a king 300 */
        md.w[md.npat + 2 * CD_PAT_S_MEN] = md.w[md.npat + 2 * CD_PAT_S_MEN + 1] = 100;
        md.w[md.npat + 2 * CD_PAT_S_KING] = md.w[md.npat + 2 * CD_PAT_S_KING + 1] = 300;
        md.w[md.npat + 2 * CD_PAT_S_KINGS_MORE] = md.w[md.npat + 2 * CD_PAT_S_KINGS_MORE + 1] = 300;
    }

    if (ngroups) {
        double rl, top1;
        rank_report(&md, leaves, groups, ntg, ngroups, o->rank_temp, &rl, &top1);
        printf("ordering before the fit: loss %.5f held out, teacher's move first in %.1f%%\n", rl,
               100 * top1);
    }
    size_t *order = malloc(ntrain * sizeof *order);
    if (!order)
        fail("out of memory");
    for (size_t i = 0; i < ntrain; i++)
        order[i] = i;
    uint64_t rng = seed;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    long step = 0;
    for (long ep = 1; ep <= epochs; ep++) {
        shuffle(order, ntrain, &rng);
        /* the step size falls linearly to a tenth over the epochs */
        double rate = lr * (1.0 - 0.9 * (double)(ep - 1) / (double)(epochs > 1 ? epochs - 1 : 1));
        shuffle(gorder, ntg, &rng);
        double sum = 0, rsum = 0;
        for (size_t start = 0; start < ntrain; start += (size_t)batch) {
            size_t end = start + (size_t)batch < ntrain ? start + (size_t)batch : ntrain;
            for (size_t q = start; q < end; q++) {
                const sample *s = &tr[order[q]];
                double p = sigmoid(predict(&md, s) / k);
                sum += logloss(p, s->target);
                add_sample_grad(&md, s, (p - s->target) / k);
            }
            if (ngroups) { /* the groups of the ordering target that fall in this batch */
                size_t gs = start * ntg / ntrain, ge = end * ntg / ntrain;
                for (size_t q = gs; q < ge; q++) {
                    int top;
                    rsum +=
                        rank_group(&md, leaves, &groups[gorder[q]], o->rank_temp, o->rank, 1, &top);
                }
            }
            step++;
            double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
            double inv = 1.0; /* batch sums: a rare configuration is not averaged away */
            for (int t = 0; t < md.ntouched; t++) {
                size_t i = (size_t)md.touched[t];
                double gr = md.grad[i] * inv + (i < md.npat ? l2 * md.w[i] : 0.0);
                md.m[i] = (float)(b1 * md.m[i] + (1 - b1) * gr);
                md.v[i] = (float)(b2 * md.v[i] + (1 - b2) * gr * gr);
                md.w[i] -= (float)(rate * (md.m[i] / c1) / (sqrt(md.v[i] / c2) + eps));
                md.grad[i] = 0;
                md.mark[i] = 0;
            }
            md.ntouched = 0;
        }
        double vl = 0, vr = 0;
        for (size_t i = 0; i < nvalid; i++) {
            double p = sigmoid(predict(&md, &va[i]) / k);
            vl += logloss(p, va[i].target);
            vr += logloss(p, va[i].result);
        }
        printf("epoch %ld: loss %.5f training, %.5f held out (%.5f on results), man %.0f/%.0f "
               "king %.0f/%.0f, %.0f s\n",
               ep, sum / (double)ntrain, nvalid ? vl / (double)nvalid : 0.0,
               nvalid ? vr / (double)nvalid : 0.0, md.w[md.npat], md.w[md.npat + 1],
               md.w[md.npat + 2], md.w[md.npat + 3], train_now() - t0);
        if (ngroups) {
            double rl, top1;
            rank_report(&md, leaves, groups, ntg, ngroups, o->rank_temp, &rl, &top1);
            printf("  ordering: loss %.5f training, %.5f held out, teacher's move first in %.1f%% "
                   "held out\n",
                   ntg ? rsum / (double)ntg : 0.0, rl, 100 * top1);
        }
        fflush(stdout);
    }

    static const char *names[CD_PAT_SCALARS] = {"men",  "king",  "kings+",  "tempo",
                                                "sole", "reach", "exposed", "balance"};
    printf("scalars (middle game/endgame):");
    for (int kk = 0; kk < CD_PAT_SCALARS; kk++)
        printf(" %s %.1f/%.1f", names[kk], md.w[md.npat + 2 * kk], md.w[md.npat + 2 * kk + 1]);
    printf("\n");
    /* the piece-square values folded into the window weights */
    for (int rr = 0; rr < md.regions; rr++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            for (int i = 0; i < CD_PAT_SQUARES; i++)
                if (digits[c][i])
                    for (int ph = 0; ph < 2; ph++)
                        md.w[pidx(rr, c, ph)] +=
                            md.share[rr][i] * md.w[psq_idx(&md, md.sq[rr][i], digits[c][i], ph)];
    /* colour symmetry made exact: each weight becomes the mean of itself and its negated twin */
    for (int rr = 0; rr < md.regions + md.strips; rr++)
        for (int c = 0; c < cd_pattern_region_configs(&layout, rr); c++) {
            int r2, c2;
            cd_pattern_twin(&layout, rr, c, &r2, &c2);
            if (r2 < rr || (r2 == rr && c2 < c))
                continue;
            for (int ph = 0; ph < 2; ph++) {
                float *x = &md.w[region_idx(&md, rr, c, ph)], *y = &md.w[region_idx(&md, r2, c2, ph)];
                float xv = *x, yv = *y;
                *x = (xv - yv) / 2;
                *y = (yv - xv) / 2;
            }
        }
    cd_pattern_weights *w = calloc(1, sizeof *w);
    if (!w)
        fail("out of memory");
    snprintf(w->family, sizeof w->family, "%s", cd_pattern_family_name(cd_pattern_family(r)));
    w->layout = layout;
    long clipped = 0;
    for (size_t i = 0; i < md.npsq; i++) {
        double q = nearbyint(md.w[i] * CD_PAT_UNIT);
        if (q > 32767 || q < -32767) {
            clipped++;
            q = q > 0 ? 32767 : -32767;
        }
        *file_slot(&md, w, i) = (int16_t)q;
    }
    size_t size = train_pattern_write(w, NULL);
    unsigned char *img = malloc(size);
    if (!img)
        fail("out of memory");
    train_pattern_write(w, img);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(img, 1, size, f) != size || fclose(f) != 0 || rename(tmp, out) != 0)
        fail("cannot write %s", out);
    printf("wrote %s (%zu bytes, %ld weights clipped), %.0f s\n", out, size, clipped,
           train_now() - t0);
    free(img);
    free(w);
    free(order);
    free(tr);
    free(va);
    free(md.w);
    free(md.m);
    free(md.v);
    free(md.grad);
    free(md.touched);
    free(md.mark);
    free(leaves);
    free(groups);
    free(gorder);
    return 0;
}
