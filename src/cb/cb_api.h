/*
 * cb_api.h -- the CheckerBoard engine API (Martin Fierz's CheckerBoard, maintained by Ed Gilbert:
 * github.com/eygilbert/CheckerBoard, cb_api_reference.htm), written here from that reference:
 * the constants, the two structures and the signatures an engine library exports.
 *
 * The board: int board[8][8] indexed board[x][y], x and y 0..7; the playing squares are those
 * with x + y even. Every game type starts with Black's men on y = 0..2 and White's on y = 5..7
 * (English: Black moves first; Italian, Spanish, Russian, Brazilian, Czech: White). A cell holds
 * CB_FREE or a colour ORed with a kind: CB_WHITE|CB_MAN = 5, CB_BLACK|CB_MAN = 6,
 * CB_WHITE|CB_KING = 9, CB_BLACK|CB_KING = 10.
 *
 * The structures are plain ints (4 bytes on every platform CheckerBoard and this project build
 * for), so their layout is the same under gcc, clang, MSVC and mingw-w64: struct cb_coor is 8
 * bytes, struct cb_move 4 * 3 + 8 * 2 + 8 * 12 * 2 + 4 * 12 = 268 bytes.
 *
 * Calling convention: the reference says __stdcall (WINAPI). On 64-bit Windows (CheckerBoard
 * today) and on Linux there is a single convention and CB_CALL is empty; on 32-bit Windows it is
 * __stdcall, and the names are exported undecorated by the .def file of `make windows`.
 */
#ifndef CD_CB_API_H
#define CD_CB_API_H

#if defined(_WIN32) && !defined(_WIN64)
#define CB_CALL __stdcall
#else
#define CB_CALL
#endif

/* Pieces on the board, and the colour argument of getmove (CB_BLACK or CB_WHITE). */
#define CB_FREE  0
#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN   4
#define CB_KING  8

/* getmove's return value: the engine's opinion of the game (used by CheckerBoard's engine
 * matches to end a game). */
#define CB_DRAW    0
#define CB_WIN     1
#define CB_LOSS    2
#define CB_UNKNOWN 3

/* getmove's info bits: bit 0 "reset" (a new game or an interruption: forget the history kept
 * from earlier calls), bit 1 "exact" (move after exactly maxtime), bits 2-3 the incremental
 * clock's unit (0 off, 1 ms, 2 centiseconds, 3 deciseconds), then moreinfo holds the remaining
 * time in its upper 16 bits and the increment in its lower 16, in that unit. */
#define CB_RESET_MOVES     1
#define CB_EXACT_TIME      2
#define CB_INCR_TIME_SHIFT 2

/* The game types of `get gametype` (the PDN GameType numbers). */
#define CB_GT_ENGLISH   21
#define CB_GT_ITALIAN   22
#define CB_GT_SPANISH   24
#define CB_GT_RUSSIAN   25
#define CB_GT_BRAZILIAN 26
#define CB_GT_CZECH     29

#define CB_STR_SIZE   1024 /* getmove's str */
#define CB_REPLY_SIZE 1024 /* enginecommand's reply */

struct cb_coor {
    int x, y;
};

/* A move as CheckerBoard describes it: the piece before (oldpiece) and after (newpiece, a king
 * when it was crowned), from and to, path[1 .. jumps - 1] the intermediate landing squares of a
 * capture (path[0] unused; this project also writes path[jumps] = to), del[0 .. jumps - 1] the
 * captured pieces' squares and delpiece[] what stood there. jumps is 0 for a quiet move. */
struct cb_move {
    int jumps;
    int newpiece;
    int oldpiece;
    struct cb_coor from, to;
    struct cb_coor path[12];
    struct cb_coor del[12];
    int delpiece[12];
};

/* The exported functions, by these names (getmove, enginecommand, islegal). */
typedef int(CB_CALL *cb_getmove_fn)(int board[8][8], int color, double maxtime,
                                    char str[CB_STR_SIZE], int *playnow, int info, int moreinfo,
                                    struct cb_move *move);
typedef int(CB_CALL *cb_enginecommand_fn)(const char *command, char reply[CB_REPLY_SIZE]);
typedef int(CB_CALL *cb_islegal_fn)(int board[8][8], int color, int from, int to,
                                    struct cb_move *move);

#endif
