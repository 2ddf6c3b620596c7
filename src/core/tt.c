/*
 * tt.c -- the transposition table.
 *
 * Layout (engine.h): 2^k buckets of 4 entries of 16 bytes, one 64-byte cache
 * line per bucket, the table aligned to 64 bytes. An entry is two 64-bit
 * words, `data` (score, move index, depth, bound, age) and `lock`, the
 * Zobrist key XOR data; a probe accepts an entry only when lock ^ data gives
 * the key back, so an entry torn by two threads writing at once is never
 * believed (lockless hashing, Hyatt and Mann). The words are relaxed atomics:
 * plain loads and stores on x86-64, and no data race for the sanitizer.
 *
 * Replacement: an entry of the same position is overwritten (keeping its move
 * when the new result has none), unless the entry is of this search, at least
 * `ttkeep` plies deeper (search_params.h; 1 by default, 0 off) and the new bound
 * is not exact: then the deeper entry stays as it is (Scan 2.0's rule; a
 * ProbCut or reduced re-search of the same position no longer overwrites what a
 * full-depth search found). Otherwise the empty entry, else the entry of an
 * older search, else the shallowest one.
 *
 * Pages: a table of 2 MB or more is aligned to 2 MB and, on Linux, offered to
 * the kernel for transparent huge pages (madvise). Every probe lands on a
 * random line of a table far larger than the TLB reaches with 4 KB pages; with
 * 2 MB pages the page walks mostly go (docs/strength.md, "Speed").
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <sys/mman.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "aligned.h"
#include "engine.h"
#include "search_internal.h"

static inline uint64_t pack(int score, int move, int depth, int bound, int age)
{
    return (uint64_t)(uint16_t)score | (uint64_t)(uint16_t)move << 16 |
           (uint64_t)(uint8_t)depth << 32 | (uint64_t)(bound & 3) << 40 |
           (uint64_t)(uint8_t)age << 48;
}

static inline void unpack(uint64_t d, tt_data *out)
{
    out->score = (int16_t)(uint16_t)d;
    out->move = (int16_t)(uint16_t)(d >> 16);
    out->depth = (int8_t)(uint8_t)(d >> 32);
    out->bound = (uint8_t)((d >> 40) & 3);
    out->age = (uint8_t)(d >> 48);
}

int cd_tt_alloc(cd_engine *e, size_t mb)
{
    if (mb == 0)
        mb = 64;
    if (mb > 65536)
        mb = 65536;
    size_t n = 1;
    while (n * 2 * sizeof(tt_bucket) <= mb * 1024 * 1024)
        n *= 2;
    size_t bytes = n * sizeof(tt_bucket), huge = (size_t)2 << 20;
    tt_bucket *t = cd_aligned_alloc(bytes >= huge ? huge : 64, bytes);
    if (!t)
        return 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= huge)
        madvise(t, bytes, MADV_HUGEPAGE); /* a refusal only costs speed */
#endif
    memset(t, 0, bytes);
    cd_aligned_free(e->tt);
    e->tt = t;
    e->tt_mask = n - 1;
    return 1;
}

void cd_tt_clear(cd_engine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof *e->tt);
    e->age = 0;
}

int cd_tt_probe(cd_engine *e, uint64_t key, tt_data *out)
{
    tt_bucket *b = &e->tt[key & e->tt_mask];
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t l = atomic_load_explicit(&b->e[i].lock, memory_order_relaxed);
        if ((l ^ d) == key && ((d >> 40) & 3) != TT_NONE) {
            unpack(d, out);
            return 1;
        }
    }
    return 0;
}

void cd_tt_store(cd_engine *e, uint64_t key, int score, int move, int depth, int bound)
{
    tt_bucket *b = &e->tt[key & e->tt_mask];
    int age = e->age;
    depth = depth < 0 ? 0 : depth > 127 ? 127 : depth;
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t l = atomic_load_explicit(&b->e[i].lock, memory_order_relaxed);
        tt_data t;
        unpack(d, &t);
        if (t.bound == TT_NONE) {
            if (worst > -1000) {
                victim = i;
                worst = -1000;
            }
            continue;
        }
        if ((l ^ d) == key) {
            int keep = search_params(e)->tt_keep;
            if (keep && bound != TT_EXACT && t.age == (uint8_t)age && t.depth >= depth + keep)
                return;
            if (move < 0)
                move = t.move; /* keep the old best move when this search has none */
            victim = i;
            break;
        }
        int v = t.depth - (t.age != (uint8_t)age ? 256 : 0);
        if (v < worst) {
            worst = v;
            victim = i;
        }
    }
    uint64_t d = pack(score, move, depth, bound, age);
    atomic_store_explicit(&b->e[victim].data, d, memory_order_relaxed);
    atomic_store_explicit(&b->e[victim].lock, key ^ d, memory_order_relaxed);
}
