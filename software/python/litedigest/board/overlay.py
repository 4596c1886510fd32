# SPDX-License-Identifier: BSD-2-Clause
"""The LiteDigest PYNQ overlay (board only: this module imports ``pynq``)::

    from litedigest.board.overlay import LiteDigestOverlay
    ol = LiteDigestOverlay()                  # or LiteDigestOverlay("/path/litedigest.bit")
    ol.engines                                # {'sha256': 'sha256:opt:p1', ...}
    ol.new("sha256", b"abc").hexdigest()      # hashlib-style, hashed in the fabric
    litedigest.new("sha512", data, backend="pynq")   # the same engines, through the backend

The block design holds the LiteX subsystem ``litedigest_subsystem`` (VLNV
litedigest.board.device.SUBSYSTEM_VLNV) whose registers sit behind AXI GP0 and whose DMA reads
DDR through HP0. ``LiteDigestIP`` is the ``DefaultIP`` driver PYNQ binds to that VLNV; the
overlay finds it in ``ip_dict``, reads the register map (csr.json and csr.h shipped next to
the .bit) and builds a LiteDigestDevice on the IP's ``pynq.MMIO`` and ``pynq.allocate``
buffers, which becomes the pynq backend's device.
"""

import os

import pynq

from litedigest.board import device as board_device
from litedigest.board.device import (
    DEFAULT_BUFFER_BYTES,
    SUBSYSTEM_VLNV,
    LiteDigestDevice,
    RegisterMap,
    find_subsystem,
    register_files,
)

ENV_OVERLAY = "LITEDIGEST_OVERLAY"
DEFAULT_BITFILE = "litedigest.bit"  # soc/targets/pynq_z2.py OVERLAY_NAME


def default_bitfile():
    """The overlay's .bit: $LITEDIGEST_OVERLAY, else litedigest.bit in the board package's overlays/
    directory or the current directory (csr.json and csr.h next to it, see
    litedigest.board.device.register_files)."""
    env = os.environ.get(ENV_OVERLAY)
    if env:
        if not os.path.isfile(env):
            raise FileNotFoundError(f"{ENV_OVERLAY}={env}: no such file")
        return env
    tried = [
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "overlays", DEFAULT_BITFILE),
        os.path.abspath(DEFAULT_BITFILE),
    ]
    for p in tried:
        if os.path.isfile(p):
            return p
    raise FileNotFoundError(
        f"no LiteDigest overlay found: set {ENV_OVERLAY}=/path/to/overlay.bit "
        f"(looked for {', '.join(tried)})"
    )


class LiteDigestIP(pynq.DefaultIP):
    """PYNQ's driver for the LiteDigest subsystem, bound by its VLNV. ``attach(regmap)``
    builds the LiteDigestDevice on the IP's MMIO and pynq.allocate buffers."""

    bindto = [SUBSYSTEM_VLNV]

    def __init__(self, description):
        super().__init__(description=description)
        self.device = None

    def attach(self, regmap, buffer_bytes=DEFAULT_BUFFER_BYTES, timeout=10.0):
        if self.device is not None:
            self.device.close()
        self.device = LiteDigestDevice(
            self.mmio,
            pynq.allocate,
            regmap,
            buffer_bytes=buffer_bytes,
            timeout=timeout,
            label="board",
        )
        return self.device


class LiteDigestOverlay(pynq.Overlay):
    """The overlay with the LiteDigest subsystem; its engines as hashlib-style objects."""

    def __init__(
        self,
        bitfile=None,
        csr_json=None,
        csr_h=None,
        download=True,
        name=None,
        buffer_bytes=DEFAULT_BUFFER_BYTES,
        timeout=10.0,
        **kwargs,
    ):
        bitfile = bitfile or default_bitfile()
        json_path, h_path = register_files(bitfile, csr_json, csr_h)
        super().__init__(bitfile, download=download, **kwargs)
        self.subsystem_name, _ = find_subsystem(self.ip_dict, name=name)
        ip = self
        for part in self.subsystem_name.split("/"):
            ip = getattr(ip, part)
        if not isinstance(ip, LiteDigestIP):
            raise TypeError(
                f"{self.subsystem_name} is driven by {type(ip).__name__}, not LiteDigestIP"
            )
        self.subsystem = ip
        self.device = ip.attach(RegisterMap.from_files(json_path, h_path), buffer_bytes, timeout)
        board_device.use_device(self.device)

    @property
    def engines(self):
        """{instance: engine spec} of the overlay's hash engines."""
        return self.device.engines

    def new(self, name, data=b"", **kwargs):
        """A hashlib-style object hashing on the overlay's engine for `name` (digest_bits/key
        for Skein-512)."""
        return self.device.new(name, data, **kwargs)

    def close(self):
        if board_device.current_device() is self.device:
            board_device.use_device(None)
        self.device.close()
