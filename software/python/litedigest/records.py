# SPDX-License-Identifier: BSD-2-Clause
"""Measurement records: every figure the documentation shows comes from one of these JSON files,
committed under ``records/`` (the design space's is ``bitstreams/engines.json``), written by the
command that measured it and rendered into tables by ``litedigest.measure.figures``.

A record::

    {
      "record": "soc_batch",                  # its name: records/<name>.json
      "command": "litedigest bench --backend soc --batch --record records/soc_batch.json",
      "measured": "2026-12-07T05:20:00+00:00",
      "build": {"git": "6932236", "sources": "<sha256>", "runs": [...]},
      "tools": {"python": "3.11.2", "verilator": "Verilator 5.006 ...", ...},
      "results": [ {...}, ... ]               # the command's rows, as its --json prints them
    }

``build.sources`` is ``litedigest.buildcache``'s stamp of what the figures depend on (the
gateware, the firmware and the C library, the package's measuring code); ``build.runs`` the
simulator runs (firmware image on simulator binary) the rows came from, when the simulated SoC
ran. A rerun from the same ``build`` gives the same cycle counts.
"""

import datetime
import os
import re
import shlex
import shutil
import subprocess
import sys

from litedigest import buildcache

RECORDS_DIR = "records"
# what a record's figures may depend on, besides the gateware (buildcache.gateware_sources)
_SOFTWARE_TREES = (
    ("software/firmware", (".c", ".h", ".ld", ".S", ".py", "Makefile", ".mk")),
    ("software/python/litedigest/measure", (".py",)),
    ("software/python/litedigest/_clib", (".py",)),
)
_TOOLS = {
    "verilator": ["verilator", "--version"],
    "riscv-gcc": ["riscv64-unknown-elf-gcc", "--version"],
    "gcc": ["gcc", "--version"],
    "arm-gcc": ["arm-none-eabi-gcc", "--version"],
}
_PACKAGES = ("migen", "litex", "pythondata-cpu-vexriscv")


def path(name, root=None):
    """records/<name>.json of the checkout (or of `root`)."""
    return os.path.join(root or buildcache.repo_root(), RECORDS_DIR, f"{name}.json")


def command_line(prog="litedigest", argv=None):
    """The command as a user would type it again: `prog` (e.g. "python -m litedigest.x") and
    its arguments."""
    args = sys.argv[1:] if argv is None else list(argv)
    return shlex.join([*shlex.split(prog), *args])


def _first_line(cmd):
    if shutil.which(cmd[0]) is None:
        return None
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out.splitlines()[0].strip() if out.strip() else None


def tool_versions(tools=("verilator", "riscv-gcc"), packages=_PACKAGES):
    """{tool: first line of its --version} and {package: version} of what measured: the
    Python, the named outside tools (those installed) and the Python packages (installed)."""
    out = {"python": sys.version.split()[0]}
    for t in tools:
        if (v := _first_line(_TOOLS.get(t, [t, "--version"]))) is not None:
            out[t] = v
    out.update({p: v for p, v in buildcache.package_versions(*packages).items() if v})
    return out


def git_revision(root=None):
    """The checkout's commit (short), with "-dirty" when tracked files differ from it; None
    outside a git checkout."""
    root = root or buildcache.repo_root()

    def git(*args):
        return subprocess.run(
            ["git", "-C", root, *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        rev = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return None
    return rev + ("-dirty" if dirty else "")


def source_stamp(root=None):
    """The build cache's stamp of the sources a figure depends on: the gateware, the firmware
    and the C library, the package's measuring code and binding."""
    root = root or buildcache.repo_root()
    files = list(buildcache.gateware_sources())
    for top, exts in _SOFTWARE_TREES:
        files += buildcache.source_files(os.path.join(root, top), exts)
    return buildcache.stamp({"record": 1}, sorted(set(files)))


def make(name, command, results, tools=None, runs=None):
    """A record (a dict, see the module's docstring) of `results` (a list of JSON-able rows)."""
    build = {"git": git_revision(), "sources": source_stamp()}
    if runs:
        build["runs"] = runs
    return {
        "record": name,
        "command": command,
        "measured": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "build": build,
        "tools": tool_versions() if tools is None else tools,
        "results": list(results),
    }


def name_of(file):
    """A record's name from its file name (records/soc_batch.json: soc_batch)."""
    base = os.path.basename(file)
    if not re.fullmatch(r"[a-z0-9_]+\.json", base):
        raise ValueError(
            f"a record file is named <name>.json (lower case, digits, '_'), not {base!r}"
        )
    return base[: -len(".json")]


def write(file, record):
    """Write `record` to `file` atomically (indented JSON, a final newline)."""
    buildcache.write(file, record, newline=True)
    return file


def load(name, root=None):
    """The committed record `name` (records/<name>.json); FileNotFoundError with the command
    that writes it when it is missing, ValueError when it is not a record."""
    p = path(name, root)
    doc = buildcache.load(p)
    if doc is None:
        raise FileNotFoundError(f"no record {p}: run the command that measures it")
    if not isinstance(doc, dict) or not {"command", "build", "tools", "results"} <= set(doc):
        raise ValueError(f"{p} is not a measurement record (command, build, tools, results)")
    return doc


def add_argument(parser):
    """The ``--record FILE`` option of a measuring command."""
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also write the results as a measurement record (command, build, tool versions) "
        "to FILE, e.g. records/<name>.json, from which the documentation's tables are generated",
    )


def write_if_asked(args, rows, prog, tools=None, runs=None):
    """Write `rows` as the record ``args.record`` names (nothing when it is None); `prog` is the
    command as typed (e.g. "scripts/c_library_sizes.py")."""
    if not getattr(args, "record", None):
        return None
    rec = make(name_of(args.record), command_line(prog), rows, tools=tools, runs=runs)
    write(args.record, rec)
    print(f"{prog}: wrote the record {args.record}", file=sys.stderr)
    return rec
