# SPDX-License-Identifier: BSD-2-Clause
"""The LiteDigest subsystem seen from a Zynq PS: register access through an MMIO object and
message buffers from an allocator, both injected.

On a PYNQ board they are ``pynq.MMIO`` (the ``DefaultIP``'s ``mmio``) and ``pynq.allocate``
(see litedigest.board.overlay, the only module that imports ``pynq``); in tests and in the notebooks
without a board they are the simulated SoC's adapters (litedigest.board.sim). Nothing here
imports ``pynq``.

What the objects must offer (the subset of PYNQ's API this module uses):

- ``mmio.read(offset) -> int`` and ``mmio.write(offset, value)``: 32-bit registers at byte
  offsets from the subsystem's base address (``mmio.length`` bytes, when present, bound them);
- ``allocate(shape=(n,), dtype=numpy.uint8) -> buffer``: a numpy array with
  ``.physical_address`` (the address the subsystem's DMA reads), ``.flush()`` (CPU cache to
  memory: called after every write the engine will read), ``.invalidate()`` and
  ``.freebuffer()``.

The register map comes from the build's ``csr.json`` (register addresses, the ``csr`` memory
region's base, one ``<instance>_engine`` constant per hash peripheral; the bit fields are the
same in every build: litedigest.hw_regs, generated from the peripheral): register offsets are
``csr address - csr base``. Every hash
peripheral the build has is found from these files, so engines added later appear here
without code changes.
"""

import json
import os
import threading

from litedigest import hw_regs
from litedigest import spec as specmod

# The device the `pynq` backend drives (litedigest.backends.pynq): an overlay makes its device
# current when it loads, the notebooks' target and the tests make theirs.
_current = None
_current_lock = threading.RLock()


def use_device(device):
    """Make `device` (a LiteDigestDevice, or None to forget it) the one the pynq backend drives.
    Returns the previous one."""
    global _current
    with _current_lock:
        prev, _current = _current, device
    return prev


def current_device(open_default=None):
    """The device the pynq backend drives. When there is none and `open_default` is given, it
    is called (under the lock: one device opened, whoever asks first) and its device made
    current."""
    global _current
    with _current_lock:
        if _current is None and open_default is not None:
            _current = open_default()
        return _current


# litedigest.new, registered by litedigest.api when the package is imported: the hash objects
# are the API's, and the board imports nothing above it (pyproject.toml's layers contract)
_constructor = []


def register_constructor(new):
    """Make `new` (litedigest.new) what LiteDigestDevice.new builds its hash objects with."""
    _constructor[:] = [new]


# The subsystem's VLNV in the PYNQ-Z2 block design (soc/targets/pynq_z2.py, SUBSYSTEM_VLNV;
# defined here too so that the board side does not need LiteX installed to import it).
SUBSYSTEM_VLNV = "xilinx.com:module_ref:litedigest_subsystem:1.0"

DEFAULT_BUFFER_BYTES = 16 * 1024  # the hash objects hand the backend at most 16 KiB at a time


def ip_vlnv(description):
    """The VLNV of an ip_dict entry (PYNQ keeps it under "type"; "vlnv" accepted too)."""
    return description.get("type") or description.get("vlnv") or ""


def find_subsystem(ip_dict, vlnv=SUBSYSTEM_VLNV, name=None):
    """(name, description) of the LiteDigest subsystem in a PYNQ ``ip_dict`` (the overlay's
    .hwh): the one IP whose VLNV is `vlnv` (the version part may differ only if `vlnv` has no
    version), or the IP `name` after checking its VLNV. Raises LookupError otherwise."""
    if not isinstance(ip_dict, dict):
        raise TypeError(f"ip_dict must be a dict, not {type(ip_dict).__name__}")

    def matches(desc):
        v = ip_vlnv(desc)
        return v == vlnv or (vlnv.count(":") == 2 and v.rsplit(":", 1)[0] == vlnv)

    found = {k: d for k, d in ip_dict.items() if isinstance(d, dict)}
    if name is not None:
        if name not in found:
            raise LookupError(
                f"the overlay has no IP named {name!r} (IPs: {', '.join(sorted(found)) or 'none'})"
            )
        if not matches(found[name]):
            raise LookupError(
                f"IP {name!r} is {ip_vlnv(found[name]) or 'of unknown VLNV'}, "
                f"not the LiteDigest subsystem {vlnv}"
            )
        return name, found[name]
    hits = [k for k, d in found.items() if matches(d)]
    if not hits:
        seen = ", ".join(f"{k} ({ip_vlnv(d) or '?'})" for k, d in sorted(found.items())) or "none"
        raise LookupError(f"no LiteDigest subsystem ({vlnv}) in the overlay; its IPs: {seen}")
    if len(hits) > 1:
        raise LookupError(
            f"several LiteDigest subsystems in the overlay ({', '.join(sorted(hits))}): "
            "pass name= to choose one"
        )
    return hits[0], found[hits[0]]


def register_files(bitfile, csr_json=None, csr_h=None):
    """(csr.json, csr.h) paths of an overlay: given explicitly, or next to the .bit as
    ``<stem>.csr.json``/``<stem>.csr.h``, ``csr.json``/``csr.h``, or csr.h where the LiteX
    builder writes it (``software/include/generated/csr.h``, the layout of
    `litedigest build pynq_z2`). csr.json is required (FileNotFoundError lists where it
    looked); csr.h is optional (None when absent): the field positions are the same in every
    build (litedigest.hw_regs), so the driver does not need it."""
    here = os.path.dirname(os.path.abspath(bitfile)) if bitfile else os.getcwd()
    stem = os.path.splitext(os.path.basename(bitfile))[0] if bitfile else None
    out = []
    for given, ext in ((csr_json, "json"), (csr_h, "h")):
        if given is not None:
            if not os.path.isfile(given):
                raise FileNotFoundError(f"csr.{ext} not found: {given}")
            out.append(given)
            continue
        tried = ([os.path.join(here, f"{stem}.csr.{ext}")] if stem else []) + [
            os.path.join(here, f"csr.{ext}")
        ]
        if ext == "h":
            tried.append(os.path.join(here, "software", "include", "generated", "csr.h"))
        hit = next((p for p in tried if os.path.isfile(p)), None)
        if hit is None and ext == "json":
            raise FileNotFoundError(
                f"no csr.{ext} for overlay {bitfile}: looked for {', '.join(tried)}"
            )
        out.append(hit)
    return tuple(out)


class RegisterMap:
    """csr.json (and, kept for reference, csr.h) of a build: registers, constants, the csr
    base, the hash peripherals."""

    def __init__(self, csr_json, csr_h_text=None, csr_base=None):
        if isinstance(csr_json, (str, os.PathLike)):
            with open(csr_json) as f:
                csr_json = json.load(f)
        try:
            self.registers = csr_json["csr_registers"]
        except (KeyError, TypeError):
            raise ValueError("not a LiteX csr.json (no csr_registers)") from None
        self.constants = csr_json.get("constants", {})
        if csr_base is None:
            csr_base = csr_json.get("memories", {}).get("csr", {}).get("base", 0)
        self.csr_base = csr_base
        self.csr_h = csr_h_text
        # instance -> engine spec, from the "<instance>_engine" constants of the peripherals
        self.engines = {}
        for key, value in self.constants.items():
            if key.endswith("_engine") and isinstance(value, str):
                inst = key[: -len("_engine")]
                if f"{inst}_ctrl" in self.registers:
                    self.engines[inst] = value
        if not self.engines:
            raise ValueError(
                "the register map has no hash peripheral (no <instance>_engine constant "
                "with an <instance>_ctrl register)"
            )

    @classmethod
    def from_files(cls, csr_json_path, csr_h_path=None, csr_base=None):
        text = None
        if csr_h_path is not None:
            with open(csr_h_path) as f:
                text = f.read()
        return cls(csr_json_path, text, csr_base)

    def offset(self, addr):
        return addr - self.csr_base

    def spec(self, instance):
        return specmod.parse(self.engines[instance])


class LiteDigestDevice:
    """The hash peripherals of one subsystem behind `mmio`, with a DMA buffer from `allocate`.

    ``device.engines`` maps instance names to engine specs; ``device.peripheral(instance)`` is
    the C library's driver on an instance (litedigest._clib.HwDevice); ``device.instance_for
    (spec)`` picks the peripheral for an algorithm or engine spec; ``device.new("sha256",
    data)`` is a hashlib-style object on it (backend "pynq").

    Registers: when `mmio` exposes its mapped window as a numpy array (``pynq.MMIO.array``),
    the C driver reads and writes the registers itself, with no Python call per register;
    otherwise (the simulated adapter) through ``mmio.read``/``mmio.write``. Message data goes
    through the DMA buffer: the driver copies each job's blocks into it (``dma_write``) and
    flushes what it wrote before the job starts (``dma_sync``)."""

    def __init__(
        self,
        mmio,
        allocate,
        regmap,
        buffer_bytes=DEFAULT_BUFFER_BYTES,
        timeout=10.0,
        label="board",
        lock_path=None,
    ):
        import numpy as np

        self._np = np
        self.mmio = mmio
        # several processes (notebook kernels) on one overlay: each driver call holds a lock
        # per peripheral (litedigest.board.lock), or `lock_path`, one for every peripheral, where
        # the processes share more than the peripheral (a simulated SoC's bridge and RAM)
        self.lock_path = lock_path
        self.regmap = regmap
        self.timeout = timeout
        self.label = label
        self._peripherals = {}
        self.buffer = None
        length = getattr(mmio, "length", None)
        if length is not None:
            top = max(
                regmap.offset(r["addr"]) + 4 * r["size"]
                for k, r in regmap.registers.items()
                if any(k.startswith(i + "_") for i in regmap.engines)
            )
            if top > length or min(regmap.offset(r["addr"]) for r in regmap.registers.values()) < 0:
                raise ValueError(
                    f"the register map does not fit the MMIO window of 0x{length:x} "
                    f"bytes (wrong csr base or csr.json?)"
                )
        if not isinstance(buffer_bytes, int) or buffer_bytes <= 0:
            raise ValueError(f"buffer_bytes must be a positive integer, got {buffer_bytes!r}")
        need = max(self.regmap.spec(i).block_size for i in regmap.engines)
        if buffer_bytes < need:
            raise ValueError(
                f"a DMA buffer of {buffer_bytes} bytes is smaller than one block "
                f"({need} bytes) of the engines"
            )
        buf = allocate(shape=(buffer_bytes,), dtype=np.uint8)
        try:
            if not hasattr(buf, "physical_address") or not hasattr(buf, "flush"):
                raise TypeError(
                    "allocate() must return a buffer with .physical_address and .flush() "
                    "(pynq.allocate)"
                )
            if buf.nbytes < buffer_bytes:
                raise ValueError(
                    f"allocate() returned {buf.nbytes} bytes, asked for {buffer_bytes}"
                )
            align = self.dma_align()
            if buf.physical_address % align:
                raise ValueError(
                    f"DMA buffer at physical address 0x{buf.physical_address:x} is not "
                    f"aligned to the engines' {align}-byte DMA alignment"
                )
        except BaseException:
            if hasattr(buf, "freebuffer"):
                buf.freebuffer()
            raise
        self.buffer = buf
        self.buffer_bytes = buffer_bytes
        self._bytes = buf.reshape(-1).view(np.uint8)  # a view: keeps the buffer's DMA attributes
        self.flushes = 0
        self._dirty = None  # (lo, hi) byte range written since the last flush

    # --- registers --------------------------------------------------------------------
    def read32(self, addr):
        return int(self.mmio.read(self.regmap.offset(addr)))

    def write32(self, addr, value):
        self.mmio.write(self.regmap.offset(addr), int(value) & 0xFFFFFFFF)

    # --- the DMA buffer ---------------------------------------------------------------
    @property
    def physical_address(self):
        return self.buffer.physical_address

    def dma_write(self, addr, data):
        """Copy `data` into the DMA buffer at physical address `addr` (the driver's staging
        copy; dma_sync flushes it before the job starts)."""
        if self.buffer is None:
            raise ValueError("the device is closed")
        off = addr - self.buffer.physical_address
        if off < 0 or off + len(data) > self.buffer_bytes:
            raise ValueError(
                f"{len(data)} bytes at 0x{addr:x} are outside the DMA buffer "
                f"(0x{self.buffer.physical_address:x}, {self.buffer_bytes} bytes)"
            )
        self._bytes[off : off + len(data)] = self._np.frombuffer(data, dtype=self._np.uint8)
        lo, hi = self._dirty or (off, off)
        self._dirty = (min(lo, off), max(hi, off + len(data)))

    def dma_sync(self):
        """Flush what dma_write wrote since the last flush (the engine reads memory, not the
        CPU's cache; a view of a PYNQ buffer flushes its own address range)."""
        if self._dirty is not None:
            lo, hi = self._dirty
            self._dirty = None
            self._bytes[lo:hi].flush()
            self.flushes += 1

    def read_bytes(self, addr, n):
        """`n` bytes at physical address `addr` of the DMA buffer, as the peripherals wrote
        them (the range invalidated first: the CPU's cache may hold an older copy)."""
        if self.buffer is None:
            raise ValueError("the device is closed")
        off = addr - self.buffer.physical_address
        if off < 0 or off + n > self.buffer_bytes:
            raise ValueError(
                f"{n} bytes at 0x{addr:x} are outside the DMA buffer "
                f"(0x{self.buffer.physical_address:x}, {self.buffer_bytes} bytes)"
            )
        view = self._bytes[off : off + n]
        view.invalidate()
        return view.tobytes()

    def write_bytes(self, addr, data):
        """Copy `data` into the DMA buffer at physical address `addr` and flush it."""
        self.dma_write(addr, bytes(data))
        self.dma_sync()

    def dma_align(self):
        """The strictest DMA alignment of the subsystem's peripherals (their info registers'
        align_log2 field)."""
        off, size = hw_regs.FIELDS["info"]["align_log2"]
        return max(
            1
            << (
                (self.read32(self.regmap.registers[f"{inst}_info"]["addr"]) >> off)
                & ((1 << size) - 1)
            )
            for inst in self.regmap.engines
        )

    def _mmio_window(self):
        """The CPU address of the mapped register window when `mmio` exposes it (pynq.MMIO's
        numpy `array`), else None (register accesses then go through mmio.read/write)."""
        arr = getattr(self.mmio, "array", None)
        if arr is None or not hasattr(arr, "ctypes"):
            return None
        top = max(
            self.regmap.offset(r["addr"]) + 4 * r["size"] for r in self.regmap.registers.values()
        )
        if arr.nbytes < top:
            return None
        return int(arr.ctypes.data)

    # --- engines ----------------------------------------------------------------------
    @property
    def engines(self):
        """{instance: engine spec} of the subsystem's hash peripherals."""
        return dict(self.regmap.engines)

    def instance_for(self, spec, strict=None):
        """The instance running `spec` (an algorithm such as "sha384" or an engine spec such as
        "sha256:base"): the peripheral with that exact engine; else, unless `strict`, the one
        of that family. strict=None: strict when `spec` names an architecture, i.e. a string
        with ':' or an EngineSpec other than its family's default engine."""
        s = specmod.parse(spec) if isinstance(spec, str) else spec
        if strict is None:
            strict = (
                (":" in spec)
                if isinstance(spec, str)
                else s.engine_name != specmod.parse(s.algorithm if s.mac else s.family).engine_name
            )
        fam = [i for i in self.regmap.engines if self.regmap.spec(i).family == s.family]
        exact = [i for i in fam if self.regmap.spec(i).engine_name == s.engine_name]
        if exact:
            return exact[0]
        if fam and not strict:
            return fam[0]
        have = ", ".join(f"{i} ({e})" for i, e in self.regmap.engines.items())
        raise ValueError(f"the {self.label} has no engine for {spec} (it has {have})")

    def engine_spec(self, algorithm):
        """The engine spec string for `algorithm` on this device (e.g. "sha384:k5")."""
        import dataclasses

        alg = algorithm.lower()
        eng = self.regmap.spec(self.instance_for(alg))
        return str(dataclasses.replace(eng, algorithm=alg))

    def peripheral(self, instance):
        if self.buffer is None:
            raise ValueError("the device is closed")
        p = self._peripherals.get(instance)
        if p is None:
            if instance not in self.regmap.engines:
                raise ValueError(
                    f"no hash peripheral {instance!r} (have {', '.join(self.regmap.engines)})"
                )
            from litedigest import _clib as native

            s = self.regmap.spec(instance)
            window = self._mmio_window()
            regs = native.instance_registers(
                self.regmap.registers, instance, offset=-self.regmap.csr_base if window else 0
            )
            phys = self.buffer.physical_address
            kw = (
                dict(mmio_base=window) if window else dict(read32=self.read32, write32=self.write32)
            )
            p = native.HwDevice(
                regs,
                family=s.family,
                ram_base=phys,
                ram_size=self.buffer_bytes,
                dma_write=self.dma_write,
                stage=(phys, self.buffer_bytes),
                dma_sync=self.dma_sync,
                shared=True,
                **kw,
            )
            p.lock = self._lock(instance)
            p.set_timeout(self.timeout)  # a job not done within `timeout` s is reported
            self._peripherals[instance] = p
        return p

    def _lock(self, instance):
        from litedigest import _clib as native
        from litedigest.board.lock import DeviceLock, settle

        if self.lock_path is not None:
            path, settled = self.lock_path, list(self.regmap.engines)
        else:
            base = getattr(self.mmio, "base_addr", 0) or 0
            path, settled = DeviceLock.path_for("pynq", f"{base:x}", instance), [instance]
        regs = [native.instance_registers(self.regmap.registers, i) for i in settled]
        return DeviceLock.for_path(path, recover=lambda: settle(self.read32, self.write32, regs))

    def new(self, name, data=b"", **kwargs):
        """litedigest.new(name, data, backend="pynq", ...) on this device (made current)."""
        use_device(self)
        if (
            kwargs.get("engine") is None
            and isinstance(name, str)
            and name.lower() in specmod.ALGORITHMS
        ):
            kwargs["engine"] = self.engine_spec(name)
        return _constructor[0](name, data, backend="pynq", **kwargs)

    def close(self):
        buf, self.buffer = self.buffer, None
        self._peripherals.clear()
        if buf is not None and hasattr(buf, "freebuffer"):
            buf.freebuffer()

    def __repr__(self):
        engines = ", ".join(f"{i}={e}" for i, e in self.regmap.engines.items())
        return f"<LiteDigestDevice ({self.label}) {engines}>"
