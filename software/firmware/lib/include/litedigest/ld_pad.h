/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: Merkle-Damgard padding (SHA-1/SHA-2 style). */
#ifndef LITEDIGEST_LD_PAD_H
#define LITEDIGEST_LD_PAD_H

#include "ld_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pad the final partial block of a message.
 *   out        receives the padded tail: 1 or 2 blocks (needs 2*block_size bytes of room)
 *   tail       the last total_len % block_size message bytes (may be NULL when tail_len == 0)
 *   tail_len   exactly total_len % block_size (so < block_size and <= total_len); any
 *              other tail_len is refused
 *   total_len  length of the whole message in BYTES; with block size 64 under 2^61 (the bit
 *              length, at most 2^64 - 1, must fit its 64-bit field)
 *   block_size 64 (SHA-1/SHA-256: 64-bit big-endian bit length) or
 *              128 (SHA-512 family: 128-bit big-endian bit length)
 * Returns the number of bytes written (block_size or 2*block_size), or 0 on a bad argument
 * (out NULL, another block_size, tail_len != total_len % block_size, tail NULL with
 * tail_len > 0, total_len past the limit), in which case nothing is written. */
size_t ld_md_pad(uint8_t *out, const uint8_t *tail, size_t tail_len, uint64_t total_len,
                 size_t block_size);

#ifdef __cplusplus
}
#endif
#endif
