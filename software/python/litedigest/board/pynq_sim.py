# SPDX-License-Identifier: BSD-2-Clause
"""The real ``pynq`` package (4.0.0) on the simulated SoC: a ``pynq.Device`` whose registers
and memory are the simulated main SoC's, reached over its UARTBone bridge, so that the PYNQ
driver (litedigest.board.overlay.LiteDigestIP, a ``pynq.DefaultIP``) runs on pynq's own ``MMIO``,
``allocate`` and ``PynqBuffer`` code instead of the stand-in adapters of litedigest.board.sim.

    from litedigest.board.pynq_sim import open_pynq_sim
    ps = open_pynq_sim()              # boots the main SoC; pynq.Device.active_device is its device
    ps.ip                             # LiteDigestIP, bound by its VLNV as pynq's Overlay binds it
    ps.ip.mmio                        # pynq.MMIO(csr base, csr size, device=ps.device)
    ps.driver.new("sha256", b"abc")   # the LiteDigestDevice LiteDigestIP.attach built
    ps.close()

How each piece reaches the simulator:

- registers: pynq's device abstraction has two ways for ``MMIO`` to reach a device, a memory
  map (``MEMORY_MAPPED``: ``device.mmap`` returns a numpy array over mapped memory) and
  register calls (``REGISTER_RW``: ``MMIO.array`` is pynq's tinynumpy array whose element
  reads and writes call ``device.read_registers(address, length)`` and
  ``device.write_registers(address, data)``). The simulator has no memory to map, so this
  device has ``REGISTER_RW`` and answers those calls over the bridge: ``MMIO.read``/``write``
  are pynq's code down to the device. (The driver sees no numpy ``array.ctypes`` then, so the
  C library reaches the registers through ``mmio.read``/``mmio.write``, as in pynq_sim.)
- buffers: ``pynq.allocate(shape, dtype, target=device)`` (or without ``target`` while this
  device is pynq's active device) calls ``device.allocate`` -> ``device.default_memory
  .allocate``, which returns pynq's own ``PynqBuffer`` over host memory whose
  ``device_address`` lies in the upper half of the simulated main RAM (the idle firmware does
  not use it). The buffer is not coherent: ``PynqBuffer.flush``/``invalidate`` call
  ``device.flush``/``device.invalidate(bo, offset, ptr, size)``, which copy that range between
  the host array and the simulated RAM; a driver that forgets a flush hashes stale memory.
  ``freebuffer`` returns the region (pynq's ``pointer``/``return_to`` protocol).
- the IP: no ``pynq.Overlay`` (it needs the ``.hwh`` only Vivado writes): a one-IP description
  of the subsystem's register window, written by hand with the fields ``DefaultIP`` reads, goes
  through pynq's own driver binding by VLNV, which picks LiteDigestIP.

pynq 4.0.0 declares numpy<2, setuptools<=80 (pynqutils) and pycparser<3; the project's
environment keeps newer ones and installs pynq without its dependencies (scripts/setup.sh).
Two things of pynq 4.0.0 then fail, each worked around here without replacing pynq code:

- ``import pynq``: pynqutils imports ``pkg_resources`` at import time, which setuptools 81 and
  later no longer ship. ``import_pynq`` supplies a small stand-in for that setuptools module
  during the import when it is missing (``_pkg_resources_compat``).
- ``PynqBuffer(...)``: under numpy 2 its constructor fails (it assigns ``self.device``, which
  numpy 2 made a read-only ndarray attribute). The buffers are then of a subclass that only
  makes that attribute assignable (``_PynqBufferNumpy2``); with numpy<2 they are PynqBuffer.
"""

import contextlib
import sys
import types
import warnings

import numpy as np


def _pkg_resources_compat():
    """A ``pkg_resources`` with what pynqutils' ExtensionsManager calls (iter_entry_points,
    cleanup_resources, NullProvider, resource_filename), on importlib.metadata. pynq's
    Overlay and Bitstream use ExtensionsManager to look for packaged overlays and drivers;
    nothing here does, but the import needs the module."""
    import importlib.metadata
    import importlib.util
    import os

    mod = types.ModuleType("pkg_resources")
    mod.__doc__ = "litedigest.board.pynq_sim: the part of setuptools' pkg_resources pynqutils uses"

    class EntryPoint:
        def __init__(self, ep):
            self._ep = ep
            self.name = ep.name
            self.module_name = ep.module

        def load(self):
            return self._ep.load()

    def iter_entry_points(group, name=None):
        for ep in importlib.metadata.entry_points(group=group):
            if name is None or ep.name == name:
                yield EntryPoint(ep)

    def cleanup_resources(force=False):
        return []

    class NullProvider:
        def __init__(self, module):
            self.loader = getattr(module, "__loader__", None)
            self.module_path = os.path.dirname(getattr(module, "__file__", "") or "")

    def resource_filename(package, resource_name=""):
        spec = importlib.util.find_spec(package)
        if spec is None:
            raise ModuleNotFoundError(package)
        if spec.submodule_search_locations:
            where = list(spec.submodule_search_locations)[0]
        else:
            where = os.path.dirname(spec.origin)
        return os.path.join(where, resource_name)

    mod.EntryPoint, mod.NullProvider = EntryPoint, NullProvider
    mod.iter_entry_points, mod.cleanup_resources = iter_entry_points, cleanup_resources
    mod.resource_filename = resource_filename
    return mod


def import_pynq():
    """``import pynq``; where setuptools has no ``pkg_resources`` (81 and later), with
    _pkg_resources_compat in ``sys.modules`` for the duration of the import only (pynqutils
    keeps its reference; nothing else in the process sees it). Raises ImportError when pynq
    is not installed. pynq's warning that it does not support the CPU architecture (x86) is
    silenced: nothing here uses what it is about (PS GPIO pins)."""
    if "pynq" in sys.modules and sys.modules["pynq"] is not None:
        return sys.modules["pynq"]
    shim = None
    try:
        import pkg_resources  # noqa: F401
    except ImportError:
        shim = sys.modules["pkg_resources"] = _pkg_resources_compat()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Pynq does not support the CPU Architecture")
            import pynq
            import pynq.overlay  # noqa: F401  (the driver registry)
    finally:
        if shim is not None and sys.modules.get("pkg_resources") is shim:
            del sys.modules["pkg_resources"]
    return pynq


pynq = import_pynq()
from pynq.buffer import PynqBuffer  # noqa: E402

from litedigest.board import device as board_device  # noqa: E402
from litedigest.board.device import DEFAULT_BUFFER_BYTES, SUBSYSTEM_VLNV  # noqa: E402
from litedigest.board.overlay import LiteDigestIP  # noqa: E402  (registers the driver for the VLNV with pynq)
from litedigest.board.sim import PAGE, SimAllocator  # noqa: E402

DEFAULT_IP_NAME = "litedigest_0"  # the subsystem's instance name in the PYNQ-Z2 block design


class _PynqBufferNumpy2(PynqBuffer):
    """PynqBuffer, made constructible under numpy 2. numpy 2 gave ``ndarray`` a read-only
    ``device`` attribute (the array API's), and PynqBuffer's ``__new__`` and
    ``__array_finalize__`` assign ``self.device`` (pynq 4.0.0 requires numpy<2). A plain
    class attribute of the same name ahead of ndarray's in the MRO lets those assignments land
    in the instance's ``__dict__``; every method is PynqBuffer's."""

    device = None


# exactly pynq's class where numpy has no ndarray.device (numpy<2, as on a PYNQ image)
BUFFER_CLASS = _PynqBufferNumpy2 if hasattr(np.ndarray, "device") else PynqBuffer


class SimBO:
    """The buffer object behind one PynqBuffer (pynq's ``bo``): the host memory the numpy
    array lives in and the region of simulated RAM it mirrors."""

    def __init__(self, addr, host):
        self.addr, self.host = addr, host
        self.size = host.nbytes
        self.live = True

    def span(self, offset, ptr, size):
        """Check that (offset, ptr, size) from PynqBuffer.flush/invalidate is a range of this
        buffer: pynq passes the view's offset in the buffer and its virtual address."""
        if not self.live:
            raise ValueError("the buffer was freed")
        if offset < 0 or size < 0 or offset + size > self.size:
            raise ValueError(
                f"{size} bytes at offset {offset} are outside the buffer of {self.size} bytes"
            )
        if ptr != self.host.ctypes.data + offset:
            raise ValueError("the buffer's virtual address does not match its offset")
        return self.host[offset : offset + size]

    def __bool__(self):
        return True  # PynqBuffer.freebuffer returns a pointer only when it is truthy

    def __repr__(self):
        return f"<SimBO 0x{self.addr:x} {self.size} bytes{'' if self.live else ' freed'}>"


class SimMemory:
    """A memory bank of the simulated SoC, shaped like pynq's XrtMemory: ``allocate(shape,
    dtype)`` -> PynqBuffer. Regions are page-aligned first-fit (litedigest.board.sim's
    SimAllocator keeps the book); ``freebuffer`` hands a buffer's pointer back through
    ``return_pointer``."""

    def __init__(self, device, base, size, align=PAGE):
        self.device = device
        self.region = SimAllocator(device.sim, base, size, align=align)
        self.base, self.size = base, size

    @property
    def live(self):
        """{device address: bytes} of the buffers not freed."""
        return dict(self.region.live)

    def allocate(self, shape, dtype="u4", cacheable=True, **kwargs):
        dtype = np.dtype(dtype)
        n = int(np.prod(shape)) * dtype.itemsize
        addr = self.region.reserve(n, shape)
        bo = SimBO(addr, np.zeros(n, np.uint8))
        buf = BUFFER_CLASS(
            shape,
            dtype,
            buffer=bo.host,
            device=self.device,
            device_address=addr,
            bo=bo,
            coherent=False,
        )
        buf.memory = self  # as XrtMemory.allocate
        buf.pointer, buf.return_to = bo, self  # freebuffer() -> self.return_pointer(bo)
        # PynqBuffer's other way of freeing munmaps an XRT mapping; the host side here is
        # numpy's memory, nothing to unmap (and freebuffer runs again from __del__)
        buf.freed = True
        return buf

    def return_pointer(self, bo):
        if bo.live:
            bo.live = False
            self.region._free(bo.addr)

    def __repr__(self):
        return f"<SimMemory 0x{self.base:x} {self.size} bytes, {len(self.region.live)} buffers>"


class SimPynqDevice(pynq.Device):
    """A ``pynq.Device`` on a running simulated SoC (a SimProcess or a BridgedSim: its
    ``bus``): registers by ``read_registers``/``write_registers`` (capability REGISTER_RW),
    memory from ``default_memory`` (the RAM region [ram_base, ram_base + ram_size)).

    It has no ``_probe_``, so pynq's device enumeration (``pynq.Device.devices``) does not
    list it: pass it as ``device=``/``target=``, or make it pynq's active device."""

    def __init__(self, sim, ram_base, ram_size, tag="litedigest-sim"):
        super().__init__(tag)
        self.sim = sim
        self.name = "LiteDigest simulated SoC"
        self.capabilities = {"REGISTER_RW": True}
        self.default_memory = SimMemory(self, ram_base, ram_size)
        self.register_reads = self.register_writes = 0
        self.flushes = self.invalidates = 0

    # --- registers: pynq.MMIO's REGISTER_RW path -----------------------------------------
    @staticmethod
    def _check(address, length):
        if address % 4 or length % 4 or length <= 0:
            raise MemoryError(
                f"unaligned register access: {length} bytes at 0x{address:x} "
                "(the bridge moves 32-bit words)"
            )

    def read_registers(self, address, length):
        """`length` bytes of registers at bus address `address`, as bytes."""
        self._check(address, length)
        words = self.sim.bus.read(address, length // 4)
        self.register_reads += 1
        return b"".join(w.to_bytes(4, "little") for w in words)

    def write_registers(self, address, data):
        """Write the bytes `data` (whole 32-bit words) to the registers at `address`."""
        data = bytes(data)
        self._check(address, len(data))
        self.sim.bus.write(
            address, [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
        )
        self.register_writes += 1

    # --- buffers: what PynqBuffer.flush/invalidate call ----------------------------------
    def flush(self, bo, offset, ptr, size):
        """The host array's bytes [offset, offset + size) -> the simulated RAM."""
        host = bo.span(offset, ptr, size)
        if size:
            self.sim.bus.write_bytes(bo.addr + offset, host.tobytes())
        self.flushes += 1

    def invalidate(self, bo, offset, ptr, size):
        """The simulated RAM -> the host array's bytes [offset, offset + size)."""
        host = bo.span(offset, ptr, size)
        if size:
            host[:] = np.frombuffer(self.sim.bus.read_bytes(bo.addr + offset, size), np.uint8)
        self.invalidates += 1

    def __repr__(self):
        return f"<SimPynqDevice {self.tag} {self.default_memory!r}>"


_UNSET = object()


def set_active_device(device):
    """Make `device` pynq's active device (what ``pynq.allocate``, ``pynq.MMIO`` and
    ``DefaultIP`` use without an explicit device); returns a token for
    ``restore_active_device``."""
    prev = pynq.Device.__dict__.get("_active_device", _UNSET)
    pynq.Device.active_device = device
    return prev


def restore_active_device(token):
    if token is _UNSET:
        if "_active_device" in pynq.Device.__dict__:
            del pynq.Device._active_device
    else:
        pynq.Device.active_device = token


@contextlib.contextmanager
def active_device(device):
    """``with active_device(dev):`` pynq's active device is `dev` inside the block."""
    token = set_active_device(device)
    try:
        yield device
    finally:
        restore_active_device(token)


def subsystem_ip_dict(device, base, size, name=DEFAULT_IP_NAME, vlnv=SUBSYSTEM_VLNV):
    """The ip_dict entry pynq would read from the .hwh for the subsystem's AXI-Lite window,
    reduced to the fields DefaultIP and the driver binding read (no register list: DefaultIP's
    ``register_map`` stays unavailable, as for any IP without one in the .hwh)."""
    return {
        name: {
            "fullpath": name,
            "type": vlnv,
            "phys_addr": base,
            "addr_range": size,
            "interrupts": {},
            "gpio": {},
            "device": device,
        }
    }


def bind_drivers(ip_dict, device, ignore_version=False):
    """{name: driver instance} for `ip_dict`, bound the way pynq's Overlay binds them (its
    ``_assign_drivers``: the driver registered for the IP's VLNV, else DefaultIP)."""
    desc = {"ip": ip_dict, "hierarchies": {}}
    pynq.overlay._assign_drivers(desc, ignore_version, device)
    return {name: d["driver"](d) for name, d in ip_dict.items()}


class PynqSim:
    """pynq's device layer on a simulated SoC, and the PYNQ driver on it:

    - ``device``: the SimPynqDevice (pynq's active device while this is open);
    - ``ip``: the subsystem's driver as pynq binds it (LiteDigestIP, a ``pynq.DefaultIP``)
      with ``ip.mmio`` a ``pynq.MMIO`` over the CSR window;
    - ``driver``: the LiteDigestDevice ``ip.attach(regmap)`` built on ``ip.mmio`` and
      ``pynq.allocate`` (its ``buffer`` a PynqBuffer in simulated RAM).

    ``close()`` frees the driver's buffer, restores pynq's previous active device and stops
    the simulator if it was started here."""

    def __init__(
        self,
        sim,
        regmap,
        own_sim: bool = False,
        ram=None,
        buffer_bytes: int | None = None,
        timeout: float = 10.0,
        name: str = DEFAULT_IP_NAME,
        lock_path: str | None = None,
    ):
        self.sim, self.own_sim = sim, own_sim
        self.driver = None
        if ram is None:
            # the upper half of main RAM, which the idle firmware leaves alone (as pynq_sim)
            c = sim.constants
            ram = (c["main_ram_base"] + c["main_ram_size"] // 2, c["main_ram_size"] // 2)
        self.device = SimPynqDevice(sim, *ram)
        csr = sim.csrs.memories["csr"]
        self.ip_dict = subsystem_ip_dict(self.device, csr["base"], csr["size"], name=name)
        self._token = set_active_device(self.device)
        try:
            self.ip = bind_drivers(self.ip_dict, self.device)[name]
            if not isinstance(self.ip, LiteDigestIP):
                raise TypeError(
                    f"pynq bound {type(self.ip).__name__} to {SUBSYSTEM_VLNV}, not LiteDigestIP"
                )
            self.driver = self.ip.attach(regmap, buffer_bytes or DEFAULT_BUFFER_BYTES, timeout)
            self.driver.label = "simulated SoC (pynq)"
            # the driver's per-peripheral locks are keyed on the board's MMIO base; on a
            # simulator the processes share its bridge and RAM: one lock for all (pynq_sim)
            self.driver.lock_path = lock_path
        except BaseException:
            self._release(close_sim=False)  # the caller closes a sim it handed over
            raise

    @property
    def mmio(self):
        return self.ip.mmio

    @property
    def memory(self):
        return self.device.default_memory

    def new(self, name, data=b"", **kwargs):
        """A hashlib-style object on the driver (backend "pynq", this device made current)."""
        return self.driver.new(name, data, **kwargs)

    def _release(self, close_sim=True):
        if self.driver is not None:
            if board_device.current_device() is self.driver:
                board_device.use_device(None)
            self.driver.close()
            self.driver = None
        if self._token is not None:
            restore_active_device(self._token)
            self._token = None
        sim, self.sim = self.sim, None
        if close_sim and self.own_sim and sim is not None:
            sim.close()

    def close(self):
        self._release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<PynqSim {self.device!r} {self.driver!r}>"


def open_pynq_sim(engines=None, sim=None, build=None, **kwargs):
    """A PynqSim on the simulated SoC with `engines` (default: the main SoC), started here
    unless `sim` and `build` are given (then the caller owns the sim). kwargs: ram=(base,
    size) of the buffers' region, buffer_bytes, timeout, name (the IP's)."""
    from litedigest.board.sim import register_map, sim_lock_path, start_sim

    own = sim is None
    if own:
        sim, build = start_sim(engines)
    try:
        return PynqSim(
            sim, register_map(build), own_sim=own, lock_path=sim_lock_path(sim.bus.port), **kwargs
        )
    except BaseException:
        if own:
            sim.close()
        raise
