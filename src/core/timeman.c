/*
 * timeman.c -- the clock and the time budget of one move.
 *
 * Soft limit: do not start a new iteration after it. Hard limit: abort the
 * search. With a fixed time a move (nothing saved for later moves) both are
 * that time less a margin for the reply to travel: 4% of it, at least 8 and
 * at most 20 ms (0.2 s: 192 ms); two thirds of it below 61 ms.
 *
 * With a clock: remaining / moves-to-go (default 30) plus most of the
 * increment, hard at three times that but never more than 40% of the
 * remaining time; a 50 ms safety margin for the protocol round trip.
 * search.c (step 12) moves the soft limit within [0.6, hard] by the
 * stability of the best move and the score.
 *
 * The clock is CLOCK_MONOTONIC: a change of the wall clock (NTP, the user)
 * neither stops a search at once nor lets it run on.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "engine.h"

long long cd_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cd_time_budget(const cd_limits *l, int side, long long *soft_ms, long long *hard_ms)
{
    *soft_ms = *hard_ms = -1; /* no limit */
    if (l->infinite)
        return;
    if (l->movetime > 0) {
        long long t = (long long)(l->movetime * 1000.0);
        long long margin = t / 25 < 8 ? 8 : t / 25 > 20 ? 20 : t / 25;
        *soft_ms = *hard_ms = t > 60 ? t - margin : t * 2 / 3;
        return;
    }
    double left = l->time[side], inc = l->inc[side];
    if (left <= 0 && inc <= 0)
        return;
    int mtg = l->moves_to_go > 0 ? l->moves_to_go : 30;
    double soft = left / mtg + inc * 0.8;
    double hard = soft * 3;
    double cap = left * 0.4 + inc * 0.5;
    if (hard > cap)
        hard = cap;
    if (soft > hard)
        soft = hard;
    long long s = (long long)(soft * 1000.0) - 50, h = (long long)(hard * 1000.0) - 50;
    *soft_ms = s < 5 ? 5 : s;
    *hard_ms = h < 10 ? 10 : h;
}
