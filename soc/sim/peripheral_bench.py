# SPDX-License-Identifier: BSD-2-Clause
"""The hash peripheral alone in Migen's simulator: a real engine behind it, main RAM as a
Wishbone slave, the CSRs driven as LiteX's CSR bank drives them. The peripheral tests
(tests/peripheral) and the batch walker's profile (`walker_profile`, `litedigest bench
--backend rtl --batch`) run on it.

The profile says where a batch message's cycles go: per cycle it samples whether the engine
has a block in flight and the walker's state, and sums the cycles of each phase. A cycle the
engine works is the engine's, whatever the walker does in it; the other phases are the cycles
the engine waits for:

- ``engine``: the engine has a block in flight;
- ``descriptor``: reading a descriptor row (READ);
- ``issue``: requesting the job and taking SlotControl's answer (ISSUE, ISSUED);
- ``digest``: writing a chaining value (WRITE);
- ``fetch``: a job of the batch runs but the engine has no block: the DMA reader fetches;
- ``other``: the rest (the walker deciding, the start and the end of the batch).
"""

import random

from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc.peripheral.batch import DESC_BYTES, out_align
from litedigest.soc.peripheral.core import HashPeripheral
from litedigest.soc.peripheral.engine_domain import EngineInClockDomain
from litedigest.soc.sim import migen_compiled, migen_widths
from litex.soc.interconnect.csr import CSRStatus, CSRStorage
from migen import ClockDomain, Module
from migen.sim import passive, run_simulation

RAM_BASE, RAM_SIZE = 0x40000000, 0x8000
PHASES = ("descriptor", "issue", "engine", "fetch", "digest", "other")


class Ram:
    """Main RAM behind the peripheral's DMA bus: rows of `row_bytes`, writes by byte lane
    (`sel`). Before each ack it waits a random 0..3 cycles (`rng`), or `wait` cycles. An
    access to a row whose bus address is in `failing` ends with `err` instead (nothing
    written, nothing read)."""

    def __init__(self, row_bytes, rng, wait=None):
        self.mem = bytearray(rng.randbytes(RAM_SIZE))
        self.row_bytes, self.rng, self.wait = row_bytes, rng, wait
        self.reads = self.writes = 0
        self.failing = set()

    def row(self, adr):
        off = adr * self.row_bytes - RAM_BASE
        assert 0 <= off < RAM_SIZE, hex(adr * self.row_bytes)
        return off

    @passive
    def serve(self, bus):
        while True:
            yield bus.ack.eq(0)
            yield bus.err.eq(0)
            yield
            if (yield bus.cyc) and (yield bus.stb):
                for _ in range(self.rng.randrange(4) if self.wait is None else self.wait):
                    yield
                off = self.row((yield bus.adr))
                if off + RAM_BASE in self.failing:  # (off: a row's, RAM_BASE row-aligned)
                    yield bus.err.eq(1)
                    yield
                    continue
                if (yield bus.we):
                    sel, dat = (yield bus.sel), (yield bus.dat_w)
                    for k in range(self.row_bytes):
                        if sel >> k & 1:
                            self.mem[off + k] = dat >> (8 * k) & 0xFF
                    self.writes += 1
                else:
                    yield bus.dat_r.eq(
                        int.from_bytes(self.mem[off : off + self.row_bytes], "little")
                    )
                    self.reads += 1
                yield bus.ack.eq(1)
                yield


class Bench:
    """The peripheral of `spec` with a `dma_width`-bit DMA bus on a Ram; `engine_period`: the
    engine in a clock domain of its own (EngineInClockDomain) with this clock period (sys: 10);
    `ram_wait`: the RAM's cycles before an ack (None: random 0..3)."""

    watchers = ()  # extra passive processes (walker_profile's sampler)

    def __init__(self, spec, dma_width, seed, engine_period=None, ram_wait=None):
        self.spec = specmod.parse(spec)
        self.engine = make_engine(self.spec)
        self.clocks = {"sys": 10}
        if engine_period is not None:
            self.engine = EngineInClockDomain(self.engine, "engine")
            self.clocks["engine"] = engine_period
        self.p = HashPeripheral(self.engine, RAM_BASE, RAM_SIZE, dma_width=dma_width)
        self.rng = random.Random(seed)
        self.ram = Ram(dma_width // 8, self.rng, ram_wait)
        self.events = 0  # `batch` events
        self.done_events = 0  # `done` events
        self.cycles = 0

    # --- the CSR bank's side: a write sets storage, `re` pulses with it
    def write(self, csr, value):
        yield csr.storage.eq(value)
        yield csr.re.eq(1)
        yield
        yield csr.re.eq(0)

    def field(self, csr, name):
        f = next(f for f in csr.fields.fields if f.name == name)
        return ((yield csr.status) >> f.offset) & ((1 << f.size) - 1)

    def ctrl(self, **kw):
        fields = {f.name: f for f in self.p.ctrl.fields.fields}
        v = 0
        for k, x in kw.items():
            v |= int(x) << fields[k].offset
        yield from self.write(self.p.ctrl, v)

    def batch(self, table, count, limit=60000):
        """Start a batch of `count` descriptors at `table` and wait for `batch_status.done`."""
        yield from self.write(self.p.batch_base, table)
        yield from self.write(self.p.batch_count, count)
        yield from self.ctrl(batch_start=1)
        yield from self.wait(lambda: (yield from self.field(self.p.batch_status, "done")), limit)

    def wait(self, cond, limit=20000):
        for _ in range(limit):
            if (yield from cond()):
                return
            yield
        raise AssertionError("timeout")

    @passive
    def count_events(self):
        ev = self.p.ev.batch
        while True:
            if (yield ev.trigger):
                self.events += 1
            if (yield self.p.ev.done.trigger):
                self.done_events += 1
            assert (yield self.p.batch.busy) != (yield self.walker_idle), "walker busy != ~IDLE"
            yield

    def digest(self, slot, n):
        yield from self.write(self.p.digest_sel, slot)
        yield
        v = yield self.p.digest.status
        nbits = len(self.p.digest.status)
        return v.to_bytes(nbits // 8, "big")[:n]

    def memories(self):
        """The processes that serve the peripheral's buses."""
        return [self.ram.serve(self.p.bus)]

    def run(self, gen):
        # the walker's `busy` is a flip-flop of its own: it must say what its FSM's state says
        # (count_events checks it every cycle)
        self.walker_idle = self.p.batch.fsm.ongoing("IDLE")
        # without a CSR bank the registers' own logic (their fields) is not part of the
        # peripheral's fragment: add it, and drive storage/re as the bank would
        top = Module()
        top.submodules.p = self.p
        for name in self.clocks:
            if name != "sys":
                setattr(top.clock_domains, f"cd_{name}", ClockDomain(name))
        for csr in self.p.get_csrs():
            if isinstance(csr, (CSRStorage, CSRStatus)):
                top.comb += csr._fragment.comb
        procs = [gen(), *self.memories(), self.count_events(), *self.watchers]
        # Migen's simulator with widths computed once and statements compiled (cycle for cycle
        # the same: tests/engines/test_migen_compiled.py)
        migen_widths.install()
        migen_compiled.install()
        run_simulation(top, procs, clocks=self.clocks)


def place(ram, addr, msg):
    """`msg` into `ram` at bus address `addr`."""
    ram.mem[addr - RAM_BASE : addr - RAM_BASE + len(msg)] = msg


def write_batch(b, msgs, table, outs, variants):
    """Descriptors for `msgs` at `table` (messages placed after it, row-aligned, outputs at
    `outs`); `variants`: (name, code) per message. Returns the messages' (name, out address)."""
    row = b.ram.row_bytes
    align = max(row, 64)
    addr = table + DESC_BYTES * len(msgs)
    addr = -(-addr // align) * align
    desc = bytearray()
    info = []
    A = out_align(b.engine.digest_bits)
    for i, msg in enumerate(msgs):
        name, code = variants[i]
        place(b.ram, addr, msg)
        out = outs + i * A
        desc += addr.to_bytes(4, "little") + len(msg).to_bytes(4, "little")
        desc += out.to_bytes(4, "little") + code.to_bytes(4, "little")
        info.append((name, out))
        addr += -(-max(len(msg), 1) // align) * align
    place(b.ram, table, bytes(desc))
    return info


def set_mac_key(b, slot, key):
    """Key slot `slot` of a MAC peripheral gets `key` (at most a block: K0 is it zero-padded,
    RFC 2104), as ld_hw_mac_set_key sets it: K0's words through din, a `start` with
    `key_init`, the wait for `keys_valid`, then `ack`."""
    block = b.spec.block_size
    assert len(key) <= block, "a longer key is hashed first (the C driver's work)"
    k0 = key.ljust(block, b"\0")
    for i in range(0, block, 4):
        yield from b.write(b.p.din, int.from_bytes(k0[i : i + 4], "big"))
    yield from b.ctrl(start=1, first=1, last=1, key_init=1, key=slot)
    yield from b.wait(lambda: (yield b.p.keys_valid.status) >> slot & 1, 1000)
    yield from b.ctrl(ack=1)
    yield from b.write(b.p.slots_ack, (1 << b.engine.slots) - 1)


def walker_profile(spec, nbytes=64, count=32, dma_width=128, ram_wait=1, seed=1):
    """A batch of `count` random messages of `nbytes` through the walker of `spec`'s
    peripheral (a `dma_width`-bit bus, the RAM acking after `ram_wait` cycles): every digest
    checked against hashlib (a MAC engine's: Python's hmac, under a key set in key slot 0
    before the batch, outside its cycles); returns {engine, bytes, messages, cycles,
    cycles_per_message, engine_limit (the padded message's blocks x the interval of the
    engine, or of a MAC engine's inner core, whose outer core works in parallel), phases:
    {phase: cycles per message}}."""
    import hashlib
    import hmac

    b = Bench(spec, dma_width, seed, ram_wait=ram_wait)
    walker, eng = b.p.batch, b.engine
    states = {s: walker.fsm.ongoing(s) for s in ("READ", "ISSUE", "ISSUED", "WRITE")}
    tally = dict.fromkeys(PHASES, 0)
    running = {"on": False}

    @passive
    def sample():
        in_flight = 0
        while True:
            if (yield eng.sink.valid) and (yield eng.sink.ready):
                in_flight += 1
            if (yield eng.source.valid) and (yield eng.source.ready):
                in_flight -= 1
            if running["on"]:
                if in_flight > 0:
                    tally["engine"] += 1
                elif (yield states["READ"]):
                    tally["descriptor"] += 1
                elif (yield states["ISSUE"]) or (yield states["ISSUED"]):
                    tally["issue"] += 1
                elif (yield states["WRITE"]):
                    tally["digest"] += 1
                elif (yield walker.busy) and (yield b.p.slots_busy.status):
                    tally["fetch"] += 1
                else:
                    tally["other"] += 1
            yield

    b.watchers = [sample()]
    mac = b.spec.mac
    key = b.rng.randbytes(32) if mac else None
    msgs = [b.rng.randbytes(nbytes) for _ in range(count)]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    name = b.spec.algorithm if not mac else b.spec.hash_family
    code = b.engine.variants.get(b.spec.algorithm, 0)
    info = write_batch(b, msgs, table, outs, [(name, code)] * count)
    res = {}

    def gen():
        if mac:
            yield from set_mac_key(b, 0, key)
        yield from b.write(b.p.batch_base, table)
        yield from b.write(b.p.batch_count, count)
        running["on"] = True
        yield from b.ctrl(batch_start=1, **({"key": 0} if mac else {}))
        n = 1
        while not (yield from b.field(b.p.batch_status, "done")):
            n += 1
            assert n < 100000 * count, "the batch did not end"
            yield
        running["on"] = False
        res["cycles"] = n
        res["progress"] = yield b.p.batch_progress.status

    b.run(gen)
    assert res["progress"] == count, res
    size = len(hashlib.new(name).digest())
    for msg, (_, out) in zip(msgs, info):
        o = out - RAM_BASE
        want = hmac.new(key, msg, name).digest() if mac else hashlib.new(name, msg).digest()
        assert bytes(b.ram.mem[o : o + size]) == want, (spec, len(msg))
    block = b.spec.block_size
    blocks = -(-(nbytes + 1 + block // 8) // block)  # the padded message's blocks
    # (a MAC engine: the inner hash's, its key block stored; the outer core in parallel)
    interval = float(eng.interval)
    return {
        "engine": str(spec),
        "bytes": nbytes,
        "messages": count,
        "cycles": res["cycles"],
        "cycles_per_message": round(res["cycles"] / count, 1),
        "engine_limit": round(blocks * interval, 1),
        "phases": {k: round(v / count, 1) for k, v in tally.items()},
    }
