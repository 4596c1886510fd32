/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz target: the message scheduler's policy (ld_sched_init/next/complete, ld_sched.h) run by
 * a software executor, the one test_sched_exec.c runs too (software/firmware/tests/
 * sched_executor.h: a job runs when it completes, on its slot's chaining value, with the
 * library's bare compression functions and Skein UBI).
 *
 * Input: a family (SHA-1, SHA-256, SHA-512, Skein-512), 1..8 slots, a job size (a block or a
 * whole message), whether completions may fail (LD_ERR_HW), up to 24 messages (an algorithm of
 * the family, a length of 0..1200 bytes, now and then a message init must refuse: NULL out,
 * an unknown alg, NULL data with a length; an empty message without data), then the
 * completion order: each byte picks the outstanding slot that completes next (past the input's
 * end, a generator seeded by it does).
 * Checks: every job is of a pending message on a free slot, a message's jobs stay on its slot
 * and cover its blocks in order, once; next() waits only with a job outstanding; exactly the
 * bad messages are refused; a message ends with its last block or its first error, once, with
 * that result; every message that ends LD_OK has the digest of the library's one-shot software
 * hash (ld_md, ld_skein512); when next() says done, nothing is left.
 */
#include "fuzz_input.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"
#include "litedigest/ld_skein.h"
#include "litedigest/ld_sched.h"

#define MAX_MSGS 24
#define MAX_SLOTS 8
#define MAX_LEN 1200

#define SCHED_EXEC_CHECK(cond, msg) FZ_CHECK(cond, "%s", msg)    /* a finding: abort */
#include "../sched_executor.h"

static const int SKEIN_BITS[] = {512, 384, 256, 224, 160, 128};
static const int SHA256_ALGS[] = {LD_ALG_SHA256, LD_ALG_SHA224};
static const int SHA512_ALGS[] = {LD_ALG_SHA512, LD_ALG_SHA384, LD_ALG_SHA512_224, LD_ALG_SHA512_256};

static uint8_t msg_data[MAX_MSGS][MAX_LEN];
static uint8_t outs[MAX_MSGS][LD_MD_MAX_DIGEST_SIZE];

static uint64_t rng;
static fz_in order;           /* the completion order */

static uint32_t pick(uint32_t n)
{
    if (order.n)
        return fz_u8(&order) % n;
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)(((rng * 0x2545F4914F6CDD1Dull) >> 32) % n);
}

static void run_set(ld_sched_msg *msgs, size_t n, const int *bad, size_t nslots, int whole, int may_fail)
{
    static ld_sched_slot slots[MAX_SLOTS];
    exec_slot ex[MAX_SLOTS];
    int ended[MAX_MSGS] = {0};
    size_t issued[MAX_MSGS] = {0};     /* blocks in the message's jobs so far */
    uint8_t got[LD_MD_MAX_DIGEST_SIZE], want[LD_MD_MAX_DIGEST_SIZE];
    ld_sched s;
    ld_sched_job job;
    size_t i, nout = 0, steps;

    for (i = 0; i < nslots; i++) {
        ex[i].busy = 0;
        ex[i].msg = -1;
    }
    FZ_CHECK(ld_sched_init(&s, msgs, n, slots, nslots, whole) == LD_OK, "sched init");
    for (i = 0; i < n; i++)
        FZ_CHECK((msgs[i].result == LD_ERR_ARG) == (bad[i] != 0),
                 "sched init: message %zu %s refused (result %d)", i, bad[i] ? "must be" : "wrongly", msgs[i].result);
    for (steps = 0;; steps++) {
        int r = ld_sched_next(&s, &job);
        FZ_CHECK(steps < 100000, "sched: no end after %zu steps", steps);
        if (r == LD_SCHED_JOB) {
            exec_slot *e;
            FZ_CHECK(job.slot < nslots && !ex[job.slot].busy && job.msg < n && !bad[job.msg] && !ended[job.msg],
                     "sched next: a job (slot %zu, message %zu) of a pending message on a free slot", job.slot, job.msg);
            e = &ex[job.slot];
            FZ_CHECK(job.first_block == 0 ? e->msg < 0 : e->msg == (long)job.msg,
                     "sched next: message %zu's jobs on its own slot", job.msg);
            FZ_CHECK(job.first_block == issued[job.msg] && job.first == (job.first_block == 0) && job.nblocks > 0 &&
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
        FZ_CHECK(r == LD_SCHED_WAIT && nout > 0, "sched next: %d; waits only for an outstanding job", r);
        {
            size_t k = pick((uint32_t)nslots);
            int res = may_fail && pick(8) == 0 ? LD_ERR_HW : LD_OK;
            long m;
            while (!ex[k].busy)
                k = (k + 1) % nslots;
            if (res == LD_OK)
                execute(&ex[k], msgs);
            ex[k].busy = 0;
            nout--;
            m = ld_sched_complete(&s, k, res);
            if (m < 0) {
                FZ_CHECK(res == LD_OK && issued[ex[k].msg] < total_blocks(&msgs[ex[k].msg]),
                         "sched complete: a message goes on only while it has blocks left and no error");
                continue;
            }
            FZ_CHECK(m == ex[k].msg && !ended[m], "sched complete: slot %zu's own message (%ld), ended once", k, m);
            ended[m] = 1;
            ex[k].msg = -1;
            FZ_CHECK(msgs[m].result == res, "sched complete: the message's result is its last job's");
            if (res == LD_OK) {
                FZ_CHECK(ex[k].job.last && issued[m] == total_blocks(&msgs[m]),
                         "sched complete: message %ld ends with its last block", m);
                digest(&ex[k], msgs[m].alg, got);
                reference(&msgs[m], want);
                FZ_CHECK(memcmp(got, want, ld_sched_digest_size(msgs[m].alg)) == 0,
                         "sched: message %ld (alg %#x, %zu bytes, %zu slots, whole %d): the executor's digest"
                         " is not the software hash", m, (unsigned)msgs[m].alg, msgs[m].len, nslots, whole);
            }
        }
        for (i = 0; i < n; i++)
            FZ_CHECK(bad[i] || ended[i] || msgs[i].result != LD_OK, "sched: message %zu LD_OK before it ends", i);
    }
    for (i = 0; i < n; i++)
        FZ_CHECK(bad[i] || ended[i], "sched: message %zu never ended", i);
    FZ_CHECK(nout == 0 && ld_sched_next(&s, &job) == LD_SCHED_DONE, "sched: nothing left when done");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    ld_sched_msg msgs[MAX_MSGS];
    int bad[MAX_MSGS];
    uint8_t family = fz_u8(&in) % 4, opts = fz_u8(&in);
    size_t nslots = 1 + opts % MAX_SLOTS, n = fz_u8(&in) % (MAX_MSGS + 1), i, j;
    int whole = (opts >> 3) & 1, may_fail = (opts >> 4) & 1;

    rng = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < size; i++)
        rng = (rng ^ data[i]) * 0x100000001B3ull;
    rng |= 1;
    for (i = 0; i < n; i++) {
        ld_sched_msg *m = &msgs[i];
        uint8_t a = fz_u8(&in);
        uint64_t x = rng + 0x9E3779B97F4A7C15ull * (i + 1);
        m->len = fz_u16(&in);                   /* as is up to MAX_LEN: comparisons can steer it */
        if (m->len > MAX_LEN)
            m->len %= MAX_LEN + 1;
        switch (family) {
        case 0: m->alg = LD_ALG_SHA1; break;
        case 1: m->alg = SHA256_ALGS[a % 2]; break;
        case 2: m->alg = SHA512_ALGS[a % 4]; break;
        default: m->alg = LD_ALG_SKEIN512(SKEIN_BITS[a % 6]); break;
        }
        for (j = 0; j < m->len; j++) {
            x ^= x >> 33;
            x *= 0xFF51AFD7ED558CCDull;
            msg_data[i][j] = (uint8_t)(x >> 56);
        }
        m->data = m->len || !(a & 0x08) ? msg_data[i] : NULL;   /* an empty one without data */
        m->out = outs[i];
        bad[i] = (a >> 4) == 15;
        if (bad[i]) {
            switch ((a >> 2) & 3) {
            case 0: m->out = NULL; break;
            case 1: m->alg = LD_ALG_COUNT; break;
            case 2: m->alg = LD_ALG_SKEIN512(200); break;     /* no configured IV */
            default: m->data = NULL; m->len = 1 + m->len % 100; break;
            }
        }
    }
    order = in;
    run_set(msgs, n, bad, nslots, whole, may_fail);
    return 0;
}
