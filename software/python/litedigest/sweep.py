"""Hardware versus software across message sizes on the simulated SoC: the `sweep` firmware
(software/firmware/apps/sweep) hashes 64 B .. 64 KiB (powers of 4) with SHA-256 in software
(the C library on the VexRiscv, -O2), over the CSR path and over the DMA path of the SoC's
`sha256` peripheral, and prints exact cycle counts of the SoC clock; every digest is checked
here against hashlib.

    from litedigest.sweep import run_sweep
    run = run_sweep()          # builds the main SoC (cached) and the firmware, runs it
    run.cycles_per_byte("dma") # {64: ..., 256: ..., ...}
"""
import dataclasses

from . import socdemo
from . import spec as specmod

SIZES = (64, 256, 1024, 4096, 16384, 65536)
PATHS = ("sw", "csr", "dma")


@dataclasses.dataclass
class SweepRun:
    engine: str
    records: list      # dicts: engine, path, bytes, cycles, ok (digest checked on the host), digest
    console: str

    @property
    def all_ok(self):
        return len(self.records) == len(SIZES) * len(PATHS) and all(r["ok"] for r in self.records)

    def cycles(self, path):
        return {r["bytes"]: r["cycles"] for r in self.records if r["path"] == path}

    def cycles_per_byte(self, path):
        return {n: c / n for n, c in self.cycles(path).items()}

    def speedup(self, path):
        sw = self.cycles("sw")
        return {n: sw[n] / c for n, c in self.cycles(path).items() if n in sw}


def run_sweep(engines=None, log=None, timeout=1800):
    """Run the sweep firmware on the SoC with `engines` (default: the main SoC, spec.MAIN_SOC,
    whose `sha256` peripheral is sha256:opt)."""
    engines = list(engines or specmod.MAIN_SOC)
    text, _ = socdemo.run_app(engines, "sweep", log=log, timeout=timeout)
    records, _ = socdemo.parse_console(text)   # digests against hashlib of the demo message
    engine = next((r["engine"] for r in records), "?")
    return SweepRun(engine, records, text)
