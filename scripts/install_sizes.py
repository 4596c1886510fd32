#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Installed size of LiteDigest's base install and of each extra (pyproject.toml): builds the
wheel, installs it into fresh venvs (base; base + one extra) and measures site-packages
(apparent size of the files, MB = 10^6 bytes) minus what an empty venv already has (pip).

    scripts/install_sizes.py [--markdown] [--extras soc,flows,notebooks] [--record FILE]

Needs the package index (or pip's cache) for the dependencies."""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

from litedigest import records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def site_bytes(venv):
    (site,) = glob.glob(os.path.join(venv, "lib", "python*", "site-packages"))
    total = 0
    for dp, _, fns in os.walk(site):
        for fn in fns:
            p = os.path.join(dp, fn)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def venv_with(tmp, name, requirement):
    path = os.path.join(tmp, name)
    subprocess.run([sys.executable, "-m", "venv", path], check=True)
    if requirement:
        subprocess.run(
            [
                os.path.join(path, "bin", "python"),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                requirement,
            ],
            check=True,
        )
    return site_bytes(path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--extras", default="soc,flows,notebooks")
    records.add_argument(ap)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "build",
                "--wheel",
                "--no-isolation",
                "--outdir",
                os.path.join(tmp, "dist"),
                ROOT,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (wheel,) = glob.glob(os.path.join(tmp, "dist", "*.whl"))
        empty = venv_with(tmp, "empty", None)
        rows = [("base (`pip install litedigest`)", venv_with(tmp, "base", wheel) - empty)]
        for extra in [e for e in args.extras.split(",") if e]:
            rows.append(
                (
                    f"base + `[{extra}]`",
                    venv_with(tmp, extra, f"litedigest[{extra}] @ file://{wheel}") - empty,
                )
            )
    if args.markdown:
        print("| install | size (MB) |\n|---|---:|")
    for name, n in rows:
        print(f"| {name} | {n / 1e6:.1f} |" if args.markdown else f"{name:<40} {n / 1e6:8.1f} MB")
    records.write_if_asked(
        args,
        [{"install": name, "bytes": n} for name, n in rows],
        "scripts/install_sizes.py",
        tools=records.tool_versions(tools=(), packages=("pip", "setuptools", "build")),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
