# SPDX-License-Identifier: BSD-2-Clause
"""Suite-wide fixtures."""
import pytest

from litedigest.soc.sim import migen_compiled, migen_widths

# the Migen simulations of the benches (about half of the suite's time) compute an
# expression's width once instead of at every evaluation (soc/sim/migen_widths.py) and run
# the design's statements compiled to Python (soc/sim/migen_compiled.py)
migen_widths.install()
migen_compiled.install()


@pytest.fixture(autouse=True, scope="module")
def _close_cached_backends():
    """Close the backends a test module left cached (litedigest.backends.get_backend) when it
    ends: a `soc` backend's simulator runs its idle firmware at full speed until closed, and a
    few of them left running for the rest of a worker's session took CPU from every later
    test. A later module that needs one starts it again (seconds: the build is cached)."""
    yield
    from litedigest.backends import close_all
    close_all()
