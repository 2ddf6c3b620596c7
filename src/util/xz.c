/*
 * xz.c -- xz compression in memory (xz.h).
 */
#include "xz.h"

#include <stdlib.h>

#ifdef CD_NO_TRAIN

static const char no_xz[] = "xz is not built in (NO_TRAIN=1)";

unsigned char *cd_xz_encode(const void *data, size_t len, size_t *outlen, const char **why)
{
    (void)data;
    (void)len;
    *outlen = 0;
    *why = no_xz;
    return NULL;
}

unsigned char *cd_xz_decode(const void *in, size_t inlen, size_t *outlen, const char **why)
{
    (void)in;
    (void)inlen;
    *outlen = 0;
    *why = no_xz;
    return NULL;
}

#else

#include <lzma.h>

unsigned char *cd_xz_encode(const void *data, size_t len, size_t *outlen, const char **why)
{
    size_t cap = lzma_stream_buffer_bound(len), out = 0;
    unsigned char *x = malloc(cap ? cap : 1);
    if (!x) {
        *why = "out of memory";
        return NULL;
    }
    if (lzma_easy_buffer_encode(9 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC64, NULL, data, len, x, &out,
                                cap) != LZMA_OK) {
        free(x);
        *why = "the compression failed";
        return NULL;
    }
    *outlen = out;
    return x;
}

unsigned char *cd_xz_decode(const void *in, size_t inlen, size_t *outlen, const char **why)
{
    lzma_stream s = LZMA_STREAM_INIT;
    size_t cap = inlen * 8 + 4096;
    unsigned char *out = malloc(cap);
    if (!out || lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
        free(out);
        *why = "out of memory";
        return NULL;
    }
    s.next_in = in;
    s.avail_in = inlen;
    s.next_out = out;
    s.avail_out = cap - 1;
    *why = NULL;
    for (;;) {
        lzma_ret ret = lzma_code(&s, LZMA_FINISH);
        if (ret == LZMA_STREAM_END)
            break;
        if (ret != LZMA_OK && ret != LZMA_BUF_ERROR)
            *why = "not a valid xz file (damaged or truncated)";
        else if (s.avail_out == 0) {
            size_t used = cap - 1;
            cap *= 2;
            unsigned char *bigger = realloc(out, cap);
            if (!bigger)
                *why = "out of memory";
            else {
                out = bigger;
                s.next_out = out + used;
                s.avail_out = cap - 1 - used;
            }
        } else if (ret == LZMA_BUF_ERROR)
            *why = "truncated";
        if (*why) {
            lzma_end(&s);
            free(out);
            return NULL;
        }
    }
    *outlen = cap - 1 - s.avail_out;
    out[*outlen] = '\0';
    lzma_end(&s);
    return out;
}

#endif
