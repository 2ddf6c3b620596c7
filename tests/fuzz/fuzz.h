/*
 * fuzz.h -- shared helpers of the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Every target defines LLVMFuzzerTestOneInput. Built with clang's
 * -fsanitize=fuzzer it is a libFuzzer target (`make fuzz`); built with any
 * compiler together with tests/fuzz/replay.c it is a program that runs the
 * files and directories named on its command line through the same function
 * (the regression replay of `make test`, `make fuzz-regress`).
 *
 * A broken invariant calls FZ_CHECK, which prints what and aborts, so that
 * libFuzzer keeps the input as a crash.
 */
#ifndef CD_FUZZ_H
#define CD_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A NUL-terminated copy of data[0..n) (free it). Embedded NULs stay: C parsers stop there. */
static inline char *fz_cstr(const uint8_t *data, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        abort();
    if (n)
        memcpy(s, data, n);
    s[n] = '\0';
    return s;
}

/* Number of built-in variants. */
static inline int fz_variant_count(void)
{
    int n = 0;
    while (cd_rules_at(n))
        n++;
    return n;
}

/*
 * The variant a selector byte names: the low 5 bits pick a built-in row
 * (modulo their number); for constitutional rows the top 3 bits add Rule C
 * switches. The rows with switches live in a static table, so positions made
 * from them stay valid for the whole run.
 */
static inline const cd_rules *fz_variant(uint8_t b)
{
    static cd_rules rows[32][8];
    static int made;
    int n = fz_variant_count();
    if (!made) {
        static const unsigned sw[8] = {0,
                                       CD_CON_OBSTRUCT_BY_MEN,
                                       CD_CON_ORIGIN_OCCUPIED,
                                       CD_CON_SAC_KINGS_ONLY,
                                       CD_CON_NO_PASS_TO_SAC,
                                       CD_RULE_KEEP_DUPLICATES,
                                       CD_CON_OBSTRUCT_BY_MEN | CD_CON_ORIGIN_OCCUPIED,
                                       CD_CON_SAC_KINGS_ONLY | CD_RULE_KEEP_DUPLICATES};
        for (int i = 0; i < n && i < 32; i++)
            for (int k = 0; k < 8; k++) {
                rows[i][k] = *cd_rules_at(i);
                rows[i][k].flags |= sw[k];
            }
        made = 1;
    }
    int i = (b & 31) % n;
    int k = b >> 5;
    const cd_rules *r = cd_rules_at(i);
    if (k == 0 || (!(r->flags & CD_RULE_CONSTITUTIONAL) && k != 5 && k != 7))
        return r;
    return &rows[i][k];
}

static inline int fz_same_position(const cd_position *a, const cd_position *b)
{
    return a->side == b->side && a->rules == b->rules &&
           !memcmp(a->white, b->white, sizeof a->white) &&
           !memcmp(a->black, b->black, sizeof a->black) &&
           !memcmp(a->kings, b->kings, sizeof a->kings) && a->key == b->key;
}

#endif
