/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the library's argument and context checks, one group per defect found with
 * sanitizers and fuzzing. On the code before its fix each group read or wrote out of bounds
 * (a crash, or a stop in tests/clib/test_clib.py's -fsanitize=address,undefined build), or took a
 * bad argument, a wrapped length or an inconsistent context for a good one. Groups run one at
 * a time by name (check.h), so a crash is pinned to its defect. */
#include <limits.h>
#include <stdint.h>
#include "litedigest/ld_md.h"
#include "litedigest/ld_pad.h"
#include "litedigest/ld_sha256.h"
#include "litedigest/ld_skein.h"
#include "litedigest/ld_sched.h"
#include "check.h"

/* ld_skein512_update_bits with NULL data and 1..7 bits: refused before the partial byte is
 * read (it was read at address 0) */
static void skein_null_bits(void)
{
    ld_skein512_ctx ctx;
    uint8_t out[32], want[32];
    size_t nbits;

    check(ld_skein512(256, NULL, 0, NULL, 0, want) == LD_OK, "skein: the empty message");
    for (nbits = 1; nbits <= 7; nbits++) {
        ld_skein512_init(&ctx, 256, NULL, 0);
        check(ld_skein512_update_bits(&ctx, NULL, nbits) == LD_ERR_ARG,
              "skein update_bits: NULL data with 1..7 bits is LD_ERR_ARG");
        /* refused without effect: the context still hashes the empty message */
        check(ld_skein512_final(&ctx, out) == LD_OK && memcmp(out, want, 32) == 0,
              "skein update_bits: a refused call leaves the context as it was");
        check(ld_skein512(256, NULL, 0, NULL, nbits, out) == LD_ERR_ARG,
              "skein one-shot: NULL data with 1..7 bits is LD_ERR_ARG");
    }
    ld_skein512_init(&ctx, 256, NULL, 0);
    check(ld_skein512_update_bits(&ctx, NULL, 0) == LD_OK &&
              ld_skein512_update_bits(&ctx, NULL, 9) == LD_ERR_ARG,
          "skein update_bits: NULL data, 0 bits fine, 9 bits refused");
}

/* Skein contexts that no init set up (zeroed, or garbage that looks active), and initialised
 * ones with a field changed out of its range: update and final refuse them with LD_ERR_STATE
 * (as ld_md_* refuse such contexts) and write nothing; they wrote out of bounds before */
static void skein_bad_context(void)
{
    static const uint8_t fills[] = {0x00, 0x01, 0x5A, 0xFF};
    ld_skein512_ctx ctx;
    uint8_t out[LD_SKEIN512_STATE_BYTES + 16], want[32];
    size_t i;
    int k;

    for (i = 0; i < sizeof fills; i++) {
        memset(&ctx, fills[i], sizeof ctx);
        memset(out, FILL, sizeof out);
        check(ld_skein512_update(&ctx, "abc", 3) == LD_ERR_STATE,
              "skein update: uninitialised context");
        check(ld_skein512_update_bits(&ctx, "abc", 20) == LD_ERR_STATE,
              "skein update_bits: uninitialised context");
        check(ld_skein512_final(&ctx, out) == LD_ERR_STATE, "skein final: uninitialised context");
        check(untouched(out, sizeof out),
              "skein final: nothing written for an uninitialised context");
        check(ld_skein512_digest_size(&ctx) == 0,
              "skein digest_size: 0 for an uninitialised context");
    }
    for (k = 0; k < 7; k++) {
        ld_skein512_init(&ctx, 256, NULL, 0);
        check(ld_skein512_update(&ctx, "abc", 3) == LD_OK, "skein update");
        switch (k) {
        case 0:
            ctx.buflen = LD_SKEIN512_BLOCK_BYTES + 1;
            break; /* past the held-back block */
        case 1:
            ctx.buflen = 100000;
            break;
        case 2:
            ctx.out_bits = 0;
            break;
        case 3:
            ctx.out_bits = LD_SKEIN512_MAX_OUT_BITS + 1;
            break;
        case 4:
            ctx.variant = 200;
            break; /* an IV past the table (the chain is at an IV) */
        case 5:
            ctx.x_where = 77;
            break;
        default:
            ctx.state = 9;
            break;
        }
        memset(out, FILL, sizeof out);
        check(ld_skein512_update(&ctx, "d", 1) == LD_ERR_STATE,
              "skein update: inconsistent context");
        check(ld_skein512_final(&ctx, out) == LD_ERR_STATE, "skein final: inconsistent context");
        check(untouched(out, sizeof out),
              "skein final: nothing written for an inconsistent context");
    }
    /* the checks refuse nothing that init, update and final make */
    ld_skein512_init(&ctx, 256, NULL, 0);
    check(ld_skein512_digest_size(&ctx) == 32 && ld_skein512_update(&ctx, "abc", 3) == LD_OK &&
              ld_skein512_final(&ctx, out) == LD_OK &&
              ld_skein512(256, NULL, 0, "abc", 24, want) == LD_OK && memcmp(out, want, 32) == 0,
          "skein: a sound context still hashes");
    check(ld_skein512_final(&ctx, out) == LD_ERR_STATE && ld_skein512_digest_size(&ctx) == 32,
          "skein: a finished context is refused, its digest size still known");
}

/* ld_md_update(ctx, NULL, 0) with a partial block buffered: LD_OK, the message unchanged (it
 * computed NULL + 0, undefined in C99, which only some UBSan versions report: this checks
 * what can be seen, the sanitizer build what it can). The scheduler's NULL data of length 0
 * is in test_sched_exec.c (through its executor). */
static void md_null_zero_length(void)
{
    uint8_t want[LD_MD_MAX_DIGEST_SIZE], got[LD_MD_MAX_DIGEST_SIZE];
    ld_md_ctx ctx;
    int alg;

    for (alg = 0; alg < LD_ALG_COUNT; alg++) {
        size_t ds = ld_md_digest_size(alg);
        ld_md(alg, "abc", 3, want);
        ld_md_init(&ctx, alg);
        check(ld_md_update(&ctx, NULL, 0) == LD_OK, "md update: NULL, 0 on an empty buffer");
        check(ld_md_update(&ctx, "ab", 2) == LD_OK && ld_md_update(&ctx, NULL, 0) == LD_OK &&
                  ctx.buflen == 2 && ctx.total == 2,
              "md update: NULL, 0 with a partial block buffered");
        check(ld_md_update(&ctx, "c", 1) == LD_OK && ld_md_final(&ctx, got) == LD_OK &&
                  memcmp(got, want, ds) == 0,
              "md update: NULL, 0 leaves the message as it was");
        check(ld_md_update(&ctx, NULL, 0) == LD_ERR_STATE, "md update: NULL, 0 after final");
        ld_md(alg, "", 0, want);
        check(ld_md(alg, NULL, 0, got) == LD_OK && memcmp(got, want, ds) == 0,
              "md one-shot: NULL, 0");
    }
}

/* ld_md_pad checks every argument before it writes: a tail longer than the message or than a
 * block, a tail that is not the message's last total % block size bytes, a length its length
 * field cannot hold; a refused call writes nothing */
static void pad_checks(void)
{
    static const struct {
        size_t tail_len;
        uint64_t total;
        size_t bs;
        int null_tail;
    } bad[] = {
        {5, 3, 64, 0}, /* a tail longer than the message */
        {1, 0, 128, 0},
        {64, 64, 64, 0}, /* a tail of a whole block */
        {128, 128, 128, 0},
        {3, 3, 32, 0},                       /* no such block size */
        {3, ((uint64_t)1 << 61) + 3, 64, 0}, /* 2^64 bits: past a 64-bit length field */
        {0, UINT64_MAX - 63, 64, 0},
        {3, 3, 64, 1}, /* tail bytes without a tail */
        /* a tail_len one more or one less than total % block size: not the message's tail */
        {11, 1000 * 64 + 10, 64, 0},
        {9, 1000 * 64 + 10, 64, 0},
        {101, 3 * 128 + 100, 128, 0},
        {99, 3 * 128 + 100, 128, 0},
        {1, 5 * 64, 64, 0}, /* total % 64 == 0 */
        {63, 5 * 64, 64, 0},
        {0, 2 * 128 + 127, 128, 0}, /* total % 128 == 127 */
        {126, 2 * 128 + 127, 128, 0},
    };
    uint8_t out[2 * LD_MD_MAX_BLOCK_SIZE + 16], tail[LD_MD_MAX_BLOCK_SIZE];
    size_t i, n;

    for (i = 0; i < sizeof tail; i++)
        tail[i] = (uint8_t)(i + 1);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(out, FILL, sizeof out);
        n = ld_md_pad(out, bad[i].null_tail ? NULL : tail, bad[i].tail_len, bad[i].total,
                      bad[i].bs);
        check(n == 0, "md_pad: bad arguments refused");
        check(untouched(out, sizeof out), "md_pad: nothing written when refused");
    }
    check(ld_md_pad(NULL, tail, 3, 3, 64) == 0, "md_pad: NULL out refused");
    /* the longest messages whose length is encoded: 2^64 - 8 bits in 64 bits; 2^67 - 8 bits in
     * 128 bits */
    memset(out, FILL, sizeof out);
    n = ld_md_pad(out, tail, 63, ((uint64_t)1 << 61) - 1, 64);
    check(n == 128 && memcmp(out, tail, 63) == 0 && out[63] == 0x80 && out[119] == 0 &&
              out[120] == 0xFF && out[126] == 0xFF && out[127] == 0xF8 && untouched(out + 128, 16),
          "md_pad: 2^61 - 1 bytes, 64-bit length field");
    memset(out, FILL, sizeof out);
    n = ld_md_pad(out, tail, 127, UINT64_MAX, 128);
    check(n == 256 && out[127] == 0x80 && out[239] == 0 && out[240] == 0 && out[247] == 7 &&
              out[248] == 0xFF && out[255] == 0xF8 && untouched(out + 256, 16),
          "md_pad: 2^64 - 1 bytes, 128-bit length field");
}

/* ld_sched_complete with a positive result (1 is the scheduler's own "pending"): refused, -1,
 * the job still outstanding and the message unchanged; error codes end the message */
static void sched_complete_result(void)
{
    static ld_sched_slot slots[1];
    static const int positive[] = {1, 2, INT_MAX};
    ld_sched_msg msgs[1];
    ld_sched_job job;
    ld_sched s;
    uint8_t data[10] = {0}, out[32];
    size_t i;
    int before;

    msgs[0].data = data;
    msgs[0].len = sizeof data;
    msgs[0].alg = LD_ALG_SHA256;
    msgs[0].out = out;
    check(ld_sched_init(&s, msgs, 1, slots, 1, 1) == LD_OK, "sched init");
    check(ld_sched_next(&s, &job) == LD_SCHED_JOB && job.last, "sched: the message's one job");
    before = msgs[0].result;
    for (i = 0; i < sizeof positive / sizeof positive[0]; i++)
        check(ld_sched_complete(&s, 0, positive[i]) == -1 && msgs[0].result == before,
              "sched complete: a positive result is refused, the message unchanged");
    check(ld_sched_next(&s, &job) == LD_SCHED_WAIT,
          "sched complete: the refused job is still outstanding");
    check(ld_sched_complete(&s, 0, LD_ERR_HW) == 0 && msgs[0].result == LD_ERR_HW,
          "sched complete: an error code ends the message with it");
    check(ld_sched_next(&s, &job) == LD_SCHED_DONE, "sched: all finished");
    check(ld_sched_complete(NULL, 0, LD_OK) == -1 && ld_sched_complete(&s, 0, LD_OK) == -1,
          "sched complete: NULL scheduler, nothing outstanding");
}

/* ld_sched_next's bad arguments are told apart from "all messages finished" */
static void sched_next_bad_args(void)
{
    static ld_sched_slot slots[1];
    ld_sched_job job;
    ld_sched s;

    check(LD_SCHED_BAD_ARG < 0 && LD_SCHED_BAD_ARG != LD_SCHED_DONE && LD_SCHED_DONE == -1 &&
              LD_SCHED_WAIT == 0 && LD_SCHED_JOB == 1,
          "sched next: the documented results");
    check(ld_sched_next(NULL, &job) == LD_SCHED_BAD_ARG, "sched next: NULL scheduler");
    check(ld_sched_init(&s, NULL, 0, slots, 1, 0) == LD_OK, "sched init: no messages");
    check(ld_sched_next(&s, NULL) == LD_SCHED_BAD_ARG, "sched next: NULL job");
    check(ld_sched_next(&s, &job) == LD_SCHED_DONE, "sched next: no messages, all finished");
}

/* Message lengths past an algorithm's limit are refused by update (LD_ERR_ARG, the context as
 * it was) before anything wraps or is read: SHA-1/SHA-224/SHA-256 under 2^61 bytes (2^64 - 1
 * bits), the SHA-512 family at this library's 64-bit byte count (2^64 - 1 bytes). The byte
 * counter is set from outside (ld_md_ctx is public): nobody hashes 2^61 bytes here. */
static void md_length_limits(void)
{
    static const int algs64[] = {LD_ALG_SHA1, LD_ALG_SHA256, LD_ALG_SHA224};
    static const int algs128[] = {LD_ALG_SHA512, LD_ALG_SHA384, LD_ALG_SHA512_224,
                                  LD_ALG_SHA512_256};
    const uint64_t lim64 = ((uint64_t)1 << 61) - 1;
    uint8_t msg[128], d1[LD_MD_MAX_DIGEST_SIZE], d2[LD_MD_MAX_DIGEST_SIZE], blk[128];
    uint32_t state[8];
    ld_md_ctx ctx, ctx2;
    size_t i;

    for (i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(3 * i);
    for (i = 0; i < sizeof algs64 / sizeof algs64[0]; i++) {
        ld_md_init(&ctx, algs64[i]);
        ctx.total = lim64 - 63; /* as if 2^61 - 64 bytes had been hashed */
        check(ld_md_update(&ctx, msg, 63) == LD_OK, "md update: up to 2^61 - 1 bytes");
        ld_md_copy(&ctx2, &ctx);
        check(ld_md_update(&ctx, msg, 1) == LD_ERR_ARG, "md update: past 2^61 - 1 bytes refused");
        check(ld_md_update(&ctx, msg, SIZE_MAX) == LD_ERR_ARG,
              "md update: a huge length refused unread");
        check(ctx.total == lim64 && ctx.buflen == 63,
              "md update: a refused update changes nothing");
        check(ld_md_final(&ctx, d1) == LD_OK && ld_md_final(&ctx2, d2) == LD_OK &&
                  memcmp(d1, d2, ld_md_digest_size(algs64[i])) == 0,
              "md final: at the limit");
        /* a count past the limit (no update makes one) is an inconsistent context */
        ld_md_init(&ctx, algs64[i]);
        ctx.total = UINT64_MAX - 9;
        check(ld_md_update(&ctx, msg, 20) == LD_ERR_STATE && ld_md_final(&ctx, d1) == LD_ERR_STATE,
              "md: a count past the limit is refused (it wrapped before)");
    }
    /* SHA-256 at the limit, against the compression function run by hand: the tail, 0x80, then
     * a block of zeros ending in the bit length 2^64 - 8 */
    ld_md_init(&ctx, LD_ALG_SHA256);
    ctx.total = lim64 - 63;
    memcpy(state, ctx.state.w32, sizeof state);
    ld_md_update(&ctx, msg, 63);
    ld_md_final(&ctx, d1);
    memcpy(blk, msg, 63);
    blk[63] = 0x80;
    memset(blk + 64, 0, 56);
    memset(blk + 120, 0xFF, 7);
    blk[127] = 0xF8;
    ld_sha256_compress(state, blk, 2);
    for (i = 0; i < 32; i++)
        d2[i] = (uint8_t)(state[i / 4] >> (24 - 8 * (i % 4)));
    check(memcmp(d1, d2, 32) == 0, "sha256 final: the bit length 2^64 - 8");
    for (i = 0; i < sizeof algs128 / sizeof algs128[0]; i++) {
        ld_md_init(&ctx, algs128[i]);
        ctx.total = UINT64_MAX - 127;
        check(ld_md_update(&ctx, msg, 127) == LD_OK, "md update: up to 2^64 - 1 bytes");
        check(ld_md_update(&ctx, msg, 1) == LD_ERR_ARG && ctx.total == UINT64_MAX &&
                  ctx.buflen == 127,
              "md update: past 2^64 - 1 bytes refused (it wrapped to 0 before)");
        check(ld_md_final(&ctx, d1) == LD_OK, "md final: 2^64 - 1 bytes");
    }
#if SIZE_MAX > 0xFFFFFFFFu
    {
        /* the scheduler: a SHA-256 message too long for its length field is a bad message
         * (init reads no data); a SHA-512 one of the same length is not */
        static ld_sched_slot slots[1];
        ld_sched_msg m[2];
        ld_sched s;

        m[0].data = m[1].data = msg;
        m[0].len = m[1].len = (size_t)1 << 61;
        m[0].alg = LD_ALG_SHA256;
        m[1].alg = LD_ALG_SHA512;
        m[0].out = m[1].out = d1;
        check(ld_sched_init(&s, m, 2, slots, 1, 0) == LD_OK && m[0].result == LD_ERR_ARG &&
                  m[1].result != LD_ERR_ARG,
              "sched init: a SHA-256 message of 2^61 bytes is refused");
    }
#endif
}

int main(int argc, char **argv)
{
    static const test_group groups[] = {
        {"skein_null_bits", skein_null_bits},
        {"skein_bad_context", skein_bad_context},
        {"md_null_zero_length", md_null_zero_length},
        {"pad_checks", pad_checks},
        {"sched_complete_result", sched_complete_result},
        {"sched_next_bad_args", sched_next_bad_args},
        {"md_length_limits", md_length_limits},
    };
    return run_groups(groups, sizeof groups / sizeof groups[0], argc, argv);
}
