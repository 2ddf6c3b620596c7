/*
 * serve_main.c -- `condraughts serve`: options, the data and tables folders, the address to bind,
 * signals; the server runs until SIGINT or SIGTERM.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fcntl.h>
#include <unistd.h>

/* Can a file be written, synced and removed in dir (not read-only, not full)? 0, or -1 (errno
 * set): the server refuses to start rather than answer 201 for games it cannot keep. */
static int write_probe(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.write-probe-%ld", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return -1;
    int ok = write(fd, "probe\n", 6) == 6 && fsync(fd) == 0;
    int saved = errno;
    close(fd);
    unlink(path);
    errno = ok ? 0 : saved ? saved : ENOSPC;
    return ok ? 0 : -1;
}

/* The connections to answer (*out): a socket each, plus http_spare() more for the 503s, plus
 * FD_RESERVE descriptors for everything else. The soft RLIMIT_NOFILE is raised as far as needed
 * (to the hard limit at most); `want` 0 takes all it allows, at most CONN_AUTO_MAX. 0, or -1 with a
 * message when `want` does not fit. */
static int size_connections(long want, unsigned *out)
{
    struct rlimit fds;
    if (getrlimit(RLIMIT_NOFILE, &fds) != 0)
        fds.rlim_cur = fds.rlim_max = 1024;
    unsigned top = want > 0 ? (unsigned)want : CONN_AUTO_MAX;
    rlim_t need = (rlim_t)top + http_spare(top) + FD_RESERVE;
    if (fds.rlim_cur < need && fds.rlim_cur != RLIM_INFINITY) {
        rlim_t cur = fds.rlim_cur;
        fds.rlim_cur = fds.rlim_max != RLIM_INFINITY && fds.rlim_max < need ? fds.rlim_max : need;
        if (setrlimit(RLIMIT_NOFILE, &fds) != 0)
            fds.rlim_cur = cur;
    }
    rlim_t have = fds.rlim_cur == RLIM_INFINITY || fds.rlim_cur > need ? need : fds.rlim_cur;
    /* the largest n with n + http_spare(n) + FD_RESERVE <= have */
    unsigned n = have >= need ? top : have > FD_RESERVE + 16 ? (unsigned)(have - FD_RESERVE - 16) : 0;
    while (n > 0 && (rlim_t)n + http_spare(n) + FD_RESERVE > have)
        n--;
    if (want > 0 && n < (unsigned)want) {
        fprintf(stderr,
                "condraughts serve: --max-connections %ld needs %llu file descriptors; this "
                "process may open %llu (ulimit -Hn): at most %u connections here\n",
                want, (unsigned long long)need, (unsigned long long)fds.rlim_max, n);
        return -1;
    }
    if (n == 0) {
        fprintf(stderr, "condraughts serve: only %llu file descriptors (ulimit -n): too few\n",
                (unsigned long long)fds.rlim_cur);
        return -1;
    }
    *out = n;
    return 0;
}

/* ---------------------------------------------------------------- main */

int cd_serve_run(const cd_serve_config *c)
{
    long port = c->port;
    const char *host = c->host ? c->host : "127.0.0.1", *data = c->data ? c->data : "games";
    const char *web = c->web ? c->web : "web", *egtb = c->egtb, *db = c->db;
    struct in_addr proxies[CD_SERVE_PROXIES];
    int nproxies = c->nproxies < CD_SERVE_PROXIES ? c->nproxies : CD_SERVE_PROXIES;
    for (int i = 0; i < nproxies; i++)
        if (inet_pton(AF_INET, c->proxies[i], &proxies[i]) != 1) {
            fprintf(stderr, "condraughts serve: --trust-proxy: '%s' is not an IPv4 address\n",
                    c->proxies[i]);
            return 2;
        }
    snprintf(srv.data, sizeof srv.data, "%s", data);
    snprintf(srv.web, sizeof srv.web, "%s", web);
    srv.eval = c->eval;
    srv.books = c->books;
    srv.nbooks = c->books ? c->nbooks : 0;
    struct stat st;
    if (egtb && egtb[0]) {
        cd_egtb *check = cd_egtb_open(cd_rules_find("international"), egtb);
        if (!check) {
            fprintf(stderr,
                    "condraughts serve: cannot use '%s' for endgame tables (name too long?)\n",
                    egtb);
            return 2;
        }
        cd_egtb_close(check);
        if (stat(egtb, &st) != 0 || !S_ISDIR(st.st_mode))
            fprintf(stderr, "condraughts serve: warning: no folder %s (no endgame tables)\n", egtb);
        egtb_set_dir(egtb);
    }
    if (mkdir(srv.data, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "condraughts serve: cannot create %s: %s\n", srv.data, strerror(errno));
        return 1;
    }
    if (write_probe(srv.data) != 0) {
        fprintf(stderr, "condraughts serve: cannot write in %s: %s\n", srv.data, strerror(errno));
        return 1;
    }

    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    int gai = getaddrinfo(host, NULL, &hints, &ai);
    if (gai != 0 || !ai) {
        fprintf(stderr, "condraughts serve: cannot resolve host %s: %s\n", host, gai_strerror(gai));
        return 1;
    }
    struct sockaddr_in sa;
    memcpy(&sa, ai->ai_addr, sizeof sa);
    freeaddrinfo(ai);
    sa.sin_port = htons((uint16_t)port);

    load_games();
    char db_default[sizeof srv.data + 16];
    if (!db) { /* beside the games folder: games -> games.sqlite */
        size_t n = strlen(srv.data);
        while (n > 1 && srv.data[n - 1] == '/')
            n--;
        snprintf(db_default, sizeof db_default, "%.*s.sqlite", (int)n, srv.data);
        db = db_default;
    }

#ifdef __GLIBC__
    /* Every search allocates its engine's table (ENGINE_HASH_MB) in its connection's thread. With
     * glibc's default, freeing such a block raises the mmap threshold above it, so later tables
     * come from the per-thread arenas and stay there after free: under load the resident size
     * grew by ENGINE_HASH_MB per arena (+240 MB). A fixed threshold keeps big blocks mmap'ed and
     * returned to the system when freed. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif

    unsigned max_conn;
    if (size_connections(c->max_conn, &max_conn) != 0)
        return 2;

    /* SIGINT/SIGTERM are taken by sigwait below; every thread inherits the mask. The one pthread
     * call of src/web: C11 threads cannot block a signal, and sigwait needs it blocked in every
     * thread (ARCHITECTURE.md, "Threads"). */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    char err[1024];
    /* behind a proxy every connection comes from it: --per-ip 0 lifts libmicrohttpd's limit of
     * connections a peer, and the limits by address take the client's address it names */
    if (play_open(db, (int)c->max_games, c->per_ip != 0 || nproxies > 0, err, sizeof err) != 0) {
        fprintf(stderr, "condraughts serve: %s\n", err);
        return 1;
    }
    guard_set(host, (unsigned)port);
    struct MHD_Daemon *d =
        http_start(&sa, (uint16_t)port, (unsigned)c->per_ip, max_conn, proxies, nproxies);
    int rc = 0;
    if (!d) {
        fprintf(stderr, "condraughts serve: cannot listen on %s:%ld\n", host, port);
        rc = 1;
    } else {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
        unsigned real = info ? info->port : (unsigned)port;
        guard_port(real);
        printf("condraughts: serving http://%s:%u/\n", host, real);
        printf("condraughts: %u connections at once\n", max_conn);
        if (egtb_dir()[0])
            printf("condraughts: endgame tables from %s\n", egtb_dir());
        if (srv.nbooks > 0) {
            printf("condraughts: opening books:");
            for (int i = 0; i < srv.nbooks; i++)
                printf(" %s", cd_book_rules(srv.books[i])->name);
            printf("\n");
        }
        fflush(stdout);
        int sig = 0;
        sigwait(&sigs, &sig);
    }
    http_stop(d);
    cd_web_reset(); /* the games, the engines, the play service */
    egtb_close_all();
    srv.books = NULL; /* the caller's, freed after */
    srv.nbooks = 0;
    return rc;
}
