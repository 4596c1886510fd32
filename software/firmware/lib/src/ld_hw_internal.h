/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: what the driver's sources share (jobs, batches, MAC keys, the
 * scheduler's executor, Skein on a peripheral): the register HAL, waits, the cycle counter,
 * batch descriptors and the one-shot DMA job; on top of the software layer's
 * ld_sw_internal.h. */
#ifndef LITEDIGEST_LD_HW_INTERNAL_H
#define LITEDIGEST_LD_HW_INTERNAL_H

#include "ld_sw_internal.h"
#include "litedigest/ld_hw.h"

LD_LOCKED_HW(LD_DECLARE_UNLOCKED)
LD_LOCKED_CYCLES(LD_DECLARE_UNLOCKED)

/* A MAC peripheral's family (LD_MAC_FAMILIES): the hash algorithm its cores run (its block,
 * state and digest sizes) and its key slots; 0 for any other family. */
static inline int ld_mac_family(int family, int *alg, unsigned *key_slots)
{
#define LD_X_MAC(f, a, k)                                                                          \
    if (family == (f)) {                                                                           \
        if (alg)                                                                                   \
            *alg = (a);                                                                            \
        if (key_slots)                                                                             \
            *key_slots = (k);                                                                      \
        return 1;                                                                                  \
    }
    LD_MAC_FAMILIES(LD_X_MAC)
#undef LD_X_MAC
    return 0;
}

/* md_hw.c's context set-up (ld_hw_md_init without its family check), for the MAC and HMAC
 * contexts of hmac_hw.c */
int ld_hw_md_setup(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path);

/* ld_hw_dma_ok's test, inline for the one-shot path */
static inline int ld_dma_range_ok(const ld_hw_dev *dev, uintptr_t addr, size_t len, uint32_t align)
{
    return len > 0 && len <= 0xffffff80u && align && (addr & (align - 1u)) == 0 &&
           addr >= dev->ram_base && addr - dev->ram_base < dev->ram_size &&
           len <= dev->ram_size - (addr - dev->ram_base);
}

/* The code a timed call runs on the firmware's CPU (the one-shot DMA path, the counter, the
 * batch executor and its waits), in sections of their own that the apps' linker script
 * (software/firmware/apps/linker.ld) puts together at the start of .text: one contiguous
 * block of under 4 KiB, so that in VexRiscv's direct-mapped 4 KiB instruction cache none of
 * it evicts another part, wherever the rest of the library and the app land (without this the
 * 64-byte call moved by tens of cycles with edits elsewhere). Other toolchains ignore it. */
#if defined(__GNUC__) && defined(__ELF__) && !LD_CONFIG_HOST
#define LD_HOT(name) __attribute__((section(".text.hot.ld_" #name)))
#else
#define LD_HOT(name)
#endif

/* Profiling marks (ld_config.h LD_CONFIG_PROFILE): nothing in a normal build */
#if LD_CONFIG_PROFILE
#define LD_PROF(point) ld_profile_mark(point)
#else
#define LD_PROF(point) ((void)0)
#endif

/* The register HAL (ld_config.h): every register access of the driver goes through these. */
#if LD_CONFIG_HAL_INLINE
#define LD_RD32(dev, addr)    ((void)(dev), *(volatile const uint32_t *)(addr))
#define LD_WR32(dev, addr, v) ((void)(dev), *(volatile uint32_t *)(addr) = (v))
#define LD_HAL_OK(dev)        ((dev) != NULL)
#else
#define LD_RD32(dev, addr)    ((dev)->read32(addr))
#define LD_WR32(dev, addr, v) ((dev)->write32((addr), (v)))
#define LD_HAL_OK(dev)        ((dev) != NULL && (dev)->read32 != NULL && (dev)->write32 != NULL)
#endif

/* A usable MAC peripheral (key slots and a MAC family): its hash algorithm and key slots */
static inline int ld_mac_dev_ok(const ld_hw_dev *dev, int *alg, unsigned *key_slots)
{
    return LD_HAL_OK(dev) && dev->keys_valid && ld_mac_family(dev->family, alg, key_slots);
}

/* The cycle counter in two halves (ld_hw_cycles is both): latch it just before an event and
 * read the latched value after it, so that the reads do not sit between the stamp and the
 * event (the scheduler's run start: the batch start, the release of the first wave). */
static inline void ld_cycles_latch(const ld_hw_dev *dev)
{
    LD_WR32(dev, dev->cycles_latch, 1);
}

static inline uint64_t ld_cycles_latched(const ld_hw_dev *dev)
{
    uint64_t hi = LD_RD32(dev, dev->cycles_value);
    return (hi << 32) | LD_RD32(dev, dev->cycles_value + 4);
}

/* The counter when the latest batch started (0 without the register: a peripheral built
 * before it) */
static inline uint64_t ld_batch_started(const ld_hw_dev *dev)
{
    uint64_t hi;

    if (!dev->batch_start_cycles)
        return 0;
    hi = LD_RD32(dev, dev->batch_start_cycles);
    return (hi << 32) | LD_RD32(dev, dev->batch_start_cycles + 4);
}

/* The register word holding slot `slot`'s bit in a slots_* register (slots_done, slots_ack)
 * of an engine with `slots` slots: LiteX puts the most significant 32-bit word at the
 * register's address, so slot 0 is in the last word. A slot beyond the engine's maps to the
 * first word (the peripheral rejects its jobs anyway). */
static inline uintptr_t ld_slot_word(uintptr_t reg, unsigned slots, unsigned slot)
{
    unsigned nwords = slots ? (slots + 31u) / 32u : 1u;
    unsigned w = slot / 32u;

    if (w >= nwords)
        w = nwords - 1u;
    return reg + 4u * (uintptr_t)(nwords - 1u - w);
}

/* Skein peripherals: a job's start tweak and final block bytes (REGISTERS.md); LiteX
 * multi-word order: the most significant word first (T1 high ... T0 low). Inline: it sits in
 * the per-block loop of the CSR path. */
static inline void ld_hw_write_tweak(const ld_hw_dev *dev, uint64_t t0, uint64_t t1,
                                     unsigned final_bytes)
{
    dev->write32(dev->tweak, (uint32_t)(t1 >> 32));
    dev->write32(dev->tweak + 4, (uint32_t)t1);
    dev->write32(dev->tweak + 8, (uint32_t)(t0 >> 32));
    dev->write32(dev->tweak + 12, (uint32_t)t0);
    dev->write32(dev->final_bytes, final_bytes);
}

/* --- batches: what the batch calls (md_hw.c) and the scheduler's batch executor (sched.c)
 * share --------------------------------------------------------------------------------- */

/* Where the walker writes a chaining value: aligned to, and spaced by, the chaining value's
 * size rounded up to a power of two (soc/peripheral/batch.py out_align): SHA-1's 20 bytes and
 * SHA-256's 32 take 32, SHA-512's 64 take 64. */
static inline size_t ld_batch_stride(int family)
{
    return family == LD_FAMILY_SHA512 || family == LD_FAMILY_SKEIN512 ? 64 : 32;
}

/* ld_hw_md_batch_run's two halves around the start (ctrl.batch_start), for a caller that
 * stamps the start: load acks and writes batch_base/batch_count; wait polls (or waits through
 * dev->wait) for the end, acks and (inval) calls dma_inval: LD_OK, LD_ERR_HW, LD_ERR_TIMEOUT. */
void ld_batch_load(const ld_hw_dev *dev, uintptr_t table, size_t n);
int ld_batch_wait(const ld_hw_dev *dev, size_t *done, int inval);
/* Spin between polls without touching memory: the counter lives in a register and the
 * empty asm only stops the compiler from deleting the loop. (A volatile counter would be a
 * store per iteration, and with a write-through D-cache every store is a bus write that
 * competes with the peripheral's DMA.) turns: dev->poll_delay, or the default. */
static inline void ld_poll_delay(uint32_t turns)
{
    uint32_t i;
    for (i = 0; i < turns; i++)
        __asm__ volatile("");
}
/* The bare bounded wait (at most max polls, and the device's bound) that every wait of the
 * driver is made of. */
static inline uint32_t ld_poll_n(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uint32_t max)
{
    uint32_t limit = dev->timeout_polls ? dev->timeout_polls : LD_HW_DEFAULT_TIMEOUT_POLLS;
    uint32_t turns = dev->poll_delay ? dev->poll_delay : LD_HW_DEFAULT_POLL_DELAY;
    uint32_t polls = 0, v;

    if (limit > max)
        limit = max;
    for (;;) {
        v = LD_RD32(dev, reg);
        if (v & mask)
            return v;
        if (++polls >= limit)
            return 0;
        if (dev->wait) {
            if (dev->wait(dev->wait_arg) != 0)
                return 0;
        } else {
            ld_poll_delay(turns);
        }
    }
}
/* ld_hw_poll_jobs for the drivers (LD_CONFIG_LOST_JOBS, ld_config.h): the first
 * LD_HW_FIRST_POLLS polls are ld_hw_poll's bare loop, a longer wait goes on in
 * ld_hw_poll_rest (md_hw.c), which looks for lost jobs; *lost is written only when 0 is
 * returned. Without LD_CONFIG_LOST_JOBS it is ld_hw_poll. */
uint32_t ld_hw_poll_rest(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uintptr_t busy_reg,
                         uint32_t busy_mask, int *lost);
static inline uint32_t ld_poll_jobs(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask,
                                    uintptr_t busy_reg, uint32_t busy_mask, int *lost)
{
#if LD_CONFIG_LOST_JOBS
    uint32_t v = ld_poll_n(dev, reg, mask, LD_HW_FIRST_POLLS);

    return v ? v : ld_hw_poll_rest(dev, reg, mask, busy_reg, busy_mask, lost);
#else
    uint32_t v = ld_hw_poll(dev, reg, mask);

    (void)busy_reg;
    (void)busy_mask;
    if (!v)
        *lost = 0;
    return v;
#endif
}

/* The facts of an alg that a peripheral hashes as whole messages (pad jobs, batches, the
 * scheduler): the Merkle-Damgard algs' (ld_md_lookup), and Skein-512's plain hashes
 * (LD_ALG_SKEIN512(bits): family LD_FAMILY_SKEIN512, the variant of the output size, digest
 * bits / 8, 64-byte blocks); 0 for any other alg. */
int ld_hw_alg_facts(int alg, ld_md_facts *f);

/* A batch descriptor for a message of the alg of facts f (ld_hw_alg_facts) at bus address msg (len bytes; aligned to align, the
 * peripheral's DMA alignment, unless empty) whose chaining value goes to out (aligned to
 * ld_batch_stride): LD_ERR_ARG (alg not of dev's family), LD_ERR_RANGE (alignment, the DMA
 * range). */
int ld_batch_desc_fill(ld_hw_batch_desc *d, const ld_hw_dev *dev, const ld_md_facts *f,
                       uint32_t align, uintptr_t msg, size_t len, uintptr_t out);

/* A batch's message as a descriptor may hold it: LD_ERR_ARG (too long), LD_ERR_RANGE (msg
 * not aligned to align, or its bytes not in the DMA's range), else LD_OK */
static inline int ld_batch_msg_check(const ld_hw_dev *dev, uint32_t align, uintptr_t msg,
                                     size_t len)
{
    if (len > 0xffffff80u)
        return LD_ERR_ARG;
    if ((len && !ld_dma_range_ok(dev, msg, len, align)) || (msg & (align - 1u)))
        return LD_ERR_RANGE;
    return LD_OK;
}

/* A 32-bit value as the peripheral reads it from RAM: little-endian, whatever the CPU's order */
static inline uint32_t ld_le32(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return v; /* the byte stores below do not always fold to nothing (GCC 12, RV32) */
#else
    union {
        uint32_t w;
        uint8_t b[4];
    } u;
    u.b[0] = (uint8_t)v;
    u.b[1] = (uint8_t)(v >> 8);
    u.b[2] = (uint8_t)(v >> 16);
    u.b[3] = (uint8_t)(v >> 24);
    return u.w;
#endif
}

/* ld_batch_desc_fill's stores, for arguments its caller has checked (msg: the message's bus
 * address, or any address in range when len is 0) */
static inline void ld_batch_desc_write(ld_hw_batch_desc *d, uintptr_t msg, size_t len,
                                       uintptr_t out, unsigned variant)
{
    d->words[0] = ld_le32((uint32_t)msg);
    d->words[1] = ld_le32((uint32_t)len);
    d->words[2] = ld_le32((uint32_t)out);
    d->words[3] = ld_le32((uint32_t)variant);
}

/* The one-shot DMA job of the firmware's CPU (ld_hw_md's SHA call, ld_hw_skein512's plain
 * Skein-512 call, ld_hw_mac's MAC; md_hw.c says why it is written so): the whole message, `len`
 * bytes at `p` (aligned and in the DMA's range: the caller checked), as one `pad` job on slot 0
 * of the variant f->variant with the extra ctrl levels `ctrl` (Skein's ctrl.out, the MAC's key
 * slot), its status checked once at the end, then f->digest_size bytes (a multiple of 4) of
 * the slot's chaining value to `out`.
 * `mmio` (a constant): the registers touched directly (the library's own MMIO HAL, no
 * dma_sync or wait hook) rather than through the device's HAL. */
#if !LD_CONFIG_HOST && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LD_ONESHOT_FAST 1
static inline uint32_t ld_bswap32(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

/* The device uses the library's own MMIO HAL with no dma_sync or wait hook: a one-shot call
 * takes ld_oneshot_job's `mmio` instance (a macro, not a function: the callers' code stays as
 * when they spelled it out) */
#define LD_OWN_MMIO(dev)                                                                           \
    ((dev)->read32 == ld_hal_mmio_read32 && (dev)->write32 == ld_hal_mmio_write32 &&               \
     (dev)->dma_sync == NULL && (dev)->wait == NULL)

/* A message the one-shot job takes: aligned to the block, within the DMA's length limit, in
 * its range (a macro, as LD_OWN_MMIO) */
#define LD_ONESHOT_MSG_OK(dev, p, len, block)                                                      \
    ((((uintptr_t)(p) & ((block)-1)) == 0) && (len) <= 0xffffff80u &&                              \
     ((len) == 0 || ld_dma_range_ok((dev), (uintptr_t)(p), (len), 1)))

#define ONESHOT_RD(a) (mmio ? *(volatile const uint32_t *)(a) : LD_RD32(dev, (a)))
#define ONESHOT_WR(a, v)                                                                           \
    do {                                                                                           \
        if (mmio)                                                                                  \
            *(volatile uint32_t *)(a) = (v);                                                       \
        else                                                                                       \
            LD_WR32(dev, (a), (v));                                                                \
    } while (0)

/* A one-shot call's wait for `mask` in register `reg` (busy_reg & busy_mask: the work still
 * runs): LD_OK (*value, if not NULL: the register's last value), LD_ERR_TIMEOUT, LD_ERR_HW (the
 * work vanished: a reset). */
static inline __attribute__((always_inline)) int
ld_oneshot_wait(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uintptr_t busy_reg,
                uint32_t busy_mask, const int mmio, uint32_t *value)
{
    uint32_t limit = dev->timeout_polls ? dev->timeout_polls : LD_HW_DEFAULT_TIMEOUT_POLLS;
    uint32_t polls, v;

#if LD_CONFIG_LOST_JOBS
    /* the same loop as a bare bounded wait for the first LD_HW_FIRST_POLLS polls (no more
     * work or live registers: this is the 64-byte call's cost); a longer job's wait goes on
     * in ld_hw_poll_rest, which also sees a job that vanished (a reset) */
    limit = limit < LD_HW_FIRST_POLLS ? limit : LD_HW_FIRST_POLLS;
#endif
    for (polls = 0; !((v = ONESHOT_RD(reg)) & mask);)
        if (++polls >= limit || (!mmio && dev->wait && dev->wait(dev->wait_arg) != 0)) {
            polls = limit;
            break;
        }
#if LD_CONFIG_LOST_JOBS
    if (polls >= limit && (dev->timeout_polls == 0 || dev->timeout_polls > limit)) {
        int lost;
        v = ld_hw_poll_rest(dev, reg, mask, busy_reg, busy_mask, &lost);
        if (lost)
            return LD_ERR_HW;
        polls = v ? 0 : limit;
    }
#else
    (void)busy_reg;
    (void)busy_mask;
#endif
    if (value)
        *value = v;
    return polls >= limit ? LD_ERR_TIMEOUT : LD_OK;
}

static inline __attribute__((always_inline)) int ld_oneshot_job(const ld_hw_dev *dev,
                                                                const ld_md_facts *f, uint32_t ctrl,
                                                                const uint8_t *p, size_t len,
                                                                uint8_t *out, const int mmio)
{
    uintptr_t off;
    uint32_t w, st;
    size_t k;
    int r;

    /* slot 0's word of the slots_* registers (their width follows the slot count) */
    w = LD_INFO_SLOTS(ONESHOT_RD(dev->info));
    if (w == 0)
        return LD_ERR_HW; /* not a hash peripheral */
    off = ld_slot_word(0, w, 0);
    ONESHOT_WR(dev->slots_ack + off, 1u); /* clean start on slot 0 */
    ONESHOT_WR(dev->ctrl, LD_CTRL_ACK);
    if (!mmio && dev->dma_sync) /* the mmio instance runs without one (ld_hw_md) */
        dev->dma_sync();
    /* the empty message: any address in range (no row is read) */
    ONESHOT_WR(dev->dma_base, (uint32_t)(len ? (uintptr_t)p : dev->ram_base));
    ONESHOT_WR(dev->dma_length, (uint32_t)len);
    ONESHOT_WR(dev->ctrl, LD_CTRL_DMA_START | LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_PAD |
                              LD_CTRL_VARIANT_VAL(f->variant) | ctrl);
    LD_PROF(LD_PROF_STARTED);
    r = ld_oneshot_wait(dev, dev->slots_done + off, 1u, dev->slots_busy + off, 1u, mmio, NULL);
    LD_PROF(LD_PROF_DONE);
    st = ONESHOT_RD(dev->status);
    ONESHOT_WR(dev->slots_ack + off, 1u);
    ONESHOT_WR(dev->ctrl, LD_CTRL_ACK);
    LD_PROF(LD_PROF_ACKED);
    if (r != LD_OK)
        return r;
    if (st & LD_STATUS_ERRORS)
        return LD_ERR_HW;
    ONESHOT_WR(dev->digest_sel, 0);
    for (k = 0; k < f->digest_size / 4u; k++) {
        w = ONESHOT_RD(dev->digest + 4u * k); /* big-endian word: H0's first byte high */
        if (((uintptr_t)out & 3u) == 0) {
            ((uint32_t *)(void *)out)[k] = ld_bswap32(w);
        } else {
            out[4 * k] = (uint8_t)(w >> 24);
            out[4 * k + 1] = (uint8_t)(w >> 16);
            out[4 * k + 2] = (uint8_t)(w >> 8);
            out[4 * k + 3] = (uint8_t)w;
        }
    }
    LD_PROF(LD_PROF_DIGEST);
    return LD_OK;
}

/* The device's one-shot calls go through the batch walker (ld_hw.h, oneshot_area) */
#define LD_ONESHOT_WALK_OK(dev)                                                                    \
    ((dev)->oneshot_area && ((dev)->dma_inval_range || !(dev)->dma_inval) &&                       \
     ((uintptr_t)(dev)->oneshot_area & 63u) == 0 &&                                                \
     ld_dma_range_ok((dev), (uintptr_t)(dev)->oneshot_area, sizeof(struct ld_hw_oneshot_area), 1))

/* The one-shot walk writes the chaining value straight into the caller's `out` (no copy)
 * when it is the digest whole (SHA-256, SHA-512; not the truncated ones, nor SHA-1's 20
 * bytes), fills whole data-cache lines of its own (nothing the CPU touches while the walker
 * runs shares them, so none is cached again before the write) and lies aligned to its size in
 * the DMA's range; else into the device's one-shot area, whence the digest is copied. */
#define LD_ONESHOT_DIRECT(dev, f, out)                                                             \
    ((f)->digest_size == 1u << ((f)->block_shift - 1u) &&                                          \
     (f)->digest_size % LD_HW_DCACHE_LINE == 0 &&                                                  \
     ((uintptr_t)(out) & ((f)->digest_size - 1u)) == 0 &&                                          \
     ld_dma_range_ok((dev), (uintptr_t)(out), (f)->digest_size, 1))

/* ld_oneshot_job's SHA call as a batch of one descriptor (LD_ONESHOT_WALK_OK): the peripheral
 * writes the chaining value to `cv_to` (the caller's buffer or the device's area: see
 * LD_ONESHOT_DIRECT), rather than the CPU reading it a register word at a time (one bus round
 * trip each). Two halves: the start, inline in a caller that calls nothing (no stack frame to
 * save: on a write-through cache each saved register is a bus write), and ld_oneshot_walk_end
 * (md_hw.c), whose frame is set up while the walker runs. */
static inline __attribute__((always_inline)) int
ld_oneshot_walk_start(const ld_hw_dev *dev, const ld_md_facts *f, const uint8_t *p, size_t len,
                      uintptr_t cv_to, const int mmio)
{
    struct ld_hw_oneshot_area *a = dev->oneshot_area;
    uint32_t w = a->ack_words, k;

    if (w == 0) { /* the first call: a register read, kept */
        uint32_t slots = LD_INFO_SLOTS(ONESHOT_RD(dev->info));
        if (slots == 0)
            return LD_ERR_HW; /* not a hash peripheral */
        a->ack_words = w = (slots + 31u) / 32u;
    }
    ld_batch_desc_write(&a->desc, len ? (uintptr_t)p : dev->ram_base, len, cv_to, f->variant);
    /* clean start: the walker starts only when no slot's done bit waits for its ack (a job
     * left by a call that timed out, or by the low-level calls); LiteX acts on a multi-word
     * register when its last word (slots 0-31) is written. (No ctrl.ack: the start clears
     * batch_status's done and errors itself, and status's are the register jobs'.) */
    for (k = 0; k < w; k++)
        ONESHOT_WR(dev->slots_ack + 4u * k, 0xffffffffu);
    if (!mmio && dev->dma_sync)
        dev->dma_sync();
    ONESHOT_WR(dev->batch_base, (uint32_t)(uintptr_t)&a->desc);
    ONESHOT_WR(dev->batch_count, 1u);
    ONESHOT_WR(dev->ctrl, LD_CTRL_BATCH_START);
    LD_PROF(LD_PROF_STARTED);
    return LD_OK;
}
/* The rest: the wait (for the end, or a start the walker refused: err_state), the ack, and
 * (direct 0) the digest_size bytes of the chaining value copied from the area to out. */
int ld_oneshot_walk_end(const ld_hw_dev *dev, size_t digest_size, uint8_t *out, int direct,
                        int mmio);
#endif

#endif
