# SPDX-License-Identifier: BSD-2-Clause
"""Hardware versus software across message sizes on the simulated SoC: the `sweep` firmware
(software/firmware/apps/sweep) hashes 64 B .. 64 KiB (powers of 4) with SHA-256 in software
(the C library on the VexRiscv, -O2), over the CSR path and over the DMA path of the SoC's
`sha256` peripheral, and prints exact cycle counts of the SoC clock; every digest is checked
here against hashlib.

    from litedigest.measure.sweep import run_sweep
    run = run_sweep()          # builds the main SoC (cached) and the firmware, runs it
    run.cycles_per_byte("dma") # {64: ..., 256: ..., ...}

On a PYNQ board the same sizes are timed from Python instead (host_rates): hashlib against the
engines through the pynq backend, in bytes per second of wall-clock time.
"""

import dataclasses

from litedigest.measure import socdemo

SIZES = (64, 256, 1024, 4096, 16384, 65536)
PATHS = ("sw", "csr", "dma")


@dataclasses.dataclass
class SweepRun:
    engine: str
    records: list  # dicts: engine, path, bytes, cycles, ok (digest checked on the host), digest
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
    """Run the sweep firmware on the SoC with `engines` (default: the sim
    target's main SoC, MAIN_SOC, whose `sha256` peripheral is sha256:opt)."""
    from litedigest.soc.targets.sim import MAIN_SOC

    engines = list(engines or MAIN_SOC)
    text, _ = socdemo.run_app(engines, "sweep", log=log, timeout=timeout)
    records, _ = socdemo.parse_console(text)  # digests against hashlib of the demo message
    engine = next((r["engine"] for r in records), "?")
    return SweepRun(engine, records, text)


def host_rates(new, sizes=SIZES, algorithm="sha256", repeat=5, rng=None):
    """Bytes per second of wall-clock time (time.perf_counter, best of `repeat`) of hashlib and
    of `new(algorithm, data)` (e.g. a LiteDigestDevice's new: the engines through the pynq
    backend) for each size; every engine digest is checked against hashlib first (ValueError
    on a mismatch). Returns {"hashlib": {size: B/s}, "engine": {size: B/s}}."""
    import hashlib
    import os
    import time

    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive integer, got {repeat!r}")

    def best(fn):
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
        return max(min(ts), 1e-9)

    out = {"hashlib": {}, "engine": {}}
    for n in sizes:
        m = rng.randbytes(n) if rng is not None else os.urandom(n)
        if new(algorithm, m).digest() != hashlib.new(algorithm, m).digest():
            raise ValueError(f"the engine's {algorithm} of {n} bytes differs from hashlib")
        out["hashlib"][n] = n / best(lambda m=m: hashlib.new(algorithm, m).digest())
        out["engine"][n] = n / best(lambda m=m: new(algorithm, m).digest())
    return out
