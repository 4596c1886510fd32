# SPDX-License-Identifier: BSD-2-Clause
"""The one build cache: where builds go, what a build depends on, who may build it now.

Every cached build (the simulated SoC, the board targets, the per-engine design space, the
Verilator engine libraries) uses these pieces:

- ``build_root()``: ``$LITEDIGEST_BUILD``, else ``<repo>/build`` (git-ignored);
- ``stamp(config, sources, tools)``: a hash of a configuration dict, tool/package versions and
  the contents (and repository paths) of source files; ``source_files()`` lists a tree's files,
  ``engine_sources()`` / ``gateware_sources()`` the Python an engine / a SoC is made of;
- ``locked(build_dir)``: an exclusive lock per build directory (concurrent builders of one
  directory, e.g. pytest-xdist workers, run one after the other);
- ``cached(path, stamp)`` / ``record(path, stamp, **info)``: the record (a JSON file) that says a
  build was made from ``stamp``; ``forget(path)`` drops it before a rebuild.

Standard library only: gateware and host code both import it (``litedigest.paths`` re-exports
the two roots).
"""

import contextlib
import fcntl
import hashlib
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SPEC_FILE = os.path.join(HERE, "spec.py")
LOCK_NAME = ".lock"
# What ip/ and soc/ hold besides the hardware description: the build and run infrastructure
# (a new subpackage of either is taken for gateware until it is listed here)
_NOT_GATEWARE = tuple(
    os.path.join(REPO_ROOT, p)
    for p in ("ip/rtlsim", "soc/targets", "soc/flows", "soc/sim", "soc/sim_modules", "soc/formal")
)


def repo_root():
    """The repository (an editable install of it)."""
    return REPO_ROOT


def build_root():
    """Build outputs (git-ignored): $LITEDIGEST_BUILD, else <repo>/build."""
    return os.environ.get("LITEDIGEST_BUILD") or os.path.join(repo_root(), "build")


def source_files(root, exts=(".py",), skip=("__pycache__", "build")):
    """The files under ``root`` (a directory, walked in sorted order, or a single file) whose
    names end with one of ``exts``; directories named in ``skip`` are not entered."""
    if os.path.isfile(root):
        return [root]
    out = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if d not in skip)
        out += [os.path.join(dp, fn) for fn in sorted(fns) if fn.endswith(tuple(exts))]
    return out


def _described(top):
    return [
        f
        for f in source_files(os.path.join(REPO_ROOT, top))
        if not any(f == p or f.startswith(p + os.sep) for p in _NOT_GATEWARE)
    ]


def engine_sources():
    """The Python a bare engine's Verilog is made of: ip/ (without the Verilator runner) and
    the engine catalogue (litedigest.spec)."""
    return _described("ip") + [SPEC_FILE]


def gateware_sources():
    """The Python a SoC's hardware is made of: engine_sources() and soc/ without the build
    infrastructure (targets, flows and dse, the simulator runner, the formal harnesses). A
    target adds its own file."""
    return engine_sources() + _described("soc")


def _flat(entries):
    for e in entries:
        if isinstance(e, (list, tuple)):
            yield from _flat(e)
        else:
            yield e


def package_versions(*dists):
    """{distribution: version or None} of installed Python distributions."""
    from importlib import metadata

    out = {}
    for d in dists:
        try:
            out[d] = metadata.version(d)
        except metadata.PackageNotFoundError:
            out[d] = None
    return out


def text_sha256(text):
    """Hex SHA-256 of a text (UTF-8)."""
    return hashlib.sha256(text.encode()).hexdigest()


def file_sha256(path):
    """Hex SHA-256 of a file's contents."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# A source file's license line (LICENSE) is not what a build is made of: it is left out of the
# hash, so that naming the license kept the stamps of records measured before (engines.json's
# hours of place and route among them).
_LICENSE_LINE = re.compile(rb"^[^\n]*SPDX-License-Identifier:[^\n]*\n", re.M)


def source_sha256(path):
    """Hex SHA-256 of a source file's contents without its SPDX license line."""
    with open(path, "rb") as f:
        return hashlib.sha256(_LICENSE_LINE.sub(b"", f.read(), count=1)).hexdigest()


def stamp(config, sources=(), tools=None):
    """Hex hash of ``config`` and ``tools`` (JSON-able dicts) and of each source file's path
    (relative to the repository) and contents (``source_sha256``). ``sources``: files, or lists
    of them."""
    h = hashlib.sha256(json.dumps({"config": config, "tools": tools}, sort_keys=True).encode())
    for f in _flat(sources):
        h.update(os.path.relpath(f, REPO_ROOT).encode() + b"\0" + bytes.fromhex(source_sha256(f)))
    return h.hexdigest()


@contextlib.contextmanager
def locked(build_dir, wait=True):
    """Hold the exclusive lock of ``build_dir`` (created when missing). With ``wait=False``,
    yield None at once when another process holds it."""
    os.makedirs(build_dir, exist_ok=True)
    with open(os.path.join(build_dir, LOCK_NAME), "w") as lf:
        try:
            fcntl.flock(lf, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield None
            return
        try:
            yield build_dir
        finally:
            fcntl.flock(lf, fcntl.LOCK_UN)


def load(path):
    """The JSON document at ``path``, or None when it is missing or unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write(path, doc, newline=False):
    """Write ``doc`` as JSON to ``path`` atomically (a reader sees the old or the new file)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=2)
        if newline:
            f.write("\n")
    os.replace(tmp, path)


def cached(path, stamp_value):
    """The build record at ``path`` when it was made from ``stamp_value``, else None."""
    rec = load(path)
    return rec if isinstance(rec, dict) and rec.get("stamp") == stamp_value else None


def record(path, stamp_value, **info):
    """Record that the build ``path`` describes was made from ``stamp_value``; returns the
    record (``info`` is stored with it)."""
    rec = dict(stamp=stamp_value, **info)
    write(path, rec)
    return rec


def forget(path):
    """Drop a build record (before rebuilding what it describes)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
