/*
 * unported.c -- the commands the Windows build (make windows) leaves out: study (child processes,
 * fsync, MPI) and cbhost (a CheckerBoard engine library run for match's cb: players; on Windows
 * CheckerBoard loads condraughts_cb.dll itself). Each answers that it is not available on
 * Windows; docs/gui.md says what to use instead.
 */
#include <stdio.h>

#include "cb_host.h"
#include "study.h"

static int run_cbhost(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "condraughts cbhost: not available on Windows (this program was built by make "
                    "windows; see docs/gui.md)\n");
    return 1;
}
static int run_study(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "condraughts study: not available on Windows (this program was built by make "
                    "windows; see docs/gui.md)\n");
    return 1;
}

const cli_command cd_cbhost_command = {
    .name = "cbhost",
    .operands = "LIB",
    .about = "Run a CheckerBoard engine library (not available on Windows: CheckerBoard loads "
             "condraughts_cb.dll itself).",
    .run = run_cbhost,
};
const cli_command cd_study_command = {
    .name = "study",
    .about = "Opening studies by self-play (not available on Windows).",
    .run = run_study,
};
