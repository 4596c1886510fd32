/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: software SHA-1 compression (FIPS 180-4).
 * The compression function and IV only; the streaming and one-shot API (padding, buffering,
 * big-endian digest) is ld_md.h's with LD_ALG_SHA1. */
#ifndef LITEDIGEST_LD_SHA1_H
#define LITEDIGEST_LD_SHA1_H

#include "ld_types.h"
#include "ld_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_SHA1_BLOCK_SIZE  64
#define LD_SHA1_DIGEST_SIZE 20

/* The initial hash value H0..H4. */
void ld_sha1_iv(uint32_t state[5]);

/* Process nblocks whole 64-byte blocks into state (no padding, no length bookkeeping). */
void ld_sha1_compress(uint32_t state[5], const uint8_t *blocks, size_t nblocks);

#ifdef __cplusplus
}
#endif
#endif
