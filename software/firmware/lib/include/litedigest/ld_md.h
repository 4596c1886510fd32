/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: every Merkle-Damgard hash of the library behind one interface
 * (SHA-1, SHA-224/256, SHA-384/512, SHA-512/224, SHA-512/256), software implementation.
 *
 * An algorithm id names the function; the table behind it gives the family (which compression
 * function and which peripheral), the block and digest sizes and the variant number (the IV
 * choice, same numbering as the peripheral's ctrl.variant field and the engines' IVS order).
 * The hardware driver (ld_hw.h) and the message scheduler (ld_sched.h) use the same ids.
 */
#ifndef LITEDIGEST_LD_MD_H
#define LITEDIGEST_LD_MD_H

#include "ld_types.h"
#include "ld_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The algorithm ids (LD_ALG_*), families (LD_FAMILY_*; LD_FAMILY_SKEIN512 is not a
 * Merkle-Damgard hash: ld_skein.h) and variants come from ld_catalog.h. */

#define LD_MD_MAX_BLOCK_SIZE  128
#define LD_MD_MAX_DIGEST_SIZE 64
#define LD_MD_MAX_STATE_WORDS 16 /* 32-bit words: room for ld_md_iv_words of any alg */

/* Facts about an algorithm; all return 0 (or -1 for family/variant) for an unknown id. */
size_t ld_md_block_size(int alg);  /* 64 or 128 bytes */
size_t ld_md_digest_size(int alg); /* output bytes (truncated for 224/384/...) */
size_t ld_md_state_words(int alg); /* 32-bit words of the chaining value: 5, 8 or 16 */
int ld_md_family(int alg);         /* LD_FAMILY_* */
int ld_md_variant(int alg);        /* IV number inside the family */
const char *ld_md_name(int alg);   /* "sha1", "sha256", ..., "sha512_256" (hashlib names) */

/* The chaining value as big-endian 32-bit words (a 64-bit word is two: high, low), which is
 * also the order of the peripheral's cv/digest registers and of the digest bytes.
 * Writes ld_md_state_words(alg) words; LD_OK, or LD_ERR_ARG (unknown alg, NULL words). */
int ld_md_iv_words(int alg, uint32_t *words);

#if LD_CONFIG_HOST
/* A compression function supplied by the caller (LD_CONFIG_HOST): hash nblocks whole blocks
 * of alg into the chaining value `words` (ld_md_state_words(alg) big-endian 32-bit words, as
 * ld_md_iv_words), which holds alg's IV when `first` is set (an engine may start from its
 * own IV then). Returns LD_OK or an LD_ERR_* code, which fails the context. */
typedef int (*ld_md_compress_fn)(void *user, int alg, int first, uint32_t *words,
                                 const uint8_t *blocks, size_t nblocks);
#endif

typedef struct {
    union {
        uint32_t w32[8];
        uint64_t w64[8];
    } state;
    uint64_t total;                    /* message bytes so far */
    uint8_t buf[LD_MD_MAX_BLOCK_SIZE]; /* partial block */
    uint32_t buflen;                   /* bytes in buf (< block size) */
    int alg;
    int finished;   /* 1 after final */
    uint32_t magic; /* set by init: catches an uninitialised context */
#if LD_CONFIG_HOST
    ld_md_compress_fn hook; /* NULL: the software compression function */
    void *hook_user;
    uint64_t hook_blocks; /* blocks given to the hook (0: the chain is at the IV) */
    int hook_err;         /* the hook's first error: the context has failed */
#endif
} ld_md_ctx;

/* Streaming API, same contract as ld_sha256_*: init LD_OK / LD_ERR_ARG (NULL ctx, unknown
 * alg); update LD_OK / LD_ERR_ARG (NULL ctx, NULL data with len > 0, a message that would
 * pass the alg's length limit: the context is left as it was) / LD_ERR_STATE (after final,
 * uninitialised, or fields that are not consistent); final writes ld_md_digest_size(alg)
 * bytes, LD_ERR_STATE when repeated. copy duplicates a context (hashlib's copy()).
 * Length limits: SHA-1, SHA-224/256 2^61 - 1 bytes (their 2^64 - 1 bits); the SHA-512 family
 * 2^64 - 1 bytes (this library's 64-bit byte count; the standard allows 2^128 - 1 bits). */
int ld_md_init(ld_md_ctx *ctx, int alg);
int ld_md_update(ld_md_ctx *ctx, const void *data, size_t len);
int ld_md_final(ld_md_ctx *ctx, uint8_t *out);
int ld_md_copy(ld_md_ctx *dst, const ld_md_ctx *src);
/* copy: LD_OK, LD_ERR_ARG (NULL dst/src), LD_ERR_STATE (src uninitialised); a finished src
 * gives a finished dst. ld_md_ctx_alg: the alg of an initialised (possibly finished)
 * context, -1 for NULL or an uninitialised one. */
int ld_md_ctx_alg(const ld_md_ctx *ctx);
/* one-shot */
int ld_md(int alg, const void *data, size_t len, uint8_t *out);

#if LD_CONFIG_HOST
/* ld_md_init with the blocks going to `hook` (buffering and padding stay this library's). */
int ld_md_init_hook(ld_md_ctx *ctx, int alg, ld_md_compress_fn hook, void *user);
#endif

#ifdef __cplusplus
}
#endif
#endif
