/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest HMAC firmware (LiteX, bare metal). On a SoC with an HMAC peripheral (instance
 * hmac_sha256: the two-core engine hmac-sha256:opt[:pN]) and a sha256 peripheral, for BATCH
 * messages of BYTES bytes under one key (the message pool of apps/batch, message i % POOL):
 *   - the HMAC peripheral: the key loaded into key slot 0 once (timed), then every MAC by the
 *     batch walker (one ld_hw_mac_batch call; then the walker alone, the table it filled run
 *     again with ld_hw_mac_batch_run), one by one on the DMA path (ld_hw_mac: one `pad`
 *     job each) and on the CSR path;
 *   - the sha256 peripheral with the key's states computed once (ld_hw_hmac_key_init, timed)
 *     and each MAC from them (ld_hw_hmac, DMA path: inner hash from the inner state, outer
 *     hash of the inner digest from the outer state);
 *   - software, ld_hmac on this CPU;
 * and, where the SoC has them (the main SoC), HMAC-SHA-1, -SHA-384, -SHA-512, -SHA-512/224 and
 * -SHA-512/256 on the sha1 and sha512 peripherals from stored key states;
 * every MAC compared with the software MAC of the same message. Then the key-slot checks: a
 * long key (hashed first), streaming with split updates, two key slots in turn, a wrong key slot
 * and a NULL key refused, wipe (the key slots empty, a MAC refused), re-keying.
 * Output: "LDHMAC ..." lines (cycles), "LDDIGEST ..." lines (the pool's MACs, checked by the
 * host against Python's hmac), "LDCHECK ..." lines, then "LDDONE". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_md.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_hmac.h"
#include "litedigest/ld_hw_hmac.h"
#include "../ld_app.h"

#define BATCH      1000
#define POOL       32
#define ONE_BY_ONE 100
#define CSR_MSGS   20
#define SW         50
#define BYTES      64
#define MAX_BYTES  1024

LD_APP_BATCH_BUFFERS(macs, 32, 32);

/* the key: 20 bytes 0x0b (RFC 4231 test case 1's) */
static const uint8_t key[20] = {0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
                                0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b};

#ifdef CSR_HMAC_SHA256_BASE
static const ld_hw_dev mac_dev = LD_APP_DEV_MAC(HMAC_SHA256, LD_FAMILY_HMAC_SHA256);

static void run_mac_peripheral(void)
{
    size_t i, done = 0;
    uint64_t t0, t1, t_key, t_batch, t_walk, t_one, t_csr;
    uint8_t d[32];
    int r, bad = 0;

    t0 = now(&mac_dev);
    r = ld_hw_mac_set_key(&mac_dev, 0, key, sizeof key);
    t1 = now(&mac_dev);
    t_key = t1 - t0;
    check("mac_set_key", r == LD_OK && (ld_hw_mac_keys(&mac_dev) & 1u));
    LD_APP_BATCH_OVER_POOL(BYTES);
    memset(macs, 0, sizeof macs);
    flush_cpu_dcache();
    t0 = now(&mac_dev);
    r = ld_hw_mac_batch(&mac_dev, 0, table, ptrs, lens, BATCH, macs, &done);
    t1 = now(&mac_dev);
    t_batch = t1 - t0;
    for (i = 0; i < BATCH; i++)
        if (memcmp(macs + 32 * i, ref[i % POOL], 32) != 0)
            bad++;
    check("mac_batch", r == LD_OK && done == BATCH && !bad);
    /* the walker alone: the table that call filled, run again (the walker's own rate, the
     * descriptors ready, as the batch app's walker_alone) */
    memset(macs, 0, sizeof macs);
    flush_cpu_dcache();
    t0 = now(&mac_dev);
    r = ld_hw_mac_batch_run(&mac_dev, 0, (uintptr_t)table, BATCH, &done);
    t1 = now(&mac_dev);
    t_walk = t1 - t0;
    for (i = 0, bad = 0; i < BATCH; i++)
        if (memcmp(macs + 32 * i, ref[i % POOL], 32) != 0)
            bad++;
    check("mac_batch_run", r == LD_OK && done == BATCH && !bad);
    bad = 0;
    t0 = now(&mac_dev);
    for (i = 0; i < ONE_BY_ONE; i++) {
        r = ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[i % POOL], BYTES, d);
        if (r != LD_OK || memcmp(d, ref[i % POOL], 32) != 0)
            bad++;
    }
    t1 = now(&mac_dev);
    t_one = t1 - t0;
    check("mac_one_by_one", !bad);
    bad = 0;
    t0 = now(&mac_dev);
    for (i = 0; i < CSR_MSGS; i++) {
        r = ld_hw_mac(&mac_dev, 0, LD_PATH_CSR, pool[i % POOL], BYTES, d);
        if (r != LD_OK || memcmp(d, ref[i % POOL], 32) != 0)
            bad++;
    }
    t1 = now(&mac_dev);
    t_csr = t1 - t0;
    check("mac_csr", !bad);
    printf("LDHMAC instance=hmac_sha256 engine=%s bytes=%u key_cycles=", HMAC_SHA256_ENGINE,
           (unsigned)BYTES);
    put_u64(t_key);
    LD_APP_PUT_RUN("batch", BATCH, t_batch);
    LD_APP_PUT_RUN("walk", BATCH, t_walk);
    LD_APP_PUT_RUN("one", ONE_BY_ONE, t_one);
    LD_APP_PUT_RUN("csr", CSR_MSGS, t_csr);
    printf("\n");
}

/* One batch under key slots 0, 1 and 2 (key, k1, k2), each message naming its own: every MAC
 * against ld_hmac's. Then key slot 3 (no key) refuses its message at its index, the ones
 * before it written; no key slots for a non-empty batch is LD_ERR_ARG, an empty one LD_OK. */
static void mac_batch_keys_check(const uint8_t *k1, size_t k1len, const uint8_t *k2, size_t k2len)
{
    static const uint8_t slot_of[8] = {0, 1, 2, 1, 0, 2, 2, 3};
    static const uint16_t len_of[8] = {0, 1, 55, 64, 100, 200, 1000, 64};
    const uint8_t *const kp[3] = {key, k1, k2};
    const size_t kl[3] = {sizeof key, k1len, k2len};
    uint8_t want[32];
    size_t i, done = 99;
    int r, ok = 1;

    for (i = 0; i < 8; i++) {
        ptrs[i] = pool[i];
        lens[i] = len_of[i];
    }
    memset(macs, 0, 8 * 32);
    flush_cpu_dcache();
    r = ld_hw_mac_batch_keys(&mac_dev, slot_of, table, ptrs, lens, 7, macs, &done);
    for (i = 0; i < 7; i++) {
        ld_hmac(LD_ALG_SHA256, kp[slot_of[i]], kl[slot_of[i]], pool[i], len_of[i], want);
        ok &= memcmp(macs + 32 * i, want, 32) == 0;
    }
    check("mac_batch_keys", r == LD_OK && done == 7 && ok);
    memset(macs, 0, 8 * 32);
    flush_cpu_dcache();
    r = ld_hw_mac_batch_keys(&mac_dev, slot_of, table, ptrs, lens, 8, macs, &done);
    ok = r == LD_ERR_STATE && done == 7;
    for (i = 0; i < 7; i++) {
        ld_hmac(LD_ALG_SHA256, kp[slot_of[i]], kl[slot_of[i]], pool[i], len_of[i], want);
        ok &= memcmp(macs + 32 * i, want, 32) == 0;
    }
    check("mac_batch_keys_refused",
          ok &&
              ld_hw_mac_batch_keys(&mac_dev, NULL, table, ptrs, lens, 1, macs, &done) ==
                  LD_ERR_ARG &&
              ld_hw_mac_batch_keys(&mac_dev, NULL, table, ptrs, lens, 0, macs, &done) == LD_OK);
}

/* the key-slot protocol and bad input */
static void mac_checks(void)
{
    static uint8_t long_key[131];
    static const uint8_t key2[] = "Jefe";
    uint8_t d[32], want[32];
    ld_hw_md_ctx ctx;
    size_t i;
    int r;

    for (i = 0; i < sizeof long_key; i++)
        long_key[i] = (uint8_t)(0xaa ^ i);
    r = ld_hw_mac_set_key(&mac_dev, 1, long_key, sizeof long_key);
    r |= ld_hw_mac(&mac_dev, 1, LD_PATH_DMA, pool[3], 200, d);
    ld_hmac(LD_ALG_SHA256, long_key, sizeof long_key, pool[3], 200, want);
    check("mac_long_key", r == LD_OK && memcmp(d, want, 32) == 0);
    /* streaming with odd splits on slot 0, key slot 2 */
    r = ld_hw_mac_set_key(&mac_dev, 2, key2, 4);
    r |= ld_hw_mac_init(&ctx, &mac_dev, 2, LD_PATH_DMA);
    r |= ld_hw_md_update(&ctx, pool[5], 1);
    r |= ld_hw_md_update(&ctx, pool[5] + 1, 70);
    r |= ld_hw_md_update(&ctx, pool[5] + 71, 129);
    r |= ld_hw_md_final(&ctx, d);
    ld_hmac(LD_ALG_SHA256, key2, 4, pool[5], 200, want);
    check("mac_streaming", r == LD_OK && memcmp(d, want, 32) == 0);
    /* key slots 0 and 2 in turn, both still loaded */
    r = ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[7], 33, d);
    ld_hmac(LD_ALG_SHA256, key, sizeof key, pool[7], 33, want);
    i = r == LD_OK && memcmp(d, want, 32) == 0;
    r = ld_hw_mac(&mac_dev, 2, LD_PATH_CSR, pool[7], 0, d);
    ld_hmac(LD_ALG_SHA256, key2, 4, pool[7], 0, want);
    check("mac_key_slots", i && r == LD_OK && memcmp(d, want, 32) == 0);
    mac_batch_keys_check(long_key, sizeof long_key, key2, 4);
    /* DMA: a message off the block alignment (the general path) and the empty message
     * without a buffer (the one-shot job) */
    r = ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[1] + 4, 100, d);
    ld_hmac(LD_ALG_SHA256, key, sizeof key, pool[1] + 4, 100, want);
    i = r == LD_OK && memcmp(d, want, 32) == 0;
    r = ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, NULL, 0, d);
    ld_hmac(LD_ALG_SHA256, key, sizeof key, NULL, 0, want);
    check("mac_dma_paths",
          i && r == LD_OK && memcmp(d, want, 32) == 0 &&
              ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, NULL, 8, d) == LD_ERR_ARG &&
              ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[0], 64, NULL) == LD_ERR_ARG);
    check("mac_bad_slot", ld_hw_mac_set_key(&mac_dev, 9, key, 4) == LD_ERR_ARG &&
                              ld_hw_mac(&mac_dev, 7, LD_PATH_DMA, pool[0], 64, d) == LD_ERR_ARG &&
                              ld_hw_mac_set_key(&mac_dev, 0, NULL, 4) == LD_ERR_ARG);
    check("mac_wipe", ld_hw_mac_wipe(&mac_dev) == LD_OK && ld_hw_mac_keys(&mac_dev) == 0 &&
                          ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[0], 64, d) == LD_ERR_STATE &&
                          ld_hw_mac(&mac_dev, 0, LD_PATH_CSR, pool[0], 64, d) == LD_ERR_STATE);
    r = ld_hw_mac_set_key(&mac_dev, 0, key, sizeof key);
    r |= ld_hw_mac(&mac_dev, 0, LD_PATH_DMA, pool[0], BYTES, d);
    check("mac_rekey", r == LD_OK && memcmp(d, ref[0], 32) == 0);
}
#endif

#ifdef CSR_SHA256_BASE
static const ld_hw_dev sha_dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);

static void run_hash_peripheral(void)
{
    static ld_hw_hmac_key k;
    size_t i;
    uint64_t t0, t1, t_key, t_one;
    uint8_t d[LD_MD_MAX_DIGEST_SIZE], want[LD_MD_MAX_DIGEST_SIZE];
    ld_hw_hmac_ctx ctx;
    int r, bad = 0;

    t0 = now(&sha_dev);
    r = ld_hw_hmac_key_init(&k, &sha_dev, LD_ALG_SHA256, LD_PATH_DMA, key, sizeof key);
    t1 = now(&sha_dev);
    t_key = t1 - t0;
    check("hash_key_init", r == LD_OK);
    t0 = now(&sha_dev);
    for (i = 0; i < ONE_BY_ONE; i++) {
        r = ld_hw_hmac(&k, pool[i % POOL], BYTES, d);
        if (r != LD_OK || memcmp(d, ref[i % POOL], 32) != 0)
            bad++;
    }
    t1 = now(&sha_dev);
    t_one = t1 - t0;
    check("hash_one_by_one", !bad);
    /* SHA-224 on the same peripheral, streaming, a key longer than the block */
    r = ld_hw_hmac_key_init(&k, &sha_dev, LD_ALG_SHA224, LD_PATH_CSR, pool[9], 100);
    r |= ld_hw_hmac_init(&ctx, &k);
    r |= ld_hw_hmac_update(&ctx, pool[2], 10);
    r |= ld_hw_hmac_update(&ctx, pool[2] + 10, 300);
    r |= ld_hw_hmac_final(&ctx, d);
    ld_hmac(LD_ALG_SHA224, pool[9], 100, pool[2], 310, want);
    check("hash_sha224_streaming", r == LD_OK && memcmp(d, want, 28) == 0);
    ld_hw_hmac_key_wipe(&k);
    check("hash_wiped_key_refused", ld_hw_hmac(&k, pool[0], 64, d) == LD_ERR_ARG);
    printf("LDHMAC instance=sha256 engine=%s bytes=%u key_cycles=", SHA256_ENGINE, (unsigned)BYTES);
    put_u64(t_key);
    LD_APP_PUT_RUN("one", ONE_BY_ONE, t_one);
    printf("\n");
}
#endif

/* the other hash peripherals of the SoC, if any (at file scope: LD_APP_DEV's one-shot area) */
#ifdef CSR_SHA512_BASE
static const ld_hw_dev sha512_dev = LD_APP_DEV(SHA512, LD_FAMILY_SHA512);
#endif
#ifdef CSR_SHA1_BASE
static const ld_hw_dev sha1_dev = LD_APP_DEV(SHA1, LD_FAMILY_SHA1);
#endif

/* HMAC of other algorithms on their peripheral, from stored key states: keys shorter and
 * longer than the block, on both paths */
static void hmac_family(const char *name, const ld_hw_dev *dev, const int *algs, size_t n)
{
    static ld_hw_hmac_key k;
    uint8_t d[64], want[64];
    size_t i;
    int ok = 1;

    for (i = 0; i < n; i++) {
        int r = ld_hw_hmac_key_init(&k, dev, algs[i], i % 2 ? LD_PATH_CSR : LD_PATH_DMA, pool[11],
                                    20 + 100 * i);
        r |= ld_hw_hmac(&k, pool[12], 100 + 60 * i, d);
        ld_hmac(algs[i], pool[11], 20 + 100 * i, pool[12], 100 + 60 * i, want);
        ok &= r == LD_OK && memcmp(d, want, ld_hmac_size(algs[i])) == 0;
    }
    ld_hw_hmac_key_wipe(&k);
    check(name, ok);
}

int main(void)
{
    size_t i;
    uint64_t t0 = 0, t1 = 0;
    uint8_t d[32];

    fill_pool(&pool[0][0], POOL, MAX_BYTES);
    for (i = 0; i < POOL; i++)
        ld_hmac(LD_ALG_SHA256, key, sizeof key, pool[i], BYTES, ref[i]);
#ifdef CSR_HMAC_SHA256_BASE
    run_mac_peripheral();
    mac_checks();
    t0 = now(&mac_dev);
    for (i = 0; i < SW; i++)
        ld_hmac(LD_ALG_SHA256, key, sizeof key, pool[i % POOL], BYTES, d);
    t1 = now(&mac_dev);
#endif
#ifdef CSR_SHA256_BASE
    run_hash_peripheral();
#endif
#ifdef CSR_SHA512_BASE
    {
        static const int algs[] = {LD_ALG_SHA384, LD_ALG_SHA512, LD_ALG_SHA512_256,
                                   LD_ALG_SHA512_224};
        hmac_family("hash_sha512_family", &sha512_dev, algs, 4);
    }
#endif
#ifdef CSR_SHA1_BASE
    {
        static const int algs[] = {LD_ALG_SHA1, LD_ALG_SHA1};
        hmac_family("hash_sha1", &sha1_dev, algs, 2);
    }
#endif
    printf("LDHMAC instance=sw bytes=%u sw_msgs=%u sw_cycles=", (unsigned)BYTES, (unsigned)SW);
    put_u64(t1 - t0);
    printf("\n");
    for (i = 0; i < POOL; i++) {
        printf("LDDIGEST alg=hmac-sha256 bytes=%u index=%u digest=", (unsigned)BYTES, (unsigned)i);
        put_hex(ref[i], 32);
        printf("\n");
    }
    printf("LDDONE\n");
    return 0;
}
