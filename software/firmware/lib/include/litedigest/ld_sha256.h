/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: software SHA-256 / SHA-224 (FIPS 180-4). */
#ifndef LITEDIGEST_LD_SHA256_H
#define LITEDIGEST_LD_SHA256_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_md.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_SHA256_BLOCK_SIZE  64
#define LD_SHA256_DIGEST_SIZE 32
#define LD_SHA224_DIGEST_SIZE 28

/* The streaming context is the generic one of ld_md.h (LD_ALG_SHA256 / LD_ALG_SHA224). */
typedef ld_md_ctx ld_sha256_ctx;

/* Digest size in bytes of a variant (32 or 28), 0 for an unknown variant. */
size_t ld_sha256_digest_size(int variant);

/* The initial hash value H0..H7 of a variant. Returns LD_OK or LD_ERR_ARG. */
int ld_sha256_iv(int variant, uint32_t state[8]);

/* Process nblocks whole 64-byte blocks into state (no padding, no length bookkeeping). */
void ld_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t nblocks);

/* Streaming API (wrappers over ld_md_init/update/final). init: LD_OK or LD_ERR_ARG (NULL ctx,
 * unknown variant).
 * update: LD_OK, LD_ERR_ARG (NULL ctx, NULL data with len > 0), LD_ERR_STATE (after final,
 * uninitialised).
 * final: writes 32 (SHA-256) or 28 (SHA-224) bytes to out; LD_ERR_STATE when called twice.
 * update/final refuse (LD_ERR_ARG) a context that ld_md_init set up for another family. */
int ld_sha256_init(ld_sha256_ctx *ctx, int variant);
int ld_sha256_update(ld_sha256_ctx *ctx, const void *data, size_t len);
int ld_sha256_final(ld_sha256_ctx *ctx, uint8_t *out);

/* One-shot: out receives ld_sha256_digest_size(variant) bytes. */
int ld_sha256(int variant, const void *data, size_t len, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
