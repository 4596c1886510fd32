# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest demo`: build the simulated SoC if needed, run the firmware demo, print the table."""

import sys

from litedigest import extras
from litedigest.cli.common import add_quiet, progress_of
from litedigest.measure import socdemo


def add_parser(subparsers):
    p = subparsers.add_parser(
        "demo",
        help="hash on the simulated SoC: software vs CSR vs DMA",
        description="Build the simulated LiteX SoC with a hash engine (cached after the first "
        "run), run the firmware demo on its VexRiscv CPU and print cycles, bytes per "
        "cycle and speedups over the software baseline on the same CPU. Its progress (the "
        "SoC build's phase and time, the firmware's) goes to stderr; Ctrl-C says what the "
        "build cache keeps.",
    )
    p.add_argument(
        "--engine", default=socdemo.DEFAULT_ENGINE, help="engine spec (default %(default)s)"
    )
    p.add_argument("--timeout", type=float, default=900.0, help="seconds to wait for the firmware")
    add_quiet(p)
    p.set_defaults(func=run)


def run(args):
    extras.require("soc", "litedigest demo (the simulated SoC)")
    if not args.timeout > 0:  # (NaN too)
        print(
            f"litedigest demo: --timeout must be a positive number of seconds, not {args.timeout}",
            file=sys.stderr,
        )
        return 2
    try:
        # the demo runs the SoC every time (the benches reuse a cached run, socdemo.run_app)
        demo = socdemo.run_demo(
            args.engine, log=progress_of(args), timeout=args.timeout, fresh=True
        )
    except ValueError as e:
        print(f"litedigest demo: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # the simulation's errors (SimError, SimTimeout): no traceback
        print(f"litedigest demo: {e}", file=sys.stderr)
        return 1
    progress_of(args).close()
    print(
        f"LiteDigest demo: {demo.engine} on the simulated SoC (cycles of the SoC clock, "
        f"measured by the peripheral's cycle counter, warm caches; the call alone: the "
        f"counter's own {demo.timer_cycles} cycles subtracted)\n"
    )
    print(demo.table())
    print()
    sw, dma = demo.record("sw", 16384), demo.record("dma", 16384)
    if sw and dma:
        print(
            f"16 KiB via DMA: {16384 / dma['cycles']:.3f} bytes/cycle end to end, "
            f"{sw['cycles'] / dma['cycles']:.1f}x the software SHA-256 "
            f"({sw['cycles'] / 16384:.1f} cycles/byte) on the same CPU"
        )
    failed = [c["name"] for c in demo.checks if not c["ok"]]
    print(
        f"bad-input checks: {len(demo.checks) - len(failed)}/{len(demo.checks)} passed"
        + (f" (FAILED: {', '.join(failed)})" if failed else "")
    )
    bad = [f"{r['path']} {r['bytes']}" for r in demo.records if not r["ok"]]
    if bad:
        print(f"digest mismatches: {', '.join(bad)}")
    return 0 if demo.all_ok else 1
