# SPDX-License-Identifier: BSD-2-Clause
"""Gateware of the SoCs around the hash peripheral: the wide main RAM port (``wide_ram``), the
registered CSR bridge and decoded CSR banks (``csr_bridge``), and the fault injectors the
reliability tests use (``fault_inject``)."""
