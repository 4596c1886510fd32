# SPDX-License-Identifier: BSD-2-Clause
"""The C driver on the simulated SoC, for the tests that need one of their own."""

from litedigest import _clib as native


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
