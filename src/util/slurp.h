/*
 * slurp.h -- read a whole file into memory (the file readers of the CLI and the trainer).
 */
#ifndef CD_UTIL_SLURP_H
#define CD_UTIL_SLURP_H

#include <stddef.h>

/* The whole file at path ("-": standard input), NUL-terminated, malloc'ed (free it), its length
 * in *len (may be NULL). NULL with errno set on failure: the open's errno, EIO a read error,
 * EFBIG more than max bytes, ENOMEM out of memory. */
char *cd_slurp(const char *path, size_t max, size_t *len);

#endif
