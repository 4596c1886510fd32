# SPDX-License-Identifier: BSD-2-Clause
"""The board: the driver of a LiteDigest SoC seen from a host that maps its registers.

- ``device``: ``LiteDigestDevice`` (the register map from csr.json, the peripherals as C library
  devices, the staging buffer) and the device the ``pynq`` backend drives (``use_device``);
- ``overlay``: the PYNQ overlay and its ``DefaultIP`` driver (imports ``pynq``);
- ``lock``: the lock that lets several processes share one device;
- ``sim``: the simulated main SoC behind the same driver (MMIO and allocate adapters over the
  simulator's bridge); ``pynq_sim``: the same behind the real ``pynq`` package.

Neither Migen nor LiteX is imported here: a PYNQ image has no gateware tools.
"""
