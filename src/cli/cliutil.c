/*
 * cliutil.c -- helpers shared by the subcommands (see cliutil.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cliutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h> /* GetModuleFileNameA: Windows has no /proc/self/exe */
#endif

#include "condraughts.h"
#include "eval_io.h"

static void vwarn(const char *prefix, const char *fmt, va_list ap)
{
    /* under mpirun every process reads the same command line: only the first one speaks */
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || !strcmp(rank, "0")) {
        fputs(prefix, stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
}

void cli_warn(const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(prefix, fmt, ap);
    va_end(ap);
}

void cli_die(const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(prefix, fmt, ap);
    va_end(ap);
    exit(2);
}

char *cli_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t cli_perft_depths(uint64_t (*count)(void *pos, int depth), void *pos, int depth)
{
    uint64_t total = 0;
    for (int d = 1; d <= depth; d++) {
        uint64_t n = count(pos, d);
        printf("perft %d %llu\n", d, (unsigned long long)n);
        fflush(stdout);
        total += n;
    }
    return total;
}

void cli_perft_total(uint64_t total, double t0)
{
    double s = cli_now() - t0;
    printf("total %llu nodes %.3f s %.0f nodes/s\n", (unsigned long long)total, s,
           s > 0 ? (double)total / s : 0.0);
}

int cli_beside_program(const char *rel, char *path, size_t len)
{
    char exe[2048];
#ifdef _WIN32
    /* Windows: the program's own folder (condraughts.exe with weights\ beside it) */
    DWORD k = GetModuleFileNameA(NULL, exe, sizeof exe);
    char *slash = k > 0 && k < sizeof exe ? strrchr(exe, '\\') : NULL;
    const char *up = "";
#else
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? (exe[k] = '\0', strrchr(exe, '/')) : NULL;
    const char *up = "../";
#endif
    if (!slash)
        return 0;
    *slash = '\0';
    return (size_t)snprintf(path, len, "%s/%s%s", exe, up, rel) < len;
}

int cli_data_path(const char *rel, const char *probe, char *path, size_t len)
{
    char sub[512], file[4600];
    snprintf(sub, sizeof sub, "share/condraughts/%s", rel);
    for (int i = 0; i < 3; i++) {
        if (i == 0)
            snprintf(path, len, "%s", rel);
        else if (!cli_beside_program(i == 1 ? rel : sub, path, len))
            continue;
        snprintf(file, sizeof file, "%s/%s", path, probe);
        if (access(file, R_OK) == 0)
            return 1;
    }
    snprintf(path, len, "%s", rel);
    return 0;
}

int cli_weights_dir(char *path, size_t len)
{
    const char *env = getenv("CD_WEIGHTS");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return 1;
    }
    return cli_data_path("weights", "international.cdw", path, len);
}

/* The set the commands search with (cli_load_weights), made once before the command runs and
 * read-only after, so its threads share it. */
static cd_eval *loaded;

/* The folder's set (with its networks or not) into `loaded`; exit(2) with the file's fault. */
static void load(int nets)
{
    char dir[4096], err[4400];
    cd_eval *ev = cli_weights_dir(dir, sizeof dir) ? eval_io_load(dir, nets, err, sizeof err)
                                                   : eval_io_builtin(err, sizeof err);
    if (!ev)
        cli_die("condraughts: ", "%s (set CD_WEIGHTS to the folder that holds them)", err);
    cd_eval_free(loaded);
    loaded = ev;
}

void cli_load_pattern_weights(void) { load(0); }

void cli_load_weights(void) { load(1); }

const cd_eval *cli_eval(void) { return loaded; }
