/*
 * unported.c -- the commands the Windows build (make windows) leaves out: match (external
 * engines as child processes over pipes) and study (child processes, fsync, MPI). Each answers
 * that it is not available on Windows; docs/gui.md says what to use instead.
 */
#include <stdio.h>

#include "match.h"
#include "study.h"

static int not_on_windows(const char *name)
{
    fprintf(stderr, "condraughts %s: not available on Windows (this program was built by make "
                    "windows; see docs/gui.md)\n",
            name);
    return 1;
}

static int run_match(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_on_windows("match");
}
static int run_study(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return not_on_windows("study");
}

const cli_command cd_match_command = {
    .name = "match",
    .about = "Play a match between engines (not available on Windows).",
    .run = run_match,
};
const cli_command cd_study_command = {
    .name = "study",
    .about = "Opening studies by self-play (not available on Windows).",
    .run = run_study,
};
