/*
 * cliutil.h -- small helpers shared by the condraughts subcommands: a fatal
 * usage/input error (one stderr line, exit status 2) and a monotonic clock.
 */
#ifndef CD_CLIUTIL_H
#define CD_CLIUTIL_H

#include <stddef.h>

/* Print prefix, the formatted message and a newline to stderr, then exit(2). Under mpirun only
 * the process of rank 0 prints (each one reads the same command line). */
_Noreturn void cli_die(const char *prefix, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Seconds on the monotonic clock. */
double cli_now(void);

/* BIN/../rel next to the running program into path; 0 if it cannot be told or does not fit. */
int cli_beside_program(const char *rel, char *path, size_t len);

/* The folder of the learned evaluation's weights: $CD_WEIGHTS if set, else ./weights if it holds
 * international.cdw, else BIN/../weights next to the program. */
void cli_weights_dir(char *path, size_t len);
/* Load the weights (cd_eval_load) from cli_weights_dir(); on a missing or corrupt file print what
 * and where on stderr and exit(2). */
void cli_load_weights(void);

#endif
