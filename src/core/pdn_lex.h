/*
 * pdn_lex.h -- the bottom of the PDN reader (internal): the characters of white space and of
 * movetext words, the reader's state, its errors and warnings ("line L col C: ..."), and the text
 * between words (pdn_lex.c). pdn.c reads games with it; pdn_write.c uses the character classes.
 */
#ifndef CD_PDN_LEX_H
#define CD_PDN_LEX_H

#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "condraughts.h"

static inline int pdn_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Movetext words are maximal runs of these (bytes >= 0x80 too, so garbage is reported whole). */
static inline int pdn_is_word_char(int c)
{
    return isalnum(c) || c >= 0x80 || (c && strchr(".-:/!?*", c));
}

typedef struct pdn_reader {
    const char *text; /* the whole text: lines and columns count from here */
    size_t i;         /* current offset */
    char *err;
    size_t errlen;
    size_t err_at; /* offset the error names */
    int in_header; /* reading tags: an error resyncs after them */
    int turned;    /* algebraic squares are seen from Black (the first mover), see move_shape */
    int unknown;   /* an unknown move ("-") was met: the rest of the main line is skipped */
    int trial;     /* trying a path of an ambiguous capture: no messages */
    int stopped;   /* (trial) stopped at an unknown move, or past an ambiguous one whose paths
                      were tried in turn: the path got that far */
    char *warn;    /* the first warning, "line L col C: ..." (NULL: none wanted) */
    size_t warnlen;
    int warnings;           /* warnings met, the first one in warn */
    const char *result_tag; /* the Result tag's value, or NULL */
    int *trials; /* (trial) paths the trials of one ambiguous capture may still try */
} pdn_reader;

/* Set err to "line L col C: message" for offset `at`; returns code. */
cd_result pdn_fail(pdn_reader *rd, size_t at, cd_result code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Note a warning at offset at: the first one is kept in rd->warn, later ones only counted. */
void pdn_warn(pdn_reader *rd, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A printable copy of s[0..n) for messages: at most 40 bytes, others as '?'. */
const char *pdn_shown(const char *s, size_t n, char *out, size_t outlen);
/* Skip white space, a UTF-8 byte order mark, {comments}, ;comments and %lines; the comments
 * are kept in `keep` at its current ply when it is not NULL. */
cd_result pdn_skip_filler(pdn_reader *rd, cd_game *keep);
/* Skip a variation starting at the '(' at rd->i, with everything nested in it. */
cd_result pdn_skip_variation(pdn_reader *rd);
/* "(!)", "(?)", "(!?)" ...: a move strength in parentheses at offset i; its length or 0. */
size_t pdn_strength_in_parens(const char *t, size_t i);

#endif
