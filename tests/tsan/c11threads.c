/*
 * c11threads.c -- C11 threads on top of POSIX threads, preloaded (LD_PRELOAD) into the programs
 * of `make tsan`.
 *
 * ThreadSanitizer (clang 14, gcc 12) intercepts pthread_create, pthread_join, the pthread
 * mutexes, conditions and pthread_once, but not C11's thrd_create, thrd_join, mtx_*, cnd_* and
 * call_once: a thread started with thrd_create has no sanitizer state and crashes at its first
 * instrumented call, and a mtx_lock, a cnd_wait or a call_once is not seen as synchronisation
 * (so it would report false races). glibc implements both on the same objects (thrd_t is a
 * pthread_t, mtx_t, cnd_t and once_flag have the size of their pthread types), so these
 * definitions, found before libc's, route them through the pthread functions the sanitizer
 * does see.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t is not a pthread_t");
_Static_assert(sizeof(mtx_t) >= sizeof(pthread_mutex_t), "mtx_t is smaller than a mutex");

typedef struct start {
    thrd_start_t fn;
    void *arg;
} start;

static void *trampoline(void *p)
{
    start s = *(start *)p;
    free(p);
    return (void *)(intptr_t)s.fn(s.arg);
}

static int result(int e)
{
    return e == 0                       ? thrd_success
           : e == ENOMEM || e == EAGAIN ? thrd_nomem
           : e == EBUSY                 ? thrd_busy
           : e == ETIMEDOUT             ? thrd_timedout
                                        : thrd_error;
}

int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
    start *s = malloc(sizeof *s);
    if (!s)
        return thrd_nomem;
    s->fn = func;
    s->arg = arg;
    pthread_t t;
    int e = pthread_create(&t, NULL, trampoline, s);
    if (e) {
        free(s);
        return result(e);
    }
    *thr = (thrd_t)t;
    return thrd_success;
}

int thrd_join(thrd_t thr, int *res)
{
    void *v = NULL;
    int e = pthread_join((pthread_t)thr, &v);
    if (!e && res)
        *res = (int)(intptr_t)v;
    return result(e);
}

/* Without this the sanitizer never learns that a detached thread's end frees its id, and fails a
 * check when a new thread gets the same one (the server's slow handlers are detached threads). */
int thrd_detach(thrd_t thr) { return result(pthread_detach((pthread_t)thr)); }

int mtx_init(mtx_t *m, int type)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    int e = pthread_mutex_init((pthread_mutex_t *)(void *)m, &a);
    pthread_mutexattr_destroy(&a);
    return result(e);
}

int mtx_lock(mtx_t *m) { return result(pthread_mutex_lock((pthread_mutex_t *)(void *)m)); }
int mtx_trylock(mtx_t *m) { return result(pthread_mutex_trylock((pthread_mutex_t *)(void *)m)); }
int mtx_unlock(mtx_t *m) { return result(pthread_mutex_unlock((pthread_mutex_t *)(void *)m)); }
void mtx_destroy(mtx_t *m) { pthread_mutex_destroy((pthread_mutex_t *)(void *)m); }

_Static_assert(sizeof(cnd_t) >= sizeof(pthread_cond_t), "cnd_t is smaller than a condition");
_Static_assert(sizeof(once_flag) >= sizeof(pthread_once_t), "once_flag is not a pthread_once_t");

#define COND(c)  ((pthread_cond_t *)(void *)(c))
#define MUTEX(m) ((pthread_mutex_t *)(void *)(m))

int cnd_init(cnd_t *c) { return result(pthread_cond_init(COND(c), NULL)); }
int cnd_signal(cnd_t *c) { return result(pthread_cond_signal(COND(c))); }
int cnd_broadcast(cnd_t *c) { return result(pthread_cond_broadcast(COND(c))); }
int cnd_wait(cnd_t *c, mtx_t *m) { return result(pthread_cond_wait(COND(c), MUTEX(m))); }
int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts)
{
    return result(pthread_cond_timedwait(COND(c), MUTEX(m), ts)); /* both on the wall clock */
}
void cnd_destroy(cnd_t *c) { pthread_cond_destroy(COND(c)); }
void call_once(once_flag *flag, void (*fn)(void))
{
    pthread_once((pthread_once_t *)(void *)flag, fn);
}
