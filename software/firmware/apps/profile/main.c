/* SPDX-License-Identifier: BSD-2-Clause */
/* Profile firmware (LiteX, bare metal): where the cycles of one ld_hw_md call on the sha256
 * peripheral go. The library's phase marks (LD_CONFIG_PROFILE) call ld_profile_mark, which
 * stamps the peripheral's cycle counter and the register accesses made so far; each interval
 * between two marks is printed with the phase it ends in:
 *   LDPROF case=<path>-<bytes> from=<mark> to=<mark> cycles=<n> reads=<r> writes=<w>
 * Cycles come from a warm run with the normal HAL, access counts from a run with a counting
 * HAL; the cost of a mark itself (measured: two marks in a row) is taken off each interval.
 * Also printed: the cost of one register read and write through the HAL
 * (LDPROF access=read|write cycles=...), and LDPROF case=... total=<cycles of the call>. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_hw.h"
#include "litedigest/ld_md.h"
#include "../ld_app.h"

#define MAXLEN   16384
#define MAXMARKS 64
static uint32_t msgbuf[MAXLEN / 4] LD_DMA_ALIGNED;

static uint32_t reads, writes;
static uint32_t count_read32(uintptr_t a)
{
    reads++;
    return hal_read32(a);
}
static void count_write32(uintptr_t a, uint32_t v)
{
    writes++;
    hal_write32(a, v);
}

static const ld_hw_dev dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);
static struct ld_hw_oneshot_area counting_area; /* the same path as dev's */
static const ld_hw_dev counting = LD_HW_DEV_LITEX_AREA(SHA256, LD_FAMILY_SHA256, count_read32,
                                                       count_write32, hal_dma_sync, &counting_area);

enum { MARK_CALL = LD_PROF_POINTS, MARK_RETURN };
static const char *const names[] = {"setup", "padded", "started", "done",
                                    "acked", "digest", "call",    "return"};

static struct {
    uint64_t t;
    uint32_t reads, writes;
    int point;
} marks[MAXMARKS];
static int nmarks;

/* the peripheral's counter, read without the HAL (not counted as the driver's accesses) */
static inline uint64_t counter(void)
{
    uint32_t hi, lo;
    csr_write_simple(1, CSR_SHA256_CYCLES_LATCH_ADDR);
    hi = csr_read_simple(CSR_SHA256_CYCLES_VALUE_ADDR);
    lo = csr_read_simple(CSR_SHA256_CYCLES_VALUE_ADDR + 4);
    return ((uint64_t)hi << 32) | lo;
}

void ld_profile_mark(int point)
{
    if (nmarks < MAXMARKS) {
        marks[nmarks].t = counter();
        marks[nmarks].reads = reads;
        marks[nmarks].writes = writes;
        marks[nmarks].point = point;
        nmarks++;
    }
}

static int call(const ld_hw_dev *d, int path, uint32_t len, uint8_t *out)
{
    int r;
    nmarks = 0;
    reads = writes = 0;
    ld_profile_mark(MARK_CALL);
    r = ld_hw_md(d, LD_ALG_SHA256, path, msgbuf, len, out);
    ld_profile_mark(MARK_RETURN);
    return r;
}

static uint64_t mark_cost(void)
{
    uint64_t best = ~(uint64_t)0;
    int i;
    for (i = 0; i < 4; i++) {
        nmarks = 0;
        ld_profile_mark(MARK_CALL);
        ld_profile_mark(MARK_RETURN);
        if (marks[1].t - marks[0].t < best)
            best = marks[1].t - marks[0].t;
    }
    return best;
}

static void profile(const char *pathname, int path, uint32_t len, uint64_t overhead)
{
    static struct {
        uint64_t t;
        int point;
    } timed[MAXMARKS];
    uint8_t digest[32] __attribute__((aligned(32))); /* (the peripheral writes it there) */
    int i, n, r;

    call(&dev, path, len, digest);     /* warm the caches */
    r = call(&dev, path, len, digest); /* timed */
    n = nmarks;
    for (i = 0; i < n; i++) {
        timed[i].t = marks[i].t;
        timed[i].point = marks[i].point;
    }
    r |= call(&counting, path, len, digest); /* (its first: the one-shot area's set-up) */
    r |= call(&counting, path, len, digest); /* counted */
    if (r != LD_OK || nmarks != n) {
        printf("LDPROF case=%s-%u error=%d\n", pathname, (unsigned)len, r);
        return;
    }
    for (i = 1; i < n; i++) {
        uint64_t c = timed[i].t - timed[i - 1].t;
        printf("LDPROF case=%s-%u from=%s to=%s cycles=", pathname, (unsigned)len,
               names[timed[i - 1].point], names[timed[i].point]);
        put_u64(c > overhead ? c - overhead : 0);
        printf(" reads=%u writes=%u\n", (unsigned)(marks[i].reads - marks[i - 1].reads),
               (unsigned)(marks[i].writes - marks[i - 1].writes));
    }
    printf("LDPROF case=%s-%u total=", pathname, (unsigned)len);
    put_u64(timed[n - 1].t - timed[0].t - (uint64_t)(n - 1) * overhead);
    printf(" digest=");
    put_hex(digest, 32);
    printf("\n");
}

static void access_costs(uint64_t overhead)
{
    uint64_t t0, t1;
    int i;
    volatile uint32_t sink = 0;

    t0 = counter();
    for (i = 0; i < 64; i++)
        sink += dev.read32(dev.status);
    t1 = counter();
    printf("LDPROF access=read cycles_x64=");
    put_u64(t1 - t0 - overhead);
    printf("\n");
    t0 = counter();
    for (i = 0; i < 64; i++)
        dev.write32(dev.digest_sel, 0);
    t1 = counter();
    printf("LDPROF access=write cycles_x64=");
    put_u64(t1 - t0 - overhead);
    printf("\n");
    (void)sink;
}

int main(void)
{
    uint64_t overhead;

    fill_message((uint8_t *)msgbuf, MAXLEN);
    overhead = mark_cost();
    printf("\nLiteDigest profile: %s, one mark costs ", SHA256_ENGINE);
    put_u64(overhead);
    printf(" cycles (taken off each interval)\n");
    printf("LDPROF mark=");
    put_u64(overhead);
    printf("\n");
    access_costs(overhead);
    profile("dma", LD_PATH_DMA, 64, overhead);
    profile("dma", LD_PATH_DMA, 16384, overhead);
    profile("csr", LD_PATH_CSR, 64, overhead);
    printf("LDDONE\n");
    while (1) {
    }
    return 0;
}
