/* SPDX-License-Identifier: BSD-2-Clause */
/* <system.h> of the MicroBlaze V BSP (the Arty A7 design, soc/targets/arty_a7.py): what the
 * LiteDigest apps and LiteX's headers take from a CPU directory. */
#ifndef __SYSTEM_H
#define __SYSTEM_H

#include <generated/soc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The machine-mode CSR bits used here (RISC-V privileged spec) */
#define CSR_MSTATUS_MIE 0x8
#define CSR_MIE_MEIE    0x800

/* The design's MicroBlaze V has an instruction cache on the DDR range and no data cache
 * (C_USE_DCACHE 0): every load and store goes to DDR over AXI, so the DMA sees the CPU's
 * stores and the CPU sees what the DMA wrote without any maintenance. Both are no-ops; the
 * instruction cache is never stale for these programs (no code is written at run time; the
 * debugger invalidates it when it downloads a program). */
__attribute__((unused)) static void flush_cpu_icache(void)
{
}

__attribute__((unused)) static void flush_cpu_dcache(void)
{
}

#define csrr(reg)                                                                                  \
    ({                                                                                             \
        unsigned long __tmp;                                                                       \
        asm volatile("csrr %0, " #reg : "=r"(__tmp));                                              \
        __tmp;                                                                                     \
    })

#define csrw(reg, val)                                                                             \
    ({                                                                                             \
        if (__builtin_constant_p(val) && (unsigned long)(val) < 32)                                \
            asm volatile("csrw " #reg ", %0" ::"i"(val));                                          \
        else                                                                                       \
            asm volatile("csrw " #reg ", %0" ::"r"(val));                                          \
    })

#define csrs(reg, bit)                                                                             \
    ({                                                                                             \
        if (__builtin_constant_p(bit) && (unsigned long)(bit) < 32)                                \
            asm volatile("csrrs x0, " #reg ", %0" ::"i"(bit));                                     \
        else                                                                                       \
            asm volatile("csrrs x0, " #reg ", %0" ::"r"(bit));                                     \
    })

#define csrc(reg, bit)                                                                             \
    ({                                                                                             \
        if (__builtin_constant_p(bit) && (unsigned long)(bit) < 32)                                \
            asm volatile("csrrc x0, " #reg ", %0" ::"i"(bit));                                     \
        else                                                                                       \
            asm volatile("csrrc x0, " #reg ", %0" ::"r"(bit));                                     \
    })

#ifdef __cplusplus
}
#endif

#endif /* __SYSTEM_H */
