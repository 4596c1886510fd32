/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the Merkle-Damgard front end of every algorithm (ld_md.h), in
 * software: the algorithm table, buffering of partial blocks, padding (ld_md_pad) and the
 * big-endian digest, over the compression functions of sha1_sw.c, sha256_sw.c and
 * sha512_sw.c. ld_sha256_* (sha256_sw.c) are wrappers over this streaming core. */
#include "ld_sw_internal.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_pad.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"

#define LD_MD_MAGIC 0x6d645f31u

/* indexed by LD_ALG_*: the catalogue's rows (ld_md_table.h, generated) */
const ld_md_alg_row ld_md_algs[LD_ALG_COUNT] = {LD_MD_ALG_ROWS};
#define ALGS  ld_md_algs
#define known ld_md_known

size_t ld_md_block_size(int alg)
{
    return !known(alg) ? 0 : ALGS[alg].family == LD_FAMILY_SHA512 ? 128 : 64;
}

size_t ld_md_digest_size(int alg)
{
    return known(alg) ? ALGS[alg].digest_size : 0;
}

size_t ld_md_state_words(int alg)
{
    if (!known(alg))
        return 0;
    return ld_family_state_words(ALGS[alg].family);
}

int ld_md_family(int alg)
{
    return known(alg) ? ALGS[alg].family : -1;
}

int ld_md_variant(int alg)
{
    return known(alg) ? ALGS[alg].variant : -1;
}

const char *ld_md_name(int alg)
{
    return known(alg) ? ALGS[alg].name : NULL;
}

/* the initial chaining value of a known alg into ctx->state (unused words zero) */
static void load_iv(int alg, ld_md_ctx *ctx)
{
    ld_zero((uint8_t *)&ctx->state, sizeof ctx->state);
    switch (ALGS[alg].family) { /* a family configured out is not known() */
#if LD_CONFIG_SHA1
    case LD_FAMILY_SHA1:
        ld_sha1_iv(ctx->state.w32);
        break;
#endif
#if LD_CONFIG_SHA256
    case LD_FAMILY_SHA256:
        (void)ld_sha256_iv(ALGS[alg].variant, ctx->state.w32);
        break;
#endif
    default:
#if LD_CONFIG_SHA512
        (void)ld_sha512_iv(ALGS[alg].variant, ctx->state.w64);
#endif
        break;
    }
}

/* big-endian 32-bit word k of the chaining value (a 64-bit word is two: high, low) */
static uint32_t state_word(const ld_md_ctx *ctx, size_t k)
{
    if (ALGS[ctx->alg].family == LD_FAMILY_SHA512)
        return (uint32_t)(ctx->state.w64[k / 2] >> ((k & 1) ? 0 : 32));
    return ctx->state.w32[k];
}

#if LD_CONFIG_HOST
static void set_state_word(ld_md_ctx *ctx, size_t k, uint32_t w)
{
    if (ALGS[ctx->alg].family == LD_FAMILY_SHA512) {
        unsigned sh = (k & 1) ? 0 : 32;
        ctx->state.w64[k / 2] =
            (ctx->state.w64[k / 2] & ~((uint64_t)0xffffffffu << sh)) | ((uint64_t)w << sh);
    } else {
        ctx->state.w32[k] = w;
    }
}

/* the caller's compression function on the chaining value as words (ld_md_compress_fn) */
static void compress_hook(ld_md_ctx *ctx, const uint8_t *blocks, size_t nblocks)
{
    uint32_t words[LD_MD_MAX_STATE_WORDS];
    size_t k, n = ld_md_state_words(ctx->alg);
    int r;

    if (ctx->hook_err)
        return;
    for (k = 0; k < n; k++)
        words[k] = state_word(ctx, k);
    r = ctx->hook(ctx->hook_user, ctx->alg, ctx->hook_blocks == 0, words, blocks, nblocks);
    if (r != LD_OK) {
        ctx->hook_err = r;
        return;
    }
    for (k = 0; k < n; k++)
        set_state_word(ctx, k, words[k]);
    ctx->hook_blocks += nblocks;
}
#endif

static void compress(ld_md_ctx *ctx, const uint8_t *blocks, size_t nblocks)
{
#if LD_CONFIG_HOST
    if (ctx->hook) {
        compress_hook(ctx, blocks, nblocks);
        return;
    }
#endif
    switch (ALGS[ctx->alg].family) {
#if LD_CONFIG_SHA1
    case LD_FAMILY_SHA1:
        ld_sha1_compress(ctx->state.w32, blocks, nblocks);
        break;
#endif
#if LD_CONFIG_SHA256
    case LD_FAMILY_SHA256:
        ld_sha256_compress(ctx->state.w32, blocks, nblocks);
        break;
#endif
    default:
#if LD_CONFIG_SHA512
        ld_sha512_compress(ctx->state.w64, blocks, nblocks);
#else
        (void)blocks; /* a build without SHA-512 (e.g. Skein only) may have no family here */
        (void)nblocks;
#endif
        break;
    }
}

int ld_md_iv_words(int alg, uint32_t *words)
{
    ld_md_ctx ctx;
    size_t k, n = ld_md_state_words(alg);

    if (words == NULL || n == 0)
        return LD_ERR_ARG;
    ctx.alg = alg;
    load_iv(alg, &ctx);
    for (k = 0; k < n; k++)
        words[k] = state_word(&ctx, k);
    return LD_OK;
}

/* The longest message of a known alg, in bytes (ld_md_max_len) */
static uint64_t max_len(int alg)
{
    return ld_md_max_len(ld_md_block_size(alg));
}

/* an initialised context whose fields are consistent (not garbage that happens to carry the
 * magic value): the buffer holds the count's partial block, the count is within the limit */
static int valid(const ld_md_ctx *ctx)
{
    return ctx->magic == LD_MD_MAGIC && known(ctx->alg) &&
           ctx->buflen == (ctx->total & (ld_md_block_size(ctx->alg) - 1)) &&
           ctx->total <= max_len(ctx->alg);
}

int ld_md_ctx_alg(const ld_md_ctx *ctx)
{
    return ctx != NULL && valid(ctx) ? ctx->alg : -1;
}

int ld_md_init(ld_md_ctx *ctx, int alg)
{
    if (ctx == NULL || !known(alg))
        return LD_ERR_ARG;
    ctx->alg = alg;
    load_iv(alg, ctx);
    ctx->total = 0;
    ctx->buflen = 0;
    ctx->finished = 0;
    ctx->magic = LD_MD_MAGIC;
#if LD_CONFIG_HOST
    ctx->hook = NULL;
    ctx->hook_user = NULL;
    ctx->hook_blocks = 0;
    ctx->hook_err = LD_OK;
#endif
    return LD_OK;
}

#if LD_CONFIG_HOST
int ld_md_init_hook(ld_md_ctx *ctx, int alg, ld_md_compress_fn hook, void *user)
{
    int r = ld_md_init(ctx, alg);

    if (r == LD_OK && hook == NULL)
        r = LD_ERR_ARG;
    if (r == LD_OK) {
        ctx->hook = hook;
        ctx->hook_user = user;
    }
    return r;
}

/* a hook's error fails the context: this call returns it, later ones LD_ERR_STATE */
static int hook_result(ld_md_ctx *ctx, int r)
{
    if (r == LD_OK && ctx->hook_err != LD_OK) {
        r = ctx->hook_err;
        ctx->finished = 1;
        ctx->hook_err = LD_OK;
    }
    return r;
}
#else
#define hook_result(ctx, r) (r)
#endif

/* ld_absorb's block sink: the compression function (it cannot fail) */
static int absorb_blocks(void *ctx, const uint8_t *p, size_t nblocks, int from_buf)
{
    (void)from_buf;
    compress((ld_md_ctx *)ctx, p, nblocks);
    return LD_OK;
}

int ld_md_update(ld_md_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    size_t bs;

    if (ctx == NULL || (data == NULL && len > 0))
        return LD_ERR_ARG;
    if (!valid(ctx) || ctx->finished)
        return LD_ERR_STATE;
    if (len > max_len(ctx->alg) - ctx->total)
        return LD_ERR_ARG; /* past the alg's length limit: refused before the count wraps */
    if (len == 0)
        return LD_OK; /* data may be NULL: no pointer is computed from it (NULL + 0) */
    bs = ld_md_block_size(ctx->alg);
    ctx->total += len;
    return hook_result(ctx, ld_absorb(ctx->buf, &ctx->buflen, bs, p, len, absorb_blocks, ctx));
}

int ld_md_final(ld_md_ctx *ctx, uint8_t *out)
{
    uint8_t pad[2 * LD_MD_MAX_BLOCK_SIZE];
    size_t n, i, bs;

    if (ctx == NULL || out == NULL)
        return LD_ERR_ARG;
    if (!valid(ctx) || ctx->finished)
        return LD_ERR_STATE;
    bs = ld_md_block_size(ctx->alg);
    n = ld_md_pad(pad, ctx->buf, ctx->buflen, ctx->total, bs);
    if (n == 0)
        return LD_ERR_STATE; /* not reached: valid() checked what ld_md_pad checks */
    compress(ctx, pad, n / bs);
#if LD_CONFIG_HOST
    if (ctx->hook_err != LD_OK)
        return hook_result(ctx, LD_OK);
#endif
    for (i = 0; i < ALGS[ctx->alg].digest_size; i++)
        out[i] = (uint8_t)(state_word(ctx, i / 4) >> (24 - 8 * (i % 4)));
    ctx->finished = 1;
    ld_zero(ctx->buf, sizeof ctx->buf);
    return LD_OK;
}

int ld_md_copy(ld_md_ctx *dst, const ld_md_ctx *src)
{
    if (dst == NULL || src == NULL)
        return LD_ERR_ARG;
    if (!valid(src))
        return LD_ERR_STATE;
    if (dst != src)
        ld_copy((uint8_t *)dst, (const uint8_t *)src, sizeof *dst);
    return LD_OK;
}

int ld_md(int alg, const void *data, size_t len, uint8_t *out)
{
    ld_md_ctx ctx;
    int r = ld_md_init(&ctx, alg);
    if (r == LD_OK)
        r = ld_md_update(&ctx, data, len);
    if (r == LD_OK)
        r = ld_md_final(&ctx, out);
    return r;
}
