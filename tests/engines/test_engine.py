# SPDX-License-Identifier: BSD-2-Clause
"""Gateware tests of the SHA-1 and SHA-256/224 engines in Verilator, against independent
references: the complete NIST CAVP byte-oriented files (ShortMsg, LongMsg, Monte) and hashlib,
with random valid/ready stalls on both streams and interleaved messages. Every engine spec
gets every test (all are p1 so far, so the Monte files run on all of them: the family's main
algorithm in CI, the IV/truncation variants with `-m slow`)."""

import hashlib
import random
import struct

import pytest
import vectors
from litedigest.ip.engines import variant_of
from litedigest.ip.rtlsim import Block, RTLSim

# engine spec -> latency the issue specifies (rounds per block / rounds per clock, + 1)
EXPECTED_LATENCY = {
    "sha256:base": 65,
    "sha256:opt": 33,
    "sha1:base": 81,
    "sha1:k5": 17,
    "sha1:opt": 41,
    "sha512:base": 81,
    "sha512:k5": 17,
}
ENGINES = list(EXPECTED_LATENCY)
ALGOS_OF = {
    "sha256": ["sha256", "sha224"],
    "sha1": ["sha1"],
    "sha512": ["sha512", "sha384", "sha512_224", "sha512_256"],
}
ENGINE_ALGOS = [(e, a) for e in ENGINES for a in ALGOS_OF[e.split(":")[0]]]
ARCHS = ["base", "opt"]  # sha256 architectures, for the SHA-256-only tests below
ALGOS = ["sha256", "sha224"]


def is_sha512_family(algo):
    return algo in ALGOS_OF["sha512"]


def md_pad(msg, block_size=64):
    """FIPS 180-4 padding, written here independently of the library under test."""
    n, lenbytes = len(msg), block_size // 8
    zeros = (block_size - lenbytes - 1 - n) % block_size
    return msg + b"\x80" + b"\x00" * zeros + (8 * n).to_bytes(lenbytes, "big")


def message_blocks(msg, algo, slot=0):
    bs, fmt = (128, ">16Q") if is_sha512_family(algo) else (64, ">16I")
    padded = md_pad(msg, bs)
    n = len(padded) // bs
    return [
        Block(
            list(struct.unpack(fmt, padded[bs * i : bs * (i + 1)])),
            slot=slot,
            first=(i == 0),
            last=(i == n - 1),
            variant=variant_of(algo),
        )
        for i in range(n)
    ]


def digest_of(result, algo):
    fmt = "Q" if is_sha512_family(algo) else "I"
    return struct.pack(f">{len(result.cv)}{fmt}", *result.cv)[: hashlib.new(algo).digest_size]


_sims = {}


def sim_for(engine, slots=None):
    """The simulator of an engine spec ("sha1:k5"; a bare arch means sha256:<arch>)."""
    if ":" not in engine:
        engine = f"sha256:{engine}"
    key = (engine, slots)
    if key not in _sims:
        _sims[key] = RTLSim(engine, slots=slots, seed=1234 + (slots or 1))
    return _sims[key]


def hash_batch(sim, msgs, algo):
    """Hash many messages back to back through one engine; return their digests."""
    blocks = [b for m in msgs for b in message_blocks(m, algo)]
    results, _ = sim.run(blocks)
    assert len(results) == len(blocks)
    return [digest_of(r, algo) for r in results if r.last]


@pytest.mark.parametrize("engine", ENGINES)
def test_latency_and_interval_match_engine_attributes(engine):
    sim = sim_for(engine)
    sim.set_stalls(0, 0)
    eng = sim.engine
    assert eng.latency == EXPECTED_LATENCY[engine]
    assert eng.interval == eng.latency and eng.blocks_in_flight == 1
    algo = ALGOS_OF[engine.split(":")[0]][0]
    msg = bytes(range(256)) * 2  # 9 blocks padded
    results, accepted = sim.run(message_blocks(msg, algo))
    assert [r.cycle - a for r, a in zip(results, accepted)] == [eng.latency] * len(results)
    gaps = {b.cycle - a.cycle for a, b in zip(results, results[1:])}
    assert gaps == {eng.interval}
    assert digest_of(results[-1], algo) == hashlib.new(algo, msg).digest()


@pytest.mark.parametrize("engine,algo", ENGINE_ALGOS)
@pytest.mark.parametrize("kind", ["ShortMsg", "LongMsg"])
def test_nist_cavp_messages(engine, algo, kind):
    cases = vectors.load_cavp(f"{algo.upper()}{kind}")
    assert len(cases) >= 64
    sim = sim_for(engine)
    sim.set_stalls(10, 10)
    got = hash_batch(sim, [m for m, _ in cases], algo)
    for (msg, md), d in zip(cases, got):
        assert d == md, f"{engine} {algo} {kind} len={len(msg)}"


# Monte (100,000 chained hashes, one at a time) of the family's main algorithm on every engine
# in CI; the variants (other IV, truncation: the same round datapath, whose IVs and truncation
# the ShortMsg/LongMsg files check on every engine) with `-m slow`, to keep CI in its budget
MONTE = [
    pytest.param(e, a, marks=() if a == ALGOS_OF[e.split(":")[0]][0] else pytest.mark.slow)
    for e, a in ENGINE_ALGOS
]


@pytest.mark.parametrize("engine,algo", MONTE)
def test_nist_cavp_monte(engine, algo):
    seed, checkpoints = vectors.load_monte(f"{algo.upper()}Monte")
    assert len(checkpoints) == 100
    sim = sim_for(engine)
    sim.set_stalls(0, 0)
    for j, expected in enumerate(checkpoints):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], hash_batch(sim, [md[0] + md[1] + md[2]], algo)[0]]
        seed = md[2]
        assert seed == expected, f"{engine} {algo} Monte checkpoint {j}"


@pytest.mark.parametrize("engine", ENGINES)
def test_random_lengths_with_stalls_against_hashlib(engine):
    rng = random.Random(f"lengths-{engine}")
    sim = sim_for(engine)
    for stall_in, stall_out in [(0, 0), (30, 0), (0, 30), (50, 50), (80, 80)]:
        sim.set_stalls(stall_in, stall_out)
        msgs = [rng.randbytes(rng.randint(0, 1000)) for _ in range(40)]
        algos = [rng.choice(ALGOS_OF[engine.split(":")[0]]) for _ in msgs]
        for m, algo in zip(msgs, algos):
            (d,) = hash_batch(sim, [m], algo)
            assert d == hashlib.new(algo, m).digest(), (len(m), algo, stall_in, stall_out)


@pytest.mark.parametrize("engine", ENGINES)
def test_interleaved_messages_in_slots_with_stalls(engine):
    """Blocks of up to 4 messages (one per slot) interleaved in random order."""
    rng = random.Random(f"interleave-{engine}")
    sim = sim_for(engine, slots=4)
    sim.set_stalls(40, 40)
    algos = ALGOS_OF[engine.split(":")[0]]
    pending = [(rng.randbytes(rng.randint(0, 700)), rng.choice(algos)) for _ in range(24)]
    queues = {}  # slot -> remaining blocks of its current message
    owner = {}  # slot -> (msg, algo)
    order, expected = [], []
    while pending or any(queues.values()):
        free = [s for s in range(4) if not queues.get(s)]
        if pending and free and rng.random() < 0.5:
            s = rng.choice(free)
            msg, algo = pending.pop()
            queues[s] = message_blocks(msg, algo, slot=s)
            owner[s] = (msg, algo)
            expected.append((s, hashlib.new(algo, msg).digest(), algo))
            continue
        busy = [s for s in range(4) if queues.get(s)]
        if not busy:
            continue
        s = rng.choice(busy)
        order.append(queues[s].pop(0))
    results, _ = sim.run(order)
    finals = [r for r in results if r.last]
    assert len(finals) == 24
    # each slot's digests come out in the order its messages were started
    by_slot = {}
    for s, d, algo in expected:
        by_slot.setdefault(s, []).append((d, algo))
    for r in finals:
        d, algo = by_slot[r.slot].pop(0)
        assert digest_of(r, algo) == d


@pytest.mark.parametrize("engine", ENGINES)
def test_resume_from_loaded_chaining_value(engine):
    """load_cv: a message split across two slots through an exported chaining value."""
    rng = random.Random(f"resume-{engine}")
    sim = sim_for(engine, slots=4)
    sim.set_stalls(20, 20)
    algo = ALGOS_OF[engine.split(":")[0]][0]
    msg = rng.randbytes((128 if is_sha512_family(algo) else 64) * 5 + 17)  # 6 blocks padded
    blocks = message_blocks(msg, algo)
    head, _ = sim.run([Block(b.words, slot=1, first=b.first, last=False) for b in blocks[:3]])
    tail = [Block(b.words, slot=2, last=b.last) for b in blocks[3:]]
    tail[0].cv = head[-1].cv
    results, _ = sim.run(tail)
    assert digest_of(results[-1], algo) == hashlib.new(algo, msg).digest()


def test_rtl_backend_through_hashlib_api():
    import litedigest

    rng = random.Random(7)
    for n in [0, 55, 56, 64, 111, 112, 128, 1000]:
        m = rng.randbytes(n)
        for arch in ("base", "k5", "opt"):
            assert (
                litedigest.new("sha1", m, backend="rtl", engine=f"sha1:{arch}").digest()
                == hashlib.sha1(m).digest()
            )
        for arch in ("base", "k5"):
            for algo in ALGOS_OF["sha512"]:
                assert (
                    litedigest.new(algo, m, backend="rtl", engine=f"{algo}:{arch}").digest()
                    == hashlib.new(algo, m).digest()
                )
    for arch in ARCHS:
        for n in [0, 55, 56, 63, 64, 119, 120, 1000]:
            m = rng.randbytes(n)
            h = litedigest.new("sha256", backend="rtl", engine=f"sha256:{arch}")
            h.update(m[: n // 2])
            h.update(m[n // 2 :])
            assert h.hexdigest() == hashlib.sha256(m).hexdigest()
            assert (
                litedigest.new("sha224", m, backend="rtl", engine=f"sha224:{arch}").digest()
                == hashlib.sha224(m).digest()
            )


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_sum_rtl_backend_matches_coreutils(engine, tmp_path):
    import subprocess
    import sys

    family, arch = engine.split(":")
    rng = random.Random(f"cli-{engine}")
    names = []
    for n in (0, 55, 56, 63, 64, 111, 112, 119, 120, 128, 777):
        (tmp_path / f"f{n}").write_bytes(rng.randbytes(n))
        names.append(f"f{n}")
    import shutil

    for algo in [
        a for a in ALGOS_OF[family] if shutil.which(f"{a}sum")
    ]:  # coreutils has no sha512_224sum
        ours = subprocess.run(
            [
                sys.executable,
                "-m",
                "litedigest.cli",
                "sum",
                "-a",
                algo,
                "--backend",
                "rtl",
                "--engine",
                f"{algo}:{arch}",
                *names,
            ],
            cwd=tmp_path,
            capture_output=True,
            check=True,
        )
        ref = subprocess.run([f"{algo}sum", *names], cwd=tmp_path, capture_output=True, check=True)
        assert ours.stdout == ref.stdout
