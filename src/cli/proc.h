/*
 * proc.h -- a command line run as a child process, spoken to over pipes: its standard input
 * and its standard output (its standard error is the program's own). `match` runs external
 * engines this way.
 *
 * POSIX (proc.c): `/bin/sh -c CMD` in a process group of its own, so a hung engine is killed
 * with everything it started (`cd DIR && ./scan hub` keeps a shell as its parent), with SIGPIPE
 * at its default action (the caller may ignore it); the pipes are close-on-exec, so a child does
 * not hold another child's pipes open; the parent's end of the child's input is non-blocking.
 * Windows (src/compat/win/proc.c): `cmd.exe /d /s /c "CMD"` in a job object that kills the whole
 * tree when closed; the parent's pipe ends are not inherited.
 *
 * Invariant: a cli_proc is either idle (proc_running() 0: nothing to close) or holds one child
 * and both pipe ends; proc_end and proc_kill return it to idle.
 */
#ifndef CD_CLI_PROC_H
#define CD_CLI_PROC_H

#include <stddef.h>

typedef struct cli_proc {
#ifdef _WIN32
    void *process, *job; /* HANDLEs */
    void *to, *from;     /* the parent's ends of the pipes */
#else
    int pid; /* the process group leader, 0 when idle */
    int to, from;
#endif
} cli_proc;

/* An idle cli_proc. */
void proc_init(cli_proc *p);
/* Starts CMD: 0, or -1 with a message in err. */
int proc_start(cli_proc *p, const char *cmd, char *err, size_t errlen);
/* Is a child held? */
int proc_running(const cli_proc *p);
/* Reads what the child wrote, waiting at most ms milliseconds (ms < 0: without limit): the
 * number of bytes read (> 0), 0 at the end of its output (it closed it or ended), -1 when the
 * time passed with nothing to read. */
long proc_read(cli_proc *p, char *buf, size_t len, int ms);
/* Writes all of buf, waiting at most ms milliseconds (ms >= 0) for the child to read what does
 * not fit in the pipe: 0, -1 when the child is gone, -2 when the time passed with part of buf
 * unwritten (the child stopped reading its input; what it was sent is then cut short). */
int proc_write(cli_proc *p, const char *buf, size_t len, int ms);
/* Closes both pipes, gives the child `wait` seconds to end by itself, then kills it and all it
 * started; the cli_proc is idle after. */
void proc_end(cli_proc *p, double wait);
/* Kills the child and all it started at once; idle after. */
void proc_kill(cli_proc *p);

#endif
