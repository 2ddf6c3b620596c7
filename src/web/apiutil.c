/*
 * apiutil.c -- helpers shared by the two JSON APIs (see apiutil.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "apiutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Does the JSON text hold a NUL: a byte 0, or the escape \u0000 in a string (which cJSON would
 * take as the string's end, silently cutting it)? */
static int json_has_nul(const char *s, size_t len)
{
    if (memchr(s, 0, len))
        return 1;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"') {
            in_string = !in_string;
        } else if (in_string && s[i] == '\\' && i + 1 < len) {
            if (s[i + 1] == 'u' && i + 5 < len && !strncmp(s + i + 2, "0000", 4))
                return 1;
            i++; /* the escaped character (a quote or a backslash does not end or escape) */
        }
    }
    return 0;
}

cJSON *cd_json_body(const char *body, size_t len, int required, char *err, size_t errlen)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", body[i]))
        i++;
    if (i == len) {
        if (required) {
            snprintf(err, errlen, "a JSON object body is required");
            return NULL;
        }
        return cJSON_CreateObject();
    }
    if (json_has_nul(body, len)) {
        snprintf(err, errlen, "a NUL character in the JSON body (a string may not hold \\u0000)");
        return NULL;
    }
    cJSON *j = cJSON_ParseWithLength(body, len);
    if (!j) {
        snprintf(err, errlen, "malformed JSON");
        return NULL;
    }
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        snprintf(err, errlen, "the JSON body must be an object");
        return NULL;
    }
    return j;
}

int cd_json_string(const cJSON *o, const char *name, const char **out, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring) {
        snprintf(err, errlen, "'%s' must be a string", name);
        return -1;
    }
    *out = v->valuestring;
    return 0;
}

int cd_json_number(const cJSON *o, const char *name, double lo, double hi, int integer, double *out,
                   int *present, char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (present)
        *present = 0;
    if (!v || cJSON_IsNull(v))
        return 0;
    double d = v->valuedouble;
    if (!cJSON_IsNumber(v) || d != d || d < lo || d > hi || (integer && d != (double)(long)d)) {
        if (integer)
            snprintf(err, errlen, "'%s' must be an integer from %g to %g", name, lo, hi);
        else
            snprintf(err, errlen, "'%s' must be a number from %g to %g", name, lo, hi);
        return -1;
    }
    *out = d;
    if (present)
        *present = 1;
    return 0;
}

void cd_api_random_id(char *out, int hex)
{
    unsigned char b[16];
    size_t n = (size_t)hex / 2;
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, b, n) : -1;
    if (fd >= 0)
        close(fd);
    if (got != (ssize_t)n) {
        static unsigned seed;
        seed = seed * 1103515245u + 12345u + (unsigned)time(NULL) + (unsigned)getpid();
        for (size_t i = 0; i < n; i++)
            b[i] = (unsigned char)((seed >> (i * 8)) ^ (unsigned)rand());
    }
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}
