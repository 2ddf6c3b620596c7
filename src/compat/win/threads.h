/* C11 <threads.h> for Windows builds (make windows): mingw-w64 has no <threads.h>, so this
 * header stands in for it there (the windows build puts src/compat/win first on the include
 * path; no other build sees it). It maps the part of C11 threads the program uses onto Win32:
 * threads onto CreateThread, plain mutexes onto SRWLOCK, call_once onto InitOnceExecuteOnce,
 * thrd_sleep onto Sleep. Only mtx_plain is offered (nothing here asks for recursive or timed
 * mutexes), and no condition variables (nothing uses them). */
#ifndef CD_COMPAT_WIN_THREADS_H
#define CD_COMPAT_WIN_THREADS_H

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

enum { thrd_success = 0, thrd_nomem = 1, thrd_timedout = 2, thrd_busy = 3, thrd_error = 4 };
enum { mtx_plain = 0 };

typedef int (*thrd_start_t)(void *);
typedef HANDLE thrd_t;
typedef SRWLOCK mtx_t;
typedef INIT_ONCE once_flag;
#define ONCE_FLAG_INIT INIT_ONCE_STATIC_INIT

/* The thread's function and argument, handed to the Win32 entry point (freed there). */
struct cd_thrd_start {
    thrd_start_t func;
    void *arg;
};

static inline DWORD WINAPI cd_thrd_entry(LPVOID p)
{
    struct cd_thrd_start s = *(struct cd_thrd_start *)p;
    free(p);
    return (DWORD)s.func(s.arg);
}

static inline int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
    struct cd_thrd_start *s = malloc(sizeof *s);
    if (!s)
        return thrd_nomem;
    s->func = func;
    s->arg = arg;
    *thr = CreateThread(NULL, 0, cd_thrd_entry, s, 0, NULL);
    if (!*thr) {
        free(s);
        return thrd_error;
    }
    return thrd_success;
}

static inline int thrd_join(thrd_t thr, int *res)
{
    DWORD code;
    if (WaitForSingleObject(thr, INFINITE) != WAIT_OBJECT_0 || !GetExitCodeThread(thr, &code)) {
        CloseHandle(thr);
        return thrd_error;
    }
    CloseHandle(thr);
    if (res)
        *res = (int)code;
    return thrd_success;
}

/* Sleeps for the duration (to the millisecond above); never interrupted, so rem is untouched. */
static inline int thrd_sleep(const struct timespec *duration, struct timespec *rem)
{
    (void)rem;
    long long ms = (long long)duration->tv_sec * 1000 + (duration->tv_nsec + 999999) / 1000000;
    Sleep(ms > 0 ? (DWORD)ms : 0);
    return 0;
}

static inline int mtx_init(mtx_t *m, int type)
{
    if (type != mtx_plain)
        return thrd_error;
    InitializeSRWLock(m);
    return thrd_success;
}

static inline int mtx_lock(mtx_t *m)
{
    AcquireSRWLockExclusive(m);
    return thrd_success;
}

static inline int mtx_unlock(mtx_t *m)
{
    ReleaseSRWLockExclusive(m);
    return thrd_success;
}

static inline void mtx_destroy(mtx_t *m)
{
    (void)m;
}

static inline BOOL CALLBACK cd_once_entry(PINIT_ONCE once, PVOID func, PVOID *ctx)
{
    (void)once;
    (void)ctx;
    void (*f)(void);
    memcpy(&f, &func, sizeof f);
    f();
    return TRUE;
}

static inline void call_once(once_flag *flag, void (*func)(void))
{
    PVOID p;
    memcpy(&p, &func, sizeof p);
    InitOnceExecuteOnce(flag, cd_once_entry, p, NULL);
}

#endif
