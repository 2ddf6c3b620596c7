/*
 * engine.h -- internal state of the engine: transposition table, move
 * ordering tables, time control, stop flags.
 *
 * Transposition table (tt.c): 2^k buckets of TT_WAYS = 4 entries, one
 * 64-byte cache line per bucket; a position's bucket is key & tt_mask. An
 * entry is two 64-bit words: data = score (16 bits) | move (16) | depth (8) |
 * bound (2) << 40 | age (8) << 48, and lock = key ^ data, so a probe verifies
 * all 64 key bits and rejects an entry torn by concurrent writers. The best
 * move is kept as its index in the generator's list (the generator is
 * deterministic, so the index names the same move again).
 */
#ifndef CD_ENGINE_H
#define CD_ENGINE_H

#include <stdatomic.h>

#include "condraughts.h"
#include "net.h"
#include "search_params.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

enum { TT_WAYS = 4 };

typedef struct tt_entry {
    _Atomic uint64_t data, lock;
} tt_entry;

typedef struct tt_bucket {
    tt_entry e[TT_WAYS];
} tt_bucket;

/* one entry unpacked */
typedef struct tt_data {
    int16_t score;
    int16_t move; /* index in the move list, -1 none */
    int8_t depth;
    uint8_t bound;
    uint8_t age;
} tt_data;

/* A search node's moves and their ordering scores, one per ply of a thread: kept off the C
 * stack, where they (and a third array, of generator indices) took 18 KB a node and spread each
 * ply of the path over several pages. The search numbers
 * the moves in generator order in cd_move.reserved, the index the table stores. */
typedef struct cd_node_moves {
    cd_movelist list;
    int score[CD_MAX_MOVES];
} cd_node_moves;

/* Evaluation cache of a thread: 2^CD_EVCACHE_BITS entries, direct-mapped, entry = (key ^ salt)
 * with its low 16 bits replaced by the static value (int16). An entry is valid when its high 48
 * bits equal those of the probing key ^ salt at the slot (key ^ salt) & mask; the salt changes
 * with every search, so no entry outlives the weights or options it was computed with. */
enum { CD_EVCACHE_BITS = 16 };

/* Correction history of a thread (search.c step 21, "corr"): what the searches of this game
 * found the static value to be off by, learned per configuration of one colour's men (and the
 * number of kings of each side), two tables: [table][side to move][index]. Entry = the mean
 * error in 1/CD_CORR_GRAIN of a score unit, bounded by CD_CORR_LIMIT. Cleared with the table
 * (cd_engine_clear), kept from move to move. */
enum { CD_CORR_BITS = 14, CD_CORR_GRAIN = 16, CD_CORR_LIMIT = 16 * 200 };
typedef int16_t cd_corr[2][2][1 << CD_CORR_BITS];

/* A search thread's own tables: move ordering, node moves, evaluation cache, network sums and
 * correction history. workers[0] is the main thread's, the others lazy SMP helpers'. */
typedef struct cd_worker {
    int history[2][128][128]; /* [side][from][to], quiet moves that caused cut-offs */
    cd_move killers[CD_MAX_PLY][2];
    cd_node_moves moves[CD_MAX_PLY + 1]; /* by ply */
    uint64_t evcache[1 << CD_EVCACHE_BITS];
    cd_net_cache netcache; /* (net.h) */
    cd_corr corr;
} cd_worker;

enum { CD_MAX_THREADS = 64 };

/* The engine: the shared table, the threads' tables, the stop flags, and the run-time options
 * (search_options.c). The search's tuned parameters are constants (search_params.h); a tuning
 * build (-DCD_TUNE) keeps a settable copy here. */
struct cd_engine {
    tt_bucket *tt;
    size_t tt_mask; /* buckets - 1 (a power of two) */
    uint8_t age;
    int threads;                /* search threads, 1 to CD_MAX_THREADS (option "threads") */
    cd_worker *workers;         /* threads of them: [0] the main thread's */
    uint64_t searches;          /* searches started: the evaluation caches' salt */
    atomic_int stop;            /* set by cd_engine_stop or the clock */
    atomic_int pondering;       /* 1 while a ponder search waits for ponderhit */
    atomic_llong ponderhit_ms;  /* clock reading at ponderhit (ms) */
    atomic_int helpers_stop;    /* set when the main thread has finished its search */
    atomic_ullong helper_nodes; /* the helpers' nodes of this search, published every 256 */
    cd_egtb *egtb;              /* endgame tables probed in the search (not owned), or NULL */
    const cd_eval *eval;        /* the learned evaluation (cd_engine_set_eval; not owned), or NULL */
    int8_t lmr[64][64];         /* LMR by [depth][moves searched], from the divisor "lmrdiv" */
    int contempt; /* a draw is worth -contempt to the side to move at the root and +contempt
                     to its opponent, in hundredths of a man ("contempt") */
    int use_classic_eval; /* 1: the hand-set evaluation even where learned weights are loaded */
    int use_net;          /* 1 (default): the network stacked on the learned weights (net.h), where
                             one is loaded, adds its correction; 0: the weights alone ("net") */
    int use_drawscale;    /* drawish material scaled down in the learned score (eval.c): 0 off,
                             1 on, 2 (default) where the family says (pattern.c) */
#ifdef CD_TUNE
    cd_search_params params; /* the search's parameters, settable by name */
#endif
};

/* tt.c */
int cd_tt_alloc(cd_engine *e, size_t mb);
void cd_tt_clear(cd_engine *e);
int cd_tt_probe(cd_engine *e, uint64_t key, tt_data *out);
void cd_tt_store(cd_engine *e, uint64_t key, int score, int move, int depth, int bound);

/* eval.c: the hand-set evaluation, White's point of view, and the engine's choice from the side
 * to move's view (e->eval's weights for pos's rules where it has them, else the hand-set one) */
int cd_eval_classic_white(const cd_position *pos);
int cd_engine_evaluate(const cd_engine *e, const cd_position *pos);
/* The same with the learned weights of pos's rules given (cd_eval_for, resolved once by the
 * search; NULL: the hand-set evaluation) and the thread's cache of the network's sums (net.h;
 * NULL: none, the same value). */
struct cd_pattern_weights;
struct cd_net_cache;
int cd_engine_evaluate_with(const cd_engine *e, const struct cd_pattern_weights *pw,
                            const cd_position *pos, struct cd_net_cache *nc);

/* timeman.c: milliseconds since an arbitrary origin, and this move's budget */
long long cd_now_ms(void);
void cd_time_budget(const cd_limits *l, int side, long long *soft_ms, long long *hard_ms);

#endif
