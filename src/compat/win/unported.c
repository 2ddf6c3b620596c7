/*
 * unported.c -- the command the Windows build (make windows) leaves out: study (child processes,
 * fsync, MPI). It answers that it is not available on Windows; docs/gui.md says what to use
 * instead.
 */
#include <stdio.h>

#include "study.h"

static int run_study(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "condraughts study: not available on Windows (this program was built by make "
                    "windows; see docs/gui.md)\n");
    return 1;
}

const cli_command cd_study_command = {
    .name = "study",
    .about = "Opening studies by self-play (not available on Windows).",
    .run = run_study,
};
