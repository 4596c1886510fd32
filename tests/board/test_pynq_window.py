# SPDX-License-Identifier: BSD-2-Clause
"""On the board the C driver reads and writes the registers itself, through the mapped
window pynq.MMIO exposes (`mmio.array`): no Python call per register access. Checked here on
a stand-in window in host memory whose registers are preset so that every job has already
finished: the driver's register writes land at the csr.json offsets, the message reaches the
DMA buffer (staged, flushed), the digest is read from the window, and mmio.read/mmio.write
are never called."""

import hashlib

import numpy as np
from litedigest import _clib as native
from litedigest import hw_regs
from litedigest.board import device as pd


class Buffer(np.ndarray):
    """pynq.allocate's buffer: physical_address (the driver uses the whole buffer's) and
    flush() (on any view: the flushed sizes are recorded)."""

    flushes = []

    def __array_finalize__(self, obj):
        self.physical_address = getattr(obj, "physical_address", 0)

    def flush(self):
        Buffer.flushes.append(self.nbytes)


def allocate(shape, dtype):
    buf = np.zeros(shape, dtype).view(Buffer)
    buf.physical_address = 0x1000_0000
    return buf


class Window:
    """pynq.MMIO: read/write (counted) and the mapped memory as a numpy array."""

    def __init__(self, nbytes):
        self.array = np.zeros(nbytes // 4, np.uint32)
        self.length = nbytes
        self.calls = 0

    def read(self, offset):
        self.calls += 1
        return int(self.array[offset // 4])

    def write(self, offset, value):
        self.calls += 1
        self.array[offset // 4] = value


def _csr_json(instance="sha256", state_words=8):
    regs, addr = {}, 0
    for name, (_, width) in hw_regs.REGISTERS.items():
        words = state_words if width == "state" else 1 if width == "slots" else -(-width // 32)
        regs[f"{instance}_{name}"] = {"addr": addr, "size": words, "type": "rw"}
        addr += 4 * words
    return {
        "csr_registers": regs,
        "constants": {f"{instance}_engine": "sha256:opt:p1"},
        "memories": {"csr": {"base": 0}},
    }, addr


def _window(csr, size, **info):
    """The mapped window of the sha256 peripheral (`csr`, `size` bytes) with its info register
    holding the fields `info`; and its registers' word offsets in the window."""
    mmio = Window(size)
    off = {k[len("sha256_") :]: v["addr"] // 4 for k, v in csr["csr_registers"].items()}
    fields = hw_regs.FIELDS["info"]
    mmio.array[off["info"]] = sum(value << fields[name][0] for name, value in info.items())
    return mmio, off


def test_registers_go_through_the_mapped_window_not_python():
    csr, size = _csr_json()
    regmap = pd.RegisterMap(csr)
    mmio, off = _window(csr, size, latency=33, stages=1, arch=1, align_log2=6, slots=1)
    mmio.array[off["slots_done"]] = 1  # every job is already done
    msg = b"abc"
    ref = hashlib.sha256(msg).digest()
    mmio.array[off["digest"] : off["digest"] + 8] = np.frombuffer(ref, ">u4")
    dev = pd.LiteDigestDevice(mmio, allocate, regmap, buffer_bytes=4096)
    calls_at_open = mmio.calls  # dma_align() reads info once through mmio.read
    Buffer.flushes.clear()
    hw = dev.peripheral("sha256")
    assert hw.dev.ctrl == mmio.array.ctypes.data + 4 * off["ctrl"]  # a CPU address in the window
    h = dev.new("sha256", msg)
    assert h.digest() == ref
    assert mmio.calls == calls_at_open, "register accesses went through Python"
    # what the driver wrote into the window: the staged job
    assert mmio.array[off["dma_base"]] == 0x1000_0000
    assert mmio.array[off["dma_length"]] == 64
    assert bytes(dev.buffer[:64]) == msg + b"\x80" + bytes(52) + (24).to_bytes(8, "big")
    assert Buffer.flushes and max(Buffer.flushes) <= 64  # only what was written
    dev.close()


def test_a_job_that_never_finishes_is_reported_within_the_timeout():
    """The device's timeout (seconds) bounds every wait of the C driver: a peripheral whose
    job never finishes gives HardwareTimeout after about that long, not a hang."""
    import time

    import pytest

    csr, size = _csr_json()
    mmio, off = _window(csr, size, latency=33, stages=1, align_log2=6, slots=1)
    mmio.array[off["slots_busy"]] = 1  # slot 0's job runs, and runs
    dev = pd.LiteDigestDevice(mmio, allocate, pd.RegisterMap(csr), buffer_bytes=4096, timeout=0.3)
    t0 = time.monotonic()
    with pytest.raises(native.HardwareTimeout):
        dev.new("sha256", b"abc").digest()
    assert time.monotonic() - t0 < 5
    # a job neither busy nor done (the peripheral was reset under it): lost, reported at once
    mmio.array[off["slots_busy"]] = 0
    t0 = time.monotonic()
    with pytest.raises(native.HardwareError):
        dev.new("sha256", b"abc").digest()
    assert time.monotonic() - t0 < 0.25
    dev.close()
