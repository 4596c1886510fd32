/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the driver of the Skein-512 peripheral (ld_hw_skein.h) under the
 * software layer's context (skein_sw.c).
 *
 * Every UBI of a context on a peripheral comes here (ld_skein512_hw_ubi), as the same job on
 * slot 0: start tweak + final byte count in the tweak / final_bytes registers, the chaining
 * value from an engine IV (ctrl.first + variant), from cv (ctrl.load_cv) or left in the slot
 * from the previous job. Only the output needs the chaining value back on the CPU
 * (ld_hw_read_digest_words).
 */
#include "ld_hw_internal.h"
#include "ld_skein_internal.h"
#include "litedigest/ld_hw_skein.h"

#if LD_CONFIG_SKEIN512 /* the family is compiled in (ld_config.h) */

LD_LOCKED_HW_SKEIN(LD_DECLARE_UNLOCKED)

/* x (little-endian words) <-> the peripheral's cv/digest words: the chaining value's bytes
 * as big-endian 32-bit words (REGISTERS.md) */
static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint32_t x_word(const uint64_t x[8], unsigned j)
{
    return bswap32((uint32_t)(x[j / 2] >> (32 * (j % 2))));
}

static void words_to_x(const uint32_t *words, uint64_t x[8])
{
    unsigned j;
    for (j = 0; j < 8; j++)
        x[j] = ((uint64_t)bswap32(words[2 * j + 1]) << 32) | bswap32(words[2 * j]);
}

/* the chaining value from the peripheral's slot into the context */
void ld_skein512_hw_fetch_x(ld_skein512_ctx *ctx)
{
    uint32_t words[16];

    ld_hw_read_digest_words(ctx->dev, 0, words, 16);
    words_to_x(words, ctx->x);
}

/* The ctrl levels that start a job from where the chaining value is (writes cv if needed). */
static uint32_t start_levels(ld_skein512_ctx *ctx)
{
    const ld_hw_dev *dev = ctx->dev;
    unsigned j;

    if (ctx->x_where == X_IV)
        return LD_CTRL_FIRST | LD_CTRL_VARIANT_VAL(ctx->variant);
    if (ctx->x_where == X_HERE) {
        for (j = 0; j < 16; j++)
            LD_WR32(dev, dev->cv + 4u * j, x_word(ctx->x, j));
        return LD_CTRL_LOAD_CV;
    }
    return 0;
}

#if LD_CONFIG_HOST
/* The DMA path of a host the DMA cannot read: the UBI's blocks (then the tail) copied to the
 * staging area, as many per job as fit, each job with its part of the tweak. */
static int run_ubi_staged(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks,
                          const uint8_t *tail, uint64_t t0, uint64_t t1, unsigned final_bytes)
{
    const ld_hw_dev *dev = ctx->dev;
    size_t room = dev->stage_size / LD_SKEIN512_BLOCK_BYTES;
    size_t total = nblocks + (tail != NULL), done = 0;
    int r = LD_OK;

    while (done < total && r == LD_OK) {
        size_t n = total - done < room ? total - done : room;
        size_t k = done < nblocks ? (nblocks - done < n ? nblocks - done : n) : 0;
        int end = done + n == total;
        uint32_t lv = start_levels(ctx);
        if (k)
            dev->dma_write(dev->stage_base, p + LD_SKEIN512_BLOCK_BYTES * done,
                           k * LD_SKEIN512_BLOCK_BYTES);
        if (n > k) /* the tail, the UBI's last block */
            dev->dma_write(dev->stage_base + k * LD_SKEIN512_BLOCK_BYTES, tail,
                           LD_SKEIN512_BLOCK_BYTES);
        ld_hw_write_tweak(dev, t0 + LD_SKEIN512_BLOCK_BYTES * done,
                          ld_skein_part_t1(t1, done == 0, end), final_bytes);
        r = ld_hw_job_dma(dev, dev->stage_base, (uint32_t)(n * LD_SKEIN512_BLOCK_BYTES), 0, 0,
                          lv | (end ? LD_CTRL_LAST : 0), NULL);
        ctx->x_where = X_SLOT;
        done += n;
    }
    return r;
}

/* a shared peripheral: the chaining value goes back into the context after each call */
void ld_skein512_hw_release(ld_skein512_ctx *ctx)
{
    if ((ctx->dev->flags & LD_HW_SHARED) && ctx->x_where == X_SLOT) {
        ld_skein512_hw_fetch_x(ctx);
        ctx->x_where = X_HERE;
    }
}

int ld_skein512_hw_shared(const ld_skein512_ctx *ctx)
{
    return (ctx->dev->flags & LD_HW_SHARED) != 0;
}
#endif

/* ld_skein512_run_ubi on the context's peripheral: one DMA job when the DMA can read the
 * blocks and the tail, else a CSR job per block */
int ld_skein512_hw_ubi(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                       uint64_t t0, uint64_t t1, unsigned final_bytes)
{
    const ld_hw_dev *dev = ctx->dev;
    size_t len = nblocks * LD_SKEIN512_BLOCK_BYTES;
    size_t total = nblocks + (tail != NULL);
    uint32_t lv;
    int r = LD_OK;

#if LD_CONFIG_HOST
    if (ctx->path == LD_PATH_DMA && dev->dma_write)
        return run_ubi_staged(ctx, p, nblocks, tail, t0, t1, final_bytes);
#endif
    if (ctx->path == LD_PATH_DMA && nblocks && !ld_hw_dma_ok(dev, (uintptr_t)p, len, 1))
        return LD_ERR_RANGE;
    if (ctx->path == LD_PATH_DMA &&
        (nblocks ? ld_hw_dma_ok(dev, (uintptr_t)p, len, ctx->align)
                 : ld_hw_dma_ok(dev, (uintptr_t)tail, LD_SKEIN512_BLOCK_BYTES, ctx->align)) &&
        (!tail || !nblocks ||
         ld_hw_dma_ok(dev, (uintptr_t)tail, LD_SKEIN512_BLOCK_BYTES, ctx->align))) {
        /* one DMA job: the blocks, then the tail as the second segment */
        const uint8_t *a = nblocks ? p : tail;
        lv = start_levels(ctx);
        ld_hw_write_tweak(dev, t0, t1, final_bytes);
        r = ld_hw_job_dma(dev, (uintptr_t)a, (uint32_t)(nblocks ? len : LD_SKEIN512_BLOCK_BYTES),
                          nblocks && tail ? (uintptr_t)tail : 0,
                          nblocks && tail ? LD_SKEIN512_BLOCK_BYTES : 0, lv | LD_CTRL_LAST, NULL);
        ctx->x_where = X_SLOT;
        return r;
    }
    /* CSR path: one job per block, each with its own tweak */
    {
        size_t b;
        for (b = 0; b < total && r == LD_OK; b++) {
            const uint8_t *blk = b < nblocks ? p + LD_SKEIN512_BLOCK_BYTES * b : tail;
            int last = b + 1 == total;
            lv = start_levels(ctx);
            ld_hw_write_tweak(dev, t0 + LD_SKEIN512_BLOCK_BYTES * b,
                              ld_skein_part_t1(t1, b == 0, last), final_bytes);
            r = ld_hw_job_csr(dev, blk, LD_SKEIN512_BLOCK_BYTES, lv | (last ? LD_CTRL_LAST : 0),
                              NULL);
            ctx->x_where = X_SLOT;
        }
    }
    return r;
}

int LD_UNLOCKED(ld_hw_skein512_init)(ld_skein512_ctx *ctx, const ld_hw_dev *dev, int path,
                                     size_t out_bits, const uint8_t *key, size_t keylen)
{
    ld_hw_info info;

    if (ctx == NULL || !LD_HAL_OK(dev) || dev->family != LD_FAMILY_SKEIN512 || dev->tweak == 0 ||
        dev->final_bytes == 0 || (path != LD_PATH_CSR && path != LD_PATH_DMA) || out_bits == 0 ||
        out_bits > LD_SKEIN512_MAX_OUT_BITS || (key == NULL && keylen))
        return LD_ERR_ARG;
    ctx->dev = dev;
    ctx->path = path;
    ctx->align = ld_hw_get_info(dev, &info) == LD_OK ? info.dma_align : 4u;
#if LD_CONFIG_HOST
    ctx->hook = NULL;
    ctx->hook_user = NULL;
    if (path == LD_PATH_DMA && dev->dma_write &&
        (dev->stage_size < 2 * LD_SKEIN512_BLOCK_BYTES ||
         !ld_hw_dma_ok(dev, dev->stage_base, dev->stage_size, ctx->align)))
        return LD_ERR_ARG; /* no usable staging area */
#endif
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK); /* a clean start whatever happened before */
    LD_WR32(dev, ld_slot_word(dev->slots_ack, LD_INFO_SLOTS(LD_RD32(dev, dev->info)), 0), 1u);
    {
        int r = ld_skein512_start(ctx, out_bits, key, keylen);
#if LD_CONFIG_HOST
        ld_skein512_hw_release(ctx);
#endif
        return r;
    }
}

#ifdef LD_ONESHOT_FAST
/* The one-shot DMA call of a plain hash (no key, whole bytes) whose output size has its IV in
 * the engine, on a peripheral with hardware padding (batch_base set: ctrl.pad, ctrl.out), the
 * message aligned to the block and in the DMA's range: one job on slot 0 (ld_oneshot_job)
 * that the peripheral zero-pads, giving every block its tweak and ending with the output
 * block, as a batch's message; no context, no configuration or output UBI from the CPU. */
__attribute__((noinline)) static int skein_oneshot_mmio(const ld_hw_dev *dev, const ld_md_facts *f,
                                                        const uint8_t *p, size_t len, uint8_t *out)
{
    return ld_oneshot_job(dev, f, LD_CTRL_OUT, p, len, out, 1);
}

__attribute__((noinline)) static int skein_oneshot_hal(const ld_hw_dev *dev, const ld_md_facts *f,
                                                       const uint8_t *p, size_t len, uint8_t *out)
{
    return ld_oneshot_job(dev, f, LD_CTRL_OUT, p, len, out, 0);
}
#endif

int LD_UNLOCKED(ld_hw_skein512)(const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key,
                                size_t keylen, const void *data, size_t nbits, uint8_t *out)
{
    ld_skein512_ctx ctx;
    size_t len = nbits / 8;
    int r;

#ifdef LD_ONESHOT_FAST
    ld_md_facts f;
    if (path == LD_PATH_DMA && LD_HAL_OK(dev) && dev->family == LD_FAMILY_SKEIN512 && dev->tweak &&
        dev->final_bytes && dev->batch_base && keylen == 0 && nbits % 8 == 0 && out != NULL &&
        (data != NULL || nbits == 0) &&
        out_bits <= 8u * LD_SKEIN512_STATE_BYTES && /* a size with its IV: */
        ld_hw_alg_facts(LD_ALG_SKEIN512(out_bits), &f) && f.family == LD_FAMILY_SKEIN512 &&
        LD_ONESHOT_MSG_OK(dev, data, len, LD_SKEIN512_BLOCK_BYTES)) {
        const uint8_t *p = (const uint8_t *)data;
        if (LD_OWN_MMIO(dev))
            return skein_oneshot_mmio(dev, &f, p, len, out);
        return skein_oneshot_hal(dev, &f, p, len, out);
    }
#endif
    r = LD_UNLOCKED(ld_hw_skein512_init)(&ctx, dev, path, out_bits, key, keylen);
    if (r == LD_OK && ((data == NULL && nbits) || out == NULL))
        r = LD_ERR_ARG;
    if (r != LD_OK)
        return r;
    if (path == LD_PATH_DMA && nbits % 8 == 0 && len > LD_SKEIN512_BLOCK_BYTES) {
        /* one job: all blocks but the last straight from the caller's buffer, the last one
         * (zero padded, in ctx.buf) as the tail segment; run_ubi falls back to the CSR
         * path for what the DMA cannot read */
        const uint8_t *p = (const uint8_t *)data;
        size_t whole = (len - 1) / LD_SKEIN512_BLOCK_BYTES;
        size_t rest = len - whole * LD_SKEIN512_BLOCK_BYTES;
        ld_copy(ctx.buf, p + whole * LD_SKEIN512_BLOCK_BYTES, rest);
        ld_zero(ctx.buf + rest, LD_SKEIN512_BLOCK_BYTES - rest);
        r = ld_skein512_run_ubi(&ctx, p, whole, ctx.buf, 0,
                                LD_SKEIN_T1_TYPE(LD_SKEIN_T_MSG) | LD_SKEIN_T1_FIRST |
                                    LD_SKEIN_T1_FINAL,
                                (unsigned)rest);
        return r == LD_OK ? ld_skein512_output(&ctx, out) : r;
    }
    r = LD_UNLOCKED(ld_skein512_update_bits)(&ctx, data, nbits);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_skein512_final)(&ctx, out);
    return r;
}

#else
typedef int ld_hw_skein_configured_out; /* ISO C: a translation unit declares something */
#endif /* LD_CONFIG_SKEIN512 */
