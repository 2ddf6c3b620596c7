/*
 * apiutil.h -- helpers shared by the web handlers (the game API, games between people, accounts,
 * analysis, and the tower-draughts API towers_api.c): request bodies read as JSON objects (cJSON)
 * with a clear error message, and random game ids.
 */
#ifndef CD_APIUTIL_H
#define CD_APIUTIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The body as a JSON object; a blank body is {} unless `required`. NULL with err set on error
 * (malformed JSON, not an object, missing). The caller frees the result with cJSON_Delete. */
cJSON *cd_json_body(const char *body, size_t len, int required, char *err, size_t errlen);

/* Optional string field: 0 when absent or null (*out untouched) or a string (*out set), -1 with
 * err set when of another type. */
int cd_json_string(const cJSON *o, const char *name, const char **out, char *err, size_t errlen);

/* Optional number field within [lo, hi] (an integer if `integer`): 0 when absent or null (*out
 * untouched, *present 0) or valid (*out set, *present 1), -1 with err set otherwise. `present`
 * may be NULL. */
int cd_json_number(const cJSON *o, const char *name, double lo, double hi, int integer, double *out,
                   int *present, char *err, size_t errlen);

/* A random id of `hex` lowercase hex digits (even, at most 32) into out[hex + 1], from
 * /dev/urandom, or a time-seeded generator when that cannot be read. */
void cd_api_random_id(char *out, int hex);

#endif
