# SPDX-License-Identifier: BSD-2-Clause
"""The Skein tweak stage: the tweak of every block of a job, so DMA blocks never pass the CPU.

A UBI job (Ferguson et al., "The Skein Hash Function Family", v1.3, 2010, section 3.4) gives
each block a 128-bit tweak: T0 = the position, bytes processed so far including this block;
T1 = type, first (the UBI's first block), final and bitpad (its final block). The CPU writes
the job's start tweak (position = bytes before the job, the flags of the UBI) and the bytes the
UBI's final block adds (`final_bytes`); the stage keeps one such state per slot and answers
the DMA reader with the tweak of a slot's next block (`tweak_of_block`). It also keeps, per
slot, whether the job owes the output UBI's first block (`ctrl.out`: counter 0, 64 zero bytes,
tweak OUT|FIRST|FINAL at position 8), which the reader makes without reading memory.

A `pad` job (the whole message, the reader zero-fills its final block) is one whole message
UBI: its start tweak is MSG|FIRST|FINAL at position 0 and its final block adds the bytes of the
message in it (1..64; 0 for the empty message, one zero block), made here from the job's
length (`pad_bytes`), not from the CSRs: the batch walker's jobs need no register writes.
"""

from litedigest.ip import skein512
from migen import Array, Cat, If, Module, Mux, Signal
from migen.genlib.record import Record

from .layouts import TWEAK_BITS, job_layout, tweak_port_layout

# Skein's tweak word T1 (bits 127:64 of the tweak): first, final, bitpad flags
TWEAK_FIRST, TWEAK_FINAL, TWEAK_BITPAD = 126, 127, 119

# the output UBI's first block (counter 0, 8 bytes): position 8, OUT, first, final
OUTPUT_TWEAK = (((skein512.T_OUT << 56) | skein512.FLAG_FIRST | skein512.FLAG_FINAL) << 64) | 8

# a pad job's start tweak: the whole message UBI (MSG, first, final) from position 0
MESSAGE_TWEAK = ((skein512.T_MSG << 56) | skein512.FLAG_FIRST | skein512.FLAG_FINAL) << 64


def tweak_of_block(start, pos, first, is_final, final_bytes):
    """The tweak of one block of a Skein job (REGISTERS.md "Skein"): the job's `start` tweak
    with the position `pos` + 64 (or + final_bytes for the UBI's final block), first only when
    `first`, final and bitpad only on the final block. Returns (tweak, new position, comb
    statements)."""
    new_pos = Signal(96)
    tw = Signal(TWEAK_BITS)
    final_on = start[TWEAK_FINAL] & is_final
    # both sums, then the choice: the adder does not wait for `is_final` (with the DMA
    # reader's final-block decision in front of a 96-bit carry chain, the Skein reader's
    # tweak update was a long sys path of the four-engine ECP5 SoC)
    return (
        tw,
        new_pos,
        [
            new_pos.eq(Mux(final_on, pos + final_bytes, pos + 64)),
            tw.eq(
                Cat(
                    new_pos,
                    start[96:119],
                    start[TWEAK_BITPAD] & final_on,
                    start[120:126],
                    first,
                    final_on,
                )
            ),
        ],
    )


class SkeinTweak(Module):
    """Per-slot tweak state of the jobs.

    - `job` (job_layout, in): a job starts; its start tweak and final bytes are `tweak` and
      `final_bytes` (in, the CSRs), or for a `pad` job made from `pad_bytes` (in, its length);
      `job.out` says whether it ends with the output block;
    - `csr_tweak` (out): the tweak of a one-block job (the CSR path: the UBI's final block when
      the start tweak says final);
    - `port` (tweak_port_layout, slave side): the DMA reader's questions."""

    def __init__(self, nslots):
        self.job = job = Record(job_layout(nslots))
        self.tweak = Signal(TWEAK_BITS)
        self.final_bytes = Signal(7)
        self.pad_bytes = Signal(32)
        self.csr_tweak = Signal(TWEAK_BITS)
        self.port = port = Record(tweak_port_layout(nslots))

        mk = lambda n, w=1: Array(Signal(w, name=f"{n}{s}") for s in range(nslots))
        tstart = mk("tstart", TWEAK_BITS)  # the job's start tweak
        tpos = mk("tpos", 96)  # the position so far
        tfirst = mk("tfirst")  # the next block is the UBI's first
        tfb = mk("tfb", 7)  # bytes of the UBI's final block
        jout = mk("jout")  # the output block is still to come

        tw, pos, stmts = tweak_of_block(
            tstart[port.slot], tpos[port.slot], tfirst[port.slot], port.final, tfb[port.slot]
        )
        self.comb += stmts
        t = self.tweak
        csr_tw, _, stmts = tweak_of_block(t, t[:96], t[TWEAK_FIRST], 1, self.final_bytes)
        self.comb += stmts
        self.comb += [
            port.tweak.eq(tw),
            port.out_pending.eq(Cat(*jout)),
            port.out_tweak.eq(OUTPUT_TWEAK),
            self.csr_tweak.eq(csr_tw),
        ]
        self.sync += [
            If(port.out_take, jout[port.out_slot].eq(0)),
            If(port.advance, tpos[port.slot].eq(pos), tfirst[port.slot].eq(0)),
        ]
        # the start of this cycle's job: the CSRs', or a pad job's own
        n, n_1 = self.pad_bytes, Signal(32)
        j_tweak, j_fb = Signal(TWEAK_BITS), Signal(7)
        self.comb += n_1.eq(n - 1)
        self.comb += If(
            job.pad,
            j_tweak.eq(MESSAGE_TWEAK),
            j_fb.eq(Mux(n == 0, 0, n_1[:6] + 1)),
        ).Else(
            j_tweak.eq(t),
            j_fb.eq(self.final_bytes),
        )
        for s in range(nslots):  # a start on the slot wins over the reader's updates
            self.sync += If(
                job.start & (job.slot == s),
                tstart[s].eq(j_tweak),
                tpos[s].eq(j_tweak[:96]),
                tfirst[s].eq(j_tweak[TWEAK_FIRST]),
                tfb[s].eq(j_fb),
                jout[s].eq(job.out),
            )
