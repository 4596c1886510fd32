/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the LiteDigest C library: NIST example vectors, padding boundaries,
 * streaming split points, call-order errors. Prints a summary and "FAIL ..." lines and exits
 * non-zero on failure. The boundary digests (boundary_vectors.inc) were generated with Python's
 * hashlib; every streaming split must equal the one-shot digest. */
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_pad.h"
#include "check.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
    out[2 * n] = 0;
}

static void check_hex(int variant, const void *msg, size_t len, const char *want, const char *what)
{
    uint8_t d[32];
    char h[65];
    int r = ld_sha256(variant, msg, len, d);
    hex(d, ld_sha256_digest_size(variant), h);
    check(r == LD_OK && strcmp(h, want) == 0, what);
    if (strcmp(h, want) != 0)
        printf("  got  %s\n  want %s\n", h, want);
}

/* ld_md: "abc" for every algorithm (FIPS 180-4 examples; SHA-512/t from hashlib), the table,
 * every split of lengths across the first blocks, copy and call order */
static void md_tests(const uint8_t *msg, size_t msglen)
{
    static const char *abc[LD_ALG_COUNT] = {
        /* LD_ALG_SHA1 .. LD_ALG_SHA512_256, in id order */
        "a9993e364706816aba3e25717850c26c9cd0d89d",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
        "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
        "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
        "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    };
    static const char *names[LD_ALG_COUNT] = {
        "sha1", "sha256", "sha224", "sha512", "sha384", "sha512_224", "sha512_256",
    };
    uint8_t d1[LD_MD_MAX_DIGEST_SIZE + 1], d2[LD_MD_MAX_DIGEST_SIZE];
    uint32_t iv[LD_MD_MAX_STATE_WORDS];
    char h[2 * LD_MD_MAX_DIGEST_SIZE + 1], what[64];
    ld_md_ctx ctx, ctx2;
    size_t len, split, ds, bs;
    int alg;

    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        ds = ld_md_digest_size(alg);
        bs = ld_md_block_size(alg);
        sprintf(what, "ld_md %s abc", names[alg]);
        d1[ds] = 0xEE;
        check(ld_md(alg, "abc", 3, d1) == LD_OK && d1[ds] == 0xEE, what);
        hex(d1, ds, h);
        check(strcmp(h, abc[alg]) == 0, what);
        check(strcmp(ld_md_name(alg), names[alg]) == 0, "ld_md_name");
        check(ds <= LD_MD_MAX_DIGEST_SIZE &&
                  bs == (ld_md_family(alg) == LD_FAMILY_SHA512 ? 128u : 64u),
              "ld_md sizes");
        check(ld_md_iv_words(alg, iv) == LD_OK && ld_md_state_words(alg) <= LD_MD_MAX_STATE_WORDS,
              "ld_md_iv_words");
        /* every split of every length up to 2 blocks + 1 gives the one-shot digest; a copy
         * taken at the split finishes the same message */
        for (len = 0; len <= 2 * bs + 1 && len <= msglen; len++) {
            int ok = 1;
            ld_md(alg, msg, len, d1);
            for (split = 0; split <= len; split++) {
                ld_md_init(&ctx, alg);
                ld_md_update(&ctx, msg, split);
                ok &= ld_md_copy(&ctx2, &ctx) == LD_OK;
                ld_md_update(&ctx, msg + split, len - split);
                ld_md_final(&ctx, d2);
                ok &= memcmp(d1, d2, ds) == 0;
                ld_md_update(&ctx2, msg + split, len - split);
                ld_md_final(&ctx2, d2);
                ok &= memcmp(d1, d2, ds) == 0;
            }
            sprintf(what, "ld_md %s streaming splits", names[alg]);
            check(ok, what);
        }
    }
    check(iv[0] == 0x22312194u && iv[1] == 0xfc2bf72cu, "ld_md_iv_words sha512_256 high/low");
    check(ld_md_family(LD_ALG_SHA224) == LD_FAMILY_SHA256 &&
              ld_md_variant(LD_ALG_SHA224) == LD_SHA224 && ld_md_variant(LD_ALG_SHA512_224) == 2 &&
              ld_md_state_words(LD_ALG_SHA1) == 5,
          "ld_md table");
    check(ld_md_block_size(LD_ALG_COUNT) == 0 && ld_md_digest_size(-1) == 0 &&
              ld_md_family(LD_ALG_COUNT) == -1 && ld_md_variant(-1) == -1 && ld_md_name(7) == NULL,
          "ld_md table: unknown alg");
    check(ld_md_init(&ctx, LD_ALG_COUNT) == LD_ERR_ARG &&
              ld_md_init(NULL, LD_ALG_SHA1) == LD_ERR_ARG,
          "ld_md_init bad arguments");
    ld_md_init(&ctx, LD_ALG_SHA512);
    check(ld_md_final(&ctx, d1) == LD_OK && ld_md_final(&ctx, d1) == LD_ERR_STATE &&
              ld_md_update(&ctx, "x", 1) == LD_ERR_STATE,
          "ld_md call order");
    check(ld_sha256_final(&ctx, d1) == LD_ERR_ARG, "ld_sha256_final refuses a SHA-512 context");
}

int main(void)
{
    static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                               "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    /* SHA-256 of b"\x00\x01\x02..." (byte i = i & 0xff) for boundary lengths, from hashlib */
    static const struct {
        size_t len;
        const char *sha256;
    } bound[] = {
#include "boundary_vectors.inc"
    };
    uint8_t msg[300], d1[32], d2[32], pad[256];
    ld_sha256_ctx ctx;
    size_t i, len, split, n;

    /* FIPS 180-4 / NIST example vectors */
    check_hex(LD_SHA256, "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
              "sha256 empty");
    check_hex(LD_SHA256, "abc", 3,
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 abc");
    check_hex(LD_SHA256, m448, 56,
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "sha256 448-bit");
    check_hex(LD_SHA256, m896, 112,
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1", "sha256 896-bit");
    check_hex(LD_SHA224, "", 0, "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
              "sha224 empty");
    check_hex(LD_SHA224, "abc", 3, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
              "sha224 abc");
    check_hex(LD_SHA224, m448, 56, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
              "sha224 448-bit");
    check_hex(LD_SHA224, m896, 112, "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
              "sha224 896-bit");

    /* padding boundaries, against hashlib-generated digests */
    for (i = 0; i < 300; i++)
        msg[i] = (uint8_t)i;
    for (i = 0; i < sizeof bound / sizeof bound[0]; i++) {
        char what[64];
        sprintf(what, "boundary length %u", (unsigned)bound[i].len);
        check_hex(LD_SHA256, msg, bound[i].len, bound[i].sha256, what);
    }

    /* every split point of every length up to 200 gives the one-shot digest */
    for (len = 0; len <= 200; len++) {
        int ok = 1;
        ld_sha256(LD_SHA256, msg, len, d1);
        for (split = 0; split <= len; split++) {
            ld_sha256_init(&ctx, LD_SHA256);
            ld_sha256_update(&ctx, msg, split);
            ld_sha256_update(&ctx, msg + split, 0);
            ld_sha256_update(&ctx, msg + split, len - split);
            ld_sha256_final(&ctx, d2);
            ok &= memcmp(d1, d2, 32) == 0;
        }
        check(ok, "streaming splits");
    }

    /* padding sizes */
    for (len = 0; len < 64; len++) {
        n = ld_md_pad(pad, msg, len, 1000 * 64 + len, 64);
        check(n == (len <= 55 ? 64u : 128u), "pad size 64");
        check(pad[len] == 0x80 && pad[n - 1] == (uint8_t)((1000 * 64 + len) << 3), "pad bytes");
    }
    for (len = 0; len < 128; len++)
        check(ld_md_pad(pad, msg, len, len, 128) == (len <= 111 ? 128u : 256u), "pad size 128");
    check(ld_md_pad(pad, msg, 64, 64, 64) == 0, "pad rejects tail_len == block_size");
    check(ld_md_pad(pad, msg, 3, 3, 32) == 0, "pad rejects block_size 32");
    n = ld_md_pad(pad, NULL, 0, 0x2000000000000000ull, 128); /* 2^61 bytes = 2^64 bits */
    check(n == 128 && pad[119] == 1 && pad[118] == 0 && pad[127] == 0,
          "pad 128-bit length high part");

    /* call order and arguments */
    check(ld_sha256_init(&ctx, 2) == LD_ERR_ARG, "bad variant");
    check(ld_sha256_init(NULL, LD_SHA256) == LD_ERR_ARG, "NULL ctx");
    ld_sha256_init(&ctx, LD_SHA256);
    check(ld_sha256_update(&ctx, NULL, 5) == LD_ERR_ARG, "NULL data");
    check(ld_sha256_update(&ctx, NULL, 0) == LD_OK, "NULL data, zero length");
    check(ld_sha256_final(&ctx, d1) == LD_OK, "final");
    check(ld_sha256_final(&ctx, d2) == LD_ERR_STATE, "final twice -> LD_ERR_STATE");
    check(ld_sha256_update(&ctx, "x", 1) == LD_ERR_STATE, "update after final -> LD_ERR_STATE");
    check(ld_sha256_init(&ctx, LD_SHA256) == LD_OK && ld_sha256_final(&ctx, d2) == LD_OK &&
              memcmp(d1, d2, 32) == 0,
          "re-init after final");
    check(strcmp(ld_strerror(LD_ERR_STATE), "wrong call order") == 0, "strerror");

    md_tests(msg, sizeof msg);

    return summary();
}
