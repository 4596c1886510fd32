# SPDX-License-Identifier: BSD-2-Clause
"""Build (or reuse) the simulated SoC: the Verilator model, its CSR map and LiteX software.

    b = build_sim("build/sim", hash_engine="sha256:opt")     # cached Verilator model

``build_sim`` runs soc/targets/sim.py in a subprocess and caches the result in its build
directory (litedigest.buildcache: a stamp of the configuration, the package versions and
the sources, and a lock per build directory).
"""

import contextlib
import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time

from litedigest import buildcache
from litedigest import progress as progressmod
from litedigest.remote.csrmap import CSRMap
from litedigest.soc.sim.errors import SimError, SimTimeout
from litedigest.soc.sim.firmware import load_firmware

SOC_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_SCRIPT = os.path.join(SOC_DIR, "targets", "sim.py")
SIM_MODULES_DIR = os.path.join(SOC_DIR, "sim_modules")
DEFAULT_MAIN_RAM_SIZE = 256 * 1024
STAMP_NAME = "litedigest_sim_stamp.json"
INFO_NAME = "sim_build_info.json"


@dataclasses.dataclass
class SimBuild:
    build_dir: str
    gateware_dir: str
    software_dir: str
    csr_json: str
    csr_csv: str
    main_ram_base: int
    main_ram_size: int
    main_ram_init: str  # file name of the main RAM $readmemh file, in gateware_dir
    hash_engine: object = None
    main_ram_row_bytes: int = 4  # bytes per line of the main RAM .init file
    hash_peripherals: dict = None  # instance name -> engine spec
    built: bool = False  # True when this call rebuilt, False on a cache hit
    build_seconds: float = 0.0

    @property
    def vsim(self):
        return os.path.join(self.gateware_dir, "obj_dir", "Vsim")

    @property
    def include_dir(self):
        return os.path.join(self.software_dir, "include")

    def csr_map(self):
        return CSRMap.from_json(self.csr_json)


def _config_stamp(hash_engine, main_ram_size):
    """Hash of everything the gateware/software build depends on (not the firmware)."""
    cfg = {
        "hash_engine": hash_engine,
        "main_ram_size": main_ram_size,
        "python": sys.version_info[:2],
    }
    cfg.update(
        buildcache.package_versions(
            "litex", "migen", "pythondata-cpu-vexriscv", "pythondata-software-picolibc"
        )
    )
    files = [
        TARGET_SCRIPT,
        os.path.join(SOC_DIR, "cores", "wide_ram.py"),
        os.path.join(SOC_DIR, "cores", "fault_inject.py"),
        buildcache.source_files(SIM_MODULES_DIR, (".c", ".h", "Makefile")),
    ]
    if hash_engine is not None:
        files.append(buildcache.gateware_sources())  # the peripherals and the engines
    return buildcache.stamp(cfg, files), cfg


def _load_build(build_dir, hash_engine, built=False, seconds=0.0):
    with open(os.path.join(build_dir, INFO_NAME)) as f:
        info = json.load(f)
    return SimBuild(
        build_dir=build_dir,
        gateware_dir=info["gateware_dir"],
        software_dir=info["software_dir"],
        csr_json=os.path.join(build_dir, "csr.json"),
        csr_csv=os.path.join(build_dir, "csr.csv"),
        main_ram_base=info["main_ram_base"],
        main_ram_size=info["main_ram_size"],
        main_ram_init=info["main_ram_init"],
        hash_engine=hash_engine,
        main_ram_row_bytes=info.get("main_ram_row_bytes", 4),
        hash_peripherals=info.get("hash_peripherals", {}),
        built=built,
        build_seconds=seconds,
    )


def build_sim(
    build_dir: str,
    hash_engine: str | list | tuple | None = None,
    firmware: str | bytes | None = None,
    main_ram_size: int = DEFAULT_MAIN_RAM_SIZE,
    rebuild: bool = False,
    timeout: float = 3600,
    verbose: bool = False,
    log=None,
) -> "SimBuild":
    """Build (or reuse) the simulated SoC in ``build_dir``; return a :class:`SimBuild`.

    Builds gateware + Verilator model (``gateware/obj_dir/Vsim``), csr.json/csr.csv, the LiteX
    software headers (``software/include/generated/{csr.h,mem.h,variables.mak}``) and libraries
    (picolibc, compiler-rt, libbase, ...) that firmware links against. The build is skipped when
    ``build_dir`` holds a model built from the same configuration and sources (a stamp file);
    ``rebuild=True`` forces it. ``firmware`` (a .bin path or bytes), when given, becomes the
    build's default main RAM image (written into the .init file; no rebuild needed).
    Concurrent callers on one build_dir are serialised with a file lock. ``log`` (a
    litedigest.progress callback) hears of a build and is told its phase while it runs.
    """
    build_dir = os.path.abspath(build_dir)
    if isinstance(hash_engine, (list, tuple)):
        hash_engine = ",".join(str(e) for e in hash_engine)
    stamp, cfg = _config_stamp(hash_engine, main_ram_size)
    stamp_file = os.path.join(build_dir, STAMP_NAME)
    with buildcache.locked(build_dir):
        cached = (
            not rebuild
            and buildcache.cached(stamp_file, stamp) is not None
            and os.path.exists(os.path.join(build_dir, INFO_NAME))
            and os.access(os.path.join(build_dir, "gateware", "obj_dir", "Vsim"), os.X_OK)
        )
        seconds = 0.0
        if not cached:
            buildcache.forget(stamp_file)
            cmd = [
                sys.executable,
                TARGET_SCRIPT,
                "--build-dir",
                build_dir,
                "--main-ram-size",
                str(main_ram_size),
            ]
            if hash_engine is not None:
                cmd += ["--hash-engine", str(hash_engine)]
            log_path = os.path.join(build_dir, "build.log")
            t0 = time.monotonic()
            if log is not None:
                log(f"SoC build in {progressmod.shown_path(build_dir)} (log: build.log)")
                progressmod.keeping(
                    log,
                    f"the unfinished SoC build in {progressmod.shown_path(build_dir)} is left "
                    "as it is; the next run starts it again",
                )
            with open(log_path, "w") as logf:
                r = _run_build(cmd, logf, verbose, timeout, log_path, build_dir, log)
            progressmod.keeping(log, None)
            seconds = time.monotonic() - t0
            if log is not None and r.returncode == 0:
                log(f"SoC build done ({progressmod.duration(seconds)})")
            if r.returncode != 0:
                tail = ""
                if not verbose:
                    with open(log_path, errors="replace") as f:
                        tail = "".join(f.readlines()[-40:])
                raise SimError(f"SoC build failed (exit {r.returncode}); log: {log_path}\n{tail}")
            buildcache.record(stamp_file, stamp, config=cfg, build_seconds=seconds)
        b = _load_build(build_dir, hash_engine, built=not cached, seconds=seconds)
        if firmware is not None:
            load_firmware(b, firmware)
        return b


# the phases of a build, in order: the target script runs LiteX (Migen, the Verilog; it writes
# gateware/build_sim.sh), builds the software libraries, then build_sim.sh runs Verilator and
# make of the C++ model in obj_dir (its log lines `verilator ...` and `make ... Vsim.mk`)
PHASES = (
    "LiteX generation (Migen, Verilog)",
    "LiteX software libraries",
    "verilating",
    "C++ compile of the model",
)


def build_phase(build_dir, log_text):
    """(phase, detail) of a running SoC build from its log (what build.log holds so far) and
    files; the detail, in the C++ compile, the model's objects compiled of its sources."""
    gw = os.path.join(build_dir, "gateware")
    phase = PHASES[1] if os.path.exists(os.path.join(gw, "build_sim.sh")) else PHASES[0]
    if "verilator " in log_text:
        phase = PHASES[2]
    if "Vsim.mk" not in log_text:
        return phase, ""
    try:
        names = os.listdir(os.path.join(gw, "obj_dir"))
    except OSError:
        names = []
    srcs = sum(n.endswith(".cpp") for n in names)
    objs = sum(n.endswith(".o") for n in names)
    return PHASES[3], f"{min(objs, srcs)}/{srcs} objects" if srcs else ""


def _run_build(cmd, logf, verbose, timeout, log_path, build_dir, log):
    """Run the target script (its own process group, killed with everything it started when
    this one stops: an error, a timeout, Ctrl-C), telling `log` the build's phase."""
    proc = subprocess.Popen(
        cmd,
        stdout=None if verbose else logf,
        stderr=subprocess.STDOUT if not verbose else None,
        cwd=buildcache.repo_root(),
        start_new_session=True,
    )
    t0 = time.monotonic()
    said, seen = None, b""
    try:
        while True:
            try:
                proc.wait(timeout=1.0)
                return proc
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() - t0 > timeout:
                raise SimTimeout(f"SoC build timed out after {timeout} s (log: {log_path})")
            if log is None:
                continue
            with contextlib.suppress(OSError), open(log_path, "rb") as f:
                f.seek(len(seen))
                seen += f.read()
            text = seen.decode(errors="replace")
            phase, detail = build_phase(build_dir, text)
            if phase != said:
                said = phase
                log(f"SoC build: {phase}")
            whole = f"the build so far {progressmod.clock(time.monotonic() - t0)}"
            progressmod.status(log, f"{detail}, {whole}" if detail else whole)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def soc_build_dir(engines):
    """build/soc/<engines>: one cached build per list of engine specs (the soc backend, the
    demo, the benches and the tests share it)."""
    from litedigest import spec as specmod

    names = [specmod.parse(e).engine_name if isinstance(e, str) else e.engine_name for e in engines]
    return os.path.join(
        buildcache.build_root(), "soc", "+".join(re.sub(r"[^a-z0-9]+", "-", n) for n in names)
    )


def build_soc(engines, log=None):
    """Build (or reuse) the simulated SoC with `engines` under soc_build_dir(engines)."""
    return build_sim(soc_build_dir(engines), hash_engine=list(engines), log=log)
