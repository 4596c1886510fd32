# SPDX-License-Identifier: BSD-2-Clause
"""The longest paths of a placed, unrouted nextpnr-ecp5 design, estimated from the placement.

Why: nextpnr names its critical path only after routing, and a design whose routing does not
converge (the main-set four-engine ECP5 SoC) never gets one; its placement estimate ("Max
frequency for clock ...") says how long the path is, not which one it is. This reads the
placed netlist nextpnr writes with `--no-route --write placed.json` and walks every path
from a flip-flop (or block RAM) of one clock to a flip-flop of the same clock.

The delays are rough and the figure is not nextpnr's: LUT 0.24 ns, its wide-function mux
0.2-0.45, carry 0.05 a step and 0.44-0.45 in and out of a chain, clock-to-out 0.52; a net
costs `k` times nextpnr-ecp5's distance measure (3 + twice the first 5 tiles of each axis +
one per tile beyond), 0.1 ns inside one tile. With the default k the four-engine SoC's worst
sys path came out at 1.09 times nextpnr's placement estimate (37.5 against 34.5 ns): use the
ranking and the cells' names and positions, not the nanoseconds.

    python -m litedigest.soc.flows.placed_paths placed.json --clock sys_clk [--paths 3]

`--congestion` instead estimates where the placement asks most of the routing (RUDY: each
net's half-perimeter spread evenly over its bounding box, summed per tile; global clocks and
the dedicated carry and wide-mux wires left out) and which parts of the design ask it: a
placement whose hottest window is several times the die's mean is one the router will fight
over, whatever its paths.

    python -m litedigest.soc.flows.placed_paths placed.json --congestion [--window 8]
"""

import argparse
import json
import re
import sys
from collections import defaultdict

CLK_TO_Q = 0.52
SEQUENTIAL = {"TRELLIS_FF", "DP16KD", "MULT18X18D", "ALU54B", "TRELLIS_IO", "EHXPLLL", "DCCA"}
LUT_INPUTS = ("A", "B", "C", "D")


def _comb_arcs(cell, out_port):
    """(input port, delay) pairs of a TRELLIS_COMB cell's arcs to `out_port`."""
    if cell["type"] != "TRELLIS_COMB":
        return []
    mode = cell.get("parameters", {}).get("MODE", "LOGIC")
    if mode == "CCU2":
        if out_port == "FCO":
            return [("FCI", 0.05)] + [(p, 0.45) for p in LUT_INPUTS]
        return [("FCI", 0.44)] + [(p, 0.24) for p in LUT_INPUTS]
    if out_port == "F":
        return [(p, 0.24) for p in LUT_INPUTS]
    if out_port == "OFX" and mode == "LOGIC":
        return [(p, 0.45) for p in LUT_INPUTS] + [
            ("M", 0.2),
            ("FXA", 0.17),
            ("FXB", 0.17),
            ("F1", 0.2),
        ]
    return []


# inputs fed by dedicated wires inside a slice or chain: no general routing
_DEDICATED = {"FCI", "FXA", "FXB", "F1"}


class PlacedDesign:
    """A placed nextpnr-ecp5 netlist (the JSON of --write) and its timing graph."""

    def __init__(self, doc, k=0.09):
        mod = next(iter(doc["modules"].values()))
        self.cells = mod["cells"]
        self.k = k
        self.net_name = {}
        for name, net in mod["netnames"].items():
            for bit in net["bits"]:
                if isinstance(bit, int):
                    old = self.net_name.get(bit)
                    if old is None or (not net.get("hide_name") and len(name) < len(old)):
                        self.net_name[bit] = name
        self.driver = {}
        for cname, cell in self.cells.items():
            for port, bits in cell["connections"].items():
                if cell["port_directions"].get(port) == "output":
                    for bit in bits:
                        if isinstance(bit, int):
                            self.driver[bit] = (cname, port)
        self._loc = {}
        self._memo = {}

    def location(self, cname):
        if cname not in self._loc:
            m = re.match(r"X(\d+)/Y(\d+)/", self.cells[cname]["attributes"].get("NEXTPNR_BEL", ""))
            self._loc[cname] = (int(m.group(1)), int(m.group(2))) if m else None
        return self._loc[cname]

    def net_delay(self, a, b):
        la, lb = self.location(a), self.location(b)
        if la is None or lb is None:
            return 0.5
        dx, dy = abs(la[0] - lb[0]), abs(la[1] - lb[1])
        if dx == 0 and dy == 0:
            return 0.1
        return self.k * (3 + max(dx - 5, 0) + max(dy - 5, 0) + 2 * (min(dx, 5) + min(dy, 5)))

    def clock(self, cname):
        conns = self.cells[cname]["connections"]
        for port in ("CLK", "CLKA", "CLKB", "WCK"):
            bits = conns.get(port)
            if bits and isinstance(bits[0], int):
                return self.net_name.get(bits[0], "")
        return None

    def arrival(self, key, clock):
        """(latest arrival at output port key = (cell, port) of a path launched by `clock`,
        the step before it) or (None, None); iterative, so deep carry chains do not recurse."""
        memo = self._memo
        stack = [key]
        on_stack = set()
        while stack:
            node = stack[-1]
            if node in memo:
                stack.pop()
                continue
            cname, port = node
            cell = self.cells[cname]
            if cell["type"] in SEQUENTIAL:
                clk = self.clock(cname)
                memo[node] = (CLK_TO_Q, None) if clk and clock in clk else (None, None)
                stack.pop()
                continue
            preds = []
            for inp, delay in _comb_arcs(cell, port):
                for bit in cell["connections"].get(inp, []):
                    if isinstance(bit, int) and bit in self.driver:
                        preds.append((self.driver[bit], inp, delay))
            pending = [p for p, _, _ in preds if p not in memo and p not in on_stack]
            if pending and node not in on_stack:
                on_stack.add(node)
                stack.extend(pending)
                continue
            best = (None, None)
            for pred, inp, delay in preds:
                t, _ = memo.get(pred, (None, None))  # (a loop's back edge: not counted)
                if t is None:
                    continue
                t += delay + (0.0 if inp in _DEDICATED else self.net_delay(pred[0], cname))
                if best[0] is None or t > best[0]:
                    best = (t, (pred, inp))
            memo[node] = best
            on_stack.discard(node)
            stack.pop()
        return memo[key]

    def endpoints(self, clock):
        """[(arrival ns, cell, input port, driver key)] of every flip-flop input of `clock`,
        latest first."""
        out = []
        for cname, cell in self.cells.items():
            if cell["type"] != "TRELLIS_FF":
                continue
            clk = self.clock(cname)
            if not clk or clock not in clk:
                continue
            for inp in ("DI", "CE", "LSR", "M"):
                for bit in cell["connections"].get(inp, []):
                    if isinstance(bit, int) and bit in self.driver:
                        drv = self.driver[bit]
                        t, _ = self.arrival(drv, clock)
                        if t is not None:
                            out.append((t + self.net_delay(drv[0], cname), cname, inp, drv))
        out.sort(key=lambda e: -e[0])
        return out

    def path(self, key):
        """The steps [(arrival, cell, port)] of the latest path to output port `key`, first
        step first."""
        steps = []
        while key is not None:
            t, pred = self._memo[key]
            steps.append((t, key[0], key[1]))
            key = pred[0] if pred else None
        return steps[::-1]


def register_name(cname):
    """A flip-flop cell's register: Yosys names them <register>_TRELLIS_FF_Q[_<bit>]."""
    return re.sub(r"_TRELLIS_FF_Q(_\d+)?$", "", cname)


def report(design, clock, paths=3, starts=20):
    """Text: the worst `paths` paths of `clock` from different launching registers step by
    step, then the worst path of each of the first `starts` launching registers."""
    ends = design.endpoints(clock)
    if not ends:
        return f"no flip-flop of a clock named like {clock!r}"
    lines = [
        f"{len(ends)} flip-flop inputs of {clock}; the latest path {ends[0][0]:.2f} ns "
        f"(estimate, see the module docstring)"
    ]
    shown = set()  # launching registers shown (one path each: the next ones name more)
    for t, cname, inp, drv in ends:
        if len(shown) >= paths:
            break
        start = register_name(design.path(drv)[0][1])
        if start in shown:
            continue
        shown.add(start)
        lines.append(f"\n{t:6.2f} ns -> {cname}.{inp} at {design.location(cname)}")
        run = 0
        for at, step_cell, port in design.path(drv):
            if port == "FCO":
                run += 1
                continue
            if run:
                lines.append(f"         ({run} carry steps)")
                run = 0
            lines.append(f"  {at:6.2f} {str(design.location(step_cell)):10} {port:4} {step_cell}")
    lines.append("\nthe latest path from each launching register:")
    seen = {}
    for t, cname, _inp, drv in ends:
        start = register_name(design.path(drv)[0][1])
        if start not in seen:
            seen[start] = (t, register_name(cname))
            if len(seen) >= starts:
                break
    lines += [f"  {t:6.2f}  {s} -> {e}" for s, (t, e) in seen.items()]
    return "\n".join(lines)


def design_part(net_name):
    """The part of the design a net belongs to, from its name: LiteX names a submodule's
    signals soc_<module>_... or builder_<module>_..., an instance's net <instance>.<port>;
    a net Yosys named after the cells it passes (<signal>_TRELLIS_FF_Q_..._LUT4_Z...) is
    its signal's."""
    net_name = re.split(r"_(?:TRELLIS_FF|TRELLIS_COMB|LUT4|CCU2C|PFUMX|L6MUX21|DP16KD)_", net_name)[
        0
    ]
    parts = net_name.split("_")
    if parts[0] in ("soc", "builder") and len(parts) > 1:
        return "_".join(parts[:2])
    return net_name.split(".")[0].split("[")[0]


def congestion(design):
    """RUDY per tile: {(x, y): demand}, and per net (part, demand density, bounding box)."""
    pins = defaultdict(list)
    for cname, cell in design.cells.items():
        loc = design.location(cname)
        if loc is None:
            continue
        for port, bits in cell["connections"].items():
            if port in _DEDICATED or port in ("CLK", "FCO", "OFX"):
                continue
            for bit in bits:
                if isinstance(bit, int):
                    pins[bit].append(loc)
    tiles = defaultdict(float)
    nets = []
    for bit, locs in pins.items():
        name = design.net_name.get(bit, "?")
        if len(locs) < 2 or name.startswith("$glbnet$"):
            continue
        xs, ys = [p[0] for p in locs], [p[1] for p in locs]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        w, h = x1 - x0 + 1, y1 - y0 + 1
        if w == h == 1:
            continue
        density = (w + h - 2) / (w * h)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                tiles[(x, y)] += density
        nets.append((design_part(name), density, (x0, x1, y0, y1)))
    return tiles, nets


def congestion_report(design, window=8, top=5, parts=8):
    """Text: the mean demand over the tiles up to the last one used, the hottest windows
    of window x window tiles (mean demand and its ratio to the die's), and the parts of
    the design whose nets make the hottest one."""
    tiles, nets = congestion(design)
    if not tiles:
        return "no placed nets"
    xmax = max(x for x, _ in tiles) + 1
    ymax = max(y for _, y in tiles) + 1
    mean = sum(tiles.values()) / (xmax * ymax)
    wins = []
    for wx in range(0, xmax, window):
        for wy in range(0, ymax, window):
            tot = sum(
                tiles.get((x, y), 0.0)
                for x in range(wx, min(wx + window, xmax))
                for y in range(wy, min(wy + window, ymax))
            )
            area = (min(wx + window, xmax) - wx) * (min(wy + window, ymax) - wy)
            wins.append((tot / area, wx, wy))
    wins.sort(reverse=True)
    lines = [
        f"routing demand (RUDY, see the module docstring): tiles 0-{xmax - 1} x 0-{ymax - 1} "
        f"(up to the last one used), mean {mean:.1f} a tile; hottest {window} x {window} windows:"
    ]
    lines += [
        f"  x {wx}-{wx + window - 1}, y {wy}-{wy + window - 1}: {d:.1f} ({d / mean:.2f} x the mean)"
        for d, wx, wy in wins[:top]
    ]
    _, hx, hy = wins[0]
    share = defaultdict(float)
    for part, density, (x0, x1, y0, y1) in nets:
        ox = min(x1, hx + window - 1) - max(x0, hx) + 1
        oy = min(y1, hy + window - 1) - max(y0, hy) + 1
        if ox > 0 and oy > 0:
            share[part] += density * ox * oy
    total = sum(share.values()) or 1.0
    lines.append("parts of the design asking for the hottest window (share of its demand):")
    lines += [
        f"  {v / total:6.1%}  {k}" for k, v in sorted(share.items(), key=lambda kv: -kv[1])[:parts]
    ]
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("placed", help="nextpnr-ecp5 --write JSON of a placed design")
    p.add_argument("--clock", help="part of the clock net's name (e.g. sys_clk)")
    p.add_argument(
        "--congestion",
        action="store_true",
        help="the routing demand of the placement instead of its paths",
    )
    p.add_argument("--window", type=int, default=8, help="--congestion: window size in tiles")
    p.add_argument("--paths", type=int, default=3, help="paths shown step by step")
    p.add_argument("--starts", type=int, default=20, help="launching registers listed")
    p.add_argument("--k", type=float, default=0.09, help="ns per unit of nextpnr's distance")
    args = p.parse_args(argv)
    if not args.congestion and not args.clock:
        p.error("give --clock (the paths of that clock) or --congestion")
    with open(args.placed) as f:
        design = PlacedDesign(json.load(f), k=args.k)
    if args.congestion:
        print(congestion_report(design, args.window))
    else:
        print(report(design, args.clock, args.paths, args.starts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
