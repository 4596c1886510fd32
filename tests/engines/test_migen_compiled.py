# SPDX-License-Identifier: BSD-2-Clause
"""The compiled Migen simulation (soc/sim/migen_compiled.py) against Migen's own interpreter:
the same designs, the same random stimuli, every signal compared every cycle. Designs: a SHA
engine with two slots (carry-save trees, Cats of rotated slices, round constants, its slots'
chaining values) and a small design with every expression and target kind (signed signals,
Part, Replicate, arrays read and written by index, Cat and slice targets, a memory, Case with
a default). The benches of the suite (pad jobs, batches, the AXI reader) check digests against
hashlib on top of this."""

import random

import pytest
from litedigest.ip.engines import make_engine
from litedigest.soc.sim import migen_compiled
from migen import Array, Case, Cat, If, Memory, Module, Mux, Replicate, Signal
from migen.fhdl.tools import list_signals
from migen.sim import core, run_simulation


class EveryKind(Module):
    def __init__(self):
        self.a, self.b = Signal(8), Signal(8)
        self.s = Signal((9, True))
        self.k = Signal(3)
        self.cat_t, self.slice_t, self.part_t = Signal(4), Signal(12), Signal(16)
        self.arr = Array(Signal(8, name=f"arr{i}") for i in range(5))
        self.arr_s = Array(Signal((6, True), name=f"arrs{i}") for i in range(3))
        self.out = Signal(32)
        self.case_o = Signal(8)
        self.rep = Signal(24)
        self.cmp = Signal()
        mem = Memory(8, 8, init=list(range(8)))
        rd, wr = mem.get_port(), mem.get_port(write_capable=True)
        self.specials += mem, rd, wr
        self.comb += [
            self.s.eq(self.a - self.b),
            self.rep.eq(Replicate(self.a[:3], 8)),
            self.cmp.eq((self.s < 0) ^ (self.a >= self.b)),
            self.out.eq(Cat(self.a[3:7], ~self.b, self.s, self.arr[self.k], rd.dat_r)),
            rd.adr.eq(self.k),
            Case(
                self.k,
                {
                    0: self.case_o.eq(self.a),
                    1: self.case_o.eq(Mux(self.a[0], self.b, 7)),
                    "default": self.case_o.eq(self.a ^ self.b),
                },
            ),
        ]
        self.sync += [
            Cat(self.cat_t[:2], self.cat_t[2:]).eq(self.a + self.b),
            self.slice_t[4:9].eq(self.a),
            self.part_t.part(self.k, 5).eq(self.b),
            self.arr[self.k].eq(self.a * 3),
            self.arr_s[self.k[:2]].eq(self.s),
            wr.adr.eq(self.b[:3]),
            wr.dat_w.eq(self.a),
            wr.we.eq(self.a[7]),
            If(self.cmp, self.a.eq(self.a + 1)).Else(self.b.eq(self.b - self.a)),
        ]
        self.inputs = [self.k]


def _engine():
    e = make_engine("sha256:base", slots=2)
    e.inputs = [e.sink.valid, e.sink.data, e.sink.slot, e.sink.first, e.sink.last, e.source.ready]
    return e


def _trace(factory, compiled, cycles, seed):
    """Every signal of the design (by creation order) every cycle, under random inputs."""
    saved = core.Simulator.__init__
    core.Simulator.__init__ = migen_compiled._init if compiled else migen_compiled._interpreted_init
    try:
        dut = factory()
        rng = random.Random(seed)
        fragment = dut.get_fragment()
        signals = sorted(list_signals(fragment), key=lambda s: s.duid)
        rows = []

        def gen():
            for _ in range(cycles):
                for s in dut.inputs:
                    yield s.eq(rng.getrandbits(len(s)))
                yield
                row = []
                for s in signals:
                    row.append((yield s))
                rows.append(row)

        run_simulation(fragment, gen())
        return rows
    finally:
        core.Simulator.__init__ = saved


@pytest.mark.parametrize("factory,cycles", [(EveryKind, 300), (_engine, 400)])
def test_compiled_matches_the_interpreter(factory, cycles):
    want = _trace(factory, False, cycles, 1)
    got = _trace(factory, True, cycles, 1)
    assert len(got) == len(want) == cycles
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, (
            f"cycle {i}: first difference at signal "
            f"{next(j for j in range(len(g)) if g[j] != w[j])}"
        )
    assert len({tuple(r) for r in want}) > cycles // 4  # the stimuli moved the design


def test_installed_for_the_suite():
    assert core.Simulator.__init__ is migen_compiled._init


def test_a_planted_difference_is_seen():
    """The comparison can fail: a compiler that drops the sign of signed targets differs."""
    saved = migen_compiled._Compiler.assign

    def unsigned(self, target, value, out, ind):
        if isinstance(target, Signal) and target.signed:
            out.append(f"{' ' * ind}m[{target.duid}] = ({value}) & {(1 << target.nbits) - 1}")
            self.signals[target.duid] = target
            return
        saved(self, target, value, out, ind)

    migen_compiled._Compiler.assign = unsigned
    try:
        got = _trace(EveryKind, True, 100, 2)
    finally:
        migen_compiled._Compiler.assign = saved
    assert got != _trace(EveryKind, False, 100, 2)
