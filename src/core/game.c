/*
 * game.c -- a game: history (copy-make positions, one per ply), repetition,
 * the variant's draw rules, and the result with its reason.
 *
 * Per ply we keep two counters from which every draw rule is derived:
 *   quiet[i] plies since the last capture or man move (no-progress rules);
 *   since[i] ply at which the current material balance (men and kings of
 *            each side) arose (endgame move-count rules).
 * A repetition can only reach back to the last capture or man move, so the
 * search for equal keys stops there.
 *
 * Endgame rules (../shared/rules/variants.md table 2; our reading):
 *   FMJD:    a lone king against 3 pieces with a king (3K, 2K+M, K+2M): draw
 *            after 16 moves each (32 plies) of that balance; against 2 or 1
 *            pieces with a king: 5 moves each (10 plies).
 *   FMJD-64: a lone king against 3 or more kings: 15 moves each; both sides
 *            with kings and the balance unchanged: 30 moves (4-5 pieces),
 *            60 moves (6-7 pieces).
 *   APCA:    3 kings against 1 king: 13 moves each.
 * The count restarts whenever the balance changes (capture or promotion).
 */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "game.h"

static int grow(cd_game *g)
{
    if (g->ply + 1 < g->cap)
        return 1;
    int cap = g->cap ? g->cap * 2 : 64;
    cd_position *p = realloc(g->pos, (size_t)cap * sizeof *p);
    if (!p)
        return 0;
    g->pos = p;
    cd_move *m = realloc(g->moves, (size_t)cap * sizeof *m);
    if (!m)
        return 0;
    g->moves = m;
    int *q = realloc(g->quiet, (size_t)cap * sizeof *q);
    if (!q)
        return 0;
    g->quiet = q;
    int *s = realloc(g->since, (size_t)cap * sizeof *s);
    if (!s)
        return 0;
    g->since = s;
    char **c = realloc(g->comment, (size_t)cap * sizeof *c);
    if (!c)
        return 0;
    for (int i = g->cap; i < cap; i++)
        c[i] = NULL;
    g->comment = c;
    g->cap = cap;
    return 1;
}

cd_game *cd_game_new(const cd_rules *rules, const cd_position *start)
{
    if (!rules)
        return NULL;
    cd_game *g = calloc(1, sizeof *g);
    if (!g || !grow(g)) {
        cd_game_free(g);
        return NULL;
    }
    g->rules = rules;
    g->draw = rules->draw;
    if (start) {
        g->pos[0] = *start;
        g->pos[0].rules = rules;
    } else {
        cd_position_start(&g->pos[0], rules);
    }
    g->quiet[0] = 0;
    g->since[0] = 0;
    return g;
}

void cd_game_free(cd_game *g)
{
    if (!g)
        return;
    free(g->pos);
    free(g->moves);
    free(g->quiet);
    free(g->since);
    for (int i = 0; g->comment && i < g->cap; i++)
        free(g->comment[i]);
    free(g->comment);
    free(g);
}

unsigned cd_game_draw_rules(const cd_game *g) { return g->draw; }
void cd_game_set_draw_rules(cd_game *g, unsigned draw) { g->draw = draw; }
const cd_position *cd_game_position(const cd_game *g) { return &g->pos[g->ply]; }
const cd_position *cd_game_position_at(const cd_game *g, int ply)
{
    return ply >= 0 && ply <= g->ply ? &g->pos[ply] : NULL;
}
int cd_game_ply(const cd_game *g) { return g->ply; }
const cd_move *cd_game_move(const cd_game *g, int i)
{
    return i >= 0 && i < g->ply ? &g->moves[i] : NULL;
}

int cd_position_balance(const cd_position *p)
{
    return cd_position_count(p, CD_WHITE, 0) | cd_position_count(p, CD_WHITE, 1) << 8 |
           cd_position_count(p, CD_BLACK, 0) << 16 | cd_position_count(p, CD_BLACK, 1) << 24;
}

cd_result cd_game_play(cd_game *g, const cd_move *m)
{
    if (!g || !m)
        return CD_ERR_ARG;
    if (cd_game_status(g, NULL) != CD_ONGOING)
        return CD_ERR_ARG;
    const cd_position *p = &g->pos[g->ply];
    cd_movelist *list = malloc(sizeof *list);
    if (!list)
        return CD_ERR_OVERFLOW;
    int n = cd_generate(p, list), legal = -1;
    for (int i = 0; i < n; i++)
        if (cd_move_equal(&list->moves[i], m))
            legal = i;
    if (legal < 0) {
        free(list);
        return CD_ERR_ILLEGAL;
    }
    cd_move mv = list->moves[legal]; /* the generator's copy: flags are right */
    free(list);
    if (!grow(g))
        return CD_ERR_OVERFLOW;
    int i = g->ply;
    p = &g->pos[i]; /* grow may have moved the history */
    cd_play(p, &mv, &g->pos[i + 1]);
    g->moves[i] = mv;
    int man_move = !cd_bb_test(p->kings, mv.from);
    g->quiet[i + 1] = (mv.ncaptured || man_move) ? 0 : g->quiet[i] + 1;
    g->since[i + 1] =
        cd_position_balance(p) == cd_position_balance(&g->pos[i + 1]) ? g->since[i] : i + 1;
    g->ply++;
    return CD_OK;
}

cd_result cd_game_play_text(cd_game *g, const char *text, char *err, size_t errlen)
{
    cd_move m;
    cd_result r = cd_move_parse(cd_game_position(g), text, &m, err, errlen);
    if (r != CD_OK)
        return r;
    return cd_game_play(g, &m);
}

int cd_game_undo(cd_game *g)
{
    g->forced = CD_ONGOING;
    g->forced_reason = CD_REASON_NONE;
    if (g->ply == 0)
        return 0;
    free(g->comment[g->ply]);
    g->comment[g->ply] = NULL;
    g->ply--;
    return 1;
}

const char *cd_game_comment(const cd_game *g, int ply)
{
    return ply >= 0 && ply <= g->ply ? g->comment[ply] : NULL;
}

cd_result cd_game_set_comment(cd_game *g, int ply, const char *text)
{
    if (!g || ply < 0 || ply > g->ply)
        return CD_ERR_ARG;
    char *copy = NULL;
    if (text) {
        size_t n = strlen(text);
        if (!(copy = malloc(n + 1)))
            return CD_ERR_OVERFLOW;
        memcpy(copy, text, n + 1);
    }
    free(g->comment[ply]);
    g->comment[ply] = copy;
    return CD_OK;
}

void cd_game_resign(cd_game *g, int colour)
{
    g->forced = colour == CD_WHITE ? CD_BLACK_WINS : CD_WHITE_WINS;
    g->forced_reason = CD_REASON_RESIGNATION;
}

void cd_game_agree_draw(cd_game *g)
{
    g->forced = CD_DRAW;
    g->forced_reason = CD_REASON_AGREEMENT;
}

void cd_game_time_loss(cd_game *g, int colour)
{
    g->forced = colour == CD_WHITE ? CD_BLACK_WINS : CD_WHITE_WINS;
    g->forced_reason = CD_REASON_TIME;
}

static cd_status win_for(int colour) { return colour == CD_WHITE ? CD_WHITE_WINS : CD_BLACK_WINS; }

int cd_endgame_limit(unsigned draw, const cd_position *p)
{
    int men[2], kings[2];
    for (int c = 0; c < 2; c++) {
        men[c] = cd_position_count(p, c, 0);
        kings[c] = cd_position_count(p, c, 1);
    }
    for (int c = 0; c < 2; c++) {
        int o = c ^ 1;
        int lone = men[c] == 0 && kings[c] == 1;
        int other = men[o] + kings[o];
        if (lone && kings[o] >= 1 && (draw & CD_DRAW_FMJD_ENDGAME)) {
            if (other == 3)
                return 32;
            if (other <= 2)
                return 10;
        }
        if (lone && men[o] == 0 && kings[o] >= 3 && (draw & CD_DRAW_RUSSIAN_ENDGAME))
            return 30;
        if (lone && men[o] == 0 && kings[o] == 3 && (draw & CD_DRAW_POOL_3V1))
            return 26;
    }
    /* Frisian, kings only: 2 against 1 has 7 moves each, 1 against 1 has 2 moves each */
    if ((draw & CD_DRAW_FRISIAN_ENDGAME) && !men[0] && !men[1] && kings[0] && kings[1] &&
        kings[0] + kings[1] <= 3)
        return kings[0] + kings[1] == 3 ? 14 : 4;
    if ((draw & CD_DRAW_RUSSIAN_ENDGAME) && kings[0] && kings[1]) {
        int total = men[0] + men[1] + kings[0] + kings[1];
        if (total == 4 || total == 5)
            return 60;
        if (total == 6 || total == 7)
            return 120;
    }
    return 0;
}

cd_status cd_game_status(const cd_game *g, cd_reason *reason)
{
    cd_reason why = CD_REASON_NONE;
    cd_status st = CD_ONGOING;
    const cd_position *p = &g->pos[g->ply];
    const cd_rules *r = g->rules;
    if (g->forced != CD_ONGOING) {
        st = g->forced;
        why = g->forced_reason;
    } else if (r->goal == CD_GOAL_BREAKTHROUGH && g->ply > 0 &&
               (g->moves[g->ply - 1].flags & CD_MOVE_PROMOTES)) {
        st = win_for(p->side ^ 1);
        why = CD_REASON_BREAKTHROUGH;
    } else if (cd_count_moves(p) == 0) {
        why = cd_position_count(p, p->side, -1) ? CD_REASON_NO_MOVES : CD_REASON_NO_PIECES;
        st = win_for(r->goal == CD_GOAL_LOSING ? p->side : p->side ^ 1);
    } else {
        unsigned d = g->draw;
        if ((d & CD_DRAW_REPETITION) && r->repetitions > 1) {
            int seen = 1;
            for (int i = g->ply - 2; i >= g->ply - g->quiet[g->ply]; i -= 2)
                if (g->pos[i].key == p->key)
                    seen++;
            if (seen >= r->repetitions) {
                st = CD_DRAW;
                why = CD_REASON_REPETITION;
            }
        }
        if (st == CD_ONGOING && (d & CD_DRAW_KINGS_ONLY) && r->no_progress > 0 &&
            g->quiet[g->ply] >= 2 * r->no_progress) {
            st = CD_DRAW;
            why = CD_REASON_NO_PROGRESS;
        }
        int limit = cd_endgame_limit(d, p);
        if (st == CD_ONGOING && limit && g->ply - g->since[g->ply] >= limit) {
            st = CD_DRAW;
            why = CD_REASON_ENDGAME;
        }
    }
    if (reason)
        *reason = why;
    return st;
}

const char *cd_reason_str(cd_reason r)
{
    switch (r) {
    case CD_REASON_NONE: return "game in progress";
    case CD_REASON_NO_PIECES: return "no pieces left";
    case CD_REASON_NO_MOVES: return "no legal moves";
    case CD_REASON_BREAKTHROUGH: return "first king crowned";
    case CD_REASON_REPETITION: return "repetition";
    case CD_REASON_NO_PROGRESS: return "no capture and no man move (no-progress rule)";
    case CD_REASON_ENDGAME: return "endgame move-count rule";
    case CD_REASON_AGREEMENT: return "agreement";
    case CD_REASON_RESIGNATION: return "resignation";
    case CD_REASON_TIME: return "time";
    }
    return "unknown";
}

const char *cd_status_pdn(const cd_rules *r, cd_status s)
{
    /* "2-0" on the International-sized boards; "1-0" on the 8x8 family, Turkish and 80-cell */
    int big = r->geometry == CD_GEOM_10X10 || r->geometry == CD_GEOM_12X12;
    switch (cd_status_first_mover(r, s)) {
    case CD_WHITE_WINS: return big ? "2-0" : "1-0";
    case CD_BLACK_WINS: return big ? "0-2" : "0-1";
    case CD_DRAW: return big ? "1-1" : "1/2-1/2";
    default: return "*";
    }
}

cd_status cd_status_first_mover(const cd_rules *r, cd_status s)
{
    /* The first score of a PDN result is the first mover's. Where Black moves first (English,
     * pool, Thai) "1-0" is a Black win: so the English files of the PDN 3.0 repository
     * (OCA_2.0: 8 of 9 games resigned at 1-0 end on a Black move, 10 of 11 at 0-1 on a White
     * move) and playstrategy's American/English exports write it (docs/pdn.md). */
    if (r->first != CD_BLACK)
        return s;
    return s == CD_WHITE_WINS ? CD_BLACK_WINS : s == CD_BLACK_WINS ? CD_WHITE_WINS : s;
}
