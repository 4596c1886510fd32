"""The C library's message scheduler (ld_sched) in SoC firmware (apps/sched) on the
scheduler SoC (spec.SCHED_SOC: sha256:opt:p4 + sha1:opt:p8), and on the main SoC (one slot
per engine, SHA-512 family included): digests, refills with more messages than slots,
bad messages, and the utilization figure of issue 3 (cycle counter, whole run).

Cycle counts come from the simulation and are exact: the bounds are regression checks of the
figures in the README (`litedigest bench --backend soc --sched`)."""
import pytest

from litedigest import socdemo, spec


@pytest.fixture(scope="module")
def sched_run():
    return socdemo.run_sched(spec.SCHED_SOC, timeout=1800)


@pytest.fixture(scope="module")
def main_run():
    return socdemo.run_sched(spec.MAIN_SOC, timeout=1800)


def test_sched_soc_digests_and_checks(sched_run):
    assert {r["instance"] for r in sched_run.records} == {"sha256", "sha1"}
    assert all(r["ok"] for r in sched_run.records), [r for r in sched_run.records if not r["ok"]]
    names = {c["name"] for c in sched_run.checks}
    for inst in ("sha256", "sha1"):
        assert {f"{inst}_mixed_dma", f"{inst}_mixed_csr", f"{inst}_bad_msgs_reported",
                f"{inst}_bad_msgs_others_ok"} <= names
    assert all(c["ok"] for c in sched_run.checks), [c for c in sched_run.checks if not c["ok"]]


@pytest.mark.parametrize("instance,engine,p", [("sha256", "sha256:opt:p4", 4), ("sha1", "sha1:opt:p8", 8)])
def test_sched_utilization_at_least_95_percent(sched_run, instance, engine, p):
    """Issue 3: p messages of 16 KiB keep the p-stage engine busy >= 95% of the whole run."""
    r = sched_run.record(instance, "dma")
    assert r["engine"] == spec.parse(engine).engine_name
    assert r["msgs"] == p and r["bytes"] == 16384
    assert r["blocks"] == p * 257                  # 256 data blocks + 1 padding block each
    assert r["utilization"] >= 0.95, r
    # the CSR path runs the same scheduler one block per job: the CPU is the bottleneck
    csr = sched_run.record(instance, "csr")
    assert csr["ok"] and csr["blocks"] == p * 257 and csr["utilization"] < r["utilization"]


def test_sched_on_main_soc_every_family(main_run):
    assert {r["instance"] for r in main_run.records} == {"sha256", "sha1", "sha512"}
    assert main_run.all_ok, ([r for r in main_run.records if not r["ok"]],
                             [c for c in main_run.checks if not c["ok"]])
    # one slot: the engine idles while a message's next block waits for its chaining value
    # unless the DMA prefetches it (it does): a single long message keeps a p1 engine busy too
    for inst in ("sha256", "sha1", "sha512"):
        assert main_run.record(inst, "dma")["utilization"] >= 0.9
