# SPDX-License-Identifier: BSD-2-Clause
"""Packet authentication on the simulated MAC SoC (software/firmware/apps/packets, `litedigest
bench --backend soc --packets`): HMAC-SHA-256-128 over the simple-IMIX stream and one-size
streams under four keys, on the HMAC peripheral's batch walker, on the sha256 peripheral from
stored key states and in software; every MAC against Python's hmac (the host rebuilds the
stream), the figures' arithmetic against the records' raw cycles."""

import hmac

import pytest
from litedigest.measure import bench, socdemo
from litedigest.soc.targets.sim import MAC_SOC


@pytest.fixture(scope="module")
def run():
    return socdemo.run_packets(list(MAC_SOC))


def test_every_mac_is_pythons(run):
    assert run.checks and all(c["ok"] for c in run.checks), run.checks
    assert not run.mac_mismatches()
    paths = {(r["instance"], r["size"], r["burst"]) for r in run.records}
    for size in (0, 64, 576, 1500):
        assert {("sw", size, 1), ("sha256", size, 1), ("hmac_sha256", size, 240)} <= paths
    assert ("hmac_sha256", 0, 32) in paths
    assert run.all_ok


def test_the_stream_is_the_simple_imix():
    """The host's copy of the stream: 7:4:1 of 64, 576 and 1,500 bytes in every deck of 12,
    all four keys used, the one-size streams of their size; a wrong MAC is caught."""
    keys, stream = socdemo.packet_stream()
    assert len(stream) == socdemo.PACKET_STREAM and len(keys) == 4
    assert all(len(k) == 32 for k in keys) and len(set(keys)) == 4
    for d in range(0, socdemo.PACKET_NBUF, 12):
        assert sorted(len(p) for _, p in stream[d : d + 12]) == sorted(socdemo.PACKET_IMIX)
    assert {sa for sa, _ in stream} == {0, 1, 2, 3}
    for size in (64, 576, 1500):
        _, sized = socdemo.packet_stream(size)
        assert {len(p) for _, p in sized} == {size} and len(sized) == socdemo.PACKET_SIZED
    good = socdemo.packet_macs_digest(keys, stream[:3])
    sa, p = stream[1]
    assert (
        hmac.new(keys[sa], p, "sha256").digest()[:16]
        != hmac.new(keys[(sa + 1) % 4], p, "sha256").digest()[:16]
    )
    bad = [stream[0], (stream[1][0] ^ 1, stream[1][1]), stream[2]]
    assert socdemo.packet_macs_digest(keys, bad) != good


def test_bench_rows(run, monkeypatch):
    """bench --packets: rates from the raw cycles, the engine's limit from the blocks, the
    walker faster than the stored-state path, faster than software, and within its limit."""
    monkeypatch.setattr(socdemo, "run_packets", lambda engines, log=None: run)
    rows = list(bench.bench_soc_packets([list(MAC_SOC)], log=lambda m: None))
    assert len(rows) == len(run.records) and all(r["digest_ok"] for r in rows)
    for row, rec in zip(rows, run.records):
        assert row["cycles_per_packet"] == round(rec["cycles"] / rec["packets"], 1)
        assert row["gbit_per_second"] == round(8 * rec["bytes"] * 50e6 / rec["cycles"] / 1e9, 4)
    by = {(r["instance"], r["packet_bytes"], r["burst"]): r for r in rows}
    walker, states, sw = (
        by["hmac_sha256", "IMIX", 240],
        by["sha256", "IMIX", 1],
        by["sw", "IMIX", 1],
    )
    # hmac-sha256:opt:p4: 8 cycles a block (32 / 4 stages); sha256:opt: 33 a block, outer too
    assert walker["engine_limit"] == 8 * walker["inner_blocks"]
    assert states["engine_limit"] == 33 * (states["inner_blocks"] + states["packets"])
    assert walker["gbit_per_second"] > states["gbit_per_second"] > sw["gbit_per_second"]
    assert 0 < walker["engine_share"] <= 1 and walker["speedup_vs_sw"] > 10
    assert walker["driver_cycles_per_packet"] < walker["cycles_per_packet"]
    assert by["hmac_sha256", "IMIX", 32]["cycles_per_packet"] > walker["cycles_per_packet"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--backend", "rtl", "--packets"], "--packets applies to --backend soc alone"),
        (["--backend", "soc", "--packets", "--batch"], "--packets applies to --backend soc"),
        (["--backend", "soc", "--packets", "--engine", "sha256:nope"], "sha256:nope"),
    ],
)
def test_bad_bench_options_are_a_clear_error(argv, message, capsys):
    from litedigest import cli

    assert cli.main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
