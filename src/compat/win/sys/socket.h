/* <sys/socket.h> for Windows builds (make windows): the BSD socket calls the DXP front end makes
 * (src/cli/dxp_cmd.c, src/proto/dxp_session.c), on Winsock. Winsock reports errors through
 * WSAGetLastError, not errno, needs WSAStartup before its first call, closes sockets with
 * closesocket and polls with WSAPoll: each call here is a function of socket.c that does so and
 * sets errno as POSIX does. <netdb.h>, <netinet/in.h>, <netinet/tcp.h> and <poll.h> of this
 * folder are this header. */
#ifndef CD_COMPAT_WIN_SOCKET_H
#define CD_COMPAT_WIN_SOCKET_H

#include <winsock2.h>
#include <ws2tcpip.h>
#include <io.h> /* close, declared before it names closesocket below */
#include <sys/types.h>
#include <unistd.h>

#define MSG_NOSIGNAL 0 /* no SIGPIPE on Windows */

int cd_win_socket(int domain, int type, int protocol);
int cd_win_bind(int fd, const struct sockaddr *a, socklen_t len);
int cd_win_listen(int fd, int backlog);
int cd_win_accept(int fd, struct sockaddr *a, socklen_t *len);
int cd_win_connect(int fd, const struct sockaddr *a, socklen_t len);
int cd_win_setsockopt(int fd, int level, int name, const void *value, socklen_t len);
int cd_win_getsockname(int fd, struct sockaddr *a, socklen_t *len);
ssize_t cd_win_send(int fd, const void *buf, size_t len, int flags);
ssize_t cd_win_recv(int fd, void *buf, size_t len, int flags);
int cd_win_poll(struct pollfd *fds, unsigned long n, int ms);
int cd_win_getaddrinfo(const char *host, const char *port, const struct addrinfo *hints,
                       struct addrinfo **res);
int cd_win_close(int fd);

#define socket      cd_win_socket
#define bind        cd_win_bind
#define listen      cd_win_listen
#define accept      cd_win_accept
#define connect     cd_win_connect
#define setsockopt  cd_win_setsockopt
#define getsockname cd_win_getsockname
#define send        cd_win_send
#define recv        cd_win_recv
#define poll        cd_win_poll
#define getaddrinfo cd_win_getaddrinfo
#define close       cd_win_close

#endif
