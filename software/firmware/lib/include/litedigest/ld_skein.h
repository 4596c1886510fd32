/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: Skein-512 (Skein 1.3, sequential), hash and MAC, any output length,
 * messages of any bit length; software implementation and the driver of the Skein peripheral.
 *
 * Where the line is drawn (Athanasiou et al. 2013 put padding and tweaks in its Input Block / Tweak
 * Generator; here the peripheral sees DMA blocks the CPU never touches):
 * - the engine: one UBI block (Threefish-512 keyed by the chaining value, feed-forward);
 * - the peripheral: the tweak of every block of a job (position, first, final, bitpad) from
 *   the job's start tweak and the final block's byte count (ld_skein512_ubi is the same rule
 *   in software);
 * - this library: the order of the UBIs (key, configuration, message, output), the
 *   configuration block and the output counter blocks, the zero/bit padding of the final
 *   message block, holding the last block back until the message ends, and the choice of a
 *   pre-computed configured IV for the standard output sizes (no configuration block).
 *
 * One context type serves both: ld_skein512_init (software) or ld_hw_skein512_init (a Skein
 * peripheral, CSR or DMA path: ld_hw_skein.h); update/final are shared.
 */
#ifndef LITEDIGEST_LD_SKEIN_H
#define LITEDIGEST_LD_SKEIN_H

#include "ld_types.h"
#include "ld_common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ld_hw_dev; /* a peripheral (ld_hw.h), for a context on one */

#define LD_SKEIN512_BLOCK_BYTES  64
#define LD_SKEIN512_STATE_BYTES  64
#define LD_SKEIN512_MAX_OUT_BITS (1u << 20) /* output length limit of this library */

/* UBI types (T1 bits 61:56) and flags */
#define LD_SKEIN_T_KEY      0u
#define LD_SKEIN_T_CFG      4u
#define LD_SKEIN_T_MSG      48u
#define LD_SKEIN_T_OUT      63u
#define LD_SKEIN_T1_TYPE(t) ((uint64_t)(t) << 56)
#define LD_SKEIN_T1_FIRST   (1ull << 62)
#define LD_SKEIN_T1_FINAL   (1ull << 63)
#define LD_SKEIN_T1_BITPAD  (1ull << 55)

/* The engine's variants (ctrl.variant): 0 starts from a zero chaining value, 1.. from the
 * configured chaining value of an output size (512, 384, 256, 224, 160, 128 bits). */
#define LD_SKEIN_VARIANT_ZERO 0
int ld_skein512_variant(size_t out_bits); /* the variant of a size, or -1 */
/* The configured chaining value of a standard size as 8 words; LD_ERR_ARG for other sizes. */
int ld_skein512_iv(size_t out_bits, uint64_t x[8]);

/* Skein-512 plain hashes of a configured output size (512, 384, 256, 224, 160 or 128 bits),
 * as an `alg` of the APIs that take one (the message scheduler, ld_sched.h):
 * LD_ALG_SKEIN512(256) is Skein-512-256. They lie outside the LD_ALG_* range of ld_md.h,
 * whose streaming functions are the Merkle-Damgard hashes only. */
#define LD_ALG_SKEIN512_BASE  0x10000
#define LD_ALG_SKEIN512(bits) (LD_ALG_SKEIN512_BASE + (int)(bits))
/* the output bits of a Skein-512 alg with a configured size, or 0 when alg is not one */
size_t ld_skein512_alg_bits(int alg);

/* Threefish-512 encryption (words little-endian as in Skein). */
void ld_threefish512(const uint64_t key[8], const uint64_t tweak[2], const uint64_t in[8],
                     uint64_t out[8]);

/* One UBI job, the rule the peripheral applies to the blocks of a job: block k gets position
 * t0 + 64(k+1) (the UBI's final block, when t1 has FINAL: t0 + 64k + final_bytes), FIRST
 * only on block 0 (when t1 has it), FINAL and BITPAD only on the last block. x is the
 * chaining value in and out. */
void ld_skein512_ubi(uint64_t x[8], const uint8_t *blocks, size_t nblocks, uint64_t t0, uint64_t t1,
                     unsigned final_bytes);

#if LD_CONFIG_HOST
/* A block function supplied by the caller (LD_CONFIG_HOST; ld_skein512_init_hook), e.g. an
 * engine in a simulator: nblocks (1..LD_SKEIN512_HOOK_BLOCKS) consecutive UBI blocks, block i
 * with the tweak (tweaks[2i], tweaks[2i+1]) = (T0, T1) computed by this library, chained from
 * x or, when variant >= 0, from the engine's variant (0 zero, 1.. a configured IV,
 * ld_skein512_variant); the new chaining value goes to x. Returns LD_OK or an LD_ERR_* code,
 * which fails the context. */
#define LD_SKEIN512_HOOK_BLOCKS 16
typedef int (*ld_skein512_ubi_fn)(void *user, uint64_t x[8], int variant, const uint8_t *blocks,
                                  size_t nblocks, const uint64_t *tweaks);
#endif

typedef struct {
    uint8_t buf[LD_SKEIN512_BLOCK_BYTES] LD_DMA_ALIGNED; /* held-back message bytes (1..64) */
    uint64_t x[8];               /* chaining value, when x_where says it is here */
    uint64_t pos;                /* message bytes processed (blocks before buf) */
    const struct ld_hw_dev *dev; /* NULL: software */
    uint32_t out_bits;
    uint32_t buflen;
    uint32_t align; /* DMA alignment of the peripheral */
    int path;
    uint8_t started; /* a message block has been processed */
    uint8_t bitpad;  /* the message ended inside a byte: no more input */
    uint8_t x_where; /* internal: chaining value in x, in the engine's slot 0, or an IV */
    uint8_t variant; /* the engine IV when x_where says so */
    uint8_t state;   /* internal: 1 active, 2 finished, 3 failed */
    uint32_t magic;  /* set by init: catches an uninitialised context */
#if LD_CONFIG_HOST
    ld_skein512_ubi_fn hook; /* software contexts: NULL, or the caller's UBI function */
    void *hook_user;
#endif
} ld_skein512_ctx;

/* init: out_bits 1..LD_SKEIN512_MAX_OUT_BITS; key (MAC) of keylen bytes, none when keylen is
 * 0 (key may then be NULL). LD_OK, LD_ERR_ARG. (On a peripheral: ld_hw_skein512_init.) */
int ld_skein512_init(ld_skein512_ctx *ctx, size_t out_bits, const uint8_t *key, size_t keylen);
/* update: bytes. update_bits: nbits bits, the first nbits of data (most significant bit of
 * each byte first); when nbits is not a multiple of 8 the message ends there (a later update
 * is LD_ERR_STATE). LD_OK, LD_ERR_ARG (NULL ctx, NULL data with len/nbits > 0: nothing is
 * read), LD_ERR_STATE (after final or a failure; a context that no init set up, or whose
 * fields are not consistent: garbage is refused, as ld_md_update refuses it); hardware
 * errors fail the context. */
int ld_skein512_update(ld_skein512_ctx *ctx, const void *data, size_t len);
int ld_skein512_update_bits(ld_skein512_ctx *ctx, const void *data, size_t nbits);
/* final: writes ld_skein512_digest_size(ctx) = (out_bits + 7) / 8 bytes; LD_ERR_STATE when
 * repeated, after a failure, or for an uninitialised or inconsistent context (nothing is
 * written then). digest_size: 0 for NULL or an uninitialised or inconsistent context. */
int ld_skein512_final(ld_skein512_ctx *ctx, uint8_t *out);
size_t ld_skein512_digest_size(const ld_skein512_ctx *ctx);
/* one-shot over a message of nbits bits */
int ld_skein512(size_t out_bits, const uint8_t *key, size_t keylen, const void *data, size_t nbits,
                uint8_t *out);
#if LD_CONFIG_HOST
/* ld_skein512_init with every UBI going to `hook` (the UBI sequence stays this library's) */
int ld_skein512_init_hook(ld_skein512_ctx *ctx, ld_skein512_ubi_fn hook, void *user,
                          size_t out_bits, const uint8_t *key, size_t keylen);
/* The tweak (tw[0] = T0, tw[1] = T1) of block b of a UBI job of nblocks blocks started with
 * tweak (t0 = bytes before the job, t1) whose final block adds final_bytes: the rule of
 * ld_skein512_ubi and of the peripheral's tweak stage, for driving an engine directly. */
void ld_skein512_block_tweak(uint64_t t0, uint64_t t1, size_t b, size_t nblocks,
                             unsigned final_bytes, uint64_t tw[2]);
/* copy (hashlib's copy()): a software context, or one on an LD_HW_SHARED device */
int ld_skein512_copy(ld_skein512_ctx *dst, const ld_skein512_ctx *src);
#endif

#ifdef __cplusplus
}
#endif
#endif
