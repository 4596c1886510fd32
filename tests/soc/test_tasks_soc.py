# SPDX-License-Identifier: BSD-2-Clause
"""Two firmware tasks on one peripheral (docs/RELIABILITY.md, "Several users"): the tasks
firmware (software/firmware/apps/tasks, the C library built with LD_CONFIG_LOCK=1) on the
simulated main SoC. Task A's streaming contexts hold the peripheral's lock from init to
final; one-shot calls longer than the driver's bare wait loop (the library also built with
LD_CONFIG_LOST_JOBS=1) hash right through the walker and the registers; task B's one-shot,
batch, scheduler, key load, MAC and Skein calls in the middle are refused (LD_ERR_TIMEOUT
from the try-lock, nothing touched) and right afterwards; every digest equals the firmware's
software one; a failing context gives the lock back; and without the hooks the same
interleaving gives task A a wrong digest (the hazard is real)."""

import pytest
from litedigest.measure import socdemo
from litedigest.soc.targets.sim import MAIN_SOC

EXPECTED = {
    "oneshot_long_wait_walker",
    "oneshot_long_wait_registers",
    "stream_holds_lock",
    "oneshot_refused_during_stream",
    "csr_oneshot_refused_during_stream",
    "stream_digest_right",
    "stream_gave_lock",
    "oneshot_after_stream_right",
    "batch_refused_during_stream",
    "schedule_refused_during_stream",
    "csr_stream_digest_right",
    "batch_after_stream_right",
    "schedule_after_stream_right",
    "failed_stream_gave_lock",
    "oneshot_after_failed_stream_right",
    "oneshot_refused_during_hmac",
    "hmac_stream_right",
    "without_lock_a_is_wrong",
    "mac_key_load_refused_during_stream",
    "mac_refused_during_stream",
    "mac_stream_right",
    "mac_after_stream_right",
    "skein_refused_during_stream",
    "skein_stream_right",
    "skein_after_stream_right",
}


@pytest.fixture(scope="module")
def checks():
    text, _ = socdemo.run_app(list(MAIN_SOC), "tasks", timeout=900)
    return {c["name"]: c["ok"] for c in socdemo.console_lines(text, "LDCHECK")}


def test_every_case_ran(checks):
    assert set(checks) == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_case(checks, name):
    assert checks.get(name) is True, f"{name}: {checks.get(name)}"
