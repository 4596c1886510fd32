/* SPDX-License-Identifier: BSD-2-Clause */
/* The fuzz targets' shared pieces (each target is one translation unit that includes this):
 * reading the fuzzer's input as a stream of small fields (past its end every field reads 0, so
 * every input is a valid one), and the check that stops the run on a finding: the message on
 * stderr, then abort(), which libFuzzer reports as a crash and saves the input for. */
#ifndef LD_FUZZ_INPUT_H
#define LD_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint16_t fz_u16(fz_in *in)
{
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)fz_u8(in) << 8);
}

static inline uint64_t fz_u64(fz_in *in)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++)
        v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

/* What a buffer holds where a call may write nothing (a canary), and the check that it did not */
#define FZ_FILL 0xEE

static inline int fz_untouched(const uint8_t *p, size_t n)
{
    while (n--)
        if (*p++ != FZ_FILL)
            return 0;
    return 1;
}

/* A finding: say what and where (the input is what libFuzzer saves), then stop. */
#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "LD_FUZZ MISMATCH at %s:%d: ", __FILE__, __LINE__);                    \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The two digests of a mismatch in hex on stderr, a line each, below the caller's line that
 * says which input gave them */
static inline void fz_put_digests(const uint8_t *got, const uint8_t *want, size_t n)
{
    size_t i;
    fprintf(stderr, "  got  ");
    for (i = 0; i < n; i++)
        fprintf(stderr, "%02x", got[i]);
    fprintf(stderr, "\n  want ");
    for (i = 0; i < n; i++)
        fprintf(stderr, "%02x", want[i]);
    fprintf(stderr, "\n");
}

#endif
