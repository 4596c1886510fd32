# SPDX-License-Identifier: BSD-2-Clause
"""soc/flows/route_placed.py: a placed design routed again with nextpnr settings the placement
did not use (the settings a placed netlist carries win over nextpnr's command line)."""

import json

import pytest
from litedigest.soc.flows import ecp5 as flow_ecp5
from litedigest.soc.flows import route_placed


def _placed_like(path, settings):
    path.write_text(
        json.dumps(
            {
                "creator": "nextpnr",
                "modules": {"top": {"settings": dict(settings), "cells": {}, "netnames": {}}},
            }
        )
    )
    return str(path)


def test_with_settings_writes_nextpnrs_own_encoding(tmp_path):
    src = _placed_like(
        tmp_path / "p.json",
        {
            "router": "router1",
            "timing_driven": "1".rjust(32, "0"),
            "target_freq": "125000000.000000",
        },
    )
    out = str(tmp_path / "q.json")
    got = route_placed.with_settings(
        src,
        out,
        {
            "router": "router2",
            "timing_driven": False,
            "router2/histCongWeight": "2.0",
            "flag": "TRUE",
        },
    )
    assert got["router"] == "router2" and got["timing_driven"] == "0" * 32
    assert got["flag"] == "1".rjust(32, "0") and got["router2/histCongWeight"] == "2.0"
    assert got["target_freq"] == "125000000.000000"  # the rest as placed
    assert json.load(open(out))["modules"]["top"]["settings"] == got
    # the source is left as it was
    assert json.load(open(src))["modules"]["top"]["settings"]["router"] == "router1"


def test_with_settings_refuses_a_netlist_nextpnr_did_not_write(tmp_path):
    p = tmp_path / "synth.json"
    p.write_text(json.dumps({"creator": "Yosys", "modules": {"top": {"cells": {}}}}))
    with pytest.raises(ValueError, match="not a netlist nextpnr wrote"):
        route_placed.with_settings(str(p), str(tmp_path / "out.json"), {"router": "router2"})
    assert not (tmp_path / "out.json").exists()


def test_progress_reads_both_routers():
    text = (
        "Info:       1000 |      281        718 |  281   718 |    132008|       3.13       3.13|\n"
        "Info:       2000 |      587       1412 |  306   694 |    131580|       0.65       3.77|\n"
        "Info:     iter=1 wires=1065078 overused=86204 overuse=103165 archfail=NA\n"
        "Info:     iter=2 wires=1102628 overused=58414 overuse=64712 archfail=NA\n"
    )
    got = route_placed.progress(text)
    assert got["router1"] == [(3.13, 132008), (3.77, 131580)]
    assert got["router2"] == [(1, 86204), (2, 58414)]


def test_place_once_then_route_with_other_settings(tmp_path, capsys):
    """A registered adder on the 25F: placed once, routed by router2 without timing-driven
    routing although it was placed with router1, timing-driven; a second place() call
    reuses the placement."""
    import os

    workdir = str(tmp_path)
    v = os.path.join(workdir, "add.v")
    (tmp_path / "add.v").write_text(
        "module add(input clk, input [15:0] a, input [15:0] b, output reg [15:0] y);\n"
        "reg [15:0] ra, rb; always @(posedge clk) begin ra <= a; rb <= b; y <= ra + rb; end\n"
        "endmodule\n"
    )
    area = flow_ecp5.synth_ecp5([v], "add", os.path.join(workdir, "synth"))
    kw = dict(device="LFE5U-25F", package="CABGA256", out_of_context=True, freq_mhz=100)
    pl = route_placed.place(area["netlist"], os.path.join(workdir, "pnr"), **kw)
    assert pl["estimate"] and all(f > 0 for f in pl["estimate"].values())
    mtime = os.stat(pl["placed"]).st_mtime_ns
    assert route_placed.place(area["netlist"], os.path.join(workdir, "pnr"), **kw)["seconds"] == 0
    assert os.stat(pl["placed"]).st_mtime_ns == mtime
    placed_settings = json.load(open(pl["placed"]))["modules"]
    assert any(m.get("settings", {}).get("router") == "router1" for m in placed_settings.values())
    r = route_placed.route(
        pl["placed"],
        os.path.join(workdir, "pnr"),
        tag="r2",
        settings={"router": "router2", "timing_driven": False},
        **kw,
    )
    assert r["routed"] and r["fmax"] and all(f > 50 for f in r["fmax"].values())
    assert (
        0 < r["utilization"]["TRELLIS_COMB"]["used"] < r["utilization"]["TRELLIS_COMB"]["available"]
    )
    assert r["settings"] == {"router": "router2", "timing_driven": "0" * 32}
    log = open(r["log"]).read()
    assert "Running router2" in log  # (router2 ends by running router1 to check the route)
    assert r["progress"]["router2"] and r["textcfg"] is None  # out of context: no bitstream
    assert not os.path.exists(os.path.join(workdir, "pnr", "r2.json"))  # the copy is removed
    # the command line: the same route with router1, its summary as JSON
    capsys.readouterr()
    assert (
        route_placed.main(
            [
                "route",
                pl["placed"],
                "--device",
                "LFE5U-25F",
                "--package",
                "CABGA256",
                "--freq",
                "100",
                "--tag",
                "cli",
                "--set",
                "router=router1",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["routed"] and out["settings"] == {"router": "router1"} and "router1" in out["last"]
    assert "Running router2" not in open(out["log"]).read()
    with pytest.raises(SystemExit) as e:  # NAME=VALUE or nothing: argparse's usage error
        route_placed.main(["route", pl["placed"], "--set", "router"])
    assert e.value.code == 2 and "NAME=VALUE" in capsys.readouterr().err
