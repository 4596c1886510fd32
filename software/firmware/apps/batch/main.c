/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest batch firmware (LiteX, bare metal): for every SHA peripheral of the SoC and
 * message sizes of 64 B and 1 KiB, BATCH messages hashed
 *   - by the batch walker: one ld_hw_md_batch call (descriptors in RAM, one start, the
 *     chaining values written back by the peripheral), timed with the peripheral's counter;
 *   - as a descriptor ring: the same table, only its lengths written (ld_hw_md_batch_lengths,
 *     the buffers being the pool's MAX_BYTES);
 *   - by the walker alone: the table that call filled, run again with ld_hw_md_batch_run
 *     (what a message costs the peripheral when the descriptors are ready);
 *   - one by one with ld_hw_md on the DMA path (ONE_BY_ONE messages);
 *   - in software, the C library's ld_md on this CPU (SW messages);
 * each rate as cycles per message. Every batch digest is compared with the software digest of
 * the same message (a pool of POOL distinct messages, descriptor i hashing message i % POOL),
 * and the pool's digests go to the host (LDDIGEST), which checks them against hashlib
 * (`litedigest bench --backend soc --batch`; the pool: socdemo.batch_pool()).
 * Output: "LDBATCH ..." lines, "LDDIGEST ..." lines, "LDCHECK ..." lines, then "LDDONE". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_md.h"
#include "litedigest/ld_hw.h"
#include "../ld_app.h"

#define BATCH      1000
#define POOL       32
#define ONE_BY_ONE 100
#define SW         50
#define MAX_BYTES  1024

LD_APP_BATCH_BUFFERS(outs, 64, LD_MD_MAX_DIGEST_SIZE);

typedef struct {
    const char *name, *engine;
    ld_hw_dev dev;
    int alg;
} periph;

static const periph periphs[] = {
#ifdef CSR_SHA256_BASE
    {"sha256", SHA256_ENGINE, LD_APP_DEV(SHA256, LD_FAMILY_SHA256), LD_ALG_SHA256},
#endif
#ifdef CSR_SHA256_OPT_P4_BASE
    {"sha256_opt_p4", SHA256_OPT_P4_ENGINE, LD_APP_DEV(SHA256_OPT_P4, LD_FAMILY_SHA256),
     LD_ALG_SHA256},
#endif
#ifdef CSR_SHA1_BASE
    {"sha1", SHA1_ENGINE, LD_APP_DEV(SHA1, LD_FAMILY_SHA1), LD_ALG_SHA1},
#endif
#ifdef CSR_SHA1_OPT_P8_BASE
    {"sha1_opt_p8", SHA1_OPT_P8_ENGINE, LD_APP_DEV(SHA1_OPT_P8, LD_FAMILY_SHA1), LD_ALG_SHA1},
#endif
#ifdef CSR_SHA512_BASE
    {"sha512", SHA512_ENGINE, LD_APP_DEV(SHA512, LD_FAMILY_SHA512), LD_ALG_SHA512},
#endif
};

static void run(const periph *pp, size_t bytes)
{
    size_t i, done = 0, stride = ld_hw_batch_stride(pp->alg), dsize = ld_md_digest_size(pp->alg);
    uint64_t t0, t1, t_batch, t_ring, t_walk, t_one, t_sw;
    uint8_t d[LD_MD_MAX_DIGEST_SIZE];
    int r, bad = 0;

    for (i = 0; i < POOL; i++)
        ld_md(pp->alg, pool[i], bytes, ref[i]);
    LD_APP_BATCH_OVER_POOL(bytes);
    memset(outs, 0, sizeof outs);
    flush_cpu_dcache();
    t0 = now(&pp->dev);
    r = ld_hw_md_batch(&pp->dev, pp->alg, table, ptrs, lens, BATCH, outs, &done);
    t1 = now(&pp->dev);
    t_batch = t1 - t0;
    for (i = 0; i < BATCH; i++)
        if (memcmp(outs + i * stride, ref[i % POOL], dsize) != 0)
            bad++;
    printf("LDCHECK name=%s_batch_%u ok=%d\n", pp->name, (unsigned)bytes,
           r == LD_OK && done == BATCH && !bad);

    memset(outs, 0, sizeof outs);
    flush_cpu_dcache();
    t0 = now(&pp->dev);
    r = ld_hw_md_batch_lengths(&pp->dev, table, lens, BATCH, MAX_BYTES, &done);
    t1 = now(&pp->dev);
    t_ring = t1 - t0;
    for (i = 0, bad = 0; i < BATCH; i++)
        if (memcmp(outs + i * stride, ref[i % POOL], dsize) != 0)
            bad++;
    printf("LDCHECK name=%s_ring_%u ok=%d\n", pp->name, (unsigned)bytes,
           r == LD_OK && done == BATCH && !bad);

    memset(outs, 0, sizeof outs);
    flush_cpu_dcache();
    t0 = now(&pp->dev);
    r = ld_hw_md_batch_run(&pp->dev, (uintptr_t)table, BATCH, &done);
    t1 = now(&pp->dev);
    t_walk = t1 - t0;
    for (i = 0, bad = 0; i < BATCH; i++)
        if (memcmp(outs + i * stride, ref[i % POOL], dsize) != 0)
            bad++;
    printf("LDCHECK name=%s_walk_%u ok=%d\n", pp->name, (unsigned)bytes,
           r == LD_OK && done == BATCH && !bad);

    t0 = now(&pp->dev);
    for (i = 0; i < ONE_BY_ONE; i++) {
        r = ld_hw_md(&pp->dev, pp->alg, LD_PATH_DMA, pool[i % POOL], bytes, d);
        if (r != LD_OK || memcmp(d, ref[i % POOL], dsize) != 0)
            bad++;
    }
    t1 = now(&pp->dev);
    t_one = t1 - t0;
    t0 = now(&pp->dev);
    for (i = 0; i < SW; i++)
        ld_md(pp->alg, pool[i % POOL], bytes, d);
    t1 = now(&pp->dev);
    t_sw = t1 - t0;
    printf("LDCHECK name=%s_one_by_one_%u ok=%d\n", pp->name, (unsigned)bytes, !bad);
    printf("LDBATCH instance=%s engine=%s bytes=%u batch_msgs=%u batch_cycles=", pp->name,
           pp->engine, (unsigned)bytes, (unsigned)BATCH);
    put_u64(t_batch);
    LD_APP_PUT_RUN("ring", BATCH, t_ring);
    LD_APP_PUT_RUN("walk", BATCH, t_walk);
    LD_APP_PUT_RUN("one", ONE_BY_ONE, t_one);
    LD_APP_PUT_RUN("sw", SW, t_sw);
    printf("\n");
    for (i = 0; i < POOL; i++) {
        printf("LDDIGEST instance=%s alg=%s bytes=%u index=%u digest=", pp->name,
               ld_md_name(pp->alg), (unsigned)bytes, (unsigned)i);
        put_hex(ref[i], dsize);
        printf("\n");
    }
}

int main(void)
{
    size_t i, k;
    static const size_t sizes[] = {64, 1024};

    fill_pool(&pool[0][0], POOL, MAX_BYTES);
    for (i = 0; i < sizeof periphs / sizeof periphs[0]; i++)
        for (k = 0; k < 2; k++)
            run(&periphs[i], sizes[k]);
    printf("LDDONE\n");
    return 0;
}
