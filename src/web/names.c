/*
 * names.c -- players' names checked, normalised (NFKC) and keyed by their look (TR39 skeleton),
 * with ICU (names.h).
 */
#include "names.h"

#include <stdio.h>
#include <threads.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include "play.h"

#define UNITS 512 /* UTF-16 units of a name at work (a name is at most PLAY_NAME_MAX characters)   \
                   */

static USpoofChecker *checker; /* made once: ICU's checks are safe from several threads */
static once_flag checker_once = ONCE_FLAG_INIT;

static void checker_open(void)
{
    UErrorCode e = U_ZERO_ERROR;
    checker = uspoof_open(&e);
    if (U_FAILURE(e)) {
        uspoof_close(checker);
        checker = NULL;
    }
}

/* UTF-8 in NFKC into u[UNITS]: its length, or -1 (not UTF-8: *bad_utf8 set; too long). */
static int32_t to_nfkc(const char *in, UChar *u, int *bad_utf8)
{
    UChar raw[UNITS];
    int32_t n = 0;
    UErrorCode e = U_ZERO_ERROR;
    *bad_utf8 = 0;
    u_strFromUTF8(raw, UNITS, &n, in, -1, &e);
    if (e == U_INVALID_CHAR_FOUND || e == U_ILLEGAL_CHAR_FOUND)
        *bad_utf8 = 1;
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING)
        return -1;
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
    int32_t len = U_SUCCESS(e) ? unorm2_normalize(nfkc, raw, n, u, UNITS, &e) : -1;
    return U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING ? len : -1;
}

static int to_utf8(const UChar *u, int32_t n, char *out, size_t cap)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    u_strToUTF8(out, (int32_t)cap, &len, u, n, &e);
    return U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING ? 0 : -1;
}

int name_clean(const char *in, char *out, size_t cap, const char *what, char *err, size_t errlen)
{
    UChar u[UNITS];
    int bad_utf8;
    int32_t n = to_nfkc(in, u, &bad_utf8);
    if (n < 0) {
        snprintf(err, errlen,
                 bad_utf8 ? "%s is not valid UTF-8" : "%s is longer than %d characters", what,
                 PLAY_NAME_MAX);
        return -1;
    }
    int32_t chars = 0;
    UChar32 first = 0, last = 0;
    for (int32_t i = 0; i < n;) {
        UChar32 c;
        U16_NEXT(u, i, n, c);
        int8_t t = u_charType(c);
        if (t == U_CONTROL_CHAR || t == U_FORMAT_CHAR || t == U_LINE_SEPARATOR ||
            t == U_PARAGRAPH_SEPARATOR || t == U_UNASSIGNED || t == U_PRIVATE_USE_CHAR ||
            t == U_SURROGATE) {
            snprintf(err, errlen,
                     "%s may not hold control, format (zero-width, bidi) or unassigned characters "
                     "(U+%04X)",
                     what, (unsigned)c);
            return -1;
        }
        if (!chars)
            first = c;
        last = c;
        chars++;
    }
    if (chars && (u_isUWhiteSpace(first) || u_isUWhiteSpace(last))) {
        snprintf(err, errlen, "%s may not begin or end with a space", what);
        return -1;
    }
    if (chars > PLAY_NAME_MAX || to_utf8(u, n, out, cap) != 0) {
        snprintf(err, errlen, "%s is longer than %d characters", what, PLAY_NAME_MAX);
        return -1;
    }
    return 0;
}

int name_key(const char *name, char *out, size_t cap)
{
    call_once(&checker_once, checker_open);
    UChar a[UNITS], b[UNITS];
    int bad_utf8;
    int32_t n = to_nfkc(name, a, &bad_utf8);
    if (n < 0 || !checker)
        return -1;
    UErrorCode e = U_ZERO_ERROR;
    n = u_strFoldCase(b, UNITS, a, n, U_FOLD_CASE_DEFAULT, &e);
    if (U_SUCCESS(e))
        n = uspoof_getSkeleton(checker, 0, b, n, a, UNITS, &e);
    if (U_SUCCESS(e))
        n = u_strFoldCase(b, UNITS, a, n, U_FOLD_CASE_DEFAULT, &e);
    if (U_FAILURE(e) || e == U_STRING_NOT_TERMINATED_WARNING)
        return -1;
    return to_utf8(b, n, out, cap);
}
