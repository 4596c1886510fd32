"""Build, load and run the simulated LiteDigest SoC, and talk to it over the UARTBone bridge.

    from litedigest.soc.sim_runner import build_sim, build_firmware, SimProcess

    b = build_sim("build/sim")                                   # cached Verilator model
    fw = build_firmware(b, "software/firmware/apps/idle")        # -> .../idle.bin
    with SimProcess(b, firmware=fw) as sim:                      # free TCP port, own run dir
        sim.read_console_until("LDIDLE", timeout=30)
        sim.regs.ctrl_scratch.write(0xdeadbeef)
        sim.bus.write_bytes(sim.constants["main_ram_base"] + 0x20000, data)

How a firmware image gets into main RAM without a Verilator rebuild: the SoC is built with
main RAM initialised (full depth), so the Verilog holds ``$readmemh("sim_main_ram.init", ...)``
and the model reads that file, relative to its working directory, when it starts. Each
``SimProcess`` runs ``Vsim`` in its own run directory that holds ``sim_config.js`` (with the
run's TCP port), a ``modules`` link to the built sim modules, links to the other ``.init``
files, and a freshly written main RAM ``.init`` made from the firmware image (one 32-bit
little-endian word per line, padded to the RAM depth). Several sims can therefore run at once
from one build with different firmware and ports.
"""

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, ".."))
TARGET_SCRIPT = os.path.join(HERE, "targets", "sim.py")
SIM_MODULES_DIR = os.path.join(HERE, "sim_modules")
DEFAULT_MAIN_RAM_SIZE = 256 * 1024
BRIDGE_MODULE = "serial2tcp_nodelay"
STAMP_NAME = "litedigest_sim_stamp.json"
INFO_NAME = "sim_build_info.json"

__all__ = [
    "SimError", "SimTimeout", "BridgeError", "BridgeTimeout",
    "SimBuild", "build_sim", "build_firmware", "write_main_ram_init", "load_firmware",
    "SimProcess", "UARTBoneClient", "CSRMap", "free_tcp_port",
]


# Errors -------------------------------------------------------------------------------------------

class SimError(RuntimeError):
    """The simulation failed (build error, process died, bad firmware, ...)."""


class SimTimeout(SimError, TimeoutError):
    """A wait on the simulation ran out of time."""


class BridgeError(ConnectionError):
    """The UARTBone bridge failed (connection refused/closed, protocol error)."""


class BridgeTimeout(BridgeError, TimeoutError):
    """The UARTBone bridge did not answer in time (sim dead, hung or absent)."""


# Build --------------------------------------------------------------------------------------------

@dataclasses.dataclass
class SimBuild:
    build_dir: str
    gateware_dir: str
    software_dir: str
    csr_json: str
    csr_csv: str
    main_ram_base: int
    main_ram_size: int
    main_ram_init: str        # file name of the main RAM $readmemh file, in gateware_dir
    hash_engine: object = None
    main_ram_row_bytes: int = 4   # bytes per line of the main RAM .init file
    hash_peripherals: dict = None  # instance name -> engine spec
    built: bool = False       # True when this call rebuilt, False on a cache hit
    build_seconds: float = 0.0

    @property
    def vsim(self):
        return os.path.join(self.gateware_dir, "obj_dir", "Vsim")

    @property
    def include_dir(self):
        return os.path.join(self.software_dir, "include")

    def csr_map(self):
        return CSRMap.from_json(self.csr_json)


def _files_under(root, exts):
    out = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if d not in ("__pycache__", "build"))
        for fn in sorted(fns):
            if fn.endswith(exts):
                out.append(os.path.join(dp, fn))
    return out


def _config_stamp(hash_engine, main_ram_size):
    """Hash of everything the gateware/software build depends on (not the firmware)."""
    h = hashlib.sha256()
    cfg = {"hash_engine": hash_engine, "main_ram_size": main_ram_size, "python": sys.version_info[:2]}
    try:
        from importlib import metadata
        for dist in ("litex", "migen", "pythondata-cpu-vexriscv", "pythondata-software-picolibc"):
            try:
                cfg[dist] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                cfg[dist] = None
    except ImportError:  # pragma: no cover
        pass
    h.update(json.dumps(cfg, sort_keys=True).encode())
    files = [TARGET_SCRIPT, os.path.join(HERE, "wide_ram.py")] + _files_under(SIM_MODULES_DIR, (".c", ".h", "Makefile"))
    if hash_engine is not None:
        # The peripheral and the engines only matter when they are built in.
        files += [f for f in _files_under(HERE, (".py",)) if os.path.basename(f) != "sim_runner.py"
                  and os.path.dirname(f) != os.path.join(HERE, "targets")]
        files += _files_under(os.path.join(REPO_ROOT, "ip"), (".py",))
    for f in files:
        h.update(os.path.relpath(f, REPO_ROOT).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest(), cfg


@contextlib.contextmanager
def _locked(build_dir):
    os.makedirs(build_dir, exist_ok=True)
    with open(os.path.join(build_dir, ".lock"), "w") as lf:
        fcntl.flock(lf, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lf, fcntl.LOCK_UN)


def _load_build(build_dir, hash_engine, built=False, seconds=0.0):
    with open(os.path.join(build_dir, INFO_NAME)) as f:
        info = json.load(f)
    return SimBuild(
        build_dir     = build_dir,
        gateware_dir  = info["gateware_dir"],
        software_dir  = info["software_dir"],
        csr_json      = os.path.join(build_dir, "csr.json"),
        csr_csv       = os.path.join(build_dir, "csr.csv"),
        main_ram_base = info["main_ram_base"],
        main_ram_size = info["main_ram_size"],
        main_ram_init = info["main_ram_init"],
        hash_engine   = hash_engine,
        main_ram_row_bytes = info.get("main_ram_row_bytes", 4),
        hash_peripherals = info.get("hash_peripherals", {}),
        built         = built,
        build_seconds = seconds,
    )


def build_sim(build_dir, hash_engine=None, firmware=None, main_ram_size=DEFAULT_MAIN_RAM_SIZE,
              rebuild=False, timeout=3600, verbose=False):
    """Build (or reuse) the simulated SoC in ``build_dir``; return a :class:`SimBuild`.

    Builds gateware + Verilator model (``gateware/obj_dir/Vsim``), csr.json/csr.csv, the LiteX
    software headers (``software/include/generated/{csr.h,mem.h,variables.mak}``) and libraries
    (picolibc, compiler-rt, libbase, ...) that firmware links against. The build is skipped when
    ``build_dir`` holds a model built from the same configuration and sources (a stamp file);
    ``rebuild=True`` forces it. ``firmware`` (a .bin path or bytes), when given, becomes the
    build's default main RAM image (written into the .init file; no rebuild needed).
    Concurrent callers on one build_dir are serialised with a file lock.
    """
    build_dir = os.path.abspath(build_dir)
    if isinstance(hash_engine, (list, tuple)):
        hash_engine = ",".join(str(e) for e in hash_engine)
    stamp, cfg = _config_stamp(hash_engine, main_ram_size)
    stamp_file = os.path.join(build_dir, STAMP_NAME)
    with _locked(build_dir):
        cached = False
        if not rebuild and os.path.exists(stamp_file) and os.path.exists(os.path.join(build_dir, INFO_NAME)):
            with open(stamp_file) as f:
                cached = json.load(f).get("stamp") == stamp
            if cached and not os.access(os.path.join(build_dir, "gateware", "obj_dir", "Vsim"), os.X_OK):
                cached = False
        seconds = 0.0
        if not cached:
            if os.path.exists(stamp_file):
                os.unlink(stamp_file)
            cmd = [sys.executable, TARGET_SCRIPT, "--build-dir", build_dir,
                   "--main-ram-size", str(main_ram_size)]
            if hash_engine is not None:
                cmd += ["--hash-engine", str(hash_engine)]
            log_path = os.path.join(build_dir, "build.log")
            t0 = time.monotonic()
            with open(log_path, "w") as log:
                try:
                    r = subprocess.run(cmd, stdout=None if verbose else log, stderr=subprocess.STDOUT
                                       if not verbose else None, cwd=REPO_ROOT,
                                       timeout=timeout)
                except subprocess.TimeoutExpired:
                    raise SimTimeout(f"SoC build timed out after {timeout} s (log: {log_path})")
            seconds = time.monotonic() - t0
            if r.returncode != 0:
                tail = ""
                if not verbose:
                    with open(log_path, errors="replace") as f:
                        tail = "".join(f.readlines()[-40:])
                raise SimError(f"SoC build failed (exit {r.returncode}); log: {log_path}\n{tail}")
            with open(stamp_file, "w") as f:
                json.dump({"stamp": stamp, "config": cfg, "build_seconds": seconds}, f, indent=2)
        b = _load_build(build_dir, hash_engine, built=not cached, seconds=seconds)
        if firmware is not None:
            load_firmware(b, firmware)
        return b


def build_firmware(sim_build, app_dir, timeout=900, jobs=None, extra_make_args=()):
    """``make -C app_dir BUILD_DIR=<build dir>`` and return the path of the app's ``.bin``.

    Apps follow the LiteX demo-app pattern (``include $(BUILD_DIR)/software/include/generated/
    variables.mak``). ``OUT=<build dir>/firmware/<app name>`` is also passed: apps that honour it
    keep their outputs out of the source tree. The newest ``.bin`` in OUT, else in app_dir, is
    returned."""
    app_dir = os.path.abspath(app_dir)
    name = os.path.basename(app_dir.rstrip("/"))
    out = os.path.join(sim_build.build_dir, "firmware", name)
    cmd = ["make", "-C", app_dir, f"BUILD_DIR={sim_build.build_dir}", f"OUT={out}",
           f"-j{jobs or os.cpu_count() or 1}", *extra_make_args]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SimTimeout(f"firmware build of {app_dir} timed out after {timeout} s")
    if r.returncode != 0:
        raise SimError(f"firmware build failed: {' '.join(cmd)}\n"
                       + r.stdout.decode(errors="replace")[-4000:])
    for d in (out, app_dir):
        pref = os.path.join(d, name + ".bin")
        if os.path.exists(pref):
            return pref
        bins = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".bin")] if os.path.isdir(d) else []
        if bins:
            return max(bins, key=os.path.getmtime)
    raise SimError(f"firmware build of {app_dir} produced no .bin (looked in {out} and {app_dir})")


def _image_bytes(firmware):
    if isinstance(firmware, (bytes, bytearray, memoryview)):
        return bytes(firmware)
    with open(os.fspath(firmware), "rb") as f:
        return f.read()


def write_main_ram_init(path, image, size, row_bytes=4):
    """Write a ``$readmemh`` file for a RAM of ``size`` bytes from a binary image: one row of
    ``row_bytes`` per line (a little-endian number: memory byte 0 is the row's lowest byte),
    zero-padded to the full depth."""
    data = _image_bytes(image)
    if len(data) > size:
        raise SimError(f"firmware image of {len(data)} bytes does not fit in main RAM ({size} bytes)")
    data = data + bytes(size - len(data))
    fmt = "%%0%dX\n" % (2 * row_bytes)
    rows = (int.from_bytes(data[i:i + row_bytes], "little") for i in range(0, size, row_bytes))
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w") as f:
        f.write("".join(fmt % r for r in rows))
    os.replace(tmp, path)


def load_firmware(sim_build, firmware):
    """Make ``firmware`` (path or bytes) the build's default main RAM image (no rebuild)."""
    write_main_ram_init(os.path.join(sim_build.gateware_dir, sim_build.main_ram_init), firmware,
                        sim_build.main_ram_size, sim_build.main_ram_row_bytes)


# CSR map ------------------------------------------------------------------------------------------

class CSRRegister:
    """One LiteX CSR (``size`` 32-bit words, the lowest address holding the most significant)."""

    def __init__(self, bus, name, addr, size, mode):
        self._bus, self.name, self.addr, self.size, self.mode = bus, name, addr, size, mode

    def read(self):
        if self.size == 1:
            return self._bus.read(self.addr)
        value = 0
        for w in self._bus.read(self.addr, self.size):
            value = (value << 32) | w
        return value

    def write(self, value):
        words = [(value >> (32 * (self.size - 1 - i))) & 0xFFFFFFFF for i in range(self.size)]
        self._bus.write(self.addr, words)

    def __repr__(self):
        return f"<CSR {self.name} @0x{self.addr:08x} size={self.size} {self.mode}>"


class CSRMap:
    """The register map from csr.json: ``registers`` (name -> dict), ``constants``, ``memories``.

    ``constants`` also carries ``<region>_base``/``<region>_size`` for every memory region
    (e.g. ``main_ram_base``) unless csr.json defines them itself."""

    def __init__(self, doc):
        self.doc = doc
        self.registers = doc.get("csr_registers", {})
        self.bases = doc.get("csr_bases", {})
        self.memories = doc.get("memories", {})
        self.constants = dict(doc.get("constants", {}))
        for name, m in self.memories.items():
            self.constants.setdefault(f"{name}_base", m["base"])
            self.constants.setdefault(f"{name}_size", m["size"])

    @classmethod
    def from_json(cls, path):
        with open(path) as f:
            return cls(json.load(f))

    def addr(self, name):
        try:
            return self.registers[name]["addr"]
        except KeyError:
            raise KeyError(f"no CSR named {name!r} in csr.json") from None

    def bind(self, bus):
        return _BoundRegs(self, bus)


class _BoundRegs:
    def __init__(self, csrmap, bus):
        self._map, self._bus = csrmap, bus

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name):
        try:
            r = self._map.registers[name]
        except KeyError:
            raise AttributeError(f"no CSR named {name!r} in csr.json") from None
        return CSRRegister(self._bus, name, r["addr"], r["size"], r["type"])

    def __dir__(self):
        return list(self._map.registers)

    def __contains__(self, name):
        return name in self._map.registers


# UARTBone client ----------------------------------------------------------------------------------

CMD_WRITE_BURST_INCR = 0x01
CMD_READ_BURST_INCR = 0x02
CMD_WRITE_BURST_FIXED = 0x03
CMD_READ_BURST_FIXED = 0x04
MAX_BURST = 255          # words per UARTBone command (8-bit length)
READ_WINDOW = 8          # read bursts in flight (keeps replies well under the socket buffers)


class UARTBoneClient:
    """Minimal LiteX UARTBone (``Stream2Wishbone``) client over TCP with TCP_NODELAY.

    Protocol: ``cmd, length, addr[31:0]/4`` big-endian, then ``length`` big-endian 32-bit words
    for writes; reads answer ``length`` big-endian words. Addresses here are byte addresses.

    - ``read(addr)`` -> int; ``read(addr, n)`` -> list of n words
    - ``write(addr, value_or_list)``
    - ``write_bytes(addr, data)`` / ``read_bytes(addr, n)``: bulk, pipelined burst commands;
      memory is little-endian (byte 0 of a word is its LSB), addr and length multiples of 4
      are fastest (other cases are completed with read-modify-write of the edge words).
    Every wait has ``timeout`` seconds; failures raise BridgeTimeout / BridgeError.
    """

    def __init__(self, host="127.0.0.1", port=None, timeout=10.0, connect_timeout=10.0,
                 alive=None):
        self.host, self.port, self.timeout = host, port, timeout
        self._alive = alive          # optional callable: False when the sim process is gone
        self.sock = None
        self.stats = {"reads": 0, "writes": 0, "bytes_out": 0, "bytes_in": 0}
        if port is not None:
            self.connect(connect_timeout)

    # Connection
    def connect(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        last = None
        while True:
            if self._alive is not None and not self._alive():
                raise BridgeError(f"simulation exited before the bridge on port {self.port} answered")
            try:
                s = socket.create_connection((self.host, self.port), timeout=min(1.0, timeout))
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(self.timeout)
                self.sock = s
                return self
            except OSError as e:
                last = e
            if time.monotonic() > deadline:
                raise BridgeTimeout(f"cannot connect to the UARTBone bridge at {self.host}:{self.port} "
                                    f"within {timeout} s: {last}")
            time.sleep(0.05)

    def close(self):
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()
            self.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Raw I/O
    def _send(self, data):
        if self.sock is None:
            raise BridgeError("bridge is not connected")
        try:
            self.sock.sendall(data)
        except socket.timeout:
            raise BridgeTimeout(f"bridge send timed out after {self.timeout} s (sim not consuming)") from None
        except OSError as e:
            raise BridgeError(f"bridge send failed: {e}") from None
        self.stats["bytes_out"] += len(data)

    def _recv_exact(self, n):
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        deadline = time.monotonic() + self.timeout
        while got < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BridgeTimeout(f"bridge read timed out after {self.timeout} s "
                                    f"({got}/{n} bytes received): is the simulation running?")
            self.sock.settimeout(min(remaining, 0.5))
            try:
                k = self.sock.recv_into(view[got:], n - got)
            except socket.timeout:
                if self._alive is not None and not self._alive():
                    raise BridgeError("simulation exited while waiting for a bridge reply") from None
                continue
            except OSError as e:
                raise BridgeError(f"bridge receive failed: {e}") from None
            if k == 0:
                raise BridgeError("bridge connection closed by the simulation")
            got += k
        self.sock.settimeout(self.timeout)
        self.stats["bytes_in"] += n
        return bytes(buf)

    @staticmethod
    def _header(cmd, addr, n):
        if addr % 4:
            raise ValueError(f"UARTBone addresses are word aligned: 0x{addr:x}")
        if not 1 <= n <= MAX_BURST:
            raise ValueError(f"burst of {n} words")
        return bytes([cmd, n]) + ((addr >> 2) & 0xFFFFFFFF).to_bytes(4, "big")

    # Word access
    def read(self, addr, n=None):
        """One word (``n`` None) as an int, or ``n`` consecutive words as a list."""
        count = 1 if n is None else n
        words = self._read_words(addr, count)
        self.stats["reads"] += 1
        return words[0] if n is None else words

    def write(self, addr, data):
        """Write one word (int) or consecutive words (list) at ``addr``."""
        if isinstance(data, int):
            data = [data]
        out = bytearray()
        for i in range(0, len(data), MAX_BURST):
            chunk = data[i:i + MAX_BURST]
            out += self._header(CMD_WRITE_BURST_INCR, addr + 4 * i, len(chunk))
            for w in chunk:
                out += (w & 0xFFFFFFFF).to_bytes(4, "big")
        self._send(bytes(out))
        self.stats["writes"] += 1

    def _read_words(self, addr, count):
        raw = self._read_raw(addr, count)
        return [int.from_bytes(raw[i:i + 4], "big") for i in range(0, len(raw), 4)]

    def _read_raw(self, addr, count):
        """``count`` words as the big-endian byte stream the bridge sends."""
        bursts = [(addr + 4 * i, min(MAX_BURST, count - i)) for i in range(0, count, MAX_BURST)]
        out = []
        pending = []
        i = 0
        while i < len(bursts) or pending:
            while i < len(bursts) and len(pending) < READ_WINDOW:
                a, k = bursts[i]
                self._send(self._header(CMD_READ_BURST_INCR, a, k))
                pending.append(k)
                i += 1
            k = pending.pop(0)
            out.append(self._recv_exact(4 * k))
        return b"".join(out)

    # Byte access (little-endian memory)
    def write_bytes(self, addr, data):
        data = bytes(data)
        if not data:
            return
        head = addr % 4
        end = addr + len(data)
        if head or end % 4:
            start, end4 = addr - head, (end + 3) & ~3
            buf = bytearray(end4 - start)
            if head:
                buf[0:4] = self.read_bytes(start, 4)
            if end % 4:
                buf[-4:] = self.read_bytes(end4 - 4, 4)
            buf[head:head + len(data)] = data
            addr, data = start, bytes(buf)
        n = len(data) // 4
        # Little-endian memory, big-endian wire words: byte-swap each 32-bit word.
        swapped = bytearray(len(data))
        swapped[0::4], swapped[1::4], swapped[2::4], swapped[3::4] = data[3::4], data[2::4], data[1::4], data[0::4]
        out = bytearray()
        for i in range(0, n, MAX_BURST):
            k = min(MAX_BURST, n - i)
            out += self._header(CMD_WRITE_BURST_INCR, addr + 4 * i, k)
            out += swapped[4 * i:4 * (i + k)]
        self._send(bytes(out))
        self.stats["writes"] += 1

    def read_bytes(self, addr, n):
        if n <= 0:
            return b""
        start = addr & ~3
        end4 = (addr + n + 3) & ~3
        raw = self._read_raw(start, (end4 - start) // 4)
        data = bytearray(len(raw))
        data[0::4], data[1::4], data[2::4], data[3::4] = raw[3::4], raw[2::4], raw[1::4], raw[0::4]
        self.stats["reads"] += 1
        off = addr - start
        return bytes(data[off:off + n])


# Ports --------------------------------------------------------------------------------------------

def free_tcp_port():
    """A currently free TCP port on 127.0.0.1 (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Simulation process -------------------------------------------------------------------------------

class SimProcess:
    """A running simulated SoC (context manager).

    ``SimProcess(sim_build, firmware=None, port=None, ...)``: starts ``Vsim`` in a private run
    directory with ``firmware`` (a .bin path or bytes; None keeps the build's default image) in
    main RAM and the bridge on ``port`` (None: a free port), then connects ``self.bus``
    (:class:`UARTBoneClient`). ``self.regs.<csr>`` / ``self.csr(name)`` give registers by their
    csr.json names; ``self.constants`` the csr.json constants (plus memory bases/sizes).
    The process is always killed on ``close()``/exit, also after an exception.
    """

    def __init__(self, sim_build, firmware=None, port=None, start_timeout=30.0, bus_timeout=10.0,
                 keep_run_dir=False, run_dir=None, connect=True, extra_env=None):
        self.build = sim_build
        self.firmware = firmware
        self.requested_port = port
        self.port = None
        self.start_timeout = start_timeout
        self.bus_timeout = bus_timeout
        self.keep_run_dir = keep_run_dir
        self._run_dir_arg = run_dir
        self.run_dir = None
        self.connect_bus = connect
        self.extra_env = extra_env
        self.proc = None
        self.bus = None
        self.csrs = sim_build.csr_map()
        self.constants = self.csrs.constants
        self.regs = None
        self._out = bytearray()
        self._pos = 0
        self._cond = threading.Condition()
        self._reader = None
        self._eof = False
        self.started_at = None

    # Lifecycle
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):  # last resort: never leave a Vsim behind
        with contextlib.suppress(Exception):
            self.close()

    def _prepare_run_dir(self, port):
        gw = self.build.gateware_dir
        if self.run_dir is None:
            if self._run_dir_arg:
                os.makedirs(self._run_dir_arg, exist_ok=True)
                self.run_dir = self._run_dir_arg
            else:
                self.run_dir = tempfile.mkdtemp(prefix="ldsim-")
        rd = self.run_dir
        link = os.path.join(rd, "modules")
        if not os.path.lexists(link):
            os.symlink(os.path.join(gw, "modules"), link)
        for fn in os.listdir(gw):
            if fn.endswith(".init") and fn != self.build.main_ram_init:
                dst = os.path.join(rd, fn)
                if not os.path.lexists(dst):
                    os.symlink(os.path.join(gw, fn), dst)
        ram_init = os.path.join(rd, self.build.main_ram_init)
        if self.firmware is not None:
            write_main_ram_init(ram_init, self.firmware, self.build.main_ram_size,
                                self.build.main_ram_row_bytes)
        elif not os.path.exists(ram_init):
            shutil.copyfile(os.path.join(gw, self.build.main_ram_init), ram_init)
        with open(os.path.join(gw, "sim_config.js")) as f:
            cfg = json.load(f)
        found = False
        for m in cfg:
            if isinstance(m, dict) and m.get("module") == BRIDGE_MODULE:
                m.setdefault("args", {})["port"] = port
                found = True
        if not found:
            raise SimError(f"{BRIDGE_MODULE} missing from {gw}/sim_config.js")
        with open(os.path.join(rd, "sim_config.js"), "w") as f:
            json.dump(cfg, f, indent=4)

    def start(self):
        if not os.access(self.build.vsim, os.X_OK):
            raise SimError(f"no simulator binary at {self.build.vsim}: run build_sim() first")
        attempts = 1 if self.requested_port else 5
        last_err = None
        try:
            for _ in range(attempts):
                port = self.requested_port or free_tcp_port()
                self._prepare_run_dir(port)
                self._launch()
                try:
                    self.wait_for(re.compile(r"\[serial2tcp_nodelay\] listening on \S+:(\d+)"),
                                  self.start_timeout, consume=False)
                    self.port = port
                    break
                except SimError as e:
                    last_err = e
                    text = self.console
                    self._kill()
                    if "can't bind port" not in text:
                        raise
            else:
                raise SimError(f"could not start the simulation on a free port: {last_err}")
            self.regs = None
            if self.connect_bus:
                self.bus = UARTBoneClient("127.0.0.1", self.port, timeout=self.bus_timeout,
                                          connect_timeout=self.start_timeout, alive=self.alive)
                self.regs = self.csrs.bind(self.bus)
        except BaseException:
            self.close()
            raise
        return self

    def _launch(self):
        with self._cond:
            self._out = bytearray()
            self._pos = 0
            self._eof = False
        env = dict(os.environ)
        if self.extra_env:
            env.update(self.extra_env)
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen([self.build.vsim], cwd=self.run_dir, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                     start_new_session=True)
        self._reader = threading.Thread(target=self._read_loop, args=(self.proc,), daemon=True)
        self._reader.start()

    def _read_loop(self, proc):
        fd = proc.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            with self._cond:
                if not chunk:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self._out += chunk
                self._cond.notify_all()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def _kill(self):
        p = self.proc
        if p is None:
            return
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                p.kill()
        with contextlib.suppress(Exception):
            p.wait(timeout=10)
        for s in (p.stdin, p.stdout):
            with contextlib.suppress(Exception):
                s.close()
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.proc = None

    def close(self):
        if self.bus is not None:
            self.bus.close()
            self.bus = None
        self._kill()
        if self.run_dir and not self.keep_run_dir and not self._run_dir_arg:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None

    # Console
    @property
    def console(self):
        """Everything the simulation printed so far (module messages and the console UART)."""
        with self._cond:
            return self._out.decode(errors="replace")

    def wait_for(self, pattern, timeout, consume=True):
        """Wait until ``pattern`` (str: literal; or compiled regex) appears in the output after the
        read position; return the text up to the end of the match (advancing the read position
        when ``consume``). Raises SimTimeout on timeout, SimError if the process exits first."""
        rx = pattern if hasattr(pattern, "search") else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                text = self._out[self._pos:].decode(errors="replace")
                m = rx.search(text)
                if m:
                    if consume:
                        self._pos += len(text[:m.end()].encode(errors="replace"))
                    return text[:m.end()]
                if self._eof or self.proc is None:
                    rc = self.proc.poll() if self.proc is not None else None
                    raise SimError(f"simulation exited (rc={rc}) before {rx.pattern!r} appeared; "
                                   f"output tail:\n{self._out[-2000:].decode(errors='replace')}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise SimTimeout(f"timed out after {timeout} s waiting for {rx.pattern!r}; "
                                     f"output tail:\n{self._out[-2000:].decode(errors='replace')}")
                self._cond.wait(min(remaining, 0.5))

    def read_console_until(self, pattern, timeout=30.0):
        return self.wait_for(pattern, timeout, consume=True)

    def write_console(self, data):
        """Send bytes to the console UART (the sim's stdin)."""
        if not self.alive():
            raise SimError("simulation is not running")
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    # Registers
    def csr(self, name):
        """The CSR ``name`` (csr.json register name, e.g. ``ctrl_scratch``)."""
        if self.regs is None:
            raise SimError("bridge not connected")
        return self.regs[name]

    def csr_addr(self, name):
        return self.csrs.addr(name)

    def identifier(self, max_len=256):
        """The SoC identifier string (LiteX ``identifier_mem``: one character per 32-bit word)."""
        base = self.csrs.bases.get("identifier_mem")
        if base is None:
            raise SimError("the SoC has no identifier")
        chars = []
        for i in range(0, max_len, 64):
            for w in self.bus.read(base + 4 * i, 64):
                if w & 0xFF == 0:
                    return bytes(chars).decode(errors="replace")
                chars.append(w & 0xFF)
        return bytes(chars).decode(errors="replace")


def bench(sim_build, firmware, nbytes=65536, nreads=500):
    """Boot time to the firmware's first output line, CSR read rate, bulk write/read rates."""
    import random
    res = {}
    t0 = time.monotonic()
    with SimProcess(sim_build, firmware=firmware) as sim:
        sim.read_console_until("LDIDLE", timeout=60)
        res["boot_to_LDIDLE_s"] = time.monotonic() - t0
        scratch = sim.regs.ctrl_scratch
        t = time.monotonic()
        for _ in range(nreads):
            scratch.read()
        res["csr_reads_per_s"] = nreads / (time.monotonic() - t)
        data = random.Random(1).randbytes(nbytes)
        addr = sim.constants["main_ram_base"] + sim.constants["main_ram_size"] // 2
        t = time.monotonic()
        sim.bus.write_bytes(addr, data)
        sim.bus.read(addr)                  # the bridge answers after the writes before it
        res["write_s"] = time.monotonic() - t
        t = time.monotonic()
        back = sim.bus.read_bytes(addr, nbytes)
        res["read_s"] = time.monotonic() - t
        res["bytes"] = nbytes
        res["readback_ok"] = back == data
    return res


def main(argv=None):
    """Small CLI: build, then optionally boot a firmware, report or benchmark."""
    import argparse
    p = argparse.ArgumentParser(description="Build/run the LiteDigest simulated SoC")
    p.add_argument("--build-dir", default=os.path.join(REPO_ROOT, "build", "sim"))
    p.add_argument("--hash-engine", default=None)
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--app", default=os.path.join(REPO_ROOT, "software", "firmware", "apps", "idle"),
                   help="firmware app dir to build and boot")
    p.add_argument("--expect", default="LDIDLE", help="console text to wait for after boot")
    p.add_argument("--bench", action="store_true", help="measure boot, CSR and bulk rates (idle app)")
    args = p.parse_args(argv)
    t0 = time.monotonic()
    b = build_sim(args.build_dir, hash_engine=args.hash_engine, rebuild=args.rebuild)
    print(f"build: {b.build_dir} ({'built' if b.built else 'cached'}, {time.monotonic() - t0:.1f} s)")
    t0 = time.monotonic()
    fw = build_firmware(b, args.app)
    print(f"firmware: {fw} ({time.monotonic() - t0:.1f} s)")
    if args.bench:
        for k, v in bench(b, fw).items():
            print(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}")
        return 0
    with SimProcess(b, firmware=fw) as sim:
        print(sim.read_console_until(args.expect, timeout=60).splitlines()[-1])
        print(f"identifier: {sim.identifier()!r}; bridge port {sim.port}")
        print(f"ctrl_scratch = 0x{sim.regs.ctrl_scratch.read():08x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
