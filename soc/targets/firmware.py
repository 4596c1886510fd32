# SPDX-License-Identifier: BSD-2-Clause
"""The firmware steps of the targets, written once: which app a SoC boots, an app run on the
simulated SoC (the stand-in for a board that is not here), and the apps built for a board's
CPU that LiteX makes no SoC for (`BoardCPU`: arty_a7's MicroBlaze V): its LiteX-style build
directory (`write_bsp`: the subsystem's csr.h rebased to where the CPU sees it, soc.h, mem.h,
the linker's regions, variables.mak naming the CPU's BSP under software/firmware/bsp), the
toolchain libraries built once by LiteX's recipes, the app, and the checks of its ELF.

The apps (software/firmware/apps) print one `LDRESULT key=value ...` line per measurement and
one `LDCHECK name=... ok=0|1` line per check, then `LDDONE`; `demo` hashes the message whose
byte i is (7 i + 3) mod 256 with the sha256 peripheral. The gateware may not import the host
package (litedigest.measure.socdemo reads the same lines for `litedigest demo`), so the targets read
them here.
"""

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import time

from litedigest import buildcache
from litedigest import spec as specmod
from litedigest.soc.targets.builder import TargetError

DEMO_APP = "demo"
# why a build with no sha256 peripheral has no demo (arty_a7's firmware and --sim-demo)
NO_DEMO_PERIPHERAL = "the demo firmware drives the sha256 peripheral; this engine set has none"


def firmware_app(engines):
    """The app a SoC with `engines` boots: `demo` drives the sha256 peripheral, `idle` needs
    none."""
    fams = [specmod.parse(e).family for e in engines]
    return "demo" if "sha256" in fams else "idle"


def run_sim_app(engines, app, timeout=900):
    """Build the simulated SoC with `engines` (cached) and the firmware `app`, run it until it
    prints LDDONE; returns its console (lines ended by "\\n")."""
    from litedigest.soc.sim.build import build_soc
    from litedigest.soc.sim.firmware import APPS_DIR, build_firmware
    from litedigest.soc.sim.process import SimProcess

    b = build_soc(engines)
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
        fields = dict(tok.partition("=")[::2] for tok in line[len(tag) + 1 :].split())
        r = {
            k: int(v) if v.isdigit() and k not in ("hex", "digest") else v
            for k, v in fields.items()
        }
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


def run_sim_demo(board, peripherals, log=print):
    """The stand-in for a board: the same demo firmware (software/firmware/apps/demo, the same
    C library) on the simulated SoC (VexRiscv, rv32im). The demo drives the sha256 peripheral
    alone, so it runs on the standard simulated SoC that has this build's SHA-256 engine
    (run_sim_app on sim.soc_engines_for's SoC, the one the other tests build and cache), and
    the engine spec it reports must be this build's. `peripherals`: {instance: engine spec} of
    the build. Returns a report dict: ok, the engine, the SoC's engines, the records and checks
    the firmware printed."""
    from litedigest.soc.targets.sim import soc_engines_for

    if "sha256" not in peripherals:
        return {"ok": None, "skipped": NO_DEMO_PERIPHERAL}
    spec = peripherals["sha256"]
    t0 = time.monotonic()
    log(
        f"{board}: running {DEMO_APP} on the simulated SoC with "
        f"{', '.join(soc_engines_for(spec))} (the SoC's build is cached after the first run)..."
    )
    text = run_sim_app(soc_engines_for(spec), DEMO_APP)
    records, checks = demo_results(text)
    same_engine = bool(records) and all(r.get("engine") == spec for r in records)
    ok = same_engine and all(r["ok"] for r in records) and all(c["ok"] for c in checks)
    return {
        "ok": ok,
        "engine": spec,
        "soc_engines": soc_engines_for(spec),
        "records": [{k: r[k] for k in ("path", "bytes", "cycles", "ok")} for r in records],
        "checks": {c["name"]: c["ok"] for c in checks},
        "seconds": round(time.monotonic() - t0, 1),
        "note": "the demo firmware (same source, same C library) on the simulated SoC (VexRiscv, "
        "LiteX UART, its own memory map) that has this build's sha256 engine, the "
        "peripheral the demo drives: the stand-in for the board; the board's build of "
        "the same sources is `firmware`",
    }


# --- a board's CPU outside LiteX ------------------------------------------------------------------


@dataclasses.dataclass
class BoardCPU:
    """A board's CPU that LiteX makes no SoC for, next to the subsystem (arty_a7's MicroBlaze
    V): what its firmware build needs to know."""

    board: str  # the target ("arty_a7"): headers' banner, build/<board>/
    name: str  # the CPU in LiteX's terms ("microblaze_v"): variables.mak, soc.h
    human_name: str  # "MicroBlaze V"
    march: str  # the firmware's -march and -mabi
    mabi: str
    bsp_dir: str  # software/firmware/bsp/<name>: crt0, system.h, irq.h, Makefile
    memory_map: dict  # {name: (base, size)}: sram and main_ram (the linker's), mem.h's
    csr_base: int  # the subsystem's CSR window in the CPU's map
    constants: dict  # soc.h entries of the board's own (its UART, its interrupts)
    build_subdir: str  # the firmware's build directory in the target's ("mbv")

    @property
    def cpuflags(self):
        return f"-march={self.march} -mabi={self.mabi} -D__{self.name}__"


def _triple():
    from litex.soc.cores.cpu import CPU_GCC_TRIPLE_RISCV32

    for t in CPU_GCC_TRIPLE_RISCV32:
        if shutil.which(t + "-gcc"):
            return t
    return None


_BANNER = re.compile(r"^// Auto-generated by LiteX.*$", re.M)


def _write_if_changed(path, text):
    """Write `text` unless the file already holds it (keeps make's timestamps: an unchanged
    header rebuilds nothing)."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return True


def _variables_mak(cpu, build_dir, triple):
    """variables.mak of the BSP build directory: LiteX's keys (Builder._get_variables_contents)
    for a CPU LiteX does not know: its BSP as CPU_DIRECTORY."""
    from litex import get_data_mod
    from litex.soc.integration.builder import soc_directory

    sw = os.path.join(soc_directory, "software")
    pkgs = ["libc", "libcompiler_rt", "libbase"]
    v = [
        ("PACKAGES", " ".join(pkgs)),
        ("PACKAGE_DIRS", " ".join(os.path.join(sw, p) for p in pkgs)),
        ("LIBS", " ".join(pkgs)),
        ("TRIPLE", triple),
        ("CPU", cpu.name),
        ("CPUFAMILY", "riscv"),
        ("CPUFLAGS", cpu.cpuflags),
        ("CPUENDIANNESS", "little"),
        ("CLANG", "0"),
        ("CPU_DIRECTORY", cpu.bsp_dir),
        ("SOC_DIRECTORY", soc_directory),
        ("PICOLIBC_DIRECTORY", get_data_mod("software", "picolibc").data_location),
        ("PICOLIBC_FORMAT", "integer"),
        ("COMPILER_RT_DIRECTORY", get_data_mod("software", "compiler_rt").data_location),
    ]
    lines = [f"{k}={val}" for k, val in v]
    lines += [
        "export BUILDINC_DIRECTORY",
        f"BUILDINC_DIRECTORY={os.path.join(build_dir, 'software', 'include')}",
    ]
    lines += [f"{p.upper()}_DIRECTORY={os.path.join(sw, p)}" for p in pkgs]
    lines += ["LTO=0"]
    return "\n".join(lines) + "\n"


def _fix_banner(cpu, text):
    return _BANNER.sub(
        f"// Generated by `litedigest build {cpu.board}` for the {cpu.human_name}'s view "
        "of the design (LiteX's export)",
        text,
    )


_CSR_BASE_DEFAULT = "#ifndef CSR_BASE\n#define CSR_BASE 0x0L\n#endif"


def rebase_csr_header(text, base):
    """The subsystem's csr.h (LiteX's, every address `(CSR_BASE + offset)`, CSR_BASE 0 by
    default: offsets in the AXI-Lite window) with CSR_BASE = `base`, the window's address in
    the CPU's map. Raises TargetError if the header is not of that form."""
    if text.count(_CSR_BASE_DEFAULT) != 1:
        raise TargetError("the subsystem's csr.h does not define CSR_BASE 0 the way LiteX does")
    addrs = re.findall(r"^#define CSR_\w+_ADDR (.*)$", text, re.M)
    if not addrs or any(not a.startswith("(CSR_BASE + ") for a in addrs):
        raise TargetError("the subsystem's csr.h has register addresses not relative to CSR_BASE")
    return text.replace(
        _CSR_BASE_DEFAULT, f"#ifndef CSR_BASE\n#define CSR_BASE 0x{base:x}L\n#endif"
    )


def write_bsp(cpu, build_dir, facts, triple):
    """Write the LiteX-style build directory of `cpu`'s firmware into build_dir:
    software/include/generated/{csr.h, mem.h, soc.h, regions.ld, output_format.ld,
    variables.mak}. csr.h is the subsystem's (its registers, fields and accessors) with
    CSR_BASE = the window's address in the CPU's map; soc.h holds csr.json's constants
    (LiteX's load_csr_json, as Builder.add_json imports another SoC's map) with the CPU's in
    place of the subsystem's (it has none) and the board's own (cpu.constants); mem.h and
    regions.ld the CPU's memory map. All with LiteX's export functions. Returns {name: path}."""
    from litex.soc.integration import export
    from litex.soc.integration.soc import SoCRegion

    gen = os.path.join(build_dir, "software", "include", "generated")
    with open(facts["csr_h"]) as f:
        csr_h = rebase_csr_header(f.read(), cpu.csr_base)
    _, constants, _ = export.load_csr_json(facts["csr_json"])
    constants = {k: v for k, v in constants.items() if not k.startswith("CONFIG_CPU_")}
    n_irq = sum(1 for k in constants if k.endswith("_INTERRUPT"))
    constants.update(
        {
            f"CONFIG_CPU_TYPE_{cpu.name.upper()}": None,
            "CONFIG_CPU_FAMILY": "riscv",
            "CONFIG_CPU_NAME": cpu.name,
            "CONFIG_CPU_HUMAN_NAME": cpu.human_name,
            "CONFIG_CPU_NOP": "nop",
            "CONFIG_CPU_HAS_INTERRUPT": None,
            "CONFIG_CPU_INTERRUPTS": max(n_irq, 1),
            **cpu.constants,
        }
    )
    mem = {
        n: SoCRegion(origin=b, size=s, mode="rwx" if n in ("sram", "main_ram") else "rw")
        for n, (b, s) in cpu.memory_map.items()
    }
    linker = {n: mem[n] for n in ("sram", "main_ram")}
    files = {
        "csr.h": csr_h,
        "mem.h": export.get_mem_header(mem),
        "soc.h": export.get_soc_header(constants),
        "regions.ld": export.get_linker_regions(linker),
        "output_format.ld": 'OUTPUT_FORMAT("elf32-littleriscv")\n',
        "variables.mak": _variables_mak(cpu, build_dir, triple),
    }
    out = {}
    for name, text in files.items():
        path = os.path.join(gen, name)
        _write_if_changed(path, _fix_banner(cpu, text))
        out[name] = path
    return out


def _toolchain_key(cpu, triple):
    gcc = subprocess.run([triple + "-gcc", "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(cpu.bsp_dir, "Makefile"), "rb") as f:
        mk = f.read()
    blob = json.dumps(
        {
            "flags": cpu.cpuflags,
            "triple": triple,
            "gcc": gcc.splitlines()[:1],
            "versions": buildcache.package_versions(
                "litex", "pythondata-software-picolibc", "pythondata-software-compiler-rt"
            ),
            "makefile": hashlib.sha256(mk).hexdigest(),
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _make(args, cwd=None, timeout=1800):
    r = subprocess.run(
        ["make", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout
    )
    if r.returncode != 0:
        raise TargetError(
            f"make {' '.join(args)} failed:\n" + r.stdout.decode(errors="replace")[-4000:]
        )
    return r.stdout.decode(errors="replace")


def build_toolchain_libs(cpu, triple, log=print):
    """picolibc and compiler-rt for `cpu`'s flags, built once per flags/versions (LiteX's own
    recipes: meson for picolibc) under build/<board>/bsp-toolchain-<key>. Returns that
    directory."""
    d = os.path.join(
        buildcache.build_root(), cpu.board, f"bsp-toolchain-{_toolchain_key(cpu, triple)}"
    )
    os.makedirs(d, exist_ok=True)
    with buildcache.locked(d):
        done = os.path.join(d, "software", "libc", "__libc.a")
        rt = os.path.join(d, "software", "libcompiler_rt", "libcompiler_rt.a")
        if os.path.exists(done) and os.path.exists(rt):
            return d
        _write_if_changed(
            os.path.join(d, "software", "include", "generated", "variables.mak"),
            _variables_mak(cpu, d, triple),
        )
        log(
            f"{cpu.board}: building picolibc and compiler-rt "
            f"for {cpu.cpuflags} (once; LiteX's recipes) ..."
        )
        t0 = time.monotonic()
        _make(
            [
                "-f",
                os.path.join(cpu.bsp_dir, "Makefile"),
                f"BUILD_DIR={d}",
                f"-j{os.cpu_count() or 1}",
                "toolchain",
            ]
        )
        log(f"{cpu.board}: picolibc and compiler-rt built ({time.monotonic() - t0:.0f} s)")
    return d


def _tool(triple, name):
    return triple + "-" + name


def check_elf(cpu, elf, triple):
    """What the board needs of the ELF: 32-bit RISC-V, soft-float ABI, no compressed
    instructions (EF_RISCV_RVC clear, and every instruction 4 bytes), entry at the base of
    main_ram, every loaded section inside the CPU's RAM (sram or main_ram), no instruction the
    core lacks (no word objdump cannot decode as rv32im + Zicsr). Returns a dict (ok, and
    why)."""
    import struct

    with open(elf, "rb") as f:
        hdr = f.read(52)
    ei_class, e_machine = hdr[4], struct.unpack_from("<H", hdr, 18)[0]
    entry, e_flags = struct.unpack_from("<I", hdr, 24)[0], struct.unpack_from("<I", hdr, 36)[0]
    res = {
        "elf32": ei_class == 1,
        "riscv": e_machine == 243,
        "rvc": bool(e_flags & 0x1),
        "float_abi": (e_flags >> 1) & 0x3,
        "entry": f"0x{entry:08X}",
    }
    # sections: name, address, size (readelf -S -W)
    sec = subprocess.run(
        [_tool(triple, "readelf"), "-S", "-W", elf], capture_output=True, text=True, check=True
    ).stdout
    loaded, outside = {}, []
    ram = [cpu.memory_map["sram"], cpu.memory_map["main_ram"]]
    for m in re.finditer(
        r"\]\s+(\S+)\s+(PROGBITS|NOBITS)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S+)", sec
    ):
        name, addr, size, flags = m.group(1), int(m.group(3), 16), int(m.group(4), 16), m.group(5)
        if "A" not in flags or size == 0:
            continue
        loaded[name] = {"addr": f"0x{addr:08X}", "size": size}
        if not any(b <= addr and addr + size <= b + s for b, s in ram):
            outside.append(name)
    res["sections"] = loaded
    res["outside_ram"] = outside
    # instructions: objdump of the code; a 2-byte instruction or an undecodable word is fatal
    dis = subprocess.run(
        [_tool(triple, "objdump"), "-d", "-Mno-aliases", elf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    short, unknown, count = [], [], 0
    for line in dis.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)", line)
        if not m:
            continue
        count += 1
        if len(m.group(2)) != 8:
            short.append(line.strip())
        if m.group(3) in (".word", ".short", ".insn", "unimp", ".2byte", ".4byte"):
            unknown.append(line.strip())
    res["instructions"] = count
    res["compressed_instructions"] = short[:5]
    res["undecodable"] = unknown[:5]
    res["ok"] = (
        res["elf32"]
        and res["riscv"]
        and not res["rvc"]
        and res["float_abi"] == 0
        and entry == cpu.memory_map["main_ram"][0]
        and not outside
        and not short
        and not unknown
        and count > 0
    )
    return res


def build_board_firmware(cpu, out, facts, app=DEMO_APP, log=print):
    """Cross-build `app` (software/firmware/apps/<app>) for `cpu`: the BSP build directory
    <out>/<cpu.build_subdir> (write_bsp), the toolchain libraries (cached), libc/libbase, then
    the app's own Makefile exactly as for the simulated SoC (soc.sim.firmware.build_firmware).
    Returns a report dict."""
    from litedigest.soc.sim.errors import SimError
    from litedigest.soc.sim.firmware import APPS_DIR
    from litedigest.soc.sim.firmware import build_firmware as make_app

    if app == DEMO_APP and "sha256" not in facts["peripherals"]:
        return {"ok": None, "skipped": NO_DEMO_PERIPHERAL}
    triple = _triple()
    if triple is None:
        return {
            "ok": None,
            "skipped": "no RISC-V cross-compiler (riscv64-unknown-elf-gcc ...) on PATH",
        }
    if shutil.which("meson") is None or shutil.which("ninja") is None:
        return {"ok": None, "skipped": "meson/ninja not on PATH (picolibc's build)"}
    t0 = time.monotonic()
    bdir = os.path.join(out, cpu.build_subdir)
    headers = write_bsp(cpu, bdir, facts, triple)
    tdir = build_toolchain_libs(cpu, triple, log)
    with buildcache.locked(os.path.join(bdir, "software")):
        _make(
            [
                "-f",
                os.path.join(cpu.bsp_dir, "Makefile"),
                f"BUILD_DIR={bdir}",
                f"TOOLCHAIN_DIR={tdir}",
                f"-j{os.cpu_count() or 1}",
                "all",
            ]
        )
    try:
        binary = make_app(bdir, os.path.join(APPS_DIR, app))
    except SimError as e:
        raise TargetError(
            f"the {app} firmware does not build for the {cpu.human_name}: {e}"
        ) from None
    elf = os.path.splitext(binary)[0] + ".elf"
    checks = check_elf(cpu, elf, triple)
    rep = {
        "ok": checks["ok"],
        "app": app,
        "elf": elf,
        "bin": binary,
        "elf_sha256": buildcache.file_sha256(elf),
        "bin_bytes": os.path.getsize(binary),
        "march": cpu.march,
        "mabi": cpu.mabi,
        "triple": triple,
        "build_dir": bdir,
        "headers": headers,
        "toolchain_dir": tdir,
        "checks": checks,
        "seconds": round(time.monotonic() - t0, 1),
    }
    return rep
