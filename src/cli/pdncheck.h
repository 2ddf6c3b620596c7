/*
 * pdncheck.h -- `condraughts pdn check FILE [--variant V]`: replay every game of a PDN file.
 */
#ifndef CD_PDNCHECK_H
#define CD_PDNCHECK_H

/* condraughts pdn SUBCOMMAND ...: argv holds the words after "pdn". Returns the exit status. */
int cmd_pdn(int argc, char **argv);

/*
 * condraughts pdn check FILE [--variant V] [--verbose]: argv holds the words after "check".
 * Every game is read and replayed under its variant (the GameType/Variant tags, else --variant,
 * else international). Prints "ok N games" and returns 0, or prints the first error as
 * "FILE:LINE:COL: message" on stderr and returns 2 (also for bad arguments or an unreadable
 * file). --verbose also prints one line per game: number, line, variant, plies, result.
 */
int cmd_pdn_check(int argc, char **argv);

#endif
