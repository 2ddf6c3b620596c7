/*
 * match.c -- `condraughts match`: engine against engine, each opening twice
 * with colours reversed, games written as PDN, and a summary with the Elo
 * difference and its 95% interval. This is how every strength claim of the
 * project is measured.
 *
 * A player is either this program's own engine ("self", optionally with a
 * different hash size) or any Hub engine given as a command line, driven
 * over pipes (hub / init / set-param variant / pos / level / go think).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "condraughts.h"
#include "match.h"

typedef struct player {
    const char *cmd; /* NULL: built-in engine */
    cd_engine *engine;
    pid_t pid;
    FILE *to, *from;
    char name[128];
} player;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "condraughts match: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* Read one line from a Hub engine; 0 on EOF. */
static int hub_line(player *p, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, p->from))
        return 0;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

static void hub_send(player *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->to, fmt, ap);
    va_end(ap);
    fputc('\n', p->to);
    fflush(p->to);
}

/* Wait for a line starting with `word`; 0 on EOF. */
static int hub_expect(player *p, const char *word, char *buf, size_t len)
{
    size_t n = strlen(word);
    while (hub_line(p, buf, len))
        if (!strncmp(buf, word, n) && (buf[n] == '\0' || buf[n] == ' '))
            return 1;
    return 0;
}

static void player_start(player *p, const cd_rules *r, size_t hash)
{
    if (!p->cmd || !strncmp(p->cmd, "self", 4)) {
        /* the built-in engine; "self:lmr=0,killers=0" switches search steps off */
        p->engine = cd_engine_new(hash);
        if (!p->engine)
            fail("out of memory");
        snprintf(p->name, sizeof p->name, "condraughts %s%s%s", CD_VERSION,
                 p->cmd && p->cmd[4] ? " " : "", p->cmd && p->cmd[4] ? p->cmd + 5 : "");
        if (p->cmd && p->cmd[4] == ':') {
            char opts[256];
            snprintf(opts, sizeof opts, "%s", p->cmd + 5);
            for (char *tok = strtok(opts, ","); tok; tok = strtok(NULL, ",")) {
                char *eq = strchr(tok, '=');
                if (!eq)
                    fail("engine option '%s' needs =value", tok);
                *eq = '\0';
                if (cd_engine_set_option(p->engine, tok, atoi(eq + 1)) != CD_OK)
                    fail("unknown engine option '%s'", tok);
            }
        } else if (p->cmd && p->cmd[4]) {
            fail("bad engine '%s' (self or self:option=value,...)", p->cmd);
        }
        p->cmd = NULL;
        return;
    }
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        fail("pipe failed");
    p->pid = fork();
    if (p->pid < 0)
        fail("fork failed");
    if (p->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl("/bin/sh", "sh", "-c", p->cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->to = fdopen(in[1], "w");
    p->from = fdopen(out[0], "r");
    char line[4096];
    hub_send(p, "hub");
    snprintf(p->name, sizeof p->name, "%s", p->cmd);
    while (hub_line(p, line, sizeof line)) {
        char *nm = strstr(line, "name=");
        if (!strncmp(line, "id ", 3) && nm) {
            nm += 5;
            size_t k = strcspn(nm, " ");
            snprintf(p->name, sizeof p->name, "%.*s", (int)k, nm);
        }
        if (!strcmp(line, "wait"))
            break;
    }
    hub_send(p, "set-param name=variant value=%s", r->name);
    hub_send(p, "init");
    if (!hub_expect(p, "ready", line, sizeof line))
        fail("engine '%s' did not answer init", p->cmd);
}

static void player_stop(player *p)
{
    if (p->engine)
        cd_engine_free(p->engine);
    if (p->cmd && p->pid > 0) {
        hub_send(p, "quit");
        fclose(p->to);
        fclose(p->from);
        waitpid(p->pid, NULL, 0);
    }
}

static void player_new_game(player *p)
{
    if (p->engine)
        cd_engine_clear(p->engine);
    else
        hub_send(p, "new-game");
}

/* Ask a player for its move; 0 if it has none or sent an illegal one. */
static int player_move(player *p, const cd_game *g, const match_options *o, double clock[2],
                       cd_move *out)
{
    const cd_position *pos = cd_game_position(g);
    if (p->engine) {
        cd_limits l = {0};
        l.depth = o->depth;
        l.nodes = o->nodes;
        l.movetime = o->movetime;
        if (o->game_time > 0) {
            l.time[0] = clock[0];
            l.time[1] = clock[1];
            l.inc[0] = l.inc[1] = o->increment;
        }
        cd_search_result res;
        if (cd_search(p->engine, g, &l, NULL, NULL, &res) != CD_OK || !res.has_move)
            return 0;
        *out = res.best;
        return 1;
    }
    char line[8192], buf[64];
    cd_position_to_hub(cd_game_position_at(g, 0), buf, sizeof buf);
    /* the start position and the moves so far */
    size_t used = (size_t)snprintf(line, sizeof line, "pos pos=%s", buf);
    if (cd_game_ply(g) > 0) {
        used += (size_t)snprintf(line + used, sizeof line - used, " moves=\"");
        for (int i = 0; i < cd_game_ply(g) && used < sizeof line - 200; i++) {
            char mv[256];
            cd_move_to_hub(cd_game_position_at(g, i), cd_game_move(g, i), mv, sizeof mv);
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", i ? " " : "", mv);
        }
        snprintf(line + used, sizeof line - used, "\"");
    }
    hub_send(p, "%s", line);
    if (o->depth)
        hub_send(p, "level depth=%d", o->depth);
    else if (o->movetime > 0)
        hub_send(p, "level move-time=%g", o->movetime);
    else if (o->game_time > 0)
        hub_send(p, "level time=%g inc=%g", clock[pos->side], o->increment);
    hub_send(p, "go think");
    if (!hub_expect(p, "done", line, sizeof line))
        return 0;
    char *m = strstr(line, "move=");
    if (!m)
        return 0;
    m += 5;
    m[strcspn(m, " ")] = '\0';
    char err[1024];
    return cd_move_parse(pos, m, out, err, sizeof err) == CD_OK;
}

/* All lines of `plies` moves from the game's position (ongoing games only). */
static void collect_lines(cd_game *g, int plies, cd_game ***out, int *n, int *cap)
{
    if (cd_game_status(g, NULL) != CD_ONGOING)
        return;
    if (plies == 0) {
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *out = realloc(*out, (size_t)*cap * sizeof **out);
            if (!*out)
                fail("out of memory");
        }
        cd_game *c = cd_game_new(cd_game_position(g)->rules, cd_game_position_at(g, 0));
        for (int i = 0; i < cd_game_ply(g); i++)
            cd_game_play(c, cd_game_move(g, i));
        (*out)[(*n)++] = c;
        return;
    }
    cd_movelist *list = malloc(sizeof *list);
    int k = cd_generate(cd_game_position(g), list);
    for (int i = 0; i < k; i++) {
        cd_game_play(g, &list->moves[i]);
        collect_lines(g, plies - 1, out, n, cap);
        cd_game_undo(g);
    }
    free(list);
}

/* The opening lines: FEN positions or move lists from the start. */
static int load_openings(const char *file, const cd_rules *r, cd_game ***out)
{
    int n = 0, cap = 16;
    cd_game **games = malloc((size_t)cap * sizeof *games);
    if (!file) {
        games[n++] = cd_game_new(r, NULL);
        *out = games;
        return n;
    }
    if (!strncmp(file, "auto:", 5)) {
        /* every line of `plies` moves from the start, in a fixed shuffled order */
        int plies = atoi(file + 5);
        if (plies < 1 || plies > 6)
            fail("openings auto:N needs N from 1 to 6");
        free(games);
        cd_game *root = cd_game_new(r, NULL);
        n = 0;
        cap = 0;
        games = NULL;
        collect_lines(root, plies, &games, &n, &cap);
        cd_game_free(root);
        uint64_t seed = 0x9E3779B97F4A7C15ull;
        for (int i = n - 1; i > 0; i--) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int j = (int)((seed >> 33) % (uint64_t)(i + 1));
            cd_game *t = games[i];
            games[i] = games[j];
            games[j] = t;
        }
        if (!n)
            fail("no openings of %d plies", plies);
        *out = games;
        return n;
    }
    FILE *f = fopen(file, "r");
    if (!f)
        fail("cannot open openings file %s", file);
    char line[8192];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n#")] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            continue;
        cd_game *g;
        char err[1024];
        if (strchr(s, ':')) {
            cd_position p;
            if (cd_position_from_fen(&p, r, s, err, sizeof err) != CD_OK)
                fail("%s:%d: %s", file, lineno, err);
            g = cd_game_new(r, &p);
        } else {
            g = cd_game_new(r, NULL);
            for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
                if (strchr(tok, '.') && !strchr(tok, '-') && !strchr(tok, 'x'))
                    continue; /* move number */
                if (cd_game_play_text(g, tok, err, sizeof err) != CD_OK)
                    fail("%s:%d: %s", file, lineno, err);
            }
        }
        if (n == cap) {
            cap *= 2;
            games = realloc(games, (size_t)cap * sizeof *games);
        }
        games[n++] = g;
    }
    fclose(f);
    if (!n)
        fail("%s: no openings", file);
    *out = games;
    return n;
}

/* Elo difference for a score fraction. */
static double elo(double p)
{
    if (p <= 0)
        return -999;
    if (p >= 1)
        return 999;
    return -400.0 * log10(1.0 / p - 1.0);
}

static void write_pdn(FILE *f, const cd_game *g, const char *white, const char *black, int round,
                      const char *event)
{
    char rnd[16];
    snprintf(rnd, sizeof rnd, "%d", round);
    cd_pdn_tags *tags = malloc(sizeof *tags);
    cd_pdn_tags_init(tags);
    cd_pdn_tag_set(tags, "Event", event);
    cd_pdn_tag_set(tags, "Round", rnd);
    cd_pdn_tag_set(tags, "White", white);
    cd_pdn_tag_set(tags, "Black", black);
    size_t need = cd_pdn_write(g, tags, NULL, 0);
    char *buf = malloc(need + 1);
    cd_pdn_write(g, tags, buf, need + 1);
    free(tags);
    fputs(buf, f);
    fputs("\n", f);
    free(buf);
}

int cd_match_main(const match_options *o)
{
    const cd_rules *r = o->rules;
    signal(SIGPIPE, SIG_IGN);
    player pl[2] = {{o->engine[0], NULL, 0, NULL, NULL, ""},
                    {o->engine[1], NULL, 0, NULL, NULL, ""}};
    player_start(&pl[0], r, o->hash);
    player_start(&pl[1], r, o->hash);
    cd_game **openings;
    int nopen = load_openings(o->openings, r, &openings);
    FILE *pdn = NULL;
    if (o->pdn_file && !(pdn = fopen(o->pdn_file, "w")))
        fail("cannot write %s", o->pdn_file);
    int games = o->games > 0 ? o->games : 2 * nopen;
    int w = 0, d = 0, l = 0; /* from engine 1's point of view */
    double sum = 0, sumsq = 0;
    for (int gi = 0; gi < games; gi++) {
        const cd_game *op = openings[(gi / 2) % nopen];
        cd_game *g = cd_game_new(r, cd_game_position_at(op, 0));
        for (int i = 0; i < cd_game_ply(op); i++)
            cd_game_play(g, cd_game_move(op, i));
        /* engine 1 plays the side to move at the start in even games */
        int start_side = cd_game_position(g)->side;
        int e1_side = gi % 2 == 0 ? start_side : start_side ^ 1;
        player_new_game(&pl[0]);
        player_new_game(&pl[1]);
        double clock[2] = {o->game_time, o->game_time};
        int plies = 0;
        cd_reason why = CD_REASON_NONE;
        cd_status st;
        while ((st = cd_game_status(g, &why)) == CD_ONGOING) {
            int side = cd_game_position(g)->side;
            player *p = &pl[side == e1_side ? 0 : 1];
            cd_move m;
            if (!player_move(p, g, o, clock, &m) || cd_game_play(g, &m) != CD_OK) {
                cd_game_resign(g, side); /* no move or an illegal one loses */
                fprintf(stderr, "match: %s gave no legal move\n", p->name);
                continue;
            }
            if (o->game_time > 0)
                clock[side] += o->increment;
            if (++plies >= o->max_plies) {
                cd_game_agree_draw(g); /* adjudicated */
                continue;
            }
        }
        double score = st == CD_DRAW ? 0.5 : ((st == CD_WHITE_WINS) == (e1_side == CD_WHITE));
        if (st == CD_DRAW)
            d++;
        else if (score > 0.5)
            w++;
        else
            l++;
        sum += score;
        sumsq += score * score;
        const char *white = pl[e1_side == CD_WHITE ? 0 : 1].name;
        const char *black = pl[e1_side == CD_WHITE ? 1 : 0].name;
        if (pdn)
            write_pdn(pdn, g, white, black, gi + 1, "condraughts match");
        if (!o->quiet)
            printf("game %d: %s - %s %s (%s, %d plies)  score %d-%d-%d\n", gi + 1, white, black,
                   cd_status_pdn(r, st), cd_reason_str(why), cd_game_ply(g), w, d, l);
        fflush(stdout);
        cd_game_free(g);
    }
    int n = w + d + l;
    double p = n ? sum / n : 0.5;
    double var = n ? sumsq / n - p * p : 0;
    double se = n > 1 ? sqrt(var / (n - 1)) : 0;
    double lo = elo(p - 1.96 * se), hi = elo(p + 1.96 * se);
    printf("match %s: %s vs %s: %d games, +%d =%d -%d, score %.1f%%, Elo %+.0f [%+.0f, %+.0f] "
           "(95%%)\n",
           r->name, pl[0].name, pl[1].name, n, w, d, l, 100.0 * p, elo(p), lo, hi);
    if (pdn)
        fclose(pdn);
    for (int i = 0; i < nopen; i++)
        cd_game_free(openings[i]);
    free(openings);
    player_stop(&pl[0]);
    player_stop(&pl[1]);
    return 0;
}
