/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: Merkle-Damgard padding of the final partial block. */
#include "ld_sw_internal.h"
#include "litedigest/ld_pad.h"

size_t ld_md_pad(uint8_t *out, const uint8_t *tail, size_t tail_len, uint64_t total_len,
                 size_t block_size)
{
    size_t lenbytes, n, i;
    uint64_t bits_lo, bits_hi;

    /* every check before the first store: a refused call writes nothing. The tail must be
     * the message's own: tail_len == total_len % block_size (a power of two by then, so a
     * mask, with no 64-bit division on 32-bit targets) */
    if (out == NULL || (block_size != 64 && block_size != 128) || tail_len >= block_size ||
        tail_len > total_len || tail_len != (size_t)(total_len & (block_size - 1)) ||
        (tail_len > 0 && tail == NULL) || total_len > ld_md_max_len(block_size))
        return 0;
    lenbytes = block_size / 8; /* 8: 64-bit length field, 16: 128-bit */
    /* one block if the 0x80 byte and the length field still fit after the tail */
    n = (tail_len + 1 + lenbytes <= block_size) ? block_size : 2 * block_size;
    if (tail_len)
        ld_copy(out, tail, tail_len);
    out[tail_len] = 0x80;
    ld_zero(out + tail_len + 1, n - tail_len - 1);
    /* message length in bits, big-endian, in the last lenbytes bytes */
    bits_lo = total_len << 3;
    bits_hi = total_len >> 61; /* only non-zero past 2^61 bytes (block size 128) */
    for (i = 0; i < 8; i++)
        out[n - 1 - i] = (uint8_t)(bits_lo >> (8 * i));
    if (lenbytes == 16)
        for (i = 0; i < 8; i++)
            out[n - 9 - i] = (uint8_t)(bits_hi >> (8 * i));
    return n;
}
