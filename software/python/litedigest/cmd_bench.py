"""`litedigest bench`: measurements as JSON records, one per run.

  --backend rtl: the engine alone in Verilator; per message size the cycles from the first
                 block accepted to the digest, and the measured latency and interval.
  --backend soc: the firmware demo on the simulated SoC: software, CSR and DMA paths for
                 64 B, 1 KiB and 16 KiB (the sizes the firmware measures).
"""
import hashlib
import json
import random
import statistics
import sys

from . import spec as specmod
from .hashobj import md_pad
from . import socdemo

DEFAULT_SIZES = (64, 1024, 16384)


def add_parser(subparsers):
    p = subparsers.add_parser(
        "bench", help="measure engines (rtl) or the SoC (soc), JSON records",
        description=__doc__, formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    p.add_argument("--backend", choices=("rtl", "soc"), default="rtl")
    p.add_argument("--engine", default=socdemo.DEFAULT_ENGINE, help="engine spec (default %(default)s)")
    p.add_argument("--sizes", default=None,
                   help="comma-separated message sizes in bytes (rtl only; default 64,1024,16384)")
    p.add_argument("--json", action="store_true", help="print one JSON object per line")
    p.set_defaults(func=run)


def bench_rtl(engine, sizes):
    from litedigest.ip.rtlsim import RTLSim, Block
    from litedigest.ip.engines import variant_of
    spec = specmod.parse(engine)
    sim = RTLSim(spec.engine_name)
    rng = random.Random(2026)
    bs = spec.block_size
    for n in sizes:
        msg = rng.randbytes(n)
        whole = len(msg) - len(msg) % bs
        padded = msg[:whole] + md_pad(msg[whole:], len(msg), bs)
        nb = len(padded) // bs
        blocks = [Block(sim.words(padded[bs * i:bs * (i + 1)]), first=i == 0, last=i == nb - 1,
                        variant=variant_of(spec)) for i in range(nb)]
        results, accepted = sim.run(blocks)
        digest = sim.to_bytes(results[-1].cv)[:spec.digest_size]
        cycles = results[-1].cycle - accepted[0]
        gaps = [b.cycle - a.cycle for a, b in zip(results, results[1:])]
        yield {
            "engine": str(spec), "backend": "rtl", "path": "stream", "bytes": n, "blocks": nb,
            "cycles": cycles, "bytes_per_cycle": round(n / cycles, 4),
            "latency": results[0].cycle - accepted[0],
            "interval": statistics.median(gaps) if gaps else None,
            "digest_ok": digest == hashlib.new(spec.algorithm, msg).digest(),
        }
    sim.close()


def bench_soc(engine):
    demo = socdemo.run_demo(engine, log=lambda m: print(m, file=sys.stderr, flush=True))
    sw = {r["bytes"]: r["cycles"] for r in demo.records if r["path"] == "sw"}
    for r in demo.records:
        yield {
            "engine": demo.engine, "backend": "soc", "path": r["path"], "bytes": r["bytes"],
            "cycles": r["cycles"], "bytes_per_cycle": round(r["bytes"] / r["cycles"], 4),
            "speedup_vs_sw": round(sw[r["bytes"]] / r["cycles"], 2) if r["bytes"] in sw else None,
            "digest_ok": r["ok"],
        }
    if not demo.checks or not all(c["ok"] for c in demo.checks):
        raise RuntimeError("the firmware's bad-input checks failed: " +
                           ", ".join(c["name"] for c in demo.checks if not c["ok"]))


def run(args):
    try:
        specmod.parse(args.engine)
        if args.backend == "soc":
            if args.sizes:
                raise ValueError("--sizes applies to --backend rtl only (the firmware measures 64, 1024, 16384)")
            records = bench_soc(args.engine)
        else:
            sizes = DEFAULT_SIZES
            if args.sizes:
                sizes = [int(s) for s in args.sizes.split(",")]
                if any(s < 0 for s in sizes):
                    raise ValueError("sizes must be >= 0")
            records = bench_rtl(args.engine, sizes)
        ok = True
        for rec in records:
            ok &= rec["digest_ok"]
            if args.json:
                print(json.dumps(rec), flush=True)
            else:
                extra = f" latency={rec['latency']} interval={rec['interval']}" if "latency" in rec else ""
                print(f"{rec['engine']:<14} {rec['backend']:<4} {rec['path']:<6} {rec['bytes']:>6} B "
                      f"{rec['cycles']:>9} cycles {rec['bytes_per_cycle']:>8.4f} B/cycle "
                      f"{'ok' if rec['digest_ok'] else 'DIGEST MISMATCH'}{extra}", flush=True)
        return 0 if ok else 1
    except ValueError as e:
        print(f"litedigest bench: {e}", file=sys.stderr)
        return 2
