/* SPDX-License-Identifier: BSD-2-Clause */
/* What the LiteDigest firmware apps share on LiteX: the register HAL of the C library's
 * driver (csr.h accessors), the devices, the messages they hash, the peripheral's cycle counter
 * and the timing, integer-only/hex printing (no dependence on %llu support in the libc printf)
 * and the result lines the host reads. Everything is a macro or a static function, compiled
 * into each app as its own code: a shared object file would move an app's functions, and the
 * cycles of a timed one depend on where it lies. Include after <generated/csr.h>,
 * <generated/soc.h>, <system.h> and <stdio.h>. */
#ifndef LITEDIGEST_APPS_LD_APP_H
#define LITEDIGEST_APPS_LD_APP_H

#include <stddef.h>
#include <stdint.h>

#include "litedigest/ld_hw.h"
#include "litedigest/ld_sha256.h"

/* LiteX's CSRs (32-bit data width) are plain memory-mapped words: the library's own MMIO HAL,
 * which its one-shot path recognises and inlines */
#define hal_read32  ld_hal_mmio_read32
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

/* The device of LiteX instance NAME (csr.h) with the apps' HAL above and a one-shot area of
 * its own (a compound literal: of static storage, so a device defined at file scope) */
#define LD_APP_DEV(NAME, FAMILY)                                                                   \
    LD_HW_DEV_LITEX_AREA(NAME, FAMILY, hal_read32, hal_write32, hal_dma_sync,                      \
                         (&(struct ld_hw_oneshot_area){{0}, {{0}}}))
#define LD_APP_DEV_SKEIN(NAME) LD_HW_DEV_LITEX_SKEIN(NAME, hal_read32, hal_write32, hal_dma_sync)
#define LD_APP_DEV_MAC(NAME, FAMILY)                                                               \
    LD_HW_DEV_LITEX_MAC(NAME, FAMILY, hal_read32, hal_write32, hal_dma_sync)

/* The engine spec of the SoC's sha256 instance (generated/soc.h) */
#ifdef SHA256_ENGINE
#define LD_APP_SHA256_ENGINE SHA256_ENGINE
#else
#define LD_APP_SHA256_ENGINE "sha256"
#endif

/* The three ways an app hashes a message, by number: 0 software on this CPU, 1 the
 * peripheral's CSR path, 2 its DMA path; their names in the result lines */
#define LD_APP_PATH_NAMES                                                                          \
    {                                                                                              \
        "sw", "csr", "dma"                                                                         \
    }
#define LD_APP_HW_PATH(p) ((p) == 1 ? LD_PATH_CSR : LD_PATH_DMA)

/* SHA-256 of msg on way p (LD_APP_PATH_NAMES), the hardware ones on dev: LD_OK or LD_ERR_*.
 * A macro, not an inline function: inlined, a function changes the registers of the demo's
 * timed loop, and so its cycles. */
#define LD_APP_SHA256_ON(dev, p, msg, len, out)                                                    \
    ((p) == 0 ? ld_sha256(LD_SHA256, msg, len, out)                                                \
              : ld_hw_md(dev, LD_ALG_SHA256, LD_APP_HW_PATH(p), msg, len, out))

/* An app's timing loop beside the library's timed code (ld_hw_internal.h LD_HOT): together at
 * the start of .text (linker.ld), so the instruction cache holds both whatever else changes.
 * noinline: a static function called once is inlined into its caller, and its code would
 * land in the caller's section, outside the block. */
#define LD_APP_HOT __attribute__((noinline, section(".text.hot.app")))

/* The batch apps' buffers (batch, hmac), in this order: the message pool (POOL messages of
 * MAX_BYTES, fill_pool), a table of BATCH descriptors, `outs` for the digests the peripheral
 * writes (out_bytes each), the messages and their lengths (LD_APP_BATCH_OVER_POOL), and `ref`,
 * the pool's digests on this CPU (ref_bytes each). The includer defines POOL, MAX_BYTES and
 * BATCH. The pool is aligned to the largest block (SHA-512's 128 bytes), so that every
 * engine's one-shot call takes its messages on the fast path wherever the linker puts it. */
#define LD_APP_BATCH_BUFFERS(outs, out_bytes, ref_bytes)                                           \
    static uint8_t pool[POOL][MAX_BYTES] __attribute__((aligned(128)));                            \
    static ld_hw_batch_desc table[BATCH] __attribute__((aligned(LD_HW_BATCH_DESC_ALIGN)));         \
    static uint8_t outs[BATCH * (out_bytes)] LD_DMA_ALIGNED;                                       \
    static const void *ptrs[BATCH];                                                                \
    static size_t lens[BATCH];                                                                     \
    static uint8_t ref[POOL][ref_bytes]

/* A batch over the pool: message i is pool message i % POOL, `bytes` long */
#define LD_APP_BATCH_OVER_POOL(bytes)                                                              \
    do {                                                                                           \
        size_t i_;                                                                                 \
        for (i_ = 0; i_ < BATCH; i_++) {                                                           \
            ptrs[i_] = pool[i_ % POOL];                                                            \
            lens[i_] = (bytes);                                                                    \
        }                                                                                          \
    } while (0)

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

/* The apps' test message (demo, sweep, profile, irq, skein): byte i is (7 i + 3) mod 256
 * (socdemo.demo_message() makes the same on the host). */
static inline void fill_message(uint8_t *m, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        m[i] = (uint8_t)(7 * i + 3);
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

/* " WHAT_msgs=N WHAT_cycles=C" in a batch app's result line: N messages took C cycles the
 * WHAT way (a string literal: "one", "sw", ...) */
#define LD_APP_PUT_RUN(what, msgs, cycles)                                                         \
    do {                                                                                           \
        printf(" " what "_msgs=%u " what "_cycles=", (unsigned)(msgs));                            \
        put_u64(cycles);                                                                           \
    } while (0)

/* A timing line: "LDRESULT engine=E path=P bytes=N cycles=", then the app's figures (the
 * cycles first), then put_result_end() */
static inline void put_result(const char *engine, const char *path, uint32_t bytes)
{
    printf("LDRESULT engine=%s path=%s bytes=%u cycles=", engine, path, (unsigned)bytes);
}

/* The end of a timing line: " ok=0|1 digest=HEX" (the host checks the digest) */
static inline void put_result_end(int ok, const uint8_t *digest, size_t n)
{
    printf(" ok=%d digest=", ok);
    put_hex(digest, n);
    printf("\n");
}

/* "LDCHECK name=NAME ok=OK": a check of the firmware's own (ok: 0 or 1, as a comparison
 * gives). Not inline: a call at every use, however few, keeps the code around it in place. */
static __attribute__((unused)) void check(const char *name, int ok)
{
    printf("LDCHECK name=%s ok=%d\n", name, ok);
}

#endif
