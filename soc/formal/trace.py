# SPDX-License-Identifier: BSD-2-Clause
"""A counterexample in a few lines: the signals of a VCD trace that sby wrote, one column per
step (a minimal VCD reader, enough for yosys-smtbmc's traces)."""


def read_vcd(path):
    """{signal path: [value per step]} (values as ints; x/z read as 0)."""
    ids, changes, t, steps = {}, [], 0, []
    scope = []
    with open(path) as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "$scope":
                scope.append(tok[2])
            elif tok[0] == "$upscope":
                scope.pop()
            elif tok[0] == "$var":
                name = ".".join(scope[1:] + [tok[4]])
                ids.setdefault(tok[3], []).append(name)
            elif tok[0].startswith("#"):
                t = int(tok[0][1:])
                steps.append(t)
            elif tok[0][0] in "01xz" and len(tok) == 1:
                changes.append((t, tok[0][1:], int(tok[0][0].replace("x", "0").replace("z", "0"))))
            elif tok[0][0] == "b":
                v = tok[0][1:].replace("x", "0").replace("z", "0")
                changes.append((t, tok[1], int(v, 2) if v else 0))
    times = sorted(set(steps))
    index = {tm: i for i, tm in enumerate(times)}
    out = {}
    for tm, ident, v in changes:
        for name in ids.get(ident, []):
            out.setdefault(name, {})[index[tm]] = v
    table = {}
    for name, ch in out.items():
        row, cur = [], 0
        for i in range(len(times)):
            cur = ch.get(i, cur)
            row.append(cur)
        table[name] = row
    return table


def summary(path, signals):
    """Text table of `signals` (names or name suffixes) over the trace's steps (yosys-smtbmc
    writes two time points a step: the values of step i are at index 2i)."""
    table = read_vcd(path)
    rows = []
    for want in signals:
        hits = [n for n in table if n == want or n.endswith("." + want)]
        if not hits:
            continue
        name = min(hits, key=len)
        vals = table[name][::2]
        rows.append(f"{want:>16}: " + " ".join(f"{v:x}" for v in vals))
    return "\n".join(rows)
