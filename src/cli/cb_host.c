/*
 * cb_host.c -- `condraughts cbhost LIB`: a CheckerBoard engine library (getmove, enginecommand)
 * in a process of its own, driven by the lines of cb_host.h. `match` starts one per cb: player:
 * a library that crashes or hangs takes only this process with it, and two copies of the same
 * library (a library's state is its globals) never share a process.
 *
 * getmove runs on a thread of its own, so that `stop` can set its *playnow while it thinks.
 */
#define _GNU_SOURCE /* dlopen's RTLD_LOCAL, realpath */
#include "cb_host.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include "cb_api.h"

static cb_getmove_fn lib_getmove;
static cb_enginecommand_fn lib_enginecommand;

typedef struct request {
    int board[8][8];
    int color, info, moreinfo;
    double maxtime;
    int playnow_int; /* getmove's *playnow: set by `stop` from the reading thread */
} request;

static mtx_t out_lock;
/* The lines to match: the process's first stdout. Descriptor 1 itself goes to stderr before the
 * library loads, so that what a library prints (Cake++ prints its book's size) cannot break them. */
static FILE *proto;

static void put(const char *s)
{
    mtx_lock(&out_lock);
    fputs(s, proto);
    fflush(proto);
    mtx_unlock(&out_lock);
}

/* The text with its line breaks written as " / " (one line on the pipe). */
static void one_line(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = '/';
}

static int run_getmove(void *arg)
{
    request *rq = arg;
    char str[CB_STR_SIZE] = "";
    struct cb_move m;
    memset(&m, 0, sizeof m);
    int ret = lib_getmove(rq->board, rq->color, rq->maxtime, str, &rq->playnow_int, rq->info,
                          rq->moreinfo, &m);
    str[CB_STR_SIZE - 1] = '\0';
    one_line(str);
    static char line[4096];
    size_t k = (size_t)snprintf(line, sizeof line, "str %s\nmoved %d", str, ret);
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++)
            k += (size_t)snprintf(line + k, sizeof line - k, " %d", rq->board[x][y]);
    int ints[CB_HOST_MOVE_INTS], n = 0;
    ints[n++] = m.jumps;
    ints[n++] = m.newpiece;
    ints[n++] = m.oldpiece;
    ints[n++] = m.from.x;
    ints[n++] = m.from.y;
    ints[n++] = m.to.x;
    ints[n++] = m.to.y;
    for (int i = 0; i < 12; i++) {
        ints[n++] = m.path[i].x;
        ints[n++] = m.path[i].y;
    }
    for (int i = 0; i < 12; i++) {
        ints[n++] = m.del[i].x;
        ints[n++] = m.del[i].y;
    }
    for (int i = 0; i < 12; i++)
        ints[n++] = m.delpiece[i];
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(line + k, sizeof line - k, " %d", ints[i]);
    snprintf(line + k, sizeof line - k, "\n");
    put(line);
    return 0;
}

/* A getmove line into rq: 1, or 0 if malformed. */
static int parse_getmove(const char *s, request *rq)
{
    char *end;
    rq->color = (int)strtol(s, &end, 10);
    if (end == s)
        return 0;
    rq->maxtime = strtod(s = end, &end);
    if (end == s)
        return 0;
    rq->info = (int)strtol(s = end, &end, 10);
    if (end == s)
        return 0;
    rq->moreinfo = (int)strtol(s = end, &end, 10);
    if (end == s)
        return 0;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            rq->board[x][y] = (int)strtol(s = end, &end, 10);
            if (end == s)
                return 0;
        }
    return 1;
}

static int cbhost_run(int argc, char **argv)
{
    const char *args[1];
    cli_parse(&cd_cbhost_command, argc, argv, NULL, NULL, args, 1);
    if (!args[0])
        cli_fail(&cd_cbhost_command, "give the engine library (a .so file)");
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    proto = fd < 0 ? NULL : fdopen(fd, "w");
    if (!proto || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        printf("error cannot keep stdout for the protocol: %s\n", strerror(errno));
        return 1;
    }
    char path[PATH_MAX];
    if (!realpath(args[0], path)) {
        fprintf(proto, "error cannot find engine library %s: %s\n", args[0], strerror(errno));
        return 1;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    if (chdir(*dir ? dir : "/")) {
        fprintf(proto, "error cannot enter %s: %s\n", dir, strerror(errno));
        return 1;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        char *e = dlerror();
        one_line(e);
        fprintf(proto, "error cannot load %s: %s\n", path, e);
        return 1;
    }
    *(void **)&lib_getmove = dlsym(h, "getmove");
    *(void **)&lib_enginecommand = dlsym(h, "enginecommand");
    if (!lib_getmove || !lib_enginecommand) {
        fprintf(proto, "error %s exports no %s: not a CheckerBoard engine\n", path,
               lib_getmove ? "enginecommand" : "getmove");
        return 1;
    }
    if (mtx_init(&out_lock, mtx_plain) != thrd_success) {
        fprintf(proto, "error cannot make a lock\n");
        return 1;
    }
    char reply[CB_REPLY_SIZE] = "";
    lib_enginecommand("name", reply);
    reply[CB_REPLY_SIZE - 1] = '\0';
    one_line(reply);
    fprintf(proto, "ready %s\n", *reply ? reply : path);
    fflush(proto);

    static request rq;
    thrd_t th;
    int running = 0;
    char line[16384];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strcmp(line, "stop")) {
            *(volatile int *)&rq.playnow_int = 1;
            continue;
        }
        if (running) {
            thrd_join(th, NULL);
            running = 0;
        }
        if (!strcmp(line, "quit"))
            break;
        if (!strncmp(line, "cmd ", 4)) {
            char out[CB_REPLY_SIZE + 64];
            reply[0] = '\0';
            int ret = lib_enginecommand(line + 4, reply);
            reply[CB_REPLY_SIZE - 1] = '\0';
            one_line(reply);
            snprintf(out, sizeof out, "reply %d %s\n", ret, reply);
            put(out);
        } else if (!strncmp(line, "getmove ", 8) && parse_getmove(line + 8, &rq)) {
            rq.playnow_int = 0;
            if (thrd_create(&th, run_getmove, &rq) != thrd_success) {
                put("error cannot start a thread\n");
                continue;
            }
            running = 1;
        } else {
            put("error unknown request\n");
        }
    }
    if (running) {
        *(volatile int *)&rq.playnow_int = 1;
        thrd_join(th, NULL);
    }
    return 0;
}

const cli_command cd_cbhost_command = {
    .name = "cbhost",
    .operands = "LIB",
    .about = "Run a CheckerBoard engine library (.so) on stdin/stdout, as match's cb: players do "
             "(docs/gui.md).",
    .run = cbhost_run,
};
