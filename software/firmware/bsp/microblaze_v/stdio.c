/* SPDX-License-Identifier: BSD-2-Clause */
/* Picolibc's stdio on the design's AXI UART Lite (axi_uartlite_0 at MBV_UARTLITE_BASE, PG142;
 * 115200 8N1 on the Arty's USB-UART): the MicroBlaze V BSP's replacement for LiteX's
 * libc/stdio.c, which writes to a LiteX UART through CSRs. Polled; "\n" goes out as "\r\n". */
#include <stdint.h>
#include <stdio.h>

#include <generated/soc.h>

#define UARTLITE_RX            0x0
#define UARTLITE_TX            0x4
#define UARTLITE_STAT          0x8
#define UARTLITE_STAT_RX_VALID 0x01
#define UARTLITE_STAT_TX_FULL  0x08
#define UARTLITE(off)          (*(volatile uint32_t *)(MBV_UARTLITE_BASE + (off)))

static void uartlite_write(char c)
{
    while (UARTLITE(UARTLITE_STAT) & UARTLITE_STAT_TX_FULL)
        ;
    UARTLITE(UARTLITE_TX) = (uint8_t)c;
}

static int uartlite_putc(char c, FILE *file)
{
    (void)file;
    if (c == '\n')
        uartlite_write('\r');
    uartlite_write(c);
    return (unsigned char)c;
}

static int uartlite_getc(FILE *file)
{
    (void)file;
    while (!(UARTLITE(UARTLITE_STAT) & UARTLITE_STAT_RX_VALID))
        ;
    return (int)(UARTLITE(UARTLITE_RX) & 0xff);
}

static FILE __stdio = FDEV_SETUP_STREAM(uartlite_putc, uartlite_getc, NULL, _FDEV_SETUP_RW);

FILE *const stdout = &__stdio;
FILE *const stderr = &__stdio;
FILE *const stdin = &__stdio;
