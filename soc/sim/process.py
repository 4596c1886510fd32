# SPDX-License-Identifier: BSD-2-Clause
"""A running simulated SoC: ``Vsim`` in its own run directory, its console, its bridge.

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
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from litedigest.remote.bridge import UARTBoneClient, free_tcp_port, wait_slice
from litedigest.soc.sim.errors import SimError, SimTimeout
from litedigest.soc.sim.firmware import write_main_ram_init

BRIDGE_MODULE = "serial2tcp_nodelay"


def _libc_prctl():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl() if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """(In the simulator's process, before it runs.) Linux sends it SIGKILL when the thread
    that started it ends: a process killed outright (SIGKILL, a Jupyter kernel shut down
    at once) runs no clean-up, and its simulator would otherwise go on at full CPU. Only for a
    simulator started by the main thread, whose end is the process's."""
    _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)


class SimProcess:
    """A running simulated SoC (context manager).

    ``SimProcess(sim_build, firmware=None, port=None, ...)``: starts ``Vsim`` in a private run
    directory with ``firmware`` (a .bin path or bytes; None keeps the build's default image) in
    main RAM and the bridge on ``port`` (None: a free port), then connects ``self.bus``
    (:class:`UARTBoneClient`). ``self.regs.<csr>`` / ``self.csr(name)`` give registers by their
    csr.json names; ``self.constants`` the csr.json constants (plus memory bases/sizes).
    The process is always killed on ``close()``/exit, also after an exception.
    """

    def __init__(
        self,
        sim_build,
        firmware: str | bytes | None = None,
        port: int | None = None,
        start_timeout: float = 30.0,
        bus_timeout: float = 10.0,
        keep_run_dir: bool = False,
        run_dir: str | None = None,
        connect: bool = True,
        extra_env: dict | None = None,
    ):
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
            write_main_ram_init(
                ram_init, self.firmware, self.build.main_ram_size, self.build.main_ram_row_bytes
            )
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
                    self.wait_for(
                        re.compile(r"\[serial2tcp_nodelay\] listening on \S+:(\d+)"),
                        self.start_timeout,
                        consume=False,
                    )
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
                self.bus = UARTBoneClient(
                    "127.0.0.1",
                    self.port,
                    timeout=self.bus_timeout,
                    connect_timeout=self.start_timeout,
                    alive=self.alive,
                )
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
        on_main = threading.current_thread() is threading.main_thread()
        self.proc = subprocess.Popen(
            [self.build.vsim],
            cwd=self.run_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent if on_main and _PRCTL is not None else None,
        )
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

    def wait_for(self, pattern, timeout, consume=True, tick=None):
        """Wait until ``pattern`` (str: literal; or compiled regex) appears in the output after the
        read position; return the text up to the end of the match (advancing the read position
        when ``consume``). Raises SimTimeout on timeout, SimError if the process exits first.
        ``tick``, a function of the output so far, is called as the wait goes on (for progress)."""
        rx = pattern if hasattr(pattern, "search") else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                text = self._out[self._pos :].decode(errors="replace")
                m = rx.search(text)
                if m:
                    if consume:
                        self._pos += len(text[: m.end()].encode(errors="replace"))
                    return text[: m.end()]
                if self._eof or self.proc is None:
                    rc = self.proc.poll() if self.proc is not None else None
                    raise SimError(
                        f"simulation exited (rc={rc}) before {rx.pattern!r} appeared; "
                        f"output tail:\n{self._out[-2000:].decode(errors='replace')}"
                    )
                if tick is not None:
                    tick(self._out)
                self._cond.wait(
                    wait_slice(
                        deadline,
                        lambda: SimTimeout(
                            f"timed out after {timeout} s waiting for {rx.pattern!r}; "
                            f"output tail:\n{self._out[-2000:].decode(errors='replace')}"
                        ),
                    )
                )

    def read_console_until(self, pattern, timeout=30.0, tick=None):
        return self.wait_for(pattern, timeout, consume=True, tick=tick)

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

    def soft_reset(self, settle_s=0.05):
        """Reset the whole SoC (ctrl_reset's soc_rst; soc/cores/fault_inject.py SoftReset makes it
        reach the peripherals and the bridge, not only the CPU) and return once it is over.
        The bridge is reset with the SoC, so what it receives meanwhile is lost: the earlier
        commands are drained first (a read answers only after them) and the next ones wait
        `settle_s`. Commands another client of the bridge has in flight then may be lost
        (their reads time out)."""
        self.bus.read(self.csrs.addr("ctrl_scratch"))
        self.bus.write(self.csrs.addr("ctrl_reset"), [1])
        time.sleep(settle_s)
