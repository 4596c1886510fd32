/* SPDX-License-Identifier: BSD-2-Clause */
/* What the LiteDigest firmware apps share on LiteX: the register HAL of the C library's
 * driver (csr.h accessors), the peripheral's cycle counter and integer-only/hex printing (no
 * dependence on %llu support in the libc printf). Include after <generated/csr.h>, <system.h>
 * and <stdio.h>. */
#ifndef LITEDIGEST_APPS_LD_APP_H
#define LITEDIGEST_APPS_LD_APP_H

#include <stddef.h>
#include <stdint.h>

#include "litedigest/ld_hw.h"

/* LiteX's CSRs (32-bit data width) are plain memory-mapped words: the library's own MMIO HAL,
 * which its one-shot path recognises and inlines */
#define hal_read32 ld_hal_mmio_read32
#define hal_write32 ld_hal_mmio_write32

/* Make CPU writes visible to the DMA before a job. VexRiscv's D-cache is write-through, so
 * RAM already holds every store: nothing to do (a write-back cache would need a clean here).
 * The other direction, memory the peripheral wrote (a batch's chaining values), is the
 * device's dma_inval: flush_cpu_dcache, set by LD_HW_DEV_LITEX. */
#ifdef CONFIG_L2_SIZE
static inline void hal_dma_sync(void)
{
    flush_l2_cache();
}
#else
#define hal_dma_sync NULL
#endif

/* The device of LiteX instance NAME (csr.h) with the apps' HAL above */
#define LD_APP_DEV(NAME, FAMILY) LD_HW_DEV_LITEX(NAME, FAMILY, hal_read32, hal_write32, hal_dma_sync)
#define LD_APP_DEV_SKEIN(NAME) LD_HW_DEV_LITEX_SKEIN(NAME, hal_read32, hal_write32, hal_dma_sync)
#define LD_APP_DEV_MAC(NAME, FAMILY) LD_HW_DEV_LITEX_MAC(NAME, FAMILY, hal_read32, hal_write32, hal_dma_sync)

/* An app's timing loop beside the library's timed code (ld_hw_internal.h LD_HOT): together at
 * the start of .text (linker.ld), so the instruction cache holds both whatever else changes.
 * noinline: a static function called once is inlined into its caller, and its code would
 * land in the caller's section, outside the block. */
#define LD_APP_HOT __attribute__((noinline, section(".text.hot.app")))

/* The apps' message pool (batch, hmac): n messages of `bytes` bytes, end to end; byte k of
 * message i is bits 15:8 of the (bytes i + k + 1)-th state of the LCG r = r * 1664525 +
 * 1013904223 from 2026 (socdemo.batch_pool() makes the same on the host). */
static inline void fill_pool(uint8_t *pool, size_t n, size_t bytes)
{
    uint32_t r = 2026u;
    size_t i;

    for (i = 0; i < n * bytes; i++) {
        r = r * 1664525u + 1013904223u;
        pool[i] = (uint8_t)(r >> 8);
    }
}

/* Now, in the peripheral's cycle counter (0 when it cannot be read). */
static inline uint64_t now(const ld_hw_dev *dev)
{
    uint64_t c = 0;
    ld_hw_cycles(dev, &c);
    return c;
}

/* The counter's own cost inside an interval: t1 - t0 of two back-to-back now() calls (the end
 * of the first read after its latch, the start of the second up to its latch), the least of a
 * few warm tries. An interval timed with now() around a call is this plus the call; the apps
 * print it (LDTIMER) and subtract it, so that a figure is the call's alone. */
static inline uint64_t timer_cost(const ld_hw_dev *dev)
{
    uint64_t best = ~(uint64_t)0, t0, t1;
    int i;

    for (i = 0; i < 4; i++) {
        t0 = now(dev);
        t1 = now(dev);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

/* An interval as read minus the counter's own cost (timer_cost): the call's cycles alone */
static inline uint64_t call_cycles(uint64_t raw, uint64_t timer)
{
    return raw > timer ? raw - timer : 0;
}

static inline void put_u64(uint64_t v)
{
    char s[21];
    int i = 20;
    s[i] = 0;
    do {
        s[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    printf("%s", s + i);
}

static inline void put_hex(const uint8_t *d, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        printf("%02x", d[i]);
}

#endif
