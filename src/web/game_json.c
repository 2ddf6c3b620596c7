/*
 * game_json.c -- the game object of the API (docs/api.md, "The game object"), built under the
 * game table's lock, and its "egtb" field, probed after the lock is released (the first probe of
 * a table reads its file).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "lazy_lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- game JSON */

const char *status_name(cd_status s)
{
    switch (s) {
    case CD_WHITE_WINS: return "white wins";
    case CD_BLACK_WINS: return "black wins";
    case CD_DRAW: return "draw";
    default: return "ongoing";
    }
}

/* An integer as a raw JSON item: the text cJSON would print for it, without its double
 * formatting (cJSON 1.7.15 prints every number with "%1.15g" and reads it back with sscanf: a
 * board's few hundred numbers were a tenth of the server's CPU under load). */
static cJSON *raw_int(long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%ld", v);
    return cJSON_CreateRaw(buf);
}

static void add_int(cJSON *o, const char *name, long v) { cJSON_AddItemToObject(o, name, raw_int(v)); }

static cJSON *int_array(const int *v, int n)
{
    char buf[128 * 12 + 3];
    size_t len = 0;
    buf[len++] = '[';
    for (int i = 0; i < n && len < sizeof buf - 14; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, i ? ",%d" : "%d", v[i]);
    buf[len++] = ']';
    buf[len] = 0;
    return cJSON_CreateRaw(buf);
}

/* A JSON text being built (jt_*), for the arrays of a game object made as one raw item each
 * instead of an item (and a copied key) a value: grows as needed; ok is 0 once out of memory. */
typedef struct {
    char *s;
    size_t len, cap;
    int ok;
} jtext;

static void jt_put(jtext *t, const char *s, size_t n)
{
    if (!t->ok)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t c = t->cap ? t->cap : 256;
        while (c < t->len + n + 1)
            c *= 2;
        char *p = realloc(t->s, c);
        if (!p) {
            t->ok = 0;
            return;
        }
        t->s = p;
        t->cap = c;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

static void jt_cstr(jtext *t, const char *s) { jt_put(t, s, strlen(s)); }

/* s as a JSON string, escaped as cJSON 1.7.15 prints it (\", \\, \b, \f, \n, \r, \t, other
 * bytes below 32 as \u00XX, every other byte as it is). */
static void jt_str(jtext *t, const char *s)
{
    jt_put(t, "\"", 1);
    for (const char *run = s;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 32 && c != '"' && c != '\\')
            continue;
        jt_put(t, run, (size_t)(s - run));
        run = s + 1;
        if (!c)
            break;
        char esc[8];
        switch (c) {
        case '"': snprintf(esc, sizeof esc, "\\\""); break;
        case '\\': snprintf(esc, sizeof esc, "\\\\"); break;
        case '\b': snprintf(esc, sizeof esc, "\\b"); break;
        case '\f': snprintf(esc, sizeof esc, "\\f"); break;
        case '\n': snprintf(esc, sizeof esc, "\\n"); break;
        case '\r': snprintf(esc, sizeof esc, "\\r"); break;
        case '\t': snprintf(esc, sizeof esc, "\\t"); break;
        default: snprintf(esc, sizeof esc, "\\u%04x", c); break;
        }
        jt_cstr(t, esc);
    }
    jt_put(t, "\"", 1);
}

static void jt_ints(jtext *t, const int *v, int n)
{
    char num[16];
    jt_put(t, "[", 1);
    for (int i = 0; i < n; i++) {
        snprintf(num, sizeof num, i ? ",%d" : "%d", v[i]);
        jt_cstr(t, num);
    }
    jt_put(t, "]", 1);
}

/* o[name]: the text built, as a raw item (nothing when out of memory); t emptied. */
static void jt_add(cJSON *o, const char *name, jtext *t)
{
    if (t->ok)
        cJSON_AddItemToObject(o, name, cJSON_CreateRaw(t->s));
    free(t->s);
    *t = (jtext){.ok = 1};
}

/* The "squares" array of a variant (its number, row and column each), made once per variant and
 * kept for the run (the rules are static). NULL when out of memory. */
#define SQUARES_KEPT 64
static struct {
    mtx_t m;
    const cd_rules *rules[SQUARES_KEPT];
    char *text[SQUARES_KEPT];
} SQ;
WEB_LAZY_LOCK(static, squares_lock, SQ.m)

static const char *squares_text(const cd_rules *r)
{
    squares_lock();
    const char *found = NULL;
    int i = 0;
    for (; i < SQUARES_KEPT && SQ.rules[i]; i++)
        if (SQ.rules[i] == r) {
            found = SQ.text[i];
            break;
        }
    if (!found && i < SQUARES_KEPT) {
        int nsq = cd_rules_squares(r);
        size_t cap = (size_t)nsq * 40 + 3, len = 0;
        char *t = malloc(cap);
        if (t) {
            t[len++] = '[';
            for (int sq = 1; sq <= nsq; sq++)
                len += (size_t)snprintf(t + len, cap - len, "%s{\"n\":%d,\"row\":%d,\"col\":%d}",
                                        sq > 1 ? "," : "", sq, cd_square_row(r, sq),
                                        cd_square_col(r, sq));
            snprintf(t + len, cap - len, "]");
            SQ.rules[i] = r;
            SQ.text[i] = t;
            found = t;
        }
    }
    mtx_unlock(&SQ.m);
    return found;
}

void position_board_json(cJSON *o, const cd_position *pos)
{
    int nsq = cd_rules_squares(pos->rules);
    static const char *const piece_names[] = {"", "w", "b", "W", "B"};
    char *bt = malloc((size_t)nsq * 5 + 3);
    if (bt) { /* ["w","",...]: one raw item, not a string item a square */
        size_t len = 0;
        bt[len++] = '[';
        for (int sq = 1; sq <= nsq; sq++) {
            int pc = cd_position_piece(pos, sq);
            len += (size_t)sprintf(bt + len, "%s\"%s\"", sq > 1 ? "," : "",
                                   pc >= 0 && pc <= 4 ? piece_names[pc] : "");
        }
        bt[len++] = ']';
        bt[len] = 0;
        cJSON_AddItemToObject(o, "board", cJSON_CreateRaw(bt));
        free(bt);
    }
}

void game_board_json(cJSON *o, const cd_game *g)
{
    const cd_position *pos = cd_game_position(g);
    const cd_rules *r = pos->rules;
    int nsq = cd_rules_squares(r);
    char buf[1024];
    cJSON_AddStringToObject(o, "variant", r->name);
    cJSON_AddStringToObject(o, "title", r->title);
    add_int(o, "width", cd_rules_width(r));
    add_int(o, "height", cd_rules_height(r));
    cJSON_AddStringToObject(o, "side", pos->side == CD_WHITE ? "white" : "black");
    cd_position_to_fen(pos, 0, buf, sizeof buf);
    cJSON_AddStringToObject(o, "fen", buf);
    cd_reason reason = CD_REASON_NONE;
    cd_status st = cd_game_status(g, &reason);
    cJSON_AddStringToObject(o, "status", status_name(st));
    cJSON_AddStringToObject(o, "reason", reason == CD_REASON_NONE ? "" : cd_reason_str(reason));
    cJSON_AddStringToObject(o, "result", cd_status_pdn(r, st));
    add_int(o, "ply", cd_game_ply(g));

    position_board_json(o, pos);
    const char *squares = squares_text(r);
    if (squares)
        cJSON_AddItemToObject(o, "squares", cJSON_CreateRaw(squares));

    /* "moves" and "history" are the most of a game object's values, and a game between people
     * is rendered after each move: each array is one raw item (the text cJSON would print) */
    jtext t = {.ok = 1};
    jt_put(&t, "[", 1);
    cd_movelist *list = st == CD_ONGOING ? malloc(sizeof *list) : NULL;
    if (list) {
        cd_generate(pos, list);
        for (int i = 0; i < list->count; i++) {
            const cd_move *m = &list->moves[i];
            jt_cstr(&t, i ? ",{\"text\":" : "{\"text\":");
            cd_move_to_text(pos, m, -1, buf, sizeof buf);
            jt_str(&t, buf);
            jt_cstr(&t, ",\"hub\":");
            cd_move_to_hub(pos, m, buf, sizeof buf);
            jt_str(&t, buf);
            snprintf(buf, sizeof buf, ",\"from\":%d,\"to\":%d,\"path\":", cd_move_from(pos, m),
                     cd_move_to(pos, m));
            jt_cstr(&t, buf);
            int sqs[128];
            int n = cd_move_path(pos, m, sqs, 128);
            jt_ints(&t, sqs, n < 128 ? n : 128);
            jt_cstr(&t, ",\"captures\":");
            n = cd_move_captures(pos, m, sqs, 128);
            jt_ints(&t, sqs, n < 128 ? n : 128);
            jt_put(&t, "}", 1);
        }
        free(list);
    }
    jt_put(&t, "]", 1);
    jt_add(o, "moves", &t);

    jt_put(&t, "[", 1);
    for (int i = 0; i < cd_game_ply(g); i++) {
        cd_move_to_text(cd_game_position_at(g, i), cd_game_move(g, i), -1, buf, sizeof buf);
        if (i)
            jt_put(&t, ",", 1);
        jt_str(&t, buf);
    }
    jt_put(&t, "]", 1);
    jt_add(o, "history", &t);
    free(t.s);

    if (r->flags & CD_RULE_CONSTITUTIONAL) {
        cJSON *threats = cJSON_AddObjectToObject(o, "threats");
        for (int sq = 1; sq <= nsq; sq++) {
            int pc = cd_position_piece(pos, sq);
            if (pc != CD_WHITE_KING && pc != CD_BLACK_KING)
                continue;
            int zone[128];
            int k = cd_king_zone(pos, sq, zone, 128);
            char key[16];
            snprintf(key, sizeof key, "%d", sq);
            cJSON_AddItemToObject(threats, key, int_array(zone, k < 128 ? k : 128));
        }
    }
}

/* The game object of w, its "egtb" field null; *q gets what egtb_fill needs. Under the lock. */
cJSON *game_json(const web_game *w, egtb_query *q)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", w->id);
    cJSON_AddStringToObject(o, "human", human_names[w->human]);
    cJSON_AddNumberToObject(o, "level", w->level);
    game_board_json(o, w->game);
    cJSON_AddNullToObject(o, "egtb");
    q->pos = *cd_game_position(w->game);
    q->probe = cd_game_status(w->game, NULL) == CD_ONGOING;
    if (w->has_last) {
        cJSON *le = cJSON_AddObjectToObject(o, "last_engine");
        cJSON_AddStringToObject(le, "move", w->last_move);
        cJSON_AddNumberToObject(le, "score", w->last_score);
        cJSON_AddNumberToObject(le, "depth", w->last_depth);
        cJSON_AddNumberToObject(le, "nodes", (double)w->last_nodes);
        cJSON_AddNumberToObject(le, "time", w->last_time);
        cJSON_AddBoolToObject(le, "book", w->last_book);
    }
    return o;
}

/* Fill the "egtb" field of game object o: the tables' value of the position for the side to
 * move, its distance in plies (not for a draw) and the winner; null when it is not in the
 * tables. Called without the lock: the first probe of a table reads its file. */
void egtb_fill(cJSON *o, const egtb_query *q)
{
    if (!o || !q->probe)
        return;
    cd_egtb *tb = egtb_for(q->pos.rules);
    int dist = 0;
    int v = tb ? cd_egtb_probe(tb, &q->pos, &dist) : CD_EGTB_UNKNOWN;
    if (v != CD_EGTB_WIN && v != CD_EGTB_DRAW && v != CD_EGTB_LOSS)
        return;
    cJSON *e = cJSON_CreateObject();
    if (!e)
        return;
    int white = q->pos.side == CD_WHITE;
    cJSON_AddStringToObject(e, "value",
                            v == CD_EGTB_WIN    ? "win"
                            : v == CD_EGTB_LOSS ? "loss"
                                                : "draw");
    if (v != CD_EGTB_DRAW) {
        cJSON_AddNumberToObject(e, "plies", dist);
        cJSON_AddStringToObject(e, "winner", (v == CD_EGTB_WIN) == white ? "white" : "black");
    } else {
        cJSON_AddNullToObject(e, "winner");
    }
    if (!cJSON_ReplaceItemInObjectCaseSensitive(o, "egtb", e))
        cJSON_Delete(e);
}
