"""The `soc` backend: the whole simulated SoC (Verilator + VexRiscv + the hash peripheral),
driven from the host over the UARTBone bridge while the CPU idles, by the C library's driver
(litedigest.native.HwDevice: registers through the bridge, DMA data staged in main RAM).

The SoC for an engine is built on first use under build/soc/<engine>/ (cached across runs),
booted with the idle firmware, and kept running until the backend is closed (or the
interpreter exits). Data for the DMA path goes to the upper half of main RAM. The SoC is the
shared one that has the engine (the sim target's MAIN_SOC: the default engine of every family), or one
built for that engine alone.
"""
import atexit
import os
import re

from .. import spec as specmod
from ..paths import build_root, repo_root
from .. import native
from . import Backend


def soc_build_dir(engines):
    """build/soc/<engines>: one cached build per list of engine specs (a spec alone: its own
    SoC, or the shared one that has it, see the sim target's soc_engines_for)."""
    if isinstance(engines, (str, specmod.EngineSpec)):
        from litedigest.soc.targets.sim import soc_engines_for
        engines = soc_engines_for(engines)
    names = [specmod.parse(e).engine_name if isinstance(e, str) else e.engine_name for e in engines]
    return os.path.join(build_root(), "soc", "+".join(re.sub(r"[^a-z0-9]+", "-", n) for n in names))


def build_soc(engines):
    """Build (or reuse) the simulated SoC with `engines` under soc_build_dir(engines)."""
    from litedigest.soc.sim.build import build_sim
    return build_sim(soc_build_dir(engines), hash_engine=list(engines))


def firmware_app(name):
    return os.path.join(repo_root(), "software", "firmware", "apps", name)


class SoCBackend(Backend):
    name = "soc"

    def __init__(self, engine=None, path=None):
        from litedigest.soc.sim.firmware import build_firmware
        from litedigest.soc.sim.process import SimProcess
        self.spec = specmod.parse(engine or "sha256")
        from litedigest.soc.targets.sim import soc_engines_for
        self.engines = soc_engines_for(self.spec)
        self.instance = specmod.instance_name(self.spec, self.engines)
        self.path = path or os.environ.get("LITEDIGEST_SOC_PATH", "dma")
        if self.path not in ("csr", "dma"):
            raise ValueError(f"unknown soc path {self.path!r} (csr or dma)")
        self.build = build_soc(self.engines)
        fw = build_firmware(self.build, firmware_app("idle"))
        self.sim = SimProcess(self.build, firmware=fw)
        self.sim.start()
        try:
            self.sim.read_console_until("LDIDLE", timeout=60)
            consts = self.sim.constants
            ram_base, ram_size = consts["main_ram_base"], consts["main_ram_size"]
            bus = self.sim.bus
            # the upper half of main RAM stages the DMA data (the idle firmware lives below)
            self.hw = native.HwDevice(
                native.instance_registers(self.sim.csrs.registers, self.instance),
                read32=lambda a: bus.read(a), write32=lambda a, v: bus.write(a, [v]),
                family=self.spec.family, ram_base=ram_base, ram_size=ram_size,
                dma_write=bus.write_bytes, stage=(ram_base + ram_size // 2, ram_size // 2),
                shared=True)
            self.hw.set_timeout(10.0)   # a job not done within 10 s is reported, never hangs
        except BaseException:
            self.sim.close()
            raise
        atexit.register(self.close)

    @property
    def c_path(self):
        return native.PATH_DMA if self.path == "dma" else native.PATH_CSR

    def md_context(self, spec):
        if spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not {spec.algorithm}")
        return self.hw.context(spec.algorithm, self.c_path)

    def hash_many(self, spec, messages):
        """DMA path: the peripheral's batch walker (HwDevice.hash_many); CSR path: one by one."""
        if spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not {spec.algorithm}")
        if self.path != "dma" or not self.hw.dev.batch_base:
            return super().hash_many(spec, messages)
        return self.hw.hash_many(spec.algorithm, messages, self.sim.bus.read_bytes)

    def mac(self, spec, key, data):
        """The HMAC peripheral: `key` loaded into key slot 0 (33 engine cycles), the MAC of
        `data` in one call (the message staged for the DMA path)."""
        if not self.spec.mac or spec.family != self.spec.family:
            raise ValueError(f"the soc backend runs {self.spec}, not the MAC engine {spec}")
        self.hw.mac_set_key(0, key)
        return self.hw.mac(0, bytes(data), self.c_path)

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
