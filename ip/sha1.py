"""SHA-1 engines (FIPS 180-4) in the three round architectures the seeds study.

- ``base``: one step per clock, the conventional adder chain (seed 000 fig. 2); step 0 runs in
  the accept cycle, then 79 steps and one final-addition cycle: latency 81.
- ``k5``: five steps per clock, the partially unrolled message digest of seed 002 section 4.3.
  The "E" operand of each of the five steps is already known when the cycle starts (e, d, c,
  b<<<30, a<<<30), so its sum with K+W is pre-calculated (S_i); each step then only adds
  a<<<5 to [f + S_i], where f of step i+1 depends on earlier steps' outputs and is computed
  in parallel with step i. 16 cycles + the final addition: latency 17.
- ``opt``: two steps per clock with pre-computation (seed 000 section 4.2): the e+(W+K) and
  d+(W+K) sums of the next mega-step are registered one cycle ahead from the current registers
  (temporal pre-computation), the (W+K) pair is prefetched, and the step-2 term
  f(a, b<<<30, c) + P1 is formed from registers in parallel with step 1. The accept cycle runs
  the initialization unit, then 40 mega-steps; the last one also adds the chaining value (its
  A word through the pre-computed P1): latency 41.
"""
from migen import Signal, Cat, If, Mux

from .common import rotr, add_mod
from .engine_base import HashEngine, RoundGroup, rom

K1 = [0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6]
IV1 = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]


def rotl(x, n):
    return rotr(x, 32 - n)


def f_t(region, b, c, d):
    """The step function of steps 20*region .. 20*region+19: Ch, Parity, Maj, Parity."""
    ch = (b & c) | (~b & d)
    parity = b ^ c ^ d
    maj = (b & c) | (b & d) | (c & d)
    return Mux(region == 0, ch, Mux(region == 2, maj, parity))


def schedule(win, n):
    """Shift the 16-word window by n, appending W[t+16..t+15+n] (words may depend on new ones)."""
    ext = list(win)
    for i in range(n):
        ext.append(rotl(ext[i + 13] ^ ext[i + 8] ^ ext[i + 2] ^ ext[i], 1))
    return ext[n:n + 16]


class SHA1Engine(HashEngine):
    family = "sha1"
    IVS = {"sha1": IV1}
    ARCHITECTURES = {"base": 1, "k5": 5, "opt": 2}  # arch -> steps per clock

    PIPELINED = ("base",)  # architectures with p-stage versions so far

    def __init__(self, arch="opt", slots=1, stages=1):
        if stages > 1 and arch not in self.PIPELINED:
            raise ValueError(f"sha1:{arch} has no pipelined version yet (p{stages})")
        self.setup(arch, slots, round_cycles=80 // self.ARCHITECTURES.get(arch, 1), stages=stages)
        if arch == "opt":
            self._opt_datapath()
        elif stages == 1:
            self.iterate(self._steps)
        else:
            self.iterate_pipelined(self._steps)

    def _region(self, group):
        """Which 20-step quarter a round group is in (k divides 20, so one per cycle)."""
        k = self.steps_per_cycle
        region = Signal(2)
        self.comb += region.eq(group.select([(k * j) // 20 for j in range(self.round_cycles)], 2))
        return region

    def _steps(self, rin, win, idx):
        k = self.steps_per_cycle
        region = self._region(idx)
        kt = Signal(32)
        self.comb += kt.eq(rom(K1)[region])
        a, b, c, d, e = rin
        if k == 1:
            t = Signal(32)
            self.comb += t.eq(rotl(a, 5) + f_t(region, b, c, d) + e + kt + win[0])
            return [t, a, rotl(b, 30), c, d], schedule(win, 1)
        # k5: pre-calculated sums of each step's E operand with K + W (seed 002 fig. 7)
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

    def _opt_datapath(self):
        st, w, count, busy, accept = self.st, self.w, self.count, self.busy, self.accept
        init_st, data_w, cv_words = self.init_st, self.data_w, self.cv_words
        a, b, c, d, e = st
        p0 = Signal(32)       # e + (W+K)[2j]
        p1 = Signal(32)       # d + (W+K)[2j+1] (+ the chaining value's A in the last mega-step)
        wk2 = Signal(32)      # (W+K)[2j+2]
        wk3 = Signal(32)      # (W+K)[2j+3]
        region = self._region(RoundGroup(count, 0, self.round_cycles))
        a1 = Signal(32)
        a2 = Signal(32)
        q1 = Signal(32)       # f(a, b<<<30, c) + p1: step 2's operand, from registers only
        self.comb += [
            a1.eq(add_mod(rotl(a, 5), f_t(region, b, c, d), p0)),
            q1.eq(add_mod(f_t(region, a, rotl(b, 30), c), p1)),
            a2.eq(add_mod(rotl(a1, 5), q1)),
        ]
        last = count == self.round_cycles - 1
        next_last = count == self.round_cycles - 2
        # K of the (W+K) pair prefetched in mega-step j: steps 2j+4, 2j+5 (0 past the end)
        k_pre = rom([K1[(2 * j + 4) // 20] if 2 * j + 4 < 80 else 0 for j in range(40)])[count]
        cv_final = Cat(a2, add_mod(a1, cv_words[1]), add_mod(rotl(a, 30), cv_words[2]),
                       add_mod(rotl(b, 30), cv_words[3]), add_mod(c, cv_words[4]))
        ia, ib, ic, id_, ie = init_st
        self.sync += [
            If(accept,
                [s.eq(v) for s, v in zip(st, init_st)],
                [wi.eq(dw) for wi, dw in zip(w, data_w)],
                count.eq(0),
                # initialization unit
                p0.eq(add_mod(ie, data_w[0], K1[0])),
                p1.eq(add_mod(id_, data_w[1], K1[0])),
                wk2.eq(add_mod(data_w[2], K1[0])),
                wk3.eq(add_mod(data_w[3], K1[0])),
            ).Elif(busy & ~last,
                count.eq(count + 1),
                [dst.eq(src) for dst, src in zip(st, [a2, a1, rotl(a, 30), rotl(b, 30), c])],
                # temporal pre-computation: next e = c, next d = b<<<30
                p0.eq(add_mod(c, wk2)),
                p1.eq(add_mod(rotl(b, 30), wk3, Mux(next_last, cv_words[0], 0))),
                wk2.eq(add_mod(w[4], k_pre)),
                wk3.eq(add_mod(w[5], k_pre)),
                [dst.eq(src) for dst, src in zip(w, schedule(w, 2))],
            ).Elif(busy & last & self.out_free,
                self.finish(cv_final),
            ),
        ]
