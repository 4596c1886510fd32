# SPDX-License-Identifier: BSD-2-Clause
"""Every notebook under notebooks/ executes top to bottom without an error (nbclient, a kernel
running this interpreter, i.e. the venv's ipykernel) and shows at least one plot; the
notebooks are committed with their outputs cleared and match notebooks/generate.py; they are
shipped the PYNQ way (a `pynq.notebooks` entry point resolving to the directory that holds them).

Without a PYNQ board the notebooks run against the simulated SoC (the main SoC build, cached);
02 shows the SoC benches' committed records (records/*.json) and must not run them again by
default: the SoC's firmware runs are stopped while the notebooks execute here. Their Markdown
states no measured figure typed by hand (litedigest.measure.figures.FIGURE): a figure is printed
from its record or from the engines' specs.
"""

import glob
import json
import os
import subprocess
import sys

import pytest
from litedigest.paths import repo_root

ROOT = repo_root()
NB_DIR = os.path.join(ROOT, "notebooks")
NOTEBOOKS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(NB_DIR, "*.ipynb")))
CELL_TIMEOUT = 1800  # seconds per cell (MEASURE_AGAIN = True simulates minutes per cell)
# the records 02 shows off the board, each with the command that measured it
SOC_RECORDS = ("soc_sweep", "soc_batch", "soc_sched", "soc_hmac")
# run after the target cell off the board: a SoC bench that runs again fails the notebook
NO_SOC_BENCH = """\
from litedigest.measure import socdemo


def _no_soc_bench(*args, **kwargs):
    raise AssertionError("the notebook runs a SoC bench again off the board (MEASURE_AGAIN?)")


socdemo.run_app = _no_soc_bench"""


def test_the_notebooks_are_there():
    assert {"01_interactive_hashing.ipynb", "02_speedup.ipynb", "03_design_space.ipynb"} <= set(
        NOTEBOOKS
    )


def test_committed_without_outputs_and_generated():
    import nbformat

    for name in NOTEBOOKS:
        nb = nbformat.read(os.path.join(NB_DIR, name), as_version=4)
        nbformat.validate(nb)
        for c in nb.cells:
            if c.cell_type == "code":
                assert not c.outputs and c.execution_count is None, f"{name}: outputs not cleared"
    r = subprocess.run(
        [sys.executable, os.path.join(NB_DIR, "generate.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_markdown_states_no_figure_typed_by_hand():
    """A number with the unit of a measured figure (cycles, MHz, bytes/cycle, MB, x, %) in a
    notebook's Markdown is a figure typed by hand: print it from its record instead."""
    import nbformat
    from litedigest.measure.figures import FIGURE

    typed = [
        (name, i, m.group(0))
        for name in NOTEBOOKS
        for i, c in enumerate(nbformat.read(os.path.join(NB_DIR, name), as_version=4).cells)
        if c.cell_type == "markdown"
        for m in FIGURE.finditer(c.source)
    ]
    assert not typed, typed


def test_measure_again_is_off():
    """02 reads the records unless its user sets MEASURE_AGAIN."""
    import nbformat

    nb = nbformat.read(os.path.join(NB_DIR, "02_speedup.ipynb"), as_version=4)
    flags = [c.source for c in nb.cells if "\nMEASURE_AGAIN = " in c.source]
    assert len(flags) == 1 and "\nMEASURE_AGAIN = False\n" in flags[0], flags


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory):
    """A kernelspec that runs this interpreter (the venv's ipykernel), whatever else is
    installed under the user's Jupyter paths."""
    pytest.importorskip("ipykernel")
    d = tmp_path_factory.mktemp("jupyter")
    spec_dir = d / "kernels" / "litedigest-venv"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "LiteDigest venv",
                "language": "python",
            }
        )
    )
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(d) + (os.pathsep + old if old else "")
    yield "litedigest-venv"
    if old is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = old


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_executes_and_plots(name, kernel_name):
    import nbformat
    from nbclient import NotebookClient

    try:
        import pynq  # noqa: F401

        on_board = True
    except ImportError:
        on_board = False
    nb = nbformat.read(os.path.join(NB_DIR, name), as_version=4)
    if not on_board:
        nb.cells.insert(2, nbformat.v4.new_code_cell(NO_SOC_BENCH))
    client = NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name=kernel_name, resources={"metadata": {"path": NB_DIR}}
    )
    client.execute()  # CellExecutionError on any error in any cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, f"{name} shows no plot"
    first = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    if not on_board:
        assert first.startswith("Running on the simulated SoC"), first
    if name == "02_speedup.ipynb" and not on_board:
        from litedigest import records

        text = "".join(o.get("text", "") for o in outputs)
        for rec in SOC_RECORDS:
            r = records.load(rec)
            assert f"records/{rec}.json, measured {r['measured']} by `{r['command']}`" in text, rec


def test_pynq_notebooks_entry_point():
    """PYNQ's `pynq get-notebooks` delivers the directory of the module each `pynq.notebooks`
    entry point names: litedigest.notebooks must resolve to the notebooks."""
    from importlib import metadata

    eps = [ep for ep in metadata.entry_points(group="pynq.notebooks") if ep.name == "litedigest"]
    assert eps, (
        "no pynq.notebooks entry point named litedigest (pip install -e . after pyproject changes)"
    )
    mod = eps[0].load()
    d = os.path.dirname(mod.__file__)
    assert os.path.realpath(d) == os.path.realpath(NB_DIR)
    assert set(NOTEBOOKS) <= set(os.listdir(d))


def test_design_space_plots_an_engines_json(kernel_name, tmp_path, monkeypatch):
    """03's area/fmax/throughput figures from an engines.json in the format `litedigest dse`
    writes (a made-up two-engine document here, not measurements: it only exercises the
    notebook's plotting of that format, whether or not bitstreams/engines.json exists yet)."""
    import nbformat
    from nbclient import NotebookClient

    def rec(spec, family, lat, iv, lut4, fm, lut):
        return {
            "spec": spec,
            "family": family,
            "arch": spec.split(":")[1],
            "stages": 1,
            "modules": 1,
            "latency": lat,
            "interval": iv,
            "interval_exact": str(iv),
            "in_flight": 1,
            "block_bits": 512,
            "ecp5": {
                "lut4": lut4,
                "lut4_with_carry": lut4 + 64,
                "ff": 900,
                "ccu2c": 32,
                "dpram16": 0,
                "ebr": 0,
                "dsp": 0,
                "seeds": [1, 2, 3],
                "fmax_mhz": fm,
                "fmax_median": sorted(fm)[1],
            },
            "xc7": {"lut": lut, "ff": 900, "carry4": 16},
            "throughput_mbps": round(512 * sorted(fm)[1] / iv, 1),
            "throughput_per_lut4": 0.1,
            "improvement": None,
        }

    doc = {
        "generated_by": "tests/project/test_notebooks.py (made-up values)",
        "tools": {},
        "device": {"ecp5": {"device": "LFE5U-85F"}},
        "engines": [
            rec("sha256:base", "sha256", 65, 65, 2000, [80.0, 82.5, 81.0], 1500),
            rec("sha1:opt", "sha1", 41, 41, 2600, [70.0, 71.0, 69.5], 1900),
        ],
    }
    # a third record with area only: not routed within dse's time limit (placement estimate)
    unrouted = rec("skein512:r8", "skein512", 10, 10, 6200, [20.0, 20.0, 20.0], 7000)
    unrouted["ecp5"].update(
        seeds=[],
        fmax_mhz=[],
        fmax_median=None,
        unrouted=[
            {
                "seed": 1,
                "estimate_mhz": 16.7,
                "arcs": 35833,
                "arcs_left": 30311,
                "route_timeout_s": 300.0,
            }
        ],
    )
    unrouted.update(throughput_mbps=None, throughput_per_lut4=None)
    doc["engines"].append(unrouted)
    path = tmp_path / "engines.json"
    path.write_text(json.dumps(doc))
    monkeypatch.setenv("LITEDIGEST_ENGINES_JSON", str(path))
    nb = nbformat.read(os.path.join(NB_DIR, "03_design_space.ipynb"), as_version=4)
    NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name=kernel_name, resources={"metadata": {"path": NB_DIR}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    text = "".join(o.get("text", "") for o in outputs)
    assert "3 engines, generated by 'tests/project/test_notebooks.py (made-up values)'" in text
    assert "not routed in the time limit (placement estimate 16.7 MHz)" in text
    # latency/interval, bits per cycle, area/fmax, xc7 area; then the three comparisons with
    # the papers (pipeline depth, optimized and unrolled against base, Skein-512), drawn with
    # the papers' side whatever engines.json holds
    assert len([o for o in outputs if "image/png" in o.get("data", {})]) == 4 + 3
