/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the message scheduler (see ld_sched.h). */
#include "ld_hw_internal.h"
#include "litedigest/ld_sched.h"
#include "litedigest/ld_pad.h"

LD_LOCKED_SCHED(LD_DECLARE_UNLOCKED)

#define PENDING 1 /* msgs[i].result of a message not finished yet */

/* What the scheduler needs of an alg; 0 when it is not one it takes. */
typedef struct {
    size_t bs, digest, words;
    int family, variant, skein;
} alg_desc;

static inline int describe(int alg, alg_desc *d)
{
    ld_md_facts f;

    if (!ld_hw_alg_facts(alg, &f)) {
        d->bs = d->digest = d->words = 0;
        d->family = d->variant = d->skein = 0;
        return 0;
    }
    d->bs = (size_t)1 << f.block_shift;
    d->digest = f.digest_size;
    d->words = ld_family_state_words(f.family);
    d->family = f.family;
    d->variant = f.variant;
    d->skein = f.family == LD_FAMILY_SKEIN512;
    return 1;
}

size_t ld_sched_digest_size(int alg)
{
    alg_desc d;
    return describe(alg, &d) ? d.digest : 0;
}

/* blocks a message issues from its own memory: MD its whole blocks; Skein all but the final
 * block of the message UBI (held back: its tweak is the final one, and it may be partial) */
static size_t own_blocks(const alg_desc *d, size_t len)
{
    if (d->skein)
        return len ? (len - 1) / d->bs : 0;
    return len / d->bs;
}

int ld_sched_init(ld_sched *s, ld_sched_msg *msgs, size_t nmsgs, ld_sched_slot *slots,
                  size_t nslots, int whole_message_jobs)
{
    size_t i;

    if (s == NULL || (msgs == NULL && nmsgs) || slots == NULL || nslots == 0)
        return LD_ERR_ARG;
    s->msgs = msgs;
    s->nmsgs = nmsgs;
    s->next_msg = 0;
    s->finished = 0;
    s->slots = slots;
    s->nslots = nslots;
    s->whole_message_jobs = whole_message_jobs != 0;
    s->rr = 0;
    for (i = 0; i < nslots; i++) {
        slots[i].busy = 0;
        slots[i].outstanding = 0;
    }
    for (i = 0; i < nmsgs; i++) {
        ld_sched_msg *m = &msgs[i];
        alg_desc d;
        /* (a length the padding cannot encode: no 32-bit size_t has one, so that test is no
         * code on the firmware) */
        if (!describe(m->alg, &d) || (m->data == NULL && m->len) || m->out == NULL ||
            (!d.skein && (uint64_t)m->len > ld_md_max_len(d.bs))) {
            m->result = LD_ERR_ARG;
            s->finished++;
        } else {
            m->result = PENDING;
        }
    }
    return LD_OK;
}

/* Mark a message that has not started as failed (an executor's own checks). */
static void reject(ld_sched *s, size_t i, int err)
{
    if (s->msgs[i].result == PENDING && i >= s->next_msg) {
        s->msgs[i].result = err;
        s->finished++;
    }
}

/* put the next pending message into a free slot; 0 when none is left */
static int assign(ld_sched *s, ld_sched_slot *sl)
{
    while (s->next_msg < s->nmsgs && s->msgs[s->next_msg].result != PENDING)
        s->next_msg++;
    if (s->next_msg >= s->nmsgs)
        return 0;
    {
        const ld_sched_msg *m = &s->msgs[s->next_msg];
        const uint8_t *tail;
        alg_desc d;
        size_t whole, rest;

        describe(m->alg, &d);
        whole = own_blocks(&d, m->len);
        rest = m->len - whole * d.bs;
        /* the tail's bytes; none without any (data may be NULL then, and NULL + 0 is not
         * defined in C99) */
        tail = rest ? (const uint8_t *)m->data + whole * d.bs : NULL;
        if (d.skein) {
            /* message UBI's final block (zero-padded), output UBI's block (counter 0) */
            ld_zero(sl->pad, 2 * d.bs);
            ld_copy(sl->pad, tail, rest);
            sl->ntail = 2;
            sl->split = whole + 1;
            sl->final_bytes = (unsigned)rest;
        } else {
            sl->ntail = ld_md_pad(sl->pad, tail, rest, (uint64_t)m->len, d.bs) / d.bs;
            sl->split = whole + sl->ntail;
            sl->final_bytes = 0;
        }
        sl->bs = d.bs;
        sl->variant = d.variant;
        sl->skein = d.skein;
        sl->msg = s->next_msg++;
        sl->whole = whole;
        sl->next = 0;
        sl->busy = 1;
        sl->outstanding = 0;
    }
    return 1;
}

int ld_sched_next(ld_sched *s, ld_sched_job *job)
{
    size_t k;

    if (s == NULL || job == NULL)
        return LD_SCHED_BAD_ARG;
    if (s->finished >= s->nmsgs)
        return LD_SCHED_DONE;
    for (k = 0; k < s->nslots; k++) {
        size_t i = (s->rr + k) % s->nslots;
        ld_sched_slot *sl = &s->slots[i];
        const ld_sched_msg *m;
        size_t total, ubi_end, nread;

        if (!sl->busy && !assign(s, sl))
            continue;
        if (sl->outstanding)
            continue;
        m = &s->msgs[sl->msg];
        total = sl->whole + sl->ntail;
        /* a job ends with its UBI, except that a whole-message Skein job takes the output
         * block along (made by the peripheral) */
        job->out = sl->skein && s->whole_message_jobs && sl->next < sl->split;
        ubi_end = sl->next < sl->split && !job->out ? sl->split : total;
        job->slot = i;
        job->msg = sl->msg;
        job->first_block = sl->next;
        job->block_size = sl->bs;
        job->nblocks = s->whole_message_jobs ? ubi_end - sl->next : 1;
        nread = job->nblocks - (size_t)job->out;
        if (sl->next < sl->whole) {
            job->data = (const uint8_t *)m->data + sl->next * sl->bs;
            job->data_blocks = s->whole_message_jobs ? sl->whole - sl->next : 1;
        } else {
            job->data = sl->pad + (sl->next - sl->whole) * sl->bs;
            job->data_blocks = nread;
        }
        job->tail_blocks = nread - job->data_blocks;
        job->tail = job->tail_blocks ? sl->pad : NULL;
        job->first = sl->next == 0;
        job->variant = sl->variant;
        job->skein = sl->skein;
        job->t0 = job->t1 = 0;
        job->final_bytes = 0;
        if (sl->skein && sl->next < sl->split) { /* message UBI */
            job->t0 = (uint64_t)sl->next * sl->bs;
            job->t1 = LD_SKEIN_T1_TYPE(LD_SKEIN_T_MSG) | (sl->next == 0 ? LD_SKEIN_T1_FIRST : 0) |
                      (sl->next + nread == sl->split ? LD_SKEIN_T1_FINAL : 0);
            job->final_bytes = sl->final_bytes;
        } else if (sl->skein) { /* output UBI: counter 0 */
            job->t1 = LD_SKEIN_T1_TYPE(LD_SKEIN_T_OUT) | LD_SKEIN_T1_FIRST | LD_SKEIN_T1_FINAL;
            job->final_bytes = 8;
        }
        sl->next += job->nblocks;
        job->last = sl->next == ubi_end;
        sl->outstanding = 1;
        s->rr = (i + 1) % s->nslots;
        return LD_SCHED_JOB;
    }
    return LD_SCHED_WAIT;
}

long ld_sched_complete(ld_sched *s, size_t slot, int result)
{
    ld_sched_slot *sl;

    /* a positive result is no outcome: PENDING (1) would end the message as one still to run */
    if (s == NULL || slot >= s->nslots || !s->slots[slot].busy || !s->slots[slot].outstanding ||
        result > LD_OK)
        return -1;
    sl = &s->slots[slot];
    sl->outstanding = 0;
    if (result == LD_OK && sl->next < sl->whole + sl->ntail)
        return -1;
    s->msgs[sl->msg].result = result;
    sl->busy = 0;
    s->finished++;
    return (long)sl->msg;
}

/* --- executor on a hash peripheral -------------------------------------------------------- */

/* the low 32-bit word of a slots_* register of an engine with `slots` slots (LiteX puts the
 * most significant word at the lowest address) */
static uintptr_t low_word(uintptr_t reg, unsigned slots)
{
    return ld_slot_word(reg, slots, 0);
}

/* start a job; *st: the status word read right after the start (0 when not read) */
static int issue(const ld_hw_dev *dev, int path, const ld_sched_job *job, uint32_t hold,
                 uint32_t *st)
{
    size_t bs = job->block_size;
    uint32_t lv = LD_CTRL_VARIANT_VAL(job->variant) | LD_CTRL_SLOT_VAL(job->slot) |
                  (job->first ? LD_CTRL_FIRST : 0) | (job->last ? LD_CTRL_LAST : 0) |
                  (job->out ? LD_CTRL_OUT : 0) | hold;

    *st = 0;
    if (job->skein)
        ld_hw_write_tweak(dev, job->t0, job->t1, job->final_bytes);
    if (path == LD_PATH_CSR)
        return ld_hw_start_csr(dev, job->data, bs, lv, st);
    return ld_hw_start_dma(dev, (uintptr_t)job->data, (uint32_t)(job->data_blocks * bs),
                           (uintptr_t)job->tail, (uint32_t)(job->tail_blocks * bs), lv, st);
}

/* every message without a result yet gets err (an early stop) */
static void fail_pending(ld_sched_msg *msgs, size_t nmsgs, int err)
{
    size_t i;
    for (i = 0; i < nmsgs; i++)
        if (msgs[i].result == PENDING)
            msgs[i].result = err;
}

/* errors a start can cause (the job did not run); err_bus comes from a running DMA instead */
#define START_ERRORS (LD_STATUS_ERR_LEN | LD_STATUS_ERR_ADDR | LD_STATUS_ERR_STATE)

/* --- DMA path through the batch walker ---------------------------------------------------
 * A SHA peripheral with the walker (batch_base) takes the messages as batches: the CPU writes
 * a descriptor per message, the peripheral pads each message itself, keeps one message per
 * slot, refills a slot as soon as its message ends and writes each chaining value back to
 * RAM; the CPU issues no job, pads nothing and reads no digest register, so the engine, not
 * the CPU's set-up between jobs, bounds the call. The descriptors and the chaining values live
 * in the slots' pads (DMA-readable, checked by the caller): the table in the first, the
 * outputs in the others (with one slot: the pad's two halves). Taken when every pending
 * message can be read whole by the DMA (aligned, in range) and the host does not stage DMA
 * data; otherwise the per-job executor below runs, which needs only whole blocks aligned. */
#define PAD_BYTES sizeof(((ld_sched_slot *)0)->pad)
#define BATCH_MAX (PAD_BYTES / sizeof(ld_hw_batch_desc))

static int batch_ok(const ld_hw_dev *dev, const ld_sched_slot *slots, size_t nsl)
{
    size_t i, stride = ld_batch_stride(dev->family);

    if (!dev->batch_base)
        return 0;
#if LD_CONFIG_HOST
    if (dev->dma_write)
        return 0;
#endif
    for (i = 0; i < nsl; i++) /* the outputs in the pads (in range: checked before) */
        if ((uintptr_t)slots[i].pad & (stride - 1u))
            return 0;
    return 1;
}

/* Runs every pending message through batches (each checked already: its family, and by
 * ld_hw_schedule's checks its whole DMA range and alignment); *run0: the counter at the first
 * batch's start (the peripheral's batch_start_cycles), read here only when more batches
 * follow it (else 0: the caller reads it after its timed window); *jobs: messages batched. A message
 * whose output buffer takes the peripheral's write (its digest is the whole chaining value,
 * the buffer aligned to it and in the DMA's range) gets its digest written there by the
 * peripheral; the others' go to the pads and are copied. LD_ERR_TIMEOUT
 * when a batch did not end (it still runs: the pending messages get LD_ERR_TIMEOUT); a refused
 * batch fails its messages with LD_ERR_HW (with several slots the peripheral does not say which
 * of them were written). */
__attribute__((noinline))
LD_HOT(schedule_batches) static int schedule_batches(const ld_hw_dev *dev, ld_sched *s, size_t nsl,
                                                     uint64_t *run0, uint32_t *jobs)
{
    ld_sched_msg *msgs = s->msgs;
    ld_hw_batch_desc *table = (ld_hw_batch_desc *)(void *)s->slots[0].pad;
    const size_t stride = ld_batch_stride(dev->family), nmsgs = s->nmsgs;
    size_t idx[BATCH_MAX], i = 0, i0, j, n, ncopy, pad, finished = s->finished;
    uint8_t *outs[BATCH_MAX], *o, *end;
    uint32_t njobs = *jobs;
    int r, alg = -1, early, direct = 0, whole_lines = 0;
    alg_desc d = {0, 0, 0, 0, 0, 0}; /* (described at the first pending message) */

    /* After a batch the whole D-cache is invalidated (dma_inval): what is read then is a miss
     * each, so the counts live in locals and are only stored, and msgs is not read when the
     * batch went well. */
    for (;;) {
        /* the pads' outputs: with one slot the pad's second half (the table has the first),
         * else the other slots' pads, in order; a batch ends when they or the table are full */
        pad = nsl == 1 ? 0 : 1;
        o = s->slots[pad].pad + (nsl == 1 ? PAD_BYTES / 2 : 0);
        end = s->slots[pad].pad + PAD_BYTES;
        /* early: the chaining values fill whole cache lines (ld_hw.h, LD_HW_DCACHE_LINE) */
        early = dev->dma_inval && stride % LD_HW_DCACHE_LINE == 0;
        for (i0 = i, n = ncopy = 0; n < BATCH_MAX && o != NULL && i < nmsgs; i++) {
            ld_sched_msg *m = &msgs[i];
            uintptr_t out = (uintptr_t)m->out;
            if (m->result != PENDING)
                continue;
            if (m->alg != alg) { /* (ld_sched_init refused the algs it does not know) */
                describe(alg = m->alg, &d);
                /* the peripheral writes the whole chaining value: the digest, or a pad's */
                direct = d.digest == 4 * d.words;
                whole_lines = d.digest % LD_HW_DCACHE_LINE == 0;
            }
            if (!direct || (out & (stride - 1u)) ||
                !ld_dma_range_ok(dev, out, stride, (uint32_t)stride)) {
                idx[ncopy] = i; /* through a pad */
                outs[ncopy++] = o;
                out = (uintptr_t)o;
                o += stride;
                if (o == end) { /* the next slot's pad, or the batch is full */
                    o = ++pad < nsl ? s->slots[pad].pad : NULL;
                    if (o)
                        end = o + PAD_BYTES;
                }
            } else if (!whole_lines) {
                early = 0; /* a line shared with the caller's other data */
            }
            ld_batch_desc_write(&table[n++], m->len ? (uintptr_t)m->data : dev->ram_base, m->len,
                                out, (unsigned)d.variant);
        }
        if (n == 0)
            return LD_OK;
        if (dev->dma_sync)
            dev->dma_sync();
        ld_batch_load(dev, (uintptr_t)table, n);
        LD_WR32(dev, dev->ctrl, LD_CTRL_BATCH_START);
        /* while the engine runs: the batched messages' results, LD_OK (a failed batch sets its
         * own below), so that nothing of msgs is read after the batch (the D-cache is
         * invalidated: every line a miss); then the early invalidate (LD_HW_DCACHE_LINE) */
        for (j = i0; j < i; j++)
            if (msgs[j].result == PENDING)
                msgs[j].result = LD_OK;
        if (early)
            dev->dma_inval();
        r = ld_batch_wait(dev, NULL, !early);
        if (njobs == 0 && run0 && i < nmsgs) /* the run starts with the first batch */
            *run0 = ld_batch_started(dev);
        *jobs = njobs += (uint32_t)n;
        for (j = 0; j < ncopy && r == LD_OK; j++)
            ld_copy(msgs[idx[j]].out, outs[j], ld_sched_digest_size(msgs[idx[j]].alg));
        s->finished = finished += n;
        for (j = i0; j < i && r != LD_OK; j++) /* before the batch: PENDING or an error */
            if (msgs[j].result == LD_OK)
                msgs[j].result = r;
        if (r == LD_ERR_TIMEOUT) {
            fail_pending(msgs, nmsgs, LD_ERR_TIMEOUT);
            return r;
        }
        if (i == nmsgs)
            return LD_OK;
    }
}

/* The per-job executor (the CSR path, and DMA when the batch walker cannot take the
 * messages): ld_sched_next's jobs, one slot each, started through the job registers, their
 * digests read back from the digest registers. stamp: *run0 set at the release of the first
 * wave, *run1 at the last completion seen; *jobs counts the jobs issued. 1 when the peripheral
 * stopped answering (the messages in it and the pending ones got LD_ERR_TIMEOUT), else 0. */
__attribute__((noinline)) static int schedule_jobs(const ld_hw_dev *dev, int path, ld_sched *s,
                                                   size_t nsl, const ld_hw_info *info, int stamp,
                                                   uint64_t *run0, uint64_t *run1, uint32_t *jobs)
{
    ld_sched_msg *msgs = s->msgs;
    size_t i, nmsgs = s->nmsgs;
    ld_sched_job job;
    /* DMA: the first wave of jobs is started with ctrl.hold and released together, so the
     * slots run in step (otherwise the first slot runs alone while the CPU sets up the next,
     * and finishes alone at the end) */
    uint32_t hold = path == LD_PATH_DMA ? LD_CTRL_HOLD : 0;
    /* outstanding: slots with a job in the engine; tainted: those of them that were in the
     * engine when an error bit (err_bus: the status does not say which slot's DMA failed) was
     * seen and acked, so they end with LD_ERR_HW whatever slots_done says later */
    uint32_t outstanding = 0, tainted = 0;
    uintptr_t done_reg = low_word(dev->slots_done, info->slots);
    uintptr_t ack_reg = low_word(dev->slots_ack, info->slots);
    int r, timed_out = 0;

    for (;;) {
        int n = ld_sched_next(s, &job);
        if (n == 1) {
            uint32_t st, bit = 1u << job.slot;
            r = issue(dev, path, &job, hold, &st);
            (*jobs)++;
            if (r != LD_OK && (r != LD_ERR_HW || (st & START_ERRORS))) {
                /* rejected: it never ran (start_* acked the error bits) */
                if (st & ~START_ERRORS & LD_STATUS_ERRORS)
                    tainted |= outstanding;
                ld_sched_complete(s, job.slot, r);
            } else {
                /* running; an error bit seen with it was another DMA's (acked meanwhile) */
                outstanding |= bit;
                if (r != LD_OK)
                    tainted |= outstanding;
            }
            continue;
        }
        if (hold) { /* the first wave is out: release it, the run starts */
            if (stamp)
                ld_cycles_latch(dev); /* just before the release: the run includes it */
            LD_WR32(dev, dev->ctrl, 0);
            if (stamp)
                *run0 = ld_cycles_latched(dev);
            hold = 0;
        }
        if (n < 0)
            break;
        {
            int lost;
            uint32_t done =
                ld_poll_jobs(dev, done_reg, outstanding, low_word(dev->slots_busy, info->slots),
                             outstanding, &lost) &
                outstanding;
            uint32_t st;
            if (done == 0) { /* timeout, or the jobs lost to a reset: fail what is in
                                     * the engine and stop */
                int why = lost ? LD_ERR_HW : LD_ERR_TIMEOUT;
                for (i = 0; i < nsl; i++)
                    if (outstanding & (1u << i))
                        ld_sched_complete(s, i, why);
                fail_pending(msgs, nmsgs, why);
                timed_out = why == LD_ERR_TIMEOUT; /* lost: the messages' LD_ERR_HW */
                break;
            }
            if (stamp)
                LD_UNLOCKED(ld_hw_cycles)(dev, run1);
            st = LD_RD32(dev, dev->status);
            if (st & LD_STATUS_ERRORS) {
                tainted |= outstanding; /* the failing slot is one of these */
                LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
            }
            LD_WR32(dev, ack_reg, done);
            outstanding &= ~done;
            for (i = 0; i < nsl; i++) {
                long m;
                uint32_t bit = 1u << i;
                if (!(done & bit))
                    continue;
                m = ld_sched_complete(s, i, (tainted & bit) ? LD_ERR_HW : LD_OK);
                tainted &= ~bit;
                if (m >= 0 && msgs[m].result == LD_OK) {
                    uint32_t words[LD_SKEIN512_STATE_BYTES / 4];
                    alg_desc d;
                    describe(msgs[m].alg, &d);
                    ld_hw_read_digest_words(dev, (unsigned)i, words, (unsigned)d.words);
                    ld_digest_bytes(d.digest, words, msgs[m].out);
                }
            }
        }
    }
    return timed_out;
}

/* ld_hw_schedule's checks and set-up before its timed window (not in the hot block: they are
 * not timed). *nsl: the slots used; *batched: the messages go through the batch walker (every
 * pending message can be read whole by the DMA, the pads can take the outputs; the per-job
 * executor's condition is weaker: its whole blocks, the tail is copied into a pad). LD_OK, or
 * the call's error (nothing was run). */
__attribute__((noinline)) static int schedule_prepare(const ld_hw_dev *dev, int path,
                                                      ld_sched_msg *msgs, size_t nmsgs,
                                                      ld_sched_slot *slots, size_t nslots,
                                                      ld_sched *s, ld_hw_info *info, size_t *nsl,
                                                      int *batched)
{
    int whole_ok = path == LD_PATH_DMA;
    uintptr_t ack_reg;
    size_t i;
    int r;

    *batched = 0;
    if (!LD_HAL_OK(dev) || (path != LD_PATH_CSR && path != LD_PATH_DMA))
        return LD_ERR_ARG;
    r = ld_hw_get_info(dev, info);
    if (r != LD_OK)
        return r;
    *nsl = nslots < info->slots ? nslots : info->slots;
    if (*nsl > 32)
        *nsl = 32; /* one 32-bit word of slots_done */
    r = ld_sched_init(s, msgs, nmsgs, slots, *nsl, path == LD_PATH_DMA);
    if (r != LD_OK)
        return r;
    for (i = 0; i < nmsgs; i++) {
        const ld_sched_msg *m = &msgs[i];
        alg_desc d;
        size_t own;
        if (m->result != PENDING)
            continue;
        describe(m->alg, &d);
        own = own_blocks(&d, m->len) * d.bs;
        if (d.family != dev->family || (d.skein && (dev->tweak == 0 || dev->final_bytes == 0)))
            reject(s, i, LD_ERR_ARG);
        else if (path == LD_PATH_DMA && m->len &&
                 !ld_dma_range_ok(dev, (uintptr_t)m->data, m->len, info->dma_align)) {
            if (own && !ld_dma_range_ok(dev, (uintptr_t)m->data, own, info->dma_align))
                reject(s, i, LD_ERR_RANGE);
            else
                whole_ok = 0;
        }
    }
    if (path == LD_PATH_DMA)
        for (i = 0; i < *nsl; i++)
            if (!ld_hw_dma_ok(dev, (uintptr_t)slots[i].pad, sizeof slots[i].pad, info->dma_align)) {
                fail_pending(msgs, nmsgs, LD_ERR_RANGE); /* nothing was run */
                return LD_ERR_RANGE;
            }
    ack_reg = low_word(dev->slots_ack, info->slots);
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK);
    LD_WR32(dev, ack_reg, 0xffffffffu);
    if (path == LD_PATH_DMA && dev->dma_sync)
        dev->dma_sync(); /* the pads are written as slots are filled: see issue() */
    *batched = whole_ok && batch_ok(dev, slots, *nsl);
    return LD_OK;
}

LD_HOT(hw_schedule)
int LD_UNLOCKED(ld_hw_schedule)(const ld_hw_dev *dev, int path, ld_sched_msg *msgs, size_t nmsgs,
                                ld_sched_slot *slots, size_t nslots, ld_sched_stats *stats)
{
    ld_hw_info info;
    ld_sched s;
    uint64_t c0 = 0, c1 = 0, run0 = 0, run1 = 0, bstart = 0;
    uint32_t b0, jobs = 0;
    size_t i, nsl = 0;
    int r, first_err = LD_OK, timed_out = 0, batched;

    r = schedule_prepare(dev, path, msgs, nmsgs, slots, nslots, &s, &info, &nsl, &batched);
    if (r != LD_OK)
        return r;
    b0 = stats ? LD_RD32(dev, dev->blocks) : 0; /* the statistics' reads stay out of the window */
    if (stats)
        LD_UNLOCKED(ld_hw_cycles)(dev, &c0);
    run0 = c0;
    if (batched) /* the run's ends: the hardware's start and finish stamps, read below */
        timed_out = schedule_batches(dev, &s, nsl, stats ? &bstart : NULL, &jobs) == LD_ERR_TIMEOUT;
    if (!batched)
        timed_out = schedule_jobs(dev, path, &s, nsl, &info, stats != NULL, &run0, &run1, &jobs);
    if (stats)
        LD_UNLOCKED(ld_hw_cycles)(dev, &c1);
    if (batched) {
        run1 = c1;
        if (stats && !bstart) /* (outside the timed window: after c1) */
            bstart = ld_batch_started(dev);
        if (bstart)
            run0 = bstart;
    }
    if (run1 > run0) { /* exact end of the engine's run: the hardware's stamp */
        uint64_t f = ((uint64_t)LD_RD32(dev, dev->finish_cycles) << 32) |
                     LD_RD32(dev, dev->finish_cycles + 4);
        if (f > run0 && f <= run1)
            run1 = f;
    }
    LD_WR32(dev, dev->ctrl, LD_CTRL_ACK); /* leave done clear, as the single-message driver does */
    if (stats) {
        stats->cycles = c1 - c0;
        stats->run_cycles = run1 > run0 ? run1 - run0 : 0;
        stats->blocks = LD_RD32(dev, dev->blocks) - b0;
        stats->interval = info.interval;
        stats->period = info.period;
        stats->in_flight = info.in_flight;
        stats->jobs = jobs;
    }
    if (timed_out)
        return LD_ERR_TIMEOUT;
    for (i = 0; i < nmsgs; i++)
        if (msgs[i].result != LD_OK && first_err == LD_OK)
            first_err = msgs[i].result;
    return first_err;
}
