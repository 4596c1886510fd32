# SPDX-License-Identifier: BSD-2-Clause
"""litedigest.measure.papers (the papers' numbers) and litedigest.measure.design_space
(ours beside theirs): the transcribed data is consistent with itself and cites its paper,
the cycle counts the papers state are litedigest.spec's, the ratios are computed right
from the committed bitstreams/engines.json ("not measured yet" where a spec is missing),
and docs/DESIGN_SPACE.md's generated tables are up to date (--check)."""

import copy
import math
import statistics
import subprocess
import sys
from fractions import Fraction

import pytest
from litedigest import spec as specmod
from litedigest.measure import design_space as ds
from litedigest.measure import papers as P
from litedigest.paths import repo_root
from litedigest.soc.flows import dse

ROOT = repo_root()
IDENTITY = {"design", "spec", "device", "family", "arch", "source"}
# cells whose printed throughput does not follow from the printed clock (each table's notes say so)
INCONSISTENT = {
    ("lien2004_sha512", "unrolled (k=5)", "V"),
    ("lien2004_sha512", "unrolled (k=5)", "V-E"),
    ("michail2010_sha256", "Proposed (Virtex)", "V"),
}


def _block_bits(spec):
    return 8 * specmod.parse(spec).block_size


# ------------------------------------------------------------------------------ papers.py
@pytest.mark.parametrize("table", list(P.TABLES.values()), ids=list(P.TABLES))
def test_every_table_cites_its_paper(table):
    paper = table.paper
    assert paper.authors and all(len(a.split()) >= 2 for a in paper.authors)
    assert paper.title and isinstance(paper.year, int) and 2000 <= paper.year <= 2016
    surname = paper.authors[0].split()[-1]
    # the docstring names the authors, the title, the year, the table/figure, a device, the tool
    for needed in (surname, paper.title, str(paper.year)):
        assert needed.lower() in table.doc.lower(), (table.key, needed)
    assert table.source and table.source.split()[0].rstrip(".") in table.doc, table.key
    assert any(d.split()[0].split(",")[0] in table.doc for d in table.devices.values()), table.key
    assert table.tool and table.devices


@pytest.mark.parametrize("table", list(P.TABLES.values()), ids=list(P.TABLES))
def test_units_and_values(table):
    assert "MHz" in table.units["freq_mhz"]
    assert table.units["throughput"].split()[0] in P.THROUGHPUT_SCALE
    assert any(w in table.units["area"] for w in ("slices", "CLB")), table.units["area"]
    for row in table.rows:
        assert row["device"] in table.devices, row
        specmod.parse(row["spec"])
        for k, v in row.items():
            if k in IDENTITY:
                continue
            assert k in table.units, (table.key, k)  # every value has its unit
            assert v is None or (isinstance(v, (int, float)) and not math.isnan(v) and v >= 0), (
                table.key,
                k,
                v,
            )
            assert v != 0 or k == "bram", (table.key, k)


def test_the_papers_stage_counts_are_the_catalogues():
    """Michail et al. 2016 built exactly the depths litedigest.spec builds (sec. 5)."""
    for t in P.MICHAIL_2016_TABLES:
        fam, arch = t.rows[0]["family"], t.rows[0]["arch"]
        assert tuple(sorted({r["p"] for r in t.rows})) == specmod.STAGES[(fam, arch)], t.key


@pytest.mark.parametrize("table", list(P.TABLES.values()), ids=list(P.TABLES))
def test_throughput_is_bits_times_clock_over_cycles(table):
    """Each printed throughput is block bits x f / cycles (eq. 3) within the printed precision,
    but for the cells each table's notes name as inconsistent."""
    scale = P.THROUGHPUT_SCALE[table.units["throughput"].split()[0]]
    for r in table.rows:
        f, t = P.effective_freq_mhz(r), P.throughput_mbps(table, r)
        if f is None or t is None:
            continue
        cycles = r.get("block_cycles_in_throughput") or r["cycles"]
        df = (0.5 if isinstance(r["freq_mhz"], int) else 0.05) / r.get("multicycle", 1)
        dt = (0.005 if scale > 1 else (0.5 if isinstance(r["throughput"], int) else 0.05)) * scale
        bits = _block_bits(r["spec"]) if "hmac" not in r["spec"] else 512
        lo, hi = bits * (f - df) / cycles - dt, bits * (f + df) / cycles + dt
        key = (table.key, r["design"], r["device"])
        if key in INCONSISTENT:
            assert not lo <= t <= hi, key
            assert table.notes, key
        else:
            assert lo <= t <= hi, (key, lo, t, hi)


def test_cycle_counts_match_the_catalogue():
    """The cycles the papers state are litedigest.spec's: the same between digests of a
    pipeline; our 1-stage SHA engines add the chaining value in one more cycle."""
    for t in P.MICHAIL_2016_TABLES:
        for r in t.rows:
            s = specmod.parse(r["spec"])
            assert Fraction(r["cycles"]) == Fraction(s.latency - 1, s.in_flight), r
            if s.stages > 1:
                assert Fraction(r["cycles"]) == s.interval, r
            else:
                assert s.interval == r["cycles"] + 1, r
    for t in (P.M12_SHA256, P.M10_SHA256, P.M12_HMAC):  # a digest every 8 cycles
        for r in t.rows:
            assert specmod.parse(r["spec"]).interval == r["cycles"] == 8, (t.key, r)
    for r in P.M12_HMAC.rows:  # 65 cycles, message to MAC
        assert specmod.parse(r["spec"]).latency == r["latency"] == 65
    for t in P.LIEN_2004_TABLES:  # 80 steps; 80 / k iterations
        for r in t.rows:
            s = specmod.parse(r["spec"])
            assert s.latency == s.interval == r["cycles"] + 1, r
    for t in P.ATHANASIOU_2013_TABLES:  # 73, 19, 10; (9 x p) + 2
        for r in t.rows:
            s = specmod.parse(r["spec"])
            if r["cycles"] is not None:
                assert s.latency == r["cycles"], r
                assert r["cycles"] == (9 * r["fp"] + 2 if r["fp"] > 1 else r["cycles"])
            if r["sp"] == 1 and r["fp"] <= 2:  # the throughput column's count
                assert s.interval == r["block_cycles_in_throughput"], r


def test_claims_parse_and_agree_with_the_tables():
    for c in P.CLAIMS:
        for s in (c.spec, c.base_spec):
            if s is not None:
                specmod.parse(s.replace(":pN", ":p1"))
        assert c.quote and c.source
    # Lien et al. sec. 7 against Tables 2 and 3
    t2, t3 = P.L04_SHA1, P.L04_SHA512

    def ratio(t, field):
        return t.row("unrolled (k=5)", "V")[field] / t.row("basic", "V")[field]

    stated = {(c.design, c.metric): c.factor for c in P.LIEN_2004_CLAIMS}
    assert ratio(t2, "throughput") == pytest.approx(
        stated[("SHA-1 unrolled (k=5)", "throughput")], abs=0.05
    )
    assert ratio(t2, "area") == pytest.approx(stated[("SHA-1 unrolled (k=5)", "area")], abs=0.1)
    assert ratio(t3, "throughput") == pytest.approx(
        stated[("SHA-512 unrolled (k=5)", "throughput")], abs=0.01
    )
    assert ratio(t3, "area") == pytest.approx(stated[("SHA-512 unrolled (k=5)", "area")], abs=0.01)
    # Athanasiou et al.'s percentages against their Figs. 6-8
    rows = {(r["design"], r["device"]): (t, r) for t in P.ATHANASIOU_2013_TABLES for r in t.rows}
    field = {"area": "area", "frequency": "freq_mhz", "throughput": "throughput"}
    for c in P.ATHANASIOU_2013_CLAIMS:
        (t, a) = rows[(c.design, c.device)]
        if c.unit != "%":  # Fig. 12's absolute T/A labels
            assert a["throughput"] / a["area"] == pytest.approx(c.value, abs=0.006), c
            continue
        (_, b) = rows[(c.baseline, c.device)]
        if c.metric == "throughput/area":
            got = (a["throughput"] / a["area"]) / (b["throughput"] / b["area"])
        else:
            got = a[field[c.metric]] / b[field[c.metric]]
        if (c.design, c.baseline, c.device) == ("8r_2Fp", "8-round_unroll", "V-5"):
            assert got == pytest.approx(1.124, abs=0.001) and "17.4%" in " ".join(t.notes)  # noted
            continue
        assert got == pytest.approx(c.factor, abs=0.015), c
    # Michail et al. 2016, Fig. 18: optimized over base throughput/area, over the depths
    for fam, tb, to in (
        ("sha1", P.M16_SHA1_BASE, P.M16_SHA1_OPT),
        ("sha256", P.M16_SHA256_BASE, P.M16_SHA256_OPT),
    ):
        for c in (c for c in P.MICHAIL_2016_CLAIMS if c.spec == f"{fam}:opt:pN"):
            ps = sorted({r["p"] for r in to.rows} & {r["p"] for r in tb.rows})
            vals = [
                (to.row(device=c.device, p=p)["throughput"] / to.row(device=c.device, p=p)["area"])
                / (
                    tb.row(device=c.device, p=p)["throughput"]
                    / tb.row(device=c.device, p=p)["area"]
                )
                for p in ps
                if to.rows and any(r["p"] == p and r["device"] == c.device for r in to.rows)
            ]
            assert statistics.median(vals) == pytest.approx(c.factor, abs=0.12), (c, vals)


# ------------------------------------------------------------------------- design_space.py
@pytest.fixture(scope="module")
def doc():
    return dse.load()


@pytest.fixture(scope="module")
def comps(doc):
    return {c.key: c for c in ds.comparisons(doc)}


def _rec(doc, spec):
    return next(r for r in doc["engines"] if r["spec"] == specmod.parse(spec).engine_name)


def test_ratios_of_a_measured_pair(doc, comps):
    """sha1:k5 over sha1:base: our ratios from engines.json, theirs from Lien et al.'s Table 2."""
    row = next(r for r in comps["unrolling"].rows if r.spec == "sha1:k5" and "Table 2" in r.label)
    k5, base = _rec(doc, "sha1:k5"), _rec(doc, "sha1:base")
    T = k5["throughput_mbps"] / base["throughput_mbps"]
    A = k5["ecp5"]["lut4_with_carry"] / base["ecp5"]["lut4_with_carry"]
    assert row.missing == ()
    assert row.ours["T"] == pytest.approx(T)
    assert row.ours["A"] == pytest.approx(A)
    assert row.ours["TA"] == pytest.approx(T / A)
    assert row.ours["f"] == pytest.approx(k5["ecp5"]["fmax_median"] / base["ecp5"]["fmax_median"])
    assert row.ours["FF"] == pytest.approx(k5["ecp5"]["ff"] / base["ecp5"]["ff"])
    # the paper's: Virtex primary, Virtex-E in the range; the effective clock of the 2-clock path
    assert row.paper["T"].value == pytest.approx(1024 / 544)
    assert row.paper["A"].value == pytest.approx(1480 / 480)
    assert row.paper["f"].value == pytest.approx((64 / 2) / 85)
    assert row.paper["TA"].value == pytest.approx((1024 / 544) / (1480 / 480))
    assert row.paper["T"].range == pytest.approx((1160 / 659, 1024 / 544))
    cells = ds.table_markdown(comps["unrolling"])
    assert f"| {ds._num(T)} |" in cells and f"{1024 / 544:.2f} (1.76–1.88)" in cells


def test_a_baseline_over_itself_is_one(doc, comps):
    row = comps["pipelines_sha256_opt"].rows[0]
    assert row.spec == row.base == "sha256:opt:p1"
    assert row.ours == {"f": 1.0, "T": 1.0, "A": 1.0, "FF": 1.0, "TA": 1.0}
    assert all(row.paper[m].value == 1.0 for m in ds.METRICS)


def test_absent_specs_are_not_measured_yet(doc, comps):
    # a spec absent from the document (removed here, whether or not it has been measured)
    doc1 = copy.deepcopy(doc)
    doc1["engines"] = [r for r in doc1["engines"] if r["spec"] != "sha256:base:p4"]
    pipes = next(c for c in ds.comparisons(doc1) if c.key == "pipelines_sha256_base")
    row = next(r for r in pipes.rows if r.x == 4)
    assert row.ours is None and row.missing == ("sha256:base:p4",)
    assert row.paper["T"].value == pytest.approx(3.48 / 0.88)
    text = ds.comparison_markdown(pipes)
    line = next(ln for ln in text.splitlines() if ln.startswith("| SHA256base-p4 |"))
    assert line.count(ds.NOT_MEASURED) == 5
    assert (
        "`sha256:base:p4`" in text.split("Not measured yet (no routed record in engines.json):")[1]
    )
    # the baseline absent, the spec present
    doc2 = copy.deepcopy(doc)
    doc2["engines"] = [r for r in doc2["engines"] if r["spec"] != "sha1:base:p1"]
    c = next(c for c in ds.comparisons(doc2) if c.key == "unrolling")
    row = c.rows[0]
    assert row.ours is None and row.missing == ("sha1:base:p1",)
    assert f"{ds.NOT_MEASURED} (baseline)" in ds.table_markdown(c)


def test_every_comparison_spec_is_a_spec(comps):
    for c in comps.values():
        for r in c.rows:
            for s in (r.spec, r.base):
                if s is not None:
                    specmod.parse(s)
        for a in c.absolute:
            specmod.parse(a.spec)


# ----------------------------------------------------------------- docs/DESIGN_SPACE.md
def test_doc_check_cli(tmp_path):
    """--check: 0 on the repository; 1 with a diff when a generated table was edited."""
    r = subprocess.run(
        [sys.executable, "-m", "litedigest.measure.design_space", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = open(ds.doc_path()).read()
    edited = tmp_path / "DESIGN_SPACE.md"
    edited.write_text(
        text.replace(
            "| SHA-1 unrolled (k=5) / basic (Table 2) |",
            "| SHA-1 unrolled (k=5) / basic (edited) |",
        )
    )
    r = subprocess.run(
        [sys.executable, "-m", "litedigest.measure.design_space", "--check", "--doc", str(edited)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 1 and "(edited)" in r.stdout and "--write" in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "litedigest.measure.design_space", "--write", "--doc", str(edited)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0 and edited.read_text() == text


def test_doc_blocks_and_markdown(doc):
    text = open(ds.doc_path()).read()
    blocks = ds.blocks(doc)
    for name, body in blocks.items():
        assert f"<!-- BEGIN GENERATED: {name} -->\n{body}\n<!-- END GENERATED: {name} -->" in text
    with pytest.raises(ValueError):
        ds.splice("<!-- BEGIN GENERATED: other -->\n<!-- END GENERATED: other -->\n", blocks)
    r = subprocess.run(
        [sys.executable, "-m", "litedigest.measure.design_space", "--markdown"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0
    assert r.stdout.count("| paper design |") >= len(blocks) - 1 and ds.NOT_MEASURED in r.stdout


def test_unrouted_specs_are_listed_with_their_estimate(doc):
    """A record that no seed routed within dse's time limit (area, placement estimate) gives
    no ratio, and its comparison and the provenance say so with the estimate and the arcs left."""
    doc1 = copy.deepcopy(doc)
    doc1["engines"] = [r for r in doc1["engines"] if r["spec"] != "sha1:k5:p1"] + [
        {
            "spec": "sha1:k5:p1",
            "family": "sha1",
            "throughput_mbps": None,
            "ecp5": {
                "lut4": 2662,
                "lut4_with_carry": 2988,
                "ff": 1005,
                "seeds": [],
                "fmax_mhz": [],
                "fmax_median": None,
                "unrouted": [
                    {
                        "seed": 1,
                        "estimate_mhz": 21.5,
                        "arcs": 9000,
                        "arcs_left": 1234,
                        "route_timeout_s": 300.0,
                    }
                ],
            },
        }
    ]
    assert "sha1:k5:p1" in ds.unrouted(doc1) and "sha1:k5:p1" not in ds.records(doc1)
    c = next(c for c in ds.comparisons(doc1) if c.key == "unrolling")
    assert "sha1:k5:p1" in c.missing and "sha1:k5:p1" in c.unrouted
    text = ds.comparison_markdown(c)
    assert (
        "`sha1:k5:p1` (placement estimate 21.5 MHz; 1,234 "
        "of 9,000 arcs unrouted when stopped after 300 s)" in text
    )
    assert "Not routed within the time limit" in ds.blocks(doc1)["provenance"]
    # stopped while still placing: no estimate, said so
    doc1["engines"][-1]["ecp5"]["unrouted"] = [
        {"seed": 1, "estimate_mhz": None, "arcs": None, "arcs_left": None, "route_timeout_s": 600.0}
    ]
    c = next(c for c in ds.comparisons(doc1) if c.key == "unrolling")
    assert "`sha1:k5:p1` (still placing when stopped after 600 s)" in ds.comparison_markdown(c)
    # the committed document's own unrouted records are listed the same way
    for name, runs in ds.unrouted(doc).items():
        assert ds._unrouted_line(name, runs).startswith(f"`{name}` ("), name
