/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: driver for the hash peripherals (soc/REGISTERS.md), every algorithm.
 *
 * Jobs: the first job of a message sets ctrl.first (start from the variant's IV); later jobs
 * set neither first nor load_cv and continue from the slot's chaining value. The final job
 * (padded tail, from the context's own aligned buffer) sets ctrl.last; on the DMA path it is
 * the tail segment of the job that carries the message's whole blocks, when there are any.
 * After each job: poll until its slot is done (bounded by timeout_polls, with a short delay
 * between polls so the CPU does not compete with the DMA for the bus, or the device's wait
 * hook between reads when it waits by interrupt), check the error bits, and always ack.
 */
#include "ld_hw_internal.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_skein.h"
#include "litedigest/ld_pad.h"

enum { CTX_ACTIVE = 1, CTX_FINISHED = 2, CTX_FAILED = 3 };

static int dev_ok(const ld_hw_dev *dev)
{
    return LD_HAL_OK(dev);
}

LD_HOT(hw_poll)
uint32_t ld_hw_poll(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask)
{
    return ld_poll_n(dev, reg, mask, 0xffffffffu);
}

/* A wait that ld_hw_poll's first LD_HW_FIRST_POLLS polls did not end: the rest of the bound,
 * in stretches of LD_HW_ALIVE_POLLS with a look at busy_reg between them. */
uint32_t ld_hw_poll_rest(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uintptr_t busy_reg,
                         uint32_t busy_mask, int *lost)
{
    uint32_t limit = dev->timeout_polls ? dev->timeout_polls : LD_HW_DEFAULT_TIMEOUT_POLLS;
    uint32_t polls = LD_HW_FIRST_POLLS, v;

    *lost = 0;
    while (polls < limit) {
        if (busy_reg && !(LD_RD32(dev, busy_reg) & busy_mask)) {
            v = LD_RD32(dev, reg);
            if (v & mask)
                return v;
            *lost = 1; /* neither running nor done: gone (a reset) */
            return 0;
        }
        v = ld_poll_n(dev, reg, mask, LD_HW_ALIVE_POLLS);
        if (v)
            return v;
        polls += LD_HW_ALIVE_POLLS;
    }
    return 0;
}

uint32_t ld_hw_poll_jobs(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uintptr_t busy_reg,
                         uint32_t busy_mask, int *lost)
{
    int gone = 0;
    uint32_t v = ld_poll_jobs(dev, reg, mask, busy_reg, busy_mask, &gone);

    if (lost)
        *lost = v ? 0 : gone;
    return v;
}

int ld_hw_irq_enable(const ld_hw_dev *dev, int on)
{
    if (!dev_ok(dev) || !dev->ev_pending || !dev->ev_enable)
        return LD_ERR_ARG;
    LD_WR32(dev, dev->ev_enable, 0);
    LD_WR32(dev, dev->ev_pending, LD_EV_DONE | LD_EV_BATCH); /* write 1 to clear */
    if (on)
        LD_WR32(dev, dev->ev_enable, LD_EV_DONE | (dev->batch_base ? LD_EV_BATCH : 0u));
    return LD_OK;
}

uint32_t ld_hw_irq_ack(const ld_hw_dev *dev)
{
    uint32_t ev;

    if (!dev_ok(dev) || !dev->ev_pending)
        return 0;
    ev = LD_RD32(dev, dev->ev_pending);
    if (ev)
        LD_WR32(dev, dev->ev_pending, ev);
    return ev;
}

int ld_hw_get_info(const ld_hw_dev *dev, ld_hw_info *info)
{
    uint32_t v;

    if (!dev_ok(dev) || info == NULL)
        return LD_ERR_ARG;
    v = LD_RD32(dev, dev->info);
    info->latency = LD_INFO_LATENCY(v);
    info->stages = LD_INFO_STAGES(v);
    info->slots = LD_INFO_SLOTS(v);
    info->arch = LD_INFO_ARCH(v);
    info->dma_align = 1u << LD_INFO_ALIGN_LOG2(v);
    if (info->stages == 0 || info->slots == 0 || info->latency == 0)
        return LD_ERR_HW; /* not a hash peripheral (or not powered) */
    if (info->arch >= LD_ARCH_SKEIN_R1) {
        /* Skein: a block takes the whole latency in every architecture; the slots are the
         * blocks in flight (P ring stages x M modules) */
        info->in_flight = info->slots;
        info->period = info->latency;
    } else {
        info->in_flight = info->stages;
        info->period = info->stages > 1 ? info->latency - 1 : info->latency;
    }
    info->interval = info->period / info->in_flight;
    return LD_OK;
}

/* the slots_* register word of a slot (ld_slot_word), the slot count from the info register */
static uintptr_t slot_word(const ld_hw_dev *dev, uintptr_t reg, unsigned slot)
{
    return ld_slot_word(reg, LD_INFO_SLOTS(LD_RD32(dev, dev->info)), slot);
}

static unsigned levels_slot(uint32_t levels)
{
    return (unsigned)((levels & LD_CTRL_SLOT_MASK) >> LD_CTRL_SLOT_BIT);
}

/* after a start: a rejected job sets done + an error bit at once and never runs */
static int check_started(const ld_hw_dev *dev, uint32_t *status_out)
{
    uint32_t st = LD_RD32(dev, dev->status);
    if (status_out)
        *status_out = st;
    if (st & LD_STATUS_ERRORS) {
        LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
        return LD_ERR_HW;
    }
    return LD_OK;
}

/* wait for the slot's job, check errors, ack */
static int finish_job(const ld_hw_dev *dev, uint32_t levels, uint32_t *status_out)
{
    unsigned slot = levels_slot(levels);
    uint32_t bit = 1u << (slot % 32u);
    uintptr_t off = slot_word(dev, 0, slot);
    int lost;
    uint32_t done =
        ld_poll_jobs(dev, dev->slots_done + off, bit, dev->slots_busy + off, bit, &lost);
    uint32_t st;
    int r;

    LD_PROF(LD_PROF_DONE);
    st = LD_RD32(dev, dev->status);
    r = done ? ((st & LD_STATUS_ERRORS) ? LD_ERR_HW : LD_OK) : lost ? LD_ERR_HW : LD_ERR_TIMEOUT;
    if (status_out)
        *status_out = st;
    LD_WR32(dev, dev->slots_ack + off, bit);
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    LD_PROF(LD_PROF_ACKED);
    return r;
}

int ld_hw_start_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                    uint32_t ctrl_levels, uint32_t *status_out)
{
    size_t i;

    if (!dev_ok(dev) || block == NULL || (block_size != 64 && block_size != 128))
        return LD_ERR_ARG;
    ctrl_levels &= LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_LOAD_CV | LD_CTRL_VARIANT_MASK |
                   LD_CTRL_SLOT_MASK | LD_CTRL_KEY_MASK | LD_CTRL_KEY_INIT;
    for (i = 0; i < block_size; i += 4) {
        const uint8_t *p = block + i;
        LD_WR32(dev, dev->din,
                ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
                    (uint32_t)p[3]);
    }
    LD_WR32(dev, dev->ctrl, LD_CTRL_START | ctrl_levels);
    return check_started(dev, status_out);
}

int ld_hw_start_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                    uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out)
{
    if (!dev_ok(dev))
        return LD_ERR_ARG;
    ctrl_levels &= LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_LOAD_CV | LD_CTRL_VARIANT_MASK |
                   LD_CTRL_SLOT_MASK | LD_CTRL_HOLD | LD_CTRL_OUT | LD_CTRL_PAD | LD_CTRL_KEY_MASK;
    if (dev->dma_sync)
        dev->dma_sync();
    LD_WR32(dev, dev->dma_base, (uint32_t)addr);
    LD_WR32(dev, dev->dma_length, len);
    if (tail_len) {
        LD_WR32(dev, dev->tail_base, (uint32_t)tail_addr);
        LD_WR32(dev, dev->tail_length, tail_len);
        ctrl_levels |= LD_CTRL_TAIL;
    }
    LD_WR32(dev, dev->ctrl, LD_CTRL_DMA_START | ctrl_levels);
    return check_started(dev, status_out);
}

int ld_hw_job_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                  uint32_t ctrl_levels, uint32_t *status_out)
{
    int r = ld_hw_start_csr(dev, block, block_size, ctrl_levels, status_out);
    LD_PROF(LD_PROF_STARTED);
    return r == LD_OK ? finish_job(dev, ctrl_levels, status_out) : r;
}

int ld_hw_job_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                  uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out)
{
    int r = ld_hw_start_dma(dev, addr, len, tail_addr, tail_len, ctrl_levels, status_out);
    LD_PROF(LD_PROF_STARTED);
    return r == LD_OK ? finish_job(dev, ctrl_levels, status_out) : r;
}

void ld_hw_read_digest_words(const ld_hw_dev *dev, unsigned slot, uint32_t *words, size_t nwords)
{
    size_t i;
    LD_WR32(dev, dev->digest_sel, slot);
    for (i = 0; i < nwords; i++)
        words[i] = LD_RD32(dev, dev->digest + 4u * (uintptr_t)i);
}

LD_HOT(hw_cycles)
int LD_UNLOCKED(ld_hw_cycles)(const ld_hw_dev *dev, uint64_t *out)
{
    if (!dev_ok(dev) || out == NULL)
        return LD_ERR_ARG;
    ld_cycles_latch(dev);
    *out = ld_cycles_latched(dev);
    return LD_OK;
}

int ld_hw_dma_ok(const ld_hw_dev *dev, uintptr_t addr, size_t len, uint32_t align)
{
    return ld_dma_range_ok(dev, addr, len, align);
}

/* --- single-message streaming --------------------------------------------------------- */

int LD_UNLOCKED(ld_hw_md_init)(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path)
{
    if (ctx == NULL || !dev_ok(dev) || ld_md_block_size(alg) == 0 ||
        ld_md_family(alg) != dev->family)
        return LD_ERR_ARG;
    return ld_hw_md_setup(ctx, dev, alg, path);
}

int ld_hw_md_setup(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path)
{
    ld_hw_info info;

    if (ctx == NULL || !dev_ok(dev) || ld_md_block_size(alg) == 0 ||
        (path != LD_PATH_CSR && path != LD_PATH_DMA))
        return LD_ERR_ARG;
    ctx->dev = dev;
    ctx->start_cv = NULL;
    ctx->start_levels = 0;
    ctx->alg = alg;
    ctx->path = path;
    ctx->total = 0;
    ctx->buflen = 0;
    ctx->jobs = 0;
    ctx->align = ld_hw_get_info(dev, &info) == LD_OK ? info.dma_align : 4u;
#if LD_CONFIG_HOST
    ctx->cv_here = 0;
    if (path == LD_PATH_DMA && dev->dma_write &&
        (dev->stage_size < 2 * ld_md_block_size(alg) ||
         !ld_hw_dma_ok(dev, dev->stage_base, dev->stage_size, ctx->align)))
        return LD_ERR_ARG; /* no usable staging area */
#endif
    ctx->state = CTX_ACTIVE;
    /* clean start: clear done/errors and the din word count left by anyone before us */
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    LD_WR32(dev, slot_word(dev, dev->slots_ack, 0), 1u);
    return LD_OK;
}

LD_HOT(hal_mmio_read32)
uint32_t ld_hal_mmio_read32(uintptr_t addr)
{
    return *(volatile const uint32_t *)addr;
}

LD_HOT(hal_mmio_write32)
void ld_hal_mmio_write32(uintptr_t addr, uint32_t value)
{
    *(volatile uint32_t *)addr = value;
}

LD_HOT(hal_dcache_evict)
void ld_hal_dcache_evict(uintptr_t addr, size_t len)
{
    uintptr_t a = addr & ~(uintptr_t)(LD_HW_DCACHE_LINE - 1);

    for (; a < addr + len; a += LD_HW_DCACHE_LINE)
        (void)*(volatile const uint32_t *)(a ^ LD_HW_DCACHE_SIZE);
}

static void load_cv(const ld_hw_dev *dev, const uint32_t *words, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        LD_WR32(dev, dev->cv + 4u * (uintptr_t)i, words[i]);
}

static uint32_t levels(ld_hw_md_ctx *ctx, int last)
{
    uint32_t l = LD_CTRL_VARIANT_VAL(ld_md_variant(ctx->alg)) | ctx->start_levels;
    if (ctx->jobs == 0 && ctx->start_cv) { /* a keyed hash: from the key's state */
        load_cv(ctx->dev, ctx->start_cv, ld_md_state_words(ctx->alg));
        l |= LD_CTRL_LOAD_CV;
    } else if (ctx->jobs == 0)
        l |= LD_CTRL_FIRST;
#if LD_CONFIG_HOST
    else if (ctx->cv_here) { /* a shared peripheral: resume from the context's value */
        load_cv(ctx->dev, ctx->cv, ld_md_state_words(ctx->alg));
        ctx->cv_here = 0;
        l |= LD_CTRL_LOAD_CV;
    }
#endif
    if (last)
        l |= LD_CTRL_LAST;
    return l;
}

#if LD_CONFIG_HOST
/* The DMA path of a host the DMA cannot read: each job's blocks (the data, then the tail
 * when it fits) are copied to the staging area and hashed from there. */
static int run_staged(ld_hw_md_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                      size_t ntail, int last)
{
    const ld_hw_dev *dev = ctx->dev;
    size_t bs = ld_md_block_size(ctx->alg);
    size_t room = dev->stage_size / bs; /* blocks per job: >= 2, checked at init */
    int r = LD_OK;

    while ((nblocks || ntail) && r == LD_OK) {
        size_t n = nblocks < room ? nblocks : room;
        size_t t = (n == nblocks && n + ntail <= room) ? ntail : 0;
        if (n)
            dev->dma_write(dev->stage_base, p, n * bs);
        if (t)
            dev->dma_write(dev->stage_base + n * bs, tail, t * bs);
        nblocks -= n;
        ntail -= t;
        p += n * bs;
        r = ld_hw_job_dma(dev, dev->stage_base, (uint32_t)((n + t) * bs), 0, 0,
                          levels(ctx, last && nblocks == 0 && ntail == 0), NULL);
        ctx->jobs++;
    }
    return r;
}

/* a shared peripheral: keep the chaining value in the context once this call's jobs ran (a
 * MAC peripheral shows no chaining value: its contexts own slot 0 until final) */
static void save_cv(ld_hw_md_ctx *ctx, uint32_t jobs_before)
{
    if ((ctx->dev->flags & LD_HW_SHARED) && ctx->jobs != jobs_before &&
        !ld_mac_family(ctx->dev->family, NULL, NULL)) {
        ld_hw_read_digest_words(ctx->dev, 0, ctx->cv, ld_md_state_words(ctx->alg));
        ctx->cv_here = 1;
    }
}
#endif

/* hash nblocks whole blocks at p (then the tail blocks at tail, when ntail > 0) */
static int run_blocks(ld_hw_md_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                      size_t ntail, int last, int own_buffer)
{
    const ld_hw_dev *dev = ctx->dev;
    size_t bs = ld_md_block_size(ctx->alg);
    size_t len = nblocks * bs, tlen = ntail * bs;
    int dma_p = nblocks && ld_hw_dma_ok(dev, (uintptr_t)p, len, ctx->align);
    int dma_t = ntail && ld_hw_dma_ok(dev, (uintptr_t)tail, tlen, ctx->align);
    int r = LD_OK;

#if LD_CONFIG_HOST
    if (ctx->path == LD_PATH_DMA && dev->dma_write)
        return run_staged(ctx, p, nblocks, tail, ntail, last);
#endif
    if (ctx->path == LD_PATH_DMA && nblocks && !own_buffer &&
        !ld_hw_dma_ok(dev, (uintptr_t)p, len, 1))
        return LD_ERR_RANGE;
    if (ctx->path == LD_PATH_DMA && (dma_p || (!nblocks && dma_t))) {
        /* one job: the whole blocks, with the tail as second segment when it is DMA-readable */
        const uint8_t *a = nblocks ? p : tail;
        size_t alen = nblocks ? len : tlen;
        int with_tail = nblocks && dma_t;
        r = ld_hw_job_dma(dev, (uintptr_t)a, (uint32_t)alen, with_tail ? (uintptr_t)tail : 0,
                          with_tail ? (uint32_t)tlen : 0,
                          levels(ctx, last && (with_tail || !ntail || !nblocks)), NULL);
        ctx->jobs++;
        if (r != LD_OK || with_tail || !nblocks)
            return r;
        nblocks = 0; /* the tail still has to go, through the CSR path */
    }
    /* CSR path, or DMA path with unaligned data / a context outside the DMA range */
    while (nblocks-- && r == LD_OK) {
        r = ld_hw_job_csr(dev, p, bs, levels(ctx, last && nblocks == 0 && !ntail), NULL);
        ctx->jobs++;
        p += bs;
    }
    while (ntail-- && r == LD_OK) {
        r = ld_hw_job_csr(dev, tail, bs, levels(ctx, last && ntail == 0), NULL);
        ctx->jobs++;
        tail += bs;
    }
    return r;
}

static int check_ctx(const ld_hw_md_ctx *ctx)
{
    if (ctx == NULL)
        return LD_ERR_ARG;
    if (ctx->state != CTX_ACTIVE)
        return LD_ERR_STATE;
    return LD_OK;
}

static int fail(ld_hw_md_ctx *ctx, int r)
{
    if (r != LD_OK)
        ctx->state = CTX_FAILED;
    return r;
}

/* ld_absorb's block sink: whole blocks of the message through the context's path */
static int absorb_blocks(void *ctx, const uint8_t *p, size_t nblocks, int from_buf)
{
    return run_blocks((ld_hw_md_ctx *)ctx, p, nblocks, NULL, 0, 0, from_buf);
}

int LD_UNLOCKED(ld_hw_md_update)(ld_hw_md_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    size_t bs;
    int r = check_ctx(ctx);

    if (r != LD_OK)
        return r;
    if (data == NULL && len > 0)
        return LD_ERR_ARG;
    bs = ld_md_block_size(ctx->alg);
    ctx->total += len;
#if LD_CONFIG_HOST
    {
        uint32_t jobs_before = ctx->jobs;
        r = ld_absorb(ctx->buf, &ctx->buflen, bs, p, len, absorb_blocks, ctx);
        if (r == LD_OK)
            save_cv(ctx, jobs_before);
    }
#else
    r = ld_absorb(ctx->buf, &ctx->buflen, bs, p, len, absorb_blocks, ctx);
#endif
    return r == LD_OK ? r : fail(ctx, r);
}

#if LD_CONFIG_HOST
int ld_hw_md_copy(ld_hw_md_ctx *dst, const ld_hw_md_ctx *src)
{
    if (dst == NULL || src == NULL)
        return LD_ERR_ARG;
    if (src->state != CTX_ACTIVE || !(src->dev->flags & LD_HW_SHARED) ||
        ld_mac_family(src->dev->family, NULL, NULL))
        return LD_ERR_STATE;
    if (dst != src)
        ld_copy((uint8_t *)dst, (const uint8_t *)src, sizeof *dst);
    return LD_OK;
}
#endif

/* the message's last job has run: read slot 0's chaining value as the digest */
static int finish_digest(ld_hw_md_ctx *ctx, uint8_t *out)
{
    uint32_t words[LD_MD_MAX_STATE_WORDS];

    ld_hw_read_digest_words(ctx->dev, 0, words, ld_md_state_words(ctx->alg));
    ld_digest_bytes(ld_md_digest_size(ctx->alg), words, out);
    LD_PROF(LD_PROF_DIGEST);
    ctx->state = CTX_FINISHED;
    return LD_OK;
}

int LD_UNLOCKED(ld_hw_md_final)(ld_hw_md_ctx *ctx, uint8_t *out)
{
    size_t n, bs;
    int r = check_ctx(ctx);

    if (r != LD_OK)
        return r;
    if (out == NULL)
        return LD_ERR_ARG;
    bs = ld_md_block_size(ctx->alg);
    n = ld_md_pad(ctx->pad, ctx->buf, ctx->buflen, ctx->total, bs);
    LD_PROF(LD_PROF_PADDED);
    if (n == 0)
        return fail(ctx, LD_ERR_ARG);
    r = run_blocks(ctx, NULL, 0, ctx->pad, n / bs, 1, 1);
    if (r != LD_OK)
        return fail(ctx, r);
    return finish_digest(ctx, out);
}

#ifdef LD_ONESHOT_FAST
/* The one-shot DMA call on the firmware's CPU, for a peripheral with hardware padding
 * (batch_base set: ctrl.pad): the whole message is one `pad` job on slot 0 (ld_oneshot_job),
 * its status checked once at the end (a rejected job is done at once with an error bit), the
 * digest stored a word at a time. Taken when the message is aligned to the block (every
 * peripheral's DMA alignment is at most its block) and in the DMA's range; anything else, and
 * a peripheral without hardware padding, goes the general way (md_general, as a tail call).
 * Written for the cost of a short message (profiled with `litedigest bench --backend soc
 * --profile`): with the library's own MMIO HAL (ld_hal_mmio_*, what LiteX firmware passes)
 * and no dma_sync hook (a write-through or no cache: LiteX without an L2)
 * it is a leaf that touches the registers directly and calls nothing, so it saves no
 * registers on the stack (every store is a bus write through VexRiscv's write-through data
 * cache) and stays a small block of code for the 4 KiB direct-mapped instruction cache; an
 * indirect call per register access, the general path's context on the stack and the calls to
 * the table lookup cost more than the engine on a 64-byte message. With a one-shot area
 * (LD_ONESHOT_WALK_OK) the job is a batch of one descriptor whose chaining value the
 * peripheral writes to RAM (ld_oneshot_walk_start), its cache lines evicted one by one
 * (dma_inval_range), not the whole data cache. */
static int md_general(const ld_hw_dev *dev, int alg, int path, const void *data, size_t len,
                      uint8_t *out);

static inline __attribute__((always_inline)) int oneshot_body(const ld_hw_dev *dev, int alg,
                                                              const uint8_t *p, size_t len,
                                                              uint8_t *out, const int mmio)
{
    ld_md_facts f;

    if (!dev->batch_base || !ld_md_lookup(alg, &f) || f.family != dev->family ||
        !LD_ONESHOT_MSG_OK(dev, p, len, (size_t)1 << f.block_shift))
        return md_general(dev, alg, LD_PATH_DMA, p, len, out); /* a tail call */
    LD_PROF(LD_PROF_PADDED);
    if (LD_ONESHOT_WALK_OK(dev)) {
        int direct = LD_ONESHOT_DIRECT(dev, &f, out);
        if (ld_oneshot_walk_start(dev, &f, p, len,
                                  direct ? (uintptr_t)out : (uintptr_t)dev->oneshot_area->cv,
                                  mmio) != LD_OK)
            return LD_ERR_HW;
        return ld_oneshot_walk_end(dev, f.digest_size, out, direct, mmio); /* a tail call */
    }
    return ld_oneshot_job(dev, &f, 0, p, len, out, mmio);
}

/* the batch ended, or its start was refused (another batch runs: err_state, not done) */
#define WALK_ENDED (LD_BATCH_STATUS_DONE | LD_BATCH_STATUS_ERR_STATE)

LD_HOT(oneshot_walk_end)
int ld_oneshot_walk_end(const ld_hw_dev *dev, size_t digest_size, uint8_t *out, int direct,
                        int mmio)
{
    const uint32_t *cv = dev->oneshot_area->cv;
    uint32_t st = 0;
    size_t k;
    int r;

    /* while the walker runs (the CPU reads none of the chaining value until it has ended) */
    if (dev->dma_inval_range)
        dev->dma_inval_range(direct ? (uintptr_t)out : (uintptr_t)cv, digest_size);
    /* (two instances: each a bare loop, as the register job's) */
    r = mmio ? ld_oneshot_wait(dev, dev->batch_status, WALK_ENDED, dev->batch_status,
                               LD_BATCH_STATUS_BUSY, 1, &st)
             : ld_oneshot_wait(dev, dev->batch_status, WALK_ENDED, dev->batch_status,
                               LD_BATCH_STATUS_BUSY, 0, &st);
    LD_PROF(LD_PROF_DONE);
    if (r == LD_ERR_TIMEOUT)
        return r; /* the batch still runs: nothing is acknowledged */
    ONESHOT_WR(dev->ctrl, LD_CTRL_ACK);
    LD_PROF(LD_PROF_ACKED);
    if (r != LD_OK || (st & LD_BATCH_STATUS_ERRORS))
        return LD_ERR_HW;
#if defined(__GNUC__)
    /* the chaining value read after the status that says it is written (a CPU whose DMA is
     * coherent has no inval call in between) */
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
    if (direct) {
        LD_PROF(LD_PROF_DIGEST);
        return LD_OK; /* the peripheral wrote the digest to out */
    }
    if (((uintptr_t)out & 3u) == 0) {
        /* (word copies: each store is a bus write through a write-through cache) */
        for (k = 0; k < digest_size / 4u; k++)
            ((uint32_t *)(void *)out)[k] = cv[k];
    } else {
        for (k = 0; k < digest_size; k++)
            out[k] = ((const uint8_t *)cv)[k];
    }
    LD_PROF(LD_PROF_DIGEST);
    return LD_OK;
}

__attribute__((noinline))
LD_HOT(oneshot_mmio) static int oneshot_mmio(const ld_hw_dev *dev, int alg, const uint8_t *p,
                                             size_t len, uint8_t *out)
{
    return oneshot_body(dev, alg, p, len, out, 1);
}

__attribute__((noinline)) static int oneshot_hal(const ld_hw_dev *dev, int alg, const uint8_t *p,
                                                 size_t len, uint8_t *out)
{
    return oneshot_body(dev, alg, p, len, out, 0);
}
#endif

/* --- batches ------------------------------------------------------------------------------ */

/* (in the hot block: the scheduler's batch executor calls it in its timed window) */
LD_HOT(alg_facts)
int ld_hw_alg_facts(int alg, ld_md_facts *f)
{
    if (ld_md_lookup(alg, f))
        return 1;
#if LD_CONFIG_SKEIN512
    /* (the sizes from the catalogue, not skein_sw.c's IV table: the scheduler's timed batch
     * path calls this once per run of messages of one alg, and reads no table) */
    if (alg > LD_ALG_SKEIN512_BASE) {
#define LD_SIZE_CASE(bits, v)                                                                      \
    case bits:                                                                                     \
        f->variant = v;                                                                            \
        break;
        switch (alg - LD_ALG_SKEIN512_BASE) {
            LD_SKEIN512_SIZES(LD_SIZE_CASE)
        default:
            return 0;
        }
#undef LD_SIZE_CASE
        f->family = LD_FAMILY_SKEIN512;
        f->digest_size = (uint8_t)((alg - LD_ALG_SKEIN512_BASE) / 8);
        f->block_shift = 6;
        return 1;
    }
#endif
    return 0;
}

size_t ld_hw_batch_stride(int alg)
{
    ld_md_facts f;

    return ld_hw_alg_facts(alg, &f) ? ld_batch_stride(f.family) : 0;
}

int ld_batch_desc_fill(ld_hw_batch_desc *d, const ld_hw_dev *dev, const ld_md_facts *f,
                       uint32_t align, uintptr_t msg, size_t len, uintptr_t out)
{
    size_t stride;
    int r;

    if (d == NULL || f->family != dev->family)
        return LD_ERR_ARG;
    stride = ld_batch_stride(f->family);
    r = ld_batch_msg_check(dev, align, msg, len);
    if (r == LD_OK && !ld_hw_dma_ok(dev, out, stride, (uint32_t)stride))
        r = LD_ERR_RANGE;
    if (r == LD_OK)
        ld_batch_desc_write(d, len ? msg : dev->ram_base, len, out, f->variant);
    return r;
}

int ld_hw_batch_desc_set(ld_hw_batch_desc *d, const ld_hw_dev *dev, int alg, uintptr_t msg,
                         size_t len, uintptr_t out)
{
    ld_hw_info info;
    ld_md_facts f;

    if (!dev_ok(dev) || !dev->batch_base)
        return LD_ERR_ARG;
    if (ld_hw_get_info(dev, &info) != LD_OK)
        return LD_ERR_HW;
    if (!ld_hw_alg_facts(alg, &f))
        return LD_ERR_ARG;
    return ld_batch_desc_fill(d, dev, &f, info.dma_align, msg, len, out);
}

/* (in the hot block: a caller times it, and its code elsewhere would evict the timed code's
 * lines in the direct-mapped instruction cache, e.g. the irq app's trap vector) */
LD_HOT(batch_run)
int LD_UNLOCKED(ld_hw_md_batch_run)(const ld_hw_dev *dev, uintptr_t table, size_t n, size_t *done)
{
    if (done)
        *done = 0;
    if (!dev_ok(dev) || !dev->batch_base || n > 0xffffffffu ||
        (n && !ld_hw_dma_ok(dev, table, n * sizeof(ld_hw_batch_desc), LD_HW_BATCH_DESC_ALIGN)))
        return LD_ERR_ARG;
    ld_batch_load(dev, table, n);
    LD_WR32(dev, dev->ctrl, LD_CTRL_BATCH_START);
    return ld_batch_wait(dev, done, 1);
}

LD_HOT(batch_load)
void ld_batch_load(const ld_hw_dev *dev, uintptr_t table, size_t n)
{
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    LD_WR32(dev, dev->batch_base, (uint32_t)table);
    LD_WR32(dev, dev->batch_count, (uint32_t)n);
}

LD_HOT(batch_wait)
int ld_batch_wait(const ld_hw_dev *dev, size_t *done, int inval)
{
    int lost;
    uint32_t st = ld_poll_jobs(dev, dev->batch_status, LD_BATCH_STATUS_DONE, dev->batch_status,
                               LD_BATCH_STATUS_BUSY, &lost);

    if (done)
        *done = LD_RD32(dev, dev->batch_progress);
    if (st == 0 && lost)
        return LD_ERR_HW; /* neither running nor done: the SoC was reset under it */
    if (st == 0)
        return LD_ERR_TIMEOUT; /* the batch still runs: nothing is acknowledged */
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    if (inval && dev->dma_inval)
        dev->dma_inval();
    return st & LD_BATCH_STATUS_ERRORS ? LD_ERR_HW : LD_OK;
}

/* ld_hw_md through a context (every path, any alignment): its own function, so that the
 * context's stack frame is not set up for the one-shot fast path */
__attribute__((noinline)) static int md_general(const ld_hw_dev *dev, int alg, int path,
                                                const void *data, size_t len, uint8_t *out)
{
    ld_hw_md_ctx ctx;
    int r = LD_UNLOCKED(ld_hw_md_init)(&ctx, dev, alg, path);

    LD_PROF(LD_PROF_SETUP);
    if (r == LD_OK && ((data == NULL && len > 0) || out == NULL))
        r = LD_ERR_ARG;
    if (r == LD_OK && path == LD_PATH_DMA) {
        /* one job: the whole blocks straight from the caller's buffer, the padded tail (in
         * ctx.pad) as its second segment when the DMA can read it; run_blocks falls back to
         * the CSR path for what it cannot */
        const uint8_t *p = (const uint8_t *)data;
        size_t bs = ld_md_block_size(alg), whole = len / bs, rest = len % bs;
        size_t n = ld_md_pad(ctx.pad, rest ? p + whole * bs : NULL, rest, (uint64_t)len, bs);
        LD_PROF(LD_PROF_PADDED);
        if (n == 0)
            return LD_ERR_ARG;
        ctx.total = len;
        r = run_blocks(&ctx, p, whole, ctx.pad, n / bs, 1, 0);
        return r == LD_OK ? finish_digest(&ctx, out) : r;
    }
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_md_update)(&ctx, data, len);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_md_final)(&ctx, out);
    return r;
}

LD_HOT(hw_md)
int LD_UNLOCKED(ld_hw_md)(const ld_hw_dev *dev, int alg, int path, const void *data, size_t len,
                          uint8_t *out)
{
#ifdef LD_ONESHOT_FAST
    /* tail calls all: this function keeps nothing on the stack */
    if (path == LD_PATH_DMA && LD_HAL_OK(dev) && out != NULL && data != NULL) {
        if (LD_OWN_MMIO(dev))
            return oneshot_mmio(dev, alg, (const uint8_t *)data, len, out);
        return oneshot_hal(dev, alg, (const uint8_t *)data, len, out);
    }
#endif
    return md_general(dev, alg, path, data, len, out);
}
