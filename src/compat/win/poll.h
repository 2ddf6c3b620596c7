/* the Windows build's <poll.h>: sockets on Winsock (see sys/socket.h here) */
#include <sys/socket.h>
