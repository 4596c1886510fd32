# SPDX-License-Identifier: BSD-2-Clause
"""Main RAM with a wide read port for the hash peripherals' DMA.

A p-stage pipeline wants a block every R/p cycles (sha256:opt:p4: 64 bytes every 8 cycles,
sha1:opt:p8: every 5), far beyond a 32-bit bus at 2 cycles per word. On an FPGA the answer is
the block RAM's second port made as wide as a block row (a true dual-port BRAM with one narrow
and one wide side), so this RAM has:
- `bus`: the SoC's 32-bit Wishbone slave port (CPU, bridge), same timing as LiteX's SRAM;
- `wide`: a Wishbone slave port of `row_bits`, one row per transaction (writes by byte lanes)
  (word addressing in rows; address bits above the RAM size are ignored, as LiteX's SRAM does).
Both ports see one memory of `row_bits`-wide rows; row r holds 32-bit words
r*row_words .. r*row_words + row_words - 1, word j at bits [32j, 32j+32), so the byte order
in a row is the byte order in memory.
"""

from litex.soc.interconnect import wishbone
from migen import WRITE_FIRST, Array, Cat, If, Memory, Module, Mux, Signal
from migen.fhdl.bitcontainer import log2_int


def rows_of_words(words, row_words):
    """Pack 32-bit words (list) into rows of `row_words` words (word j at bits 32j)."""
    rows = []
    for r in range(0, len(words), row_words):
        chunk = list(words[r : r + row_words]) + [0] * (row_words - len(words[r : r + row_words]))
        rows.append(sum(w << (32 * j) for j, w in enumerate(chunk)))
    return rows


class WideRAM(Module):
    """`size` bytes in rows of `row_bits`; `init`: the first 32-bit words, the rest zero (the
    memory's init covers its whole depth, so that the $readmemh file of the generated Verilog
    always exists and covers the RAM: the firmware is written into it)."""

    def __init__(self, size, row_bits=512, init=None, name="main_ram"):
        row_bytes = row_bits // 8
        row_words = row_bits // 32
        if row_bits % 32 or row_words & (row_words - 1) or size % row_bytes:
            raise ValueError(
                f"row_bits must be 32 x a power of two dividing the size, got {row_bits}"
            )
        self.size, self.row_bits, self.row_bytes = size, row_bits, row_bytes
        nrows = size // row_bytes
        words = list(init or [])
        words += [0] * (size // 4 - len(words))
        self.mem = Memory(row_bits, nrows, init=rows_of_words(words, row_words), name=name)
        self.bus = bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")
        self.wide = wide = wishbone.Interface(
            data_width=row_bits, address_width=32, addressing="word"
        )

        wsel = log2_int(row_words, need_pow2=True)
        rbits = log2_int(nrows, need_pow2=False)

        # narrow port: read row, pick the word; writes enable the word's byte lanes only
        pa = self.mem.get_port(write_capable=True, we_granularity=8, mode=WRITE_FIRST)
        word = Signal(max(1, wsel))
        word_q = Signal(max(1, wsel))
        writing = Signal()
        self.comb += writing.eq(bus.cyc & bus.stb & bus.we & ~bus.ack)
        self.comb += [
            word.eq(bus.adr[:wsel] if wsel else 0),
            pa.adr.eq(bus.adr[wsel : wsel + rbits]),
            pa.dat_w.eq(Cat(*([bus.dat_w] * row_words))),
            pa.we.eq(Cat(*[Mux(writing & (word == j), bus.sel, 0) for j in range(row_words)])),
            bus.dat_r.eq(Array(pa.dat_r[32 * j : 32 * (j + 1)] for j in range(row_words))[word_q]),
        ]
        self.sync += [
            word_q.eq(word),
            bus.ack.eq(0),
            If(bus.cyc & bus.stb & ~bus.ack, bus.ack.eq(1)),
        ]

        # wide port: a row per transaction; writes enable the bytes of `sel` (the batch walker
        # writes chaining values). WRITE_FIRST like the narrow port: with READ_FIRST on this
        # write-capable port Yosys (0.70) cannot map the memory to DP16KD block RAM and builds
        # it from flip-flops (2 million cells for 64 KiB; the four-engine ECP5 SoC did not
        # synthesize). Nothing reads this port in a cycle it writes.
        pb = self.mem.get_port(write_capable=True, we_granularity=8, mode=WRITE_FIRST)
        self.comb += [
            pb.adr.eq(wide.adr[:rbits]),
            wide.dat_r.eq(pb.dat_r),
            pb.dat_w.eq(wide.dat_w),
            pb.we.eq(Mux(wide.cyc & wide.stb & wide.we & ~wide.ack, wide.sel, 0)),
        ]
        self.sync += [
            wide.ack.eq(0),
            wide.err.eq(0),
            If(wide.cyc & wide.stb & ~wide.ack & ~wide.err, wide.ack.eq(1)),
        ]
        self.specials += self.mem, pa, pb

    def add_as_main_ram(self, soc, origin):
        """Make this the LiteX `soc`'s main RAM: its 32-bit port a slave of the SoC's bus at
        `origin` (the `wide` port is for the hash peripherals' DMA)."""
        from litex.soc.integration.soc import SoCRegion

        region = SoCRegion(origin=origin, size=self.size, mode="rwx")
        soc.bus.add_slave("main_ram", self.bus, region)
        soc.integrated_main_ram_size = self.size
