/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: common definitions (error codes). Portable C99, no allocation. */
#ifndef LITEDIGEST_LD_COMMON_H
#define LITEDIGEST_LD_COMMON_H

#include "ld_config.h"
#include "ld_catalog.h" /* family, variant and algorithm ids (generated from the catalogue) */

#ifdef __cplusplus
extern "C" {
#endif

#define LD_OK           0    /* success */
#define LD_ERR_ARG      (-1) /* bad argument, length or variant */
#define LD_ERR_STATE    (-2) /* wrong call order: update after final, final twice, ... */
#define LD_ERR_TIMEOUT  (-3) /* the peripheral did not finish within timeout_polls polls */
#define LD_ERR_HW       (-4) /* the peripheral reported an error bit */
#define LD_ERR_RANGE    (-5) /* DMA address/length not usable (buffer outside main RAM) */
#define LD_ERR_MISMATCH (-6) /* a MAC did not verify (ld_hmac_verify) */

/* The two ways a message reaches a peripheral (ld_hw.h; also the path field of a Skein
 * context, ld_skein.h, which a software context leaves at LD_PATH_CSR) */
#define LD_PATH_CSR 0 /* CPU writes din words, one block per start */
#define LD_PATH_DMA 1 /* the peripheral reads whole blocks from main RAM */

/* The contexts' buffers that the DMA reads (the padded tail, a held-back block) */
#if defined(__GNUC__)
#define LD_DMA_ALIGNED __attribute__((aligned(64)))
#else
#define LD_DMA_ALIGNED /* the driver checks alignment at run time and falls back to CSR */
#endif

/* A short constant English description of an LD_* code ("unknown error" otherwise). */
const char *ld_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif
