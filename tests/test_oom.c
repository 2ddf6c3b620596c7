/*
 * test_oom.c -- out of memory is reported one way (condraughts.h, beside cd_result): every
 * allocation the library makes during a call is failed in turn, and the call must answer
 * CD_ERR_OVERFLOW (with "out of memory" in err where it takes one) or, once the call needs
 * fewer allocations than the one failed, succeed as without the failure.
 *
 * The library's malloc, calloc and realloc are wrapped at link time (-Wl,--wrap=..., see the
 * Makefile's oom-test): arm(n) makes the n-th allocation from then on (counting from 0), and
 * only that one, return NULL.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "condraughts.h"

#include "check.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);

static long fail_at = -1; /* the allocation to fail, counting from 0; -1: none */
static long allocs;       /* allocations since the count was armed */

static int failing(void)
{
    if (fail_at < 0)
        return 0;
    return allocs++ == fail_at;
}

void *__wrap_malloc(size_t n) { return failing() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return failing() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return failing() ? NULL : __real_realloc(p, n); }

static void arm(long n)
{
    allocs = 0;
    fail_at = n;
}

/* Disarm; 1 if the armed allocation was reached (and failed). */
static int disarm(void)
{
    int reached = allocs > fail_at;
    fail_at = -1;
    return reached;
}

static const char pdn[] = "[Event \"oom\"]\n[White \"a\"]\n[Black \"b\"]\n"
                          "{before} 1. 32-28 {centre} 19-23 2. 28x19 14x23 {back} 3. 37-32 *\n";

static void test_pdn_read(void)
{
    const cd_rules *r = cd_rules_find("international");
    int failures_seen = 0;
    for (long n = 0;; n++) {
        size_t pos = 0;
        cd_game *g = NULL;
        char err[256] = "";
        arm(n);
        cd_result res = cd_pdn_read(pdn, &pos, r, &g, NULL, err, sizeof err);
        if (!disarm()) {
            CHECK(res == CD_OK);
            CHECK(g && cd_game_ply(g) == 5);
            CHECK_STR(g ? cd_game_comment(g, 4) : NULL, "back");
            CHECK_STR(g ? cd_game_comment(g, 0) : NULL, "before");
            cd_game_free(g);
            break;
        }
        failures_seen++;
        CHECK(res == CD_ERR_OVERFLOW);
        CHECK(strstr(err, "out of memory") != NULL);
        CHECK(g == NULL);
        if (res != CD_ERR_OVERFLOW)
            fprintf(stderr, "  cd_pdn_read, allocation %ld failed: %s (%s)\n", n,
                    cd_result_str(res), err);
        cd_game_free(g);
    }
    CHECK(failures_seen >= 3); /* the header, the game, its comments at least */
}

static void test_game(void)
{
    const cd_rules *r = cd_rules_find("russian");
    cd_game *g = cd_game_new(r, NULL);
    cd_move m;
    char err[256];
    CHECK(cd_move_parse(cd_game_position(g), "c3-d4", &m, err, sizeof err) == CD_OK);

    arm(0);
    CHECK(cd_move_parse(cd_game_position(g), "c3-d4", &m, err, sizeof err) == CD_ERR_OVERFLOW);
    CHECK(disarm());
    CHECK_STR(err, "move: out of memory");

    arm(0);
    CHECK(cd_game_play(g, &m) == CD_ERR_OVERFLOW);
    CHECK(disarm());
    CHECK(cd_game_ply(g) == 0);
    CHECK(cd_game_play(g, &m) == CD_OK);

    arm(0);
    CHECK(cd_game_set_comment(g, 1, "a comment") == CD_ERR_OVERFLOW);
    CHECK(disarm());
    CHECK(cd_game_comment(g, 1) == NULL);
    cd_game_free(g);
}

/* Build russian's tables of 2 pieces in a fresh folder, failing allocation n. */
static cd_result build_failing(long n, int *reached, char *err, size_t errlen)
{
    char dir[] = "/tmp/cd-oom-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    cd_egtb *tb = cd_egtb_open(cd_rules_find("russian"), dir);
    arm(n);
    cd_result r = cd_egtb_build(tb, 2, 0, 1, NULL, NULL, err, errlen);
    *reached = disarm();
    cd_egtb_close(tb);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return r;
}

static void test_egtb_build(void)
{
    int failures_seen = 0;
    for (long n = 0; n < 10000; n++) {
        char err[512] = "";
        int reached;
        cd_result r = build_failing(n, &reached, err, sizeof err);
        if (!reached) {
            CHECK(r == CD_OK);
            break;
        }
        failures_seen++;
        CHECK(r == CD_ERR_OVERFLOW);
        CHECK(strstr(err, "out of memory") != NULL);
        if (r != CD_ERR_OVERFLOW)
            fprintf(stderr, "  cd_egtb_build, allocation %ld failed: %s (%s)\n", n,
                    cd_result_str(r), err);
    }
    CHECK(failures_seen >= 10);
}

int main(void)
{
    test_pdn_read();
    test_game();
    test_egtb_build();
    printf("test_oom: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
