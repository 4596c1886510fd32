/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest sweep firmware (LiteX, bare metal): SHA-256 of 64 B .. 64 KiB (powers of 4) in
 * software (the C library's ld_sha256 at -O2) and on the hash peripheral (CSR and DMA paths,
 * ld_hw_md), timed with the peripheral's cycle counter. The message is the demo's: byte i is
 * (7 i + 3) mod 256.
 *
 * Timing protocol (the demo's for the sizes it shares, 64 B, 1 KiB, 16 KiB): sizes up to
 * 16 KiB are hashed twice and the second run is timed (the first warms the caches); 64 KiB is
 * timed on its only run (its data does not fit the caches, the code is warm from the smaller
 * sizes; a warm-up run would add 4.5 M simulated cycles to the software baseline).
 *
 * Output: one "LDRESULT engine=... path=sw|csr|dma bytes=N cycles=C ok=0|1 digest=HEX" line per
 * measurement (the host checks every digest against hashlib), then "LDDONE". */
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

#define MAXLEN 65536
static uint32_t msgbuf[MAXLEN / 4] LD_DMA_ALIGNED; /* DMA-aligned, in main RAM (.bss) */

static const ld_hw_dev dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);

#define NSIZES   6
#define NPATHS   3
#define WARM_MAX 16384
static const uint32_t sizes[NSIZES] = {64, 256, 1024, 4096, 16384, 65536};
static const char *const paths[NPATHS] = LD_APP_PATH_NAMES;

int main(void)
{
    uint8_t *m = (uint8_t *)msgbuf;
    uint8_t ref[32], out[32] __attribute__((aligned(32))); /* (the peripheral writes out) */
    uint32_t info;
    int s, p;

    fill_message(m, MAXLEN);
    info = dev.read32(dev.info);
    printf("\nLiteDigest sweep: engine %s, latency %u cycles/block\n", LD_APP_SHA256_ENGINE,
           (unsigned)LD_INFO_LATENCY(info));
    for (s = 0; s < NSIZES; s++) {
        for (p = 0; p < NPATHS; p++) {
            uint64_t t0 = 0, t1 = 0;
            int r = LD_OK, run, runs = sizes[s] <= WARM_MAX ? 2 : 1;
            uint8_t *dst = p == 0 ? ref : out;
            for (run = 0; run < runs; run++) {
                memset(dst, 0, 32);
                t0 = now(&dev);
                r = LD_APP_SHA256_ON(&dev, p, m, sizes[s], dst);
                t1 = now(&dev);
            }
            if (r != LD_OK)
                printf("# %s %u bytes: error %d (%s)\n", paths[p], (unsigned)sizes[s], r,
                       ld_strerror(r));
            put_result(LD_APP_SHA256_ENGINE, paths[p], sizes[s]);
            put_u64(t1 - t0);
            put_result_end(r == LD_OK && (p == 0 || memcmp(ref, out, 32) == 0), dst, 32);
        }
    }
    printf("LDDONE\n");
    while (1) {
    }
    return 0;
}
