# SPDX-License-Identifier: BSD-2-Clause
"""Style gates: ruff's lint and format check on the Python (pyproject.toml's [tool.ruff]) and
clang-format on the C (.clang-format). Generated files are their generator's to format."""

import os
import shutil
import subprocess
import sys

from litedigest.paths import repo_root
from litedigest.tools import regmap

ROOT = repo_root()
RUFF = os.path.join(os.path.dirname(sys.executable), "ruff")
C_EXTS = (".c", ".h", ".cpp", ".inc")


def _run(cmd):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_lint():
    r = _run([RUFF, "check", "--no-cache", "."])
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format():
    r = _run([RUFF, "format", "--check", "--no-cache", "."])
    assert r.returncode == 0, r.stdout + r.stderr


def _c_sources():
    generated = {regmap.HEADER, regmap.CATALOG_HEADER, regmap.MD_TABLE_HEADER}
    out = _run(["git", "ls-files", "-z"]).stdout.split("\0")
    return [f for f in out if f.endswith(C_EXTS) and "/corpus/" not in f and f not in generated]


def test_clang_format():
    exe = shutil.which("clang-format")
    assert exe, "clang-format is not installed (scripts/setup.sh installs it)"
    files = _c_sources()
    assert len(files) > 30
    r = _run([exe, "--dry-run", "-Werror", *files])
    assert r.returncode == 0, r.stderr[-4000:]
