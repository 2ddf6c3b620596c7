/*
 * test_book.c -- the opening book (src/core/book.c) through the public API:
 *  - add, write, read: the same moves, scores, depths and ranks come back, a second write gives
 *    the same bytes, a duplicate or illegal move and a position of another variant are refused;
 *  - the key: the variant, the side to move and every square change it; a position of another
 *    variant is not found;
 *  - an entry whose move is not legal in its position is skipped, not played;
 *  - a bad image is refused with a message saying what: magic, version, truncated, too long,
 *    checksum, an entry out of order, a square off the board, a reserved byte; 4000 images with
 *    one bit flipped (checksum made right) are each refused with a message or read and probed;
 *  - with BOOK NODES HASH and openings on stdin (tests/book.sh: a book made by `condraughts book
 *    build`): every position on each opening's way and every position up to two plies beyond
 *    that the book holds has as its move and score what a search of NODES nodes on a cleared
 *    table of HASH MiB, computed here, finds; and every position on the way is in the book.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "condraughts.h"
#include "eval_io.h"

#include "check.h"

static cd_movelist list;

static const cd_rules *english(void) { return cd_rules_find("english"); }

/* The image with its checksum made right after a change. */
static void reseal(unsigned char *img, size_t len)
{
    cd_put_le(img + len - 4, cd_fnv1a32(img, len - 4), 4);
}

/* Whether reading img fails with a message containing want. */
static int refused(const unsigned char *img, size_t len, const char *want)
{
    char err[256] = "";
    cd_book *b = cd_book_read(img, len, err, sizeof err);
    if (b) {
        cd_book_free(b);
        fprintf(stderr, "  image accepted, want '%s'\n", want);
        return 0;
    }
    if (!strstr(err, want)) {
        fprintf(stderr, "  error '%s', want '%s'\n", err, want);
        return 0;
    }
    return 1;
}

static void test_round_trip(void)
{
    cd_position start, other, next;
    cd_position_start(&start, english());
    cd_book *b = cd_book_new(english());
    CHECK(b != NULL);
    int n = cd_generate(&start, &list);
    CHECK(n == 7); /* English's seven opening moves */
    CHECK(cd_book_add(b, &start, &list.moves[3], 12, 9) == CD_OK);
    CHECK(cd_book_add(b, &start, &list.moves[1], -5, 8) == CD_OK);
    CHECK(cd_book_add(b, &start, &list.moves[3], 0, 1) == CD_ERR_ARG); /* already there */
    cd_play(&start, &list.moves[0], &next);
    cd_movelist reply;
    CHECK(cd_generate(&next, &reply) > 0);
    CHECK(cd_book_add(b, &next, &reply.moves[0], 30, 7) == CD_OK);
    CHECK(cd_book_add(b, &next, &list.moves[0], 0, 1) == CD_ERR_ARG); /* not legal there */
    cd_position_start(&other, cd_rules_find("russian"));
    cd_movelist rl;
    cd_generate(&other, &rl);
    CHECK(cd_book_add(b, &other, &rl.moves[0], 0, 1) == CD_ERR_ARG); /* another variant */
    CHECK(cd_book_entries(b) == 3);

    unsigned char *img, *img2;
    size_t len = cd_book_write(b, &img);
    CHECK(len == 48 + 3 * 20 + 4);
    char err[256];
    cd_book *r = cd_book_read(img, len, err, sizeof err);
    CHECKF(r != NULL, "read: %s", err);
    if (!r)
        return;
    CHECK(cd_book_rules(r) == english());
    cd_book_move bm[8];
    CHECK(cd_book_probe(r, &start, bm, 8) == 2);
    CHECK(cd_move_equal(&bm[0].move, &list.moves[3]) && bm[0].score == 12 && bm[0].depth == 9 &&
          bm[0].rank == 0);
    CHECK(cd_move_equal(&bm[1].move, &list.moves[1]) && bm[1].score == -5 && bm[1].depth == 8 &&
          bm[1].rank == 1);
    CHECK(cd_book_probe(r, &start, bm, 1) == 1 && cd_move_equal(&bm[0].move, &list.moves[3]));
    CHECK(cd_book_probe(r, &next, bm, 8) == 1 && cd_move_equal(&bm[0].move, &reply.moves[0]) &&
          bm[0].score == 30);
    CHECK(cd_book_probe(r, &other, bm, 8) == 0);
    CHECK(cd_book_probe(NULL, &start, bm, 8) == 0);
    CHECK(cd_book_write(r, &img2) == len && !memcmp(img, img2, len));
    free(img2);

    /* the key: each of variant, side, a square changes it */
    cd_position p = start;
    uint64_t k0 = cd_book_key(&start);
    p.side = p.side == CD_WHITE ? CD_BLACK : CD_WHITE;
    CHECK(cd_book_key(&p) != k0);
    CHECK(cd_book_probe(r, &p, bm, 8) == 0);
    p = start;
    cd_position_set(&p, 1, CD_EMPTY);
    CHECK(cd_book_key(&p) != k0);
    cd_position it;
    cd_position_start(&it, cd_rules_find("italian"));
    CHECK(cd_book_key(&it) != k0);

    /* an entry whose move is not legal in its position is skipped: 12-16's entry made 1-2 */
    unsigned char *bad = malloc(len);
    memcpy(bad, img, len);
    int hit = 0;
    for (int i = 0; i < 3; i++) {
        unsigned char *rec = bad + 48 + 20 * i;
        if (cd_get_le(rec, 8) == k0 && rec[18] == 0) {
            rec[14] = 1;
            rec[15] = 2;
            hit = 1;
        }
    }
    CHECK(hit);
    reseal(bad, len);
    cd_book *s = cd_book_read(bad, len, err, sizeof err);
    CHECKF(s != NULL, "read: %s", err);
    if (s) {
        CHECK(cd_book_probe(s, &start, bm, 8) == 1 && cd_move_equal(&bm[0].move, &list.moves[1]));
        cd_book_free(s);
    }

    /* bad images */
    memcpy(bad, img, len);
    bad[0] = 'X';
    CHECK(refused(bad, len, "no CDBK magic"));
    memcpy(bad, img, len);
    bad[4] = 2;
    CHECK(refused(bad, len, "book version 2; this program reads version 1"));
    memcpy(bad, img, len);
    CHECK(refused(bad, len - 1, "truncated: 111 bytes, its header says 3 entries (112 bytes)"));
    CHECK(refused(bad, 20, "truncated: 20 bytes"));
    memcpy(bad, img, len);
    bad[60] ^= 1;
    CHECK(refused(bad, len, "checksum does not match"));
    memcpy(bad, img, len);
    memcpy(bad + 8, "englisx", 7);
    reseal(bad, len);
    CHECK(refused(bad, len, "unknown variant 'englisx'"));
    memcpy(bad, img, len);
    bad[48 + 20 + 19] = 7;
    reseal(bad, len);
    CHECK(refused(bad, len, "entry 1: reserved byte is 7"));
    memcpy(bad, img, len);
    bad[48 + 20 * 2 + 15] = 33;
    reseal(bad, len);
    CHECK(refused(bad, len, "entry 2: squares"));
    memcpy(bad, img, len); /* entries 0 and 2 swapped: out of key order */
    unsigned char t[20];
    memcpy(t, bad + 48, 20);
    memcpy(bad + 48, bad + 48 + 40, 20);
    memcpy(bad + 48 + 40, t, 20);
    reseal(bad, len);
    cd_book *u = cd_book_read(bad, len, err, sizeof err);
    CHECKF(!u && (strstr(err, "not sorted") || strstr(err, "out of order")), "swapped: %s", err);
    cd_book_free(u);
    /* any one byte changed and the checksum made right again: refused with a message, or read
     * (a key, score or depth changed) and probed without harm */
    uint32_t seed = 12345;
    int read_ok = 0, read_bad = 0;
    for (int i = 0; i < 4000; i++) {
        memcpy(bad, img, len);
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % (len - 4);
        bad[at] ^= (unsigned char)(1u << ((seed >> 4) & 7));
        reseal(bad, len);
        err[0] = '\0';
        cd_book *m = cd_book_read(bad, len, err, sizeof err);
        if (m) {
            read_ok++;
            cd_book_probe(m, &start, bm, 8);
            cd_book_probe(m, &next, bm, 8);
            cd_book_free(m);
        } else {
            read_bad += err[0] != '\0';
        }
    }
    CHECKF(read_ok > 0 && read_bad > 0 && read_ok + read_bad == 4000,
           "mutations: %d read, %d refused with a message", read_ok, read_bad);
    unsigned char *longer = calloc(1, len + 20);
    memcpy(longer, img, len);
    CHECK(refused(longer, len + 20, "longer than its header's 3 entries"));
    free(longer);
    free(bad);
    free(img);
    cd_book_free(r);
    cd_book_free(b);
}

/* ------------------------------------------------------------------ a built book */

typedef struct built {
    const cd_book *book;
    cd_engine *engine;
    unsigned long long nodes;
    int found, agreed;
} built;

/* If pos is in the book: its first move and score are the search's. */
static int check_position(built *t, const cd_position *pos)
{
    cd_book_move bm;
    if (!cd_book_probe(t->book, pos, &bm, 1))
        return 0;
    t->found++;
    cd_game *g = cd_game_new(pos->rules, pos);
    cd_engine_clear(t->engine);
    cd_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.nodes = t->nodes;
    cd_search_result res;
    CHECK(cd_search(t->engine, g, &lim, NULL, NULL, &res) == CD_OK && res.has_move);
    char fen[256], a[64], b[64];
    cd_position_to_fen(pos, 0, fen, sizeof fen);
    cd_move_to_text(pos, &bm.move, 0, a, sizeof a);
    cd_move_to_text(pos, &res.best, 0, b, sizeof b);
    CHECKF(cd_move_equal(&bm.move, &res.best) && bm.score == res.score && bm.depth == res.depth,
           "%s: book %s %d depth %d, search %s %d depth %d", fen, a, bm.score, bm.depth, b,
           res.score, res.depth);
    t->agreed += cd_move_equal(&bm.move, &res.best);
    cd_game_free(g);
    return 1;
}

/* Every position up to `plies` below pos. */
static void walk(built *t, const cd_position *pos, int plies)
{
    check_position(t, pos);
    if (!plies)
        return;
    cd_movelist *l = malloc(sizeof *l);
    int n = cd_generate(pos, l);
    for (int i = 0; i < n; i++) {
        cd_position next;
        cd_play(pos, &l->moves[i], &next);
        walk(t, &next, plies - 1);
    }
    free(l);
}

static void test_built(const char *file, unsigned long long nodes, size_t hash)
{
    FILE *f = fopen(file, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static unsigned char img[1 << 20];
    size_t len = fread(img, 1, sizeof img, f);
    fclose(f);
    char err[256];
    cd_book *book = cd_book_read(img, len, err, sizeof err);
    CHECKF(book != NULL, "%s: %s", file, err);
    if (!book)
        return;
    cd_eval *ev = eval_io_load("weights", 1, err, sizeof err);
    CHECKF(ev != NULL, "weights: %s", err);
    built t = {.book = book, .engine = cd_engine_new(hash), .nodes = nodes};
    cd_engine_set_eval(t.engine, ev);
    char line[512];
    int openings = 0, path = 0;
    while (fgets(line, sizeof line, stdin)) {
        char *hash_mark = strchr(line, '#');
        if (hash_mark)
            *hash_mark = '\0';
        cd_game *g = cd_game_new(english(), NULL);
        char *save = NULL;
        int moves = 0;
        const char *sep = " \t\r\n";
        for (char *tok = strtok_r(line, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
            path++;
            CHECKF(check_position(&t, cd_game_position(g)),
                   "position %d of opening %d not in the book", moves, openings + 1);
            CHECK(cd_game_play_text(g, tok, err, sizeof err) == CD_OK);
            moves++;
        }
        if (moves) {
            walk(&t, cd_game_position(g), 2);
            openings++;
        }
        cd_game_free(g);
    }
    printf("book %s: %d openings, %d positions in the book checked against the search (%d on "
           "the openings' way), %d agreed\n",
           file, openings, t.found, path, t.agreed);
    CHECK(openings > 0);
    CHECK(t.found > path); /* the book goes beyond the openings */
    cd_engine_free(t.engine);
    cd_eval_free(ev);
    cd_book_free(book);
}

int main(int argc, char **argv)
{
    test_round_trip();
    if (argc == 4)
        test_built(argv[1], strtoull(argv[2], NULL, 10), (size_t)strtoul(argv[3], NULL, 10));
    printf("test_book: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
