/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the message scheduler's policy (ld_sched_init/next/complete, ld_sched.h) run
 * by a software executor, as ld_hw_schedule runs it on a peripheral: random message sets
 * (every algorithm, lengths around the block, padding and held-back-block boundaries, bad
 * messages and empty messages without data among them), slot counts, job sizes (a block or a
 * whole message per job) and completion orders (a random outstanding job completes, now and
 * then with an error). A job runs when it completes (the peripheral's DMA reads then, so a pad
 * rewritten under an outstanding job shows), on its slot's chaining value; when
 * ld_sched_complete says a message ended, its digest is checked against the library's one-shot
 * software hash (ld_md, ld_skein512). A job on the wrong slot or of the wrong message, a lost,
 * repeated or misplaced result, or a wrong held-back Skein block fail a check. */
#include <stdint.h>
#include "litedigest/ld_md.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"
#include "litedigest/ld_skein.h"
#include "litedigest/ld_sched.h"
#include "check.h"

#define MAX_MSGS  24
#define MAX_SLOTS 8
#define MAX_LEN   1200

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(uint32_t n) /* 0..n-1 (xorshift64*) */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)(((rng * 0x2545F4914F6CDD1Dull) >> 32) % n);
}

/* the executor's checks: a failure is recorded with its message, and the function it is in
 * returns (its later checks would only repeat the first failure) */
#define SCHED_EXEC_CHECK(cond, ...)                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            char sched_exec_what_[200];                                                            \
            snprintf(sched_exec_what_, sizeof sched_exec_what_, __VA_ARGS__);                      \
            check(0, sched_exec_what_);                                                            \
            return;                                                                                \
        }                                                                                          \
        check(1, "");                                                                              \
    } while (0)
#define SCHED_EXEC_RANDOM(n) rnd(n)
#include "sched_executor.h"

static const int SKEIN_BITS[] = {512, 384, 256, 224, 160, 128};
#define N_SKEIN (sizeof SKEIN_BITS / sizeof SKEIN_BITS[0])

static uint8_t data[MAX_MSGS][MAX_LEN];
static uint8_t outs[MAX_MSGS][LD_MD_MAX_DIGEST_SIZE];

/* a message length around alg's block, padding and held-back-block boundaries, or random */
static size_t pick_len(int alg)
{
    size_t bs = ld_skein512_alg_bits(alg) ? LD_SKEIN512_BLOCK_BYTES : ld_md_block_size(alg);
    size_t lb = ld_skein512_alg_bits(alg) ? 0 : bs / 8 + 1; /* 0x80 and the length field */
    size_t c[] = {0,           1,          bs - lb, bs - lb + 1, bs - 1, bs, bs + 1,
                  2 * bs - lb, 2 * bs - 1, 2 * bs,  2 * bs + 1,  0,      0,  0};
    size_t k = rnd(sizeof c / sizeof c[0]);
    return k >= sizeof c / sizeof c[0] - 3 ? rnd(MAX_LEN + 1) : c[k];
}

/* an alg of `family` (LD_FAMILY_*; -1: any, a mixed run, which the policy allows) */
static int pick_alg(int family)
{
    static const int sha256[] = {LD_ALG_SHA256, LD_ALG_SHA224};
    static const int sha512[] = {LD_ALG_SHA512, LD_ALG_SHA384, LD_ALG_SHA512_224,
                                 LD_ALG_SHA512_256};

    switch (family) {
    case LD_FAMILY_SHA1:
        return LD_ALG_SHA1;
    case LD_FAMILY_SHA256:
        return sha256[rnd(2)];
    case LD_FAMILY_SHA512:
        return sha512[rnd(4)];
    case LD_FAMILY_SKEIN512:
        return LD_ALG_SKEIN512(SKEIN_BITS[rnd(N_SKEIN)]);
    default:
        return pick_alg((int)rnd(4));
    }
}

/* random sets of `family` (-1: any), some messages bad, some empty without data */
static void random_sets(int family, int trials)
{
    ld_sched_msg msgs[MAX_MSGS];
    int bad[MAX_MSGS];
    int t;
    size_t i, j;

    for (t = 0; t < trials; t++) {
        size_t n = rnd(MAX_MSGS + 1), nslots = 1 + rnd(MAX_SLOTS);
        for (i = 0; i < n; i++) {
            ld_sched_msg *m = &msgs[i];
            m->alg = pick_alg(family);
            m->len = pick_len(m->alg);
            m->data = m->len || rnd(2) ? data[i] : NULL; /* no data for an empty one */
            m->out = outs[i];
            for (j = 0; j < m->len; j++)
                data[i][j] = (uint8_t)rnd(256);
            bad[i] = rnd(16) == 0;
            if (bad[i]) {
                switch (rnd(3)) {
                case 0:
                    m->out = NULL;
                    break;
                case 1:
                    m->alg = rnd(2) ? LD_ALG_COUNT : LD_ALG_SKEIN512(200);
                    break;
                default:
                    m->data = NULL;
                    m->len = 1 + rnd(100);
                    break;
                }
            }
        }
        run_set(msgs, n, bad, nslots, (int)rnd(2), rnd(3) ? 0 : 12);
    }
}

static void md_random(void)
{
    int f;
    for (f = LD_FAMILY_SHA1; f <= LD_FAMILY_SHA512; f++)
        random_sets(f, 150);
    random_sets(-1, 100);
}

static void skein_random(void)
{
    random_sets(LD_FAMILY_SKEIN512, 200);
}

/* Skein's held-back final block: every length around it, every size, each slot count and job
 * size, all messages fine (the digests are checked) */
static void skein_held_back(void)
{
    static const size_t lens[] = {0, 1, 63, 64, 65, 127, 128, 129};
    ld_sched_msg msgs[MAX_MSGS];
    int bad[MAX_MSGS] = {0};
    size_t i, j, nslots;
    int whole;

    for (i = 0; i < N_SKEIN * (sizeof lens / sizeof lens[0]); i += MAX_MSGS) {
        size_t n = 0;
        for (; n < MAX_MSGS && i + n < N_SKEIN * (sizeof lens / sizeof lens[0]); n++) {
            size_t k = i + n;
            ld_sched_msg *m = &msgs[n];
            m->alg = LD_ALG_SKEIN512(SKEIN_BITS[k / (sizeof lens / sizeof lens[0])]);
            m->len = lens[k % (sizeof lens / sizeof lens[0])];
            m->data = data[n];
            m->out = outs[n];
            for (j = 0; j < m->len; j++)
                data[n][j] = (uint8_t)(k + 7 * j);
        }
        for (nslots = 1; nslots <= 4; nslots += 3)
            for (whole = 0; whole <= 1; whole++)
                run_set(msgs, n, bad, nslots, whole, 0);
    }
}

/* empty messages without data (NULL, 0) of every algorithm, between others: the scheduler
 * computes no pointer from their NULL data (NULL + 0 is undefined in C99) and hashes them */
static void null_data_empty(void)
{
    ld_sched_msg msgs[MAX_MSGS];
    int bad[MAX_MSGS] = {0};
    size_t n = 0, nslots;
    int alg, whole;
    size_t b;

    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        msgs[n].alg = alg;
        msgs[n].data = NULL;
        msgs[n].len = 0;
        msgs[n].out = outs[n];
        n++;
        msgs[n].alg = alg;
        msgs[n].data = "abc";
        msgs[n].len = 3;
        msgs[n].out = outs[n];
        n++;
    }
    for (b = 0; b < 3; b++) {
        msgs[n].alg = LD_ALG_SKEIN512(SKEIN_BITS[b]);
        msgs[n].data = NULL;
        msgs[n].len = 0;
        msgs[n].out = outs[n];
        n++;
    }
    for (nslots = 1; nslots <= 3; nslots++)
        for (whole = 0; whole <= 1; whole++)
            run_set(msgs, n, bad, nslots, whole, 0);
}

int main(int argc, char **argv)
{
    static const test_group groups[] = {
        {"md_random", md_random},
        {"skein_random", skein_random},
        {"skein_held_back", skein_held_back},
        {"null_data_empty", null_data_empty},
    };
    return run_groups(groups, sizeof groups / sizeof groups[0], argc, argv);
}
