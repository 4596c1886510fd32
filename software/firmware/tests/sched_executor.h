/* SPDX-License-Identifier: BSD-2-Clause */
/* A software executor of the message scheduler's jobs (ld_sched.h), as ld_hw_schedule runs
 * them on a peripheral: a job runs on its slot's chaining value with the library's bare
 * compression functions and Skein UBI (its blocks: message data, then the slot's pad; a Skein
 * job's output block as the peripheral makes it). With it: a message's blocks as they are
 * worked out here (independently of the scheduler), the slot's chaining value as the digest,
 * and the reference digest of the library's one-shot software hash (ld_md, ld_skein512).
 *
 * Included by test_sched_exec.c (host test) and fuzz/fuzz_sched.c (libFuzzer target), each one
 * translation unit; everything here is static. The includer defines before including it:
 *   SCHED_EXEC_CHECK(cond, msg)  a check in a void function: test_sched_exec.c records the
 *                                failure (check.h) and returns; the fuzz target aborts
 *                                (FZ_CHECK)
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

#ifndef SCHED_EXEC_CHECK
#error "define SCHED_EXEC_CHECK(cond, msg) before including sched_executor.h"
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
    long msg;                 /* the message on the slot, -1: none */
    uint32_t w32[8];          /* SHA-1, SHA-224/256 */
    uint64_t w64[8];          /* SHA-512 family, Skein-512 */
} exec_slot;

/* run the slot's job on its chaining value (its blocks: message data, then the slot's pad) */
static void execute(exec_slot *e, const ld_sched_msg *msgs)
{
    static uint8_t blocks[MAX_JOB_BLOCKS * LD_MD_MAX_BLOCK_SIZE];
    const ld_sched_job *j = &e->job;
    int alg = msgs[j->msg].alg;
    size_t bs = j->block_size, nread = j->nblocks - (size_t)j->out;

    SCHED_EXEC_CHECK(j->data_blocks + j->tail_blocks == nread && nread <= MAX_JOB_BLOCKS && nread > 0 &&
                     bs <= LD_MD_MAX_BLOCK_SIZE, "job: its blocks are message data, then pad");
    if (j->data_blocks)
        memcpy(blocks, j->data, j->data_blocks * bs);
    if (j->tail_blocks)
        memcpy(blocks + j->data_blocks * bs, j->tail, j->tail_blocks * bs);
    if (j->skein) {
        size_t bits = ld_skein512_alg_bits(alg);
        SCHED_EXEC_CHECK(bits && j->variant == ld_skein512_variant(bits) && bs == LD_SKEIN512_BLOCK_BYTES,
                         "skein job: the message's IV and block size");
        if (j->first)
            ld_skein512_iv(bits, e->w64);
        ld_skein512_ubi(e->w64, blocks, nread, j->t0, j->t1, j->final_bytes);
        if (j->out) {         /* the output block the peripheral makes: counter 0 */
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
        SCHED_EXEC_CHECK(ld_skein512(bits, NULL, 0, m->data, 8 * m->len, out) == LD_OK, "skein512 one-shot");
    else
        SCHED_EXEC_CHECK(ld_md(m->alg, m->data, m->len, out) == LD_OK, "ld_md one-shot");
}

#endif
