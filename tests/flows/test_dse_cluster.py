# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest dse` on Dask (soc/flows/cluster.py): the records a Dask cluster makes are the
ones the sequential run makes, a rerun resumes from the cache, a failing task is retried once
and then reported without stopping the others, and the command line takes --jobs and
--scheduler. The tools are the stand-ins of test_dse.py (what is tested is the scheduling and
the bookkeeping); the cluster is a LocalCluster of threads, so that the stand-ins reach its
workers."""

import threading

import pytest
from distributed import Client, LocalCluster
from litedigest.cli import dse as cmd_dse
from litedigest.soc.flows import cluster, dse
from litedigest.soc.flows import ecp5 as flow_ecp5
from test_dse import _stand_in_pnr, _stand_in_synth, cli_main

SPECS = ["sha1:base", "sha256:base"]
SEEDS = [1, 2, 3]


def quiet(message):
    pass


@pytest.fixture()
def tools(tmp_path, monkeypatch):
    """The stand-in tools, no committed document, the build root under tmp_path/<name>
    (`where(name)`); `runs`: the (spec's shell netlist, seed) of each place and route."""
    runs, lock = [], threading.Lock()
    pnr = _stand_in_pnr(lambda seed: 40.0 + seed)

    def counted(net, workdir, seed=1, **kw):
        with lock:
            runs.append((workdir, seed))
        return pnr(net, workdir, seed=seed, **kw)

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", counted)
    monkeypatch.setattr(dse, "default_path", lambda: str(tmp_path / "no-committed.json"))

    def where(name):
        monkeypatch.setenv("LITEDIGEST_BUILD", str(tmp_path / name))

    return runs, where


@pytest.fixture(scope="module")
def client():
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as c,
        Client(c) as cl,
    ):
        yield cl


def test_cluster_records_are_the_sequential_ones(tools, client):
    runs, where = tools
    where("sequential")
    seq = dse.measure(SPECS, SEEDS, xc7=False, log=quiet)
    assert len(runs) == 6
    where("dask")
    par = cluster.measure_specs(SPECS, SEEDS, xc7=False, log=quiet, client=client)
    assert par == seq and len(runs) == 12
    assert [r["ecp5"]["fmax_median"] for r in par] == [42.0, 42.0]
    # a rerun resumes from the cache: nothing runs
    assert cluster.measure_specs(SPECS, SEEDS, xc7=False, log=quiet, client=client) == seq
    assert len(runs) == 12
    # an interrupted run (seed 2 of sha256:base lost) runs that seed alone
    cache = dse.workdir_of("sha256:base:p1") + "/result.json"
    rec = dse._read_json(cache)
    del rec["pnr"]["2"]
    dse._save(cache, rec)
    assert cluster.measure_specs(SPECS, SEEDS, xc7=False, log=quiet, client=client) == seq
    assert len(runs) == 13 and runs[-1][1] == 2 and "sha256-base" in runs[-1][0]
    # more seeds: only the new one runs, the record takes all four
    four = cluster.measure_specs(["sha1:base"], [1, 2, 3, 4], xc7=False, log=quiet, client=client)
    assert len(runs) == 14 and four[0]["ecp5"]["fmax_mhz"] == [41.0, 42.0, 43.0, 44.0]


def test_a_failing_task_is_retried_once_then_reported(tools, client, monkeypatch):
    runs, where = tools
    where("failing")
    tries = {}
    pnr = flow_ecp5.nextpnr_ecp5

    def flaky(net, workdir, seed=1, **kw):
        tries[seed] = tries.get(seed, 0) + 1
        if seed == 2 and tries[seed] == 1:
            raise RuntimeError("nextpnr crashed (first try)")
        if seed == 3:
            raise RuntimeError("nextpnr crashed (every try)")
        return pnr(net, workdir, seed=seed, **kw)

    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", flaky)
    lines = []
    with pytest.raises(cluster.TaskFailed) as e:
        cluster.measure_specs(["sha1:base"], SEEDS, xc7=False, log=lines.append, client=client)
    assert tries == {1: 1, 2: 2, 3: 2}  # seed 2 recovered on its retry, seed 3 did not
    assert "sha1:base:p1 seed 3" in str(e.value) and "every try" in str(e.value)
    assert any("failed twice" in line for line in lines)
    # the others are recorded and cached: the next run tries seed 3 alone
    assert e.value.records[0]["ecp5"]["seeds"] == [1, 2]
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", pnr)
    n = len(runs)
    rec = cluster.measure_specs(["sha1:base"], SEEDS, xc7=False, log=quiet, client=client)
    assert rec[0]["ecp5"]["seeds"] == SEEDS and len(runs) == n + 1 and runs[-1][1] == 3


def test_a_worker_of_other_sources_refuses(tools, client):
    """A task whose stamp is not the one the worker's checkout gives: refused, not measured."""
    _, where = tools
    where("stamps")
    fut = client.submit(cluster.synth_task, "sha1:base:p1", "0" * 64, {}, False, True, pure=False)
    with pytest.raises(RuntimeError, match="not the client's"):
        fut.result()


def test_command_line_jobs_and_scheduler(tools, monkeypatch, capsys):
    """--jobs and --scheduler reach dse.measure; --jobs 0 and a bad scheduler are refused."""
    _, where = tools
    where("cli")
    seen = {}

    def fake(specs, seeds, **kw):
        seen.update(kw, specs=specs, seeds=seeds)
        return []

    monkeypatch.setattr(cluster, "measure_specs", fake)
    monkeypatch.setattr(dse, "measure", lambda specs, seeds, **kw: seen.update(sequential=1) or [])
    assert cli_main(["dse", "--engine", "sha1:base", "--seeds", "1", "--jobs", "3"]) == 0
    assert seen["jobs"] == 3 and seen["scheduler"] is None and "sequential" not in seen
    assert cli_main(["dse", "--engine", "sha1:base", "--scheduler", "tcp://h:8786"]) == 0
    assert seen["scheduler"] == "tcp://h:8786"
    assert cli_main(["dse", "--engine", "sha1:base", "--jobs", "1"]) == 0
    assert seen["sequential"] == 1
    assert cli_main(["dse", "--engine", "sha1:base", "--jobs", "0"]) == 2
    assert cli_main(["dse", "--engine", "sha1:base", "--scheduler", "h:8786"]) == 2
    assert "--scheduler" in capsys.readouterr().err
    assert "--jobs" in cmd_dse.__doc__


def test_a_route_task_replaces_another_synthesis_netlist(tools):
    """A worker's netlist of another synthesis (here: the same size) is replaced by the one the
    task carries before nextpnr runs."""
    import lzma
    import os

    runs, where = tools
    where("netlist")
    sw = os.path.join(dse.workdir_of("sha1:base:p1"), "shell")
    os.makedirs(sw)
    net = os.path.join(sw, "netlist.json")
    with open(net, "w") as f:
        f.write("[]")
    kind, run = cluster.route_task(
        "sha1:base:p1",
        "stamp",
        lzma.compress(b"{}"),
        1,
        dse.DEFAULT_PLACER,
        None,
        None,
        {"lut4": 1, "ccu2c": 0, "ff": 1},
    )
    with open(net) as f:
        assert f.read() == "{}"
    assert kind == "run" and run["fmax_mhz"] == 41.0 and runs[-1][1] == 1
