/*
 * hub.h -- the Hub protocol front end (Hub v2, the protocol of the Scan engine and the Hub GUI).
 *
 * cd_hub_main reads commands from `in` and writes answers to `out` (one line each, flushed)
 * until `quit` or end of input. The search runs in a background thread so that `ping`, `stop`
 * and `ponder-hit` are answered while it searches. See hub.c for the commands and fields.
 */
#ifndef CD_PROTO_HUB_H
#define CD_PROTO_HUB_H

#include <stdio.h>

/*
 * Serve the Hub protocol. default_variant: the variant in force until `set-param name=variant`
 * (a condraughts name or alias, or a Hub name: normal, killer, bt, losing; NULL: international).
 * Returns the process exit status: 0 after `quit` or end of input, 2 if default_variant is
 * unknown (with one line on stderr).
 */
int cd_hub_main(FILE *in, FILE *out, const char *default_variant);

#endif
