# SPDX-License-Identifier: BSD-2-Clause
"""Building a target, written once for all of them (in the style of LiteX's Builder; the
command line is args.py's). A target module is its SoC, its clocking and what is its board's
own (its Vivado TCL, its BSP); this module holds the steps around them:

- `litex_builder_args`, `build_software`: LiteX's Builder with csr.json and csr.csv at the
  top of the build directory, and the software libraries a firmware links against, without
  the BIOS (the SoCs with a CPU boot their firmware from main RAM); `main_ram_init_file`: the
  main RAM's $readmemh file among the generated ones;
- the Vivado boards' build (`run_vivado`): generate the subsystem (cached on an input stamp),
  write the board's TCL, run Vivado when it is on PATH, else check what can be checked here
  (Verilator lint, Yosys ``synth_xilinx`` utilization against the part, and
  (``Target.tcl_dry_run``) the TCL run in tclsh with Vivado's commands stubbed), the board's
  extra steps (a firmware), the manifest;
- the manifests: `write_manifest` (the build's copy and the one asked for), `vivado_manifest`
  (what every Vivado board's holds, with the board's own entries);
- `run_command`: a target's command-line build: its errors as exit statuses, --json.
"""

import contextlib
import io
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time

from litedigest import buildcache
from litedigest import spec as specmod


class TargetError(Exception):
    """Bad input to a board build (engine spec, output directory, options)."""


# --- LiteX ---------------------------------------------------------------------------------------


def litex_builder_args(output_dir, software=True, gateware=True):
    """The keyword arguments of LiteX's Builder for a target's build directory `output_dir`:
    csr.json and csr.csv at its top; `software`: the libraries a firmware links against
    (build_software). A target makes the Builder and calls its build() in its own function
    (`builder = Builder(soc, **litex_builder_args(...))`): Migen names the SoC's signals after
    the frames they were made in, and a Builder made here would rename every one of them."""
    return dict(
        output_dir=output_dir,
        compile_software=software,
        compile_gateware=gateware,
        csr_json=os.path.join(output_dir, "csr.json"),
        csr_csv=os.path.join(output_dir, "csr.csv"),
    )


def build_software(builder):
    """After `builder.build()`: LiteX's software libraries (picolibc, compiler-rt, libbase, ...)
    without the BIOS: the SoCs with a CPU boot their firmware from main RAM, with no ROM."""
    builder._prepare_rom_software()
    builder._generate_rom_software(compile_bios=False)


def main_ram_init_file(gateware_dir, rows):
    """The file name of the main RAM's $readmemh file in `gateware_dir`: the one .init file
    named after main_ram with `rows` lines (the RAM's depth in rows of its widest port)."""
    cands = []
    for fn in sorted(os.listdir(gateware_dir)):
        if fn.endswith(".init") and "main_ram" in fn:
            with open(os.path.join(gateware_dir, fn)) as f:
                if sum(1 for _ in f) == rows:
                    cands.append(fn)
    if len(cands) != 1:
        raise RuntimeError(f"cannot identify the main RAM .init file in {gateware_dir}: {cands}")
    return cands[0]


# --- manifests -----------------------------------------------------------------------------------


def write_json(path, data):
    buildcache.write(path, data, newline=True)


def write_manifest(manifest, out, manifest_path=None, log=print, name=None):
    """The build's manifest: <out>/manifest.json, and `manifest_path` too when given (its
    directory made). Returns the path in the build."""
    path = os.path.join(out, "manifest.json")
    write_json(path, manifest)
    if manifest_path:
        prepare_dir(os.path.dirname(os.path.abspath(manifest_path)))
        write_json(manifest_path, manifest)
        log(f"{name}: manifest {manifest_path}")
    return path


def vivado_manifest(
    target, report, command, head, window, dma, interrupts, results=(), clock_note="", needs=""
):
    """The manifest of a Vivado board (bitstreams/<board>/manifest.json): what was built and
    checked here, with what, and what it measured; the bitstream's sha256 when Vivado built
    one. The board's own entries: `head` (after its device), `window` (where its CPU sees the
    CSR window), `dma` and `interrupts` (the subsystem's wiring), `results` (after the checks);
    `clock_note` says what clocks the subsystem, `needs` what Vivado needs for the board."""
    bitstream = target.vivado_outputs[0]
    bit = os.path.join(report["output_dir"], bitstream)
    has_bit = os.path.exists(bit) and report["vivado"].get("ran")
    tools, checks, util = manifest_checks(report)
    if target.tcl_dry_run:
        checks["tcl_dry_run"] = report.get("tcl_dry_run")
    return {
        "board": target.name,
        "device": target.device,
        **head,
        "subsystem": {
            "top": target.top,
            "vlnv": target.vlnv,
            "cell": target.cell,
            **window,
            "csr_window_bytes": target.csr_window_bytes,
            "dma": dma,
            "clock_hz": target.clock_hz,
            "interrupts": interrupts,
        },
        "engines": report["engines"],
        "peripherals": report["peripherals"],
        "tools": tools,
        "checks": checks,
        **dict(results),
        "utilization_yosys_xc7": util,
        "fmax_mhz": None,
        "fmax_note": "not measured: no Xilinx place and route here (Vivado absent); the "
        f"{clock_note}, and Vivado's timing summary (vivado_timing.rpt) says "
        "whether it meets it.",
        "bitstream": {
            "file": bitstream,
            "sha256": buildcache.file_sha256(bit) if has_bit else None,
            "reason": None
            if has_bit
            else f"not built: the {target.title} bitstream needs Vivado{needs}, which is "
            "not available here",
        },
        "recipe": command,
    }


# --- the command line ----------------------------------------------------------------------------


def run_command(board, run, args, command, failed=("lint", "sim_demo")):
    """`litedigest build <board>`: `run(command=..., log=...)` (the build, its report), with
    its bad input (TargetError) exit status 2, a tool's failure (Yosys, the firmware's make)
    1, a `failed` check of the report 1; --json prints the report (and the log goes to
    stderr)."""
    from litedigest.soc.flows.xc7 import Xc7SynthError
    from litedigest.soc.sim.errors import SimError

    # the build's lines are its output on stdout; with --json, its progress on stderr (the
    # command line's, litedigest.progress: --quiet silences it)
    progress = getattr(args, "progress", None)
    log = (progress or (lambda *a: print(*a, file=sys.stderr))) if args.json else print
    try:
        report = run(command=command, log=log)
    except TargetError as e:
        print(f"litedigest build {board}: error: {e}", file=sys.stderr)
        return 2
    except (Xc7SynthError, SimError) as e:  # the message says what failed
        print(f"litedigest build {board}: error: {e}", file=sys.stderr)
        return 1
    if args.json:
        getattr(progress, "close", lambda: None)()
        print(json.dumps(report, indent=2))
    return 1 if any((report.get(k) or {}).get("ok") is False for k in failed) else 0


# --- the Vivado boards: generation ---------------------------------------------------------------


def engines_key(engines):
    """Directory name of an engine set: 'sha256-opt_sha1-opt_...'."""
    return "_".join(specmod.parse(e).engine_name.replace(":", "-") for e in engines)


def versions():
    return buildcache.package_versions("litex", "migen")


def input_stamp(target, engines):
    """Hash of what the generated files depend on: the engine list, the gateware sources
    (buildcache.gateware_sources()), the subsystem's and the target's modules, this module and
    the LiteX/Migen versions."""
    return buildcache.stamp(
        {"engines": engines},
        [buildcache.gateware_sources(), *target.sources(), os.path.abspath(__file__)],
        versions(),
    )


# --- the Vivado boards: the build -----------------------------------------------------------------


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


def run_vivado(target, engines=None, output_dir=None, **options):
    """Generate, write the Vivado TCL, run Vivado if present, the board's extra steps, lint and
    synthesize (`options`: _run's). Returns the report dict (also written to
    <output_dir>/report.json). Raises TargetError on bad input. Runs on one output directory
    take turns."""
    engines = target.engine_list(engines)
    out = prepare_dir(output_dir or default_output_dir(target, engines))
    with buildcache.locked(out):
        return _run(target, engines, out, **options)


def _run(
    target,
    engines: list,
    out: str,
    synth: bool = True,
    lint: bool = True,
    vivado: bool = True,
    jobs: int = 2,
    niceness: int = 10,
    force: bool = False,
    manifest_path: str | None = None,
    command: str | None = None,
    log=print,
) -> dict:
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
        logging.disable(logging.INFO)  # LiteX's build chatter goes to generate.log instead
        try:
            with contextlib.redirect_stdout(buf):
                facts = target.generate(out, engines)
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
        "board": name,
        "device": target.device,
        "top": target.top,
        "vlnv": target.vlnv,
        "engines": engines,
        "peripherals": facts["peripherals"],
        "interrupts": facts["interrupts"],
        "output_dir": out,
        "verilog": facts["verilog"],
        "csr_json": facts["csr_json"],
        "csr_h": facts["csr_h"],
        "vivado_tcl": tcl,
        "generate_seconds": gen_seconds,
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
            report["tcl_dry_run"] = {
                "ok": True,
                "vivado_calls": len(calls),
                "seconds": round(time.monotonic() - t1, 1),
            }
            log(
                f"{name}: TCL dry run in tclsh (Vivado's commands "
                f"stubbed): {len(calls)} calls, no Tcl error"
            )

    outputs = [os.path.join(out, f) for f in target.vivado_outputs]
    products = "/".join(os.path.splitext(f)[1] for f in target.vivado_outputs)
    vivado_exe = shutil.which("vivado")
    if vivado_exe and vivado:
        log(f"{name}: running Vivado ({vivado_exe}): project, block design, bitstream")
        t1 = time.monotonic()
        proc = subprocess.run(
            [
                vivado_exe,
                "-mode",
                "batch",
                "-nojournal",
                "-log",
                os.path.join(vdir, "vivado.log"),
                "-source",
                tcl,
            ],
            cwd=vdir,
        )
        report["vivado"] = {
            "ran": True,
            "returncode": proc.returncode,
            "seconds": round(time.monotonic() - t1, 1),
            "version": vivado_version(vivado_exe),
        }
        if proc.returncode != 0 or not all(os.path.exists(p) for p in outputs):
            raise TargetError(f"Vivado failed (exit {proc.returncode}): see {vdir}/vivado.log")
    else:
        why = "--no-vivado" if vivado_exe else "vivado is not on PATH"
        report["vivado"] = {"ran": False, "reason": why}
        log(
            f"{name}: Vivado NOT run ({why}): no {products} built. On a machine with Vivado: "
            f"cd {vdir} && vivado -mode batch -source {target.tcl_name}"
        )

    if target.extra_steps is not None:
        target.extra_steps(out, facts, report, force, log)

    if lint:
        report["lint"] = verilator_lint(facts["verilog"], os.path.join(out, "lint.log"), target.top)
        l = report["lint"]
        if l.get("ok") is None:
            log(f"{name}: lint skipped ({l['skipped']})")
        else:
            log(
                f"{name}: Verilator lint {'passed' if l['ok'] else 'FAILED'}: "
                f"{l['errors']} errors, warnings {l['warnings']} ({l['seconds']} s)"
            )

    if synth:
        synth_dir = os.path.join(out, "synth_xc7")
        cached = buildcache.load(os.path.join(synth_dir, "result.json"))
        vsha = buildcache.file_sha256(facts["verilog"])  # the netlist depends on the Verilog alone
        if not force and cached and cached.get("verilog_sha256") == vsha:
            res = cached["result"]
            log(f"{name}: synth_xilinx result cached ({res['seconds']} s when run)")
        else:
            log(
                f"{name}: Yosys synth_xilinx -family xc7 of {target.top} "
                f"({len(engines)} engine(s); minutes for the full set) ..."
            )
            res = flow_xc7.synth_xilinx(
                [facts["verilog"]], target.top, synth_dir, niceness=niceness
            )
            write_json(
                os.path.join(synth_dir, "result.json"), {"verilog_sha256": vsha, "result": res}
            )
        report["synth_xc7"] = {
            "counts": {
                k: res[k]
                for k in (
                    "lut",
                    "lutram",
                    "ff",
                    "carry4",
                    "muxf7",
                    "muxf8",
                    "bram36",
                    "bram18",
                    "dsp",
                )
            },
            "capacity": target.capacity,
            "utilization_percent": flow_xc7.utilization(res, target.capacity),
            "fits": flow_xc7.fits(res, target.capacity),
            "seconds": res["seconds"],
            "yosys_version": res["yosys_version"],
            "note": target.synth_note,
        }
        log(flow_xc7.format_report(res, target.capacity))
        log(f"({res['yosys_version']}, {res['seconds']} s)")

    report["manifest"] = write_manifest(
        target.make_manifest(report, facts, command), out, manifest_path, log, name
    )
    write_json(os.path.join(out, "report.json"), report)
    return report


def manifest_checks(report):
    """The manifest's `tools` versions and `checks` / `utilization_yosys_xc7` entries, from a
    report (shared by the targets' manifests)."""
    synth = report.get("synth_xc7")
    lint = report.get("lint")
    tools = dict(
        versions(),
        yosys=synth["yosys_version"] if synth else None,
        verilator=lint.get("version") if lint else None,
        vivado=report["vivado"].get("version"),
    )
    checks = {
        "verilator_lint": (
            {"ok": lint["ok"], "errors": lint["errors"], "warnings": lint["warnings"]}
            if lint and lint.get("ok") is not None
            else None
        )
    }
    util = (
        {
            "counts": synth["counts"],
            "capacity": {k: v for k, v in synth["capacity"].items()},
            "percent": synth["utilization_percent"],
            "synth_seconds": synth["seconds"],
            "note": synth["note"],
        }
        if synth
        else None
    )
    return tools, checks, util


# --- checks without Vivado ----------------------------------------------------------------------


def verilator_lint(verilog, log_path, top):
    """`verilator --lint-only -Wno-fatal` (default warning set) of module `top`. Returns
    dict(ok, errors, warnings={category: count}, seconds, version, log); ok means no %Error.
    Migen's output has known benign warnings (COMBDLY: `<=` in combinational blocks, WIDTH:
    unsized constants), counted, not failed."""
    exe = shutil.which("verilator")
    if exe is None:
        return {"ok": None, "skipped": "verilator not on PATH"}
    t0 = time.monotonic()
    proc = subprocess.run(
        [exe, "--lint-only", "-Wno-fatal", "--top-module", top, os.path.basename(verilog)],
        cwd=os.path.dirname(verilog),
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - t0
    out = proc.stdout + proc.stderr
    with open(log_path, "w") as f:
        f.write(out)
    warnings, errors = {}, 0
    for line in out.splitlines():
        if line.startswith("%Warning-"):
            cat = line.split(":", 1)[0][len("%Warning-") :]
            warnings[cat] = warnings.get(cat, 0) + 1
        elif line.startswith("%Error"):
            errors += 1
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    return {
        "ok": proc.returncode == 0 and errors == 0,
        "errors": errors,
        "warnings": dict(sorted(warnings.items())),
        "seconds": round(seconds, 1),
        "version": version,
        "log": log_path,
    }


def vivado_version(exe):
    try:
        out = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=120).stdout
        return out.strip().splitlines()[0] if out.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


# --- the TCL without Vivado -----------------------------------------------------------------------

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
        r = subprocess.run(
            [tclsh, harness, os.path.abspath(tcl_path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    calls = [
        line.split("\x1f")[1:] for line in r.stdout.splitlines() if line.startswith("CALL\x1f")
    ]
    errors = [
        line.split("\x1f", 1)[1] for line in r.stdout.splitlines() if line.startswith("ERROR\x1f")
    ]
    if r.returncode != 0 or errors:
        raise TclDryRunError(
            (errors[0] if errors else r.stderr.strip()) or f"tclsh exit {r.returncode}", calls
        )
    return calls
