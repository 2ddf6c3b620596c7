/*
 * stats.h -- the small statistics of `condraughts study` (stats.c): proportions with their
 * confidence intervals, and order statistics of samples.
 */
#ifndef CD_STATS_H
#define CD_STATS_H

#include <stddef.h>

/* z for a two-sided 95% interval (the 0.975 quantile of the normal distribution). */
#define STATS_Z95 1.959963984540054

typedef struct stats_interval {
    double lo, hi;
} stats_interval;

/*
 * The Wilson score interval of a proportion k/n at normal quantile z (STATS_Z95 for 95%).
 * n == 0 (nothing known) gives [0, 1]; k is clamped to 0..n.
 */
stats_interval stats_wilson(long k, long n, double z);

/*
 * Newcombe's hybrid score interval (his method 10) of the difference k1/n1 - k2/n2 of two
 * independent proportions, built from their Wilson intervals.
 */
stats_interval stats_newcombe(long k1, long n1, long k2, long n2, double z);

/* Sort x ascending (in place). */
void stats_sort(double *x, size_t n);

/* The arithmetic mean of x (0 when n == 0). */
double stats_mean(const double *x, size_t n);

/*
 * The p-quantile (0 <= p <= 1) of an ascending sample by linear interpolation between order
 * statistics (Hyndman and Fan's type 7, the default of R and of spreadsheets): with
 * h = (n - 1) p, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]). So the median of an
 * even sample is the mean of the middle two. 0 when n == 0.
 */
double stats_quantile(const double *sorted, size_t n, double p);

/*
 * Count x into nbins bins of the given width starting at 0: bin i holds width*i <= x <
 * width*(i+1); values past the last bin go into the last, negative ones into the first.
 */
void stats_histogram(const double *x, size_t n, double width, long *bins, int nbins);

#endif
