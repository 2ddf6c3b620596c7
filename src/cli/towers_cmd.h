/*
 * towers_cmd.h -- the `condraughts towers` command (towers_cmd.c): tower draughts (Bashni,
 * Lasca) from src/towers/.
 */
#ifndef CD_TOWERS_CMD_H
#define CD_TOWERS_CMD_H

#include "opts.h"

/* `condraughts towers` and its subcommands perft, moves, show, play, each with its options
 * (`condraughts towers play --help`); bad input: exit status 2 and one line on stderr. */
extern const cli_command cd_towers_command;

#endif
