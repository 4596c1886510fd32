# SPDX-License-Identifier: BSD-2-Clause
"""The documentation's plots, drawn from the same records as its tables (litedigest.measure.
figures) and used by the notebooks: the design space against the papers, the speedup against
message size, the batch walker's messages per second. Needs matplotlib (the ``notebooks`` and
``docs`` extras).

    python -m litedigest.measure.figures --plots DIR    # every plot, as DIR/<name>.svg
"""

import hashlib
import os
import re

from litedigest.measure import design_space

METRIC_LABEL = {"T": "throughput", "A": "area", "TA": "throughput / area"}


def _plt():
    import sys

    import matplotlib

    # headless (SVG files) unless a backend is already chosen: a notebook's inline one stays
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "litedigest"  # the same plot gives the same file
    import matplotlib.pyplot as plt

    return plt


def pipelines_figure(comparisons=None):
    """Michail et al. 2016's study: throughput, area and throughput/area of each SHA
    family and architecture against its pipeline depth p, relative to p = 1, the paper's
    (Virtex-4, its other devices faint) beside ours (ECP5, engines.json)."""
    plt = _plt()
    comparisons = comparisons if comparisons is not None else design_space.comparisons()
    pipes = _pipes(comparisons)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    for ax, m in zip(axes, ("T", "A", "TA")):
        for i, c in enumerate(pipes):
            color = f"C{i}"
            label = c.rows[0].series
            for dev in ("V", "V-E", "V-II"):
                pts = [(r.x, r.paper[m].by_device.get(dev)) for r in c.rows]
                pts = [(x, v) for x, v in pts if v is not None]
                ax.plot([x for x, _ in pts], [v for _, v in pts], "-", color=color, alpha=0.2)
            ax.plot(
                [r.x for r in c.rows],
                [r.paper[m].value for r in c.rows],
                "o-",
                color=color,
                ms=4,
                label=f"{label}: paper (Virtex-4)",
            )
            ours = [(r.x, r.ours[m]) for r in c.rows if r.ours is not None]
            if ours:
                ax.plot(
                    [x for x, _ in ours],
                    [v for _, v in ours],
                    "s",
                    color=color,
                    ms=9,
                    mfc="none",
                    mew=2,
                    label=f"{label}: ours (ECP5)",
                )
        if m != "TA":
            ax.plot([1, 80], [1, 80], ":", color="grey", lw=0.8)
            ax.set_yscale("log", base=2)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("pipeline stages p")
        ax.set_ylabel(f"{METRIC_LABEL[m]} / that of p = 1")
        ax.set_title(f"Michail et al. 2016: {METRIC_LABEL[m]}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def skein_figure(comparisons=None):
    """Athanasiou et al.'s Skein-512 designs: the paper's ratios to its base beside ours."""
    plt = _plt()
    comparisons = comparisons if comparisons is not None else design_space.comparisons()
    (c,) = _skein(comparisons)
    metrics = [m for m in ("f", "T", "A", "TA") if any(r.paper.get(m) for r in c.rows)]
    fig, axes = plt.subplots(1, len(metrics), figsize=(4 * len(metrics), 4.5), squeeze=False)
    labels = [r.spec or r.label for r in c.rows]
    for ax, m in zip(axes[0], metrics):
        xs = range(len(c.rows))
        paper = [r.paper[m].value if r.paper.get(m) else None for r in c.rows]
        ours = [r.ours.get(m) if r.ours else None for r in c.rows]
        ax.bar(
            [x - 0.2 for x, v in zip(xs, paper) if v], [v for v in paper if v], 0.4, label="paper"
        )
        ax.bar(
            [x + 0.2 for x, v in zip(xs, ours) if v],
            [v for v in ours if v],
            0.4,
            label="ours (ECP5)",
            hatch="//",
            edgecolor="black",
        )
        ax.set_xticks(list(xs), labels, rotation=60, ha="right", fontsize=7)
        ax.axhline(1, color="grey", lw=0.8)
        ax.set_title(f"{METRIC_LABEL.get(m, m)} / that of {c.baseline}", fontsize=9)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def speedup_figure(rows, ax=None):
    """The sweep's speedup of the CSR and DMA paths over software against message size; on
    `ax` (a matplotlib Axes) when given, else on a figure of its own. Returns the figure."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.5)) if ax is None else (ax.figure, ax)
    for path, color in (("csr", "C1"), ("dma", "C2")):
        pts = sorted((r["bytes"], r["speedup_vs_sw"]) for r in rows if r["path"] == path)
        ax.plot([n for n, _ in pts], [s for _, s in pts], "o-", color=color, label=path.upper())
    engine = rows[0]["engine"]
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message (bytes)")
    ax.set_ylabel("speedup over the C library's software SHA-256")
    ax.set_title(f"SHA-256 on the simulated SoC (`{engine}`, VexRiscv)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def batch_figure(rows):
    """Messages per second of the batch walker, one call per message and software, per
    engine and message size."""
    plt = _plt()
    sizes = sorted({r["bytes"] for r in rows})
    paths = list(dict.fromkeys(r["path"] for r in rows))
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 4.5), squeeze=False)
    for ax, n in zip(axes[0], sizes):
        engines = list(dict.fromkeys(r["engine"] for r in rows if r["bytes"] == n))
        w = 0.8 / len(paths)
        for k, path in enumerate(paths):
            vals = {
                r["engine"]: r["messages_per_second"]
                for r in rows
                if r["bytes"] == n and r["path"] == path
            }
            xs = [i + (k - (len(paths) - 1) / 2) * w for i, e in enumerate(engines) if e in vals]
            ax.bar(xs, [vals[e] for e in engines if e in vals], w, label=path)
        ax.set_xticks(range(len(engines)), engines, rotation=30, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel(f"messages per second at {rows[0]['clock_mhz']:g} MHz")
        ax.set_title(f"{n:,}-byte messages")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def packets_figure(rows, ax=None):
    """HMAC-SHA-256-128 throughput (Gbit/s at the record's clock) against the packet size:
    per path (the HMAC peripheral's walker, a SHA-256 peripheral from stored key states,
    software), the one-size streams as points joined by lines, the IMIX stream as a marker at
    its mean size; on `ax` when given. Returns the figure."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4.5)) if ax is None else (ax.figure, ax)
    rows = [r for r in rows if r["burst"] in (1, max(x["burst"] for x in rows))]
    for k, (path, engine) in enumerate(dict.fromkeys((r["path"], r["engine"]) for r in rows)):
        mine = [r for r in rows if (r["path"], r["engine"]) == (path, engine)]
        sized = sorted(
            (r["packet_bytes"], r["gbit_per_second"]) for r in mine if r["packet_bytes"] != "IMIX"
        )
        label = f"{path} (`{engine}`)"
        ax.plot([n for n, _ in sized], [g for _, g in sized], "o-", color=f"C{k}", label=label)
        for r in mine:
            if r["packet_bytes"] == "IMIX":
                ax.plot(r["bytes"] / r["packets"], r["gbit_per_second"], "*", color=f"C{k}", ms=12)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("packet (bytes); a star: the simple IMIX at its mean size")
    ax.set_ylabel(f"Gbit/s at {rows[0]['clock_mhz']:g} MHz")
    ax.set_title("HMAC-SHA-256-128 over a packet stream, four keys (simulated SoC)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _pipes(comparisons):
    return [c for c in comparisons if c.key.startswith("pipelines_")]


def _skein(comparisons):
    return [c for c in comparisons if c.key == "skein"]


def plots(src):
    """{name: (the data it shows, a function of that data drawing the figure)} of every plot."""
    comparisons = design_space.comparisons()
    return {
        "design_space_pipelines": (_pipes(comparisons), pipelines_figure),
        "design_space_skein": (_skein(comparisons), skein_figure),
        "speedup_sweep": (src.rows("soc_sweep"), speedup_figure),
        "batch_walker": (src.rows("soc_batch"), batch_figure),
        "packets": (src.rows("soc_packets"), packets_figure),
    }


def data_stamp(data):
    """A stamp of what a plot shows (written into its SVG): a plot is stale when it differs,
    whatever matplotlib version drew it."""
    return hashlib.sha256(repr(data).encode()).hexdigest()


_STAMP = re.compile(r"litedigest-data:([0-9a-f]{64})")


def stamp_of(path):
    """The data stamp written into the SVG at `path` (None if it has none or is missing)."""
    try:
        with open(path) as f:
            m = _STAMP.search(f.read())
    except FileNotFoundError:
        return None
    return m.group(1) if m else None


def stale(src, out_dir):
    """The plots of `out_dir` whose SVG is missing or shows other data than `src` holds."""
    return [
        name
        for name, (data, _) in plots(src).items()
        if stamp_of(os.path.join(out_dir, f"{name}.svg")) != data_stamp(data)
    ]


def write_all(src, out_dir, only_stale=False):
    """Every plot (`only_stale`: those stale() names) as `out_dir`/<name>.svg, the data stamp
    in its metadata; the paths written."""
    plt = _plt()
    os.makedirs(out_dir, exist_ok=True)
    todo = set(stale(src, out_dir)) if only_stale else None
    paths = []
    for name, (data, draw) in plots(src).items():
        if todo is not None and name not in todo:
            continue
        fig = draw(data)
        path = os.path.join(out_dir, f"{name}.svg")
        fig.savefig(
            path, metadata={"Date": None, "Description": f"litedigest-data:{data_stamp(data)}"}
        )
        plt.close(fig)
        paths.append(path)
    return paths
