# SPDX-License-Identifier: BSD-2-Clause
"""DecodedCSRBank (soc/cores/csr_bridge.py) against LiteX's CSRBank: the same registers, the same
addresses on the registered bridge's bus (the bridge's address register is the Wishbone address
a cycle late), random reads and writes in and around the bank; the write strobes, the read
strobes, the storage and every read must match cycle for cycle."""

import random

from litedigest.soc.cores.csr_bridge import DecodedCSRBank
from litex.soc.interconnect import csr_bus
from litex.soc.interconnect.csr import CSR, CSRStatus, CSRStorage
from migen import Module, Signal, run_simulation

BANK = 5  # the bank's index (paging 0x800: 512 registers a bank)


def _registers():
    return [
        CSRStorage(32, name="a"),
        CSRStatus(8, name="b"),
        CSRStorage(64, name="c"),
        CSR(16, name="d"),
        CSRStorage(3, name="e"),
    ]


class Pair(Module):
    def __init__(self):
        self.wb_adr = Signal(14)
        self.we, self.re, self.dat_w = Signal(), Signal(), Signal(32)
        self.count = Signal(8)
        self.sync += self.count.eq(self.count + 1)
        self.regs = {}
        for kind in ("litex", "decoded"):
            regs = _registers()
            bus = csr_bus.Interface(data_width=32, address_width=14)
            if kind == "litex":
                bank = csr_bus.CSRBank(regs, BANK, bus=bus)
                self.sync += bus.adr.eq(self.wb_adr)  # the bridge's address register
            else:
                bank = DecodedCSRBank(regs, BANK, bus=bus, wb_adr=self.wb_adr)
            self.comb += [
                bus.we.eq(self.we),
                bus.re.eq(self.re),
                bus.dat_w.eq(self.dat_w),
                regs[1].status.eq(self.count),
            ]
            setattr(self.submodules, kind, bank)
            self.regs[kind] = (regs, bus, bank)


def test_decoded_bank_matches_litex():
    dut = Pair()
    rng = random.Random(1)
    seen = dict(writes=0, reads=0, nonzero=0)

    def bench():
        for _ in range(3000):
            inside = rng.random() < 0.8
            adr = (BANK << 9 | rng.randrange(8)) if inside else rng.randrange(1 << 14)
            yield dut.wb_adr.eq(adr)
            yield dut.dat_w.eq(rng.getrandbits(32))
            op = rng.random()
            yield dut.we.eq(op < 0.3)
            yield dut.re.eq(0.3 <= op < 0.6)
            yield
            (lr, lbus, _), (dr, dbus, _) = dut.regs["litex"], dut.regs["decoded"]
            assert (yield lbus.dat_r) == (yield dbus.dat_r)
            seen["nonzero"] += bool((yield dbus.dat_r))
            for a, b in zip(lr, dr):
                for sa, sb in zip(
                    a.get_simple_csrs() if hasattr(a, "get_simple_csrs") else [a],
                    b.get_simple_csrs() if hasattr(b, "get_simple_csrs") else [b],
                ):
                    assert (yield sa.re) == (yield sb.re), sa.name
                    assert (yield sa.we) == (yield sb.we), sa.name
                    seen["writes"] += yield sb.re
                    seen["reads"] += yield sb.we
                if isinstance(a, CSRStorage):
                    assert (yield a.storage) == (yield b.storage), a.name

    run_simulation(dut, bench())
    assert seen["writes"] > 100 and seen["reads"] > 100 and seen["nonzero"] > 100, seen
