/* SPDX-License-Identifier: BSD-2-Clause */
/* Idle firmware for the bridge-only use of the simulated SoC: the host drives everything over
 * the UARTBone bridge while the CPU prints one marker and then spins in its instruction cache
 * without any bus traffic. */
#include <stdio.h>

#include <libbase/uart.h>
#include <generated/csr.h>

int main(void)
{
#ifdef CSR_UART_BASE
    uart_init();
#endif
    printf("LDIDLE\n");
    while (1) {
    }
    return 0;
}
