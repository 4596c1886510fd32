# SPDX-License-Identifier: BSD-2-Clause
"""Metadata lives in pyproject.toml; this file lists the packages and wires the cffi extension
(the C library compiled for the host as litedigest._clib._native) into the build.

One distribution, several source folders (path = import, docs/ARCHITECTURE.md). The wheel and
the sdist carry what a board user runs: the API, the binding, the backends, the board, the
command line, the measurement tables and the notebooks. The gateware (litedigest.ip,
litedigest.soc) and the build and verification tools (litedigest.tools, the flows, the
simulator runner, the formal harnesses) build from the repository's sources and run from a
checkout installed in editable mode (``pip install -e '.[soc]'``), which maps them all.
"""

import sys

from setuptools import setup

BASE = {
    "litedigest": "software/python/litedigest",
    "litedigest._clib": "software/python/litedigest/_clib",
    "litedigest.backends": "software/python/litedigest/backends",
    "litedigest.board": "software/python/litedigest/board",
    "litedigest.cli": "software/python/litedigest/cli",
    "litedigest.measure": "software/python/litedigest/measure",
    "litedigest.remote": "software/python/litedigest/remote",
    "litedigest.notebooks": "notebooks",
}
CHECKOUT = {
    "litedigest.ip": "ip",
    "litedigest.ip.rtlsim": "ip/rtlsim",
    "litedigest.soc": "soc",
    "litedigest.soc.cores": "soc/cores",
    "litedigest.soc.peripheral": "soc/peripheral",
    "litedigest.soc.targets": "soc/targets",
    "litedigest.soc.sim": "soc/sim",
    "litedigest.soc.flows": "soc/flows",
    "litedigest.soc.formal": "soc/formal",
    "litedigest.tools": "tools",
}
# setuptools' PEP 660 hook runs this file with the `editable_wheel` command (`develop` before it)
EDITABLE = any(cmd in sys.argv for cmd in ("editable_wheel", "develop"))
packages = {**BASE, **(CHECKOUT if EDITABLE else {})}

setup(
    packages=list(packages),
    package_dir=packages,
    package_data={
        "litedigest.notebooks": ["*.ipynb"],
        "litedigest.soc.formal": ["harness/*.sv", "harness/*.svh"],
    },
    cffi_modules=["software/python/litedigest/_clib/build.py:ffibuilder"],
)
