/*
 * study.h -- `condraughts study`: do the constitutional and killer rules make draughts less
 * drawish? Self-play of the built-in engine under identical conditions in several variants,
 * every game kept as its own PDN file, and a Markdown report with plots.
 *
 *   study.c           the command: options, playing and writing the games, Open MPI
 *   study_games.c     the games of a study: settings, openings, each game's file and tags
 *   study_report.c    DIR/report.md and its plots, built from the game files
 *   study_openings.c  `study openings`: balanced short openings for the openings files
 *   study_pack.c      `study pack`: the game files moved into the kept games (study_kept.c)
 *
 * One way down: study.c -> study_report.c -> study_games.c -> study_kept.c, study.c ->
 * study_games.c, and study_pack.c -> study_games.c, study_kept.c.
 */
#ifndef CD_STUDY_H
#define CD_STUDY_H

#include "opts.h"

/* `condraughts study ...` (argv: the words after "study"); returns the exit status. */
int cmd_study(int argc, char **argv);
/* `condraughts study openings ...` (study_openings.c). */
int study_openings_main(int argc, char **argv);
/* `condraughts study pack ...` (study_pack.c). */
int study_pack_main(int argc, char **argv);
/* The commands and their options (`condraughts study --help`, `study openings --help`, ...). */
extern const cli_command cd_study_command, study_openings_command, study_pack_command;

#endif
