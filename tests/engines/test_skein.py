# SPDX-License-Identifier: BSD-2-Clause
"""Skein-512 (Athanasiou et al. 2013; Skein 1.3): the C library, the Python object and every
engine architecture in Verilator, against the Skein golden known answers (tests/data) and PyPI
pyskein (an independent implementation), with random lengths, keys, output sizes and stream
stalls; latency and throughput of every architecture measured against its attributes."""

import random
from fractions import Fraction

import litedigest
import pytest
import skein as pyskein
from litedigest import _clib as native
from litedigest import spec as specmod
from litedigest.backends import get_backend
from litedigest.ip import skein512 as ipskein
from vectors import load_skein_kat

KAT = load_skein_kat()
SKEIN_SPECS = [s for s in specmod.all_specs() if s.startswith("skein512")]


def test_kat_covers_the_skein512_entries():
    assert len(KAT) == 152
    assert sum(1 for e in KAT if e["key"]) == 30
    assert any(e["bits"] % 8 for e in KAT) and any(e["out_bits"] > 512 for e in KAT)


def test_every_paper_architecture_is_a_spec():
    assert SKEIN_SPECS == [
        "skein512:r1",
        "skein512:r4",
        "skein512:r8",
        "skein512:r8:fp2",
        "skein512:r8:fp4",
        "skein512:r8:fp8",
        "skein512:r8:sp3",
        "skein512:r8:fp2:sp3",
        "skein512:r8:fp4:sp3",
        "skein512:r8:fp8:sp3",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "skein512:r2",
        "skein512:r4:fp2",
        "skein512:r8:fp3",
        "skein512:r8:sp2",
        "skein512:r8:p2",
        "skein512:r8:sp3:fp2",
        "skein512:r1:sp3",
    ],
)
def test_bad_specs_are_refused(bad):
    with pytest.raises(specmod.SpecError):
        specmod.parse(bad)


def test_c_ivs_match_the_engine_model():
    """The C library's configured IVs and the engines' variants come from the same
    configuration UBI (computed in ip/skein512.py, tabled in skein_sw.c)."""
    for n in ipskein.OUTPUT_IVS:
        x = native.ffi.new("uint64_t[8]")
        assert native.lib.ld_skein512_iv(n, x) == 0
        assert list(x) == ipskein.config_cv(n)
        assert native.lib.ld_skein512_variant(n) == list(ipskein.IVS).index(f"skein512-{n}")
    assert native.lib.ld_skein512_iv(200, native.ffi.new("uint64_t[8]")) == native.lib.LD_ERR_ARG


@pytest.mark.parametrize("e", KAT, ids=lambda e: e["name"])
def test_kat_c_library(e):
    assert native.skein512(e["msg"], e["out_bits"], e["key"], e["bits"]) == e["md"]


def _python_object(e, backend="sw", engine=None):
    h = litedigest.new(
        "skein512", digest_bits=e["out_bits"], key=e["key"], backend=backend, engine=engine
    )
    h.update_bits(e["msg"], e["bits"])
    return h


def test_kat_c_streaming_and_python_object_sw():
    for e in KAT:
        ctx = native.Skein512Ctx(e["out_bits"], e["key"])
        whole = e["bits"] // 8
        cut = whole // 3
        ctx.update(e["msg"][:cut])
        ctx.update_bits(e["msg"][cut:], e["bits"] - 8 * cut)
        assert ctx.final() == e["md"], e["name"]
        assert _python_object(e).digest() == e["md"], e["name"]


@pytest.mark.parametrize("engine", SKEIN_SPECS)
def test_kat_every_architecture_rtl(engine):
    """Every Skein-512 known answer on the engine in Verilator (the UBI jobs of the Python
    object, each block with the peripheral's tweak)."""
    for e in KAT:
        assert _python_object(e, "rtl", engine).digest() == e["md"], e["name"]


@pytest.mark.parametrize(
    "engine", ["skein512:r1", "skein512:r8", "skein512:r8:fp4", "skein512:r8:fp2:sp3"]
)
def test_random_against_pyskein_with_stalls(engine):
    rng = random.Random(f"skein-{engine}")
    be = get_backend("rtl", specmod.parse(engine).engine_name)
    try:
        be.sim.set_stalls(30, 30)
        for _ in range(12):
            n = rng.choice([0, 1, 63, 64, 65, 127, 128, 129, rng.randrange(1, 700)])
            msg = rng.randbytes(n)
            key = rng.randbytes(rng.choice([0, 0, 1, 32, 64, 65, 200]))
            bits = rng.choice(
                [8, 128, 160, 224, 256, 384, 512, 520, 1024, 8 * rng.randrange(1, 200)]
            )
            h = litedigest.new("skein512", digest_bits=bits, key=key, backend="rtl", engine=engine)
            # random update split
            cut = rng.randrange(0, n + 1)
            h.update(msg[:cut])
            h2 = h.copy()
            h.update(msg[cut:])
            want = pyskein.skein512(msg, digest_bits=bits, key=key).digest()
            assert h.digest() == want, (n, len(key), bits)
            assert h.digest() == want, "digest() does not change the object"
            h2.update(msg[cut:])
            assert h2.digest() == want, "copy() is independent"
    finally:
        be.sim.set_stalls(0, 0)


@pytest.mark.parametrize("engine", SKEIN_SPECS)
def test_latency_and_throughput_match_attributes(engine):
    """Latency: accept to result of one block. Full occupancy: blocks_in_flight messages
    of 6 blocks each, fed in round-robin order: every message gets a block through every
    `latency` cycles, so the engine does blocks_in_flight blocks per latency cycles
    (interval = latency / blocks_in_flight). Athanasiou et al. 2013: 73/19/10 for
    r1/r4/r8, (9 x p) + 2 for p blocks in the functional pipelines."""
    from litedigest.ip.rtlsim import Block, RTLSim

    spec = specmod.parse(engine)
    sim = RTLSim(spec.engine_name)
    eng = sim.engine
    want_latency = (
        {"r1": 73, "r4": 19, "r8": 10}[spec.arch] if spec.stages == 1 else 9 * spec.stages + 2
    )
    assert eng.latency == want_latency
    assert eng.blocks_in_flight == spec.in_flight == eng.slots
    assert eng.interval == Fraction(eng.latency, eng.blocks_in_flight)
    res, acc = sim.run([Block([1] * 8, first=True, tweak=5)])
    assert res[0].cycle - acc[0] == eng.latency
    n = eng.blocks_in_flight
    waves = 6
    blocks = [
        Block([w * 31 + s] * 8, slot=s, first=w == 0, tweak=w)
        for w in range(waves)
        for s in range(n)
    ]
    res, acc = sim.run(blocks)
    by_slot = {}
    for r in res:
        by_slot.setdefault(r.slot, []).append(r.cycle)
    assert sorted(by_slot) == list(range(n))
    for s, cycles in by_slot.items():
        gaps = {b - a for a, b in zip(cycles, cycles[1:])}
        assert gaps == {eng.latency}, (s, gaps)
    sim.close()


def test_bad_arguments():
    with pytest.raises(ValueError):
        litedigest.new("skein512", digest_bits=0)
    with pytest.raises(ValueError):
        litedigest.new("skein512", digest_bits=(1 << 20) + 1)
    with pytest.raises(TypeError):
        litedigest.new("skein512", "text")
    with pytest.raises(TypeError):
        litedigest.new("sha256", b"", key=b"k")
    with pytest.raises(ValueError):
        litedigest.new("skein512", engine="sha256:opt")
    h = litedigest.new("skein512")
    h.update_bits(b"\xff", 3)
    with pytest.raises(ValueError):
        h.update(b"x")
    with pytest.raises(ValueError):
        h.update_bits(b"\xff", 9)
    assert h.digest() == native.skein512(b"\xff", 512, b"", 3)
    ctx = native.Skein512Ctx(256)
    ctx.update_bits(b"\x80", 1)
    with pytest.raises(native.NativeError):
        ctx.update(b"a")
    ctx.final()
    with pytest.raises(native.NativeError):
        ctx.final()
    with pytest.raises(ValueError):
        native.skein512(b"ab", 512, b"", 17)
    with pytest.raises(ValueError):
        native.skein512_ubi(0, b"x" * 63, 0, 0, 0)


def test_names_and_sizes():
    h = litedigest.new("skein512-256", b"abc")
    assert h.digest_size == 32 and h.name == "skein512-256"
    assert h.digest() == pyskein.skein512(b"abc", digest_bits=256).digest()
    assert (
        litedigest.skein512(b"abc", digest_bits=1032).digest()
        == pyskein.skein512(b"abc", digest_bits=1032).digest()
    )
    h = litedigest.new("skein512", digest_bits=12)
    assert h.digest_size == 2 and h.digest() == native.skein512(b"", 12)


OUT_T1 = (ipskein.T_OUT << 56) | ipskein.FLAG_FIRST | ipskein.FLAG_FINAL


@pytest.mark.parametrize("engine", ["skein512:r8:fp2", "skein512:r8:sp3", "skein512:r8:fp2:sp3"])
def test_random_slot_interleavings(engine):
    """Several messages per slot (each: message UBI from a random variant, then the output
    block), the slots' blocks interleaved in a random order (each slot's in sequence), random
    stalls: every message's result equals the software UBI chain's."""
    from litedigest.ip.rtlsim import Block

    be = get_backend("rtl", specmod.parse(engine).engine_name)
    sim = be.sim
    try:
        for trial in range(6):
            rng = random.Random(f"{engine}-{trial}")
            slots = rng.choice([min(3, sim.engine.slots), sim.engine.slots])
            sim.set_stalls(rng.choice([0, 10, 50]), rng.choice([0, 30]))
            queues, want = {s: [] for s in range(slots)}, {s: [] for s in range(slots)}
            for s in range(slots):
                for _ in range(rng.randrange(1, 4)):
                    var = rng.randrange(0, 7)
                    blocks = [rng.randbytes(64) for _ in range(rng.choice([1, 2, 5, 12]))]
                    for i, b in enumerate(blocks):
                        t1 = (
                            (ipskein.T_MSG << 56)
                            | (ipskein.FLAG_FIRST if i == 0 else 0)
                            | (ipskein.FLAG_FINAL if i == len(blocks) - 1 else 0)
                        )
                        queues[s].append(
                            Block(
                                sim.words(b),
                                slot=s,
                                first=i == 0,
                                variant=var,
                                tweak=(t1 << 64) | (64 * (i + 1)),
                            )
                        )
                    queues[s].append(
                        Block(
                            sim.words(bytes(64)),
                            slot=s,
                            variant=var,
                            last=True,
                            tweak=(OUT_T1 << 64) | 8,
                        )
                    )
                    t1 = (ipskein.T_MSG << 56) | ipskein.FLAG_FIRST | ipskein.FLAG_FINAL
                    cv = native.skein512_ubi(var, b"".join(blocks), 0, t1, 64)
                    want[s].append(native.skein512_ubi(cv, bytes(64), 0, OUT_T1, 8))
            order = []
            while any(queues.values()):
                s = rng.choice([k for k, q in queues.items() if q])
                order.append(queues[s].pop(0))
            results, _ = sim.run(order)
            got = {
                s: [sim.to_bytes(r.cv) for r in results if r.slot == s and r.last]
                for s in range(slots)
            }
            assert got == want, trial
    finally:
        sim.set_stalls(0, 0)
