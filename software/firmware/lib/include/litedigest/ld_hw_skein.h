/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: Skein-512 on a Skein peripheral (ld_hw.h's driver), behind the
 * software's context (ld_skein.h): ld_hw_skein512_init sets a context up on the peripheral,
 * and ld_skein512_update/_update_bits/_final then run its UBIs there.
 */
#ifndef LITEDIGEST_LD_HW_SKEIN_H
#define LITEDIGEST_LD_HW_SKEIN_H

#include "ld_types.h"
#include "ld_common.h"
#include "ld_hw.h"
#include "ld_skein.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ld_skein512_init on a peripheral (CSR or DMA path): it also runs the key and configuration
 * UBIs there (LD_ERR_TIMEOUT / LD_ERR_HW possible) and requires a Skein device (dev->family
 * LD_FAMILY_SKEIN512 with tweak registers). */
int ld_hw_skein512_init(ld_skein512_ctx *ctx, const ld_hw_dev *dev, int path, size_t out_bits,
                        const uint8_t *key, size_t keylen);
/* one-shot on a peripheral. DMA path: a plain hash of a configured output size (no key,
 * whole bytes) of a message the DMA can read, on a peripheral with hardware padding, is one
 * job that the peripheral pads and ends with the output block (ctrl.pad, ctrl.out); otherwise
 * the message's blocks and its final block go as one job (the final block from the context's
 * aligned buffer as the tail segment) and the output UBI follows. */
int ld_hw_skein512(const ld_hw_dev *dev, int path, size_t out_bits, const uint8_t *key,
                   size_t keylen, const void *data, size_t nbits, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
