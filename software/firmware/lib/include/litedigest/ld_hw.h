/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: driver for the hash peripherals (soc/REGISTERS.md), every algorithm.
 *
 * The core has no LiteX dependency: register access goes through the ld_hw_dev HAL, whose
 * addresses come from the platform (LiteX: csr.h, see LD_HW_DEV_LITEX below; Zynq: an MMIO
 * base; the host: cffi callbacks). Padding is done in software (ld_md_pad); the message
 * scheduler for multi-slot (pipelined) engines is in ld_sched.h.
 */
#ifndef LITEDIGEST_LD_HW_H
#define LITEDIGEST_LD_HW_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_hw_regs.h"
#include "ld_md.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_HW_DEFAULT_TIMEOUT_POLLS 1000000u
#define LD_HW_DEFAULT_POLL_DELAY    16u

/* (tagged: ld_skein.h's context points to one without this header) */
typedef struct ld_hw_dev {
    /* register addresses (multi-word registers: address of the most significant word,
     * the following words at +4, +8, ...) */
    uintptr_t ctrl, din, cv, dma_base, dma_length, tail_base, tail_length, status, slots_busy,
        slots_done, slots_ack, digest_sel, digest, blocks, cycles_latch, cycles_value, info,
        finish_cycles;
    uintptr_t tweak, final_bytes; /* Skein peripherals only (0 elsewhere) */
    /* hardware padding and the batch walker (0: a peripheral built without them; the driver
     * then pads in software and ld_hw_md_batch_run refuses) */
    uintptr_t batch_base, batch_count, batch_status, batch_progress;
    uint32_t (*read32)(uintptr_t addr);
    void (*write32)(uintptr_t addr, uint32_t value);
    void (*dma_sync)(void);  /* make CPU writes visible to the DMA (cache flush); may be NULL */
    void (*dma_inval)(void); /* drop cached copies of memory the DMA wrote (after a batch,
                                 * before its digests are read); may be NULL */
    uint32_t timeout_polls;  /* max status polls per wait; 0 = LD_HW_DEFAULT_TIMEOUT_POLLS */
    uintptr_t ram_base, ram_size; /* the range the DMA may read (main RAM) */
    /* The interrupt (LiteX EventManager: soc/REGISTERS.md "Interrupts"): ev_pending and
     * ev_enable register addresses (0: none). Waiting by interrupt instead of polling: when
     * `wait` is set, every wait of the driver (a job, a batch, the scheduler's next done slot)
     * reads the status and, while the work is not done, calls wait(wait_arg) instead of
     * polling again at once. wait sleeps (wfi, an RTOS semaphore, a UIO read) or does other
     * work until the peripheral's interrupt has fired and returns 0 (returning early is
     * harmless: the driver reads the status again), or nonzero to give up (the driver returns
     * LD_ERR_TIMEOUT); each call counts as one of timeout_polls. The application enables the
     * event with ld_hw_irq_enable and its interrupt handler calls ld_hw_irq_ack. */
    uintptr_t ev_pending, ev_enable;
    int (*wait)(void *wait_arg);
    void *wait_arg;
    int family; /* LD_FAMILY_* of the engine behind these registers */
    /* the batch walker's start stamp (0: a peripheral without it); last, so the fields above
     * keep the offsets the timed code's cache lines were laid out for */
    uintptr_t batch_start_cycles;
    /* spin-loop turns between two status reads of a wait (0: LD_HW_DEFAULT_POLL_DELAY). Each
     * read is a bus access: on a SoC whose DMA shares the CPU's bus it takes a slot from the
     * DMA, so the default polls sparingly; where the DMA has a port of its own (the simulated
     * SoC's wide port, an AXI HP port) fewer turns see the end of a job sooner. */
    uint32_t poll_delay;
    uintptr_t keys_valid; /* MAC peripherals only (0 elsewhere): the key slots' register */
    /* A one-shot DMA call (ld_hw_md on the DMA path) through the batch walker: the peripheral
     * writes the chaining value to area->cv, and the CPU reads it from RAM instead of a
     * register word at a time; or, for a SHA-256 or SHA-512 digest whose buffer is aligned to
     * its size (32, 64 bytes) and in the DMA's range, straight into that buffer (no copy: the
     * caller's buffer must not share a cache line with data touched meanwhile, which the
     * alignment ensures on a CPU with lines of LD_HW_DCACHE_LINE). Taken when the peripheral has the walker, the area is in the
     * DMA's range, and dma_inval_range is set (or dma_inval is NULL: a coherent CPU); else the
     * one-shot reads the digest registers. The area is the device's own (one per ld_hw_dev,
     * of static storage): the peripheral may still write it after a timeout. NULL: none. */
    struct ld_hw_oneshot_area *oneshot_area;
    /* Drop the CPU's cached copies of [addr, addr + len), which the DMA is about to write (or
     * wrote); the driver reads none of those bytes between the call and the DMA's end. May be
     * NULL (then dma_inval stands for it, the whole cache). */
    void (*dma_inval_range)(uintptr_t addr, size_t len);
#if LD_CONFIG_HOST
    /* A host whose memory the DMA cannot read (ld_config.h): when dma_write is set, the DMA
     * path copies each job's blocks with dma_write(bus address, source, bytes) into
     * [stage_base, stage_base + stage_size) -- DMA-readable, aligned, at least two blocks of
     * the engine -- and hashes them from there (then dma_sync, as for any DMA job); the
     * caller's buffers may be anywhere. NULL: the DMA reads the caller's memory. */
    void (*dma_write)(uintptr_t bus_addr, const void *src, size_t n);
    uintptr_t stage_base, stage_size;
    uint32_t flags; /* LD_HW_SHARED */
#endif
#if LD_CONFIG_LOCK
    /* Several tasks on one peripheral (ld_config.h LD_CONFIG_LOCK): lock(lock_arg) is called
     * before a driver call's first register access and returns 0 once the caller owns the
     * peripheral (it may block: an RTOS mutex, interrupts masked), or nonzero to give up (the
     * call then returns LD_ERR_TIMEOUT and touches nothing); unlock(lock_arg) when the call
     * ends. A streaming context (ld_hw_md_init, ld_hw_mac_init, ld_hw_hmac_init,
     * ld_hw_skein512_init) holds it from a successful init until its final, or until a call
     * fails it: finish every context you start. NULL hooks: no locking. The low-level
     * ld_hw_start_* / ld_hw_job_* calls take nothing: their caller holds the lock. */
    int (*lock)(void *lock_arg);
    void (*unlock)(void *lock_arg);
    void *lock_arg;
#endif
} ld_hw_dev;

#if LD_CONFIG_HOST
/* flags: several contexts use the peripheral, each between its own calls: every ld_hw_md_* /
 * Skein call that ran jobs leaves the chaining value in its context, and the next call loads
 * it back (cv + ctrl.load_cv), so hash objects may interleave and be copied. */
#define LD_HW_SHARED 1u
#endif
/* The register HAL of a memory-mapped window (bare metal, LiteX CSRs of 32 bits, a Linux mmap
 * of the peripheral): register addresses are CPU addresses, read and written with volatile
 * 32-bit accesses. The driver recognises it and reaches the registers directly on its
 * one-shot path (no call per access). */
uint32_t ld_hal_mmio_read32(uintptr_t addr);
void ld_hal_mmio_write32(uintptr_t addr, uint32_t value);

/* A device for the LiteX peripheral instance NAME (upper case, as in csr.h: SHA256, SHA1,
 * SHA512, SHA256_OPT_P4, ...): LD_HW_DEV_LITEX(SHA256, LD_FAMILY_SHA256, rd, wr, sync), rd and
 * wr usually ld_hal_mmio_read32 and ld_hal_mmio_write32 (LiteX's 32-bit CSRs are plain
 * memory-mapped words).
 * Its dma_inval is LD_HW_LITEX_DMA_INVAL: LiteX's flush_cpu_dcache (include <system.h>),
 * since the peripheral writes chaining values to RAM behind the CPU's data cache; define it
 * as NULL before including this header on a CPU whose cache the DMA keeps coherent. */
#ifndef LD_HW_LITEX_DMA_INVAL
#define LD_HW_LITEX_DMA_INVAL flush_cpu_dcache
#endif
/* Its poll_delay: the SoC's LITEDIGEST_POLL_DELAY constant (generated/soc.h, set by a target
 * whose DMA does not share the CPU's bus; include soc.h before using the macro), else the
 * default. */
#ifndef LD_HW_LITEX_POLL_DELAY
#ifdef LITEDIGEST_POLL_DELAY
#define LD_HW_LITEX_POLL_DELAY LITEDIGEST_POLL_DELAY
#else
#define LD_HW_LITEX_POLL_DELAY 0
#endif
#endif
/* The data cache's line in bytes (at most; LiteX's VexRiscv: 32). When every chaining value a
 * scheduler batch writes fills whole lines of this size (SHA-256, SHA-512, Skein-512-512
 * digests straight into aligned buffers, or the scheduler's own pads), ld_hw_schedule calls
 * dma_inval while the batch runs rather than after it: the CPU reads none of those lines
 * meanwhile, and the stack and device it does read stay cached for the rest of the call. */
#ifndef LD_HW_DCACHE_LINE
#define LD_HW_DCACHE_LINE 32
#endif
/* Its dma_inval_range: on LiteX's VexRiscv "standard" (a 4 KiB direct-mapped write-through
 * data cache whose build has no line-invalidate instruction) ld_hal_dcache_evict below; NULL
 * elsewhere, so that the one-shot call reads the digest registers (define it before including
 * this header for another CPU; include generated/soc.h first). */
#ifndef LD_HW_LITEX_DMA_INVAL_RANGE
#if defined(CONFIG_CPU_TYPE_VEXRISCV) && defined(CONFIG_CPU_VARIANT_STANDARD)
#define LD_HW_LITEX_DMA_INVAL_RANGE ld_hal_dcache_evict
#else
#define LD_HW_LITEX_DMA_INVAL_RANGE NULL
#endif
#endif
#define LD_HW_DEV_LITEX(NAME, FAMILY, RD, WR, SYNC)                                                \
    {                                                                                              \
        LD_HW_DEV_LITEX_FIELDS(NAME, FAMILY, RD, WR, SYNC), LD_HW_DEV_LITEX_BATCH(NAME)            \
    }
/* The same with a one-shot area (ld_hw_dev.oneshot_area: one-shot SHA calls through the batch
 * walker): AREA the address of a struct ld_hw_oneshot_area of the device's own, of static
 * storage (the peripheral may write it after a call has timed out), e.g.
 *   static struct ld_hw_oneshot_area sha256_area;
 *   static const ld_hw_dev sha256 = LD_HW_DEV_LITEX_AREA(SHA256, LD_FAMILY_SHA256, rd, wr,
 *                                                        sync, &sha256_area); */
#define LD_HW_DEV_LITEX_AREA(NAME, FAMILY, RD, WR, SYNC, AREA)                                     \
    {                                                                                              \
        LD_HW_DEV_LITEX_FIELDS(NAME, FAMILY, RD, WR, SYNC), LD_HW_DEV_LITEX_BATCH(NAME),           \
            .oneshot_area = (AREA)                                                                 \
    }
/* The batch registers of an instance whose csr.h has them (every peripheral since the batch
 * walker; a csr.h without them: define LD_HW_NO_BATCH before including this header). */
#ifdef LD_HW_NO_BATCH
#define LD_HW_DEV_LITEX_BATCH(NAME) .batch_base = 0
#else
#define LD_HW_DEV_LITEX_BATCH(NAME)                                                                \
    .batch_base = CSR_##NAME##_BATCH_BASE_ADDR, .batch_count = CSR_##NAME##_BATCH_COUNT_ADDR,      \
    .batch_status = CSR_##NAME##_BATCH_STATUS_ADDR,                                                \
    .batch_progress = CSR_##NAME##_BATCH_PROGRESS_ADDR,                                            \
    .batch_start_cycles = CSR_##NAME##_BATCH_START_CYCLES_ADDR
#endif
/* A Skein-512 instance (SKEIN512, ...): the common registers plus tweak and final_bytes. */
#define LD_HW_DEV_LITEX_SKEIN(NAME, RD, WR, SYNC)                                                  \
    {                                                                                              \
        LD_HW_DEV_LITEX_FIELDS(NAME, LD_FAMILY_SKEIN512, RD, WR, SYNC),                            \
            .tweak = CSR_##NAME##_TWEAK_ADDR, .final_bytes = CSR_##NAME##_FINAL_BYTES_ADDR,        \
            LD_HW_DEV_LITEX_BATCH(NAME)                                                            \
    }
/* A MAC instance (HMAC_SHA256, ...): the common registers plus keys_valid (ld_hw_hmac.h). */
#define LD_HW_DEV_LITEX_MAC(NAME, FAMILY, RD, WR, SYNC)                                            \
    {                                                                                              \
        LD_HW_DEV_LITEX_FIELDS(NAME, FAMILY, RD, WR, SYNC),                                        \
            .keys_valid = CSR_##NAME##_KEYS_VALID_ADDR, LD_HW_DEV_LITEX_BATCH(NAME)                \
    }
#define LD_HW_DEV_LITEX_FIELDS(NAME, FAMILY, RD, WR, SYNC)                                         \
    .ctrl = CSR_##NAME##_CTRL_ADDR, .din = CSR_##NAME##_DIN_ADDR, .cv = CSR_##NAME##_CV_ADDR,      \
    .dma_base = CSR_##NAME##_DMA_BASE_ADDR, .dma_length = CSR_##NAME##_DMA_LENGTH_ADDR,            \
    .tail_base = CSR_##NAME##_TAIL_BASE_ADDR, .tail_length = CSR_##NAME##_TAIL_LENGTH_ADDR,        \
    .status = CSR_##NAME##_STATUS_ADDR, .slots_busy = CSR_##NAME##_SLOTS_BUSY_ADDR,                \
    .slots_done = CSR_##NAME##_SLOTS_DONE_ADDR, .slots_ack = CSR_##NAME##_SLOTS_ACK_ADDR,          \
    .digest_sel = CSR_##NAME##_DIGEST_SEL_ADDR, .digest = CSR_##NAME##_DIGEST_ADDR,                \
    .blocks = CSR_##NAME##_BLOCKS_ADDR, .cycles_latch = CSR_##NAME##_CYCLES_LATCH_ADDR,            \
    .cycles_value = CSR_##NAME##_CYCLES_VALUE_ADDR, .info = CSR_##NAME##_INFO_ADDR,                \
    .finish_cycles = CSR_##NAME##_FINISH_CYCLES_ADDR, .read32 = RD, .write32 = WR,                 \
    .dma_sync = SYNC, .dma_inval = LD_HW_LITEX_DMA_INVAL, .timeout_polls = 2000000,                \
    .poll_delay = LD_HW_LITEX_POLL_DELAY, .ev_pending = CSR_##NAME##_EV_PENDING_ADDR,              \
    .ev_enable = CSR_##NAME##_EV_ENABLE_ADDR, .ram_base = MAIN_RAM_BASE,                           \
    .ram_size = MAIN_RAM_SIZE, .family = FAMILY, .dma_inval_range = LD_HW_LITEX_DMA_INVAL_RANGE

/* The engine facts in the info register. */
typedef struct {
    unsigned latency;   /* cycles from a block's accept to its result */
    unsigned stages;    /* pipeline stages (blocks in flight) */
    unsigned slots;     /* messages the engine holds (jobs that may run at once) */
    unsigned arch;      /* 0 base, 1 opt, 2 k5, 3 r1, 4 r4, 5 r8 */
    unsigned dma_align; /* DMA segments must be aligned to this many bytes */
    unsigned in_flight; /* blocks the engine works on at once when full: the stages of a
                          * SHA pipeline, the slots of a Skein ring/structural pipeline */
    unsigned period;    /* cycles in which it completes in_flight blocks when full: SHA
                          * p-stage latency - 1 (the final addition overlaps), else latency */
    unsigned interval;  /* period / in_flight, rounded down (exact but for Skein sp/fp rings) */
} ld_hw_info;

int ld_hw_get_info(const ld_hw_dev *dev, ld_hw_info *info);

/* Single-message streaming (slot 0; the caller owns the peripheral meanwhile). */
typedef struct {
    uint8_t pad[2 * LD_MD_MAX_BLOCK_SIZE] LD_DMA_ALIGNED; /* padded tail, 1-2 blocks */
    uint8_t buf[LD_MD_MAX_BLOCK_SIZE] LD_DMA_ALIGNED;     /* partial block */
    const ld_hw_dev *dev;
    uint64_t total;  /* message bytes so far */
    uint32_t buflen; /* bytes in buf */
    uint32_t jobs;   /* jobs issued for this message (0: the next one sets first) */
    uint32_t align;  /* DMA alignment of the peripheral */
    int alg, path;
    int state; /* internal: 1 active, 2 finished, 3 failed, other: not initialised */
    /* (ld_hw_hmac.h) the message's first job starts from *start_cv (load_cv) rather than the
     * IV, and every job carries start_levels (a MAC peripheral's key slot) */
    const uint32_t *start_cv;
    uint32_t start_levels;
#if LD_CONFIG_HOST
    uint32_t cv[LD_MD_MAX_STATE_WORDS]; /* LD_HW_SHARED: the chaining value between calls */
    uint32_t cv_here;                   /* cv holds it (the next job loads it) */
#endif
} ld_hw_md_ctx;

/* init: acks the peripheral (a clean start whatever happened before) and binds ctx to dev.
 * LD_ERR_ARG for a NULL ctx/dev/HAL, unknown alg, an alg of another family than the device,
 * unknown path. */
int ld_hw_md_init(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path);
/* update: LD_OK, LD_ERR_ARG, LD_ERR_STATE (after final or after a failure),
 * LD_ERR_RANGE (DMA path: caller buffer outside [ram_base, ram_base+ram_size)),
 * LD_ERR_TIMEOUT, LD_ERR_HW. Data not aligned for the DMA goes through the CSR path.
 * Any error other than LD_ERR_ARG fails the context: later update/final calls return
 * LD_ERR_STATE (the peripheral itself is always acked). */
int ld_hw_md_update(ld_hw_md_ctx *ctx, const void *data, size_t len);
/* final: pads, runs the last job, writes ld_md_digest_size(alg) bytes; LD_ERR_STATE when repeated. */
int ld_hw_md_final(ld_hw_md_ctx *ctx, uint8_t *out);
/* one-shot: the statuses of update and final. On the DMA path, a message in the DMA's range
 * and aligned to the block is one job the peripheral pads: through the batch walker into the
 * device's oneshot_area when it has a usable one (the digest copied from RAM), else with the
 * digest read from its registers; anything else goes through a context as above. */
int ld_hw_md(const ld_hw_dev *dev, int alg, int path, const void *data, size_t len, uint8_t *out);
#if LD_CONFIG_HOST
/* copy (hashlib's copy()): only on an LD_HW_SHARED device, where the chaining value is in the
 * context between calls (LD_ERR_STATE otherwise, or for a finished/failed src) */
int ld_hw_md_copy(ld_hw_md_ctx *dst, const ld_hw_md_ctx *src);
#endif

/* Low level. ctrl_levels: LD_CTRL_FIRST/LAST/LOAD_CV | LD_CTRL_VARIANT_VAL(v) | LD_CTRL_SLOT_VAL(s)
 * (DMA also LD_CTRL_HOLD, and LD_CTRL_OUT on a Skein peripheral).
 * start_* issue a job and return at once (LD_OK, or LD_ERR_HW when the peripheral rejected it,
 * with *status_out the status word); job_* also wait for it, check and ack.
 * CSR path: block is one block (any alignment); DMA path: segments as written to
 * dma_base/dma_length and tail_base/tail_length (tail_len 0: no tail). */
int ld_hw_start_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                    uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_start_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                    uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_job_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                  uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_job_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                  uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out);
/* Reads nwords digest words (H0 first; a 64-bit word is two) of a slot. */
void ld_hw_read_digest_words(const ld_hw_dev *dev, unsigned slot, uint32_t *words, size_t nwords);

/* Latches and reads the peripheral's 64-bit free-running cycle counter. */
int ld_hw_cycles(const ld_hw_dev *dev, uint64_t *out);

#if LD_CONFIG_PROFILE
/* Phase boundaries of a driver call (ld_config.h LD_CONFIG_PROFILE), in the order a job
 * passes them; the application defines ld_profile_mark. */
enum {
    LD_PROF_SETUP,   /* context set up (ld_hw_md_init: info read, clean start) */
    LD_PROF_PADDED,  /* the tail padded (ld_md_pad) */
    LD_PROF_STARTED, /* a job programmed and started, its status checked */
    LD_PROF_DONE,    /* the job's slot seen done (polling) */
    LD_PROF_ACKED,   /* status read, slot and done acknowledged */
    LD_PROF_DIGEST,  /* the digest read and converted to bytes */
    LD_PROF_POINTS
};
void ld_profile_mark(int point);
#endif

/* --- batches: many whole messages with one start (soc/REGISTERS.md "Batches") ----------------
 * A descriptor is the peripheral's: four little-endian words (message bus address, length in
 * bytes, output bus address, variant). The output of message i is its final chaining value,
 * the digest being its first ld_md_digest_size(alg) bytes (a Skein-512 alg,
 * LD_ALG_SKEIN512(bits): bits / 8; the peripheral adds the output block); outputs are aligned
 * to, and usually spaced by, ld_hw_batch_stride(alg) bytes. */
typedef struct {
    uint32_t words[4];
} ld_hw_batch_desc;
#define LD_HW_BATCH_DESC_ALIGN 16

/* A device's one-shot area (ld_hw_dev.oneshot_area): where the peripheral writes a one-shot
 * call's chaining value (SHA-512 and Skein-512's 64 bytes at most), and the call's descriptor,
 * in a cache line of its own (lines of 64 bytes at most). No message may cover it. */
struct ld_hw_oneshot_area {
    uint32_t cv[16] LD_DMA_ALIGNED; /* the chaining value's bytes, in the digest's order */
    ld_hw_batch_desc desc;
    /* the driver's: the peripheral's slots_ack words, read from `info` at the first call (0
     * before it: hence static storage), so that later calls read no register to start */
    uint32_t ack_words;
};

/* dma_inval_range for a direct-mapped, write-through data cache of LD_HW_DCACHE_SIZE bytes in
 * lines of LD_HW_DCACHE_LINE (LiteX's VexRiscv "standard": 4096 and 32): each line of
 * [addr, addr + len) is evicted by a load from the address LD_HW_DCACHE_SIZE away, which takes
 * its place in the cache (that address must be RAM too: the range in a RAM aligned to twice the
 * cache size, as LiteX's main RAM). */
#ifndef LD_HW_DCACHE_SIZE
#define LD_HW_DCACHE_SIZE 4096
#endif
void ld_hal_dcache_evict(uintptr_t addr, size_t len); /* len at most LD_HW_DCACHE_SIZE */

/* Output alignment and spacing of alg's chaining value (32 for SHA-1/SHA-256, 64 for SHA-512
 * and Skein-512), 0 for an algorithm the batch walker does not take. */
size_t ld_hw_batch_stride(int alg);
/* Fill descriptor d for a message at bus address msg of len bytes whose chaining value goes to
 * bus address out; LD_ERR_ARG (alg not of dev's family, no batch walker), LD_ERR_RANGE (msg not
 * aligned like a DMA segment, out not aligned to the stride, either outside the DMA
 * range). The peripheral checks the same again. */
int ld_hw_batch_desc_set(ld_hw_batch_desc *d, const ld_hw_dev *dev, int alg, uintptr_t msg,
                         size_t len, uintptr_t out);
/* Run n descriptors at bus address table (16-byte aligned, DMA-readable, already visible to
 * the DMA; no output address inside the table: the walker reads descriptors ahead of the
 * outputs it writes): starts the walker, waits for its end (bounded by timeout_polls), acks. *done (if
 * not NULL): the chaining values written. LD_OK; LD_ERR_HW (a descriptor refused, bus error,
 * the peripheral busy); LD_ERR_TIMEOUT (the batch still runs: the peripheral stays owned by it
 * until it ends); LD_ERR_ARG. Calls dma_inval before returning LD_OK. */
int ld_hw_md_batch_run(const ld_hw_dev *dev, uintptr_t table, size_t n, size_t *done);
/* The whole batch when the CPU's addresses are the DMA's (firmware): fills table[0..n-1]
 * for msgs[i]/lens[i] (each aligned like a DMA segment) and digests + i * stride and runs it,
 * in runs of 8, 16, 32, 64 and then 128 descriptors, the walker running one while the CPU
 * fills the next (dma_sync before each start, dma_inval once at the end). Errors as above,
 * with *done the digests written; a message refused (LD_ERR_ARG: too long, LD_ERR_RANGE: not
 * aligned or outside the DMA's range) ends the batch after the ones before it, and *done is
 * its index. An empty batch (n = 0) does nothing. */
int ld_hw_md_batch(const ld_hw_dev *dev, int alg, ld_hw_batch_desc *table, const void *const *msgs,
                   const size_t *lens, size_t n, uint8_t *digests, size_t *done);
/* A descriptor ring (firmware): a table whose buffers and outputs stay from call to call,
 * each descriptor set once (ld_hw_batch_desc_set, or a first ld_hw_md_batch) for a buffer of
 * cap bytes with a length of at least 1; each call then writes only the n length words (lens[i]
 * <= cap, else LD_ERR_RANGE with *done its index, the ones before it hashed) and runs the table
 * as ld_hw_md_batch does: one store a message instead of four. */
int ld_hw_md_batch_lengths(const ld_hw_dev *dev, ld_hw_batch_desc *table, const size_t *lens,
                           size_t n, size_t cap, size_t *done);

/* --- interrupts ----------------------------------------------------------------------------
 * The peripheral raises its interrupt when a job ends (event `done`, any slot, errors too) and
 * when a batch ends (event `batch`); the line stays high until the event is acknowledged.
 * enable: on != 0 clears the pending events and enables both (the batch event only on a
 * peripheral with the walker); 0 disables them. LD_ERR_ARG without ev_pending/ev_enable.
 * ack: for the application's interrupt handler: clears the pending events, so the level
 * interrupt drops, and returns them (LD_EV_DONE | LD_EV_BATCH bits; 0: not this peripheral's).
 * The driver itself never acknowledges events: whether a job is done it reads from the status. */
int ld_hw_irq_enable(const ld_hw_dev *dev, int on);
uint32_t ld_hw_irq_ack(const ld_hw_dev *dev);

/* Is [addr, addr+len) inside the device's DMA range and aligned to align bytes? */
int ld_hw_dma_ok(const ld_hw_dev *dev, uintptr_t addr, size_t len, uint32_t align);

/* internal helper shared with the scheduler: read reg until (read32(reg) & mask) != 0, polling
 * or through dev->wait between reads, or the timeout; returns the last value read (0 on
 * timeout or when wait gave up). */
uint32_t ld_hw_poll(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask);
/* The same for jobs that may vanish: after LD_HW_FIRST_POLLS polls without them done, every
 * LD_HW_ALIVE_POLLS polls, read busy_reg too; when none of busy_mask's bits is set there and
 * reg still shows none done, the jobs are gone (the peripheral or the SoC was reset under
 * them): returns 0 with *lost = 1 (a job is busy or done from its start until its ack, so the
 * two reads, busy first, cannot both miss a live one). The drivers report a lost job as
 * LD_ERR_HW without waiting out the bound. (The first polls are the bare loop: a short job's
 * wait costs what it did.) */
#define LD_HW_FIRST_POLLS 4096u
#define LD_HW_ALIVE_POLLS 256u
uint32_t ld_hw_poll_jobs(const ld_hw_dev *dev, uintptr_t reg, uint32_t mask, uintptr_t busy_reg,
                         uint32_t busy_mask, int *lost);

#ifdef __cplusplus
}
#endif
#endif
