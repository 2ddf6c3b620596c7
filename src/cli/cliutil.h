/*
 * cliutil.h -- small helpers shared by the condraughts subcommands: an error line on stderr
 * (and the fatal one: exit status 2), a monotonic clock, perft's report, the program's folder
 * and the weights.
 */
#ifndef CD_CLIUTIL_H
#define CD_CLIUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"

/* Print prefix, the formatted message and a newline to stderr. Under mpirun only the process of
 * rank 0 prints (each one reads the same command line). */
void cli_warn(const char *prefix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_warn, then exit(2). */
_Noreturn void cli_die(const char *prefix, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* s without the spaces and tabs before it and the spaces, tabs, CRs and newlines after it (the
 * end cut in place). */
char *cli_trim(char *s);

/* Seconds on the monotonic clock. */
double cli_now(void);

/* perft's depth lines (perft and towers perft): `perft D N` for D = 1..depth, N = count(pos, D),
 * each printed as soon as it is counted; returns the sum of the counts. */
uint64_t cli_perft_depths(uint64_t (*count)(void *pos, int depth), void *pos, int depth);
/* perft's last line: "total N nodes S s R nodes/s", S the seconds since t0 (cli_now). */
void cli_perft_total(uint64_t total, double t0);

/* BIN/../rel next to the running program into path; 0 if it cannot be told or does not fit. */
int cli_beside_program(const char *rel, char *path, size_t len);

/* A data folder of the program (weights, openings, web): the first of ./rel, BIN/../rel (the
 * build tree) and BIN/../share/condraughts/rel (an installed program, make install) that holds
 * the file probe, into path, and 1; rel itself and 0 when none does. */
int cli_data_path(const char *rel, const char *probe, char *path, size_t len);

/* The folder of the learned evaluation's weights: $CD_WEIGHTS if set, else the data folder
 * "weights" that holds international.cdw (cli_data_path), and 1; 0 when there is none (the
 * program then plays with the weights built into it, eval_io_builtin). */
int cli_weights_dir(char *path, size_t len);
/* Read the learned evaluation (eval_io_load) from cli_weights_dir() into the set cli_eval()
 * gives; on a missing or corrupt file print what and where on stderr and exit(2). cli_run calls
 * it before a command that searches (CLI_SEARCHES) runs, before any thread starts. */
void cli_load_weights(void);
/* The pattern weights alone, without the folder's network files (train net). */
void cli_load_pattern_weights(void);
/* The set read last (NULL before: every variant evaluated by hand), for every engine the command
 * makes (cd_engine_set_eval); read-only, kept until the program ends. */
const cd_eval *cli_eval(void);

#endif
