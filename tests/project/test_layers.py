# SPDX-License-Identifier: BSD-2-Clause
"""Dependencies point one way (docs/ARCHITECTURE.md): import-linter checks pyproject.toml's
contracts on the whole package, and the board side (the pynq backend, litedigest.board.overlay,
litedigest.board.device) is imported with Migen and LiteX made unimportable."""

import os
import shutil
import subprocess
import sys
import textwrap

from litedigest.paths import repo_root

ROOT = repo_root()
LINT = os.path.join(ROOT, "scripts", "lint_imports.py")


def test_import_contracts_are_kept():
    """pyproject.toml's import-linter contracts: the host layers, the gateware's and the board's
    forbidden imports, no cycle between the modules of any package (imports inside functions
    included)."""
    r = subprocess.run([sys.executable, LINT], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ", 0 broken." in r.stdout, r.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The check can fail: a host layer that imports one above it breaks the layers contract."""
    cfg = tmp_path / "pyproject.toml"
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), cfg)
    text = cfg.read_text().replace(
        '"litedigest.cli",\n  "litedigest.measure",', '"litedigest.measure",\n  "litedigest.cli",'
    )
    assert text != cfg.read_text()
    cfg.write_text(text)
    r = subprocess.run(
        [sys.executable, LINT, str(cfg)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode != 0
    assert "litedigest.cli is not allowed to import litedigest.measure" in r.stdout, r.stdout


BOARD_SCRIPT = textwrap.dedent("""
    import importlib.abc, sys, types

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("migen", "litex", "litedram", "liteeth"):
                raise ImportError(f"{name} is not on the board")
            return None

    sys.meta_path.insert(0, Block())
    pynq = types.ModuleType("pynq")          # a stand-in for the board's PYNQ
    class DefaultIP:
        def __init__(self, description): self.description = description
    class Overlay: pass
    pynq.DefaultIP, pynq.Overlay, pynq.allocate = DefaultIP, Overlay, None
    sys.modules["pynq"] = pynq

    import litedigest, litedigest.board.overlay, litedigest.board.device, litedigest.hw_regs
    from litedigest.backends import get_backend
    get_backend("pynq", "sha256:opt:p1")      # the backend module loads without a device
    assert litedigest.new("sha256", b"abc").hexdigest().startswith("ba7816bf")
    assert litedigest.new("skein512-256", b"").digest_size == 32
    bad = sorted(m for m in sys.modules if m.split(".")[0] in ("migen", "litex"))
    assert not bad, bad
    assert "litedigest.ip" not in sys.modules and "litedigest.soc" not in sys.modules, \\
        sorted(m for m in sys.modules if m.startswith("litedigest."))
    print("board side ok")
""")


def test_board_side_imports_neither_migen_nor_litex():
    r = subprocess.run(
        [sys.executable, "-c", BOARD_SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "board side ok" in r.stdout
