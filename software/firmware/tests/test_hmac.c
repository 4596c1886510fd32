/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of HMAC (ld_hmac.h): the RFC 2202 and RFC 4231 test cases, streaming and copies
 * against the one-shot call, the wiping of the key-derived state, verification with truncated
 * MACs, constant-time comparison, and refused arguments and contexts. Groups run one at a time
 * by name (check.h); tests/clib/test_hmac_clib.py compares the library with Python's hmac on random
 * keys, messages and update splits. */
#include <stdint.h>
#include "litedigest/ld_hmac.h"
#include "litedigest/ld_skein.h"
#include "check.h"

typedef struct {
    const char *key, *data, *mac;
} hex_vector;

typedef struct {
    const char *key, *data, *mac[4]; /* HMAC-SHA-224, -256, -384, -512 */
} rfc4231_vector;

static const int rfc4231_algs[4] = {LD_ALG_SHA224, LD_ALG_SHA256, LD_ALG_SHA384, LD_ALG_SHA512};

/* RFC 2202 section 3: HMAC-SHA-1 test cases 1-7 (key, data, MAC; hex) */
static const hex_vector rfc2202[] = {
    {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
     "b617318655057264e28bc0b6fb378c8ef146be00"},
    {"4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
     "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
     "ddd"
     "dddd",
     "125d7342b9ac11cd91a39af48aa17b4f63f175d3"},
    {"0102030405060708090a0b0c0d0e0f10111213141516171819",
     "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdc"
     "dcd"
     "cdcd",
     "4c9007f4026250c6bc8414f9bf50c86c2d7235da"},
    {"0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "546573742057697468205472756e636174696f6e",
     "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6"
     "579"
     "204669727374",
     "aa4ae5e15272d00e95705637ce8a3b55ed402112"},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b657920616e64204c6172676"
     "572"
     "205468616e204f6e6520426c6f636b2d53697a652044617461",
     "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"},
};

/* RFC 4231 section 4: test cases 1-7, key and data, then HMAC-SHA-224/256/384/512 (hex); case 5
 * is the truncated one: its MACs are the first 128 bits */
static const rfc4231_vector rfc4231[] = {
    {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265",
     {"896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa"
      "9cb6",
      "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3"
      "f4e4"
      "be9d914eeb61f1702e696c203a126854"}},
    {"4a656665",
     "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
     {"a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab2"
      "1649",
      "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0"
      "e6fd"
      "caeab1a34d4a6b4b636e070a38bce737"}},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
     "ddd"
     "dddd",
     {"7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
      "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a3"
      "4f27",
      "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67"
      "c807"
      "b946a337bee8942674278859e13292fb"}},
    {"0102030405060708090a0b0c0d0e0f10111213141516171819",
     "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdc"
     "dcd"
     "cdcd",
     {"6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
      "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674"
      "cffb",
      "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc578"
      "8063"
      "a5f19741120c4f2de2adebeb10a298dd"}},
    {"0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
     "546573742057697468205472756e636174696f6e",
     {"0e2aea68a90c8d37c988bcdb9fca6fa8", "a3b6167473100ee06e0c796c2955552b",
      "3abf34c3503b2a23a46efc619baef897", "415fad6271580a531d4179bc891d87a6"}},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6"
     "579"
     "204669727374",
     {"95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f4"
      "4952",
      "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a"
      "1e52"
      "95e64f73f63f0aec8b915a985d786598"}},
    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206"
     "b65"
     "7920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6"
     "565"
     "647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d4143206"
     "16c"
     "676f726974686d2e",
     {"3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46"
      "523e",
      "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4"
      "de15"
      "134676fb6de0446065c97440fa8c6a58"}},
};

/* HMAC-SHA-384, SHA-512/224 and SHA-512/256 of one message (Python's hmac): SHA-512/t has no
 * RFC test cases */
static const struct {
    int alg;
    const char *mac;
} fox[] = {
    {LD_ALG_SHA384,
     "d7f4727e2c0b39ae0f1e40cc96f60242d5b7801841cea6fc592c5d3e1ae50700582a96cf35e1e554"
     "995fe4e03381c237"},
    {LD_ALG_SHA512_224, "a1afb4f708cb63570639195121785ada3dc615989cc3c73f38e306a3"},
    {LD_ALG_SHA512_256, "7fb65e03577da9151a1016e9c2e514d4d48842857f13927f348588173dca6d89"},
};

static size_t unhex(const char *h, uint8_t *out)
{
    size_t n = 0;

    for (; h[0] && h[1]; h += 2) {
        int hi = h[0] <= '9' ? h[0] - '0' : h[0] - 'a' + 10;
        int lo = h[1] <= '9' ? h[1] - '0' : h[1] - 'a' + 10;
        out[n++] = (uint8_t)(hi << 4 | lo);
    }
    return n;
}

#define all_zero(p, n) all_bytes(p, n, 0)

/* a deterministic pseudo-random byte stream (xorshift32) */
static uint32_t rng_state = 0x12345678u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
    while (n--)
        *p++ = (uint8_t)rnd();
}

/* one test case: the one-shot MAC (its first maclen bytes: a truncated case gives fewer than
 * the digest), the MAC streamed a byte at a time, and verification of the expected bytes */
static void check_case(int alg, const char *key_hex, const char *data_hex, const char *mac_hex,
                       const char *what)
{
    uint8_t key[256], data[256], want[LD_HMAC_MAX_SIZE], got[LD_HMAC_MAX_SIZE];
    size_t keylen = unhex(key_hex, key), len = unhex(data_hex, data), maclen = unhex(mac_hex, want);
    ld_hmac_ctx ctx;
    size_t i;
    int ok;

    check(maclen <= ld_hmac_size(alg), what);
    check(ld_hmac(alg, key, keylen, data, len, got) == LD_OK && memcmp(got, want, maclen) == 0,
          what);
    ok = ld_hmac_init(&ctx, alg, key, keylen) == LD_OK;
    for (i = 0; i < len; i++)
        ok &= ld_hmac_update(&ctx, data + i, 1) == LD_OK;
    memset(got, 0, sizeof got);
    check(ok && ld_hmac_final(&ctx, got) == LD_OK && memcmp(got, want, maclen) == 0, what);
    check(ld_hmac_verify(alg, key, keylen, data, len, want, maclen) == LD_OK, what);
    want[maclen - 1] ^= 1;
    check(ld_hmac_verify(alg, key, keylen, data, len, want, maclen) == LD_ERR_MISMATCH, what);
}

/* RFC 2202: HMAC-SHA-1, test cases 1-7 (keys of 4 to 80 bytes: 80 is longer than the block);
 * case 5 also as the RFC's 96-bit truncated MAC */
static void rfc2202_sha1(void)
{
    uint8_t key[32], mac[LD_HMAC_MAX_SIZE];
    size_t i, keylen, maclen;

    for (i = 0; i < sizeof rfc2202 / sizeof rfc2202[0]; i++)
        check_case(LD_ALG_SHA1, rfc2202[i].key, rfc2202[i].data, rfc2202[i].mac,
                   "RFC 2202 HMAC-SHA-1");
    keylen = unhex(rfc2202[4].key, key);
    maclen = unhex(rfc2202[4].mac, mac);
    check(maclen == 20 && ld_hmac_verify(LD_ALG_SHA1, key, keylen, "Test With Truncation", 20, mac,
                                         12) == LD_OK,
          "RFC 2202 case 5: HMAC-SHA-1-96 verifies");
}

/* RFC 4231: HMAC-SHA-224/256/384/512, test cases 1-7 (case 5 truncated to 128 bits; cases 6
 * and 7 with a 131-byte key, longer than either block size) */
static void rfc4231_sha2(void)
{
    size_t i, a;

    for (i = 0; i < sizeof rfc4231 / sizeof rfc4231[0]; i++)
        for (a = 0; a < 4; a++)
            check_case(rfc4231_algs[a], rfc4231[i].key, rfc4231[i].data, rfc4231[i].mac[a],
                       "RFC 4231 HMAC-SHA-2");
    check(strlen(rfc4231[4].mac[0]) == 32, "RFC 4231 case 5 is the truncated one");
}

static void sha512_t_known(void)
{
    static const char msg[] = "The quick brown fox jumps over the lazy dog";
    size_t i;
    char msg_hex[2 * sizeof msg];

    for (i = 0; i + 1 < sizeof msg; i++)
        sprintf(msg_hex + 2 * i, "%02x", (unsigned)(uint8_t)msg[i]);
    for (i = 0; i < sizeof fox / sizeof fox[0]; i++)
        check_case(fox[i].alg, "6b6579", msg_hex, fox[i].mac,
                   "HMAC-SHA-384/512-224/512-256 \"key\"");
}

/* every alg, keys around the block size (0, 1, block - 1, block, block + 1, 2 blocks + 3) and
 * messages around block multiples, fed in chunks of every pattern below (empty and NULL updates
 * between them): the same MAC as the one-shot call */
static void streaming_splits(void)
{
    static const size_t steps[] = {1, 3, 63, 64, 65, 127, 128, 129, 1000};
    uint8_t key[300], msg[400], want[LD_HMAC_MAX_SIZE], got[LD_HMAC_MAX_SIZE];
    ld_hmac_ctx ctx;
    int alg;

    fill_random(key, sizeof key);
    fill_random(msg, sizeof msg);
    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        size_t bs = ld_md_block_size(alg), ds = ld_hmac_size(alg);
        size_t keylens[] = {0, 1, bs - 1, bs, bs + 1, 2 * bs + 3};
        size_t lens[] = {0, 1, 55, 56, bs - 1, bs, bs + 1, 2 * bs + 17, sizeof msg};
        size_t k, l, s;

        for (k = 0; k < sizeof keylens / sizeof keylens[0]; k++)
            for (l = 0; l < sizeof lens / sizeof lens[0]; l++) {
                check(ld_hmac(alg, key, keylens[k], msg, lens[l], want) == LD_OK, "one-shot");
                for (s = 0; s < sizeof steps / sizeof steps[0] + 1; s++) {
                    size_t pos = 0;
                    int ok = ld_hmac_init(&ctx, alg, key, keylens[k]) == LD_OK;
                    while (pos < lens[l]) {
                        /* the last pattern: random chunk sizes, 0 included */
                        size_t n = s < sizeof steps / sizeof steps[0] ? steps[s] : rnd() % (bs + 9);
                        if (n > lens[l] - pos)
                            n = lens[l] - pos;
                        ok &= ld_hmac_update(&ctx, msg + pos, n) == LD_OK;
                        ok &= ld_hmac_update(&ctx, NULL, 0) == LD_OK;
                        pos += n;
                    }
                    memset(got, 0, sizeof got);
                    check(ok && ld_hmac_final(&ctx, got) == LD_OK && memcmp(got, want, ds) == 0,
                          "streaming with split updates equals the one-shot MAC");
                }
            }
        /* the two keys that RFC 2104 says give the same MAC: a long key and its digest */
        {
            uint8_t hashed[LD_MD_MAX_DIGEST_SIZE];
            ld_md(alg, key, bs + 1, hashed);
            check(ld_hmac(alg, hashed, ds, msg, 10, got) == LD_OK &&
                      ld_hmac(alg, key, bs + 1, msg, 10, want) == LD_OK &&
                      memcmp(got, want, ds) == 0,
                  "a key longer than the block is hashed first");
        }
        /* a NULL key of length 0 is the empty key; NULL data of length 0 the empty message */
        check(ld_hmac(alg, "", 0, "", 0, want) == LD_OK &&
                  ld_hmac(alg, NULL, 0, NULL, 0, got) == LD_OK && memcmp(got, want, ds) == 0,
              "NULL key and data of length 0");
    }
}

/* copies: of a context just initialised (one key, several messages) and of one part-way
 * through a message; each copy goes its own way, the original is unaffected */
static void copy_independent(void)
{
    uint8_t key[100], msg[300], other[200];
    uint8_t a[LD_HMAC_MAX_SIZE], b[LD_HMAC_MAX_SIZE], want[LD_HMAC_MAX_SIZE];
    ld_hmac_ctx base, c1, c2;
    int alg;

    fill_random(key, sizeof key);
    fill_random(msg, sizeof msg);
    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        size_t ds = ld_hmac_size(alg);
        check(ld_hmac_init(&base, alg, key, sizeof key) == LD_OK, "init");
        check(ld_hmac_copy(&c1, &base) == LD_OK && ld_hmac_copy(&c2, &base) == LD_OK,
              "copy after init");
        ld_hmac_update(&c1, msg, 100);
        ld_hmac_update(&c2, msg + 100, 200);
        ld_hmac(alg, key, sizeof key, msg, 100, want);
        check(ld_hmac_final(&c1, a) == LD_OK && memcmp(a, want, ds) == 0, "copy 1 after init");
        ld_hmac(alg, key, sizeof key, msg + 100, 200, want);
        check(ld_hmac_final(&c2, b) == LD_OK && memcmp(b, want, ds) == 0, "copy 2 after init");

        ld_hmac_update(&base, msg, 150);
        check(ld_hmac_copy(&c1, &base) == LD_OK, "copy part-way");
        ld_hmac_update(&c1, msg + 150, 150); /* the copy diverges */
        ld_hmac_update(&base, msg + 200, 50);
        ld_hmac(alg, key, sizeof key, msg, 300, want);
        check(ld_hmac_final(&c1, a) == LD_OK && memcmp(a, want, ds) == 0, "the copy's MAC");
        memcpy(other, msg, 150);
        memcpy(other + 150, msg + 200, 50);
        ld_hmac(alg, key, sizeof key, other, 200, want);
        check(ld_hmac_final(&base, b) == LD_OK && memcmp(b, want, ds) == 0, "the original's MAC");

        /* a finished context copies into a finished one; a context copies onto itself */
        check(ld_hmac_copy(&c2, &base) == LD_OK && ld_hmac_update(&c2, "a", 1) == LD_ERR_STATE &&
                  ld_hmac_final(&c2, a) == LD_ERR_STATE,
              "a copy of a finished context is finished");
        ld_hmac_init(&base, alg, key, sizeof key);
        ld_hmac_update(&base, msg, 7);
        check(ld_hmac_copy(&base, &base) == LD_OK && ld_hmac_final(&base, a) == LD_OK &&
                  ld_hmac(alg, key, sizeof key, msg, 7, want) == LD_OK && memcmp(a, want, ds) == 0,
              "copy onto itself");
    }
}

/* does any 8-byte window of pat[0..n) appear in p[0..size)? */
static int contains(const void *p, size_t size, const uint8_t *pat, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i, j;

    for (j = 0; j + 8 <= n; j++)
        for (i = 0; i + 8 <= size; i++)
            if (memcmp(b + i, pat + j, 8) == 0)
                return 1;
    return 0;
}

/* The key never sits in a context (nor the padded key blocks); final, each error on a
 * usable context and a failed init leave its key-derived hash states zero, and the context
 * refuses update/final until init again */
static void wipe(void)
{
    uint8_t key[200], pad[200], out[LD_HMAC_MAX_SIZE];
    ld_hmac_ctx ctx;
    size_t i;
    int alg, k;

    fill_random(key, sizeof key);
    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        size_t bs = ld_md_block_size(alg);
        for (k = 0; k < 2; k++) {
            size_t keylen = k ? bs : bs - 5; /* padded with zeros, or exactly a block */
            check(ld_hmac_init(&ctx, alg, key, keylen) == LD_OK, "init");
            check(!contains(&ctx, sizeof ctx, key, keylen), "no key bytes in the context");
            for (i = 0; i < keylen; i++)
                pad[i] = key[i] ^ 0x36;
            check(!contains(&ctx, sizeof ctx, pad, keylen), "no inner key block in the context");
            for (i = 0; i < keylen; i++)
                pad[i] = key[i] ^ 0x5c;
            check(!contains(&ctx, sizeof ctx, pad, keylen), "no outer key block in the context");
            check(all_zero(ctx.inner.buf, sizeof ctx.inner.buf) &&
                      all_zero(ctx.outer.buf, sizeof ctx.outer.buf),
                  "the key block is not buffered");
        }
        check(ld_hmac_update(&ctx, key, 77) == LD_OK && ld_hmac_final(&ctx, out) == LD_OK, "final");
        check(all_zero(&ctx.inner, sizeof ctx.inner) && all_zero(&ctx.outer, sizeof ctx.outer),
              "final wipes both hash states");
        check(ld_hmac_update(&ctx, "a", 1) == LD_ERR_STATE &&
                  ld_hmac_final(&ctx, out) == LD_ERR_STATE,
              "update and final after final: LD_ERR_STATE");

        /* errors on a usable context: NULL data with a length, NULL out */
        ld_hmac_init(&ctx, alg, key, 10);
        check(ld_hmac_update(&ctx, NULL, 5) == LD_ERR_ARG, "update: NULL data with len > 0");
        check(all_zero(&ctx.inner, sizeof ctx.inner) && all_zero(&ctx.outer, sizeof ctx.outer),
              "an update error wipes the hash states");
        check(ld_hmac_update(&ctx, "a", 1) == LD_ERR_STATE, "update after an error: LD_ERR_STATE");
        ld_hmac_init(&ctx, alg, key, 10);
        ld_hmac_update(&ctx, "abc", 3);
        check(ld_hmac_final(&ctx, NULL) == LD_ERR_ARG, "final: NULL out");
        check(all_zero(&ctx.inner, sizeof ctx.inner) && all_zero(&ctx.outer, sizeof ctx.outer),
              "a final error wipes the hash states");
        check(ld_hmac_final(&ctx, out) == LD_ERR_STATE, "final after an error: LD_ERR_STATE");

        /* a failed init leaves nothing of the previous key */
        ld_hmac_init(&ctx, alg, key, 10);
        check(ld_hmac_init(&ctx, -1, key, 10) == LD_ERR_ARG && all_zero(&ctx, sizeof ctx),
              "a failed init wipes the context");
        ld_hmac_init(&ctx, alg, key, 10);
        check(ld_hmac_init(&ctx, alg, NULL, 10) == LD_ERR_ARG && all_zero(&ctx, sizeof ctx),
              "init with NULL key and keylen > 0 wipes the context");
        check(ld_hmac_update(&ctx, "a", 1) == LD_ERR_STATE, "update after a failed init");

        /* init again: usable */
        check(ld_hmac_init(&ctx, alg, "k", 1) == LD_OK && ld_hmac_update(&ctx, "m", 1) == LD_OK &&
                  ld_hmac_final(&ctx, out) == LD_OK,
              "init after final or an error");
    }
}

/* verification: the full MAC and every truncation down to LD_HMAC_MIN_VERIFY_SIZE bytes; a
 * change of any byte, a wrong key or message is LD_ERR_MISMATCH; lengths out of bounds and
 * NULL or unknown arguments are LD_ERR_ARG */
static void verify(void)
{
    uint8_t key[50], msg[90], mac[LD_HMAC_MAX_SIZE];
    int alg;

    fill_random(key, sizeof key);
    fill_random(msg, sizeof msg);
    check(LD_ERR_MISMATCH != LD_ERR_ARG && LD_ERR_MISMATCH != LD_ERR_STATE &&
              LD_ERR_MISMATCH != LD_ERR_TIMEOUT && LD_ERR_MISMATCH != LD_ERR_HW &&
              LD_ERR_MISMATCH != LD_ERR_RANGE && LD_ERR_MISMATCH != LD_OK,
          "LD_ERR_MISMATCH is its own code");
    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        size_t ds = ld_hmac_size(alg), n, i;
        ld_hmac(alg, key, sizeof key, msg, sizeof msg, mac);
        for (n = LD_HMAC_MIN_VERIFY_SIZE; n <= ds; n++)
            check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac, n) == LD_OK,
                  "verify: the MAC truncated to n bytes");
        for (i = 0; i < ds; i++) {
            mac[i] ^= 0x80;
            check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac, ds) == LD_ERR_MISMATCH,
                  "verify: one byte changed");
            check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac,
                                 LD_HMAC_MIN_VERIFY_SIZE) ==
                      (i < LD_HMAC_MIN_VERIFY_SIZE ? LD_ERR_MISMATCH : LD_OK),
                  "verify: a truncated MAC compares its own bytes only");
            mac[i] ^= 0x80;
        }
        check(ld_hmac_verify(alg, key, sizeof key - 1, msg, sizeof msg, mac, ds) == LD_ERR_MISMATCH,
              "verify: another key");
        check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg - 1, mac, ds) == LD_ERR_MISMATCH,
              "verify: another message");
        check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac,
                             LD_HMAC_MIN_VERIFY_SIZE - 1) == LD_ERR_ARG,
              "verify: maclen below 10 bytes");
        check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac, 0) == LD_ERR_ARG,
              "verify: maclen 0");
        check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, mac, ds + 1) == LD_ERR_ARG,
              "verify: maclen above the digest size");
        check(ld_hmac_verify(alg, key, sizeof key, msg, sizeof msg, NULL, ds) == LD_ERR_ARG,
              "verify: NULL mac");
        check(ld_hmac_verify(alg, NULL, 1, msg, sizeof msg, mac, ds) == LD_ERR_ARG,
              "verify: NULL key");
        check(ld_hmac_verify(alg, key, sizeof key, NULL, 1, mac, ds) == LD_ERR_ARG,
              "verify: NULL data");
    }
    check(ld_hmac_verify(LD_ALG_COUNT, key, 1, msg, 1, mac, 20) == LD_ERR_ARG,
          "verify: unknown alg");
    check(ld_hmac_verify(LD_ALG_SKEIN512(256), key, 1, msg, 1, mac, 20) == LD_ERR_ARG,
          "verify: Skein");
}

/* ld_ct_equal: equal buffers, a difference of every value at every position of several
 * lengths (the reduction of the accumulated difference to 0/1 is checked for every byte
 * value), n == 0 and NULL pointers */
static void ct_equal(void)
{
    uint8_t a[70], b[70];
    size_t n, i;
    unsigned d;

    fill_random(a, sizeof a);
    memcpy(b, a, sizeof a);
    for (n = 1; n <= sizeof a; n += 23) {
        int missed = 0;
        check(ld_ct_equal(a, b, n) == 1, "ct_equal: equal");
        for (i = 0; i < n; i++)
            for (d = 1; d < 256; d++) {
                b[i] = (uint8_t)(a[i] ^ d);
                missed += ld_ct_equal(a, b, n) != 0;
                b[i] = a[i];
            }
        check(missed == 0, "ct_equal: every difference at every position");
    }
    check(ld_ct_equal(a, b, sizeof a) == 1, "ct_equal: equal after the changes are undone");
    check(ld_ct_equal(a, a, sizeof a) == 1, "ct_equal: the same buffer");
    check(ld_ct_equal(NULL, NULL, 0) == 1 && ld_ct_equal(a, NULL, 0) == 1, "ct_equal: n == 0");
    check(ld_ct_equal(NULL, b, 1) == 0 && ld_ct_equal(a, NULL, 1) == 0,
          "ct_equal: NULL with n > 0");
}

/* bad arguments: LD_ERR_ARG, nothing written */
static void bad_args(void)
{
    static const int bad_algs[] = {
        -1, LD_ALG_COUNT, 1000, LD_ALG_SKEIN512(256), LD_ALG_SKEIN512(512), LD_ALG_SKEIN512_BASE};
    uint8_t out[LD_HMAC_MAX_SIZE + 8];
    ld_hmac_ctx ctx, ok;
    size_t i;

    check(ld_hmac_init(NULL, LD_ALG_SHA256, "k", 1) == LD_ERR_ARG, "init: NULL ctx");
    check(ld_hmac_update(NULL, "a", 1) == LD_ERR_ARG, "update: NULL ctx");
    check(ld_hmac_final(NULL, out) == LD_ERR_ARG, "final: NULL ctx");
    ld_hmac_init(&ok, LD_ALG_SHA256, "k", 1);
    check(ld_hmac_copy(NULL, &ok) == LD_ERR_ARG && ld_hmac_copy(&ctx, NULL) == LD_ERR_ARG,
          "copy: NULL");
    for (i = 0; i < sizeof bad_algs / sizeof bad_algs[0]; i++) {
        memset(out, FILL, sizeof out);
        check(ld_hmac_size(bad_algs[i]) == 0, "size: unknown alg");
        check(ld_hmac_init(&ctx, bad_algs[i], "k", 1) == LD_ERR_ARG, "init: unknown alg");
        check(ld_hmac_update(&ctx, "a", 1) == LD_ERR_STATE, "update after a refused init");
        check(ld_hmac(bad_algs[i], "k", 1, "a", 1, out) == LD_ERR_ARG, "one-shot: unknown alg");
        check(untouched(out, sizeof out), "one-shot: nothing written for an unknown alg");
    }
    memset(out, FILL, sizeof out);
    check(ld_hmac_init(&ctx, LD_ALG_SHA256, NULL, 1) == LD_ERR_ARG,
          "init: NULL key with keylen > 0");
    check(ld_hmac(LD_ALG_SHA256, NULL, 1, "a", 1, out) == LD_ERR_ARG, "one-shot: NULL key");
    check(ld_hmac(LD_ALG_SHA256, "k", 1, NULL, 1, out) == LD_ERR_ARG, "one-shot: NULL data");
    check(ld_hmac(LD_ALG_SHA256, "k", 1, "a", 1, NULL) == LD_ERR_ARG, "one-shot: NULL out");
    check(untouched(out, sizeof out), "one-shot: nothing written on bad arguments");
    ld_hmac_init(&ctx, LD_ALG_SHA512, "k", 1);
    check(ld_hmac_final(&ctx, NULL) == LD_ERR_ARG, "final: NULL out");
    for (i = 0; i < LD_ALG_COUNT; i++)
        check(ld_hmac_size((int)i) == ld_md_digest_size((int)i), "size: the digest size");
}

/* contexts that no init set up (zeroed, garbage) and initialised ones with a field changed:
 * update, final and copy refuse them with LD_ERR_STATE and write nothing */
static void bad_context(void)
{
    static const uint8_t fills[] = {0x00, 0x01, 0x5A, 0xFF};
    uint8_t out[LD_HMAC_MAX_SIZE + 8];
    ld_hmac_ctx ctx, dst;
    size_t i;
    int k;

    for (i = 0; i < sizeof fills; i++) {
        memset(&ctx, fills[i], sizeof ctx);
        memset(out, FILL, sizeof out);
        check(ld_hmac_update(&ctx, "abc", 3) == LD_ERR_STATE, "update: uninitialised context");
        check(ld_hmac_final(&ctx, out) == LD_ERR_STATE, "final: uninitialised context");
        check(ld_hmac_copy(&dst, &ctx) == LD_ERR_STATE, "copy: uninitialised context");
        check(untouched(out, sizeof out), "final: nothing written for an uninitialised context");
    }
    for (k = 0; k < 8; k++) {
        ld_hmac_init(&ctx, LD_ALG_SHA256, "key", 3);
        ld_hmac_update(&ctx, "abc", 3);
        switch (k) {
        case 0:
            ctx.alg = LD_ALG_SHA1;
            break; /* another alg of the same block size */
        case 1:
            ctx.alg = LD_ALG_SHA512;
            break;
        case 2:
            ctx.alg = 99;
            break;
        case 3:
            ctx.finished = 2;
            break;
        case 4:
            ctx.inner.alg = LD_ALG_SHA224;
            break; /* a valid ld_md context of another alg */
        case 5:
            ctx.outer.total += 64;
            break; /* the outer state is one block in */
        case 6:
            ctx.outer.finished = 1;
            break;
        case 7:
            ctx.magic ^= 1;
            break;
        }
        memset(out, FILL, sizeof out);
        check(ld_hmac_update(&ctx, "abc", 3) == LD_ERR_STATE, "update: inconsistent context");
        check(ld_hmac_final(&ctx, out) == LD_ERR_STATE, "final: inconsistent context");
        check(untouched(out, sizeof out), "final: nothing written for an inconsistent context");
    }
}

/* a message past the hash's length limit: LD_ERR_ARG from ld_md_update, and the context ends
 * like on any other error */
static void length_limit(void)
{
    uint8_t block[64] = {0}, out[LD_HMAC_MAX_SIZE];
    ld_hmac_ctx ctx;

    ld_hmac_init(&ctx, LD_ALG_SHA256, "key", 3);
    ctx.inner.total = ((uint64_t)1 << 61) - 64; /* 63 bytes under the SHA-256 limit */
    check(ld_hmac_update(&ctx, block, 63) == LD_OK, "update: up to the length limit");
    check(ld_hmac_update(&ctx, block, 1) == LD_ERR_ARG, "update: past the length limit");
    check(all_zero(&ctx.inner, sizeof ctx.inner) && ld_hmac_final(&ctx, out) == LD_ERR_STATE,
          "the context ends after the length error");
}

int main(int argc, char **argv)
{
    static const test_group groups[] = {
        {"rfc2202_sha1", rfc2202_sha1},
        {"rfc4231_sha2", rfc4231_sha2},
        {"sha512_t_known", sha512_t_known},
        {"streaming_splits", streaming_splits},
        {"copy_independent", copy_independent},
        {"wipe", wipe},
        {"verify", verify},
        {"ct_equal", ct_equal},
        {"bad_args", bad_args},
        {"bad_context", bad_context},
        {"length_limit", length_limit},
    };
    return run_groups(groups, sizeof groups / sizeof groups[0], argc, argv);
}
