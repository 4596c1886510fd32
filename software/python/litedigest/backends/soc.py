# SPDX-License-Identifier: BSD-2-Clause
"""The `soc` backend: the whole simulated SoC (Verilator + VexRiscv + the hash peripheral),
driven from the host over the UARTBone bridge while the CPU idles, by the C library's driver
(litedigest._clib.HwDevice: registers through the bridge, DMA data staged in main RAM).

The SoC for an engine is built on first use under build/soc/<engine>/ (cached across runs),
booted with the idle firmware, and kept running until the backend is closed (or the interpreter
exits). Other processes may attach to it (SoCBackend(attach=...), or LITEDIGEST_SOC_ATTACH=<its
attach_info> for `litedigest.new(..., backend="soc")`): every driver call holds the SoC's lock,
and a process that dies holding it is recovered from. Data for the DMA path goes to the upper
half of main RAM. The SoC is the shared one that has the engine (the sim target's MAIN_SOC: the
default engine of every family), or one built for that engine alone.
"""

import atexit
import json
import os

from litedigest import _clib as native
from litedigest import spec as specmod
from litedigest.backends import Backend, walker_macs

ATTACH_ENV = "LITEDIGEST_SOC_ATTACH"
ATTACH_FILE = "attach.json"


class SoCBackend(Backend):
    """`engine`'s peripheral on a simulated SoC started here, or, with `attach` (or the
    LITEDIGEST_SOC_ATTACH environment variable) naming another backend's `attach_info` file
    or run directory, on that running SoC: several processes then hash on one SoC, each
    driver call holding the SoC's lock (litedigest.board.lock: one bridge, one staging area)."""

    name = "soc"

    def __init__(self, engine=None, path=None, attach=None):
        self.spec = specmod.parse(engine or "sha256")
        self.path = path or os.environ.get("LITEDIGEST_SOC_PATH", "dma")
        if self.path not in ("csr", "dma"):
            raise ValueError(f"unknown soc path {self.path!r} (csr or dma)")
        attach = attach or os.environ.get(ATTACH_ENV)
        self.sim = None
        if attach:
            self._attach(attach)
        else:
            self._start()
        atexit.register(self.close)

    def _start(self):
        from litedigest.soc.sim.build import build_soc
        from litedigest.soc.sim.firmware import app_dir, build_firmware
        from litedigest.soc.sim.process import SimProcess
        from litedigest.soc.targets.sim import soc_engines_for

        self.engines = [str(e) for e in soc_engines_for(self.spec)]
        self.instance = specmod.instance_name(self.spec, self.engines)
        self.build = build_soc(self.engines)
        fw = build_firmware(self.build, app_dir("idle"))
        self.sim = SimProcess(self.build, firmware=fw)
        self.sim.start()
        try:
            self.sim.read_console_until("LDIDLE", timeout=60)
            self.attach_info = os.path.join(self.sim.run_dir, ATTACH_FILE)
            info = {
                "port": self.sim.port,
                "csr_json": self.build.csr_json,
                "engines": self.engines,
                "lock": os.path.join(self.sim.run_dir, "soc.lock"),
                "pid": os.getpid(),
            }
            with open(self.attach_info, "w") as f:
                json.dump(info, f)
            self._connect(info)
        except BaseException:
            self.sim.close()
            raise

    def _attach(self, where):
        from litedigest.board.sim import BridgedSim

        path = os.path.join(where, ATTACH_FILE) if os.path.isdir(where) else where
        try:
            with open(path) as f:
                info = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError(f"no running simulated SoC to attach to at {where!r}: {e}") from None
        self.engines = info["engines"]
        if self.spec.engine_name not in [specmod.parse(e).engine_name for e in self.engines]:
            raise ValueError(
                f"the simulated SoC at {path} has {', '.join(self.engines)}, "
                f"not {self.spec.engine_name}"
            )
        self.instance = specmod.instance_name(self.spec, self.engines)
        self.attach_info = path
        self.sim = BridgedSim(info["port"], info["csr_json"])
        try:
            self._connect(info)
        except BaseException:
            self.sim.close()
            raise

    def _connect(self, info):
        from litedigest.board.lock import DeviceLock, settle

        consts = self.sim.constants
        ram_base, ram_size = consts["main_ram_base"], consts["main_ram_size"]
        bus = self.sim.bus
        read32, write32 = (lambda a: bus.read(a)), (lambda a, v: bus.write(a, [v]))
        registers = self.sim.csrs.registers
        everyone = [
            native.instance_registers(registers, specmod.instance_name(e, self.engines))
            for e in self.engines
        ]
        # one lock for the whole SoC: its bridge and its staging area are shared
        self.lock = DeviceLock.for_path(
            info["lock"], recover=lambda: settle(read32, write32, everyone)
        )
        # the upper half of main RAM stages the DMA data (the idle firmware lives below)
        self.hw = native.HwDevice(
            native.instance_registers(registers, self.instance),
            read32=read32,
            write32=write32,
            family=self.spec.family,
            ram_base=ram_base,
            ram_size=ram_size,
            dma_write=bus.write_bytes,
            stage=(ram_base + ram_size // 2, ram_size // 2),
            shared=True,
            lock=self.lock,
        )
        self.hw.set_timeout(10.0)  # a job not done within 10 s is reported, never hangs

    @property
    def c_path(self):
        return native.PATH_DMA if self.path == "dma" else native.PATH_CSR

    def md_context(self, spec):
        if spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not {spec.algorithm}")
        return self.hw.context(spec.algorithm, self.c_path)

    def hash_many(self, spec, messages, digest_bits=None, key=b""):
        """DMA path: the peripheral's batch walker (HwDevice.hash_many), for Skein-512 when
        the engine has the size's IV and there is no key; CSR path and the rest: one by one.
        A message too large for a batch (the staging area) is streamed through a context of
        its own; the digests come back in the order of `messages`."""
        if spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not {spec.algorithm}")
        skein = spec.family == "skein512"
        if (
            self.path != "dma"
            or not self.hw.dev.batch_base
            or (skein and (key or digest_bits not in native.SKEIN_SIZES))
        ):
            return super().hash_many(spec, messages, digest_bits, key)
        alg = f"skein512-{digest_bits}" if skein else spec.algorithm
        msgs = [bytes(m) for m in messages]
        small = [i for i, m in enumerate(msgs) if self.hw.batch_fits(alg, len(m))]
        out = [None] * len(msgs)
        batched = self.hw.hash_many(alg, [msgs[i] for i in small], self.sim.bus.read_bytes)
        for i, d in zip(small, batched):
            out[i] = d
        large = [i for i in range(len(msgs)) if out[i] is None]
        streamed = super().hash_many(spec, [msgs[i] for i in large], digest_bits, key)
        for i, d in zip(large, streamed):
            out[i] = d
        return out

    def mac(self, spec, key, data):
        """The HMAC peripheral: `key` loaded into key slot 0 (33 engine cycles), the MAC of
        `data` in one call (the message staged for the DMA path)."""
        if not self.spec.mac or spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not the MAC engine {spec}")
        with self.hw.owned():  # no other process loads its key in between
            self.hw.mac_set_key(0, key)
            return self.hw.mac(0, bytes(data), self.c_path)

    def mac_many(self, spec, keys, messages):
        """The HMAC peripheral's batch walker (walker_macs) on the DMA path; one by one on the
        CSR path."""
        if not self.spec.mac or spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not the MAC engine {spec}")
        if self.path != "dma" or not self.hw.dev.batch_base:
            return super().mac_many(spec, keys, messages)
        return walker_macs(self.hw, keys, messages, self.sim.bus.read_bytes, self.c_path)

    def skein_context(self, spec, digest_bits, key):
        if self.spec.family != "skein512":
            raise ValueError(f"the soc backend runs {self.spec}, not Skein-512")
        return self.hw.skein_context(digest_bits, key, self.c_path)

    def close(self):
        sim, self.sim = getattr(self, "sim", None), None
        if sim is not None:
            sim.close()


def open_backend(engine=None):
    return SoCBackend(engine)
