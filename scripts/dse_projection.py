#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""How long `litedigest dse` takes on N workers: the committed design space's own task times
(bitstreams/engines.json, each record's run_seconds: the two syntheses and every seed's place
and route, and the time limit of a seed stopped unrouted) scheduled on N workers as
soc/flows/cluster.py submits them: the syntheses first, in spec order, and each spec's seeds
when its synthesis is done, every task on the first worker free (no task split, no transfer
time). Also the bound no schedule beats: the larger of the work over N and the longest chain
(a synthesis and its longest seed).

    scripts/dse_projection.py [--workers 1,2,4,8,16,32,64] [--engines FILE]
                              [--record records/dse_projection.json]

The times are the committed runs' (wall-clock seconds on the machines that ran them, one
process each): a projection, not a measurement of a cluster."""

import argparse
import heapq
import json
import os
import sys

from litedigest import records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tasks(doc):
    """[(spec, synthesis seconds, [seed seconds...])] of an engines.json document."""
    out = []
    for r in doc["engines"]:
        rs = r.get("run_seconds") or {}
        synth = (rs.get("synth_engine") or 0.0) + (rs.get("synth_shell") or 0.0)
        seeds = [s for s in rs.get("nextpnr") or [] if s]
        # a seed stopped at the time limit ran that long
        seeds += [
            u.get("seconds") or u.get("route_timeout_s") or 0.0
            for u in r["ecp5"].get("unrouted", [])
        ]
        out.append((r["spec"], synth, seeds))
    return out


def schedule(work, n):
    """The makespan (seconds) of `work` (tasks()) on `n` workers, as the cluster runs it."""
    free = [0.0] * n  # each worker's next free time (a heap)
    ready = [(0.0, i, -1) for i in range(len(work))]  # (ready at, spec, seed index; -1: synth)
    heapq.heapify(ready)
    end = 0.0
    while ready:
        at, i, k = heapq.heappop(ready)
        start = max(at, heapq.heappop(free))
        secs = work[i][1] if k < 0 else work[i][2][k]
        heapq.heappush(free, start + secs)
        end = max(end, start + secs)
        if k < 0:  # the spec's seeds, once its synthesis is done
            for j in range(len(work[i][2])):
                heapq.heappush(ready, (start + secs, i, j))
    return end


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--workers", default="1,2,4,8,16,32,64")
    ap.add_argument("--engines", default=os.path.join(ROOT, "bitstreams", "engines.json"))
    records.add_argument(ap)
    args = ap.parse_args(argv)
    with open(args.engines) as f:
        work = tasks(json.load(f))
    total = sum(s + sum(seeds) for _, s, seeds in work)
    chain = max(s + max(seeds, default=0.0) for _, s, seeds in work)
    one = schedule(work, 1)
    rows = []
    for n in (int(x) for x in args.workers.split(",")):
        t = schedule(work, n)
        rows.append(
            {
                "workers": n,
                "specs": len(work),
                "tasks": sum(1 + len(seeds) for _, _, seeds in work),
                "cpu_hours": round(total / 3600, 2),
                "projected_hours": round(t / 3600, 2),
                "bound_hours": round(max(total / n, chain) / 3600, 2),
                "speedup": round(one / t, 2),
            }
        )
        print(
            f"{n:3} workers: {rows[-1]['projected_hours']:7.2f} h "
            f"(at least {rows[-1]['bound_hours']:.2f} h), x{rows[-1]['speedup']}"
        )
    records.write_if_asked(
        args, rows, "scripts/dse_projection.py", tools=records.tool_versions(tools=(), packages=())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
