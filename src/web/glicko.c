/*
 * glicko.c -- Glicko-2 (glicko.h), step by step as Glickman's paper numbers them.
 */
#include "glicko.h"

#include <math.h>

#define EPSILON 0.000001
#define PI      3.14159265358979323846

static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x). */
static double f_of(double x, double delta, double phi, double v, double a)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
           (x - a) / (GLICKO_TAU * GLICKO_TAU);
}

/* Step 5: the new volatility (the Illinois algorithm). */
static double new_volatility(double sigma, double delta, double phi, double v)
{
    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * GLICKO_TAU, delta, phi, v, a) < 0 && k < 1000)
            k++;
        B = a - k * GLICKO_TAU;
    }
    double fA = f_of(A, delta, phi, v, a), fB = f_of(B, delta, phi, v, a);
    for (int it = 0; fabs(B - A) > EPSILON && it < 1000; it++) {
        double C = A + (A - B) * fA / (fB - fA), fC = f_of(C, delta, phi, v, a);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2.0);
}

glicko glicko_idle(glicko p, double periods)
{
    if (!(periods > 0))
        return p;
    double phi = p.rd / GLICKO_SCALE, rd = GLICKO_SCALE * sqrt(phi * phi + periods * p.vol * p.vol);
    p.rd = rd < 350.0 ? rd : 350.0;
    return p;
}

glicko glicko_update(glicko p, const glicko *opp, const double *s, int n)
{
    double mu = (p.rating - 1500.0) / GLICKO_SCALE, phi = p.rd / GLICKO_SCALE; /* step 2 */
    if (n == 0)                                                  /* step 6 alone */
        return glicko_idle(p, 1);
    double inv_v = 0, sum = 0; /* steps 3 and 4 */
    for (int i = 0; i < n; i++) {
        double mu_j = (opp[i].rating - 1500.0) / GLICKO_SCALE, phi_j = opp[i].rd / GLICKO_SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (s[i] - e);
    }
    double v = 1.0 / inv_v, delta = v * sum;
    double sigma = new_volatility(p.vol, delta, phi, v);                /* step 5 */
    double phi_star = sqrt(phi * phi + sigma * sigma);                  /* step 6 */
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v); /* step 7 */
    double mu_new = mu + phi_new * phi_new * sum;
    glicko out = {GLICKO_SCALE * mu_new + 1500.0, GLICKO_SCALE * phi_new, sigma}; /* step 8 */
    if (out.rd > 350.0)
        out.rd = 350.0;
    return out;
}
