"""Every notebook under notebooks/ executes top to bottom without an error (nbclient, a kernel
running this interpreter, i.e. the venv's ipykernel) and shows at least one plot; the
notebooks are committed with their outputs cleared and match notebooks/generate.py; they are
shipped the PYNQ way (a `pynq.notebooks` entry point resolving to the directory that holds them).

Without a PYNQ board the notebooks run against the simulated SoC (the main SoC build, cached;
02 also builds and runs the sweep firmware, a few minutes of simulation).
"""
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
NB_DIR = os.path.join(ROOT, "notebooks")
NOTEBOOKS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(NB_DIR, "*.ipynb")))
CELL_TIMEOUT = 1800      # seconds per cell: 02 simulates about 10 M CPU cycles in one cell


def test_the_notebooks_are_there():
    assert {"01_interactive_hashing.ipynb", "02_speedup.ipynb", "03_design_space.ipynb"} <= set(NOTEBOOKS)


def test_committed_without_outputs_and_generated():
    import nbformat
    for name in NOTEBOOKS:
        nb = nbformat.read(os.path.join(NB_DIR, name), as_version=4)
        nbformat.validate(nb)
        for c in nb.cells:
            if c.cell_type == "code":
                assert not c.outputs and c.execution_count is None, f"{name}: outputs not cleared"
    r = subprocess.run([sys.executable, os.path.join(NB_DIR, "generate.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory):
    """A kernelspec that runs this interpreter (the venv's ipykernel), whatever else is
    installed under the user's Jupyter paths."""
    pytest.importorskip("ipykernel")
    d = tmp_path_factory.mktemp("jupyter")
    spec_dir = d / "kernels" / "litedigest-venv"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "LiteDigest venv", "language": "python"}))
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
    nb = nbformat.read(os.path.join(NB_DIR, name), as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name=kernel_name,
                            resources={"metadata": {"path": NB_DIR}})
    client.execute()          # CellExecutionError on any error in any cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, f"{name} shows no plot"
    first = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    try:
        import pynq  # noqa: F401
        on_board = True
    except ImportError:
        on_board = False
    if not on_board:
        assert first.startswith("Running on the simulated SoC"), first


def test_pynq_notebooks_entry_point():
    """PYNQ's `pynq get-notebooks` delivers the directory of the module each `pynq.notebooks`
    entry point names: litedigest.notebooks must resolve to the notebooks."""
    from importlib import metadata
    eps = [ep for ep in metadata.entry_points(group="pynq.notebooks") if ep.name == "litedigest"]
    assert eps, "no pynq.notebooks entry point named litedigest (pip install -e . after pyproject changes)"
    mod = eps[0].load()
    d = os.path.dirname(mod.__file__)
    assert os.path.realpath(d) == os.path.realpath(NB_DIR)
    assert set(NOTEBOOKS) <= set(os.listdir(d))
