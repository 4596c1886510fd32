"""ip.common.FusedAdd (x + fn(b, c, d) with fn's LUT inside the carry cells) and its ECP5
lowering (ip.ecp5): the cells' INIT against the function, the two lowerings proven equal by
Yosys' SAT solver on Yosys' own models of the cells, and the engine that uses it
(`sha512:k5`, whose rounds' first adders are FusedAdds of Ch) lowered for the ECP5 and run in
Verilator on those models against the NIST files and hashlib, with random stalls."""
import hashlib
import os
import random

import pytest
from migen import Module, Signal
from migen.fhdl import verilog

from litedigest.ip import ecp5
from litedigest.ip.common import FusedAdd, fused_add
from litedigest.ip.engines import engine_verilog, special_overrides
from litedigest.ip.rtlsim import RTLSim
from litedigest.ip.sha256 import ch, maj
from litedigest.soc.flows import ecp5 as flow_ecp5

import vectors
from test_engine import hash_batch


def _xor3(b, c, d):
    return b ^ c ^ d


@pytest.mark.parametrize("fn", [ch, maj])
def test_cell_init_is_the_function_and_its_generate_the_operand(fn):
    init = ecp5.lut_init(fn)
    for i in range(16):
        a, b, c, d = i & 1, (i >> 1) & 1, (i >> 2) & 1, (i >> 3) & 1
        assert (init >> i) & 1 == a ^ (fn(b, c, d) & 1)
    # the generate (INIT[3:0] on A, B) is the operand x: what the carry needs where x == fn
    assert [(init >> i) & 1 for i in range(4)] == [0, 1, 0, 1]


def test_a_function_whose_generate_would_be_wrong_is_refused():
    with pytest.raises(ValueError, match=r"fn\(b, 0, 0\) == 0"):
        FusedAdd(Signal(8), _xor3, Signal(8), Signal(8), Signal(8), 8)


def _module(fn, width):
    m = Module()
    x, b, c, d = (Signal(width, name=n) for n in "xbcd")
    o = Signal(width, name="o")
    m.comb += o.eq(fused_add(m, x, fn, b, c, d, width))
    return m, {x, b, c, d, o}


@pytest.mark.parametrize("fn", [ch, maj])
def test_ecp5_lowering_equals_the_addition(fn, tmp_path):
    """Yosys proves the CCU2C chain (Yosys' simulation models of CCU2C, LUT4, LUT2) equal to
    x + fn(b, c, d) for every input of 64 bits."""
    gen = str(verilog.convert(*_module(fn, 64), name="gen"))
    m, ios = _module(fn, 64)
    cells = str(verilog.convert(m, ios=ios, name="cells", special_overrides=special_overrides("ecp5")))
    assert "CCU2C" in cells and "CCU2C" not in gen
    (tmp_path / "gen.v").write_text(gen)
    (tmp_path / "cells.v").write_text(cells + "\n" + ecp5.cell_models())
    flow_ecp5.run_yosys(
        "read_verilog gen.v\nread_verilog cells.v\nhierarchy -check\nproc\nflatten\n"
        "miter -equiv -make_assert -flatten gen cells miter\nhierarchy -top miter\n"
        "sat -verify -prove-asserts miter\n", str(tmp_path))
    log = (tmp_path / "yosys.log").read_text()
    assert "SAT proof finished - no model found: SUCCESS!" in log


def test_only_engines_with_fused_adds_change_with_the_target():
    """The ECP5 lowering touches the engines that use FusedAdd and no other (their Verilog,
    and so their design-space records' stamps, are as before)."""
    for spec in ("sha256:opt", "sha1:k5", "sha512:base", "skein512:r8"):
        assert engine_verilog(spec)[1] == engine_verilog(spec, target="ecp5")[1], spec
    generic, cells = engine_verilog("sha512:k5")[1], engine_verilog("sha512:k5", target="ecp5")[1]
    assert "CCU2C" not in generic and cells.count("CCU2C #(") == 10 * 32   # 5 rounds x (e, T1) x 64 bits
    with pytest.raises(ValueError, match="unknown target"):
        engine_verilog("sha512:k5", target="xc7")


_sims = {}


def _sim():
    if "k5" not in _sims:
        _sims["k5"] = RTLSim("sha512:k5", target="ecp5", seed=99)
    return _sims["k5"]


@pytest.mark.parametrize("kind", ["ShortMsg", "LongMsg"])
def test_k5_on_ecp5_cells_nist(kind):
    sim = _sim()
    sim.set_stalls(10, 10)
    for algo in ("sha512", "sha384"):
        cases = vectors.load_cavp(f"{algo.upper()}{kind}")
        got = hash_batch(sim, [m for m, _ in cases], algo)
        assert got == [md for _, md in cases], (algo, kind)


def test_k5_on_ecp5_cells_random_lengths_with_stalls():
    rng = random.Random("fused-k5")
    sim = _sim()
    for stall_in, stall_out in [(0, 0), (50, 0), (0, 50), (80, 80)]:
        sim.set_stalls(stall_in, stall_out)
        for algo in ("sha512", "sha512_224", "sha512_256", "sha384"):
            msgs = [rng.randbytes(rng.randint(0, 900)) for _ in range(8)]
            assert hash_batch(sim, msgs, algo) == [hashlib.new(algo, m).digest() for m in msgs]
