/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: HMAC (RFC 2104, FIPS 198-1) over every Merkle-Damgard hash of ld_md.h
 * (SHA-1, SHA-224/256, SHA-384/512, SHA-512/224, SHA-512/256), and constant-time comparison.
 *
 *   HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m))
 *
 * K0 is the key zero-padded to the hash's block size, or, for a key longer than the block,
 * its digest zero-padded (RFC 2104 section 2). The context keeps no key: init hashes the two
 * padded key blocks into two started ld_md contexts (the inner one then takes the message,
 * the outer one the inner digest at final), so a context costs two hash states, and copying
 * one after init (ld_hmac_copy) computes MACs of many messages under one key without
 * hashing the key blocks again. The hashing is ld_md's: this file adds no compression code.
 *
 * Secrets: the padded key block, the hashed long key and the inner digest live on the stack
 * during a call and are wiped before it returns (stores the compiler cannot drop), on success
 * and on every error path; final and every error wipe the context's two hash states, which
 * are derived from the key (a leaked state lets one forge MACs without knowing the key). The
 * compression functions' own temporaries are not wiped (ld_md's code).
 * A context is unusable after final or after any error of update/final on it: update and
 * final refuse it with LD_ERR_STATE until the next init (so an error cannot leave a half-fed
 * context that silently MACs a different message). A failed init leaves the context wiped
 * and unusable too. Contexts that no init set up are recognised (a magic value and
 * consistency checks, as ld_md does) and refused with LD_ERR_STATE, nothing written.
 */
#ifndef LITEDIGEST_LD_HMAC_H
#define LITEDIGEST_LD_HMAC_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_md.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ld_hmac_verify's result when the MAC does not match is LD_ERR_MISMATCH (ld_common.h): a
 * code of its own, so that a caller tells a forgery from a bug of its own (LD_ERR_ARG, a
 * caller's mistake; LD_ERR_STATE, a call order). */

#define LD_HMAC_MAX_SIZE LD_MD_MAX_DIGEST_SIZE /* the longest MAC (HMAC-SHA-512) */
/* The shortest MAC ld_hmac_verify accepts, in bytes: RFC 2104 section 5 advises keeping at
 * least half the digest and not fewer than 80 bits; a shorter tag is too easy to guess. */
#define LD_HMAC_MIN_VERIFY_SIZE 10

typedef struct {
    ld_md_ctx inner; /* H((K0 ^ ipad) || message so far) */
    ld_md_ctx outer; /* H((K0 ^ opad)): one block in, takes the inner digest at final */
    int alg;         /* LD_ALG_* */
    int finished;    /* 1 after final or an error: refused until init */
    uint32_t magic;  /* set by init: catches an uninitialised context */
} ld_hmac_ctx;

/* The MAC size of alg (its digest size, 20..64 bytes); 0 for an unknown alg (out of the
 * LD_ALG_* range, a Skein id, a family configured out). */
size_t ld_hmac_size(int alg);

/* Streaming API.
 * init: key of any length (0 allowed; NULL only with keylen 0). LD_OK, or LD_ERR_ARG (NULL
 *   ctx, unknown alg, NULL key with keylen > 0; a non-NULL ctx is then wiped and unusable).
 * update: LD_OK; LD_ERR_ARG (NULL ctx, NULL data with len > 0, a message past the hash's
 *   length limit); LD_ERR_STATE (uninitialised, after final or an error). Any error on a
 *   usable context ends it (wiped).
 * final: writes ld_hmac_size(alg) bytes to out. LD_OK; LD_ERR_ARG (NULL ctx or out: nothing
 *   written, a usable context ends); LD_ERR_STATE (uninitialised, after final or an error).
 *   The context is wiped and unusable after it, whatever the result.
 * copy: duplicates a context (the key's started states and the message so far; a finished
 *   one gives a finished one). LD_OK, LD_ERR_ARG (NULL dst/src), LD_ERR_STATE (src
 *   uninitialised). */
int ld_hmac_init(ld_hmac_ctx *ctx, int alg, const void *key, size_t keylen);
int ld_hmac_update(ld_hmac_ctx *ctx, const void *data, size_t len);
int ld_hmac_final(ld_hmac_ctx *ctx, uint8_t *out);
int ld_hmac_copy(ld_hmac_ctx *dst, const ld_hmac_ctx *src);

/* One-shot: init, update, final; the same results (LD_ERR_ARG also for a NULL out, checked
 * before any work), out written only on LD_OK. */
int ld_hmac(int alg, const void *key, size_t keylen, const void *data, size_t len, uint8_t *out);

/* Computes the MAC of data and compares its first maclen bytes with mac in constant time
 * (ld_ct_equal), so the time taken tells an attacker nothing about how many leading bytes
 * of a forged MAC were right. maclen may be below the digest size (truncated MACs, RFC 2104
 * section 5, RFC 4231 test case 5) but not below LD_HMAC_MIN_VERIFY_SIZE nor above
 * ld_hmac_size(alg). LD_OK (match), LD_ERR_MISMATCH, LD_ERR_ARG (NULL mac, maclen out of
 * bounds, or ld_hmac's argument errors). */
int ld_hmac_verify(int alg, const void *key, size_t keylen, const void *data, size_t len,
                   const uint8_t *mac, size_t maclen);

/* 1 when the n bytes at a and b are equal, else 0 (n == 0: 1; NULL a or b with n > 0: 0).
 * Constant time: every byte is read whatever the data, with no branch or early exit on it;
 * the time depends on n only. For comparing secrets (MACs, tokens), where memcmp's early exit
 * at the first difference would leak the position of that difference. */
int ld_ct_equal(const void *a, const void *b, size_t n);

#ifdef __cplusplus
}
#endif
#endif
