/*
 * lazy_lock.h -- a static mutex of src/web made on first use. C11 has no static mutex initialiser,
 * and a module's mutex may first be reached from cd_serve_run or from a test through cd_web_setup:
 * call_once makes it, whichever comes first (docs/ARCHITECTURE.md, "Threads").
 */
#ifndef CD_WEB_LAZY_LOCK_H
#define CD_WEB_LAZY_LOCK_H

#include <threads.h>

/* WEB_LAZY_LOCK(linkage, fn, m) defines fn(void), which makes the mutex m on its first call and
 * locks it; linkage is `static` or empty. (http.c's stream lock also makes a condition variable
 * and keeps its own call_once.) */
#define WEB_LAZY_LOCK(linkage, fn, m)                                                              \
    static once_flag fn##_once = ONCE_FLAG_INIT;                                                   \
    static void fn##_init(void) { mtx_init(&(m), mtx_plain); }                                     \
    linkage void fn(void)                                                                          \
    {                                                                                              \
        call_once(&fn##_once, fn##_init);                                                          \
        mtx_lock(&(m));                                                                            \
    }

#endif
