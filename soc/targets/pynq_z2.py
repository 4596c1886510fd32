#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""PYNQ-Z2 (Zynq-7020) target: the LiteDigest hash subsystem for a Vivado block design.

Choice: a LiteX-generated standalone subsystem (no LiteX CPU), one Verilog module
``litedigest_subsystem`` that a generated Vivado TCL instantiates in a block design next to
``processing_system7`` as a module reference, rather than LiteX's ``zynq7000`` CPU. Why: PYNQ
loads an overlay from a ``.bit`` plus the ``.hwh`` that only a Vivado block design writes;
PYNQ binds drivers by the VLNV and finds base addresses and interrupts in that ``.hwh``. The
``zynq7000`` CPU route builds the PS configuration itself and gives no ``.hwh`` a PYNQ image
understands. The subsystem is also what can be checked here without Vivado (Verilator lint,
Yosys synth_xilinx, a simulation of its AXI ports).

Inside the subsystem (all in the FCLK_CLK0 domain, 100 MHz, reset ``rst_n`` from the PS's
proc_sys_reset):
- the hash peripherals (``litedigest.soc.peripheral.add_hash_subsystem``, as the simulated
  SoC builds them but for their DMA readers, AXI burst readers here), one per engine spec,
  named by ``litedigest.spec.instance_name``;
- ``s_axi``: an AXI4-Lite slave (32-bit data, 16-bit address = a 64 KiB window) for M_AXI_GP0,
  bridged to the LiteX CSR bus; the CSR region sits at 0 in the subsystem's map, so csr.json
  addresses are offsets the driver adds to the base the ``.hwh`` gives;
- ``m_axi``: an AXI4 master (64-bit data, 32-bit address) for S_AXI_HP0. Each peripheral's DMA
  reader is a burst reader (``litedigest.soc.peripheral.axi_reader``): a block is one INCR
  burst (ARSIZE 8 bytes, ARLEN rows - 1, ARCACHE 0011; two bursts where a block straddles a
  4 KiB boundary), requested as soon as a slot has one to fetch and buffer room is free, so
  several bursts are in flight through DDR's latency (a 1 KiB block buffer per peripheral).
  The readers share the port through a round-robin read arbiter (``axi_read_arbiter``: ARID 0,
  answers in order, a tag FIFO routes the R beats, up to 16 bursts in flight). The batch
  walkers' descriptor reads and digest writes (single beats) go through one Wishbone bus and
  LiteX's Wishbone2AXI: their reads join the arbiter, their writes own AW/W/B. Measured with an
  AXI slave model of DDR (``litedigest.soc.sim.axi_ddr``; ``python -m
  litedigest.soc.targets.pynq_dma``): sha256:opt:p4 hashing 64 KiB at 7.1 B/cycle of the 64-bit
  port with a 30-cycle first beat, 6.9 with 60 (random ARREADY and RVALID gaps); the Wishbone
  bridge of before, single beats one at a time, managed one 64-bit word per DDR round trip;
- one level-high interrupt output ``irq_<instance>`` per peripheral (its EventManager irq,
  the LiteX pending/enable registers behind it). The TCL concatenates them into an AXI
  interrupt controller whose output drives IRQ_F2P[0]: PYNQ's ``Interrupt`` class only
  supports interrupts that reach the PS through an ``axi_intc``. The input index of each
  peripheral is the csr.json constant ``<instance>_interrupt``.
- the DMA may read the whole PYNQ-Z2 DDR (512 MiB at 0, the HP0 view): csr.json's
  ``main_ram`` memory, which the peripherals check DMA ranges against.

No external pins: the subsystem talks only to the PS, its clock constraint comes from the
PS7 IP (FCLK_CLK0), so no XDC of our own is needed.

The subsystem, the build steps and the checks are shared with the other Vivado target
(arty_a7, a MicroBlaze V design): soc/targets/vivado_subsystem.py; this module holds what is
the PYNQ-Z2's (part, DDR window, the PS7 block design, the manifest).

`litedigest build pynq_z2` (``build(args)``) writes the Verilog, csr.json/csr.csv/csr.h, the
Vivado TCL (``vivado/pynq_z2_overlay.tcl``: project, block design, bitstream, ``.bit`` and
``.hwh`` copied to the output directory as ``litedigest.bit``/``litedigest.hwh``), runs Vivado
when ``vivado`` is on PATH, and otherwise checks what can be checked: Verilator lint and
Yosys ``synth_xilinx`` utilization against the xc7z020.
"""

import os
import sys

from litedigest.soc.flows import xc7 as flow_xc7
from litedigest.soc.targets import args as targs
from litedigest.soc.targets import builder
from litedigest.soc.targets import vivado_subsystem as vs
from litedigest.soc.targets.builder import TargetError  # noqa: F401  (this module's API)
from litedigest.soc.targets.vivado_subsystem import tcl_list

BOARD = "pynq_z2"
DEVICE = "xc7z020clg400-1"
SUBSYSTEM_TOP = vs.SUBSYSTEM_TOP
# The subsystem's VLNV in the .hwh (a Vivado module reference): what the PYNQ driver binds to.
SUBSYSTEM_VLNV = vs.SUBSYSTEM_VLNV
SUBSYSTEM_CELL = vs.SUBSYSTEM_CELL  # its instance name in the block design
OVERLAY_NAME = "litedigest"  # litedigest.bit / litedigest.hwh
BD_NAME = OVERLAY_NAME
FCLK0_HZ = vs.CLOCK_HZ
DDR_BASE = 0x00000000  # PYNQ-Z2: 512 MiB DDR3, at 0 in the HP0 address map
DDR_SIZE = 512 * 1024 * 1024
AXIL_ADDRESS_WIDTH = vs.AXIL_ADDRESS_WIDTH  # the CSR window: 64 KiB (LiteX csr_address_width 14)
GP0_BASE = 0x43C00000  # where the TCL maps s_axi in the PS's address map
DMA_DATA_WIDTH = vs.DMA_DATA_WIDTH  # S_AXI_HP0 configured 64-bit
PCW_PRESET = {
    # PYNQ-Z2 PS settings (the board's preset: DDR3 MT41K256M16 RE-125, 16-bit, 50 MHz PS
    # clock, UART0 on MIO 14..15, SD0, Ethernet, USB0, QSPI), used when the tul.com.tw pynq-z2
    # board files are absent. On PYNQ the FSBL has configured DDR and MIO before an overlay
    # loads; what PYNQ takes from the overlay's PS settings is its fabric clocks.
    "PCW_PRESET_BANK0_VOLTAGE": "LVCMOS 3.3V",
    "PCW_PRESET_BANK1_VOLTAGE": "LVCMOS 1.8V",
    "PCW_CRYSTAL_PERIPHERAL_FREQMHZ": "50",
    "PCW_APU_PERIPHERAL_FREQMHZ": "650",
    "PCW_UIPARAM_DDR_PARTNO": "MT41K256M16 RE-125",
    "PCW_UIPARAM_DDR_BUS_WIDTH": "16 Bit",
    "PCW_UIPARAM_DDR_FREQ_MHZ": "525",
    "PCW_QSPI_PERIPHERAL_ENABLE": "1",
    "PCW_QSPI_GRP_SINGLE_SS_ENABLE": "1",
    "PCW_ENET0_PERIPHERAL_ENABLE": "1",
    "PCW_ENET0_ENET0_IO": "MIO 16 .. 27",
    "PCW_ENET0_GRP_MDIO_ENABLE": "1",
    "PCW_SD0_PERIPHERAL_ENABLE": "1",
    "PCW_SD0_SD0_IO": "MIO 40 .. 45",
    "PCW_UART0_PERIPHERAL_ENABLE": "1",
    "PCW_UART0_UART0_IO": "MIO 14 .. 15",
    "PCW_USB0_PERIPHERAL_ENABLE": "1",
    "PCW_USB0_USB0_IO": "MIO 28 .. 39",
}
PCW_FABRIC = {
    # what the overlay needs from the PS, applied after any preset
    "PCW_FPGA0_PERIPHERAL_FREQMHZ": str(FCLK0_HZ // 1_000_000),
    "PCW_EN_CLK0_PORT": "1",
    "PCW_EN_RST0_PORT": "1",
    "PCW_USE_M_AXI_GP0": "1",
    "PCW_USE_S_AXI_HP0": "1",
    "PCW_S_AXI_HP0_DATA_WIDTH": str(DMA_DATA_WIDTH),
    "PCW_USE_FABRIC_INTERRUPT": "1",
    "PCW_IRQ_F2P_INTR": "1",
}
PYNQ_Z2_BOARD_PART = "tul.com.tw:pynq-z2:part0:1.0"
XC7Z020_CAPACITY_NOTE = "xc7z020 capacity from litedigest.soc.flows.xc7.XC7Z020 (DS190)"


class LiteDigestSubsystem(vs.LiteDigestSubsystem):
    """The hash subsystem for the PYNQ-Z2: peripherals, CSRs behind AXI-Lite at 0, DMA into one
    AXI master on S_AXI_HP0 (vivado_subsystem.LiteDigestSubsystem with this board's part and
    DDR window)."""

    def __init__(self, hash_engines=None, with_clock_pads=True):
        """`with_clock_pads=False` leaves the sys clock domain to a simulator (Migen's
        run_simulation drives it) instead of the clk/rst_n ports."""
        vs.LiteDigestSubsystem.__init__(self, hash_engines, with_clock_pads, target=TARGET)


# --- the block design -------------------------------------------------------------------------


def vivado_tcl(facts, jobs=2):
    """The Vivado batch script: project, block design (PS7 + subsystem + axi_intc),
    synthesis, implementation, bitstream; copies <overlay>.bit and .hwh next to the build."""
    irqs = list(facts["interrupts"])
    inits = " ".join(f'"$gw_dir/{os.path.basename(p)}"' for p in facts["init_files"])
    lines = [
        f"# Generated by `litedigest build {BOARD}`: the "
        f"PYNQ-Z2 overlay ({OVERLAY_NAME}.bit + .hwh).",
        "# Run: vivado -mode batch -source pynq_z2_overlay.tcl   (from this directory or any)",
        f"# Engines: {', '.join(facts['peripherals'].values())}",
        *vs.TCL_DIRS,
        f'create_project -force litedigest_{BOARD} "$here/project" -part {DEVICE}',
        f'add_files -norecurse "$gw_dir/{SUBSYSTEM_TOP}.v"' + (f" {inits}" if inits else ""),
        "update_compile_order -fileset sources_1",
        f"create_bd_design {BD_NAME}",
        "",
        "# Zynq PS: the PYNQ-Z2 preset when the board files are installed, else its values",
        "set ps7 [create_bd_cell -type ip -vlnv xilinx.com:ip:processing_system7:5.5 ps7]",
        f"if {{[llength [get_board_parts -quiet {PYNQ_Z2_BOARD_PART}]] > 0}} {{",
        f"  set_property board_part {PYNQ_Z2_BOARD_PART} [current_project]",
        "  apply_bd_automation -rule xilinx.com:bd_rule:processing_system7 -config "
        '{make_external "FIXED_IO, DDR" apply_board_preset "1" Master "Disable" Slave '
        '"Disable"} $ps7',
        "} else {",
        f"  set_property -dict [list {tcl_list(PCW_PRESET)}] $ps7",
        "  apply_bd_automation -rule xilinx.com:bd_rule:processing_system7 -config "
        '{make_external "FIXED_IO, DDR" apply_board_preset "0" Master "Disable" Slave '
        '"Disable"} $ps7',
        "}",
        "# FCLK_CLK0 100 MHz + its reset, M_AXI_GP0, S_AXI_HP0 64-bit, IRQ_F2P",
        f"set_property -dict [list {tcl_list(PCW_FABRIC)}] $ps7",
        "",
        "# The LiteDigest subsystem (module reference: VLNV " + SUBSYSTEM_VLNV + ")",
        f"set sub [create_bd_cell -type module -reference {SUBSYSTEM_TOP} {SUBSYSTEM_CELL}]",
        "# CSRs: M_AXI_GP0 -> interconnect -> s_axi (clock FCLK_CLK0; rst_n from proc_sys_reset)",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master "
        "{/ps7/FCLK_CLK0 (100 MHz)} Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar "
        "{/ps7/FCLK_CLK0 (100 MHz)} Master {/ps7/M_AXI_GP0} Slave "
        f"{{/{SUBSYSTEM_CELL}/s_axi}} ddr_seg {{Auto}} intc_ip {{New AXI Interconnect}} "
        f"master_apm {{0}}}} [get_bd_intf_pins {SUBSYSTEM_CELL}/s_axi]",
        "# DMA: m_axi -> S_AXI_HP0 (64-bit) -> DDR",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master "
        "{/ps7/FCLK_CLK0 (100 MHz)} Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar "
        f"{{/ps7/FCLK_CLK0 (100 MHz)}} Master {{/{SUBSYSTEM_CELL}/m_axi}} Slave "
        "{/ps7/S_AXI_HP0} ddr_seg {Auto} intc_ip {New AXI Interconnect} master_apm "
        "{0}} [get_bd_intf_pins ps7/S_AXI_HP0]",
        "",
        "# Interrupts: one per peripheral -> xlconcat -> "
        "axi_intc (PYNQ's Interrupt needs one) -> IRQ_F2P",
        "set intc [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_intc:4.1 axi_intc_0]",
        "set_property -dict [list CONFIG.C_IRQ_CONNECTION {1}] $intc",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master "
        "{/ps7/FCLK_CLK0 (100 MHz)} Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar "
        "{/ps7/FCLK_CLK0 (100 MHz)} Master {/ps7/M_AXI_GP0} Slave {/axi_intc_0/s_axi} "
        "ddr_seg {Auto} intc_ip {Auto} master_apm {0}} [get_bd_intf_pins axi_intc_0/s_axi]",
        "set concat [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconcat:2.1 irq_concat]",
        *vs.tcl_irq_concat(irqs),
        "connect_bd_net [get_bd_pins axi_intc_0/irq] [get_bd_pins ps7/IRQ_F2P]",
        "",
        "# Addresses: the subsystem's CSR window at GP0_BASE (64 KiB), the rest automatic",
        f"assign_bd_address -offset 0x{GP0_BASE:08X} -range 64K -target_address_space "
        f"[get_bd_addr_spaces ps7/Data] [get_bd_addr_segs {SUBSYSTEM_CELL}/s_axi/reg0] -force",
        "assign_bd_address",
        *vs.tcl_implementation(BD_NAME, f"{OVERLAY_NAME}.bit", jobs),
        "# The hardware handoff PYNQ reads (.gen/ since Vivado 2020.2, .srcs/ before)",
        f"set hwh [lindex [get_files -all -of_objects $bd_file {BD_NAME}.hwh] 0]",
        'if {$hwh eq ""} {',
        "  set hwh [lindex [glob -nocomplain "
        f'"$here/project/*/sources_1/bd/{BD_NAME}/hw_handoff/{BD_NAME}.hwh"] 0]',
        "}",
        f'file copy -force $hwh "$out_dir/{OVERLAY_NAME}.hwh"',
        f'puts "LITEDIGEST: wrote $out_dir/{OVERLAY_NAME}.bit and $out_dir/{OVERLAY_NAME}.hwh"',
    ]
    return "\n".join(lines) + "\n"


# --- `litedigest build pynq_z2` -------------------------------------------------------------------


def _main_soc():
    from litedigest.soc.targets.sim import MAIN_SOC

    return MAIN_SOC


def add_arguments(p):
    targs.soc_args(
        p, "engine specs, comma-separated (default: the main SoC's, " + ",".join(_main_soc()) + ")"
    )
    targs.vivado_builder_args(p, BOARD)


def run(engines=None, output_dir=None, **options):
    """Generate, write the Vivado TCL, run Vivado if present, lint and synthesize. Returns the
    report dict (also written to <output_dir>/report.json). Raises TargetError on bad input.
    Runs on one output directory take turns (builder.run_vivado, which takes the `options`:
    synth, lint, vivado, jobs, niceness, force, manifest_path, command, log)."""
    return builder.run_vivado(TARGET, engines, output_dir, **options)


def make_manifest(report, facts, command):
    """The per-board manifest (bitstreams/pynq_z2/manifest.json): builder.vivado_manifest with
    the overlay's files and where the PS sees the subsystem."""
    return builder.vivado_manifest(
        TARGET,
        report,
        command,
        head={"overlay": {"bit": f"{OVERLAY_NAME}.bit", "hwh": f"{OVERLAY_NAME}.hwh"}},
        window={"gp0_base": f"0x{GP0_BASE:08X}"},
        dma=f"AXI4 {DMA_DATA_WIDTH}-bit master on S_AXI_HP0, DDR 0x{DDR_BASE:08X}+0x{DDR_SIZE:08X}",
        interrupts="irq_<instance> -> xlconcat -> axi_intc_0 -> IRQ_F2P[0]; "
        "index = csr.json constant <instance>_interrupt",
        clock_note="design is constrained by the PS's FCLK_CLK0 at 100 MHz",
    )


TARGET = vs.Target(
    name=BOARD,
    title="PYNQ-Z2",
    device=DEVICE,
    ddr_base=DDR_BASE,
    ddr_size=DDR_SIZE,
    csr_base=GP0_BASE,
    capacity=flow_xc7.XC7Z020,
    tcl_name="pynq_z2_overlay.tcl",
    vivado_tcl=vivado_tcl,
    make_manifest=make_manifest,
    vivado_outputs=(f"{OVERLAY_NAME}.bit", f"{OVERLAY_NAME}.hwh"),
    synth_note="Yosys synth_xilinx -family xc7 -noiopad of the subsystem alone (no PS, "
    "AXI interconnects or axi_intc), before placement: logic only; Vivado's "
    "own counts differ.",
    module_file=__file__,
    clock_hz=FCLK0_HZ,
)


def build(args):
    """`litedigest build pynq_z2` entry point (litedigest.cli.build)."""
    return builder.run_command(
        BOARD,
        lambda **kw: run(**targs.vivado_builder_argdict(args), **kw),
        args,
        targs.recipe(BOARD, args, targs.VIVADO_RECIPE),
    )


def main(argv=None):
    return targs.main(
        "Build the LiteDigest PYNQ-Z2 subsystem and Vivado TCL", add_arguments, build, argv
    )


if __name__ == "__main__":
    sys.exit(main())
