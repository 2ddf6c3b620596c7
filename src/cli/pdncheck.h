/*
 * pdncheck.h -- `condraughts pdn check FILE [--variant V]`: replay every game of a PDN file.
 */
#ifndef CD_PDNCHECK_H
#define CD_PDNCHECK_H

#include <stddef.h>

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

/* A PDN file read whole (at most 512 MiB; "-" is stdin), NUL-terminated, its length in *len;
 * NULL after a message on stderr ("FILE: cannot read: ...", or where a NUL byte stands). */
char *pdn_read_file(const char *file, size_t *len);

/* Print "FILE:LINE:COL: [kind]message" on stderr from the library's "line L col C: message"
 * (kind "" or "warning: "), else "FILE: [kind]message". */
void pdn_report(const char *file, const char *msg, const char *kind);

/* The next game of text (len bytes) from *pos, read by cd_pdn_read under rules: 1 with the game
 * in *g (free it), its tags in *tags, the offset of its first character in *start (may be NULL)
 * and its warning reported; 0 when no game is left. A game that cannot be read is reported,
 * counted in *refused and skipped. */
int pdn_next_game(const char *file, const char *text, size_t len, size_t *pos,
                  const cd_rules *rules, cd_pdn_tags *tags, cd_game **g, size_t *start,
                  int *refused);

#endif
