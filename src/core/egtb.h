/*
 * egtb.h -- what the tablebase files of the library share (internal): a table's index layout
 * and contents, the handle (struct cd_egtb), signatures, and the index's conversions between
 * positions and numbers. egtb.c indexes, reads, writes and probes tables; egtb_build.c builds
 * them. The index and file format are described at the top of egtb.c.
 */
#ifndef CD_EGTB_H
#define CD_EGTB_H

#include <stdatomic.h>
#include <stdint.h>
#include <threads.h>

#include "condraughts.h"

#define MAXP CD_EGTB_MAX_PIECES

typedef struct layout {
    cd_egtb_material m;
    int nsq, half;
    uint64_t nw;   /* White men placements */
    uint64_t *off; /* nw + 1 prefix sums of Black men placements */
    uint64_t kw, kb;
    uint64_t n; /* positions per side */
} layout;

/* A table's contents. Built: wdl and dist are the build's own allocations. Read: both point
 * into the file's bytes (base, size), mapped read-only where the system has mmap (the page cache
 * holds one copy for every process that probes the table) or read into memory. */
typedef struct table {
    layout L;
    const uint8_t *wdl;  /* 2 bits per position */
    const uint8_t *dist; /* distances, dbytes each, little-endian */
    int dbytes;          /* 1 or 2 */
    unsigned char *base; /* the file's bytes when read (NULL when built) */
    size_t size;         /* their number */
    int mapped;          /* base is an mmap (else malloc) */
    int maxdist;
    uint64_t counts[2][3]; /* [side][draw, win, loss] */
    atomic_int state;      /* 0 not tried, 1 ready, -1 unavailable, 2 read, payload being checked */
    int checker;           /* a thread checks the payload (joined by cd_egtb_close) */
    thrd_t check_thread;
} table;

struct cd_egtb {
    const cd_rules *rules;
    int nsq, half, steps[4];
    uint64_t playable; /* ghost-layout bits of the squares */
    int bit2d[64], d2bit[64];
    int monotone; /* d2bit increases: dense <-> bits is pext/pdep of playable */
    uint64_t fingerprint;
    char dir[1024];
    char err[512];
    mtx_t lock;
    mtx_t check_lock;   /* one background payload check at a time */
    atomic_int closing; /* cd_egtb_close has begun: checks stop */
    size_t check_sync;  /* payloads up to this many bytes are checked at the first probe */
    table *t[MAXP + 1][MAXP + 1][MAXP + 1][MAXP + 1];
    int maxpieces;
};

typedef struct dense {
    uint64_t wm, bm, wk, bk;
    int side;
} dense;

/* ------------------------------------------------------------------ signatures */

static inline int mat_pieces(cd_egtb_material m) { return m.wk + m.wm + m.bk + m.bm; }

static inline cd_egtb_material mat_flip(cd_egtb_material m)
{
    return (cd_egtb_material){m.bk, m.bm, m.wk, m.wm};
}

static inline int mat_canonical(cd_egtb_material m)
{
    int w = m.wk + m.wm, b = m.bk + m.bm;
    return w > b || (w == b && m.wk >= m.bk);
}

static inline int mat_equal(cd_egtb_material a, cd_egtb_material b)
{
    return a.wk == b.wk && a.wm == b.wm && a.bk == b.bk && a.bm == b.bm;
}

static inline cd_egtb_material mat_of(const cd_position *p)
{
    uint64_t k = p->kings[0];
    return (cd_egtb_material){
        __builtin_popcountll(p->white[0] & k), __builtin_popcountll(p->white[0] & ~k),
        __builtin_popcountll(p->black[0] & k), __builtin_popcountll(p->black[0] & ~k)};
}

static inline table **slot(cd_egtb *tb, cd_egtb_material m)
{
    return &tb->t[m.wk][m.wm][m.bk][m.bm];
}

/* Terminal value of a side to move without a move. */
static inline int terminal_value(const cd_rules *r)
{
    return r->goal == CD_GOAL_LOSING ? CD_EGTB_WIN : CD_EGTB_LOSS;
}

/* A signature of a table: each count >= 0, each side a piece, at most MAXP in all. */
static inline int mat_ok(cd_egtb_material m)
{
    return m.wk >= 0 && m.wm >= 0 && m.bk >= 0 && m.bm >= 0 && mat_pieces(m) <= MAXP &&
           m.wk + m.wm > 0 && m.bk + m.bm > 0;
}

/* ------------------------------------------------------------------ egtb.c */

/* The signature's name: K and M for White's kings and men, '_', then Black's ("KM_K"). */
void egtb_mat_name(cd_egtb_material m, char *buf);
/* The index layout of signature m on a board of nsq squares (half: a promotion row's squares
 * counted as the index does); 0, or -1 out of memory. */
int egtb_layout_init(layout *L, cd_egtb_material m, int nsq, int half);
void egtb_layout_free(layout *L);
/* A position's pieces as dense squares (flip: colours and board turned), its index in L, and
 * back: the dense pieces of an index and the position they make (key not set). */
void egtb_pos_dense(const cd_egtb *tb, const cd_position *p, int flip, dense *D);
uint64_t egtb_dense_index(const layout *L, const dense *D);
void egtb_dense_of_index(const layout *L, uint64_t idx, dense *D);
void egtb_position_of_dense(const cd_egtb *tb, const dense *D, cd_position *p);
/* The canonical table of m, loading it on first use; NULL if unavailable. A table whose payload
 * is larger than tb->check_sync is checked by a thread of its own: until the check is done it is
 * unavailable, unless wait is set (then this waits for the check). */
table *egtb_get_table(cd_egtb *tb, cd_egtb_material m, int wait);
/* t's index layout (of t->L.m) set up unless it already is: a table met in a search gets it only
 * once its file is found (table_read) or it is built. 0, or -1 out of memory. */
int egtb_table_layout(const cd_egtb *tb, table *t);
/* Write table t to its file in tb's folder; 0, or -1 with a message in err. */
int egtb_table_write(cd_egtb *tb, const table *t, char *err, size_t errlen);

#endif
