/*
 * pdn_check.h -- what the PDN test programs (test_pdn.c, test_pdn_read_errors.c) share, with
 * check.h: a tag list and buffers, one game read, and an expected read error checked.
 */
#ifndef CD_TEST_PDN_CHECK_H
#define CD_TEST_PDN_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

#include "check.h"

static cd_pdn_tags tags;
static char buf[1 << 16], err[1024];

/* Read the one game of text (rules as given); NULL and a message on error. */
static cd_game *read1(const char *text, const cd_rules *rules)
{
    size_t pos = 0;
    cd_game *g = NULL;
    cd_result r = cd_pdn_read(text, &pos, rules, &g, &tags, err, sizeof err);
    if (r != CD_OK)
        fprintf(stderr, "unexpected PDN error %s: %s\n", cd_result_str(r), err);
    return g;
}

/* Expect an error: code, and each of the texts in err. */
static void expect_error(const char *text, const cd_rules *rules, cd_result code, const char *want1,
                         const char *want2)
{
    size_t pos = 0;
    cd_game *g = (cd_game *)&pos; /* must be set to NULL */
    err[0] = '\0';
    cd_result r = cd_pdn_read(text, &pos, rules, &g, NULL, err, sizeof err);
    checks++;
    if (r != code || g != NULL || (want1 && !strstr(err, want1)) ||
        (want2 && !strstr(err, want2))) {
        failures++;
        fprintf(stderr, "input <<%.60s>>: got %s \"%s\", want %s with \"%s\" \"%s\"\n", text,
                cd_result_str(r), err, cd_result_str(code), want1 ? want1 : "", want2 ? want2 : "");
    }
    CHECK(pos > 0 && pos <= strlen(text));
    if (g && r != CD_OK)
        cd_game_free(g);
}

#endif
