# SPDX-License-Identifier: BSD-2-Clause
"""The simulated SoC for the tests that need more than its fixtures: a C driver of their own
(impatient_device), the JSON records of a bench firmware run (soc_bench_records), a command
that the tests interrupt (sigint_default)."""

import contextlib
import io
import json
import signal

from litedigest import _clib as native
from litedigest import cli


def impatient_device(sim, family, timeout_polls):
    """A C driver (litedigest._clib.HwDevice) on `sim`'s `family` peripheral, through the host
    bridge, that gives up a wait after `timeout_polls` status reads."""
    ram = sim.constants
    return native.HwDevice(
        native.instance_registers(sim.csrs.registers, family),
        read32=lambda a: sim.bus.read(a),
        write32=lambda a, v: sim.bus.write(a, [v]),
        family=family,
        ram_base=ram["main_ram_base"],
        ram_size=ram["main_ram_size"],
        timeout_polls=timeout_polls,
    )


def soc_bench_records(*options):
    """The records of `litedigest bench --backend soc --json` with `options` (--irq,
    --profile, ...): the bench firmware run on the simulated SoC, one JSON record a line."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli.main(["bench", "--backend", "soc", "--json", *options])
    assert rc == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def sigint_default():
    """Popen's preexec_fn for a command a test stops with SIGINT: the signal's default
    disposition back in the child (a background job's shell runs everything with SIGINT
    ignored, the child inherits that, and Python then installs no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
