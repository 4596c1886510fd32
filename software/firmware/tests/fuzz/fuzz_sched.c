/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz target: the message scheduler's policy (ld_sched_init/next/complete, ld_sched.h) run by
 * a software executor and checked step by step, as test_sched_exec.c runs it too (both in
 * software/firmware/tests/sched_executor.h: a job runs when it completes, on its slot's
 * chaining value, with the library's bare compression functions and Skein UBI).
 *
 * Input: a family (SHA-1, SHA-256, SHA-512, Skein-512), 1..8 slots, a job size (a block or a
 * whole message), whether completions may fail (LD_ERR_HW, one in 8), up to 24 messages (an algorithm of
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

#define MAX_MSGS  24
#define MAX_SLOTS 8
#define MAX_LEN   1200

static uint64_t rng;
static fz_in order; /* the completion order */

static uint32_t pick(uint32_t n)
{
    if (order.n)
        return fz_u8(&order) % n;
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)(((rng * 0x2545F4914F6CDD1Dull) >> 32) % n);
}

#define SCHED_EXEC_CHECK(cond, ...) FZ_CHECK(cond, __VA_ARGS__) /* a finding: abort */
#define SCHED_EXEC_RANDOM(n)        pick(n)
#include "../sched_executor.h"

static const int SKEIN_BITS[] = {512, 384, 256, 224, 160, 128};
static const int SHA256_ALGS[] = {LD_ALG_SHA256, LD_ALG_SHA224};
static const int SHA512_ALGS[] = {LD_ALG_SHA512, LD_ALG_SHA384, LD_ALG_SHA512_224,
                                  LD_ALG_SHA512_256};

static uint8_t msg_data[MAX_MSGS][MAX_LEN];
static uint8_t outs[MAX_MSGS][LD_MD_MAX_DIGEST_SIZE];

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
        m->len = fz_u16(&in); /* as is up to MAX_LEN: comparisons can steer it */
        if (m->len > MAX_LEN)
            m->len %= MAX_LEN + 1;
        switch (family) {
        case 0:
            m->alg = LD_ALG_SHA1;
            break;
        case 1:
            m->alg = SHA256_ALGS[a % 2];
            break;
        case 2:
            m->alg = SHA512_ALGS[a % 4];
            break;
        default:
            m->alg = LD_ALG_SKEIN512(SKEIN_BITS[a % 6]);
            break;
        }
        for (j = 0; j < m->len; j++) {
            x ^= x >> 33;
            x *= 0xFF51AFD7ED558CCDull;
            msg_data[i][j] = (uint8_t)(x >> 56);
        }
        m->data = m->len || !(a & 0x08) ? msg_data[i] : NULL; /* an empty one without data */
        m->out = outs[i];
        bad[i] = (a >> 4) == 15;
        if (bad[i]) {
            switch ((a >> 2) & 3) {
            case 0:
                m->out = NULL;
                break;
            case 1:
                m->alg = LD_ALG_COUNT;
                break;
            case 2:
                m->alg = LD_ALG_SKEIN512(200);
                break; /* no configured IV */
            default:
                m->data = NULL;
                m->len = 1 + m->len % 100;
                break;
            }
        }
    }
    order = in;
    run_set(msgs, n, bad, nslots, whole, may_fail ? 8 : 0);
    return 0;
}
