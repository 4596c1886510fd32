# SPDX-License-Identifier: BSD-2-Clause
"""Generated text in the repository: the blocks a generator owns inside a hand-written document,
and the ``--write`` / ``--check`` pair every generator offers (the register map, the design
space, the figures).

A document marks each generated block with a pair of HTML comments, which Markdown and the
documentation site do not show::

    <!-- BEGIN GENERATED: name -->
    ...replaced by the generator...
    <!-- END GENERATED: name -->

Standard library only (the bottom layer: tools and host code both import it).
"""

import argparse
import difflib
import os
import re
import sys

BLOCK = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def block_names(text):
    """The names of the GENERATED blocks of `text`, in order."""
    return [m[1] for m in BLOCK.findall(text)]


def splice(text, blocks, where="the document"):
    """`text` with the content of each GENERATED block replaced by ``blocks[name]``. The
    document's blocks and the generator's must be the same set (ValueError otherwise), so that a
    block renamed on one side is not left stale on the other."""
    names = block_names(text)
    if sorted(names) != sorted(blocks):
        raise ValueError(
            f"{where} has GENERATED blocks {names}; the generator writes {sorted(blocks)}"
        )
    return BLOCK.sub(lambda m: m.group(1) + blocks[m.group(2)] + "\n" + m.group(4), text)


def diff(old, new, path):
    """A unified diff of a file's committed text `old` against the generated `new` ('' if same)."""
    return "".join(
        difflib.unified_diff(
            old.splitlines(True), new.splitlines(True), f"a/{path}", f"b/{path} (generated)"
        )
    )


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def diffs(outputs, root):
    """The diffs of the files `outputs` names ({path relative to `root`: generated text})
    against what `root` holds ([] when every one is up to date)."""
    return [
        d for rel, text in outputs.items() if (d := diff(_read(os.path.join(root, rel)), text, rel))
    ]


def write(outputs, root):
    """Write the files of `outputs` under `root` that differ; returns [(path, changed)]."""
    done = []
    for rel, text in outputs.items():
        path = os.path.join(root, rel)
        changed = _read(path) != text or not os.path.exists(path)
        if changed:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        done.append((path, changed))
    return done


def write_or_check(outputs, root, check, command, out_root=None):
    """The body of a generator's ``--write`` / ``--check``: write the changed files (under
    `out_root`, default `root`) and name each, or print the diffs of stale files and say which
    command regenerates them. Returns the exit status (1: ``--check`` found a stale file)."""
    if not check:
        for path, changed in write(outputs, out_root or root):
            print(f"{'wrote' if changed else 'up to date:'} {path}")
        return 0
    stale = diffs(outputs, root)
    if stale:
        sys.stdout.write("".join(stale))
        print(f"\n{len(stale)} generated file(s) out of date: run {command}", file=sys.stderr)
        return 1
    return 0


def parser(module, doc, what="the generated files"):
    """A generator's argument parser: `python -m module` with the first line of its `doc`, and
    a required choice of --write or --check (the caller adds its other options to the returned
    group); returns (parser, group)."""
    ap = argparse.ArgumentParser(prog=f"python -m {module}", description=doc.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true", help=f"regenerate {what} in place")
    g.add_argument("--check", action="store_true", help="exit 1 with a diff when one is stale")
    return ap, g
