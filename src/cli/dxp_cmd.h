/*
 * dxp_cmd.h -- `condraughts dxp`: play DXP games over TCP (src/cli/dxp_cmd.c;
 * the protocol is src/proto/dxp.h, the session src/proto/dxp_session.h).
 */
#ifndef CD_CLI_DXP_CMD_H
#define CD_CLI_DXP_CMD_H

#include "opts.h"

/* The command and its options (`condraughts dxp --help`). */
extern const cli_command cd_dxp_command;

/* The command: argv holds the options after "dxp" (argv[0] is the first option). Returns the
 * exit status: 0 all games played, 1 protocol/network error, 2 bad arguments. */
int cd_dxp_main(int argc, char **argv);

#endif
