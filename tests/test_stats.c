/*
 * test_stats.c -- the statistics of `condraughts study` (src/cli/stats.c) against published
 * and hand-computed values: Wilson intervals, Newcombe's interval of a difference, mean,
 * quantiles (R's default type 7), histograms; Elo estimates and the match SPRT (LLR).
 */
#include <math.h>

#include "check.h"
#include "stats.h"

#define NEAR(got, want, tol) CHECK(fabs((got) - (want)) <= (tol))

static void wilson(void)
{
    /* the brief's values, and Newcombe (1998) table I */
    stats_interval w = stats_wilson(50, 100, STATS_Z95);
    NEAR(w.lo, 0.4038, 5e-5);
    NEAR(w.hi, 0.5962, 5e-5);
    w = stats_wilson(0, 10, STATS_Z95);
    CHECK(w.lo == 0.0);
    NEAR(w.hi, 0.2775, 5e-5);
    w = stats_wilson(10, 10, STATS_Z95);
    NEAR(w.lo, 0.7225, 5e-5);
    CHECK(w.hi == 1.0);
    w = stats_wilson(1, 10, STATS_Z95);
    NEAR(w.lo, 0.0179, 5e-5);
    NEAR(w.hi, 0.4042, 5e-5);
    w = stats_wilson(81, 263, STATS_Z95); /* Newcombe's 81/263 */
    NEAR(w.lo, 0.2553, 5e-5);
    NEAR(w.hi, 0.3662, 5e-5);
    w = stats_wilson(15, 148, STATS_Z95); /* Newcombe's 15/148 */
    NEAR(w.lo, 0.0624, 5e-5);
    NEAR(w.hi, 0.1605, 5e-5);
    /* nothing known, out-of-range counts */
    w = stats_wilson(0, 0, STATS_Z95);
    CHECK(w.lo == 0.0 && w.hi == 1.0);
    w = stats_wilson(12, 10, STATS_Z95);
    CHECK(w.hi == 1.0 && w.lo > 0.7);
    /* symmetric: k/n and (n-k)/n mirror each other */
    stats_interval a = stats_wilson(3, 17, STATS_Z95), b = stats_wilson(14, 17, STATS_Z95);
    NEAR(a.lo, 1.0 - b.hi, 1e-12);
    NEAR(a.hi, 1.0 - b.lo, 1e-12);
    /* wider at 99% than at 95% */
    stats_interval c = stats_wilson(3, 17, 2.5758293035489);
    CHECK(c.lo < a.lo && c.hi > a.hi);
}

static void newcombe(void)
{
    /* Newcombe (1998), Stat. Med. 17:873-890, table II, method 10 */
    stats_interval d = stats_newcombe(56, 70, 48, 80, STATS_Z95);
    NEAR(d.lo, 0.0524, 5e-5);
    NEAR(d.hi, 0.3339, 5e-5);
    d = stats_newcombe(9, 10, 3, 10, STATS_Z95);
    NEAR(d.lo, 0.1705, 5e-5);
    NEAR(d.hi, 0.8090, 5e-5);
    d = stats_newcombe(5, 56, 0, 29, STATS_Z95);
    NEAR(d.lo, -0.0381, 5e-5);
    NEAR(d.hi, 0.1926, 5e-5);
    /* equal proportions: an interval around 0, antisymmetric in the order */
    d = stats_newcombe(20, 50, 20, 50, STATS_Z95);
    CHECK(d.lo < 0 && d.hi > 0);
    NEAR(d.lo, -d.hi, 1e-12);
}

static void order_statistics(void)
{
    double x[] = {4, 1, 3, 2};
    stats_sort(x, 4);
    CHECK(x[0] == 1 && x[1] == 2 && x[2] == 3 && x[3] == 4);
    NEAR(stats_mean(x, 4), 2.5, 1e-12);
    NEAR(stats_quantile(x, 4, 0.5), 2.5, 1e-12);
    NEAR(stats_quantile(x, 4, 0.25), 1.75, 1e-12);
    NEAR(stats_quantile(x, 4, 0.75), 3.25, 1e-12);
    NEAR(stats_quantile(x, 4, 0.0), 1, 1e-12);
    NEAR(stats_quantile(x, 4, 1.0), 4, 1e-12);
    /* R: quantile(1:10) = 1.00 3.25 5.50 7.75 10.00 */
    double y[10];
    for (int i = 0; i < 10; i++)
        y[i] = 10 - i;
    stats_sort(y, 10);
    NEAR(stats_quantile(y, 10, 0.25), 3.25, 1e-12);
    NEAR(stats_quantile(y, 10, 0.5), 5.5, 1e-12);
    NEAR(stats_quantile(y, 10, 0.75), 7.75, 1e-12);
    /* odd sample: the middle value; one value: itself; none: 0 */
    double z[] = {7, 100, 3, 5, 9};
    stats_sort(z, 5);
    NEAR(stats_quantile(z, 5, 0.5), 7, 1e-12);
    NEAR(stats_quantile(z, 5, 0.25), 5, 1e-12);
    NEAR(stats_quantile(z, 5, 0.75), 9, 1e-12);
    NEAR(stats_mean(z, 5), 24.8, 1e-12);
    double one = 42;
    NEAR(stats_quantile(&one, 1, 0.3), 42, 1e-12);
    CHECK(stats_quantile(NULL, 0, 0.5) == 0.0);
    CHECK(stats_mean(NULL, 0) == 0.0);
}

static void histogram(void)
{
    double x[] = {0, 9.9, 10, 25, 39, 40, 1000, -3};
    long bins[4];
    stats_histogram(x, 8, 10.0, bins, 4);
    CHECK(bins[0] == 3); /* 0, 9.9 and -3 */
    CHECK(bins[1] == 1); /* 10 */
    CHECK(bins[2] == 1); /* 25 */
    CHECK(bins[3] == 3); /* 39, and 40 and 1000 past the end */
    stats_histogram(x, 8, 0.0, bins, 4);
    CHECK(bins[0] == 0 && bins[3] == 0);
}

/*
 * The expected values below were computed once by an independent Python script (not part of the
 * repository) written from fishtest's formulas (LLRcalc.py: regularize, LLR_alt2):
 * L(e) = 1/(1 + 10^(-e/400)); counts regularised by adding 0.001 to each when one is zero;
 * mu, var the mean and population variance of the pair scores i/4;
 * LLR = N (s1 - s0)(2 mu - s0 - s1) / (2 var); se = sqrt(var / N); Elo = -400 log10(1/p - 1).
 */
static void elo_and_sprt(void)
{
    NEAR(stats_elo(0.5), 0.0, 1e-12);
    NEAR(stats_elo(0.75), 190.848501887865, 1e-9); /* 400 log10(3) */
    CHECK(stats_elo(0.0) == -999.0 && stats_elo(1.0) == 999.0);
    NEAR(stats_elo_score(190.848501887865), 0.75, 1e-12);
    NEAR(stats_elo_score(-100.0), 0.359935000, 1e-9);

    static const double penta_v[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    static const double tri_v[3] = {0.0, 0.5, 1.0};
    long p1[5] = {5, 30, 100, 50, 15};
    stats_elo_est e = stats_elo_estimate(p1, penta_v, 5, STATS_Z95);
    NEAR(e.score, 0.55, 1e-12);
    NEAR(e.se, 0.01541103500742244, 1e-12);
    NEAR(e.elo, 34.86007028756008, 1e-9);
    NEAR(e.lo, 13.762116758004506, 1e-9);
    NEAR(e.hi, 56.21773467744544, 1e-9);
    long t1[3] = {30, 40, 50}; /* losses, draws, wins */
    e = stats_elo_estimate(t1, tri_v, 3, STATS_Z95);
    NEAR(e.score, 0.5833333333333334, 1e-12);
    NEAR(e.se, 0.036483126490454716, 1e-12);
    NEAR(e.elo, 58.45121427129523, 1e-9);
    NEAR(e.lo, 8.220274737185147, 1e-9);
    NEAR(e.hi, 111.24508672118412, 1e-9);

    /* all lost: the Wilson interval of 0/20 games, [0, 0.16113], is below -286.6 Elo; 10/10
     * pairs won: above +166.2 (Python: the Wilson formula, then -400 log10(1/p - 1)) */
    long t0[3] = {20, 0, 0};
    e = stats_elo_estimate(t0, tri_v, 3, STATS_Z95);
    CHECK(e.elo == -999.0 && e.lo == -999.0);
    NEAR(e.hi, -286.6135254494834, 1e-6);
    long pw[5] = {0, 0, 0, 0, 10};
    e = stats_elo_estimate(pw, penta_v, 5, STATS_Z95);
    CHECK(e.elo == 999.0 && e.hi == 999.0);
    NEAR(e.lo, 166.201527183891, 1e-6);

    stats_sprt s = stats_sprt_penta(p1, 0, 5, 0.05, 0.05);
    NEAR(s.llr, 1.4057662529, 1e-9);
    NEAR(s.lower, -2.9444389791664403, 1e-12);
    NEAR(s.upper, 2.9444389791664403, 1e-12);
    CHECK(s.verdict == 0);
    long p2[5] = {10, 20, 40, 20, 10};
    s = stats_sprt_penta(p2, 0, 5, 0.05, 0.05);
    NEAR(s.llr, -0.0345128005, 1e-9);
    CHECK(s.verdict == 0);
    long p3[5] = {0, 2, 10, 20, 8}; /* a zero count: regularised */
    s = stats_sprt_penta(p3, 0, 10, 0.05, 0.05);
    NEAR(s.llr, 3.0113516493, 1e-9);
    CHECK(s.verdict == 1);
    long p4[5] = {20, 40, 30, 10, 0};
    s = stats_sprt_penta(p4, -5, 5, 0.05, 0.05);
    NEAR(s.llr, -4.9738617033, 1e-9);
    CHECK(s.verdict == -1);
    long p5[5] = {1, 0, 0, 0, 0};
    s = stats_sprt_penta(p5, 0, 5, 0.05, 0.05);
    NEAR(s.llr, -0.0377674541, 1e-9); /* one cell only: a pair of 1/2 and one of 3/2 added */
    /* 8 drawn pairs, the start of many Russian matches: no spread shown, so no verdict (the
     * regularisation alone gave -10.6, H0); 57 in a row decide nothing, 58 accept H0 of (0, 10)
     * (Python: the same counts, the formula of stats.h) */
    long d8[5] = {0, 0, 8, 0, 0};
    s = stats_sprt_penta(d8, 0, 10, 0.05, 0.05);
    NEAR(s.llr, -0.0824669099, 1e-9);
    CHECK(s.verdict == 0);
    long d57[5] = {0, 0, 57, 0, 0}, d58[5] = {0, 0, 58, 0, 0};
    CHECK(stats_sprt_penta(d57, 0, 10, 0.05, 0.05).verdict == 0);
    CHECK(stats_sprt_penta(d58, 0, 10, 0.05, 0.05).verdict == -1);
    long p6[5] = {0, 0, 0, 0, 0};
    s = stats_sprt_penta(p6, 0, 5, 0.05, 0.05);
    CHECK(s.llr == 0.0 && s.verdict == 0);
    /* other error rates move the bounds: ln(0.1 / 0.95), ln(0.9 / 0.05) */
    s = stats_sprt_penta(p1, 0, 5, 0.05, 0.1);
    NEAR(s.lower, log(0.1 / 0.95), 1e-12);
    NEAR(s.upper, log(0.9 / 0.05), 1e-12);
}

int main(void)
{
    wilson();
    newcombe();
    order_statistics();
    histogram();
    elo_and_sprt();
    printf("test_stats: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
