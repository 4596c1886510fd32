# SPDX-License-Identifier: BSD-2-Clause
"""The CSR path: `din` words -> one block for the engine, with its job's metadata.

The CPU writes the block as 32-bit big-endian words (`din`, one per write); a CSR job start
(`job.start & job.csr`, admitted by SlotControl, which checks that the buffer holds a whole
block and that no earlier CSR block still waits) turns the buffer into one block in the
engine's word order, tagged with the job's slot, flags, variant and tweak, and held on `source`
until taken.
"""

from litex.soc.interconnect import stream
from migen import Array, Cat, If, Module, Signal
from migen.genlib.record import Record

from .layouts import TWEAK_BITS, block_layout, data_reset_less, engine_block, job_layout


def _bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


class CSRBlock(Module):
    """Ports:
    - `din` (32, in), `din_we` (in): a `din` write;
    - `clear` (in): reset the word count (`ctrl.ack`); `wipe` (in): zero the buffer's words
      and the last block (a MAC peripheral's keys);
    - `job` (job_layout, in): a job start, a CSR one when `job.csr`; `tweak` (in): its tweak;
    - `words` (8, out): words in the buffer;
    - `overflow` (out): this cycle's `din` write is dropped (the buffer is full, or the block
      is taken by a start in the same cycle): an `err_state`;
    - `source` (block_layout): the block, valid from the cycle after the start until taken."""

    def __init__(self, block_bits, word_bits, nslots):
        nbw = block_bits // 32  # din words per block
        self.din = Signal(32)
        self.din_we = Signal()
        self.clear = Signal()
        self.wipe = Signal()  # (in) zero the buffer and the block (when idle)
        self.job = job = Record(job_layout(nslots))
        self.tweak = Signal(TWEAK_BITS)
        self.words = words = Signal(8)
        self.overflow = Signal()
        self.source = source = stream.Endpoint(block_layout(block_bits, nslots))

        data_reset_less(source)  # (data registers: `words` and `valid` say what they hold)
        buf = Array(Signal(32, name=f"din{i}", reset_less=True) for i in range(nbw))
        load = Signal()
        room = Signal()
        self.comb += [
            load.eq(job.start & job.csr),
            room.eq(words < nbw),
            # a write in the cycle of a start is dropped: the start takes the buffer and empties
            # it (`words` 0, below); the CPU cannot do both in one cycle
            self.overflow.eq(self.din_we & (~room | load)),
        ]
        # The enables of the buffer words and of the block's data and tweak registers do not
        # depend on `load`: it comes from SlotControl's admission (the request, the range
        # checks), and on the four-engine ECP5 SoC that decision reaching 1,000 and more
        # enables was among its longest sys paths. The data registers follow the buffer while
        # no block is held, so at a start they hold the buffer as it was in the start's cycle,
        # as a load on the start would (SlotControl admits no CSR start while a block is held).
        self.sync += [
            If(source.valid & source.ready, source.valid.eq(0)),
            If(
                self.din_we & room,
                buf[words].eq(self.din),
                words.eq(words + 1),
            ),
            If(
                ~source.valid,
                source.data.eq(
                    engine_block(Cat(*[_bswap32(buf[i]) for i in range(nbw)]), word_bits)
                ),
                source.tweak.eq(self.tweak),
            ),
            If(self.clear, words.eq(0)),
            If(self.wipe, words.eq(0), [b.eq(0) for b in buf], source.data.eq(0)),
            If(
                load,
                source.valid.eq(1),
                words.eq(0),
                source.slot.eq(job.slot),
                source.first.eq(job.first),
                source.load_cv.eq(job.load_cv),
                source.last.eq(job.last),
                source.variant.eq(job.variant),
            ),
        ]
