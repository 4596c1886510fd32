# SPDX-License-Identifier: BSD-2-Clause
"""What every iterative hash engine shares (the engine contract, docs/ARCHITECTURE.md): the sink of
blocks and the source of chaining values, one stored chaining value per slot, the starting value of
an accepted block (IV of its variant, a loaded cv, or the slot's), and the result register.

Round architectures plug in on top:
- `iterate(...)` is the conventional sequencer: the accept cycle loads the starting value and
  the block into the round registers, the groups of rounds follow (one per cycle, from
  registers only), and the chaining value is added on the way out, in the cycle the result
  appears. Latency = cycles + 1, as with the paper's datapath (Michail et al. 2016, fig. 3: the
  first group in the accept cycle behind a multiplexer, then one cycle for the addition), whose
  multiplexer in front of the round was its critical path here.
- `iterate_pipelined(...)` is the p-stage version of it (Michail et al. 2016): p stages of
  R/p cycles each, all handing over together every R/p cycles; stage s runs round groups
  s*R/p .. (s+1)*R/p - 1 with its own state, message window and round constants, and carries
  its block's starting chaining value, slot and last flag. Blocks move on the output side: in
  the handover cycle (the last of a period) each stage's last round group is written into the
  next stage's registers and stage 0's registers take the accepted block, so every round
  starts from registers (a multiplexer of starting values and handover in front of stage 0's
  first round was the pipelines' critical path). The last stage's last round group also adds
  the chaining value (Lien, Grembowski and Gaj 2004: HA' of step 79), folded into its sums,
  so the finished chaining value is that group's output and the same message's next block can
  enter stage 0 in that very cycle (through a multiplexer, not an adder): p messages keep all
  p stages busy. Latency R + 1, interval R/p, p blocks (of p different slots) in flight.
- optimized architectures with an initialization unit drive `busy`, `count` and `finish`
  themselves (see sha256.SHA256Engine._opt_datapath).
"""

from litedigest import spec as specmod
from litex.soc.interconnect import stream
from migen import Array, Cat, Constant, If, Module, Mux, Signal

from .common import add_mod, engine_sink_layout, engine_source_layout, slot_bits, words


def pack_words(ws, width=32):
    """Word i at bits [width*i, width*(i+1)) (the engines' block/chaining-value layout)."""
    return sum(w << (width * i) for i, w in enumerate(ws))


def rom(values, width=32):
    return Array(Constant(v, width) for v in values)


class RoundGroup:
    """The round group a datapath works on: `phase` (a signal, 0..count-1) plus a constant
    `offset`. `select(table)` reads a per-group table (round constants, step-function
    choice) restricted to the groups this datapath can see: a pipeline stage gets a bank of
    just its own constants, and a table that is constant over them becomes a constant (so a
    SHA-1 stage carries only the non-linear functions of its own rounds).

    When the sequencer says how the phase moves (`ahead`), every table read and group test is a
    register loaded a cycle ahead (see __init__), so the round starts from registers."""

    def __init__(self, phase, offset=0, count=1, ahead=None):
        self.phase, self.offset, self.count = phase, offset, count
        # ahead = (module, load, step): the sequencer's phase becomes 0 after a cycle with
        # `load` and phase + 1 after one with `step` (and holds otherwise); then every table
        # read and group test is a register loaded a cycle ahead, so the round's logic starts
        # from a register instead of a lookup on the phase (the optimized sequencers)
        self.ahead = ahead

    def _register(self, width, first, following):
        """A register that holds `first` after `load` and `following` (a function of the phase,
        evaluated at phase + 1) after `step`."""
        module, load, step = self.ahead
        r = Signal(width, reset_less=True)
        module.sync += If(load, r.eq(first)).Elif(step, r.eq(following))
        return r

    def at(self, g):
        """True when the group is `g` (a constant when g is outside this datapath's groups)."""
        if not self.offset <= g < self.offset + self.count:
            return Constant(0, 1)
        if self.count == 1:
            return Constant(1, 1)
        if self.ahead is not None:
            return self._register(1, int(g == self.offset), self.phase + 1 == g - self.offset)
        return self.phase == g - self.offset

    def select_plus(self, table, width, word, first_word, next_word):
        """select(table) + `word` (a round constant plus its message word). Ahead, a register:
        table[0] + `first_word` after `load`, the next group's entry + `next_word` after `step`
        (the adder also keeps Yosys from merging the register into the table, which made a
        large table a block-RAM ROM whose 5.6 ns clock-to-out led the round)."""
        if self.ahead is None:
            return self.select(table, width) + word
        vals = list(table[self.offset : self.offset + self.count])
        following = rom(vals + vals[-1:], width)[self.phase + 1]
        return self._register(
            width, (vals[0] + first_word)[:width], (following + next_word)[:width]
        )

    def select_sum(self, table, width, terms, first_terms, next_terms):
        """select(table) plus the words `terms`. Ahead, a register: table[0] + `first_terms`
        after `load`, the next group's entry + `next_terms` after `step`, so the sum is formed
        beside the previous group's rounds (from the accepted block's words at the accept)."""
        if self.ahead is None:
            return add_mod(self.select(table, width), *terms, width=width)
        vals = list(table[self.offset : self.offset + self.count])
        following = rom(vals + vals[-1:], width)[self.phase + 1]
        return self._register(
            width,
            add_mod(vals[0], *first_terms, width=width),
            add_mod(following, *next_terms, width=width),
        )

    def select(self, table, width):
        vals = list(table[self.offset : self.offset + self.count])
        if len(set(vals)) == 1:
            return Constant(vals[0], width)
        if self.ahead is not None:
            # (the step after the last group reads past the table: any value will do)
            return self._register(width, vals[0], rom(vals + vals[-1:], width)[self.phase + 1])
        return rom(vals, width)[self.phase]


class HashEngine(Module):
    """Common part of the engines. Subclasses set the class attributes and call `setup`."""

    WORD = 32  # bits per word
    BLOCK_WORDS = 16  # message words per block
    IVS = {}  # variant name -> list of initial chaining-value words
    ARCHITECTURES = {}  # arch -> steps per clock

    SINK_EXTRA = []  # family-specific sink fields (Skein: the tweak)

    def setup(self, arch, slots, round_cycles, stages=1, custom_timing=None):
        """Common signals. `custom_timing` (dict latency, interval, in_flight, stages) is for
        a sequencer that drives sink.ready and its own timing (Skein's rings); otherwise the
        timing follows from round_cycles and stages as described in the module docstring."""
        if custom_timing is not None:
            stages = 1
        if arch not in self.ARCHITECTURES:
            raise ValueError(
                f"unknown {self.family} architecture {arch!r} "
                f"(known: {', '.join(self.ARCHITECTURES)})"
            )
        if slots < 1:
            raise ValueError("slots must be >= 1")
        if stages < 1 or round_cycles % stages:
            raise ValueError(f"{stages} pipeline stages do not divide {round_cycles} round cycles")
        if stages > 1 and slots < stages:
            raise ValueError(f"a {stages}-stage engine needs at least {stages} slots, got {slots}")
        if tuple(self.IVS) != specmod.variants_of(self.family):
            # the catalogue's variant order is what the drivers write into ctrl.variant
            raise ValueError(
                f"{self.family} IVs {tuple(self.IVS)} are not in the catalogue's "
                f"variant order {specmod.variants_of(self.family)}"
            )
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
        self.stages = stages
        self.latency = round_cycles + 1  # accept to result valid
        if stages == 1:
            self.interval = self.latency  # the engine accepts again when the result appears
        else:
            self.interval = round_cycles // stages  # a result every stage period
        self.blocks_in_flight = stages
        if custom_timing is not None:
            self.latency = custom_timing["latency"]
            self.interval = custom_timing["interval"]
            self.blocks_in_flight = custom_timing["in_flight"]
            self.stages = custom_timing["stages"]

        vbits = max(1, (len(self.IVS) - 1).bit_length())
        self.sink = sink = stream.Endpoint(
            engine_sink_layout(self.block_bits, self.digest_bits, slots, vbits)
            + list(self.SINK_EXTRA)
        )
        self.source = source = stream.Endpoint(engine_source_layout(self.digest_bits, slots))

        # Data registers (state, message window, chaining values, pre-computed sums, the result
        # word) are reset_less: nothing reads them before a block or a result has written them
        # (busy / valid / slot_busy say when), so the SoC reset need not reach them -- on the
        # ECP5 the reset net to every flip-flop of four engines did not route
        self.st = [Signal(wb, name=f"st{i}", reset_less=True) for i in range(ncv)]
        self.w = [Signal(wb, name=f"w{i}", reset_less=True) for i in range(self.BLOCK_WORDS)]
        self.busy = busy = Signal()
        self.count = Signal(max=round_cycles + 1)
        cur_slot = Signal(slot_bits(slots))
        cur_last = Signal()
        cv_cur = Signal(
            self.digest_bits, reset_less=True
        )  # chaining value the current block started from
        cv_mem = Array(
            Signal(self.digest_bits, name=f"cv_slot{i}", reset_less=True) for i in range(slots)
        )

        res_valid = Signal()
        res_digest = Signal(self.digest_bits, reset_less=True)
        res_slot = Signal(slot_bits(slots))
        res_last = Signal()
        self.out_free = Signal()
        self.accept = accept = Signal()
        own = custom_timing is None and stages == 1  # the one-block sequencers below
        if own:
            self.comb += sink.ready.eq(~busy)
        self.comb += [
            self.out_free.eq(~res_valid | source.ready),
            accept.eq(sink.valid & sink.ready),
            source.valid.eq(res_valid),
            source.digest.eq(res_digest),  # (iterate overrides it)
            source.slot.eq(res_slot),
            source.last.eq(res_last),
        ]
        self.sync += If(source.ready, res_valid.eq(0))  # overridden when a result lands

        ivs = [Constant(pack_words(v, wb), self.digest_bits) for v in self.IVS.values()]
        iv = Array(ivs)[sink.variant] if len(ivs) > 1 else ivs[0]
        self.init_cv = init_cv = Signal(self.digest_bits)
        self.comb += init_cv.eq(Mux(sink.first, iv, Mux(sink.load_cv, sink.cv, cv_mem[sink.slot])))
        if own:  # the one block in the engine (pipelines carry these per stage)
            self.sync += If(
                accept,
                busy.eq(1),
                cur_slot.eq(sink.slot),
                cur_last.eq(sink.last),
                cv_cur.eq(init_cv),
            )
        self.init_st = words(init_cv, ncv, wb)
        self.data_w = words(sink.data, self.BLOCK_WORDS, wb)
        self.cv_words = words(cv_cur, ncv, wb)

        self.cv_mem = cv_mem

        def result(value, slot, last):
            """Statements of the edge that puts `value` on the source for `slot`."""
            return [res_valid.eq(1), res_digest.eq(value), res_slot.eq(slot), res_last.eq(last)]

        def complete(cv_new, slot, last):
            """Statements of the edge that completes a
            block of `slot` with chaining value cv_new."""
            return [cv_mem[slot].eq(cv_new)] + result(cv_new, slot, last)

        def finish(cv_new):
            """Completion of the single block in a one-stage engine."""
            return complete(cv_new, cur_slot, cur_last) + [busy.eq(0)]

        self.result = result
        self.complete = complete
        self.finish = finish
        self._res = dict(
            valid=res_valid,
            digest=res_digest,
            slot=res_slot,
            last=res_last,
            cur_slot=cur_slot,
            cur_last=cur_last,
        )

    def iterate(self, step, carry_save=(), start_words=()):
        """The conventional sequencer. `step(rin, win, group)` returns (state', window') for
        one clock's group of rounds, `group` a RoundGroup.

        `carry_save`: state words the step returns in redundant form, as a tuple of words
        whose sum is the word, without the adder at the end of the clock: indices (a pair
        (sum, carry) each) or {index: number of words} (e.g. a tree's last operands left
        unsummed). Registers of their own hold the other words (the accept cycle clears them:
        a synchronous reset, no multiplexer); the rounds read the word as their sum (a
        carry-save tree and an adder at the start of the next clock), and the result adds
        them all to the chaining value.

        Every round starts from registers: the accept cycle only loads the starting value and
        the block (the multiplexer of starting values ends in the registers), groups 0..R-1 run
        in the next R cycles, and the last one raises the result with the final state in the
        round registers. The source's digest is that state plus the chaining value (adders fed
        by registers), so the result appears R + 1 cycles after the accept, as when the first
        group ran in the accept cycle and a cycle was spent on the addition; the registers hold
        it until it is taken (the next block is accepted in that cycle at the earliest, as
        before), and then the slot's chaining value is written.

        `start_words`: state words whose registers take no starting value, so that the
        round's last adder drives them with no multiplexer in between (a word whose new value
        ends the clock's longest path). The accept clears them (a synchronous reset) and loads
        the starting value into a register of its own, `self.start_parts[i] = (register,
        start register)`, which is zero again after the first group; the rounds read the
        word as the two ORed (or, for a word in redundant form, its first operand so)."""
        st, w, count, busy, accept = self.st, self.w, self.count, self.busy, self.accept
        wb = self.word_bits
        if start_words and self.round_cycles < 2:
            raise ValueError(
                "start_words needs two groups or more: the start register lives one cycle"
            )
        self.start_parts = {}
        for i in start_words:
            start = Signal(wb, name=f"st{i}_start", reset_less=True)
            # non-zero for the first group's cycle only, which always advances (not the last)
            self.sync += start.eq(Mux(accept, self.init_st[i], 0))
            self.start_parts[i] = (st[i], start)
        carry, rin = self._carry_save_registers(carry_save, self.start_parts)
        store_cv = self._result_from_registers(
            Cat(
                *[
                    add_mod(s, *carry.get(i, []), c, width=wb)
                    for i, (s, c) in enumerate(zip(st, self.cv_words))
                ]
            )
        )
        last = Signal(name="last_group")
        self.comb += last.eq(count == self.round_cycles - 1)
        group = RoundGroup(count, 0, self.round_cycles, ahead=(self, accept, busy & ~last))
        st_next, w_next = step(rin, w, group)
        st_next = self._split_redundant(st_next, carry)
        st_regs = st + self._carry_registers(carry)
        init_regs = [0 if i in self.start_parts else v for i, v in enumerate(self.init_st)]
        init_regs += [0] * (len(st_regs) - len(st))
        self.sync += [
            self._sequencer(
                last,
                load=[
                    [d.eq(v) for d, v in zip(st_regs, init_regs)],
                    [d.eq(v) for d, v in zip(w, self.data_w)],
                ],
                advance=[
                    [d.eq(v) for d, v in zip(st_regs, st_next)],
                    [d.eq(v) for d, v in zip(w, w_next)],
                ],
                finish=[[d.eq(v) for d, v in zip(st_regs, st_next)], self._hold_result()],
            ),
            store_cv,
        ]

    def _sequencer(self, last, load, advance, finish):
        """The register updates of a one-stage round loop: `load` (and the group count
        cleared) when a block is accepted, `advance` (and the count stepped) in every group
        but the `last`, `finish` in the last group once the output side is free."""
        count, busy = self.count, self.busy
        return (
            If(self.accept, *load, count.eq(0))
            .Elif(busy & ~last, count.eq(count + 1), *advance)
            .Elif(busy & last & self.out_free, *finish)
        )

    def _hold_result(self):
        """The last group's bookkeeping when the finished state stays in the round registers
        (its result is read from them on the output side): the engine is free again and the
        result valid, for the block's slot."""
        r = self._res
        return [
            self.busy.eq(0),
            r["valid"].eq(1),
            r["slot"].eq(r["cur_slot"]),
            r["last"].eq(r["cur_last"]),
        ]

    def _carry_save_registers(self, carry_save, start_parts=None):
        """The registers of the other words of the state words in redundant form
        (`carry_save`, see `iterate`): {index: [registers]}, and the words the rounds read:
        the state, those words summed at the clock's start, a start word's register ORed
        with its start register (`start_parts`, see `iterate`)."""
        wb = self.word_bits
        words = carry_save if isinstance(carry_save, dict) else {i: 2 for i in carry_save}
        carry = {
            i: [
                Signal(wb, name=f"st{i}_carry" + (str(j) if j > 1 else ""), reset_less=True)
                for j in range(1, n)
            ]
            for i, n in words.items()
        }
        rin = list(self.st)
        for i, (reg, start) in (start_parts or {}).items():
            rin[i] = Signal(wb, name=f"st{i}_word")
            self.comb += rin[i].eq(reg | start)
        for i, regs in carry.items():
            word = rin[i]
            rin[i] = Signal(wb, name=f"st{i}_sum")
            self.comb += rin[i].eq(add_mod(word, *regs, width=wb))
        return carry, rin

    @staticmethod
    def _carry_registers(carry):
        return [r for regs in carry.values() for r in regs]

    @staticmethod
    def _split_redundant(state, carry):
        """A state with tuples (redundant form) at `carry`'s indices as the values of the
        state registers followed by the other words' registers (`_carry_registers`' order)."""
        state = list(state)
        for i, regs in carry.items():
            if len(state[i]) != len(regs) + 1:
                raise ValueError(
                    f"state word {i}: {len(state[i])} words for {len(regs) + 1} registers"
                )
            state[i], *rest = state[i]
            state.extend(rest)
        return state

    def _result_from_registers(self, value):
        """The result read on the output side: the source's digest is `value` (formed from the
        round registers, which hold the finished state until the result is taken). Returns
        the statement that stores it as the slot's chaining value when taken."""
        sink, source, r = self.sink, self.source, self._res
        res_sum = Signal(self.digest_bits, name="res_sum")
        taken = Signal(name="res_taken")
        # (later comb statements win: these override setup's source.digest, sink.ready, init_cv)
        self.comb += [
            res_sum.eq(value),
            taken.eq(r["valid"] & source.ready),
            source.digest.eq(res_sum),
            sink.ready.eq(~self.busy & self.out_free),
            # the slot's chaining value reaches cv_mem at the end of the cycle its result is
            # taken: the same message's next block, accepted in that cycle, starts from the sum
            If(
                taken & ~sink.first & ~sink.load_cv & (sink.slot == r["slot"]),
                self.init_cv.eq(res_sum),
            ),
        ]
        return If(taken, self.cv_mem[r["slot"]].eq(res_sum))

    def iterate_precomputed(self, step, pre_init, npre, carry_save=()):
        """The sequencer of optimized rounds with pre-computed registers: the accept cycle
        runs the initialization unit `pre_init(state, block words) -> pre values`, then one
        mega-round per cycle; `step(state, window, pre, group, cv words)` returns
        (state', window', pre', final state), the final state (chaining value added) being
        used in the last group. Latency round_cycles + 1.

        `carry_save`: as for `iterate`, state words the step returns in redundant form (tuples
        of words) in state'; the rounds read them through a carry-save tree and an adder at the
        start of the clock. Then the finished state stays in the round registers and the result
        is read from them on the output side (the words added there), as in `iterate`: an adder
        behind the last mega-round would put the redundant form's saving back on its path.
        The step's final state is not used: the whole chaining value is added there."""
        if carry_save:
            return self._iterate_precomputed_carry_save(step, pre_init, npre, carry_save)
        st, w, count, busy, accept = self.st, self.w, self.count, self.busy, self.accept
        wb = self.word_bits
        pre = [Signal(wb, name=f"pre{i}", reset_less=True) for i in range(npre)]
        last = count == self.round_cycles - 1
        group = RoundGroup(count, 0, self.round_cycles, ahead=(self, accept, busy & ~last))
        st_next, w_next, pre_next, st_final = step(st, w, pre, group, self.cv_words)
        self.sync += self._sequencer(
            last,
            load=[
                [d.eq(v) for d, v in zip(st, self.init_st)],
                [d.eq(v) for d, v in zip(w, self.data_w)],
                [d.eq(v) for d, v in zip(pre, pre_init(self.init_st, self.data_w))],
            ],
            advance=[
                [d.eq(v) for d, v in zip(st, st_next)],
                [d.eq(v) for d, v in zip(w, w_next)],
                [d.eq(v) for d, v in zip(pre, pre_next)],
            ],
            finish=[self.finish(Cat(*st_final))],
        )

    def _iterate_precomputed_carry_save(self, step, pre_init, npre, carry_save):
        st, w, count, busy, accept = self.st, self.w, self.count, self.busy, self.accept
        wb = self.word_bits
        pre = [Signal(wb, name=f"pre{i}", reset_less=True) for i in range(npre)]
        carry, rin = self._carry_save_registers(carry_save)
        last = Signal(name="last_group")
        self.comb += last.eq(count == self.round_cycles - 1)
        group = RoundGroup(count, 0, self.round_cycles, ahead=(self, accept, busy & ~last))
        # the step's final state is unused: the last group writes state' and the chaining value
        # is added on the output side (the carry-save words through the rounds' adders)
        st_next, w_next, pre_next, _ = step(rin, w, pre, group, self.cv_words)
        res = Signal(self.digest_bits, name="res_state")
        self.comb += res.eq(Cat(*[add_mod(r_, c, width=wb) for r_, c in zip(rin, self.cv_words)]))
        store_cv = self._result_from_registers(res)
        st_regs = st + self._carry_registers(carry)
        self.sync += [
            self._sequencer(
                last,
                load=[
                    [
                        d.eq(v)
                        for d, v in zip(
                            st_regs, list(self.init_st) + [0] * (len(st_regs) - len(st))
                        )
                    ],
                    [d.eq(v) for d, v in zip(w, self.data_w)],
                    [d.eq(v) for d, v in zip(pre, pre_init(self.init_st, self.data_w))],
                ],
                advance=[
                    [d.eq(v) for d, v in zip(st_regs, self._split_redundant(st_next, carry))],
                    [d.eq(v) for d, v in zip(w, w_next)],
                    [d.eq(v) for d, v in zip(pre, pre_next)],
                ],
                finish=[
                    [d.eq(v) for d, v in zip(st_regs, self._split_redundant(st_next, carry))],
                    self._hold_result(),
                ],
            ),
            store_cv,
        ]

    def pipeline_timing(self):
        """The p-stage pipeline's clock: `phase` counts the cycles of a stage period (stage s
        runs its round group s * period + phase), blocks move to the next stage (`handover`) at
        the end of the period's last cycle, and the whole pipeline moves (`advance`) unless the
        finished block cannot leave. Returns (phase, handover, advance, period)."""
        period = self.round_cycles // self.stages
        phase = Signal(max=max(2, period), name="phase")
        advance = Signal()  # the pipeline moves this cycle (it stalls for a full output only)
        if period == 1:
            handover = Constant(1, 1)
        else:
            # a register set a cycle ahead: it selects every stage's register inputs and the
            # final addition, so it should not be a comparison on the phase
            handover = Signal(name="handover", reset=int(period == 1))
            self.sync += If(advance, handover.eq(phase == period - 2))
        self.sync += If(advance, phase.eq(Mux(handover, 0, phase + 1)))
        return phase, handover, advance, period

    def stage_chain(self, step, pre_init, npre, prev, count, timing, name="s", tags=()):
        """`count` pipeline stages after `prev` (a dict: valid, st, w, cv, slot, last, pre and
        the `tags`: the block offered to the first stage in a handover cycle), each running its
        own share of the round groups (`step`, `pre_init` as for iterate_pipelined), the last
        one folding in the final addition. `tags` are extra fields carried with the block.

        Every round starts from the stage's registers; a block moves on the output side: in
        the handover cycle a stage's last round group is written into the next stage's
        registers (and the first stage's registers take the offered block), so no multiplexer
        or starting-value logic sits in front of a round. Returns the stages' registers (dicts
        like `prev`), each with `out`: the block it hands over (its round outputs, the last
        stage's being the finished chaining value in a handover cycle)."""
        wb, ncv = self.word_bits, len(self.st)
        phase, handover, advance, period = timing
        chain = []
        for s in range(count):
            regs = dict(
                valid=Signal(name=f"{name}{s}_valid"),
                st=[Signal(wb, name=f"{name}{s}_st{i}", reset_less=True) for i in range(ncv)],
                w=[
                    Signal(wb, name=f"{name}{s}_w{i}", reset_less=True)
                    for i in range(self.BLOCK_WORDS)
                ],
                pre=[Signal(wb, name=f"{name}{s}_pre{i}", reset_less=True) for i in range(npre)],
                cv=Signal(self.digest_bits, name=f"{name}{s}_cv", reset_less=True),
                slot=Signal(len(self.sink.slot), name=f"{name}{s}_slot"),
                last=Signal(name=f"{name}{s}_last"),
                **{t: Signal(len(prev[t]), name=f"{name}{s}_{t}") for t in tags},
            )
            group = RoundGroup(phase, s * period, period)
            cv_words = [regs["cv"][wb * i : wb * (i + 1)] for i in range(ncv)]
            final = handover  # the stage's last round group
            is_last = s == count - 1
            if pre_init is None:
                if is_last:  # the final addition, folded into the last round group's sums
                    fold = [Mux(final, c, 0) for c in cv_words]
                    st_next, w_next = step(regs["st"], regs["w"], group, fold=fold)
                else:
                    st_next, w_next = step(regs["st"], regs["w"], group)
                pre_next = []
            else:
                st_next, w_next, pre_next, st_final = step(
                    regs["st"], regs["w"], regs["pre"], group, cv_words
                )
                if is_last:
                    st_next = [Mux(final, f, x) for f, x in zip(st_final, st_next)]
            self.sync += If(
                advance,
                If(
                    handover,
                    [d.eq(v) for d, v in zip(regs["st"], prev["st"])],
                    [d.eq(v) for d, v in zip(regs["w"], prev["w"])],
                    [d.eq(v) for d, v in zip(regs["pre"], prev["pre"])],
                    regs["valid"].eq(prev["valid"]),
                    regs["cv"].eq(prev["cv"]),
                    regs["slot"].eq(prev["slot"]),
                    regs["last"].eq(prev["last"]),
                    [regs[t].eq(prev[t]) for t in tags],
                ).Else(
                    [d.eq(v) for d, v in zip(regs["st"], st_next)],
                    [d.eq(v) for d, v in zip(regs["w"], w_next)],
                    [d.eq(v) for d, v in zip(regs["pre"], pre_next)],
                ),
            )
            out = dict(
                valid=regs["valid"],
                st=st_next,
                w=w_next,
                pre=pre_next,
                cv=regs["cv"],
                slot=regs["slot"],
                last=regs["last"],
                **{t: regs[t] for t in tags},
            )
            regs["out"] = out
            chain.append(regs)
            prev = out
        return chain

    def iterate_pipelined(self, step, pre_init=None, npre=0):
        """The p-stage sequencer (see the module docstring). `step` as for `iterate`, or, with
        `pre_init`, as for `iterate_precomputed` (stage 0 then gets its pre-computed values
        from the initialization unit in the handover cycle); it is instantiated once per
        stage, with that stage's round groups."""
        sink = self.sink
        timing = phase, handover, advance, period = self.pipeline_timing()
        slot_busy = Signal(self.slots)  # slots with a block in flight
        fin_valid = Signal()
        fin_slot = Signal(len(sink.slot))
        fin_cv = Signal(self.digest_bits)
        # at a handover the last stage's block is done: its slot may take its next block now
        reusable = handover & fin_valid & (fin_slot == sink.slot)
        self.comb += [
            advance.eq(~(handover & fin_valid & ~self.out_free)),
            sink.ready.eq(advance & handover & (~(slot_busy >> sink.slot)[0] | reusable)),
        ]
        init_cv = Signal(self.digest_bits, name="pipe_init_cv")
        self.comb += init_cv.eq(Mux(~sink.first & ~sink.load_cv & reusable, fin_cv, self.init_cv))
        wb, ncv = self.word_bits, len(self.st)
        init_st = [init_cv[wb * i : wb * (i + 1)] for i in range(ncv)]
        entry = dict(
            valid=self.accept,
            st=init_st,
            w=self.data_w,
            cv=init_cv,
            slot=sink.slot,
            last=sink.last,
            pre=pre_init(init_st, self.data_w) if pre_init else [],
        )
        regs = self.stage_chain(step, pre_init, npre, entry, self.stages, timing)[-1]
        done = Signal()
        self.comb += [
            fin_valid.eq(regs["valid"]),
            fin_slot.eq(regs["slot"]),
            fin_cv.eq(Cat(*regs["out"]["st"])),
            done.eq(advance & handover & regs["valid"]),
        ]
        one = lambda slot: Constant(1, self.slots) << slot
        self.sync += [
            If(done, self.complete(fin_cv, regs["slot"], regs["last"])),
            slot_busy.eq(
                (slot_busy & ~Mux(done, one(regs["slot"]), 0)) | Mux(self.accept, one(sink.slot), 0)
            ),
        ]
