/*
 * cb_host.h -- `condraughts cbhost LIB` (cb_host.c): a CheckerBoard engine library loaded in a
 * process of its own and driven over a pipe, what `match`'s cb: players start.
 *
 * The lines (one request at a time; only `stop` may come while getmove runs):
 *   -> cmd TEXT                       enginecommand(TEXT)
 *   <- reply RET TEXT                 its return value and reply (new lines written as " / ")
 *   -> getmove COLOR MAXTIME INFO MOREINFO B0 .. B63
 *                                     B = board[x][y] in the order x = 0..7, y = 0..7
 *   -> stop                           sets getmove's *playnow
 *   <- str TEXT                       getmove's status text
 *   <- moved RET B0 .. B63 M0 .. M66  its return value, the board after it, and the CBmove it
 *                                     filled in (zeroed before the call): jumps newpiece oldpiece
 *                                     from.x from.y to.x to.y path[12] (x y each) del[12] (x y)
 *                                     delpiece[12]
 * At the start: `ready NAME` (enginecommand "name"), or `error MESSAGE` and exit status 1. The
 * library's working folder is its own folder (cb_api_reference.htm: an engine finds its files
 * there). These lines go to the stdout cbhost started with; descriptor 1 is pointed at stderr
 * before the library loads, so whatever the library prints itself never reaches the pipe.
 */
#ifndef CD_CB_HOST_H
#define CD_CB_HOST_H

#include "opts.h"

#define CB_HOST_MOVE_INTS 67 /* the CBmove's ints on a `moved` line */

extern const cli_command cd_cbhost_command;

#endif
