# SPDX-License-Identifier: BSD-2-Clause
"""The license (LICENSE, BSD-2-Clause as LiteX and Migen): every source file the repository
tracks names it in an SPDX line near its top, the self-contained C library carries the text,
and the package metadata states it."""

import os
import subprocess

import pytest
from litedigest.paths import repo_root

SPDX = "SPDX-License-Identifier: BSD-2-Clause"
# what a source file is, by its ending or its name (data, prose and the fuzz corpus are not)
SOURCE_EXTS = (
    ".py",
    ".sh",
    ".mak",
    ".tcl",
    ".c",
    ".h",
    ".cpp",
    ".inc",
    ".ld",
    ".S",
    ".sv",
    ".svh",
    ".v",
)
SOURCE_NAMES = ("Makefile", "meson.build", "CMakeLists.txt", "meson_options.txt")
HEAD_LINES = 3  # after a shebang line, or a generated file's first line


def _tracked():
    """The files git tracks (None outside a git checkout, e.g. an unpacked sdist)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=repo_root(), capture_output=True)
    return [f for f in out.stdout.decode().split("\0") if f] if out.returncode == 0 else None


def _is_source(path):
    if "/corpus/" in path:
        return False
    base = os.path.basename(path)
    return base.endswith(SOURCE_EXTS) or base in SOURCE_NAMES or path == ".ci/run"


def test_every_source_file_names_the_license():
    tracked = _tracked()
    if tracked is None:
        pytest.skip("not a git checkout")
    sources = [f for f in tracked if _is_source(f)]
    assert len(sources) > 200
    missing = []
    for f in sources:
        with open(os.path.join(repo_root(), f), errors="replace") as fh:
            head = [fh.readline() for _ in range(HEAD_LINES)]
        if not any(SPDX in line for line in head):
            missing.append(f)
    assert not missing, f"no '{SPDX}' line in the first {HEAD_LINES} lines of: {missing}"


@pytest.mark.parametrize("where", [".", "software/firmware/lib"])
def test_license_text(where):
    with open(os.path.join(repo_root(), where, "LICENSE")) as f:
        text = f.read()
    assert text.startswith("BSD 2-Clause License")
    assert "Redistributions in binary form must reproduce" in text


def test_package_metadata_states_the_license():
    import tomllib

    with open(os.path.join(repo_root(), "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["license"] == {"text": "BSD-2-Clause"}
    assert "License :: OSI Approved :: BSD License" in project["classifiers"]
