/*
 * train_io.c -- the training data file (docs/formats.md): reading a whole file, a corpus file
 * (train_corpus.c, with its deep labels if asked) or a corpus folder, and writing one record by
 * record with the count in the header kept true.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "pattern.h"
#include "train_data.h"

/* A data file (CDTD) or a corpus file, by its name; a corpus file with its labels from the
 * folders of the list labels (NULL: none), counted into *labelled. */
static record *read_file(const char *path, const char *labels, const cd_rules *r, size_t *n,
                         size_t *labelled)
{
    if (corpus_is(path)) {
        corpus_id id;
        record *rec = corpus_read(path, r, n, &id);
        if (labels)
            *labelled += labels_apply(path, labels, r, &id, rec, *n);
        return rec;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail("cannot open %s", path);
    unsigned char h[HDR_SIZE];
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, "CDTD", 4) || cd_get_le(h + 4, 4) != 1)
        fail("%s: not a condraughts training data file", path);
    char name[17] = {0};
    memcpy(name, h + 8, 15);
    const char *want = train_file_name(r);
    if (strcmp(name, want))
        fail("%s holds %s games, not %s", path, name, want);
    uint64_t count = cd_get_le(h + 24, 8);
    record *rec = malloc((size_t)count * sizeof *rec + 1);
    if (!rec)
        fail("out of memory for %llu records", (unsigned long long)count);
    unsigned char b[REC_SIZE];
    for (uint64_t i = 0; i < count; i++) {
        if (fread(b, 1, sizeof b, f) != sizeof b)
            fail("%s: truncated at record %llu of %llu", path, (unsigned long long)i,
                 (unsigned long long)count);
        record *x = &rec[i];
        x->white = cd_get_le(b, 8);
        x->black = cd_get_le(b + 8, 8);
        x->kings = cd_get_le(b + 16, 8);
        x->game = (uint32_t)cd_get_le(b + 24, 4);
        x->score = (int16_t)(uint16_t)cd_get_le(b + 28, 2);
        x->ply = (uint16_t)cd_get_le(b + 30, 2);
        x->side = b[32];
        x->result = b[33];
        x->deep = b[34];
        if (x->side > 1 || x->result > 2 || x->deep > 1 || (x->white & x->black) ||
            (x->kings & ~(x->white | x->black)))
            fail("%s: record %llu is not a valid position", path, (unsigned long long)i);
    }
    fclose(f);
    *n = (size_t)count;
    return rec;
}

FILE *train_create(const char *path, const cd_rules *r)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail("cannot write %s", path);
    unsigned char h[HDR_SIZE] = {'C', 'D', 'T', 'D'};
    cd_put_le(h + 4, 1, 4);
    strncpy((char *)h + 8, train_file_name(r), 15);
    if (fwrite(h, 1, sizeof h, f) != sizeof h)
        fail("cannot write %s", path);
    return f;
}

void train_put(FILE *f, const record *x)
{
    unsigned char b[REC_SIZE] = {0};
    cd_put_le(b, x->white, 8);
    cd_put_le(b + 8, x->black, 8);
    cd_put_le(b + 16, x->kings, 8);
    cd_put_le(b + 24, x->game, 4);
    cd_put_le(b + 28, (uint16_t)x->score, 2);
    cd_put_le(b + 30, x->ply, 2);
    b[32] = x->side;
    b[33] = x->result;
    b[34] = x->deep;
    if (fwrite(b, 1, sizeof b, f) != sizeof b)
        fail("write error");
}

void train_set_count(FILE *f, uint64_t records)
{
    unsigned char c[8];
    cd_put_le(c, records, 8);
    if (fflush(f) != 0 || fseek(f, 24, SEEK_SET) != 0 || fwrite(c, 1, 8, f) != 8 ||
        fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0)
        fail("write error");
}

void train_position(const cd_rules *r, const record *x, cd_position *p)
{
    cd_position_empty(p, r, x->side);
    p->white[0] = x->white;
    p->black[0] = x->black;
    p->kings[0] = x->kings;
    cd_position_rekey(p);
}

/* Append the records of one file to *rec, its games numbered in order of appearance from
 * *game_base on (a game's records are consecutive): a folder of corpus chunks reads as the one
 * run that played them, and a data file of train gen keeps its numbers. */
static void read_into(const char *path, const char *labels, const cd_rules *r, record **rec,
                      size_t *nrec, uint32_t *game_base, size_t *labelled)
{
    size_t k;
    record *part = read_file(path, labels, r, &k, labelled);
    record *all = realloc(*rec, (*nrec + k) * sizeof **rec + 1);
    if (!all)
        fail("out of memory");
    *rec = all;
    uint32_t next = *game_base, last = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t g = part[i].game;
        part[i].game = i && g == last ? next - 1 : next++;
        last = g;
    }
    memcpy(*rec + *nrec, part, k * sizeof **rec);
    *nrec += k;
    *game_base = next;
    free(part);
}

record *train_read(const char *path, const cd_rules *r, size_t *n)
{
    uint32_t games;
    return train_read_list(path, r, n, &games);
}

record *train_read_list(const char *list, const cd_rules *r, size_t *n, uint32_t *games)
{
    return train_read_labelled(list, NULL, r, n, games);
}

record *train_read_labelled(const char *list, const char *labels, const cd_rules *r, size_t *n,
                            uint32_t *games)
{
    record *rec = NULL;
    size_t nrec = 0, labelled = 0;
    uint32_t game_base = 0;
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        fail("out of memory");
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t files;
        char **names = corpus_list_dir(tok, &files);
        if (!names) {
            read_into(tok, labels, r, &rec, &nrec, &game_base, &labelled);
            continue;
        }
        if (!files)
            fail("%s: a folder without corpus files (*.cdg.xz)", tok);
        for (size_t i = 0; i < files; i++) {
            read_into(names[i], labels, r, &rec, &nrec, &game_base, &labelled);
            free(names[i]);
        }
        free(names);
    }
    free(copy);
    if (labels && !labelled)
        fail("--labels %s: no labels of these games there", labels);
    *n = nrec;
    *games = game_base;
    return rec;
}

record *train_read_sample(const char *path, const cd_rules *r, long limit, double share,
                          uint64_t seed, size_t *total, size_t **drawn, size_t *n)
{
    record *rec = train_read(path, r, total);
    if (limit > 0 && *total > (size_t)limit)
        *total = (size_t)limit;
    *drawn = train_draw(*total, share, seed, n);
    return rec;
}

size_t *train_draw(size_t total, double share, uint64_t seed, size_t *n)
{
    size_t *drawn = malloc(total * sizeof *drawn + 1), k = 0;
    if (!drawn)
        fail("out of memory");
    /* record i is drawn when its hash is below share * 2^64 (every record for share 1) */
    uint64_t cut = share < 1 ? (uint64_t)(share * 0x1p64) : UINT64_MAX;
    for (size_t i = 0; i < total; i++) {
        uint64_t h = seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)i;
        if (share >= 1 || splitmix(&h) < cut)
            drawn[k++] = i;
    }
    *n = k;
    return drawn;
}

int train_unpack(const cd_rules *r, const char *data, const char *labels, const char *out)
{
    size_t n;
    uint32_t games;
    record *rec = train_read_labelled(data, labels, r, &n, &games);
    FILE *f = train_create(out, r);
    for (size_t i = 0; i < n; i++)
        train_put(f, &rec[i]);
    train_set_count(f, n);
    if (fclose(f) != 0)
        fail("cannot write %s", out);
    printf("wrote %s: %zu positions of %u games\n", out, n, (unsigned)games);
    free(rec);
    return 0;
}
