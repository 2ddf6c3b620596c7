/*
 * pdn.h -- what the library's PDN files share (internal): the tag list's helpers and the GameType
 * table (pdn_tags.c). pdn_write.c writes games, pdn.c reads them with the lexer of pdn_lex.h;
 * the public side is condraughts.h's cd_pdn_*.
 */
#ifndef CD_PDN_H
#define CD_PDN_H

#include <stddef.h>

#include "condraughts.h"

/* ------------------------------------------------------------------ tags, GameType (pdn_tags.c) */

/* A tag name of n characters: a letter, then letters, digits and '_', shorter than
 * CD_PDN_MAX_NAME. */
int pdn_valid_name(const char *s, size_t n);
/* The index of the tag whose name is name[0..n), or -1. */
int pdn_tag_index(const cd_pdn_tags *t, const char *name, size_t n);
/* Append a pair (no checks of the name); 0 when there is no room. */
int pdn_tags_add(cd_pdn_tags *t, const char *name, size_t nlen, const char *value, size_t vlen);

/* "20 international, 21 english, ..., 60-72 condraughts' own" for messages. */
void pdn_gametype_list(char *out, size_t len);
/* The leading number of a GameType value, or -1. */
int pdn_gametype_number(const char *s);
/* The variant a GameType number names, or NULL. */
const char *pdn_gametype_variant(int type);
/* Variant names compared like cd_rules_find: case-insensitive, '_' and ' ' as '-'. */
int pdn_name_eq(const char *a, const char *b);
/*
 * The GameType written for r: its row's own ("20", "25", ...) when that number means r, else the
 * number gametypes gives r, in PDN 3.0's full form (start colour, width, height, notation, invert
 * flag) so a program that knows no such number still learns the board: "60,W,10,10,N2,0".
 */
void pdn_gametype_tag(const cd_rules *r, char *out, size_t len);
/* Does the GameType of rules r name r itself (no Variant tag needed)? */
int pdn_own_gametype(const cd_rules *r);

#endif
