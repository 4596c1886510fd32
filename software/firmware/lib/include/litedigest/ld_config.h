/* LiteDigest C library: build-time configuration.
 *
 * LD_CONFIG_HOST (default 0): build for a host that reaches the peripheral from outside the
 * SoC -- a PC across the simulator's bridge, or Linux on the Zynq's ARM through a mapped
 * register window (the Python package's cffi build sets it). It adds what such a host needs
 * and firmware does not: DMA staging (the DMA cannot read the host's memory, so the driver
 * copies each job's blocks into a staging area with ld_hw_dev.dma_write), contexts that share
 * one peripheral (LD_HW_SHARED: the chaining value lives in the context between calls), and
 * compression hooks (ld_md_init_hook, ld_skein512_init_hook: the padding and Skein's UBI
 * sequence of this library around a compression function supplied by the caller, e.g. an
 * engine in a simulator). With 0 the firmware build is exactly what it was without them.
 */
#ifndef LITEDIGEST_LD_CONFIG_H
#define LITEDIGEST_LD_CONFIG_H

#ifndef LD_CONFIG_HOST
#define LD_CONFIG_HOST 0
#endif

#endif
