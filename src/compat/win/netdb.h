/* the Windows build's <netdb.h>: sockets on Winsock (see sys/socket.h here) */
#include <sys/socket.h>
