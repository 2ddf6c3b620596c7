/*
 * pool.h -- the one way the library and the front ends run work on several threads at once (the
 * tablebase build, the trainer's loops, match's games).
 *
 * cd_pool_run(n, fn, args, stride, tick, ctx) runs fn(args + i * stride) for i = 0 .. n-1, each
 * on a thread of its own (stride 0: every call gets args, for workers that take their jobs from
 * a shared counter), and returns when all have returned:
 *   - without tick, the caller runs i = 0 itself;
 *   - with tick, every i runs on a new thread while the caller calls tick(ctx) at once and then
 *     once a second (progress lines, writing finished work in order) until it returns nonzero,
 *     then joins the threads.
 * A slot whose thread cannot be started (or past the first CD_POOL_MAX) is run by the caller in
 * turn, so every fn call happens whatever the machine allows; the return value counts those
 * slots (0 normally). The pool allocates no memory of its own.
 */
#ifndef CD_POOL_H
#define CD_POOL_H

#include <stddef.h>

enum { CD_POOL_MAX = 256 };

int cd_pool_run(int n, int (*fn)(void *), void *args, size_t stride, int (*tick)(void *),
                void *ctx);

#endif
