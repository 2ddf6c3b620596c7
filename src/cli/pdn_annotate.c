/*
 * pdn_annotate.c -- `condraughts pdn annotate`: every move of a PDN file's games scored by the
 * engine (pdn_annotate.h says what is computed).
 *
 * A game is read with cd_pdn_read, then replayed move by move into a game of its own (so that
 * each search has the history before its position, as in play). Position i is searched before
 * move i is played; after the last move the final position is searched too, or scored by the
 * rules when they have ended the game. score[i] is position i's score for its side to move,
 * so move i is worth -score[i + 1] to the side that played it. A game that plays on after the
 * rules have ended it (the file's program knew other draw rules) is annotated up to there.
 * The comments of --out are set on the game as read, so the written file keeps every move,
 * tag and comment of the original.
 */
#define _POSIX_C_SOURCE 200809L
#include "pdn_annotate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliutil.h"
#include "condraughts.h"
#include "pdncheck.h"

#define DEFAULT_DEPTH 10
#define STR_(x)       #x
#define STR(x)        STR_(x)

enum { O_VARIANT, O_DEPTH, O_TIME, O_GAME, O_MARK, O_EGTB, O_HASH, O_THREADS, O_OUT };

static const cli_opt annotate_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V",
                  "for games without a GameType or Variant tag (default international)"),
     .alias = 'v'},
    {CLI_INT_OPT(
        O_DEPTH, "depth", "D", 1, 100,
        "search each position to this depth (default " STR(DEFAULT_DEPTH) " without --time)")},
    {CLI_REAL_OPT(O_TIME, "time", "S", 0.001, 1e6, "seconds a position")},
    {CLI_INT_OPT(O_GAME, "game", "N", 1, 1000000000, "only the N-th game of the file")},
    {CLI_REAL_OPT(O_MARK, "mark", "M", 0.01, 100,
                  "a move that loses M/2 men or more gets '?!', M '?', 3M '?\?' (default 0.5)")},
    {CLI_TEXT_OPT(O_EGTB, "egtb", "DIR", "endgame tables folder; default ./egtb when it exists")},
    {CLI_INT_OPT(O_HASH, "hash", "MB", 1, 100000, "hash table size in MiB")},
    {CLI_INT_OPT(O_THREADS, "threads", "N", 1, 64, "search threads sharing the hash table")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "write the games with the scores as comments (PDN)")},
    {0}};

static int cmd_annotate(int argc, char **argv);

const cli_command cd_pdn_annotate_command = {
    .name = "pdn annotate",
    .operands = "FILE",
    .about = "Score every move of every game of a PDN file (- for stdin) with the engine.",
    .opts = annotate_opts,
    .notes =
        "Each position of a game is searched on a cleared table with the game's history, so a\n"
        "line is what `analyse` gives for that position. A line per move: the move, the score\n"
        "after it and the engine's best move with its score (White's view, in men; #+N White\n"
        "wins in N moves, #-N Black does), and the loss: the best move's score less the\n"
        "played one's, in men for the side that moved, wins counted as 10 men; marked '?!' from\n"
        "M/2 men, '?' from --mark M men, '?\?' from 3M. Then each side's moves, average loss\n"
        "and marks. --out writes the games again with these as comments ({+0.12},\n"
        "{? -0.85, best 22-18 +0.10}) after any comment the move had. A game that cannot be\n"
        "read is reported as FILE:LINE:COL: message on stderr and skipped (exit status 2 at\n"
        "the end).\n",
    .run = cmd_annotate,
    .flags = CLI_SEARCHES,
};

typedef struct annotate_options {
    const cd_rules *rules;
    int depth, game, threads;
    double time, mark;
    size_t hash;
    const char *egtb, *out;
} annotate_options;

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    annotate_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = cli_variant(&cd_pdn_annotate_command, v->text); break;
    case O_DEPTH: o->depth = (int)v->n; break;
    case O_TIME: o->time = v->x; break;
    case O_GAME: o->game = (int)v->n; break;
    case O_MARK: o->mark = v->x; break;
    case O_EGTB: o->egtb = v->text; break;
    case O_HASH: o->hash = (size_t)v->n; break;
    case O_THREADS: o->threads = (int)v->n; break;
    case O_OUT: o->out = v->text; break;
    }
}

/* The score of `side` (to move) as text from White's view: "+0.35", or "#+7" / "#-7" for a win of
 * White / Black in 7 moves. */
static void white_view_text(int score, int side, char *buf, size_t len)
{
    int w = side == CD_WHITE ? score : -score;
    if (CD_SCORE_IS_WIN(w)) {
        int plies = CD_SCORE_WIN - (w > 0 ? w : -w);
        snprintf(buf, len, "#%c%d", w > 0 ? '+' : '-', (plies + 1) / 2);
    } else {
        snprintf(buf, len, "%+.2f", w / 100.0);
    }
}

/* The score of a position the rules have ended, for its side to move. */
static int final_score(const cd_game *g)
{
    cd_status st = cd_game_status(g, NULL);
    if (st == CD_DRAW)
        return 0;
    int winner = st == CD_WHITE_WINS ? CD_WHITE : CD_BLACK;
    return winner == cd_game_position(g)->side ? CD_SCORE_WIN : -CD_SCORE_WIN;
}

/* One position's search: score (side to move's view) and best move. */
typedef struct ply_score {
    int score, has_best;
    cd_move best;
} ply_score;

typedef struct side_sum {
    int moves, marks[CD_MARK_LEVELS]; /* moves by mark (cd_loss_mark): none, '?!', '?', '??' */
    long loss;
} side_sum;

typedef struct annotator {
    const annotate_options *o;
    cd_engine *engine;
    int mark; /* --mark in hundredths */
} annotator;

static void search_position(const annotator *a, const cd_game *g, ply_score *out)
{
    cd_limits l = {0};
    l.depth = a->o->depth;
    l.movetime = a->o->time;
    cd_engine_clear(a->engine);
    cd_search_result res;
    memset(out, 0, sizeof *out);
    if (cd_search(a->engine, g, &l, NULL, NULL, &res) == CD_OK) {
        out->score = res.score;
        out->has_best = res.has_move;
        out->best = res.best;
    }
}

/* Annotate game g (as read) of number n: the table on stdout, comments on g for --out.
 * Returns 0, or -1 when out of memory. */
static int annotate_game(const annotator *a, cd_game *g, const cd_pdn_tags *tags, int n)
{
    const cd_position *start = cd_game_position_at(g, 0);
    const cd_rules *r = start->rules;
    int plies = cd_game_ply(g);
    cd_game *h = cd_game_new(r, start);
    ply_score *sc = calloc((size_t)plies + 1, sizeof *sc);
    if (!h || !sc) {
        cd_game_free(h);
        free(sc);
        return -1;
    }
    const char *wn = cd_pdn_tag(tags, "White"), *bn = cd_pdn_tag(tags, "Black");
    printf("game %d: %s - %s, %s, %d plies, %s\n", n, wn ? wn : "?", bn ? bn : "?", r->name, plies,
           cd_status_pdn(r, cd_game_status(g, NULL)));
    /* the searches: positions 0..done, done the last position reached by the replay */
    int done = 0;
    for (;; done++) {
        if (cd_game_status(h, NULL) != CD_ONGOING) {
            sc[done].score = final_score(h);
            break;
        }
        search_position(a, h, &sc[done]);
        if (done == plies)
            break;
        if (cd_game_play(h, cd_game_move(g, done)) != CD_OK)
            break;
    }
    side_sum sum[2] = {{0}};
    printf("  %-14s %7s   %-14s %7s %6s\n", "move", "score", "best", "score", "loss");
    int first_black = start->side != r->first;
    for (int i = 0; i < done; i++) {
        const cd_position *pos = cd_game_position_at(g, i);
        const cd_move *m = cd_game_move(g, i);
        int same = sc[i].has_best && cd_move_equal(m, &sc[i].best);
        int loss = cd_move_loss(sc[i].score, sc[i + 1].score, same);
        int level = cd_loss_mark(loss, a->mark);
        const char *tag = cd_mark_text(level);
        side_sum *s = &sum[pos->side];
        s->moves++;
        s->loss += loss;
        s->marks[level]++;
        char mv[256], bm[256] = "-", after[16], best[16], num[24];
        cd_move_to_text(pos, m, -1, mv, sizeof mv);
        if (sc[i].has_best)
            cd_move_to_text(pos, &sc[i].best, -1, bm, sizeof bm);
        white_view_text(-sc[i + 1].score, pos->side, after, sizeof after);
        white_view_text(sc[i].score, pos->side, best, sizeof best);
        int k = i + first_black;
        snprintf(num, sizeof num, "%d%s", k / 2 + 1, pos->side == r->first ? "." : "...");
        char played[300];
        snprintf(played, sizeof played, "%s %s%s", num, mv, tag);
        printf("  %-14s %7s   %-14s %7s %6.2f\n", played, after, same ? "=" : bm, best,
               loss / 100.0);
        if (a->o->out) {
            char note[400], text[4096];
            if (tag[0])
                snprintf(note, sizeof note, "%s %s, best %s %s", tag, after, bm, best);
            else
                snprintf(note, sizeof note, "%s", after);
            const char *had = cd_game_comment(g, i + 1);
            snprintf(text, sizeof text, "%s%s%s", had ? had : "", had ? " " : "", note);
            if (cd_game_set_comment(g, i + 1, text) != CD_OK) {
                cd_game_free(h);
                free(sc);
                return -1;
            }
        }
    }
    if (done < plies) {
        cd_reason why;
        cd_game_status(h, &why);
        printf("  the rules end the game after ply %d (%s): the %d plies after it are not "
               "annotated\n",
               done, cd_reason_str(why), plies - done);
    }
    for (int c = 0; c < 2; c++) {
        const side_sum *s = &sum[c];
        printf("  %s: %d moves, average loss %.2f men, %d '?!', %d '?', %d '?\?'\n",
               c == CD_WHITE ? "White" : "Black", s->moves,
               s->moves ? s->loss / 100.0 / s->moves : 0.0, s->marks[CD_MARK_DUBIOUS],
               s->marks[CD_MARK_MISTAKE], s->marks[CD_MARK_BLUNDER]);
    }
    cd_game_free(h);
    free(sc);
    return 0;
}

static int cmd_annotate(int argc, char **argv)
{
    const cli_command *cmd = &cd_pdn_annotate_command;
    annotate_options o = {0};
    o.mark = CD_LOSS_MARK / 100.0;
    const char *file = NULL;
    if (cli_parse(cmd, argc, argv, set_option, &o, &file, 1) != 1)
        cli_fail(cmd, "no file (try: condraughts pdn annotate --help)");
    if (o.depth && o.time > 0)
        cli_fail(cmd, "give --depth or --time, not both");
    if (!o.depth && o.time <= 0)
        o.depth = DEFAULT_DEPTH;
    const char *dir = cli_egtb_folder(cmd, o.egtb);
    size_t len = 0;
    char *text = pdn_read_file(file, &len);
    if (!text)
        return 2;
    FILE *out = NULL;
    if (o.out && !(out = fopen(o.out, "w"))) {
        fprintf(stderr, "%s: cannot write: %s\n", o.out, strerror(errno));
        free(text);
        return 2;
    }
    cd_pdn_tags *tags = malloc(sizeof *tags);
    annotator a = {&o, cd_engine_new(o.hash), (int)(o.mark * 100.0 + 0.5)};
    if (!tags || !a.engine)
        cli_fail(cmd, "out of memory");
    cd_engine_set_eval(a.engine, cli_eval());
    if (o.threads > 1 && cd_engine_set_option(a.engine, "threads", o.threads) != CD_OK)
        cli_fail(cmd, "cannot start %d search threads", o.threads);
    cd_egtb *tb = NULL;
    const cd_rules *tb_rules = NULL; /* tb's (cd_pdn_read's rows are static; games may differ) */
    size_t pos = 0;
    int games = 0, refused = 0, write_failed = 0;
    cd_game *g;
    while (!write_failed &&
           pdn_next_game(file, text, len, &pos, o.rules, tags, &g, NULL, &refused)) {
        games++;
        if (o.game && games != o.game) {
            cd_game_free(g);
            continue;
        }
        const cd_rules *r = cd_game_position_at(g, 0)->rules;
        if (dir && tb_rules != r) {
            cd_engine_set_egtb(a.engine, NULL);
            cd_egtb_close(tb);
            tb = cd_egtb_open(r, dir);
            tb_rules = r;
            cd_engine_set_egtb(a.engine, tb);
        }
        if (annotate_game(&a, g, tags, games) != 0)
            cli_fail(cmd, "out of memory");
        if (out) {
            char note[128];
            snprintf(note, sizeof note, "condraughts " CD_VERSION ", %s %g a position",
                     o.time > 0 ? "seconds" : "depth", o.time > 0 ? o.time : (double)o.depth);
            cd_pdn_tag_set(tags, "Annotator", note);
            size_t need = cd_pdn_write(g, tags, NULL, 0);
            char *buf = malloc(need + 1);
            if (!buf)
                cli_fail(cmd, "out of memory");
            cd_pdn_write(g, tags, buf, need + 1);
            write_failed = fputs(buf, out) == EOF;
            free(buf);
        }
        cd_game_free(g);
        if (o.game)
            break;
    }
    int status = refused ? 2 : 0;
    if (o.game && games < o.game) {
        fprintf(stderr, "%s: no game %d (%d games read)\n", file, o.game, games);
        status = 2;
    }
    if (out && (fclose(out) != 0 || write_failed)) {
        fprintf(stderr, "%s: cannot write: %s\n", o.out, strerror(errno));
        status = 2;
    }
    cd_engine_free(a.engine);
    cd_egtb_close(tb);
    free(tags);
    free(text);
    return status;
}
