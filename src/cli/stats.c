/*
 * stats.c -- the small statistics of `condraughts study` and `condraughts match`: the Wilson
 * score interval of a proportion, Newcombe's interval of a difference of two proportions, mean,
 * quantiles and histograms of a sample, Elo estimates and the match SPRT (formulas in stats.h).
 * Pure functions, no I/O.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

stats_interval stats_wilson(long k, long n, double z)
{
    stats_interval r = {0.0, 1.0};
    if (n <= 0)
        return r;
    if (k < 0)
        k = 0;
    if (k > n)
        k = n;
    double nn = (double)n, p = (double)k / nn, z2 = z * z;
    double denom = 1.0 + z2 / nn;
    double centre = (p + z2 / (2.0 * nn)) / denom;
    double half = z / denom * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn));
    r.lo = centre - half;
    r.hi = centre + half;
    /* exact ends for k == 0 and k == n (the formula gives them up to rounding) */
    if (k == 0 || r.lo < 0.0)
        r.lo = 0.0;
    if (k == n || r.hi > 1.0)
        r.hi = 1.0;
    return r;
}

stats_interval stats_newcombe(long k1, long n1, long k2, long n2, double z)
{
    double p1 = n1 > 0 ? (double)k1 / (double)n1 : 0.0;
    double p2 = n2 > 0 ? (double)k2 / (double)n2 : 0.0;
    stats_interval w1 = stats_wilson(k1, n1, z), w2 = stats_wilson(k2, n2, z);
    double d = p1 - p2;
    stats_interval r;
    r.lo = d - sqrt((p1 - w1.lo) * (p1 - w1.lo) + (w2.hi - p2) * (w2.hi - p2));
    r.hi = d + sqrt((w1.hi - p1) * (w1.hi - p1) + (p2 - w2.lo) * (p2 - w2.lo));
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
    if (n > 1)
        qsort(x, n, sizeof *x, cmp_double);
}

double stats_mean(const double *x, size_t n)
{
    if (!n)
        return 0.0;
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / (double)n;
}

double stats_quantile(const double *sorted, size_t n, double p)
{
    if (!n)
        return 0.0;
    if (p <= 0.0)
        return sorted[0];
    if (p >= 1.0)
        return sorted[n - 1];
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= n)
        return sorted[n - 1];
    return sorted[i] + (h - (double)i) * (sorted[i + 1] - sorted[i]);
}

void stats_histogram(const double *x, size_t n, double width, long *bins, int nbins)
{
    for (int i = 0; i < nbins; i++)
        bins[i] = 0;
    if (nbins <= 0 || !(width > 0.0))
        return;
    for (size_t k = 0; k < n; k++) {
        double b = floor(x[k] / width);
        int i = b < 0.0 ? 0 : b >= (double)nbins ? nbins - 1 : (int)b;
        bins[i]++;
    }
}

double stats_elo(double p)
{
    if (p <= 0.0)
        return -999.0;
    if (p >= 1.0)
        return 999.0;
    double e = -400.0 * log10(1.0 / p - 1.0);
    return e < -999.0 ? -999.0 : e > 999.0 ? 999.0 : e + 0.0; /* no -0 */
}

double stats_elo_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Mean and population variance of the outcomes; the total count in *n. */
static void moments(const double *count, const double *value, int k, double *n, double *mu,
                    double *var)
{
    double tot = 0.0, s = 0.0, ss = 0.0;
    for (int i = 0; i < k; i++) {
        tot += count[i];
        s += count[i] * value[i];
    }
    *n = tot;
    *mu = tot > 0.0 ? s / tot : 0.5;
    for (int i = 0; i < k; i++)
        ss += count[i] * (value[i] - *mu) * (value[i] - *mu);
    *var = tot > 0.0 ? ss / tot : 0.0;
}

stats_elo_est stats_elo_estimate(const long *count, const double *value, int k, double z)
{
    double c[8], n, mu, var;
    for (int i = 0; i < k && i < 8; i++)
        c[i] = (double)count[i];
    moments(c, value, k < 8 ? k : 8, &n, &mu, &var);
    stats_elo_est e;
    e.score = mu;
    e.se = n > 0.0 ? sqrt(var / n) : 0.0;
    e.elo = stats_elo(mu);
    e.lo = stats_elo(mu - z * e.se);
    e.hi = stats_elo(mu + z * e.se);
    if (n > 0.0 && var == 0.0 && (mu == 0.0 || mu == 1.0)) {
        /* all lost or all won: no spread to measure, the Wilson interval of k = 0 or n */
        stats_interval w = stats_wilson(mu == 0.0 ? 0 : (long)n, (long)n, z);
        e.lo = stats_elo(w.lo);
        e.hi = stats_elo(w.hi);
    }
    return e;
}

stats_sprt stats_sprt_penta(const long penta[5], double elo0, double elo1, double alpha,
                            double beta)
{
    static const double value[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    stats_sprt r;
    r.lower = log(beta / (1.0 - alpha));
    r.upper = log((1.0 - beta) / alpha);
    r.llr = 0.0;
    r.verdict = 0;
    double c[5], n, mu, var;
    int cells = 0; /* counts that are not zero */
    for (int i = 0; i < 5; i++) {
        cells += penta[i] > 0;
        c[i] = (double)penta[i];
    }
    if (!cells)
        return r;
    if (cells == 1) { /* no spread shown yet: a pair of 1/2 and one of 3/2 */
        c[1] += 1.0;
        c[3] += 1.0;
    }
    int zero = 0;
    for (int i = 0; i < 5; i++)
        zero |= c[i] == 0.0;
    for (int i = 0; i < 5; i++)
        c[i] += zero ? 1e-3 : 0.0;
    moments(c, value, 5, &n, &mu, &var);
    double s0 = stats_elo_score(elo0), s1 = stats_elo_score(elo1);
    r.llr = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
    r.verdict = r.llr >= r.upper ? 1 : r.llr <= r.lower ? -1 : 0;
    return r;
}
