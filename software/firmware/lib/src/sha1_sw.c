/* SPDX-License-Identifier: BSD-2-Clause */
/* Software SHA-1 compression (FIPS 180-4 section 6.1.2), message schedule in a 16-word
 * circular window, the four 20-step quarters as separate loops (no per-step branching). */
#include "litedigest/ld_sha1.h"

#if LD_CONFIG_SHA1 /* the family is compiled in (ld_config.h) */

#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static uint32_t load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

void ld_sha1_iv(uint32_t state[5])
{
    state[0] = 0x67452301u;
    state[1] = 0xEFCDAB89u;
    state[2] = 0x98BADCFEu;
    state[3] = 0x10325476u;
    state[4] = 0xC3D2E1F0u;
}

/* W[t] for t >= 16, in the window w[t & 15] */
#define SCHED(t)                                                                                   \
    (w[(t)&15] = ROTL(w[((t) + 13) & 15] ^ w[((t) + 8) & 15] ^ w[((t) + 2) & 15] ^ w[(t)&15], 1))
#define STEP(f, k, wt)                                                                             \
    do {                                                                                           \
        uint32_t tmp = ROTL(a, 5) + (f) + e + (k) + (wt);                                          \
        e = d;                                                                                     \
        d = c;                                                                                     \
        c = ROTL(b, 30);                                                                           \
        b = a;                                                                                     \
        a = tmp;                                                                                   \
    } while (0)

void ld_sha1_compress(uint32_t state[5], const uint8_t *blocks, size_t nblocks)
{
    uint32_t w[16];
    while (nblocks--) {
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
        int t;
        for (t = 0; t < 16; t++) {
            w[t] = load_be32(blocks + 4 * t);
            STEP((b & c) | (~b & d), 0x5A827999u, w[t]);
        }
        for (; t < 20; t++)
            STEP((b & c) | (~b & d), 0x5A827999u, SCHED(t));
        for (; t < 40; t++)
            STEP(b ^ c ^ d, 0x6ED9EBA1u, SCHED(t));
        for (; t < 60; t++)
            STEP((b & c) | (b & d) | (c & d), 0x8F1BBCDCu, SCHED(t));
        for (; t < 80; t++)
            STEP(b ^ c ^ d, 0xCA62C1D6u, SCHED(t));
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        blocks += 64;
    }
}

#else
typedef int ld_sha1_sw_configured_out; /* ISO C: a translation unit declares something */
#endif /* LD_CONFIG_SHA1 */
