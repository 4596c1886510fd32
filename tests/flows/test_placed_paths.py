# SPDX-License-Identifier: BSD-2-Clause
"""soc/flows/placed_paths.py on hand-made placed netlists: which path is the latest, its
steps, the clock filter, carry chains; the routing demand map (--congestion)."""

from litedigest.soc.flows.placed_paths import (
    PlacedDesign,
    congestion,
    congestion_report,
    design_part,
    report,
)

FF_PORTS = {"Q": "output", "DI": "input", "CLK": "input", "CE": "input", "LSR": "input"}
COMB_PORTS = {
    "A": "input",
    "B": "input",
    "C": "input",
    "D": "input",
    "FCI": "input",
    "F": "output",
    "FCO": "output",
    "OFX": "output",
}


def ff(x, y, clk, d, q):
    return {
        "type": "TRELLIS_FF",
        "parameters": {},
        "port_directions": FF_PORTS,
        "attributes": {"NEXTPNR_BEL": f"X{x}/Y{y}/SLICEA.FF0"},
        "connections": {"Q": [q], "DI": [d], "CLK": [clk], "CE": [], "LSR": []},
    }


def lut(x, y, a, f, mode="LOGIC", fci=None, fco=None):
    conns = {"A": [a], "F": [f], "FCI": [fci] if fci else [], "FCO": [fco] if fco else []}
    return {
        "type": "TRELLIS_COMB",
        "parameters": {"MODE": mode},
        "port_directions": COMB_PORTS,
        "attributes": {"NEXTPNR_BEL": f"X{x}/Y{y}/SLICEA.K0"},
        "connections": conns,
    }


def design(cells, names):
    return PlacedDesign(
        {
            "modules": {
                "top": {
                    "cells": cells,
                    "netnames": {n: {"bits": [b], "hide_name": 0} for n, b in names.items()},
                }
            }
        }
    )


def test_the_far_path_is_the_latest_and_other_clocks_are_left_out():
    # sys: r0 -> near LUT -> r1 (a tile away), r0 -> far LUT (50 tiles) -> r2; eng: r3 -> r4
    cells = {
        "r0_TRELLIS_FF_Q": ff(1, 1, 100, 20, 10),
        "near": lut(2, 1, 10, 11),
        "r1_TRELLIS_FF_Q": ff(2, 1, 100, 11, 12),
        "far": lut(51, 1, 10, 13),
        "r2_TRELLIS_FF_Q": ff(1, 1, 100, 13, 14),
        "slow": lut(90, 90, 15, 16),
        "r3_TRELLIS_FF_Q": ff(1, 2, 101, 30, 15),
        "r4_TRELLIS_FF_Q": ff(1, 1, 101, 16, 17),
    }
    d = design(cells, {"sys_clk": 100, "eng_clk": 101})
    ends = d.endpoints("sys_clk")
    assert [e[1] for e in ends[:2]] == ["r2_TRELLIS_FF_Q", "r1_TRELLIS_FF_Q"]
    t, cell, port, drv = ends[0]
    # 0.52 clock-to-out, 50 tiles there and back, one LUT
    hop = 0.09 * (3 + 45 + 10)
    assert abs(t - (0.52 + hop + 0.24 + hop)) < 1e-9
    assert [s[1] for s in d.path(drv)] == ["r0_TRELLIS_FF_Q", "far"]
    assert all(e[1] != "r4_TRELLIS_FF_Q" for e in ends)
    eng = d.endpoints("eng_clk")
    assert [e[1] for e in eng] == ["r4_TRELLIS_FF_Q"] and eng[0][0] > ends[0][0]
    text = report(d, "sys_clk", paths=1)
    assert "r0 -> r2" in text and "far" in text


def test_a_carry_chain_adds_its_steps_without_routing():
    # r0 -> c0 (A -> FCO) -> c1 -> c2 (FCI -> F) -> r1, the chain within one column
    cells = {
        "r0_TRELLIS_FF_Q": ff(1, 1, 100, 20, 10),
        "c0": lut(5, 1, 10, 30, mode="CCU2", fco=31),
        "c1": lut(5, 1, 99, 32, mode="CCU2", fci=31, fco=33),
        "c2": lut(6, 1, 99, 34, mode="CCU2", fci=33),
        "r1_TRELLIS_FF_Q": ff(6, 1, 100, 34, 12),
    }
    d = design(cells, {"sys_clk": 100})
    t, _, _, drv = d.endpoints("sys_clk")[0]
    net = lambda dx: 0.09 * (3 + 2 * dx)
    assert abs(t - (0.52 + net(4) + 0.45 + 0.05 + 0.44 + 0.1)) < 1e-9
    assert [s[2] for s in d.path(drv)] == ["Q", "FCO", "FCO", "F"]


def test_congestion_finds_the_dense_part():
    # soc_dense: 20 register-LUT loops (40 nets) each between (1,1) and (3,3), a 3 x 3 box;
    # soc_long: one loop (2 nets) across the die from (0,0) to (15,15); the clock's global
    # net counts for nothing
    cells, names = {}, {"sys_clk": 100, "$glbnet$sys_clk": 101}
    for i in range(20):
        q, d = 200 + i, 300 + i
        cells[f"a{i}_TRELLIS_FF_Q"] = ff(1, 1, 101, d, q)
        cells[f"b{i}"] = lut(3, 3, q, d)
        names[f"soc_dense_q{i}"], names[f"soc_dense_d{i}"] = q, d
    cells["l0_TRELLIS_FF_Q"] = ff(0, 0, 101, 401, 400)
    cells["l1"] = lut(15, 15, 400, 401)
    names["soc_long_q"], names["soc_long_d"] = 400, 401
    d = design(cells, names)
    tiles, nets = congestion(d)
    assert abs(tiles[(2, 2)] - (40 * 4 / 9 + 2 * 30 / 256)) < 1e-9
    assert abs(tiles[(10, 10)] - 2 * 30 / 256) < 1e-9
    assert sorted({part for part, _, _ in nets}) == ["soc_dense", "soc_long"] and len(nets) == 42
    text = congestion_report(d, window=4, top=2)
    lines = text.splitlines()
    assert "x 0-3, y 0-3" in lines[1] and "soc_dense" in lines[-2] and "soc_long" in lines[-1]
    share = float(lines[-2].split("%")[0])
    assert share > 90


def test_design_part_names():
    assert design_part("soc_sha512engine_kt_r0_TRELLIS_FF_Q_DI_LUT4_Z_D") == "soc_sha512engine"
    assert design_part("builder_csr_bankarray_dat_r[3]") == "builder_csr"
    assert design_part("VexRiscv.dataCache_1.io_cpu_memory_isStuck") == "VexRiscv"
    assert design_part("m0s0_v7_TRELLIS_FF_Q_1_DI_LUT4_Z_C_CCU2C_S0_COUT") == "m0s0_v7"
