/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz target: Skein-512 (ld_skein.h), hash and MAC, any output length, any message bit length.
 *
 * Input: a mode (any output size of 1..1024 bits; a configured size 128..512 with a
 * pre-computed IV; plain Skein-512-512, no key, whole bytes; or an output size init must
 * refuse), a key of 0..200 bytes, the message's bits in its last byte (0..7: 0 is whole
 * bytes), up to 16 update pieces (0..126 bytes through ld_skein512_update or, with the high
 * bit, ld_skein512_update_bits of 8 x that many bits; 127 is an update with NULL, 0), how many
 * whole bytes go with the final partial byte into the last ld_skein512_update_bits call, then
 * the message.
 * Checks:
 * - the streamed digest equals the one-shot ld_skein512 of the same key, size and bits;
 * - both equal a reference carried here: Skein 1.3's UBI chaining (key, configuration,
 *   message, output blocks), its tweaks (position, first, final, type, BitPad), the bit
 *   padding of a partial last byte and the output counter blocks, written in this file
 *   around the library's bare Threefish-512 (ld_threefish512), so the configured IVs, the
 *   held-back block and the tweak logic of skein_sw.c are all checked;
 * - plain Skein-512-512 (no key, whole bytes) also equals the scheduler's configured-size path
 *   ld_skein512 with LD_ALG_SKEIN512(512)'s bits, and digest_size is 64;
 * - final writes exactly (out_bits + 7) / 8 bytes with the unused low bits of the last byte 0;
 *   after a partial byte any further data is LD_ERR_STATE (NULL, 0 is fine) and changes
 *   nothing; a second final is LD_ERR_STATE and writes nothing.
 */
#include "fuzz_input.h"
#include "litedigest/ld_skein.h"

#define MAX_SPLITS   16
#define MAX_KEY      200
#define MAX_OUT_BITS 1024
#define MAX_MSG      8192
#define OUT_ROOM     (MAX_OUT_BITS / 8 + 16)

static const size_t STD_BITS[] = {512, 384, 256, 224, 160, 128};

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* UBI(x, m[0..len), type): 64-byte blocks (an empty m: one zero block), zero padded; block b's
 * tweak: position = bytes up to its end, FIRST on block 0, FINAL (and BitPad) on the last */
static void ubi(uint64_t x[8], const uint8_t *m, size_t len, unsigned type, int bitpad)
{
    size_t nblocks = len ? (len + 63) / 64 : 1, b, i;

    for (b = 0; b < nblocks; b++) {
        uint8_t blk[64] = {0};
        uint64_t w[8], y[8], tw[2];
        size_t off = 64 * b, n = len - off < 64 ? len - off : 64;
        if (len == 0)
            n = 0;
        if (n)
            memcpy(blk, m + off, n);
        for (i = 0; i < 8; i++)
            w[i] = le64(blk + 8 * i);
        tw[0] = (uint64_t)(off + n);
        tw[1] = (uint64_t)type << 56 | (b == 0 ? 1ull << 62 : 0) |
                (b + 1 == nblocks ? 1ull << 63 | (bitpad ? 1ull << 55 : 0) : 0);
        ld_threefish512(x, tw, w, y);
        for (i = 0; i < 8; i++)
            x[i] = y[i] ^ w[i];
    }
}

/* Skein-512 (Skein 1.3, sequential): out_bits of the message's first nbits bits */
static void reference(size_t out_bits, const uint8_t *key, size_t keylen, const uint8_t *msg,
                      size_t nbits, uint8_t *out)
{
    static uint8_t m[MAX_MSG];
    uint8_t cfg[32] = {'S', 'H', 'A', '3', 1, 0, 0, 0};
    uint8_t ctr[8];
    uint64_t x[8] = {0}, g[8];
    size_t bytes = (nbits + 7) / 8, outbytes = (out_bits + 7) / 8, i, j;

    if (keylen)
        ubi(x, key, keylen, 0 /* key */, 0);
    for (i = 0; i < 8; i++)
        cfg[8 + i] = (uint8_t)((uint64_t)out_bits >> (8 * i)); /* tree parameters: 0 */
    ubi(x, cfg, sizeof cfg, 4 /* configuration */, 0);
    if (bytes)
        memcpy(m, msg, bytes);
    if (nbits % 8) { /* the partial byte: its first bits, a 1 bit, zeros */
        unsigned r = (unsigned)(nbits % 8);
        m[bytes - 1] = (uint8_t)((m[bytes - 1] & (0xFF00u >> r)) | (0x80u >> r));
    }
    ubi(x, m, bytes, 48 /* message */, nbits % 8 != 0);
    memcpy(g, x, sizeof g);
    for (i = 0; i * 64 < outbytes; i++) {
        memcpy(x, g, sizeof x);
        for (j = 0; j < 8; j++)
            ctr[j] = (uint8_t)((uint64_t)i >> (8 * j));
        ubi(x, ctr, 8, 63 /* output */, 0);
        for (j = 0; j < 64 && i * 64 + j < outbytes; j++)
            out[i * 64 + j] = (uint8_t)(x[j / 8] >> (8 * (j % 8)));
    }
    if (out_bits % 8)
        out[outbytes - 1] &= (uint8_t)(0xFFu << (8 - out_bits % 8));
}

static void fail_digest(const char *what, size_t out_bits, size_t keylen, size_t nbits,
                        size_t nupdates, const uint8_t *got, const uint8_t *want, size_t n)
{
    fprintf(stderr, "LD_FUZZ skein512 out_bits %zu, key %zu bytes, message %zu bits, %zu updates\n",
            out_bits, keylen, nbits, nupdates);
    fz_put_digests(got, want, n);
    FZ_CHECK(0, "%s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t key[MAX_KEY], splits[MAX_SPLITS];
    uint8_t streamed[OUT_ROOM], oneshot[OUT_ROOM], ref[OUT_ROOM], again[OUT_ROOM];
    ld_skein512_ctx ctx;
    const uint8_t *msg;
    size_t out_bits, keylen = 0, nsplits, tail_whole, len, nbits, whole, pos = 0, nupdates = 0,
                     outbytes, i;
    unsigned rem;
    uint8_t mode = fz_u8(&in) % 4;

    switch (mode) {
    case 0: /* as is up to 1024: comparisons can steer it */
        out_bits = fz_u16(&in);
        if (out_bits == 0 || out_bits > MAX_OUT_BITS)
            out_bits = 1 + out_bits % MAX_OUT_BITS;
        break;
    case 1:
        out_bits = STD_BITS[fz_u8(&in) % 6];
        break;
    case 2:
        out_bits = 512;
        break;
    default: { /* sizes init must refuse */
        static const size_t bad[] = {0, LD_SKEIN512_MAX_OUT_BITS + 1, SIZE_MAX};
        size_t b = bad[fz_u8(&in) % 3];
        memset(oneshot, FZ_FILL, sizeof oneshot);
        FZ_CHECK(ld_skein512_init(&ctx, b, NULL, 0) == LD_ERR_ARG, "init refuses %zu output bits",
                 b);
        FZ_CHECK(ld_skein512(b, NULL, 0, "abc", 24, oneshot) == LD_ERR_ARG &&
                     fz_untouched(oneshot, sizeof oneshot),
                 "one-shot refuses %zu output bits, writes nothing", b);
        FZ_CHECK(ld_skein512_init(&ctx, 256, NULL, 5) == LD_ERR_ARG,
                 "init refuses a NULL key of 5 bytes");
        return 0;
    }
    }
    if (mode != 2) {
        keylen = fz_u8(&in) % (MAX_KEY + 1);
        for (i = 0; i < keylen; i++)
            key[i] = fz_u8(&in);
    }
    rem = mode == 2 ? 0 : fz_u8(&in) % 8;
    nsplits = fz_u8(&in) % (MAX_SPLITS + 1);
    for (i = 0; i < nsplits; i++)
        splits[i] = fz_u8(&in);
    tail_whole = fz_u8(&in);
    msg = in.p;
    len = in.n < MAX_MSG ? in.n : MAX_MSG;
    if (len == 0)
        rem = 0;
    nbits = rem ? 8 * (len - 1) + rem : 8 * len;
    whole = nbits / 8; /* bytes before the partial one */
    if (rem == 0)
        tail_whole = 0;
    else if (tail_whole > whole)
        tail_whole = whole;
    outbytes = (out_bits + 7) / 8;

    /* streamed: the pieces over the whole bytes, then the last bits (with tail_whole bytes) */
    FZ_CHECK(ld_skein512_init(&ctx, out_bits, keylen ? key : NULL, keylen) == LD_OK, "init");
    FZ_CHECK(ld_skein512_digest_size(&ctx) == outbytes, "digest_size");
    for (i = 0; i < nsplits; i++) {
        size_t want = splits[i] & 0x7F, n;
        if (want == 0x7F) {
            FZ_CHECK(((splits[i] & 0x80) ? ld_skein512_update_bits(&ctx, NULL, 0)
                                         : ld_skein512_update(&ctx, NULL, 0)) == LD_OK,
                     "update(NULL, 0)");
            continue;
        }
        n = want < whole - tail_whole - pos ? want : whole - tail_whole - pos;
        FZ_CHECK(((splits[i] & 0x80) ? ld_skein512_update_bits(&ctx, msg + pos, 8 * n)
                                     : ld_skein512_update(&ctx, msg + pos, n)) == LD_OK,
                 "update of %zu bytes at %zu", n, pos);
        pos += n;
        nupdates += n > 0;
    }
    if (pos < whole - tail_whole) {
        FZ_CHECK(ld_skein512_update(&ctx, msg + pos, whole - tail_whole - pos) == LD_OK,
                 "update of the rest");
        pos = whole - tail_whole;
        nupdates++;
    }
    if (rem) {
        FZ_CHECK(ld_skein512_update_bits(&ctx, msg + pos, 8 * tail_whole + rem) == LD_OK,
                 "update_bits of %zu bits at %zu", 8 * tail_whole + rem, pos);
        nupdates++;
        /* the message has ended: more data is refused and changes nothing */
        FZ_CHECK(ld_skein512_update(&ctx, msg, 1) == LD_ERR_STATE, "update after a partial byte");
        FZ_CHECK(ld_skein512_update_bits(&ctx, msg, 3) == LD_ERR_STATE,
                 "update_bits after a partial byte");
        FZ_CHECK(ld_skein512_update(&ctx, NULL, 0) == LD_OK &&
                     ld_skein512_update_bits(&ctx, NULL, 0) == LD_OK,
                 "NULL, 0 after a partial byte");
    }
    memset(streamed, FZ_FILL, sizeof streamed);
    FZ_CHECK(ld_skein512_final(&ctx, streamed) == LD_OK, "final");
    FZ_CHECK(fz_untouched(streamed + outbytes, sizeof streamed - outbytes),
             "final wrote past %zu bytes", outbytes);
    memset(again, FZ_FILL, sizeof again);
    FZ_CHECK(ld_skein512_final(&ctx, again) == LD_ERR_STATE && fz_untouched(again, sizeof again),
             "a second final is LD_ERR_STATE and writes nothing");
    FZ_CHECK(ld_skein512_update(&ctx, "x", 1) == LD_ERR_STATE, "update after final");

    memset(oneshot, FZ_FILL, sizeof oneshot);
    FZ_CHECK(ld_skein512(out_bits, keylen ? key : NULL, keylen, len ? msg : NULL, nbits, oneshot) ==
                 LD_OK,
             "one-shot");
    FZ_CHECK(fz_untouched(oneshot + outbytes, sizeof oneshot - outbytes),
             "one-shot wrote past the digest");
    reference(out_bits, key, keylen, msg, nbits, ref);
    if (memcmp(oneshot, ref, outbytes) != 0)
        fail_digest(
            "one-shot ld_skein512 differs from the reference (own UBI chain over ld_threefish512)",
            out_bits, keylen, nbits, 1, oneshot, ref, outbytes);
    if (memcmp(streamed, oneshot, outbytes) != 0)
        fail_digest("streamed digest differs from the one-shot ld_skein512", out_bits, keylen,
                    nbits, nupdates, streamed, oneshot, outbytes);
    if (mode == 2) { /* plain Skein-512-512: the scheduler's alg of the same size */
        FZ_CHECK(ld_skein512_alg_bits(LD_ALG_SKEIN512(512)) == 512 && ld_skein512_variant(512) > 0,
                 "Skein-512-512 has a configured IV");
        FZ_CHECK(ld_skein512(ld_skein512_alg_bits(LD_ALG_SKEIN512(512)), NULL, 0, len ? msg : NULL,
                             8 * len, oneshot) == LD_OK &&
                     memcmp(oneshot, streamed, 64) == 0,
                 "plain Skein-512-512 one-shot");
    }
    return 0;
}
