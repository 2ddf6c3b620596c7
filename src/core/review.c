/*
 * review.c -- a played move's loss and mark (condraughts.h: cd_move_loss), the one rule shared
 * by `condraughts pdn annotate` and the web server's review of a game.
 */
#include "condraughts.h"

static int capped(int s)
{
    return s > CD_LOSS_CAP ? CD_LOSS_CAP : s < -CD_LOSS_CAP ? -CD_LOSS_CAP : s;
}

int cd_move_loss(int best, int after, int is_best)
{
    if (is_best)
        return 0;
    int loss = capped(best) - capped(-after);
    return loss > 0 ? loss : 0;
}

int cd_loss_mark(int loss, int mark)
{
    return loss >= 3 * mark   ? CD_MARK_BLUNDER
           : loss >= mark     ? CD_MARK_MISTAKE
           : 2 * loss >= mark ? CD_MARK_DUBIOUS
                              : CD_MARK_NONE;
}

const char *cd_mark_text(int level)
{
    static const char *const text[CD_MARK_LEVELS] = {"", "?!", "?", "?\?"};
    return level >= 0 && level < CD_MARK_LEVELS ? text[level] : "";
}
