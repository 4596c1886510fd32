# SPDX-License-Identifier: BSD-2-Clause
"""The hash peripheral's stages (litedigest.soc.peripheral), each in a Migen bench of its own.

Every bench drives one stage cycle by cycle from a single generator: random back-pressure on
every stream, random bus latency and bus errors, bad jobs, and checks the stage against a
reference written here from soc/REGISTERS.md, not from the gateware:

- CSRBlock: `din` words -> blocks (engine word order from the bytes, big-endian words), the
  word count, dropped words; and a block fed to a real engine, against hashlib;
- DMAReader (+ SkeinTweak for Skein): the blocks of each slot's segments, from a memory with
  random latency and errors, their flags, the round-robin order and that a fetch starts
  whenever one can; tweaks against the C library's rule
  (litedigest._clib.skein512_block_tweaks), the output block of `ctrl.out`;
- SkeinTweak: the tweak of a one-block (CSR) job;
- SlotControl: admission (every error class), per-slot job lifetime, slots_done / ack, the
  finish stamp, the event;
- BlockRegister: CSR blocks first, nothing lost or duplicated, no bubble.
Each reference is shown to catch a broken stage (the `..._catches_...` tests)."""

import hashlib
import random
from collections import deque

import pytest
from litedigest import _clib as native
from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc.peripheral import (
    BlockRegister,
    CSRBlock,
    DMAReader,
    SkeinTweak,
    SlotControl,
)
from litedigest.soc.peripheral import (
    csr_block as csr_block_mod,
)
from litedigest.soc.peripheral import (
    skein_tweak as skein_tweak_mod,
)
from litedigest.soc.peripheral.layouts import request_layout
from litedigest.soc.peripheral.slots import range_checks
from migen import Module
from migen.genlib.record import Record
from migen.sim import run_simulation

RAM_BASE = 0x40000000


def engine_int(block, word_bits):
    """The engine's view of a block given as bytes: word i (big-endian) at bits [W*i, W*(i+1))."""
    nb = word_bits // 8
    return sum(
        int.from_bytes(block[i * nb : (i + 1) * nb], "big") << (word_bits * i)
        for i in range(len(block) // nb)
    )


def tweak_int(t0, t1):
    return (t1 << 64) | t0


def random_t1(rng):
    """A UBI's start T1: a type, first and final at random, bitpad (a final partial byte) only
    with final: the C library's rule keeps bitpad on a job's last block even without final,
    where the peripheral does not (a combination no caller makes)."""
    final = rng.random() < 0.6
    return native.skein512_t1(
        rng.choice([0, 4, 48, 63]),
        first=rng.random() < 0.6,
        final=final,
        bitpad=final and rng.random() < 0.4,
    )


def rr_reference(req, last, n):
    for k in range(1, n + 1):
        s = (last + k) % n
        if req >> s & 1:
            return s
    return None


def bits(v, n):
    return [(v >> i) & 1 for i in range(n)]


# --- CSRBlock ---------------------------------------------------------------------------------


def run_csr_block(block_bits, word_bits, seed, cycles=4000):
    """Random `din` writes (sometimes one too many, sometimes in the cycle of the start),
    clears, starts when the buffer is whole and no block waits, random `ready`. Returns what
    was checked (counts)."""
    nslots = 3
    nbw = block_bits // 32
    dut = CSRBlock(block_bits, word_bits, nslots)
    rng = random.Random(seed)
    seen = dict(blocks=0, overflow=0, load_overflow=0, clears=0)

    def bench():
        words, pending = [], None  # the model: the buffer's words, the waiting block
        expect = deque()
        inp = {}
        for cyc in range(cycles):
            # --- this cycle's outputs against the model
            if cyc:
                assert (yield dut.words) == len(words), cyc
                assert (yield dut.source.valid) == (pending is not None), cyc
                we, load = inp["din_we"], inp["load"]
                overflow = we and (len(words) >= nbw or load)
                assert (yield dut.overflow) == overflow, cyc
                seen["overflow"] += overflow
                seen["load_overflow"] += overflow and load
                taken = pending is not None and inp["ready"]
                if taken:
                    got = dict(
                        data=(yield dut.source.data),
                        slot=(yield dut.source.slot),
                        first=(yield dut.source.first),
                        load_cv=(yield dut.source.load_cv),
                        last=(yield dut.source.last),
                        variant=(yield dut.source.variant),
                        tweak=(yield dut.source.tweak),
                    )
                    assert got == expect.popleft(), cyc
                    seen["blocks"] += 1
                    pending = None
                # the model's step (the order of the stage: write, clear, start)
                if we and not overflow:
                    words.append(inp["din"])
                if inp["clear"]:
                    words = []
                    seen["clears"] += 1
                if load:
                    block = b"".join(w.to_bytes(4, "big") for w in words)
                    pending = dict(
                        data=engine_int(block, word_bits),
                        slot=inp["slot"],
                        first=inp["first"],
                        load_cv=inp["load_cv"],
                        last=inp["last"],
                        variant=inp["variant"],
                        tweak=inp["tweak"],
                    )
                    expect.append(pending)
                    words = []
            # --- the next cycle's inputs
            load = pending is None and len(words) == nbw and rng.random() < 0.5
            dma = not load and rng.random() < 0.05  # a DMA job's start: no CSR block
            inp = dict(
                load=load,
                din_we=rng.random() < (0.6 if len(words) < nbw else 0.2),
                din=rng.getrandbits(32),
                clear=rng.random() < 0.003,
                ready=rng.random() < 0.4,
                slot=rng.randrange(nslots),
                first=rng.getrandbits(1),
                load_cv=rng.getrandbits(1),
                last=rng.getrandbits(1),
                variant=rng.getrandbits(4),
                tweak=rng.getrandbits(128),
            )
            yield dut.din_we.eq(inp["din_we"])
            yield dut.din.eq(inp["din"])
            yield dut.clear.eq(inp["clear"])
            yield dut.source.ready.eq(inp["ready"])
            yield dut.job.start.eq(load or dma)
            yield dut.job.csr.eq(load)
            for k in ("slot", "first", "load_cv", "last", "variant"):
                yield getattr(dut.job, k).eq(inp[k])
            yield dut.tweak.eq(inp["tweak"])
            yield

    run_simulation(dut, bench())
    return seen


@pytest.mark.parametrize("block_bits,word_bits", [(512, 32), (1024, 64)])
def test_csr_block(block_bits, word_bits):
    seen = run_csr_block(block_bits, word_bits, f"csr/{block_bits}")
    assert seen["blocks"] >= 20 and seen["overflow"] >= 5 and seen["load_overflow"] >= 1, seen


def test_csr_block_reference_catches_a_wrong_byte_order(monkeypatch):
    monkeypatch.setattr(csr_block_mod, "_bswap32", lambda x: x)
    with pytest.raises(AssertionError):
        run_csr_block(512, 32, "csr/bad", cycles=400)


class CSRToEngine(Module):
    def __init__(self, engine_spec):
        self.engine = engine = make_engine(specmod.parse(engine_spec))
        self.submodules.engine_ = engine
        self.submodules.blk = blk = CSRBlock(engine.block_bits, engine.word_bits, engine.slots)
        s = blk.source
        self.comb += [
            engine.sink.valid.eq(s.valid),
            s.ready.eq(engine.sink.ready),
            engine.sink.data.eq(s.data),
            engine.sink.first.eq(s.first),
            engine.sink.last.eq(s.last),
            engine.sink.slot.eq(s.slot),
            engine.sink.variant.eq(s.variant),
            engine.source.ready.eq(1),
        ]


@pytest.mark.parametrize("engine_spec,family", [("sha256:base", "sha256"), ("sha512:k5", "sha512")])
def test_csr_block_feeds_the_engine(engine_spec, family):
    """A one-block message written as `din` words, hashed by the engine: hashlib's digest."""
    top = CSRToEngine(engine_spec)
    bb = top.engine.block_bits // 8
    nlen = 8 if bb == 64 else 16
    msg = random.Random(engine_spec).randbytes(bb - nlen - 5)
    block = msg + b"\x80" + bytes(bb - nlen - len(msg) - 1) + (8 * len(msg)).to_bytes(nlen, "big")
    out = {}

    def bench():
        for i in range(0, bb, 4):
            yield top.blk.din.eq(int.from_bytes(block[i : i + 4], "big"))
            yield top.blk.din_we.eq(1)
            yield
        yield top.blk.din_we.eq(0)
        yield top.blk.job.start.eq(1)
        yield top.blk.job.csr.eq(1)
        yield top.blk.job.first.eq(1)
        yield top.blk.job.last.eq(1)
        yield
        yield top.blk.job.start.eq(0)
        for _ in range(200):
            yield
            if (yield top.engine.source.valid):
                out["cv"] = yield top.engine.source.digest
                return

    run_simulation(top, bench())
    w = top.engine.word_bits
    digest = b"".join(
        ((out["cv"] >> (w * i)) & ((1 << w) - 1)).to_bytes(w // 8, "big")
        for i in range(top.engine.digest_bits // w)
    )
    assert digest == hashlib.new(family, msg).digest()


# --- DMAReader (+ SkeinTweak) -------------------------------------------------------------------

OUT_TWEAK = tweak_int(8, native.skein512_t1(63, first=True, final=True))


class ReaderTop(Module):
    def __init__(self, nslots, block_bits, word_bits, dma_width, skein):
        self.submodules.reader = r = DMAReader(nslots, block_bits, word_bits, dma_width)
        self.tweaks = None
        if skein:
            self.submodules.tweaks = t = SkeinTweak(nslots)
            self.comb += [r.tweak.connect(t.port), t.job.eq(r.job)]


def run_reader(nslots, block_bits, word_bits, dma_width, skein, seed, cycles=2500):
    """The reader against a model of the slots it serves: jobs of 1-3 body blocks and 0-2 tail
    blocks (some CSR jobs, which read nothing; Skein jobs with random start tweaks, some with
    the output block), a memory acking after 0-3 cycles and failing 1 read in 60, `allow` and
    `pause` at random, a downstream that takes blocks at random and then keeps the slot's block
    for 0-12 cycles. Checks each block (slot, data, flags, tweak), `more`, `fetch` (round-robin
    order, and a fetch whenever one is possible), `abort` / `bus_error`. Returns counts."""
    top = ReaderTop(nslots, block_bits, word_bits, dma_width, skein)
    r = top.reader
    rng = random.Random(seed)
    bb, row_bytes = block_bits // 8, dma_width // 8
    rows_per_block = block_bits // dma_width
    ram_size = 64 * bb
    image = rng.randbytes(ram_size)
    seen = dict(
        blocks=0,
        out_blocks=0,
        aborts=0,
        jobs=0,
        csr_jobs=0,
        rr_multi=0,
        fetches=0,
        chosen_as_taken=0,
    )

    # per slot: rows left to read, whether the output block is owed, blocks fetched and not
    # taken yet, expected blocks, the row addresses still to read, the downstream hold
    rows_left = [0] * nslots
    out_owed = [False] * nslots
    outst = [0] * nslots
    expect = [deque() for _ in range(nslots)]
    addrs = [deque() for _ in range(nslots)]
    hold_until = [0] * nslots

    def new_job(s):
        """A job for slot s: (job fields, segments, t0, t1, final bytes, what the model takes
        on when the reader sees the start)."""
        csr = rng.random() < 0.15
        job = dict(
            slot=s,
            csr=csr,
            first=rng.getrandbits(1),
            last=rng.getrandbits(1),
            variant=rng.getrandbits(4),
            out=skein and not csr and rng.random() < 0.4,
        )
        job["load_cv"] = 0 if job["first"] else rng.getrandbits(1)
        nb, nt = rng.randrange(1, 4), rng.randrange(0, 3)
        ob = rng.randrange(0, ram_size // row_bytes - nb * rows_per_block) * row_bytes
        ot = rng.randrange(0, ram_size // row_bytes - nt * rows_per_block + 1) * row_bytes
        seg = dict(
            row=(RAM_BASE + ob) // row_bytes,
            rows=nb * rows_per_block,
            tail_row=(RAM_BASE + ot) // row_bytes,
            tail_rows=nt * rows_per_block,
        )
        t0 = rng.getrandbits(40)
        t1 = random_t1(rng)
        fb = rng.randrange(0, 65)
        if csr:
            return job, seg, t0, t1, fb, dict(blocks=[], rows=0, addrs=[])
        data = image[ob : ob + nb * bb] + image[ot : ot + nt * bb]
        n = nb + nt
        tweaks = native.skein512_block_tweaks(t0, t1, n, fb) if skein else None
        blocks = []
        for i in range(n):
            blocks.append(
                dict(
                    data=engine_int(data[i * bb : (i + 1) * bb], word_bits),
                    first=job["first"] if i == 0 else 0,
                    load_cv=job["load_cv"] if i == 0 else 0,
                    last=int(job["last"] and i == n - 1 and not job["out"]),
                    variant=job["variant"],
                    tweak=tweak_int(*tweaks[i]) if skein else 0,
                    kind="msg",
                )
            )
        if job["out"]:
            blocks.append(
                dict(
                    data=0,
                    first=0,
                    load_cv=0,
                    last=job["last"],
                    variant=job["variant"],
                    tweak=OUT_TWEAK,
                    kind="out",
                )
            )
        rows = list(range(seg["row"], seg["row"] + seg["rows"])) + list(
            range(seg["tail_row"], seg["tail_row"] + seg["tail_rows"])
        )
        return job, seg, t0, t1, fb, dict(blocks=blocks, rows=n * rows_per_block, addrs=rows)

    def apply(job, model):
        s = job["slot"]
        expect[s].extend(model["blocks"])
        rows_left[s] = model["rows"]
        out_owed[s] = bool(job["out"])
        addrs[s].extend(model["addrs"])

    def bench():
        last = 0
        fetching = None  # the slot whose block is being read
        wait = None  # the memory's countdown to its answer
        pause_until = 0
        inp = dict(allow=0, pause=0, ready=0, ack=0, err=0, start=None)
        for cyc in range(cycles):
            if cyc:
                # --- this cycle's outputs
                for s in range(nslots):  # the reader's own copy of "rows left" agrees
                    assert (yield r.live[s]) == ((yield r.jobs.cur_rows[s]) != 0), (cyc, s)
                more = yield r.more
                want_more = sum((rows_left[s] > 0 or out_owed[s]) << s for s in range(nslots))
                assert more == want_more, (cyc, bin(more), bin(want_more))
                src_valid = yield r.source.valid
                filling = yield r.bus.cyc
                assert filling == (fetching is not None), cyc
                # the next fetch is chosen as the buffer's block leaves, not for that block's slot
                leaving = (1 << (yield r.source.slot)) if src_valid else 0
                req = inp["allow"] & more & ~leaving
                fv, fslot = (yield r.fetch.valid), (yield r.fetch.slot)
                assert fv == (
                    req != 0
                    and not inp["pause"]
                    and not filling
                    and (not src_valid or bool(inp["ready"]))
                ), cyc
                seen["chosen_as_taken"] += bool(fv and src_valid)
                if fv:
                    assert fslot == rr_reference(req, last, nslots), (cyc, bin(req), last, fslot)
                    seen["rr_multi"] += bin(req).count("1") > 1
                    seen["fetches"] += 1
                    last = fslot
                    outst[fslot] += 1
                    if rows_left[fslot] == 0:  # the owed output block, made at once
                        assert out_owed[fslot]
                        out_owed[fslot] = False
                    else:
                        fetching = fslot
                # the memory's answer this cycle
                assert (yield r.bus_error) == bool(inp["err"] and filling), cyc
                assert (yield r.abort.valid) == bool(inp["err"] and filling), cyc
                if inp["ack"] or inp["err"]:
                    assert fetching is not None
                if inp["err"]:
                    assert (yield r.abort.slot) == fetching
                    s = fetching
                    seen["aborts"] += 1
                    outst[s] -= 1
                    rows_left[s] = 0
                    addrs[s].clear()
                    while expect[s] and expect[s][0]["kind"] == "msg":
                        expect[s].popleft()
                    fetching = None
                    pause_until = cyc + rng.randrange(1, 20)  # the CPU acks the error
                elif inp["ack"]:
                    rows_left[fetching] -= 1
                    if (rows_left[fetching] % rows_per_block) == 0:
                        fetching = None
                # the downstream
                if src_valid and inp["ready"]:
                    s = yield r.source.slot
                    got = dict(
                        data=(yield r.source.data),
                        first=(yield r.source.first),
                        load_cv=(yield r.source.load_cv),
                        last=(yield r.source.last),
                        variant=(yield r.source.variant),
                        tweak=(yield r.source.tweak),
                    )
                    want = expect[s].popleft()
                    kind = want.pop("kind")
                    assert got == want, (cyc, s, kind)
                    seen["blocks"] += 1
                    seen["out_blocks"] += kind == "out"
                    outst[s] -= 1
                    hold_until[s] = cyc + 1 + rng.randrange(0, 13)
                if inp["start"] is not None:
                    apply(inp["start"][0], inp["start"][-1])
                    seen["jobs"] += 1
                # --- the memory: answer a pending read after 0-3 cycles
                adr = yield r.bus.adr
            else:
                filling, adr = 0, 0
            ack = err = 0
            if inp["ack"] or inp["err"] or not filling or fetching is None:
                wait = None
            else:
                if wait is None:
                    wait = rng.randrange(0, 4)
                if wait == 0:
                    err = rng.random() < 1 / 60
                    ack = not err
                    if ack:
                        assert adr == addrs[fetching].popleft(), (cyc, adr)
                        off = adr * row_bytes - RAM_BASE
                        yield r.bus.dat_r.eq(int.from_bytes(image[off : off + row_bytes], "little"))
                    wait = None
                else:
                    wait -= 1
            # --- the next cycle's inputs: maybe a job on a free slot
            start = None
            free = [
                s
                for s in range(nslots)
                if rows_left[s] == 0
                and not out_owed[s]
                and outst[s] == 0
                and not expect[s]
                and hold_until[s] <= cyc
            ]
            if free and rng.random() < 0.2:
                start = new_job(rng.choice(free))
                seen["csr_jobs"] += start[0]["csr"]
            inp = dict(
                allow=sum(
                    (hold_until[s] <= cyc and rng.random() < 0.85) << s for s in range(nslots)
                ),
                pause=cyc < pause_until or rng.random() < 0.05,
                ready=rng.random() < 0.5,
                ack=ack,
                err=err,
                start=start,
            )
            yield r.allow.eq(inp["allow"])
            yield r.pause.eq(inp["pause"])
            yield r.source.ready.eq(inp["ready"])
            yield r.bus.ack.eq(ack)
            yield r.bus.err.eq(err)
            yield r.job.start.eq(start is not None)
            if start is not None:
                job, seg, t0, t1, fb, _ = start
                for k, v in job.items():
                    yield getattr(r.job, k).eq(v)
                for k, v in seg.items():
                    yield getattr(r.segments, k).eq(v)
                if skein:
                    yield top.tweaks.tweak.eq(tweak_int(t0, t1))
                    yield top.tweaks.final_bytes.eq(fb)
            yield

    run_simulation(top, bench())
    return seen


READER_CASES = [
    # slots, block bits, word bits, DMA row bits, Skein tweak stage
    (1, 512, 32, 512, False),
    (3, 512, 32, 128, False),
    (2, 1024, 64, 128, False),
    (6, 512, 64, 256, True),
    (2, 512, 64, 512, True),
]


@pytest.mark.parametrize("case", READER_CASES, ids=lambda c: "-".join(map(str, c)))
def test_dma_reader(case):
    seen = run_reader(*case, seed=str(case))
    nslots, skein = case[0], case[4]
    assert seen["blocks"] >= 40 and seen["aborts"] >= 1 and seen["csr_jobs"] >= 1, seen
    if nslots > 1:
        assert seen["rr_multi"] >= 5 and seen["chosen_as_taken"] >= 1, seen
    if skein:
        assert seen["out_blocks"] >= 3, seen


def test_dma_reader_reference_catches_a_wrong_tweak(monkeypatch):
    """a tweak rule that forgets the final block's bytes is caught"""

    def wrong(start, pos, first, is_final, final_bytes):
        return real(start, pos, first, is_final, 64)

    real = skein_tweak_mod.tweak_of_block
    monkeypatch.setattr(skein_tweak_mod, "tweak_of_block", wrong)
    with pytest.raises(AssertionError):
        run_reader(2, 512, 64, 512, True, seed="bad-tweak", cycles=1500)


def test_skein_tweak_of_a_csr_job():
    """`csr_tweak`: the tweak of a one-block job, the C library's rule for one block."""
    dut = SkeinTweak(2)
    rng = random.Random("csr-tweak")

    def bench():
        for _ in range(200):
            t0 = rng.getrandbits(rng.choice([8, 40, 63]))
            t1 = random_t1(rng)
            fb = rng.randrange(0, 65)
            yield dut.tweak.eq(tweak_int(t0, t1))
            yield dut.final_bytes.eq(fb)
            yield
            assert (yield dut.csr_tweak) == tweak_int(
                *native.skein512_block_tweaks(t0, t1, 1, fb)[0]
            )

    run_simulation(dut, bench())


# --- SlotControl --------------------------------------------------------------------------------


class SlotModel:
    """SlotControl's registers and decisions, from REGISTERS.md ("status", "ctrl")."""

    def __init__(self, nslots, block_bytes, row_bytes, ram_base, ram_size):
        self.n, self.bb, self.rowb = nslots, block_bytes, row_bytes
        self.ram = (ram_base, ram_base + ram_size)
        self.act, self.outst = [0] * nslots, [0] * nslots
        self.sdone = 0
        self.st = dict(done=0, err_len=0, err_addr=0, err_state=0, err_bus=0)
        self.cv_pending = 0
        self.finish_cycles = 0

    def decide(self, q, words, csr_busy, more):
        """(starting, error kind or None, finish bits) of a cycle."""
        slot_bad = q["slot"] >= self.n
        state_bad = (
            slot_bad
            or (not slot_bad and self.act[q["slot"]])
            or (q["load_cv"] and not q["first"] and self.cv_pending)
        )
        fb_bad = q["final_bytes"] > self.bb
        err = None
        if q["start"]:
            if state_bad or csr_busy or q["out"]:
                err = "err_state"
            elif words != self.bb // 4 or fb_bad:
                err = "err_len"
        elif q["dma_start"]:
            mult = lambda x: x % self.bb == 0
            in_ram = lambda b, n: b % self.rowb == 0 and b >= self.ram[0] and b + n <= self.ram[1]
            if state_bad:
                err = "err_state"
            elif (
                q["length"] == 0
                or not mult(q["length"])
                or (q["tail"] and not mult(q["tail_length"]))
                or fb_bad
            ):
                err = "err_len"
            elif not in_ram(q["base"], q["length"]) or (
                q["tail"] and q["tail_length"] and not in_ram(q["tail_base"], q["tail_length"])
            ):
                err = "err_addr"
        starting = (q["start"] or q["dma_start"]) and err is None
        finish = sum(
            (self.act[s] and not more >> s & 1 and self.outst[s] == 0) << s for s in range(self.n)
        )
        return starting, err, finish

    def step(self, q, inp, starting, err, finish):
        for s in range(self.n):
            self.outst[s] += (
                (inp["fetch"] == s)
                + (starting and q["start"] and q["slot"] == s)
                - (inp["retire"] == s)
                - (inp["abort"] == s)
            )
            assert 0 <= self.outst[s] <= 3
            if finish >> s & 1:
                self.act[s] = 0
            if starting and q["slot"] == s:
                self.act[s] = 1
        self.sdone = (self.sdone & ~inp["ack_slots"]) | finish
        st = self.st
        # ack clears what the driver saw; an event of the same cycle is kept (REGISTERS.md)
        if inp["ack"]:
            st.update(done=0, err_len=0, err_addr=0, err_state=0, err_bus=0)
        st["err_bus"] |= inp["bus_error"]
        if inp["cv_taken"]:
            self.cv_pending = 0
        if finish:
            st["done"], self.finish_cycles = 1, inp["now"]
        st["err_state"] |= inp["overflow"]
        if err:
            st["done"], st[err] = 1, 1
        if starting and q["load_cv"] and not q["first"]:
            self.cv_pending = 1


class PrecheckedSlots(Module):
    """SlotControl with `prechecked`, its request and range checks registered together from
    `ahead` (the request of the next cycle), as HashPeripheral makes them a cycle ahead."""

    def __init__(self, nslots, block_bytes, row_bytes, ram_base, ram_size, stale=False):
        self.submodules.slots = slots = SlotControl(
            nslots, block_bytes, row_bytes, ram_base, ram_size, prechecked=True
        )
        self.ahead = a = Record(request_layout())
        self.sync += slots.request.eq(a)
        # stale (a planted bug): the checks of the registered request, a cycle late
        src = slots.request if stale else a
        self.sync += [
            getattr(slots.checks, k).eq(v)
            for k, v in range_checks(
                src.base,
                src.length,
                block_bytes,
                row_bytes,
                ram_base,
                ram_size,
                src.tail_base,
                src.tail_length,
            ).items()
        ]


def run_slots(nslots, seed, cycles=3000, model_cls=SlotModel, prechecked=False):
    """`prechecked`: SlotControl takes its range checks made a cycle ahead (PrecheckedSlots;
    "stale": made a cycle late); each request is driven a cycle earlier, so the cycles it is
    decided in are the same."""
    block_bytes, row_bytes, ram_base, ram_size = 64, 16, RAM_BASE, 0x1000
    geometry = (block_bytes, row_bytes, ram_base, ram_size)
    if prechecked:
        top = PrecheckedSlots(nslots, *geometry, stale=prechecked == "stale")
        dut, request_port = top.slots, top.ahead
    else:
        top = dut = SlotControl(nslots, *geometry)
        request_port = dut.request
    m = model_cls(nslots, block_bytes, row_bytes, ram_base, ram_size)
    rng = random.Random(seed)
    seen = dict(dma=0, csr=0, finish=0, err_len=0, err_addr=0, err_state=0, acks=0)
    idle = dict(
        start=0,
        dma_start=0,
        slot=0,
        first=0,
        last=0,
        load_cv=0,
        tail=0,
        out=0,
        variant=0,
        base=0,
        length=0,
        tail_base=0,
        tail_length=0,
        final_bytes=0,
    )
    # the reader / engine stand-in: per slot, blocks still to fetch; fetched blocks' retire times
    to_fetch = [0] * nslots
    retire_at = [deque() for _ in range(nslots)]

    def request():
        """A ctrl write: mostly good jobs on random slots, and every kind of bad one."""
        q = dict(idle)
        q.update(
            slot=rng.randrange(nslots) if rng.random() < 0.9 else rng.randrange(nslots, 256),
            first=rng.getrandbits(1),
            last=rng.getrandbits(1),
            variant=rng.getrandbits(4),
            load_cv=rng.random() < 0.2,
            tail=rng.getrandbits(1),
            out=rng.random() < 0.1,
            final_bytes=rng.randrange(0, 65) if rng.random() < 0.9 else rng.randrange(65, 128),
        )
        q["start" if rng.random() < 0.3 else "dma_start"] = 1
        if rng.random() < 0.05:
            q["start"] = q["dma_start"] = 1
        nrows = ram_size // row_bytes
        for b, n in (("base", "length"), ("tail_base", "tail_length")):
            blocks = rng.randrange(0 if n == "tail_length" else 1, 4)
            q[n] = blocks * block_bytes
            q[b] = ram_base + rng.randrange(0, nrows - 4 * block_bytes // row_bytes) * row_bytes
            r = rng.random()
            if r < 0.04:
                q[n] = rng.choice([0, block_bytes // 2, block_bytes + row_bytes])
            elif r < 0.08:
                q[b] += rng.randrange(1, row_bytes)
            elif r < 0.12:
                q[b] = rng.choice(
                    [ram_base - row_bytes, ram_base + ram_size - row_bytes, 0, 0xFFFFFFF0]
                )
        return q

    def bench():
        inp = q = None
        # the request of the next cycle (driven a cycle ahead when prechecked)
        q_next = dict(idle)
        for cyc in range(cycles):
            if cyc:
                more = sum((to_fetch[s] > 0) << s for s in range(nslots))
                starting, err, finish = m.decide(q, inp["csr_words"], inp["csr_busy"], more)
                # registers: the model's state before this cycle's step
                assert (yield dut.active) == sum(a << s for s, a in enumerate(m.act)), cyc
                assert (yield dut.done_slots) == m.sdone, cyc
                for k, v in m.st.items():
                    assert (yield getattr(dut.status, k)) == v, (cyc, k)
                assert (yield dut.status.busy) == any(m.act), cyc
                assert (yield dut.finish_cycles) == m.finish_cycles, cyc
                # this cycle's decisions
                assert (yield dut.job.start) == starting, (cyc, q, err)
                assert (yield dut.event) == bool(finish or err), cyc
                if starting:
                    assert (yield dut.job.slot) == q["slot"] and (yield dut.job.csr) == q["start"]
                    assert (yield dut.job.load_cv) == (q["load_cv"] and not q["first"])
                    for k in ("first", "last", "variant", "out"):
                        assert (yield getattr(dut.job, k)) == q[k], (cyc, k)
                    if not q["start"]:
                        want = dict(
                            row=q["base"],
                            rows=q["length"],
                            tail_row=q["tail_base"],
                            tail_rows=q["tail_length"] if q["tail"] else 0,
                        )
                        for k, v in want.items():
                            assert (yield getattr(dut.segments, k)) == v // row_bytes, (cyc, k)
                        to_fetch[q["slot"]] = (
                            q["length"] + q["tail"] * q["tail_length"]
                        ) // block_bytes
                        seen["dma"] += 1
                    else:
                        retire_at[q["slot"]].append(cyc + rng.randrange(2, 12))
                        seen["csr"] += 1
                if err:
                    seen[err] += 1
                seen["finish"] += bin(finish).count("1")
                seen["acks"] += inp["ack"]
                m.step(q, inp, starting, err, finish)
            # --- the next cycle's inputs
            inp = dict(
                fetch=None,
                retire=None,
                abort=None,
                bus_error=0,
                ack=rng.random() < 0.05,
                ack_slots=rng.getrandbits(nslots) if rng.random() < 0.1 else 0,
                csr_words=16 if rng.random() < 0.8 else rng.randrange(0, 18),
                csr_busy=rng.random() < 0.15,
                cv_taken=rng.random() < 0.05,
                overflow=rng.random() < 0.01,
                now=1000 + 7 * cyc,
            )
            active = [s for s in range(nslots) if m.act[s]]
            due = [s for s in range(nslots) if retire_at[s] and retire_at[s][0] <= cyc]
            if due:
                s = rng.choice(due)
                retire_at[s].popleft()
                if rng.random() < 0.05 and to_fetch[s]:  # a bus error instead: the job ends
                    inp.update(abort=s, bus_error=1)
                    to_fetch[s] = 0
                else:
                    inp["retire"] = s
            cand = [
                s for s in active if to_fetch[s] and len(retire_at[s]) < 2 and s != inp["abort"]
            ]
            if cand and rng.random() < 0.5:
                s = rng.choice(cand)
                inp["fetch"] = s
                to_fetch[s] -= 1
                retire_at[s].append(cyc + rng.randrange(2, 12))
            q, q_next = q_next, request() if rng.random() < 0.15 else dict(idle)
            for k, v in (q_next if prechecked else q).items():
                yield getattr(request_port, k).eq(v)
            for k in (
                "ack",
                "ack_slots",
                "csr_words",
                "csr_busy",
                "cv_taken",
                "overflow",
                "bus_error",
                "now",
            ):
                yield getattr(dut, k).eq(inp[k])
            yield dut.more.eq(sum((to_fetch[s] > 0) << s for s in range(nslots)))
            for k in ("fetch", "retire", "abort"):
                ev = getattr(dut, k)
                yield ev.valid.eq(inp[k] is not None)
                yield ev.slot.eq(inp[k] or 0)
            yield

    run_simulation(top, bench())
    return seen


@pytest.mark.parametrize("prechecked", [False, True])
@pytest.mark.parametrize("nslots", [1, 3, 4])
def test_slot_control(nslots, prechecked):
    seen = run_slots(nslots, seed=f"slots/{nslots}", prechecked=prechecked)
    assert min(seen.values()) >= 3, seen


def test_prechecked_slot_control_catches_stale_checks():
    """range checks a cycle behind the request they judge disagree with the reference"""
    with pytest.raises(AssertionError):
        run_slots(2, seed="slots/stale", prechecked="stale")


def test_slot_control_reference_catches_a_missing_check():
    """a model that lets a second pending load_cv through disagrees with the stage"""

    class Lax(SlotModel):
        def decide(self, q, words, csr_busy, more):
            saved, self.cv_pending = self.cv_pending, 0
            try:
                return super().decide(q, words, csr_busy, more)
            finally:
                self.cv_pending = saved

    with pytest.raises(AssertionError):
        run_slots(2, seed="slots/lax", model_cls=Lax)


# --- BlockRegister ------------------------------------------------------------------------------


def test_block_register():
    """Random CSR and DMA blocks (held until taken), random `ready` on the output: the CSR
    block goes first, every block passes once and in order, the register refills in the cycle
    its block leaves."""
    dut = BlockRegister(64, 2)
    rng = random.Random("blockreg")
    ins = {
        "csr": deque((1 << 63) | rng.getrandbits(62) for _ in range(150)),
        "dma": deque(rng.getrandbits(62) for _ in range(150)),
    }
    sent = {"csr": list(ins["csr"]), "dma": list(ins["dma"])}
    out, seen = [], dict(both=0)

    def bench():
        reg = None
        shown = {"csr": None, "dma": None}
        ready = 0
        for cyc in range(900):
            if cyc:
                src = dut.source
                assert (yield src.valid) == (reg is not None), cyc
                if reg is not None:
                    assert (yield src.data) == reg, cyc
                free = reg is None or ready
                take = (
                    "csr"
                    if shown["csr"] is not None
                    else "dma"
                    if shown["dma"] is not None
                    else None
                )
                assert (yield dut.csr.ready) == free, cyc
                assert (yield dut.dma.ready) == (free and shown["csr"] is None), cyc
                if reg is not None and ready:
                    out.append(reg)
                    reg = None
                if free and take:
                    seen["both"] += shown["csr"] is not None and shown["dma"] is not None
                    reg, shown[take] = shown[take], None
            for k in ("csr", "dma"):
                if shown[k] is None and ins[k] and rng.random() < 0.4:
                    shown[k] = ins[k].popleft()
                ep = getattr(dut, k)
                yield ep.valid.eq(shown[k] is not None)
                yield ep.data.eq(shown[k] or 0)
            ready = rng.random() < 0.6
            yield dut.source.ready.eq(ready)
            yield

    run_simulation(dut, bench())
    for k, tag in (("csr", 1), ("dma", 0)):
        got = [x for x in out if x >> 63 == tag]
        assert got == sent[k][: len(got)], k
    assert len(out) >= 200 and seen["both"] >= 20, (len(out), seen)


@pytest.mark.parametrize("block_bytes,cnt_bits", [(64, 7), (128, 8), (64, 6), (128, 7), (48, 6)])
def test_pad_masks_match_their_definition(block_bytes, cnt_bits):
    """dma_reader.pad_masks (decoded by high part and low nibble, the DMA reader's registered
    masks and the AXI reader's) against its definition, for every count: byte i is padding when
    on and i >= the count, the marker when on, marked and i == the count. A count of
    `cnt_bits` = log2(block_bytes) bits (the DMA reader's: a full block is not `on`) or one
    more (the AXI reader's: block_bytes itself is a count)."""
    from litedigest.soc.peripheral.dma_reader import pad_masks
    from migen import Cat, Signal

    class Bench(Module):
        def __init__(self):
            self.on, self.mark_on = Signal(), Signal()
            self.cnt = Signal(cnt_bits)
            pad, mark = pad_masks(self.on, self.cnt, self.mark_on, block_bytes)
            self.pad, self.mark = Signal(block_bytes), Signal(block_bytes)
            self.comb += [self.pad.eq(Cat(*pad)), self.mark.eq(Cat(*mark))]

    dut = Bench()
    seen = []

    def gen():
        for cnt in range(min(1 << cnt_bits, block_bytes + 1)):
            for on in (0, 1):
                for mk in (0, 1):
                    yield dut.cnt.eq(cnt)
                    yield dut.on.eq(on)
                    yield dut.mark_on.eq(mk)
                    yield
                    want_pad = sum(1 << i for i in range(block_bytes) if on and i >= cnt)
                    want_mark = (1 << cnt) if on and mk and cnt < block_bytes else 0
                    assert (yield dut.pad) == want_pad, (cnt, on)
                    assert (yield dut.mark) == want_mark, (cnt, on, mk)
                    seen.append(cnt)

    run_simulation(dut, gen())
    assert len(seen) == 4 * min(1 << cnt_bits, block_bytes + 1)


@pytest.mark.parametrize("block_bytes,cnt_bits", [(64, 6), (128, 7), (64, 7)])
def test_pad_mask_groups_match_pad_masks(block_bytes, cnt_bits):
    """dma_reader.pad_mask_groups (a register set a group of 16 bytes, the masks a cycle
    later: the DMA reader's with four or more rows a block) against pad_masks, for every
    count, `on` and marker, with the inputs changing every cycle."""
    import random

    from litedigest.soc.peripheral.dma_reader import pad_mask_groups, pad_masks
    from migen import Cat, Signal

    class Bench(Module):
        def __init__(self):
            self.on, self.mark_on = Signal(), Signal()
            self.cnt = Signal(cnt_bits)
            stage, pad, mark = pad_mask_groups(self.on, self.cnt, self.mark_on, block_bytes)
            self.sync += stage
            want_pad, want_mark = pad_masks(self.on, self.cnt, self.mark_on, block_bytes)
            self.pad, self.mark = Signal(block_bytes), Signal(block_bytes)
            self.want_pad, self.want_mark = Signal(block_bytes), Signal(block_bytes)
            self.comb += [self.pad.eq(Cat(*pad)), self.mark.eq(Cat(*mark))]
            self.sync += [self.want_pad.eq(Cat(*want_pad)), self.want_mark.eq(Cat(*want_mark))]

    dut = Bench()
    rng = random.Random(block_bytes + cnt_bits)
    cases = [(c, on, mk) for c in range(1 << cnt_bits) for on in (0, 1) for mk in (0, 1)]
    rng.shuffle(cases)
    seen = []

    def gen():
        for cnt, on, mk in cases:
            yield dut.cnt.eq(cnt)
            yield dut.on.eq(on)
            yield dut.mark_on.eq(mk)
            yield
            if seen:  # (the first cycle's masks are of the registers' reset values)
                assert (yield dut.pad) == (yield dut.want_pad), seen[-1]
                assert (yield dut.mark) == (yield dut.want_mark), seen[-1]
            seen.append((cnt, on, mk))

    run_simulation(dut, gen())
    assert len(seen) == len(cases)
