/*
 * egtb_cache.c -- endgame tables for the server: one cd_egtb handle per rules row, opened when a
 * game of that row first needs it and closed at exit (--egtb DIR, else ./egtb when it exists).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "lazy_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- endgame tables */

/* The handle of one rules row (tb NULL: that row cannot have tables, or out of memory). */
typedef struct egtb_row {
    const cd_rules *rules; /* the built-in row */
    cd_egtb *tb;
    struct egtb_row *next;
} egtb_row;

static struct {
    mtx_t lock;     /* made on first use: t_lock */
    char dir[4096]; /* the tables' folder ("": none) */
    egtb_row *rows; /* (lock) rows opened so far */
} T;

WEB_LAZY_LOCK(static, t_lock, T.lock)

/* Close every handle (no search may be running). */
void egtb_close_all(void)
{
    t_lock();
    while (T.rows) {
        egtb_row *next = T.rows->next;
        cd_egtb_close(T.rows->tb);
        free(T.rows);
        T.rows = next;
    }
    mtx_unlock(&T.lock);
}

/* Use the tables in dir (NULL or "": none) from now on (no search may be running). */
void egtb_set_dir(const char *dir)
{
    egtb_close_all();
    t_lock();
    snprintf(T.dir, sizeof T.dir, "%s", dir ? dir : "");
    mtx_unlock(&T.lock);
}

const char *egtb_dir(void) { return T.dir; }

/* The tables of r's row, opened on first use (thread-safe); NULL when there are none. */
cd_egtb *egtb_for(const cd_rules *r)
{
    const cd_rules *row = r && r->name ? cd_rules_find(r->name) : NULL;
    if (!row)
        return NULL;
    t_lock();
    egtb_row *e = NULL;
    if (T.dir[0]) {
        for (e = T.rows; e && e->rules != row;)
            e = e->next;
        if (!e && (e = malloc(sizeof *e))) {
            e->rules = row;
            e->tb = cd_egtb_open(row, T.dir);
            e->next = T.rows;
            T.rows = e;
        }
    }
    cd_egtb *tb = e ? e->tb : NULL;
    mtx_unlock(&T.lock);
    return tb;
}
