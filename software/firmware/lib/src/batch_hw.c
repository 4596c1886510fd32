/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: whole batches from firmware, whose addresses are the DMA's
 * (ld_hw_md_batch, ld_hw_mac_batch): the CPU fills the descriptor table and the walker walks it,
 * the two overlapped. A file of its own, so that an app that runs no such batch links none of
 * it, and one that does has the batch's code in its hot block. */
#include "ld_hw_internal.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_hw_hmac.h"

LD_LOCKED_HW_HMAC(LD_DECLARE_UNLOCKED)

/* The walker takes the table in runs, the first of LD_BATCH_RUN_FIRST descriptors and each
 * next one twice as long, up to LD_BATCH_RUN_MOST: the CPU fills run k + 1 while the walker
 * walks run k, so that filling the descriptors (four bus writes each through the
 * write-through D-cache) and walking them overlap instead of adding up. A run's start and wait
 * cost a few register accesses, hence runs that grow rather than one start per descriptor. */
#define LD_BATCH_RUN_FIRST 8u
#define LD_BATCH_RUN_MOST  128u

/* A ring's descriptors from .. to - 1: their length words only (lens[i] <= cap); returns where
 * it stopped, to or the index of a length over cap (*r LD_ERR_RANGE). A function of its own, so
 * that the batch's fill loop below keeps the CPU's registers to itself (a spill would be a
 * store, and every store a bus write through the write-through D-cache). */
LD_HOT(batch_fill_lengths)
__attribute__((noinline)) static size_t fill_lengths(ld_hw_batch_desc *table, const size_t *lens,
                                                     size_t from, size_t to, size_t cap, int *r)
{
    size_t i;

    for (i = from; i < to; i++) {
        if (lens[i] > cap) {
            *r = LD_ERR_RANGE;
            break;
        }
        table[i].words[1] = ld_le32((uint32_t)lens[i]);
    }
    return i;
}

/* The descriptors from .. to - 1 of messages under their own key slots (keys[i], each a bit of
 * key_ok), as batch_stream's fill loop writes the others; returns where it stopped, to or the
 * index of a message refused (*r its error). A function of its own for the fill loop's
 * registers, as fill_lengths. */
LD_HOT(batch_fill_keyed)
__attribute__((noinline)) static size_t
fill_keyed(const ld_hw_dev *dev, uint32_t align, unsigned variant, ld_hw_batch_desc *table,
           const void *const *msgs, const size_t *lens, const uint8_t *keys, uint32_t key_ok,
           uint8_t *outs, size_t stride, size_t from, size_t to, int *r)
{
    size_t i;
    int e = LD_OK; /* (*r written once: a store is a bus write) */

    for (i = from; i < to; i++) {
        uintptr_t msg = (uintptr_t)msgs[i];
        size_t len = lens[i];
        unsigned k = keys[i];

        e = k < 32u && ((key_ok >> k) & 1u) ? ld_batch_msg_check(dev, align, msg, len)
                                            : LD_ERR_STATE;
        if (e != LD_OK)
            break;
        ld_batch_desc_write(&table[i], len ? msg : dev->ram_base, len,
                            (uintptr_t)(outs + i * stride), variant | LD_DESC_KEY_VAL(k));
    }
    *r = e;
    return i;
}

/* ld_hw_md_batch's, ld_hw_mac_batch's, ld_hw_mac_batch_keys's and ld_hw_md_batch_lengths's
 * body: n messages (msgs[i], lens[i]; checked here), their descriptors in table (n entries)
 * and their chaining values to outs + i * stride; with keys, message i under key slot keys[i]
 * (a bit of key_ok, else LD_ERR_STATE); or, with msgs NULL, a table already set, of which
 * only the lengths are written (lens[i] <= cap). The walker is started with ctrl = start, in
 * runs that it walks while the CPU fills the next. On LD_OK every message is written; on a
 * refused message (LD_ERR_ARG, LD_ERR_RANGE, LD_ERR_STATE) the messages before it are walked
 * and written and *done is its index; on LD_ERR_HW and LD_ERR_TIMEOUT *done counts the
 * chaining values written, as ld_batch_wait's. dma_inval is called once, at the end, when a
 * run was started. */
LD_HOT(batch_stream)
static int batch_stream(const ld_hw_dev *dev, const ld_md_facts *f, uint32_t align, uint32_t start,
                        ld_hw_batch_desc *table, const void *const *msgs, const size_t *lens,
                        const uint8_t *keys, uint32_t key_ok, size_t n, uint8_t *outs, size_t cap,
                        size_t *done)
{
    size_t stride = ld_batch_stride(f->family), filled = 0, started = 0, walked = 0, got;
    size_t run = LD_BATCH_RUN_FIRST, end;
    int fill_r = LD_OK, r = LD_OK;

    if (done)
        *done = 0;
    if (f->family != dev->family || n > 0xffffffffu)
        return LD_ERR_ARG;
    if (n && msgs != NULL &&
        (n > dev->ram_size / stride ||
         !ld_dma_range_ok(dev, (uintptr_t)outs, n * stride, (uint32_t)stride)))
        return LD_ERR_RANGE;
    if (n && !ld_dma_range_ok(dev, (uintptr_t)table, n * sizeof *table, LD_HW_BATCH_DESC_ALIGN))
        return LD_ERR_ARG;
    for (;;) {
        end = filled + (run < n - filled ? run : n - filled);
        if (msgs == NULL && fill_r == LD_OK && filled < end)
            filled = fill_lengths(table, lens, filled, end, cap, &fill_r);
        if (keys != NULL && fill_r == LD_OK && filled < end)
            filled = fill_keyed(dev, align, f->variant, table, msgs, lens, keys, key_ok, outs,
                                stride, filled, end, &fill_r);
        for (; msgs != NULL && keys == NULL && fill_r == LD_OK && filled < end; filled++) {
            uintptr_t msg = (uintptr_t)msgs[filled];
            size_t len = lens[filled];

            fill_r = ld_batch_msg_check(dev, align, msg, len);
            if (fill_r != LD_OK)
                break;
            ld_batch_desc_write(&table[filled], len ? msg : dev->ram_base, len,
                                (uintptr_t)(outs + filled * stride), f->variant);
        }
        if (started > walked) {
            r = ld_batch_wait(dev, &got, 0);
            walked += got;
            if (done)
                *done = walked;
            if (r == LD_ERR_TIMEOUT)
                return r; /* the run still walks: nothing is acknowledged */
            if (r != LD_OK)
                break;
        }
        if (filled == started)
            break; /* all walked, or a descriptor refused before the run */
        if (dev->dma_sync)
            dev->dma_sync();
        ld_batch_load(dev, (uintptr_t)&table[started], filled - started);
        LD_WR32(dev, dev->ctrl, start);
        started = filled;
        run = run < LD_BATCH_RUN_MOST / 2 ? 2 * run : LD_BATCH_RUN_MOST;
    }
    if (started && dev->dma_inval)
        dev->dma_inval();
    return r != LD_OK ? r : fill_r;
}

int LD_UNLOCKED(ld_hw_md_batch)(const ld_hw_dev *dev, int alg, ld_hw_batch_desc *table,
                                const void *const *msgs, const size_t *lens, size_t n,
                                uint8_t *digests, size_t *done)
{
    ld_hw_info info;
    ld_md_facts f;

    if (done)
        *done = 0;
    if (table == NULL || digests == NULL || (n && (msgs == NULL || lens == NULL)) ||
        !LD_HAL_OK(dev) || !dev->batch_base || !ld_hw_alg_facts(alg, &f))
        return LD_ERR_ARG;
    if (ld_hw_get_info(dev, &info) != LD_OK)
        return LD_ERR_HW;
    return batch_stream(dev, &f, info.dma_align, LD_CTRL_BATCH_START, table, msgs, lens, NULL, 0, n,
                        digests, 0, done);
}

int LD_UNLOCKED(ld_hw_md_batch_lengths)(const ld_hw_dev *dev, ld_hw_batch_desc *table,
                                        const size_t *lens, size_t n, size_t cap, size_t *done)
{
    ld_md_facts f;

    if (done)
        *done = 0;
    if (table == NULL || (n && lens == NULL) || !LD_HAL_OK(dev) || !dev->batch_base ||
        cap > 0xffffff80u)
        return LD_ERR_ARG;
    f.family = (uint8_t)dev->family; /* (the table is set: its variants and outputs stay) */
    f.variant = 0;
    return batch_stream(dev, &f, 0, LD_CTRL_BATCH_START, table, NULL, lens, NULL, 0, n, NULL, cap,
                        done);
}

/* ld_hw_mac_batch's and ld_hw_mac_batch_keys's checks and set-up: the batch under key_slot
 * (keys NULL) or under each message's own key slot */
static int mac_batch(const ld_hw_dev *dev, unsigned key_slot, const uint8_t *keys,
                     ld_hw_batch_desc *table, const void *const *msgs, const size_t *lens, size_t n,
                     uint8_t *macs, size_t *done)
{
    ld_hw_info info;
    ld_md_facts f;
    unsigned slots;
    uint32_t valid;
    int alg;

    if (done)
        *done = 0;
    if (table == NULL || macs == NULL || (n && (msgs == NULL || lens == NULL)) ||
        !ld_mac_dev_ok(dev, &alg, &slots) || (keys == NULL && key_slot >= slots) ||
        !dev->batch_base || n > 0xffffffffu || !ld_md_lookup(alg, &f))
        return LD_ERR_ARG;
    valid = LD_RD32(dev, dev->keys_valid) & (slots < 32u ? (1u << slots) - 1u : 0xffffffffu);
    if (keys == NULL && !((valid >> key_slot) & 1u))
        return LD_ERR_STATE;
    if (ld_hw_get_info(dev, &info) != LD_OK)
        return LD_ERR_HW;
    f.family = (uint8_t)dev->family; /* the descriptors are this peripheral's */
    f.variant = 0;
    return batch_stream(dev, &f, info.dma_align,
                        LD_CTRL_BATCH_START | (keys ? 0u : LD_CTRL_KEY_VAL(key_slot)), table, msgs,
                        lens, keys, valid, n, macs, 0, done);
}

int LD_UNLOCKED(ld_hw_mac_batch)(const ld_hw_dev *dev, unsigned key_slot, ld_hw_batch_desc *table,
                                 const void *const *msgs, const size_t *lens, size_t n,
                                 uint8_t *macs, size_t *done)
{
    return mac_batch(dev, key_slot, NULL, table, msgs, lens, n, macs, done);
}

int LD_UNLOCKED(ld_hw_mac_batch_keys)(const ld_hw_dev *dev, const uint8_t *key_slots,
                                      ld_hw_batch_desc *table, const void *const *msgs,
                                      const size_t *lens, size_t n, uint8_t *macs, size_t *done)
{
    static const uint8_t none[1]; /* (an empty batch may give none: nothing reads them) */

    if (key_slots == NULL && n) {
        if (done)
            *done = 0;
        return LD_ERR_ARG;
    }
    return mac_batch(dev, 0, key_slots ? key_slots : none, table, msgs, lens, n, macs, done);
}
