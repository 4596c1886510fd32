# SPDX-License-Identifier: BSD-2-Clause
"""The LiteX SoCs' Wishbone-to-CSR bridge, registered, and CSR banks that decode their
registers from the Wishbone address.

LiteX registers its Wishbone2CSR bridge (the CSR bus's address, strobes and write data come
from flip-flops) only in SoCs with SDRAM; without it the CPU's data-bus address reaches every
CSR bank's decoder and read-data register in one cycle, through the bus decoder and the
instruction cache's line loader. In the four-algorithm ECP5 SoC that path was the critical
one (23.2 ns, 43 MHz: docs/measurements/timing.md, "The SoC's sys clock"; CHANGELOG.md).
The register costs one cycle per CSR access. The simulated SoC gets the same bridge as the
board's so that its cycle counts stay the board's.

With the bridge registered, a bank still decoded the bridge's address register in the cycle
it read: the address through the register comparisons (shared by synthesis with the write
strobes) and then through the read multiplexer, whose leaves sit beside the registers they
read, spread over the die with their peripherals. That was the four-engine ECP5 SoC's longest
sys path (docs/measurements/timing.md). `DecodedCSRBank` compares the Wishbone address with each of
its registers' addresses into a flip-flop a register (`hit`), loaded at the edge where the
bridge loads its address register (a Wishbone master holds its address until the
acknowledge, so the comparison is loaded every cycle); the read is then an AND-OR of `hit`
and the registers, and a write strobe one gate from `hit`. The bus protocol and its cycles
are LiteX's.
"""

from functools import reduce
from operator import or_

from litex.soc.interconnect import csr as litex_csr
from litex.soc.interconnect import csr_bus
from migen import Replicate, Signal
from migen.fhdl.bitcontainer import log2_int


def _or_tree(terms):
    """The OR of `terms` as a balanced tree (written as a chain, synthesis may keep its depth)."""
    while len(terms) > 1:
        terms = [reduce(or_, terms[i : i + 2]) for i in range(0, len(terms), 2)]
    return terms[0]


class DecodedCSRBank(litex_csr.GenericBank):
    """LiteX's `csr_bus.CSRBank` (same arguments, same bus behaviour) whose register decode is
    registered from `wb_adr`, the CSR-bus address as it stands on the bridge's Wishbone side
    (the value the bridge's address register loads)."""

    def __init__(self, description, address=0, bus=None, paging=0x800, ordering="big", wb_adr=None):
        if bus is None:
            bus = csr_bus.Interface()
        self.bus = bus
        aligned_paging = paging // 4
        litex_csr.GenericBank.__init__(
            self, description=description, busword=len(bus.dat_w), ordering=ordering
        )
        n = len(self.simple_csrs)
        # (no reset: loaded every cycle, and read or acted on only with the bridge's strobes)
        hit = self.hit = Signal(max(n, 1), name="hit", reset_less=True)
        base = address * aligned_paging
        self.sync += [hit[i].eq(wb_adr == base + i) for i in range(n)]
        for i, c in enumerate(self.simple_csrs):
            self.comb += [
                c.r.eq(bus.dat_w[: c.size]),
                c.re.eq(hit[i] & bus.we),
                c.we.eq(hit[i] & bus.re),
            ]
        if n:
            self.sync += bus.dat_r.eq(
                _or_tree([Replicate(hit[i], c.size) & c.w for i, c in enumerate(self.simple_csrs)])
            )


class RegisteredCSRBridge:
    """Mixin for a LiteX SoC class (before ``SoCCore``/``SimSoC`` in the bases): the CSR bridge
    that ``SoC.finalize`` adds is registered, whatever ``register`` it asks for, and the CSR
    banks are `DecodedCSRBank`s fed from its Wishbone address."""

    def add_csr_bridge(self, name="csr", origin=None, register=True):
        super().add_csr_bridge(name=name, origin=origin, register=True)
        bridge = getattr(self, f"{name}_bridge")
        wb = bridge.wishbone
        shift = {"word": 0, "byte": log2_int(len(wb.dat_w) // 8)}[wb.addressing]
        self._csr_bank_adr = wb.adr[shift : shift + len(bridge.csr.adr)]

    def finalize(self, *args, **kwargs):
        # LiteX makes its banks inside SoC.finalize (csr_bus.CSRBankArray) with no hook for
        # the bank class: it is swapped for the call, after the bridge above is added
        # (the bridge as the banks' only master: another one's address would not be decoded)
        litex_bank = csr_bus.CSRBank

        def bank(*a, **kw):
            if len(self.csr.masters) != 1 or not hasattr(self, "_csr_bank_adr"):
                return litex_bank(*a, **kw)
            return DecodedCSRBank(*a, wb_adr=self._csr_bank_adr, **kw)

        csr_bus.CSRBank = bank
        try:
            super().finalize(*args, **kwargs)
        finally:
            csr_bus.CSRBank = litex_bank
