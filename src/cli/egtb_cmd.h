/*
 * egtb_cmd.h -- the `condraughts egtb` command (egtb_cmd.c).
 */
#ifndef CD_EGTB_CMD_H
#define CD_EGTB_CMD_H

#include <stdio.h>

#include "condraughts.h"

/* argv[0] is the subcommand (build, stats, probe); returns the exit status. */
int cmd_egtb(int argc, char **argv);

/* Write the claims report (egtb_report.c) as Markdown; returns the exit status. */
int egtb_report(const char *claims, const char *dir, FILE *out);

#endif
