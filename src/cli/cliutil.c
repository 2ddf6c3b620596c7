/*
 * cliutil.c -- helpers shared by the subcommands (see cliutil.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cliutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "condraughts.h"

void cli_die(const char *prefix, const char *fmt, ...)
{
    /* under mpirun every process reads the same command line: only the first one speaks */
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || !strcmp(rank, "0")) {
        va_list ap;
        va_start(ap, fmt);
        fputs(prefix, stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    exit(2);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_beside_program(const char *rel, char *path, size_t len)
{
    char exe[2048];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? (exe[k] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash)
        return 0;
    *slash = '\0';
    return (size_t)snprintf(path, len, "%s/../%s", exe, rel) < len;
}

void cli_weights_dir(char *path, size_t len)
{
    const char *env = getenv("CD_WEIGHTS");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return;
    }
    if (access("weights/international.cdw", R_OK) == 0) {
        snprintf(path, len, "weights");
        return;
    }
    if (!cli_beside_program("weights", path, len))
        snprintf(path, len, "weights");
}

void cli_load_weights(void)
{
    char dir[4096], err[4400];
    cli_weights_dir(dir, sizeof dir);
    if (cd_eval_load(dir, err, sizeof err) != CD_OK)
        cli_die("condraughts: ", "%s (set CD_WEIGHTS to the folder that holds them)", err);
}
