/*
 * glicko.h -- Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012,
 * http://www.glicko.net/glicko/glicko2.pdf): a rating, its deviation (how unsure it is) and its
 * volatility. Pure arithmetic; play.c rates every finished game between people (not aborted)
 * as one rating period of one game for each player, as lichess does, after the deviation has
 * grown for the whole days since the player's last rated game (GLICKO_PERIOD_MS, glicko_idle).
 */
#ifndef CD_WEB_GLICKO_H
#define CD_WEB_GLICKO_H

typedef struct glicko {
    double rating; /* 1500 for a newcomer */
    double rd;     /* rating deviation, 350 for a newcomer, never above */
    double vol;    /* volatility, 0.06 for a newcomer */
} glicko;

#define GLICKO_NEW       ((glicko){1500.0, 350.0, 0.06})
#define GLICKO_TAU       0.5        /* the system constant: how much the volatility may change */
#define GLICKO_PERIOD_MS 86400000LL /* a rating period without games: one day */
#define GLICKO_SCALE     173.7178   /* the Glicko-2 scale: 400 / ln(10) */
/* A rating whose deviation is above this is provisional (few games yet, or long unplayed), as
 * lichess marks it: shown with a "?" and kept off the leaderboards (profile.h). */
#define GLICKO_PROVISIONAL_RD 110

/* The rating after one rating period in which p met n opponents opp[i] with scores s[i] (1 a
 * win, 0.5 a draw, 0 a loss); n = 0: only the deviation grows. */
glicko glicko_update(glicko p, const glicko *opp, const double *s, int n);
/* The rating after `periods` rating periods without a game: Glickman's step 6 once a period,
 * phi'^2 = phi^2 + periods * sigma^2 (rating and volatility unchanged), RD never above 350;
 * periods <= 0: p. */
glicko glicko_idle(glicko p, double periods);

#endif
