# SPDX-License-Identifier: BSD-2-Clause
"""Migen's simulator, faster: an expression's width is computed once.

Migen 0.10's simulator evaluates a `Cat` by masking each part to its width, `len(part)`, and
`len` of an expression walks the whole tree below it (`bitcontainer.value_bits_sign`), on
every evaluation, every cycle. The engines' rounds are Cats of rotated slices and carry-save
words over deep expressions, so recomputing widths took most of a simulation's time (cProfile
of the SHA-512 pad-jobs bench of tests/peripheral/test_peripheral_batch.py: 283 of 459 s). An
expression's width is fixed when it is built (it depends only on its operands' widths), so
`install()` keeps it on the expression the first time it is asked for. A Signal's and a
Constant's width are their own attributes and are read as before.

Used by the Migen simulations: the test benches (tests/conftest.py) and the PYNQ subsystem
model (`pynq_dma`). The same widths, so the same Verilog where Migen converts a design.
"""

from migen.fhdl import structure
from migen.fhdl.bitcontainer import value_bits_sign

_KEY = "_litedigest_width"
_installed = False


def _memoized_len(self):
    if isinstance(self, (structure.Signal, structure.Constant)):
        return self.nbits
    n = self.__dict__.get(_KEY)
    if n is None:
        n = self.__dict__[_KEY] = value_bits_sign(self)[0]
    return n


def install():
    """Memoize `len()` of Migen expressions (idempotent)."""
    global _installed
    if not _installed:
        structure._Value.__len__ = _memoized_len
        _installed = True
