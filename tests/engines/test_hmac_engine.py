# SPDX-License-Identifier: BSD-2-Clause
"""The HMAC-SHA-256 engine (ip/hmac_sha256.py, Michail et al. 2012 sec. 8) in Verilator against
Python's `hmac`: random keys of 0..300 bytes in every key slot, random message lengths,
messages interleaved over the slots, random stalls on both streams; the paper's figures as
targets (65 cycles from a one-block message accepted to its MAC, a message every 8 cycles,
9 in flight, >= 0.95 of that rate over 1,000 messages with stalls, key initialization in 33
cycles); the secrets (no result but a MAC carries data; wipe)."""

import hashlib
import hmac
import random
import struct

import pytest
from litedigest import spec as specmod
from litedigest.ip.rtlsim import Block, RTLSim
from litedigest.measure.scheduler import round_robin
from test_engine import md_pad

SPECS = specmod.mac_specs()  # hmac-sha256:opt (p1) and :p4
_sims = {}


def sim_for(spec):
    if spec not in _sims:
        _sims[spec] = RTLSim(spec, seed=7)
    return _sims[spec]


def words(block):
    return list(struct.unpack(">16I", block))


def key_block(sim, key, key_slot, slot=0):
    """The key initialization job: K0, the key zero-padded to a block or, when longer than a
    block, its SHA-256 digest zero-padded (RFC 2104)."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    return Block(words(key.ljust(64, b"\0")), slot=slot, key=key_slot, key_init=True, last=True)


def message_blocks(msg, key_slot, slot):
    """The inner hash's blocks of `msg`: its padding counts the 64-byte K0 ^ ipad block the
    key's stored inner state stands for."""
    padded = md_pad(b"\0" * 64 + msg)[64:]
    n = len(padded) // 64
    return [
        Block(
            words(padded[64 * j : 64 * j + 64]),
            slot=slot,
            key=key_slot,
            first=j == 0,
            last=j == n - 1,
        )
        for j in range(n)
    ]


def mac_of(result):
    return struct.pack(">8I", *result.cv)


def load_keys(sim, keys):
    results, accepted = sim.run(
        [key_block(sim, k, i, slot=i % sim.engine.slots) for i, k in enumerate(keys)]
    )
    assert all(r.cv == [0] * 8 for r in results), "a key initialization's result carries data"
    mask = (1 << len(keys)) - 1
    assert sim.keys_valid & mask == mask
    return results, accepted


@pytest.mark.parametrize("spec", SPECS)
def test_random_keys_and_messages_against_python_hmac(spec):
    sim = sim_for(spec)
    rng = random.Random(spec)
    nkeys = sim.engine.key_slots
    for stalls in ((0, 0), (30, 30), (60, 10)):
        sim.set_stalls(*stalls)
        keys = [
            rng.randbytes(rng.choice([0, 1, 32, 63, 64, 65, 100, rng.randrange(0, 301)]))
            for _ in range(nkeys)
        ]
        load_keys(sim, keys)
        jobs = [
            (
                rng.randbytes(rng.choice([0, 55, 56, 64, 119, rng.randrange(0, 400)])),
                rng.randrange(nkeys),
            )
            for _ in range(40)
        ]
        order, per_slot = round_robin(
            jobs, sim.engine.slots, lambda job, slot: message_blocks(job[0], job[1], slot)
        )
        results, _ = sim.run(order)
        assert len(results) == len(order)
        # a block that is not its message's last one has a zero result: no chaining value leaves
        assert all(r.cv == [0] * 8 for r in results if not r.last)
        got = {}
        seen = {s: 0 for s in per_slot}
        for r in results:
            if r.last:
                got[per_slot[r.slot][seen[r.slot]]] = mac_of(r)
                seen[r.slot] += 1
        for i, (msg, k) in enumerate(jobs):
            assert got[i] == hmac.new(keys[k], msg, "sha256").digest(), (
                stalls,
                i,
                len(msg),
                len(keys[k]),
            )
    sim.set_stalls(0, 0)


@pytest.mark.parametrize("spec", SPECS)
def test_key_slots_switched_rekeyed_and_wiped(spec):
    sim = sim_for(spec)
    sim.set_stalls(0, 0)
    a, b = b"key a", bytes(range(200))  # b: longer than a block, hashed first
    load_keys(sim, [a, b])
    msgs = [(b"one", 0), (b"two", 1), (b"three", 0), (b"x" * 150, 1)]
    blocks = [
        blk for i, (m, k) in enumerate(msgs) for blk in message_blocks(m, k, i % sim.engine.slots)
    ]
    results, _ = sim.run(blocks)
    macs = [mac_of(r) for r in results if r.last]
    assert macs == [hmac.new([a, b][k], m, "sha256").digest() for m, k in msgs]
    # re-key slot 0 and use it at once: the engine waits for the new states
    c = b"new key"
    results, _ = sim.run([key_block(sim, c, 0)] + message_blocks(b"after", 0, 1))
    assert mac_of(results[-1]) == hmac.new(c, b"after", "sha256").digest()
    # wipe: the states are zeroed and no key slot is valid; a MAC of a wiped slot is not the
    # key's (it uses the zeroed states) and a new key works
    sim.wipe()
    assert sim.keys_valid == 0
    results, _ = sim.run(message_blocks(b"after", 0, 0))
    assert mac_of(results[-1]) != hmac.new(c, b"after", "sha256").digest()
    load_keys(sim, [c])
    results, _ = sim.run(message_blocks(b"after", 0, 0))
    assert mac_of(results[-1]) == hmac.new(c, b"after", "sha256").digest()


def test_paper_timing_p4():
    """Michail et al. 2012, fig. 16: 65 cycles from a one-block message accepted to its MAC,
    a new message every 8 cycles, 9 messages in flight (8 in the cores, 1 whose MAC waits to
    be taken); key initialization 33 cycles for both stored states."""
    sim = sim_for("hmac-sha256:opt:p4")
    sim.set_stalls(0, 0)
    results, accepted = load_keys(sim, [b"k" * 20, b"key two"])
    assert [r.cycle - a for r, a in zip(results, accepted)] == [33, 33]
    n = 200
    msgs = [struct.pack(">I", i) for i in range(n)]
    blocks = [message_blocks(m, i % 2, i % sim.engine.slots)[0] for i, m in enumerate(msgs)]
    results, accepted = sim.run(blocks)
    assert [mac_of(r) for r in results] == [
        hmac.new([b"k" * 20, b"key two"][i % 2], m, "sha256").digest() for i, m in enumerate(msgs)
    ]
    lat = {r.cycle - a for r, a in zip(results, accepted)}
    assert lat == {65}, lat
    gaps = {b - a for a, b in zip(accepted, accepted[1:])}
    assert gaps == {8}, gaps
    # in flight after each clock edge: accepted at or before the edge, MAC not yet taken (a MAC
    # is taken in the cycle its valid rises: no output stalls here)
    in_flight = max(
        sum(a <= c for a in accepted) - sum(r.cycle <= c for r in results)
        for c in range(accepted[0], results[-1].cycle)
    )
    assert in_flight == 9


def test_sustained_rate_with_stalls_p4():
    """>= 0.95 of a message every 8 cycles over 1,000 one-block messages, with random stalls
    on both streams (10% of cycles without a block offered, 10% without the result taken)."""
    sim = sim_for("hmac-sha256:opt:p4")
    sim.set_stalls(0, 0)
    load_keys(sim, [b"sustained"])
    sim.set_stalls(10, 10)
    n = 1000
    msgs = [struct.pack(">II", i, i * 7) for i in range(n)]
    blocks = [message_blocks(m, 0, i % sim.engine.slots)[0] for i, m in enumerate(msgs)]
    start = sim.cycle
    results, accepted = sim.run(blocks)
    sim.set_stalls(0, 0)
    assert [mac_of(r) for r in results] == [
        hmac.new(b"sustained", m, "sha256").digest() for m in msgs
    ]
    cycles = results[-1].cycle - accepted[0]
    rate = (n * 8) / cycles
    assert rate >= 0.95, (cycles, rate)
    assert start <= accepted[0]


def test_p1_timing():
    """Two iterative cores: 65 cycles, a message every 32."""
    sim = sim_for("hmac-sha256:opt")
    sim.set_stalls(0, 0)
    load_keys(sim, [b"p1"])
    blocks = [message_blocks(bytes([i]), 0, i % 2)[0] for i in range(10)]
    results, accepted = sim.run(blocks)
    assert {r.cycle - a for r, a in zip(results, accepted)} == {65}
    assert {b - a for a, b in zip(accepted, accepted[1:])} == {32}


@pytest.mark.parametrize("spec", SPECS)
def test_python_hmac_on_the_rtl_backend(spec):
    """litedigest.hmac with the MAC engine on the rtl backend (the engine alone in Verilator,
    the C library's padding): RFC 4231 and random keys and lengths against Python's hmac."""
    import hmac as std_hmac

    from litedigest import hmac as ld_hmac
    from vectors import load_hmac_vectors as load_vectors

    for key, msg, mac in load_vectors("sha256"):
        assert ld_hmac.new(key, msg, "sha256", backend="rtl", engine=spec).digest() == mac
    rng = random.Random(spec + "rtl")
    for _ in range(10):
        key, msg = rng.randbytes(rng.randrange(0, 301)), rng.randbytes(rng.randrange(0, 300))
        assert ld_hmac.digest(key, msg, "sha256", backend="rtl", engine=spec) == std_hmac.digest(
            key, msg, "sha256"
        )
