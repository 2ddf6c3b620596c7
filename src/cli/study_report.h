/*
 * study_report.h -- DIR/report.md of `condraughts study` and its plots (study_report.c).
 */
#ifndef CD_STUDY_REPORT_H
#define CD_STUDY_REPORT_H

#include "study_games.h"

/* Build DIR/report.md and the plots from the game files, print a summary on stdout. Returns 0,
 * 1 when games are missing, 2 on an error (a line on stderr). */
int study_report(const study *s);

#endif
