/*
 * towers_cmd.h -- the `condraughts towers` command (towers_cmd.c): tower draughts (Bashni,
 * Lasca) from src/towers/.
 */
#ifndef CD_TOWERS_CMD_H
#define CD_TOWERS_CMD_H

/* argv[0] is the subcommand (perft, moves, show, play); returns the exit status (2 and one line
 * on stderr on bad input). */
int cmd_towers(int argc, char **argv);

#endif
