/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: HMAC on the HMAC peripheral and on hash peripherals (ld_hw_hmac.h).
 * Jobs, waits and padding are md_hw.c's (an ld_hw_md_ctx with a start state and the key
 * slot's ctrl bits); this file adds the keys. */
#include "ld_hw_internal.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_hw_hmac.h"

LD_LOCKED_HW_HMAC(LD_DECLARE_UNLOCKED)

#define LD_HW_HMAC_MAGIC 0x68776b79u /* "hwky" */
#define IPAD             0x36u
#define OPAD             0x5cu

static int dev_usable(const ld_hw_dev *dev)
{
    return dev != NULL && LD_HAL_OK(dev);
}

/* K0 (RFC 2104): key zero-padded to alg's block, or its digest (software) zero-padded */
static int make_k0(int alg, const void *key, size_t keylen, uint8_t *k0)
{
    size_t bs = ld_md_block_size(alg), i;
    const uint8_t *k = (const uint8_t *)key;

    if (key == NULL && keylen > 0)
        return LD_ERR_ARG;
    ld_zero(k0, bs);
    if (keylen > bs)
        return ld_md(alg, key, keylen, k0);
    for (i = 0; i < keylen; i++)
        k0[i] = k[i];
    return LD_OK;
}

/* --- 1. the HMAC peripheral --------------------------------------------------------------- */

size_t ld_hw_mac_size(const ld_hw_dev *dev)
{
    int alg;
    return ld_mac_dev_ok(dev, &alg, NULL) ? ld_md_digest_size(alg) : 0;
}

unsigned ld_hw_mac_key_slots(const ld_hw_dev *dev)
{
    unsigned k;
    return ld_mac_dev_ok(dev, NULL, &k) ? k : 0;
}

uint32_t ld_hw_mac_keys(const ld_hw_dev *dev)
{
    return ld_mac_dev_ok(dev, NULL, NULL) ? LD_RD32(dev, dev->keys_valid) : 0;
}

int LD_UNLOCKED(ld_hw_mac_set_key)(const ld_hw_dev *dev, unsigned key_slot, const void *key,
                                   size_t keylen)
{
    uint8_t k0[LD_MD_MAX_BLOCK_SIZE];
    unsigned slots;
    int alg, r;

    if (!ld_mac_dev_ok(dev, &alg, &slots) || key_slot >= slots)
        return LD_ERR_ARG;
    r = make_k0(alg, key, keylen, k0);
    if (r == LD_OK) {
        /* a clean start on slot 0, as ld_hw_md_init does */
        LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
        LD_WR32(dev, ld_slot_word(dev->slots_ack, LD_INFO_SLOTS(LD_RD32(dev, dev->info)), 0), 1u);
        r = ld_hw_job_csr(dev, k0, ld_md_block_size(alg),
                          LD_CTRL_KEY_INIT | LD_CTRL_KEY_VAL(key_slot) | LD_CTRL_LAST, NULL);
    }
    ld_wipe(k0, sizeof k0);
    if (r == LD_OK && !((LD_RD32(dev, dev->keys_valid) >> key_slot) & 1u))
        r = LD_ERR_HW;
    return r;
}

int LD_UNLOCKED(ld_hw_mac_wipe)(const ld_hw_dev *dev)
{
    uint32_t st;

    if (!ld_mac_dev_ok(dev, NULL, NULL))
        return LD_ERR_ARG;
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    LD_WR32(dev, dev->ctrl, LD_CTRL_WIPE);
    st = LD_RD32(dev, dev->status);
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    if (st & LD_STATUS_ERR_STATE)
        return LD_ERR_STATE; /* a job runs: nothing was wiped */
    return LD_RD32(dev, dev->keys_valid) == 0 ? LD_OK : LD_ERR_HW;
}

int LD_UNLOCKED(ld_hw_mac_init)(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, unsigned key_slot,
                                int path)
{
    unsigned slots;
    int alg, r;

    if (ctx == NULL || !ld_mac_dev_ok(dev, &alg, &slots) || key_slot >= slots)
        return LD_ERR_ARG;
    if (!((LD_RD32(dev, dev->keys_valid) >> key_slot) & 1u))
        return LD_ERR_STATE;
    r = ld_hw_md_setup(ctx, dev, alg, path);
    if (r != LD_OK)
        return r;
    ctx->total = ld_md_block_size(alg); /* the padding counts K0 ^ ipad, the key slot's state */
    ctx->start_levels = LD_CTRL_KEY_VAL(key_slot);
    return LD_OK;
}

/* ld_hw_mac's general path: a `pad` job through md_hw.c's job functions on the DMA path, the
 * streaming context (ld_hw_mac_init) otherwise */
static int mac_general(const ld_hw_dev *dev, unsigned key_slot, int path, const void *data,
                       size_t len, uint8_t *mac)
{
    ld_hw_md_ctx ctx;
    ld_hw_info info;
    unsigned slots;
    int alg, r;

    if (!ld_mac_dev_ok(dev, &alg, &slots) || key_slot >= slots || mac == NULL ||
        (data == NULL && len > 0) || (path != LD_PATH_CSR && path != LD_PATH_DMA))
        return LD_ERR_ARG;
    if (path == LD_PATH_DMA && dev->batch_base && len <= 0xffffff80u &&
#if LD_CONFIG_HOST
        !dev->dma_write &&
#endif
        ld_hw_get_info(dev, &info) == LD_OK &&
        (len == 0 || ld_hw_dma_ok(dev, (uintptr_t)data, len, info.dma_align))) {
        /* one `pad` job: the peripheral pads (for 64 + len bytes) and runs both hashes; a key
         * slot without states is refused by the peripheral (err_state) */
        uint32_t words[LD_MD_MAX_STATE_WORDS];
        if (!((LD_RD32(dev, dev->keys_valid) >> key_slot) & 1u))
            return LD_ERR_STATE;
        LD_WR32(dev, ld_slot_word(dev->slots_ack, info.slots, 0), 1u); /* a clean start */
        LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
        r = ld_hw_job_dma(dev, len ? (uintptr_t)data : dev->ram_base, (uint32_t)len, 0, 0,
                          LD_CTRL_PAD | LD_CTRL_FIRST | LD_CTRL_LAST | LD_CTRL_KEY_VAL(key_slot),
                          NULL);
        if (r != LD_OK)
            return r;
        ld_hw_read_digest_words(dev, 0, words, ld_md_state_words(alg));
        ld_digest_bytes(ld_md_digest_size(alg), words, mac);
        return LD_OK;
    }
    r = LD_UNLOCKED(ld_hw_mac_init)(&ctx, dev, key_slot, path);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_md_update)(&ctx, data, len);
    return r == LD_OK ? LD_UNLOCKED(ld_hw_md_final)(&ctx, mac) : r;
}

#ifdef LD_ONESHOT_FAST
/* ld_hw_mac's DMA call of a message aligned to the block and in the DMA's range, on the
 * firmware's CPU: one `pad` job on slot 0 with the key slot's ctrl bits (ld_oneshot_job, the
 * code of ld_hw_md's SHA call, written for a short message's cost: md_hw.c's oneshot_body),
 * where the general path builds a job through the context functions (2,508 -> 1,070 cycles a
 * 64-byte MAC, CHANGELOG.md; docs/measurements/soc.md). The key slot is checked first: the peripheral refuses a
 * slot without states at the start, and the one-shot job only looks at the status at its
 * end. `mmio` as in ld_oneshot_job. */
static inline __attribute__((always_inline)) int mac_oneshot_body(const ld_hw_dev *dev,
                                                                  unsigned key_slot,
                                                                  const uint8_t *p, size_t len,
                                                                  uint8_t *mac, const int mmio)
{
    ld_md_facts f;
    unsigned slots;
    int alg;

    if (!ld_mac_dev_ok(dev, &alg, &slots) || key_slot >= slots || !dev->batch_base ||
        !ld_md_lookup(alg, &f) || !LD_ONESHOT_MSG_OK(dev, p, len, (size_t)1 << f.block_shift))
        return mac_general(dev, key_slot, LD_PATH_DMA, p, len, mac); /* a tail call */
    if (!((ONESHOT_RD(dev->keys_valid) >> key_slot) & 1u))
        return LD_ERR_STATE;
    f.variant = 0; /* the MAC peripheral has one */
    return ld_oneshot_job(dev, &f, LD_CTRL_KEY_VAL(key_slot), p, len, mac, mmio);
}

__attribute__((noinline))
LD_HOT(mac_oneshot_mmio) static int mac_oneshot_mmio(const ld_hw_dev *dev, unsigned key_slot,
                                                     const uint8_t *p, size_t len, uint8_t *mac)
{
    return mac_oneshot_body(dev, key_slot, p, len, mac, 1);
}

__attribute__((noinline)) static int mac_oneshot_hal(const ld_hw_dev *dev, unsigned key_slot,
                                                     const uint8_t *p, size_t len, uint8_t *mac)
{
    return mac_oneshot_body(dev, key_slot, p, len, mac, 0);
}
#endif

LD_HOT(hw_mac)
int LD_UNLOCKED(ld_hw_mac)(const ld_hw_dev *dev, unsigned key_slot, int path, const void *data,
                           size_t len, uint8_t *mac)
{
#ifdef LD_ONESHOT_FAST
    /* as ld_hw_md: tail calls all (the empty message may have no data pointer) */
    if (path == LD_PATH_DMA && LD_HAL_OK(dev) && mac != NULL && (data != NULL || len == 0)) {
        if (LD_OWN_MMIO(dev))
            return mac_oneshot_mmio(dev, key_slot, (const uint8_t *)data, len, mac);
        return mac_oneshot_hal(dev, key_slot, (const uint8_t *)data, len, mac);
    }
#endif
    return mac_general(dev, key_slot, path, data, len, mac);
}

/* --- 2. HMAC on a hash peripheral --------------------------------------------------------- */

static int key_live(const ld_hw_hmac_key *k)
{
    return k != NULL && k->magic == LD_HW_HMAC_MAGIC && dev_usable(k->dev) &&
           ld_md_block_size(k->alg) != 0 && ld_md_family(k->alg) == k->dev->family;
}

void ld_hw_hmac_key_wipe(ld_hw_hmac_key *k)
{
    if (k != NULL)
        ld_wipe(k, sizeof *k);
}

/* the chaining value of one block (K0 ^ pad) from the IV, computed on the peripheral */
static int key_state(const ld_hw_hmac_key *k, const uint8_t *k0, uint8_t pad, uint32_t *state)
{
    uint8_t blk[LD_MD_MAX_BLOCK_SIZE];
    size_t bs = ld_md_block_size(k->alg), i;
    int r;

    for (i = 0; i < bs; i++)
        blk[i] = (uint8_t)(k0[i] ^ pad);
    r = ld_hw_job_csr(k->dev, blk, bs, LD_CTRL_FIRST | LD_CTRL_VARIANT_VAL(ld_md_variant(k->alg)),
                      NULL);
    ld_wipe(blk, sizeof blk);
    if (r == LD_OK)
        ld_hw_read_digest_words(k->dev, 0, state, ld_md_state_words(k->alg));
    return r;
}

int LD_UNLOCKED(ld_hw_hmac_key_init)(ld_hw_hmac_key *k, const ld_hw_dev *dev, int alg, int path,
                                     const void *key, size_t keylen)
{
    uint8_t k0[LD_MD_MAX_BLOCK_SIZE];
    int r;

    if (k == NULL)
        return LD_ERR_ARG;
    ld_wipe(k, sizeof *k);
    if (!dev_usable(dev) || ld_md_block_size(alg) == 0 || ld_md_family(alg) != dev->family ||
        (path != LD_PATH_CSR && path != LD_PATH_DMA))
        return LD_ERR_ARG;
    k->dev = dev;
    k->alg = alg;
    k->path = path;
    r = make_k0(alg, key, keylen, k0);
    if (r == LD_OK) {
        LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
        LD_WR32(dev, ld_slot_word(dev->slots_ack, LD_INFO_SLOTS(LD_RD32(dev, dev->info)), 0), 1u);
        r = key_state(k, k0, IPAD, k->inner);
    }
    if (r == LD_OK)
        r = key_state(k, k0, OPAD, k->outer);
    ld_wipe(k0, sizeof k0);
    if (r != LD_OK) {
        ld_wipe(k, sizeof *k);
        return r;
    }
    k->magic = LD_HW_HMAC_MAGIC;
    return LD_OK;
}

/* ctx: a hash of alg on k's device that starts from `state`, after one block */
static int keyed_init(ld_hw_md_ctx *ctx, const ld_hw_hmac_key *k, const uint32_t *state, int path)
{
    int r = LD_UNLOCKED(ld_hw_md_init)(ctx, k->dev, k->alg, path);
    if (r == LD_OK) {
        ctx->total = ld_md_block_size(k->alg);
        ctx->start_cv = state;
    }
    return r;
}

int LD_UNLOCKED(ld_hw_hmac_init)(ld_hw_hmac_ctx *ctx, const ld_hw_hmac_key *k)
{
    if (ctx == NULL || !key_live(k))
        return LD_ERR_ARG;
    ctx->key = k;
    return keyed_init(&ctx->inner, k, k->inner, k->path);
}

int LD_UNLOCKED(ld_hw_hmac_update)(ld_hw_hmac_ctx *ctx, const void *data, size_t len)
{
    if (ctx == NULL)
        return LD_ERR_ARG;
    return LD_UNLOCKED(ld_hw_md_update)(&ctx->inner, data, len);
}

int LD_UNLOCKED(ld_hw_hmac_final)(ld_hw_hmac_ctx *ctx, uint8_t *out)
{
    uint8_t d[LD_MD_MAX_DIGEST_SIZE];
    ld_hw_md_ctx outer;
    int r;

    if (ctx == NULL)
        return LD_ERR_ARG;
    if (!key_live(ctx->key))
        return LD_ERR_STATE;
    r = LD_UNLOCKED(ld_hw_md_final)(&ctx->inner, d);
    /* the outer hash: one block (the inner digest and its padding) from the outer state */
    if (r == LD_OK)
        r = keyed_init(&outer, ctx->key, ctx->key->outer, LD_PATH_CSR);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_md_update)(&outer, d, ld_md_digest_size(ctx->key->alg));
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_md_final)(&outer, out);
    ld_wipe(d, sizeof d);
    ld_wipe(&ctx->inner, sizeof ctx->inner);
    ctx->key = NULL;
    return r;
}

int LD_UNLOCKED(ld_hw_hmac)(const ld_hw_hmac_key *k, const void *data, size_t len, uint8_t *out)
{
    ld_hw_hmac_ctx ctx;
    int r;

    if (out == NULL)
        return LD_ERR_ARG;
    r = LD_UNLOCKED(ld_hw_hmac_init)(&ctx, k);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_hw_hmac_update)(&ctx, data, len);
    if (r == LD_OK)
        return LD_UNLOCKED(ld_hw_hmac_final)(&ctx, out);
    ld_wipe(&ctx, sizeof ctx);
    return r;
}
