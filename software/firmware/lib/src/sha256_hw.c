/* LiteDigest C library: driver for the SHA-256 hash peripheral (soc/REGISTERS.md).
 *
 * Jobs: the first job of a message sets ctrl.first (start from the variant's IV); later jobs
 * set neither first nor load_cv and continue from the peripheral's chaining value. The
 * final job (padded tail, from the context's own word-aligned buffer) sets ctrl.last.
 * After each job: poll status until done (bounded by timeout_polls, with a short delay
 * between polls so the CPU does not compete with the DMA for the bus), check the error bits,
 * and always ack.
 */
#include "ld_internal.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_pad.h"
#include "litedigest/ld_sha256.h"

enum { CTX_ACTIVE = 1, CTX_FINISHED = 2, CTX_FAILED = 3 };

#define POLL_DELAY_ITERS 16

/* Spin between status polls without touching memory: the counter lives in a register and the
 * empty asm only stops the compiler from deleting the loop. (A volatile counter would be a
 * store per iteration, and with a write-through D-cache every store is a bus write that
 * competes with the peripheral's DMA.) */
static void poll_delay(void)
{
    uint32_t i;
    for (i = 0; i < POLL_DELAY_ITERS; i++)
        __asm__ volatile("");
}

static int dev_ok(const ld_hw_dev *dev)
{
    return dev != NULL && dev->read32 != NULL && dev->write32 != NULL;
}

/* wait for done, check errors, ack */
static int finish_job(const ld_hw_dev *dev, uint32_t levels, uint32_t *status_out)
{
    uint32_t limit = dev->timeout_polls ? dev->timeout_polls : LD_HW_DEFAULT_TIMEOUT_POLLS;
    uint32_t polls = 0, st;
    int r;

    for (;;) {
        st = dev->read32(dev->status);
        if (st & LD_STATUS_DONE) {
            r = (st & LD_STATUS_ERRORS) ? LD_ERR_HW : LD_OK;
            break;
        }
        if (++polls >= limit) {
            r = LD_ERR_TIMEOUT;
            break;
        }
        poll_delay();
    }
    if (status_out)
        *status_out = st;
    dev->write32(dev->ctrl, LD_CTRL_ACK | (levels & LD_CTRL_VARIANT));
    return r;
}

int ld_hw_job_csr(const ld_hw_dev *dev, const uint8_t *block, uint32_t ctrl_levels,
                  uint32_t *status_out)
{
    int i;

    if (!dev_ok(dev) || block == NULL)
        return LD_ERR_ARG;
    ctrl_levels &= LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_VARIANT | LD_CTRL_LOAD_CV;
    for (i = 0; i < 16; i++) {
        const uint8_t *p = block + 4 * i;
        dev->write32(dev->din, ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
                               ((uint32_t)p[2] << 8) | (uint32_t)p[3]);
    }
    dev->write32(dev->ctrl, LD_CTRL_START | ctrl_levels);
    return finish_job(dev, ctrl_levels, status_out);
}

int ld_hw_job_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uint32_t ctrl_levels,
                  uint32_t *status_out)
{
    if (!dev_ok(dev))
        return LD_ERR_ARG;
    ctrl_levels &= LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_VARIANT | LD_CTRL_LOAD_CV;
    if (dev->dma_sync)
        dev->dma_sync();
    dev->write32(dev->dma_base, (uint32_t)addr);
    dev->write32(dev->dma_length, len);
    dev->write32(dev->ctrl, LD_CTRL_DMA_START | ctrl_levels);
    return finish_job(dev, ctrl_levels, status_out);
}

void ld_hw_read_digest_words(const ld_hw_dev *dev, uint32_t words[8])
{
    int i;
    for (i = 0; i < 8; i++)
        words[i] = dev->read32(dev->digest + 4u * (uintptr_t)i);
}

int ld_hw_cycles(const ld_hw_dev *dev, uint64_t *out)
{
    uint32_t hi, lo;

    if (!dev_ok(dev) || out == NULL)
        return LD_ERR_ARG;
    dev->write32(dev->cycles_latch, 1);
    hi = dev->read32(dev->cycles_value);
    lo = dev->read32(dev->cycles_value + 4);
    *out = ((uint64_t)hi << 32) | lo;
    return LD_OK;
}

int ld_hw_sha256_init(ld_hw_sha256_ctx *ctx, const ld_hw_dev *dev, int variant, int path)
{
    if (ctx == NULL || !dev_ok(dev) || ld_sha256_digest_size(variant) == 0 ||
        (path != LD_PATH_CSR && path != LD_PATH_DMA))
        return LD_ERR_ARG;
    ctx->dev = dev;
    ctx->variant = variant;
    ctx->path = path;
    ctx->total = 0;
    ctx->buflen = 0;
    ctx->jobs = 0;
    ctx->state = CTX_ACTIVE;
    /* clean start: clear done/errors and the din word count left by anyone before us */
    dev->write32(dev->ctrl, LD_CTRL_ACK);
    return LD_OK;
}

static uint32_t levels(ld_hw_sha256_ctx *ctx, int last)
{
    uint32_t l = ctx->variant == LD_SHA224 ? LD_CTRL_VARIANT : 0;
    if (ctx->jobs == 0)
        l |= LD_CTRL_FIRST;
    if (last)
        l |= LD_CTRL_LAST;
    return l;
}

static int in_ram(const ld_hw_dev *dev, uintptr_t addr, size_t len)
{
    return len > 0 && addr >= dev->ram_base && addr - dev->ram_base < dev->ram_size &&
           len <= dev->ram_size - (addr - dev->ram_base);
}

/* hash nblocks whole blocks at p through the context's path */
static int run_blocks(ld_hw_sha256_ctx *ctx, const uint8_t *p, size_t nblocks, int last,
                      int own_buffer)
{
    const ld_hw_dev *dev = ctx->dev;
    size_t len = nblocks * 64;
    int r = LD_OK;

    if (nblocks == 0)
        return LD_OK;
    if (ctx->path == LD_PATH_DMA && ((uintptr_t)p & 3u) == 0 && len <= 0xffffffc0u &&
        in_ram(dev, (uintptr_t)p, len)) {
        r = ld_hw_job_dma(dev, (uintptr_t)p, (uint32_t)len, levels(ctx, last), NULL);
        ctx->jobs++;
        return r;
    }
    if (ctx->path == LD_PATH_DMA && !own_buffer && !in_ram(dev, (uintptr_t)p, len))
        return LD_ERR_RANGE;
    /* CSR path, or DMA path with unaligned data / a context outside the DMA range */
    while (nblocks-- && r == LD_OK) {
        r = ld_hw_job_csr(dev, p, levels(ctx, last && nblocks == 0), NULL);
        ctx->jobs++;
        p += 64;
    }
    return r;
}

static int check_ctx(const ld_hw_sha256_ctx *ctx)
{
    if (ctx == NULL)
        return LD_ERR_ARG;
    if (ctx->state != CTX_ACTIVE)
        return LD_ERR_STATE;
    return LD_OK;
}

static int fail(ld_hw_sha256_ctx *ctx, int r)
{
    if (r != LD_OK)
        ctx->state = CTX_FAILED;
    return r;
}

int ld_hw_sha256_update(ld_hw_sha256_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    uint8_t *buf;
    int r = check_ctx(ctx);

    if (r != LD_OK)
        return r;
    if (data == NULL && len > 0)
        return LD_ERR_ARG;
    buf = (uint8_t *)ctx->buf;
    ctx->total += len;
    if (ctx->buflen) {
        size_t n = 64 - ctx->buflen;
        if (n > len)
            n = len;
        ld_copy(buf + ctx->buflen, p, n);
        ctx->buflen += (uint32_t)n;
        p += n;
        len -= n;
        if (ctx->buflen < 64)
            return LD_OK;
        r = run_blocks(ctx, buf, 1, 0, 1);
        ctx->buflen = 0;
        if (r != LD_OK)
            return fail(ctx, r);
    }
    if (len >= 64) {
        size_t nb = len / 64;
        r = run_blocks(ctx, p, nb, 0, 0);
        if (r != LD_OK)
            return fail(ctx, r);
        p += nb * 64;
        len -= nb * 64;
    }
    if (len) {
        ld_copy(buf, p, len);
        ctx->buflen = (uint32_t)len;
    }
    return LD_OK;
}

int ld_hw_sha256_final(ld_hw_sha256_ctx *ctx, uint8_t *out)
{
    uint32_t words[8];
    size_t n, i, nw;
    int r = check_ctx(ctx);

    if (r != LD_OK)
        return r;
    if (out == NULL)
        return LD_ERR_ARG;
    n = ld_md_pad((uint8_t *)ctx->pad, (const uint8_t *)ctx->buf, ctx->buflen, ctx->total, 64);
    if (n == 0)
        return fail(ctx, LD_ERR_ARG);
    r = run_blocks(ctx, (const uint8_t *)ctx->pad, n / 64, 1, 1);
    if (r != LD_OK)
        return fail(ctx, r);
    ld_hw_read_digest_words(ctx->dev, words);
    nw = ctx->variant == LD_SHA224 ? 7 : 8;
    for (i = 0; i < nw; i++) {
        out[4 * i] = (uint8_t)(words[i] >> 24);
        out[4 * i + 1] = (uint8_t)(words[i] >> 16);
        out[4 * i + 2] = (uint8_t)(words[i] >> 8);
        out[4 * i + 3] = (uint8_t)words[i];
    }
    ctx->state = CTX_FINISHED;
    return LD_OK;
}

int ld_hw_sha256(const ld_hw_dev *dev, int variant, int path, const void *data, size_t len,
                 uint8_t *out)
{
    ld_hw_sha256_ctx ctx;
    int r = ld_hw_sha256_init(&ctx, dev, variant, path);
    if (r == LD_OK)
        r = ld_hw_sha256_update(&ctx, data, len);
    if (r == LD_OK)
        r = ld_hw_sha256_final(&ctx, out);
    return r;
}
