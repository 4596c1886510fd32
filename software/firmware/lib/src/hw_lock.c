/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: several tasks on one peripheral (ld_config.h LD_CONFIG_LOCK).
 *
 * With LD_CONFIG_LOCK the entry points that touch a peripheral are compiled as *_unlocked
 * (ld_lock.h); here are the public names: take the device's lock (ld_hw_dev.lock), call,
 * give it back. A streaming context keeps the lock from a successful init until the call that
 * ends it (final, or any call that fails it): between its calls the message's chaining value
 * is in the peripheral's slot 0, which another task's job would overwrite. */
#include "ld_hw_internal.h"

#if LD_CONFIG_LOCK
#include "litedigest/ld_hw_hmac.h"
#include "litedigest/ld_sched.h"
#include "litedigest/ld_hw_skein.h"

LD_LOCKED_SCHED(LD_DECLARE_UNLOCKED)
LD_LOCKED_HW_HMAC(LD_DECLARE_UNLOCKED)
LD_LOCKED_HW_SKEIN(LD_DECLARE_UNLOCKED)
LD_LOCKED_SKEIN(LD_DECLARE_UNLOCKED)

enum { ACTIVE = 1 }; /* the contexts' state while a message is open (md_hw.c, skein_sw.c) */

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
#define LOCKED(dev, call)                                                                          \
    do {                                                                                           \
        int r_ = take(dev);                                                                        \
        if (r_ != LD_OK)                                                                           \
            return r_;                                                                             \
        r_ = (call);                                                                               \
        give(dev);                                                                                 \
        return r_;                                                                                 \
    } while (0)

/* a context's init: the lock stays taken when it succeeds */
#define OPENS(dev, call)                                                                           \
    do {                                                                                           \
        int r_ = take(dev);                                                                        \
        if (r_ != LD_OK)                                                                           \
            return r_;                                                                             \
        r_ = (call);                                                                               \
        if (r_ != LD_OK)                                                                           \
            give(dev);                                                                             \
        return r_;                                                                                 \
    } while (0)

/* a call on an open context: the lock is given when the call ends (or fails) the message
 * (the device is read before the call: a final may wipe the context) */
#define ON_CONTEXT(active, dev, call)                                                              \
    do {                                                                                           \
        int was_ = (active);                                                                       \
        const ld_hw_dev *dev_ = was_ ? (dev) : NULL;                                               \
        int r_ = (call);                                                                           \
        if (was_ && !(active))                                                                     \
            give(dev_);                                                                            \
        return r_;                                                                                 \
    } while (0)

#define MD_ACTIVE(ctx) ((ctx) != NULL && (ctx)->state == ACTIVE)

/* the public name of an entry point around its unlocked one (ld_lock.h's lists) */
#define WRAPPER(name, params, args, how, ...)                                                      \
    int name params                                                                                \
    {                                                                                              \
        how(__VA_ARGS__, name##_unlocked args);                                                    \
    }

LD_LOCKED_HW(WRAPPER)
LD_LOCKED_SCHED(WRAPPER)
LD_LOCKED_CYCLES(WRAPPER)
LD_LOCKED_HW_HMAC(WRAPPER)

#if LD_CONFIG_SKEIN512
/* a hardware Skein context (dev set) that is open */
#define SKEIN_OPEN(ctx) ((ctx) != NULL && (ctx)->dev != NULL && (ctx)->state == ACTIVE)

LD_LOCKED_HW_SKEIN(WRAPPER)
LD_LOCKED_SKEIN(WRAPPER)
#endif

#else
typedef int ld_hw_lock_unused; /* (ISO C: a translation unit is not empty) */
#endif
