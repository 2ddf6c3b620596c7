/*
 * train_net.c -- `condraughts train net`: fits the network stacked on a family's pattern weights
 * (src/core/net.h) to train gen's data.
 *
 * The network's output is a correction added to the loaded pattern score, the side to move's
 * view, so a position predicts sigmoid((pattern + out) / K), and the loss is the cross-entropy
 * against the target: the game's result (1, 1/2, 0 for the side to move) mixed with the search
 * score (--lambda), as train fit's. A new network starts with its last layer at 0, that is as the
 * pattern weights alone, so the fit begins where they are and the held-out loss printed before
 * the first epoch is theirs.
 *
 * Adam on mini-batches of --batch positions, step --lr falling linearly to a tenth, every weight
 * kept within net.h's bounds after each step. Each batch is cut into SHARDS fixed parts whose
 * gradients are summed in their order, so the weights depend on the seed alone, not on --threads.
 * The last --valid share of the games (by game number, all files numbered apart) is held out.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "net.h"
#include "pattern.h"
#include "pool.h"
#include "slurp.h"
#include "train_data.h"
#include "train_model.h"

#define SHARDS    8
#define MAX_PIECE 40

typedef struct nsample {
    float target, result; /* the side to move's view, 0..1 */
    int16_t base;         /* the pattern score, the side to move's view */
    uint8_t n;            /* inputs */
    uint8_t in[MAX_PIECE];
} nsample;

typedef struct grads {
    float *w1, *b1, *w2, *b2, *w3, b3;
    double loss;
} grads;

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double logloss(double p, double y)
{
    const double eps = 1e-9;
    return -(y * log(p + eps) + (1 - y) * log(1 - p + eps));
}

static void make_sample(const cd_rules *r, const cd_net *net, const cd_pattern_weights *pw,
                        const record *x, double k, double lambda, nsample *s)
{
    cd_position p;
    train_position(r, x, &p);
    uint16_t in[64];
    int n = cd_net_inputs(net, &p, in);
    if (n > MAX_PIECE)
        fail("a position of game %u has %d pieces, more than %d", x->game, n, MAX_PIECE);
    s->n = (uint8_t)n;
    for (int i = 0; i < n; i++)
        s->in[i] = (uint8_t)in[i];
    int white = p.side == CD_WHITE;
    double y = x->result / 2.0, sc = x->score; /* White's view */
    if (!white) {
        y = 1 - y;
        sc = -sc;
    }
    int base = cd_pattern_eval_white(pw, &p);
    s->base = (int16_t)(white ? base : -base);
    s->result = (float)y;
    s->target = (float)((1 - lambda) * y + lambda * sigmoid(sc / k));
}

/* ------------------------------------------------------------------ the gradient */

static inline float clip1(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* Add the gradient of samples [lo, hi) of idx to g (cleared by the caller); the loss summed. */
static void gradient(const cd_net *net, const nsample *s, const size_t *idx, size_t lo, size_t hi,
                     double k, grads *g)
{
    int H1 = net->h1, H2 = net->h2;
    float acc[CD_NET_MAX_H1], a1[CD_NET_MAX_H1], d1[CD_NET_MAX_H1];
    float z[CD_NET_MAX_H2], a2[CD_NET_MAX_H2], d2[CD_NET_MAX_H2];
    for (size_t t = lo; t < hi; t++) {
        const nsample *x = &s[idx[t]];
        uint16_t in[MAX_PIECE];
        for (int i = 0; i < x->n; i++)
            in[i] = x->in[i];
        float inner = train_net_forward(net, in, x->n, acc, a1, z);
        for (int j = 0; j < H2; j++)
            a2[j] = clip1(z[j]);
        double p = sigmoid((x->base + CD_NET_OUT * (double)inner) / k);
        g->loss += logloss(p, x->target);
        float e = (float)((p - x->target) * CD_NET_OUT / k);
        g->b3 += e;
        for (int j = 0; j < H2; j++) {
            g->w3[j] += e * a2[j];
            d2[j] = z[j] > 0 && z[j] < 1 ? e * net->w3[j] : 0;
            g->b2[j] += d2[j];
        }
        memset(d1, 0, (size_t)H1 * sizeof *d1);
        for (int j = 0; j < H2; j++) {
            if (d2[j] == 0)
                continue;
            const float *row = net->w2 + (size_t)j * (size_t)H1;
            float *gr = g->w2 + (size_t)j * (size_t)H1;
            for (int h = 0; h < H1; h++) {
                gr[h] += d2[j] * a1[h];
                d1[h] += d2[j] * row[h];
            }
        }
        for (int h = 0; h < H1; h++) {
            d1[h] = acc[h] > 0 && acc[h] < 1 ? d1[h] : 0;
            g->b1[h] += d1[h];
        }
        for (int i = 0; i < x->n; i++) {
            float *gr = g->w1 + (size_t)x->in[i] * (size_t)H1;
            for (int h = 0; h < H1; h++)
                gr[h] += d1[h];
        }
    }
}

typedef struct shard_job {
    const cd_net *net;
    const nsample *s;
    const size_t *idx;
    size_t lo, hi; /* the batch */
    double k;
    grads *g;        /* [SHARDS] */
    int first, step; /* this thread's shards: first, first + step, ... */
} shard_job;

static size_t grad_floats(const cd_net *n)
{
    return (size_t)n->inputs * (size_t)n->h1 + (size_t)n->h1 + (size_t)n->h2 * (size_t)n->h1 +
           2 * (size_t)n->h2;
}

static int run_shards(void *arg)
{
    shard_job *j = arg;
    size_t len = j->hi - j->lo, nf = grad_floats(j->net);
    for (int sh = j->first; sh < SHARDS; sh += j->step) {
        grads *g = &j->g[sh];
        memset(g->w1, 0, nf * sizeof *g->w1);
        g->b3 = 0;
        g->loss = 0;
        gradient(j->net, j->s, j->idx, j->lo + len * (size_t)sh / SHARDS,
                 j->lo + len * (size_t)(sh + 1) / SHARDS, j->k, g);
    }
    return 0;
}

/* ------------------------------------------------------------------ the loss of held-out data */

typedef struct losses {
    double base, net, quant, result_base, result_net;
} losses;

static losses held_out(const cd_net *net, const nsample *s, size_t n, double k)
{
    losses L = {0};
    for (size_t i = 0; i < n; i++) {
        uint16_t in[MAX_PIECE];
        for (int j = 0; j < s[i].n; j++)
            in[j] = s[i].in[j];
        double pb = sigmoid(s[i].base / k);
        double pn = sigmoid((s[i].base + train_net_eval(net, in, s[i].n)) / k);
        double pq = sigmoid((s[i].base + cd_net_eval_inputs(net, in, s[i].n)) / k);
        L.base += logloss(pb, s[i].target);
        L.net += logloss(pn, s[i].target);
        L.quant += logloss(pq, s[i].target);
        L.result_base += logloss(pb, s[i].result);
        L.result_net += logloss(pq, s[i].result);
    }
    if (n) {
        L.base /= (double)n;
        L.net /= (double)n;
        L.quant /= (double)n;
        L.result_base /= (double)n;
        L.result_net /= (double)n;
    }
    return L;
}

static void print_held_out(const char *when, const losses *L)
{
    printf("%s: held out %.5f (float %.5f; the pattern weights alone %.5f), on results %.5f "
           "(alone %.5f)\n",
           when, L->quant, L->net, L->base, L->result_net, L->result_base);
    fflush(stdout);
}

/* ------------------------------------------------------------------ the fit */

static double uniform(uint64_t *rng) { return (double)(splitmix(rng) >> 11) / 9007199254740992.0; }

static void init_random(cd_net *n, uint64_t *rng)
{
    size_t in = (size_t)n->inputs, H1 = (size_t)n->h1, H2 = (size_t)n->h2;
    for (size_t i = 0; i < in * H1; i++)
        n->w1[i] = (float)((2 * uniform(rng) - 1) * 0.25);
    for (size_t i = 0; i < H1; i++)
        n->b1[i] = 0.5f;
    double r2 = 0.5 / sqrt((double)H1 / 10);
    for (size_t i = 0; i < H2 * H1; i++)
        n->w2[i] = (float)((2 * uniform(rng) - 1) * r2);
    for (size_t i = 0; i < H2; i++) {
        n->b2[i] = 0.5f;
        n->w3[i] = 0;
    }
    n->b3 = 0;
}

static cd_net *init_from(const char *path, const cd_rules *r, int h1, int h2)
{
    size_t len;
    unsigned char *img = (unsigned char *)cd_slurp(path, (size_t)64 << 20, &len);
    if (!img)
        fail("cannot read %s: %s", path, strerror(errno));
    char err[256];
    cd_net *n = cd_net_read(img, len, err, sizeof err);
    free(img);
    if (!n)
        fail("%s: %s", path, err);
    if (n->geometry != (int)r->geometry)
        fail("%s holds a network of another board", path);
    if ((h1 && n->h1 != h1) || (h2 && n->h2 != h2))
        fail("%s has layers of %d and %d units, not --hidden %d,%d", path, n->h1, n->h2, h1, h2);
    return n;
}

/* Adam's moments, one per weight in grad_floats order, then b3. */
typedef struct adam {
    float *m, *v;
    long t;
} adam;

/* Weight i in grad_floats order (then b3 at nf). */
static float *param(cd_net *n, size_t i)
{
    size_t a = (size_t)n->inputs * (size_t)n->h1, b = a + (size_t)n->h1,
           c = b + (size_t)n->h2 * (size_t)n->h1, d = c + (size_t)n->h2, e = d + (size_t)n->h2;
    return i < a   ? n->w1 + i
           : i < b ? n->b1 + (i - a)
           : i < c ? n->w2 + (i - b)
           : i < d ? n->b2 + (i - c)
           : i < e ? n->w3 + (i - d)
                   : &n->b3;
}

static float bound_of(const cd_net *n, size_t i)
{
    size_t b = (size_t)n->inputs * (size_t)n->h1 + (size_t)n->h1,
           c = b + (size_t)n->h2 * (size_t)n->h1, d = c + (size_t)n->h2;
    return i < b ? CD_NET_W1_MAX : i < c ? CD_NET_W2_MAX : i < d ? CD_NET_B2_MAX : CD_NET_W3_MAX;
}

static void adam_step(cd_net *n, adam *ad, const grads *g, double lr, double scale)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    ad->t++;
    double c1 = 1 - pow(b1, (double)ad->t), c2 = 1 - pow(b2, (double)ad->t);
    size_t nf = grad_floats(n);
    for (size_t i = 0; i <= nf; i++) {
        float *w = param(n, i);
        double gr = (i < nf ? g->w1[i] : g->b3) * scale;
        double m = ad->m[i] = (float)(b1 * ad->m[i] + (1 - b1) * gr);
        double v = ad->v[i] = (float)(b2 * ad->v[i] + (1 - b2) * gr * gr);
        double x = *w - lr * (m / c1) / (sqrt(v / c2) + eps);
        float bound = bound_of(n, i);
        *w = (float)(x > bound ? bound : x < -bound ? -bound : x);
    }
}

static void write_net(const cd_net *n, const char *path)
{
    size_t size = train_net_write(n, NULL);
    unsigned char *img = malloc(size);
    if (!img)
        fail("out of memory");
    train_net_write(n, img);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(img, 1, size, f) != size || fclose(f) != 0)
        fail("cannot write %s", path);
    free(img);
}

int train_net(const net_options *o)
{
    const cd_rules *r = o->rules;
    const cd_pattern_weights *pw = cd_eval_for(o->eval, r);
    if (!pw)
        fail("no pattern weights of %s are loaded (set CD_WEIGHTS)", r->name);
    if (!pw->checksum)
        fail("the %s pattern weights were not read from a file", r->name);
    cd_net *net = o->init ? init_from(o->init, r, o->h1, o->h2)
                          : cd_net_new(pw->family, (int)r->geometry, o->h1, o->h2);
    if (!net)
        fail("bad layer sizes --hidden %ld,%ld (net.h)", o->h1, o->h2);
    snprintf(net->family, sizeof net->family, "%s", pw->family);
    uint64_t rng = o->seed * 0x9e3779b97f4a7c15ull + 12345;
    if (!o->init) {
        init_random(net, &rng);
        cd_net_quantize(net);
    }
    net->base_checksum = pw->checksum;

    /* the records of every file; games numbered apart per file */
    size_t nrec;
    uint32_t all_games;
    record *rec = train_read_list(o->data, r, &nrec, &all_games);
    if (o->limit && (size_t)o->limit < nrec)
        nrec = (size_t)o->limit;
    if (o->deep_only) { /* only the positions train label scored again */
        size_t kept = 0;
        for (size_t i = 0; i < nrec; i++)
            if (rec[i].deep)
                rec[kept++] = rec[i];
        nrec = kept;
    }
    if (nrec < 100)
        fail("too little data: %zu positions%s", nrec, o->deep_only ? " scored again" : "");
    double t0 = train_now();
    uint32_t games = o->limit ? rec[nrec - 1].game + 1 : all_games;
    uint32_t cut = (uint32_t)((double)games * (1 - o->valid));
    nsample *s = malloc(nrec * sizeof *s + 1);
    if (!s)
        fail("out of memory for %zu samples", nrec);
    size_t ntrain = 0;
    for (size_t i = 0; i < nrec; i++)
        ntrain += rec[i].game < cut;
    size_t a = 0, b = ntrain;
    for (size_t i = 0; i < nrec; i++) {
        double lambda = rec[i].deep && o->deep_lambda >= 0 ? o->deep_lambda : o->lambda;
        make_sample(r, net, pw, &rec[i], o->k, lambda, &s[rec[i].game < cut ? a++ : b++]);
    }
    free(rec);
    size_t nvalid = nrec - ntrain;
    printf("train net %s: %zu training and %zu held-out positions, %u games; K = %.1f; layers "
           "%d, %d, %d, 1 (%zu weights)\n",
           r->name, ntrain, nvalid, games, o->k, net->inputs, net->h1, net->h2,
           grad_floats(net) + 1);
    losses L = held_out(net, s + ntrain, nvalid, o->k);
    print_held_out("start", &L);

    size_t nf = grad_floats(net);
    grads g[SHARDS];
    for (int i = 0; i < SHARDS; i++) {
        g[i].w1 = calloc(nf + 1, sizeof(float));
        if (!g[i].w1)
            fail("out of memory");
        g[i].b1 = g[i].w1 + (size_t)net->inputs * (size_t)net->h1;
        g[i].w2 = g[i].b1 + net->h1;
        g[i].b2 = g[i].w2 + (size_t)net->h2 * (size_t)net->h1;
        g[i].w3 = g[i].b2 + net->h2;
    }
    adam ad = {calloc(nf + 1, sizeof(float)), calloc(nf + 1, sizeof(float)), 0};
    size_t *idx = malloc(ntrain * sizeof *idx + 1);
    if (!ad.m || !ad.v || !idx)
        fail("out of memory");
    for (size_t i = 0; i < ntrain; i++)
        idx[i] = i;
    long threads = o->threads < SHARDS ? o->threads : SHARDS;
    size_t batch = (size_t)o->batch, steps = (ntrain + batch - 1) / batch * (size_t)o->epochs,
           step = 0;
    for (long ep = 1; ep <= o->epochs; ep++) {
        for (size_t i = ntrain; i > 1; i--) { /* Fisher-Yates with the seeded generator */
            size_t j = (size_t)(splitmix(&rng) % i), t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
        double sum = 0;
        for (size_t lo = 0; lo < ntrain; lo += batch, step++) {
            size_t hi = lo + batch < ntrain ? lo + batch : ntrain;
            shard_job jobs[SHARDS];
            for (long i = 0; i < threads; i++)
                jobs[i] = (shard_job){net, s, idx, lo, hi, o->k, g, (int)i, (int)threads};
            cd_pool_run((int)threads, run_shards, jobs, sizeof jobs[0], NULL, NULL);
            for (int sh = 1; sh < SHARDS; sh++) { /* in shard order: the same sums for any T */
                for (size_t i = 0; i < nf; i++)
                    g[0].w1[i] += g[sh].w1[i];
                g[0].b3 += g[sh].b3;
                g[0].loss += g[sh].loss;
            }
            sum += g[0].loss;
            double lr = o->lr * (1 - 0.9 * (double)step / (double)steps);
            adam_step(net, &ad, &g[0], lr, 1.0 / (double)(hi - lo));
            if (step % 64 == 0) {
                fprintf(stderr, "\rtrain net: epoch %ld/%ld, %3.0f%%, %.0f s   ", ep, o->epochs,
                        100.0 * (double)hi / (double)ntrain, train_now() - t0);
            }
        }
        fputc('\n', stderr);
        cd_net_quantize(net);
        L = held_out(net, s + ntrain, nvalid, o->k);
        char when[64];
        snprintf(when, sizeof when, "epoch %ld (training %.5f, %.0f s)", ep, sum / (double)ntrain,
                 train_now() - t0);
        print_held_out(when, &L);
        write_net(net, o->out);
    }
    printf("wrote %s (%zu bytes), %.0f s\n", o->out, train_net_write(net, NULL), train_now() - t0);
    for (int i = 0; i < SHARDS; i++)
        free(g[i].w1);
    free(ad.m);
    free(ad.v);
    free(idx);
    free(s);
    cd_net_free(net);
    return 0;
}
