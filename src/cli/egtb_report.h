/*
 * egtb_report.h -- the tables' answers in words (egtb_report.c): a value, as `egtb probe` prints
 * it too, and `condraughts egtb report`, the claims report that egtb_cmd.c runs.
 */
#ifndef CD_EGTB_REPORT_H
#define CD_EGTB_REPORT_H

#include <stddef.h>
#include <stdio.h>

/* A tablebase value in words: "win in D", "loss in D", "draw", else unknown. */
void egtb_value_text(int v, int d, const char *unknown, char *buf, size_t len);

/* Write the claims report as Markdown; returns the exit status. */
int egtb_report(const char *claims, const char *dir, FILE *out);

#endif
