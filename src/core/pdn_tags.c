/*
 * pdn_tags.c -- the tag pairs of a PDN game (cd_pdn_tags) and the GameType numbers: which
 * variant a number names, and the GameType written for a rules row (pdn.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pdn.h"
#include "strbuf.h"

/* ------------------------------------------------------------------ tags */

int pdn_valid_name(const char *s, size_t n)
{
    if (n == 0 || n >= CD_PDN_MAX_NAME || !isalpha((unsigned char)s[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return 0;
    return 1;
}

void cd_pdn_tags_init(cd_pdn_tags *t)
{
    if (!t)
        return;
    t->count = 0;
    t->dropped = 0;
    t->used = 0;
}

const char *cd_pdn_tag_name(const cd_pdn_tags *t, int i)
{
    return t && i >= 0 && i < t->count ? t->text + t->name[i] : NULL;
}

const char *cd_pdn_tag_value(const cd_pdn_tags *t, int i)
{
    return t && i >= 0 && i < t->count ? t->text + t->value[i] : NULL;
}

int pdn_tag_index(const cd_pdn_tags *t, const char *name, size_t n)
{
    for (int i = 0; i < t->count; i++) {
        const char *s = t->text + t->name[i];
        if (strlen(s) == n && !memcmp(s, name, n))
            return i;
    }
    return -1;
}

const char *cd_pdn_tag(const cd_pdn_tags *t, const char *name)
{
    if (!t || !name)
        return NULL;
    int i = pdn_tag_index(t, name, strlen(name));
    return i < 0 ? NULL : t->text + t->value[i];
}

/* Append a pair (no checks of the name); 0 when there is no room. */
int pdn_tags_add(cd_pdn_tags *t, const char *name, size_t nlen, const char *value, size_t vlen)
{
    if (t->count >= CD_PDN_MAX_TAGS || t->used < 0 ||
        (size_t)t->used + nlen + vlen + 2 > CD_PDN_TAG_SPACE)
        return 0;
    char *p = t->text + t->used;
    memcpy(p, name, nlen);
    p[nlen] = '\0';
    memcpy(p + nlen + 1, value, vlen);
    p[nlen + 1 + vlen] = '\0';
    t->name[t->count] = (uint16_t)t->used;
    t->value[t->count] = (uint16_t)(t->used + (int)nlen + 1);
    t->count++;
    t->used += (int)(nlen + vlen + 2);
    return 1;
}

/* Remove the i-th pair: the pairs lie in text in list order, so close the gap. */
static void tags_remove(cd_pdn_tags *t, int i)
{
    int start = t->name[i];
    int end = t->value[i] + (int)strlen(t->text + t->value[i]) + 1;
    int gap = end - start;
    memmove(t->text + start, t->text + end, (size_t)(t->used - end));
    t->used -= gap;
    for (int k = i; k + 1 < t->count; k++) {
        t->name[k] = (uint16_t)(t->name[k + 1] - gap);
        t->value[k] = (uint16_t)(t->value[k + 1] - gap);
    }
    t->count--;
}

cd_result cd_pdn_tag_set(cd_pdn_tags *t, const char *name, const char *value)
{
    if (!t || !name || !pdn_valid_name(name, strlen(name)))
        return CD_ERR_ARG;
    size_t nlen = strlen(name);
    size_t vlen = value ? strlen(value) : 0;
    if (value && vlen >= CD_PDN_MAX_VALUE)
        return CD_ERR_OVERFLOW;
    int i = pdn_tag_index(t, name, nlen);
    if (value && i < 0 &&
        (t->count >= CD_PDN_MAX_TAGS || (size_t)t->used + nlen + vlen + 2 > CD_PDN_TAG_SPACE))
        return CD_ERR_OVERFLOW;
    if (value && i >= 0) {
        size_t old = strlen(t->text + t->value[i]);
        if ((size_t)t->used - old + vlen > CD_PDN_TAG_SPACE)
            return CD_ERR_OVERFLOW;
    }
    if (i >= 0)
        tags_remove(t, i);
    if (value)
        pdn_tags_add(t, name, nlen, value, vlen);
    return CD_OK;
}

/* ------------------------------------------------------------------ variants */

/*
 * GameType numbers read (and written, see gametype_tag): PDN 3.0's table (20-31, 40, 41), the
 * numbers lidraughts writes for its own variants (its Variant classes: Breakthrough 96, Frysk!
 * 97, Antidraughts 98), and for the rows no one has numbered condraughts' own block 60-72, clear
 * of both (docs/pdn.md), so no other program replays them under the wrong rules.
 */
static const struct {
    int type;
    const char *name;
} gametypes[] = {
    /* PDN 3.0 */
    {20, "international"},
    {21, "english"},
    {22, "italian"},
    {23, "pool"},
    {24, "spanish"},
    {25, "russian"},
    {26, "brazilian"},
    {27, "canadian"},
    {28, "portuguese"},
    {29, "czech"},
    {30, "turkish"},
    {31, "thai"},
    {40, "frisian"},
    {41, "spantsiretti"},
    /* condraughts' own block (docs/pdn.md) */
    {60, "constitutional"},
    {61, "killer"},
    {62, "modern"},
    {63, "hoogland"},
    {64, "brazilian-constitutional"},
    {65, "modern-8x8"},
    {66, "russian-constitutional"},
    {67, "russian-giveaway"},
    {68, "russian-diagonal"},
    {69, "russian-two-move"},
    {70, "russian-northern"},
    {71, "samoyed"},
    {72, "stavropol"},
    /* lidraughts */
    {96, "breakthrough"},
    {97, "frysk"},
    {98, "antidraughts"},
};

/* "20 international, 21 english, ..., 60-72 condraughts' own" for messages. */
void pdn_gametype_list(char *out, size_t len)
{
    sbuf b = {out, len, 0};
    for (size_t i = 0; i < sizeof gametypes / sizeof gametypes[0]; i++) {
        char tmp[48];
        int own = gametypes[i].type >= 60 && gametypes[i].type <= 72;
        if (own && gametypes[i].type != 60)
            continue;
        snprintf(tmp, sizeof tmp, "%s%d %s", i ? ", " : "", gametypes[i].type,
                 own ? "to 72 condraughts' own (docs/pdn.md)" : gametypes[i].name);
        sb_puts(&b, tmp);
    }
    sb_end(&b);
}

const char *pdn_gametype_variant(int type)
{
    for (size_t i = 0; i < sizeof gametypes / sizeof gametypes[0]; i++)
        if (gametypes[i].type == type)
            return gametypes[i].name;
    return NULL;
}

/* The leading number of a GameType value, or -1. */
int pdn_gametype_number(const char *s)
{
    if (!s)
        return -1;
    while (*s == ' ' || *s == '\t')
        s++;
    int n = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 6)
        n = n * 10 + (*s++ - '0'), digits++;
    return digits && digits < 6 ? n : -1;
}

/* Variant names compared like cd_rules_find: case-insensitive, '_' and ' ' as '-'. */
int pdn_name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca == '_' || ca == ' ')
            ca = '-';
        if (cb == '_' || cb == ' ')
            cb = '-';
        if (ca != cb)
            return 0;
    }
    return *a == *b;
}

/* Does the GameType of rules r name r itself (no Variant tag needed)? */
int pdn_own_gametype(const cd_rules *r)
{
    const char *name = pdn_gametype_variant(pdn_gametype_number(r->gametype));
    return name && pdn_name_eq(name, r->name);
}

/*
 * The GameType written for r: its row's own ("20", "25", ...) when that number means r, else the
 * number gametypes gives r, in PDN 3.0's full form (start colour, width, height, notation, invert
 * flag) so a program that knows no such number still learns the board: "60,W,10,10,N2,0".
 */
void pdn_gametype_tag(const cd_rules *r, char *out, size_t len)
{
    snprintf(out, len, "%s", r->gametype);
    if (pdn_own_gametype(r))
        return;
    for (size_t i = 0; i < sizeof gametypes / sizeof gametypes[0]; i++)
        if (pdn_name_eq(gametypes[i].name, r->name)) {
            int algebraic = (r->flags & CD_RULE_ALGEBRAIC) != 0;
            snprintf(out, len, "%d,%c,%d,%d,%s,0", gametypes[i].type,
                     r->first == CD_WHITE ? 'W' : 'B', cd_rules_width(r), cd_rules_height(r),
                     algebraic ? "A0" : "N2");
            return;
        }
}
