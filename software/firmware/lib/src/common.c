/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: error strings, wiping secrets. */
#include "ld_sw_internal.h"

/* Zeroes n bytes with volatile stores: the buffers wiped here are dead afterwards (a stack
 * array about to go out of scope, a context about to be refused), so the compiler could drop
 * a plain memset or ld_zero as a dead store. Words where aligned (a write-through data cache
 * makes every store a bus write). */
void ld_wipe(void *p, size_t n)
{
    volatile uint8_t *b = (volatile uint8_t *)p;

    while (n && ((uintptr_t)b & 3u)) {
        *b++ = 0;
        n--;
    }
    for (; n >= 4; n -= 4, b += 4)
        *(volatile ld_word_alias *)(volatile void *)b = 0;
    while (n--)
        *b++ = 0;
}

const char *ld_strerror(int err)
{
    switch (err) {
    case LD_OK:
        return "ok";
    case LD_ERR_ARG:
        return "bad argument";
    case LD_ERR_STATE:
        return "wrong call order";
    case LD_ERR_TIMEOUT:
        return "peripheral timeout";
    case LD_ERR_HW:
        return "peripheral reported an error";
    case LD_ERR_RANGE:
        return "DMA address/length not usable";
    case LD_ERR_MISMATCH:
        return "MAC mismatch";
    default:
        return "unknown error";
    }
}
