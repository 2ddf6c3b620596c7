/* aligned.h -- memory aligned for the transposition table's cache lines and the network's
 * vector loads: C11's aligned_alloc and free, or on Windows (which has no aligned_alloc) its
 * _aligned_malloc and _aligned_free. Memory from cd_aligned_alloc goes back through
 * cd_aligned_free only. */
#ifndef CD_ALIGNED_H
#define CD_ALIGNED_H

#include <stdlib.h>
#ifdef _WIN32
#include <malloc.h>
#endif

static inline void *cd_aligned_alloc(size_t align, size_t size)
{
#ifdef _WIN32
    return _aligned_malloc(size, align);
#else
    return aligned_alloc(align, size);
#endif
}

static inline void cd_aligned_free(void *p)
{
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}

#endif
