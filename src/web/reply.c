/*
 * reply.c -- a handler's answer: the reply buffer, JSON bodies and JSON error replies
 * ({"error": "..."}, 405 with Allow, 503 with Retry-After), and request bodies read as JSON.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "apiutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- responses */

void reply_init(reply *r)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
}

enum MHD_Result send_buffer(reply *c, unsigned status, const char *type, char *body, size_t len)
{
    free(c->body);
    c->status = status;
    c->type = type;
    c->body = body;
    c->len = body ? len : 0;
    return MHD_YES;
}

enum MHD_Result send_json(reply *c, unsigned status, cJSON *j)
{
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return MHD_NO;
    return send_buffer(c, status, "application/json", text, strlen(text));
}

enum MHD_Result send_error(reply *c, unsigned status, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "error", msg);
    return send_json(c, status, j);
}

enum MHD_Result send_405(reply *c, const char *allow)
{
    c->allow = allow;
    return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed");
}

/* 503 with Retry-After: a limit of the server is reached for now. */
enum MHD_Result send_busy(reply *c, const char *what)
{
    c->retry_after = 1;
    return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "%s", what);
}

/* ---------------------------------------------------------------- request bodies */

/* The request body as a JSON object (apiutil.h). */
cJSON *parse_body(const request *rq, int required, char *err, size_t errlen)
{
    return cd_json_body(rq->body, rq->len, required, err, errlen);
}
