/*
 * names.h -- players' names (docs/api.md, "Names"): checked and normalised, and compared by the
 * look of them, with ICU (Debian's libicu): Unicode NFKC, and the confusable skeleton of
 * Unicode TR39 (uspoof_getSkeleton).
 *
 * A name is valid UTF-8, at most PLAY_NAME_MAX characters once in NFKC, with no control
 * character, no format character (zero-width characters, the bidi controls such as U+202E), no
 * line or paragraph separator, no unassigned or private-use code point, and no white space at
 * its start or end. Two names are the same person's when their keys are equal: the key is the
 * name in NFKC, case-folded, mapped to its TR39 skeleton (Latin, Greek and Cyrillic look-alikes,
 * `rn` and `m`, `0` and `O`, ...) and case-folded again, so `Dora`, `DORA`, `Dοra` (a Greek
 * omicron), `Dоra` (a Cyrillic o) and `D0ra` share one key.
 */
#ifndef CD_WEB_NAMES_H
#define CD_WEB_NAMES_H

#include <stddef.h>

/* The name `in` checked and in NFKC into out[cap]: 0, or -1 with err set (what: how the message
 * names it, e.g. "'name'"). An empty name is valid. */
int name_clean(const char *in, char *out, size_t cap, const char *what, char *err, size_t errlen);
/* The comparison key of a name (valid UTF-8) into out[cap]: 0, or -1 (not UTF-8, too long, no
 * ICU data). */
int name_key(const char *name, char *out, size_t cap);

#endif
