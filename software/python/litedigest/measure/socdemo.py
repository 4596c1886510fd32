# SPDX-License-Identifier: BSD-2-Clause
"""Run the firmware demo on the simulated SoC and collect its measurements.

The firmware (software/firmware/apps/demo) prints one `LDRESULT key=value ...` line per
measurement and one `LDCHECK name=... ok=0|1` line per bad-input check, then `LDDONE`.
Used by `litedigest demo` and `litedigest bench --backend soc`.

A firmware run on the simulated SoC is deterministic (Verilator, one clock, no input from the
host), so `run_app` keeps each app's console beside the SoC build (`<build>/runs/<app>/`),
stamped with the simulator binary and the firmware image: the benches, the notebooks and the
tests that run the same firmware on the same SoC run it once. `LITEDIGEST_RUN_CACHE=0` (or
`fresh=True`) runs it again.
"""

import contextlib
import dataclasses
import functools
import hashlib
import hmac
import os
import re
import struct

from litedigest import spec as specmod
from litedigest.progress import keeping, shown_path, status

DEFAULT_ENGINE = "sha256:opt"


def _standard():
    """The sim target (its standard SoCs: MAIN_SOC, SCHED_SOC, soc_engines_for)."""
    from litedigest.soc.targets import sim

    return sim


def _passed(records, checks):
    """The firmware printed records, and every record and every check says ok."""
    return bool(records) and all(r["ok"] for r in records) and all(c["ok"] for c in checks)


@dataclasses.dataclass
class DemoRun:
    engine: str
    records: list  # dicts: engine, path, bytes, cycles, ok, digest
    checks: list  # dicts: name, ok
    console: str  # everything the firmware printed
    build_seconds: float
    timer_cycles: int = 0  # the counter's own cost, subtracted from every record's cycles
    # (raw_cycles: the interval as read, counter included)

    @property
    def all_ok(self):
        return _passed(self.records, self.checks)

    def table(self):
        """The firmware's own table (bytes, path, cycles, bytes/cycle, speedup, ok)."""
        m = re.search(r"^bytes\s+path.*?(?=\n\s*\n|\Z)", self.console, re.M | re.S)
        return m.group(0) if m else ""

    def record(self, path, nbytes):
        for r in self.records:
            if r["path"] == path and r["bytes"] == nbytes:
                return r
        return None


def demo_message(n):
    """The message the demo firmware hashes: byte i is (7 i + 3) mod 256 (see its main())."""
    return bytes((7 * i + 3) & 0xFF for i in range(n))


def _kv(line):
    out = {}
    for tok in line.split():
        k, _, v = tok.partition("=")
        out[k] = int(v) if v.isdigit() and k not in ("hex", "digest") else v
    return out


def console_lines(text, tag):
    """The `<tag> key=value ...` lines a firmware printed, as dicts (`ok` as a bool)."""
    out = []
    for line in text.splitlines():
        if line.startswith(tag + " "):
            r = _kv(line[len(tag) + 1 :])
            r["ok"] = bool(r.get("ok"))
            out.append(r)
    return out


def parse_console(text):
    records = console_lines(text, "LDRESULT")
    for r in records:
        # the firmware compares hw with its own sw digest; check both against hashlib too
        want = hashlib.sha256(demo_message(r.get("bytes", 0))).hexdigest()
        r["ok"] = r["ok"] and r.get("digest") == want
    return records, console_lines(text, "LDCHECK")


RUN_CACHE_ENV = "LITEDIGEST_RUN_CACHE"  # "0": run the firmware even when its run is cached
RUN_CACHE_DIR = "runs"  # under the SoC's build directory, one directory per app


def _run_stamp(b, app, fw):
    """What a firmware run's console depends on: the simulator binary (the SoC's gateware and
    the Verilator harness), the firmware image and the code that starts and reads the run."""
    from litedigest import buildcache
    from litedigest.soc.sim import process

    return buildcache.stamp(
        {
            "app": app,
            "vsim": buildcache.file_sha256(b.vsim),
            "firmware": buildcache.file_sha256(fw),
        },
        [process.__file__, __file__],
    )


# the runs of the firmware since recorded_runs() was entered (None: not recording)
_runs = None


@contextlib.contextmanager
def recorded_runs():
    """Collect the firmware runs made inside the block: yields a list that gets one
    {app, engines, stamp} per run_app (the stamp of the firmware image on the simulator binary:
    a measurement record names the build its figures came from)."""
    global _runs
    outer, _runs = _runs, []
    runs = _runs
    try:
        yield runs
    finally:
        _runs = outer
        if outer is not None:
            outer.extend(runs)


def run_app(engines, app, log=None, timeout=900, fresh=False, hot_gap=0):
    """Build the simulated SoC with `engines` (cached) and the firmware `app`
    (software/firmware/apps/<app>), run it until it prints LDDONE; return (console, build).
    The console of an earlier run of the same firmware on the same simulator is reused unless
    `fresh` or LITEDIGEST_RUN_CACHE=0 (see the module's docstring); concurrent callers of one
    app on one SoC take turns, so the later ones reuse the first one's run. `hot_gap`: the app
    linked with that many bytes between its timed code and the rest (apps/linker.ld), another
    layout of the same code."""
    from litedigest import buildcache
    from litedigest.soc.sim.build import build_soc
    from litedigest.soc.sim.firmware import app_dir, build_firmware
    from litedigest.soc.sim.process import SimProcess

    log = log or (lambda msg: None)
    log(f"building the simulated SoC with {', '.join(engines)} (cached after the first run)...")
    b = build_soc(engines, log=log)
    log(f"building the {app} firmware...")
    keeping(log, f"the SoC build in {shown_path(b.build_dir)} is kept; the next run reuses it")
    variant = f"gap{hot_gap}" if hot_gap else None
    make_args = (f"HOT_GAP={hot_gap}",) if hot_gap else ()
    fw = build_firmware(b, app_dir(app), extra_make_args=make_args, variant=variant)
    runs = os.path.join(b.build_dir, RUN_CACHE_DIR, app + (f"-{variant}" if variant else ""))
    reuse = not fresh and os.environ.get(RUN_CACHE_ENV, "1") != "0"
    with buildcache.locked(runs):
        record = os.path.join(runs, "console.json")
        stamp = _run_stamp(b, app, fw)
        if _runs is not None:
            run = {"app": app, "engines": [str(e) for e in engines], "stamp": stamp}
            _runs.append({**run, "hot_gap": hot_gap} if hot_gap else run)
        done = buildcache.cached(record, stamp) if reuse else None
        if done is not None:
            log(
                f"{app}: this firmware's run on this simulator is cached ({record}; "
                f"{RUN_CACHE_ENV}=0 runs it again)"
            )
            return done["console"], b
        log(f"running {app} on the simulated SoC (Verilator + VexRiscv)...")
        keeping(
            log,
            f"the SoC build in {shown_path(b.build_dir)} is kept; the next run reuses it and "
            f"runs {app} again",
        )
        with SimProcess(b, firmware=fw) as sim:
            # the LiteX console UART ends lines with "\n\r"
            text = sim.read_console_until("LDDONE", timeout=timeout, tick=_console_status(log))
            text = text.replace("\r", "")
        buildcache.record(record, stamp, console=text)
    return text, b


def _console_status(log):
    """The live status of a firmware run: the result lines (LD...) it printed so far."""
    said = [None]

    def tick(out):
        n = out.count(b"\nLD")
        if n != said[0]:
            said[0] = n
            status(log, f"{n} result lines")

    return tick


def run_sha256_app(engine, app, log=None, timeout=900, hint="", fresh=False):
    """run_app for a firmware that drives the sha256 peripheral (demo, profile, irq): on the
    sim target's SoC that has `engine`, a SHA-256/SHA-224 engine (anything else is a
    ValueError, `hint` appended). Returns (spec, console, build)."""
    spec = specmod.parse(engine)
    if spec.family != "sha256":
        raise ValueError(
            f"the {app} firmware drives the sha256 peripheral, not {spec.engine_name}{hint}"
        )
    text, b = run_app(_standard().soc_engines_for(spec), app, log=log, timeout=timeout, fresh=fresh)
    return spec, text, b


def run_demo(engine=DEFAULT_ENGINE, log=None, timeout=900, fresh=False):
    """Build the SoC that has `engine` (cached) and the demo firmware, run it (`fresh`: even
    when its run is cached, see run_app), parse its output."""
    spec, text, b = run_sha256_app(
        engine,
        "demo",
        log,
        timeout,
        hint="; `litedigest bench --backend soc --sched --engine SPEC` measures any engine",
        fresh=fresh,
    )
    records, checks = parse_console(text)
    timer = console_lines(text, "LDTIMER")
    return DemoRun(
        str(spec), records, checks, text, b.build_seconds, timer[0]["cycles"] if timer else 0
    )


# the phase a profile interval belongs to, by the mark that ends it (apps/profile)
PROFILE_PHASES = {
    "setup": "context setup",
    "padded": "padding",
    "started": "programming the job",
    "done": "waiting for the engine",
    "acked": "status and acknowledge",
    "digest": "reading the digest",
    "return": "return",
}


def run_profile(engine=DEFAULT_ENGINE, log=None, timeout=900):
    """Run the profile firmware (apps/profile) on the SoC that has `engine`; return a list of
    cases, each {case, bytes, total, ok, phases: {phase: {cycles, reads, writes}}}, and the
    HAL's cost of a register read and write (cycles, from 64 of each)."""
    _, text, _ = run_sha256_app(engine, "profile", log, timeout)
    cases, access = {}, {}
    for r in console_lines(text, "LDPROF"):
        if "access" in r:
            access[r["access"]] = r["cycles_x64"] / 64
        elif "error" in r:
            raise RuntimeError(f"the profile firmware failed on {r['case']}: error {r['error']}")
        elif "case" in r:
            c = cases.setdefault(
                r["case"], {"case": r["case"], "bytes": int(r["case"].split("-")[1]), "phases": {}}
            )
            if "total" in r:
                c["total"] = r["total"]
                c["ok"] = r["digest"] == hashlib.sha256(demo_message(c["bytes"])).hexdigest()
            else:
                ph = c["phases"].setdefault(
                    PROFILE_PHASES[r["to"]], {"cycles": 0, "reads": 0, "writes": 0}
                )
                for k in ("cycles", "reads", "writes"):
                    ph[k] += r[k]
    if not cases or not all("total" in c for c in cases.values()):
        raise RuntimeError("the profile firmware printed no complete case")
    return list(cases.values()), access


@dataclasses.dataclass
class SchedRun:
    engines: list
    records: list  # LDSCHED lines: instance, engine, path, msgs, bytes, cycles (the
    # call's alone: `raw` minus the counter's cost), raw, warm, run_cycles,
    # blocks, interval, period, in_flight, busy (= blocks x period /
    # in_flight), utilization (busy over the engine's run),
    # end_to_end_utilization (busy over the whole call)
    checks: list  # LDCHECK lines
    console: str
    digests: list = dataclasses.field(default_factory=list)  # LDDIGEST lines
    timers: dict = dataclasses.field(default_factory=dict)  # instance -> LDTIMER cycles

    def digest_mismatches(self, reference):
        """The LDDIGEST lines whose digest differs from reference(alg, message) -> bytes (alg:
        a hashlib name or "skein512-<bits>"); the message is regenerated from its place in the
        firmware's buffer."""
        buf = sched_message_buffer()
        return [
            d
            for d in self.digests
            if reference(d["alg"], buf[d["off"] : d["off"] + d["len"]]).hex() != d["hex"]
        ]

    @property
    def all_ok(self):
        return _passed(self.records, self.checks)

    def timer_cycles(self, instance):
        """The counter's own cost on `instance` (LDTIMER), subtracted from its records' cycles
        (their `raw` is the interval as read)."""
        return self.timers.get(instance, 0)

    def record(self, instance, path, run=-1):
        rs = [r for r in self.records if r["instance"] == instance and r["path"] == path]
        return rs[run] if rs else None


def run_sched(engines=None, log=None, timeout=1800, hot_gap=0):
    """The scheduler firmware (software/firmware/apps/sched) on a SoC with `engines` (default the
    sim target's SCHED_SOC): per peripheral, p messages of 16 KiB through the C scheduler on the
    DMA and CSR paths (utilization = blocks x interval / cycles), mixed batches, bad messages;
    `hot_gap` as run_app's (another link layout)."""
    engines = list(engines or _standard().SCHED_SOC)
    text, _ = run_app(engines, "sched", log=log, timeout=timeout, hot_gap=hot_gap)
    records = console_lines(text, "LDSCHED")
    for r in records:
        r["utilization"] = r["busy"] / r["run_cycles"] if r.get("run_cycles") else 0.0
        r["end_to_end_utilization"] = r["busy"] / r["cycles"] if r.get("cycles") else 0.0
    checks = console_lines(text, "LDCHECK")
    timers = {t["instance"]: t["cycles"] for t in console_lines(text, "LDTIMER") if "instance" in t}
    return SchedRun(engines, records, checks, text, console_lines(text, "LDDIGEST"), timers)


SCHED_BUFFER_BYTES = 8 * 16384  # apps/sched: MAX_SLOTS x MSG_BYTES


def sched_message_buffer():
    """The scheduler firmware's message buffer (msgs_buf), from its generator: 32-bit word i
    is the i-th state of the LCG w = w * 1664525 + 1013904223 (seed 1), little-endian."""
    out, w = [], 1
    for _ in range(SCHED_BUFFER_BYTES // 4):
        w = (w * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(w)
    return struct.pack(f"<{len(out)}I", *out)


def skein_message(n):
    """The message the Skein firmware hashes (same bytes as the demo's)."""
    return demo_message(n)


def skein_key(n):
    """The MAC key of the Skein firmware: byte i is (5 i + 1) mod 256."""
    return bytes((5 * i + 1) & 0xFF for i in range(n))


@dataclasses.dataclass
class SkeinRun:
    engine: str
    records: list  # LDRESULT: path, bytes, cycles, ok, digest (16 KiB Skein-512-512)
    cases: list  # LDSKEIN: path, bits, keylen, outbits, ok, digest
    checks: list  # LDCHECK
    console: str

    @property
    def all_ok(self):
        return bool(self.records) and all(r["ok"] for r in self.records + self.cases + self.checks)

    def record(self, path):
        return next((r for r in self.records if r["path"] == path), None)


def run_skein(engines=None, log=None, timeout=1500):
    """The Skein firmware (software/firmware/apps/skein) on the SoC with the `skein512`
    peripheral (default: the sim target's MAIN_SOC): 16 KiB Skein-512-512 in software and
    on the CSR and DMA paths, and hash/MAC/output-length/bit-length cases. Every digest is
    checked on the host with `reference(message bytes, nbits, key, out_bits)` (default:
    the C library on the host plus pyskein for byte messages when it is installed)."""
    from litedigest import _clib as native

    engines = list(engines or _standard().MAIN_SOC)
    text, _ = run_app(engines, "skein", log=log, timeout=timeout)
    records = console_lines(text, "LDRESULT")
    cases = console_lines(text, "LDSKEIN")
    try:
        import skein as pyskein
    except ImportError:
        pyskein = None

    def want(nbits, keylen, outbits):
        msg, key = skein_message((nbits + 7) // 8), skein_key(keylen)
        ref = native.skein512(msg, outbits, key, nbits).hex()
        if pyskein is not None and nbits % 8 == 0:
            assert pyskein.skein512(msg, digest_bits=outbits, key=key).hexdigest() == ref
        return ref

    for r in records:
        r["ok"] = r["ok"] and r.get("digest") == want(8 * r["bytes"], 0, 512)
    for c in cases:
        c["ok"] = c["ok"] and c.get("digest") == want(c["bits"], c["keylen"], c["outbits"])
    engine = next((r["engine"] for r in records), "?")
    return SkeinRun(engine, records, cases, console_lines(text, "LDCHECK"), text)


BATCH_POOL = 32  # apps/batch: POOL distinct messages of up to MAX_BYTES
BATCH_MAX_BYTES = 1024


def _lcg(r):
    """The apps' LCG (ld_app.h): the state after r."""
    return (r * 1664525 + 1013904223) & 0xFFFFFFFF


def pool_bytes(n, seed=2026):
    """ld_app.h's fill_pool: byte k is bits 15:8 of the (k + 1)-th state of the LCG from
    `seed`."""
    out, r = bytearray(n), seed
    for k in range(n):
        r = _lcg(r)
        out[k] = (r >> 8) & 0xFF
    return bytes(out)


def batch_pool():
    """The batch firmware's message pool (apps/batch main()): byte k of message i is bits 15:8
    of the (1024 i + k + 1)-th state of the LCG r = r * 1664525 + 1013904223 (seed 2026)."""
    pool = pool_bytes(BATCH_POOL * BATCH_MAX_BYTES)
    return [pool[i : i + BATCH_MAX_BYTES] for i in range(0, len(pool), BATCH_MAX_BYTES)]


@dataclasses.dataclass
class BatchRun:
    engines: list
    records: list  # LDBATCH: instance, engine, bytes, batch/ring/walk/one/sw _msgs and _cycles
    checks: list  # LDCHECK: the firmware compared every batch and one-by-one digest
    digests: list  # LDDIGEST: instance, alg, bytes, index, digest (the software digests)
    console: str

    def digest_mismatches(self):
        """The LDDIGEST lines whose digest is not hashlib's of the same pool message."""
        pool = batch_pool()
        return [
            d
            for d in self.digests
            if hashlib.new(d["alg"], pool[d["index"]][: d["bytes"]]).hexdigest() != d["digest"]
        ]

    @property
    def all_ok(self):
        return (
            bool(self.records)
            and bool(self.digests)
            and all(c["ok"] for c in self.checks)
            and not self.digest_mismatches()
        )


def _pool_run(run_class, engines, app, record_tag, log, timeout):
    """Run the pool firmware `app` (batch, hmac) and read its console: the `record_tag` lines,
    the LDCHECK and the LDDIGEST lines."""
    text, _ = run_app(engines, app, log=log, timeout=timeout)
    return run_class(
        engines,
        console_lines(text, record_tag),
        console_lines(text, "LDCHECK"),
        console_lines(text, "LDDIGEST"),
        text,
    )


def run_batch(engines=None, log=None, timeout=1800):
    """The batch firmware (software/firmware/apps/batch) on a SoC with `engines` (default the
    sim target's MAIN_SOC): per SHA peripheral, 1,000 messages of 64 B and of 1 KiB through the
    batch walker (one ld_hw_md_batch call; then its table again as a ring, ld_hw_md_batch_lengths,
    and as it is, ld_hw_md_batch_run), one by one (ld_hw_md, DMA) and in software."""
    engines = list(engines or _standard().MAIN_SOC)
    return _pool_run(BatchRun, engines, "batch", "LDBATCH", log, timeout)


HMAC_KEY = b"\x0b" * 20  # apps/hmac: the key (RFC 4231 test case 1's) and the message size
HMAC_BYTES = 64


@dataclasses.dataclass
class HmacRun:
    engines: list
    records: list  # LDHMAC: instance (hmac_sha256, sha256, sw), engine, bytes, *_msgs/*_cycles
    checks: list  # LDCHECK: every MAC compared with ld_hmac's; the key-slot protocol
    digests: list  # LDDIGEST: the pool's MACs (software), for the host to check
    console: str

    def record(self, instance):
        return next((r for r in self.records if r["instance"] == instance), None)

    def digest_mismatches(self):
        """The LDDIGEST lines whose MAC is not Python's hmac of the same pool message."""
        pool = batch_pool()
        return [
            d
            for d in self.digests
            if hmac.new(HMAC_KEY, pool[d["index"]][: d["bytes"]], "sha256").hexdigest()
            != d["digest"]
        ]

    @property
    def all_ok(self):
        return (
            bool(self.records)
            and len(self.digests) == BATCH_POOL
            and bool(self.checks)
            and all(c["ok"] for c in self.checks)
            and not self.digest_mismatches()
        )


def run_hmac(engines=None, log=None, timeout=1800):
    """The HMAC firmware (software/firmware/apps/hmac) on a SoC with `engines` (default the sim
    target's MAC_SOC: hmac-sha256:opt:p4 and sha256:opt): 64-byte MACs on the HMAC peripheral
    (batch walker, one by one on DMA and CSR), on the sha256 peripheral from stored key states,
    in software; the key-slot checks."""
    engines = list(engines or _standard().MAC_SOC)
    return _pool_run(HmacRun, engines, "hmac", "LDHMAC", log, timeout)


# apps/packets: the simple IMIX (7 x 64, 4 x 576, 1 x 1500 bytes a deck of 12), NBUF distinct
# packets, STREAM packets in the IMIX stream (packet i is buffer packet i % NBUF), SIZED in a
# one-size stream, NSA security associations with KEY_BYTES keys, MACs of MAC_BYTES
# (HMAC-SHA-256-128, RFC 4868)
PACKET_IMIX = (64,) * 7 + (576,) * 4 + (1500,)
PACKET_NBUF, PACKET_STREAM, PACKET_SIZED = 240, 2400, 240
PACKET_NSA, PACKET_KEY_BYTES, PACKET_MAC_BYTES, PACKET_ALIGN = 4, 32, 16, 64


@functools.cache
def packet_stream(size=0):
    """What apps/packets hashes, made the same way on the host (once per size: a tuple kept):
    (keys, ((key index, packet), ...)) for its IMIX stream (size 0) or its stream of
    `size`-byte packets. The bytes: fill_pool's LCG over the buffer (pool_bytes); the IMIX
    packets at ALIGN-aligned offsets, each deck shuffled (Fisher-Yates, j = (r >> 16) %
    (i + 1), the LCG from 2027); then each stream packet's association ((r >> 16) % NSA); a
    one-size stream's packet i at the buffer's (i mod m)-th ALIGN-rounded place; the keys:
    fill_pool's byte rule from 2028."""
    up = lambda n: -(-n // PACKET_ALIGN) * PACKET_ALIGN
    nbytes = PACKET_NBUF // len(PACKET_IMIX) * sum(up(n) for n in PACKET_IMIX)
    data = pool_bytes(nbytes)
    r, imix, off = 2027, [], 0
    for _ in range(PACKET_NBUF // len(PACKET_IMIX)):
        deck = list(PACKET_IMIX)
        for i in range(len(deck) - 1, 0, -1):
            r = _lcg(r)
            j = (r >> 16) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for n in deck:
            imix.append(bytes(data[off : off + n]))
            off += up(n)
    sas = []
    for _ in range(PACKET_STREAM):
        r = _lcg(r)
        sas.append((r >> 16) % PACKET_NSA)
    raw = pool_bytes(PACKET_NSA * PACKET_KEY_BYTES, seed=2028)
    keys = tuple(raw[i : i + PACKET_KEY_BYTES] for i in range(0, len(raw), PACKET_KEY_BYTES))
    if size == 0:
        return keys, tuple((sas[i], imix[i % PACKET_NBUF]) for i in range(PACKET_STREAM))
    places = nbytes // up(size)
    return keys, tuple((sas[i], data[i % places * up(size) :][:size]) for i in range(PACKET_SIZED))


def packet_macs_digest(keys, stream):
    """The "macs" field of an LDPACKETS line for `stream` (a prefix of packet_stream()'s): the
    SHA-256 of its 16-byte HMAC-SHA-256-128 MACs in order, by Python's hmac."""
    h = hashlib.sha256()
    for sa, p in stream:
        h.update(hmac.new(keys[sa], p, "sha256").digest()[:PACKET_MAC_BYTES])
    return h.hexdigest()


@dataclasses.dataclass
class PacketsRun:
    engines: list
    records: list  # LDPACKETS: instance, engine, path, size, burst, packets, bytes, blocks, ...
    driver: dict  # LDPACKETS_DRIVER: (size, burst) -> the cycles inside that run's batch calls
    checks: list
    console: str

    def mac_mismatches(self):
        """The records whose MACs (their SHA-256) are not Python's hmac of their stream."""
        want = {}
        for r in self.records:
            key = (r["size"], r["packets"])
            if key not in want:
                keys, stream = packet_stream(r["size"])
                want[key] = packet_macs_digest(keys, stream[: r["packets"]])
        return [r for r in self.records if r["macs"] != want[(r["size"], r["packets"])]]

    @property
    def all_ok(self):
        return _passed(self.records, self.checks) and not self.mac_mismatches()


def run_packets(engines=None, log=None, timeout=1800):
    """The packet-authentication firmware (software/firmware/apps/packets) on a SoC with
    `engines` (default the sim target's MAC_SOC: hmac-sha256:opt:p4 and sha256:opt):
    HMAC-SHA-256-128 under four keys over an IMIX stream and streams of 64, 576 and 1,500 B,
    by the HMAC peripheral's batch walker (receive bursts of 32 and 240 packets), on the sha256
    peripheral from stored key states and in software."""
    engines = list(engines or _standard().MAC_SOC)
    text, _ = run_app(engines, "packets", log=log, timeout=timeout)
    driver = {(r["size"], r["burst"]): r["cycles"] for r in console_lines(text, "LDPACKETS_DRIVER")}
    return PacketsRun(
        engines, console_lines(text, "LDPACKETS"), driver, console_lines(text, "LDCHECK"), text
    )


IRQ_BATCH = 32  # apps/irq: the batch case, BATCH messages of 64 B


def irq_case(case):
    """An interrupt firmware case name (apps/irq) as (path, messages, bytes each): dma-N is one
    message of N bytes on the one-shot DMA path, batch-NxM a batch of N messages of M bytes."""
    kind, _, size = case.partition("-")
    if kind == "dma":
        return "dma", 1, int(size)
    n, _, m = size.partition("x")
    return "batch", int(n), int(m)


def irq_case_message(case):
    """The message whose digest the interrupt firmware prints for `case`: dma-N is
    demo_message(N); batch-NxM prints its last message, bytes M (N-1) .. M N of the demo
    pattern (the batch's messages lie end to end in it)."""
    _, n, m = irq_case(case)
    return demo_message(m * n)[m * (n - 1) :]


@dataclasses.dataclass
class IrqRun:
    engine: str
    records: list  # LDIRQ: mode, case, cycles, latency, isr, waits, work, irqs, ok, digest
    checks: list
    console: str

    def digest_mismatches(self):
        """Records whose printed digest is not hashlib's SHA-256 of the case's message."""
        return [
            r
            for r in self.records
            if hashlib.sha256(irq_case_message(r["case"])).hexdigest() != r.get("digest")
        ]

    @property
    def all_ok(self):
        return _passed(self.records, self.checks) and not self.digest_mismatches()

    def record(self, mode, case):
        for r in self.records:
            if r["mode"] == mode and r["case"] == case:
                return r
        return None


def run_irq(engine=DEFAULT_ENGINE, log=None, timeout=900):
    """The interrupt firmware (software/firmware/apps/irq) on the SoC that has `engine` (a
    SHA-256 engine): one-shot DMA calls of 64 B, 1 KiB, 16 KiB and a batch of 32 x 64 B, the
    driver polling, then waiting by interrupt (doing other work; sleeping in wfi)."""
    spec, text, _ = run_sha256_app(engine, "irq", log, timeout)
    return IrqRun(str(spec), console_lines(text, "LDIRQ"), console_lines(text, "LDCHECK"), text)
