/*
 * study_pack.c -- `condraughts study pack --out DIR`: the game files of a study,
 * DIR/VARIANT/NNNNN.pdn, moved into its kept games, DIR/VARIANT.pdn.xz (study_kept.h), the games
 * kept before and the new ones in the order of their numbers. The kept file is written whole
 * (temporary file, rename) and read back before any game file is removed, so a run stopped at
 * any point loses no game. Game files of other settings than the kept games' (the tags that name
 * them), a damaged kept file, or a game file that differs from the kept game of its number stop
 * it before anything is written.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurp.h"
#include "study.h"
#include "study_games.h"
#include "study_kept.h"
#include "xz.h"

/* The tags that name a study's settings: the games kept together share them. */
static const char *const settings_tags[] = {"Event", "White", "Black",    "GameType",   "Seed",
                                            "Limit", "Hash",  "MaxPlies", "Tablebases", NULL};

#define fail(...) cli_fail(&study_pack_command, __VA_ARGS__)

/* One game to keep: its number and text (no white space around). */
typedef struct game {
    int round;
    const char *text;
    size_t len;
    char *file; /* its game file, removed once kept; NULL for a game kept before */
} game;

static int by_round(const void *a, const void *b)
{
    const game *x = a, *y = b;
    return (x->round > y->round) - (x->round < y->round);
}

/* The text without the white space at its end. */
static size_t trimmed(const char *text, size_t len)
{
    while (len && strchr(" \t\r\n", text[len - 1]))
        len--;
    return len;
}

/* The settings tags of t against those of want (a game of the same variant): NULL if the same,
 * else the first that differs, its value in t in *got and in want in *had. */
static const char *other_settings(const cd_pdn_tags *t, const cd_pdn_tags *want, const char **got,
                                  const char **had)
{
    for (int i = 0; settings_tags[i]; i++) {
        const char *a = cd_pdn_tag(t, settings_tags[i]), *b = cd_pdn_tag(want, settings_tags[i]);
        if ((a || b) && (!a || !b || strcmp(a, b))) {
            *got = a ? a : "(none)";
            *had = b ? b : "(none)";
            return settings_tags[i];
        }
    }
    return NULL;
}

/* Read the one game of a game file: its tags into t; a bad file stops the run. */
static void read_file_game(const char *path, const char *text, const cd_rules *r, int round,
                           cd_pdn_tags *t)
{
    char err[512];
    size_t pos = 0;
    cd_game *g = NULL;
    cd_result rr = cd_pdn_read(text, &pos, r, &g, t, err, sizeof err);
    cd_game_free(g);
    if (rr != CD_OK || !g)
        fail("%s: %s (nothing was packed)", path, rr != CD_OK ? err : "no game");
    char want[16];
    snprintf(want, sizeof want, "%d", round);
    const char *got = cd_pdn_tag(t, "Round");
    if (!got || strcmp(got, want))
        fail("%s: its Round tag is %s, not %d (nothing was packed)", path, got ? got : "missing",
             round);
    if (!cd_pdn_tag(t, "Termination"))
        fail("%s: no Termination tag (nothing was packed)", path);
    while (text[pos] && strchr(" \t\r\n", text[pos]))
        pos++;
    if (text[pos])
        fail("%s: more than one game (nothing was packed)", path);
}

/* The game files DIR/V/NNNNN.pdn (five digits), numbers sorted into *rounds; their count. */
static int list_files(const char *dir, int **rounds)
{
    *rounds = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return 0;
        fail("cannot read the folder %s: %s", dir, strerror(errno));
    }
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *s = e->d_name;
        if (strlen(s) != 9 || strspn(s, "0123456789") != 5 || strcmp(s + 5, ".pdn"))
            continue;
        int round = atoi(s);
        if (round < 1)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            int *more = realloc(*rounds, (size_t)cap * sizeof *more);
            if (!more)
                fail("out of memory");
            *rounds = more;
        }
        (*rounds)[n++] = round;
    }
    closedir(d);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && (*rounds)[k - 1] > (*rounds)[k]; k--) {
            int t = (*rounds)[k];
            (*rounds)[k] = (*rounds)[k - 1];
            (*rounds)[k - 1] = t;
        }
    return n;
}

/* Pack the game files of variant r in out; prints what it did. */
static void pack_variant(const char *out, const cd_rules *r)
{
    char kpath[PATH_MAX], gdir[PATH_MAX], err[1024];
    snprintf(kpath, sizeof kpath, "%s/%s.pdn.xz", out, r->name);
    snprintf(gdir, sizeof gdir, "%s/%s", out, r->name);
    kept_games k;
    if (kept_read(kpath, r, &k, err, sizeof err) != 0)
        fail("%s (nothing was packed)", err);
    int *rounds, nfiles = list_files(gdir, &rounds);
    game *games = malloc((size_t)(k.n + nfiles + 1) * sizeof *games);
    cd_pdn_tags *want = malloc(sizeof *want), *t = malloc(sizeof *t);
    char **texts = malloc((size_t)(nfiles + 1) * sizeof *texts);
    if (!games || !want || !t || !texts)
        fail("out of memory");
    int n = 0, fresh = 0, have_want = 0;
    for (int i = 0; i < k.n; i++)
        games[n++] = (game){k.round[i], k.text + k.start[i], k.end[i] - k.start[i], NULL};
    if (k.n) {
        size_t pos = k.start[0];
        cd_game *g = NULL;
        cd_pdn_read(k.text, &pos, r, &g, want, err, sizeof err);
        cd_game_free(g);
        have_want = 1;
    }
    for (int f = 0; f < nfiles; f++) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/%05d.pdn", gdir, rounds[f]);
        size_t len;
        char *text = cd_slurp(path, STUDY_MAX_FILE, &len);
        if (!text)
            fail("cannot read %s: %s (nothing was packed)", path, strerror(errno));
        texts[f] = text;
        read_file_game(path, text, r, rounds[f], have_want ? t : want);
        const char *got, *had, *tag = have_want ? other_settings(t, want, &got, &had) : NULL;
        if (tag)
            fail("%s: its %s is \"%.200s\", the other games' \"%.200s\": games of other settings "
                 "are not kept together (nothing was packed)",
                 path, tag, got, had);
        have_want = 1;
        len = trimmed(text, len);
        int i = kept_find(&k, rounds[f]);
        if (i >= 0 && (k.end[i] - k.start[i] != len || memcmp(k.text + k.start[i], text, len)))
            fail("%s differs from game %d kept in %s: remove one of them (nothing was packed)",
                 path, rounds[f], kpath);
        char *file = strdup(path);
        if (!file)
            fail("out of memory");
        if (i >= 0) {
            games[i].file = file; /* already kept: the file goes */
            continue;
        }
        games[n++] = (game){rounds[f], text, len, file};
        fresh++;
    }
    qsort(games, (size_t)n, sizeof *games, by_round);

    if (fresh) {
        size_t total = 0;
        for (int i = 0; i < n; i++)
            total += games[i].len + 2;
        char *all = malloc(total + 1), *p = all;
        if (!all)
            fail("out of memory");
        for (int i = 0; i < n; i++) {
            memcpy(p, games[i].text, games[i].len);
            memcpy(p + games[i].len, "\n\n", 2);
            p += games[i].len + 2;
        }
        size_t xzlen, back_len;
        const char *why;
        unsigned char *xz = cd_xz_encode(all, total, &xzlen, &why);
        if (!xz)
            fail("%s: %s (nothing was packed)", kpath, why);
        if (study_write_atomic(kpath, (const char *)xz, xzlen) != 0)
            fail("cannot write %s: %s (nothing was packed)", kpath, strerror(errno));
        free(xz);
        char *back = cd_slurp(kpath, KEPT_MAX_FILE, &xzlen);
        unsigned char *again = back ? cd_xz_decode(back, xzlen, &back_len, &why) : NULL;
        if (!again || back_len != total || memcmp(again, all, total))
            fail("%s: the file written does not read back; the game files are left as they "
                 "were",
                 kpath);
        free(back);
        free(again);
        free(all);
    }
    int removed = 0;
    for (int i = 0; i < n; i++)
        if (games[i].file) {
            if (unlink(games[i].file) != 0)
                fail("cannot remove %s (it is kept in %s): %s", games[i].file, kpath,
                     strerror(errno));
            removed++;
            free(games[i].file);
        }
    if (nfiles)
        rmdir(gdir); /* when empty; a file of another name keeps it */
    printf("%s: %d games kept (%d new), %d game files removed\n", kpath, n, fresh, removed);
    for (int f = 0; f < nfiles; f++)
        free(texts[f]);
    free(texts);
    free(rounds);
    free(games);
    free(want);
    free(t);
    kept_free(&k);
}

/* Is name (a folder's, or a file's before ".pdn.xz") a variant's name? */
static const cd_rules *variant_named(const char *name, size_t len)
{
    char buf[64];
    if (!len || len >= sizeof buf)
        return NULL;
    memcpy(buf, name, len);
    buf[len] = '\0';
    const cd_rules *r = cd_rules_find(buf);
    return r && !strcmp(r->name, buf) ? r : NULL;
}

enum { O_OUT };

static const cli_opt pack_opts[] = {
    {CLI_TEXT_OPT(O_OUT, "out", "DIR", "the study's folder (the --out of its run)"), .required = 1},
    {0}};

const cli_command study_pack_command = {
    .name = "study pack",
    .about = "Move a study's game files into DIR/VARIANT.pdn.xz, which the study reads as played.",
    .opts = pack_opts,
    .run = study_pack_main,
};

static void set_option(void *user, const cli_opt *opt, const cli_value *v)
{
    if (opt->id == O_OUT)
        *(const char **)user = v->text;
}

int study_pack_main(int argc, char **argv)
{
    if (getenv("OMPI_COMM_WORLD_SIZE"))
        fail("run it as one process, not under mpirun");
    const char *out = NULL;
    cli_parse(&study_pack_command, argc, argv, set_option, &out, NULL, 0);
    if (!out || !out[0])
        fail("give the study's folder: --out DIR");
    DIR *d = opendir(out);
    if (!d)
        fail("cannot read the folder %s: %s", out, strerror(errno));
    const cd_rules *found[STUDY_MAX_VARIANTS * 4];
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        const cd_rules *r = variant_named(e->d_name, len);
        if (!r && len > 7 && !strcmp(e->d_name + len - 7, ".pdn.xz"))
            r = variant_named(e->d_name, len - 7);
        int seen = !r;
        for (int i = 0; i < n && !seen; i++)
            seen = found[i] == r;
        if (!seen && n < (int)(sizeof found / sizeof *found))
            found[n++] = r;
    }
    closedir(d);
    if (!n)
        fail("%s holds no study games (VARIANT/NNNNN.pdn or VARIANT.pdn.xz)", out);
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && strcmp(found[k - 1]->name, found[k]->name) > 0; k--) {
            const cd_rules *t = found[k];
            found[k] = found[k - 1];
            found[k - 1] = t;
        }
    for (int i = 0; i < n; i++)
        pack_variant(out, found[i]);
    return 0;
}
