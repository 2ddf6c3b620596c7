/*
 * pdncheck.h -- `condraughts pdn check FILE [--variant V]`: replay every game of a PDN file.
 */
#ifndef CD_PDNCHECK_H
#define CD_PDNCHECK_H

#include "opts.h"

/*
 * `condraughts pdn` and its subcommand check (`condraughts pdn check --help`).
 * condraughts pdn check FILE [--variant V] [--verbose]: every game is read and replayed under its
 * variant (the GameType/Variant tags, else --variant, else international). Each game that cannot
 * be read is reported as "FILE:LINE:COL: message" on stderr and skipped; a game read with a
 * warning (e.g. an ambiguous capture resolved) gets "FILE:LINE:COL: warning: message". Prints
 * "ok N games" and exits 0 when every game was read, else "N games read, M refused" and exits 2
 * (2 also for bad arguments or an unreadable file). --verbose also prints one line per game
 * read: number, line, variant, plies, result.
 */
extern const cli_command cd_pdn_command;

#endif
