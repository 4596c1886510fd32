# SPDX-License-Identifier: BSD-2-Clause
"""litedigest.soc.flows.xc7: Yosys synth_xilinx
counts for the xc7z020 (the area figures' source)."""

import os

import pytest
from litedigest.soc.flows import xc7 as flow_xc7

ADDER_RAM = """
module adder_ram(input clk, input [15:0] a, b, output reg [15:0] s);
  reg [7:0] mem [0:1023];
  reg [9:0] ra;
  always @(posedge clk) begin
    s <= a + b + mem[ra];
    ra <= a[9:0];
    mem[b[9:0]] <= a[7:0];
  end
endmodule
"""


def test_cell_counts_and_utilization():
    c = flow_xc7.cell_counts(
        {
            "LUT2": 3,
            "LUT6": 2,
            "FDRE": 4,
            "FDSE": 1,
            "CARRY4": 2,
            "RAM64M": 1,
            "SRLC32E": 2,
            "RAMB36E1": 7,
            "RAMB18E1": 2,
            "DSP48E1": 11,
            "BUFG": 1,
        }
    )
    assert (c["lut"], c["lutram"], c["ff"], c["carry4"]) == (5, 6, 5, 2)
    assert (c["bram36"], c["bram18"], c["dsp"]) == (7, 2, 11)
    u = flow_xc7.utilization(c)
    assert u["bram36"] == round(100 * 8 / 140, 2)  # 7 + 2/2 RAMB36 equivalents
    assert u["lut"] == round(100 * 11 / 53200, 2)  # logic + memory LUTs
    assert flow_xc7.fits(c)
    assert not flow_xc7.fits(dict(c, ff=106401))


def test_synth_xilinx_small_design(tmp_path):
    src = tmp_path / "adder_ram.v"
    src.write_text(ADDER_RAM)
    r = flow_xc7.synth_xilinx([str(src)], "adder_ram", str(tmp_path / "work"))
    # a 16-bit registered sum (16 FFs at least; the RAM may absorb the address register),
    # carry chains for the adders, one 8x1024 RAM in block RAM
    assert r["ff"] >= 16 and r["lut"] > 0 and r["carry4"] >= 4
    assert r["bram18"] + 2 * r["bram36"] >= 1
    assert r["yosys_version"].startswith("Yosys ")
    assert os.path.exists(tmp_path / "work" / "synth_xc7.log")


def test_synth_xilinx_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        flow_xc7.synth_xilinx([str(tmp_path / "missing.v")], "x", str(tmp_path))
    bad = tmp_path / "bad.v"
    bad.write_text("module bad(input a, output b); assign b = ; endmodule\n")
    with pytest.raises(flow_xc7.Xc7SynthError, match="failed"):
        flow_xc7.synth_xilinx([str(bad)], "bad", str(tmp_path / "work"))
