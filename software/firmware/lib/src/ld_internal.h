/* LiteDigest C library: internal helpers. The core needs no C library headers beyond the
 * freestanding <stddef.h>/<stdint.h>, so it builds with a bare cross compiler. */
#ifndef LITEDIGEST_LD_INTERNAL_H
#define LITEDIGEST_LD_INTERNAL_H

#include "litedigest/ld_types.h"

static inline void ld_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    while (n--)
        *dst++ = *src++;
}

/* With a write-through data cache (VexRiscv) every store is a bus write: clear whole words
 * where the buffer allows it (4 times fewer stores than bytes). */
#if defined(__GNUC__)
typedef uint32_t __attribute__((may_alias)) ld_word_alias;
#else
typedef uint32_t ld_word_alias;
#endif
static inline void ld_zero(uint8_t *dst, size_t n)
{
    while (n && ((uintptr_t)dst & 3u)) {
        *dst++ = 0;
        n--;
    }
    while (n >= 4) {
        *(ld_word_alias *)(void *)dst = 0;
        dst += 4;
        n -= 4;
    }
    while (n--)
        *dst++ = 0;
}

/* n digest bytes (big-endian words, truncated) from 32-bit chaining-value words H0 first */
static inline void ld_digest_bytes(size_t n, const uint32_t *words, uint8_t *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        out[i] = (uint8_t)(words[i / 4] >> (24 - 8 * (i % 4)));
}

#endif
