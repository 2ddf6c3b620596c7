/*
 * pool.c -- threads for a batch of work (pool.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <threads.h>
#include <time.h>

#include "pool.h"

int cd_pool_run(int n, int (*fn)(void *), void *args, size_t stride, int (*tick)(void *), void *ctx)
{
    thrd_t t[CD_POOL_MAX];           /* on the stack: the pool allocates nothing, so a caller */
    char started[CD_POOL_MAX] = {0}; /* out of memory elsewhere still sees its own failures */
    int first = tick ? 0 : 1, inline_slots = 0;
    for (int i = first; i < n; i++)
        if (i < CD_POOL_MAX &&
            thrd_create(&t[i], fn, (char *)args + (size_t)i * stride) == thrd_success)
            started[i] = 1;
    if (!tick && n > 0)
        fn(args);
    for (int i = first; i < n; i++) /* the slots no thread took */
        if (i >= CD_POOL_MAX || !started[i]) {
            fn((char *)args + (size_t)i * stride);
            inline_slots++;
        }
    if (tick) {
        const struct timespec second = {1, 0};
        while (!tick(ctx))
            thrd_sleep(&second, NULL);
    }
    for (int i = first; i < n && i < CD_POOL_MAX; i++)
        if (started[i])
            thrd_join(t[i], NULL);
    return inline_slots;
}
