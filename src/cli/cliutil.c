/*
 * cliutil.c -- helpers shared by the subcommands (see cliutil.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cliutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void cli_die(const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
