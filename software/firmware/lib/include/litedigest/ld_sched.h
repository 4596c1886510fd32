/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the message scheduler for multi-slot (pipelined) engines
 * (Michail et al. 2016, sec. 7).
 *
 * A p-stage engine holds p messages, one per slot. The scheduler keeps up to `nslots` of the
 * caller's messages in the slots, gives a message its next job only after its previous job's
 * chaining value is back (the slot reported done), and refills a slot with the next message
 * as soon as one ends. Two layers:
 * - the policy (ld_sched_init/next/complete), with no I/O: it says which job to issue on
 *   which slot; any executor can run it (the hardware driver below, the host's rtl bench);
 * - ld_hw_schedule(), the executor on a hash peripheral, CSR path (one block per job) or DMA
 *   path (one job per message: its whole blocks, then its padded tail as second segment, so
 *   the hardware interleaves the slots' blocks by itself and the CPU only refills slots).
 *   On a SHA peripheral with the batch walker, when every message is DMA-readable whole
 *   (aligned, in range), the DMA path hands the messages to the walker instead, in batches
 *   of up to 16 whose descriptors and chaining values live in the slots' pads: the peripheral
 *   pads, refills the slots and writes the chaining values itself, the CPU waits once per
 *   batch (the policy layer is not used then). A message whose digest is the whole chaining
 *   value (SHA-1, SHA-256, SHA-512) and whose `out` is aligned to 32 / 32 / 64 bytes (e.g.
 *   LD_DMA_ALIGNED) and in main RAM gets its digest written there by the peripheral, no copy;
 *   its `out` is then unspecified when the message fails.
 * Skein-512 messages (alg LD_ALG_SKEIN512(bits), ld_skein.h; a Skein peripheral) are two
 * UBIs on the slot: the message UBI from the configured IV (its last block, 1..64 bytes or the
 * empty message's zero block, held back and zero-padded in the slot's pad), then the output
 * UBI (one counter block) from the message UBI's chaining value. Each job carries its start
 * tweak. On the DMA path a Skein message is one job: the message UBI's blocks, then the output
 * block, which the peripheral makes itself (ctrl.out), so no CPU round trip separates the
 * two UBIs; on the CSR path every block is a job, the output block from the slot's pad.
 * No allocation: the caller provides the per-slot workspace (ld_sched_slot, whose padded
 * tail buffer the DMA reads, so it must be in main RAM).
 */
#ifndef LITEDIGEST_LD_SCHED_H
#define LITEDIGEST_LD_SCHED_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_md.h"
#include "ld_hw.h"
#include "ld_hw_skein.h" /* ld_skein.h and Skein on a peripheral */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const void *data; /* the message */
    size_t len;       /* its length in bytes */
    int alg;          /* LD_ALG_* or LD_ALG_SKEIN512(bits); one family per run */
    uint8_t *out;     /* receives ld_sched_digest_size(alg) bytes */
    int result;       /* written by the scheduler: LD_OK or an LD_ERR_* code */
} ld_sched_msg;

typedef struct {
    uint8_t pad[2 * LD_MD_MAX_BLOCK_SIZE] LD_DMA_ALIGNED; /* the message's padded tail
                        * (Skein: the held-back final block, then the output counter block) */
    size_t msg;           /* index of the message in the slot (valid when busy) */
    size_t next;          /* next block to issue (whole blocks first, then the tail's) */
    size_t whole;         /* blocks issued from the message's own memory */
    size_t ntail;         /* blocks from the pad (MD: the padded tail, 1 or 2; Skein: 2) */
    size_t split;         /* the first block of the last UBI (MD: whole + ntail: none) */
    unsigned final_bytes; /* Skein: bytes of the message UBI's final block (0..64) */
    size_t bs;            /* the message's alg, described once at assignment: block bytes, */
    int variant, skein;   /* ctrl.variant, Skein or not */
    int busy;             /* a message is in the slot */
    int outstanding;      /* a job of the slot is in the engine */
} ld_sched_slot;

typedef struct {
    ld_sched_msg *msgs;
    size_t nmsgs, next_msg, finished;
    ld_sched_slot *slots;
    size_t nslots;
    int whole_message_jobs; /* 1: a job is the whole message (DMA); 0: one block per job */
    size_t rr;              /* slot to look at first (round-robin) */
} ld_sched;

/* What to issue: blocks [first_block, first_block + nblocks) of message `msg` on `slot`,
 * where block i < whole is message data at data + i*bs and block i >= whole is tail block
 * i - whole of the slot's pad. `first` (from the IV of `variant`) and `last` (the job ends
 * its UBI; for MD the message) are the ctrl levels; Skein jobs also have the start tweak
 * (t0 = position before the job, t1 = type and flags) and the final block's bytes. */
typedef struct {
    size_t slot, msg, first_block, nblocks, block_size;
    const uint8_t *data; /* first block's bytes (message or pad), contiguous up to the tail */
    size_t data_blocks;  /* how many of the job's blocks are message data (rest: pad) */
    const uint8_t *tail; /* the slot's pad (when the job reaches into it) */
    size_t tail_blocks;
    int first, last;
    int variant; /* ctrl.variant of the job */
    int skein;   /* the job has a tweak (below) */
    int out;     /* Skein DMA: the job's last block is the output block, made by the
                             * peripheral (ctrl.out; counted in nblocks, not read from memory) */
    uint64_t t0, t1;
    unsigned final_bytes;
} ld_sched_job;

/* Policy. init: LD_ERR_ARG on NULLs / zero slots; a message with an unknown alg (Skein: a
 * size without a configured IV), NULL out, NULL data with len > 0 or a length its alg cannot
 * encode (SHA-1/SHA-224/SHA-256: 2^61 bytes or more) gets result LD_ERR_ARG and is skipped,
 * the others run.
 * next: LD_SCHED_JOB and *job when a job can be issued now, LD_SCHED_WAIT when every slot
 * with work is waiting for a completion (or no message is left to start), LD_SCHED_DONE when
 * all messages are finished, LD_SCHED_BAD_ARG (s or job NULL; distinct from LD_SCHED_DONE,
 * so that a caller's "all finished" is never a mistake of its own).
 * complete: the slot's outstanding job ended with `result`, LD_OK or an LD_ERR_* code (all
 * negative); returns the index of the message that thereby finished (its digest must now be
 * read from the slot), or -1: the message goes on, or a bad argument (NULL s, a slot without
 * an outstanding job, a positive result, which is no outcome: nothing changes then). */
#define LD_SCHED_JOB     1
#define LD_SCHED_WAIT    0
#define LD_SCHED_DONE    (-1)
#define LD_SCHED_BAD_ARG (-2)

/* The digest bytes of an alg the scheduler takes (MD or Skein), 0 for an unknown one. */
size_t ld_sched_digest_size(int alg);

int ld_sched_init(ld_sched *s, ld_sched_msg *msgs, size_t nmsgs, ld_sched_slot *slots,
                  size_t nslots, int whole_message_jobs);
int ld_sched_next(ld_sched *s, ld_sched_job *job);
long ld_sched_complete(ld_sched *s, size_t slot, int result);

/* Run statistics of ld_hw_schedule (cycles from the peripheral's counter). */
typedef struct {
    uint64_t cycles;            /* from before the first job to after the last digest was read
                             * (the checks of the messages before it; the statistics' own reads
                             * are outside it) */
    uint64_t run_cycles;        /* the engine's run: from the release of the first wave of jobs
                             * (DMA: started with ctrl.hold, then released together; CSR: the
                             * call's start; the batch walker: the first batch's start) to the
                             * end of the last job (the peripheral's finish_cycles stamp); excludes
                             * the set-up before (padding, job registers) and digest reads after */
    uint32_t blocks;            /* blocks the engine completed meanwhile */
    uint32_t interval;          /* the engine's cycles per block when full (info register) */
    uint32_t period, in_flight; /* exactly: in_flight blocks per period cycles (ld_hw_info);
                             * busy cycles = blocks x period / in_flight */
    uint32_t jobs;              /* jobs issued (through the batch walker: messages batched) */
} ld_sched_stats;

/* Hash all messages on the peripheral, using min(nslots, engine slots) slots.
 * Returns LD_OK when every message succeeded (each msgs[i].result says its own outcome),
 * LD_ERR_ARG (bad arguments: nothing was run), LD_ERR_TIMEOUT (the peripheral stopped
 * answering: unfinished messages get LD_ERR_TIMEOUT), or the first message error.
 * DMA path: a message outside main RAM or not aligned to the peripheral's DMA alignment
 * gets LD_ERR_RANGE (the others run). stats may be NULL. */
int ld_hw_schedule(const ld_hw_dev *dev, int path, ld_sched_msg *msgs, size_t nmsgs,
                   ld_sched_slot *slots, size_t nslots, ld_sched_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
