/* Bit positions of the hash peripheral's ctrl/status/info fields (soc/REGISTERS.md).
 *
 * Every instance (sha1, sha256, sha512, sha256_opt_p4, ...) has its fields at the same
 * positions, so one driver serves them all; the SoC exports them too (csr.h
 * CSR_<INSTANCE>_CTRL_<FIELD>_OFFSET) and the tests check that the two agree.
 */
#ifndef LITEDIGEST_LD_HW_REGS_H
#define LITEDIGEST_LD_HW_REGS_H

#define LD_CTRL_START      (1u << 0)
#define LD_CTRL_DMA_START  (1u << 1)
#define LD_CTRL_FIRST      (1u << 2)
#define LD_CTRL_LAST       (1u << 3)
#define LD_CTRL_HOLD       (1u << 4)
#define LD_CTRL_LOAD_CV    (1u << 5)
#define LD_CTRL_ACK        (1u << 6)
#define LD_CTRL_TAIL       (1u << 7)
#define LD_CTRL_OUT        (1u << 12)  /* Skein, DMA: then the output UBI's first block */
#define LD_CTRL_VARIANT_BIT 8
#define LD_CTRL_VARIANT_MASK (0xfu << LD_CTRL_VARIANT_BIT)
#define LD_CTRL_VARIANT_VAL(v) (((uint32_t)(v) << LD_CTRL_VARIANT_BIT) & LD_CTRL_VARIANT_MASK)
#define LD_CTRL_SLOT_BIT   16
#define LD_CTRL_SLOT_MASK  (0xffu << LD_CTRL_SLOT_BIT)
#define LD_CTRL_SLOT_VAL(s) (((uint32_t)(s) << LD_CTRL_SLOT_BIT) & LD_CTRL_SLOT_MASK)

#define LD_STATUS_BUSY      (1u << 0)
#define LD_STATUS_DONE      (1u << 1)
#define LD_STATUS_ERR_LEN   (1u << 2)
#define LD_STATUS_ERR_ADDR  (1u << 3)
#define LD_STATUS_ERR_STATE (1u << 4)
#define LD_STATUS_ERR_BUS   (1u << 5)
#define LD_STATUS_ERRORS (LD_STATUS_ERR_LEN | LD_STATUS_ERR_ADDR | LD_STATUS_ERR_STATE | LD_STATUS_ERR_BUS)
#define LD_STATUS_WORDS(s) (((s) >> 8) & 0xffu)

#define LD_INFO_LATENCY(i)    ((i) & 0xffu)
#define LD_INFO_STAGES(i)     (((i) >> 8) & 0xffu)
#define LD_INFO_ARCH(i)       (((i) >> 16) & 0xfu)
#define LD_INFO_ALIGN_LOG2(i) (((i) >> 20) & 0xfu)
#define LD_INFO_SLOTS(i)      (((i) >> 24) & 0xffu)

/* info.arch: the engine's architecture (soc/peripheral.py ARCH_CODES) */
#define LD_ARCH_BASE     0
#define LD_ARCH_OPT      1
#define LD_ARCH_K5       2
#define LD_ARCH_SKEIN_R1 3   /* Skein-512, 1/4/8 rounds per cycle (with any pipeline) */
#define LD_ARCH_SKEIN_R4 4
#define LD_ARCH_SKEIN_R8 5

#endif
