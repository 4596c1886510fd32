# SPDX-License-Identifier: BSD-2-Clause
"""Checks both Vivado targets (soc/targets/pynq_z2.py, soc/targets/arty_a7.py) make of the
subsystem they generate: the same register map at AXI-Lite offsets and the same subsystem ports,
each target passing its own module for its window, DMA width and DDR."""

import json
import os
import subprocess
import sys

from litedigest import hw_regs

PERIPHERAL_REGS = list(hw_regs.REGISTERS) + list(hw_regs.EVENT_REGISTERS)  # the generated map


def check_csr_map(build, csr, target):
    """Every peripheral's registers inside the AXI-Lite window, word aligned, at offsets from 0;
    interrupts in peripheral order; the DMA alignment of the target's data width; main_ram is
    the target's DDR."""
    regs, consts = csr["csr_registers"], csr["constants"]
    window = 1 << target.AXIL_ADDRESS_WIDTH
    for name in build["peripherals"]:
        for r in PERIPHERAL_REGS:
            reg = regs[f"{name}_{r}"]
            assert 0 <= reg["addr"] < window and reg["addr"] % 4 == 0, (name, r, reg)
            assert reg["addr"] + 4 * reg["size"] <= window
        assert consts[f"{name}_interrupt"] == list(build["peripherals"]).index(name)
        assert consts[f"{name}_dma_align"] == target.DMA_DATA_WIDTH // 8
    assert min(csr["csr_bases"].values()) == 0
    ram = csr["memories"]["main_ram"]
    assert (ram["base"], ram["size"]) == (target.DDR_BASE, target.DDR_SIZE)


def check_subsystem_ports(build, target):
    """The subsystem's top: AXI-Lite slave, 64-bit AXI master, one interrupt per peripheral, the
    bus interface association Vivado's module reference reads. Returns the Verilog text."""
    with open(build["verilog"]) as f:
        v = f.read()
    assert f"module {target.SUBSYSTEM_TOP}" in v
    assert "input  wire   [15:0] s_axi_awaddr" in v
    assert "input  wire   [63:0] m_axi_rdata" in v
    assert "output wire   [31:0] m_axi_araddr" in v
    for name in build["peripherals"]:
        assert f"output wire          irq_{name}" in v
    assert "ASSOCIATED_BUSIF s_axi:m_axi" in v
    return v


def build_cli(board, *args):
    """`litedigest build <board> args...` in a subprocess (its exit status and output)."""
    return subprocess.run(
        [sys.executable, "-m", "litedigest.cli", "build", board, *args],
        capture_output=True,
        text=True,
    )


def check_unknown_engine_is_a_clear_error(board, tmp_path):
    r = build_cli(
        board, "--hash-engine", "sha256:base,md5", "--output-dir", str(tmp_path), "--no-synth"
    )
    assert r.returncode == 2
    assert "bad engine spec 'md5'" in r.stderr and "Traceback" not in r.stderr


def check_output_dir_file_is_a_clear_error(board, tmp_path):
    f = tmp_path / "a_file"
    f.write_text("x")
    r = build_cli(board, "--hash-engine", "sha256:base", "--output-dir", str(f), "--no-synth")
    assert r.returncode == 2
    assert "is not a directory" in r.stderr and "Traceback" not in r.stderr


def rerun_is_cached(target, build):
    """The default build run again on its output directory: nothing regenerated (the Verilog
    keeps its time stamp), the log says so. Returns the rerun's report."""
    mtime = os.path.getmtime(build["verilog"])
    msgs = []
    report = run_target(target, None, build["output_dir"], log=msgs.append)
    assert os.path.getmtime(build["verilog"]) == mtime
    assert any("up to date" in m for m in msgs)
    return report


def run_target(target, engines, out, **options):
    """`target.run` generating only (no synthesis, lint or Vivado) unless `options` say, its
    log silenced."""
    quiet = dict(synth=False, lint=False, vivado=False, log=lambda *a: None)
    return target.run(engines, str(out), **{**quiet, **options})


def synth_small_config(target, tmp_path, **options):
    """sha256:base alone through Yosys synth_xilinx (no lint, no Vivado): an engine, its CSRs
    and two AXI bridges, the manifest's counts the report's. Returns the report and the
    manifest."""
    report = run_target(target, "sha256:base", tmp_path, synth=True, niceness=10, **options)
    c = report["synth_xc7"]["counts"]
    assert c["lut"] > 500 and c["ff"] > 500
    with open(report["manifest"]) as f:
        manifest = json.load(f)
    assert manifest["utilization_yosys_xc7"]["counts"]["lut"] == c["lut"]
    return report, manifest


# what every board's block-design TCL runs
BLOCK_DESIGN_COMMANDS = (
    "create_project",
    "create_bd_design",
    "create_bd_cell",
    "assign_bd_address",
    "launch_runs",
)


def check_tcl_runs_and_adds_files(calls, more_commands=()):
    """The block-design TCL, run in tclsh with Vivado's commands recorded (`calls`), ran the
    BLOCK_DESIGN_COMMANDS and `more_commands`, and every file it adds exists. Returns the files
    it adds."""
    names = [c[0] for c in calls]
    for cmd in BLOCK_DESIGN_COMMANDS + tuple(more_commands):
        assert cmd in names, cmd
    added = [a for c in calls if c[0] == "add_files" for a in c[1:] if not a.startswith("-")]
    for path in added:
        if path:  # (the wrapper's path comes from Vivado: empty here)
            assert os.path.exists(path), path
    return added
