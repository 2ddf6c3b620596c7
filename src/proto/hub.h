/*
 * hub.h -- the Hub protocol front end (Hub v2, the protocol of the Scan engine and the Hub GUI).
 *
 * cd_hub_main reads commands from `in` and writes answers to `out` (one line each, flushed)
 * until `quit` or end of input. The search runs in a background thread so that `ping`, `stop`
 * and `ponder-hit` are answered while it searches. See hub.c for the commands and fields.
 */
#ifndef CD_PROTO_HUB_H
#define CD_PROTO_HUB_H

#include <stdint.h>
#include <stdio.h>

#include "condraughts.h"

/*
 * Serve the Hub protocol. default_variant: the variant in force until `set-param name=variant`
 * (a condraughts name or alias, or a Hub name: normal, killer, bt, losing; NULL: international).
 * Returns the process exit status: 0 after `quit` or end of input, 2 if default_variant is
 * unknown (with one line on stderr).
 */
int cd_hub_main(FILE *in, FILE *out, const char *default_variant);

/* Settings of a Hub session beyond the protocol's own (every 0/NULL field: the default). */
typedef struct cd_hub_options {
    const char *variant; /* as default_variant */
    long hash_mb;        /* hash table until `set-param name=hash` (default 64 MiB) */
    long max_hash_mb;    /* largest hash `set-param` accepts (default 32768 MiB) */
    uint64_t max_nodes;  /* every search also stops after this many nodes (tests, fuzzing) */
    const char *egtb;    /* endgame tables folder the engine probes (condraughts egtb build) */
    const cd_eval *eval; /* the learned evaluation the engine searches with (cd_engine_set_eval;
                            not owned, kept for the session), or NULL: by hand */
    const cd_book *book; /* the opening book `go think` plays from (not owned, kept for the
                            session; probed in positions of its own variant only), or NULL */
} cd_hub_options;

/* cd_hub_main with options (opt may be NULL). */
int cd_hub_run(FILE *in, FILE *out, const cd_hub_options *opt);

#endif
