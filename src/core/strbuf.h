/*
 * strbuf.h -- writing text into a caller-owned buffer of fixed size, the way
 * snprintf does: the text is cut to fit (always NUL-terminated when len > 0)
 * and the length it needed is counted, so callers can return it; and the
 * error-message helper of the parsers.
 */
#ifndef CD_STRBUF_H
#define CD_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    char *buf;
    size_t len, n; /* buffer size; characters written or needed so far */
} sbuf;

static inline void sb_putc(sbuf *b, char c)
{
    if (b->n + 1 < b->len)
        b->buf[b->n] = c;
    b->n++;
}

static inline void sb_puts(sbuf *b, const char *s)
{
    while (*s)
        sb_putc(b, *s++);
}

/* Terminate the text; returns the length needed. */
static inline size_t sb_end(sbuf *b)
{
    if (b->len)
        b->buf[b->n < b->len ? b->n : b->len - 1] = '\0';
    return b->n;
}

/* Write a printf-style message into a caller's error buffer (which may be NULL). */
static inline void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

#endif
