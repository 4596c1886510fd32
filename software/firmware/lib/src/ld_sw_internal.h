/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: what the software layer's sources share (the hashes, padding, HMAC):
 * the algorithm table, buffering and word copies. The core needs no C library headers beyond
 * the freestanding <stddef.h>/<stdint.h>, so it builds with a bare cross compiler. No
 * peripheral here: the driver's sources add ld_hw_internal.h on top of this one. */
#ifndef LITEDIGEST_LD_SW_INTERNAL_H
#define LITEDIGEST_LD_SW_INTERNAL_H

#include "litedigest/ld_config.h"
#include "litedigest/ld_types.h"
#include "litedigest/ld_common.h"
#include "ld_lock.h"
#include "ld_md_table.h"

/* An algorithm's facts in one call (md_sw.c; 0 when alg is not known): the driver's
 * one-shot path asks once instead of once per fact. */
typedef struct {
    uint8_t family, variant, digest_size, block_shift; /* block = 1 << block_shift bytes */
} ld_md_facts;

static inline int ld_md_known(int alg)
{
    return alg >= 0 && alg < LD_ALG_COUNT &&
           (LD_FAMILIES_ALL_ON || LD_FAMILY_ON(ld_md_algs[alg].family));
}

/* inline: the driver's one-shot path calls nothing (see md_hw.c) */
static inline int ld_md_lookup(int alg, ld_md_facts *f)
{
    if (!ld_md_known(alg))
        return 0;
    f->family = ld_md_algs[alg].family;
    f->variant = ld_md_algs[alg].variant;
    f->digest_size = ld_md_algs[alg].digest_size;
    f->block_shift = LD_MD_BLOCK_SHIFT(ld_md_algs[alg].family);
    return 1;
}

/* Zeroes n bytes with volatile stores (secrets: keys, MAC states), common.c */
void ld_wipe(void *p, size_t n);

/* With a write-through data cache (VexRiscv) every store is a bus write: copy and clear
 * whole words where the buffers allow it (4 times fewer stores than bytes). */
#if defined(__GNUC__)
typedef uint32_t __attribute__((may_alias)) ld_word_alias;
#else
typedef uint32_t ld_word_alias;
#endif
static inline void ld_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if ((((uintptr_t)dst | (uintptr_t)src) & 3u) == 0) {
        for (; n >= 4; n -= 4, dst += 4, src += 4)
            *(ld_word_alias *)(void *)dst = *(const ld_word_alias *)(const void *)src;
    }
    while (n--)
        *dst++ = *src++;
}

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

/* Streaming into whole blocks (the update of every Merkle-Damgard context): top up the
 * partial block in buf, hand it to `blocks` once full, hand the data's whole blocks to
 * `blocks` straight from the caller's memory, keep the rest in buf. `blocks(ctx, p, n,
 * from_buf)` returns LD_OK or an error, which is returned at once (buf is emptied when its
 * block was the one that failed). */
typedef int (*ld_blocks_fn)(void *ctx, const uint8_t *p, size_t nblocks, int from_buf);

static inline int ld_absorb(uint8_t *buf, uint32_t *buflen, size_t bs, const uint8_t *p, size_t len,
                            ld_blocks_fn blocks, void *ctx)
{
    int r;

    if (len == 0)
        return LD_OK; /* p may be NULL then: no arithmetic on it (undefined in C99) */
    if (*buflen) {
        size_t n = bs - *buflen;
        if (n > len)
            n = len;
        ld_copy(buf + *buflen, p, n);
        *buflen += (uint32_t)n;
        p += n;
        len -= n;
        if (*buflen < bs)
            return LD_OK;
        r = blocks(ctx, buf, 1, 1);
        *buflen = 0;
        if (r != LD_OK)
            return r;
    }
    if (len >= bs) {
        size_t nb = len / bs;
        r = blocks(ctx, p, nb, 0);
        if (r != LD_OK)
            return r;
        p += nb * bs;
        len -= nb * bs;
    }
    if (len) {
        ld_copy(buf, p, len);
        *buflen = (uint32_t)len;
    }
    return LD_OK;
}

/* The end of a SHA-2 compression (FIPS 180-4 6.2.2 step 4, 6.4.2): the working variables
 * a..h added into the chaining value, for 32-bit and 64-bit words alike */
#define LD_SHA2_ADD_STATE(state, a, b, c, d, e, f, g, h)                                           \
    do {                                                                                           \
        (state)[0] += (a);                                                                         \
        (state)[1] += (b);                                                                         \
        (state)[2] += (c);                                                                         \
        (state)[3] += (d);                                                                         \
        (state)[4] += (e);                                                                         \
        (state)[5] += (f);                                                                         \
        (state)[6] += (g);                                                                         \
        (state)[7] += (h);                                                                         \
    } while (0)

/* n digest bytes (big-endian words, truncated) from 32-bit chaining-value words H0 first */
static inline void ld_digest_bytes(size_t n, const uint32_t *words, uint8_t *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        out[i] = (uint8_t)(words[i / 4] >> (24 - 8 * (i % 4)));
}

/* The longest message, in bytes, whose length the padding of a block_size-byte algorithm
 * encodes: 64-byte blocks (SHA-1, SHA-224/256) carry the bit length in 64 bits, under 2^61
 * bytes; the SHA-512 family's 128-bit field holds more than a 64-bit byte count, which is then
 * the limit. (ld_md_pad, the md contexts and the scheduler's checks.) */
static inline uint64_t ld_md_max_len(size_t block_size)
{
    return block_size == 64 ? ((uint64_t)1 << 61) - 1 : UINT64_MAX;
}

/* 32-bit words of a family's chaining value (5, 8, 16): the batch walker writes this many bytes
 * x 4 at an output address, nothing beyond (byte enables), so a digest of that size goes
 * straight into the caller's buffer */
static inline size_t ld_family_state_words(int family)
{
    return family == LD_FAMILY_SHA1 ? 5 : family == LD_FAMILY_SHA256 ? 8 : 16;
}

#endif
