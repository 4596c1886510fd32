# SPDX-License-Identifier: BSD-2-Clause
"""Measure and try out the simulated SoC from the command line.

    python -m litedigest.soc.sim.bench [--hash-engine SPECS] [--app DIR] [--bench]

builds (cached), boots a firmware and reports, or measures boot time, CSR and bulk rates.
"""

import os
import sys
import time

from litedigest import buildcache
from litedigest.soc.sim.build import build_sim
from litedigest.soc.sim.firmware import APPS_DIR, build_firmware
from litedigest.soc.sim.process import SimProcess


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
        sim.bus.read(addr)  # the bridge answers after the writes before it
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
    p.add_argument("--build-dir", default=os.path.join(buildcache.build_root(), "sim"))
    p.add_argument("--hash-engine", default=None)
    p.add_argument("--rebuild", action="store_true")
    p.add_argument(
        "--app", default=os.path.join(APPS_DIR, "idle"), help="firmware app dir to build and boot"
    )
    p.add_argument("--expect", default="LDIDLE", help="console text to wait for after boot")
    p.add_argument(
        "--bench", action="store_true", help="measure boot, CSR and bulk rates (idle app)"
    )
    args = p.parse_args(argv)
    t0 = time.monotonic()
    b = build_sim(args.build_dir, hash_engine=args.hash_engine, rebuild=args.rebuild)
    print(
        f"build: {b.build_dir} ({'built' if b.built else 'cached'}, {time.monotonic() - t0:.1f} s)"
    )
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
