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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cliutil.h"
#include "dxp_session.h"
#include "openings.h"
#include "opts.h"
#include "stats.h"

/* The command line: the session's settings and the connection's. */
typedef struct options {
    cd_dxp_settings set;
    const char *host, *port;
    int initiate, games_given;
    const char *fen;      /* the Initiator's start */
    const char *openings; /* the Initiator's starts: a file (cli_load_openings) or auto:K */
    const char *pdn_file; /* the games written here */
    const char *egtb;     /* endgame tables folder, or NULL */
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

enum {
    O_VARIANT,
    O_HOST,
    O_PORT,
    O_INITIATE,
    O_FOLLOW,
    O_TIME,
    O_MOVES,
    O_DEPTH,
    O_MOVETIME,
    O_GAMES,
    O_NAME,
    O_FEN,
    O_OPENINGS,
    O_COLOUR,
    O_COLOR,
    O_TIMEOUT,
    O_HASH,
    O_NO_TAKEBACK,
    O_VERBOSE,
    O_EGTB,
    O_PDN,
    O_NUMBERING,
};

static const cli_opt dxp_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V",
                  "the variant both sides agreed on (DXP does not say); default international"),
     .alias = 'v'},
    {CLI_TEXT_OPT(O_HOST, "host", "H",
                  "the address to listen on or connect to (default 127.0.0.1)")},
    {CLI_INT_OPT(O_PORT, "port", "P", 0, 65535, "the TCP port (default 27531; 0: any free port)")},
    {CLI_FLAG_OPT(O_INITIATE, "initiate", "connect and propose the games (the Initiator)")},
    {CLI_FLAG_OPT(O_FOLLOW, "follow",
                  "listen and accept the other side's proposal (the Follower)")},
    {CLI_INT_OPT(O_TIME, "time", "S", 1, 999 * 60,
                 "seconds a game for each side, whole minutes (default 300)")},
    {CLI_INT_OPT(O_MOVES, "moves", "N", 0, 999, "moves in that time (0: the whole game)")},
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 0, CD_MAX_PLY - 1,
                 "limit the search's depth (0: by the clock only)")},
    {CLI_REAL_OPT(O_MOVETIME, "movetime", "S", 0.001, 1e6,
                  "our engine's seconds a move, whatever the clock says")},
    {CLI_INT_OPT(O_GAMES, "games", "N", 0, 100000,
                 "games to play (default 1; the Follower: until the Initiator stops)")},
    {CLI_TEXT_OPT(O_NAME, "name", "NAME", "the name sent to the other side")},
    {CLI_TEXT_OPT(O_FEN, "fen", "FEN", "the Initiator's start position")},
    {CLI_TEXT_OPT(O_OPENINGS, "openings", "FILE|auto:K",
                  "the Initiator's starts, as for match: each twice, colours reversed")},
    {CLI_CHOICE_OPT(O_COLOUR, "colour", "white|black", "the Initiator's colour (default white)")},
    {CLI_CHOICE_OPT(O_COLOR, "color", "white|black", "the same as --colour"), .hidden = 1},
    {CLI_INT_OPT(O_TIMEOUT, "timeout", "S", 1, 1000000, "seconds to wait for the connection")},
    {CLI_INT_OPT(O_HASH, "hash", "MB", 1, 1 << 20, "hash table size in MiB")},
    {CLI_FLAG_OPT(O_NO_TAKEBACK, "no-takeback", "refuse the other side's takeback requests")},
    {CLI_FLAG_OPT(O_VERBOSE, "verbose", "log every message on stderr")},
    {CLI_TEXT_OPT(O_EGTB, "egtb", "DIR", "endgame tables folder; default ./egtb when it exists")},
    {CLI_TEXT_OPT(O_PDN, "pdn", "FILE", "write the games here")},
    {CLI_CHOICE_OPT(O_NUMBERING, "numbering", "top-left|variant",
                    "squares of moves: ours, or pydraughts' from a1 on 8x8 (as Hub's)")},
    {0}};

const cli_command cd_dxp_command = {
    .name = "dxp",
    .about = "Play DamExchange (DXP) games over TCP against another program.",
    .opts = dxp_opts,
    .notes = "Give exactly one of --initiate and --follow. 8x8 positions use 32 squares.\n"
             "pydraughts numbers the squares of its Russian, Brazilian and Turkish moves its own\n"
             "way (from a1): give --numbering variant (positions stay in ours; other variants\n"
             "keep ours, as pydraughts' DXP moves do).\n",
    .run = cd_dxp_main,
    .flags = CLI_SEARCHES,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    options *o = user;
    const cli_command *cmd = &cd_dxp_command;
    switch (opt->id) {
    case O_VARIANT: o->set.rules = cli_variant(cmd, v->text); break;
    case O_HOST: o->host = v->text; break;
    case O_PORT: o->port = v->text; break;
    case O_INITIATE: o->initiate = 1; break;
    case O_FOLLOW: o->set.follow = 1; break;
    case O_TIME:
        if (v->n % 60) /* GAMEREQ carries minutes: both sides must get the same clock */
            cli_fail(cmd, "--time %lld is not whole minutes (DXP sends minutes), e.g. %lld", v->n,
                     v->n < 30 ? 60 : (v->n + 30) / 60 * 60);
        o->set.time = (double)v->n;
        break;
    case O_MOVES: o->set.moves = (int)v->n; break;
    case O_DEPTH: o->set.depth = (int)v->n; break;
    case O_MOVETIME: o->set.movetime = v->x; break;
    case O_GAMES:
        o->set.games = (int)v->n;
        o->games_given = 1;
        break;
    case O_NAME: {
        const char *p = v->text;
        while (*p == ' ')
            p++;
        char clean[CD_DXP_NAME_LEN + 1];
        cd_dxp_printable(p, clean, sizeof clean);
        if (!clean[0])
            cli_fail(cmd, "--name must not be empty");
        snprintf(o->set.name, sizeof o->set.name, "%s", clean);
        break;
    }
    case O_FEN: o->fen = v->text; break;
    case O_OPENINGS: o->openings = v->text; break;
    case O_PDN: o->pdn_file = v->text; break;
    case O_COLOUR:
    case O_COLOR: o->set.colour = v->n ? CD_BLACK : CD_WHITE; break;
    case O_TIMEOUT: o->set.timeout = (double)v->n; break;
    case O_HASH: o->hash_mb = (size_t)v->n; break;
    case O_NO_TAKEBACK: o->set.no_takeback = 1; break;
    case O_VERBOSE: o->set.verbose = 1; break;
    case O_EGTB: o->egtb = v->text; break;
    case O_NUMBERING: o->set.numbering = (int)v->n; break;
    }
}

static void parse_options(int argc, char **argv, options *o)
{
    const cli_command *cmd = &cd_dxp_command;
    memset(o, 0, sizeof *o);
    o->set.rules = cd_rules_find("international");
    o->host = NULL;
    o->port = "27531";
    o->set.time = 300;
    o->set.games = 1;
    o->set.colour = CD_WHITE;
    snprintf(o->set.name, sizeof o->set.name, "condraughts %s", CD_VERSION);
    cli_parse(cmd, argc, argv, set_option, o, NULL, 0);
    if (o->initiate == o->set.follow)
        cli_fail(cmd, "give exactly one of --initiate and --follow");
    if (o->set.follow && o->fen)
        cli_fail(cmd, "--fen is for the initiator (the follower takes the GAMEREQ position)");
    if (o->set.follow && o->openings)
        cli_fail(cmd, "--openings is for the initiator (the follower takes the GAMEREQ position)");
    if (o->fen && o->openings)
        cli_fail(cmd, "give one of --fen and --openings");
    if (o->initiate && o->set.games < 1)
        cli_fail(cmd, "--games must be at least 1 for the initiator");
    if (o->set.follow && !o->games_given)
        o->set.games = 0; /* the follower plays until the initiator stops */
    if (!o->host)
        o->host = "127.0.0.1";
    o->egtb = cli_egtb_folder(cmd, o->egtb);
}

/* The Initiator's starting positions: the --fen, the --openings (the position each line leads
 * to: DXP sends a position, not moves) or the standard one. Exits 2 on an error. */
static cd_position *initiator_starts(const options *o, int *n)
{
    const cli_command *cmd = &cd_dxp_command;
    cd_position *starts;
    char err[1024];
    if (!o->openings) {
        starts = malloc(sizeof *starts);
        if (!starts)
            cli_fail(cmd, "out of memory");
        *n = 1;
        if (!o->fen)
            cd_position_start(starts, o->set.rules);
        else if (cd_position_from_fen(starts, o->set.rules, o->fen, err, sizeof err) != CD_OK)
            cli_fail(cmd, "--fen: %s", err);
        return starts;
    }
    cd_game **games;
    int k = cli_load_openings(o->openings, o->set.rules, &games, err, sizeof err);
    if (k < 0)
        cli_fail(cmd, "%s", err);
    starts = malloc((size_t)k * sizeof *starts);
    if (!starts)
        cli_fail(cmd, "out of memory");
    for (int i = 0; i < k; i++) {
        starts[i] = *cd_game_position(games[i]);
        if (cd_count_moves(&starts[i]) == 0)
            cli_fail(cmd, "%s: opening %d leaves no legal move", o->openings, i + 1);
    }
    cli_free_openings(games, k);
    *n = k;
    return starts;
}

/* The Initiator's summary on stdout, in the form of `condraughts match`'s. */
static void print_summary(const cd_dxp_tally *t)
{
    static const double tri_v[3] = {0.0, 0.5, 1.0}, penta_v[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    long tri[3] = {t->l, t->d, t->w};
    stats_elo_est e = stats_elo_estimate(tri, tri_v, 3, STATS_Z95);
    printf("dxp: %ld games against %s, +%ld =%ld -%ld, score %.1f%%, Elo %+.0f [%+.0f, %+.0f] "
           "(95%%)\n",
           t->w + t->d + t->l, t->peer[0] ? t->peer : "the peer", t->w, t->d, t->l, 100.0 * e.score,
           e.elo, e.lo, e.hi);
    long pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += t->penta[i];
    if (pairs > 0) {
        stats_elo_est pe = stats_elo_estimate(t->penta, penta_v, 5, STATS_Z95);
        printf("pairs: %ld, pentanomial [%ld %ld %ld %ld %ld], Elo %+.0f [%+.0f, %+.0f] (95%%)\n",
               pairs, t->penta[0], t->penta[1], t->penta[2], t->penta[3], t->penta[4], pe.elo,
               pe.lo, pe.hi);
    }
    printf("unfinished: %ld\n", t->unfinished);
    fflush(stdout);
}

int cd_dxp_main(int argc, char **argv)
{
    options o;
    parse_options(argc, argv, &o);
    cd_position *starts = NULL;
    int nstarts = 0;
    if (o.initiate)
        starts = initiator_starts(&o, &nstarts);
    if (o.pdn_file && !(o.set.pdn = fopen(o.pdn_file, "w")))
        cli_fail(&cd_dxp_command, "cannot write %s: %s", o.pdn_file, strerror(errno));
#ifdef SIGPIPE /* a write to a closed connection fails instead (Windows has no SIGPIPE) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
#endif

    cd_engine *engine = cd_engine_new(o.hash_mb);
    if (!engine) {
        cd_dxp_log("error: cannot create the engine (out of memory)");
        return 1;
    }
    cd_engine_set_eval(engine, cli_eval());
    /* the endgame tables the engine probes (none where the variant cannot have them) */
    cd_egtb *tb = o.egtb ? cd_egtb_open(o.set.rules, o.egtb) : NULL;
    if (tb)
        cd_engine_set_egtb(engine, tb);
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
        cd_egtb_close(tb);
        free(starts);
        if (o.set.pdn)
            fclose(o.set.pdn);
        return 1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    cd_dxp_log("connected (%s, variant %s)", o.set.follow ? "follower" : "initiator",
               o.set.rules->name);
    cd_dxp_tally tally;
    int rc = cd_dxp_session_run(&o.set, fd, engine, starts, nstarts, &tally);
    close(fd);
    if (o.initiate)
        print_summary(&tally);
    if (o.set.pdn && fclose(o.set.pdn) != 0) {
        cd_dxp_log("error: writing %s: %s", o.pdn_file, strerror(errno));
        rc = 1;
    }
    cd_engine_free(engine);
    cd_egtb_close(tb);
    free(starts);
    return rc;
}
