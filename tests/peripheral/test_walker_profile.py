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

    with pytest.raises(ValueError, match="SHA engines"):
        next(bench_rtl_batch(["skein512:r8"]))
