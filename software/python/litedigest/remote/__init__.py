# SPDX-License-Identifier: BSD-2-Clause
"""Reaching a LiteX SoC's registers from a host, as LiteX's ``litex.tools.remote`` does:
``bridge`` (the UARTBone client over TCP: the simulated SoC's bridge) and ``csrmap`` (the
register and memory map of a build's csr.json). Standard library only: the board side, the
simulator runner and the tests share it."""
