# SPDX-License-Identifier: BSD-2-Clause
"""Skein-512 engines (Athanasiou et al. 2013; Skein 1.3, Ferguson et al. 2010):
Threefish-512 in Matyas-Meyer-Oseas mode, one UBI block per accepted block: chaining value
out = Threefish(key = chaining value in, tweak, block) XOR block.

What the engine does and what it leaves to the peripheral and the C library:
- the engine computes one UBI block: it takes the 512-bit block, the block's 128-bit tweak
  (`sink.tweak`: T0 = position in bits 63:0, T1 in bits 127:64 with first/final/type/bitpad,
  exactly as Skein 1.3 defines them) and a key that is the IV of `variant` (`first`), the
  loaded `cv` (`load_cv`) or the slot's chaining value; it extends the key schedule (k8, t2),
  runs the 72 rounds with the 19 subkeys and adds the feed-forward;
- the peripheral (soc/peripheral/skein_tweak.py) generates the tweak of every block of a
  job (position, first, final, bitpad) from a per-job start tweak, because DMA blocks
  never pass the CPU;
- the C library (ld_skein.h) does the rest: bit padding of the final block, the order of the
  UBIs (key, configuration, message, output), the configuration and output-counter blocks.

Byte order: like the SHA engines, blocks and chaining values cross the engine boundary as
big-endian 64-bit words of the byte stream (word i = bytes 8i..8i+7, byte 8i most
significant), so the peripheral, the digest registers and the drivers are the same for every
family; Skein's words are little-endian, so the engine byte-swaps them inside (wiring only).

Architectures (Athanasiou et al. 2013, sec. 3; latency = cycles from accept to result):
- ``r1``, ``r4``, ``r8``: 1, 4 or 8 rounds per clock. The accept cycle extends the key
  schedule and adds subkey 0 ("one more cycle for the first sub-key"), then 72/U cycles of U
  rounds each add the subkeys at the end of every 4 rounds, the last one also the
  feed-forward: latency 73, 19 and 10, one block at a time.
- ``:fpP`` (P = 2, 4, 8) on the 8-round datapath: the 8 rounds are cut into P register
  stages that form a ring; a block passes the ring 9 times while up to P blocks (of P
  messages) occupy its stages. The subkey adders sit at the start of each 4-round half (in the
  middle of the 8 rounds, as the paper places them), so the 9th pass ends without subkey 18:
  one output cycle adds it and the feed-forward. Latency (9 x P) + 2, P blocks in flight,
  so P blocks per (9 x P) + 2 cycles.
- ``:sp3``: three 8-round Threefish modules in a row, each running 3 of the 9 iterations of a
  block before handing it to the next (the key schedule travels with it, the paper's parallel
  load of Key Generator 2/3); up to 3 blocks in flight, latency 10.
- ``:fpP:sp3``: the three modules of ``sp3`` are each a P-stage ring: 3P blocks in flight,
  latency (9 x P) + 2.
A block enters when the first module's first stage is free in that cycle (the block looping
in it has finished its iterations there) and its slot has no block in flight.
"""

from fractions import Fraction

from migen import Array, Cat, Constant, If, Mux, Replicate, Signal

from .common import add_mod, words
from .engine_base import HashEngine

MASK64 = (1 << 64) - 1
C240 = 0x1BD11BDAA9FC1A22
# Threefish-512 rotation constants R[d mod 8][j] and word permutation (Skein 1.3, tables 4, 3)
ROT = (
    (46, 36, 19, 37),
    (33, 27, 14, 42),
    (17, 49, 36, 39),
    (44, 9, 54, 56),
    (39, 30, 34, 24),
    (13, 50, 10, 17),
    (25, 29, 39, 43),
    (8, 35, 56, 22),
)
PERM = (2, 1, 4, 7, 6, 5, 0, 3)
ROUNDS = 72
# UBI types (tweak T1 bits 61:56) and flags
T_KEY, T_CFG, T_PRS, T_PK, T_KDF, T_NON, T_MSG, T_OUT = 0, 4, 8, 12, 16, 20, 48, 63
FLAG_FIRST, FLAG_FINAL, FLAG_BITPAD = 1 << 62, 1 << 63, 1 << 55


# --- a small Python model: the engines' IVs (the configuration UBI of standard output sizes) -
def _rotl64(x, n):
    return ((x << n) | (x >> (64 - n))) & MASK64


def threefish512(key, tweak, block):
    """Threefish-512 encryption, words as ints (key 8, tweak 2, block 8)."""
    k = list(key) + [C240]
    for w in key:
        k[8] ^= w
    t = [tweak[0], tweak[1], tweak[0] ^ tweak[1]]

    def subkey(s):
        sk = [k[(s + i) % 9] for i in range(8)]
        sk[5] = (sk[5] + t[s % 3]) & MASK64
        sk[6] = (sk[6] + t[(s + 1) % 3]) & MASK64
        sk[7] = (sk[7] + s) & MASK64
        return sk

    v = list(block)
    for d in range(ROUNDS):
        if d % 4 == 0:
            v = [(a + b) & MASK64 for a, b in zip(v, subkey(d // 4))]
        f = []
        for j in range(4):
            y0 = (v[2 * j] + v[2 * j + 1]) & MASK64
            f += [y0, _rotl64(v[2 * j + 1], ROT[d % 8][j]) ^ y0]
        v = [f[PERM[i]] for i in range(8)]
    return [(a + b) & MASK64 for a, b in zip(v, subkey(ROUNDS // 4))]


def config_cv(out_bits, key_cv=None):
    """Chaining value after the configuration UBI of a sequential Skein-512 with `out_bits`
    output bits (from key_cv, or zero: no key)."""
    cfg = [0x133414853, out_bits] + [0] * 6  # schema "SHA3", version 1, output length, no tree
    tweak = [32, (T_CFG << 56) | FLAG_FIRST | FLAG_FINAL]
    e = threefish512(key_cv or [0] * 8, tweak, cfg)
    return [a ^ b for a, b in zip(e, cfg)]


def _bswap64(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


# the engine's variants (ctrl.variant): zero (a key or configuration UBI starts from it) and
# the configured chaining values of the standard output sizes (no configuration block needed)
OUTPUT_IVS = (512, 384, 256, 224, 160, 128)
IVS = {"zero": [0] * 8}
IVS.update({f"skein512-{n}": [_bswap64(w) for w in config_cv(n)] for n in OUTPUT_IVS})


def _bswap64_sig(x):
    return Cat(*[x[8 * (7 - i) : 8 * (8 - i)] for i in range(8)])


def _rotl(x, n):
    n %= 64
    return Cat(x[64 - n :], x[: 64 - n]) if n else x


class _Block:
    """The registers (or next values) of one block in flight: Threefish state `v`, key words
    `k` (rotated so k[i] is key word (s + i) mod 9), tweak words `t` (t[i] = T[(s + i) mod 3]),
    the next subkey's index `s`, the plaintext `m` for the feed-forward, rounds done `rnd`,
    and the slot/last tags."""

    FIELDS = (("v", 8, 64), ("k", 9, 64), ("t", 3, 64), ("m", 8, 64))

    def __init__(self, prefix, slot_bits):
        self.prefix = prefix
        for name, n, w in self.FIELDS:
            # data: reset_less (the valid bit says when they hold a block; see engine_base)
            setattr(
                self,
                name,
                [Signal(w, name=f"{prefix}_{name}{i}", reset_less=True) for i in range(n)],
            )
        self.valid = Signal(name=f"{prefix}_valid")
        self.s = Signal(5, name=f"{prefix}_s")
        self.rnd = Signal(7, name=f"{prefix}_rnd")
        self.slot = Signal(slot_bits, name=f"{prefix}_slot")
        self.last = Signal(name=f"{prefix}_last")

    def signals(self):
        out = [self.valid, self.s, self.rnd, self.slot, self.last]
        for name, _, _ in self.FIELDS:
            out += getattr(self, name)
        return out

    def eq(self, other, valid=None):
        """Statements copying `other` (a _Block) into this one (valid overridable)."""
        stmts = [d.eq(s) for d, s in zip(self.signals()[1:], other.signals()[1:])]
        stmts.append(self.valid.eq(other.valid if valid is None else valid))
        return stmts


class Skein512Engine(HashEngine):
    family = "skein512"
    WORD = 64
    BLOCK_WORDS = 8
    IVS = IVS
    ARCHITECTURES = {"r1": 1, "r4": 4, "r8": 8}  # arch -> rounds per clock
    SINK_EXTRA = [("tweak", 128)]

    def __init__(self, arch="r8", slots=None, stages=1, modules=1):
        if arch not in self.ARCHITECTURES:
            raise ValueError(f"unknown skein512 architecture {arch!r} (known: r1, r4, r8)")
        u = self.ARCHITECTURES[arch]
        if (stages > 1 or modules > 1) and u != 8:
            raise ValueError(
                "the functional/structural pipelines are built on the 8-round datapath (r8)"
            )
        if stages not in (1, 2, 4, 8):
            raise ValueError(f"functional pipeline stages must be 1, 2, 4 or 8, not {stages}")
        if modules not in (1, 3):
            raise ValueError(f"structural pipeline modules must be 1 or 3, not {modules}")
        in_flight = stages * modules
        slots = slots or in_flight
        latency = 1 + (ROUNDS // u) * stages + (1 if stages > 1 else 0)
        self.setup(
            arch,
            slots,
            round_cycles=ROUNDS // u,
            custom_timing=dict(
                latency=latency,
                interval=Fraction(latency, in_flight),
                in_flight=in_flight,
                stages=stages,
            ),
        )
        self.modules = modules
        self.rounds_per_cycle = u
        self._datapath(u, stages, modules)

    # --- datapath pieces ----------------------------------------------------------------------
    def _comb_block(self, prefix):
        return _Block(prefix, len(self.sink.slot))

    @staticmethod
    def _subkey(k, t, s):
        """Subkey s from the rotated key words k (k[i] = key word (s + i) mod 9) and tweak
        words t (t[i] = T[(s + i) mod 3])."""
        return [
            k[0],
            k[1],
            k[2],
            k[3],
            k[4],
            add_mod(k[5], t[0], width=64),
            add_mod(k[6], t[1], width=64),
            add_mod(k[7], Cat(s, Replicate(0, 59)), width=64),
        ]

    def _round(self, prefix, v, rot_sel, rots):
        """One Threefish round (4 MIX + permute) on words v; the rotation constants are
        `rots` (one 4-tuple: static) or selected from ROT by `rot_sel`."""
        out = [Signal(64, name=f"{prefix}_v{i}") for i in range(8)]
        f = []
        for j in range(4):
            x0, x1 = v[2 * j], v[2 * j + 1]
            y0 = Signal(64, name=f"{prefix}_y{j}")
            self.comb += y0.eq(add_mod(x0, x1, width=64))
            if rots is not None:
                r = _rotl(x1, rots[j])
            else:
                opts = Array(_rotl(x1, ROT[d][j]) for d in rot_sel[1])
                r = Signal(64, name=f"{prefix}_r{j}")
                self.comb += r.eq(opts[rot_sel[0]])
            f += [y0, r ^ y0]
        self.comb += [out[i].eq(f[PERM[i]]) for i in range(8)]
        return out

    def _stage(self, prefix, b, j, p, u, key_at_start):
        """Stage j of p of a U-round-per-cycle datapath applied to block b: returns a new comb
        _Block (valid, tags and m copied) after its rounds and subkey additions."""
        per = u // p
        out = self._comb_block(prefix)
        v, k, t, s = list(b.v), list(b.k), list(b.t), b.s
        for r in range(per):
            pos = j * per + r  # round index inside the cycle's U rounds
            if key_at_start and pos % 4 == 0:
                sk = self._subkey(k, t, s)
                nv = [Signal(64, name=f"{prefix}_a{r}_{i}") for i in range(8)]
                self.comb += [x.eq(add_mod(a, c, width=64)) for x, a, c in zip(nv, v, sk)]
                v, k, t, s = nv, k[1:] + k[:1], t[1:] + t[:1], s + 1
            if u == 8:
                v = self._round(f"{prefix}_d{r}", v, None, ROT[pos])
            elif u == 4:  # rounds 0-3 or 4-7 of the rotation table
                v = self._round(f"{prefix}_d{r}", v, (b.rnd[2], [pos, pos + 4]), None)
            else:  # u == 1: any of the 8
                v = self._round(f"{prefix}_d{r}", v, (b.rnd[:3], list(range(8))), None)
            if not key_at_start:
                if u == 1:  # a subkey after every 4th round only
                    add = b.rnd[:2] == 3
                    sk = self._subkey(k, t, s)
                    nv = [Signal(64, name=f"{prefix}_a{r}_{i}") for i in range(8)]
                    self.comb += [
                        x.eq(add_mod(a, Mux(add, c, 0), width=64)) for x, a, c in zip(nv, v, sk)
                    ]
                    nk = [Signal(64, name=f"{prefix}_k{i}") for i in range(9)]
                    nt = [Signal(64, name=f"{prefix}_t{i}") for i in range(3)]
                    self.comb += [x.eq(Mux(add, a, c)) for x, a, c in zip(nk, k[1:] + k[:1], k)]
                    self.comb += [x.eq(Mux(add, a, c)) for x, a, c in zip(nt, t[1:] + t[:1], t)]
                    ns = Signal(5, name=f"{prefix}_sn")
                    self.comb += ns.eq(s + add)
                    v, k, t, s = nv, nk, nt, ns
                elif (pos + 1) % 4 == 0:
                    sk = self._subkey(k, t, s)
                    nv = [Signal(64, name=f"{prefix}_a{r}_{i}") for i in range(8)]
                    self.comb += [x.eq(add_mod(a, c, width=64)) for x, a, c in zip(nv, v, sk)]
                    v, k, t, s = nv, k[1:] + k[:1], t[1:] + t[:1], s + 1
        self.comb += [
            [d.eq(x) for d, x in zip(out.v, v)],
            [d.eq(x) for d, x in zip(out.k, k)],
            [d.eq(x) for d, x in zip(out.t, t)],
            [d.eq(x) for d, x in zip(out.m, b.m)],
            out.s.eq(s),
            out.rnd.eq(b.rnd + per),
            out.valid.eq(b.valid),
            out.slot.eq(b.slot),
            out.last.eq(b.last),
        ]
        return out

    def _datapath(self, u, p, m):
        sink = self.sink
        key_at_start = p > 1
        nsl = self.slots

        # --- initialization unit (the accept cycle): key schedule extension, subkey 0 ------
        init = self._comb_block("init")
        key = [_bswap64_sig(w) for w in words(self.init_cv, 8, 64)]
        msg = [_bswap64_sig(w) for w in self.data_w]
        k8 = Constant(C240, 64)
        for w in key:
            k8 = k8 ^ w
        t0, t1 = sink.tweak[:64], sink.tweak[64:]
        kk, tt = key + [k8], [t0, t1, t0 ^ t1]
        if key_at_start:
            v0, s0 = msg, 0
        else:  # add subkey 0 now; the rounds then add 1..18 at the end of every 4 rounds
            v0 = [
                add_mod(a, c, width=64) for a, c in zip(msg, self._subkey(kk, tt, Constant(0, 5)))
            ]
            kk, tt, s0 = kk[1:] + kk[:1], tt[1:] + tt[:1], 1
        self.comb += [
            [d.eq(x) for d, x in zip(init.v, v0)],
            [d.eq(x) for d, x in zip(init.k, kk)],
            [d.eq(x) for d, x in zip(init.t, tt)],
            [d.eq(x) for d, x in zip(init.m, msg)],
            init.s.eq(s0),
            init.rnd.eq(0),
            init.valid.eq(self.accept),
            init.slot.eq(sink.slot),
            init.last.eq(sink.last),
        ]

        # --- m modules of p ring stages --------------------------------------------------------
        regs = [[_Block(f"m{i}s{j}", len(sink.slot)) for j in range(p)] for i in range(m)]
        outs = [
            [self._stage(f"m{i}f{j}", regs[i][j], j, p, u, key_at_start) for j in range(p)]
            for i in range(m)
        ]
        per_module = ROUNDS // m
        loop = [Signal(name=f"m{i}_loop") for i in range(m)]
        leave = [Signal(name=f"m{i}_leave") for i in range(m)]
        for i in range(m):
            o = outs[i][p - 1]
            self.comb += [
                loop[i].eq(o.valid & (o.rnd != per_module * (i + 1))),
                leave[i].eq(o.valid & (o.rnd == per_module * (i + 1))),
            ]

        # --- completion: directly (p = 1) or through the output cycle (subkey 18 + feed-forward)
        if key_at_start:
            ob = _Block("out", len(sink.slot))
            fin_v = [add_mod(a, c, width=64) for a, c in zip(ob.v, self._subkey(ob.k, ob.t, ob.s))]
            fin = ob
        else:
            fin = outs[m - 1][p - 1]
            fin_v = fin.v
        completing = Signal()
        self.comb += completing.eq(fin.valid if key_at_start else leave[m - 1])
        result = Signal(self.digest_bits)
        self.comb += result.eq(Cat(*[_bswap64_sig(a ^ b) for a, b in zip(fin_v, fin.m)]))
        advance = Signal()
        self.comb += advance.eq(~completing | self.out_free)

        slot_busy = Signal(nsl)
        one = lambda slot: Constant(1, nsl) << slot
        self.comb += sink.ready.eq(advance & ~loop[0] & ~(slot_busy >> sink.slot)[0])
        done = Signal()
        self.comb += done.eq(advance & completing)

        for i in range(m):
            for j in range(1, p):
                self.sync += If(advance, regs[i][j].eq(outs[i][j - 1]))
            src_loop = outs[i][p - 1]
            if i == 0:
                self.sync += If(
                    advance, If(loop[0], regs[0][0].eq(src_loop)).Else(regs[0][0].eq(init))
                )
            else:
                prev = outs[i - 1][p - 1]
                self.sync += If(
                    advance,
                    If(loop[i], regs[i][0].eq(src_loop)).Else(
                        regs[i][0].eq(prev, valid=leave[i - 1])
                    ),
                )
        if key_at_start:
            self.sync += If(advance, ob.eq(outs[m - 1][p - 1], valid=leave[m - 1]))
        self.sync += [
            If(done, self.complete(result, fin.slot, fin.last)),
            slot_busy.eq(
                (slot_busy & ~Mux(done, one(fin.slot), 0)) | Mux(self.accept, one(sink.slot), 0)
            ),
        ]
