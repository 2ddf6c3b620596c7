/*
 * test_proc.c -- the POSIX child process of `match` (src/cli/proc.c): the child gets SIGPIPE's
 * default action back though the parent ignores it (as `match` does), a write to a child that
 * does not read gives up at its deadline, a write to a child that has ended fails, and 1 MiB
 * (sixteen times a Linux pipe's buffer) reaches a child that reads it. An alarm ends the program
 * (failing) if a write waits past any deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include "proc.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cliutil.h"

#define BIG (1u << 20)

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
    signal(SIGPIPE, SIG_IGN);
    alarm(60);
    char err[256], out[256];
    cli_proc p;

    /* `yes` into `head -n 1`: killed by SIGPIPE (status 128 + 13) at its default action; with
     * the signal ignored it would see EPIPE and exit 1 */
    CHECK(proc_start(&p, "{ (yes 2>/dev/null; echo \"yes $?\" >&3) | head -n 1 >/dev/null; } 3>&1",
                     err, sizeof err) == 0);
    read_all(&p, out, sizeof out);
    CHECK_STR(out, "yes 141\n");
    proc_end(&p, 1.0);

    char *big = malloc(BIG);
    CHECK(big != NULL);
    if (!big)
        return 1;
    memset(big, 'x', BIG);

    /* a child that never reads: the write stops at its deadline, 0.3 s (at most 5 s on a loaded
     * machine), having written what the pipe holds */
    CHECK(proc_start(&p, "exec sleep 30", err, sizeof err) == 0);
    double t0 = cli_now();
    int rc = proc_write(&p, big, BIG, 300);
    double took = cli_now() - t0;
    CHECKF(rc == -2, "a write to a child that does not read: %d, want -2", rc);
    CHECKF(took >= 0.29 && took < 5, "it gave up after %.3f s, want 0.3", took);
    proc_kill(&p);
    CHECK(!proc_running(&p));

    /* a child that has ended: the write fails (EPIPE, not the signal) */
    CHECK(proc_start(&p, "exit 0", err, sizeof err) == 0);
    read_all(&p, out, sizeof out);
    CHECK_STR(out, "");
    CHECKF((rc = proc_write(&p, big, BIG, 1000)) == -1, "a write to a child gone: %d, want -1", rc);
    proc_end(&p, 1.0);

    /* a child that reads: all of 1 MiB arrives */
    CHECK(proc_start(&p, "head -c 1048576 | wc -c", err, sizeof err) == 0);
    CHECKF((rc = proc_write(&p, big, BIG, 20000)) == 0, "a write of 1 MiB to wc: %d", rc);
    read_all(&p, out, sizeof out);
    CHECKF(atol(out) == (long)BIG, "wc counted '%s', want %u", out, BIG);
    proc_end(&p, 1.0);

    free(big);
    printf("proc: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
