# SPDX-License-Identifier: BSD-2-Clause
"""Errors of the simulated SoC runner (build, firmware, process)."""


class SimError(RuntimeError):
    """The simulation failed (build error, process died, bad firmware, ...)."""


class SimTimeout(SimError, TimeoutError):
    """A wait on the simulation ran out of time."""
