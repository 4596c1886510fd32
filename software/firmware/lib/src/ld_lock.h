/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the entry points that take a peripheral's lock (ld_config.h
 * LD_CONFIG_LOCK), listed once.
 *
 * With LD_CONFIG_LOCK each of them is compiled as LD_UNLOCKED(name), name_unlocked, and
 * hw_lock.c defines the public name around it from these lists: lock, call, unlock. Calls
 * inside the library go to LD_UNLOCKED(name), so nothing takes the lock twice. A list entry
 * is X(name, parameters, arguments, how, how's first arguments), `how` one of hw_lock.c's
 * LOCKED (dev), OPENS (dev: a context's init, the lock kept when it succeeds) and ON_CONTEXT
 * (whether the context is open, its dev). One list per public header, so that a source
 * declares the unlocked names of the header it includes (LD_DECLARE_UNLOCKED). */
#ifndef LITEDIGEST_LD_LOCK_H
#define LITEDIGEST_LD_LOCK_H

#include "litedigest/ld_config.h"

#if LD_CONFIG_LOCK
#define LD_UNLOCKED(name)                            name##_unlocked
#define LD_DECLARE_UNLOCKED(name, params, args, ...) int LD_UNLOCKED(name) params;
#else
#define LD_UNLOCKED(name) name
#define LD_DECLARE_UNLOCKED(name, params, args, ...)
#endif

/* ld_hw.h */
#define LD_LOCKED_HW(X)                                                                            \
    X(ld_hw_md,                                                                                    \
      (const ld_hw_dev *dev, int alg, int path, const void *data, size_t len, uint8_t *out),       \
      (dev, alg, path, data, len, out), LOCKED, dev)                                               \
    X(ld_hw_md_init, (ld_hw_md_ctx * ctx, const ld_hw_dev *dev, int alg, int path),                \
      (ctx, dev, alg, path), OPENS, dev)                                                           \
    X(ld_hw_md_update, (ld_hw_md_ctx * ctx, const void *data, size_t len), (ctx, data, len),       \
      ON_CONTEXT, MD_ACTIVE(ctx), ctx->dev)                                                        \
    X(ld_hw_md_final, (ld_hw_md_ctx * ctx, uint8_t * out), (ctx, out), ON_CONTEXT, MD_ACTIVE(ctx), \
      ctx->dev)                                                                                    \
    X(ld_hw_md_batch_run, (const ld_hw_dev *dev, uintptr_t table, size_t n, size_t *done),         \
      (dev, table, n, done), LOCKED, dev)                                                          \
    X(ld_hw_md_batch,                                                                              \
      (const ld_hw_dev *dev, int alg, ld_hw_batch_desc *table, const void *const *msgs,            \
       const size_t *lens, size_t n, uint8_t *digests, size_t *done),                              \
      (dev, alg, table, msgs, lens, n, digests, done), LOCKED, dev)                                \
    X(ld_hw_md_batch_lengths,                                                                      \
      (const ld_hw_dev *dev, ld_hw_batch_desc *table, const size_t *lens, size_t n, size_t cap,    \
       size_t *done),                                                                              \
      (dev, table, lens, n, cap, done), LOCKED, dev)

/* ld_sched.h */
#define LD_LOCKED_SCHED(X)                                                                         \
    X(ld_hw_schedule,                                                                              \
      (const ld_hw_dev *dev, int path, ld_sched_msg *msgs, size_t nmsgs, ld_sched_slot *slots,     \
       size_t nslots, ld_sched_stats *stats),                                                      \
      (dev, path, msgs, nmsgs, slots, nslots, stats), LOCKED, dev)

/* ld_hw.h's cycle counter */
#define LD_LOCKED_CYCLES(X)                                                                        \
    X(ld_hw_cycles, (const ld_hw_dev *dev, uint64_t *out), (dev, out), LOCKED, dev)

/* ld_hw_hmac.h */
#define LD_LOCKED_HW_HMAC(X)                                                                       \
    X(ld_hw_mac_set_key,                                                                           \
      (const ld_hw_dev *dev, unsigned key_slot, const void *key, size_t keylen),                   \
      (dev, key_slot, key, keylen), LOCKED, dev)                                                   \
    X(ld_hw_mac_wipe, (const ld_hw_dev *dev), (dev), LOCKED, dev)                                  \
    X(ld_hw_mac_init, (ld_hw_md_ctx * ctx, const ld_hw_dev *dev, unsigned key_slot, int path),     \
      (ctx, dev, key_slot, path), OPENS, dev)                                                      \
    X(ld_hw_mac,                                                                                   \
      (const ld_hw_dev *dev, unsigned key_slot, int path, const void *data, size_t len,            \
       uint8_t *mac),                                                                              \
      (dev, key_slot, path, data, len, mac), LOCKED, dev)                                          \
    X(ld_hw_mac_batch,                                                                             \
      (const ld_hw_dev *dev, unsigned key_slot, ld_hw_batch_desc *table, const void *const *msgs,  \
       const size_t *lens, size_t n, uint8_t *macs, size_t *done),                                 \
      (dev, key_slot, table, msgs, lens, n, macs, done), LOCKED, dev)                              \
    X(ld_hw_mac_batch_keys,                                                                        \
      (const ld_hw_dev *dev, const uint8_t *key_slots, ld_hw_batch_desc *table,                    \
       const void *const *msgs, const size_t *lens, size_t n, uint8_t *macs, size_t *done),        \
      (dev, key_slots, table, msgs, lens, n, macs, done), LOCKED, dev)                             \
    X(ld_hw_mac_batch_run,                                                                         \
      (const ld_hw_dev *dev, unsigned key_slot, uintptr_t table, size_t n, size_t *done),          \
      (dev, key_slot, table, n, done), LOCKED, dev)                                                \
    X(ld_hw_hmac_key_init,                                                                         \
      (ld_hw_hmac_key * k, const ld_hw_dev *dev, int alg, int path, const void *key,               \
       size_t keylen),                                                                             \
      (k, dev, alg, path, key, keylen), LOCKED, dev)                                               \
    X(ld_hw_hmac_init, (ld_hw_hmac_ctx * ctx, const ld_hw_hmac_key *k), (ctx, k), OPENS,           \
      k != NULL ? k->dev : NULL)                                                                   \
    X(ld_hw_hmac_update, (ld_hw_hmac_ctx * ctx, const void *data, size_t len), (ctx, data, len),   \
      ON_CONTEXT, ctx != NULL && MD_ACTIVE(&ctx->inner), ctx->inner.dev)                           \
    X(ld_hw_hmac_final, (ld_hw_hmac_ctx * ctx, uint8_t * out), (ctx, out), ON_CONTEXT,             \
      ctx != NULL && MD_ACTIVE(&ctx->inner), ctx->inner.dev)                                       \
    X(ld_hw_hmac, (const ld_hw_hmac_key *k, const void *data, size_t len, uint8_t *out),           \
      (k, data, len, out), LOCKED, k != NULL ? k->dev : NULL)

/* ld_hw_skein.h */
#define LD_LOCKED_HW_SKEIN(X)                                                                      \
    X(ld_hw_skein512_init,                                                                         \
      (ld_skein512_ctx * ctx, const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key, \
       size_t keylen),                                                                             \
      (ctx, dev, path, out_bits, key, keylen), OPENS, dev)                                         \
    X(ld_hw_skein512,                                                                              \
      (const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key, size_t keylen,         \
       const void *data, size_t nbits, uint8_t *out),                                              \
      (dev, path, out_bits, key, keylen, data, nbits, out), LOCKED, dev)

/* ld_skein.h: a context on a peripheral (ld_hw_skein512_init) keeps the lock from its init to
 * the call that ends it */
#define LD_LOCKED_SKEIN(X)                                                                         \
    X(ld_skein512_update, (ld_skein512_ctx * ctx, const void *data, size_t len), (ctx, data, len), \
      ON_CONTEXT, SKEIN_OPEN(ctx), ctx->dev)                                                       \
    X(ld_skein512_update_bits, (ld_skein512_ctx * ctx, const void *data, size_t nbits),            \
      (ctx, data, nbits), ON_CONTEXT, SKEIN_OPEN(ctx), ctx->dev)                                   \
    X(ld_skein512_final, (ld_skein512_ctx * ctx, uint8_t * out), (ctx, out), ON_CONTEXT,           \
      SKEIN_OPEN(ctx), ctx->dev)

#endif
