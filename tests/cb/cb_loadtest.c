/*
 * cb_loadtest.c -- condraughts_cb.dll loaded as CheckerBoard loads an engine (make windows-test,
 * under wine): LoadLibrary, GetProcAddress of getmove and enginecommand, then `name`,
 * `get gametype`, `get protocolversion` and getmove on English's start position (Black to move:
 * Black's men on y = 0..2 of board[x][y], x + y even). Checks that one black man went from y = 2
 * to y = 3 and nothing else changed, and that the CBmove says the same.
 *
 * Usage: cb_loadtest.exe PATH\condraughts_cb.dll; exit status 0 when every check held.
 */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "cb_api.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cb_loadtest DLL\n");
        return 2;
    }
    HMODULE h = LoadLibraryA(argv[1]);
    if (!h) {
        fprintf(stderr, "cb_loadtest: LoadLibrary(%s) failed: error %lu\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    cb_getmove_fn getmove = (cb_getmove_fn)(void (*)(void))GetProcAddress(h, "getmove");
    cb_enginecommand_fn enginecommand =
        (cb_enginecommand_fn)(void (*)(void))GetProcAddress(h, "enginecommand");
    if (!getmove || !enginecommand) {
        fprintf(stderr, "cb_loadtest: %s exports no getmove or enginecommand\n", argv[1]);
        return 1;
    }
    int fails = 0;
    char reply[CB_REPLY_SIZE];
    enginecommand("name", reply);
    printf("name: %s\n", reply);
    fails += strncmp(reply, "condraughts ", 12) != 0;
    enginecommand("get gametype", reply);
    printf("gametype: %s\n", reply);
    fails += strcmp(reply, "21") != 0;
    enginecommand("get protocolversion", reply);
    fails += strcmp(reply, "2") != 0;

    int board[8][8], before[8][8];
    memset(board, 0, sizeof board);
    for (int y = 0; y < 8; y++)
        for (int x = y % 2; x < 8; x += 2)
            board[x][y] = y < 3 ? (CB_BLACK | CB_MAN) : y > 4 ? (CB_WHITE | CB_MAN) : CB_FREE;
    memcpy(before, board, sizeof board);
    char str[CB_STR_SIZE] = "";
    int playnow = 0;
    struct cb_move m;
    memset(&m, 0, sizeof m);
    int ret = getmove(board, CB_BLACK, 0.3, str, &playnow, CB_RESET_MOVES, 0, &m);
    printf("getmove: %d, %s\n", ret, str);
    int gone = 0, came = 0, other = 0;
    for (int x = 0; x < 8; x++)
        for (int y = 0; y < 8; y++) {
            if (board[x][y] == before[x][y])
                continue;
            if (y == 2 && board[x][y] == CB_FREE)
                gone++;
            else if (y == 3 && board[x][y] == (CB_BLACK | CB_MAN))
                came++;
            else
                other++;
        }
    if (gone != 1 || came != 1 || other) {
        printf("FAIL the board after getmove is not one opening move (%d %d %d)\n", gone, came,
               other);
        fails++;
    }
    if (m.jumps != 0 || m.from.y != 2 || m.to.y != 3 || board[m.from.x][m.from.y] != CB_FREE ||
        board[m.to.x][m.to.y] != (CB_BLACK | CB_MAN)) {
        printf("FAIL the CBmove does not match the board\n");
        fails++;
    }
    FreeLibrary(h);
    printf("cb_loadtest: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
