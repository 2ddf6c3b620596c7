/* the Windows build's <netinet/tcp.h>: sockets on Winsock (see sys/socket.h here) */
#include <sys/socket.h>
