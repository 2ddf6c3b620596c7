/*
 * dxp_cmd.c -- `condraughts dxp`: the program entry of the DamExchange
 * protocol (DXP) front end. Options, the TCP connection (listen and accept as
 * Follower, connect as Initiator) and the engine; the games themselves are
 * the session's (src/proto/dxp_session.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "dxp_cmd.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cliutil.h"
#include "dxp_session.h"

/* The command line: the session's settings and the connection's. */
typedef struct options {
    cd_dxp_settings set;
    const char *host, *port;
    int initiate, games_given;
    const char *fen; /* the Initiator's start */
    size_t hash_mb;
} options;

/* ------------------------------------------------------------------ sockets */

static int open_listener(const char *host, const char *port)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        cd_dxp_log("error: %s:%s: %s", host, port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, saved = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1) == 0)
            break;
        saved = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        cd_dxp_log("error: cannot listen on %s:%s: %s", host, port, strerror(saved));
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    char h[256], p[32];
    if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0 &&
        getnameinfo((struct sockaddr *)&sa, len, h, sizeof h, p, sizeof p,
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0)
        cd_dxp_log("listening on %s port %s", h, p);
    return fd;
}

static int accept_one(int lfd, double timeout)
{
    double deadline = timeout > 0 ? cli_now() + timeout : 0;
    for (;;) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - cli_now();
            if (left <= 0) {
                cd_dxp_log("error: no connection within %.0f s", timeout);
                return -1;
            }
            ms = (int)(left * 1000) + 1;
        }
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        int pr = poll(&p, 1, ms);
        if (pr < 0 && errno != EINTR) {
            cd_dxp_log("error: poll: %s", strerror(errno));
            return -1;
        }
        if (pr <= 0)
            continue;
        int fd = accept(lfd, NULL, NULL);
        if (fd >= 0)
            return fd;
        if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN) {
            cd_dxp_log("error: accept: %s", strerror(errno));
            return -1;
        }
    }
}

static int connect_to(const char *host, const char *port, double timeout)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        cd_dxp_log("error: %s:%s: %s", host, port, gai_strerror(rc));
        return -1;
    }
    double deadline = cli_now() + timeout;
    int saved = 0;
    for (;;) { /* retry while nobody listens yet */
        for (ai = res; ai; ai = ai->ai_next) {
            int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
            if (fd < 0) {
                saved = errno;
                continue;
            }
            if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
                freeaddrinfo(res);
                return fd;
            }
            saved = errno;
            close(fd);
        }
        if (cli_now() >= deadline ||
            (saved != ECONNREFUSED && saved != ETIMEDOUT && saved != EINTR))
            break;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    freeaddrinfo(res);
    cd_dxp_log("error: cannot connect to %s:%s: %s", host, port, strerror(saved));
    return -1;
}

/* ------------------------------------------------------------------ options */

static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("condraughts: dxp: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fputs("usage: condraughts dxp [--variant V] [--host H] [--port P] (--initiate | --follow)\n"
          "         [--time SECONDS_PER_GAME] [--moves N] [--depth D] [--games N] [--name NAME]\n"
          "         [--fen FEN] [--colour white|black] [--timeout S] [--hash MB] [--no-takeback]\n"
          "         [--verbose]\n",
          stderr);
    return 2;
}

static int int_arg(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return usage("%s needs a whole number in %ld..%ld, got '%s'", opt, lo, hi, s);
    *out = v;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->set.rules = cd_rules_find("international");
    o->host = NULL;
    o->port = "27531";
    o->set.time = 300;
    o->set.games = 1;
    o->set.colour = CD_WHITE;
    snprintf(o->set.name, sizeof o->set.name, "condraughts %s", CD_VERSION);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long v = 0;
        int has = i + 1 < argc;
        const char *val = has ? argv[i + 1] : NULL;
        if (!strcmp(a, "--initiate")) {
            o->initiate = 1;
            continue;
        }
        if (!strcmp(a, "--follow")) {
            o->set.follow = 1;
            continue;
        }
        if (!strcmp(a, "--no-takeback")) {
            o->set.no_takeback = 1;
            continue;
        }
        if (!strcmp(a, "--verbose")) {
            o->set.verbose = 1;
            continue;
        }
        static const char *const with_value[] = {
            "--variant", "-v",     "--host", "--port",   "--time",  "--moves",   "--depth",
            "--games",   "--name", "--fen",  "--colour", "--color", "--timeout", "--hash"};
        size_t k, nk = sizeof with_value / sizeof with_value[0];
        for (k = 0; k < nk; k++)
            if (!strcmp(a, with_value[k]))
                break;
        if (k == nk)
            return usage("unknown option '%s'", a);
        if (!has)
            return usage("%s needs a value", a);
        i++;
        if (!strcmp(a, "--variant") || !strcmp(a, "-v")) {
            o->set.rules = cd_rules_find(val);
            if (!o->set.rules)
                return usage("unknown variant '%s' (try: condraughts variants)", val);
        } else if (!strcmp(a, "--host")) {
            o->host = val;
        } else if (!strcmp(a, "--port")) {
            if (int_arg(a, val, 0, 65535, &v))
                return 2;
            o->port = val;
        } else if (!strcmp(a, "--time")) {
            if (int_arg(a, val, 1, 999 * 60, &v))
                return 2;
            if (v % 60) /* GAMEREQ carries minutes: both sides must get the same clock */
                return usage("--time %ld is not whole minutes (DXP sends minutes), e.g. %ld", v,
                             (v + 30) / 60 > 0 ? (v + 30) / 60 * 60 : 60);
            o->set.time = (double)v;
        } else if (!strcmp(a, "--moves")) {
            if (int_arg(a, val, 0, 999, &v))
                return 2;
            o->set.moves = (int)v;
        } else if (!strcmp(a, "--depth")) {
            if (int_arg(a, val, 0, CD_MAX_PLY - 1, &v))
                return 2;
            o->set.depth = (int)v;
        } else if (!strcmp(a, "--games")) {
            if (int_arg(a, val, 0, 100000, &v))
                return 2;
            o->set.games = (int)v;
            o->games_given = 1;
        } else if (!strcmp(a, "--name")) {
            const char *p = val;
            while (*p == ' ')
                p++;
            char clean[CD_DXP_NAME_LEN + 1];
            cd_dxp_printable(p, clean, sizeof clean);
            if (!clean[0])
                return usage("--name must not be empty");
            snprintf(o->set.name, sizeof o->set.name, "%s", clean);
        } else if (!strcmp(a, "--fen")) {
            o->fen = val;
        } else if (!strcmp(a, "--colour") || !strcmp(a, "--color")) {
            if (!strcmp(val, "white"))
                o->set.colour = CD_WHITE;
            else if (!strcmp(val, "black"))
                o->set.colour = CD_BLACK;
            else
                return usage("%s must be white or black", a);
        } else if (!strcmp(a, "--timeout")) {
            if (int_arg(a, val, 1, 1000000, &v))
                return 2;
            o->set.timeout = (double)v;
        } else if (!strcmp(a, "--hash")) {
            if (int_arg(a, val, 1, 1 << 20, &v))
                return 2;
            o->hash_mb = (size_t)v;
        }
    }
    if (o->initiate == o->set.follow)
        return usage("give exactly one of --initiate and --follow");
    if (o->set.follow && o->fen)
        return usage("--fen is for the initiator (the follower takes the GAMEREQ position)");
    if (o->initiate && o->set.games < 1)
        return usage("--games must be at least 1 for the initiator");
    if (o->set.follow && !o->games_given)
        o->set.games = 0; /* the follower plays until the initiator stops */
    if (!o->host)
        o->host = "127.0.0.1";
    return 0;
}

int cd_dxp_main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc;
    cd_position start;
    if (o.initiate) {
        if (o.fen) {
            char err[256];
            if (cd_position_from_fen(&start, o.set.rules, o.fen, err, sizeof err) != CD_OK)
                return usage("--fen: %s", err);
        } else {
            cd_position_start(&start, o.set.rules);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    cd_engine *engine = cd_engine_new(o.hash_mb);
    if (!engine) {
        cd_dxp_log("error: cannot create the engine (out of memory)");
        return 1;
    }
    int fd = -1;
    if (o.set.follow) {
        int lfd = open_listener(o.host, o.port);
        if (lfd >= 0) {
            fd = accept_one(lfd, o.set.timeout);
            close(lfd);
        }
    } else {
        fd = connect_to(o.host, o.port, o.set.timeout > 0 ? o.set.timeout : 10);
    }
    if (fd < 0) {
        cd_engine_free(engine);
        return 1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    cd_dxp_log("connected (%s, variant %s)", o.set.follow ? "follower" : "initiator",
               o.set.rules->name);
    rc = cd_dxp_session_run(&o.set, fd, engine, &start);
    close(fd);
    cd_engine_free(engine);
    return rc;
}
