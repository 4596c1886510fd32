/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: several tasks on one peripheral (ld_config.h LD_CONFIG_LOCK).
 *
 * With LD_CONFIG_LOCK the entry points that touch a peripheral are compiled as *_unlocked
 * (ld_internal.h); here are the public names: take the device's lock (ld_hw_dev.lock), call,
 * give it back. A streaming context keeps the lock from a successful init until the call that
 * ends it (final, or any call that fails it): between its calls the message's chaining value
 * is in the peripheral's slot 0, which another task's job would overwrite. */
#include "ld_internal.h"

#if LD_CONFIG_LOCK
#include "litedigest/ld_hw_hmac.h"
#include "litedigest/ld_sched.h"
#include "litedigest/ld_skein.h"

#undef ld_hw_md
#undef ld_hw_md_init
#undef ld_hw_md_update
#undef ld_hw_md_final
#undef ld_hw_md_batch_run
#undef ld_hw_md_batch
#undef ld_hw_schedule
#undef ld_hw_cycles
#undef ld_hw_mac_set_key
#undef ld_hw_mac_wipe
#undef ld_hw_mac_init
#undef ld_hw_mac
#undef ld_hw_mac_batch
#undef ld_hw_hmac_key_init
#undef ld_hw_hmac_init
#undef ld_hw_hmac_update
#undef ld_hw_hmac_final
#undef ld_hw_hmac
#undef ld_hw_skein512_init
#undef ld_hw_skein512
#undef ld_skein512_update
#undef ld_skein512_update_bits
#undef ld_skein512_final

enum { ACTIVE = 1 };    /* the contexts' state while a message is open (md_hw.c, skein.c) */

static int take(const ld_hw_dev *dev)
{
    if (dev != NULL && dev->lock != NULL && dev->lock(dev->lock_arg) != 0)
        return LD_ERR_TIMEOUT;
    return LD_OK;
}

static void give(const ld_hw_dev *dev)
{
    if (dev != NULL && dev->unlock != NULL)
        dev->unlock(dev->lock_arg);
}

/* a whole call under the lock */
#define LOCKED(dev, call)                 \
    do {                                  \
        int r_ = take(dev);               \
        if (r_ != LD_OK)                  \
            return r_;                    \
        r_ = (call);                      \
        give(dev);                        \
        return r_;                        \
    } while (0)

/* a context's init: the lock stays taken when it succeeds */
#define OPENS(dev, call)                  \
    do {                                  \
        int r_ = take(dev);               \
        if (r_ != LD_OK)                  \
            return r_;                    \
        r_ = (call);                      \
        if (r_ != LD_OK)                  \
            give(dev);                    \
        return r_;                        \
    } while (0)

/* a call on an open context: the lock is given when the call ends (or fails) the message
 * (the device is read before the call: a final may wipe the context) */
#define ON_CONTEXT(active, dev, call)                     \
    do {                                                  \
        int was_ = (active);                              \
        const ld_hw_dev *dev_ = was_ ? (dev) : NULL;      \
        int r_ = (call);                                  \
        if (was_ && !(active))                            \
            give(dev_);                                   \
        return r_;                                        \
    } while (0)

#define MD_ACTIVE(ctx) ((ctx) != NULL && (ctx)->state == ACTIVE)

int ld_hw_md(const ld_hw_dev *dev, int alg, int path, const void *data, size_t len, uint8_t *out)
{
    LOCKED(dev, ld_hw_md_unlocked(dev, alg, path, data, len, out));
}

int ld_hw_md_init(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path)
{
    OPENS(dev, ld_hw_md_init_unlocked(ctx, dev, alg, path));
}

int ld_hw_md_update(ld_hw_md_ctx *ctx, const void *data, size_t len)
{
    ON_CONTEXT(MD_ACTIVE(ctx), ctx->dev, ld_hw_md_update_unlocked(ctx, data, len));
}

int ld_hw_md_final(ld_hw_md_ctx *ctx, uint8_t *out)
{
    ON_CONTEXT(MD_ACTIVE(ctx), ctx->dev, ld_hw_md_final_unlocked(ctx, out));
}

int ld_hw_md_batch_run(const ld_hw_dev *dev, uintptr_t table, size_t n, size_t *done)
{
    LOCKED(dev, ld_hw_md_batch_run_unlocked(dev, table, n, done));
}

int ld_hw_md_batch(const ld_hw_dev *dev, int alg, ld_hw_batch_desc *table, const void *const *msgs,
                   const size_t *lens, size_t n, uint8_t *digests, size_t *done)
{
    LOCKED(dev, ld_hw_md_batch_unlocked(dev, alg, table, msgs, lens, n, digests, done));
}

int ld_hw_schedule(const ld_hw_dev *dev, int path, ld_sched_msg *msgs, size_t nmsgs,
                   ld_sched_slot *slots, size_t nslots, ld_sched_stats *stats)
{
    LOCKED(dev, ld_hw_schedule_unlocked(dev, path, msgs, nmsgs, slots, nslots, stats));
}

int ld_hw_cycles(const ld_hw_dev *dev, uint64_t *out)
{
    LOCKED(dev, ld_hw_cycles_unlocked(dev, out));
}

int ld_hw_mac_set_key(const ld_hw_dev *dev, unsigned key_slot, const void *key, size_t keylen)
{
    LOCKED(dev, ld_hw_mac_set_key_unlocked(dev, key_slot, key, keylen));
}

int ld_hw_mac_wipe(const ld_hw_dev *dev)
{
    LOCKED(dev, ld_hw_mac_wipe_unlocked(dev));
}

int ld_hw_mac_init(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, unsigned key_slot, int path)
{
    OPENS(dev, ld_hw_mac_init_unlocked(ctx, dev, key_slot, path));
}

int ld_hw_mac(const ld_hw_dev *dev, unsigned key_slot, int path, const void *data, size_t len,
              uint8_t *mac)
{
    LOCKED(dev, ld_hw_mac_unlocked(dev, key_slot, path, data, len, mac));
}

int ld_hw_mac_batch(const ld_hw_dev *dev, unsigned key_slot, ld_hw_batch_desc *table,
                    const void *const *msgs, const size_t *lens, size_t n, uint8_t *macs,
                    size_t *done)
{
    LOCKED(dev, ld_hw_mac_batch_unlocked(dev, key_slot, table, msgs, lens, n, macs, done));
}

int ld_hw_hmac_key_init(ld_hw_hmac_key *k, const ld_hw_dev *dev, int alg, int path,
                        const void *key, size_t keylen)
{
    LOCKED(dev, ld_hw_hmac_key_init_unlocked(k, dev, alg, path, key, keylen));
}

int ld_hw_hmac_init(ld_hw_hmac_ctx *ctx, const ld_hw_hmac_key *k)
{
    OPENS(k != NULL ? k->dev : NULL, ld_hw_hmac_init_unlocked(ctx, k));
}

int ld_hw_hmac_update(ld_hw_hmac_ctx *ctx, const void *data, size_t len)
{
    ON_CONTEXT(ctx != NULL && MD_ACTIVE(&ctx->inner), ctx->inner.dev,
               ld_hw_hmac_update_unlocked(ctx, data, len));
}

int ld_hw_hmac_final(ld_hw_hmac_ctx *ctx, uint8_t *out)
{
    ON_CONTEXT(ctx != NULL && MD_ACTIVE(&ctx->inner), ctx->inner.dev,
               ld_hw_hmac_final_unlocked(ctx, out));
}

int ld_hw_hmac(const ld_hw_hmac_key *k, const void *data, size_t len, uint8_t *out)
{
    LOCKED(k != NULL ? k->dev : NULL, ld_hw_hmac_unlocked(k, data, len, out));
}

#if LD_CONFIG_SKEIN512
/* a hardware Skein context (dev set) that is open */
#define SKEIN_OPEN(ctx) ((ctx) != NULL && (ctx)->dev != NULL && (ctx)->state == ACTIVE)

int ld_hw_skein512_init(ld_skein512_ctx *ctx, const ld_hw_dev *dev, int path, size_t out_bits,
                        const uint8_t *key, size_t keylen)
{
    OPENS(dev, ld_hw_skein512_init_unlocked(ctx, dev, path, out_bits, key, keylen));
}

int ld_hw_skein512(const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key,
                   size_t keylen, const void *data, size_t nbits, uint8_t *out)
{
    LOCKED(dev, ld_hw_skein512_unlocked(dev, path, out_bits, key, keylen, data, nbits, out));
}

int ld_skein512_update(ld_skein512_ctx *ctx, const void *data, size_t len)
{
    ON_CONTEXT(SKEIN_OPEN(ctx), ctx->dev, ld_skein512_update_unlocked(ctx, data, len));
}

int ld_skein512_update_bits(ld_skein512_ctx *ctx, const void *data, size_t nbits)
{
    ON_CONTEXT(SKEIN_OPEN(ctx), ctx->dev, ld_skein512_update_bits_unlocked(ctx, data, nbits));
}

int ld_skein512_final(ld_skein512_ctx *ctx, uint8_t *out)
{
    ON_CONTEXT(SKEIN_OPEN(ctx), ctx->dev, ld_skein512_final_unlocked(ctx, out));
}
#endif

#else
typedef int ld_hw_lock_unused;   /* (ISO C: a translation unit is not empty) */
#endif
