# SPDX-License-Identifier: BSD-2-Clause
"""The AXI burst reader (soc/peripheral/axi_reader.py) in a whole peripheral
(HashPeripheral with axi=True) on the AXI4 DDR model (soc/sim/axi_ddr.py: first-beat
latency, random ARREADY and RVALID gaps, protocol checks by assertion), in Migen's
simulator; the batch walker's bus on a Wishbone model of the same memory (the batch through
the AXI port: test_target_pynq_z2.py). References: hashlib, and the Wishbone peripheral
(DMAReader) for the jobs hashlib cannot check alone (Skein tweaks, tails, load_cv).

- pad jobs of every padding case on SHA-1 / SHA-256 (one and two slots) / SHA-512 / Skein-512
  (zero padding, the output block; six slots), messages
  placed across 4 KiB boundaries (a block's burst split in two);
- the same random jobs (tails, load_cv, Skein's tweaks and output block) on the AXI and the
  Wishbone peripheral: the same digests and status;
- the DDR model's checks catch a burst crossing 4 KiB and a wrong ARSIZE.
"""

import random

import pytest
from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc.peripheral.core import HashPeripheral
from litedigest.soc.sim.axi_ddr import AXIDDR, AXIProtocolError
from litedigest.soc.sim.peripheral_bench import RAM_BASE, RAM_SIZE, Bench, Ram
from litex.soc.interconnect.axi import AXIInterface
from migen import Module, Signal
from migen.sim import run_simulation
from test_peripheral_batch import run_pad_jobs


class AXIBench(Bench):
    """Bench (test_peripheral_batch) with the peripheral's DMA on AXI: its reads on AXIDDR,
    the walker's bus on the Wishbone Ram, both over the same bytes."""

    def __init__(self, spec, seed, **ddr):
        self.spec = specmod.parse(spec)
        self.engine = make_engine(self.spec)
        self.p = HashPeripheral(self.engine, RAM_BASE, RAM_SIZE, dma_width=64, axi=True)
        self.rng = random.Random(seed)
        self.ram = Ram(8, self.rng)
        self.events = self.done_events = self.cycles = 0
        self.clocks = {"sys": 10}  # (Bench.run's clock domains: the engine in sys)
        self.ddr = AXIDDR(self.p.axi, self.ram.mem, RAM_BASE, seed=seed, **ddr)

    def memories(self):
        return [self.ddr.process()] + (
            [self.ram.serve(self.p.bus)] if self.p.bus is not None else []
        )


@pytest.mark.parametrize(
    "spec", ["sha256:base", "sha1:base", "sha512:base", "sha256:base:p2", "skein512:r8:fp2:sp3"]
)
def test_axi_pad_jobs(spec):
    b = AXIBench(spec, seed=len(spec), latency=30, ar_ready=0.6, r_gap=0.3)
    bs = b.engine.block_bits // 8
    # 8-byte aligned, a few rows before a 4 KiB boundary: blocks straddle it
    bad = run_pad_jobs(
        b, lambda i: RAM_BASE + 0x1000 * (1 + i % 6) - 8 * b.rng.randrange(1, 2 * bs // 8)
    )
    assert bad == []
    rows = bs // 8
    assert all(1 <= beats <= rows for _, beats in b.ddr.ar_log)
    # blocks split at a 4 KiB boundary: bursts ending on one, shorter than a block
    assert any(beats < rows and (a + 8 * beats) % 4096 == 0 for a, beats in b.ddr.ar_log)
    assert b.ddr.stats["max_in_flight"] >= 2


def _random_jobs(rng, engine, n):
    """n random non-pad jobs: (slot, segments, flags, cv, tweak, final bytes)."""
    bs = engine.block_bits // 8
    skein = engine.family == "skein512"
    jobs = []
    for i in range(n):
        nb, nt = rng.randrange(1, 4), rng.choice([0, 0, 1, 2])
        base = RAM_BASE + 8 * rng.randrange(0x6000 // 8)
        tail = RAM_BASE + 8 * rng.randrange(0x6000 // 8)
        first = rng.random() < 0.6
        # (one load_cv job a round: a second one waits for the first one's cv, refused)
        flags = dict(
            first=int(first),
            last=rng.getrandbits(1),
            load_cv=int(not first and i % engine.slots == 0 and rng.random() < 0.7),
            tail=int(nt > 0),
            variant=rng.randrange(len(engine.variants)),
        )
        if skein:
            flags["out"] = int(rng.random() < 0.5)
        jobs.append(
            dict(
                slot=i % engine.slots,
                base=base,
                length=nb * bs,
                tail_base=tail,
                tail_length=nt * bs,
                flags=flags,
                cv=rng.getrandbits(engine.digest_bits),
                tweak=rng.getrandbits(128) & ~(1 << 127 | 1 << 126) | rng.getrandbits(2) << 126,
                final_bytes=rng.randrange(65),
            )
        )
    return jobs


def _run_jobs(b, jobs):
    """Run the jobs one slot round at a time (a round's jobs released together with `hold`)."""
    res = []
    nbytes = b.engine.digest_bits // 8

    def gen():
        for k in range(0, len(jobs), b.engine.slots):
            rnd = jobs[k : k + b.engine.slots]
            for j in rnd:
                yield from b.write(b.p.dma_base, j["base"])
                yield from b.write(b.p.dma_length, j["length"])
                yield from b.write(b.p.tail_base, j["tail_base"])
                yield from b.write(b.p.tail_length, j["tail_length"])
                yield from b.write(b.p.cv, j["cv"])
                if b.p.has_tweak:
                    yield from b.write(b.p.tweak, j["tweak"])
                    yield from b.write(b.p.final_bytes, j["final_bytes"])
                yield from b.ctrl(dma_start=1, hold=1, slot=j["slot"], **j["flags"])
            yield from b.ctrl()
            mask = sum(1 << j["slot"] for j in rnd)
            yield from b.wait(lambda mask=mask: (yield b.p.slots_done.status) & mask == mask)
            st = yield b.p.status.status
            for j in rnd:
                res.append(((yield from b.digest(j["slot"], nbytes)), st))
            yield from b.write(b.p.slots_ack, mask)
            yield from b.ctrl(ack=1)

    b.run(gen)
    return res


@pytest.mark.parametrize("spec", ["skein512:r1", "sha256:base:p2"])
def test_axi_reader_matches_the_wishbone_reader(spec):
    """Random jobs with tails, load_cv, Skein tweaks and output blocks: the AXI peripheral's
    digests and status are the Wishbone one's (whose reader test_peripheral_parts checks)."""
    engine = make_engine(specmod.parse(spec))
    jobs = _random_jobs(random.Random(spec), engine, 8)
    axi = AXIBench(spec, seed=3, latency=30, ar_ready=0.5, r_gap=0.3)
    wb = Bench(spec, 64, seed=3)
    wb.ram.mem[:] = axi.ram.mem
    got, want = _run_jobs(axi, jobs), _run_jobs(wb, jobs)
    assert [s & 0x3C for _, s in got] == [0] * len(jobs)
    assert got == want


@pytest.mark.parametrize(
    "burst,want", [((0x0FF8, 1, 3), "crosses a 4 KiB boundary"), ((0x1000, 0, 2), "size 2")]
)
def test_ddr_model_checks(burst, want):
    """A master that issues a burst across 4 KiB, or of a narrower size, is stopped."""
    axi = AXIInterface(data_width=64, address_width=32, id_width=1)
    ddr = AXIDDR(axi, bytearray(0x2000), 0, latency=3, seed=1)
    addr, length, size = burst

    def master():
        yield axi.ar.valid.eq(1)
        yield axi.ar.addr.eq(addr)
        yield axi.ar.len.eq(length)
        yield axi.ar.size.eq(size)
        yield axi.ar.burst.eq(1)
        yield axi.ar.cache.eq(0b0011)
        for _ in range(20):
            yield

    m = Module()
    m.s = Signal()
    m.sync += m.s.eq(~m.s)
    with pytest.raises(AXIProtocolError, match=want):
        run_simulation(m, [master(), ddr.process()])
