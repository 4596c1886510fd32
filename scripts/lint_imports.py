# SPDX-License-Identifier: BSD-2-Clause
"""Check the package's layering with import-linter (the contracts in pyproject.toml).

The package `litedigest` is assembled from several source folders (setup.py's package map:
software/python/litedigest, ip/, soc/, tools/, notebooks/), which an editable install joins
with an import hook. import-linter finds a package's modules by walking one folder, so this
script lays the package out as one tree of links to the real files (under build/, git-ignored)
and runs `lint-imports` with that tree first on the import path. Arguments go to lint-imports (a
configuration file first, when given: pyproject.toml by default).

    .venv/bin/python scripts/lint_imports.py            # exit 0 when every contract is kept
"""

import ast
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_sets():
    """setup.py's {"BASE": {package: folder}, "CHECKOUT": {...}}, read without running it."""
    with open(os.path.join(ROOT, "setup.py")) as f:
        tree = ast.parse(f.read())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id in ("BASE", "CHECKOUT")
    }


def package_dirs():
    """{package: folder} of every package an editable install maps."""
    sets = package_sets()
    return {**sets["BASE"], **sets["CHECKOUT"]}


# the compiled cffi extension, which import-linter cannot read: an empty module stands for it
# (it imports nothing)
EXTENSIONS = ["litedigest._clib._native"]


def mirror(dest):
    """Lay every package's .py files out under `dest` as links, and an empty module for each
    compiled extension; returns `dest`."""
    shutil.rmtree(dest, ignore_errors=True)
    for pkg, folder in package_dirs().items():
        target = os.path.join(dest, *pkg.split("."))
        os.makedirs(target, exist_ok=True)
        src = os.path.join(ROOT, folder)
        for name in os.listdir(src):
            if name.endswith(".py"):
                os.symlink(os.path.join(src, name), os.path.join(target, name))
    for ext in EXTENSIONS:
        with open(os.path.join(dest, *ext.split(".")) + ".py", "w") as f:
            f.write('"""Stands for the compiled extension of the same name."""\n')
    return dest


def main(argv):
    tree = mirror(
        os.path.join(
            os.environ.get("LITEDIGEST_BUILD") or os.path.join(ROOT, "build"), "lint-imports", "src"
        )
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, os.environ.get("PYTHONPATH", "")]))
    exe = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    if not any(a.endswith(".toml") or a.endswith(".ini") or a.endswith(".cfg") for a in argv):
        argv = [os.path.join(ROOT, "pyproject.toml"), *argv]
    return subprocess.call([exe, "--no-cache", *argv], env=env, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
