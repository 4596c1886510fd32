# SPDX-License-Identifier: BSD-2-Clause
"""The `pynq` backend: the LiteDigest subsystem of a PYNQ overlay (Zynq PS over AXI GP0, the
engines' DMA reading DDR through HP0), through litedigest.board.device.LiteDigestDevice.

Which device it drives, in this order:

1. the device made current with ``use_device(dev)`` -- ``LiteDigestOverlay(...)`` does this
   when it is loaded on a board, and ``litedigest.board.sim.open_sim_device()`` (the simulated
   SoC behind MMIO/allocate-compatible adapters) when tests or notebooks ask for it;
2. with the environment variable ``LITEDIGEST_PYNQ_DEVICE=sim``: the simulated main SoC
   (litedigest.board.sim), opened on first use -- only ever on this explicit request;
3. otherwise the board: ``import pynq`` and load the LiteDigest overlay
   (litedigest.board.overlay.LiteDigestOverlay, bitstream from ``LITEDIGEST_OVERLAY`` or the
   packaged default). Without PYNQ this is an error; there is no silent fallback to the
   simulator.

Hash objects reach the backend through the registry (cached per engine); every call looks up
the current device, so switching devices with ``use_device`` takes effect at once.
"""

import os

from litedigest import spec as specmod
from litedigest.backends import Backend, walker_macs
from litedigest.board import device as board_device
from litedigest.board.device import use_device  # noqa: F401  (this module's API)

ENV_DEVICE = "LITEDIGEST_PYNQ_DEVICE"


def current_device(open_default=True):
    """The device the backend drives (see the module doc); None if there is none and
    `open_default` is false."""
    return board_device.current_device(_open_default if open_default else None)


def _open_default():
    choice = os.environ.get(ENV_DEVICE, "").strip().lower()
    if choice == "sim":
        import atexit

        from litedigest.board.sim import open_sim_device

        device = open_sim_device()
        atexit.register(device.close_sim)  # never leave the simulator running
        return device
    if choice not in ("", "board"):
        raise ValueError(f"{ENV_DEVICE}={choice!r}: expected 'sim' or 'board'")
    return _open_board()


def _open_board():
    try:
        import pynq  # noqa: F401  (the board's PYNQ; only this code path imports it)
    except ImportError as e:
        raise ValueError(
            "the pynq backend drives a LiteDigest overlay on a PYNQ board, and `import "
            f"pynq` failed here ({e}). On a board: pip install pynq and load the overlay "
            "(litedigest.board.overlay.LiteDigestOverlay). Without a board: the simulated "
            f"SoC behind the same driver, with {ENV_DEVICE}=sim or "
            "litedigest.backends.pynq.use_device(litedigest.board.sim.open_sim_device())"
        ) from None
    from litedigest.board.overlay import LiteDigestOverlay

    return LiteDigestOverlay().device


class PynqBackend(Backend):
    name = "pynq"

    def __init__(self, engine=None):
        self.spec = specmod.parse(engine or "sha256")
        self.path = os.environ.get("LITEDIGEST_PYNQ_PATH", "dma")
        if self.path not in ("csr", "dma"):
            raise ValueError(f"unknown pynq path {self.path!r} (csr or dma)")

    def _peripheral(self, spec):
        dev = current_device()
        return dev.peripheral(dev.instance_for(spec))

    @property
    def c_path(self):
        from litedigest import _clib as native

        return native.PATH_DMA if self.path == "dma" else native.PATH_CSR

    def md_context(self, spec):
        return self._peripheral(spec).context(spec.algorithm, self.c_path)

    def mac(self, spec, key, data):
        """The overlay's HMAC peripheral: `key` into key slot 0, then the MAC of `data`."""
        if not spec.mac:
            raise ValueError(f"{spec} is not a MAC engine")
        hw = self._peripheral(spec)
        with hw.owned():  # no other process loads its key in between
            hw.mac_set_key(0, key)
            return hw.mac(0, bytes(data), self.c_path)

    def mac_many(self, spec, keys, messages):
        """The overlay's HMAC peripheral: its batch walker (walker_macs) on the DMA path, the
        MACs read back from the DMA buffer; one by one on the CSR path."""
        if not spec.mac:
            raise ValueError(f"{spec} is not a MAC engine")
        hw = self._peripheral(spec)
        if self.path != "dma" or not hw.dev.batch_base:
            return super().mac_many(spec, keys, messages)
        return walker_macs(hw, keys, messages, current_device().read_bytes, self.c_path)

    def skein_context(self, spec, digest_bits, key):
        if spec.family != "skein512":
            raise ValueError(f"{spec} is not a Skein-512 engine")
        return self._peripheral(spec).skein_context(digest_bits, key, self.c_path)


def open_backend(engine=None):
    return PynqBackend(engine)
