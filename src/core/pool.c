/*
 * pool.c -- threads for a batch of work (pool.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <threads.h>
#include <time.h>

#include "pool.h"

int cd_pool_run(int n, int (*fn)(void *), void *args, size_t stride, int (*tick)(void *),
                void *ctx)
{
    if (n < 1)
        return 0;
    thrd_t *t = malloc((size_t)n * sizeof *t);
    char *started = calloc((size_t)n, 1);
    int first = tick ? 0 : 1, inline_slots = 0;
    for (int i = first; i < n; i++)
        if (t && started &&
            thrd_create(&t[i], fn, (char *)args + (size_t)i * stride) == thrd_success)
            started[i] = 1;
    if (!tick)
        fn(args);
    for (int i = first; i < n; i++) /* the slots no thread took */
        if (!started || !started[i]) {
            fn((char *)args + (size_t)i * stride);
            inline_slots++;
        }
    if (tick) {
        const struct timespec second = {1, 0};
        while (!tick(ctx))
            thrd_sleep(&second, NULL);
    }
    for (int i = first; i < n; i++)
        if (started && started[i])
            thrd_join(t[i], NULL);
    free(t);
    free(started);
    return inline_slots;
}
