/*
 * cliutil.h -- small helpers shared by the condraughts subcommands: a fatal
 * usage/input error (one stderr line, exit status 2) and a monotonic clock.
 */
#ifndef CD_CLIUTIL_H
#define CD_CLIUTIL_H

/* Print prefix, the formatted message and a newline to stderr, then exit(2). */
_Noreturn void cli_die(const char *prefix, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Seconds on the monotonic clock. */
double cli_now(void);

#endif
