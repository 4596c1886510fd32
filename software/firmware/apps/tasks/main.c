/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest tasks firmware (LiteX, bare metal): two tasks on one peripheral, with the C
 * library built with LD_CONFIG_LOCK=1. The tasks are interleaved by hand, as a scheduler
 * would switch them: task A opens a streaming context (its message's chaining value then
 * lives in the peripheral's slot 0 between its calls) and, in the middle of it, task B calls
 * the driver on the same peripheral. Each device's lock hook is a try-lock of these
 * cooperative tasks: it refuses (B gets LD_ERR_TIMEOUT, nothing touched) while the other task
 * holds the peripheral; B tries again once A is done. Checked for the SHA-256 peripheral
 * (stream vs one-shot, batch, scheduler; HMAC on it from stored key states vs a one-shot), the
 * HMAC peripheral (stream vs key load, one-shot MAC), the Skein-512 peripheral (stream vs
 * one-shot): every digest equals the software one, the lock is free after each case and was
 * never taken twice by one call; a context that fails gives the lock back. And the hazard the
 * lock removes: the same interleaving on a device without hooks gives task A a wrong digest.
 * Output: "LDCHECK name=... ok=..." lines, then "LDDONE". */
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
#include "litedigest/ld_sched.h"
#include "litedigest/ld_hw_skein.h"
#include "../ld_app.h"

#if !LD_CONFIG_LOCK
#error "the tasks app needs the library built with LD_CONFIG_LOCK=1 (its Makefile does it)"
#endif

#define BYTES  3000
#define TASK_A 1
#define TASK_B 2

static uint8_t msg_a[BYTES] LD_DMA_ALIGNED;
static uint8_t msg_b[BYTES] LD_DMA_ALIGNED;
static const uint8_t key[37] = "a key that both tasks use, 37 bytes!";

/* --- the tasks' lock: a try-lock (cooperative tasks cannot block, they retry later) ---- */
typedef struct {
    int owner;   /* 0: free, else the task holding the peripheral */
    int refused; /* lock calls refused */
    int twice;   /* lock calls by the task that already held it (must stay 0) */
} task_lock;

static int current; /* the task running now */

static int try_lock(void *arg)
{
    task_lock *l = arg;

    if (l->owner == current) {
        l->twice++;
        return 1;
    }
    if (l->owner != 0) {
        l->refused++;
        return 1;
    }
    l->owner = current;
    return 0;
}

static void unlock(void *arg)
{
    ((task_lock *)arg)->owner = 0;
}

static void hooks(ld_hw_dev *dev, task_lock *l)
{
    dev->lock = try_lock;
    dev->unlock = unlock;
    dev->lock_arg = l;
}

static int lock_clean(const task_lock *l)
{
    return l->owner == 0 && l->twice == 0;
}

/* --- SHA-256 peripheral ----------------------------------------------------------------- */
static uint32_t long_msg[128 * 1024 / 4] LD_DMA_ALIGNED;
static ld_hw_dev sha_dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);
static ld_hw_dev sha_dev_bare = LD_APP_DEV(SHA256, LD_FAMILY_SHA256); /* no hooks */
static task_lock sha_lock;

static void sha_cases(void)
{
    ld_hw_md_ctx a;
    ld_hw_hmac_key k;
    ld_hw_hmac_ctx ha;
    uint8_t ref_a[32], ref_b[32], d[32], db[32];
    int r, rb;

    ld_md(LD_ALG_SHA256, msg_a, BYTES, ref_a);
    ld_md(LD_ALG_SHA256, msg_b, BYTES, ref_b);

    /* one-shot calls whose wait outlasts the bare loop's LD_HW_FIRST_POLLS polls (128 KiB:
     * about 67,000 cycles of the engine, some 5,000 polls), so that the rest of the wait, which
     * looks for work that vanished, runs: through the walker (batch_status) and, on a device
     * without a one-shot area, through the register job (slots_done) */
    current = TASK_A;
    {
        static ld_hw_dev no_area;
        uint8_t ref[32];

        memset(long_msg, 0x3c, sizeof long_msg);
        ld_md(LD_ALG_SHA256, long_msg, sizeof long_msg, ref);
        r = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_DMA, long_msg, sizeof long_msg, d);
        check("oneshot_long_wait_walker", r == LD_OK && memcmp(d, ref, 32) == 0);
        no_area = sha_dev;
        no_area.oneshot_area = NULL;
        r = ld_hw_md(&no_area, LD_ALG_SHA256, LD_PATH_DMA, long_msg, sizeof long_msg, d);
        check("oneshot_long_wait_registers",
              r == LD_OK && memcmp(d, ref, 32) == 0 && lock_clean(&sha_lock));
    }

    /* a stream of task A, a one-shot of task B in the middle of it */
    current = TASK_A;
    r = ld_hw_md_init(&a, &sha_dev, LD_ALG_SHA256, LD_PATH_DMA);
    r |= ld_hw_md_update(&a, msg_a, 1024);
    check("stream_holds_lock", r == LD_OK && sha_lock.owner == TASK_A);
    current = TASK_B;
    rb = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_DMA, msg_b, BYTES, db);
    check("oneshot_refused_during_stream", rb == LD_ERR_TIMEOUT && sha_lock.refused == 1);
    rb = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_CSR, msg_b, 64, db);
    check("csr_oneshot_refused_during_stream", rb == LD_ERR_TIMEOUT);
    current = TASK_A;
    r = ld_hw_md_update(&a, msg_a + 1024, BYTES - 1024);
    r |= ld_hw_md_final(&a, d);
    check("stream_digest_right", r == LD_OK && memcmp(d, ref_a, 32) == 0);
    check("stream_gave_lock", lock_clean(&sha_lock));
    current = TASK_B;
    rb = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_DMA, msg_b, BYTES, db);
    check("oneshot_after_stream_right",
          rb == LD_OK && memcmp(db, ref_b, 32) == 0 && lock_clean(&sha_lock));

    /* a batch and the scheduler of task B are refused while A's stream is open */
    {
        static ld_hw_batch_desc table[2] __attribute__((aligned(LD_HW_BATCH_DESC_ALIGN)));
        static uint8_t outs[2 * 32] LD_DMA_ALIGNED;
        static ld_sched_slot slots[1];
        const void *msgs[2] = {msg_a, msg_b};
        size_t lens[2] = {BYTES, BYTES};
        ld_sched_msg sm[1];
        uint8_t so[32];

        current = TASK_A;
        r = ld_hw_md_init(&a, &sha_dev, LD_ALG_SHA256, LD_PATH_CSR);
        r |= ld_hw_md_update(&a, msg_a, 100);
        current = TASK_B;
        rb = ld_hw_md_batch(&sha_dev, LD_ALG_SHA256, table, msgs, lens, 2, outs, NULL);
        check("batch_refused_during_stream", rb == LD_ERR_TIMEOUT);
        memset(sm, 0, sizeof sm);
        sm[0].data = msg_b;
        sm[0].len = BYTES;
        sm[0].alg = LD_ALG_SHA256;
        sm[0].out = so;
        rb = ld_hw_schedule(&sha_dev, LD_PATH_DMA, sm, 1, slots, 1, NULL);
        check("schedule_refused_during_stream", rb == LD_ERR_TIMEOUT);
        current = TASK_A;
        r |= ld_hw_md_update(&a, msg_a + 100, BYTES - 100);
        r |= ld_hw_md_final(&a, d);
        check("csr_stream_digest_right",
              r == LD_OK && memcmp(d, ref_a, 32) == 0 && lock_clean(&sha_lock));
        current = TASK_B;
        rb = ld_hw_md_batch(&sha_dev, LD_ALG_SHA256, table, msgs, lens, 2, outs, NULL);
        check("batch_after_stream_right",
              rb == LD_OK && memcmp(outs, ref_a, 32) == 0 && memcmp(outs + 32, ref_b, 32) == 0);
        rb = ld_hw_schedule(&sha_dev, LD_PATH_DMA, sm, 1, slots, 1, NULL);
        check("schedule_after_stream_right",
              rb == LD_OK && memcmp(so, ref_b, 32) == 0 && lock_clean(&sha_lock));
    }

    /* a context that fails gives the lock back: a DMA update outside RAM fails it */
    current = TASK_A;
    r = ld_hw_md_init(&a, &sha_dev, LD_ALG_SHA256, LD_PATH_DMA);
    r = ld_hw_md_update(&a, (const void *)(uintptr_t)(MAIN_RAM_BASE + MAIN_RAM_SIZE), 4096);
    check("failed_stream_gave_lock", r != LD_OK && lock_clean(&sha_lock) &&
                                         ld_hw_md_final(&a, d) == LD_ERR_STATE &&
                                         lock_clean(&sha_lock));
    current = TASK_B;
    rb = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_DMA, msg_b, BYTES, db);
    check("oneshot_after_failed_stream_right", rb == LD_OK && memcmp(db, ref_b, 32) == 0);

    /* HMAC on the SHA peripheral from stored key states: A's MAC stream, B's one-shot */
    {
        uint8_t ref_mac[32], mac[32];
        ld_hmac(LD_ALG_SHA256, key, sizeof key, msg_a, BYTES, ref_mac);
        current = TASK_A;
        r = ld_hw_hmac_key_init(&k, &sha_dev, LD_ALG_SHA256, LD_PATH_DMA, key, sizeof key);
        r |= ld_hw_hmac_init(&ha, &k);
        r |= ld_hw_hmac_update(&ha, msg_a, 500);
        current = TASK_B;
        rb = ld_hw_md(&sha_dev, LD_ALG_SHA256, LD_PATH_DMA, msg_b, BYTES, db);
        check("oneshot_refused_during_hmac", rb == LD_ERR_TIMEOUT);
        current = TASK_A;
        r |= ld_hw_hmac_update(&ha, msg_a + 500, BYTES - 500);
        r |= ld_hw_hmac_final(&ha, mac);
        check("hmac_stream_right",
              r == LD_OK && memcmp(mac, ref_mac, 32) == 0 && lock_clean(&sha_lock));
        ld_hw_hmac_key_wipe(&k);
    }

    /* the hazard: the same interleaving without hooks gives A a wrong digest */
    current = TASK_A;
    r = ld_hw_md_init(&a, &sha_dev_bare, LD_ALG_SHA256, LD_PATH_DMA);
    r |= ld_hw_md_update(&a, msg_a, 1024);
    current = TASK_B;
    rb = ld_hw_md(&sha_dev_bare, LD_ALG_SHA256, LD_PATH_DMA, msg_b, BYTES, db);
    current = TASK_A;
    r |= ld_hw_md_update(&a, msg_a + 1024, BYTES - 1024);
    r |= ld_hw_md_final(&a, d);
    check("without_lock_a_is_wrong", r == LD_OK && rb == LD_OK && memcmp(d, ref_a, 32) != 0);
}

/* --- HMAC peripheral ------------------------------------------------------------------- */
#ifdef CSR_HMAC_SHA256_BASE
static ld_hw_dev mac_dev = LD_APP_DEV_MAC(HMAC_SHA256, LD_FAMILY_HMAC_SHA256);
static task_lock mac_lock;

static void mac_cases(void)
{
    static const uint8_t other_key[5] = "other";
    ld_hw_md_ctx a;
    uint8_t ref_a[32], ref_b[32], d[32], db[32];
    int r, rb;

    ld_hmac(LD_ALG_SHA256, key, sizeof key, msg_a, BYTES, ref_a);
    ld_hmac(LD_ALG_SHA256, key, sizeof key, msg_b, BYTES, ref_b);
    current = TASK_A;
    r = ld_hw_mac_set_key(&mac_dev, 1, key, sizeof key);
    r |= ld_hw_mac_init(&a, &mac_dev, 1, LD_PATH_DMA);
    r |= ld_hw_md_update(&a, msg_a, 2000);
    current = TASK_B;
    rb = ld_hw_mac_set_key(&mac_dev, 1, other_key, sizeof other_key);
    check("mac_key_load_refused_during_stream", rb == LD_ERR_TIMEOUT);
    rb = ld_hw_mac(&mac_dev, 1, LD_PATH_DMA, msg_b, BYTES, db);
    check("mac_refused_during_stream", rb == LD_ERR_TIMEOUT);
    current = TASK_A;
    r |= ld_hw_md_update(&a, msg_a + 2000, BYTES - 2000);
    r |= ld_hw_md_final(&a, d);
    check("mac_stream_right", r == LD_OK && memcmp(d, ref_a, 32) == 0 && lock_clean(&mac_lock));
    current = TASK_B;
    rb = ld_hw_mac(&mac_dev, 1, LD_PATH_DMA, msg_b, BYTES, db);
    check("mac_after_stream_right",
          rb == LD_OK && memcmp(db, ref_b, 32) == 0 && lock_clean(&mac_lock));
}
#endif

/* --- Skein-512 peripheral -------------------------------------------------------------- */
#if defined(CSR_SKEIN512_BASE) && LD_CONFIG_SKEIN512
static ld_hw_dev skein_dev = LD_APP_DEV_SKEIN(SKEIN512);
static task_lock skein_lock;

static void skein_cases(void)
{
    ld_skein512_ctx a;
    uint8_t ref_a[64], ref_b[64], d[64], db[64];
    int r, rb;

    ld_skein512(512, NULL, 0, msg_a, 8 * (size_t)BYTES, ref_a);
    ld_skein512(512, NULL, 0, msg_b, 8 * (size_t)BYTES, ref_b);
    current = TASK_A;
    r = ld_hw_skein512_init(&a, &skein_dev, LD_PATH_DMA, 512, NULL, 0);
    r |= ld_skein512_update(&a, msg_a, 1000);
    current = TASK_B;
    rb = ld_hw_skein512(&skein_dev, LD_PATH_DMA, 512, NULL, 0, msg_b, 8 * (size_t)BYTES, db);
    check("skein_refused_during_stream", rb == LD_ERR_TIMEOUT);
    current = TASK_A;
    r |= ld_skein512_update(&a, msg_a + 1000, BYTES - 1000);
    r |= ld_skein512_final(&a, d);
    check("skein_stream_right", r == LD_OK && memcmp(d, ref_a, 64) == 0 && lock_clean(&skein_lock));
    current = TASK_B;
    rb = ld_hw_skein512(&skein_dev, LD_PATH_DMA, 512, NULL, 0, msg_b, 8 * (size_t)BYTES, db);
    check("skein_after_stream_right",
          rb == LD_OK && memcmp(db, ref_b, 64) == 0 && lock_clean(&skein_lock));
}
#endif

int main(void)
{
    fill_pool(msg_a, 1, BYTES);
    fill_pool(msg_b, 1, BYTES);
    msg_b[0] ^= 0x5a; /* a different message */
    hooks(&sha_dev, &sha_lock);
    sha_cases();
#ifdef CSR_HMAC_SHA256_BASE
    hooks(&mac_dev, &mac_lock);
    mac_cases();
#endif
#if defined(CSR_SKEIN512_BASE) && LD_CONFIG_SKEIN512
    hooks(&skein_dev, &skein_lock);
    skein_cases();
#endif
    printf("LDDONE\n");
    return 0;
}
