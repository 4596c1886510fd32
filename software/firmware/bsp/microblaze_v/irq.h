/* SPDX-License-Identifier: BSD-2-Clause */
/* <irq.h> of the MicroBlaze V BSP (reached through LiteX's include/irq.h, #include_next): the
 * LiteX interrupt API on the design's AXI interrupt controller (axi_intc_0 at MBV_INTC_BASE,
 * PG099), whose input i is the peripheral with csr.json constant <instance>_interrupt == i.
 * mstatus.MIE is the global enable; the mask is the controller's IER. LiteX's generic isr()
 * (libbase/isr.c) dispatches irq_pending() & irq_getmask() to the handlers irq_attach()
 * registered. */
#ifndef __IRQ_H
#define __IRQ_H

#include <stdint.h>

#include <system.h>
#include <generated/soc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MBV_INTC_ISR      0x00 /* status (latched) */
#define MBV_INTC_IPR      0x04 /* pending: ISR & IER */
#define MBV_INTC_IER      0x08 /* enable */
#define MBV_INTC_IAR      0x0c /* acknowledge */
#define MBV_INTC_MER      0x1c /* master enable (crt0.S sets ME | HIE) */
#define MBV_INTC_REG(off) (*(volatile uint32_t *)(MBV_INTC_BASE + (off)))

static inline unsigned int irq_getie(void)
{
    return (csrr(mstatus) & CSR_MSTATUS_MIE) != 0;
}

static inline void irq_setie(unsigned int ie)
{
    if (ie)
        csrs(mstatus, CSR_MSTATUS_MIE);
    else
        csrc(mstatus, CSR_MSTATUS_MIE);
}

static inline unsigned int irq_getmask(void)
{
    return MBV_INTC_REG(MBV_INTC_IER);
}

static inline void irq_setmask(unsigned int mask)
{
    MBV_INTC_REG(MBV_INTC_IER) = mask;
}

/* The pending inputs, acknowledged as they are read: the peripherals' lines are level
 * sensitive, so an input whose handler has not dropped it yet is latched again (one more
 * trap, in which its handler finds nothing to do). */
static inline unsigned int irq_pending(void)
{
    unsigned int pending = MBV_INTC_REG(MBV_INTC_IPR);

    MBV_INTC_REG(MBV_INTC_IAR) = pending;
    return pending;
}

#ifdef __cplusplus
}
#endif

#endif /* __IRQ_H */
