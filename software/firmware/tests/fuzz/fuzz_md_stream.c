/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz target: the streaming Merkle-Damgard API (ld_md.h) of every algorithm.
 *
 * Input: an algorithm byte (every LD_ALG_*, and one unknown id that init must refuse), up to
 * 16 update sizes (0..254 bytes; 255 is an update with NULL, 0), the update after which a copy
 * of the context is taken (or none), then the message (the rest of the input).
 * Checks:
 * - the digest of the split updates equals the one-shot ld_md digest of the message, and so
 *   does the copy's (finished separately with the rest of the message in one update);
 * - both equal a reference carried here: this file's own FIPS 180-4 padding, its own table
 *   of the algorithms' variants and sizes and its own digest serialisation around the
 *   library's bare compression functions (ld_sha1/256/512_compress), so neither the
 *   buffering, the padding nor the byte order of ld_md is trusted by it;
 * - final writes exactly the digest size (a canary after it), a second final and an update
 *   after final are LD_ERR_STATE and write nothing; update with NULL, 0 is LD_OK anywhere.
 * Built with -DLD_FUZZ_PLANT, the target corrupts one byte of the streamed digest of a
 * 100-byte message hashed in exactly 3 non-empty updates: the planted bug that
 * tests/clib/test_fuzz.py requires the fuzzer to find.
 */
#include "fuzz_input.h"
#include "litedigest/ld_md.h"
#include "litedigest/ld_sha1.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_sha512.h"

#define MAX_SPLITS 16
#define MAX_MSG    16384

/* the algorithms, written out here (FIPS 180-4): family block size, IV variant, digest bytes */
static const struct {
    int alg, bs, variant, ds;
} ALGS[LD_ALG_COUNT] = {
    {LD_ALG_SHA1, 64, 0, 20},
    {LD_ALG_SHA256, 64, LD_SHA256, 32},
    {LD_ALG_SHA224, 64, LD_SHA224, 28},
    {LD_ALG_SHA512, 128, LD_SHA512, 64},
    {LD_ALG_SHA384, 128, LD_SHA384, 48},
    {LD_ALG_SHA512_224, 128, LD_SHA512_224, 28},
    {LD_ALG_SHA512_256, 128, LD_SHA512_256, 32},
};

/* the reference digest: message || 0x80 || zeros || big-endian bit length (64 bits for 64-byte
 * blocks, 128 for 128-byte ones), compressed from the IV; big-endian words, truncated */
static void reference(int k, const uint8_t *msg, size_t len, uint8_t *out)
{
    static uint8_t buf[MAX_MSG + 2 * 128];
    size_t bs = (size_t)ALGS[k].bs, lenbytes = bs / 8, padded, i;
    uint64_t bits = (uint64_t)len * 8;
    uint32_t w32[8];
    uint64_t w64[8];

    if (len)
        memcpy(buf, msg, len);
    buf[len] = 0x80;
    padded = (len + 1 + lenbytes + bs - 1) / bs * bs;
    memset(buf + len + 1, 0, padded - len - 1);
    for (i = 0; i < 8; i++) /* a message here is far below 2^61 bytes: high bits 0 */
        buf[padded - 1 - i] = (uint8_t)(bits >> (8 * i));
    if (bs == 64) {
        if (ALGS[k].alg == LD_ALG_SHA1) {
            ld_sha1_iv(w32);
            ld_sha1_compress(w32, buf, padded / bs);
        } else {
            FZ_CHECK(ld_sha256_iv(ALGS[k].variant, w32) == LD_OK, "sha256 iv %d", ALGS[k].variant);
            ld_sha256_compress(w32, buf, padded / bs);
        }
        for (i = 0; i < (size_t)ALGS[k].ds; i++)
            out[i] = (uint8_t)(w32[i / 4] >> (24 - 8 * (i % 4)));
    } else {
        FZ_CHECK(ld_sha512_iv(ALGS[k].variant, w64) == LD_OK, "sha512 iv %d", ALGS[k].variant);
        ld_sha512_compress(w64, buf, padded / bs);
        for (i = 0; i < (size_t)ALGS[k].ds; i++)
            out[i] = (uint8_t)(w64[i / 8] >> (56 - 8 * (i % 8)));
    }
}

/* final into a canaried buffer: LD_OK and exactly ds bytes written */
static void finish(ld_md_ctx *ctx, size_t ds, uint8_t *out, const char *what)
{
    uint8_t again[LD_MD_MAX_DIGEST_SIZE + 16];

    memset(out, FZ_FILL, LD_MD_MAX_DIGEST_SIZE + 16);
    FZ_CHECK(ld_md_final(ctx, out) == LD_OK, "%s: final", what);
    FZ_CHECK(fz_untouched(out + ds, LD_MD_MAX_DIGEST_SIZE + 16 - ds),
             "%s: final wrote past %zu bytes", what, ds);
    memset(again, FZ_FILL, sizeof again);
    FZ_CHECK(ld_md_final(ctx, again) == LD_ERR_STATE && fz_untouched(again, sizeof again),
             "%s: a second final is LD_ERR_STATE and writes nothing", what);
    FZ_CHECK(ld_md_update(ctx, "x", 1) == LD_ERR_STATE &&
                 ld_md_update(ctx, NULL, 0) == LD_ERR_STATE,
             "%s: update after final is LD_ERR_STATE", what);
}

static void dump_and_fail(const char *what, int alg, size_t len, size_t nupdates,
                          const uint8_t *got, const uint8_t *want, size_t ds)
{
    fprintf(stderr, "LD_FUZZ alg %s, message %zu bytes, %zu updates\n", ld_md_name(alg), len,
            nupdates);
    fz_put_digests(got, want, ds);
    FZ_CHECK(0, "%s", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t splits[MAX_SPLITS];
    uint8_t oneshot[LD_MD_MAX_DIGEST_SIZE + 16], ref[LD_MD_MAX_DIGEST_SIZE];
    uint8_t streamed[LD_MD_MAX_DIGEST_SIZE + 16], copied[LD_MD_MAX_DIGEST_SIZE + 16];
    ld_md_ctx ctx, copy;
    const uint8_t *msg;
    size_t nsplits, copy_at, len, pos = 0, nupdates = 0, ds, i;
    int k = fz_u8(&in) % (LD_ALG_COUNT + 1), alg, have_copy = 0;

    nsplits = fz_u8(&in) % (MAX_SPLITS + 1);
    for (i = 0; i < nsplits; i++)
        splits[i] = fz_u8(&in);
    copy_at = fz_u8(&in) % (nsplits + 2); /* nsplits + 1: no copy */
    msg = in.p;
    len = in.n < MAX_MSG ? in.n : MAX_MSG;

    if (k == LD_ALG_COUNT) { /* unknown ids: refused, nothing written */
        static const int bad[] = {-1, LD_ALG_COUNT, 1000, 0x10000};
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memset(oneshot, FZ_FILL, sizeof oneshot);
            FZ_CHECK(ld_md_init(&ctx, bad[i]) == LD_ERR_ARG, "init refuses alg %d", bad[i]);
            FZ_CHECK(ld_md(bad[i], msg, len, oneshot) == LD_ERR_ARG &&
                         fz_untouched(oneshot, sizeof oneshot),
                     "one-shot refuses alg %d and writes nothing", bad[i]);
        }
        return 0;
    }
    alg = ALGS[k].alg;
    ds = (size_t)ALGS[k].ds;
    FZ_CHECK(ld_md_digest_size(alg) == ds && ld_md_block_size(alg) == (size_t)ALGS[k].bs,
             "alg %d: sizes", alg);

    memset(oneshot, FZ_FILL, sizeof oneshot);
    FZ_CHECK(ld_md(alg, len ? msg : NULL, len, oneshot) == LD_OK, "one-shot");
    FZ_CHECK(fz_untouched(oneshot + ds, sizeof oneshot - ds), "one-shot wrote past the digest");
    reference(k, msg, len, ref);
    if (memcmp(oneshot, ref, ds) != 0)
        dump_and_fail("one-shot ld_md differs from the reference (own padding + compression)", alg,
                      len, 1, oneshot, ref, ds);

    FZ_CHECK(ld_md_init(&ctx, alg) == LD_OK && ld_md_ctx_alg(&ctx) == alg, "init");
    for (i = 0; i <= nsplits; i++) {
        if (i == copy_at) { /* the copy, taken before update i */
            FZ_CHECK(ld_md_copy(&copy, &ctx) == LD_OK, "copy");
            have_copy = 1;
            FZ_CHECK(ld_md_copy(&copy, &copy) == LD_OK, "copy onto itself");
            {
                size_t rest = len - pos;
                FZ_CHECK(ld_md_update(&copy, rest ? msg + pos : NULL, rest) == LD_OK,
                         "copy: update the rest");
            }
            finish(&copy, ds, copied, "copy");
        }
        if (i == nsplits)
            break;
        if (splits[i] == 255) { /* NULL, 0: nothing hashed */
            FZ_CHECK(ld_md_update(&ctx, NULL, 0) == LD_OK, "update(NULL, 0) at %zu", pos);
            continue;
        }
        {
            size_t n = splits[i] < len - pos ? splits[i] : len - pos;
            FZ_CHECK(ld_md_update(&ctx, msg + pos, n) == LD_OK, "update of %zu at %zu", n, pos);
            pos += n;
            nupdates += n > 0;
        }
        if (i == 0)
            FZ_CHECK(ld_md_update(&ctx, NULL, 0) == LD_OK, "update(NULL, 0) after the first");
    }
    if (pos < len) {
        FZ_CHECK(ld_md_update(&ctx, msg + pos, len - pos) == LD_OK, "update of the rest");
        nupdates++;
    }
    FZ_CHECK(ld_md_ctx_alg(&ctx) == alg, "ctx_alg");
    finish(&ctx, ds, streamed, "stream");
#ifdef LD_FUZZ_PLANT
    if (len == 100 && nupdates == 3)
        streamed[ds / 2] ^= 0x10; /* the planted bug */
#endif
    if (memcmp(streamed, oneshot, ds) != 0)
        dump_and_fail("split updates differ from the one-shot digest", alg, len, nupdates, streamed,
                      oneshot, ds);
    if (have_copy && memcmp(copied, oneshot, ds) != 0)
        dump_and_fail("the copy's digest differs from the one-shot digest", alg, len, nupdates,
                      copied, oneshot, ds);
    return 0;
}
