# SPDX-License-Identifier: BSD-2-Clause
"""HMAC-SHA-256 engine (`hmac-sha256:opt:pN`, RFC 2104 / FIPS 198-1): the two-core design of
Michail et al. 2012, sec. 8 (figs. 15, 16), built from the SHA-256 cores of this package.

    HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m))

Two SHA-256 cores of p pipeline stages each form one pipeline of 2p stages that hand over
together every 32/p cycles (engine_base.stage_chain, the same stages as `sha256:opt:pN`):

- the inner core (stages i0..i{p-1}) hashes a message's blocks from the key's stored inner
  state H(K0 ^ ipad) (a message's first block) or from the slot's chaining value (its next
  ones, which may enter in the very cycle the previous one is done, as in sha256:opt:pN);
- when a message's last block leaves the inner core, the outer core (stages o0..o{p-1}) takes
  the inner digest in that same handover cycle, padded in hardware (its length is always
  64 + 32 bytes), starting from the key's stored outer state H(K0 ^ opad); the paper's REG_b
  is the inner core's last stage's output in the handover cycle. A block that is not its
  message's last one rides through the outer core as a passenger, so that every block has
  one result, in order, 65
  cycles after it was accepted (p = 4: a block every 8 cycles, 8 in flight);
- key initialization (`key_init`: the block is K0, the key zero-padded or hashed to 64 bytes,
  RFC 2104) runs K0 ^ ipad into the inner core and K0 ^ opad into the outer core in the same
  handover (the outer core's entry must be free: no block leaves the inner core then) and
  stores both states in key slot `key` when they are done: 33 cycles for both, as in the paper.

The engine contract (docs/ARCHITECTURE.md) with these differences: `sink` also takes `key`
(the key slot) and `key_init`; `first` starts from the key's inner state (there is one
variant); the result of a message's last block is its MAC, every other result (a passenger, a
key initialization) is zero: no chaining value, stored state or key leaves the engine. The
stored states are write-only: nothing reads them but the cores; `wipe` (in) zeroizes them
and clears `keys_valid` (out: key slots holding states). The engine takes no block of a key
slot while that slot is being initialized; a wipe or a key initialization while blocks of that
key are in flight gives those blocks wrong MACs, so the peripheral allows them only when idle.
"""

from litedigest import spec as specmod
from migen import Array, Cat, Constant, If, Mux, Replicate, Signal

from .engine_base import pack_words
from .sha256 import IVS as SHA256_IVS
from .sha256 import SHA256Engine

IPAD, OPAD = 0x36363636, 0x5C5C5C5C


def outer_block(digest_words):
    """The outer hash's second block (FIPS 180-4 padding of 64 + 32 bytes): the inner digest,
    0x80, zeros, the length 768 bits."""
    return (
        list(digest_words)
        + [Constant(0x80000000, 32)]
        + [Constant(0, 32)] * 6
        + [Constant(768, 32)]
    )


class HMACSHA256Engine(SHA256Engine):
    """HMAC-SHA-256 on two SHA-256 cores (see the module docstring)."""

    family = "hmac_sha256"
    # a slot's blocks inside the engine at once: one in the inner core and the previous one
    # riding the outer core (the peripheral sizes its count of a slot's blocks by it)
    blocks_per_slot = 2
    IVS = {"hmac-sha256": SHA256_IVS[0]}
    ARCHITECTURES = {
        "opt": 2
    }  # the SHA-256 architectures the MAC is built with (litedigest.spec.MACS)

    def __init__(self, arch="opt", slots=None, stages=1, key_slots=None):
        mac = specmod.MACS["hmac-sha256"]
        if arch not in mac.archs or stages not in mac.archs[arch]:
            raise ValueError(f"hmac-sha256 is built with {mac.archs}, not {arch}:p{stages}")
        self.key_slots = key_slots or mac.key_slots
        self.cores = mac.cores
        key_bits = max(1, (self.key_slots - 1).bit_length())
        self.SINK_EXTRA = [("key", key_bits), ("key_init", 1)]
        round_cycles = self.ROUNDS // self.ARCHITECTURES[arch]
        in_flight = self.cores * stages
        self.setup(
            arch,
            slots or in_flight,
            round_cycles,
            custom_timing=dict(
                latency=self.cores * round_cycles + 1,
                interval=round_cycles // stages,
                in_flight=in_flight,
                stages=stages,
            ),
        )
        self.rounds_per_cycle = self.steps_per_cycle
        self._two_cores(self._opt_step, self._opt_init, self.OPT_PRE)

    def _two_cores(self, step, pre_init, npre):
        sink, K, S = self.sink, self.key_slots, self.slots
        wb, ncv = self.word_bits, len(self.st)
        timing = phase, handover, advance, period = self.pipeline_timing()
        onehot = lambda i, n: Constant(1, n) << i
        bit = lambda vec, i: (vec >> i)[0]
        # the key slots' stored states (secrets: written by key initialization, zeroed by wipe)
        inner_key = Array(Signal(self.digest_bits, name=f"inner_state{k}") for k in range(K))
        outer_key = Array(Signal(self.digest_bits, name=f"outer_state{k}") for k in range(K))
        self.wipe = wipe = Signal()
        self.keys_valid = keys_valid = Signal(K)
        key_busy = Signal(K)  # a key initialization of the slot is in flight
        slot_busy = Signal(S)  # a block of the slot is in the inner core
        iv = Constant(pack_words(self.IVS["hmac-sha256"], wb), self.digest_bits)

        # --- the inner core's entry ------------------------------------------------------------
        inner_last = Signal(name="inner_last_valid")
        inner_cv = Signal(self.digest_bits, name="inner_cv")  # the block leaving the inner core
        inner_slot = Signal(len(sink.slot))
        inner_init = Signal()
        leaving = Signal()  # a block leaves the inner core this cycle
        reusable = leaving & ~inner_init & (inner_slot == sink.slot)
        self.comb += [
            sink.ready.eq(
                advance
                & handover
                & (~bit(slot_busy, sink.slot) | reusable)
                & ~bit(key_busy, sink.key)
                & (~sink.key_init | ~inner_last)
            ),  # the outer entry is free for K0 ^ opad
        ]
        init_cv = Signal(self.digest_bits, name="inner_init_cv")
        self.comb += init_cv.eq(
            Mux(
                sink.key_init,
                iv,
                Mux(
                    sink.first,
                    inner_key[sink.key],
                    Mux(sink.load_cv, sink.cv, Mux(reusable, inner_cv, self.cv_mem[sink.slot])),
                ),
            )
        )
        init_st = [init_cv[wb * i : wb * (i + 1)] for i in range(ncv)]
        xor = lambda ws, c: [Mux(sink.key_init, w ^ c, w) for w in ws]
        in_w = xor(self.data_w, IPAD)
        entry = dict(
            valid=self.accept,
            st=init_st,
            w=in_w,
            cv=init_cv,
            slot=sink.slot,
            last=sink.last,
            pre=pre_init(init_st, in_w),
            key=sink.key,
            key_init=sink.key_init,
        )
        inner = self.stage_chain(
            step, pre_init, npre, entry, self.stages, timing, name="i", tags=("key", "key_init")
        )[-1]
        self.comb += [
            inner_last.eq(inner["valid"]),
            inner_cv.eq(Cat(*inner["out"]["st"])),
            inner_slot.eq(inner["slot"]),
            inner_init.eq(inner["key_init"]),
            leaving.eq(advance & handover & inner["valid"]),
        ]

        # --- the outer core's entry: a message's inner digest, a passenger, or K0 ^ opad -------
        opad_now = self.accept & sink.key_init
        out_st_cv = Signal(self.digest_bits, name="outer_init_cv")
        self.comb += out_st_cv.eq(Mux(opad_now, iv, outer_key[inner["key"]]))
        o_st = [out_st_cv[wb * i : wb * (i + 1)] for i in range(ncv)]
        pad_w = outer_block(inner["out"]["st"])
        o_w = [Mux(opad_now, d ^ OPAD, q) for d, q in zip(self.data_w, pad_w)]
        pick = lambda a, b: Mux(opad_now, a, b)
        o_entry = dict(
            valid=opad_now | (inner["valid"] & ~inner["key_init"]),
            st=o_st,
            w=o_w,
            cv=out_st_cv,
            pre=pre_init(o_st, o_w),
            slot=pick(sink.slot, inner["slot"]),
            last=pick(sink.last, inner["last"]),
            key=pick(sink.key, inner["key"]),
            key_init=opad_now,
            mac=~opad_now & inner["last"],
        )  # 0: a passenger (its result is zero)
        outer = self.stage_chain(
            step,
            pre_init,
            npre,
            o_entry,
            self.stages,
            timing,
            name="o",
            tags=("key", "key_init", "mac"),
        )[-1]
        mac_value = Cat(*outer["out"]["st"])
        done = Signal()
        self.comb += [
            advance.eq(~(handover & outer["valid"] & ~self.out_free)),
            done.eq(advance & handover & outer["valid"]),
        ]

        # --- results, chaining values, stored states ---------------------------------------------
        k_in, k_out = inner["key"], outer["key"]
        init_done = done & outer["key_init"] & bit(key_busy, k_out)  # (not a wiped one)
        self.sync += [
            If(done, self.result(Mux(outer["mac"], mac_value, 0), outer["slot"], outer["last"])),
            If(leaving & ~inner_init & ~inner["last"], self.cv_mem[inner_slot].eq(inner_cv)),
            If(leaving & inner_init & bit(key_busy, k_in), inner_key[k_in].eq(inner_cv)),
            If(init_done, outer_key[k_out].eq(mac_value)),
            slot_busy.eq(
                (slot_busy & ~Mux(leaving, onehot(inner_slot, S), 0))
                | Mux(self.accept, onehot(sink.slot, S), 0)
            ),
            key_busy.eq(
                (
                    (key_busy & ~Mux(done & outer["key_init"], onehot(k_out, K), 0))
                    | Mux(opad_now, onehot(sink.key, K), 0)
                )
                & ~Replicate(wipe, K)
            ),
            keys_valid.eq(
                (
                    (keys_valid & ~Mux(opad_now, onehot(sink.key, K), 0))
                    | Mux(init_done, onehot(k_out, K), 0)
                )
                & ~Replicate(wipe, K)
            ),
            If(wipe, [k.eq(0) for k in inner_key], [k.eq(0) for k in outer_key]),
        ]
