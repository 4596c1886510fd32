/* SPDX-License-Identifier: BSD-2-Clause */
/* The irq app's lean interrupt path (VexRiscv, LiteX): a machine trap vector that takes the
 * sha256 peripheral's interrupt in two registers and sends every other trap on to LiteX's
 * trap_entry (which saves the sixteen caller-saved registers and calls isr(): each save is a
 * bus write through the write-through data cache, and isr() and its handler table are code
 * and data outside the timed block). It does what the app's C handler does but the end
 * stamp (a register write and read, as dear as the acknowledge): stamps the peripheral's
 * counter at its entry, acknowledges the pending events (LiteX EventManager: write 1 to
 * clear) and, when one was `done` or `batch`, counts the interrupt and sets `fired` for the
 * waits. The addresses and the interrupt's mask are words main.c
 * sets (its struct trap_words, read at the offsets below), so this file needs no generated
 * header. */
#include <csr-defs.h>

/* main.c's struct trap_words */
#define TW_IRQ_MASK   0
#define TW_LATCH      4
#define TW_VALUE_LO   8
#define TW_EV_PENDING 12
#define TW_IRQS       16
#define TW_FIRED      20

    .section .text.hot.app, "ax", @progbits
    .global lean_trap
    .p2align 2
lean_trap:
    sw t0, -4(sp)
    sw t1, -8(sp)
    csrr t0, mcause /* an exception (mcause's top bit clear) is trap_entry's */
    bgez t0, 2f
    csrr t0, CSR_IRQ_PENDING
    lw t1, trap_words + TW_IRQ_MASK
    and t0, t0, t1
    beqz t0, 2f
    lw t0, trap_words + TW_LATCH /* the entry stamp: latch the counter, read its low word */
    li t1, 1
    sw t1, 0(t0)
    lw t0, trap_words + TW_VALUE_LO
    lw t1, 0(t0)
    sw t1, lean_t_entry, t0
    lw t0, trap_words + TW_EV_PENDING /* acknowledge what is pending */
    lw t1, 0(t0)
    sw t1, 0(t0)
    andi t1, t1, 3 /* LD_EV_DONE | LD_EV_BATCH */
    beqz t1, 1f
    lw t1, trap_words + TW_IRQS
    addi t1, t1, 1
    sw t1, trap_words + TW_IRQS, t0
    li t1, 1
    sw t1, trap_words + TW_FIRED, t0
1:
    lw t0, -4(sp)
    lw t1, -8(sp)
    mret
2:  lw t0, -4(sp)
    lw t1, -8(sp)
    j trap_entry
