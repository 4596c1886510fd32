# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest dse`: per-engine design space on the open flow (see litedigest.soc.flows.dse).

For each engine spec: ECP5 LUT4/FF (Yosys synth_ecp5 of the bare engine), routed fmax
(nextpnr-ecp5, LFE5U-85F speed 6, the engine in a register shell, median of the seeds), xc7
LUT/FF/CARRY4 (Yosys synth_xilinx, when litedigest.soc.flows.xc7 is installed), latency, interval,
blocks in flight, throughput = block bits x fmax / interval, throughput per LUT4 and the
improvement over the 1-stage engine. Cached per spec under build/dse/. The progress (each
spec and seed, done and left, fmax as it comes, the time left) goes to stderr (--quiet: none);
an interrupted run keeps every seed run so far and the next one resumes.

  litedigest dse                                   # the default set, table
  litedigest dse --engine sha1:base --seeds 1      # one spec, one seed
  litedigest dse --out bitstreams/engines.json     # the committed document
  litedigest dse --engine all --jobs 32            # on 32 cores (Dask, the [cluster] extra)
  litedigest dse --scheduler tcp://head:8786       # on a running Dask cluster

With the [cluster] extra (Dask's distributed scheduler) each synthesis and each (spec, seed)
place and route is a task: --jobs N runs them on a local cluster of N worker processes (default:
the machine's cores), --scheduler on a running cluster whose workers (`dask worker
tcp://HOST:8786`) have this project installed from the same sources. The records are the ones a
sequential run makes (--jobs 1, and the default without the extra).
"""

import argparse
import json
import os
import sys

from litedigest import extras
from litedigest import spec as specmod
from litedigest.cli.common import add_quiet, progress_of
from litedigest.measure import design_space


def add_parser(subparsers):
    p = subparsers.add_parser(
        "dse",
        help="area, routed fmax and throughput per engine (open flow)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if not extras.available("flows"):
        # the runs live in the checkout's gateware tools (litedigest.soc.flows.dse): say what
        # to install when the command is asked for
        p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        p.set_defaults(func=lambda args: extras.require("flows", "litedigest dse") or 2)
        return
    from litedigest.soc.flows import dse

    p.add_argument(
        "--engine",
        default=None,
        help="engine specs, comma-separated, or 'all' (every implemented hash and MAC spec); "
        "default: " + ",".join(dse.DEFAULT_SPECS),
    )
    p.add_argument(
        "--seeds",
        default=",".join(map(str, dse.DEFAULT_SEEDS)),
        help="nextpnr seeds, comma-separated (default %(default)s)",
    )
    p.add_argument(
        "--pipeline-seeds",
        default=None,
        help="seeds for the pipelined engines other than the MAC engines (default: "
        "--seeds); 1-stage and MAC engines always get --seeds",
    )
    p.add_argument(
        "--route-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop a place and route after this long and record the seed as not "
        "routed, with nextpnr's placement estimate (default: no limit); a later "
        "run with a longer limit tries it again",
    )
    p.add_argument(
        "--placer",
        default=dse.DEFAULT_PLACER,
        type=dse.placer_type,
        help="nextpnr's placer: heap (default), static (routes the Skein engines "
        "HeAP's placement does not) or static@U (the static placer spread to a "
        "target density U, default 0.7; needs the patched nextpnr of "
        "scripts/native_nextpnr.sh); a cached seed placed by another placer is "
        "run again",
    )
    p.add_argument(
        "--keep-placement",
        action="store_true",
        help="place and route each seed as two nextpnr runs and keep the placement, "
        "xz-compressed, in bitstreams/placements/ (commit it): a later run with "
        "this option, on a fresh checkout too, routes that placement instead of "
        "placing again (for runs longer than a session)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="runs at once on a local Dask cluster of N workers (default: the machine's "
        "cores with the [cluster] extra, else 1: one after the other in this process)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786); "
        "its dashboard's address is printed",
    )
    p.add_argument("--out", default=None, help="write the engines.json document here")
    p.add_argument("--json", action="store_true", help="print the document on stdout")
    p.add_argument("--no-xc7", action="store_true", help="skip synth_xilinx")
    p.add_argument("--force", action="store_true", help="ignore the cache")
    p.add_argument(
        "--cached-only",
        action="store_true",
        help="run nothing: only the specs whose every run is cached (to write the "
        "document while a long run goes on; a spec that run holds counts "
        "with the committed record of its current sources)",
    )
    add_quiet(p)
    p.set_defaults(func=run)


def _cmdline(args):
    from litedigest.soc.flows import dse

    parts = ["litedigest", "dse"]
    if args.engine:
        parts += ["--engine", args.engine]
    parts += ["--seeds", args.seeds]
    if args.pipeline_seeds:
        parts += ["--pipeline-seeds", args.pipeline_seeds]
    if args.route_timeout:
        parts += ["--route-timeout", f"{args.route_timeout:g}"]
    if args.placer != dse.DEFAULT_PLACER:
        parts += ["--placer", args.placer]
    if args.keep_placement:
        parts.append("--keep-placement")
    if args.no_xc7:
        parts.append("--no-xc7")
    if args.cached_only:
        parts.append("--cached-only")
    if args.out:
        parts += ["--out", args.out]
    return " ".join(parts)


def run(args):
    extras.require("flows", "litedigest dse (Yosys and nextpnr-ecp5 runs)")
    from litedigest.soc.flows import dse

    try:
        if args.engine is None:
            specs = list(dse.DEFAULT_SPECS)
        elif args.engine == "all":  # every hash engine spec and the MAC engines
            specs = specmod.all_specs() + specmod.mac_specs()
        else:
            specs = [e.strip() for e in args.engine.split(",") if e.strip()]
            if not specs:
                raise specmod.SpecError("no engine spec given")
            for s in specs:
                specmod.parse(s)
        seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
        if not seeds:
            raise ValueError("--seeds needs at least one seed")
        pseeds = None
        if args.route_timeout is not None and args.route_timeout <= 0:
            raise ValueError("--route-timeout must be positive")
        if args.pipeline_seeds is not None:
            pseeds = [int(x) for x in args.pipeline_seeds.split(",") if x.strip()]
            if not pseeds:
                raise ValueError("--pipeline-seeds needs at least one seed")
        if args.jobs is not None and args.jobs < 1:
            raise ValueError("--jobs must be 1 or more")
        if args.scheduler and "://" not in args.scheduler:
            raise ValueError(
                f"--scheduler: a Dask scheduler address (tcp://HOST:8786), not {args.scheduler!r}"
            )
        jobs = args.jobs
        if jobs is None:  # the machine's cores when Dask is there, else as before
            jobs = (os.cpu_count() or 1) if extras.available("cluster") else 1
        if (jobs > 1 or args.scheduler) and not extras.available("cluster"):
            extras.require("cluster", "litedigest dse --jobs N / --scheduler")
    except ValueError as e:  # SpecError is a ValueError
        print(f"litedigest dse: {e}", file=sys.stderr)
        return 2
    log = progress_of(args)
    kw = dict(
        xc7=not args.no_xc7,
        log=log,
        force=args.force,
        pipeline_seeds=pseeds,
        cached_only=args.cached_only,
        route_timeout=args.route_timeout,
        placer=args.placer,
        keep_placement=args.keep_placement,
    )
    failed = None
    if jobs > 1 or args.scheduler:
        from litedigest.soc.flows import cluster

        try:
            records = cluster.measure_specs(specs, seeds, jobs=jobs, scheduler=args.scheduler, **kw)
        except cluster.TaskFailed as err:  # the others are recorded: write them, then say it
            records, failed = err.records, err
    else:
        records = dse.measure(specs, seeds, **kw)
    log.close()
    doc = dse.document(records, seeds, _cmdline(args), pseeds)
    if args.out:
        dse.write(doc, args.out)
        print(f"litedigest dse: wrote {args.out}", file=sys.stderr)
    if args.json:
        json.dump(doc, sys.stdout, indent=2)
        print()
    else:
        print(table(records))
    if failed is not None:
        print(f"litedigest dse: {failed}", file=sys.stderr)
        return 1
    return 0


def _or_dash(v):
    return "-" if v is None else v


def _fmax(e):
    if "does_not_fit" in e:
        return f"does not fit the {e['does_not_fit']['device']}"
    if not e["fmax_mhz"] and e.get("unrouted"):
        return f"not routed in the time limit ({design_space.unrouted_text(e['unrouted'])})"
    placer = design_space.placer_text(e.get("placer"))
    note = f", placer {placer}" if placer else ""
    return f"{e['fmax_median']} ({', '.join(f'{v:.1f}' for v in e['fmax_mhz'])}{note})"


def table(records):
    head = (
        "| spec | latency | interval | in flight | LUT4 (+carry) | FF | fmax MHz (median) | "
        "xc7 LUT/FF/CARRY4 | Mbit/s | Mbit/s/LUT4 | x 1-stage |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in records:
        e, x = r["ecp5"], r["xc7"]
        xs = f"{x['lut']}/{x['ff']}/{x.get('carry4')}" if x else "-"
        lines.append(
            f"| {r['spec']} | {r['latency']} | {r['interval_exact']} | {r['in_flight']} | "
            f"{e['lut4']} ({e['lut4_with_carry']}) | {e['ff']} | {_fmax(e)} | {xs} | "
            f"{_or_dash(r['throughput_mbps'])} | {_or_dash(r['throughput_per_lut4'])} | "
            f"{_or_dash(r['improvement'])} |"
        )
    return "\n".join(lines)
