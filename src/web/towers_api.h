/*
 * towers_api.h -- the tower draughts part of the web API (/api/towers/..., docs/api.md): games
 * of Bashni and Lasca (src/towers/) against the engine, kept in memory only.
 */
#ifndef CD_WEB_TOWERS_API_H
#define CD_WEB_TOWERS_API_H

#include <stddef.h>

typedef struct towers_reply {
    unsigned status;   /* HTTP status */
    char *body;        /* JSON, malloc'ed (the caller frees it); NULL when out of memory */
    size_t len;        /* strlen(body) */
    const char *allow; /* for 405: the Allow header value, else NULL */
} towers_reply;

/* Answer one request. `path` is what follows "/api/towers" in the URL ("/games",
 * "/games/ID/move", ...), `method` the HTTP method, body/len the request body (may be NULL/0;
 * the caller has applied its size limit). Thread-safe. */
void towers_api(const char *path, const char *method, const char *body, size_t len,
                towers_reply *out);

#endif
