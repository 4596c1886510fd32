/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: what Skein-512's software context (skein_sw.c) and its peripheral
 * driver (skein_hw.c) share. One context type serves both (ld_skein.h): the software side
 * runs the UBI sequence, and hands a context that has a device to the driver's functions
 * declared here, which take only the context (no driver header on the software side). */
#ifndef LITEDIGEST_LD_SKEIN_INTERNAL_H
#define LITEDIGEST_LD_SKEIN_INTERNAL_H

#include "ld_sw_internal.h"
#include "litedigest/ld_skein.h"

LD_LOCKED_SKEIN(LD_DECLARE_UNLOCKED)

enum { CTX_ACTIVE = 1, CTX_FINISHED = 2, CTX_FAILED = 3 }; /* ld_skein512_ctx.state */
enum { X_HERE = 0, X_SLOT = 1, X_IV = 2 };                 /* ld_skein512_ctx.x_where */

#define SKEIN_MAGIC 0x736b6e31u

#define T1_FLAGS (LD_SKEIN_T1_FIRST | LD_SKEIN_T1_FINAL | LD_SKEIN_T1_BITPAD)

/* T1 of one part (a block, or the blocks before a tail) of a job started with T1 t1: FIRST
 * only on the first part, FINAL and BITPAD only on the last */
static inline uint64_t ld_skein_part_t1(uint64_t t1, int first, int last)
{
    return (t1 & ~T1_FLAGS) | (first ? t1 & LD_SKEIN_T1_FIRST : 0) |
           (last ? t1 & (LD_SKEIN_T1_FINAL | LD_SKEIN_T1_BITPAD) : 0);
}

/* skein_sw.c, for the driver's init and one-shot call: the key and configuration UBIs (or a
 * configured IV) of a context whose dev, path and align are set; one UBI job (nblocks blocks
 * at p, then `tail`, one block or NULL, as its last block); the output UBIs after the
 * message's final UBI */
int ld_skein512_start(ld_skein512_ctx *ctx, size_t out_bits, const uint8_t *key, size_t keylen);
int ld_skein512_run_ubi(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                        uint64_t t0, uint64_t t1, unsigned final_bytes);
int ld_skein512_output(ld_skein512_ctx *ctx, uint8_t *out);

/* skein_hw.c, for a context with a device: ld_skein512_run_ubi's job on the peripheral; the
 * chaining value read back from its slot into ctx->x; on a host, the chaining value back into
 * the context after a call on an LD_HW_SHARED device (release), and whether it is one */
int ld_skein512_hw_ubi(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                       uint64_t t0, uint64_t t1, unsigned final_bytes);
void ld_skein512_hw_fetch_x(ld_skein512_ctx *ctx);
#if LD_CONFIG_HOST
void ld_skein512_hw_release(ld_skein512_ctx *ctx);
int ld_skein512_hw_shared(const ld_skein512_ctx *ctx);
#endif

#endif
