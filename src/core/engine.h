/*
 * engine.h -- internal state of the engine: transposition table, move
 * ordering tables, time control, stop flags.
 *
 * Transposition table: 2^k buckets of 16-byte entries, always-replace on a
 * deeper or newer entry. An entry keeps the upper 32 bits of the Zobrist key
 * for verification and the best move as its index in the generator's list
 * (the generator is deterministic, so the index names the same move again).
 */
#ifndef CD_ENGINE_H
#define CD_ENGINE_H

#include <stdatomic.h>

#include "condraughts.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    uint32_t check; /* key >> 32 */
    int16_t score;
    int16_t move; /* index in the move list, -1 none */
    int8_t depth;
    uint8_t bound;
    uint8_t age;
    uint8_t pad[5];
} tt_entry;

struct cd_engine {
    tt_entry *tt;
    size_t tt_mask; /* entries - 1 (a power of two) */
    uint8_t age;
    int history[2][128][128]; /* [side][from][to], quiet moves that caused cutoffs */
    cd_move killers[CD_MAX_PLY][2];
    atomic_int stop;           /* set by cd_engine_stop or the clock */
    atomic_int pondering;      /* 1 while a ponder search waits for ponderhit */
    atomic_llong ponderhit_ms; /* clock reading at ponderhit (ms) */
    /* search steps that can be switched off to measure what each gains */
    int use_lmr, use_aspiration, use_killers, use_history, use_ttcut, use_single;
    int use_classic_eval; /* 1: the hand-set evaluation even where learned weights are loaded */
    cd_egtb *egtb;        /* endgame tables probed in the search (not owned), or NULL */
};

/* tt.c */
int cd_tt_alloc(cd_engine *e, size_t mb);
void cd_tt_clear(cd_engine *e);
tt_entry *cd_tt_probe(cd_engine *e, uint64_t key);
void cd_tt_store(cd_engine *e, uint64_t key, int score, int move, int depth, int bound);

/* eval.c: White's point of view (learned where loaded, else hand-set), the hand-set one, and the
 * engine's choice from the side to move's view */
int cd_eval_white(const cd_position *pos);
int cd_eval_classic_white(const cd_position *pos);
int cd_engine_evaluate(const cd_engine *e, const cd_position *pos);

/* timeman.c: milliseconds since an arbitrary origin, and this move's budget */
long long cd_now_ms(void);
void cd_time_budget(const cd_limits *l, int side, long long *soft_ms, long long *hard_ms);

#endif
