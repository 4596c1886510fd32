# SPDX-License-Identifier: BSD-2-Clause
"""Firmware for a LiteX SoC build: build an app against it, turn an image into main RAM contents.

The one firmware builder (the simulated SoC and the board targets use it):
``build_firmware(build, app_dir)`` runs the app's Makefile (software/firmware/apps/<app>, see
app.mak) against the build's LiteX software; ``write_main_ram_init`` writes an image as the
``$readmemh`` file of a main RAM; ``load_firmware`` makes an image a simulated build's default.
"""

import os
import subprocess

from litedigest import buildcache
from litedigest.soc.sim.errors import SimError, SimTimeout

APPS_DIR = os.path.join(buildcache.repo_root(), "software", "firmware", "apps")


def build_firmware(sim_build, app_dir, timeout=900, jobs=None, extra_make_args=(), variant=None):
    """``make -C app_dir BUILD_DIR=<build dir>`` and return the path of the app's ``.bin``.

    ``sim_build``: a :class:`~litedigest.soc.sim.build.SimBuild`, or any LiteX build directory
    (a board target's). Apps follow the LiteX demo-app pattern (``include $(BUILD_DIR)/software/
    include/generated/variables.mak``). ``OUT=<build dir>/firmware/<app name>`` is also passed:
    apps that honour it keep their outputs out of the source tree. The newest ``.bin`` in OUT,
    else in app_dir, is returned. Firmware builds of one SoC build take turns (they share the
    C library the first one builds there, ``firmware/libld/libld.a``). ``variant``: a name for
    ``extra_make_args``' build, which goes to ``OUT=<build dir>/firmware/<app>-<variant>``."""
    build_dir = getattr(sim_build, "build_dir", sim_build)
    app_dir = os.path.abspath(app_dir)
    name = os.path.basename(app_dir.rstrip("/"))
    # a variant (other make arguments) builds into a directory of its own
    out = os.path.join(build_dir, "firmware", name + (f"-{variant}" if variant else ""))
    cmd = [
        "make",
        "-C",
        app_dir,
        f"BUILD_DIR={build_dir}",
        f"OUT={out}",
        f"-j{jobs or os.cpu_count() or 1}",
        *extra_make_args,
    ]
    try:
        with buildcache.locked(os.path.join(build_dir, "firmware")):
            r = subprocess.run(
                cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout
            )
    except subprocess.TimeoutExpired as e:
        raise SimTimeout(f"firmware build of {app_dir} timed out after {timeout} s") from e
    if r.returncode != 0:
        raise SimError(
            f"firmware build failed: {' '.join(cmd)}\n" + r.stdout.decode(errors="replace")[-4000:]
        )
    for d in (out, app_dir):
        pref = os.path.join(d, name + ".bin")
        if os.path.exists(pref):
            return pref
        bins = (
            [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".bin")]
            if os.path.isdir(d)
            else []
        )
        if bins:
            return max(bins, key=os.path.getmtime)
    raise SimError(f"firmware build of {app_dir} produced no .bin (looked in {out} and {app_dir})")


def _image_bytes(firmware):
    if isinstance(firmware, (bytes, bytearray, memoryview)):
        return bytes(firmware)
    with open(os.fspath(firmware), "rb") as f:
        return f.read()


def write_main_ram_init(path, image, size, row_bytes=4):
    """Write a ``$readmemh`` file for a RAM of ``size`` bytes from a binary image: one row of
    ``row_bytes`` per line (a little-endian number: memory byte 0 is the row's lowest byte),
    zero-padded to the full depth."""
    data = _image_bytes(image)
    if len(data) > size:
        raise SimError(
            f"firmware image of {len(data)} bytes does not fit in main RAM ({size} bytes)"
        )
    data = data + bytes(size - len(data))
    fmt = "%%0%dX\n" % (2 * row_bytes)
    rows = (int.from_bytes(data[i : i + row_bytes], "little") for i in range(0, size, row_bytes))
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w") as f:
        f.write("".join(fmt % r for r in rows))
    os.replace(tmp, path)


def load_firmware(sim_build, firmware):
    """Make ``firmware`` (path or bytes) the build's default main RAM image (no rebuild)."""
    write_main_ram_init(
        os.path.join(sim_build.gateware_dir, sim_build.main_ram_init),
        firmware,
        sim_build.main_ram_size,
        sim_build.main_ram_row_bytes,
    )


def app_dir(name):
    """The folder of firmware app `name` (APPS_DIR/<name>)."""
    return os.path.join(APPS_DIR, name)
