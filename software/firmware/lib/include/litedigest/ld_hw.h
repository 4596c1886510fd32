/* LiteDigest C library: driver for the SHA-256 hash peripheral (soc/REGISTERS.md).
 *
 * The core has no LiteX dependency: register access goes through the ld_hw_dev HAL, whose
 * addresses come from the platform (LiteX: csr.h CSR_SHA256_*_ADDR; Zynq: an MMIO base; the
 * host: cffi callbacks). Padding is done in software (ld_md_pad).
 */
#ifndef LITEDIGEST_LD_HW_H
#define LITEDIGEST_LD_HW_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_hw_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LD_PATH_CSR 0 /* CPU writes din words, one block per start */
#define LD_PATH_DMA 1 /* the peripheral reads whole blocks from main RAM */

#define LD_HW_DEFAULT_TIMEOUT_POLLS 1000000u

typedef struct {
    /* register addresses (multi-word registers: address of the most significant word,
     * the following words at +4, +8, ...) */
    uintptr_t ctrl, din, cv, dma_base, dma_length, status, digest, blocks,
              cycles_latch, cycles_value, info;
    uint32_t (*read32)(uintptr_t addr);
    void (*write32)(uintptr_t addr, uint32_t value);
    void (*dma_sync)(void);     /* make CPU writes visible to the DMA (cache flush); may be NULL */
    uint32_t timeout_polls;     /* max status polls per job; 0 = LD_HW_DEFAULT_TIMEOUT_POLLS */
    uintptr_t ram_base, ram_size; /* the range the DMA may read (main RAM) */
} ld_hw_dev;

typedef struct {
    uint32_t buf[16];     /* partial block (word-aligned so DMA can read it) */
    uint32_t pad[32];     /* padded tail, up to 2 blocks (word-aligned) */
    const ld_hw_dev *dev;
    uint64_t total;       /* message bytes so far */
    uint32_t buflen;      /* bytes in buf */
    uint32_t jobs;        /* jobs issued for this message (0: the next one sets first) */
    int variant, path;
    int state;            /* internal: 1 active, 2 finished, 3 failed, other: not initialised */
} ld_hw_sha256_ctx;

/* init: acks the peripheral (a clean start whatever happened before) and binds ctx to dev.
 * LD_ERR_ARG for a NULL ctx/dev/HAL, unknown variant or path. */
int ld_hw_sha256_init(ld_hw_sha256_ctx *ctx, const ld_hw_dev *dev, int variant, int path);
/* update: LD_OK, LD_ERR_ARG, LD_ERR_STATE (after final or after a failure),
 * LD_ERR_RANGE (DMA path: caller buffer outside [ram_base, ram_base+ram_size)),
 * LD_ERR_TIMEOUT, LD_ERR_HW. Any error other than LD_ERR_ARG fails the context:
 * later update/final calls return LD_ERR_STATE (the peripheral itself is always acked). */
int ld_hw_sha256_update(ld_hw_sha256_ctx *ctx, const void *data, size_t len);
/* final: pads, runs the last job, writes 32 or 28 digest bytes; LD_ERR_STATE when repeated. */
int ld_hw_sha256_final(ld_hw_sha256_ctx *ctx, uint8_t *out);
/* one-shot */
int ld_hw_sha256(const ld_hw_dev *dev, int variant, int path, const void *data, size_t len,
                 uint8_t *out);

/* Low level: one job. CSR path: block is 64 bytes (any alignment); DMA path: addr/len as
 * written to dma_base/dma_length (no range check here: the peripheral checks). ctrl_levels is
 * a combination of LD_CTRL_FIRST/LAST/VARIANT/LOAD_CV. Waits, checks and acks.
 * Returns LD_OK, LD_ERR_TIMEOUT or LD_ERR_HW; *status_out (may be NULL) gets the status word
 * seen when the job was done (before the ack). */
int ld_hw_job_csr(const ld_hw_dev *dev, const uint8_t *block, uint32_t ctrl_levels,
                  uint32_t *status_out);
int ld_hw_job_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uint32_t ctrl_levels,
                  uint32_t *status_out);
/* Reads the 8 digest words (H0..H7). */
void ld_hw_read_digest_words(const ld_hw_dev *dev, uint32_t words[8]);

/* Latches and reads the peripheral's 64-bit free-running cycle counter. */
int ld_hw_cycles(const ld_hw_dev *dev, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
