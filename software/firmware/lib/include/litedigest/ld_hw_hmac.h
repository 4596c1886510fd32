/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: HMAC (RFC 2104) in hardware, two ways.
 *
 * 1. On the HMAC peripheral (a MAC engine, `hmac-sha256:opt:p4`: dev->family
 *    LD_FAMILY_HMAC_SHA256; soc/REGISTERS.md "MAC peripherals"), whose key slots keep the key's
 *    inner and outer states inside the engine: ld_hw_mac_set_key loads a key into a slot once,
 *    then every MAC under it is one job (one `pad` job on the DMA path) or one batch, the
 *    engine doing both hashes. The states never leave the peripheral; ld_hw_mac_wipe zeroes
 *    them.
 * 2. On any hash peripheral of the SHA families through its chaining-value load: the key's
 *    two states H(K0 ^ ipad) and H(K0 ^ opad) are computed once on the peripheral
 *    (ld_hw_hmac_key_init: two one-block jobs, read back) and kept in an ld_hw_hmac_key; each
 *    MAC then runs the inner hash from the inner state (`load_cv`) with the library's padding
 *    (which counts the 64- or 128-byte key block), and the outer hash of the inner digest from
 *    the outer state. SHA-1, SHA-224/256, SHA-384/512, SHA-512/224, SHA-512/256.
 *
 * K0 (RFC 2104): the key zero-padded to the block, or, longer than a block, its digest
 * zero-padded (hashed in software, ld_md). Secrets on the stack (K0, the padded key blocks,
 * an inner digest) are wiped before every return; an ld_hw_hmac_key holds the two states until
 * ld_hw_hmac_key_wipe. The software HMAC of every algorithm is ld_hmac.h's.
 *
 * Errors: LD_ERR_ARG (NULL arguments, a device of the wrong family, a key slot out of range,
 * NULL key with keylen > 0), LD_ERR_STATE (a key slot without states, a wipe while a job runs,
 * a context used after final or an error), LD_ERR_HW (the peripheral refused a job or reported
 * a bus error), LD_ERR_TIMEOUT, LD_ERR_RANGE (DMA path: data outside the DMA's range). */
#ifndef LITEDIGEST_LD_HW_HMAC_H
#define LITEDIGEST_LD_HW_HMAC_H

#include "ld_hw.h"
#include "ld_md.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- 1. the HMAC peripheral ------------------------------------------------------------- */

/* The MAC size of a MAC peripheral (32 for HMAC-SHA-256), 0 for any other device. */
size_t ld_hw_mac_size(const ld_hw_dev *dev);
/* Its number of key slots, 0 for any other device. */
unsigned ld_hw_mac_key_slots(const ld_hw_dev *dev);
/* Loads key (any length; 0 allowed) into key_slot: one job on slot 0 (33 engine cycles). */
int ld_hw_mac_set_key(const ld_hw_dev *dev, unsigned key_slot, const void *key, size_t keylen);
/* The key slots holding states (bit k: key slot k). */
uint32_t ld_hw_mac_keys(const ld_hw_dev *dev);
/* Zeroes every key slot's states (LD_ERR_STATE while a job runs: nothing wiped). */
int ld_hw_mac_wipe(const ld_hw_dev *dev);
/* Streaming on slot 0 under key_slot: ld_hw_mac_init, then ld_hw_md_update / ld_hw_md_final
 * on the context (final writes ld_hw_mac_size(dev) bytes). The context owns slot 0 until its
 * final (the peripheral shows no chaining value to save between calls); it cannot be copied. */
int ld_hw_mac_init(ld_hw_md_ctx *ctx, const ld_hw_dev *dev, unsigned key_slot, int path);
/* One-shot: on the DMA path with an aligned message in range and hardware padding, one `pad`
 * job; otherwise through a context. */
int ld_hw_mac(const ld_hw_dev *dev, unsigned key_slot, int path, const void *data, size_t len,
              uint8_t *mac);
/* n messages through the batch walker (when the CPU's addresses are the DMA's: firmware):
 * table[0..n-1] filled for msgs[i]/lens[i] (each aligned like a DMA segment), MAC i written to
 * macs + 32 * i (32-byte aligned, in the DMA range), the walker running each run of
 * descriptors while the next is filled, as ld_hw_md_batch. *done (if not NULL): MACs written;
 * on a message refused (LD_ERR_ARG, LD_ERR_RANGE), those before it are written and *done is its
 * index. */
int ld_hw_mac_batch(const ld_hw_dev *dev, unsigned key_slot, ld_hw_batch_desc *table,
                    const void *const *msgs, const size_t *lens, size_t n, uint8_t *macs,
                    size_t *done);
/* The same with a key slot per message: message i under key_slots[i] (each holding a key),
 * all in one batch (each descriptor names its key slot: an IPsec gateway's packets, each
 * under its security association's key, in their order). A key slot out of range or without
 * states refuses its message as a bad one does (LD_ERR_STATE; those before it written, *done
 * its index). */
int ld_hw_mac_batch_keys(const ld_hw_dev *dev, const uint8_t *key_slots, ld_hw_batch_desc *table,
                         const void *const *msgs, const size_t *lens, size_t n, uint8_t *macs,
                         size_t *done);
/* For a host whose addresses are not the DMA's (the messages, the table and the outputs
 * staged in the DMA range first): descriptor d for a message at bus address msg of len bytes
 * whose MAC goes to bus address out (errors as ld_hw_batch_desc_set's), and the run of n
 * descriptors at bus address table under key_slot, as ld_hw_md_batch_run (LD_ERR_STATE: the
 * key slot holds no key). */
int ld_hw_mac_batch_desc_set(ld_hw_batch_desc *d, const ld_hw_dev *dev, uintptr_t msg, size_t len,
                             uintptr_t out);
int ld_hw_mac_batch_run(const ld_hw_dev *dev, unsigned key_slot, uintptr_t table, size_t n,
                        size_t *done);

/* --- 2. HMAC on a hash peripheral ------------------------------------------------------- */

typedef struct {
    const ld_hw_dev *dev;
    int alg, path;
    uint32_t inner[LD_MD_MAX_STATE_WORDS]; /* H(K0 ^ ipad)'s chaining value: a secret */
    uint32_t outer[LD_MD_MAX_STATE_WORDS]; /* H(K0 ^ opad)'s */
    uint32_t magic;                        /* set by ld_hw_hmac_key_init */
} ld_hw_hmac_key;

typedef struct {
    ld_hw_md_ctx inner;        /* the message's hash from the key's inner state */
    const ld_hw_hmac_key *key; /* (must outlive the context) */
} ld_hw_hmac_ctx;

/* Computes key's two states on dev (a hash peripheral of alg's family) for MACs on `path`. */
int ld_hw_hmac_key_init(ld_hw_hmac_key *k, const ld_hw_dev *dev, int alg, int path, const void *key,
                        size_t keylen);
void ld_hw_hmac_key_wipe(ld_hw_hmac_key *k);
/* Streaming: the context's chaining value stays in slot 0 (or, on an LD_HW_SHARED host
 * device, in the context) between calls, as for ld_hw_md. final writes ld_hmac_size(alg)
 * bytes and ends the context. */
int ld_hw_hmac_init(ld_hw_hmac_ctx *ctx, const ld_hw_hmac_key *k);
int ld_hw_hmac_update(ld_hw_hmac_ctx *ctx, const void *data, size_t len);
int ld_hw_hmac_final(ld_hw_hmac_ctx *ctx, uint8_t *out);
/* One-shot under a key computed before. */
int ld_hw_hmac(const ld_hw_hmac_key *k, const void *data, size_t len, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
