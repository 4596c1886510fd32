/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest C library: build-time configuration.
 *
 * Every choice is a macro with a default here; a build changes it with -D (the Makefile's,
 * CMake's and Meson's options do that, and the installed pkg-config file and CMake target
 * hand the same -D to the code that uses the library), or collects its choices in a header
 * of its own named by LD_CONFIG_FILE (-DLD_CONFIG_FILE='"my_ld_config.h"'), read first.
 * The library and the code that includes its headers must see the same configuration.
 *
 * LD_CONFIG_SHA1, LD_CONFIG_SHA256, LD_CONFIG_SHA512, LD_CONFIG_SKEIN512 (default 1 each; one
 *   per family of the engine catalogue, their defaults in the generated ld_catalog.h):
 *   the algorithm families the library has (SHA256 brings SHA-224; SHA512 brings SHA-384,
 *   SHA-512/224 and SHA-512/256). A family set to 0 is not compiled in: its software hash
 *   and its compression function are left out, ld_md_init/ld_hw_md_init/ld_sched_init refuse
 *   its algorithms with LD_ERR_ARG, and (Skein-512) the ld_skein512_* functions are absent.
 *   At least one family must be on.
 * LD_CONFIG_HAL_INLINE (default 0): the peripheral driver reads and writes registers with
 *   volatile 32-bit loads and stores at their addresses (a CPU that reaches the peripheral
 *   through its own memory map: the SoC's CPU, a MicroBlaze, a Cortex on the AXI bus) instead
 *   of calling ld_hw_dev.read32/write32; those pointers may then be NULL. Smaller and faster;
 *   0 keeps the HAL pluggable (a bus bridge, a simulator, tracing).
 * LD_CONFIG_HOST (default 0): build for a host that reaches the peripheral from outside the
 *   SoC -- a PC across the simulator's bridge, or Linux on the Zynq's ARM through a mapped
 *   register window (the Python package's cffi build sets it). It adds what such a host needs
 *   and firmware does not: DMA staging (the DMA cannot read the host's memory, so the driver
 *   copies each job's blocks into a staging area with ld_hw_dev.dma_write), contexts that
 *   share one peripheral (LD_HW_SHARED: the chaining value lives in the context between
 *   calls), and compression hooks (ld_md_init_hook, ld_skein512_init_hook: the padding and
 *   Skein's UBI sequence of this library around a compression function supplied by the
 *   caller, e.g. an engine in a simulator). It changes ld_hw_dev's layout.
 * LD_CONFIG_LOST_JOBS (default LD_CONFIG_HOST): the driver's waits also see a job that
 *   vanished -- neither running nor done, the peripheral reset under it -- and report it as
 *   LD_ERR_HW at once instead of after the wait's bound (ld_hw_poll_jobs in ld_hw.h). That
 *   happens to a host whose CPU survives the peripheral's reset (the PC across the bridge,
 *   Linux on the Zynq's ARM); a soft CPU in the FPGA is reset with the peripheral, so the
 *   firmware build leaves the check out and its waits stay the bare loops they were.
 * LD_CONFIG_LOCK (default 0): several tasks (an RTOS's, or a main loop and an interrupt
 *   handler) share one peripheral: ld_hw_dev gains lock/unlock hooks (ld_hw.h) that every
 *   driver call touching the peripheral takes around its work, and a streaming context (whose
 *   chaining value stays in the peripheral's slot 0 between calls) takes at init and gives at
 *   final or when it fails. The library's own calls inside one call do not take it again.
 *   It changes ld_hw_dev's layout.
 * LD_CONFIG_PROFILE (default 0): the driver calls ld_profile_mark(LD_PROF_*) (ld_hw.h), which
 *   the application supplies, at the boundaries of a call's phases (context set up, padding,
 *   job started, job done, acknowledged, digest read): the profile firmware times them.
 * With every default the firmware build is exactly what it was before these choices existed.
 */
#ifndef LITEDIGEST_LD_CONFIG_H
#define LITEDIGEST_LD_CONFIG_H

#ifdef LD_CONFIG_FILE
#include LD_CONFIG_FILE
#endif

#ifndef LD_CONFIG_HAL_INLINE
#define LD_CONFIG_HAL_INLINE 0
#endif
#ifndef LD_CONFIG_HOST
#define LD_CONFIG_HOST 0
#endif
#ifndef LD_CONFIG_PROFILE
#define LD_CONFIG_PROFILE 0
#endif

#ifndef LD_CONFIG_LOCK
#define LD_CONFIG_LOCK 0
#endif
#ifndef LD_CONFIG_LOST_JOBS
#define LD_CONFIG_LOST_JOBS LD_CONFIG_HOST
#endif
#if LD_CONFIG_HOST && LD_CONFIG_HAL_INLINE
#error                                                                                             \
    "LiteDigest: LD_CONFIG_HOST reaches the registers through ld_hw_dev's HAL; LD_CONFIG_HAL_INLINE is for a CPU on the peripheral's bus"
#endif

#endif
