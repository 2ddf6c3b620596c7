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
 * else international). Each game that cannot be read is reported as "FILE:LINE:COL: message" on
 * stderr and skipped; a game read with a warning (e.g. an ambiguous capture resolved) gets
 * "FILE:LINE:COL: warning: message". Prints "ok N games" and returns 0 when every game was read,
 * else "N games read, M refused" and returns 2 (2 also for bad arguments or an unreadable file).
 * --verbose also prints one line per game read: number, line, variant, plies, result.
 */
int cmd_pdn_check(int argc, char **argv);

#endif
