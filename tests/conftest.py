# SPDX-License-Identifier: BSD-2-Clause
"""Suite-wide fixtures, and the markers of the expensive kinds of test (docs/TESTING.md).

The tests live in a folder per layer; what a folder's tests need sets their markers, so that
`-m` picks a tier: the quick tier (scripts/test.sh --quick) is what needs none of them. A test
elsewhere that needs one carries the marker itself (@pytest.mark.rtl, @pytest.mark.soc)."""

import os
import signal

import pytest
from litedigest.soc.sim import migen_compiled, migen_widths

# the Migen simulations of the benches (about half of the suite's time) compute an
# expression's width once instead of at every evaluation (soc/sim/migen_widths.py) and run
# the design's statements compiled to Python (soc/sim/migen_compiled.py)
migen_widths.install()
migen_compiled.install()

# A suite started as a background job (`cmd &` without job control) inherits SIGINT ignored, and
# Python then installs no KeyboardInterrupt handler: the tests that interrupt themselves
# (tests/soc/test_interrupted.py) need the default one back.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# what each folder's tests need (pyproject.toml describes the markers)
FOLDER_MARKERS = {
    "engines": ("rtl",),
    "peripheral": ("migen",),
    "soc": ("soc",),
    "board": ("soc",),
    "flows": ("flows",),
    "formal": ("formal",),
}
# files of the other folders that build with outside toolchains or run the simulated SoC
FILE_MARKERS = {
    "test_catalog.py": ("migen",),
    "test_migen_compiled.py": ("migen",),
    "test_migen_widths.py": ("migen",),
    "test_peripheral_verilog.py": ("migen", "flows"),
    "test_fuzz.py": ("build",),
    "test_docs.py": ("build",),
    "test_c_library_package.py": ("build", "soc"),
    "test_packaging.py": ("build", "soc"),
    "test_notebooks.py": ("soc",),
}
HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = str(item.path)
        folder = os.path.relpath(path, HERE).split(os.sep)[0]
        name = os.path.basename(path)
        for marker in FILE_MARKERS.get(name, FOLDER_MARKERS.get(folder, ())):
            item.add_marker(getattr(pytest.mark, marker))


@pytest.fixture(autouse=True, scope="module")
def _close_cached_backends():
    """Close the backends a test module left cached (litedigest.backends.get_backend) when it
    ends: a `soc` backend's simulator runs its idle firmware at full speed until closed, and a
    few of them left running for the rest of a worker's session took CPU from every later
    test. A later module that needs one starts it again (seconds: the build is cached)."""
    yield
    from litedigest.backends import close_all

    close_all()
