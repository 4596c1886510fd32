/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz target: ld_md_pad (ld_pad.h), the FIPS 180-4 padding of a message's final partial block.
 *
 * Input: the block size (64, 128, or one that must be refused: 0, 1, 32, 63, 65, 127, 129,
 * 256, SIZE_MAX), the total length (small; near 2^61 bytes, the 2^64-bit limit of 64-byte
 * blocks; near 2^64 bytes, this library's limit for 128-byte blocks, whose 128-bit field would
 * hold up to 2^128 - 1 bits; near other powers of two; or any 64-bit value), the tail length
 * (the consistent total % block size, or any byte), a NULL tail or out now and then, and the
 * tail's bytes.
 * Checks, independently of the library: the call is refused (0, and the canaried output
 * untouched) exactly when an argument breaks the header's rules (out NULL, a block size other
 * than 64/128, tail_len >= block size or > total, a tail_len that is not total % block size,
 * a NULL tail with tail_len > 0, a total past the block size's limit: 2^61 - 1 bytes for 64,
 * 2^64 - 1 for 128); otherwise the output is tail || 0x80 || zeros || the big-endian bit
 * length (8 * total, as 64 or 128 bits), one block when the 0x80 and the length field fit
 * after the tail and two otherwise, whole blocks of the message, nothing written past it.
 */
#include "fuzz_input.h"
#include "litedigest/ld_pad.h"

#define OUT_ROOM (2 * 256 + 32)

static uint64_t pick_total(fz_in *in)
{
    uint8_t mode = fz_u8(in) % 6;
    int8_t delta = (int8_t)fz_u8(in);

    switch (mode) {
    case 0:
        return fz_u16(in); /* a message one could hash */
    case 1:
        return ((uint64_t)1 << 61) + (uint64_t)(int64_t)delta; /* 2^64 bits, 64-bit field */
    case 2:
        return UINT64_MAX - fz_u8(in); /* 2^64 bytes: the 128-bit field */
    case 3:
        return ((uint64_t)1 << (fz_u8(in) % 64)) + (uint64_t)(int64_t)delta;
    case 4:
        return ((uint64_t)1 << 61) - 1 - fz_u8(in) * (uint64_t)64; /* the longest, 64-byte blocks */
    default:
        return fz_u64(in);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t BAD_BS[] = {0, 1, 32, 63, 65, 127, 129, 256, SIZE_MAX};
    fz_in in = {data, size};
    uint8_t out_room[OUT_ROOM], tail_buf[256], want[2 * 128];
    uint8_t flags = fz_u8(&in), bsel = fz_u8(&in), tsel;
    size_t bs, tail_len, n, lenbytes, want_n, i;
    uint64_t total, limit;
    const uint8_t *tail;
    uint8_t *out;
    int valid;

    bs = (bsel & 3) == 3 ? BAD_BS[(bsel >> 2) % (sizeof BAD_BS / sizeof BAD_BS[0])]
         : (bsel & 1)    ? 128
                         : 64;
    total = pick_total(&in);
    tsel = fz_u8(&in);
    if (tsel & 0x80) /* any length */
        tail_len = fz_u8(&in);
    else /* the message's own tail */
        tail_len = (size_t)(total % (bs == 64 || bs == 128 ? bs : 64));
    for (i = 0; i < sizeof tail_buf; i++)
        tail_buf[i] = i < in.n ? in.p[i] : (uint8_t)(0x80 ^ i); /* 0x80s and zeros among them */
    tail = (flags & 7) == 1 ? NULL : tail_buf;
    out = (flags & 7) == 2 ? NULL : out_room;

    limit = bs == 64 ? ((uint64_t)1 << 61) - 1 : UINT64_MAX;
    valid = out != NULL && (bs == 64 || bs == 128) && tail_len < bs && tail_len <= total &&
            tail_len == total % bs && (tail_len == 0 || tail != NULL) && total <= limit;

    memset(out_room, FZ_FILL, sizeof out_room);
    n = ld_md_pad(out, tail, tail_len, total, bs);
    if (!valid) {
        FZ_CHECK(n == 0, "refuses bs %zu tail_len %zu total %llu tail %s out %s: returned %zu", bs,
                 tail_len, (unsigned long long)total, tail ? "set" : "NULL", out ? "set" : "NULL",
                 n);
        FZ_CHECK(fz_untouched(out_room, sizeof out_room),
                 "a refused call wrote (bs %zu tail_len %zu total %llu)", bs, tail_len,
                 (unsigned long long)total);
        return 0;
    }
    /* the padding, built here */
    lenbytes = bs / 8;
    want_n = tail_len + 1 + lenbytes <= bs ? bs : 2 * bs;
    memset(want, 0, sizeof want);
    if (tail_len)
        memcpy(want, tail, tail_len);
    want[tail_len] = 0x80;
    for (i = 0; i < lenbytes; i++) {   /* 8 * total as a lenbytes-byte big-endian number */
        unsigned sh = 8 * (unsigned)i; /* bit offset of byte want_n - 1 - i */
        uint8_t b;
        if (sh < 64)
            b = (uint8_t)((total << 3) >> sh); /* the low 64 bits of 8 * total */
        else if (sh < 128)
            b = (uint8_t)((total >> 61) >> (sh - 64)); /* its bits 64..66 */
        else
            b = 0;
        want[want_n - 1 - i] = b;
    }
    if (bs == 64)
        FZ_CHECK(total >> 61 == 0, "a 64-byte-block total under 2^61 bytes");
    FZ_CHECK(n == want_n, "bs %zu tail_len %zu total %llu: %zu bytes, want %zu", bs, tail_len,
             (unsigned long long)total, n, want_n);
    FZ_CHECK(n % bs == 0 && (total - tail_len + n) % bs == 0, "whole blocks");
    for (i = 0; i < n; i++)
        FZ_CHECK(out_room[i] == want[i],
                 "bs %zu tail_len %zu total %llu: byte %zu is %02x, want %02x", bs, tail_len,
                 (unsigned long long)total, i, out_room[i], want[i]);
    FZ_CHECK(fz_untouched(out_room + n, sizeof out_room - n), "wrote past %zu bytes", n);
    return 0;
}
