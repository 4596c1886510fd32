# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest build TARGET [options]`: build a board target (soc/targets/<TARGET>.py).

Each board target module is `litedigest.soc.targets.<name>` and provides
`add_arguments(parser)` (its options) and `build(args) -> int`, both made of the targets'
shared parts (soc/targets/args.py: the options, builder.py: the build, the manifest, the exit
status), as `python -m litedigest.soc.targets.<name>` uses them; TARGETS lists the ones this
command offers. The simulated SoC (`sim`) is built on demand by the other commands instead.
A target's build says its steps through `args.progress` (litedigest.progress, on stderr;
--quiet silences it) when the command line gives it one.
"""

import importlib

from litedigest import extras
from litedigest.cli.common import add_quiet

TARGETS = {
    "pynq_z2": "PYNQ-Z2 (Zynq-7020): LiteX hash subsystem for a Vivado block design (.bit + .hwh)",
    "arty_a7": "Arty A7-100T: the same subsystem with a MicroBlaze V, MIG DDR3 and UART "
    "in a Vivado block design (.bit + .xsa), and the demo firmware cross-built for it",
    "ecp5": "ECP5 board (litex-boards) built with Yosys, nextpnr-ecp5 and ecppack",
}


def _target_module(name):
    return importlib.import_module(f"litedigest.soc.targets.{name}")


def add_parser(subparsers):
    p = subparsers.add_parser(
        "build",
        help="build a board target (gateware, bitstream, reports)",
        description="Build a LiteDigest board target: "
        + "; ".join(f"{k}: {v}" for k, v in TARGETS.items())
        + ".",
    )
    sub = p.add_subparsers(dest="target", metavar="TARGET")
    sub.required = True
    for name, help_text in TARGETS.items():
        tp = sub.add_parser(name, help=help_text, description=help_text)
        if not extras.available("flows"):
            # the targets import Migen/LiteX: say what to install when one is asked for
            tp.set_defaults(func=_missing(name))
            continue
        mod = _target_module(name)
        mod.add_arguments(tp)
        add_quiet(tp)
        tp.set_defaults(func=mod.build)
    p.set_defaults(func=lambda args: p.print_help() or 2)


def _missing(name):
    def run(args):
        extras.require("flows", f"litedigest build {name}")
        return 2

    return run
