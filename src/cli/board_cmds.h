/*
 * board_cmds.h -- the commands on a position and the engine (board_cmds.c): perft, moves, show,
 * analyse, play, bench, hub; each a table of its options (`condraughts perft --help`).
 */
#ifndef CD_CLI_BOARD_CMDS_H
#define CD_CLI_BOARD_CMDS_H

#include "opts.h"

extern const cli_command cd_perft_command, cd_moves_command, cd_show_command, cd_analyse_command,
    cd_play_command, cd_bench_command, cd_hub_command;

#endif
