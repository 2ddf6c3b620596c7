/* the Windows build's <netinet/in.h>: sockets on Winsock (see sys/socket.h here) */
#include <sys/socket.h>
