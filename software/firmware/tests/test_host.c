/* Host tests of the LiteDigest C library: NIST example vectors, padding boundaries,
 * streaming split points, call-order errors. Prints a summary and "FAIL ..." lines and exits
 * non-zero on failure. The boundary digests (boundary_vectors.inc) were generated with Python's
 * hashlib; every streaming split must equal the one-shot digest. */
#include <stdio.h>
#include <string.h>
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_pad.h"

static int failures, checks;

static void hex(const uint8_t *d, size_t n, char *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
    out[2 * n] = 0;
}

static void check(int cond, const char *what)
{
    checks++;
    if (!cond) {
        failures++;
        printf("FAIL %s\n", what);
    }
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

int main(void)
{
    static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                               "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    /* SHA-256 of b"\x00\x01\x02..." (byte i = i & 0xff) for boundary lengths, from hashlib */
    static const struct { size_t len; const char *sha256; } bound[] = {
#include "boundary_vectors.inc"
    };
    uint8_t msg[300], d1[32], d2[32], pad[256];
    ld_sha256_ctx ctx;
    size_t i, len, split, n;

    /* FIPS 180-4 / NIST example vectors */
    check_hex(LD_SHA256, "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 empty");
    check_hex(LD_SHA256, "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 abc");
    check_hex(LD_SHA256, m448, 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "sha256 448-bit");
    check_hex(LD_SHA256, m896, 112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1", "sha256 896-bit");
    check_hex(LD_SHA224, "", 0, "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f", "sha224 empty");
    check_hex(LD_SHA224, "abc", 3, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7", "sha224 abc");
    check_hex(LD_SHA224, m448, 56, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525", "sha224 448-bit");
    check_hex(LD_SHA224, m896, 112, "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3", "sha224 896-bit");

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
    check(n == 128 && pad[119] == 1 && pad[118] == 0 && pad[127] == 0, "pad 128-bit length high part");

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
          memcmp(d1, d2, 32) == 0, "re-init after final");
    check(strcmp(ld_strerror(LD_ERR_STATE), "wrong call order") == 0, "strerror");

    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
