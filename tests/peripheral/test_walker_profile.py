# SPDX-License-Identifier: BSD-2-Clause
"""The batch walker's profile (soc/sim/peripheral_bench.walker_profile, `litedigest bench
--backend rtl --batch`): every cycle of the batch is in one phase, the digests are right (the
profile checks them against hashlib), and a one-slot engine's phase is its padded blocks
times its interval a message."""

import pytest
from litedigest.soc.sim.peripheral_bench import PHASES, walker_profile


@pytest.mark.parametrize("spec,nbytes", [("sha256:opt", 64), ("sha1:opt", 100)])
def test_phases_add_up_and_the_engine_phase_is_its_blocks(spec, nbytes):
    r = walker_profile(spec, nbytes, count=4)
    assert set(r["phases"]) == set(PHASES)
    assert sum(r["phases"].values()) == pytest.approx(r["cycles_per_message"], abs=0.2)
    # one slot: a message's blocks run one after the other, nothing else overlaps them
    assert r["phases"]["engine"] == pytest.approx(r["engine_limit"], abs=1)
    assert r["cycles_per_message"] > r["engine_limit"]


def test_other_families_are_refused():
    from litedigest.measure.bench import bench_rtl_batch

    with pytest.raises(ValueError, match="SHA and HMAC engines"):
        next(bench_rtl_batch(["skein512:r8"]))


def test_one_slot_walker_works_ahead():
    """On a one-slot engine the walker reads the next descriptor and writes the last chaining
    value while the message runs: the engine waits for neither. What is left between two
    messages is the job's start and its first block's fetch (the simulated SoC's RAM: 512-bit
    rows, an ack a cycle after the request)."""
    r = walker_profile("sha256:opt", 64, count=12, dma_width=512, ram_wait=0)
    assert r["phases"]["descriptor"] + r["phases"]["digest"] < 0.5
    assert r["cycles_per_message"] <= r["engine_limit"] + 11


def test_pipeline_walker_keeps_its_ring_full():
    """A p-slot pipeline restarts a slot one ring rotation after its message ends at the
    soonest (the slot is free only then, and its next first block waits for a free place in
    the ring): a two-block message costs at most three places of its slot's ring, so on
    sha256:opt:p4 (32 cycles a rotation) at most 24 cycles a message."""
    r = walker_profile("sha256:opt:p4", 64, count=16, dma_width=512, ram_wait=0)
    assert r["cycles_per_message"] <= 3 * 32 / 4


def test_hmac_walker_macs_and_rate():
    """The HMAC peripheral's walker (key slot 0 set through din and key_init first): every MAC
    equals Python's hmac, and with the descriptors ready a 64-byte MAC takes at most 25
    cycles (issue "small messages"; the engine's limit: two inner blocks at the inner core's
    interval, 16 cycles, the outer core working in parallel)."""
    r = walker_profile("hmac-sha256:opt:p4", 64, count=24, dma_width=512, ram_wait=0)
    assert r["engine_limit"] == 16.0
    assert sum(r["phases"].values()) == pytest.approx(r["cycles_per_message"], abs=0.2)
    assert r["cycles_per_message"] <= 25, r
