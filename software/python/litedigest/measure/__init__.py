# SPDX-License-Identifier: BSD-2-Clause
"""Measurement and research: what the benches, the notebooks and the documentation's tables
are made of.

- ``socdemo``: firmware runs on the simulated SoC and what their consoles report;
- ``sweep``: message-size sweeps of the SoC's engines;
- ``scheduler``: the C scheduler's block order, for engines fed in simulation;
- ``design_space``: the design-space tables from ``bitstreams/engines.json``;
- ``papers``: the papers' published figures the tables are compared with.
"""
