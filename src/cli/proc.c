/*
 * proc.c -- a child process on pipes, POSIX (see proc.h; Windows: src/compat/win/proc.c).
 */
#define _GNU_SOURCE /* pipe2 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cliutil.h"

void proc_init(cli_proc *p)
{
    p->pid = 0;
    p->to = p->from = -1;
}

int proc_running(const cli_proc *p)
{
    return p->pid > 0;
}

int proc_start(cli_proc *p, const char *cmd, char *err, size_t errlen)
{
    int in[2], out[2];
    proc_init(p);
    if (pipe2(in, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* the referee ignores SIGPIPE (an engine gone is a failed write), and an ignored signal
         * stays ignored across exec: the engine gets the default back */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(SIGPIPE, &dfl, NULL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also from the parent: no race with a kill right after */
    close(in[0]);
    close(out[1]);
    /* writes wait in proc_write's poll, with its deadline, not in write() */
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->to = in[1];
    p->from = out[0];
    return 0;
}

long proc_read(cli_proc *p, char *buf, size_t len, int ms)
{
    double deadline = ms >= 0 ? cli_now() + ms / 1000.0 : 0;
    for (;;) {
        int wait = -1;
        if (ms >= 0) {
            double left = deadline - cli_now();
            wait = left > 0 ? (int)(left * 1000.0) + 1 : 0;
        }
        struct pollfd pfd = {p->from, POLLIN, 0};
        int r = poll(&pfd, 1, wait);
        if (r < 0 && errno != EINTR)
            return 0;
        if (r <= 0) {
            if (ms >= 0 && cli_now() >= deadline)
                return -1;
            continue;
        }
        ssize_t got = read(p->from, buf, len);
        if (got < 0 && errno == EINTR)
            continue;
        return got > 0 ? (long)got : 0;
    }
}

int proc_write(cli_proc *p, const char *buf, size_t len, int ms)
{
    double deadline = cli_now() + ms / 1000.0;
    for (size_t off = 0; off < len;) {
        ssize_t w = write(p->to, buf + off, len - off);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            return -1;
        double left = deadline - cli_now();
        if (left <= 0)
            return -2;
        struct pollfd pfd = {p->to, POLLOUT, 0};
        if (poll(&pfd, 1, (int)(left * 1000.0) + 1) < 0 && errno != EINTR)
            return -1;
    }
    return 0;
}

static void close_pipes(cli_proc *p)
{
    if (p->to >= 0)
        close(p->to);
    if (p->from >= 0)
        close(p->from);
    p->to = p->from = -1;
}

void proc_end(cli_proc *p, double wait)
{
    if (p->pid <= 0)
        return;
    close_pipes(p);
    double end = cli_now() + wait;
    while (waitpid(p->pid, NULL, WNOHANG) == 0) {
        if (cli_now() >= end) {
            kill(-p->pid, SIGKILL); /* the group: the shell and the engine it started */
            waitpid(p->pid, NULL, 0);
            break;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    p->pid = 0; /* reaped: its process group id may not be used again */
}

void proc_kill(cli_proc *p)
{
    if (p->pid > 0)
        kill(-p->pid, SIGKILL);
    proc_end(p, 1.0);
}
