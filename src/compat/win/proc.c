/*
 * proc.c (Windows) -- a child process on pipes for the Windows build (see src/cli/proc.h; the
 * POSIX version is src/cli/proc.c). The command runs as `cmd.exe /d /s /c "CMD"` (so `cd DIR &&
 * engine.exe hub` works as the shell's form does), created suspended and put in a job object
 * that kills every process in it when the job's handle is closed, then resumed. Only the
 * child's ends of the pipes are inherited. Anonymous pipes cannot be waited on with a time
 * limit, so a read with a deadline looks at the pipe (PeekNamedPipe) every millisecond, and the
 * child's input is in PIPE_NOWAIT mode: a write writes what fits and, while nothing does, tries
 * again every millisecond until its deadline.
 */
#include "proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "cliutil.h"

void proc_init(cli_proc *p)
{
    p->process = p->job = p->to = p->from = NULL;
}

int proc_running(const cli_proc *p)
{
    return p->process != NULL;
}

static void close_handle(void **h)
{
    if (*h)
        CloseHandle(*h);
    *h = NULL;
}

/* code: GetLastError() read at once after the call that failed (a CloseHandle between would
 * overwrite it) */
static int fail(char *err, size_t errlen, const char *what, DWORD code)
{
    snprintf(err, errlen, "%s: Windows error %lu", what, (unsigned long)code);
    return -1;
}

int proc_start(cli_proc *p, const char *cmd, char *err, size_t errlen)
{
    proc_init(p);
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE in_r = NULL, in_w = NULL, out_r = NULL, out_w = NULL;
    if (!CreatePipe(&in_r, &in_w, &sa, 0))
        return fail(err, errlen, "CreatePipe", GetLastError());
    if (!CreatePipe(&out_r, &out_w, &sa, 0)) {
        DWORD code = GetLastError();
        CloseHandle(in_r);
        CloseHandle(in_w);
        return fail(err, errlen, "CreatePipe", code);
    }
    /* the parent's ends stay in the parent; a write that does not fit in the child's input pipe
     * writes what fits (PIPE_NOWAIT), so proc_write keeps its deadline */
    SetHandleInformation(in_w, HANDLE_FLAG_INHERIT, 0);
    DWORD nowait = PIPE_READMODE_BYTE | PIPE_NOWAIT;
    SetNamedPipeHandleState(in_w, &nowait, NULL, NULL);
    SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);

    size_t n = strlen(cmd) + 32;
    char *line = malloc(n);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        CloseHandle(in_r), CloseHandle(in_w), CloseHandle(out_r), CloseHandle(out_w);
        return -1;
    }
    snprintf(line, n, "cmd.exe /d /s /c \"%s\"", cmd);
    STARTUPINFOA si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in_r;
    si.hStdOutput = out_w;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi;
    HANDLE job = CreateJobObjectA(NULL, NULL);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim;
    memset(&lim, 0, sizeof lim);
    lim.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    BOOL ok = job && SetInformationJobObject(job, JobObjectExtendedLimitInformation, &lim,
                                             sizeof lim) &&
              CreateProcessA(NULL, line, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL, NULL, &si, &pi);
    int rc = 0;
    if (!ok) {
        rc = fail(err, errlen, "CreateProcess", GetLastError());
        if (job)
            CloseHandle(job);
    } else {
        AssignProcessToJobObject(job, pi.hProcess); /* failing (a job already): kill by process */
        ResumeThread(pi.hThread);
        CloseHandle(pi.hThread);
        p->process = pi.hProcess;
        p->job = job;
        p->to = in_w;
        p->from = out_r;
        in_w = out_r = NULL;
    }
    free(line);
    CloseHandle(in_r);
    CloseHandle(out_w);
    if (in_w)
        CloseHandle(in_w);
    if (out_r)
        CloseHandle(out_r);
    return rc;
}

long proc_read(cli_proc *p, char *buf, size_t len, int ms)
{
    double deadline = ms >= 0 ? cli_now() + ms / 1000.0 : 0;
    for (;;) {
        DWORD avail = 0;
        if (!PeekNamedPipe(p->from, NULL, 0, NULL, &avail, NULL))
            return 0; /* broken: the child closed its output or ended */
        if (avail > 0) {
            DWORD got = 0, want = avail < len ? avail : (DWORD)len;
            if (!ReadFile(p->from, buf, want, &got, NULL) || got == 0)
                return 0;
            return (long)got;
        }
        if (ms >= 0 && cli_now() >= deadline)
            return -1;
        Sleep(1);
    }
}

int proc_write(cli_proc *p, const char *buf, size_t len, int ms)
{
    double deadline = cli_now() + ms / 1000.0;
    for (size_t off = 0; off < len;) {
        DWORD w = 0;
        if (!WriteFile(p->to, buf + off, (DWORD)(len - off), &w, NULL))
            return -1;
        off += w;
        if (off < len && w == 0) {
            if (cli_now() >= deadline)
                return -2;
            Sleep(1);
        }
    }
    return 0;
}

void proc_end(cli_proc *p, double wait)
{
    if (!p->process)
        return;
    close_handle(&p->to);
    close_handle(&p->from);
    if (WaitForSingleObject(p->process, (DWORD)(wait * 1000.0)) != WAIT_OBJECT_0)
        TerminateProcess(p->process, 1);
    close_handle(&p->job); /* kills what is left in the job: what the command started */
    WaitForSingleObject(p->process, 1000);
    close_handle(&p->process);
}

void proc_kill(cli_proc *p)
{
    if (!p->process)
        return;
    if (p->job)
        TerminateJobObject(p->job, 1);
    TerminateProcess(p->process, 1);
    proc_end(p, 1.0);
}
