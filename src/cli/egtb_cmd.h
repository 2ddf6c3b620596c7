/*
 * egtb_cmd.h -- the `condraughts egtb` command (egtb_cmd.c).
 */
#ifndef CD_EGTB_CMD_H
#define CD_EGTB_CMD_H

#include "condraughts.h"
#include "opts.h"

/* `condraughts egtb` and its subcommands build, stats, probe, report, each with its options
 * (`condraughts egtb build --help`). */
extern const cli_command cd_egtb_command;

#endif
