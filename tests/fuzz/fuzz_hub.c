/*
 * fuzz_hub.c -- the Hub protocol front end: a whole session of lines.
 *
 * Input: byte 0 picks the default variant (fz_variant's row name); the rest is
 * what the GUI sends, given to cd_hub_run as its input stream. Searches run
 * for real (their thread included) but are capped at a few thousand nodes and
 * a 1 MiB table, so a `go` costs milliseconds. Every line the engine writes
 * must be one of the protocol's answers, and an error's message must be one
 * quoted value without quotes or control characters inside.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>

#include "fuzz.h"
#include "hub.h"

static void check_output(const char *out, size_t len)
{
    static const char *const words[] = {"id ",  "param ", "wait", "ready",
                                        "pong", "info ",  "done", "error "};
    const char *p = out, *end = out + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        FZ_CHECK(nl, "output does not end with a newline");
        size_t n = (size_t)(nl - p);
        int known = 0;
        for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
            size_t w = strlen(words[i]);
            if (n >= w && !memcmp(p, words[i], w) &&
                (words[i][w - 1] == ' ' || n == w || p[w] == ' '))
                known = 1;
        }
        FZ_CHECK(known, "unexpected output line '%.*s'", (int)(n < 200 ? n : 200), p);
        for (size_t i = 0; i < n; i++)
            FZ_CHECK((unsigned char)p[i] >= 0x20 || p[i] == '\t', "control character in output");
        if (n >= 6 && !memcmp(p, "error ", 6)) {
            FZ_CHECK(n >= 17 && !memcmp(p, "error message=\"", 15) && p[n - 1] == '"',
                     "malformed error line '%.*s'", (int)(n < 200 ? n : 200), p);
            for (size_t i = 15; i < n - 1; i++)
                FZ_CHECK(p[i] != '"', "quote inside an error message");
        }
        p = nl + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 16384)
        return 0;
    cd_hub_options opt;
    memset(&opt, 0, sizeof opt);
    opt.variant = fz_variant(data[0])->name;
    opt.hash_mb = 1;
    opt.max_hash_mb = 2;
    opt.max_nodes = 1000;
    FILE *in = fmemopen((void *)(data + 1), size - 1, "r");
    char *out = NULL;
    size_t outlen = 0;
    FILE *o = open_memstream(&out, &outlen);
    FZ_CHECK(in && o, "fmemopen/open_memstream");
    int rc = cd_hub_run(in, o, &opt);
    fclose(in);
    fclose(o);
    FZ_CHECK(rc == 0, "cd_hub_run returned %d", rc);
    check_output(out, outlen);
    free(out);
    return 0;
}
