/*
 * test_net.c -- the network stacked on the pattern evaluation (src/core/net.c): its inputs
 * (derived here from the position square by square), the engine's integer forward pass against
 * the same arithmetic written again here plainly, the float form within a hundredth or two of
 * it, the colour symmetry of the mover's view, the file (round trip, and a clear error for every
 * kind of damage), and its stacking on the pattern weights (refused on other weights; the
 * evaluation is the pattern score plus the network's, signed for White).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "check.h"
#include "engine.h"
#include "net.h"
#include "pattern.h"
#include "train_model.h"

static uint64_t rng = 777;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* as net.c rounds: to nearest, halves away from 0 */
static long long rnd(double x) { return (long long)(x >= 0 ? x + 0.5 : x - 0.5); }

static float uni(float a)
{
    return (float)((double)(next() >> 11) / 9007199254740992.0 * 2 - 1) * a;
}

static cd_net *random_net(int h1, int h2)
{
    cd_net *n = cd_net_new("russian", CD_GEOM_8X8, h1, h2);
    CHECK(n != NULL);
    for (int i = 0; i < n->inputs * h1; i++)
        n->w1[i] = uni(0.4f);
    for (int i = 0; i < h1; i++)
        n->b1[i] = 0.5f + uni(0.3f);
    for (int i = 0; i < h2 * h1; i++)
        n->w2[i] = uni(0.3f);
    for (int j = 0; j < h2; j++) {
        n->b2[j] = uni(0.5f);
        n->w3[j] = uni(2.0f);
    }
    n->b3 = uni(0.5f);
    cd_net_quantize(n);
    return n;
}

/* Positions along random games of Russian draughts (men and kings of both colours). */
static int random_positions(cd_position *out, int count)
{
    const cd_rules *r = cd_rules_find("russian");
    int k = 0;
    while (k < count) {
        cd_position p;
        cd_position_start(&p, r);
        for (int ply = 0; ply < 120 && k < count; ply++) {
            cd_movelist ml;
            cd_generate(&p, &ml);
            if (!ml.count)
                break;
            cd_position q;
            cd_play(&p, &ml.moves[next() % (uint64_t)ml.count], &q);
            p = q;
            if (ply % 3 == 0 || k % 7 == 0)
                out[k++] = p;
        }
    }
    return k;
}

/* The inputs derived again: every internal square, read from the mover's side. */
static int inputs_again(const cd_position *p, int *mark)
{
    const cd_geom *g = cd_geom_of(p->rules);
    int N = g->squares, count = 0;
    memset(mark, 0, 4 * N * sizeof *mark);
    for (int s = 1; s <= N; s++) {
        int bit = cd_bit_of_internal(g, s);
        uint64_t m = 1ull << bit;
        int white = (p->white[0] & m) != 0, black = (p->black[0] & m) != 0;
        if (!white && !black)
            continue;
        int king = (p->kings[0] & m) != 0;
        int ours = p->side == CD_WHITE ? white : black;
        int sq = p->side == CD_WHITE ? s - 1 : N - s;
        mark[(ours ? 0 : 2) * N + king * N + sq] = 1;
        count++;
    }
    return count;
}

/* The integer forward pass written again, loop by loop, from net.h's description. */
static int forward_again(const cd_net *n, const int *mark)
{
    int32_t h1[CD_NET_MAX_H1];
    for (int h = 0; h < n->h1; h++) {
        int32_t a = (int32_t)rnd(n->b1[h] * 255.0);
        for (int i = 0; i < n->inputs; i++)
            if (mark[i])
                a += (int32_t)rnd(n->w1[i * n->h1 + h] * 255.0);
        h1[h] = a < 0 ? 0 : a > 255 ? 255 : a;
    }
    int64_t out = rnd(n->b3 * 100.0 * 255 * 1024 * 16);
    for (int j = 0; j < n->h2; j++) {
        int64_t z = rnd(n->b2[j] * 255.0 * 1024);
        for (int h = 0; h < n->h1; h++)
            z += h1[h] * rnd(n->w2[j * n->h1 + h] * 1024.0);
        z = z < 0 ? 0 : z > 255 * 1024 ? 255 * 1024 : z;
        out += z * rnd(n->w3[j] * 100.0 * 16);
    }
    return (int)(out / (255 * 1024 * 16));
}

static void test_forward(void)
{
    enum { COUNT = 3000 };
    static cd_position pos[COUNT];
    int n = random_positions(pos, COUNT);
    static const int shapes[3][2] = {{128, 32}, {64, 32}, {48, 8}};
    int kings = 0;
    for (int sh = 0; sh < 3; sh++) {
        cd_net *net = random_net(shapes[sh][0], shapes[sh][1]);
        double worst = 0;
        int nonzero = 0;
        for (int i = 0; i < n; i++) {
            int mark[CD_NET_MAX_IN];
            uint16_t in[64];
            int c = cd_net_inputs(net, &pos[i], in);
            CHECK(c == inputs_again(&pos[i], mark));
            for (int j = 0; j < c; j++)
                CHECK(mark[in[j]] == 1);
            int v = cd_net_eval(net, &pos[i]);
            CHECK(v == forward_again(net, mark));
            nonzero += v != 0;
            double d = fabs(train_net_eval(net, in, c) - v);
            worst = d > worst ? d : worst;
            kings += cd_bb_count(pos[i].kings) > 0;
        }
        /* through a cache: in game order (few squares change: the rows added and taken
         * away) and in a random order (many change: made again), the same values */
        static cd_net_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int i = 0; i < n; i++)
            CHECK(cd_net_eval_cached(net, &pos[i], &cache) == cd_net_eval(net, &pos[i]));
        for (int i = 0; i < n; i++) {
            int j = (int)(next() % (uint64_t)n);
            CHECK(cd_net_eval_cached(net, &pos[j], &cache) == cd_net_eval(net, &pos[j]));
        }
        /* quantization: W1 and h1 to 1/255, W2 to 1/1024 of their unit; a wrong scale is off
         * by hundreds */
        CHECKF(worst < 12.0, "float and integer forms %.2f apart", worst); /* random w3 of +-2 */
        CHECK(nonzero > n / 2);
        cd_net_free(net);
    }
    CHECK(kings > 50); /* the positions hold kings too */
}

/* At the bounds of net.h, on the largest shape and the fullest board (the 10x10 start, 40
 * pieces): no 16-bit or 32-bit sum wraps (forward_again sums in 32 and 64 bits), and the
 * output is clamped to CD_NET_OUT_MAX; the 10x10 board's inputs as derived here. */
static void test_bounds(void)
{
    const cd_rules *r = cd_rules_find("international");
    cd_position p;
    cd_position_start(&p, r);
    for (int sign = -1; sign <= 1; sign += 2) {
        cd_net *n = cd_net_new("international", CD_GEOM_10X10, 512, 64);
        CHECK(n && n->inputs == 200);
        for (int i = 0; i < n->inputs * 512; i++)
            n->w1[i] = sign * CD_NET_W1_MAX;
        for (int i = 0; i < 512; i++)
            n->b1[i] = sign * CD_NET_W1_MAX;
        for (int i = 0; i < 64 * 512; i++)
            n->w2[i] = (i & 1 ? -1 : 1) * CD_NET_W2_MAX;
        for (int j = 0; j < 64; j++) {
            n->b2[j] = CD_NET_B2_MAX;
            n->w3[j] = (j & 1 ? 1 : -1) * CD_NET_W3_MAX / 64;
        }
        n->b3 = 0.5f;
        cd_net_quantize(n);
        int mark[CD_NET_MAX_IN];
        CHECK(inputs_again(&p, mark) == 40);
        int v = cd_net_eval(n, &p), want = forward_again(n, mark);
        want = want > CD_NET_OUT_MAX    ? CD_NET_OUT_MAX
               : want < -CD_NET_OUT_MAX ? -CD_NET_OUT_MAX
                                        : want;
        CHECKF(v == want, "at the bounds (sign %d): %d, written again %d", sign, v, want);
        /* the output's clamp: every w3 at its bound */
        for (int j = 0; j < 64; j++)
            n->w3[j] = sign * CD_NET_W3_MAX;
        cd_net_quantize(n);
        CHECK(cd_net_eval(n, &p) == sign * CD_NET_OUT_MAX);
        cd_net_free(n);
    }
}

/* One cache, two networks in turn, and one network's weights changed and quantized again: every
 * value is the network's own, never sums of the other (or of the old weights). */
static void test_cache_networks(void)
{
    enum { COUNT = 300 };
    static cd_position pos[COUNT];
    int n = random_positions(pos, COUNT);
    cd_net *a = random_net(128, 32), *b = random_net(128, 32);
    static cd_net_cache cache;
    memset(&cache, 0, sizeof cache);
    for (int i = 0; i < n; i++) {
        cd_net *x = i & 1 ? a : b;
        CHECK(cd_net_eval_cached(x, &pos[i], &cache) == cd_net_eval(x, &pos[i]));
    }
    for (int i = 0; i < n; i++) {
        if (i % 50 == 0) {
            a->w1[(size_t)(next() % (uint64_t)(a->inputs * 128))] += 0.5f;
            cd_net_quantize(a);
        }
        CHECK(cd_net_eval_cached(a, &pos[i], &cache) == cd_net_eval(a, &pos[i]));
    }
    cd_net_free(a);
    cd_net_free(b);
}

/* A position turned 180 degrees with colours and the side to move exchanged: the same inputs
 * from the mover's side, so the same value. */
static void test_symmetry(void)
{
    enum { COUNT = 500 };
    static cd_position pos[COUNT];
    int n = random_positions(pos, COUNT);
    cd_net *net = random_net(128, 32);
    const cd_rules *r = cd_rules_find("russian");
    const cd_geom *g = cd_geom_of(r);
    for (int i = 0; i < n; i++) {
        uint64_t w = 0, b = 0, k = 0;
        for (int s = 1; s <= g->squares; s++) {
            uint64_t m = 1ull << cd_bit_of_internal(g, s);
            uint64_t t = 1ull << cd_bit_of_internal(g, g->squares + 1 - s);
            if (pos[i].white[0] & m)
                b |= t;
            if (pos[i].black[0] & m)
                w |= t;
            if (pos[i].kings[0] & m)
                k |= t;
        }
        cd_position q = pos[i];
        q.white[0] = w;
        q.black[0] = b;
        q.kings[0] = k;
        q.side = pos[i].side ^ 1;
        CHECK(cd_net_eval(net, &q) == cd_net_eval(net, &pos[i]));
    }
    cd_net_free(net);
}

static void test_file(void)
{
    cd_net *net = random_net(64, 16);
    net->base_checksum = 0x12345678u;
    size_t size = train_net_write(net, NULL);
    CHECK(size == 48 + 4 * (128 * 64 + 64 + 16 * 64 + 16 + 16 + 1) + 4);
    unsigned char *img = malloc(size);
    train_net_write(net, img);
    char err[200];
    cd_net *back = cd_net_read(img, size, err, sizeof err);
    CHECK(back != NULL);
    if (back) {
        CHECK(back->h1 == 64 && back->h2 == 16 && back->base_checksum == 0x12345678u);
        CHECK(!strcmp(back->family, "russian"));
        CHECK(!memcmp(back->w1, net->w1, 128 * 64 * sizeof(float)));
        CHECK(!memcmp(back->w3, net->w3, 16 * sizeof(float)) && back->b3 == net->b3);
        cd_position p[20];
        random_positions(p, 20);
        for (int i = 0; i < 20; i++)
            CHECK(cd_net_eval(back, &p[i]) == cd_net_eval(net, &p[i]));
        cd_net_free(back);
    }
    /* damage: a flipped bit, a truncation, padding, a foreign file, bad sizes, a weight out of
     * its bounds under a valid checksum */
    img[1000] ^= 8;
    CHECK(!cd_net_read(img, size, err, sizeof err) && strstr(err, "checksum"));
    img[1000] ^= 8;
    CHECK(!cd_net_read(img, size - 4, err, sizeof err) && strstr(err, "size"));
    CHECK(!cd_net_read(img, 20, err, sizeof err) && strstr(err, "truncated"));
    unsigned char *pad = calloc(1, size + 4);
    memcpy(pad, img, size);
    CHECK(!cd_net_read(pad, size + 4, err, sizeof err) && strstr(err, "size"));
    free(pad);
    CHECK(!cd_net_read((const unsigned char *)"CDW1....", 8, err, sizeof err) &&
          strstr(err, "CDN1"));
    unsigned char *bad = malloc(size);
    memcpy(bad, img, size);
    bad[36] = 20; /* H1 20: not a multiple of 16 */
    CHECK(!cd_net_read(bad, size, err, sizeof err) && strstr(err, "layer sizes"));
    memcpy(bad, img, size);
    bad[24] = 1; /* the 10x10 geometry with the 8x8 board's 32 squares */
    CHECK(!cd_net_read(bad, size, err, sizeof err) && strstr(err, "input count"));
    memcpy(bad, img, size);
    bad[24] = 7;
    CHECK(!cd_net_read(bad, size, err, sizeof err) && strstr(err, "geometry"));
    memcpy(bad, img, size);
    bad[4] = 9;
    CHECK(!cd_net_read(bad, size, err, sizeof err) && strstr(err, "version"));
    net->w2[5] = 100.0f;
    train_net_write(net, img);
    CHECK(!cd_net_read(img, size, err, sizeof err) && strstr(err, "bounds"));
    net->w2[5] = NAN;
    train_net_write(net, img);
    CHECK(!cd_net_read(img, size, err, sizeof err) && strstr(err, "finite"));
    free(bad);
    free(img);
    cd_net_free(net);
    CHECK(cd_net_new("russian", CD_GEOM_8X8, 100, 32) == NULL);
    CHECK(cd_net_new("russian", CD_GEOM_12X12, 128, 32) == NULL);
}

/* Stacked on pattern weights in a set: refused on weights of another checksum, of another
 * family or board, or when the family has no weights or a network already; the evaluation is
 * the pattern score plus the network's value, White's view. */
static void test_stacking(void)
{
    cd_pattern_weights *w = calloc(1, sizeof *w);
    snprintf(w->family, sizeof w->family, "russian");
    cd_pattern_layout_of(CD_GEOM_8X8, &w->layout);
    for (int reg = 0; reg < w->layout.regions; reg++)
        for (int c = 0; c < CD_PAT_CONFIGS; c++)
            w->pat[reg][c][0] = w->pat[reg][c][1] = (int16_t)(next() % 401) - 200;
    w->scalar[CD_PAT_S_MEN][0] = w->scalar[CD_PAT_S_MEN][1] = 800;
    size_t wsize = train_pattern_write(w, NULL);
    unsigned char *wimg = malloc(wsize);
    train_pattern_write(w, wimg);
    char err[300];
    cd_eval *ev = cd_eval_new(), *plain_ev = cd_eval_new();
    CHECK(cd_eval_add_weights(ev, "russian", wimg, wsize, err, sizeof err) == CD_OK);
    CHECK(cd_eval_add_weights(plain_ev, "russian", wimg, wsize, err, sizeof err) == CD_OK);
    uint32_t sum = cd_eval_for(ev, cd_rules_find("russian"))->checksum;
    CHECK(sum == (uint32_t)wimg[wsize - 4] + ((uint32_t)wimg[wsize - 3] << 8) +
                     ((uint32_t)wimg[wsize - 2] << 16) + ((uint32_t)wimg[wsize - 1] << 24));
    cd_net *net = random_net(128, 32);
    size_t size = train_net_write(net, NULL);
    unsigned char *img = malloc(size);
    char want_err[64];
    snprintf(want_err, sizeof want_err, "%08x", sum);
    net->base_checksum = sum ^ 1;
    train_net_write(net, img);
    CHECK(cd_eval_add_net(ev, "russian", img, size, err, sizeof err) == CD_ERR_IO);
    CHECK(strstr(err, "the network was trained on the russian weights") && strstr(err, want_err));
    net->base_checksum = sum;
    train_net_write(net, img);
    CHECK(cd_eval_add_net(ev, "international", img, size, err, sizeof err) == CD_ERR_IO);
    CHECK(strstr(err, "it holds the network of 'russian'") != NULL);
    cd_eval *empty = cd_eval_new();
    CHECK(cd_eval_add_net(empty, NULL, img, size, err, sizeof err) == CD_ERR_IO);
    CHECK(strstr(err, "no weights of the network's family") != NULL);
    cd_eval_free(empty);
    cd_net *ten = cd_net_new("russian", CD_GEOM_10X10, 64, 16);
    ten->base_checksum = sum;
    size_t tsize = train_net_write(ten, NULL);
    unsigned char *timg = malloc(tsize);
    train_net_write(ten, timg);
    CHECK(cd_eval_add_net(ev, "russian", timg, tsize, err, sizeof err) == CD_ERR_IO);
    CHECK(strstr(err, "not of its family's board") != NULL);
    free(timg);
    cd_net_free(ten);
    cd_position pos[200];
    int n = random_positions(pos, 200);
    int plain[200];
    for (int i = 0; i < n; i++)
        plain[i] = cd_pattern_eval_white(w, &pos[i]);
    CHECK(cd_eval_add_net(ev, "russian", img, size, err, sizeof err) == CD_OK);
    CHECK(cd_eval_add_net(ev, "russian", img, size, err, sizeof err) == CD_ERR_IO);
    CHECK(strstr(err, "network is there already") != NULL);
    const cd_net *stacked = cd_eval_for(ev, cd_rules_find("russian"))->net;
    cd_engine *e = cd_engine_new(1);
    cd_engine_set_eval(e, ev);
    int differ = 0;
    for (int i = 0; i < n; i++) {
        if (cd_bb_count(pos[i].kings))
            continue; /* the lone-king scaling and drawish scaling stay out of it */
        int d = cd_net_eval(stacked, &pos[i]);
        CHECK(d == cd_net_eval(net, &pos[i]));
        int want = plain[i] + (pos[i].side == CD_WHITE ? d : -d);
        int sign = pos[i].side == CD_WHITE ? 1 : -1;
        CHECK(sign * cd_evaluate(ev, &pos[i]) == want);
        int mover = cd_engine_evaluate(e, &pos[i]);
        CHECK(cd_engine_set_option(e, "net", 0) == CD_OK);
        int alone = cd_engine_evaluate(e, &pos[i]);
        CHECK(cd_engine_set_option(e, "net", 1) == CD_OK);
        CHECK(alone == sign * plain[i]);
        CHECK(mover == sign * want);
        differ += mover != alone;
    }
    CHECK(differ > 20);
    cd_engine_free(e);
    for (int i = 0; i < n; i++) /* the same weights without the network */
        if (!cd_bb_count(pos[i].kings))
            CHECK((pos[i].side == CD_WHITE ? 1 : -1) * cd_evaluate(plain_ev, &pos[i]) == plain[i]);
    cd_eval_free(ev);
    cd_eval_free(plain_ev);
    cd_net_free(net);
    free(img);
    free(wimg);
    free(w);
}

int main(void)
{
    test_forward();
    test_symmetry();
    test_bounds();
    test_cache_networks();
    test_file();
    test_stacking();
    printf("test_net: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
