# SPDX-License-Identifier: BSD-2-Clause
"""Tools that generate from the gateware, kept apart from it (as OpenTitan keeps
``util/reggen`` apart from ``hw/``): ``regmap``, the register map generator (the C header, the
Python register layout and the tables of soc/REGISTERS.md from the CSRs the peripheral
declares, and the catalogue's C ids)."""
