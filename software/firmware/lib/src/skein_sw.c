/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: Skein-512 in software (ld_skein.h): Threefish-512, the UBI, the
 * configured chaining values and the context (the UBI sequence, the held-back last block, the
 * output UBIs). A context on a peripheral (ld_hw_skein512_init) runs the same sequence; its
 * UBIs go to skein_hw.c, the driver, through ld_skein_internal.h.
 */
#include "ld_sw_internal.h"
#include "ld_skein_internal.h"

#if LD_CONFIG_SKEIN512 /* the family is compiled in (ld_config.h) */

#define C240 0x1BD11BDAA9FC1A22ull

static const uint8_t ROT[8][4] = {{46, 36, 19, 37}, {33, 27, 14, 42}, {17, 49, 36, 39},
                                  {44, 9, 54, 56},  {39, 30, 34, 24}, {13, 50, 10, 17},
                                  {25, 29, 39, 43}, {8, 35, 56, 22}};

/* configured chaining values (the configuration UBI of each size from a zero key); the
 * engines compute the same from their Python model (ip/skein512.py IVS), a test compares */
static const struct {
    uint32_t bits;
    uint64_t x[8];
} IVS[] = {
    {512,
     {0x4903ADFF749C51CEull, 0x0D95DE399746DF03ull, 0x8FD1934127C79BCEull, 0x9A255629FF352CB1ull,
      0x5DB62599DF6CA7B0ull, 0xEABE394CA9D5C3F4ull, 0x991112C71A75B523ull, 0xAE18A40B660FCC33ull}},
    {384,
     {0xA3F6C6BF3A75EF5Full, 0xB0FEF9CCFD84FAA4ull, 0x9D77DD663D770CFEull, 0xD798CBF3B468FDDAull,
      0x1BC4A6668A0E4465ull, 0x7ED7D434E5807407ull, 0x548FC1ACD4EC44D6ull, 0x266E17546AA18FF8ull}},
    {256,
     {0xCCD044A12FDB3E13ull, 0xE83590301A79A9EBull, 0x55AEA0614F816E6Full, 0x2A2767A4AE9B94DBull,
      0xEC06025E74DD7683ull, 0xE7A436CDC4746251ull, 0xC36FBAF9393AD185ull, 0x3EEDBA1833EDFC13ull}},
    {224,
     {0xCCD0616248677224ull, 0xCBA65CF3A92339EFull, 0x8CCD69D652FF4B64ull, 0x398AED7B3AB890B4ull,
      0x0F59D1B1457D2BD0ull, 0x6776FE6575D4EB3Dull, 0x99FBC70E997413E9ull, 0x9E2CFCCFE1C41EF7ull}},
    {160,
     {0x28B81A2AE013BD91ull, 0xC2F11668B5BDF78Full, 0x1760D8F3F6A56F12ull, 0x4FB747588239904Full,
      0x21EDE07F7EAF5056ull, 0xD908922E63ED70B8ull, 0xB8EC76FFECCB52FAull, 0x01A47BB8A3F27A6Eull}},
    {128,
     {0xA8BC7BF36FBF9F52ull, 0x1E9872CEBD1AF0AAull, 0x309B1790B32190D3ull, 0xBCFBB8543F94805Cull,
      0x0DA61BCD6E31B11Bull, 0x1A18EBEAD46A32E3ull, 0xA2CC5B18CE84AA82ull, 0x6982AB289D46982Dull}},
};
#define N_IVS (sizeof(IVS) / sizeof(IVS[0]))

int ld_skein512_variant(size_t out_bits)
{
    size_t i;
    for (i = 0; i < N_IVS; i++)
        if (IVS[i].bits == out_bits)
            return (int)i + 1;
    return -1;
}

size_t ld_skein512_alg_bits(int alg)
{
    size_t bits;

    if (alg <= LD_ALG_SKEIN512_BASE)
        return 0;
    bits = (size_t)(alg - LD_ALG_SKEIN512_BASE);
    return ld_skein512_variant(bits) > 0 ? bits : 0;
}

int ld_skein512_iv(size_t out_bits, uint64_t x[8])
{
    int v = ld_skein512_variant(out_bits);
    size_t i;

    if (v < 0 || x == NULL)
        return LD_ERR_ARG;
    for (i = 0; i < 8; i++)
        x[i] = IVS[v - 1].x[i];
    return LD_OK;
}

static inline uint64_t rotl64(uint64_t x, unsigned n)
{
    return (x << n) | (x >> (64u - n));
}

static uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void store64(uint8_t *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void ld_threefish512(const uint64_t key[8], const uint64_t tweak[2], const uint64_t in[8],
                     uint64_t out[8])
{
    uint64_t k[9], t[3], v[8], f[8];
    unsigned d, i, s;

    k[8] = C240;
    for (i = 0; i < 8; i++) {
        k[i] = key[i];
        k[8] ^= key[i];
        v[i] = in[i];
    }
    t[0] = tweak[0];
    t[1] = tweak[1];
    t[2] = t[0] ^ t[1];
    for (d = 0; d <= 72; d++) {
        if (d % 4 == 0) { /* subkey s = d / 4 */
            s = d / 4;
            for (i = 0; i < 8; i++)
                v[i] += k[(s + i) % 9];
            v[5] += t[s % 3];
            v[6] += t[(s + 1) % 3];
            v[7] += s;
        }
        if (d == 72)
            break;
        for (i = 0; i < 4; i++) {
            f[2 * i] = v[2 * i] + v[2 * i + 1];
            f[2 * i + 1] = rotl64(v[2 * i + 1], ROT[d % 8][i]) ^ f[2 * i];
        }
        /* permutation pi = 2 1 4 7 6 5 0 3 */
        v[0] = f[2];
        v[1] = f[1];
        v[2] = f[4];
        v[3] = f[7];
        v[4] = f[6];
        v[5] = f[5];
        v[6] = f[0];
        v[7] = f[3];
    }
    for (i = 0; i < 8; i++)
        out[i] = v[i];
}

void ld_skein512_ubi(uint64_t x[8], const uint8_t *blocks, size_t nblocks, uint64_t t0, uint64_t t1,
                     unsigned final_bytes)
{
    uint64_t m[8], tw[2];
    size_t b;
    unsigned i;

    for (b = 0; b < nblocks; b++) {
        int last = b + 1 == nblocks;
        t0 += last && (t1 & LD_SKEIN_T1_FINAL) ? final_bytes : LD_SKEIN512_BLOCK_BYTES;
        tw[0] = t0;
        tw[1] = ld_skein_part_t1(t1, b == 0, last);
        for (i = 0; i < 8; i++)
            m[i] = load64(blocks + 64 * b + 8 * i);
        ld_threefish512(x, tw, m, x);
        for (i = 0; i < 8; i++)
            x[i] ^= m[i];
    }
}

/* --- the chaining value's home --------------------------------------------------------- */

/* the chaining value on the CPU (reads the slot when the engine has it) */
static void fetch_x(ld_skein512_ctx *ctx)
{
    if (ctx->x_where == X_SLOT) {
        ld_skein512_hw_fetch_x(ctx);
    } else if (ctx->x_where == X_IV) {
        size_t i;
        for (i = 0; i < 8; i++)
            ctx->x[i] = ctx->variant ? IVS[ctx->variant - 1].x[i] : 0;
    }
    ctx->x_where = X_HERE;
}

#if LD_CONFIG_HOST
void ld_skein512_block_tweak(uint64_t t0, uint64_t t1, size_t b, size_t nblocks,
                             unsigned final_bytes, uint64_t tw[2])
{
    int last = b + 1 == nblocks;
    tw[0] = t0 + (uint64_t)LD_SKEIN512_BLOCK_BYTES * b +
            (last && (t1 & LD_SKEIN_T1_FINAL) ? final_bytes : LD_SKEIN512_BLOCK_BYTES);
    tw[1] = ld_skein_part_t1(t1, b == 0, last);
}

/* the caller's block function (ld_skein512_init_hook): the UBI's blocks (then the tail) in
 * runs of up to LD_SKEIN512_HOOK_BLOCKS, each block with its tweak (ld_skein512_ubi's rule) */
static int run_ubi_hook(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                        uint64_t t0, uint64_t t1, unsigned final_bytes)
{
    uint64_t tweaks[2 * LD_SKEIN512_HOOK_BLOCKS];
    size_t total = nblocks + (tail != NULL), b = 0;
    int variant = ctx->x_where == X_IV ? ctx->variant : -1;
    int r = LD_OK;

    while (b < total && r == LD_OK) {
        /* a run never mixes the caller's blocks and the tail (different memory) */
        size_t end = b < nblocks ? nblocks : total, n = 0;
        const uint8_t *src = b < nblocks ? p + LD_SKEIN512_BLOCK_BYTES * b : tail;
        if (end - b > LD_SKEIN512_HOOK_BLOCKS)
            end = b + LD_SKEIN512_HOOK_BLOCKS;
        for (; b < end; b++, n++)
            ld_skein512_block_tweak(t0, t1, b, total, final_bytes, tweaks + 2 * n);
        r = ctx->hook(ctx->hook_user, ctx->x, variant, src, n, tweaks);
        variant = -1;
        ctx->x_where = X_HERE;
    }
    return r;
}

#endif

#if LD_CONFIG_HOST
/* a shared peripheral: the chaining value goes back into the context after each call */
static void release(ld_skein512_ctx *ctx)
{
    if (ctx->dev != NULL)
        ld_skein512_hw_release(ctx);
}
#else
#define release(ctx) ((void)0)
#endif

/* One UBI job (ld_skein512_ubi's rule): nblocks blocks at p, then `tail` (one block, may be
 * NULL) as its last block; on the CPU, or on the context's peripheral (skein_hw.c). */
int ld_skein512_run_ubi(ld_skein512_ctx *ctx, const uint8_t *p, size_t nblocks, const uint8_t *tail,
                        uint64_t t0, uint64_t t1, unsigned final_bytes)
{
    if (ctx->dev != NULL)
        return ld_skein512_hw_ubi(ctx, p, nblocks, tail, t0, t1, final_bytes);
#if LD_CONFIG_HOST
    if (ctx->hook)
        return run_ubi_hook(ctx, p, nblocks, tail, t0, t1, final_bytes);
#endif
    fetch_x(ctx);
    if (nblocks)
        ld_skein512_ubi(ctx->x, p, nblocks, t0, ld_skein_part_t1(t1, 1, tail == NULL), final_bytes);
    if (tail)
        ld_skein512_ubi(ctx->x, tail, 1, t0 + nblocks * LD_SKEIN512_BLOCK_BYTES,
                        ld_skein_part_t1(t1, nblocks == 0, 1), final_bytes);
    return LD_OK;
}

/* --- the context ------------------------------------------------------------------------ */

/* A context an init set up, whose fields are in their ranges (not garbage, nor a context
 * changed from outside): what update and final index or write with is checked, the held-back
 * bytes, the IV number and the output length. */
static int valid(const ld_skein512_ctx *ctx)
{
    return ctx->magic == SKEIN_MAGIC && ctx->state >= CTX_ACTIVE && ctx->state <= CTX_FAILED &&
           ctx->buflen <= LD_SKEIN512_BLOCK_BYTES && ctx->x_where <= X_IV &&
           ctx->variant <= N_IVS && ctx->out_bits >= 1 && ctx->out_bits <= LD_SKEIN512_MAX_OUT_BITS;
}

/* LD_OK for an active context; LD_ERR_ARG for NULL, LD_ERR_STATE for one that is finished,
 * failed, uninitialised or inconsistent */
static int check_active(const ld_skein512_ctx *ctx)
{
    if (ctx == NULL)
        return LD_ERR_ARG;
    return valid(ctx) && ctx->state == CTX_ACTIVE ? LD_OK : LD_ERR_STATE;
}

static int fail(ld_skein512_ctx *ctx, int r)
{
    if (r != LD_OK)
        ctx->state = CTX_FAILED;
    return r;
}

/* key UBI (MAC) and configuration UBI, or a configured IV */
int ld_skein512_start(ld_skein512_ctx *ctx, size_t out_bits, const uint8_t *key, size_t keylen)
{
    int v = ld_skein512_variant(out_bits);
    int r;

    ctx->out_bits = (uint32_t)out_bits;
    ctx->pos = 0;
    ctx->buflen = 0;
    ctx->started = 0;
    ctx->bitpad = 0;
    ctx->state = CTX_ACTIVE;
    ctx->magic = SKEIN_MAGIC;
    if (keylen == 0 && v > 0) {
        ctx->x_where = X_IV;
        ctx->variant = (uint8_t)v;
        return LD_OK;
    }
    ctx->x_where = X_IV;
    ctx->variant = LD_SKEIN_VARIANT_ZERO;
    if (keylen) {
        size_t whole = (keylen - 1) / LD_SKEIN512_BLOCK_BYTES,
               rest = keylen - whole * LD_SKEIN512_BLOCK_BYTES;
        int path = ctx->path;
        ld_zero(ctx->buf, LD_SKEIN512_BLOCK_BYTES);
        ld_copy(ctx->buf, key + whole * LD_SKEIN512_BLOCK_BYTES, rest);
        /* the key's whole blocks come from the caller's memory: CSR path for them (a key
         * need not be DMA-readable), the padded last block from the context */
        if (whole)
            ctx->path = LD_PATH_CSR;
        r = ld_skein512_run_ubi(ctx, key, whole, ctx->buf, 0,
                                LD_SKEIN_T1_TYPE(LD_SKEIN_T_KEY) | LD_SKEIN_T1_FIRST |
                                    LD_SKEIN_T1_FINAL,
                                (unsigned)rest);
        ctx->path = path;
        if (r != LD_OK)
            return fail(ctx, r);
    }
    /* configuration block: schema "SHA3" version 1, output bits, no tree */
    ld_zero(ctx->buf, LD_SKEIN512_BLOCK_BYTES);
    store64(ctx->buf, 0x133414853ull);
    store64(ctx->buf + 8, (uint64_t)out_bits);
    r = ld_skein512_run_ubi(
        ctx, NULL, 0, ctx->buf, 0,
        LD_SKEIN_T1_TYPE(LD_SKEIN_T_CFG) | LD_SKEIN_T1_FIRST | LD_SKEIN_T1_FINAL, 32);
    return fail(ctx, r);
}

int ld_skein512_init(ld_skein512_ctx *ctx, size_t out_bits, const uint8_t *key, size_t keylen)
{
    if (ctx == NULL || out_bits == 0 || out_bits > LD_SKEIN512_MAX_OUT_BITS ||
        (key == NULL && keylen))
        return LD_ERR_ARG;
    ctx->dev = NULL;
    ctx->path = LD_PATH_CSR;
    ctx->align = LD_SKEIN512_BLOCK_BYTES;
#if LD_CONFIG_HOST
    ctx->hook = NULL;
    ctx->hook_user = NULL;
#endif
    return ld_skein512_start(ctx, out_bits, key, keylen);
}

#if LD_CONFIG_HOST
int ld_skein512_init_hook(ld_skein512_ctx *ctx, ld_skein512_ubi_fn hook, void *user,
                          size_t out_bits, const uint8_t *key, size_t keylen)
{
    if (ctx == NULL || hook == NULL || out_bits == 0 || out_bits > LD_SKEIN512_MAX_OUT_BITS ||
        (key == NULL && keylen))
        return LD_ERR_ARG;
    ctx->dev = NULL;
    ctx->path = LD_PATH_CSR;
    ctx->align = LD_SKEIN512_BLOCK_BYTES;
    ctx->hook = hook;
    ctx->hook_user = user;
    return ld_skein512_start(ctx, out_bits, key, keylen);
}

int ld_skein512_copy(ld_skein512_ctx *dst, const ld_skein512_ctx *src)
{
    int r = check_active(src);

    if (dst == NULL || r == LD_ERR_ARG)
        return LD_ERR_ARG;
    if (r != LD_OK || (src->dev != NULL && !ld_skein512_hw_shared(src)))
        return LD_ERR_STATE;
    if (dst != src)
        ld_copy((uint8_t *)dst, (const uint8_t *)src, sizeof *dst);
    return LD_OK;
}
#endif

size_t ld_skein512_digest_size(const ld_skein512_ctx *ctx)
{
    return ctx && valid(ctx) ? (ctx->out_bits + 7u) / 8u : 0;
}

/* message blocks that are known not to be the last one */
static int msg_blocks(ld_skein512_ctx *ctx, const uint8_t *p, size_t n)
{
    int r = ld_skein512_run_ubi(
        ctx, p, n, NULL, ctx->pos,
        LD_SKEIN_T1_TYPE(LD_SKEIN_T_MSG) | (ctx->started ? 0 : LD_SKEIN_T1_FIRST), 0);
    ctx->pos += (uint64_t)n * LD_SKEIN512_BLOCK_BYTES;
    ctx->started = 1;
    return r;
}

int LD_UNLOCKED(ld_skein512_update)(ld_skein512_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    int r = check_active(ctx);

    if (r != LD_OK)
        return r;
    if (data == NULL && len)
        return LD_ERR_ARG;
    if (ctx->bitpad && len)
        return LD_ERR_STATE;
    while (len) {
        size_t n;
        if (ctx->buflen == LD_SKEIN512_BLOCK_BYTES) { /* more data: the held block is not last */
            r = msg_blocks(ctx, ctx->buf, 1);
            ctx->buflen = 0;
            if (r != LD_OK)
                return fail(ctx, r);
        }
        if (ctx->buflen == 0 && len > LD_SKEIN512_BLOCK_BYTES) {
            n = (len - 1) / LD_SKEIN512_BLOCK_BYTES; /* keep at least one byte back */
            r = msg_blocks(ctx, p, n);
            if (r != LD_OK)
                return fail(ctx, r);
            p += n * LD_SKEIN512_BLOCK_BYTES;
            len -= n * LD_SKEIN512_BLOCK_BYTES;
        }
        n = LD_SKEIN512_BLOCK_BYTES - ctx->buflen;
        if (n > len)
            n = len;
        ld_copy(ctx->buf + ctx->buflen, p, n);
        ctx->buflen += (uint32_t)n;
        p += n;
        len -= n;
    }
    release(ctx);
    return LD_OK;
}

int LD_UNLOCKED(ld_skein512_update_bits)(ld_skein512_ctx *ctx, const void *data, size_t nbits)
{
    const uint8_t *p = (const uint8_t *)data;
    unsigned rem = (unsigned)(nbits % 8);
    int r = check_active(ctx);

    if (r != LD_OK)
        return r;
    if (data == NULL && nbits)
        return LD_ERR_ARG; /* 1..7 bits too: the partial byte below is read from data */
    if (ctx->bitpad && nbits)
        return LD_ERR_STATE;
    r = LD_UNLOCKED(ld_skein512_update)(ctx, data, nbits / 8);
    if (r != LD_OK || rem == 0)
        return r;
    {
        /* the final partial byte: its first rem bits, then a 1 bit, then zeros (Skein's bit
         * padding); BitPad goes into the final tweak */
        uint8_t mask = (uint8_t)(1u << (7 - rem));
        uint8_t last = (uint8_t)((p[nbits / 8] & (uint8_t)(0u - mask)) | mask);
        r = LD_UNLOCKED(ld_skein512_update)(ctx, &last, 1);
        if (r == LD_OK)
            ctx->bitpad = 1;
        return r;
    }
}

/* the output UBIs after the message: block i is the counter i, each from the message's
 * chaining value G */
int ld_skein512_output(ld_skein512_ctx *ctx, uint8_t *out)
{
    uint64_t g[8];
    size_t nout, i, j, outbytes;
    int r;

    outbytes = (ctx->out_bits + 7u) / 8u;
    nout = (outbytes + LD_SKEIN512_BLOCK_BYTES - 1) / LD_SKEIN512_BLOCK_BYTES;
    if (nout > 1) {
        fetch_x(ctx);
        for (j = 0; j < 8; j++)
            g[j] = ctx->x[j];
    }
    for (i = 0; i < nout; i++) {
        if (i > 0) {
            for (j = 0; j < 8; j++)
                ctx->x[j] = g[j];
            ctx->x_where = X_HERE;
        }
        ld_zero(ctx->buf, LD_SKEIN512_BLOCK_BYTES);
        store64(ctx->buf, (uint64_t)i);
        r = ld_skein512_run_ubi(
            ctx, NULL, 0, ctx->buf, 0,
            LD_SKEIN_T1_TYPE(LD_SKEIN_T_OUT) | LD_SKEIN_T1_FIRST | LD_SKEIN_T1_FINAL, 8);
        if (r != LD_OK)
            return fail(ctx, r);
        fetch_x(ctx);
        for (j = 0; j < LD_SKEIN512_BLOCK_BYTES && i * LD_SKEIN512_BLOCK_BYTES + j < outbytes; j++)
            out[i * LD_SKEIN512_BLOCK_BYTES + j] = (uint8_t)(ctx->x[j / 8] >> (8 * (j % 8)));
    }
    if (ctx->out_bits % 8u) /* the last byte's unused low bits are 0, as in the reference */
        out[outbytes - 1] &= (uint8_t)(0xFFu << (8u - ctx->out_bits % 8u));
    ctx->state = CTX_FINISHED;
    return LD_OK;
}

int LD_UNLOCKED(ld_skein512_final)(ld_skein512_ctx *ctx, uint8_t *out)
{
    int r = check_active(ctx);

    if (r != LD_OK)
        return r;
    if (out == NULL)
        return LD_ERR_ARG;
    /* the final message block: zero padded (an empty message: one zero block) */
    ld_zero(ctx->buf + ctx->buflen, LD_SKEIN512_BLOCK_BYTES - ctx->buflen);
    r = ld_skein512_run_ubi(ctx, NULL, 0, ctx->buf, ctx->pos,
                            LD_SKEIN_T1_TYPE(LD_SKEIN_T_MSG) | LD_SKEIN_T1_FINAL |
                                (ctx->started ? 0 : LD_SKEIN_T1_FIRST) |
                                (ctx->bitpad ? LD_SKEIN_T1_BITPAD : 0),
                            ctx->buflen);
    if (r != LD_OK)
        return fail(ctx, r);
    return ld_skein512_output(ctx, out);
}

int ld_skein512(size_t out_bits, const uint8_t *key, size_t keylen, const void *data, size_t nbits,
                uint8_t *out)
{
    ld_skein512_ctx ctx;
    int r = ld_skein512_init(&ctx, out_bits, key, keylen);

    if (r == LD_OK && ((data == NULL && nbits) || out == NULL))
        r = LD_ERR_ARG;
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_skein512_update_bits)(&ctx, data, nbits);
    if (r == LD_OK)
        r = LD_UNLOCKED(ld_skein512_final)(&ctx, out);
    return r;
}

#else
typedef int ld_skein_configured_out; /* ISO C: a translation unit declares something */
#endif /* LD_CONFIG_SKEIN512 */
