/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: the whole public API in one include (`#include <litedigest/litedigest.h>`).
 * Software hashes: ld_md.h (every Merkle-Damgard algorithm), ld_sha1.h, ld_sha256.h,
 * ld_sha512.h, ld_skein.h, ld_hmac.h, ld_pad.h. The driver of the hash peripherals: ld_hw.h,
 * ld_hw_skein.h, ld_hw_hmac.h, the message scheduler ld_sched.h. Each header may also be
 * included alone. */
#ifndef LITEDIGEST_LITEDIGEST_H
#define LITEDIGEST_LITEDIGEST_H

#include "ld_config.h"
#include "ld_types.h"
#include "ld_common.h"
#include "ld_catalog.h"
#include "ld_md.h"
#include "ld_pad.h"
#include "ld_sha1.h"
#include "ld_sha256.h"
#include "ld_sha512.h"
#include "ld_skein.h"
#include "ld_hmac.h"
#include "ld_hw_regs.h"
#include "ld_hw.h"
#include "ld_hw_skein.h"
#include "ld_hw_hmac.h"
#include "ld_sched.h"

#endif
