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
  Vivado TCL, its manifest, optional extra steps such as a firmware build);
- ``run(target, ...)``: the build: generate (cached on an input stamp), write the TCL, run
  Vivado when it is on PATH, else check what can be checked here: Verilator lint, Yosys
  ``synth_xilinx`` utilization against the part, and (``Target.tcl_dry_run``) the TCL itself
  run in tclsh with Vivado's commands stubbed (``tcl_dry_run``);
- helpers: ``verilator_lint``, ``tcl_list``, ``tcl_dry_run``, ``engine_list``.
"""
import contextlib
import dataclasses
import io
import logging
import os
import shutil
import subprocess
import tempfile
import time
from typing import Callable, Optional

from migen import ClockDomain

from litex.build.generic_platform import Pins
from litex.build.xilinx import XilinxPlatform
from litex.soc.integration.builder import Builder
from litex.soc.integration.soc import SoCRegion
from litex.soc.integration.soc_core import SoCMini
from litex.soc.interconnect.axi import AXIInterface, AXILiteInterface

from litedigest import spec as specmod
from litedigest import buildcache

SUBSYSTEM_TOP = "litedigest_subsystem"
# The subsystem's VLNV in a block design (a Vivado module reference): what drivers bind to.
SUBSYSTEM_VLNV = f"xilinx.com:module_ref:{SUBSYSTEM_TOP}:1.0"
SUBSYSTEM_CELL = "litedigest_0"        # its instance name in the block design
AXIL_ADDRESS_WIDTH = 16                # the CSR window: 64 KiB (LiteX csr_address_width 14)
DMA_DATA_WIDTH = 64                    # m_axi data width
CLOCK_HZ = 100_000_000                 # the subsystem's clock in every target


class TargetError(Exception):
    """Bad input to a board build (engine spec, output directory, options)."""


@dataclasses.dataclass
class Target:
    """A board that holds the subsystem in a Vivado block design.

    `vivado_tcl(facts, jobs) -> str` writes the block-design script; `make_manifest(report,
    facts, command) -> dict` the board's manifest; `extra_steps(out, facts, report, force, log)`
    (optional) runs after generation (a firmware build); `vivado_outputs` are the files a
    Vivado run must leave in the build directory."""
    name: str                  # "pynq_z2": `litedigest build <name>`, LITEDIGEST_BOARD
    device: str                # Vivado part
    ddr_base: int              # the DMA's view of DDR: csr.json memories.main_ram
    ddr_size: int
    csr_base: int              # where the block design maps s_axi for the board's CPU
    capacity: dict             # litedigest.soc.flows.xc7 device capacity
    tcl_name: str              # vivado/<tcl_name>
    vivado_tcl: Callable
    make_manifest: Callable
    vivado_outputs: tuple      # file names in the build directory
    synth_note: str
    module_file: str           # the target's module (part of the input stamp)
    clock_hz: int = CLOCK_HZ
    extra_steps: Optional[Callable] = None
    tcl_dry_run: bool = False  # run the TCL in tclsh with Vivado stubbed as part of the build


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
        SoCMini.__init__(self, platform, clk_freq=target.clock_hz,
                         ident="", csr_data_width=32, csr_address_width=AXIL_ADDRESS_WIDTH - 2)

        # Clock and reset from the block design: its proc_sys_reset already synchronizes rst_n.
        clk, rst_n = platform.request("clk"), platform.request("rst_n")
        if with_clock_pads:
            self.cd_sys = ClockDomain("sys")
            self.comb += [self.cd_sys.clk.eq(clk), self.cd_sys.rst.eq(~rst_n)]
        self.irq_pads = irq_pads = {n: platform.request(f"irq_{n}") for n in names}
        # Vivado's module reference reads these to tie clock, reset, buses and interrupts.
        clk.attr.add(("X_INTERFACE_INFO", "xilinx.com:signal:clock:1.0 clk CLK"))
        clk.attr.add(("X_INTERFACE_PARAMETER",
                      f"ASSOCIATED_BUSIF s_axi:m_axi, ASSOCIATED_RESET rst_n, FREQ_HZ {target.clock_hz}"))
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
        self.comb += self.s_axi.connect(s_axi32)   # zero-extends the 16-bit offsets
        self.bus.add_master(name="s_axi", master=s_axi32)

        # The DMA's view of memory: the board's DDR. A linker region (no decoder on the CSR
        # bus: it is another address space) that add_hash_peripheral reads and csr.json
        # exports as memories.main_ram.
        self.bus.add_region("main_ram", SoCRegion(origin=target.ddr_base, size=target.ddr_size,
                                                  linker=True, cached=False))

        # The peripherals; each irq drives its pad, the constant <instance>_interrupt is the
        # interrupt-controller input (bit of the concatenation) it reaches. DMA side: the burst
        # readers (64-bit rows) and the walkers' bridge on one AXI master.
        from litedigest.soc.peripheral import add_hash_subsystem
        self.m_axi = AXIInterface(data_width=DMA_DATA_WIDTH, address_width=32, id_width=1)
        self.hash_peripherals = add_hash_subsystem(self, self.hash_engines, axi_port=self.m_axi,
                                                   irq_pads=irq_pads)
        self.add_constant("LITEDIGEST_BOARD", target.name)
        self.add_constant("LITEDIGEST_SUBSYSTEM_VLNV", SUBSYSTEM_VLNV)
        self.m_axi_pads = platform.request("m_axi")
        self.comb += self.m_axi.connect_to_pads(self.m_axi_pads, mode="master")


# --- generation -------------------------------------------------------------------------------

def engines_key(engines):
    """Directory name of an engine set: 'sha256-opt_sha1-opt_...'."""
    return "_".join(specmod.parse(e).engine_name.replace(":", "-") for e in engines)


def versions():
    return buildcache.package_versions("litex", "migen")


def input_stamp(target, engines):
    """Hash of what the generated files depend on: the engine list, the gateware sources
    (buildcache.gateware_sources()), this module, the target's module and the LiteX/Migen
    versions."""
    return buildcache.stamp({"engines": engines},
                            [buildcache.gateware_sources(), os.path.abspath(__file__),
                             os.path.abspath(target.module_file)],
                            versions())


def generate(out_dir, engines, target):
    """Generate the subsystem into out_dir: gateware/<top>.v, csr.json, csr.csv,
    software/include/generated/{csr,soc,mem}.h. Returns a dict of facts (peripherals, paths)."""
    soc = LiteDigestSubsystem(engines, target=target)
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


# --- TCL ----------------------------------------------------------------------------------------

def tcl_list(d):
    """`CONFIG.K {V} ...` of a dict, for `set_property -dict [list ...]`."""
    return " ".join(f"CONFIG.{k} {{{v}}}" for k, v in d.items())


# The directories every board script works in: its own (`here`, the Vivado project under it),
# the build's (`out_dir`: the bitstream and the handoff go there) and the gateware's
TCL_DIRS = [
    "set here [file dirname [file normalize [info script]]]",
    "set out_dir [file normalize \"$here/..\"]",
    "set gw_dir \"$out_dir/gateware\"",
]


def tcl_irq_concat(irqs):
    """The interrupt lines `irqs` (peripheral names, in csr.json's order: line i is irq_<name>)
    into the xlconcat `$concat` (irq_concat) and its output into axi_intc_0's intr. xlconcat
    needs two inputs: with one line the second is tied low."""
    lines = [f"set_property -dict [list CONFIG.NUM_PORTS {{{max(2, len(irqs))}}}] $concat"]
    for i, name in enumerate(irqs):
        lines.append(f"connect_bd_net [get_bd_pins {SUBSYSTEM_CELL}/irq_{name}] [get_bd_pins irq_concat/In{i}]")
    if len(irqs) == 1:
        lines += ["set zero [create_bd_cell -type ip -vlnv xilinx.com:ip:xlconstant:1.1 irq_zero]",
                  "set_property -dict [list CONFIG.CONST_VAL {0}] $zero",
                  "connect_bd_net [get_bd_pins irq_zero/dout] [get_bd_pins irq_concat/In1]"]
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
        "if {[get_property PROGRESS [get_runs impl_1]] != \"100%\"} {",
        "  error \"implementation or bitstream failed: see $here/project\"",
        "}",
        "open_run impl_1",
        "report_utilization -file \"$out_dir/vivado_utilization.rpt\"",
        "report_timing_summary -file \"$out_dir/vivado_timing.rpt\"",
        f"file copy -force [get_property DIRECTORY [get_runs impl_1]]/{bd_name}_wrapper.bit "
        f"\"$out_dir/{bitstream}\"",
    ]


# Tcl run by a real Tcl interpreter (tclsh) with Vivado's commands replaced: every command Tcl
# does not know is recorded with its arguments as substituted and returns "" (`unknown`), the
# object getters and create_bd_cell return what they were asked for or made (so the calls name
# the objects: `set_property ... $cell` names the cell), a run's
# PROGRESS is 100%, and `file` keeps its path operations but records copies instead of making
# them. `get_board_parts` returns its pattern (the board files are installed) unless
# LITEDIGEST_NO_BOARD_FILES is set in the environment.
TCL_STUB_HARNESS = r"""
set ::calls {}
proc unknown {args} { lappend ::calls $args; return "" }
foreach getter {get_bd_pins get_bd_intf_pins get_bd_cells get_bd_nets get_bd_ports
                get_bd_intf_ports get_bd_addr_segs get_bd_addr_spaces} {
    proc $getter {args} { return [lindex $args end] }
}
proc create_bd_cell {args} {
    lappend ::calls [list create_bd_cell {*}$args]
    return [lindex $args end]    ;# the cell, as Vivado's object prints
}
proc get_board_parts {args} {
    lappend ::calls [list get_board_parts {*}$args]
    if {[info exists ::env(LITEDIGEST_NO_BOARD_FILES)]} { return "" }
    return [lindex $args end]
}
proc get_property {args} {
    lappend ::calls [list get_property {*}$args]
    if {[lindex $args 0] eq "PROGRESS"} { return "100%" }   ;# a run that completed
    return ""
}
rename file _file
proc file {op args} {
    if {$op in {copy delete mkdir rename}} { lappend ::calls [list file $op {*}$args]; return "" }
    return [_file $op {*}$args]
}
set status [catch {source [lindex $argv 0]} message]
foreach c $::calls { puts "CALL\x1f[join $c \x1f]" }
if {$status} { puts "ERROR\x1f$message"; exit 3 }
"""


class TclDryRunError(RuntimeError):
    """The TCL failed in tclsh (a Tcl error, or an `error` the script raised itself)."""


def tcl_dry_run(tcl_path, board_files=True, timeout=60):
    """Run a Vivado TCL script in tclsh with Vivado's commands stubbed and recorded
    (TCL_STUB_HARNESS). Returns the recorded calls, each a list [command, arg, ...] as
    substituted; None when tclsh is not installed. Raises TclDryRunError when the script fails
    (the message, and the calls recorded until then, in its args)."""
    tclsh = shutil.which("tclsh")
    if tclsh is None:
        return None
    env = dict(os.environ)
    if not board_files:
        env["LITEDIGEST_NO_BOARD_FILES"] = "1"
    with tempfile.TemporaryDirectory(prefix="ld_tcl_") as d:
        harness = os.path.join(d, "harness.tcl")
        with open(harness, "w") as f:
            f.write(TCL_STUB_HARNESS)
        r = subprocess.run([tclsh, harness, os.path.abspath(tcl_path)], capture_output=True,
                           text=True, timeout=timeout, env=env)
    calls = [line.split("\x1f")[1:] for line in r.stdout.splitlines() if line.startswith("CALL\x1f")]
    errors = [line.split("\x1f", 1)[1] for line in r.stdout.splitlines() if line.startswith("ERROR\x1f")]
    if r.returncode != 0 or errors:
        raise TclDryRunError((errors[0] if errors else r.stderr.strip()) or f"tclsh exit {r.returncode}",
                             calls)
    return calls


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


def vivado_version(exe):
    try:
        out = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=120).stdout
        return out.strip().splitlines()[0] if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


# --- the build ----------------------------------------------------------------------------------

def default_output_dir(target, engines):
    return os.path.join(buildcache.build_root(), target.name, engines_key(engines))


def prepare_dir(path):
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


def write_json(path, data):
    buildcache.write(path, data, newline=True)


def run(target, engines=None, output_dir=None, synth=True, lint=True, vivado=True, jobs=2,
        niceness=10, force=False, manifest_path=None, command=None, log=print):
    """Generate, write the Vivado TCL, run Vivado if present, lint and synthesize. Returns the
    report dict (also written to <output_dir>/report.json). Raises TargetError on bad input.
    Runs on one output directory take turns."""
    engines = engine_list(engines)
    out = prepare_dir(output_dir or default_output_dir(target, engines))
    with buildcache.locked(out):
        return _run(target, engines, out, synth, lint, vivado, jobs, niceness, force,
                    manifest_path, command, log)


def _run(target, engines, out, synth, lint, vivado, jobs, niceness, force, manifest_path,
         command, log):
    from litedigest.soc.flows import xc7 as flow_xc7

    name = target.name
    stamp = input_stamp(target, engines)
    stamp_path = os.path.join(out, "stamp.json")
    facts_path = os.path.join(out, "generated.json")
    t0 = time.monotonic()
    if not force and buildcache.cached(stamp_path, stamp) and os.path.exists(facts_path):
        facts = buildcache.load(facts_path)
        log(f"{name}: generated files up to date in {out}")
    else:
        buf = io.StringIO()
        logging.disable(logging.INFO)   # LiteX's build chatter goes to generate.log instead
        try:
            with contextlib.redirect_stdout(buf):
                facts = generate(out, engines, target)
        finally:
            logging.disable(logging.NOTSET)
            with open(os.path.join(out, "generate.log"), "w") as f:
                f.write(buf.getvalue())
        write_json(facts_path, facts)
        buildcache.record(stamp_path, stamp)
        log(f"{name}: generated {facts['verilog']} ({time.monotonic() - t0:.1f} s)")
    gen_seconds = round(time.monotonic() - t0, 1)

    vdir = os.path.join(out, "vivado")
    os.makedirs(vdir, exist_ok=True)
    tcl = os.path.join(vdir, target.tcl_name)
    with open(tcl, "w") as f:
        f.write(target.vivado_tcl(facts, jobs=jobs))
    log(f"{name}: Vivado script {tcl}")

    report = {
        "board": name, "device": target.device, "top": SUBSYSTEM_TOP, "vlnv": SUBSYSTEM_VLNV,
        "engines": engines, "peripherals": facts["peripherals"],
        "interrupts": facts["interrupts"], "output_dir": out,
        "verilog": facts["verilog"], "csr_json": facts["csr_json"], "csr_h": facts["csr_h"],
        "vivado_tcl": tcl, "generate_seconds": gen_seconds,
    }

    if target.tcl_dry_run:
        t1 = time.monotonic()
        try:
            calls = tcl_dry_run(tcl)
        except TclDryRunError as e:
            raise TargetError(f"the generated Vivado TCL fails in tclsh: {e.args[0]}") from None
        if calls is None:
            report["tcl_dry_run"] = {"ok": None, "skipped": "tclsh not on PATH"}
            log(f"{name}: TCL dry run skipped (tclsh not on PATH)")
        else:
            report["tcl_dry_run"] = {"ok": True, "vivado_calls": len(calls),
                                     "seconds": round(time.monotonic() - t1, 1)}
            log(f"{name}: TCL dry run in tclsh (Vivado's commands stubbed): {len(calls)} calls, no Tcl error")

    outputs = [os.path.join(out, f) for f in target.vivado_outputs]
    products = "/".join(os.path.splitext(f)[1] for f in target.vivado_outputs)
    vivado_exe = shutil.which("vivado")
    if vivado_exe and vivado:
        log(f"{name}: running Vivado ({vivado_exe}): project, block design, bitstream")
        t1 = time.monotonic()
        proc = subprocess.run([vivado_exe, "-mode", "batch", "-nojournal", "-log",
                               os.path.join(vdir, "vivado.log"), "-source", tcl], cwd=vdir)
        report["vivado"] = {"ran": True, "returncode": proc.returncode,
                            "seconds": round(time.monotonic() - t1, 1),
                            "version": vivado_version(vivado_exe)}
        if proc.returncode != 0 or not all(os.path.exists(p) for p in outputs):
            raise TargetError(f"Vivado failed (exit {proc.returncode}): see {vdir}/vivado.log")
    else:
        why = "--no-vivado" if vivado_exe else "vivado is not on PATH"
        report["vivado"] = {"ran": False, "reason": why}
        log(f"{name}: Vivado NOT run ({why}): no {products} built. On a machine with Vivado: "
            f"cd {vdir} && vivado -mode batch -source {target.tcl_name}")

    if target.extra_steps is not None:
        target.extra_steps(out, facts, report, force, log)

    if lint:
        report["lint"] = verilator_lint(facts["verilog"], os.path.join(out, "lint.log"))
        l = report["lint"]
        if l.get("ok") is None:
            log(f"{name}: lint skipped ({l['skipped']})")
        else:
            log(f"{name}: Verilator lint {'passed' if l['ok'] else 'FAILED'}: {l['errors']} errors, "
                f"warnings {l['warnings']} ({l['seconds']} s)")

    if synth:
        synth_dir = os.path.join(out, "synth_xc7")
        cached = buildcache.load(os.path.join(synth_dir, "result.json"))
        vsha = buildcache.file_sha256(facts["verilog"])   # the netlist depends on the Verilog alone
        if not force and cached and cached.get("verilog_sha256") == vsha:
            res = cached["result"]
            log(f"{name}: synth_xilinx result cached ({res['seconds']} s when run)")
        else:
            log(f"{name}: Yosys synth_xilinx -family xc7 of {SUBSYSTEM_TOP} "
                f"({len(engines)} engine(s); minutes for the full set) ...")
            res = flow_xc7.synth_xilinx([facts["verilog"]], SUBSYSTEM_TOP, synth_dir,
                                        niceness=niceness)
            write_json(os.path.join(synth_dir, "result.json"), {"verilog_sha256": vsha, "result": res})
        report["synth_xc7"] = {
            "counts": {k: res[k] for k in ("lut", "lutram", "ff", "carry4", "muxf7", "muxf8",
                                           "bram36", "bram18", "dsp")},
            "capacity": target.capacity,
            "utilization_percent": flow_xc7.utilization(res, target.capacity),
            "fits": flow_xc7.fits(res, target.capacity),
            "seconds": res["seconds"], "yosys_version": res["yosys_version"],
            "note": target.synth_note,
        }
        log(flow_xc7.format_report(res, target.capacity))
        log(f"({res['yosys_version']}, {res['seconds']} s)")

    manifest = target.make_manifest(report, facts, command)
    report["manifest"] = os.path.join(out, "manifest.json")
    write_json(report["manifest"], manifest)
    if manifest_path:
        mdir = os.path.dirname(os.path.abspath(manifest_path))
        prepare_dir(mdir)
        write_json(manifest_path, manifest)
        log(f"{name}: manifest {manifest_path}")
    write_json(os.path.join(out, "report.json"), report)
    return report


def manifest_checks(report):
    """The manifest's `tools` versions and `checks` / `utilization_yosys_xc7` entries, from a
    report (shared by the targets' manifests)."""
    synth = report.get("synth_xc7")
    lint = report.get("lint")
    tools = dict(versions(),
                 yosys=synth["yosys_version"] if synth else None,
                 verilator=lint.get("version") if lint else None,
                 vivado=report["vivado"].get("version"))
    checks = {"verilator_lint": ({"ok": lint["ok"], "errors": lint["errors"],
                                  "warnings": lint["warnings"]}
                                 if lint and lint.get("ok") is not None else None)}
    util = ({"counts": synth["counts"],
             "capacity": {k: v for k, v in synth["capacity"].items()},
             "percent": synth["utilization_percent"],
             "synth_seconds": synth["seconds"],
             "note": synth["note"]} if synth else None)
    return tools, checks, util


def build_command(args, board):
    """The `litedigest build <board> ...` line a manifest records (its `recipe`)."""
    cmd = f"litedigest build {board}" + "".join(
        f" --{k.replace('_', '-')} {v}" for k, v in (("hash_engine", args.hash_engine),)
        if v) + (" --no-synth" if args.no_synth else "")
    if args.manifest:
        cmd += f" --manifest {args.manifest}"
    return cmd
