# SPDX-License-Identifier: BSD-2-Clause
"""SHA-1 engines (FIPS 180-4) in the three round architectures of the papers
(Michail et al. 2016; Lien, Grembowski and Gaj 2004; references in docs/ARCHITECTURE.md).

- ``base``: one step per clock, the conventional adder chain (Michail et al. 2016, fig.
  2); the accept cycle loads the block, 80 steps follow, the chaining value is added as
  the result leaves: latency 81 (engine_base.HashEngine.iterate).
- ``k5``: five steps per clock, the partially unrolled message digest of Lien, Grembowski
  and Gaj 2004, sec. 4.3. The "E" operand of each of the five steps is already known when
  the cycle starts (e, d, c, b<<<30, a<<<30), so its sum with K+W is pre-calculated (S_i);
  each step then only adds a<<<5 to [f + S_i], where f of step i+1 depends on earlier steps'
  outputs and is computed in parallel with step i. 16 cycles + the accept cycle: latency 17.
- ``opt``: two steps per clock with pre-computation (Michail et al. 2016, sec. 4.2): the e+(W+K) and
  d+(W+K) sums of the next mega-step are registered one cycle ahead from the current registers
  (temporal pre-computation), the (W+K) pair is prefetched, and the step-2 term
  f(a, b<<<30, c) + P1 is formed from registers in parallel with step 1. Step 1's f(b, c, d) is
  registered a cycle ahead too (from the previous mega-step's first result), so the mega-step's
  path starts at an adder. The accept cycle runs
  the initialization unit, then 40 mega-steps; the last one also adds the chaining value (its
  A word through the pre-computed P1): latency 41.
"""

from migen import Mux, Signal

from .common import add_mod, rotr
from .engine_base import HashEngine, rom

K1 = [0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6]
IV1 = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]


def rotl(x, n):
    return rotr(x, 32 - n)


def ch(b, c, d):
    return (b & c) | (~b & d)


def f_t(region, b, c, d):
    """The step function of steps 20*region .. 20*region+19: Ch, Parity, Maj, Parity."""
    parity = b ^ c ^ d
    maj = (b & c) | (b & d) | (c & d)
    return Mux(region == 0, ch(b, c, d), Mux(region == 2, maj, parity))


def schedule(win, n):
    """Shift the 16-word window by n, appending W[t+16..t+15+n] (words may depend on new ones)."""
    ext = list(win)
    for i in range(n):
        ext.append(rotl(ext[i + 13] ^ ext[i + 8] ^ ext[i + 2] ^ ext[i], 1))
    return ext[n : n + 16]


class SHA1Engine(HashEngine):
    family = "sha1"
    IVS = {"sha1": IV1}
    ARCHITECTURES = {"base": 1, "k5": 5, "opt": 2}  # arch -> steps per clock

    PIPELINED = ("base", "opt")  # architectures with p-stage versions so far

    def __init__(self, arch="opt", slots=1, stages=1):
        if stages > 1 and arch not in self.PIPELINED:
            raise ValueError(f"sha1:{arch} has no pipelined version yet (p{stages})")
        self.setup(arch, slots, round_cycles=80 // self.ARCHITECTURES.get(arch, 1), stages=stages)
        if arch == "opt":
            if stages == 1:
                self.iterate_precomputed(self._opt_step, self._opt_init, self.OPT_PRE)
            else:
                self.iterate_pipelined(self._opt_step, self._opt_init, self.OPT_PRE)
        elif stages == 1:
            self.iterate(self._steps)
        else:
            self.iterate_pipelined(self._steps)

    def _quarters(self, ahead=0):
        """Per round group: the 20-step quarter of the group `ahead` groups on (k divides 20,
        so one per group; past the last step, the last quarter)."""
        k = self.steps_per_cycle
        return [min(k * (j + ahead), 79) // 20 for j in range(self.round_cycles)]

    def _region(self, group):
        """Which 20-step quarter a round group is in."""
        region = Signal(2)
        self.comb += region.eq(group.select(self._quarters(), 2))
        return region

    def _steps(self, rin, win, idx, fold=None):
        """`fold` (a pipeline's last stage, k = 1): words added to the new state, the chaining
        value in the last group; the new a takes its word through e + cv_a, formed from
        registers beside the round, so the final addition adds no adder after the round's."""
        k = self.steps_per_cycle
        region = self._region(idx)
        kt = Signal(32)
        self.comb += kt.eq(rom(K1)[region])
        a, b, c, d, e = rin
        if k == 1:
            t = Signal(32)
            if fold is None:
                self.comb += t.eq(rotl(a, 5) + f_t(region, b, c, d) + e + kt + win[0])
                return [t, a, rotl(b, 30), c, d], schedule(win, 1)
            ef = Signal(32, name="e_fold")
            self.comb += [
                ef.eq(add_mod(e, fold[0])),
                t.eq(rotl(a, 5) + f_t(region, b, c, d) + ef + kt + win[0]),
            ]
            return (
                [
                    t,
                    add_mod(a, fold[1]),
                    add_mod(rotl(b, 30), fold[2]),
                    add_mod(c, fold[3]),
                    add_mod(d, fold[4]),
                ],
                schedule(win, 1),
            )
        # k5: pre-calculated sums of each step's E operand
        # with K + W (Lien, Grembowski and Gaj 2004, fig. 7)
        e_terms = [e, d, c, rotl(b, 30), rotl(a, 30)]
        sums = []
        for i, et in enumerate(e_terms):
            s = Signal(32, name=f"s{i}")
            self.comb += s.eq(add_mod(et, kt, win[i]))
            sums.append(s)
        A, B, C, D, E = a, b, c, d, e
        for i in range(k):
            p = Signal(32, name=f"p{i}")  # [f + S_i], formed while the previous step adds
            a_new = Signal(32, name=f"a{i + 1}")
            self.comb += [
                p.eq(add_mod(f_t(region, B, C, D), sums[i])),
                a_new.eq(add_mod(rotl(A, 5), p)),
            ]
            A, B, C, D, E = a_new, A, rotl(B, 30), C, D
        return [A, B, C, D, E], schedule(win, k)

    OPT_PRE = 5  # pre-computed registers: P0, P1, (W+K)[2j+2], (W+K)[2j+3], F = f(b, c, d)

    def _opt_init(self, st, data_w):
        """The initialization unit: e + (W+K)[0], d + (W+K)[1], the (W+K) pair of the second
        mega-step and step 0's f(b, c, d) (Ch), from the starting chaining value and the
        block's first words."""
        a, b, c, d, e = st
        return [
            add_mod(e, data_w[0], K1[0]),
            add_mod(d, data_w[1], K1[0]),
            add_mod(data_w[2], K1[0]),
            add_mod(data_w[3], K1[0]),
            ch(b, c, d),
        ]

    def _opt_step(self, st, w, pre, group, cv_words):
        """One mega-step (two steps). P0 = e + (W+K)[2j] and P1 = d + (W+K)[2j+1] were
        registered a cycle ahead (temporal pre-computation: next e = c, next d = b<<<30); step 2's
        operand f(a, b<<<30, c) + P1 is formed from registers in parallel with step 1. In the
        group before the last, the chaining value's A word is folded into P1."""
        a, b, c, d, e = st
        p0, p1, wk2, wk3, f_bcd = pre
        region = self._region(group)
        # the next mega-step's quarter (its f of step 1 is formed here, from a1)
        region_next = group.select(self._quarters(ahead=1), 2)
        a1 = Signal(32)
        a2 = Signal(32)
        q1 = Signal(32)
        self.comb += [
            a1.eq(add_mod(rotl(a, 5), f_bcd, p0)),
            q1.eq(add_mod(f_t(region, a, rotl(b, 30), c), p1)),
            a2.eq(add_mod(rotl(a1, 5), q1)),
        ]
        # K of the (W+K) pair prefetched in mega-step j: steps 2j+4, 2j+5 (0 past the end)
        k_pre = group.select(
            [K1[(2 * j + 4) // 20] if 2 * j + 4 < 80 else 0 for j in range(40)], 32
        )
        cv_a = Mux(group.at(self.round_cycles - 2), cv_words[0], 0)
        st_next = [a2, a1, rotl(a, 30), rotl(b, 30), c]
        pre_next = [
            add_mod(c, wk2),
            add_mod(rotl(b, 30), wk3, cv_a),
            add_mod(w[4], k_pre),
            add_mod(w[5], k_pre),
            f_t(region_next, a1, rotl(a, 30), rotl(b, 30)),
        ]
        st_final = [
            a2,
            add_mod(a1, cv_words[1]),
            add_mod(rotl(a, 30), cv_words[2]),
            add_mod(rotl(b, 30), cv_words[3]),
            add_mod(c, cv_words[4]),
        ]
        return st_next, schedule(w, 2), pre_next, st_final
