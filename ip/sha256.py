# SPDX-License-Identifier: BSD-2-Clause
"""SHA-256 / SHA-224 engines (FIPS 180-4), two round architectures behind one engine contract.

- ``base``: one round per clock, the conventional datapath (Michail et al. 2016, figs.
  2/3): T1 is a chain of adders (K + W formed a cycle ahead); the accept cycle loads the
  block, 64 rounds follow, the chaining value is added as the result leaves: latency 65.
- ``opt``: the optimized operation block of Michail et al. 2012, sec. 7 (also their IPsec module
  paper): two rounds per clock (partial unrolling by 2), spatial pre-computation with resource
  reordering, W+K prefetch, carry-save adders and temporal pre-computation. The accept cycle
  runs the initialization unit, then 32 mega-rounds, the last one folding in the final addition.

  The round consumes only registered, pre-computed sums (the registers of the initialization
  unit, eqs. 12-17), never h, d, g, c or W+K directly:

      H   = h + (W+K)[2j]              eq. 13
      X   = h + d + (W+K)[2j]          eq. 12
      P4  = g + (W+K)[2j+1]            eq. 14
      P4c = g + c + (W+K)[2j+1]        (P4 with the d-input of the 2nd round's e; the paper's p4)

  so that e1 = CSA(X, S1(e), Ch(e,f,g)), a1 = CSA-tree(H, S1(e), Ch, S0(a), Maj(a,b,c)),
  e2 = CSA(P4c, S1(e1), Ch(e1,e,f)), a2 = CSA-tree(P4, S1(e1), Ch(e1,e,f), S0(a1), Maj(a1,a,b)).
  The next cycle's H/X/P4/P4c (the starred registers X*, H*, P4* of eqs. 15-17) are computed
  from this cycle's registered f, b, e, a and the prefetched (W+K) pair, off the critical path:
  H* = f + (W+K)[2j+2], X* = f + b + (W+K)[2j+2], P4* = e + (W+K)[2j+3], P4c* = e + a + (W+K)[2j+3].
  The (W+K) pair two rounds ahead is itself registered one cycle early (system-level data
  prefetching, Michail et al. 2012, sec. 7.3). When a block is accepted the initialization unit
  computes H, X, P4, P4c from the starting chaining value and the block's first words in the accept
  cycle, so no extra cycle is spent (Michail et al. 2012, fig. 13). The 1-stage engine reorders the
  a side for the ECP5's carry chains: each round's T1 is a word of its own, the second new a leaves
  the clock as its three operands (T1, Sigma0, Maj: summed at the start of the next clock), the
  final addition is on the output side, and the sums off the round's path are plain adders
  (`_opt_step`'s `a_carry_save`, docs/measurements/timing.md); the pipelines keep the trees above.

Both engines keep one chaining value per slot: blocks of up to `slots` messages may be
interleaved in any order (the engine contract, docs/ARCHITECTURE.md). Latency (accept to
result valid) is 65 cycles (base) / 33 (opt); the next block is accepted the cycle the
result appears, so at full occupancy interval == latency.
"""

from migen import Mux, Signal

from .common import add_mod, add_tree, rotr, shr
from .engine_base import HashEngine

K256 = [
    0x428A2F98,
    0x71374491,
    0xB5C0FBCF,
    0xE9B5DBA5,
    0x3956C25B,
    0x59F111F1,
    0x923F82A4,
    0xAB1C5ED5,
    0xD807AA98,
    0x12835B01,
    0x243185BE,
    0x550C7DC3,
    0x72BE5D74,
    0x80DEB1FE,
    0x9BDC06A7,
    0xC19BF174,
    0xE49B69C1,
    0xEFBE4786,
    0x0FC19DC6,
    0x240CA1CC,
    0x2DE92C6F,
    0x4A7484AA,
    0x5CB0A9DC,
    0x76F988DA,
    0x983E5152,
    0xA831C66D,
    0xB00327C8,
    0xBF597FC7,
    0xC6E00BF3,
    0xD5A79147,
    0x06CA6351,
    0x14292967,
    0x27B70A85,
    0x2E1B2138,
    0x4D2C6DFC,
    0x53380D13,
    0x650A7354,
    0x766A0ABB,
    0x81C2C92E,
    0x92722C85,
    0xA2BFE8A1,
    0xA81A664B,
    0xC24B8B70,
    0xC76C51A3,
    0xD192E819,
    0xD6990624,
    0xF40E3585,
    0x106AA070,
    0x19A4C116,
    0x1E376C08,
    0x2748774C,
    0x34B0BCB5,
    0x391C0CB3,
    0x4ED8AA4A,
    0x5B9CCA4F,
    0x682E6FF3,
    0x748F82EE,
    0x78A5636F,
    0x84C87814,
    0x8CC70208,
    0x90BEFFFA,
    0xA4506CEB,
    0xBEF9A3F7,
    0xC67178F2,
]
# variant index -> initial hash value H0..H7
IVS = [
    [
        0x6A09E667,
        0xBB67AE85,
        0x3C6EF372,
        0xA54FF53A,
        0x510E527F,
        0x9B05688C,
        0x1F83D9AB,
        0x5BE0CD19,
    ],
    [
        0xC1059ED8,
        0x367CD507,
        0x3070DD17,
        0xF70E5939,
        0xFFC00B31,
        0x68581511,
        0x64F98FA7,
        0xBEFA4FA4,
    ],
]


def big_sigma0(x):
    return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22)


def big_sigma1(x):
    return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25)


def ch(e, f, g):
    return (e & f) ^ (~e & g)


def maj(a, b, c):
    return (a & b) ^ (a & c) ^ (b & c)


class SHA2Engine(HashEngine):
    """What SHA-256 and SHA-512 share: the round and the message schedule, parameterised by
    word width, round constants and rotation amounts (FIPS 180-4 4.1.2 / 4.1.3), and two
    round architectures on the conventional sequencer:
    - ``base``: one round per clock (the conventional adder chain, Michail et al. 2016, fig. 2);
    - ``kN`` (e.g. ``k5``): N rounds per clock, partially unrolled (Lien, Grembowski and Gaj
      2004): the h and d operands of the first four rounds of a clock are registers (h, g, f,
      e; d, c, b, a), so h + K + W and d + h + K + W are pre-calculated off the round chain
      (the first round's in registers formed during the previous clock); each round's new e
      is one carry-save level and one adder on d + h + K + W, its new a T1 + T2 through a
      carry-save level; the last round's new a leaves the clock as its three operands (T1,
      Sigma0, Maj), summed at the start of the next clock (the sequencer's `carry_save`); the
      a and e registers take the starting value through registers of their own (the
      sequencer's `start_words`), so no multiplexer follows the last adders."""

    ROUNDS = 64
    K = K256
    # (Sigma0, Sigma1, sigma0, sigma1): rotate, rotate, rotate|shift amounts
    ROT = ((2, 13, 22), (6, 11, 25), (7, 18, 3), (17, 19, 10))

    PIPELINED = ("base", "opt")  # architectures with p-stage versions so far

    def __init__(self, arch, slots, stages=1):
        if stages > 1 and arch not in self.PIPELINED:
            raise ValueError(f"{self.family}:{arch} has no pipelined version yet (p{stages})")
        self.setup(
            arch, slots, round_cycles=self.ROUNDS // self.ARCHITECTURES.get(arch, 1), stages=stages
        )
        self.rounds_per_cycle = self.steps_per_cycle
        if arch == "opt":
            if stages == 1:  # the second new a as its three operands (see _opt_step)
                self.iterate_precomputed(
                    lambda *a: self._opt_step(*a, a_carry_save=True),
                    lambda *a: self._opt_init(*a, area=True),
                    self.OPT_PRE,
                    carry_save={0: 3},
                )
            else:
                self.iterate_pipelined(self._opt_step, self._opt_init, self.OPT_PRE)
            return
        if arch == "base":
            (self.iterate if stages == 1 else self.iterate_pipelined)(self._base_round)
        else:  # kN: the last round's new a as its three operands (see _unrolled_rounds)
            self.iterate(self._unrolled_rounds, carry_save={0: 3}, start_words=(0, 4))

    def _big_sigma(self, i, x):
        w = self.WORD
        return rotr(x, self.ROT[i][0], w) ^ rotr(x, self.ROT[i][1], w) ^ rotr(x, self.ROT[i][2], w)

    def _small_sigma(self, i, x):
        w = self.WORD
        r = self.ROT[2 + i]
        return rotr(x, r[0], w) ^ rotr(x, r[1], w) ^ shr(x, r[2], w)

    def schedule(self, win, n, add=add_mod):
        """Shift the 16-word window by n, appending W[t+16..t+15+n]. `add`: how the four
        terms of a new word are summed (add_tree where the schedule is off the critical path
        and area counts)."""
        ext = list(win)
        for i in range(n):
            # a named signal, not an expression: later new words take sigma() of earlier ones,
            # and carry-save trees reference operands twice, so expressions would blow up
            nw = Signal(self.WORD, name=f"w_new{i}")
            self.comb += nw.eq(
                add(
                    self._small_sigma(1, ext[i + 14]),
                    ext[i + 9],
                    self._small_sigma(0, ext[i + 1]),
                    ext[i],
                    width=self.WORD,
                )
            )
            ext.append(nw)
        return ext[n : n + 16]

    def _base_round(self, rin, win, idx, fold=None):
        """One round (conventional adder chain, Michail et al. 2016, fig. 2: no carry-save, no
        pre-computation) and the one-word shift of the message schedule. `fold` (a pipeline's
        last stage): words added to the new state, the chaining value in the last group; a and
        e take theirs through sums formed from registers beside T1 (T2 + cv_a, d + cv_e), so
        the final addition adds no adder after the round's."""
        a, b, c, d, e, f, g, h = rin
        # K + W: on the conventional sequencer a register formed a cycle ahead (from the next
        # window word), so the round adds four operands
        kw = idx.select_plus(self.K, self.WORD, win[0], self.data_w[0], win[1])
        t1 = Signal(self.WORD)
        t2 = Signal(self.WORD)
        self.comb += [
            t1.eq(h + self._big_sigma(1, e) + ch(e, f, g) + kw),
            t2.eq(self._big_sigma(0, a) + maj(a, b, c)),
        ]
        if fold is None:
            return [t1 + t2, a, b, c, d + t1, e, f, g], self.schedule(win, 1)
        wb = self.WORD
        t2f, df = Signal(wb, name="t2_fold"), Signal(wb, name="d_fold")
        self.comb += [t2f.eq(add_mod(t2, fold[0], width=wb)), df.eq(add_mod(d, fold[4], width=wb))]
        st = [
            add_mod(t1, t2f, width=wb),
            add_mod(a, fold[1], width=wb),
            add_mod(b, fold[2], width=wb),
            add_mod(c, fold[3], width=wb),
            add_mod(t1, df, width=wb),
            add_mod(e, fold[5], width=wb),
            add_mod(f, fold[6], width=wb),
            add_mod(g, fold[7], width=wb),
        ]
        return st, self.schedule(win, 1)

    def _unrolled_rounds(self, rin, win, idx):
        k, wb = self.steps_per_cycle, self.WORD
        na_s = [Signal(wb, name=f"a{i + 1}") for i in range(k)]
        ne_s = [Signal(wb, name=f"e{i + 1}") for i in range(k)]
        # the next group's d and h: the a and e words 3 rounds before this group's end
        d_next = (na_s[::-1] + list(rin[:4]))[3]
        h_next = (ne_s[::-1] + list(rin[4:]))[3]
        st = list(rin)
        for i in range(k):
            a, b, c, d, e, f, g, h = st
            table = [self.K[k * j + i] for j in range(self.round_cycles)]
            # h + K + W and d + h + K + W. Round 0's are registers formed beside the previous
            # group's rounds: its h and d are the previous group's e and a of 3 rounds before
            # its end (k5: round 1's, e2 and a2), its word the window's word k (from the
            # block's first word and the starting value at the accept). Rounds 1..3 take
            # theirs from registers (g, f, e; c, b, a) and round 4's from round 0's new e and
            # a: all off the round chain.
            if i == 0:
                init = self.init_st
                khw = idx.select_sum(
                    table, wb, [h, win[0]], [init[7], self.data_w[0]], [h_next, win[k]]
                )
                dkhw = idx.select_sum(
                    table,
                    wb,
                    [d, h, win[0]],
                    [init[3], init[7], self.data_w[0]],
                    [d_next, h_next, win[k]],
                )
            else:
                khw, dkhw = Signal(wb, name=f"khw{i}"), Signal(wb, name=f"dkhw{i}")
                kt = idx.select(table, wb)
                self.comb += [
                    khw.eq(add_mod(h, kt, win[i], width=wb)),
                    dkhw.eq(add_mod(d, khw, width=wb)),
                ]
            s1, che = Signal(wb, name=f"s1_{i}"), Signal(wb, name=f"ch{i}")
            t1 = Signal(wb, name=f"t1_{i}")
            na, ne = na_s[i], ne_s[i]
            if i == 0 and 4 in self.start_parts:
                # e is its register ORed with the starting value's (zero but in the first
                # group): Sigma1 is linear in XOR, so Sigma1 of the starting e is a register
                # too and each bit of Sigma1(e) one LUT4, not three ORs in six inputs
                e_reg, _ = self.start_parts[4]
                s1_start = Signal(wb, name="s1_start", reset_less=True)
                self.sync += s1_start.eq(Mux(self.accept, self._big_sigma(1, self.init_st[4]), 0))
                s1_e = self._big_sigma(1, e_reg) ^ s1_start
            else:
                s1_e = self._big_sigma(1, e)
            self.comb += [
                s1.eq(s1_e),
                che.eq(ch(e, f, g)),
                t1.eq(add_mod(khw, s1, che, width=wb)),
                # the new e as its own carry-save level and adder (not d + T1): one 64-bit
                # carry chain a round on the e chain instead of two
                ne.eq(add_mod(dkhw, s1, che, width=wb)),
            ]
            t2 = (self._big_sigma(0, a), maj(a, b, c))
            if i < k - 1:
                self.comb += na.eq(add_mod(t1, *t2, width=wb))
                new_a = na
            else:
                # the last new a would lag the last new e by a carry-save level and an adder;
                # it leaves the clock as its three operands T1, Sigma0 and Maj (the sequencer's
                # carry_save) and is summed at the start of the next clock, beside round 0's T1
                na_s0, na_maj = Signal(wb, name=f"a{k}_s0"), Signal(wb, name=f"a{k}_maj")
                self.comb += [na.eq(t1), na_s0.eq(t2[0]), na_maj.eq(t2[1])]
                new_a = (na, na_s0, na_maj)
            st = [new_a, a, b, c, ne, e, f, g]
        return st, self.schedule(win, k)


class SHA256Engine(SHA2Engine):
    """SHA-256/224 compression engine. See the module docstring for the architectures."""

    family = "sha256"
    IVS = {"sha256": IVS[0], "sha224": IVS[1]}
    ARCHITECTURES = {"base": 1, "opt": 2}  # arch -> rounds per clock

    def __init__(self, arch="opt", slots=1, stages=1):
        super().__init__(arch, slots, stages)

    OPT_PRE = 6  # pre-computed registers: H, X, P4, P4c, (W+K)[2j+2], (W+K)[2j+3]

    def _opt_init(self, st, data_w, area=False):
        """The initialization unit (Michail et al. 2012, eqs. 12-17, fig. 13): the pre-computed
        values of the first mega-round from the starting chaining value and the block's first
        words. `area`: two-operand adders (add_tree) instead of carry-save trees."""
        a, b, c, d, e, f, g, h = st
        if area:  # the block's words first: they are registers, the state words come later
            return [
                add_tree(data_w[0], h, K256[0]),
                add_tree(data_w[0], h, d, K256[0]),
                add_tree(data_w[1], g, K256[1]),
                add_tree(data_w[1], g, c, K256[1]),
                add_tree(data_w[2], K256[2]),
                add_tree(data_w[3], K256[3]),
            ]
        return [
            add_mod(h, data_w[0], K256[0]),
            add_mod(h, d, data_w[0], K256[0]),
            add_mod(g, data_w[1], K256[1]),
            add_mod(g, c, data_w[1], K256[1]),
            add_mod(data_w[2], K256[2]),
            add_mod(data_w[3], K256[3]),
        ]

    def _opt_step(self, st, w, pre, group, cv_words, a_carry_save=False):
        """One mega-round (two rounds) on pre-computed sums, the temporal pre-computation of
        the next one's (X*, H*, P4*), the W+K prefetch and the two-word schedule step. In the
        group before the last, the chaining value's a/e words are folded into P4/P4c (so the
        last mega-round's a2/e2 are final without an extra adder); the final state adds the
        other words through adders fed by registers or by the first round's outputs.

        `a_carry_save` (the 1-stage engine): each round's T1 is a word of its own (an adder
        beside the new e's, both on the e chain), so a new a is T1 + Sigma0 + Maj, one
        carry-save level behind Sigma0 of the a before, instead of a five-operand tree whose
        last two levels follow it; the second new a leaves the clock as its three operands
        (T1 from the e chain's last adder, Sigma0 and Maj of the first new a, which arrive no
        later): their carry-save level and adder run at the start of the next clock, beside
        the first round's T1, which the first new a waits for anyway, and the extra words'
        registers are cleared at the accept (a synchronous reset, no multiplexer). The two
        rounds' a chain is then no longer than their e chain, where a (sum, carry) pair made it
        one carry-save level longer and the trees three. No final state (None): the sequencer
        adds the chaining value on the output side."""
        a, b, c, d, e, f, g, h = st
        pre_h, pre_x, pre_p4, pre_p4c, wk2, wk3 = pre
        s1e, che = Signal(32), Signal(32)
        e1 = Signal(32)
        a1 = Signal(32)
        e2 = Signal(32)
        a2 = Signal(32)
        s1e1, ch1 = Signal(32), Signal(32)
        if a_carry_save:
            t1_0, t1_1 = Signal(32), Signal(32)
            a2_s0, a2_maj = Signal(32, name="a2_s0"), Signal(32, name="a2_maj")
            self.comb += [
                s1e.eq(big_sigma1(e)),
                che.eq(ch(e, f, g)),
                e1.eq(add_mod(pre_x, s1e, che)),
                t1_0.eq(add_mod(pre_h, s1e, che)),
                a1.eq(add_mod(t1_0, big_sigma0(a), maj(a, b, c))),
                s1e1.eq(big_sigma1(e1)),
                ch1.eq(ch(e1, e, f)),
                e2.eq(add_mod(pre_p4c, s1e1, ch1)),
                t1_1.eq(add_mod(pre_p4, s1e1, ch1)),
                a2.eq(t1_1),
                a2_s0.eq(big_sigma0(a1)),
                a2_maj.eq(maj(a1, a, b)),
            ]
            new_a = (a2, a2_s0, a2_maj)
        else:
            self.comb += [
                s1e.eq(big_sigma1(e)),
                che.eq(ch(e, f, g)),
                e1.eq(add_mod(pre_x, s1e, che)),
                a1.eq(add_mod(pre_h, s1e, che, big_sigma0(a), maj(a, b, c))),
                s1e1.eq(big_sigma1(e1)),
                ch1.eq(ch(e1, e, f)),
                e2.eq(add_mod(pre_p4c, s1e1, ch1)),
                a2.eq(add_mod(pre_p4, s1e1, ch1, big_sigma0(a1), maj(a1, a, b))),
            ]
            new_a = a2
        # K for the (W+K) pair prefetched during mega-round j: K[2j+4], K[2j+5] (0 past the end)
        k_even = group.select([K256[2 * j + 4] if 2 * j + 4 < 64 else 0 for j in range(32)], 32)
        k_odd = group.select([K256[2 * j + 5] if 2 * j + 5 < 64 else 0 for j in range(32)], 32)
        next_last = group.at(self.round_cycles - 2)
        cv_a = Mux(next_last, cv_words[0], 0)
        cv_e = Mux(next_last, cv_words[4], 0)
        st_next = [new_a, a1, a, b, e2, e1, e, f]
        pre_next = [
            add_mod(f, wk2),
            add_mod(f, b, wk2),  # H*, X*
            add_mod(e, wk3, cv_a),
            add_mod(e, a, wk3, cv_e),  # P4*, P4c*
            add_mod(w[4], k_even),
            add_mod(w[5], k_odd),  # W+K prefetch
        ]
        if a_carry_save:
            # the sums of the next mega-round and the schedule are off the round's path: adders
            # instead of carry-save trees (less area, see add_tree). The final state is the
            # round's, the sequencer adds the chaining value on the output side (an adder
            # behind a1's in the last group was this engine's path; folding a's and e's into
            # P4/P4c took two adders and their gating more than adding them there)
            pre_next = [
                add_tree(f, wk2, width=32),
                add_tree(f, b, wk2, width=32),
                add_tree(e, wk3, width=32),
                add_tree(e, a, wk3, width=32),
                pre_next[4],
                pre_next[5],
            ]
            return st_next, self.schedule(w, 2, add=add_tree), pre_next, None
        st_final = [
            new_a,
            add_mod(a1, cv_words[1]),
            add_mod(a, cv_words[2]),
            add_mod(b, cv_words[3]),
            e2,
            add_mod(e1, cv_words[5]),
            add_mod(e, cv_words[6]),
            add_mod(f, cv_words[7]),
        ]
        return st_next, self.schedule(w, 2), pre_next, st_final
