# SPDX-License-Identifier: BSD-2-Clause
"""The firmware steps of the targets, written once: which app a SoC boots, and an app run on
the simulated SoC (the stand-in for a board that is not here).

The apps (software/firmware/apps) print one `LDRESULT key=value ...` line per measurement and
one `LDCHECK name=... ok=0|1` line per check, then `LDDONE`; `demo` hashes the message whose
byte i is (7 i + 3) mod 256 with the sha256 peripheral. The gateware may not import the host
package (litedigest.socdemo reads the same lines for `litedigest demo`), so the targets read
them here.
"""
import hashlib
import os
import re

from litedigest import spec as specmod
from litedigest.soc import buildcache

# why a build with no sha256 peripheral has no demo (arty_a7's firmware and --sim-demo)
NO_DEMO_PERIPHERAL = "the demo firmware drives the sha256 peripheral; this engine set has none"


def firmware_app(engines):
    """The app a SoC with `engines` boots: `demo` drives the sha256 peripheral, `idle` needs
    none."""
    fams = [specmod.parse(e).family for e in engines]
    return "demo" if "sha256" in fams else "idle"


def sim_soc_build_dir(engines):
    """build/soc/<engines>: the simulated SoC's build directory, the one the soc backend, the
    demo and the tests build and reuse."""
    names = [specmod.parse(e).engine_name for e in engines]
    return os.path.join(buildcache.build_root(), "soc",
                        "+".join(re.sub(r"[^a-z0-9]+", "-", n) for n in names))


def run_sim_app(engines, app, timeout=900):
    """Build the simulated SoC with `engines` (cached) and the firmware `app`, run it until it
    prints LDDONE; returns its console (lines ended by "\\n")."""
    from litedigest.soc.sim.build import build_sim
    from litedigest.soc.sim.firmware import APPS_DIR, build_firmware
    from litedigest.soc.sim.process import SimProcess
    b = build_sim(sim_soc_build_dir(engines), hash_engine=list(engines))
    fw = build_firmware(b, os.path.join(APPS_DIR, app))
    with SimProcess(b, firmware=fw) as sim:
        # the LiteX console UART ends lines with "\n\r"
        return sim.read_console_until("LDDONE", timeout=timeout).replace("\r", "")


def console_lines(text, tag):
    """The `<tag> key=value ...` lines of a console as dicts: numbers as ints (but `hex` and
    `digest`), `ok` as a bool."""
    out = []
    for line in text.splitlines():
        if not line.startswith(tag + " "):
            continue
        fields = dict(tok.partition("=")[::2] for tok in line[len(tag) + 1:].split())
        r = {k: int(v) if v.isdigit() and k not in ("hex", "digest") else v
             for k, v in fields.items()}
        r["ok"] = bool(r.get("ok"))
        out.append(r)
    return out


def demo_results(text):
    """The demo's measurements and checks from its console; a measurement is ok when the
    firmware says so and its digest is hashlib's of the demo's message."""
    records = console_lines(text, "LDRESULT")
    for r in records:
        msg = bytes((7 * i + 3) & 0xFF for i in range(r.get("bytes", 0)))
        r["ok"] = r["ok"] and r.get("digest") == hashlib.sha256(msg).hexdigest()
    return records, console_lines(text, "LDCHECK")
