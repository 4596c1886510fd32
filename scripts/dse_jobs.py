#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest dse` on one worker and on several: the wall time of the same design-space run
with `--jobs 1` (one run after the other in one process) and with `--jobs N` (a local Dask
cluster of N workers), each from an empty cache (`--force`, a build root of its own under
build/dse-jobs/), and whether the two runs' records are the same (every field but the run
seconds, which are wall-clock times).

    scripts/dse_jobs.py [--engine sha1:base,sha256:base] [--seeds 1,2,3] [--jobs 1,2]
                        [--record records/dse_jobs.json]

Timings vary on a shared machine: compare the runs of one invocation, as a ratio."""

import argparse
import json
import os
import subprocess
import sys
import time

from litedigest import buildcache, records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _comparable(doc):
    """The document's records without what is a wall-clock time."""
    return [{k: v for k, v in r.items() if k != "run_seconds"} for r in doc["engines"]]


def run(engine, seeds, jobs, log=print):
    """One `litedigest dse --force --json` run with `--jobs jobs` in a build root of its own:
    (wall seconds, the engines.json document it printed)."""
    env = dict(
        os.environ,
        LITEDIGEST_BUILD=os.path.join(buildcache.build_root(), "dse-jobs", f"jobs{jobs}"),
    )
    cmd = [
        os.path.join(os.path.dirname(sys.executable), "litedigest"),
        "dse",
        "--engine",
        engine,
        "--seeds",
        seeds,
        "--jobs",
        str(jobs),
        "--force",
        "--json",
        "--quiet",
    ]
    log(f"dse_jobs: {' '.join(cmd[1:])} ...")
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, check=True)
    return round(time.monotonic() - t0, 1), json.loads(p.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--engine", default="sha1:base,sha256:base")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--jobs", default="1,2", help="the worker counts to run, comma-separated")
    records.add_argument(ap)
    args = ap.parse_args(argv)
    counts = [int(j) for j in args.jobs.split(",")]
    runs = {
        j: run(args.engine, args.seeds, j, log=lambda m: print(m, file=sys.stderr)) for j in counts
    }
    first = _comparable(runs[counts[0]][1])
    base = runs[counts[0]][0]
    rows = []
    for j in counts:
        secs, doc = runs[j]
        rows.append(
            {
                "engines": args.engine,
                "seeds": args.seeds,
                "jobs": j,
                "cpu_count": os.cpu_count(),
                "tasks": sum(len(r["ecp5"]["seeds"]) for r in doc["engines"]) + len(doc["engines"]),
                "wall_seconds": secs,
                "speedup": round(base / secs, 2),
                "records_identical": _comparable(doc) == first,
                "fmax_median": {r["spec"]: r["ecp5"]["fmax_median"] for r in doc["engines"]},
            }
        )
        print(
            f"--jobs {j}: {secs} s, x{rows[-1]['speedup']}, records identical: "
            f"{rows[-1]['records_identical']}"
        )
    from litedigest.soc.flows import ecp5 as flow_ecp5

    tools = dict(records.tool_versions(tools=(), packages=("distributed",)))
    tools.update(flow_ecp5.tool_versions())
    records.write_if_asked(args, rows, "scripts/dse_jobs.py", tools=tools)
    return 0 if all(r["records_identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
