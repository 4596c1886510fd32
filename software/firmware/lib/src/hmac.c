/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: HMAC over ld_md (see ld_hmac.h) and constant-time comparison. */
#include "ld_sw_internal.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_hmac.h"

#define LD_HMAC_MAGIC 0x686d6163u /* "hmac" */

/* a context init set up, not finished, whose two hash states are what init left them (both of
 * alg, unfinished, the outer one exactly one block in): garbage that happens to carry the
 * magic value is not taken for one */
static int live(const ld_hmac_ctx *ctx)
{
    size_t bs = ld_md_block_size(ctx->alg);

    return ctx->magic == LD_HMAC_MAGIC && ctx->finished == 0 && bs != 0 &&
           ld_md_ctx_alg(&ctx->inner) == ctx->alg && ld_md_ctx_alg(&ctx->outer) == ctx->alg &&
           !ctx->inner.finished && !ctx->outer.finished && ctx->inner.total >= bs &&
           ctx->outer.total == bs;
}

/* ends a context: its key-derived hash states wiped, refused until the next init */
static void end(ld_hmac_ctx *ctx)
{
    ld_wipe(&ctx->inner, sizeof ctx->inner);
    ld_wipe(&ctx->outer, sizeof ctx->outer);
    ctx->finished = 1;
}

/* an error of update/final: a usable context ends (a garbage one is left alone) */
static int fail(ld_hmac_ctx *ctx, int r)
{
    if (ctx != NULL && live(ctx))
        end(ctx);
    return r;
}

size_t ld_hmac_size(int alg)
{
    return ld_md_digest_size(alg);
}

/* md started with the block-size bytes of k0 each XORed with pad */
static int start(ld_md_ctx *md, int alg, uint8_t *k0, size_t bs, uint8_t pad)
{
    size_t i;
    int r;

    for (i = 0; i < bs; i++)
        k0[i] ^= pad;
    r = ld_md_init(md, alg);
    if (r == LD_OK)
        r = ld_md_update(md, k0, bs);
    for (i = 0; i < bs; i++)
        k0[i] ^= pad;
    return r;
}

int ld_hmac_init(ld_hmac_ctx *ctx, int alg, const void *key, size_t keylen)
{
    uint8_t k0[LD_MD_MAX_BLOCK_SIZE];
    size_t bs = ld_md_block_size(alg);
    int r = LD_OK;

    if (ctx == NULL)
        return LD_ERR_ARG;
    ld_wipe(ctx, sizeof *ctx); /* a context re-initialised or refused keeps no old state */
    if (bs == 0 || (key == NULL && keylen > 0))
        return LD_ERR_ARG;
    ld_zero(k0, sizeof k0);
    if (keylen > bs) {
        /* K0 = H(K), hashed in the inner context (wiped below before its real start), so no
         * other hash state holds the digest of the key afterwards */
        r = ld_md_init(&ctx->inner, alg);
        if (r == LD_OK)
            r = ld_md_update(&ctx->inner, key, keylen);
        if (r == LD_OK)
            r = ld_md_final(&ctx->inner, k0);
        ld_wipe(&ctx->inner, sizeof ctx->inner);
    } else if (keylen > 0) {
        ld_copy(k0, (const uint8_t *)key, keylen);
    }
    if (r == LD_OK)
        r = start(&ctx->inner, alg, k0, bs, 0x36);
    if (r == LD_OK)
        r = start(&ctx->outer, alg, k0, bs, 0x5c);
    ld_wipe(k0, sizeof k0);
    if (r != LD_OK) {
        ld_wipe(ctx, sizeof *ctx);
        return r;
    }
    ctx->alg = alg;
    ctx->finished = 0;
    ctx->magic = LD_HMAC_MAGIC;
    return LD_OK;
}

int ld_hmac_update(ld_hmac_ctx *ctx, const void *data, size_t len)
{
    int r;

    if (ctx == NULL || (data == NULL && len > 0))
        return fail(ctx, LD_ERR_ARG);
    if (!live(ctx))
        return LD_ERR_STATE;
    r = ld_md_update(&ctx->inner, data, len);
    return r == LD_OK ? LD_OK : fail(ctx, r);
}

int ld_hmac_final(ld_hmac_ctx *ctx, uint8_t *out)
{
    uint8_t ihash[LD_MD_MAX_DIGEST_SIZE];
    size_t ds;
    int r;

    if (ctx == NULL || out == NULL)
        return fail(ctx, LD_ERR_ARG);
    if (!live(ctx))
        return LD_ERR_STATE;
    ds = ld_md_digest_size(ctx->alg);
    r = ld_md_final(&ctx->inner, ihash);
    if (r == LD_OK)
        r = ld_md_update(&ctx->outer, ihash, ds);
    if (r == LD_OK)
        r = ld_md_final(&ctx->outer, out); /* writes out only when it succeeds */
    ld_wipe(ihash, sizeof ihash);
    end(ctx);
    return r;
}

int ld_hmac_copy(ld_hmac_ctx *dst, const ld_hmac_ctx *src)
{
    if (dst == NULL || src == NULL)
        return LD_ERR_ARG;
    if (src->magic != LD_HMAC_MAGIC || (src->finished != 1 && !live(src)))
        return LD_ERR_STATE;
    if (dst != src)
        ld_copy((uint8_t *)dst, (const uint8_t *)src, sizeof *dst);
    return LD_OK;
}

int ld_hmac(int alg, const void *key, size_t keylen, const void *data, size_t len, uint8_t *out)
{
    ld_hmac_ctx ctx;
    int r;

    if (out == NULL || (data == NULL && len > 0))
        return LD_ERR_ARG;
    r = ld_hmac_init(&ctx, alg, key, keylen);
    if (r == LD_OK)
        r = ld_hmac_update(&ctx, data, len);
    if (r == LD_OK)
        r = ld_hmac_final(&ctx, out);
    return r; /* every path above left ctx wiped (init's errors, fail(), final's end()) */
}

int ld_hmac_verify(int alg, const void *key, size_t keylen, const void *data, size_t len,
                   const uint8_t *mac, size_t maclen)
{
    uint8_t want[LD_MD_MAX_DIGEST_SIZE];
    int r;

    if (mac == NULL || maclen < LD_HMAC_MIN_VERIFY_SIZE || maclen > ld_hmac_size(alg))
        return LD_ERR_ARG;
    r = ld_hmac(alg, key, keylen, data, len, want);
    if (r == LD_OK)
        r = ld_ct_equal(want, mac, maclen) ? LD_OK : LD_ERR_MISMATCH;
    ld_wipe(want, sizeof want);
    return r;
}

int ld_ct_equal(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = (const volatile uint8_t *)a;
    const volatile uint8_t *y = (const volatile uint8_t *)b;
    volatile uint32_t diff = 0; /* volatile: no early exit once diff is nonzero */
    size_t i;

    if (n == 0)
        return 1;
    if (a == NULL || b == NULL)
        return 0;
    for (i = 0; i < n; i++)
        diff |= (uint32_t)(x[i] ^ y[i]);
    /* 1 when diff is 0 (diff - 1 wraps to 0xffffffff), else 0: no comparison to branch on */
    return (int)(1u & ((diff - 1u) >> 31));
}
