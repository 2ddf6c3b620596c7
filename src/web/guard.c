/*
 * guard.c -- requests the server refuses before any handler sees them (403):
 *
 *  - a Host header naming another server (DNS rebinding: a page of evil.example whose name
 *    now points at 127.0.0.1 sends Host: evil.example). Allowed: localhost, 127.0.0.1, [::1],
 *    the --host name, this machine's name, and any IPv4 literal when --host is not a loopback
 *    address (a rebinding attack needs a DNS name); the port, when given, must be the server's
 *    (a page of another site on the server's port sends it; without one the name decides).
 *  - a state-changing request (POST, DELETE, ...) from another site's page: Origin present and
 *    not this server's own origin (http://HOST as the request's Host header gives it), or
 *    Sec-Fetch-Site other than same-origin or none. Requests without these headers (curl,
 *    scripts) are not a browser acting for another site and pass.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Written by guard_set before the server starts (its threads see it through their creation);
 * only the port changes later (guard_port), so it alone is atomic. */
static struct {
    char host[256];        /* --host */
    char me[256];          /* gethostname() */
    _Atomic unsigned port; /* the bound port */
    int loopback;          /* --host is a loopback address or localhost */
    int set;               /* guard_set was called (cd_web_request: never) */
} G;

void guard_port(unsigned port) { atomic_store(&G.port, port); }

void guard_set(const char *bind_host, unsigned port)
{
    snprintf(G.host, sizeof G.host, "%s", bind_host ? bind_host : "127.0.0.1");
    if (gethostname(G.me, sizeof G.me) != 0)
        G.me[0] = 0;
    G.me[sizeof G.me - 1] = 0;
    atomic_store(&G.port, port);
    G.loopback = !strncmp(G.host, "127.", 4) || !strcasecmp(G.host, "localhost");
    G.set = 1;
}

static int is_ipv4(const char *s, size_t n)
{
    int dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.')
            dots++;
        else if (!isdigit((unsigned char)s[i]))
            return 0;
    }
    return n > 0 && dots == 3;
}

static int name_is(const char *s, size_t n, const char *name)
{
    return name[0] && strlen(name) == n && !strncasecmp(s, name, n);
}

static int host_ok(const char *host)
{
    const char *end = host[0] == '[' ? strchr(host, ']') : NULL;
    const char *colon = strrchr(end ? end : host, ':');
    size_t n = colon ? (size_t)(colon - host) : strlen(host);
    if (colon) {
        char *stop;
        unsigned long p = strtoul(colon + 1, &stop, 10);
        if (*stop || colon[1] == 0 || p != atomic_load(&G.port))
            return 0;
    }
    if (name_is(host, n, "localhost") || name_is(host, n, "127.0.0.1") ||
        name_is(host, n, "[::1]") || name_is(host, n, G.host) || name_is(host, n, G.me))
        return 1;
    return !G.loopback && is_ipv4(host, n);
}

int guard_check(const char *host, const char *origin, const char *fetch_site, int write, char *err,
                size_t errlen)
{
    if (!G.set)
        return 0;
    if (host && !host_ok(host)) {
        snprintf(err, errlen, "Host '%.200s' is not this server", host);
        return -1;
    }
    if (!write)
        return 0;
    if (fetch_site && strcmp(fetch_site, "same-origin") && strcmp(fetch_site, "none")) {
        snprintf(err, errlen, "a request from another site's page is refused");
        return -1;
    }
    if (origin && (!host || strncmp(origin, "http://", 7) || strcmp(origin + 7, host))) {
        snprintf(err, errlen, "a request from another origin (%.200s) is refused", origin);
        return -1;
    }
    return 0;
}

void guard_token(const char *cookie, char *out)
{
    out[0] = 0;
    if (cookie && strlen(cookie) == PLAY_TOKEN && strspn(cookie, "0123456789abcdef") == PLAY_TOKEN)
        memcpy(out, cookie, PLAY_TOKEN + 1);
}
