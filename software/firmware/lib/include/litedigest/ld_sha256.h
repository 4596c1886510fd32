/* LiteDigest C library: software SHA-256 / SHA-224 (FIPS 180-4). */
#ifndef LITEDIGEST_LD_SHA256_H
#define LITEDIGEST_LD_SHA256_H

#include "ld_types.h"
#include "ld_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_SHA256_BLOCK_SIZE  64
#define LD_SHA256_DIGEST_SIZE 32
#define LD_SHA224_DIGEST_SIZE 28

typedef struct {
    uint32_t state[8];
    uint64_t total;      /* message bytes so far */
    uint8_t  buf[64];    /* partial block */
    uint32_t buflen;     /* bytes in buf (< 64) */
    int      variant;    /* LD_SHA256 or LD_SHA224 */
    int      finished;   /* 1 after ld_sha256_final (0 otherwise) */
    uint32_t magic;      /* set by init: catches use of an uninitialised context */
} ld_sha256_ctx;

/* Digest size in bytes of a variant (32 or 28), 0 for an unknown variant. */
size_t ld_sha256_digest_size(int variant);

/* The initial hash value H0..H7 of a variant. Returns LD_OK or LD_ERR_ARG. */
int ld_sha256_iv(int variant, uint32_t state[8]);

/* Process nblocks whole 64-byte blocks into state (no padding, no length bookkeeping). */
void ld_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t nblocks);

/* Streaming API. init: LD_OK or LD_ERR_ARG (NULL ctx, unknown variant).
 * update: LD_OK, LD_ERR_ARG (NULL ctx, NULL data with len > 0), LD_ERR_STATE (after final).
 * final: writes 32 (SHA-256) or 28 (SHA-224) bytes to out; LD_ERR_STATE when called twice. */
int ld_sha256_init(ld_sha256_ctx *ctx, int variant);
int ld_sha256_update(ld_sha256_ctx *ctx, const void *data, size_t len);
int ld_sha256_final(ld_sha256_ctx *ctx, uint8_t *out);

/* One-shot: out receives ld_sha256_digest_size(variant) bytes. */
int ld_sha256(int variant, const void *data, size_t len, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
