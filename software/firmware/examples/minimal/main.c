/* SPDX-License-Identifier: BSD-2-Clause */
/* A minimal firmware that hashes through a LiteDigest peripheral using nothing of LiteDigest
 * but the installed C library (headers, liblitedigest.a, litedigest.pc) and the SoC's
 * generated csr.h. It hashes "abc" in software and through the `sha256` peripheral's CSR
 * path, and 1,000 bytes through its DMA, and prints each digest ("MINIMAL <what> <hex>"). */
#include <stdio.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <libbase/uart.h>
#include <system.h> /* flush_cpu_dcache: the device's dma_inval (LD_HW_DEV_LITEX) */

#include <litedigest/ld_hw.h>
#include <litedigest/ld_md.h>

/* The register HAL: LiteX's CSR accessors (unused when the library inlines the HAL). */
static uint32_t read32(uintptr_t addr)
{
    return (uint32_t)csr_read_simple((unsigned long)addr);
}
static void write32(uintptr_t addr, uint32_t v)
{
    csr_write_simple((unsigned long)v, (unsigned long)addr);
}

/* csr.h names the instance (SHA256) and its registers; the RAM the DMA reads is main RAM. */
static const ld_hw_dev sha256 = LD_HW_DEV_LITEX(SHA256, LD_FAMILY_SHA256, read32, write32, NULL);

/* The DMA reads main RAM only, and LiteX's demo linker script puts .data and .bss in the
 * integrated SRAM: the message the DMA hashes lives in the upper half of main RAM, which
 * the image (code and constants from main RAM's base) does not reach. A buffer the DMA
 * cannot read is refused by the driver (LD_ERR_RANGE), never hashed wrong. */
#define MESSAGE_BYTES 1000
static uint8_t *const message = (uint8_t *)(MAIN_RAM_BASE + MAIN_RAM_SIZE / 2);

static void show(const char *what, int r, const uint8_t *digest)
{
    int i;

    printf("MINIMAL %s ", what);
    if (r != LD_OK) {
        printf("error %d\n", r);
        return;
    }
    for (i = 0; i < 32; i++)
        printf("%02x", digest[i]);
    printf("\n");
}

int main(void)
{
    uint8_t digest[32];
    int i;

#ifdef CSR_UART_BASE
    uart_init();
#endif
    for (i = 0; i < MESSAGE_BYTES; i++)
        message[i] = (uint8_t)(i * 7 + 1);
    show("sw-abc", ld_md(LD_ALG_SHA256, "abc", 3, digest), digest);
    show("csr-abc", ld_hw_md(&sha256, LD_ALG_SHA256, LD_PATH_CSR, "abc", 3, digest), digest);
    show("dma-1000", ld_hw_md(&sha256, LD_ALG_SHA256, LD_PATH_DMA, message, MESSAGE_BYTES, digest),
         digest);
    printf("MINIMAL done\n");
    while (1) {
    }
    return 0;
}
