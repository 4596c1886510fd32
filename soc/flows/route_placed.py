# SPDX-License-Identifier: BSD-2-Clause
"""Route a placed nextpnr-ecp5 design again, with nextpnr settings the placement did not use.

Why: placing the four-engine ECP5 SoC takes 20-30 minutes of the single-threaded WebAssembly
nextpnr, and a router experiment (router1 or router2, timing-driven or not, router2's
congestion weights) should not pay for it each time. nextpnr writes a placed design with
`--no-route --write placed.json` and routes it with `--json placed.json --no-place`. The
settings that steer the router are not all on its command line, and those that are lose: the
placed netlist carries the settings it was placed with (the top module's `settings`: `router`,
`timing_driven`, `target_freq`, ...) and nextpnr reads them after its command line. So a
route with other settings needs a copy of the placed netlist with them changed: `with_settings`.

    python -m litedigest.soc.flows.route_placed place NETLIST.json --dir D [--seed 1]
        [--placer static] [--lpf F.lpf | --freq MHZ]
    python -m litedigest.soc.flows.route_placed route D/placed.json [--set router=router2]
        [--set timing_driven=false] [--lpf F.lpf | --freq MHZ] [--timeout S] [--tag T]

Settings nextpnr 0.11.1 reads and that matter here: `router` (router1, router2),
`timing_driven` (false: the router weighs every arc's congestion the same; timing-driven, a
critical arc pays as little as 0.05 of the congestion cost, router1 common/route/router1.cc,
router2 common/route/router2.cc), `router2/initCurrCongWeight`, `router2/histCongWeight`,
`router2/currCongWeightMult`, `router1/maxIterCnt`. The route writes `route_<tag>.log`, its
`--report` JSON and, with `--textcfg`, the configuration ecppack packs.

Not in `flows.ecp5` on purpose: that file is in the stamp of every design-space record.
"""

import argparse
import json
import os
import re
import subprocess
import sys

from litedigest.soc.flows import ecp5 as flow_ecp5

# nextpnr stores booleans and integers among its settings as 32-digit binary strings
_BOOL = {"true": "1".rjust(32, "0"), "false": "0".rjust(32, "0")}


def with_settings(placed, out, settings):
    """Copy the nextpnr JSON `placed` to `out` with the top module's settings updated from
    `settings` ({name: value}; True/False or "true"/"false" for booleans, other values as
    nextpnr writes them). Returns the settings the copy carries. A netlist without settings
    (not written by nextpnr) is a ValueError: nextpnr would route it as it sees fit."""
    with open(placed) as f:
        doc = json.load(f)
    tops = [m for m in doc.get("modules", {}).values() if "settings" in m]
    if len(tops) != 1:
        raise ValueError(f"{placed}: not a netlist nextpnr wrote (no module with settings)")
    s = tops[0]["settings"]
    for name, value in settings.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        value = str(value)
        s[name] = _BOOL.get(value.lower(), value)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f)
    os.replace(tmp, out)
    return dict(s)


def _common(device, package, speed, seed, lpf, freq_mhz, out_of_context):
    cmd = [
        flow_ecp5._exe(flow_ecp5.NEXTPNR),
        f"--{flow_ecp5.DEVICES[device]['nextpnr']}",
        "--package",
        package,
        "--speed",
        str(speed),
        "--seed",
        str(seed),
        "--timing-allow-fail",
        "-q",
    ] + (["--out-of-context"] if out_of_context else [])
    if lpf:
        cmd += ["--lpf", os.path.abspath(lpf)]
    if freq_mhz:
        cmd += ["--freq", str(freq_mhz)]
    return cmd


def place(
    netlist,
    workdir,
    device="LFE5U-85F",
    package="CABGA381",
    speed=6,
    seed=1,
    placer="static",
    lpf=None,
    freq_mhz=None,
    out_of_context=False,
    timeout=None,
    extra=(),
):
    """Place `netlist` (a synth_ecp5 JSON) and write `workdir`/placed.json (kept: a second call
    returns it without placing again). `extra`: more nextpnr arguments (the placer's options,
    e.g. --placer-heap-beta 0.5). Returns dict(placed, estimate={clock: MHz}, seconds)."""
    workdir = os.path.abspath(workdir)
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "placed.json")
    log = os.path.join(workdir, "place.log")
    secs = 0.0
    if not os.path.exists(out):
        tmp = os.path.join(workdir, "placed.json.tmp")
        cmd = (
            _common(device, package, speed, seed, lpf, freq_mhz, out_of_context)
            + [
                "--json",
                os.path.abspath(netlist),
                "--placer",
                placer,
                "--no-route",
                "--write",
                tmp,
                "--log",
                log,
            ]
            + list(extra)
        )
        secs = flow_ecp5._run(cmd, workdir, timeout=timeout)
        os.replace(tmp, out)
    with open(log) as f:
        est = {k: v["achieved"] for k, v in flow_ecp5.parse_nextpnr_log(f.read()).items()}
    return dict(placed=out, estimate=est, seconds=round(secs, 1))


# router1: "iterations | routed w/ ripup, w/o | delta | remaining arcs | batch s, total s"
_ROUTER1 = re.compile(
    r"^Info:\s+\d+ \|\s+\d+\s+\d+ \|\s+\d+\s+\d+ \|\s+(\d+)\|\s+[0-9.]+\s+([0-9.]+)\|", re.M
)
# router2: "iter=N wires=W overused=O overuse=U"
_ROUTER2 = re.compile(r"iter=(\d+) wires=\d+ overused=(\d+)")


def progress(log_text):
    """How far a routing got, from its log: router1's (seconds, arcs left) per 1,000
    iterations and router2's (iteration, overused wires)."""
    return dict(
        router1=[(float(t), int(n)) for n, t in _ROUTER1.findall(log_text)],
        router2=[(int(i), int(n)) for i, n in _ROUTER2.findall(log_text)],
    )


def route(
    placed: str,
    workdir: str,
    settings: dict | None = None,
    tag: str = "route",
    device: str = "LFE5U-85F",
    package: str = "CABGA381",
    speed: int = 6,
    seed: int = 1,
    lpf: str | None = None,
    freq_mhz: float | None = None,
    out_of_context: bool = False,
    textcfg: bool = True,
    timeout: float | None = None,
) -> dict:
    """Route the placed netlist `placed` with `settings` changed (with_settings). Returns
    dict(routed, fmax={clock: MHz}, utilization={bel type: {used, available}}, seconds, log,
    report, textcfg, settings, progress); a route stopped at `timeout` seconds is routed=False
    with its progress."""
    workdir = os.path.abspath(workdir)
    os.makedirs(workdir, exist_ok=True)
    net = os.path.join(workdir, f"{tag}.json")
    used = with_settings(placed, net, settings or {})
    # placed out of context (the netlist says so; nextpnr
    # then wants the flag on its command line too)
    out_of_context = out_of_context or used.get("arch.ooc", "").endswith("1")
    log = os.path.join(workdir, f"{tag}.log")
    report = os.path.join(workdir, f"{tag}_report.json")
    # (an out-of-context design has no bitstream: nextpnr refuses --textcfg for it)
    cfg = os.path.join(workdir, f"{tag}.config") if textcfg and not out_of_context else None
    for p in (log, report, cfg):
        if p and os.path.exists(p):
            os.remove(p)
    cmd = _common(device, package, speed, seed, lpf, freq_mhz, out_of_context) + [
        "--json",
        net,
        "--no-place",
        "--report",
        report,
        "--log",
        log,
    ]
    if cfg:
        cmd += ["--textcfg", cfg]
    out = dict(settings={k: used[k] for k in sorted(settings or {})}, log=log)
    try:
        out["seconds"] = round(flow_ecp5._run(cmd, workdir, timeout=timeout), 1)
        with open(report) as f:
            fmax, util = flow_ecp5.parse_nextpnr_report(f.read())
        out.update(
            routed=True,
            fmax={k: v["achieved"] for k, v in fmax.items()},
            report=report,
            textcfg=cfg,
            utilization=util,
        )
    except subprocess.TimeoutExpired:
        out.update(routed=False, seconds=timeout)
    with open(log) as f:
        out["progress"] = progress(f.read())
    os.remove(net)  # a copy of the placement (100+ MB for the SoC): the log and report stay
    return out


def _setting(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--set takes NAME=VALUE, not {text!r}")
    return name, value


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="step", required=True)
    for name in ("place", "route"):
        s = sub.add_parser(name)
        s.add_argument(
            "netlist", help="place: a synth_ecp5 JSON; route: the placed.json of `place`"
        )
        s.add_argument("--device", default="LFE5U-85F", choices=sorted(flow_ecp5.DEVICES))
        s.add_argument("--package", default="CABGA381")
        s.add_argument("--speed", type=int, default=6)
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--lpf", help="the design's LPF (clock constraints)")
        s.add_argument("--freq", type=float, help="target MHz of every clock (no LPF)")
        s.add_argument("--timeout", type=float, help="stop after this many seconds")
        s.add_argument(
            "--out-of-context",
            action="store_true",
            help="a design without I/O (route: implied by a placement made so)",
        )
    place_args = sub.choices["place"]
    place_args.add_argument("--dir", required=True, help="where placed.json is written")
    place_args.add_argument("--placer", default="static", choices=("static", "heap"))
    # the placers' densities, passed on to nextpnr
    for option, metavar, what in (
        (
            "--placer-heap-beta",
            "DENSITY",
            "HeAP's maximum placement density (nextpnr's default 0.9; "
            "no effect on ECP5: its arch sets 0.75)",
        ),
        (
            "--placer-static-target-util",
            "UTIL",
            "the static placer's target density (default 0.7); needs "
            "a nextpnr patched with scripts/nextpnr-static-target-util.patch",
        ),
    ):
        place_args.add_argument(option, type=float, metavar=metavar, help=what)
    place_args.add_argument(
        "--no-tmdriv", action="store_true", help="place for wirelength only (nextpnr --no-tmdriv)"
    )
    r = sub.choices["route"]
    r.add_argument(
        "--set",
        type=_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a nextpnr setting for this route (router=router2, timing_driven=false)",
    )
    r.add_argument("--tag", default="route", help="name of this route's files (default route)")
    r.add_argument("--dir", help="where its files go (default: the placed netlist's directory)")
    a = p.parse_args(argv)
    kw = dict(
        device=a.device,
        package=a.package,
        speed=a.speed,
        seed=a.seed,
        lpf=a.lpf,
        freq_mhz=a.freq,
        out_of_context=a.out_of_context,
    )
    try:
        if a.step == "place":
            extra = ("--placer-heap-beta", str(a.placer_heap_beta)) if a.placer_heap_beta else ()
            extra += ("--no-tmdriv",) if a.no_tmdriv else ()
            if a.placer_static_target_util:
                extra += ("--placer-static-target-util", str(a.placer_static_target_util))
            res = place(a.netlist, a.dir, placer=a.placer, timeout=a.timeout, extra=extra, **kw)
        else:
            res = route(
                a.netlist,
                a.dir or os.path.dirname(os.path.abspath(a.netlist)),
                settings=dict(a.set),
                tag=a.tag,
                timeout=a.timeout,
                **kw,
            )
            prog = res.pop("progress")
            res["last"] = {k: v[-1] for k, v in prog.items() if v}
    except subprocess.TimeoutExpired:
        print(f"stopped after {a.timeout} s", file=sys.stderr)
        return 1
    except (ValueError, OSError, flow_ecp5.FlowError) as e:
        print(f"route_placed: {e}", file=sys.stderr)
        return 1
    print(json.dumps(res, indent=1))
    return 0 if res.get("routed", True) else 1


if __name__ == "__main__":
    sys.exit(main())
