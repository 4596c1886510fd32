# SPDX-License-Identifier: BSD-2-Clause
"""python -m litedigest.soc.formal [-j JOBS] [--refresh] [--list] [--trace] [NAME ...]

Runs the formal proofs (all, or those named; a name may be a prefix) and prints one line
each: verdict, whether it is the expected one, mode and depth, seconds, what it checks.
Exit status 1 when a verdict is not the expected one."""

import argparse
import sys

from .proofs import PROOFS, ok, run
from .trace import summary


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m litedigest.soc.formal", description=__doc__.split("\n\n")[1]
    )
    p.add_argument("names", nargs="*", help="proofs to run (name or prefix; default all)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="proofs at a time (default 2)")
    p.add_argument("--refresh", action="store_true", help="ignore cached verdicts")
    p.add_argument("--list", action="store_true", help="list the proofs and exit")
    p.add_argument("--trace", action="store_true", help="print the counterexample of each FAIL")
    args = p.parse_args(argv)
    names = [n for n in PROOFS if not args.names or any(n.startswith(a) for a in args.names)]
    if args.list:
        for n in names:
            pr = PROOFS[n]
            print(f"{n:34} {pr.mode:5} {pr.depth:3}  expect {pr.expect:4}  {pr.what}")
        return 0
    bad = 0
    results = run(names, jobs=args.jobs, refresh=args.refresh)
    for n in names:
        pr, r = PROOFS[n], results[n]
        good = ok(pr, r)
        bad += not good and not pr.known
        mark = "ok" if good else ("KNOWN" if pr.known else "UNEXPECTED")
        caught = f" caught by {','.join(r['failed'])}" if r["status"] == "FAIL" else ""
        print(
            f"{n:34} {r['status']:7} {mark:10} {pr.mode:5} {pr.depth:3} "
            f"{r['seconds']:6.1f}s{' (cached)' if r['cached'] else ''}{caught}  {pr.what}"
        )
        if args.trace and r["status"] == "FAIL" and r.get("trace"):
            print(summary(r["trace"], [s for s in _trace_signals(pr.harness)]))
    return 1 if bad else 0


def _trace_signals(harness):
    return {
        "engine.sv": ["in_valid", "in_ready", "out_valid", "out_ready", "out_slot", "count"],
        "slots.sv": ["ack", "bus_error", "st_err_bus", "st_done", "job_start", "active"],
        "dma.sv": ["job_start", "fetch_valid", "cyc", "adr", "bus_ack", "src_valid", "src_ready"],
        "axi.sv": [
            "job_start",
            "fetch_valid",
            "ar_valid",
            "ar_ready",
            "ar_addr",
            "ar_len",
            "r_valid",
            "r_resp",
            "src_valid",
            "src_ready",
            "abort_valid",
        ],
    }[harness]


if __name__ == "__main__":
    sys.exit(main())
