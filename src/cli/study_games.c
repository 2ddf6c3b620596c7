/*
 * study_games.c -- the games of a study (study_games.h). The game list is a function of the
 * settings alone: variant v, game j (0-based) plays opening order[v][j / 2] of the variant's
 * openings file (shuffled by the seed), as written when j is even and with colours reversed when
 * j is odd (study_mirror: with a node limit the engine is deterministic, so swapping the engines
 * alone would replay the same game). Game j is DIR/VARIANT/NNNNN.pdn, with tags that name the
 * settings, so a file of other settings is told apart. A game without its file may be kept in
 * DIR/VARIANT.pdn.xz (study_kept.h): a game is read from its file, else from there.
 */
#define _POSIX_C_SOURCE 200809L
#include "study_games.h"
#include "slurp.h"
#include "study_kept.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OPENING_TEXT 1000 /* fits a PDN tag value */

typedef struct opening {
    cd_game *game; /* the opening played out (or set up) under the variant */
    char *text;    /* the line as written in the file, comment removed */
    int number;    /* 1-based among the file's openings */
} opening;

struct study {
    study_config c;
    opening *open[STUDY_MAX_VARIANTS];
    int nopen[STUDY_MAX_VARIANTS];
    int *order[STUDY_MAX_VARIANTS];
    char limit[64];
    char paths[STUDY_MAX_VARIANTS][PATH_MAX];
    kept_games kept[STUDY_MAX_VARIANTS];
};

/* ------------------------------------------------------------------ files */

int study_write_atomic(const char *path, const char *text, size_t len)
{
    char tmp[PATH_MAX + 8];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < len) {
        ssize_t k = write(fd, text + done, len - done);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            unlink(tmp);
            errno = e;
            return -1;
        }
        done += (size_t)k;
    }
    if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ positions */

void study_mirror(const cd_position *in, cd_position *out)
{
    static const int swapped[] = {CD_EMPTY, CD_BLACK_MAN, CD_WHITE_MAN, CD_BLACK_KING,
                                  CD_WHITE_KING};
    const cd_rules *r = in->rules;
    int n = cd_rules_squares(r);
    cd_position p;
    cd_position_empty(&p, r, in->side ^ 1);
    for (int sq = 1; sq <= n; sq++) {
        int pc = cd_position_piece(in, sq);
        if (pc > 0)
            cd_position_set(&p, n + 1 - sq, swapped[pc]);
    }
    *out = p;
}

/* ------------------------------------------------------------------ openings */

/* A FEN line: W or B, then a colon. */
static int is_fen(const char *s) { return (s[0] == 'W' || s[0] == 'B') && s[1] == ':'; }

/* The openings of variant v's file (format of `match --openings`: one move list or FEN a line,
 * # starts a comment) appended to s->open[v]: 0, or -1 with err set. */
static int load_openings(study *s, int v, char *err, size_t errlen)
{
    const char *file = s->c.openings[v];
    const cd_rules *r = s->c.variants[v];
    FILE *f = fopen(file, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open openings file %s: %s", file, strerror(errno));
        return -1;
    }
    int cap = 0, lineno = 0, rc = -1;
    char line[8192], why[1024];
    cd_game *g = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line too long", file, lineno);
            goto done;
        }
        line[strcspn(line, "\r\n#")] = '\0';
        char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        size_t k = strlen(t);
        while (k && (t[k - 1] == ' ' || t[k - 1] == '\t'))
            t[--k] = '\0';
        if (!k)
            continue;
        if (k >= MAX_OPENING_TEXT) {
            snprintf(err, errlen, "%s:%d: opening longer than %d characters", file, lineno,
                     MAX_OPENING_TEXT - 1);
            goto done;
        }
        char copy[MAX_OPENING_TEXT];
        memcpy(copy, t, k + 1);
        if (is_fen(t)) {
            cd_position p;
            if (cd_position_from_fen(&p, r, t, why, sizeof why) != CD_OK) {
                snprintf(err, errlen, "%s:%d: %s: %s", file, lineno, r->name, why);
                goto done;
            }
            if (!(g = cd_game_new(r, &p)))
                goto oom;
        } else {
            if (!(g = cd_game_new(r, NULL)))
                goto oom;
            for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t")) {
                if (strchr(tok, '.') && !strchr(tok, '-') && !strchr(tok, 'x'))
                    continue; /* a move number */
                if (cd_game_play_text(g, tok, why, sizeof why) != CD_OK) {
                    snprintf(err, errlen, "%s:%d: %s: %s", file, lineno, r->name, why);
                    goto done;
                }
            }
        }
        if (cd_game_status(g, NULL) != CD_ONGOING) {
            snprintf(err, errlen, "%s:%d: %s: the game is over after this opening", file, lineno,
                     r->name);
            goto done;
        }
        int n = s->nopen[v];
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            opening *no = realloc(s->open[v], (size_t)cap * sizeof *no);
            if (!no)
                goto oom;
            s->open[v] = no;
        }
        char *text = strdup(t);
        if (!text)
            goto oom;
        s->open[v][n] = (opening){g, text, n + 1};
        s->nopen[v] = n + 1;
        g = NULL;
    }
    if (!s->nopen[v])
        snprintf(err, errlen, "%s: no openings", file);
    else
        rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "out of memory");
done:
    cd_game_free(g);
    fclose(f);
    return rc;
}

/* splitmix64: the shuffle's random numbers, the same on every machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Fisher-Yates with splitmix64 numbers. */
int *study_shuffle(int n, uint64_t seed)
{
    int *o = malloc((size_t)(n > 0 ? n : 1) * sizeof *o);
    if (!o)
        return NULL;
    for (int i = 0; i < n; i++)
        o[i] = i;
    uint64_t st = seed;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_random(&st) % (uint64_t)(i + 1));
        int t = o[i];
        o[i] = o[j];
        o[j] = t;
    }
    return o;
}

/* ------------------------------------------------------------------ the study */

study *study_load(const study_config *c, char *err, size_t errlen)
{
    study *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->c = *c;
    if (c->nodes)
        snprintf(s->limit, sizeof s->limit, "nodes %llu", (unsigned long long)c->nodes);
    else
        snprintf(s->limit, sizeof s->limit, "movetime %g s", c->movetime);
    for (int v = 0; v < c->nvariants; v++) {
        snprintf(s->paths[v], sizeof s->paths[v], "%s", c->openings[v]);
        s->c.openings[v] = s->paths[v];
    }
    for (int v = 0; v < c->nvariants; v++) {
        if (load_openings(s, v, err, errlen) != 0)
            goto fail;
        if (c->games / 2 > s->nopen[v]) {
            snprintf(err, errlen, "--games %d needs %d openings, %s has %d for %s", c->games,
                     c->games / 2, c->openings[v], s->nopen[v], c->variants[v]->name);
            goto fail;
        }
        if (!(s->order[v] = study_shuffle(s->nopen[v], c->seed))) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
    }
    return s;
fail:
    study_free(s);
    return NULL;
}

void study_free(study *s)
{
    if (!s)
        return;
    for (int v = 0; v < s->c.nvariants; v++) {
        for (int i = 0; i < s->nopen[v]; i++) {
            cd_game_free(s->open[v][i].game);
            free(s->open[v][i].text);
        }
        free(s->open[v]);
        free(s->order[v]);
        kept_free(&s->kept[v]);
    }
    free(s);
}

/* ------------------------------------------------------------------ the game list */

const study_config *study_config_of(const study *s) { return &s->c; }

int study_openings_count(const study *s, int v) { return s->nopen[v]; }

static const opening *opening_of(const study *s, int v, int j)
{
    return &s->open[v][s->order[v][j / 2]];
}

const cd_game *study_opening_game(const study *s, int v, int j)
{
    return opening_of(s, v, j)->game;
}

const char *study_opening_of(const study *s, int v, int j, int *number)
{
    const opening *o = opening_of(s, v, j);
    if (number)
        *number = o->number;
    return o->text;
}

int study_opening_plies(const study *s, int v, int j)
{
    return j % 2 ? 0 : cd_game_ply(opening_of(s, v, j)->game);
}

void study_game_path(const study *s, int v, int j, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/%05d.pdn", s->c.out, s->c.variants[v]->name, j + 1);
}

void study_kept_path(const study *s, int v, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.pdn.xz", s->c.out, s->c.variants[v]->name);
}

int study_load_kept(study *s, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    for (int v = 0; v < s->c.nvariants; v++) {
        study_kept_path(s, v, path, sizeof path);
        if (kept_read(path, s->c.variants[v], &s->kept[v], err, errlen) != 0)
            return -1;
    }
    return 0;
}

char *study_game_text(const study *s, int v, int j, size_t *len, char *where, size_t wlen)
{
    study_game_path(s, v, j, where, wlen);
    char *text = cd_slurp(where, STUDY_MAX_FILE, len);
    if (text || errno != ENOENT)
        return text;
    const kept_games *k = &s->kept[v];
    int i = kept_find(k, j + 1);
    if (i < 0) {
        errno = ENOENT;
        return NULL;
    }
    size_t n = k->end[i] - k->start[i];
    if (!(text = malloc(n + 2))) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(text, k->text + k->start[i], n);
    memcpy(text + n, "\n", 2);
    *len = n + 1;
    char path[PATH_MAX + 32];
    study_kept_path(s, v, path, sizeof path);
    snprintf(where, wlen, "%s (game %d)", path, j + 1);
    return text;
}

void study_game_tags(const study *s, int v, int j, cd_pdn_tags *t)
{
    char num[32];
    int number;
    const char *text = study_opening_of(s, v, j, &number);
    cd_pdn_tags_init(t);
    cd_pdn_tag_set(t, "Event", "condraughts study");
    snprintf(num, sizeof num, "%d", j + 1);
    cd_pdn_tag_set(t, "Round", num);
    cd_pdn_tag_set(t, "White", "condraughts " CD_VERSION);
    cd_pdn_tag_set(t, "Black", "condraughts " CD_VERSION);
    cd_pdn_tag_set(t, "Opening", text);
    snprintf(num, sizeof num, "%d", number);
    cd_pdn_tag_set(t, "OpeningNumber", num);
    cd_pdn_tag_set(t, "Colours", j % 2 ? "reversed" : "as in the opening");
    snprintf(num, sizeof num, "%llu", (unsigned long long)s->c.seed);
    cd_pdn_tag_set(t, "Seed", num);
    cd_pdn_tag_set(t, "Limit", s->limit);
    snprintf(num, sizeof num, "%zu", s->c.hash);
    cd_pdn_tag_set(t, "Hash", num);
    snprintf(num, sizeof num, "%d", s->c.max_plies);
    cd_pdn_tag_set(t, "MaxPlies", num);
    cd_pdn_tag_set(t, "Tablebases", s->c.egtb ? s->c.egtb : "none");
}

int study_check_tags(const study *s, int v, int j, const cd_pdn_tags *got, char *err, size_t errlen)
{
    cd_pdn_tags *want = malloc(sizeof *want);
    if (!want) {
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    study_game_tags(s, v, j, want);
    int bad = 0;
    for (int i = 0; i < want->count && !bad; i++) {
        const char *name = cd_pdn_tag_name(want, i), *w = cd_pdn_tag_value(want, i);
        const char *g = cd_pdn_tag(got, name);
        if (!g)
            snprintf(err, errlen, "no %s tag", name);
        else if (strcmp(g, w))
            snprintf(err, errlen, "%s is \"%.200s\", this study's is \"%.200s\"", name, g, w);
        bad = !g || strcmp(g, w);
    }
    const char *variant = cd_pdn_tag(got, "Variant");
    if (!bad && variant && strcmp(variant, s->c.variants[v]->name)) {
        snprintf(err, errlen, "its variant is %.100s, not %s", variant, s->c.variants[v]->name);
        bad = 1;
    }
    free(want);
    return bad;
}
