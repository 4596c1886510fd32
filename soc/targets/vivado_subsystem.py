# SPDX-License-Identifier: BSD-2-Clause
"""The LiteDigest hash subsystem for a Vivado block design, shared by the Xilinx board targets.

A board target (``pynq_z2``: next to the Zynq PS; ``arty_a7``: next to a MicroBlaze V) puts
the same LiteX-generated subsystem, one Verilog module ``litedigest_subsystem`` without a CPU,
into a Vivado block design as a module reference and writes the TCL that builds it. This
module holds what they share:

- ``LiteDigestSubsystem``: the hash peripherals (``litedigest.soc.peripheral.add_hash_subsystem``,
  their DMA readers AXI burst readers), their CSRs behind an AXI4-Lite slave ``s_axi`` (32-bit
  data, 16-bit address: a 64 KiB window; the CSR region at 0, so csr.json addresses are offsets
  from wherever the block design maps the window), their DMA on one AXI4 master ``m_axi``
  (64-bit data, 32-bit address) that reads the board's DDR (``Target.ddr_base``/``ddr_size``:
  csr.json's ``main_ram``, which the peripherals check DMA ranges against), one level-high
  interrupt ``irq_<instance>`` per peripheral (input index: the csr.json constant
  ``<instance>_interrupt``), clock ``clk`` and active-low reset ``rst_n``. The ports carry the
  X_INTERFACE attributes Vivado's module reference reads. The details (burst reader, read
  arbiter, walkers' Wishbone-to-AXI bridge, measured throughput) are in soc/targets/pynq_z2.py.
- ``Target``: what a board adds (part, DDR window, where its CPU sees the CSR window, its
  Vivado TCL, its manifest, optional extra steps such as a firmware build); its build is
  builder.run_vivado's;
- ``generate``: the subsystem's Verilog, csr.json and headers;
- the pieces of a board's TCL: ``tcl_list``, ``TCL_DIRS``, ``tcl_irq_concat``,
  ``tcl_implementation``; ``engine_list``.
"""

import dataclasses
import os
from collections.abc import Callable

from litedigest import spec as specmod
from litedigest.soc.targets.builder import TargetError, litex_builder_args
from litex.build.generic_platform import Pins
from litex.build.xilinx import XilinxPlatform
from litex.soc.integration.builder import Builder
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCMini
from litex.soc.interconnect.axi import AXIInterface, AXILiteInterface
from migen import ClockDomain

SUBSYSTEM_TOP = "litedigest_subsystem"
# The subsystem's VLNV in a block design (a Vivado module reference): what drivers bind to.
SUBSYSTEM_VLNV = f"xilinx.com:module_ref:{SUBSYSTEM_TOP}:1.0"
SUBSYSTEM_CELL = "litedigest_0"  # its instance name in the block design
AXIL_ADDRESS_WIDTH = 16  # the CSR window: 64 KiB (LiteX csr_address_width 14)
DMA_DATA_WIDTH = 64  # m_axi data width
CLOCK_HZ = 100_000_000  # the subsystem's clock in every target


@dataclasses.dataclass
class Target:
    """A board that holds the subsystem in a Vivado block design.

    `vivado_tcl(facts, jobs) -> str` writes the block-design script; `make_manifest(report,
    facts, command) -> dict` the board's manifest; `extra_steps(out, facts, report, force, log)`
    (optional) runs after generation (a firmware build); `vivado_outputs` are the files a
    Vivado run must leave in the build directory, the bitstream first."""

    top = SUBSYSTEM_TOP
    vlnv = SUBSYSTEM_VLNV
    cell = SUBSYSTEM_CELL
    csr_window_bytes = 1 << AXIL_ADDRESS_WIDTH
    name: str  # "pynq_z2": `litedigest build <name>`, LITEDIGEST_BOARD
    title: str  # "PYNQ-Z2": the board in a sentence
    device: str  # Vivado part
    ddr_base: int  # the DMA's view of DDR: csr.json memories.main_ram
    ddr_size: int
    csr_base: int  # where the block design maps s_axi for the board's CPU
    capacity: dict  # litedigest.soc.flows.xc7 device capacity
    tcl_name: str  # vivado/<tcl_name>
    vivado_tcl: Callable
    make_manifest: Callable
    vivado_outputs: tuple  # file names in the build directory
    synth_note: str
    module_file: str  # the target's module (part of the input stamp)
    clock_hz: int = CLOCK_HZ
    extra_steps: Callable | None = None
    tcl_dry_run: bool = False  # run the TCL in tclsh with Vivado stubbed as part of the build
    default_engines: tuple | None = None  # None: the simulated main SoC's (sim.MAIN_SOC)

    def engine_list(self, hash_engines):
        """Engine specs (checked) from None (the board's default), a list, or a string."""
        return engine_list(self.default_engines if hash_engines is None else hash_engines)

    def generate(self, out_dir, engines):
        return generate(out_dir, engines, self)

    def sources(self):
        """The modules the generated files depend on besides the gateware: this one and the
        board's."""
        return [os.path.abspath(__file__), os.path.abspath(self.module_file)]


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

    def __init__(self, device, ios, name):
        XilinxPlatform.__init__(self, device, ios, toolchain="vivado", name=name)


class LiteDigestSubsystem(SoCMini):
    """The hash subsystem: peripherals, CSRs behind AXI-Lite at 0, DMA into one AXI master."""

    mem_map = {"csr": 0x00000000}

    def __init__(self, hash_engines=None, with_clock_pads=True, target=None):
        """`target`: the board (its part, DDR window, name). `with_clock_pads=False` leaves the
        sys clock domain to a simulator (Migen's run_simulation drives it) instead of the
        clk/rst_n ports."""
        if target is None:
            raise TargetError("LiteDigestSubsystem needs a board target (pynq_z2.TARGET, ...)")
        self.target = target
        self.hash_engines = engine_list(hash_engines)
        names = [specmod.instance_name(e, self.hash_engines) for e in self.hash_engines]
        if len(set(names)) != len(names):
            raise TargetError(f"an engine is listed twice: {', '.join(self.hash_engines)}")
        platform = _SubsystemPlatform(target.device, _ios(names), target.name)
        SoCMini.__init__(
            self,
            platform,
            clk_freq=target.clock_hz,
            ident="",
            csr_data_width=32,
            csr_address_width=AXIL_ADDRESS_WIDTH - 2,
        )

        # Clock and reset from the block design: its proc_sys_reset already synchronizes rst_n.
        clk, rst_n = platform.request("clk"), platform.request("rst_n")
        if with_clock_pads:
            self.cd_sys = ClockDomain("sys")
            self.comb += [self.cd_sys.clk.eq(clk), self.cd_sys.rst.eq(~rst_n)]
        self.irq_pads = irq_pads = {n: platform.request(f"irq_{n}") for n in names}
        # Vivado's module reference reads these to tie clock, reset, buses and interrupts.
        clk.attr.add(("X_INTERFACE_INFO", "xilinx.com:signal:clock:1.0 clk CLK"))
        clk.attr.add(
            (
                "X_INTERFACE_PARAMETER",
                f"ASSOCIATED_BUSIF s_axi:m_axi, ASSOCIATED_RESET rst_n, FREQ_HZ {target.clock_hz}",
            )
        )
        rst_n.attr.add(("X_INTERFACE_INFO", "xilinx.com:signal:reset:1.0 rst_n RST"))
        rst_n.attr.add(("X_INTERFACE_PARAMETER", "POLARITY ACTIVE_LOW"))
        for n, pad in irq_pads.items():
            pad.attr.add(("X_INTERFACE_INFO", f"xilinx.com:signal:interrupt:1.0 irq_{n} INTERRUPT"))
            pad.attr.add(("X_INTERFACE_PARAMETER", "SENSITIVITY LEVEL_HIGH"))

        # CPU side: AXI-Lite slave -> the SoC bus (Wishbone) -> CSR bridge at 0.
        self.s_axi = AXILiteInterface(data_width=32, address_width=AXIL_ADDRESS_WIDTH)
        self.s_axi_pads = platform.request("s_axi")
        self.comb += self.s_axi.connect_to_pads(self.s_axi_pads, mode="slave")
        s_axi32 = AXILiteInterface(data_width=32, address_width=32)
        self.comb += self.s_axi.connect(s_axi32)  # zero-extends the 16-bit offsets
        self.bus.add_master(name="s_axi", master=s_axi32)

        # The DMA's view of memory: the board's DDR. A linker region (no decoder on the CSR
        # bus: it is another address space) that add_hash_peripheral reads and csr.json
        # exports as memories.main_ram.
        self.bus.add_region(
            "main_ram",
            SoCRegion(origin=target.ddr_base, size=target.ddr_size, linker=True, cached=False),
        )

        # The peripherals; each irq drives its pad, the constant <instance>_interrupt is the
        # interrupt-controller input (bit of the concatenation) it reaches. DMA side: the burst
        # readers (64-bit rows) and the walkers' bridge on one AXI master.
        from litedigest.soc.peripheral import add_hash_subsystem

        self.m_axi = AXIInterface(data_width=DMA_DATA_WIDTH, address_width=32, id_width=1)
        self.hash_peripherals = add_hash_subsystem(
            self, self.hash_engines, axi_port=self.m_axi, irq_pads=irq_pads
        )
        self.add_constant("LITEDIGEST_BOARD", target.name)
        self.add_constant("LITEDIGEST_SUBSYSTEM_VLNV", SUBSYSTEM_VLNV)
        self.m_axi_pads = platform.request("m_axi")
        self.comb += self.m_axi.connect_to_pads(self.m_axi_pads, mode="master")


# --- generation -------------------------------------------------------------------------------


def generate(out_dir, engines, target):
    """Generate the subsystem into out_dir: gateware/<top>.v, csr.json, csr.csv,
    software/include/generated/{csr,soc,mem}.h. Returns a dict of facts (peripherals, paths)."""
    soc = LiteDigestSubsystem(engines, target=target)
    builder = Builder(soc, **litex_builder_args(out_dir, software=False, gateware=False))
    builder.build(build_name=SUBSYSTEM_TOP, run=False)
    gw = builder.gateware_dir
    # LiteX also writes its own Vivado project script and pin constraints for a standalone
    # FPGA design: not ours (the subsystem has no pins; vivado/ holds the real flow).
    for name in (
        f"{SUBSYSTEM_TOP}.tcl",
        f"{SUBSYSTEM_TOP}.xdc",
        "build.sh",
        "build_" + SUBSYSTEM_TOP + ".sh",
    ):
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


# --- TCL ----------------------------------------------------------------------------------------


def tcl_list(d):
    """`CONFIG.K {V} ...` of a dict, for `set_property -dict [list ...]`."""
    return " ".join(f"CONFIG.{k} {{{v}}}" for k, v in d.items())


# The directories every board script works in: its own (`here`, the Vivado project under it),
# the build's (`out_dir`: the bitstream and the handoff go there) and the gateware's
TCL_DIRS = [
    "set here [file dirname [file normalize [info script]]]",
    'set out_dir [file normalize "$here/.."]',
    'set gw_dir "$out_dir/gateware"',
]


def tcl_irq_concat(irqs):
    """The interrupt lines `irqs` (peripheral names, in csr.json's order: line i is irq_<name>)
    into the xlconcat `$concat` (irq_concat) and its output into axi_intc_0's intr. xlconcat
    needs two inputs: with one line the second is tied low."""
    lines = [f"set_property -dict [list CONFIG.NUM_PORTS {{{max(2, len(irqs))}}}] $concat"]
    for i, name in enumerate(irqs):
        lines.append(
            f"connect_bd_net [get_bd_pins {SUBSYSTEM_CELL}/irq_{name}] "
            f"[get_bd_pins irq_concat/In{i}]"
        )
    if len(irqs) == 1:
        lines += [
            "set zero [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 irq_zero]",
            "set_property -dict [list CONFIG.CONST_VAL {0}] $zero",
            "connect_bd_net [get_bd_pins irq_zero/dout] [get_bd_pins irq_concat/In1]",
        ]
    return lines + ["connect_bd_net [get_bd_pins irq_concat/dout] [get_bd_pins axi_intc_0/intr]"]


def tcl_implementation(bd_name, bitstream, jobs):
    """The end of a board script, once its block design `bd_name` is complete: validated and
    saved, wrapped as the top, implemented to a bitstream (`jobs` parallel runs; an incomplete
    run is a Tcl error), the utilization and timing reports and the bitstream copied to
    $out_dir as `bitstream`. The board's handoff file (.hwh, .xsa) follows."""
    return [
        "validate_bd_design",
        "save_bd_design",
        "",
        f"set bd_file [get_files {bd_name}.bd]",
        "generate_target all $bd_file",
        "set wrapper [make_wrapper -files $bd_file -top]",
        "add_files -norecurse $wrapper",
        f"set_property top {bd_name}_wrapper [current_fileset]",
        "update_compile_order -fileset sources_1",
        f"launch_runs impl_1 -to_step write_bitstream -jobs {jobs}",
        "wait_on_run impl_1",
        'if {[get_property PROGRESS [get_runs impl_1]] != "100%"} {',
        '  error "implementation or bitstream failed: see $here/project"',
        "}",
        "open_run impl_1",
        'report_utilization -file "$out_dir/vivado_utilization.rpt"',
        'report_timing_summary -file "$out_dir/vivado_timing.rpt"',
        f"file copy -force [get_property DIRECTORY [get_runs impl_1]]/{bd_name}_wrapper.bit "
        f'"$out_dir/{bitstream}"',
    ]
