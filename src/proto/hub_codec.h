/*
 * hub_codec.h -- the Hub protocol's text, without a session (hub_codec.c): a line split into its
 * command and arguments, the values read as numbers, lines of input of bounded length, move
 * text in Hub form, and the square numbering pydraughts uses. Pure functions on buffers and a
 * FILE, used by the session in hub.c and testable (fuzzed through hub.c) alone. The syntax
 * and the numbering are described at the top of hub.c.
 */
#ifndef CD_PROTO_HUB_CODEC_H
#define CD_PROTO_HUB_CODEC_H

#include <stdint.h>
#include <stdio.h>

#include "condraughts.h"

#define HUB_MAX_ARGS 64        /* arguments a line */
#define HUB_MAX_LINE (1 << 20) /* bytes a line; a longer one is refused */

typedef struct hub_arg {
    const char *name;
    const char *value; /* "" for a flag */
    int has_value;
} hub_arg;

typedef struct hub_line {
    const char *cmd;
    int nargs;
    hub_arg args[HUB_MAX_ARGS];
} hub_line;

/* Split a line into command and arguments. `store` must hold 2 * strlen(line) + 2 bytes; the
 * strings of *out point into it. Returns 0, or -1 with a message in err. */
int hub_parse_line(const char *line, hub_line *out, char *store, char *err, size_t errlen);
/* The last argument called name, or NULL. */
const hub_arg *hub_arg_get(const hub_line *l, const char *name);

/* A value as a number: 1 and *out, or 0 if s is not one (a long in [min, max]; an unsigned
 * 64-bit number of digits only; a finite real). */
int hub_parse_long(const char *s, long min, long max, long *out);
int hub_parse_u64(const char *s, uint64_t *out);
int hub_parse_real(const char *s, double *out);
/* Names equal but for the case of letters. */
int hub_name_eq(const char *a, const char *b);

/* Read one line without its '\n' (and '\r') into *buf (NUL-terminated, *len characters; *buf
 * and *cap grow as needed). A line of more than HUB_MAX_LINE bytes is read to its end but not
 * kept (*too_long), so a stream without newlines cannot take all memory; *nul says a NUL byte
 * was in the line. Returns -1 at end of input with nothing read, else 0. */
int hub_read_line(FILE *in, char **buf, size_t *cap, size_t *len, int *nul, int *too_long);

/* The move of list equal to m (cd_move_equal) into *out: 1, or 0 if there is none. */
int hub_find_legal(const cd_movelist *list, const cd_move *m, cd_move *out);
/* A move in the variant's text (cd_move_parse) or in Hub form with the captured squares in any
 * order ("28x23x19"). */
cd_result hub_parse_move(const cd_position *pos, const char *text, cd_move *m, char *err,
                         size_t errlen);

/* `set-param name=numbering value=variant`: square sq in pydraughts' numbering of the rules'
 * board (its own inverse; see hub_codec.c), and move text with every square number so mapped.
 * `dxp --numbering variant` puts the squares of DXP MOVE messages through the same map in the
 * variants written in algebraic notation. */
int hub_variant_square(const cd_rules *r, int sq);
void hub_renumber(const cd_rules *r, const char *in, char *out, size_t len);

#endif
