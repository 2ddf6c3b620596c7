/*
 * test_glicko.c -- Glicko-2 (src/web/glicko.c) against the worked example of Glickman's paper
 * ("Example of the Glicko-2 system"): a player rated 1500, RD 200, volatility 0.06 beats a 1400
 * (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), tau 0.5: 1464.06, RD 151.52,
 * volatility 0.05999. And the plain properties: a win raises, a loss lowers, a draw between
 * equals leaves the rating, RD shrinks with a game and grows without one (a period, or many:
 * glicko_idle), never above 350.
 */
#include <math.h>
#include <stdio.h>

#include "../src/web/glicko.h"

static int pass, fail;

static void check(int ok, const char *what, double got)
{
    if (ok)
        pass++;
    else {
        fail++;
        printf("FAIL %s (got %.6f)\n", what, got);
    }
}

int main(void)
{
    glicko p = {1500, 200, 0.06};
    glicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double s[3] = {1, 0, 0};
    glicko r = glicko_update(p, opp, s, 3);
    check(fabs(r.rating - 1464.06) < 0.01, "paper example: rating 1464.06", r.rating);
    check(fabs(r.rd - 151.52) < 0.01, "paper example: RD 151.52", r.rd);
    check(fabs(r.vol - 0.05999) < 0.00001, "paper example: volatility 0.05999", r.vol);

    glicko a = GLICKO_NEW, b = GLICKO_NEW;
    double win = 1, draw = 0.5, loss = 0;
    glicko w = glicko_update(a, &b, &win, 1), l = glicko_update(b, &a, &loss, 1);
    check(w.rating > 1500 && l.rating < 1500, "a win raises, a loss lowers", w.rating);
    check(fabs((w.rating - 1500) + (l.rating - 1500)) < 1e-6, "equal newcomers: symmetric",
          l.rating);
    check(w.rd < 350, "a game makes the rating surer", w.rd);
    glicko d = glicko_update(a, &b, &draw, 1);
    check(fabs(d.rating - 1500) < 1e-6, "a draw between equals keeps the rating", d.rating);
    glicko idle = glicko_update(r, NULL, NULL, 0);
    check(idle.rd > r.rd && idle.rating == r.rating, "no game: RD grows", idle.rd);
    check(glicko_update(GLICKO_NEW, NULL, NULL, 0).rd == 350, "RD never above 350", 350);
    /* 100 idle days: 173.7178 * sqrt((50 / 173.7178)^2 + 100 * 0.06^2) = 115.60 */
    glicko sure = {1600, 50, 0.06};
    glicko aged = glicko_idle(sure, 100);
    check(fabs(aged.rd - 115.60) < 0.01 && aged.rating == 1600 && aged.vol == 0.06,
          "100 idle periods: RD 50 -> 115.60", aged.rd);
    check(glicko_idle(sure, 1).rd == glicko_update(sure, NULL, NULL, 0).rd,
          "one idle period is step 6 alone", glicko_idle(sure, 1).rd);
    check(glicko_idle(sure, 0).rd == 50, "no idle period: RD kept", glicko_idle(sure, 0).rd);
    check(glicko_idle(sure, 1e9).rd == 350, "a long absence: RD 350 at most",
          glicko_idle(sure, 1e9).rd);
    printf("glicko: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
