/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest Skein-512 firmware (LiteX, bare metal): the C library's software Skein-512 vs
 * the Skein peripheral (CSR and DMA paths) on the same CPU.
 * Output: "LDRESULT ..." lines (16 KiB Skein-512-512 timing per path, digest), "LDSKEIN ..."
 * lines (one per case: message bits, key bytes, output bits, path, digest; the host checks
 * them with an independent implementation), "LDCHECK ..." lines, then "LDDONE".
 * Message byte i is (7 i + 3) mod 256, key byte i is (5 i + 1) mod 256. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_hw_skein.h"
#include "../ld_app.h"

#define MAXLEN 16384
static uint8_t msg[MAXLEN] LD_DMA_ALIGNED;
static uint8_t key[160];

static const ld_hw_dev dev = LD_APP_DEV_SKEIN(SKEIN512);

/* ld_app.h's check with ok normalized: the larger body keeps it a call here, where the shared
 * one would be inlined and move the code after it */
static void check_ok(const char *name, int ok)
{
    printf("LDCHECK name=%s ok=%d\n", name, ok ? 1 : 0);
}

static const char *const paths[3] = LD_APP_PATH_NAMES;

static int run(int p, size_t out_bits, size_t keylen, const uint8_t *m, size_t nbits, uint8_t *out)
{
    if (p == 0)
        return ld_skein512(out_bits, keylen ? key : NULL, keylen, m, nbits, out);
    return ld_hw_skein512(&dev, LD_APP_HW_PATH(p), out_bits, keylen ? key : NULL, keylen, m, nbits,
                          out);
}

static void timing(void)
{
    uint8_t ref[64], out[64];
    int p;

    for (p = 0; p < 3; p++) {
        uint64_t t0 = 0, t1 = 0;
        int r = 0, k;
        uint8_t *dst = p == 0 ? ref : out;
        /* run 0 warms the caches and is not timed (same for software and hardware) */
        for (k = 0; k < 2; k++) {
            memset(dst, 0, 64);
            t0 = now(&dev);
            r = run(p, 512, 0, msg, 8 * MAXLEN, dst);
            t1 = now(&dev);
        }
        put_result(SKEIN512_ENGINE, paths[p], MAXLEN);
        put_u64(t1 - t0);
        put_result_end(r == LD_OK && (p == 0 || memcmp(ref, out, 64) == 0), dst, 64);
    }
}

/* message bits, key bytes, output bits */
static const uint32_t cases[][3] = {
    {0, 0, 512},          {8, 0, 256},        {13, 0, 512},           {512, 0, 512},
    {520, 0, 384},        {1024, 0, 224},     {8 * 200 + 5, 0, 1032}, {8 * 1000, 0, 512},
    {8 * 100, 32, 512},   {8 * 64, 100, 256}, {8 * 3000, 129, 1024},  {0, 64, 160},
    {8 * 64 * 5, 0, 200},
};

static void cases_run(void)
{
    uint8_t ref[130], out[130];
    size_t c;
    int p;

    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        size_t nbits = cases[c][0], keylen = cases[c][1], ob = cases[c][2], n = (ob + 7) / 8;
        int r0 = run(0, ob, keylen, msg, nbits, ref);
        for (p = 0; p < 3; p++) {
            int r = p == 0 ? r0 : run(p, ob, keylen, msg, nbits, out);
            const uint8_t *d = p == 0 ? ref : out;
            printf("LDSKEIN path=%s bits=%u keylen=%u outbits=%u ok=%d digest=", paths[p],
                   (unsigned)nbits, (unsigned)keylen, (unsigned)ob,
                   r == LD_OK && r0 == LD_OK && (p == 0 || memcmp(ref, out, n) == 0));
            put_hex(d, n);
            printf("\n");
        }
    }
}

static void bad_inputs(void)
{
    ld_skein512_ctx ctx;
    uint8_t out[64], ref[64];
    uint32_t st = 0;
    int r;

    check_ok("out_bits_zero",
             ld_hw_skein512_init(&ctx, &dev, LD_PATH_DMA, 0, NULL, 0) == LD_ERR_ARG);
    {
        ld_hw_dev sha = dev;
        sha.family = LD_FAMILY_SHA256;
        check_ok("not_a_skein_device",
                 ld_hw_skein512_init(&ctx, &sha, LD_PATH_DMA, 512, NULL, 0) == LD_ERR_ARG);
    }
    r = ld_hw_skein512(&dev, LD_PATH_DMA, 512, NULL, 0,
                       (const void *)(uintptr_t)(MAIN_RAM_BASE + MAIN_RAM_SIZE), 8 * 1024, out);
    check_ok("dma_outside_ram_driver", r == LD_ERR_RANGE);
    /* final_bytes > 64 refused by the peripheral (err_len) */
    dev.write32(dev.final_bytes, 65);
    dev.write32(dev.tweak, (uint32_t)(LD_SKEIN_T1_FINAL >> 32));
    r = ld_hw_job_dma(&dev, (uintptr_t)msg, 64, 0, 0, LD_CTRL_FIRST, &st);
    check_ok("final_bytes_over_64_err_len", r == LD_ERR_HW && (st & LD_STATUS_ERR_LEN));
    /* after errors the peripheral still hashes correctly */
    r = ld_hw_skein512(&dev, LD_PATH_DMA, 512, NULL, 0, msg, 8 * 300, out);
    ld_skein512(512, NULL, 0, msg, 8 * 300, ref);
    check_ok("usable_after_errors", r == LD_OK && memcmp(out, ref, 64) == 0);
    /* streaming across unaligned updates (DMA path falls back to CSR where needed) */
    ld_hw_skein512_init(&ctx, &dev, LD_PATH_DMA, 512, key, 20);
    ld_skein512_update(&ctx, msg, 1);
    ld_skein512_update(&ctx, msg + 1, 200);
    ld_skein512_update(&ctx, msg + 201, 1000);
    r = ld_skein512_final(&ctx, out);
    ld_skein512(512, key, 20, msg, 8 * 1201, ref);
    check_ok("streaming_unaligned_updates", r == LD_OK && memcmp(out, ref, 64) == 0);
    check_ok("final_twice_state", ld_skein512_final(&ctx, out) == LD_ERR_STATE);
}

int main(void)
{
    size_t i;

    fill_message(msg, MAXLEN);
    for (i = 0; i < sizeof(key); i++)
        key[i] = (uint8_t)(5 * i + 1);
    printf("\nLiteDigest Skein-512: engine %s\n", SKEIN512_ENGINE);
    timing();
    cases_run();
    bad_inputs();
    printf("LDDONE\n");
    return 0;
}
