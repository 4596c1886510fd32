# SPDX-License-Identifier: BSD-2-Clause
"""An engine in a clock domain of its own (soc/peripheral/engine_domain.py) inside the whole
peripheral, in Migen's simulator with two clocks: the engine's slower (the board's case:
sha512:k5, skein512:r8) and faster than sys, clock periods that are not multiples of each other
(the crossing sees every phase). References: hashlib and pyskein (the digests, through
test_peripheral_batch's pad jobs and batches), and the same peripheral with the engine in sys
(random jobs with tails, load_cv, Skein tweaks and output blocks: the same digests and status).
The ECP5 target's `--engine-clock` (the PLL outputs, the domains): test_target_ecp5.py."""

import random

import pytest
from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc.peripheral import add_hash_subsystem
from litedigest.soc.peripheral.engine_domain import EngineInClockDomain
from litedigest.soc.sim.peripheral_bench import RAM_BASE, Bench
from test_axi_reader import _random_jobs, _run_jobs
from test_peripheral_batch import HASHES, run_pad_jobs, usable_variants, write_batch


@pytest.mark.parametrize(
    "spec,width,period",
    [
        ("sha256:base", 64, 27),
        ("sha512:k5", 128, 23),
        ("skein512:r8", 64, 19),
        ("sha256:base:p2", 512, 7),
    ],
)
def test_pad_jobs(spec, width, period):
    """Every padding case, every variant, on an engine clocked slower (27, 23, 19) or faster (7)
    than sys (10)."""
    b = Bench(spec, width, seed=period, engine_period=period)
    assert isinstance(b.engine, EngineInClockDomain)
    assert run_pad_jobs(b, lambda i: RAM_BASE + 0x1000 + 0x80 * b.rng.randrange(8)) == []


@pytest.mark.parametrize(
    "spec,period",
    [("skein512:r1", 31), ("sha256:base:p2", 13), ("sha1:base", 6), ("skein512:r8:fp2", 23)],
)
def test_random_jobs_match_the_engine_in_sys(spec, period):
    """Random jobs with tails, load_cv (the chaining value crosses with its block), Skein's
    tweaks and output blocks: the same digests and status as with the engine in sys."""
    engine = make_engine(specmod.parse(spec))
    jobs = _random_jobs(random.Random(period), engine, 8)
    crossed = Bench(spec, 64, seed=4, engine_period=period)
    plain = Bench(spec, 64, seed=4)
    plain.ram.mem[:] = crossed.ram.mem
    got, want = _run_jobs(crossed, jobs), _run_jobs(plain, jobs)
    assert [s & 0x3C for _, s in got] == [0] * len(jobs)
    assert got == want


@pytest.mark.parametrize("spec", ["sha512:k5", "skein512:r8:fp2"])
def test_batch_on_a_slow_engine(spec):
    """A batch (the walker's descriptors, digests written back) on an engine clocked 2.3 times
    slower than sys; `skein512:r8:fp2` (the four-engine ECP5 image's Skein engine) has two
    slots, and the walker gives each message a free one."""
    b = Bench(spec, 64, seed=9, engine_period=23)
    vs = usable_variants(b)
    msgs = [b.rng.randbytes(n) for n in (0, 111, 112, 128, 300)]
    variants = [vs[i % len(vs)] for i in range(len(msgs))]
    table, outs = RAM_BASE + 0x100, RAM_BASE + 0x6000
    info = write_batch(b, msgs, table, outs, variants)
    res = {}

    def gen():
        yield from b.batch(table, len(msgs))
        res["status"] = yield b.p.batch_status.status

    b.run(gen)
    assert res["status"] == 0b10 and b.events == 1
    for msg, (alg, out) in zip(msgs, info):
        o = out - RAM_BASE
        want = HASHES[alg](msg).digest()
        assert bytes(b.ram.mem[o : o + len(want)]) == want, (alg, len(msg))


def _job_cycles(period, nblocks=6):
    """sys cycles of one DMA pad job of `nblocks` SHA-256 blocks with the engine's clock period
    `period` (None: the engine in sys)."""
    b = Bench("sha256:base", 512, seed=1, engine_period=period)
    n = 64 * nblocks - 9  # the padding fits: nblocks blocks
    b.ram.mem[0x1000 : 0x1000 + n] = bytes(n)
    out = {}

    def gen():
        yield from b.write(b.p.dma_base, RAM_BASE + 0x1000)
        yield from b.write(b.p.dma_length, n)
        yield from b.ctrl(dma_start=1, pad=1, first=1, last=1)
        # the count is read after the loop: the cycles it took
        for cycles in range(100000):  # noqa: B007
            if (yield b.p.slots_done.status) & 1:
                break
            yield
        out["cycles"] = cycles
        out["digest"] = yield from b.digest(0, 32)

    b.run(gen)
    assert out["digest"] == HASHES["sha256"](bytes(n)).digest()
    return out["cycles"]


def test_the_engine_runs_at_its_own_clock():
    """A job's time follows the engine's clock: with the engine's period 4 times sys's, its 6
    blocks of 65 engine cycles take about 4 times as many sys cycles (the crossing adds a few
    cycles per job, not per block: the next block's handshake runs while one is hashed)."""
    sys_cycles, slow = _job_cycles(None), _job_cycles(40)
    assert sys_cycles >= 6 * 65
    assert 3.8 < slow / sys_cycles < 4.3, (sys_cycles, slow)


def test_refusals_and_facts():
    engine = make_engine("sha512:k5")
    with pytest.raises(ValueError, match="other than sys"):
        EngineInClockDomain(engine, "sys")
    with pytest.raises(ValueError, match="MAC engine"):
        EngineInClockDomain(make_engine("hmac-sha256:opt"), "eng")
    wrapped = EngineInClockDomain(engine, "eng")
    for name in ("slots", "block_bits", "digest_bits", "latency", "interval", "variants", "arch"):
        assert getattr(wrapped, name) == getattr(engine, name)
    # the result register holds a block's result besides the engine (the peripheral's count)
    assert wrapped.blocks_per_slot == 2
    assert wrapped.sink.description.payload_layout == engine.sink.description.payload_layout


def test_subsystem_domain_for_an_engine_that_is_not_there():
    """(checked before the SoC is touched)"""
    with pytest.raises(ValueError, match="not one of the engines"):
        add_hash_subsystem(None, ["sha256:base"], engine_domains={"sha512:k5": "eng25"})
