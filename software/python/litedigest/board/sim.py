# SPDX-License-Identifier: BSD-2-Clause
"""The simulated SoC behind PYNQ's API: ``SimMMIO`` (``pynq.MMIO``'s read/write) and
``SimAllocator`` (``pynq.allocate``) over the UARTBone bridge, so that the pynq backend's own
code (litedigest.board.device, litedigest.backends.pynq, litedigest.board.overlay) runs against the
simulated main SoC everywhere but on the board.

The buffers model a non-coherent DMA buffer: the numpy array is the CPU's view and the sim's
main RAM is what the engine's DMA reads; only ``flush()`` copies the array into main RAM and
only ``invalidate()`` copies main RAM back. A driver that forgets a flush hashes stale memory.

    from litedigest.board.sim import open_sim_device
    dev = open_sim_device()          # builds (cached) and boots the main SoC with the idle firmware
    dev.new("sha256", b"abc").hexdigest()
    dev.close_sim()
"""

import os

import numpy as np

from litedigest.board.device import LiteDigestDevice, RegisterMap

PAGE = 4096


class SimMMIO:
    """``pynq.MMIO(base_addr, length)`` over the bridge: 32-bit ``read(offset)`` and
    ``write(offset, value)`` at byte offsets from `base`; offsets outside the window or not
    word aligned raise ValueError (PYNQ raises on these too)."""

    def __init__(self, sim, base_addr, length):
        self.sim, self.base_addr, self.length = sim, base_addr, length

    def _check(self, offset, length=4):
        if not isinstance(offset, int) or offset < 0 or offset + length > self.length:
            raise ValueError(f"MMIO offset {offset!r} outside the window of {self.length} bytes")
        if offset % 4:
            raise ValueError(f"MMIO offset 0x{offset:x} is not 32-bit aligned")

    def read(self, offset=0, length=4):
        if length != 4:
            raise ValueError("SimMMIO reads 32-bit words (length=4)")
        self._check(offset)
        return self.sim.bus.read(self.base_addr + offset)

    def write(self, offset, data):
        self._check(offset)
        if isinstance(data, (bytes, bytearray)):
            if len(data) % 4:
                raise ValueError("MMIO byte writes must be whole 32-bit words")
            self._check(offset, len(data))
            words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
        else:
            words = [int(data) & 0xFFFFFFFF]
        self.sim.bus.write(self.base_addr + offset, words)


class SimBuffer(np.ndarray):
    """A numpy array with pynq.buffer.PynqBuffer's DMA attributes, backed by a region of the
    simulated SoC's main RAM (written only by flush)."""

    def __array_finalize__(self, obj):
        # views and slices share the parent's region; their physical address follows the offset
        self._sim = getattr(obj, "_sim", None)
        self._allocator = getattr(obj, "_allocator", None)
        base = getattr(obj, "physical_address", None)
        if base is not None and isinstance(obj, np.ndarray) and obj.size and self.size:
            off = self.__array_interface__["data"][0] - obj.__array_interface__["data"][0]
            base += off
        self.physical_address = base
        self.coherent = False

    @property
    def device_address(self):
        return self.physical_address

    def _check_open(self):
        if self._sim is None or self.physical_address is None:
            raise ValueError("the buffer was freed")

    def flush(self):
        """CPU view -> main RAM (what pynq's flush does with the cache)."""
        self._check_open()
        self._sim.bus.write_bytes(self.physical_address, np.ascontiguousarray(self).tobytes())
        self._allocator.flushes += 1

    def invalidate(self):
        """main RAM -> CPU view."""
        self._check_open()
        raw = self._sim.bus.read_bytes(self.physical_address, self.nbytes)
        self.view(np.ndarray).reshape(-1).view(np.uint8)[:] = np.frombuffer(raw, dtype=np.uint8)

    def sync_to_device(self):
        self.flush()

    def sync_from_device(self):
        self.invalidate()

    def freebuffer(self):
        if self._allocator is not None and self.physical_address is not None:
            self._allocator._free(self.physical_address)
        self._sim = None
        self.physical_address = None

    def close(self):
        self.freebuffer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.freebuffer()


class SimAllocator:
    """``pynq.allocate(shape, dtype)`` over main RAM [base, base + size) of a running sim:
    page-aligned first-fit allocation (``align`` changes it; ``offset`` adds a fixed offset to
    every allocation, for tests of misaligned buffers)."""

    def __init__(self, sim, base, size, align=PAGE, offset=0):
        self.sim, self.base, self.size = sim, base, size
        self.align, self.offset = align, offset
        self.live = {}  # physical address -> bytes
        self.flushes = 0

    def __call__(self, shape, dtype=np.uint32, cacheable=True, target=None, **kwargs):
        dtype = np.dtype(dtype)
        addr = self.reserve(int(np.prod(shape)) * dtype.itemsize, shape)
        buf = np.zeros(shape, dtype=dtype).view(SimBuffer)
        buf._sim, buf._allocator = self.sim, self
        buf.physical_address = addr
        buf.coherent = False
        return buf

    def reserve(self, n, shape=None):
        """Reserve `n` bytes of the region (first fit, aligned, plus the fixed offset): their
        physical address (``_free`` releases it). litedigest.board.pynq_sim's pynq memory
        bank keeps its buffers here too."""
        if n <= 0:
            raise ValueError(
                f"cannot allocate an empty buffer (shape {shape if shape is not None else n})"
            )
        addr = self.base
        for a, k in sorted(self.live.items()):
            if addr + self.offset + n <= a:
                break
            addr = -(-(a + k) // self.align) * self.align
        addr += self.offset
        if addr + n > self.base + self.size:
            raise MemoryError(
                f"simulated DMA memory exhausted: {n} bytes asked, "
                f"{self.size} bytes at 0x{self.base:x} with {len(self.live)} buffers live"
            )
        self.live[addr] = n
        return addr

    def _free(self, addr):
        self.live.pop(addr, None)


class SimDevice(LiteDigestDevice):
    """A LiteDigestDevice on a simulated SoC it owns (``close_sim`` stops it)."""

    sim = None

    def close_sim(self):
        self.close()
        sim, self.sim = self.sim, None
        if sim is not None:
            sim.close()


def start_sim(engines=None):
    """Build (cached) the simulated SoC with `engines` (default: the sim target's MAIN_SOC),
    boot the idle firmware; return (sim, build)."""
    from litedigest import extras

    extras.require("soc", "the simulated board device")
    from litedigest.soc.sim.build import build_soc
    from litedigest.soc.sim.firmware import app_dir, build_firmware
    from litedigest.soc.sim.process import SimProcess
    from litedigest.soc.targets.sim import MAIN_SOC

    b = build_soc(list(engines or MAIN_SOC))
    fw = build_firmware(b, app_dir("idle"))
    sim = SimProcess(b, firmware=fw)
    sim.start()
    try:
        sim.read_console_until("LDIDLE", timeout=60)
    except BaseException:
        sim.close()
        raise
    return sim, b


def sim_adapters(sim, align=PAGE, offset=0):
    """(SimMMIO over the CSR region, SimAllocator over the upper half of main RAM, which the
    idle firmware does not use) for a running sim."""
    c = sim.constants
    csr = sim.csrs.memories["csr"]
    mmio = SimMMIO(sim, csr["base"], csr["size"])
    ram_base, ram_size = c["main_ram_base"], c["main_ram_size"]
    alloc = SimAllocator(sim, ram_base + ram_size // 2, ram_size // 2, align=align, offset=offset)
    return mmio, alloc


def register_map(build):
    with open(os.path.join(build.software_dir, "include", "generated", "csr.h")) as f:
        csr_h = f.read()
    # the register offsets are csr address - csr base, as on the board's subsystem
    return RegisterMap(build.csr_json, csr_h)


class BridgedSim:
    """A simulated SoC someone else started, reached through its bridge only: what
    ``sim_adapters`` needs of a SimProcess (``bus``, ``constants``, ``csrs``) from the bridge's
    TCP port and the build's csr.json. Needs neither Migen nor LiteX (the packaging test runs
    the base install's pynq backend against it)."""

    def __init__(self, port, csr_json, host="127.0.0.1", timeout=30.0):
        from litedigest.remote.bridge import UARTBoneClient
        from litedigest.remote.csrmap import CSRMap

        self.csrs = CSRMap.from_json(csr_json)
        self.constants = self.csrs.constants
        self.bus = UARTBoneClient(host, port, timeout=timeout)

    def close(self):
        self.bus.close()


def sim_lock_path(port):
    """The lock of every process on the simulated SoC whose bridge is on `port`: they share
    its bridge and the buffers' RAM (each process's allocator starts at the same address)."""
    from litedigest.board.lock import DeviceLock

    return DeviceLock.path_for("sim", port)


def attach_sim_device(port, csr_json, buffer_bytes=None, **kwargs):
    """A LiteDigestDevice on a simulated SoC that is already running (its bridge on TCP
    `port`, its register map in `csr_json`); ``close_sim`` closes the connection only."""
    from litedigest.board.device import DEFAULT_BUFFER_BYTES

    sim = BridgedSim(port, csr_json)
    try:
        mmio, alloc = sim_adapters(sim)
        dev = SimDevice(
            mmio,
            alloc,
            RegisterMap(csr_json),
            label="simulated SoC (attached)",
            buffer_bytes=buffer_bytes or DEFAULT_BUFFER_BYTES,
            lock_path=sim_lock_path(port),
            **kwargs,
        )
    except BaseException:
        sim.close()
        raise
    dev.sim, dev.allocator = sim, alloc
    return dev


def open_sim_device(engines=None, buffer_bytes=None, sim=None, build=None, **kwargs):
    """A LiteDigestDevice on the simulated SoC (started here unless `sim`/`build` are given:
    then the caller owns the sim)."""
    from litedigest.board.device import DEFAULT_BUFFER_BYTES

    own = sim is None
    if own:
        sim, build = start_sim(engines)
    try:
        mmio, alloc = sim_adapters(sim)
        dev = SimDevice(
            mmio,
            alloc,
            register_map(build),
            buffer_bytes=buffer_bytes or DEFAULT_BUFFER_BYTES,
            label="simulated SoC",
            lock_path=sim_lock_path(sim.bus.port),
            **kwargs,
        )
    except BaseException:
        if own:
            sim.close()
        raise
    if own:
        dev.sim = sim
    dev.allocator = alloc
    return dev
