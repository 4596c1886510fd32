/* SPDX-License-Identifier: BSD-2-Clause */
/* A software executor of the message scheduler's jobs (ld_sched.h), as ld_hw_schedule runs
 * them on a peripheral: a job runs on its slot's chaining value with the library's bare
 * compression functions and Skein UBI (its blocks: message data, then the slot's pad; a Skein
 * job's output block as the peripheral makes it). With it: a message's blocks as they are
 * worked out here (independently of the scheduler), the slot's chaining value as the digest,
 * and the reference digest of the library's one-shot software hash (ld_md, ld_skein512).
 *
 * And run_set(), the policy run by this executor on a set of messages, every step checked.
 *
 * Included by test_sched_exec.c (host test) and fuzz/fuzz_sched.c (libFuzzer target), each one
 * translation unit; everything here is static. The includer defines before including it:
 *   SCHED_EXEC_CHECK(cond, ...)  a check in a void function, its message a printf format and
 *                                its arguments: test_sched_exec.c records the failure
 *                                (check.h) and returns; the fuzz target aborts (FZ_CHECK)
 *   SCHED_EXEC_RANDOM(n)         a number in 0..n-1 (uint32_t n): which outstanding job
 *                                completes next and whether it fails; the test's generator,
 *                                the fuzzer's input
 *   MAX_MSGS, MAX_SLOTS          the most messages and slots of a set
 *   MAX_LEN                      the longest message (bytes), or MAX_JOB_BLOCKS directly: the
 *                                most blocks a job reads (default: MAX_LEN / 64 + 3, a whole
 *                                message of 64-byte blocks, its pad and the output block) */
#ifndef LD_TEST_SCHED_EXECUTOR_H
#define LD_TEST_SCHED_EXECUTOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "litedigest/ld_md.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"
#include "litedigest/ld_skein.h"
#include "litedigest/ld_sched.h"

#if !defined(SCHED_EXEC_CHECK) || !defined(SCHED_EXEC_RANDOM) || !defined(MAX_MSGS) ||             \
    !defined(MAX_SLOTS)
#error                                                                                             \
    "define SCHED_EXEC_CHECK(cond, ...), SCHED_EXEC_RANDOM(n), MAX_MSGS and MAX_SLOTS before including sched_executor.h"
#endif

#ifndef MAX_JOB_BLOCKS
#ifndef MAX_LEN
#error "define MAX_LEN (or MAX_JOB_BLOCKS) before including sched_executor.h"
#endif
#define MAX_JOB_BLOCKS (MAX_LEN / 64 + 3)
#endif

/* the T1 tweak of Skein's output block */
#define SCHED_EXEC_OUT_T1 (LD_SKEIN_T1_TYPE(LD_SKEIN_T_OUT) | LD_SKEIN_T1_FIRST | LD_SKEIN_T1_FINAL)

/* one slot of the executor: its outstanding job and its chaining value */
typedef struct {
    ld_sched_job job;
    int busy;
    long msg;        /* the message on the slot, -1: none */
    uint32_t w32[8]; /* SHA-1, SHA-224/256 */
    uint64_t w64[8]; /* SHA-512 family, Skein-512 */
} exec_slot;

/* run the slot's job on its chaining value (its blocks: message data, then the slot's pad) */
static void execute(exec_slot *e, const ld_sched_msg *msgs)
{
    static uint8_t blocks[MAX_JOB_BLOCKS * LD_MD_MAX_BLOCK_SIZE];
    const ld_sched_job *j = &e->job;
    int alg = msgs[j->msg].alg;
    size_t bs = j->block_size, nread = j->nblocks - (size_t)j->out;

    SCHED_EXEC_CHECK(j->data_blocks + j->tail_blocks == nread && nread <= MAX_JOB_BLOCKS &&
                         nread > 0 && bs <= LD_MD_MAX_BLOCK_SIZE,
                     "job: its blocks are message data, then pad");
    if (j->data_blocks)
        memcpy(blocks, j->data, j->data_blocks * bs);
    if (j->tail_blocks)
        memcpy(blocks + j->data_blocks * bs, j->tail, j->tail_blocks * bs);
    if (j->skein) {
        size_t bits = ld_skein512_alg_bits(alg);
        SCHED_EXEC_CHECK(bits && j->variant == ld_skein512_variant(bits) &&
                             bs == LD_SKEIN512_BLOCK_BYTES,
                         "skein job: the message's IV and block size");
        if (j->first)
            ld_skein512_iv(bits, e->w64);
        ld_skein512_ubi(e->w64, blocks, nread, j->t0, j->t1, j->final_bytes);
        if (j->out) { /* the output block the peripheral makes: counter 0 */
            memset(blocks, 0, LD_SKEIN512_BLOCK_BYTES);
            ld_skein512_ubi(e->w64, blocks, 1, 0, SCHED_EXEC_OUT_T1, 8);
        }
        return;
    }
    SCHED_EXEC_CHECK(!j->out && j->variant == ld_md_variant(alg) && bs == ld_md_block_size(alg),
                     "md job: the message's variant and block size");
    switch (ld_md_family(alg)) {
    case LD_FAMILY_SHA1:
        if (j->first)
            ld_sha1_iv(e->w32);
        ld_sha1_compress(e->w32, blocks, nread);
        break;
    case LD_FAMILY_SHA256:
        if (j->first)
            ld_sha256_iv(j->variant, e->w32);
        ld_sha256_compress(e->w32, blocks, nread);
        break;
    default:
        if (j->first)
            ld_sha512_iv(j->variant, e->w64);
        ld_sha512_compress(e->w64, blocks, nread);
        break;
    }
}

/* the slot's chaining value as alg's digest: Skein little-endian bytes, MD big-endian words */
static void digest(const exec_slot *e, int alg, uint8_t *out)
{
    size_t i, n = ld_sched_digest_size(alg);
    int fam = ld_skein512_alg_bits(alg) ? LD_FAMILY_SKEIN512 : ld_md_family(alg);

    for (i = 0; i < n; i++) {
        if (fam == LD_FAMILY_SKEIN512)
            out[i] = (uint8_t)(e->w64[i / 8] >> (8 * (i % 8)));
        else if (fam == LD_FAMILY_SHA512)
            out[i] = (uint8_t)(e->w64[i / 8] >> (56 - 8 * (i % 8)));
        else
            out[i] = (uint8_t)(e->w32[i / 4] >> (24 - 8 * (i % 4)));
    }
}

/* the blocks of a message's jobs, worked out here: MD its whole blocks and 1 or 2 of padded
 * tail (0x80 and the length field); Skein all blocks but the last, the held-back final block
 * (1..64 bytes, or the empty message's zero block) and the output block */
static size_t total_blocks(const ld_sched_msg *m)
{
    size_t bs = ld_md_block_size(m->alg);

    if (ld_skein512_alg_bits(m->alg))
        return (m->len ? (m->len - 1) / LD_SKEIN512_BLOCK_BYTES : 0) + 2;
    return m->len / bs + (m->len % bs + 1 + bs / 8 <= bs ? 1 : 2);
}

/* the message's digest by the library's one-shot software hash */
static void reference(const ld_sched_msg *m, uint8_t *out)
{
    size_t bits = ld_skein512_alg_bits(m->alg);

    if (bits)
        SCHED_EXEC_CHECK(ld_skein512(bits, NULL, 0, m->data, 8 * m->len, out) == LD_OK,
                         "skein512 one-shot");
    else
        SCHED_EXEC_CHECK(ld_md(m->alg, m->data, m->len, out) == LD_OK, "ld_md one-shot");
}

/* Run msgs[0..n) on nslots slots (whole: a job per message, else a block per job); bad[i]:
 * message i is one init must refuse. A random outstanding job completes whenever next() says
 * to wait; with fail_rate k > 0, one completion in k is an LD_ERR_HW. */
static void run_set(ld_sched_msg *msgs, size_t n, const int *bad, size_t nslots, int whole,
                    uint32_t fail_rate)
{
    static ld_sched_slot slots[MAX_SLOTS];
    exec_slot ex[MAX_SLOTS];
    int ended[MAX_MSGS] = {0};
    size_t issued[MAX_MSGS] = {0}; /* blocks in the message's jobs so far */
    uint8_t got[LD_MD_MAX_DIGEST_SIZE], want[LD_MD_MAX_DIGEST_SIZE];
    ld_sched s;
    ld_sched_job job;
    size_t i, nout = 0, steps;

    for (i = 0; i < nslots; i++) {
        ex[i].busy = 0;
        ex[i].msg = -1;
    }
    SCHED_EXEC_CHECK(ld_sched_init(&s, msgs, n, slots, nslots, whole) == LD_OK, "sched init");
    for (i = 0; i < n; i++)
        SCHED_EXEC_CHECK((msgs[i].result == LD_ERR_ARG) == (bad[i] != 0),
                         "sched init: message %zu %s refused (result %d)", i,
                         bad[i] ? "must be" : "wrongly", msgs[i].result);
    for (steps = 0;; steps++) {
        int r = ld_sched_next(&s, &job);
        SCHED_EXEC_CHECK(steps < 100000, "sched: no end after %zu steps", steps);
        if (r == LD_SCHED_JOB) {
            exec_slot *e;
            SCHED_EXEC_CHECK(
                job.slot < nslots && !ex[job.slot].busy && job.msg < n && !bad[job.msg] &&
                    !ended[job.msg],
                "sched next: a job (slot %zu, message %zu) of a pending message on a free slot",
                job.slot, job.msg);
            e = &ex[job.slot];
            /* a message starts on a free slot and keeps it to its end; its blocks in order,
             * each once */
            SCHED_EXEC_CHECK(job.first_block == 0 ? e->msg < 0 : e->msg == (long)job.msg,
                             "sched next: message %zu's jobs on its own slot", job.msg);
            SCHED_EXEC_CHECK(
                job.first_block == issued[job.msg] && job.first == (job.first_block == 0) &&
                    job.nblocks > 0 &&
                    issued[job.msg] + job.nblocks <= total_blocks(&msgs[job.msg]),
                "sched next: message %zu's blocks in order, once (block %zu, %zu issued)", job.msg,
                job.first_block, issued[job.msg]);
            issued[job.msg] += job.nblocks;
            e->msg = (long)job.msg;
            e->job = job;
            e->busy = 1;
            nout++;
            continue;
        }
        if (r == LD_SCHED_DONE)
            break;
        SCHED_EXEC_CHECK(r == LD_SCHED_WAIT && nout > 0,
                         "sched next: %d; waits only for an outstanding job", r);
        {
            size_t k = SCHED_EXEC_RANDOM((uint32_t)nslots);
            int res = fail_rate && SCHED_EXEC_RANDOM(fail_rate) == 0 ? LD_ERR_HW : LD_OK;
            long m;
            while (!ex[k].busy)
                k = (k + 1) % nslots;
            if (res == LD_OK)
                execute(&ex[k], msgs);
            ex[k].busy = 0;
            nout--;
            m = ld_sched_complete(&s, k, res);
            if (m < 0) {
                SCHED_EXEC_CHECK(
                    res == LD_OK && issued[ex[k].msg] < total_blocks(&msgs[ex[k].msg]),
                    "sched complete: a message goes on only while it has blocks left and no error");
                continue;
            }
            SCHED_EXEC_CHECK(m == ex[k].msg && !ended[m],
                             "sched complete: slot %zu's own message (%ld), ended once", k, m);
            ended[m] = 1;
            ex[k].msg = -1;
            SCHED_EXEC_CHECK(msgs[m].result == res,
                             "sched complete: the message's result is its last job's");
            if (res == LD_OK) {
                SCHED_EXEC_CHECK(ex[k].job.last && issued[m] == total_blocks(&msgs[m]),
                                 "sched complete: message %ld ends with its last block", m);
                digest(&ex[k], msgs[m].alg, got);
                reference(&msgs[m], want);
                SCHED_EXEC_CHECK(
                    memcmp(got, want, ld_sched_digest_size(msgs[m].alg)) == 0,
                    "sched: message %ld (alg %#x, %zu bytes, %zu slots, whole %d): the executor's"
                    " digest is not the software hash",
                    m, (unsigned)msgs[m].alg, msgs[m].len, nslots, whole);
            }
        }
        for (i = 0; i < n; i++) /* no result before the end */
            SCHED_EXEC_CHECK(bad[i] || ended[i] || msgs[i].result != LD_OK,
                             "sched: message %zu LD_OK before it ends", i);
    }
    for (i = 0; i < n; i++)
        SCHED_EXEC_CHECK(bad[i] || ended[i], "sched: message %zu never ended", i);
    SCHED_EXEC_CHECK(nout == 0 && ld_sched_next(&s, &job) == LD_SCHED_DONE,
                     "sched: nothing left when done");
}

#endif
