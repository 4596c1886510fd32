"""What every iterative hash engine shares (DESIGN.md engine contract): the sink of blocks and
the source of chaining values, one stored chaining value per slot, the starting value of an
accepted block (IV of its variant, a loaded cv, or the slot's), and the result register.

Round architectures plug in on top:
- `iterate(...)` is the conventional sequencer: the first group of rounds runs in the accept
  cycle (the multiplexer in front of the round selects the starting value, seed 000 fig. 3),
  the remaining groups follow, then one cycle adds the chaining value. Latency = cycles + 1.
- optimized architectures with an initialization unit drive `busy`, `count` and `finish`
  themselves (see sha256.SHA256Engine._opt_datapath).
"""
from migen import Module, Signal, Array, Constant, Cat, If, Mux

from litex.soc.interconnect import stream

from .common import add_mod, words, engine_sink_layout, engine_source_layout, slot_bits


def pack_words(ws, width=32):
    """Word i at bits [width*i, width*(i+1)) (the engines' block/chaining-value layout)."""
    return sum(w << (width * i) for i, w in enumerate(ws))


def rom(values, width=32):
    return Array(Constant(v, width) for v in values)


class HashEngine(Module):
    """Common part of the engines. Subclasses set the class attributes and call `setup`."""

    WORD = 32            # bits per word
    BLOCK_WORDS = 16     # message words per block
    IVS = {}             # variant name -> list of initial chaining-value words
    ARCHITECTURES = {}   # arch -> steps per clock

    def setup(self, arch, slots, round_cycles):
        if arch not in self.ARCHITECTURES:
            raise ValueError(f"unknown {self.family} architecture {arch!r} "
                             f"(known: {', '.join(self.ARCHITECTURES)})")
        if slots < 1:
            raise ValueError("slots must be >= 1")
        wb = self.WORD
        ncv = len(next(iter(self.IVS.values())))
        self.arch = arch
        self.slots = slots
        self.word_bits = wb
        self.block_bits = self.BLOCK_WORDS * wb
        self.digest_bits = ncv * wb
        self.variants = {name: i for i, name in enumerate(self.IVS)}
        self.steps_per_cycle = self.ARCHITECTURES[arch]
        self.round_cycles = round_cycles
        self.latency = round_cycles + 1   # accept to result valid
        self.interval = self.latency      # the engine accepts again when the result appears
        self.blocks_in_flight = 1

        vbits = max(1, (len(self.IVS) - 1).bit_length())
        self.sink = sink = stream.Endpoint(engine_sink_layout(self.block_bits, self.digest_bits, slots, vbits))
        self.source = source = stream.Endpoint(engine_source_layout(self.digest_bits, slots))

        self.st = [Signal(wb, name=f"st{i}") for i in range(ncv)]
        self.w = [Signal(wb, name=f"w{i}") for i in range(self.BLOCK_WORDS)]
        self.busy = busy = Signal()
        self.count = Signal(max=round_cycles + 1)
        cur_slot = Signal(slot_bits(slots))
        cur_last = Signal()
        cv_cur = Signal(self.digest_bits)  # chaining value the current block started from
        cv_mem = Array(Signal(self.digest_bits, name=f"cv_slot{i}") for i in range(slots))

        res_valid = Signal()
        res_digest = Signal(self.digest_bits)
        res_slot = Signal(slot_bits(slots))
        res_last = Signal()
        self.out_free = Signal()
        self.accept = accept = Signal()
        self.comb += [
            self.out_free.eq(~res_valid | source.ready),
            sink.ready.eq(~busy),
            accept.eq(sink.valid & sink.ready),
            source.valid.eq(res_valid),
            source.digest.eq(res_digest),
            source.slot.eq(res_slot),
            source.last.eq(res_last),
        ]
        self.sync += If(source.ready, res_valid.eq(0))  # overridden when a result lands

        ivs = [Constant(pack_words(v, wb), self.digest_bits) for v in self.IVS.values()]
        iv = Array(ivs)[sink.variant] if len(ivs) > 1 else ivs[0]
        init_cv = Signal(self.digest_bits)
        self.comb += init_cv.eq(Mux(sink.first, iv, Mux(sink.load_cv, sink.cv, cv_mem[sink.slot])))
        self.sync += If(accept,
            busy.eq(1),
            cur_slot.eq(sink.slot),
            cur_last.eq(sink.last),
            cv_cur.eq(init_cv),
        )
        self.init_st = words(init_cv, ncv, wb)
        self.data_w = words(sink.data, self.BLOCK_WORDS, wb)
        self.cv_words = words(cv_cur, ncv, wb)

        def finish(cv_new):
            """Statements of the edge that completes a block with chaining value cv_new."""
            return [
                cv_mem[cur_slot].eq(cv_new),
                res_valid.eq(1),
                res_digest.eq(cv_new),
                res_slot.eq(cur_slot),
                res_last.eq(cur_last),
                busy.eq(0),
            ]
        self.finish = finish

    def iterate(self, step):
        """The conventional sequencer. `step(rin, win, count)` returns (state', window') for
        one clock's group of rounds, `count` being the group index (0 in the accept cycle)."""
        st, w, count, busy, accept = self.st, self.w, self.count, self.busy, self.accept
        final = Signal(name="final_add")
        rin = [Mux(accept, i, s) for i, s in zip(self.init_st, st)]
        win = [Mux(accept, d, x) for d, x in zip(self.data_w, w)]
        idx = Signal(max=self.round_cycles + 1)
        self.comb += idx.eq(Mux(accept, 0, count))
        st_next, w_next = step(rin, win, idx)
        self.sync += [
            If(accept | (busy & ~final),
                [dst.eq(src) for dst, src in zip(st, st_next)],
                [dst.eq(src) for dst, src in zip(w, w_next)],
                count.eq(idx + 1),
                If(~accept & (count == self.round_cycles - 1), final.eq(1)),
            ),
            If(final & self.out_free,
                final.eq(0),
                self.finish(Cat(*[add_mod(s, c, width=self.word_bits) for s, c in zip(st, self.cv_words)])),
            ),
        ]
