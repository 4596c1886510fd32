# SPDX-License-Identifier: BSD-2-Clause
"""Hardware padding (`ctrl.pad`) and the batch walker, on the whole peripheral in Migen's
simulator: a real engine behind it, main RAM as a Wishbone slave with random latency, the CSRs
driven as the CSR bank drives them. References: hashlib (the digests), soc/REGISTERS.md and
soc/peripheral/batch.py's descriptor format (written here from the documentation).

- pad jobs: every length 0..3 blocks + a few (every padding case: the 0x80 and the length in
  the same block, in the next one, a message ending on a block boundary, the empty message),
  garbage after the message in memory, every row width (32-bit bus, 64-bit HP port, 512-bit
  wide port), SHA-1 / SHA-256 (two slots) / SHA-512 and their variants;
- Skein-512 pad jobs (zero padding, the final tweak from the length, the output block; pyskein
  the reference) at every block boundary and the empty message, every output-size variant;
- batches: random messages on engines of one and two slots (and Skein's six-slot ring), the chaining
  values written in place (and nothing around them), progress, one event per batch; a bad descriptor
  stops the batch with err_desc after the messages before it; a ctrl job start during a batch and a
  batch start while a slot is busy are refused with err_state; the peripheral is usable after.
"""

import hashlib
import random

import pytest
import skein
from litedigest.soc.peripheral.batch import DESC_BYTES, out_address_ok, out_align
from litedigest.soc.sim import peripheral_bench as bench
from litedigest.soc.sim.peripheral_bench import RAM_BASE, RAM_SIZE, Bench, place
from migen import Module, Signal
from migen.sim import run_simulation
from vectors import padding_lengths

HASHES = {
    "sha1": hashlib.sha1,
    "sha256": hashlib.sha256,
    "sha224": hashlib.sha224,
    "sha512": hashlib.sha512,
    "sha384": hashlib.sha384,
    "sha512_224": lambda m: hashlib.new("sha512_224", m),
    "sha512_256": lambda m: hashlib.new("sha512_256", m),
}
# Skein-512 with an output size (the engine's variants), pyskein as the reference
HASHES.update(
    {
        f"skein512-{n}": (lambda m, n=n: skein.skein512(m, digest_bits=n))
        for n in (128, 160, 224, 256, 384, 512)
    }
)


def usable_variants(b):
    """The engine's variants that are a hash (not Skein's zero chaining value)."""
    return [(n, c) for n, c in b.engine.variants.items() if n in HASHES or not b.p.has_tweak]


def alg_of(spec, variant_name):
    return variant_name if variant_name in HASHES else spec.family


# DMA rows a block: 1 (the masks formed as they load), 2 (a cycle ahead), 4 or more (their
# inputs registered first, then a cycle ahead)
PAD_CASES = [
    ("sha256:base", 512),
    ("sha256:base", 256),
    ("sha256:base", 32),
    ("sha1:base", 64),
    ("sha512:base", 64),
    ("sha256:base:p2", 512),
    ("skein512:r8", 512),
    ("skein512:r8", 32),
    ("skein512:r8:fp2:sp3", 64),
]


def run_pad_jobs(b, addr_of):
    """Pad jobs of every padding case on Bench `b` (one after the other, slot by slot, the
    variants in turn), message i at `addr_of(i)`; returns the jobs that went wrong."""
    bs = b.engine.block_bits // 8
    lb = bs // 8  # the length field's bytes
    # the padding cases (padding_lengths), more partial words, one more length whose length
    # field goes to the next block (bs - lb + 1), three blocks and a random length
    lengths = sorted(
        padding_lengths(bs) | {1, 4, 5, bs - lb + 1, 3 * bs - 1, b.rng.randrange(4 * bs)}
    )
    variants = usable_variants(b)
    out = {"out": 1} if b.p.has_tweak else {}  # Skein: the output block ends the job
    bad = []

    def gen():
        for i, n in enumerate(lengths):
            name, code = variants[i % len(variants)]
            alg = name if name in HASHES else b.spec.family
            slot = i % b.engine.slots
            addr = addr_of(i)
            msg = b.rng.randbytes(n)
            place(b.ram, addr, msg)
            yield from b.write(b.p.dma_base, addr)
            yield from b.write(b.p.dma_length, n)
            yield from b.ctrl(dma_start=1, pad=1, first=1, last=1, variant=code, slot=slot, **out)
            yield from b.wait(lambda slot=slot: (yield b.p.slots_done.status) >> slot & 1)
            st = yield b.p.status.status
            want = HASHES[alg](msg).digest()
            got = yield from b.digest(slot, len(want))
            if got != want or st & 0x3C:
                bad.append((n, alg, hex(addr), st))
            yield from b.write(b.p.slots_ack, 1 << slot)
            yield from b.ctrl(ack=1)

    b.run(gen)
    assert b.done_events == len(lengths)  # a `done` event (interrupt) per job
    return bad


@pytest.mark.parametrize("spec,width", PAD_CASES)
def test_pad_jobs(spec, width):
    b = Bench(spec, width, seed=hash((spec, width)) & 0xFFFF)
    assert run_pad_jobs(b, lambda i: RAM_BASE + 0x1000 + 0x40 * b.rng.randrange(8)) == []


def test_pad_refusals():
    """pad with a tail, without first, with start: err_state; a message past main RAM's end:
    err_addr; nothing runs, and a good job after them hashes right."""
    b = Bench("sha256:base", 512, seed=5)
    res = []

    def gen():
        addr = RAM_BASE + 0x2000
        msg = b"abc"
        place(b.ram, addr, msg)
        for kw, length, base in [
            (dict(tail=1, first=1), 3, addr),
            (dict(first=0), 3, addr),
            (dict(first=1), 0x100, RAM_BASE + RAM_SIZE - 0x40),
            (dict(first=1), 3, addr + 4),
        ]:
            yield from b.write(b.p.dma_base, base)
            yield from b.write(b.p.dma_length, length)
            yield from b.ctrl(dma_start=1, pad=1, last=1, **kw)
            yield
            res.append(
                (
                    (yield from b.field(b.p.status, "err_state")),
                    (yield from b.field(b.p.status, "err_addr")),
                    (yield b.p.slots_busy.status),
                )
            )
            yield from b.ctrl(ack=1)
        yield from b.write(b.p.dma_base, addr)
        yield from b.write(b.p.dma_length, 3)
        yield from b.ctrl(dma_start=1, pad=1, first=1, last=1)
        yield from b.wait(lambda: (yield b.p.slots_done.status) & 1)
        res.append((yield from b.digest(0, 32)))

    b.run(gen)
    assert res[:4] == [(1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0)]
    assert res[4] == hashlib.sha256(b"abc").digest()


def write_batch(b, msgs, table, outs, variants):
    """peripheral_bench.write_batch, the messages' algorithms named as HASHES names them."""
    info = bench.write_batch(b, msgs, table, outs, variants)
    return [(alg if alg in HASHES else b.spec.family, out) for alg, out in info]


@pytest.mark.parametrize(
    "spec,width,count",
    [
        ("sha256:base", 512, 6),
        ("sha256:base", 512, 1),
        ("sha1:base", 64, 0),
        ("sha256:base:p2", 512, 9),
        ("sha1:base", 64, 5),
        ("sha512:base", 32, 3),
        ("skein512:r8", 64, 5),
        ("skein512:r8:fp2:sp3", 512, 9),
    ],
)
def test_batch(spec, width, count):
    b = Bench(spec, width, seed=count)
    A = out_align(b.engine.digest_bits)
    cvb = b.engine.digest_bits // 8
    vs = usable_variants(b)
    msgs = [
        b.rng.randbytes(b.rng.choice([0, 1, 55, 56, 64, b.rng.randrange(300)]))
        for _ in range(count)
    ]
    variants = [vs[b.rng.randrange(len(vs))] for _ in msgs]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    info = write_batch(b, msgs, table, outs, variants)
    before = bytes(b.ram.mem)
    res = {}

    def gen():
        yield from b.batch(table, count)
        res["status"] = yield b.p.batch_status.status
        res["progress"] = yield b.p.batch_progress.status
        for _ in range(5):
            yield
        yield from b.ctrl(ack=1)
        yield
        res["after_ack"] = yield b.p.batch_status.status
        res["slots_done"] = yield b.p.slots_done.status

    b.run(gen)
    # one interrupt for the whole batch: its jobs raise no `done` event
    assert res["status"] == 0b10 and res["progress"] == count and b.events == 1
    assert b.done_events == 0
    assert res["after_ack"] == 0 and res["slots_done"] == 0
    mem = b.ram.mem
    for msg, (alg, out) in zip(msgs, info):
        o = out - RAM_BASE
        want = HASHES[alg](msg).digest()
        assert bytes(mem[o : o + len(want)]) == want, (alg, len(msg))
        # the rest of the chaining value is written, nothing past it
        assert bytes(mem[o + cvb : o + A]) == before[o + cvb : o + A]
    # nothing else in memory changed
    changed = [i for i in range(RAM_SIZE) if mem[i] != before[i]]
    spans = [(out - RAM_BASE, out - RAM_BASE + cvb) for _, out in info]
    assert all(any(a <= i < e for a, e in spans) for i in changed)


def test_batch_rereads_a_rewritten_table():
    """The walker keeps the last descriptor row it read (four 16-byte descriptors to a 512-bit
    row): a second batch from the same table address, rewritten in between, must be read
    again, not served from that row."""
    b = Bench("sha256:base", 512, seed=11)
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    first = [b"alpha", b"beta", b"gamma"]
    second = [b"delta", b"epsilon", b"zeta"]
    got = []

    def run_batch(msgs):
        write_batch(b, msgs, table, outs, [("sha256", 0)] * len(msgs))
        yield from b.batch(table, len(msgs))
        got.append(
            [
                bytes(b.ram.mem[outs - RAM_BASE + 32 * i : outs - RAM_BASE + 32 * i + 32])
                for i in range(len(msgs))
            ]
        )
        yield from b.ctrl(ack=1)

    def gen():
        yield from run_batch(first)
        yield from run_batch(second)

    b.run(gen)
    assert got == [
        [hashlib.sha256(m).digest() for m in first],
        [hashlib.sha256(m).digest() for m in second],
    ]


@pytest.mark.parametrize(
    "ram_base,ram_size,align",
    [
        (0x40000000, 0x10000, 64),  # the ECP5 SoC's main RAM, a SHA-512 output
        (0x40000000, 0x10000, 32),
        (0x00000000, 0x20000000, 32),  # RAM at 0, 512 MiB
        (0x40001000, 0x3000, 32),  # not a power of two in size, nor on a multiple of it
        (0x10000000, 0x8000, 64),
    ],
)
def test_out_address_check_matches_its_definition(ram_base, ram_size, align):
    """The walker's output-address check (aligned, the chaining value's bytes inside RAM),
    simulated, against its definition: at the RAM's edges, off by one and by the alignment,
    the high bits, and random addresses."""

    class Dut(Module):
        def __init__(self):
            self.out, self.ok = Signal(32), Signal()
            self.comb += self.ok.eq(out_address_ok(self.out, align, ram_base, ram_size))

    end = ram_base + ram_size
    rng = random.Random(ram_base ^ ram_size ^ align)
    probes = {
        0,
        0xFFFFFFFF,
        ram_base,
        end,
        end - align,
        end - align + 1,
        end - 1,
        end + align,
        ram_base - align,
        ram_base + 1,
        ram_base + align // 2,
        (ram_base ^ 0x80000000),
    }
    probes |= {(ram_base + rng.randrange(ram_size)) & ~(align - 1) for _ in range(64)}
    probes |= {rng.getrandbits(32) & ~(align - 1) for _ in range(32)}
    probes |= {rng.getrandbits(32) for _ in range(32)}
    probes = sorted(p & 0xFFFFFFFF for p in probes)
    dut, got = Dut(), []

    def gen():
        for a in probes:
            yield dut.out.eq(a)
            yield
            got.append((yield dut.ok))

    run_simulation(dut, gen())
    want = [int(a % align == 0 and ram_base <= a and a + align <= end) for a in probes]
    assert got == want
    assert 0 < sum(want) < len(want)


def test_batch_bad_descriptor_and_refusals():
    b = Bench("sha256:base", 512, seed=9)
    msgs = [b"one", b"two", b"three", b"four"]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    write_batch(b, msgs, table, outs, [("sha256", 0)] * 4)
    # descriptor 2: a message address that is not row-aligned
    d2 = table - RAM_BASE + 2 * DESC_BYTES
    b.ram.mem[d2 : d2 + 4] = (int.from_bytes(b.ram.mem[d2 : d2 + 4], "little") + 4).to_bytes(
        4, "little"
    )
    res = {}

    def gen():
        yield from b.write(b.p.batch_base, table)
        yield from b.write(b.p.batch_count, 4)
        yield from b.ctrl(batch_start=1)
        # a ctrl job start while the batch runs is refused
        yield from b.write(b.p.dma_base, RAM_BASE + 0x2000)
        yield from b.write(b.p.dma_length, 64)
        yield from b.ctrl(dma_start=1, first=1, last=1, slot=0)
        yield
        res["ctrl_refused"] = yield from b.field(b.p.status, "err_state")
        yield from b.wait(lambda: (yield from b.field(b.p.batch_status, "done")), limit=60000)
        res["status"] = yield b.p.batch_status.status
        res["progress"] = yield b.p.batch_progress.status
        yield from b.ctrl(ack=1)
        # a batch start while a slot is busy: refused
        yield from b.write(b.p.dma_base, RAM_BASE + 0x2000)
        yield from b.write(b.p.dma_length, 64 * 20)
        yield from b.ctrl(dma_start=1, first=1, last=1, slot=0)
        yield from b.ctrl(batch_start=1)
        yield
        res["busy_start"] = yield b.p.batch_status.status
        yield from b.wait(lambda: (yield b.p.slots_done.status) & 1)
        yield from b.write(b.p.slots_ack, 1)
        yield from b.ctrl(ack=1)
        # and a good batch after all that
        yield from b.write(b.p.batch_count, 2)
        yield from b.ctrl(batch_start=1)
        yield from b.wait(lambda: (yield from b.field(b.p.batch_status, "done")), limit=60000)
        st = yield b.p.batch_status.status
        res["again"] = (st, (yield b.p.batch_progress.status))

    b.run(gen)
    assert res["ctrl_refused"] == 1
    assert res["status"] == 0b110 and res["progress"] == 2  # done + err_desc
    assert res["busy_start"] == 0b10010  # done + err_state
    assert res["again"] == (0b10, 2)
    o = outs - RAM_BASE
    assert bytes(b.ram.mem[o : o + 32]) == hashlib.sha256(b"one").digest()
    assert bytes(b.ram.mem[o + 32 : o + 64]) == hashlib.sha256(b"two").digest()


@pytest.mark.parametrize("spec", ["sha256:base", "sha256:base:p2", "skein512:r1"])
def test_slots_ack_clears_done_on_every_peripheral(spec):
    """`slots_ack` clears the slots_done bits it names, and only those, on a SHA peripheral
    (where the batch walker also acknowledges slots) and on a Skein one (no walker): the
    wiring of the walker once left Skein's acknowledgements undriven, so a scheduler's second
    run saw its slots done at once and read wrong digests."""
    b = Bench(spec, 512, seed=3)
    n = b.engine.slots
    res = {}

    def gen():
        for s in range(n):
            yield from b.write(b.p.dma_base, RAM_BASE + 0x1000)
            yield from b.write(b.p.dma_length, 64)
            yield from b.ctrl(dma_start=1, first=1, last=1, slot=s)
        yield from b.wait(lambda: (yield b.p.slots_done.status) == (1 << n) - 1)
        yield from b.write(b.p.slots_ack, 1)
        yield
        res["after_one"] = yield b.p.slots_done.status
        yield from b.write(b.p.slots_ack, (1 << n) - 1)
        yield
        res["after_all"] = yield b.p.slots_done.status

    b.run(gen)
    assert res == {"after_one": ((1 << n) - 1) & ~1, "after_all": 0}


@pytest.mark.parametrize("spec,width", [("sha256:base", 512), ("sha1:base", 64)])
@pytest.mark.parametrize("fail", ["output", "descriptor"])
def test_one_slot_batch_bus_error_keeps_the_first_outputs(spec, width, fail):
    """A one-slot walker starts the next message before it writes the last one's chaining
    value and reads descriptors ahead: after a bus error on an output write or a descriptor
    read the batch still ends with `err_bus`, and the outputs written are exactly the table's
    first `batch_progress` entries (those of later messages are dropped, not written)."""
    b = Bench(spec, width, seed=21)
    A = out_align(b.engine.digest_bits)
    name = b.spec.algorithm
    msgs = [b.rng.randbytes(b.rng.randrange(1, 140)) for _ in range(6)]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    info = write_batch(b, msgs, table, outs, [(name, b.engine.variants.get(name, 0))] * 6)
    # the failing access: message 2's output row, or the row of descriptor 4 (with 512-bit
    # rows the first of its row, with 64-bit rows its first half)
    n = 2 if fail == "output" else 4
    row = b.ram.row_bytes
    addr = info[n][1] if fail == "output" else table + n * DESC_BYTES
    b.ram.failing.add(addr // row * row)
    before = bytes(b.ram.mem)
    res = {}

    def gen():
        yield from b.batch(table, len(msgs))
        res["err_bus"] = yield from b.field(b.p.batch_status, "err_bus")
        res["progress"] = yield b.p.batch_progress.status

    b.run(gen)
    assert res["err_bus"] == 1 and res["progress"] == n, res
    mem = b.ram.mem
    for i, (msg, (_, out)) in enumerate(zip(msgs, info)):
        o = out - RAM_BASE
        if i < n:
            assert bytes(mem[o : o + 16]) == hashlib.new(name, msg).digest()[:16], i
        else:
            assert bytes(mem[o : o + A]) == before[o : o + A], i  # not written


def own_key(k):
    """Descriptor word 3 on a MAC peripheral: own_key (bit 7) and key slot k (bits 6:4)."""
    return 0x80 | k << 4


@pytest.mark.parametrize("spec,width", [("hmac-sha256:opt", 512), ("hmac-sha256:opt:p4", 64)])
def test_mac_batch_keys_per_descriptor(spec, width):
    """A MAC batch whose descriptors name their key slots (own_key), mixed with descriptors that
    take the batch's key (the ctrl write's, slot 2 here): every MAC is Python's hmac under its
    own key. Then a descriptor naming a key slot without states (3) and one out of range (bits
    6:4 = 5) each end their batch with err_desc after the messages before them; a descriptor
    with bits set past own_key is refused the same way."""
    import hmac as pyhmac

    b = Bench(spec, width, seed=11)
    keys = [b.rng.randbytes(n) for n in (32, 20, 64)]  # key slots 0, 1, 2
    count = 12
    msgs = [
        b.rng.randbytes(b.rng.choice([0, 1, 55, 64, b.rng.randrange(300)])) for _ in range(count)
    ]
    which = [b.rng.choice([0, 1, 2, None]) for _ in msgs]  # None: the batch's key (slot 2)
    codes = [("sha256", 0 if k is None else own_key(k)) for k in which]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    info = write_batch(b, msgs, table, outs, codes)
    bad_tables = {}
    for name, code in (("no_states", own_key(3)), ("out_of_range", own_key(5)), ("bits", 0x100)):
        t = RAM_BASE + 0x1000 + 0x400 * len(bad_tables)
        o = RAM_BASE + 0x7000 + 0x100 * len(bad_tables)
        bad_tables[name] = (t, o)
        write_batch(b, [b"first", b"second"], t, o, [("sha256", own_key(0)), ("sha256", code)])
    res = {}

    def gen():
        for k, key in enumerate(keys):
            yield from bench.set_mac_key(b, k, key)
        yield from b.write(b.p.batch_base, table)
        yield from b.write(b.p.batch_count, count)
        yield from b.ctrl(batch_start=1, key=2)
        yield from b.wait(lambda: (yield from b.field(b.p.batch_status, "done")), limit=60000)
        res["status"] = yield b.p.batch_status.status
        res["progress"] = yield b.p.batch_progress.status
        yield from b.ctrl(ack=1)
        for name, (t, _) in bad_tables.items():
            yield from b.write(b.p.batch_base, t)
            yield from b.write(b.p.batch_count, 2)
            yield from b.ctrl(batch_start=1, key=0)
            yield from b.wait(lambda: (yield from b.field(b.p.batch_status, "done")), limit=60000)
            res[name] = ((yield b.p.batch_status.status), (yield b.p.batch_progress.status))
            yield from b.ctrl(ack=1)

    b.run(gen)
    assert res["status"] == 0b10 and res["progress"] == count, res
    mem = b.ram.mem
    for msg, k, (_, out) in zip(msgs, which, info):
        o = out - RAM_BASE
        want = pyhmac.new(keys[2 if k is None else k], msg, "sha256").digest()
        assert bytes(mem[o : o + 32]) == want, (k, len(msg))
    for name, (_, o) in bad_tables.items():
        assert res[name] == (0b110, 1), (name, res[name])  # done + err_desc, the first written
        o -= RAM_BASE
        assert bytes(mem[o : o + 32]) == pyhmac.new(keys[0], b"first", "sha256").digest()
