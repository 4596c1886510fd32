"""cffi API-mode builder of `litedigest._native`: the portable C library (software/firmware/lib)
compiled for the host.

Exposes the generic Merkle-Damgard API of every algorithm (ld_md.h: table, streaming, one-shot),
the software SHA-256/224 (streaming, one-shot, compress), the SHA-1 and SHA-512 compression
functions, the Merkle-Damgard padding,
and the hash-peripheral driver whose HAL read32/write32 are Python callbacks
(`extern "Python"`: `ld_py_read32`/`ld_py_write32`, dispatched by litedigest.native to the
currently bound register accessor), so the C driver can run against any Python-side
peripheral (a model, the simulated SoC through its bridge, ...).

Built by setuptools through `setup(cffi_modules=[".../_native_build.py:ffibuilder"])`, or by hand:
`python software/python/litedigest/_native_build.py` (writes the extension next to this file).
"""
import os

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, "..", "..", ".."))
_LIB = os.path.join(_ROOT, "software", "firmware", "lib")
_SOURCES = ["common.c", "pad.c", "md_sw.c", "sha1_sw.c", "sha256_sw.c", "sha512_sw.c", "md_hw.c", "sched.c", "skein.c"]


def _rel(path):
    # setuptools prefers sources relative to the project root (its working directory)
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


CDEF = """
#define LD_OK 0
#define LD_ERR_ARG -1
#define LD_ERR_STATE -2
#define LD_ERR_TIMEOUT -3
#define LD_ERR_HW -4
#define LD_ERR_RANGE -5
#define LD_SHA256 0
#define LD_SHA224 1
#define LD_PATH_CSR 0
#define LD_PATH_DMA 1

const char *ld_strerror(int err);

#define LD_ALG_SHA1 0
#define LD_ALG_SHA256 1
#define LD_ALG_SHA224 2
#define LD_ALG_SHA512 3
#define LD_ALG_SHA384 4
#define LD_ALG_SHA512_224 5
#define LD_ALG_SHA512_256 6
#define LD_ALG_COUNT 7
#define LD_FAMILY_SHA1 0
#define LD_FAMILY_SHA256 1
#define LD_FAMILY_SHA512 2
#define LD_MD_MAX_BLOCK_SIZE 128
#define LD_MD_MAX_DIGEST_SIZE 64
#define LD_MD_MAX_STATE_WORDS 16
#define LD_SHA512 0
#define LD_SHA384 1
#define LD_SHA512_224 2
#define LD_SHA512_256 3

size_t ld_md_block_size(int alg);
size_t ld_md_digest_size(int alg);
size_t ld_md_state_words(int alg);
int ld_md_family(int alg);
int ld_md_variant(int alg);
const char *ld_md_name(int alg);
int ld_md_iv_words(int alg, uint32_t *words);

typedef struct {
    union {
        uint32_t w32[8];
        uint64_t w64[8];
    } state;
    uint64_t total;
    uint8_t  buf[128];
    uint32_t buflen;
    int      alg;
    int      finished;
    uint32_t magic;
} ld_md_ctx;

int ld_md_init(ld_md_ctx *ctx, int alg);
int ld_md_update(ld_md_ctx *ctx, const void *data, size_t len);
int ld_md_final(ld_md_ctx *ctx, uint8_t *out);
int ld_md_copy(ld_md_ctx *dst, const ld_md_ctx *src);
int ld_md_ctx_alg(const ld_md_ctx *ctx);
int ld_md(int alg, const void *data, size_t len, uint8_t *out);

typedef ld_md_ctx ld_sha256_ctx;

size_t ld_sha256_digest_size(int variant);
int ld_sha256_iv(int variant, uint32_t state[8]);
void ld_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t nblocks);
int ld_sha256_init(ld_sha256_ctx *ctx, int variant);
int ld_sha256_update(ld_sha256_ctx *ctx, const void *data, size_t len);
int ld_sha256_final(ld_sha256_ctx *ctx, uint8_t *out);
int ld_sha256(int variant, const void *data, size_t len, uint8_t *out);

void ld_sha1_iv(uint32_t state[5]);
void ld_sha1_compress(uint32_t state[5], const uint8_t *blocks, size_t nblocks);
int ld_sha512_iv(int variant, uint64_t state[8]);
void ld_sha512_compress(uint64_t state[8], const uint8_t *blocks, size_t nblocks);

size_t ld_md_pad(uint8_t *out, const uint8_t *tail, size_t tail_len,
                 uint64_t total_len, size_t block_size);

typedef struct {
    uintptr_t ctrl, din, cv, dma_base, dma_length, tail_base, tail_length, status,
              slots_busy, slots_done, slots_ack, digest_sel, digest, blocks,
              cycles_latch, cycles_value, info, finish_cycles;
    uintptr_t tweak, final_bytes;
    uint32_t (*read32)(uintptr_t addr);
    void (*write32)(uintptr_t addr, uint32_t value);
    void (*dma_sync)(void);
    uint32_t timeout_polls;
    uintptr_t ram_base, ram_size;
    int family;
} ld_hw_dev;

typedef struct {
    unsigned latency, stages, slots, arch, dma_align, in_flight, period, interval;
} ld_hw_info;
int ld_hw_get_info(const ld_hw_dev *dev, ld_hw_info *info);

typedef struct { ...; } ld_hw_md_ctx;
int ld_hw_md_init(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, int alg, int path);
int ld_hw_md_update(ld_hw_md_ctx *ctx, const void *data, size_t len);
int ld_hw_md_final(ld_hw_md_ctx *ctx, uint8_t *out);
int ld_hw_md(const ld_hw_dev *dev, int alg, int path, const void *data, size_t len, uint8_t *out);
int ld_hw_start_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                    uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_start_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                    uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_job_csr(const ld_hw_dev *dev, const uint8_t *block, size_t block_size,
                  uint32_t ctrl_levels, uint32_t *status_out);
int ld_hw_job_dma(const ld_hw_dev *dev, uintptr_t addr, uint32_t len, uintptr_t tail_addr,
                  uint32_t tail_len, uint32_t ctrl_levels, uint32_t *status_out);
void ld_hw_read_digest_words(const ld_hw_dev *dev, unsigned slot, uint32_t *words, size_t nwords);
int ld_hw_cycles(const ld_hw_dev *dev, uint64_t *out);
int ld_hw_dma_ok(const ld_hw_dev *dev, uintptr_t addr, size_t len, uint32_t align);

#define LD_PATH_CSR 0
#define LD_PATH_DMA 1
#define LD_FAMILY_SHA1 0
#define LD_FAMILY_SHA256 1
#define LD_FAMILY_SHA512 2

typedef struct {
    const void *data;
    size_t len;
    int alg;
    uint8_t *out;
    int result;
} ld_sched_msg;
typedef struct { ...; } ld_sched_slot;
typedef struct { ...; } ld_sched;
typedef struct {
    size_t slot, msg, first_block, nblocks, block_size;
    const uint8_t *data;
    size_t data_blocks;
    const uint8_t *tail;
    size_t tail_blocks;
    int first, last;
    int variant;
    int skein, out;
    uint64_t t0, t1;
    unsigned final_bytes;
} ld_sched_job;
size_t ld_sched_digest_size(int alg);
int ld_sched_init(ld_sched *s, ld_sched_msg *msgs, size_t nmsgs, ld_sched_slot *slots,
                  size_t nslots, int whole_message_jobs);
int ld_sched_next(ld_sched *s, ld_sched_job *job);
long ld_sched_complete(ld_sched *s, size_t slot, int result);
typedef struct {
    uint64_t cycles, run_cycles;
    uint32_t blocks, interval, period, in_flight, jobs;
} ld_sched_stats;
int ld_hw_schedule(const ld_hw_dev *dev, int path, ld_sched_msg *msgs, size_t nmsgs,
                   ld_sched_slot *slots, size_t nslots, ld_sched_stats *stats);

/* ctrl/status bits as compiled into the driver */
static const uint32_t LD_CTRL_START, LD_CTRL_DMA_START, LD_CTRL_FIRST, LD_CTRL_LAST,
    LD_CTRL_LOAD_CV, LD_CTRL_ACK, LD_CTRL_TAIL, LD_CTRL_HOLD, LD_CTRL_OUT, LD_CTRL_VARIANT_MASK, LD_CTRL_SLOT_MASK;
static const uint32_t LD_STATUS_BUSY, LD_STATUS_DONE, LD_STATUS_ERR_LEN, LD_STATUS_ERR_ADDR,
    LD_STATUS_ERR_STATE, LD_STATUS_ERR_BUS;

/* Skein-512 (ld_skein.h) */
#define LD_FAMILY_SKEIN512 3
#define LD_SKEIN512_MAX_OUT_BITS ...
int ld_skein512_variant(size_t out_bits);
#define LD_ALG_SKEIN512_BASE 65536
size_t ld_skein512_alg_bits(int alg);
int ld_skein512_iv(size_t out_bits, uint64_t x[8]);
void ld_threefish512(const uint64_t key[8], const uint64_t tweak[2], const uint64_t in[8],
                     uint64_t out[8]);
void ld_skein512_ubi(uint64_t x[8], const uint8_t *blocks, size_t nblocks, uint64_t t0,
                     uint64_t t1, unsigned final_bytes);
typedef struct { ...; } ld_skein512_ctx;
int ld_skein512_init(ld_skein512_ctx *ctx, size_t out_bits, const uint8_t *key, size_t keylen);
int ld_hw_skein512_init(ld_skein512_ctx *ctx, const ld_hw_dev *dev, int path, size_t out_bits,
                        const uint8_t *key, size_t keylen);
int ld_skein512_update(ld_skein512_ctx *ctx, const void *data, size_t len);
int ld_skein512_update_bits(ld_skein512_ctx *ctx, const void *data, size_t nbits);
int ld_skein512_final(ld_skein512_ctx *ctx, uint8_t *out);
size_t ld_skein512_digest_size(const ld_skein512_ctx *ctx);
int ld_skein512(size_t out_bits, const uint8_t *key, size_t keylen, const void *data,
                size_t nbits, uint8_t *out);
int ld_hw_skein512(const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key,
                   size_t keylen, const void *data, size_t nbits, uint8_t *out);

/* HAL callbacks into Python */
extern "Python" uint32_t ld_py_read32(uintptr_t addr);
extern "Python" void ld_py_write32(uintptr_t addr, uint32_t value);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "litedigest._native",
    """
#include "litedigest/ld_common.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"
#include "litedigest/ld_pad.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_sched.h"
#include "litedigest/ld_skein.h"
""",
    sources=[_rel(os.path.join(_LIB, "src", s)) for s in _SOURCES],
    include_dirs=[_rel(os.path.join(_LIB, "include"))],
    extra_compile_args=["-O2", "-std=c99"],
)

if __name__ == "__main__":
    ffibuilder.compile(tmpdir=os.path.join(_ROOT, "build", "cffi"), verbose=False)
