/*
 * socket.c -- the BSD socket calls of sys/socket.h (this folder) on Winsock, for the Windows
 * build: Winsock started at the first call, its errors put in errno, sockets closed with
 * closesocket, poll on WSAPoll.
 */
#include <sys/socket.h>

#include <errno.h>
#include <limits.h>

#undef socket
#undef bind
#undef listen
#undef accept
#undef connect
#undef setsockopt
#undef getsockname
#undef send
#undef recv
#undef poll
#undef getaddrinfo
#undef close

/* Winsock's errors the callers tell apart, as errno values (the others as EIO). */
static const struct {
    int wsa, err;
} errors[] = {
    {WSAEINTR, EINTR},           {WSAEWOULDBLOCK, EAGAIN},     {WSAECONNREFUSED, ECONNREFUSED},
    {WSAETIMEDOUT, ETIMEDOUT},   {WSAECONNRESET, ECONNRESET},  {WSAECONNABORTED, ECONNABORTED},
    {WSAEADDRINUSE, EADDRINUSE}, {WSAENETUNREACH, ENETUNREACH}, {WSAEADDRNOTAVAIL, EADDRNOTAVAIL},
    {WSAEACCES, EACCES},         {WSAEINVAL, EINVAL},          {WSAENOTSOCK, ENOTSOCK},
    {WSAEMFILE, EMFILE},
};

/* Winsock's last error put in errno; -1. */
static int fail(void)
{
    int e = WSAGetLastError();
    errno = EIO;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].wsa == e)
            errno = errors[i].err;
    return -1;
}

/* WSAStartup once (the DXP front end uses sockets from one thread). */
static int started(void)
{
    static int ok;
    WSADATA d;
    if (!ok && WSAStartup(MAKEWORD(2, 2), &d) == 0)
        ok = 1;
    if (!ok)
        errno = EIO;
    return ok;
}

int cd_win_socket(int domain, int type, int protocol)
{
    if (!started())
        return -1;
    SOCKET s = socket(domain, type, protocol);
    return s == INVALID_SOCKET ? fail() : (int)s;
}

int cd_win_bind(int fd, const struct sockaddr *a, socklen_t len)
{
    return bind((SOCKET)fd, a, len) == 0 ? 0 : fail();
}

int cd_win_listen(int fd, int backlog)
{
    return listen((SOCKET)fd, backlog) == 0 ? 0 : fail();
}

int cd_win_accept(int fd, struct sockaddr *a, socklen_t *len)
{
    SOCKET s = accept((SOCKET)fd, a, len);
    return s == INVALID_SOCKET ? fail() : (int)s;
}

int cd_win_connect(int fd, const struct sockaddr *a, socklen_t len)
{
    return connect((SOCKET)fd, a, len) == 0 ? 0 : fail();
}

int cd_win_setsockopt(int fd, int level, int name, const void *value, socklen_t len)
{
    return setsockopt((SOCKET)fd, level, name, value, len) == 0 ? 0 : fail();
}

int cd_win_getsockname(int fd, struct sockaddr *a, socklen_t *len)
{
    return getsockname((SOCKET)fd, a, len) == 0 ? 0 : fail();
}

ssize_t cd_win_send(int fd, const void *buf, size_t len, int flags)
{
    int n = send((SOCKET)fd, buf, len > INT_MAX ? INT_MAX : (int)len, flags);
    return n == SOCKET_ERROR ? fail() : n;
}

ssize_t cd_win_recv(int fd, void *buf, size_t len, int flags)
{
    int n = recv((SOCKET)fd, buf, len > INT_MAX ? INT_MAX : (int)len, flags);
    return n == SOCKET_ERROR ? fail() : n;
}

int cd_win_poll(struct pollfd *fds, unsigned long n, int ms)
{
    int r = WSAPoll(fds, n, ms);
    return r == SOCKET_ERROR ? fail() : r;
}

int cd_win_getaddrinfo(const char *host, const char *port, const struct addrinfo *hints,
                       struct addrinfo **res)
{
    if (!started())
        return EAI_FAIL;
    return getaddrinfo(host, port, hints, res);
}

int cd_win_close(int fd)
{
    return closesocket((SOCKET)fd) == 0 ? 0 : fail();
}
