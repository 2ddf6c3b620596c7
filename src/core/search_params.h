/*
 * search_params.h -- the search's tuned parameters, in one list.
 *
 * CD_SEARCH_PARAMS(X) names each: X(field, option name, default, lowest, highest, switch,
 * meaning). A switch is on or off: every value is taken, nonzero as on. docs/strength.md says
 * what each was measured to gain ("The search's steps", the ladder).
 *
 * A release build reads them as compile-time constants: cd_search_defaults is static const, so
 * the compiler folds every read and drops the branches of a step that is off. A tuning build
 * (`make tune`, compiled with -DCD_TUNE) keeps a copy in each engine (cd_engine.params) that
 * cd_engine_set_option sets by name, as Ethereal's -DTUNE and Stockfish's TUNE() do; the
 * search then reads that copy. The engine's other options (threads, contempt, the evaluation's
 * choices) are run-time options in every build (search_options.c).
 */
#ifndef CD_SEARCH_PARAMS_H
#define CD_SEARCH_PARAMS_H

#define CD_SEARCH_PARAMS(X)                                                                        \
    X(aspiration, "aspiration", 1, 0, 1, 1, "aspiration windows from depth 4")                     \
    X(killers, "killers", 1, 0, 1, 1, "killer moves in the move order (step 5)")                   \
    X(history, "history", 1, 0, 1, 1, "the history heuristic in the move order (step 5)")          \
    X(ttcut, "ttcut", 1, 0, 1, 1, "transposition table cut-offs at non-PV nodes (step 3)")         \
    X(single, "single", 1, 0, 1, 1, "a forced single reply searched a ply deeper (step 8)")        \
    X(probcut, "probcut", 1, 0, 1, 1, "ProbCut (step 11)")                                         \
    X(timeman, "timeman", 1, 0, 1, 1, "a soft time limit that follows the search (step 12)")       \
    X(qpromo, "qpromo", 1, 0, 1, 1, "quiet promotions in quiescence (step 14)")                    \
    X(histmalus, "histmalus", 1, 0, 1, 1, "quiet moves tried before a cut-off lose history (18)")  \
    X(qexch, "qexch", 1, 0, 1, 0, "exchange offers in quiescence, without kings (step 19)")        \
    X(lmr_div, "lmrdiv", 230, 50, 1000, 0, "the LMR table's divisor in hundredths (steps 10, 18)") \
    X(lmr_from, "lmrfrom", 1, 0, 10, 0, "non-PV moves from this one on reduced a ply, 0 off (15)") \
    X(lmr2_from, "lmr2from", 6, 0, 60, 0, "non-PV moves from this one on reduced 2 plies (52)")    \
    X(probcut_margin, "pcmargin", 80, 0, 10000, 0, "ProbCut's margin above beta, 1/100 man")       \
    X(probcut_min, "pcmin", 5, 2, 60, 0, "ProbCut from this depth on")                             \
    X(rfp_margin, "rfp", 40, 0, 1000, 0, "reverse futility margin a ply, 0 off (step 16)")         \
    X(rfp_depth, "rfpdepth", 3, 0, 20, 0, "reverse futility up to this depth")                     \
    X(iir, "iir", 5, 0, 60, 0, "internal iterative reduction from this depth, 0 off (step 17)")    \
    X(tt_keep, "ttkeep", 1, 0, 60, 0, "a deeper bound kept against a shallower one (51)")          \
    X(asp_window, "aspwin", 30, 5, 1000, 0, "the aspiration window's first half-width")            \
    X(se_depth, "sedepth", 6, 0, 60, 0, "singular extensions from this depth, 0 off (step 20)")    \
    X(se_margin, "semargin", 4, 0, 1000, 0, "singular extensions' margin a ply, 1/100 man")        \
    X(corr_pct, "corr", 200, 0, 400, 0, "correction history's share in percent, 0 off (step 21)")

#define CD_SEARCH_PARAM_FIELD(field, name, def, lo, hi, sw, about) int field;
typedef struct cd_search_params {
    CD_SEARCH_PARAMS(CD_SEARCH_PARAM_FIELD)
} cd_search_params;
#undef CD_SEARCH_PARAM_FIELD

#define CD_SEARCH_PARAM_DEFAULT(field, name, def, lo, hi, sw, about) .field = def,
static const cd_search_params cd_search_defaults = {CD_SEARCH_PARAMS(CD_SEARCH_PARAM_DEFAULT)};
#undef CD_SEARCH_PARAM_DEFAULT

#endif
