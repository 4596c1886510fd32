/* SPDX-License-Identifier: BSD-2-Clause */
/* Start-up code of the LiteDigest firmware apps on the MicroBlaze V of the Arty A7 design
 * (soc/targets/arty_a7.py): the CPU_DIRECTORY crt0 that apps/app.mak assembles in place of a
 * LiteX CPU's. MicroBlaze V is a standard RV32 machine-mode core (here rv32im + Zicsr), so
 * this is the usual sequence: stack, trap vector, .data copy, .bss clear, main().
 *
 * The debugger (xsdb `dow`) loads the ELF into DDR and starts it at _start, the first word
 * of .text (apps/linker.ld puts crt0 first). Interrupts: the AXI interrupt controller
 * (axi_intc_0, MBV_INTC_BASE) drives the core's machine external interrupt; its outputs are
 * enabled here (MER = ME | HIE) and mie.MEIE set, but nothing is taken until a program sets
 * mstatus.MIE (irq_setie(1)) and unmasks an input (irq_setmask, irq.h). */
#include <generated/soc.h>

.global main
.global isr
.global _start

.section .text
_start:
  j crt_init

.balign 4
.global trap_entry
trap_entry:
  addi sp, sp, -16*4
  sw x1,  15*4(sp)
  sw x5,  14*4(sp)
  sw x6,  13*4(sp)
  sw x7,  12*4(sp)
  sw x10, 11*4(sp)
  sw x11, 10*4(sp)
  sw x12,  9*4(sp)
  sw x13,  8*4(sp)
  sw x14,  7*4(sp)
  sw x15,  6*4(sp)
  sw x16,  5*4(sp)
  sw x17,  4*4(sp)
  sw x28,  3*4(sp)
  sw x29,  2*4(sp)
  sw x30,  1*4(sp)
  sw x31,  0*4(sp)
  call isr
  lw x1,  15*4(sp)
  lw x5,  14*4(sp)
  lw x6,  13*4(sp)
  lw x7,  12*4(sp)
  lw x10, 11*4(sp)
  lw x11, 10*4(sp)
  lw x12,  9*4(sp)
  lw x13,  8*4(sp)
  lw x14,  7*4(sp)
  lw x15,  6*4(sp)
  lw x16,  5*4(sp)
  lw x17,  4*4(sp)
  lw x28,  3*4(sp)
  lw x29,  2*4(sp)
  lw x30,  1*4(sp)
  lw x31,  0*4(sp)
  addi sp, sp, 16*4
  mret

crt_init:
  la sp, _fstack
  la a0, trap_entry
  csrw mtvec, a0
  csrw mstatus, zero

data_init:
  la a0, _fdata
  la a1, _edata
  la a2, _fdata_rom
data_loop:
  beq a0, a1, data_done
  lw a3, 0(a2)
  sw a3, 0(a0)
  addi a0, a0, 4
  addi a2, a2, 4
  j data_loop
data_done:

bss_init:
  la a0, _fbss
  la a1, _ebss
bss_loop:
  beq a0, a1, bss_done
  sw zero, 0(a0)
  addi a0, a0, 4
  j bss_loop
bss_done:

  /* axi_intc: MER = ME | HIE (PG099: master enable, hardware interrupts enabled) */
  li a0, MBV_INTC_BASE
  li a1, 3
  sw a1, 0x1c(a0)
  li a0, 0x800            /* mie.MEIE: the machine external interrupt */
  csrw mie, a0

  call main
infinite_loop:
  j infinite_loop
