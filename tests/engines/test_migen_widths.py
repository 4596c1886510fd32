# SPDX-License-Identifier: BSD-2-Clause
"""soc/sim/migen_widths.py: Migen expressions keep their width once computed; the widths and
the simulated values are Migen's own (checked against `value_bits_sign` and against Python
arithmetic on the engines' word operations)."""

import random

from litedigest.ip.common import add_mod, rotr
from litedigest.soc.sim import migen_widths
from migen import Array, Cat, Constant, Module, Replicate, Signal
from migen.fhdl import structure
from migen.fhdl.bitcontainer import value_bits_sign
from migen.sim import run_simulation


def test_installed_for_the_suite():
    migen_widths.install()
    migen_widths.install()  # idempotent
    assert structure._Value.__len__ is migen_widths._memoized_len


def test_widths_are_migens():
    a, b = Signal(32), Signal(32)
    s = Signal((8, True))
    k = Signal(2)
    exprs = [
        a + b,
        a - b,
        -s,
        s + a,
        a & b,
        ~a,
        a == b,
        Cat(a[3:7], b, Constant(1, 3)),
        Replicate(a[0], 5),
        Array([a, b[:4], s])[k],
        rotr(a, 7),
        add_mod(a, b, a ^ b),
        (a + b)[:32],
        Cat(a, s) * 3,
    ]
    for e in exprs:
        want = value_bits_sign(e)[0]
        assert len(e) == want and len(e) == want  # computed, then kept
    # a Signal's width is its own attribute, never kept beside it
    assert len(a) == 32 and "_litedigest_width" not in a.__dict__


def test_simulated_word_operations():
    m = Module()
    a, b, c = Signal(32), Signal(32), Signal(32)
    rot, total = Signal(32), Signal(32)
    m.comb += [rot.eq(rotr(a, 13)), total.eq(add_mod(a, b, c, rotr(b, 2)))]
    rng = random.Random(7)
    seen = []

    def gen():
        for _ in range(50):
            va, vb, vc = (rng.getrandbits(32) for _ in range(3))
            yield a.eq(va)
            yield b.eq(vb)
            yield c.eq(vc)
            yield
            r = ((vb >> 2) | (vb << 30)) & 0xFFFFFFFF
            seen.append(
                (
                    (yield rot) == ((va >> 13) | (va << 19)) & 0xFFFFFFFF,
                    (yield total) == (va + vb + vc + r) & 0xFFFFFFFF,
                )
            )

    run_simulation(m, gen())
    assert len(seen) == 50 and all(x and y for x, y in seen)
