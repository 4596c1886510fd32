/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest demo firmware (LiteX, bare metal): SHA-256 in software vs the hash peripheral
 * (CSR and DMA paths), timed with the peripheral's cycle counter, plus error checks.
 * Output: "LDRESULT ..." and "LDCHECK ..." machine-readable lines, a human table, "LDDONE". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_sha256.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_md.h"
#include "../ld_app.h"

#define MAXLEN 16384
static uint32_t msgbuf[MAXLEN / 4] LD_DMA_ALIGNED; /* DMA-aligned, in main RAM (.bss) */

static const ld_hw_dev dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);

static void put_fixed(uint64_t num, uint64_t den, unsigned decimals) /* num/den, rounded */
{
    uint64_t scale = 1, q;
    unsigned i;
    for (i = 0; i < decimals; i++)
        scale *= 10;
    if (den == 0) {
        printf("-");
        return;
    }
    q = (num * scale + den / 2) / den;
    put_u64(q / scale);
    if (decimals) {
        char f[12];
        uint64_t r = q % scale;
        for (i = decimals; i > 0; i--) {
            f[i - 1] = (char)('0' + r % 10);
            r /= 10;
        }
        f[decimals] = 0;
        printf(".%s", f);
    }
}

#define NSIZES 3
#define NPATHS 3
static const uint32_t sizes[NSIZES] = {64, 1024, 16384};
static const char *const paths[NPATHS] = LD_APP_PATH_NAMES;
static uint64_t cycles[NSIZES][NPATHS];
static int oks[NSIZES][NPATHS];

LD_APP_HOT
static void measure(void)
{
    uint64_t timer = timer_cost(&dev);
    /* (out aligned to the digest: the one-shot call's peripheral writes it there) */
    uint8_t ref[32], out[32] __attribute__((aligned(32)));
    const uint8_t *msg = (const uint8_t *)msgbuf;
    int s, p;

    for (s = 0; s < NSIZES; s++) {
        for (p = 0; p < NPATHS; p++) {
            uint64_t t0, t1;
            int r;
            int run;
            uint8_t *dst = p == 0 ? ref : out;
            /* run 0 warms the caches (code and data) and is not timed; run 1 is measured,
             * the same way for the software baseline and the hardware paths */
            for (run = 0; run < 2; run++) {
                if (run == 1)
                    memset(dst, 0, 32);
                t0 = now(&dev);
                r = LD_APP_SHA256_ON(&dev, p, msg, sizes[s], dst);
                t1 = now(&dev);
            }
            cycles[s][p] = call_cycles(t1 - t0, timer);
            oks[s][p] = r == LD_OK && (p == 0 || memcmp(ref, out, 32) == 0);
            if (r != LD_OK)
                printf("# %s %u bytes: error %d (%s)\n", paths[p], (unsigned)sizes[s], r,
                       ld_strerror(r));
            put_result(LD_APP_SHA256_ENGINE, paths[p], sizes[s]);
            put_u64(cycles[s][p]);
            printf(" raw=");
            put_u64(t1 - t0);
            put_result_end(oks[s][p], dst, 32);
        }
    }
    printf("LDTIMER cycles=");
    put_u64(timer);
    printf("\n\ncycles of the call alone: the counter's own reads (%u cycles) subtracted\n",
           (unsigned)timer);
    printf("%-6s %-4s %12s %12s %10s %s\n", "bytes", "path", "cycles", "bytes/cycle", "speedup",
           "ok");
    for (s = 0; s < NSIZES; s++)
        for (p = 0; p < NPATHS; p++) {
            printf("%-6u %-4s ", (unsigned)sizes[s], paths[p]);
            printf("%12lu ", (unsigned long)cycles[s][p]);
            printf("%8s", "");
            put_fixed(sizes[s], cycles[s][p], 4);
            printf("   ");
            put_fixed(cycles[s][0], cycles[s][p], 2);
            printf("x %s\n", oks[s][p] ? "yes" : "NO");
        }
    printf("\n");
}

/* The one-shot DMA call's ways (ld_hw.h oneshot_area): through the walker, the chaining value
 * written straight into a buffer aligned to the digest (LD_ONESHOT_DIRECT) or into the device's
 * area and copied (a buffer aligned to a word, or to nothing; a SHA-224 digest, 28 of its 32
 * bytes), and through the digest registers for a device without a usable area (none, or one
 * not aligned to the DMA's row); the same digests every way. */
static void oneshot_ways(void)
{
    static uint32_t out_words[17] __attribute__((aligned(32)));
    static ld_hw_dev no_area, bad_area;
    uint8_t ref[32], *odd = (uint8_t *)out_words + 1, *word = (uint8_t *)(out_words + 1);
    int r;

    ld_sha256(LD_SHA256, msgbuf, 128, ref);
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, odd);
    check("oneshot_walker_unaligned_out",
          r == LD_OK && memcmp(ref, odd, 32) == 0 && memcmp(ref, dev.oneshot_area->cv, 32) == 0);
    memset(dev.oneshot_area->cv, 0x5a, 32);
    memset(out_words, 0, sizeof out_words);
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, word);
    /* a word-aligned buffer: through the device's area */
    check("oneshot_walker_word_aligned_out",
          r == LD_OK && memcmp(ref, word, 32) == 0 && memcmp(ref, dev.oneshot_area->cv, 32) == 0);
    memset(dev.oneshot_area->cv, 0x5a, 32);
    memset(out_words, 0, sizeof out_words);
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words);
    /* aligned to the digest: written there by the peripheral, the area untouched */
    check("oneshot_walker_direct_out", r == LD_OK && memcmp(ref, out_words, 32) == 0 &&
                                           out_words[8] == 0 &&
                                           ((const uint8_t *)dev.oneshot_area->cv)[0] == 0x5a);
    /* the register way leaves the area alone */
    no_area = dev;
    no_area.oneshot_area = NULL;
    memset(out_words, 0, sizeof out_words);
    r = ld_hw_md(&no_area, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words);
    check("oneshot_registers_no_area", r == LD_OK && memcmp(ref, out_words, 32) == 0);
    bad_area = dev;
    bad_area.oneshot_area = (struct ld_hw_oneshot_area *)((uintptr_t)dev.oneshot_area + 4);
    memset(out_words, 0, sizeof out_words);
    r = ld_hw_md(&bad_area, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words);
    check("oneshot_registers_misaligned_area",
          r == LD_OK && memcmp(ref, out_words, 32) == 0 &&
              ((const uint8_t *)dev.oneshot_area->cv)[31] == 0x5a);
    /* a job left done and unacknowledged (a low-level start nobody finished): the walker
     * starts only when no slot's done bit waits, and the one-shot acknowledges them first */
    {
        uint32_t st = 0, polls = 0;

        r = ld_hw_start_dma(&dev, (uintptr_t)msgbuf, 64, 0, 0, LD_CTRL_FIRST, &st);
        while (r == LD_OK && !(dev.read32(dev.slots_done) & 1u) && ++polls < 100000)
            ;
        memset(out_words, 0, sizeof out_words);
        r = r == LD_OK
                ? ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words)
                : r;
        check("oneshot_walker_after_unacked_job", r == LD_OK && memcmp(ref, out_words, 32) == 0);
    }
    /* a batch still running (as after a call that timed out): the walker refuses the start
     * (err_state), and the call says so at once rather than after its whole poll bound */
    {
        static ld_hw_batch_desc table[8] __attribute__((aligned(LD_HW_BATCH_DESC_ALIGN)));
        static uint8_t outs[8 * 32] LD_DMA_ALIGNED;
        uint64_t t0, t1;
        uint32_t polls = 0;
        int i, rt = LD_OK;

        for (i = 0; i < 8 && rt == LD_OK; i++)
            rt = ld_hw_batch_desc_set(&table[i], &dev, LD_ALG_SHA256, (uintptr_t)msgbuf, 1024,
                                      (uintptr_t)(outs + 32 * i));
        dev.write32(dev.ctrl, LD_CTRL_ACK);
        dev.write32(dev.batch_base, (uint32_t)(uintptr_t)table);
        dev.write32(dev.batch_count, 8);
        dev.write32(dev.ctrl, LD_CTRL_BATCH_START);
        t0 = now(&dev);
        r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words);
        t1 = now(&dev);
        check("oneshot_refused_while_batch_runs", rt == LD_OK && r == LD_ERR_HW && t1 - t0 < 2000);
        while (!(dev.read32(dev.batch_status) & LD_BATCH_STATUS_DONE) && ++polls < 100000)
            ;
        dev.write32(dev.ctrl, LD_CTRL_ACK);
        r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 128, (uint8_t *)out_words);
        check("oneshot_after_that_batch", r == LD_OK && memcmp(ref, out_words, 32) == 0);
    }
    ld_sha256(LD_SHA224, msgbuf, 64, ref);
    memset(out_words, 0xa5, sizeof out_words);
    r = ld_hw_md(&dev, LD_ALG_SHA224, LD_PATH_DMA, msgbuf, 64, (uint8_t *)out_words);
    check("oneshot_walker_sha224",
          r == LD_OK && memcmp(ref, out_words, 28) == 0 && out_words[7] == 0xa5a5a5a5u);
}

static void bad_inputs(void)
{
    uint8_t ref[32], out[32];
    uint32_t st = 0;
    ld_hw_md_ctx ctx;
    int r;

    /* a caller buffer outside main RAM: the driver refuses before touching the DMA */
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA,
                 (const void *)(uintptr_t)(MAIN_RAM_BASE + MAIN_RAM_SIZE), 128, out);
    check("dma_outside_ram_driver", r == LD_ERR_RANGE);
    /* the same range given to the peripheral directly: err_addr, reported and acked */
    r = ld_hw_job_dma(&dev, MAIN_RAM_BASE + MAIN_RAM_SIZE, 64, 0, 0, LD_CTRL_FIRST, &st);
    check("dma_outside_ram_err_addr", r == LD_ERR_HW && (st & LD_STATUS_ERR_ADDR));
    /* a length that is not a multiple of 64: err_len */
    r = ld_hw_job_dma(&dev, (uintptr_t)msgbuf, 100, 0, 0, LD_CTRL_FIRST, &st);
    check("dma_length_not_multiple_64", r == LD_ERR_HW && (st & LD_STATUS_ERR_LEN));
    /* start with fewer than 16 din words: err_len */
    dev.write32(dev.din, 0x61626380u);
    dev.write32(dev.ctrl, LD_CTRL_START | LD_CTRL_FIRST);
    {
        uint32_t polls = 0;
        while (!((st = dev.read32(dev.status)) & LD_STATUS_DONE) && ++polls < 100000)
            ;
        dev.write32(dev.ctrl, LD_CTRL_ACK);
    }
    check("csr_start_short_block_err_len", (st & LD_STATUS_ERR_LEN) != 0);
    /* driver call order */
    r = ld_hw_md_init(&ctx, &dev, LD_ALG_SHA256, LD_PATH_CSR);
    if (r == LD_OK)
        r = ld_hw_md_update(&ctx, "abc", 3);
    if (r == LD_OK)
        r = ld_hw_md_final(&ctx, out);
    check("final_once", r == LD_OK);
    check("final_twice_state", ld_hw_md_final(&ctx, out) == LD_ERR_STATE);
    check("update_after_final_state", ld_hw_md_update(&ctx, "x", 1) == LD_ERR_STATE);
    /* a misaligned DMA segment: err_addr */
    r = ld_hw_job_dma(&dev, (uintptr_t)msgbuf + 4, 64, 0, 0, LD_CTRL_FIRST, &st);
    check("dma_misaligned_err_addr", r == LD_ERR_HW && (st & LD_STATUS_ERR_ADDR));
    /* the wrong family for this device: refused by the driver */
    check("wrong_family_arg",
          ld_hw_md(&dev, LD_ALG_SHA1, LD_PATH_CSR, "abc", 3, out) == LD_ERR_ARG);
    /* the peripheral is still usable, on both paths */
    ld_sha256(LD_SHA256, msgbuf, 1024, ref);
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_DMA, msgbuf, 1024, out);
    check("good_hash_after_errors_dma", r == LD_OK && memcmp(ref, out, 32) == 0);
    r = ld_hw_md(&dev, LD_ALG_SHA256, LD_PATH_CSR, msgbuf, 1024, out);
    check("good_hash_after_errors_csr", r == LD_OK && memcmp(ref, out, 32) == 0);
    ld_sha256(LD_SHA224, "abc", 3, ref);
    r = ld_hw_md(&dev, LD_ALG_SHA224, LD_PATH_CSR, "abc", 3, out);
    check("sha224_abc", r == LD_OK && memcmp(ref, out, 28) == 0);
    oneshot_ways();
}

int main(void)
{
    uint32_t info;

    fill_message((uint8_t *)msgbuf, MAXLEN);
    info = dev.read32(dev.info);
    printf("\nLiteDigest demo: engine %s, latency %u cycles/block, %u stages, arch %u\n",
           LD_APP_SHA256_ENGINE, (unsigned)LD_INFO_LATENCY(info), (unsigned)LD_INFO_STAGES(info),
           (unsigned)LD_INFO_ARCH(info));
    measure();
    bad_inputs();
    printf("LDDONE\n");
    while (1) {
    }
    return 0;
}
