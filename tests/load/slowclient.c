/*
 * slowclient.c -- clients that try to hold a web server's connections (the load test's limit
 * checks; loopback only).
 *
 *   slowclient MODE PORT N SECONDS
 *     slow  N connections each send a request header one byte a second, never ending it
 *     body  N connections send a complete header with Content-Length: 1000, then the body
 *           one byte a second
 *     idle  N connections open and send nothing
 *
 * Runs for SECONDS and prints one line:
 *   MODE: N connections, R refused at once, C closed by the server (last after T s), O open
 * A connection counts as closed by the server when a write fails or a read returns end of
 * stream or an error (a response, e.g. 408 or 413, is read and ignored).
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: slowclient slow|body|idle PORT N SECONDS\n");
        return 2;
    }
    const char *mode = argv[1];
    int port = atoi(argv[2]), n = atoi(argv[3]);
    double seconds = atof(argv[4]);
    if (n < 1 || n > 5000 || port < 1 || port > 65535 ||
        (strcmp(mode, "slow") && strcmp(mode, "body") && strcmp(mode, "idle"))) {
        fprintf(stderr, "slowclient: bad arguments\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit fds; /* a socket a connection */
    if (getrlimit(RLIMIT_NOFILE, &fds) == 0 && fds.rlim_cur < (rlim_t)n + 16) {
        fds.rlim_cur = fds.rlim_max < (rlim_t)n + 16 ? fds.rlim_max : (rlim_t)n + 16;
        setrlimit(RLIMIT_NOFILE, &fds);
    }
    int *fd = calloc((size_t)n, sizeof *fd);
    double *closed = calloc((size_t)n, sizeof *closed);
    size_t *sent = calloc((size_t)n, sizeof *sent);
    if (!fd || !closed || !sent)
        return 1;
    static const char slow_head[] = "GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    static const char body_head[] = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                    "Content-Type: application/json\r\n"
                                    "Content-Length: 1000\r\n\r\n";
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    double t0 = now();
    int refused = 0;
    for (int i = 0; i < n; i++) {
        fd[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (fd[i] < 0 || connect(fd[i], (struct sockaddr *)&sa, sizeof sa) != 0) {
            if (fd[i] >= 0)
                close(fd[i]);
            fd[i] = -1;
            closed[i] = 0;
            refused++;
            continue;
        }
        fcntl(fd[i], F_SETFL, O_NONBLOCK);
        if (!strcmp(mode, "body")) {
            if (write(fd[i], body_head, sizeof body_head - 1) < 0) {
                close(fd[i]);
                fd[i] = -1;
                refused++;
            }
        }
    }
    int open_count = n - refused;
    double last_close = 0;
    int closed_count = 0;
    double next_byte = now();
    while (now() - t0 < seconds && open_count > 0) {
        if (now() >= next_byte) {
            next_byte += 1.0;
            for (int i = 0; i < n; i++) {
                if (fd[i] < 0 || !strcmp(mode, "idle"))
                    continue;
                char c;
                if (!strcmp(mode, "slow"))
                    c = sent[i] < sizeof slow_head - 1 ? slow_head[sent[i]] : 'a';
                else
                    c = '{';
                ssize_t k = write(fd[i], &c, 1);
                if (k == 1)
                    sent[i]++;
                else if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    closed[i] = now() - t0;
                    close(fd[i]);
                    fd[i] = -1;
                }
            }
        }
        /* notice closes */
        for (int i = 0; i < n; i++) {
            if (fd[i] < 0)
                continue;
            char buf[4096];
            ssize_t k = read(fd[i], buf, sizeof buf);
            if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                closed[i] = now() - t0;
                close(fd[i]);
                fd[i] = -1;
            }
        }
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
        int still = 0;
        for (int i = 0; i < n; i++)
            still += fd[i] >= 0;
        open_count = still;
    }
    int at_once = refused;
    for (int i = 0; i < n; i++) {
        if (fd[i] >= 0)
            continue;
        if (closed[i] > 0 && closed[i] < 0.5 && sent[i] <= 1) {
            at_once++;
            continue;
        }
        if (closed[i] > 0) {
            closed_count++;
            if (closed[i] > last_close)
                last_close = closed[i];
        }
    }
    /* refused counts both connect failures and connections closed before a byte was taken */
    printf("%s: %d connections, %d refused at once, %d closed by the server (last after %.1f s), "
           "%d open\n",
           mode, n, at_once, closed_count, last_close, open_count);
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0)
            close(fd[i]);
    free(fd);
    free(closed);
    free(sent);
    return 0;
}
