#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write the LiteDigest notebooks (outputs cleared) from the cell sources below:

    .venv/bin/python notebooks/generate.py          # rewrites notebooks/*.ipynb
    .venv/bin/python notebooks/generate.py --check  # exit 1 if a notebook differs from this file

Every notebook opens its target first (litedigest.nbtarget.open_target): the PYNQ board when
`pynq` imports and the LiteDigest overlay loads, else the simulated SoC behind the same
driver, and says which in its first output. tests/project/test_notebooks.py executes them all.
"""

import os
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = os.path.dirname(os.path.abspath(__file__))

TARGET_CELL = """\
import litedigest
from litedigest.nbtarget import open_target

target = open_target()   # the PYNQ board if pynq imports and the overlay loads, else the simulated SoC
print("Running on", target.description)
print("Engines:", target.engines)"""

NB01 = [
    new_markdown_cell("""\
# LiteDigest: interactive hashing on the engines

Type or load some data, hash it on the LiteDigest engines and compare every digest with Python's
`hashlib`; then HMAC (Python's `hmac` with the engines' hash objects) and Skein-512 (any output
length, MAC key) where the target has a Skein engine.

The notebook runs on the PYNQ board when `pynq` is importable and the LiteDigest overlay loads;
otherwise on the simulated SoC (Verilator + VexRiscv) through the same driver: register access
through an MMIO object, message buffers from `allocate`, flushed before the engines' DMA reads
them. The first output says which."""),
    new_code_cell(TARGET_CELL),
    new_markdown_cell("""\
## The data

Edit `text`, or set `path` to a file to hash its contents."""),
    new_code_cell("""\
text = "LiteDigest: hash engines in the fabric, hashlib in Python."   # edit me
path = None                                                             # or e.g. "../README.md"

data = open(path, "rb").read() if path else text.encode()
print(f"{len(data)} bytes to hash")"""),
    new_markdown_cell("""\
## Every algorithm of the target's engines against hashlib

`target.algorithms()` lists what the engines compute (SHA-224 runs on the SHA-256 engine,
SHA-384 and SHA-512/t on the SHA-512 engine); engines added to the SoC appear here by themselves."""),
    new_code_cell("""\
import hashlib

results = {}
for name in target.algorithms():
    if name.startswith("skein512"):
        continue                      # no hashlib counterpart: see the Skein-512 section
    hw = target.new(name, data).hexdigest()
    ref = hashlib.new(name, data).hexdigest()
    results[name] = hw == ref
    print(f"{name:11s} {hw}  {'= hashlib' if hw == ref else 'DIFFERS from hashlib ' + ref}")
assert results and all(results.values()), results"""),
    new_markdown_cell("""\
## Streaming: update in pieces, copy a running hash

The hash objects follow hashlib: `update` any number of times, `copy` a running state,
`digest` without ending it."""),
    new_code_cell("""\
h = target.new("sha256")
pieces = [data[i:i + 7] for i in range(0, len(data), 7)]
for p in pieces[: len(pieces) // 2]:
    h.update(p)
half = h.copy()                        # the state after the first half
for p in pieces[len(pieces) // 2:]:
    h.update(p)
first_half = b"".join(pieces[: len(pieces) // 2])
print("whole message:", h.hexdigest(), h.digest() == hashlib.sha256(data).digest())
print("first half:   ", half.hexdigest(), half.digest() == hashlib.sha256(first_half).digest())
assert h.digest() == hashlib.sha256(data).digest()
assert half.digest() == hashlib.sha256(first_half).digest()"""),
    new_markdown_cell("""\
## HMAC

Python's `hmac` module takes any hashlib-style constructor as `digestmod`: with the engines'
hash objects both the inner and the outer hash run on the engines."""),
    new_code_cell("""\
import hmac

key = b"a secret key"
for name in ("sha1", "sha224", "sha256", "sha384", "sha512"):
    if name not in target.algorithms():
        continue
    mac = hmac.new(key, data, digestmod=lambda d=b"", n=name: target.new(n, d)).hexdigest()
    ref = hmac.new(key, data, name).hexdigest()
    print(f"HMAC-{name.upper():7s} {mac}  {'= hmac/hashlib' if mac == ref else 'DIFFERS: ' + ref}")
    assert mac == ref"""),
    new_markdown_cell("""\
### On the HMAC engine

The HMAC engine (`hmac-sha256:opt[:p4]`, Michail et al. 2012: two SHA-256 cores, the inner one
hashing the message from the key's stored inner state, the outer one the inner digest from the
stored outer state) keeps the key's states in a key slot of the peripheral, write-only.
`litedigest.hmac` takes it as `engine=`, with the standard library's API. Edit `key`, or read it
from a file (keep keys out of notebooks you share)."""),
    new_code_cell("""\
from litedigest import hmac as ld_hmac, spec as ld_spec

key = b"a secret key"                  # or: key = open("my.key", "rb").read()
mac_engines = [e for e in target.engines.values() if ld_spec.parse(e).mac]
for engine in mac_engines:
    mac = ld_hmac.new(key, data, "sha256", backend="pynq", engine=engine).hexdigest()
    ref = hmac.new(key, data, "sha256").hexdigest()
    print(f"{engine}: HMAC-SHA256 {mac}  {'= hmac' if mac == ref else 'DIFFERS: ' + ref}")
    assert mac == ref
print("HMAC engines:", mac_engines or "none on this target")"""),
    new_markdown_cell("""\
## Skein-512

Any output length (`digest_bits`) and a MAC key (`key`). The reference is `pyskein` when it is
installed, else the C library's software Skein-512 on the host (`backend="sw"`)."""),
    new_code_cell("""\
if any(a.startswith("skein512") for a in target.algorithms()):
    try:
        import skein as pyskein
    except ImportError:
        pyskein = None
    for bits, key in ((256, b""), (512, b""), (1024, b""), (512, b"skein mac key")):
        hw = target.new("skein512", data, digest_bits=bits, key=key).hexdigest()
        if pyskein is not None:
            ref, refname = pyskein.skein512(data, digest_bits=bits, key=key).hexdigest(), "pyskein"
        else:
            ref = litedigest.new("skein512", data, digest_bits=bits, key=key, backend="sw").hexdigest()
            refname = "C library (sw)"
        label = f"Skein-512-{bits}" + (" MAC" if key else "")
        print(f"{label:18s} {hw[:64]}{'...' if len(hw) > 64 else ''}  "
              f"{'= ' + refname if hw == ref else 'DIFFERS from ' + refname}")
        assert hw == ref
else:
    print("the target has no Skein-512 engine")"""),
    new_markdown_cell("""\
## One flipped bit

Flip the lowest bit of the first byte and hash again: about half of the digest bits change
(the avalanche effect). Each row of the picture is one algorithm's digest bits; dark squares
are the bits that changed."""),
    new_code_cell("""\
import numpy as np
import matplotlib.pyplot as plt

flipped = bytes([(data[0] if data else 0) ^ 1]) + data[1:]
names = [n for n in target.algorithms() if n in results] + \\
    (["skein512"] if any(a.startswith("skein512") for a in target.algorithms()) else [])
width = max(8 * litedigest.new(n).digest_size for n in names)
grid = np.full((len(names), width), np.nan)
changed = []
for row, name in enumerate(names):
    a, b = target.new(name, data).digest(), target.new(name, flipped).digest()
    bits = np.unpackbits(np.frombuffer(bytes(x ^ y for x, y in zip(a, b)), dtype=np.uint8))
    grid[row, : len(bits)] = bits
    changed.append(f"{name}: {int(bits.sum())}/{len(bits)} bits")

fig, ax = plt.subplots(figsize=(11, 0.45 * len(names) + 1.2))
cmap = plt.get_cmap("Greys").copy()
cmap.set_bad("#dde6f0")                 # past the end of a shorter digest
ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap=cmap, interpolation="nearest", vmin=0, vmax=1)
ax.set_yticks(range(len(names)), [f"{n} ({c.split(': ')[1]})" for n, c in zip(names, changed)])
ax.set_xlabel("digest bit")
ax.set_title(f"Digest bits changed by one flipped input bit ({len(data)}-byte message, on {target.kind})")
plt.tight_layout()
plt.show()"""),
]

NB02 = [
    new_markdown_cell("""\
# LiteDigest: hardware versus software

SHA-256 across message sizes, in software and on the engine; then many small messages through
the batch walker, many long messages through the scheduler on the pipelined engines, and HMAC.

- **Simulated SoC** (the default): the figures are the committed measurement records
  (`records/*.json`, litedigest.records: the same ones the documentation's tables and plots are
  generated from), each printed with the command that measured it, when, and from which build.
  The firmware behind them runs on the SoC's VexRiscv and times, with the peripheral's cycle
  counter, the C library's software hash (-O2), the CSR path (the CPU writes every block word)
  and the DMA path (the engine fetches the message from main RAM); cycle counts are exact
  (simulation) and every digest was checked against `hashlib` on the host. Set
  `MEASURE_AGAIN = True` in the cell below to run the benches again on the simulated SoC
  instead (after changing the gateware, the firmware or the C library; minutes of simulation
  per section).
- **PYNQ board**: `time.perf_counter` around `hashlib.sha256` (OpenSSL on the ARM Cortex-A9) and
  around the engine through the pynq backend (the C driver on the mapped registers, DMA from a
  `pynq.allocate` buffer), in bytes per second."""),
    new_code_cell(TARGET_CELL),
    new_code_cell("""\
import hashlib
import time

import matplotlib.pyplot as plt
from IPython.display import Markdown, display

from litedigest import records
from litedigest.measure import bench, plots, tables

# =============================================================================================
# MEASURE_AGAIN = False: off the board, the sections below show the committed records.
# MEASURE_AGAIN = True:  they run the benches again on the simulated SoC (building the SoC and
#                        the firmware when not cached): for a user who changed the gateware.
# On the PYNQ board the sections time the board itself, whatever this says.
MEASURE_AGAIN = False
# =============================================================================================


def soc_rows(name, measure):
    \"\"\"The bench rows of the record `name` (records/<name>.json), saying where they come from;
    with MEASURE_AGAIN, the rows `measure()` gives now on the simulated SoC.\"\"\"
    if MEASURE_AGAIN:
        rows = list(measure())
        print(f"{name}: {len(rows)} rows measured now on the simulated SoC")
        return rows
    rec = records.load(name)
    build = rec["build"]
    print(f"records/{name}.json, measured {rec['measured']} by `{rec['command']}`\\n"
          f"  build {build.get('git', '?')}, sources {build.get('sources', '?')[:12]}")
    return rec["results"]


def show_table(header, row, rows):
    \"\"\"The rows as the documentation shows them (litedigest.measure.tables).\"\"\"
    display(Markdown("\\n".join([header, *(row(r) for r in rows)])))"""),
    new_code_cell("""\
SIZES = [64 * 4 ** k for k in range(6)]          # on the board: 64 B, 256 B, ... 64 KiB

if target.on_board:
    from litedigest.measure.sweep import host_rates
    rates = host_rates(target.new, SIZES)          # digests checked against hashlib first
    board = {"hashlib": rates["hashlib"], "engine (pynq backend)": rates["engine"]}
    print(f"{'bytes':>6} {'hashlib B/s':>14} {'engine B/s':>14} {'engine/hashlib':>15}")
    for n in SIZES:
        h, e = board["hashlib"][n], board["engine (pynq backend)"][n]
        print(f"{n:6d} {h:14.0f} {e:14.0f} {e / h:15.3f}")
else:
    # the sweep firmware: SHA-256 in software, over the CSR and the DMA path, per size
    sweep = soc_rows("soc_sweep", bench.bench_soc_sweep)
    assert sweep and all(r["digest_ok"] for r in sweep), "a digest differs from hashlib"
    print(f"engine {sweep[0]['engine']}; cycles of the SoC clock (exact, from simulation)")
    show_table(tables.MD_SWEEP_HEADER, tables.markdown_sweep, sweep)"""),
    new_code_cell("""\
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
if target.on_board:
    for label, series in board.items():
        ax1.plot(SIZES, [series[n] / 1e6 for n in SIZES], "o-", label=label)
    ax1.set_ylabel("MB/s (time.perf_counter, best of 5)")
    ax1.set_yscale("log")
    ax1.set_title("SHA-256 on the PYNQ board")
    ratio = [board["engine (pynq backend)"][n] / board["hashlib"][n] for n in SIZES]
    ax2.plot(SIZES, ratio, "o-", color="C2")
    ax2.axhline(1, color="grey", lw=0.8)
    ax2.set_ylabel("engine / hashlib (bytes per second)")
    ax2.set_title("Speedup of the fabric over hashlib on the ARM")
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xticks(SIZES, ["64 B", "256 B", "1 KiB", "4 KiB", "16 KiB", "64 KiB"])
        ax.set_xlabel("message size")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    plt.tight_layout()
else:
    # left: cycles per byte, where each path settles; right: the documentation's speedup plot
    for path, label in (("sw", "software (ld_sha256, -O2)"), ("csr", "CSR path"), ("dma", "DMA path")):
        pts = sorted((r["bytes"], r["cycles"] / r["bytes"]) for r in sweep if r["path"] == path)
        ax1.plot([n for n, _ in pts], [c for _, c in pts], "o-", label=label)
    ax1.set_xscale("log", base=2)
    ax1.set_yscale("log")
    ax1.set_xlabel("message (bytes)")
    ax1.set_ylabel("cycles per byte (SoC clock)")
    ax1.set_title("Where each path settles: cycles per byte")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend()
    plots.speedup_figure(sweep, ax=ax2)
plt.show()"""),
    new_markdown_cell("""\
Reading the plots: every path pays a fixed cost per message (the padding block and the call;
for the engine also the job set-up and reading the digest), so the cycles per byte fall with the
size. Software settles at its cost per block; the CSR path at the CPU's cost of writing the
sixteen words of each block; the DMA path approaches the engine's own rate (one block per
interval, which the engine's spec gives: printed below) because the DMA fetches the next block
while the engine works. The table above holds the measured values."""),
    new_code_cell("""\
from litedigest import spec as ld_spec

if target.on_board:
    engine = next((e for e in target.engines.values()
                   if ld_spec.parse(e).family == "sha256" and not ld_spec.parse(e).mac), None)
else:
    engine = sweep[0]["engine"]
if engine:
    p = ld_spec.parse(engine)
    print(f"{engine}: one {p.block_size}-byte block every {p.interval} cycles (latency {p.latency}), "
          f"{float(p.interval) / p.block_size:.3f} cycles per byte at best")
if not target.on_board:
    n, cpb = max((r["bytes"], r["cycles"] / r["bytes"]) for r in sweep if r["path"] == "dma")
    print(f"the DMA path, measured: {cpb:.3f} cycles per byte at {n:,} bytes")"""),
    new_markdown_cell("""\
## Many small messages: the batch walker

Records, packets and keys are short: per message, a call's fixed cost outweighs the engine's
work. The batch interface (`ld_hw_md_batch` in C, `litedigest.hash_many` in Python) hands the
peripheral a table of descriptors in RAM; it walks them, pads each message itself, writes each
digest back and raises one interrupt at the end. On the simulated SoC the `batch` firmware
hashes 1,000 messages of 64 B and of 1 KiB per SHA peripheral of the main SoC (`sha256:opt`,
`sha1:opt`, `sha512:k5`) and of the scheduler SoC (the pipelines `sha256:opt:p4`,
`sha1:opt:p8`) through the walker, one by one (`ld_hw_md`) and in software; messages per
second at the ECP5 SoC's clock (the record's `clock_mhz`, in the table's header), every digest
checked on the CPU and against `hashlib` (`litedigest bench --backend soc --batch`). On the
board: messages per second of wall-clock time, the engine one message per call against
`hashlib`."""),
    new_code_cell("""\
if target.on_board:
    import os
    msgs = [os.urandom(64) for _ in range(1000)]
    assert [target.new("sha256", m).digest() for m in msgs[:8]] == \\
        [hashlib.sha256(m).digest() for m in msgs[:8]]
    for label, fn in (("hashlib", lambda m: hashlib.sha256(m).digest()),
                      ("engine, one call each", lambda m: target.new("sha256", m).digest())):
        t0 = time.perf_counter()
        for m in msgs:
            fn(m)
        print(f"{label:24s} {len(msgs) / (time.perf_counter() - t0):12,.0f} messages/s (64 B)")
else:
    def measure_batch():
        from litedigest.soc.targets import sim as sim_soc
        return bench.bench_soc_batch([list(sim_soc.MAIN_SOC), list(sim_soc.SCHED_SOC)])

    batch = soc_rows("soc_batch", measure_batch)
    assert batch and all(r["digest_ok"] for r in batch), "a batch digest differs"
    show_table(tables.MD_BATCH_HEADER.format(mhz=batch[0]["clock_mhz"]), tables.markdown_batch, batch)"""),
    new_code_cell("""\
if not target.on_board:
    plots.batch_figure(batch)                # the documentation's plot of these rows
    plt.show()"""),
    new_markdown_cell("""\
## Many long messages: the scheduler on the pipelines

A p-stage pipeline needs p messages in flight. `ld_hw_schedule` keeps the slots full; on the
DMA path it hands the messages to the batch walker (the `sched` firmware on the scheduler SoC:
p messages of 16 KiB, `litedigest bench --backend soc --sched`). Utilization is the engine's
busy cycles (blocks x interval) over the engine's run, and over the whole call (descriptors,
waiting, digests). Skein-512's messages go the same way: the peripheral zero-pads each one,
makes its tweaks and its output block, and writes the digest."""),
    new_code_cell("""\
if target.on_board:
    print("The scheduler figures come from the simulated SoC (exact cycles); see docs/MEASUREMENTS.md.")
else:
    def measure_sched():
        from litedigest.soc.targets import sim as sim_soc
        return bench.bench_soc_sched(list(sim_soc.SCHED_SOC))

    sched = soc_rows("soc_sched", measure_sched)
    assert sched and all(r["digest_ok"] for r in sched), "a scheduler digest differs"
    show_table(tables.MD_SCHED_HEADER, tables.markdown_sched, sched)"""),
    new_markdown_cell("""\
## HMAC: MACs per second

HMAC-SHA-256 of 64-byte messages under one key. On the simulated SoC the `hmac` firmware
(`litedigest bench --backend soc --hmac`, the sim target's `MAC_SOC`: the pipelined HMAC engine
`hmac-sha256:opt:p4` and `sha256:opt`) MACs them through the HMAC peripheral's batch walker,
one by one on its DMA and CSR paths, on the SHA-256 peripheral from the key's two states
computed once (`ld_hw_hmac`), and in software on the same CPU (`ld_hmac`); every MAC is checked
on the CPU and against Python's `hmac`. On the board: MACs per second of wall-clock time, the
HMAC engine one call each against Python's `hmac` on the ARM."""),
    new_code_cell("""\
import hmac as std_hmac

from litedigest import hmac as ld_hmac

if target.on_board:
    import os
    engine = next((e for e in target.engines.values() if ld_spec.parse(e).mac), None)
    msgs = [os.urandom(64) for _ in range(1000)]
    key = os.urandom(32)
    cases = [("Python hmac (ARM)", lambda m: std_hmac.digest(key, m, "sha256"))]
    if engine:
        cases.append((f"{engine}, one call each",
                      lambda m: ld_hmac.digest(key, m, "sha256", backend="pynq", engine=engine)))
        assert cases[1][1](msgs[0]) == cases[0][1](msgs[0])
    for label, fn in cases:
        t0 = time.perf_counter()
        for m in msgs:
            fn(m)
        print(f"{label:32s} {len(msgs) / (time.perf_counter() - t0):12,.0f} MACs/s (64 B)")
else:
    macs = soc_rows("soc_hmac", lambda: bench.bench_soc_hmac(None))
    assert macs and all(r["digest_ok"] for r in macs), "a MAC differs"
    mhz = macs[0]["clock_mhz"]
    show_table(tables.MD_HMAC_HEADER.format(mhz=mhz), tables.markdown_hmac, macs)
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.barh([f"{r['instance']}: {r['path']}" for r in macs], [r["messages_per_second"] for r in macs])
    ax.set_xscale("log")
    ax.set_xlabel(f"{macs[0]['bytes']}-byte MACs per second at {mhz:g} MHz (simulated SoC)")
    ax.invert_yaxis()
    ax.grid(True, axis="x", which="both", alpha=0.3)
    plt.tight_layout()
    plt.show()"""),
    new_markdown_cell("""\
## Packet authentication: the papers' application

IPsec authenticates every packet (Michail et al. 2012 built their HMAC-SHA-256 engine for it):
HMAC-SHA-256-128 (RFC 4868, the first 16 bytes of HMAC-SHA-256) over a stream of the simple
IMIX (64, 576 and 1,500 bytes, 7:4:1), each packet under the key of its security association.
`litedigest.hmac_many(keys, packets, "sha256", ...)` takes one key per packet; with the HMAC
engine the peripheral's batch walker computes them, the distinct keys in its key slots. On the
simulated SoC the `packets` firmware (`litedigest bench --backend soc --packets`) runs 2,400
IMIX packets under four keys and streams of each size, on the HMAC peripheral, on the SHA-256
peripheral from stored key states and in software; the plot is throughput against packet size.
On the board: packets per second of wall-clock time, `hmac_many` on the HMAC engine against
Python's `hmac` on the ARM."""),
    new_code_cell("""\
from litedigest.measure import socdemo

keys, stream = socdemo.packet_stream()             # the firmware's IMIX stream, four keys
packet_keys = [keys[sa] for sa, _ in stream]
packets = [p for _, p in stream]
want = [std_hmac.digest(k, p, "sha256")[:16] for k, p in zip(packet_keys, packets)]
if target.on_board:
    engine = next((e for e in target.engines.values() if ld_spec.parse(e).mac), None)
    cases = [("Python hmac (ARM)",
              lambda: [std_hmac.digest(k, p, "sha256") for k, p in zip(packet_keys, packets)])]
    if engine:
        cases.append((f"hmac_many on {engine}",
                      lambda: ld_hmac.hmac_many(packet_keys, packets, "sha256",
                                                backend="pynq", engine=engine)))
    for label, fn in cases:
        t0 = time.perf_counter()
        got = fn()
        dt = time.perf_counter() - t0
        assert [m[:16] for m in got] == want, label
        nbits = 8 * sum(map(len, packets))
        print(f"{label:36s} {len(packets) / dt:12,.0f} packets/s {nbits / dt / 1e9:8.4f} Gbit/s")
else:
    pk = soc_rows("soc_packets", lambda: bench.bench_soc_packets(None))
    assert pk and all(r["digest_ok"] for r in pk), "a MAC differs"
    show_table(tables.MD_PACKETS_HEADER.format(mhz=pk[0]["clock_mhz"]), tables.markdown_packets, pk)
    plots.packets_figure(pk)                 # the documentation's plot of these rows
    plt.show()
    # the same MACs from Python, on the software backend: one call for the whole stream
    assert [m[:16] for m in ld_hmac.hmac_many(packet_keys[:240], packets[:240], "sha256")] \\
        == want[:240]"""),
]

NB03 = [
    new_markdown_cell("""\
# LiteDigest: the design space of the engines

Latency and interval of every engine spec (exact, from the engines' own attributes: the same
numbers the RTL simulation measures), and, where `bitstreams/engines.json` exists (written by
`litedigest dse`), area and fmax from the open synthesis and place-and-route flow and the
throughput that follows (block bits x fmax / interval, Michail et al. 2016 eq. 3), plotted like the papers'
figures. Engines on the current target are marked."""),
    new_code_cell(TARGET_CELL),
    new_code_cell("""\
from fractions import Fraction

from litedigest import spec
from litedigest.ip.engines import make_engine

on_target = {spec.parse(e).engine_name for e in target.engines.values()}
rows = []
for s in spec.all_specs():
    eng = make_engine(s)
    p = spec.parse(s)
    rows.append({"spec": str(s), "engine": p.engine_name, "family": p.family,
                 "latency": int(eng.latency), "interval": Fraction(eng.interval),
                 "in_flight": p.in_flight, "block_bits": 8 * p.block_size,
                 "on_target": p.engine_name in on_target})
print(f"{len(rows)} engine specs; on the target: {sorted(on_target)}")
for r in rows:
    print(f"{r['spec']:22s} latency {r['latency']:3d}  interval {str(r['interval']):>6s}  "
          f"in flight {r['in_flight']:2d}  {float(r['block_bits'] / r['interval']):6.2f} bits/cycle"
          + ("   <- on the target" if r["on_target"] else ""))"""),
    new_code_cell("""\
import matplotlib.pyplot as plt
import numpy as np


def log_log_axes(ax, xlabel, ylabel, title, base=10):
    \"\"\"Both axes logarithmic (`base`), labelled, titled, gridded, with the legend.\"\"\"
    ax.set_xscale("log", base=base)
    ax.set_yscale("log", base=base)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()


families = sorted({r["family"] for r in rows})
fig, axes = plt.subplots(len(families), 1, figsize=(12, 2.6 * len(families)), squeeze=False)
for ax, fam in zip(axes[:, 0], families):
    rs = [r for r in rows if r["family"] == fam]
    x = np.arange(len(rs))
    ax.bar(x - 0.2, [r["latency"] for r in rs], 0.4, label="latency (cycles)")
    ax.bar(x + 0.2, [float(r["interval"]) for r in rs], 0.4, label="interval (cycles)")
    ax.set_xlim(-0.7, max(len(rs), 8) - 0.3)          # the same bar width in every panel
    ax.set_yscale("log")
    ax.set_xticks(x, [r["spec"].split(":", 1)[1] + (" *" if r["on_target"] else "") for r in rs],
                  rotation=60, fontsize=8)
    ax.set_title(f"{fam}: cycles per block (* = on the target)")
    ax.legend(fontsize=8)
plt.tight_layout()
plt.show()"""),
    new_code_cell("""\
fig, ax = plt.subplots(figsize=(8, 5))
for fam in families:
    rs = [r for r in rows if r["family"] == fam]
    ax.scatter([r["in_flight"] for r in rs], [float(r["block_bits"] / r["interval"]) for r in rs],
               label=fam, s=[60 if r["on_target"] else 20 for r in rs])
log_log_axes(ax, "blocks in flight (pipeline stages x modules)",
             "bits per cycle at full occupancy (block bits / interval)",
             "Throughput per cycle against pipelining (large markers: on the target)", base=2)
plt.tight_layout()
plt.show()"""),
    new_markdown_cell("""\
## Area, fmax and throughput (bitstreams/engines.json)

From `litedigest dse`: area of the bare engine (Yosys `synth_ecp5` LUT4/FF and, when measured,
`synth_xilinx -family xc7` LUT/FF/CARRY4 for the Zynq-7020 fabric), routed fmax on an ECP5
(nextpnr-ecp5, median of several seeds; the file names the device and speed grade), and the
throughput that follows. Skipped, with a note, where the file is not there."""),
    new_code_cell("""\
import os

from litedigest.paths import repo_root

doc = None
# the committed design-space results; LITEDIGEST_ENGINES_JSON points at another engines.json
path = os.environ.get("LITEDIGEST_ENGINES_JSON") or os.path.join(repo_root(), "bitstreams", "engines.json")
if os.path.exists(path):
    from litedigest.measure.design_space import unrouted_text
    from litedigest.soc.flows import dse
    doc = dse.load(path)
    print(f"{path}: {len(doc['engines'])} engines, generated by {doc.get('generated_by')!r}")
    e5, x7 = doc.get("device", {}).get("ecp5", {}), doc.get("device", {}).get("xc7", {})
    if e5:
        print(f"ECP5: {e5.get('device')} {e5.get('package', '')} speed grade {e5.get('speed_grade')}; "
              f"fmax {e5.get('fmax', '')}, seeds {e5.get('seeds')}")
    if x7:
        print(f"xc7: {x7.get('area', '')}")
    for e in doc["engines"]:
        x = e.get("xc7") or {}
        if e["throughput_mbps"] is None:   # synthesis area only: too big, or not routed in time
            if "does_not_fit" in e["ecp5"]:
                why = f"does not fit the {e['ecp5']['does_not_fit']['device']}"
            else:
                why = f"not routed in the time limit ({unrouted_text(e['ecp5'].get('unrouted', []))})"
            print(f"{e['spec']:22s} ECP5 {e['ecp5']['lut4']:6d} LUT4 {e['ecp5']['ff']:6d} FF {why}")
            continue
        print(f"{e['spec']:22s} ECP5 {e['ecp5']['lut4']:6d} LUT4 {e['ecp5']['ff']:6d} FF "
              f"{e['ecp5']['fmax_median']:7.2f} MHz | xc7 {x.get('lut', '-'):>6} LUT | "
              f"{e['throughput_mbps']:8.1f} Mbit/s")
else:
    print(f"{path} is not there (it is written by `litedigest dse`): area and fmax are not plotted")"""),
    new_code_cell("""\
if doc is not None:
    es = [e for e in doc["engines"] if e["throughput_mbps"] is not None]   # routed ones
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    for fam in sorted({e["family"] for e in es}):
        fe = [e for e in es if e["family"] == fam]
        ax1.scatter([e["ecp5"]["lut4_with_carry"] if "lut4_with_carry" in e["ecp5"] else e["ecp5"]["lut4"]
                     for e in fe], [e["throughput_mbps"] for e in fe], label=fam)
        for e in fe:
            area = e["ecp5"].get("lut4_with_carry", e["ecp5"]["lut4"])
            ax1.annotate(e["spec"], (area, e["throughput_mbps"]), fontsize=7,
                         xytext=(3, 3), textcoords="offset points")
    log_log_axes(ax1, "ECP5 LUT4 (synth_ecp5, carries counted as 2 LUT4)",
                 "throughput, Mbit/s (block bits x fmax / interval)", "Area against throughput")
    x = np.arange(len(es))
    med = [e["ecp5"]["fmax_median"] for e in es]
    lo = [med[i] - min(e["ecp5"]["fmax_mhz"]) for i, e in enumerate(es)]
    hi = [max(e["ecp5"]["fmax_mhz"]) - med[i] for i, e in enumerate(es)]
    ax2.bar(x, med, yerr=[lo, hi], capsize=2, color=[f"C{sorted({e['family'] for e in es}).index(e['family'])}" for e in es])
    ax2.set_xticks(x, [e["spec"] for e in es], rotation=70, fontsize=7)
    ax2.set_ylabel("fmax, MHz (nextpnr-ecp5; median, range of the seeds)")
    ax2.set_title("Routed fmax per engine")
    plt.tight_layout()
    plt.show()
    xc7 = [e for e in es if e.get("xc7")]
    if xc7:
        fig, ax = plt.subplots(figsize=(8, 5))
        for fam in sorted({e["family"] for e in xc7}):
            fe = [e for e in xc7 if e["family"] == fam]
            ax.scatter([e["xc7"]["lut"] for e in fe], [e["throughput_mbps"] for e in fe], label=fam)
            for e in fe:
                ax.annotate(e["spec"], (e["xc7"]["lut"], e["throughput_mbps"]),
                            fontsize=7, xytext=(3, 3), textcoords="offset points")
        log_log_axes(ax, "xc7 LUT (Yosys synth_xilinx, no place and route)",
                     "throughput, Mbit/s (ECP5 fmax)", "Zynq-7020 fabric area against throughput")
        plt.tight_layout()
        plt.show()"""),
    new_markdown_cell("""\
## Against the papers

The papers measured their architectures against one another: pipeline depth (Michail et al.
2016), the optimized SHA-256 block against the conventional one (Michail et al. 2012 and 2010),
k = 5 unrolling (Lien, Grembowski, Gaj 2004), Skein-512's unrolled and pipelined datapaths
(Athanasiou et al. 2013), the HMAC core (Michail et al. 2012). They used Xilinx Virtex devices
and ISE, we an ECP5 and the open flow, so each study is normalized to its own baseline on both
sides (`litedigest.measure.design_space`; the papers' numbers are in `litedigest.measure.papers`): f× clock,
T× throughput, A× area (their slices, our LUT4 with carries), T/A×. A paper cell is the ratio on
its primary device, then the range over its other devices. A spec that `bitstreams/engines.json`
does not have yet is "not measured yet" in the tables, left out of the plots and listed under
them. docs/DESIGN_SPACE.md explains where the ratios differ."""),
    new_code_cell("""\
from IPython.display import Markdown, display

from litedigest.measure import design_space

# the comparisons with the papers (litedigest.measure.papers); without engines.json only the papers' side
comparisons = design_space.comparisons(doc if doc is not None else {"engines": []})
for c in comparisons:
    display(Markdown(f"### {c.title}\\n\\nNormalized to {c.baseline}; paper: "
                     f"{'; '.join(p.short for p in c.papers)}, primary device {c.device}.\\n\\n"
                     + design_space.table_markdown(c)))
    print(f"{c.key}: {len(c.measured)} of {len(c.rows)} rows measured; not measured yet: "
          + (", ".join(c.missing) or "none"))"""),
    new_code_cell('''\
import matplotlib.pyplot as plt

from litedigest.measure import plots

by_key = {c.key: c for c in comparisons}


def not_plotted(rows):
    """The specs a plot leaves out (not in engines.json), listed under it."""
    miss = []
    for r in rows:
        miss += [s for s in r.missing if s not in miss]
    print("not plotted, not measured yet:", ", ".join(miss) if miss else "none")


# Michail et al. 2016: each architecture over its own p = 1 design, against p (the
# documentation's plot, litedigest.measure.plots)
plots.pipelines_figure(comparisons)
plt.show()
not_plotted([r for k, c in by_key.items() if k.startswith("pipelines_") for r in c.rows])'''),
    new_code_cell('''\
# optimized vs base (Michail et al. 2016, 2012, 2010), k = 5 vs base (Lien, Grembowski, Gaj
# 2004), HMAC vs its SHA-256 core (Michail et al. 2012): the paper's ratios beside ours
def bar_panel(ax, title, entries):
    """entries: (label, row, "paper" or "ours"); a ratio the source does not give is left out."""
    metrics = ("f", "T", "A", "TA")
    w = 0.8 / len(entries)
    for k, (label, row, side) in enumerate(entries):
        vals = {m: row.paper[m].value for m in metrics} if side == "paper" else row.ours
        pos = [(i + (k - (len(entries) - 1) / 2) * w, vals[m]) for i, m in enumerate(metrics)
               if vals.get(m) is not None]
        ax.bar([x for x, _ in pos], [v for _, v in pos], w, label=label,
               hatch="//" if side == "ours" else None, edgecolor="black" if side == "ours" else None)
    ax.axhline(1, color="grey", lw=0.8)
    ax.set_xticks(range(len(metrics)), ["f×", "T×", "A×", "T/A×"])
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(True, axis="y", alpha=0.3)


def with_ours(entries, rows, label):
    """Our bars for the rows that are measured (the others are listed under the figure)."""
    return entries + [(f"ours: {label(r)}", r, "ours") for r in rows if r.ours is not None]


ovb, ovb16, unr, hm = (by_key[k] for k in ("opt_vs_base_sha256", "opt_vs_base_2016", "unrolling", "hmac"))
sha1_p1 = next(r for r in ovb16.rows if r.spec == "sha1:opt:p1")
plotted = list(ovb.rows) + [sha1_p1] + list(hm.rows) + list(unr.rows)
fig, axes = plt.subplots(3, 2, figsize=(14, 11))
bar_panel(axes[0, 0], "SHA-256 optimized / base",
          with_ours([(name, r, "paper") for name, r in zip(
              ("Michail 2012, sec. 9 (4 stages)", "Michail 2010, sec. 2 (4 stages)",
               "Michail 2010, sec. 3 (4 stages)", "Michail 2016, p = 4 (Virtex-4)",
               "Michail 2016, p = 1 (Virtex-4)"), ovb.rows)],
                    [r for r in ovb.rows if r.x is not None], lambda r: f"p = {r.x}"))
bar_panel(axes[0, 1], "SHA-1 optimized / base",
          with_ours([("Michail 2016, p = 1 (Virtex-4)", sha1_p1, "paper")], [sha1_p1], lambda r: "p = 1"))
bar_panel(axes[1, 0], "SHA-1 k = 5 / basic",
          with_ours([("Lien 2004, Table 2 (Virtex)", unr.rows[0], "paper"),
                     ("Lien 2004, sec. 7 (stated)", unr.rows[1], "paper")], unr.rows[:1], lambda r: "k5 / base"))
bar_panel(axes[1, 1], "SHA-512 k = 5 / basic",
          with_ours([("Lien 2004, Table 3 (Virtex)", unr.rows[2], "paper"),
                     ("Lien 2004, sec. 7 (stated)", unr.rows[3], "paper")], unr.rows[2:3], lambda r: "k5 / base"))
bar_panel(axes[2, 0], "HMAC-SHA-256 / SHA-256 core",
          with_ours([("Michail 2012, Tables I, II (Virtex-6)", hm.rows[0], "paper")], hm.rows, lambda r: "p = 4"))
axes[2, 1].axis("off")
plt.tight_layout()
plt.show()
not_plotted(plotted)'''),
    new_code_cell("""\
# Athanasiou et al. 2013: every Skein-512 datapath over the 1-round one (the documentation's plot)
plots.skein_figure(comparisons)
plt.show()
not_plotted(by_key["skein"].rows)"""),
]

NOTEBOOKS = {
    "01_interactive_hashing.ipynb": NB01,
    "02_speedup.ipynb": NB02,
    "03_design_space.ipynb": NB03,
}


def build(cells):
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    for i, c in enumerate(nb.cells):
        c["id"] = f"cell-{i:02d}"  # stable ids: regenerating gives identical files
    return nb


def render(cells):
    return nbformat.writes(build(cells)) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = []
    for name, cells in NOTEBOOKS.items():
        path = os.path.join(HERE, name)
        text = render(cells)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(name)
            if not check:
                with open(path, "w") as f:
                    f.write(text)
    if check and stale:
        print("out of date:", ", ".join(stale), "(run notebooks/generate.py)")
        return 1
    if not check:
        print("wrote" if stale else "up to date:", ", ".join(stale or NOTEBOOKS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
