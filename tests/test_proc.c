/*
 * test_proc.c -- the child process of `match` (src/cli/proc.h): POSIX (src/cli/proc.c) and, built
 * by `make windows-test` and run under wine, Windows (src/compat/win/proc.c). A write to a child
 * that does not read gives up at its deadline, a write to a child that has ended fails, and
 * 1 MiB (sixteen times a Linux pipe's buffer; Windows: 256 KiB) reaches a child that reads it.
 * POSIX: the child
 * gets SIGPIPE's default action back though the parent ignores it (as `match` does), and an
 * alarm ends the program (failing) if a write waits past any deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include "proc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include "check.h"
#include "cliutil.h"

#define BIG (1u << 20)

#ifdef _WIN32
#define DEAF "ping -n 30 127.0.0.1 > nul"
#define READER "more > nul"
#define READ_SIZE (1u << 18)
#else
#define DEAF "exec sleep 30"
#define READER "head -c 1048576 | wc -c"
#define READ_SIZE BIG
#endif

/* All the child writes until it closes its output (or 10 s pass), into out. */
static void read_all(cli_proc *p, char *out, size_t len)
{
    size_t k = 0;
    double end = cli_now() + 10;
    while (k + 1 < len && cli_now() < end) {
        long got = proc_read(p, out + k, len - 1 - k, 100);
        if (got == 0)
            break;
        if (got > 0)
            k += (size_t)got;
    }
    out[k] = '\0';
}

int main(void)
{
    char err[256], out[256];
    cli_proc p;
#ifndef _WIN32
    signal(SIGPIPE, SIG_IGN);
    alarm(60);
    /* `yes` into `head -n 1`: killed by SIGPIPE (status 128 + 13) at its default action; with
     * the signal ignored it would see EPIPE and exit 1 */
    CHECK(proc_start(&p, "{ (yes 2>/dev/null; echo \"yes $?\" >&3) | head -n 1 >/dev/null; } 3>&1",
                     err, sizeof err) == 0);
    read_all(&p, out, sizeof out);
    CHECK_STR(out, "yes 141\n");
    proc_end(&p, 1.0);
#endif

    char *big = malloc(BIG);
    CHECK(big != NULL);
    if (!big)
        return 1;
    memset(big, 'x', BIG);
    for (size_t i = 63; i < BIG; i += 64)
        big[i] = '\n'; /* lines, for a reader that reads lines */

    /* a child that never reads: the write stops at its deadline, 0.3 s (at most 5 s on a loaded
     * machine), having written what the pipe holds */
    CHECKF(proc_start(&p, DEAF, err, sizeof err) == 0, "%s", err);
    double t0 = cli_now();
    int rc = proc_write(&p, big, BIG, 300);
    double took = cli_now() - t0;
    CHECKF(rc == -2, "a write to a child that does not read: %d, want -2", rc);
    CHECKF(took >= 0.29 && took < 5, "it gave up after %.3f s, want 0.3", took);
    proc_kill(&p);
    CHECK(!proc_running(&p));

    /* a child that has ended: the write fails (POSIX: EPIPE, not the signal) */
    CHECKF(proc_start(&p, "exit 0", err, sizeof err) == 0, "%s", err);
    read_all(&p, out, sizeof out);
    CHECK_STR(out, "");
    CHECKF((rc = proc_write(&p, big, BIG, 1000)) == -1, "a write to a child gone: %d, want -1", rc);
    proc_end(&p, 1.0);

    /* a child that reads: all is written, 1 MiB counted by wc (Windows: 256 KiB to `more`, which
     * reads lines; many times the pipe's buffer) */
    CHECKF(proc_start(&p, READER, err, sizeof err) == 0, "%s", err);
    CHECKF((rc = proc_write(&p, big, READ_SIZE, 20000)) == 0, "a write of %u bytes to a reader: %d",
           READ_SIZE, rc);
#ifndef _WIN32
    read_all(&p, out, sizeof out);
    CHECKF(atol(out) == (long)BIG, "wc counted '%s', want %u", out, BIG);
#endif
    proc_end(&p, 1.0);

    free(big);
    printf("proc: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
