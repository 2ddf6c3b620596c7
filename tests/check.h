/*
 * check.h -- the assertion macros of the C test programs: a failed check
 * prints its file, line and expression and the program goes on, counting.
 * Each program returns failures != 0.
 */
#ifndef CD_TEST_CHECK_H
#define CD_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

/* CHECK with a printf message saying what was got: CHECKF(n == 3, "n is %d", n). */
#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__);                          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *got_ = (got), *want_ = (want);                                                 \
        checks++;                                                                                  \
        if (!got_ || strcmp(got_, want_)) {                                                        \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__,                    \
                    got_ ? got_ : "(null)", want_);                                                \
        }                                                                                          \
    } while (0)

#endif
