/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: integer types. <stddef.h>/<stdint.h> normally; a bare cross compiler
 * without any C library (e.g. riscv64-unknown-elf-gcc alone, whose <stdint.h> wraps a libc
 * one unless -ffreestanding) falls back to GCC's own <stdint-gcc.h>. */
#ifndef LITEDIGEST_LD_TYPES_H
#define LITEDIGEST_LD_TYPES_H

#include <stddef.h>
#if defined(__has_include)
#if !__has_include(<stdlib.h>) && __has_include(<stdint-gcc.h>)
#include <stdint-gcc.h>
#else
#include <stdint.h>
#endif
#else
#include <stdint.h>
#endif

#endif
