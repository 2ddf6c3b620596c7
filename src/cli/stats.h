/*
 * stats.h -- the small statistics of `condraughts study` and `condraughts match` (stats.c):
 * proportions with their confidence intervals, order statistics of samples, Elo differences
 * with their intervals, and the sequential probability ratio test (SPRT) of engine matches.
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

/* The logistic Elo difference of a score fraction p: -400 log10(1/p - 1); -999 / +999 at or
 * beyond 0 and 1. */
double stats_elo(double p);

/* The expected score of an Elo difference: 1 / (1 + 10^(-elo / 400)). */
double stats_elo_score(double elo);

typedef struct stats_elo_est {
    double score;  /* mean score per game (0..1) */
    double se;     /* its standard error */
    double elo;    /* stats_elo(score) */
    double lo, hi; /* stats_elo(score -+ z se) */
} stats_elo_est;

/*
 * Elo with its interval from k outcome classes: class i scores value[i] (per game, 0..1) and
 * was seen count[i] times. The mean and the variance of the outcomes give the standard error of
 * the mean, se = sd / sqrt(N) (population variance, as fishtest); the interval is the Elo of
 * score -+ z se. Trinomial: values 0, 1/2, 1 over games; pentanomial: 0, 1/4, 1/2, 3/4, 1 over
 * game pairs (each opening with both colours), which takes the pairing into account. When
 * every outcome scored 0 (or every one 1) there is no spread: the interval is then the Elo of
 * the Wilson interval of 0 (or N) successes in N (stats_wilson).
 */
stats_elo_est stats_elo_estimate(const long *count, const double *value, int k, double z);

typedef struct stats_sprt {
    double llr;          /* log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) */
    double lower, upper; /* ln(beta / (1 - alpha)) and ln((1 - beta) / alpha) */
    int verdict;         /* 1: H1 accepted (llr >= upper), -1: H0 accepted (llr <= lower), 0 */
} stats_sprt;

/*
 * The SPRT of a match on the pentanomial counts of game pairs: penta[j] pairs in which the
 * first engine scored j/2 points out of 2 (j = 0..4). Logistic Elo, the generalized SPRT
 * (GSPRT, M. Van den Bergh) with the log-likelihood ratio in its quadratic (normal)
 * approximation, LLR_alt2 in fishtest's LLRcalc.py:
 *   LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)
 * with N the number of pairs, mu and var the mean and variance of the pair score (0, 1/4, ...,
 * 1 per game), s0 = stats_elo_score(elo0), s1 = stats_elo_score(elo1). When a count is zero,
 * 0.001 is added to every count first (fishtest's regularisation), so few pairs give a finite
 * value. When every pair so far has the same score (8 drawn pairs, common in Russian), the pairs
 * show no spread and that regularisation alone leaves a variance near 0 and an LLR far past
 * either bound (8 drawn pairs gave -10.6 and "H0 accepted" after 16 games): one pair of 1/2 and
 * one of 3/2 are then counted as well, a spread the pairs have not yet shown (8 drawn pairs:
 * -0.08; about 60 drawn pairs in a row accept H0 of (0, 10)). No pairs: llr 0.
 */
stats_sprt stats_sprt_penta(const long penta[5], double elo0, double elo1, double alpha,
                            double beta);

#endif
