/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: software SHA-512 compression (FIPS 180-4), for SHA-512, SHA-384,
 * SHA-512/224 and SHA-512/256 (variants differ by IV; truncation is the caller's).
 * The compression function and IVs only; the streaming and one-shot API (padding, buffering,
 * big-endian truncated digest) is ld_md.h's with LD_ALG_SHA512, LD_ALG_SHA384,
 * LD_ALG_SHA512_224 and LD_ALG_SHA512_256. */
#ifndef LITEDIGEST_LD_SHA512_H
#define LITEDIGEST_LD_SHA512_H

#include "ld_types.h"
#include "ld_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_SHA512_BLOCK_SIZE 128

/* variants LD_SHA512, LD_SHA384, LD_SHA512_224, LD_SHA512_256: ld_catalog.h */

/* The initial hash value H0..H7 of a variant. Returns LD_OK or LD_ERR_ARG. */
int ld_sha512_iv(int variant, uint64_t state[8]);

/* Process nblocks whole 128-byte blocks into state (no padding, no length bookkeeping). */
void ld_sha512_compress(uint64_t state[8], const uint8_t *blocks, size_t nblocks);

#ifdef __cplusplus
}
#endif
#endif
