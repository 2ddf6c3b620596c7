/*
 * xz.h -- xz compression in memory (liblzma): the trainer's game corpus and the games a study
 * keeps. A program built with NO_TRAIN=1 has no liblzma: both calls then fail (why says so).
 */
#ifndef CD_UTIL_XZ_H
#define CD_UTIL_XZ_H

#include <stddef.h>

/* data compressed as one xz stream (preset 9, extreme, CRC64 check), malloc'ed (free it), its
 * length in *outlen; NULL with *why set on failure. */
unsigned char *cd_xz_encode(const void *data, size_t len, size_t *outlen, const char **why);

/* The payload of xz data (concatenated streams allowed), malloc'ed with a NUL after it (free
 * it), its length in *outlen; NULL with *why set on failure: "not a valid xz file (damaged or
 * truncated)", "truncated", "out of memory" or "xz is not built in (NO_TRAIN=1)". */
unsigned char *cd_xz_decode(const void *in, size_t inlen, size_t *outlen, const char **why);

#endif
