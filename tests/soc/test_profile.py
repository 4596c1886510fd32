# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest bench --backend soc --profile` (the profile firmware, the library built with
LD_CONFIG_PROFILE): every case's digest against hashlib, the phases adding up to the call,
the one-shot DMA path's register accesses (the fast path, a batch of one descriptor: the polls
of batch_status; slots_ack, batch_base, batch_count, ctrl.batch_start, the closing ack; the
digest written to RAM by the peripheral, no register read) and its cost bounded."""

import pytest
from sim_driver import soc_bench_records


@pytest.fixture(scope="module")
def profile():
    return {r["case"]: r for r in soc_bench_records("--profile")}


def test_every_case_hashes_right_and_adds_up(profile):
    assert set(profile) == {"dma-64", "dma-16384", "csr-64"}
    for c in profile.values():
        assert c["ok"], c["case"]
        assert sum(ph["cycles"] for ph in c["phases"].values()) == c["total"], c
        assert c["read_cycles"] > 0 and c["write_cycles"] > 0


def test_one_shot_dma_path_register_accesses(profile):
    for case in ("dma-64", "dma-16384"):
        ph = profile[case]["phases"]
        assert ph["padding"]["reads"] == ph["padding"]["writes"] == 0
        # the batch of one: slots_ack (clean start), batch_base, batch_count,
        # ctrl.batch_start; no read (the slots' count was read once, at the device's first call)
        assert ph["programming the job"] == dict(ph["programming the job"], reads=0, writes=4)
        assert (
            ph["waiting for the engine"]["reads"] >= 1
            and not ph["waiting for the engine"]["writes"]
        )
        assert ph["status and acknowledge"] == dict(ph["status and acknowledge"], reads=0, writes=1)
        # the peripheral wrote the chaining value to RAM: no register is read for it
        assert ph["reading the digest"] == dict(ph["reading the digest"], reads=0, writes=0)
        assert "context setup" not in ph  # the fast path has no context to set up
    # the instrumented call: its marks turn the one-shot path into functions with calls and
    # spills and move its code in the 4 KiB direct-mapped caches, so its total differs from
    # the plain call's, which test_soc bounds (the demo's 64 B DMA)
    assert profile["dma-64"]["total"] <= 1000
    # 16 KiB: the engine's 256 blocks x 33 cycles plus the fixed cost of the 64 B call
    assert profile["dma-16384"]["total"] <= 256 * 33 + profile["dma-64"]["total"]
