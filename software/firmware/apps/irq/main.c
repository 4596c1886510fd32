/* SPDX-License-Identifier: BSD-2-Clause */
/* Interrupt firmware (LiteX, bare metal): the C driver waiting for the sha256 peripheral's
 * interrupt instead of polling its status, on one-shot DMA calls (ld_hw_md) of 64 B, 1 KiB and
 * 16 KiB and a batch of BATCH x 64 B (ld_hw_md_batch_run on a table filled before the timed
 * call: one run of the walker, one interrupt), each warm and timed with the peripheral's
 * counter, in three modes:
 *   poll: the device as the other apps use it: the driver polls the status;
 *   work: dev.wait = wait_work: between two status reads the driver calls it, and it does the
 *         firmware's "other work" (here: counting) until the interrupt handler has run;
 *   wfi:  dev.wait = wait_wfi: the CPU sleeps (wfi) until the interrupt (a CPU that takes
 *         wfi as a no-op spins through the driver's status reads instead: see waits=);
 *   lean: as work, the interrupt taken by the app's own trap vector (lean_trap.S) instead of
 *         LiteX's trap_entry and isr().
 * The interrupt handler (attached with LiteX's irq_attach) acknowledges the peripheral's
 * events with ld_hw_irq_ack and stamps the counter at its first entry per call and at its
 * end; lean_trap does the same in two registers, without the end stamp (handler=0). The
 * handlers and the waits are in the hot block (LD_APP_HOT) beside the driver's timed code, so
 * taking the interrupt does not evict it; the library is built with LD_CONFIG_HAL_INLINE
 * (Makefile).
 * Output, per mode and case:
 *   LDIRQ mode=<m> case=<dma-N|batch-Nx64> cycles=<the call alone: the counter's own cost,
 *         LDTIMER, subtracted as in the demo> latency=<cycles from the
 *         peripheral's finish stamp to the call's return> isr=<cycles from the finish stamp to
 *         the handler's entry, 0 in poll mode> handler=<cycles from its entry to its end,
 *         the stamps included> waits=<wait calls> work=<other work done while
 *         waiting> irqs=<interrupts taken> ok=<0|1> digest=<hex, the last message's>
 * then LDDONE. Every digest is compared with the C library's software SHA-256 (ok=), and the
 * host checks the printed one against hashlib. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <irq.h>
#include <system.h>

#include "litedigest/ld_hw.h"
#include "litedigest/ld_md.h"
#include "../ld_app.h"

#define MAXLEN     16384
#define BATCH      32
#define WAIT_SPINS 100000u /* a wait gives the driver a status read at least this often */

static uint32_t msgbuf[MAXLEN / 4] LD_DMA_ALIGNED;
static ld_hw_batch_desc table[BATCH] __attribute__((aligned(LD_HW_BATCH_DESC_ALIGN)));
static uint8_t outs[BATCH * 32] LD_DMA_ALIGNED;

static ld_hw_dev dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);

/* The words the handlers and the waits share, lean_trap.S's among them (it reads them at
 * these offsets), in one data-cache line: the waits keep reading `fired`, so the line stays
 * cached while the CPU waits, even after a batch's end has invalidated the whole data cache
 * (words on another line would cost the trap a miss). */
struct trap_words {
    uint32_t irq_mask;       /* lean_trap: its interrupt's bit in the CPU's pending register */
    uint32_t latch;          /* lean_trap: the counter's latch register */
    uint32_t value_lo;       /* lean_trap: the counter's low word */
    uint32_t ev_pending;     /* lean_trap: the pending events' register */
    volatile uint32_t irqs;  /* interrupts taken */
    volatile uint32_t fired; /* set by the handlers, cleared by the waits */
} __attribute__((aligned(32)));
struct trap_words trap_words;
static volatile uint32_t t_isr;     /* the counter's low word at the handler's first entry */
static volatile uint32_t t_isr_end; /* ... and at its end */
static volatile uint32_t stamped;
static uint32_t waits, work;
/* lean_trap.S's entry stamp (written only) */
void lean_trap(void);
volatile uint32_t lean_t_entry;
static int lean; /* the lean mode runs: the stamps are lean_trap's */

LD_APP_HOT static void sha256_isr(void)
{
    if (!stamped) { /* two register accesses: the stamp costs the handler little */
        csr_write_simple(1, CSR_SHA256_CYCLES_LATCH_ADDR);
        t_isr = csr_read_simple(CSR_SHA256_CYCLES_VALUE_ADDR + 4);
        stamped = 1;
    }
    if (ld_hw_irq_ack(&dev)) {
        trap_words.irqs++;
        trap_words.fired = 1;
    }
    if (stamped == 1) {
        csr_write_simple(1, CSR_SHA256_CYCLES_LATCH_ADDR);
        t_isr_end = csr_read_simple(CSR_SHA256_CYCLES_VALUE_ADDR + 4);
        stamped = 2;
    }
}

/* other work until the interrupt: the count stays in a register (a store per iteration would
 * be a bus write through the write-through data cache, competing with the DMA) */
LD_APP_HOT static int wait_work(void *arg)
{
    uint32_t n = 0;
    (void)arg;
    waits++;
    while (!trap_words.fired && n < WAIT_SPINS)
        n++;
    trap_words.fired = 0;
    work += n;
    return 0;
}

/* sleep until the interrupt: interrupts off while testing the flag, so that one arriving
 * between the test and wfi still ends the wfi (a pending interrupt wakes it even when masked),
 * then on again to take it */
LD_APP_HOT static int wait_wfi(void *arg)
{
    (void)arg;
    waits++;
    irq_setie(0);
    if (!trap_words.fired)
        __asm__ volatile("wfi");
    irq_setie(1);
    trap_words.fired = 0;
    return 0;
}

static uint64_t finish_stamp(void)
{
    uint32_t hi = hal_read32(dev.finish_cycles), lo = hal_read32(dev.finish_cycles + 4);
    return ((uint64_t)hi << 32) | lo;
}

typedef struct {
    uint64_t cycles, latency, isr, handler;
    int r;
} timing;

/* one call of `len` bytes (batch > 0: a batch of `batch` messages of 64 B, the table filled
 * by fill_table) */
static uint64_t timer; /* timer_cost(): the counter's own cost in an interval */

/* the batch's table, once before the runs: its code is not in the hot block, and run between
 * the warm run and the timed one it would evict hot lines from the instruction cache */
static int fill_table(int batch)
{
    const uint8_t *m = (const uint8_t *)msgbuf;
    int i, r = LD_OK;

    for (i = 0; i < batch && r == LD_OK; i++)
        r = ld_hw_batch_desc_set(&table[i], &dev, LD_ALG_SHA256, (uintptr_t)(m + 64 * i), 64,
                                 (uintptr_t)(outs + 32 * i));
    return r;
}

static timing run_case(uint32_t len, int batch, int filled, uint8_t *digest)
{
    const uint8_t *m = (const uint8_t *)msgbuf;
    timing t;
    uint64_t t0, t1;

    t.r = filled;
    trap_words.fired = 0;
    stamped = 0;
    lean_t_entry = 0;
    t0 = now(&dev);
    if (batch && t.r == LD_OK)
        t.r = ld_hw_md_batch_run(&dev, (uintptr_t)table, (size_t)batch, NULL);
    else if (!batch)
        t.r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, m, len, digest);
    t1 = now(&dev);
    t.cycles = call_cycles(t1 - t0, timer);
    t.latency = t1 - finish_stamp();
    if (lean) {
        stamped = lean_t_entry ? 1 : 0;
        t_isr = lean_t_entry;
    }
    t.isr = stamped ? (uint32_t)(t_isr - (uint32_t)finish_stamp()) : 0;
    t.handler = stamped == 2 ? (uint32_t)(t_isr_end - t_isr) : 0;
    if (batch)
        memcpy(digest, outs + 32 * (batch - 1), 32);
    return t;
}

static int digests_right(uint32_t len, int batch, const uint8_t *digest)
{
    const uint8_t *m = (const uint8_t *)msgbuf;
    uint8_t want[32];
    int i;

    if (!batch) {
        ld_md(LD_ALG_SHA256, m, len, want);
        return memcmp(want, digest, 32) == 0;
    }
    for (i = 0; i < batch; i++) {
        ld_md(LD_ALG_SHA256, m + 64 * i, 64, want);
        if (memcmp(want, outs + 32 * i, 32))
            return 0;
    }
    return 1;
}

static void measure(const char *mode, uint32_t len, int batch)
{
    uint8_t digest[32] __attribute__((aligned(32))); /* (the peripheral writes it there) */
    timing t;
    uint32_t irqs0;

    int filled = fill_table(batch);

    memset(outs, 0, sizeof outs);
    run_case(len, batch, filled, digest); /* warm the caches */
    memset(digest, 0, sizeof digest);
    memset(outs, 0, sizeof outs);
    flush_cpu_dcache();
    run_case(len, batch, filled, digest); /* warm again after the flush */
    waits = work = 0;
    irqs0 = trap_words.irqs;
    t = run_case(len, batch, filled, digest); /* timed */
    printf("LDIRQ mode=%s case=", mode);
    if (batch)
        printf("batch-%dx64", batch);
    else
        printf("dma-%u", (unsigned)len);
    printf(" cycles=");
    put_u64(t.cycles);
    printf(" latency=");
    put_u64(t.latency);
    printf(" isr=");
    put_u64(t.isr);
    printf(" handler=");
    put_u64(t.handler);
    printf(" waits=%u work=%u irqs=%u ok=%d r=%d digest=", (unsigned)waits, (unsigned)work,
           (unsigned)(trap_words.irqs - irqs0), t.r == LD_OK && digests_right(len, batch, digest),
           t.r);
    put_hex(digest, 32);
    printf("\n");
}

static void measure_all(const char *mode)
{
    measure(mode, 64, 0);
    measure(mode, 1024, 0);
    measure(mode, 16384, 0);
    measure(mode, 64, BATCH);
}

int main(void)
{
    fill_message((uint8_t *)msgbuf, MAXLEN);
    printf("\nLiteDigest interrupts: %s, interrupt %d\n", SHA256_ENGINE, SHA256_INTERRUPT);

    timer = timer_cost(&dev);
    printf("LDTIMER cycles=");
    put_u64(timer);
    printf("\n");
    measure_all("poll");

    irq_attach(SHA256_INTERRUPT, sha256_isr);
    irq_setmask(irq_getmask() | (1u << SHA256_INTERRUPT));
    if (ld_hw_irq_enable(&dev, 1) != LD_OK)
        printf("LDCHECK name=irq_enable ok=0\n");
    irq_setie(1);
    dev.wait = wait_work;
    measure_all("work");
    dev.wait = wait_wfi;
    measure_all("wfi");
    trap_words.irq_mask = 1u << SHA256_INTERRUPT;
    trap_words.latch = CSR_SHA256_CYCLES_LATCH_ADDR;
    trap_words.value_lo = CSR_SHA256_CYCLES_VALUE_ADDR + 4;
    trap_words.ev_pending = CSR_SHA256_EV_PENDING_ADDR;
    lean = 1;
    __asm__ volatile("csrw mtvec, %0" ::"r"(lean_trap));
    dev.wait = wait_work;
    measure_all("lean");
    printf("LDDONE\n");
    while (1) {
    }
    return 0;
}
