/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: software SHA-256 / SHA-224 (FIPS 180-4).
 *
 * Written as a fair, fast baseline for small in-order RV32IM cores (VexRiscv, 4 KiB I-cache):
 *  - 8 rounds unrolled by macro with register renaming, inside a loop (a full 64-round unroll
 *    does not fit a 4 KiB instruction cache together with its callers);
 *  - the message schedule lives in a 16-word circular window, expanded 8 words at a time just
 *    before the 8 rounds that use them; the two halves of the window are addressed through
 *    two pointers so every index is a compile-time constant;
 *  - rotations are shift/or (RV32IM has no rotate), big-endian loads are bytewise (no
 *    alignment requirement, no endianness assumption).
 * Build with -O2.
 */
#include "ld_sw_internal.h"
#include "litedigest/ld_sha256.h"

#if LD_CONFIG_SHA256 /* the family is compiled in (ld_config.h) */

static const uint32_t K256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u,
};

static const uint32_t IV256[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};
static const uint32_t IV224[8] = {
    0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
    0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u,
};

#define ROTR(x, n)  (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x)    (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)    (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)    (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)    (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))
#define CH(e, f, g) ((g) ^ ((e) & ((f) ^ (g))))
/* Maj(a,b,c) = b ^ ((a ^ b) & (b ^ c)); a ^ b of one round is b ^ c of the next (the roles
 * rotate), so it is carried in bc and Maj costs 3 operations */

#define LOAD_BE32(p)                                                                               \
    (((uint32_t)(p)[0] << 24) | ((uint32_t)(p)[1] << 16) | ((uint32_t)(p)[2] << 8) |               \
     (uint32_t)(p)[3])

/* one round; the caller rotates the roles of a..h instead of moving values */
#define RND(a, b, c, d, e, f, g, h, i)                                                             \
    do {                                                                                           \
        uint32_t t1_ = (h) + BSIG1(e) + CH(e, f, g) + kp[i] + cur[i];                              \
        uint32_t ab_ = (a) ^ (b);                                                                  \
        uint32_t t2_ = BSIG0(a) + ((b) ^ (ab_ & bc));                                              \
        bc = ab_;                                                                                  \
        (d) += t1_;                                                                                \
        (h) = t1_ + t2_;                                                                           \
    } while (0)

/* W[t] for the current half (cur) from the 16 previous words of the window:
 * W[t-16] = cur[i], W[t-15] = cur[i+1] or oth[0], W[t-7] = oth[i+1] or cur[0],
 * W[t-2] = oth[i+6] or cur[i-2] */
#define EXP(i, wm15, wm7, wm2) (cur[i] += SSIG1(wm2) + (wm7) + SSIG0(wm15))

void ld_sha256_compress(uint32_t state[8], const uint8_t *blocks, size_t nblocks)
{
    uint32_t W[16];

    while (nblocks--) {
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        uint32_t bc = b ^ c;
        unsigned j;
        int i;

        for (i = 0; i < 16; i++)
            W[i] = LOAD_BE32(blocks + 4 * i);
        for (j = 0; j < 64; j += 8) {
            const uint32_t *kp = K256 + j;
            uint32_t *cur = W + (j & 8), *oth = W + (8 - (j & 8));
            if (j >= 16) {
                EXP(0, cur[1], oth[1], oth[6]);
                EXP(1, cur[2], oth[2], oth[7]);
                EXP(2, cur[3], oth[3], cur[0]);
                EXP(3, cur[4], oth[4], cur[1]);
                EXP(4, cur[5], oth[5], cur[2]);
                EXP(5, cur[6], oth[6], cur[3]);
                EXP(6, cur[7], oth[7], cur[4]);
                EXP(7, oth[0], cur[0], cur[5]);
            }
            RND(a, b, c, d, e, f, g, h, 0);
            RND(h, a, b, c, d, e, f, g, 1);
            RND(g, h, a, b, c, d, e, f, 2);
            RND(f, g, h, a, b, c, d, e, 3);
            RND(e, f, g, h, a, b, c, d, 4);
            RND(d, e, f, g, h, a, b, c, 5);
            RND(c, d, e, f, g, h, a, b, 6);
            RND(b, c, d, e, f, g, h, a, 7);
        }
        LD_SHA2_ADD_STATE(state, a, b, c, d, e, f, g, h);
        blocks += 64;
    }
}

size_t ld_sha256_digest_size(int variant)
{
    return variant == LD_SHA256 ? 32 : variant == LD_SHA224 ? 28 : 0;
}

int ld_sha256_iv(int variant, uint32_t state[8])
{
    if (state == NULL || ld_sha256_digest_size(variant) == 0)
        return LD_ERR_ARG;
    {
        const uint32_t *iv = variant == LD_SHA256 ? IV256 : IV224;
        int i;
        for (i = 0; i < 8; i++)
            state[i] = iv[i];
    }
    return LD_OK;
}

/* The streaming API is the ld_md core (md_sw.c) restricted to the SHA-256 family:
 * ld_sha256_ctx is an ld_md_ctx. A context that ld_md_init set up for another family is
 * refused with LD_ERR_ARG (its digest would not fit the caller's 32 bytes). */
static int other_family(const ld_sha256_ctx *ctx)
{
    int alg = ld_md_ctx_alg(ctx);
    return alg >= 0 && ld_md_family(alg) != LD_FAMILY_SHA256;
}

int ld_sha256_init(ld_sha256_ctx *ctx, int variant)
{
    if (ld_sha256_digest_size(variant) == 0)
        return LD_ERR_ARG;
    return ld_md_init(ctx, variant == LD_SHA256 ? LD_ALG_SHA256 : LD_ALG_SHA224);
}

int ld_sha256_update(ld_sha256_ctx *ctx, const void *data, size_t len)
{
    return other_family(ctx) ? LD_ERR_ARG : ld_md_update(ctx, data, len);
}

int ld_sha256_final(ld_sha256_ctx *ctx, uint8_t *out)
{
    return other_family(ctx) ? LD_ERR_ARG : ld_md_final(ctx, out);
}

int ld_sha256(int variant, const void *data, size_t len, uint8_t *out)
{
    if (ld_sha256_digest_size(variant) == 0)
        return LD_ERR_ARG;
    return ld_md(variant == LD_SHA256 ? LD_ALG_SHA256 : LD_ALG_SHA224, data, len, out);
}

#else
typedef int ld_sha256_sw_configured_out; /* ISO C: a translation unit declares something */
#endif /* LD_CONFIG_SHA256 */
