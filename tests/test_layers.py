# SPDX-License-Identifier: BSD-2-Clause
"""Dependencies point one way: the gateware (litedigest.ip, litedigest.soc) imports nothing
from the host package but the pure-data catalogue litedigest.spec, and the board side (the
pynq backend, litedigest.overlay, litedigest.pynq_device) imports neither Migen nor LiteX."""
import ast
import os
import subprocess
import sys
import textwrap

from litedigest.paths import repo_root

ROOT = repo_root()
HOST_PACKAGE = os.path.join("software", "python", "litedigest")


def _imports(path):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:   # relative: inside its own package
                continue
            yield node.module or ""
            if node.module == "litedigest":
                yield from (f"litedigest.{a.name}" for a in node.names)


def _gateware_files():
    for top in ("ip", "soc"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def test_gateware_imports_only_the_catalogue_from_the_host_package():
    allowed = ("litedigest.spec", "litedigest.ip", "litedigest.soc")
    bad = []
    for path in _gateware_files():
        for mod in _imports(path):
            if mod == "litedigest" or (mod.startswith("litedigest.") and not mod.startswith(allowed)):
                bad.append(f"{os.path.relpath(path, ROOT)}: {mod}")
    # `from litedigest import spec` names the module litedigest itself too: allow exactly that
    bad = [b for b in bad if not b.endswith(": litedigest")]
    assert not bad, "\n".join(bad)


BOARD_SCRIPT = textwrap.dedent('''
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

    import litedigest, litedigest.overlay, litedigest.pynq_device, litedigest.hw_regs
    from litedigest.backends import get_backend
    get_backend("pynq", "sha256:opt:p1")      # the backend module loads without a device
    assert litedigest.new("sha256", b"abc").hexdigest().startswith("ba7816bf")
    assert litedigest.new("skein512-256", b"").digest_size == 32
    bad = sorted(m for m in sys.modules if m.split(".")[0] in ("migen", "litex"))
    assert not bad, bad
    assert "litedigest.ip" not in sys.modules and "litedigest.soc" not in sys.modules, \\
        sorted(m for m in sys.modules if m.startswith("litedigest."))
    print("board side ok")
''')


def test_board_side_imports_neither_migen_nor_litex():
    r = subprocess.run([sys.executable, "-c", BOARD_SCRIPT], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "board side ok" in r.stdout
