# SPDX-License-Identifier: BSD-2-Clause
"""p-stage pipelined engines (Michail et al. 2016): every stage count of the base and
optimized rounds for SHA-1 and SHA-256, each against the complete NIST CAVP ShortMsg and
LongMsg files and hashlib with random stalls, its latency and interval measured in
Verilator, and the pipeline occupancy with p messages. (The Monte files run on the p1
engines in test_engine.py, as the issue allows.)"""

import hashlib
import random

import pytest
import vectors
from litedigest import spec as specmod
from litedigest.ip.engines import variant_of
from litedigest.ip.rtlsim import Block, RTLSim
from litedigest.measure.scheduler import round_robin
from test_engine import md_pad

STAGES = {
    ("sha256", "base"): (2, 4, 8, 16, 32, 64),
    ("sha1", "base"): (2, 4, 5, 8, 10, 16, 20, 40, 80),
    ("sha256", "opt"): (2, 4, 8, 16, 32),
    ("sha1", "opt"): (2, 4, 5, 8, 10, 20, 40),
}
ROUND_CYCLES = {
    ("sha256", "base"): 64,
    ("sha1", "base"): 80,
    ("sha256", "opt"): 32,
    ("sha1", "opt"): 40,
}
ALGOS_OF = {"sha256": ["sha256", "sha224"], "sha1": ["sha1"]}
SPECS = [f"{fam}:{arch}:p{p}" for (fam, arch), ps in STAGES.items() for p in ps]

_sims = {}


def sim_for(spec):
    if spec not in _sims:
        _sims[spec] = RTLSim(spec, seed=99)
    return _sims[spec]


def blocks_of(sim, msg, algo, slot):
    padded = md_pad(msg)
    n = len(padded) // 64
    return [
        Block(
            sim.words(padded[64 * j : 64 * j + 64]),
            slot=slot,
            first=j == 0,
            last=j == n - 1,
            variant=variant_of(algo),
        )
        for j in range(n)
    ]


def schedule(sim, jobs):
    """The package's round-robin message scheduler over this engine's slots."""
    return round_robin(
        jobs, sim.engine.stages, lambda job, slot: blocks_of(sim, job[0], job[1], slot)
    )


def run_jobs(sim, jobs):
    """Hash (message, algorithm) jobs interleaved across the slots; digests in job order."""
    order, per_slot = schedule(sim, jobs)
    results, _ = sim.run(order)
    digests = [None] * len(jobs)
    for r in results:
        if r.last:
            i = per_slot[r.slot].pop(0)
            digests[i] = sim.to_bytes(r.cv)[: hashlib.new(jobs[i][1]).digest_size]
    return digests


@pytest.mark.parametrize("spec", SPECS)
def test_latency_interval_and_attributes(spec):
    family, arch, p = spec.split(":")
    p = int(p[1:])
    sim = sim_for(spec)
    sim.set_stalls(0, 0)
    eng = sim.engine
    cycles = ROUND_CYCLES[(family, arch)]
    assert (eng.stages, eng.blocks_in_flight, eng.slots) == (p, p, p)
    assert eng.latency == cycles + 1
    assert eng.interval == cycles // p
    jobs = [(bytes([s]) * 500, ALGOS_OF[family][0]) for s in range(p)]  # 8 blocks each
    order, _ = schedule(sim, jobs)
    results, accepted = sim.run(order)
    assert [r.cycle - a for r, a in zip(results, accepted)] == [eng.latency] * len(results)
    gaps = [b.cycle - a.cycle for a, b in zip(results, results[1:])]
    assert set(gaps) == {eng.interval}, "a result every interval at full occupancy"


@pytest.mark.parametrize("spec", SPECS)
def test_nist_cavp_short_and_long(spec):
    family = spec.split(":")[0]
    sim = sim_for(spec)
    sim.set_stalls(10, 10)
    for algo in ALGOS_OF[family]:
        for kind in ("ShortMsg", "LongMsg"):
            cases = vectors.load_cavp(f"{algo.upper()}{kind}")
            got = run_jobs(sim, [(m, algo) for m, _ in cases])
            bad = [len(m) for (m, md), d in zip(cases, got) if d != md]
            assert not bad, f"{spec} {algo} {kind}: wrong digests for lengths {bad[:5]}"


@pytest.mark.parametrize("spec", SPECS)
def test_random_lengths_and_stalls(spec):
    family = spec.split(":")[0]
    rng = random.Random(spec)
    sim = sim_for(spec)
    for stall_in, stall_out in [(50, 0), (0, 50), (70, 70)]:
        sim.set_stalls(stall_in, stall_out)
        jobs = [
            (rng.randbytes(rng.randint(0, 1000)), rng.choice(ALGOS_OF[family])) for _ in range(24)
        ]
        assert run_jobs(sim, jobs) == [hashlib.new(a, m).digest() for m, a in jobs]


def test_same_slot_blocks_wait_for_their_chaining_value():
    """Blocks of one message fed back to back (no scheduler): the engine holds each until the
    previous block's chaining value is back, so the digest stays right."""
    sim = sim_for("sha256:base:p4")
    sim.set_stalls(0, 0)
    msg = bytes(range(256)) * 3
    results, accepted = sim.run(blocks_of(sim, msg, "sha256", slot=2))
    assert sim.to_bytes(results[-1].cv) == hashlib.sha256(msg).digest()
    assert min(b - a for a, b in zip(accepted, accepted[1:])) >= 64


@pytest.mark.parametrize("spec", ["sha256:opt:p4", "sha1:opt:p8", "sha256:base:p4", "sha1:base:p8"])
def test_occupancy_with_p_messages(spec):
    """p messages of 16 KiB keep the pipeline busy: busy cycles / total cycles >= 95%."""
    sim = sim_for(spec)
    sim.set_stalls(0, 0)
    p = sim.engine.stages
    rng = random.Random(3)
    jobs = [(rng.randbytes(16384), spec.split(":")[0]) for _ in range(p)]
    order, per_slot = schedule(sim, jobs)
    results, accepted = sim.run(order)
    total = results[-1].cycle - accepted[0]
    busy = len(order) * sim.engine.interval
    assert busy / total >= 0.95, f"occupancy {busy / total:.3f}"
    assert sorted(sim.to_bytes(r.cv) for r in results if r.last) == sorted(
        hashlib.new(a, m).digest() for m, a in jobs
    )


def test_spec_stage_counts():
    assert specmod.parse("sha1:base:p80").stages == 80
    assert specmod.parse("sha256:opt:p4").stages == 4
    for bad in (
        "sha256:base:p3",
        "sha1:base:p3",
        "sha256:opt:p64",
        "sha1:opt:p16",
        "sha1:k5:p2",
        "sha512:k5:p2",
        "sha256:base:p0",
    ):
        with pytest.raises(specmod.SpecError):
            specmod.parse(bad)


def test_bench_rtl_reports_pipelined_engines():
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "litedigest.cli",
            "bench",
            "--backend",
            "rtl",
            "--engine",
            "sha256:base:p4,sha1:base:p5",
            "--sizes",
            "0,1000",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    recs = [json.loads(line) for line in out.splitlines()]
    assert [(r["engine"], r["messages"], r["bytes"]) for r in recs] == [
        ("sha256:base:p4", 4, 0),
        ("sha256:base:p4", 4, 4000),
        ("sha1:base:p5", 5, 0),
        ("sha1:base:p5", 5, 5000),
    ]
    assert all(r["digest_ok"] for r in recs)
    assert [(r["latency"], r["interval"]) for r in recs] == [(65, 16), (65, 16), (81, 16), (81, 16)]
    bad = subprocess.run(
        [sys.executable, "-m", "litedigest.cli", "bench", "--engine", "sha1:k5:p4"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "no pipelined version" in bad.stderr
