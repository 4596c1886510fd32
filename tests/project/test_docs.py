# SPDX-License-Identifier: BSD-2-Clause
"""The documentation site (docs/conf.py): scripts/docs.sh builds it with Doxygen and Sphinx,
every warning an error (a broken link or reference, a docstring or header comment that does
not parse), and the reference pages have what they are generated from: the Python API's
entries (autodoc), the C library's (Doxygen + Breathe), every subcommand's options (the
argparse parser), the generated register map; links to repository files that are not pages
become their paths. Needs doxygen (scripts/setup.sh installs it): marked `build`."""

import os
import re
import shutil
import subprocess

import pytest
from litedigest.paths import repo_root

ROOT = repo_root()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    assert shutil.which("doxygen"), "doxygen is not installed (scripts/setup.sh installs it)"
    out = tmp_path_factory.mktemp("docs")
    env = dict(os.environ, LITEDIGEST_DOCS_OUT=str(out))
    r = subprocess.run(
        [os.path.join(ROOT, "scripts", "docs.sh"), "--no-setup"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = r.stdout + r.stderr
    assert r.returncode == 0, log[-6000:]
    # sphinx-build -W fails on Sphinx's warnings; docutils' own (a help text parsed apart,
    # "(WARNING/2)") and Doxygen's are printed only: none is allowed either
    assert not re.search(r"warning|error", log, re.I), log[-6000:]
    return out / "html"


def _page(site, name):
    with open(site / name, encoding="utf-8") as f:
        return f.read()


def test_python_reference(site):
    html = _page(site, "docs/python_api.html")
    for name in (
        "litedigest.new",
        "litedigest.file_digest",
        "litedigest.hash_many",
        "litedigest.hashobj.HashObject",
        "litedigest.skein.Skein512.update_bits",
        "litedigest.hmac.new",
        "litedigest.board.device.LiteDigestDevice",
        "litedigest._clib.HardwareError",
    ):
        assert f'id="{name}"' in html, name


def test_c_reference(site):
    html = _page(site, "docs/c_library.html")
    for name in ("ld_hw_md", "ld_md", "ld_hw_dev", "ld_sched_next", "ld_hmac_verify"):
        assert f'id="c.{name}"' in html, name


def test_command_line_options(site):
    html = _page(site, "docs/cli.html")
    for command in ("sum", "hmac", "demo", "bench", "build", "dse"):
        assert f'id="litedigest-{command}"' in html, command
    for option in ("--ignore-missing", "--key-file", "--sizes", "--seeds"):
        assert option in html, option


def test_pages_and_repository_links(site):
    # the register map generated from the peripheral's CSRs is a page
    assert "ctrl.variant" in _page(site, "soc/REGISTERS.html")
    # a link to a repository file that is not a page (a record) is its path
    index = _page(site, "docs/MEASUREMENTS.html")
    assert '<span class="pre">records/soc_demo.json</span>' in index
    assert os.path.exists(site / "docs" / "TESTING.html")
    assert os.path.exists(site / "docs" / "measurements" / "soc.html")
