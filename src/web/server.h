/*
 * server.h -- `condraughts serve`: the HTTP/JSON server behind the browser front end.
 *
 * Usage: condraughts serve [--port 8080] [--host 127.0.0.1] [--data DIR] [--web DIR]
 * The API is documented in docs/api.md.
 */
#ifndef CD_WEB_SERVER_H
#define CD_WEB_SERVER_H

/* Run the server until SIGINT/SIGTERM; argv holds the options after "serve".
 * Returns the process exit status. */
int cd_serve_main(int argc, char **argv);

#endif
