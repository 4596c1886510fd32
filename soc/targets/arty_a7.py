#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Arty A7-100T target: the LiteDigest hash subsystem
next to a MicroBlaze V, in a Vivado block design.

The board: Digilent Arty A7-100T (xc7a100tcsg324-1; no ARM), 256 MiB DDR3L, 100 MHz
oscillator, USB-UART. The design (``vivado/arty_a7_mbv.tcl``, Digilent's board files
``digilentinc.com:arty-a7-100:part0:1.1``) is the same subsystem as the PYNQ-Z2's
(soc/targets/vivado_subsystem.py: one Verilog module ``litedigest_subsystem``, a module
reference with VLNV ``xilinx.com:module_ref:litedigest_subsystem:1.0``) with a MicroBlaze V
(AMD's RISC-V MicroBlaze, ``microblaze_riscv``) as the host instead of the Zynq's ARM:

- ``microblaze_riscv_0``: rv32im (``C_USE_MULDIV 1``, ``C_USE_COMPRESSION 0``, no atomics, no
  FPU): the ISA of the C library's rv32 build (software/firmware/Makefile ``cross``:
  ``-march=rv32im``) and of the simulated SoC's VexRiscv, so the apps compile for it unchanged;
  machine mode; 64 KiB of local memory (LMB BRAM at 0, the reset vector); an 8 KiB instruction
  cache on the DDR range; no data cache (``C_USE_DCACHE 0``): every load and store reaches DDR,
  so CPU and DMA see each other's writes with no cache maintenance (the BSP's
  ``flush_cpu_dcache`` is empty); a debug module (``mdm_riscv``) through which xsdb loads the
  firmware;
- ``mig_7series_0``: the DDR3L controller with the board's preset (board interface
  ``ddr3_sdram``; sys_clk 166.667 MHz and ref_clk 200 MHz from ``clk_wiz_0``), 256 MiB at
  ``DDR_BASE`` = 0x80000000 in every master's map;
- ``clk_wiz_0`` from the board's 100 MHz ``sys_clock``: 166.667 MHz and 200 MHz for the MIG,
  100 MHz for the CPU, the subsystem and the peripherals (the subsystem's FREQ_HZ; the MIG's
  AXI side runs on its ui_clk, the SmartConnect ``axi_mem`` crosses);
- ``axi_uartlite_0`` (115200 8N1, board interface ``usb_uart``) at ``UARTLITE_BASE``;
- ``axi_intc_0`` at ``INTC_BASE``: input i = the peripheral whose csr.json constant
  ``<instance>_interrupt`` is i (``irq_concat``), output on the MicroBlaze V's ``INTERRUPT``;
- ``axi_periph`` (SmartConnect) on the CPU's data port ``M_AXI_DP``: the subsystem's ``s_axi``
  at ``CSR_WINDOW_BASE`` (64 KiB: csr.json addresses are offsets from it), the UART, the
  interrupt controller, and the DDR through ``axi_mem``;
- ``axi_mem`` (SmartConnect, two clocks): the CPU's data path to DDR, its instruction-cache
  port ``M_AXI_IC``, and the subsystem's DMA master ``m_axi``; DDR is the only thing the DMA
  can reach.

The firmware: the LiteX apps (software/firmware/apps, e.g. ``demo``) build against a LiteX
build directory. There is no LiteX SoC with this CPU, so the build writes one for the
MicroBlaze V (``<build>/mbv``, ``firmware.write_bsp``): ``software/include/generated/`` with the
subsystem's csr.h rebased (``CSR_BASE`` = the window's address in the MicroBlaze V's map; every
register stays ``CSR_BASE`` + its csr.json offset), and with LiteX's export functions: soc.h
(csr.json's constants, the CPU's in place of the subsystem's, the UART and interrupt-controller
bases), the CPU's memory map (mem.h, regions.ld: ``main_ram`` = DDR, ``sram`` = the LMB),
variables.mak naming the MicroBlaze V BSP (software/firmware/bsp/microblaze_v: crt0, system.h,
irq.h, stdio on the UART Lite) as the CPU directory; picolibc and compiler-rt built by LiteX's
own Makefiles for ``-march=rv32im_zicsr -mabi=ilp32`` (once, cached under
build/arty_a7/bsp-toolchain-*), libbase from LiteX's sources that need no LiteX core. Then
``make -C software/firmware/apps/demo BUILD_DIR=<build>/mbv`` as for the simulated SoC, and the
ELF is checked (rv32, no compressed instructions, linked at the DDR base, inside the memory
map). ``vivado/arty_a7_run_demo.tcl`` (xsdb) programs the bitstream and runs it on the board.
Without the board, the same demo firmware runs on the simulated SoC that has this build's
SHA-256 engine, the peripheral the demo drives (``--sim-demo``; firmware.run_sim_app), the
stand-in for the board.

Engines: ``DEFAULT_ENGINES``, every family once (the simulated main SoC's without its HMAC
engine, which would leave too little of the xc7a100t for the MicroBlaze V, the MIG and the
interconnect), or ``--hash-engine a,b,c``.

`litedigest build arty_a7` writes all of this, runs Vivado when it is on PATH, and otherwise
checks what can be checked here: Verilator lint, Yosys ``synth_xilinx`` utilization against the
xc7a100t, the TCL run in tclsh with Vivado's commands stubbed, the firmware cross-build.
"""

import dataclasses
import json
import os
import subprocess
import sys

from litedigest import buildcache
from litedigest.soc.flows import xc7 as flow_xc7
from litedigest.soc.targets import args as targs
from litedigest.soc.targets import builder, firmware
from litedigest.soc.targets import vivado_subsystem as vs
from litedigest.soc.targets.builder import TargetError
from litedigest.soc.targets.firmware import rebase_csr_header  # noqa: F401  (this module's API)

BOARD = "arty_a7"
DEVICE = "xc7a100tcsg324-1"
BOARD_PART = "digilentinc.com:arty-a7-100:part0:1.1"
SUBSYSTEM_TOP = vs.SUBSYSTEM_TOP
SUBSYSTEM_VLNV = vs.SUBSYSTEM_VLNV
SUBSYSTEM_CELL = vs.SUBSYSTEM_CELL
AXIL_ADDRESS_WIDTH = vs.AXIL_ADDRESS_WIDTH
DMA_DATA_WIDTH = vs.DMA_DATA_WIDTH
BD_NAME = "litedigest"
BITSTREAM = "litedigest.bit"
XSA = "litedigest.xsa"  # the hardware handoff for Vitis/xsdb
TCL_NAME = "arty_a7_mbv.tcl"
RUN_TCL_NAME = "arty_a7_run_demo.tcl"  # xsdb: program, load the demo, run it
CLOCK_HZ = vs.CLOCK_HZ  # clk_wiz_0/clk_out3: CPU, subsystem, peripherals
MIG_SYS_CLK_MHZ = "166.667"  # clk_out1 -> mig sys_clk_i (the board preset's input)
MIG_REF_CLK_MHZ = "200.000"  # clk_out2 -> mig clk_ref_i (IDELAYCTRL)

# The MicroBlaze V's address map (and the subsystem DMA's: DDR at the same address)
LMB_BASE = 0x00000000  # local memory (BRAM): the reset vector, the linker's sram
LMB_SIZE = 64 * 1024
UARTLITE_BASE = 0x40600000
INTC_BASE = 0x41200000
CSR_WINDOW_BASE = 0x44A00000  # the subsystem's s_axi (64 KiB)
DDR_BASE = 0x80000000  # 256 MiB DDR3L (MT41K128M16JT-125)
DDR_SIZE = 256 * 1024 * 1024
PERIPH_RANGE = 64 * 1024
UART_BAUD = 115200
ICACHE_BYTES = 8192

# The CPU configuration: rv32im, as the C library's rv32 build (software/firmware/Makefile)
MBV_CONFIG = {
    "C_USE_MULDIV": "1",  # M (standard)
    "C_USE_COMPRESSION": "0",  # no C: rv32im
    "C_USE_ATOMIC": "0",
    "C_USE_FPU": "0",
    "C_D_AXI": "1",  # M_AXI_DP: peripherals and DDR data
    "C_D_LMB": "1",
    "C_I_LMB": "1",
    "C_DEBUG_ENABLED": "1",
    "C_USE_DCACHE": "0",  # DDR data uncached: coherent with the DMA
    "C_USE_ICACHE": "1",  # M_AXI_IC: code in DDR
    "C_CACHE_BYTE_SIZE": str(ICACHE_BYTES),
    "C_ICACHE_BASEADDR": f"0x{DDR_BASE:016X}",
    "C_ICACHE_HIGHADDR": f"0x{DDR_BASE + DDR_SIZE - 1:016X}",
}
MARCH = "rv32im_zicsr"  # -march of the firmware (Zicsr: the start-up's csrw)
MABI = "ilp32"
BSP_DIR = os.path.join(buildcache.repo_root(), "software", "firmware", "bsp", "microblaze_v")
FIRMWARE_APP = "demo"
# The default engines: the simulated main SoC's (sim.MAIN_SOC) without its HMAC engine, i.e. every
# hash family once (the PYNQ-Z2 manifest's set). With hmac-sha256:opt as well, Yosys maps the
# subsystem alone to 47,876 LUTs, 75.5 % of the xc7a100t, before the MicroBlaze V, the MIG and
# the SmartConnects (roughly 10,000 to 15,000 more): too close to full to place and route at
# 100 MHz. These four take 35,502 LUTs, 56.0 % (Yosys 0.70, bitstreams/arty_a7/manifest.json);
# add the HMAC engine with --hash-engine for a design that leaves it room.
DEFAULT_ENGINES = ("sha256:opt", "sha1:opt", "sha512:k5", "skein512:r8")
XC7A100T_CAPACITY_NOTE = "xc7a100t capacity from litedigest.soc.flows.xc7.XC7A100T (DS180)"


# --- the block design ----------------------------------------------------------------------------


def _size(n):
    return f"{n // (1024 * 1024)}M" if n >= 1024 * 1024 else f"{n // 1024}K"


def address_map():
    """[(address space, segment, offset, range)] the TCL assigns: the MicroBlaze V's Data and
    Instruction spaces and the subsystem's DMA master."""
    data, instr, dma = (
        "microblaze_riscv_0/Data",
        "microblaze_riscv_0/Instruction",
        f"{SUBSYSTEM_CELL}/m_axi",
    )
    return [
        (data, "dlmb_bram_if_cntlr/SLMB/Mem", LMB_BASE, LMB_SIZE),
        (instr, "ilmb_bram_if_cntlr/SLMB/Mem", LMB_BASE, LMB_SIZE),
        (data, "axi_uartlite_0/S_AXI/Reg", UARTLITE_BASE, PERIPH_RANGE),
        (data, "axi_intc_0/S_AXI/Reg", INTC_BASE, PERIPH_RANGE),
        (data, f"{SUBSYSTEM_CELL}/s_axi/reg0", CSR_WINDOW_BASE, 1 << AXIL_ADDRESS_WIDTH),
        (data, "mig_7series_0/memmap/memaddr", DDR_BASE, DDR_SIZE),
        (instr, "mig_7series_0/memmap/memaddr", DDR_BASE, DDR_SIZE),
        (dma, "mig_7series_0/memmap/memaddr", DDR_BASE, DDR_SIZE),
    ]


def vivado_tcl(facts, jobs=2):
    """The Vivado batch script: project (Digilent's Arty A7-100 board files), block design
    (MicroBlaze V, MIG, UART Lite, interrupt controller, SmartConnects, the subsystem),
    synthesis, implementation, bitstream; copies litedigest.bit and the .xsa next to the build."""
    irqs = list(facts["interrupts"])
    inits = " ".join(f'"$gw_dir/{os.path.basename(p)}"' for p in facts["init_files"])
    clk, rst_p, rst_mig = "clk_wiz_0/clk_out3", "rst_sys", "rst_mig"
    mbv_cfg = vs.tcl_list(MBV_CONFIG)
    lines = [
        f"# Generated by `litedigest build {BOARD}`: Arty "
        "A7-100T, MicroBlaze V + the LiteDigest subsystem.",
        f"# Run: vivado -mode batch -source {TCL_NAME}   (from this directory or any)",
        f"# Needs Digilent's board files ({BOARD_PART}) "
        "and a Vivado with MicroBlaze V (2024.1 or later).",
        f"# Engines: {', '.join(facts['peripherals'].values())}",
        *vs.TCL_DIRS,
        f"set board_part {BOARD_PART}",
        "if {[llength [get_board_parts -quiet $board_part]] == 0} {",
        "  error \"Digilent's board files for the Arty A7-100 ($board_part) are not installed: "
        'https://github.com/Digilent/vivado-boards (set_param board.repoPaths ...)"',
        "}",
        f'create_project -force litedigest_{BOARD} "$here/project" -part {DEVICE}',
        "set_property board_part $board_part [current_project]",
        f'add_files -norecurse "$gw_dir/{SUBSYSTEM_TOP}.v"' + (f" {inits}" if inits else ""),
        "update_compile_order -fileset sources_1",
        f"create_bd_design {BD_NAME}",
        "",
        "# Clocks: the board's 100 MHz sys_clock -> "
        "clk_wiz_0: 166.667 MHz (MIG sys_clk_i), 200 MHz",
        "# (MIG clk_ref_i), 100 MHz (CPU, subsystem, peripherals); reset: the board's reset button",
        "set clk_wiz [create_bd_cell -type ip -vlnv xilinx.com:ip:clk_wiz:6.0 clk_wiz_0]",
        "set_property -dict [list "
        + vs.tcl_list(
            {
                "CLK_IN1_BOARD_INTERFACE": "sys_clock",
                "RESET_BOARD_INTERFACE": "reset",
                "USE_BOARD_FLOW": "true",
                "RESET_TYPE": "ACTIVE_LOW",
                "RESET_PORT": "resetn",
                "NUM_OUT_CLKS": "3",
                "CLKOUT1_REQUESTED_OUT_FREQ": MIG_SYS_CLK_MHZ,
                "CLKOUT2_USED": "true",
                "CLKOUT2_REQUESTED_OUT_FREQ": MIG_REF_CLK_MHZ,
                "CLKOUT3_USED": "true",
                "CLKOUT3_REQUESTED_OUT_FREQ": f"{CLOCK_HZ / 1e6:.3f}",
            }
        )
        + "] $clk_wiz",
        "apply_bd_automation -rule xilinx.com:bd_rule:board -config {Board_Interface "
        "{sys_clock} Manual_Source {Auto}} [get_bd_pins clk_wiz_0/clk_in1]",
        "apply_bd_automation -rule xilinx.com:bd_rule:board -config {Board_Interface "
        "{reset} Manual_Source {Auto}} [get_bd_pins clk_wiz_0/resetn]",
        "",
        "# DDR3L: the MIG with the board's preset (Digilent board files: ddr3_sdram)",
        "set mig [create_bd_cell -type ip -vlnv xilinx.com:ip:mig_7series:4.2 mig_7series_0]",
        "apply_board_connection -board_interface ddr3_sdram "
        f"-ip_intf mig_7series_0/mig_ddr_interface -diagram {BD_NAME}",
        "connect_bd_net [get_bd_pins clk_wiz_0/clk_out1] [get_bd_pins mig_7series_0/sys_clk_i]",
        "connect_bd_net [get_bd_pins clk_wiz_0/clk_out2] [get_bd_pins mig_7series_0/clk_ref_i]",
        "apply_bd_automation -rule xilinx.com:bd_rule:board -config {Board_Interface "
        "{reset} Manual_Source {Auto}} [get_bd_pins mig_7series_0/sys_rst]",
        f"set rst_mig [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset:5.0 {rst_mig}]",
        "set_property -dict [list CONFIG.C_EXT_RESET_HIGH {1}] $rst_mig",
        "connect_bd_net [get_bd_pins mig_7series_0/ui_clk] "
        f"[get_bd_pins {rst_mig}/slowest_sync_clk]",
        "connect_bd_net [get_bd_pins mig_7series_0/ui_clk_sync_rst] "
        f"[get_bd_pins {rst_mig}/ext_reset_in]",
        "connect_bd_net [get_bd_pins mig_7series_0/mmcm_locked] "
        f"[get_bd_pins {rst_mig}/dcm_locked]",
        f"connect_bd_net [get_bd_pins {rst_mig}/peripheral_aresetn] "
        "[get_bd_pins mig_7series_0/aresetn]",
        "",
        "# System reset (100 MHz domain): the board's "
        "reset, clk_wiz_0 locked, the debugger's reset",
        f"set rst_sys [create_bd_cell -type ip -vlnv xilinx.com:ip:proc_sys_reset:5.0 {rst_p}]",
        "set_property -dict [list CONFIG.RESET_BOARD_INTERFACE "
        "{reset} CONFIG.USE_BOARD_FLOW {true}] $rst_sys",
        "apply_bd_automation -rule xilinx.com:bd_rule:board -config {Board_Interface "
        f"{{reset}} Manual_Source {{Auto}}}} [get_bd_pins {rst_p}/ext_reset_in]",
        f"connect_bd_net [get_bd_pins clk_wiz_0/locked] [get_bd_pins {rst_p}/dcm_locked]",
        "",
        "# MicroBlaze V: rv32im (the C library's rv32 build), LMB local memory, I-cache on DDR, no",
        "# D-cache (DDR data uncached: coherent with the subsystem's DMA), debug module",
        "set mbv [create_bd_cell -type ip -vlnv "
        "xilinx.com:ip:microblaze_riscv:1.0 microblaze_riscv_0]",
        f"set_property -dict [list {mbv_cfg}] $mbv",
        "set mdm [create_bd_cell -type ip -vlnv xilinx.com:ip:mdm_riscv:1.0 mdm_1]",
        "connect_bd_intf_net [get_bd_intf_pins mdm_1/MBDEBUG_0] "
        "[get_bd_intf_pins microblaze_riscv_0/DEBUG]",
        f"connect_bd_net [get_bd_pins mdm_1/Debug_SYS_Rst] [get_bd_pins {rst_p}/mb_debug_sys_rst]",
        f"connect_bd_net [get_bd_pins {rst_p}/mb_reset] [get_bd_pins microblaze_riscv_0/Reset]",
        "# local memory: one true dual-port BRAM behind the data and instruction LMBs",
        "foreach bus {dlmb ilmb} {",
        "  create_bd_cell -type ip -vlnv xilinx.com:ip:lmb_v10:3.0 ${bus}_v10",
        "  create_bd_cell -type ip -vlnv xilinx.com:ip:lmb_bram_if_cntlr:4.0 ${bus}_bram_if_cntlr",
        "  set_property -dict [list CONFIG.C_ECC {0}] [get_bd_cells ${bus}_bram_if_cntlr]",
        "  connect_bd_intf_net [get_bd_intf_pins ${bus}_v10/LMB_Sl_0] "
        "[get_bd_intf_pins ${bus}_bram_if_cntlr/SLMB]",
        f"  connect_bd_net [get_bd_pins {clk}] [get_bd_pins "
        "${bus}_v10/LMB_Clk] [get_bd_pins ${bus}_bram_if_cntlr/LMB_Clk]",
        f"  connect_bd_net [get_bd_pins {rst_p}/bus_struct_reset] [get_bd_pins "
        "${bus}_v10/SYS_Rst] [get_bd_pins ${bus}_bram_if_cntlr/LMB_Rst]",
        "}",
        "connect_bd_intf_net [get_bd_intf_pins "
        "microblaze_riscv_0/DLMB] [get_bd_intf_pins dlmb_v10/LMB_M]",
        "connect_bd_intf_net [get_bd_intf_pins "
        "microblaze_riscv_0/ILMB] [get_bd_intf_pins ilmb_v10/LMB_M]",
        "set lmb_bram [create_bd_cell -type ip -vlnv xilinx.com:ip:blk_mem_gen:8.4 lmb_bram]",
        "set_property -dict [list CONFIG.Memory_Type {True_Dual_Port_RAM} "
        "CONFIG.use_bram_block {BRAM_Controller}] $lmb_bram",
        "connect_bd_intf_net [get_bd_intf_pins dlmb_bram_if_cntlr/BRAM_PORT] "
        "[get_bd_intf_pins lmb_bram/BRAM_PORTA]",
        "connect_bd_intf_net [get_bd_intf_pins ilmb_bram_if_cntlr/BRAM_PORT] "
        "[get_bd_intf_pins lmb_bram/BRAM_PORTB]",
        "",
        "# The LiteDigest subsystem (module reference: VLNV " + SUBSYSTEM_VLNV + ")",
        f"set sub [create_bd_cell -type module -reference {SUBSYSTEM_TOP} {SUBSYSTEM_CELL}]",
        "",
        "# UART: 115200 8N1 on the board's USB-UART",
        "set uart [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_uartlite:2.0 axi_uartlite_0]",
        f"set_property -dict [list CONFIG.C_BAUDRATE {{{UART_BAUD}}} "
        "CONFIG.UARTLITE_BOARD_INTERFACE {usb_uart} CONFIG.USE_BOARD_FLOW {true}] $uart",
        "apply_board_connection -board_interface usb_uart "
        f"-ip_intf axi_uartlite_0/UART -diagram {BD_NAME}",
        "",
        "# Interrupt controller (its inputs are wired below)",
        "set intc [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_intc:4.1 axi_intc_0]",
        "set_property -dict [list CONFIG.C_HAS_FAST {0}] $intc",
        "set concat [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconcat:2.1 irq_concat]",
        "",
        "# Buses: the CPU's data port -> axi_periph -> "
        "CSR window, UART, interrupt controller, and DDR",
        "# through axi_mem; axi_mem: CPU data, CPU "
        "instruction cache, the subsystem's DMA -> the MIG",
        "set periph [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect:1.0 axi_periph]",
        "set_property -dict [list CONFIG.NUM_SI {1} CONFIG.NUM_MI {4}] $periph",
        "set mem [create_bd_cell -type ip -vlnv xilinx.com:ip:smartconnect:1.0 axi_mem]",
        "set_property -dict [list CONFIG.NUM_SI {3} CONFIG.NUM_MI {1} CONFIG.NUM_CLKS {2}] $mem",
        "connect_bd_intf_net [get_bd_intf_pins "
        "microblaze_riscv_0/M_AXI_DP] [get_bd_intf_pins axi_periph/S00_AXI]",
        "connect_bd_intf_net [get_bd_intf_pins axi_periph/M00_AXI] "
        f"[get_bd_intf_pins {SUBSYSTEM_CELL}/s_axi]",
        "connect_bd_intf_net [get_bd_intf_pins axi_periph/M01_AXI] "
        "[get_bd_intf_pins axi_uartlite_0/S_AXI]",
        "connect_bd_intf_net [get_bd_intf_pins "
        "axi_periph/M02_AXI] [get_bd_intf_pins axi_intc_0/s_axi]",
        "connect_bd_intf_net [get_bd_intf_pins "
        "axi_periph/M03_AXI] [get_bd_intf_pins axi_mem/S00_AXI]",
        "connect_bd_intf_net [get_bd_intf_pins "
        "microblaze_riscv_0/M_AXI_IC] [get_bd_intf_pins axi_mem/S01_AXI]",
        "connect_bd_intf_net [get_bd_intf_pins "
        f"{SUBSYSTEM_CELL}/m_axi] [get_bd_intf_pins axi_mem/S02_AXI]",
        "connect_bd_intf_net [get_bd_intf_pins axi_mem/M00_AXI] "
        "[get_bd_intf_pins mig_7series_0/S_AXI]",
        "",
        "# Interrupts: one per peripheral -> irq_concat (input = csr.json <instance>_interrupt)",
        "# -> axi_intc_0 -> the MicroBlaze V's INTERRUPT "
        "(normal mode: the handler reads the controller)",
        *vs.tcl_irq_concat(irqs),
        "connect_bd_intf_net [get_bd_intf_pins axi_intc_0/interrupt] "
        "[get_bd_intf_pins microblaze_riscv_0/INTERRUPT]",
        "",
        "# Clocks and resets of the 100 MHz domain; axi_mem's second clock is the MIG's ui_clk",
        f"connect_bd_net [get_bd_pins {clk}] [get_bd_pins {rst_p}/slowest_sync_clk] "
        f"[get_bd_pins microblaze_riscv_0/Clk] [get_bd_pins {SUBSYSTEM_CELL}/clk] "
        "[get_bd_pins axi_periph/aclk] [get_bd_pins axi_mem/aclk] [get_bd_pins "
        "axi_uartlite_0/s_axi_aclk] [get_bd_pins axi_intc_0/s_axi_aclk]",
        "connect_bd_net [get_bd_pins mig_7series_0/ui_clk] [get_bd_pins axi_mem/aclk1]",
        f"connect_bd_net [get_bd_pins {rst_p}/interconnect_aresetn] "
        "[get_bd_pins axi_periph/aresetn] [get_bd_pins axi_mem/aresetn]",
        f"connect_bd_net [get_bd_pins {rst_p}/peripheral_aresetn] [get_bd_pins "
        f"{SUBSYSTEM_CELL}/rst_n] [get_bd_pins axi_uartlite_0/s_axi_aresetn] [get_bd_pins "
        "axi_intc_0/s_axi_aresetn]",
        "",
        "# Addresses: fixed, the ones csr.json and the firmware's memory map (mem.h) assume",
    ]
    for space, seg, offset, size in address_map():
        lines.append(
            f"assign_bd_address -offset 0x{offset:08X} -range {_size(size)} "
            f"-target_address_space [get_bd_addr_spaces {space}] [get_bd_addr_segs {seg}] -force"
        )
    lines += [
        *vs.tcl_implementation(BD_NAME, BITSTREAM, jobs),
        "# The hardware handoff for Vitis/xsdb (the memory map, the MicroBlaze V's configuration)",
        f'write_hw_platform -fixed -include_bit -force -file "$out_dir/{XSA}"',
        f'puts "LITEDIGEST: wrote $out_dir/{BITSTREAM} and $out_dir/{XSA}"',
    ]
    return "\n".join(lines) + "\n"


def xsdb_tcl(elf_rel):
    """The xsdb script that runs the firmware on the board: program the FPGA, wait for the DDR
    calibration, load the ELF into DDR through the debug module, run it. `elf_rel`: the ELF's
    path relative to the build directory. The console is the USB-UART at 115200 8N1."""
    return (
        "\n".join(
            [
                f"# Generated by `litedigest build {BOARD}`: run the firmware on the Arty A7-100T.",
                f"# Run: xsdb {RUN_TCL_NAME}   (Vitis' xsdb; board "
                f"on USB; open the USB-UART at {UART_BAUD} 8N1 first)",
                "set here [file dirname [file normalize [info script]]]",
                'set out_dir [file normalize "$here/.."]',
                "connect",
                f'fpga -file "$out_dir/{BITSTREAM}"',
                "after 1000",
                'targets -set -nocase -filter {name =~ "*microblaze*" || name =~ "*hart*"}',
                "rst -processor",
                f'dow "$out_dir/{elf_rel}"',
                "con",
                "disconnect",
            ]
        )
        + "\n"
    )


# --- the firmware -------------------------------------------------------------------------------


def firmware_memory_map():
    """The MicroBlaze V's memory map as the firmware sees it: {name: (base, size)}; sram and
    main_ram are the linker's regions (apps/linker.ld), the rest are mem.h entries."""
    return {
        "sram": (LMB_BASE, LMB_SIZE),
        "main_ram": (DDR_BASE, DDR_SIZE),
        "csr": (CSR_WINDOW_BASE, 1 << AXIL_ADDRESS_WIDTH),
        "uartlite": (UARTLITE_BASE, PERIPH_RANGE),
        "intc": (INTC_BASE, PERIPH_RANGE),
    }


# The MicroBlaze V as the firmware's build sees it (firmware.BoardCPU)
CPU = firmware.BoardCPU(
    board=BOARD,
    name="microblaze_v",
    human_name="MicroBlaze V",
    march=MARCH,
    mabi=MABI,
    bsp_dir=BSP_DIR,
    memory_map=firmware_memory_map(),
    csr_base=CSR_WINDOW_BASE,
    constants={
        "MBV_UARTLITE_BASE": UARTLITE_BASE,
        "MBV_INTC_BASE": INTC_BASE,
        "MBV_UART_BAUD": UART_BAUD,
    },
    build_subdir="mbv",
)


def build_firmware(out, facts, app=FIRMWARE_APP, log=print):
    """Cross-build `app` for the MicroBlaze V into <out>/mbv (firmware.build_board_firmware)."""
    return firmware.build_board_firmware(CPU, out, facts, app, log)


def run_sim_demo(peripherals, log=print):
    """The demo on the simulated SoC with this build's sha256 engine: the stand-in for the
    board (firmware.run_sim_demo)."""
    return firmware.run_sim_demo(BOARD, peripherals, log)


# --- `litedigest build arty_a7` ----------------------------------------------------------------


def add_arguments(p):
    targs.soc_args(
        p,
        "engine specs, comma-separated (default: every family once, "
        + ",".join(DEFAULT_ENGINES)
        + ")",
    )
    targs.vivado_builder_args(p, BOARD)
    p.add_argument(
        "--no-firmware",
        action="store_true",
        help="do not cross-build the demo firmware for the MicroBlaze V",
    )
    p.add_argument(
        "--sim-demo",
        action="store_true",
        help="also run the demo firmware on the simulated SoC with these engines "
        "(the stand-in for the board; builds that SoC with Verilator if not cached)",
    )


def _extra_steps(with_firmware, sim_demo):
    def steps(out, facts, report, force, log):
        if with_firmware:
            fw = build_firmware(out, facts, log=log)
            report["firmware"] = fw
            if fw.get("ok") is None:
                log(f"{BOARD}: firmware NOT built ({fw['skipped']})")
            else:
                rel = os.path.relpath(fw["elf"], out)
                with open(os.path.join(out, "vivado", RUN_TCL_NAME), "w") as f:
                    f.write(xsdb_tcl(rel))
                c = fw["checks"]
                log(
                    f"{BOARD}: {fw['app']} firmware for the MicroBlaze V ({MARCH}): "
                    f"{fw['elf']} ({fw['bin_bytes']} bytes, entry {c['entry']}, "
                    f"{c['instructions']} instructions, "
                    f"{'checks passed' if fw['ok'] else 'CHECKS FAILED'}; {fw['seconds']} s)"
                )
                if not fw["ok"]:
                    raise TargetError(
                        f"the firmware ELF fails the MicroBlaze V checks: {json.dumps(c)}"
                    )
        if sim_demo:
            log(f"{BOARD}: the demo firmware on the simulated SoC (the stand-in for the board) ...")
            sd = run_sim_demo(report["peripherals"], log=log)
            report["sim_demo"] = sd
            if sd["ok"] is None:
                log(f"{BOARD}: simulated-SoC demo NOT run ({sd['skipped']})")
            else:
                log(
                    f"{BOARD}: simulated-SoC demo {'passed' if sd['ok'] else 'FAILED'} on "
                    f"{sd['engine']} ({len(sd['records'])} measurements, "
                    f"{len(sd['checks'])} checks; {sd['seconds']} s)"
                )

    return steps


def run(engines=None, output_dir=None, firmware=True, sim_demo=False, **options):
    """Generate, write the Vivado TCL (and check it in tclsh), run Vivado if present,
    cross-build the firmware, lint and synthesize; `sim_demo` also runs the demo on the
    simulated SoC. Returns the report dict (also <output_dir>/report.json). Raises TargetError
    on bad input. `options` are builder.run_vivado's: synth, lint, vivado, jobs, niceness,
    force, manifest_path, command, log."""
    target = dataclasses.replace(TARGET, extra_steps=_extra_steps(firmware, sim_demo))
    return builder.run_vivado(target, engines, output_dir, **options)


def make_manifest(report, facts, command):
    """The per-board manifest (bitstreams/arty_a7/manifest.json): builder.vivado_manifest with
    the MicroBlaze V, its memory map, the firmware and the simulated-SoC demo."""
    fw = report.get("firmware")
    sd = report.get("sim_demo")
    m = builder.vivado_manifest(
        TARGET,
        report,
        command,
        head={
            "board_part": BOARD_PART,
            "outputs": {
                "bit": BITSTREAM,
                "xsa": XSA,
                "firmware": f"mbv/firmware/{FIRMWARE_APP}/{FIRMWARE_APP}.elf",
                "run_script": f"vivado/{RUN_TCL_NAME}",
            },
            "cpu": {
                "ip": "xilinx.com:ip:microblaze_riscv:1.0",
                "isa": "rv32im (Zicsr), machine mode",
                "config": MBV_CONFIG,
                "clock_hz": CLOCK_HZ,
                "local_memory": f"LMB BRAM 0x{LMB_BASE:08X}+0x{LMB_SIZE:X}",
            },
            "memory_map": {n: f"0x{b:08X}+0x{s:X}" for n, (b, s) in firmware_memory_map().items()},
        },
        window={"csr_window": f"0x{CSR_WINDOW_BASE:08X}"},
        dma=f"AXI4 {DMA_DATA_WIDTH}-bit master -> axi_mem -> mig_7series_0, DDR "
        f"0x{DDR_BASE:08X}+0x{DDR_SIZE:08X}",
        interrupts="irq_<instance> -> irq_concat -> axi_intc_0 -> microblaze_riscv_0/INTERRUPT; "
        "index = csr.json constant <instance>_interrupt",
        results={
            "firmware": (
                {
                    "app": fw["app"],
                    "march": fw["march"],
                    "mabi": fw["mabi"],
                    "elf_sha256": fw["elf_sha256"],
                    "bin_bytes": fw["bin_bytes"],
                    "entry": fw["checks"]["entry"],
                    "instructions": fw["checks"]["instructions"],
                    "checks_ok": fw["ok"],
                    "run_on_board": False,
                    "note": "cross-built here for the MicroBlaze V's memory map; not run "
                    "(no board, no MicroBlaze V simulation model here)",
                }
                if fw and fw.get("ok") is not None
                else fw
            ),
            "sim_demo": (
                {k: sd[k] for k in ("ok", "engine", "soc_engines", "records", "checks", "note")}
                if sd and sd.get("ok") is not None
                else sd
            ),
        },
        clock_note="subsystem runs at clk_wiz_0's 100 MHz",
        needs=" (with MicroBlaze V and Digilent's board files)",
    )
    if fw and fw.get("ok") is not None:
        m["tools"]["cross_gcc"] = subprocess.run(
            [fw["triple"] + "-gcc", "--version"], capture_output=True, text=True
        ).stdout.splitlines()[0]
    return m


TARGET = vs.Target(
    name=BOARD,
    title="Arty A7",
    device=DEVICE,
    ddr_base=DDR_BASE,
    ddr_size=DDR_SIZE,
    csr_base=CSR_WINDOW_BASE,
    capacity=flow_xc7.XC7A100T,
    tcl_name=TCL_NAME,
    vivado_tcl=vivado_tcl,
    make_manifest=make_manifest,
    vivado_outputs=(BITSTREAM, XSA),
    synth_note="Yosys synth_xilinx -family xc7 -noiopad of the subsystem alone (no MicroBlaze V, "
    "MIG, SmartConnects, UART or axi_intc), before placement: logic only; Vivado's "
    "own counts differ.",
    module_file=__file__,
    clock_hz=CLOCK_HZ,
    tcl_dry_run=True,
    default_engines=DEFAULT_ENGINES,
)


def build(args):
    """`litedigest build arty_a7` entry point (litedigest.cli.build)."""
    return builder.run_command(
        BOARD,
        lambda **kw: run(
            **targs.vivado_builder_argdict(args),
            firmware=not args.no_firmware,
            sim_demo=args.sim_demo,
            **kw,
        ),
        args,
        targs.recipe(
            BOARD, args, targs.VIVADO_RECIPE + (("no_firmware", (False,)), ("sim_demo", (False,)))
        ),
    )


def main(argv=None):
    return targs.main(
        "Build the LiteDigest Arty A7-100T MicroBlaze V design", add_arguments, build, argv
    )


if __name__ == "__main__":
    sys.exit(main())
