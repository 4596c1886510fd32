/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: batches on the HMAC peripheral for a host whose addresses are not the
 * DMA's (ld_hw_hmac.h): the caller stages the messages, the descriptor table and the outputs
 * in the DMA range and passes bus addresses (the Python package over a bridge or a PYNQ
 * buffer). A file of its own: firmware, whose addresses are the DMA's, uses ld_hw_mac_batch
 * and links none of this. */
#include "ld_hw_internal.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_hw_hmac.h"

LD_LOCKED_HW_HMAC(LD_DECLARE_UNLOCKED)

/* A MAC peripheral with a batch walker: its hash algorithm and key slots */
static int mac_walker(const ld_hw_dev *dev, int *alg, unsigned *key_slots)
{
    return ld_mac_dev_ok(dev, alg, key_slots) && dev->batch_base;
}

int ld_hw_mac_batch_desc_set(ld_hw_batch_desc *d, const ld_hw_dev *dev, uintptr_t msg, size_t len,
                             uintptr_t out)
{
    ld_hw_info info;
    ld_md_facts f;
    int alg;

    if (!mac_walker(dev, &alg, NULL) || !ld_md_lookup(alg, &f))
        return LD_ERR_ARG;
    if (ld_hw_get_info(dev, &info) != LD_OK)
        return LD_ERR_HW;
    f.family = (uint8_t)dev->family; /* the descriptors are this peripheral's */
    f.variant = 0;
    return ld_batch_desc_fill(d, dev, &f, info.dma_align, msg, len, out);
}

int LD_UNLOCKED(ld_hw_mac_batch_run)(const ld_hw_dev *dev, unsigned key_slot, uintptr_t table,
                                     size_t n, size_t *done)
{
    unsigned slots;

    if (done)
        *done = 0;
    if (!mac_walker(dev, NULL, &slots) || key_slot >= slots || n > 0xffffffffu ||
        (n && !ld_hw_dma_ok(dev, table, n * sizeof(ld_hw_batch_desc), LD_HW_BATCH_DESC_ALIGN)))
        return LD_ERR_ARG;
    if (!((LD_RD32(dev, dev->keys_valid) >> key_slot) & 1u))
        return LD_ERR_STATE;
    ld_batch_load(dev, table, n);
    LD_WR32(dev, dev->ctrl, LD_CTRL_BATCH_START | LD_CTRL_KEY_VAL(key_slot));
    return ld_batch_wait(dev, done, 1);
}
