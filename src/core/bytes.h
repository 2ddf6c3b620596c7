/*
 * bytes.h -- the integers of the library's files: little-endian whatever the machine's order,
 * and the FNV-1a checksums (32-bit in the weights and network files, 64-bit in the endgame
 * tables). Static inline: every reader and writer of a file format includes it (src/core,
 * src/train).
 */
#ifndef CD_BYTES_H
#define CD_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* The low `bytes` bytes of v at p, least significant first. */
static inline void cd_put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The unsigned number of `bytes` bytes at p, least significant first. */
static inline uint64_t cd_get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* FNV-1a 32 of n bytes. */
static inline uint32_t cd_fnv1a32(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

#define CD_FNV64_BASIS 0xcbf29ce484222325ull

/* FNV-1a 64 of n bytes, continued from h (CD_FNV64_BASIS to start). */
static inline uint64_t cd_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return h;
}

#endif
