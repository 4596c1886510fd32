/* LiteDigest C library: common definitions (error codes). Portable C99, no allocation. */
#ifndef LITEDIGEST_LD_COMMON_H
#define LITEDIGEST_LD_COMMON_H

#ifdef __cplusplus
extern "C" {
#endif

#define LD_OK           0   /* success */
#define LD_ERR_ARG     (-1) /* bad argument, length or variant */
#define LD_ERR_STATE   (-2) /* wrong call order: update after final, final twice, ... */
#define LD_ERR_TIMEOUT (-3) /* the peripheral did not finish within timeout_polls polls */
#define LD_ERR_HW      (-4) /* the peripheral reported an error bit */
#define LD_ERR_RANGE   (-5) /* DMA address/length not usable (buffer outside main RAM) */

/* Variants of the SHA-256 family (same numbering as the peripheral's ctrl.variant bit). */
#define LD_SHA256 0
#define LD_SHA224 1

/* A short constant English description of an LD_* code ("unknown error" otherwise). */
const char *ld_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif
