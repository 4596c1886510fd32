#!/usr/bin/env python3
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
  litedigest.soc.sim.pynq_dma``): sha256:opt:p4 hashing 64 KiB at 7.1 B/cycle of the 64-bit
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

`litedigest build pynq_z2` (``build(args)``) writes the Verilog, csr.json/csr.csv/csr.h, the
Vivado TCL (``vivado/pynq_z2_overlay.tcl``: project, block design, bitstream, ``.bit`` and
``.hwh`` copied to the output directory as ``litedigest.bit``/``litedigest.hwh``), runs Vivado
when ``vivado`` is on PATH, and otherwise checks what can be checked: Verilator lint and
Yosys ``synth_xilinx`` utilization against the xc7z020.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from migen import ClockDomain, Module, Signal

from litex.build.generic_platform import Pins, Subsignal
from litex.build.xilinx import XilinxPlatform
from litex.soc.integration.builder import Builder
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCMini
from litex.soc.interconnect.axi import AXIInterface, AXILiteInterface

from litedigest import spec as specmod
from litedigest.soc import buildcache

BOARD = "pynq_z2"
DEVICE = "xc7z020clg400-1"
SUBSYSTEM_TOP = "litedigest_subsystem"
# The subsystem's VLNV in the .hwh (a Vivado module reference): what the PYNQ driver binds to.
SUBSYSTEM_VLNV = f"xilinx.com:module_ref:{SUBSYSTEM_TOP}:1.0"
SUBSYSTEM_CELL = "litedigest_0"        # its instance name in the block design
OVERLAY_NAME = "litedigest"            # litedigest.bit / litedigest.hwh
BD_NAME = OVERLAY_NAME
FCLK0_HZ = 100_000_000
DDR_BASE = 0x00000000                  # PYNQ-Z2: 512 MiB DDR3, at 0 in the HP0 address map
DDR_SIZE = 512 * 1024 * 1024
AXIL_ADDRESS_WIDTH = 16                # the CSR window: 64 KiB (LiteX csr_address_width 14)
GP0_BASE = 0x43C00000                  # where the TCL maps s_axi in the PS's address map
DMA_DATA_WIDTH = 64                    # S_AXI_HP0 configured 64-bit
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


class TargetError(Exception):
    """Bad input to the pynq_z2 build (engine spec, output directory, options)."""


def engine_list(hash_engines):
    """Engine specs (checked) from None (the simulated main SoC's, sim.MAIN_SOC), a list, or a
    comma-separated string."""
    from litedigest.soc.targets.sim import MAIN_SOC
    try:
        engines = specmod.parse_list(hash_engines, MAIN_SOC)
    except specmod.SpecError as err:
        raise TargetError(str(err)) from None
    if not engines:
        raise TargetError("no engine spec given (--hash-engine a,b,c)")
    return engines


def _ios(engine_names):
    axil = AXILiteInterface(data_width=32, address_width=AXIL_ADDRESS_WIDTH)
    axi = AXIInterface(data_width=DMA_DATA_WIDTH, address_width=32, id_width=1)
    ios = [("clk", 0, Pins(1)), ("rst_n", 0, Pins(1))]
    ios += axil.get_ios("s_axi") + axi.get_ios("m_axi")
    ios += [(f"irq_{name}", 0, Pins(1)) for name in engine_names]
    return ios


class _SubsystemPlatform(XilinxPlatform):
    """A platform for Verilog generation only: the subsystem's ports are not FPGA pins."""
    def __init__(self, ios):
        XilinxPlatform.__init__(self, DEVICE, ios, toolchain="vivado")


class LiteDigestSubsystem(SoCMini):
    """The hash subsystem: peripherals, CSRs behind AXI-Lite at 0, DMA into one AXI master."""
    mem_map = {"csr": 0x00000000}

    def __init__(self, hash_engines=None, with_clock_pads=True):
        """`with_clock_pads=False` leaves the sys clock domain to a simulator (Migen's
        run_simulation drives it) instead of the clk/rst_n ports."""
        self.hash_engines = engine_list(hash_engines)
        names = [specmod.instance_name(e, self.hash_engines) for e in self.hash_engines]
        if len(set(names)) != len(names):
            raise TargetError(f"an engine is listed twice: {', '.join(self.hash_engines)}")
        platform = _SubsystemPlatform(_ios(names))
        SoCMini.__init__(self, platform, clk_freq=FCLK0_HZ,
                         ident="", csr_data_width=32, csr_address_width=AXIL_ADDRESS_WIDTH - 2)

        # Clock and reset straight from the PS: proc_sys_reset already synchronizes rst_n.
        clk, rst_n = platform.request("clk"), platform.request("rst_n")
        if with_clock_pads:
            self.cd_sys = ClockDomain("sys")
            self.comb += [self.cd_sys.clk.eq(clk), self.cd_sys.rst.eq(~rst_n)]
        self.irq_pads = irq_pads = {n: platform.request(f"irq_{n}") for n in names}
        # Vivado's module reference reads these to tie clock, reset, buses and interrupts.
        clk.attr.add(("X_INTERFACE_INFO", "xilinx.com:signal:clock:1.0 clk CLK"))
        clk.attr.add(("X_INTERFACE_PARAMETER",
                      f"ASSOCIATED_BUSIF s_axi:m_axi, ASSOCIATED_RESET rst_n, FREQ_HZ {FCLK0_HZ}"))
        rst_n.attr.add(("X_INTERFACE_INFO", "xilinx.com:signal:reset:1.0 rst_n RST"))
        rst_n.attr.add(("X_INTERFACE_PARAMETER", "POLARITY ACTIVE_LOW"))
        for n, pad in irq_pads.items():
            pad.attr.add(("X_INTERFACE_INFO", f"xilinx.com:signal:interrupt:1.0 irq_{n} INTERRUPT"))
            pad.attr.add(("X_INTERFACE_PARAMETER", "SENSITIVITY LEVEL_HIGH"))

        # GP0 side: AXI-Lite slave -> the SoC bus (Wishbone) -> CSR bridge at 0.
        self.s_axi = AXILiteInterface(data_width=32, address_width=AXIL_ADDRESS_WIDTH)
        self.s_axi_pads = platform.request("s_axi")
        self.comb += self.s_axi.connect_to_pads(self.s_axi_pads, mode="slave")
        s_axi32 = AXILiteInterface(data_width=32, address_width=32)
        self.comb += self.s_axi.connect(s_axi32)   # zero-extends the 16-bit offsets
        self.bus.add_master(name="s_axi", master=s_axi32)

        # The DMA's view of memory: PYNQ-Z2 DDR through HP0. A linker region (no decoder on
        # the CSR bus: it is another address space) that add_hash_peripheral reads and
        # csr.json exports as memories.main_ram.
        self.bus.add_region("main_ram", SoCRegion(origin=DDR_BASE, size=DDR_SIZE, linker=True,
                                                  cached=False))

        # The peripherals; each irq drives its pad, the constant <instance>_interrupt is the
        # axi_intc input (bit of the concatenation) it reaches. HP0 side: the burst readers
        # (64-bit rows) and the walkers' bridge on one AXI master.
        from litedigest.soc.peripheral import add_hash_subsystem
        self.m_axi = AXIInterface(data_width=DMA_DATA_WIDTH, address_width=32, id_width=1)
        self.hash_peripherals = add_hash_subsystem(self, self.hash_engines, axi_port=self.m_axi,
                                                   irq_pads=irq_pads)
        self.add_constant("LITEDIGEST_BOARD", BOARD)
        self.add_constant("LITEDIGEST_SUBSYSTEM_VLNV", SUBSYSTEM_VLNV)
        self.m_axi_pads = platform.request("m_axi")
        self.comb += self.m_axi.connect_to_pads(self.m_axi_pads, mode="master")


# --- build ------------------------------------------------------------------------------------

def engines_key(engines):
    """Directory name of an engine set: 'sha256-opt_sha1-opt_...'."""
    return "_".join(specmod.parse(e).engine_name.replace(":", "-") for e in engines)


def _input_stamp(engines):
    """Hash of what the generated files depend on: the engine list, the gateware sources
    (buildcache.gateware_sources(), this file) and the LiteX/Migen versions."""
    return buildcache.stamp({"engines": engines}, [buildcache.gateware_sources(), os.path.abspath(__file__)],
                            _versions())


def generate(out_dir, engines):
    """Generate the subsystem into out_dir: gateware/<top>.v, csr.json, csr.csv,
    software/include/generated/{csr,soc,mem}.h. Returns a dict of facts (peripherals, paths)."""
    soc = LiteDigestSubsystem(engines)
    builder = Builder(soc, output_dir=out_dir, compile_software=False, compile_gateware=False,
                      csr_json=os.path.join(out_dir, "csr.json"),
                      csr_csv=os.path.join(out_dir, "csr.csv"))
    builder.build(build_name=SUBSYSTEM_TOP, run=False)
    gw = builder.gateware_dir
    # LiteX also writes its own Vivado project script and pin constraints for a standalone
    # FPGA design: not ours (the subsystem has no pins; vivado/ holds the real flow).
    for name in (f"{SUBSYSTEM_TOP}.tcl", f"{SUBSYSTEM_TOP}.xdc", "build.sh", "build_" + SUBSYSTEM_TOP + ".sh"):
        p = os.path.join(gw, name)
        if os.path.exists(p):
            os.remove(p)
    verilog = os.path.join(gw, f"{SUBSYSTEM_TOP}.v")
    inits = sorted(os.path.join(gw, f) for f in os.listdir(gw) if f.endswith(".init"))
    return {
        "verilog": verilog,
        "init_files": inits,
        "csr_json": os.path.join(out_dir, "csr.json"),
        "csr_h": os.path.join(builder.generated_dir, "csr.h"),
        "peripherals": {n: p.engine_spec for n, p in soc.hash_peripherals.items()},
        "interrupts": {n: i for i, n in enumerate(soc.hash_peripherals)},
    }


def _tcl_list(d):
    return " ".join(f"CONFIG.{k} {{{v}}}" for k, v in d.items())


def vivado_tcl(facts, jobs=2):
    """The Vivado batch script: project, block design (PS7 + subsystem + axi_intc),
    synthesis, implementation, bitstream; copies <overlay>.bit and .hwh next to the build."""
    irqs = list(facts["interrupts"])
    inits = " ".join(f'"$gw_dir/{os.path.basename(p)}"' for p in facts["init_files"])
    lines = [
        f"# Generated by `litedigest build {BOARD}`: the PYNQ-Z2 overlay ({OVERLAY_NAME}.bit + .hwh).",
        f"# Run: vivado -mode batch -source pynq_z2_overlay.tcl   (from this directory or any)",
        f"# Engines: {', '.join(facts['peripherals'].values())}",
        "set here [file dirname [file normalize [info script]]]",
        "set out_dir [file normalize \"$here/..\"]",
        "set gw_dir \"$out_dir/gateware\"",
        f"create_project -force litedigest_{BOARD} \"$here/project\" -part {DEVICE}",
        f"add_files -norecurse \"$gw_dir/{SUBSYSTEM_TOP}.v\"" + (f" {inits}" if inits else ""),
        "update_compile_order -fileset sources_1",
        f"create_bd_design {BD_NAME}",
        "",
        "# Zynq PS: the PYNQ-Z2 preset when the board files are installed, else its values",
        "set ps7 [create_bd_cell -type ip -vlnv xilinx.com:ip:processing_system7:5.5 ps7]",
        f"if {{[llength [get_board_parts -quiet {PYNQ_Z2_BOARD_PART}]] > 0}} {{",
        f"  set_property board_part {PYNQ_Z2_BOARD_PART} [current_project]",
        "  apply_bd_automation -rule xilinx.com:bd_rule:processing_system7 -config {make_external \"FIXED_IO, DDR\" apply_board_preset \"1\" Master \"Disable\" Slave \"Disable\"} $ps7",
        "} else {",
        f"  set_property -dict [list {_tcl_list(PCW_PRESET)}] $ps7",
        "  apply_bd_automation -rule xilinx.com:bd_rule:processing_system7 -config {make_external \"FIXED_IO, DDR\" apply_board_preset \"0\" Master \"Disable\" Slave \"Disable\"} $ps7",
        "}",
        "# FCLK_CLK0 100 MHz + its reset, M_AXI_GP0, S_AXI_HP0 64-bit, IRQ_F2P",
        f"set_property -dict [list {_tcl_list(PCW_FABRIC)}] $ps7",
        "",
        "# The LiteDigest subsystem (module reference: VLNV " + SUBSYSTEM_VLNV + ")",
        f"set sub [create_bd_cell -type module -reference {SUBSYSTEM_TOP} {SUBSYSTEM_CELL}]",
        "# CSRs: M_AXI_GP0 -> interconnect -> s_axi (clock FCLK_CLK0; rst_n from proc_sys_reset)",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master {/ps7/FCLK_CLK0 (100 MHz)} "
        "Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar {/ps7/FCLK_CLK0 (100 MHz)} Master {/ps7/M_AXI_GP0} "
        f"Slave {{/{SUBSYSTEM_CELL}/s_axi}} ddr_seg {{Auto}} intc_ip {{New AXI Interconnect}} master_apm {{0}}}} "
        f"[get_bd_intf_pins {SUBSYSTEM_CELL}/s_axi]",
        "# DMA: m_axi -> S_AXI_HP0 (64-bit) -> DDR",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master {/ps7/FCLK_CLK0 (100 MHz)} "
        "Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar {/ps7/FCLK_CLK0 (100 MHz)} "
        f"Master {{/{SUBSYSTEM_CELL}/m_axi}} Slave {{/ps7/S_AXI_HP0}} ddr_seg {{Auto}} intc_ip {{New AXI Interconnect}} master_apm {{0}}}} "
        "[get_bd_intf_pins ps7/S_AXI_HP0]",
        "",
        "# Interrupts: one per peripheral -> xlconcat -> axi_intc (PYNQ's Interrupt needs one) -> IRQ_F2P",
        "set intc [create_bd_cell -type ip -vlnv xilinx.com:ip:axi_intc:4.1 axi_intc_0]",
        "set_property -dict [list CONFIG.C_IRQ_CONNECTION {1}] $intc",
        "apply_bd_automation -rule xilinx.com:bd_rule:axi4 -config { Clk_master {/ps7/FCLK_CLK0 (100 MHz)} "
        "Clk_slave {/ps7/FCLK_CLK0 (100 MHz)} Clk_xbar {/ps7/FCLK_CLK0 (100 MHz)} Master {/ps7/M_AXI_GP0} "
        "Slave {/axi_intc_0/s_axi} ddr_seg {Auto} intc_ip {Auto} master_apm {0}} [get_bd_intf_pins axi_intc_0/s_axi]",
        "set concat [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconcat:2.1 irq_concat]",
        f"set_property -dict [list CONFIG.NUM_PORTS {{{max(2, len(irqs))}}}] $concat",
    ]
    for i, name in enumerate(irqs):
        lines.append(f"connect_bd_net [get_bd_pins {SUBSYSTEM_CELL}/irq_{name}] [get_bd_pins irq_concat/In{i}]")
    if len(irqs) == 1:  # xlconcat needs two inputs: the second one is tied low
        lines += ["set zero [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 irq_zero]",
                  "set_property -dict [list CONFIG.CONST_VAL {0}] $zero",
                  "connect_bd_net [get_bd_pins irq_zero/dout] [get_bd_pins irq_concat/In1]"]
    lines += [
        "connect_bd_net [get_bd_pins irq_concat/dout] [get_bd_pins axi_intc_0/intr]",
        "connect_bd_net [get_bd_pins axi_intc_0/irq] [get_bd_pins ps7/IRQ_F2P]",
        "",
        "# Addresses: the subsystem's CSR window at GP0_BASE (64 KiB), the rest automatic",
        f"assign_bd_address -offset 0x{GP0_BASE:08X} -range 64K -target_address_space [get_bd_addr_spaces ps7/Data] "
        f"[get_bd_addr_segs {SUBSYSTEM_CELL}/s_axi/reg0] -force",
        "assign_bd_address",
        "validate_bd_design",
        "save_bd_design",
        "",
        f"set bd_file [get_files {BD_NAME}.bd]",
        "generate_target all $bd_file",
        "set wrapper [make_wrapper -files $bd_file -top]",
        "add_files -norecurse $wrapper",
        f"set_property top {BD_NAME}_wrapper [current_fileset]",
        "update_compile_order -fileset sources_1",
        f"launch_runs impl_1 -to_step write_bitstream -jobs {jobs}",
        "wait_on_run impl_1",
        "if {[get_property PROGRESS [get_runs impl_1]] != \"100%\"} {",
        "  error \"implementation or bitstream failed: see $here/project\"",
        "}",
        "open_run impl_1",
        "report_utilization -file \"$out_dir/vivado_utilization.rpt\"",
        "report_timing_summary -file \"$out_dir/vivado_timing.rpt\"",
        f"file copy -force [get_property DIRECTORY [get_runs impl_1]]/{BD_NAME}_wrapper.bit \"$out_dir/{OVERLAY_NAME}.bit\"",
        "# The hardware handoff PYNQ reads (.gen/ since Vivado 2020.2, .srcs/ before)",
        f"set hwh [lindex [get_files -all -of_objects $bd_file {BD_NAME}.hwh] 0]",
        "if {$hwh eq \"\"} {",
        f"  set hwh [lindex [glob -nocomplain \"$here/project/*/sources_1/bd/{BD_NAME}/hw_handoff/{BD_NAME}.hwh\"] 0]",
        "}",
        f"file copy -force $hwh \"$out_dir/{OVERLAY_NAME}.hwh\"",
        f"puts \"LITEDIGEST: wrote $out_dir/{OVERLAY_NAME}.bit and $out_dir/{OVERLAY_NAME}.hwh\"",
    ]
    return "\n".join(lines) + "\n"


# --- checks without Vivado ----------------------------------------------------------------------

def verilator_lint(verilog, log_path):
    """`verilator --lint-only -Wno-fatal` (default warning set) of the subsystem. Returns
    dict(ok, errors, warnings={category: count}, seconds, version, log); ok means no %Error.
    Migen's output has known benign warnings (COMBDLY: `<=` in combinational blocks, WIDTH:
    unsized constants), counted, not failed."""
    exe = shutil.which("verilator")
    if exe is None:
        return {"ok": None, "skipped": "verilator not on PATH"}
    t0 = time.monotonic()
    proc = subprocess.run([exe, "--lint-only", "-Wno-fatal", "--top-module", SUBSYSTEM_TOP,
                           os.path.basename(verilog)], cwd=os.path.dirname(verilog),
                          capture_output=True, text=True)
    seconds = time.monotonic() - t0
    out = proc.stdout + proc.stderr
    with open(log_path, "w") as f:
        f.write(out)
    warnings, errors = {}, 0
    for line in out.splitlines():
        if line.startswith("%Warning-"):
            cat = line.split(":", 1)[0][len("%Warning-"):]
            warnings[cat] = warnings.get(cat, 0) + 1
        elif line.startswith("%Error"):
            errors += 1
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    return {"ok": proc.returncode == 0 and errors == 0, "errors": errors,
            "warnings": dict(sorted(warnings.items())), "seconds": round(seconds, 1),
            "version": version, "log": log_path}


def _versions():
    return buildcache.package_versions("litex", "migen")


def _vivado_version(exe):
    try:
        out = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=120).stdout
        return out.strip().splitlines()[0] if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


# --- `litedigest build pynq_z2` --------------------------------------------------------------------

def _main_soc():
    from litedigest.soc.targets.sim import MAIN_SOC
    return MAIN_SOC


def add_arguments(p):
    p.add_argument("--hash-engine", default=None, metavar="SPECS",
                   help="engine specs, comma-separated (default: the main SoC's, "
                        + ",".join(_main_soc()) + ")")
    p.add_argument("--output-dir", default=None,
                   help="build directory (default: build/pynq_z2/<engines>)")
    p.add_argument("--no-synth", action="store_true",
                   help="skip Yosys synth_xilinx (the full engine set takes minutes)")
    p.add_argument("--no-lint", action="store_true", help="skip the Verilator lint")
    p.add_argument("--no-vivado", action="store_true",
                   help="do not run Vivado even when it is on PATH (write the TCL only)")
    p.add_argument("--jobs", type=int, default=2, help="Vivado implementation jobs")
    p.add_argument("--nice", type=int, default=10, help="niceness of the Yosys run (default 10)")
    p.add_argument("--force", action="store_true", help="regenerate and resynthesize even if cached")
    p.add_argument("--manifest", default=None, metavar="PATH",
                   help="also write the manifest here (bitstreams/pynq_z2/manifest.json)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def default_output_dir(engines):
    return os.path.join(buildcache.build_root(), BOARD, engines_key(engines))


def _prepare_dir(path):
    path = os.path.abspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise TargetError(f"output directory {path} exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise TargetError(f"cannot create output directory {path}: {e.strerror}") from None
    if not os.access(path, os.W_OK):
        raise TargetError(f"output directory {path} is not writable")
    return path


def _write_json(path, data):
    buildcache.write(path, data, newline=True)


def run(engines=None, output_dir=None, synth=True, lint=True, vivado=True, jobs=2, niceness=10,
        force=False, manifest_path=None, command=None, log=print):
    """Generate, write the Vivado TCL, run Vivado if present, lint and synthesize. Returns the
    report dict (also written to <output_dir>/report.json). Raises TargetError on bad input.
    Runs on one output directory take turns."""
    engines = engine_list(engines)
    out = _prepare_dir(output_dir or default_output_dir(engines))
    with buildcache.locked(out):
        return _run(engines, out, synth, lint, vivado, jobs, niceness, force, manifest_path, command, log)


def _run(engines, out, synth, lint, vivado, jobs, niceness, force, manifest_path, command, log):
    import contextlib
    import io
    import logging
    from litedigest.soc.flows import xc7 as flow_xc7

    stamp = _input_stamp(engines)
    stamp_path = os.path.join(out, "stamp.json")
    facts_path = os.path.join(out, "generated.json")
    t0 = time.monotonic()
    if not force and buildcache.cached(stamp_path, stamp) and os.path.exists(facts_path):
        facts = buildcache.load(facts_path)
        log(f"pynq_z2: generated files up to date in {out}")
    else:
        buf = io.StringIO()
        logging.disable(logging.INFO)   # LiteX's build chatter goes to generate.log instead
        try:
            with contextlib.redirect_stdout(buf):
                facts = generate(out, engines)
        finally:
            logging.disable(logging.NOTSET)
            with open(os.path.join(out, "generate.log"), "w") as f:
                f.write(buf.getvalue())
        _write_json(facts_path, facts)
        buildcache.record(stamp_path, stamp)
        log(f"pynq_z2: generated {facts['verilog']} ({time.monotonic() - t0:.1f} s)")
    gen_seconds = round(time.monotonic() - t0, 1)

    vdir = os.path.join(out, "vivado")
    os.makedirs(vdir, exist_ok=True)
    tcl = os.path.join(vdir, "pynq_z2_overlay.tcl")
    with open(tcl, "w") as f:
        f.write(vivado_tcl(facts, jobs=jobs))
    log(f"pynq_z2: Vivado script {tcl}")

    report = {
        "board": BOARD, "device": DEVICE, "top": SUBSYSTEM_TOP, "vlnv": SUBSYSTEM_VLNV,
        "engines": engines, "peripherals": facts["peripherals"],
        "interrupts": facts["interrupts"], "output_dir": out,
        "verilog": facts["verilog"], "csr_json": facts["csr_json"], "csr_h": facts["csr_h"],
        "vivado_tcl": tcl, "generate_seconds": gen_seconds,
    }

    bit = os.path.join(out, f"{OVERLAY_NAME}.bit")
    hwh = os.path.join(out, f"{OVERLAY_NAME}.hwh")
    vivado_exe = shutil.which("vivado")
    if vivado_exe and vivado:
        log(f"pynq_z2: running Vivado ({vivado_exe}): project, block design, bitstream")
        t1 = time.monotonic()
        proc = subprocess.run([vivado_exe, "-mode", "batch", "-nojournal", "-log",
                               os.path.join(vdir, "vivado.log"), "-source", tcl], cwd=vdir)
        report["vivado"] = {"ran": True, "returncode": proc.returncode,
                            "seconds": round(time.monotonic() - t1, 1),
                            "version": _vivado_version(vivado_exe)}
        if proc.returncode != 0 or not (os.path.exists(bit) and os.path.exists(hwh)):
            raise TargetError(f"Vivado failed (exit {proc.returncode}): see {vdir}/vivado.log")
    else:
        why = "--no-vivado" if vivado_exe else "vivado is not on PATH"
        report["vivado"] = {"ran": False, "reason": why}
        log(f"pynq_z2: Vivado NOT run ({why}): no .bit/.hwh built. On a machine with Vivado: "
            f"cd {vdir} && vivado -mode batch -source pynq_z2_overlay.tcl")

    if lint:
        report["lint"] = verilator_lint(facts["verilog"], os.path.join(out, "lint.log"))
        l = report["lint"]
        if l.get("ok") is None:
            log(f"pynq_z2: lint skipped ({l['skipped']})")
        else:
            log(f"pynq_z2: Verilator lint {'passed' if l['ok'] else 'FAILED'}: {l['errors']} errors, "
                f"warnings {l['warnings']} ({l['seconds']} s)")

    if synth:
        synth_dir = os.path.join(out, "synth_xc7")
        cached = buildcache.load(os.path.join(synth_dir, "result.json"))
        vsha = buildcache.file_sha256(facts["verilog"])   # the netlist depends on the Verilog alone
        if not force and cached and cached.get("verilog_sha256") == vsha:
            res = cached["result"]
            log(f"pynq_z2: synth_xilinx result cached ({res['seconds']} s when run)")
        else:
            log(f"pynq_z2: Yosys synth_xilinx -family xc7 of {SUBSYSTEM_TOP} "
                f"({len(engines)} engine(s); minutes for the full set) ...")
            res = flow_xc7.synth_xilinx([facts["verilog"]], SUBSYSTEM_TOP, synth_dir,
                                        niceness=niceness)
            _write_json(os.path.join(synth_dir, "result.json"), {"verilog_sha256": vsha, "result": res})
        report["synth_xc7"] = {
            "counts": {k: res[k] for k in ("lut", "lutram", "ff", "carry4", "muxf7", "muxf8",
                                           "bram36", "bram18", "dsp")},
            "capacity": flow_xc7.XC7Z020,
            "utilization_percent": flow_xc7.utilization(res),
            "fits": flow_xc7.fits(res),
            "seconds": res["seconds"], "yosys_version": res["yosys_version"],
            "note": "Yosys synth_xilinx -family xc7 -noiopad of the subsystem alone (no PS, "
                    "AXI interconnects or axi_intc), before placement: logic only; Vivado's "
                    "own counts differ.",
        }
        log(flow_xc7.format_report(res))
        log(f"({res['yosys_version']}, {res['seconds']} s)")

    manifest = make_manifest(report, facts, bit, command)
    report["manifest"] = os.path.join(out, "manifest.json")
    _write_json(report["manifest"], manifest)
    if manifest_path:
        mdir = os.path.dirname(os.path.abspath(manifest_path))
        _prepare_dir(mdir)
        _write_json(manifest_path, manifest)
        log(f"pynq_z2: manifest {manifest_path}")
    _write_json(os.path.join(out, "report.json"), report)
    return report


def make_manifest(report, facts, bit, command):
    """The per-board manifest (bitstreams/pynq_z2/manifest.json): what was built, with what,
    and what it measured; the bitstream's sha256 when Vivado built one."""
    has_bit = os.path.exists(bit) and report["vivado"].get("ran")
    synth = report.get("synth_xc7")
    lint = report.get("lint")
    return {
        "board": BOARD,
        "device": DEVICE,
        "overlay": {"bit": f"{OVERLAY_NAME}.bit", "hwh": f"{OVERLAY_NAME}.hwh"},
        "subsystem": {"top": SUBSYSTEM_TOP, "vlnv": SUBSYSTEM_VLNV, "cell": SUBSYSTEM_CELL,
                      "gp0_base": f"0x{GP0_BASE:08X}", "csr_window_bytes": 1 << AXIL_ADDRESS_WIDTH,
                      "dma": f"AXI4 {DMA_DATA_WIDTH}-bit master on S_AXI_HP0, DDR 0x{DDR_BASE:08X}"
                             f"+0x{DDR_SIZE:08X}",
                      "clock_hz": FCLK0_HZ,
                      "interrupts": "irq_<instance> -> xlconcat -> axi_intc_0 -> IRQ_F2P[0]; "
                                    "index = csr.json constant <instance>_interrupt"},
        "engines": report["engines"],
        "peripherals": report["peripherals"],
        "tools": dict(_versions(),
                      yosys=synth["yosys_version"] if synth else None,
                      verilator=lint.get("version") if lint else None,
                      vivado=report["vivado"].get("version")),
        "checks": {"verilator_lint": ({"ok": lint["ok"], "errors": lint["errors"],
                                       "warnings": lint["warnings"]}
                                      if lint and lint.get("ok") is not None else None)},
        "utilization_yosys_xc7": ({"counts": synth["counts"],
                                   "capacity": {k: v for k, v in synth["capacity"].items()},
                                   "percent": synth["utilization_percent"],
                                   "synth_seconds": synth["seconds"],
                                   "note": synth["note"]} if synth else None),
        "fmax_mhz": None,
        "fmax_note": "not measured: no Xilinx place and route here (Vivado absent); the "
                     "design is constrained by the PS's FCLK_CLK0 at 100 MHz, and Vivado's "
                     "timing summary (vivado_timing.rpt) says whether it meets it.",
        "bitstream": {"file": f"{OVERLAY_NAME}.bit",
                      "sha256": buildcache.file_sha256(bit) if has_bit else None,
                      "reason": None if has_bit else
                      "not built: the PYNQ-Z2 bitstream needs Vivado, which is not available here"},
        "recipe": command,
    }


def build(args):
    """`litedigest build pynq_z2` entry point (litedigest.cmd_build)."""
    cmd = "litedigest build pynq_z2" + "".join(
        f" --{k.replace('_', '-')} {v}" for k, v in (("hash_engine", args.hash_engine),)
        if v) + (" --no-synth" if args.no_synth else "")
    if args.manifest:
        cmd += f" --manifest {args.manifest}"
    try:
        report = run(args.hash_engine, args.output_dir, synth=not args.no_synth,
                     lint=not args.no_lint, vivado=not args.no_vivado, jobs=args.jobs,
                     niceness=args.nice, force=args.force, manifest_path=args.manifest,
                     command=cmd, log=(lambda *a: print(*a, file=sys.stderr)) if args.json else print)
    except TargetError as e:
        print(f"litedigest build pynq_z2: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # flows.xc7.Xc7SynthError and the like: the message says what failed
        from litedigest.soc.flows.xc7 import Xc7SynthError
        if isinstance(e, Xc7SynthError):
            print(f"litedigest build pynq_z2: error: {e}", file=sys.stderr)
            return 1
        raise
    if args.json:
        print(json.dumps(report, indent=2))
    lint = report.get("lint") or {}
    return 1 if lint.get("ok") is False else 0


def main(argv=None):
    p = argparse.ArgumentParser(description="Build the LiteDigest PYNQ-Z2 subsystem and Vivado TCL")
    add_arguments(p)
    return build(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
