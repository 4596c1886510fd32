#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""LiteDigest SoC on an ECP5 board, built with the open flow (Yosys, nextpnr-ecp5, ecppack).

Board: the Radiona ULX3S (litex-boards ``radiona_ulx3s`` platform) with the LFE5U-85F
(``LFE5U-85F-6BG381C``: CABGA381, speed grade 6). Why this board: it is the common open ECP5
board that exists with the 85F (83,640 LUT4, 208 EBR), it is loaded over its USB port with
openFPGALoader or ujprog (no vendor cable), and its FT231X USB-serial is the console UART.

The SoC (like the simulated one, soc/targets/sim.py):
- VexRiscv (standard), sys clock from the ECP5 PLL on the 25 MHz oscillator (``--sys-clk-freq``,
  default 50 MHz), reset on the PWR button;
- console UART on the board's USB-serial (``serial``, 115200 baud);
- no ROM, no BIOS: the CPU resets into the integrated main RAM (``soc.cores.wide_ram.WideRAM`` in
  block RAM: the CPU's 32-bit port and a read port of ``--dma-row-bits`` (default 128) for the
  hash peripherals' DMA),
  whose initial contents are the firmware built for this SoC (``software/firmware/apps/demo``
  when the SoC has a SHA-256 engine, else ``idle``), so the board runs it from configuration;
- one hash peripheral per engine spec (``add_hash_subsystem``), any spec the engine factory
  knows (engines added later need no change here).

Build: ``litedigest build ecp5 [--hash-engine a,b,c] [--seeds 1,2,3]`` (or run this file). Outputs
under ``build/ecp5/<board>/<engines>/``: gateware (Verilog, LPF), software (headers, libraries),
the firmware, yosys/nextpnr logs and reports, ``<top>.bit``, ``summary.json``; a stamp of the
configuration and sources makes a rerun with nothing changed instant. ``--bitstreams-dir``
(default ``bitstreams/ecp5``) receives the manifest (and the bitstream when it is small enough).
"""

import os
import shutil
import statistics
import sys
import time

from litedigest import buildcache
from litedigest.soc.flows.dse import DEFAULT_PLACER, check_placer_build, placer_args, placer_type
from litedigest.soc.targets import args as targs
from litedigest.soc.targets import builder
from litedigest.soc.targets import firmware as target_firmware
from litedigest.soc.targets.builder import build_software, litex_builder_args
from litedigest.soc.targets.firmware import firmware_app

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

MAIN_RAM_BASE = 0x40000000
DEFAULT_MAIN_RAM_SIZE = 64 * 1024
# Width of the main RAM's DMA read port (the peripherals' DMA rows): any power of two from 32
# bits up to a block; the peripheral assembles a block from block_bits / row_bits rows. 128 bits
# (4 rows per 512-bit block, about 2 cycles each) keeps every default engine fed (the fastest,
# skein512:r8, takes a block per 10 cycles) at 14% fewer LUTs than 512-bit rows for sha256:opt
# (8,843 vs 10,249 LUT4).
DEFAULT_DMA_ROW_BITS = 128
DEFAULT_SYS_CLK_MHZ = 50.0
# The default engines: the SHA-256 engine the demo firmware drives, the set that places and
# routes here (bitstreams/ecp5/manifest.json: about 15 minutes of nextpnr). The simulated main
# SoC's four engines (sim.MAIN_SOC, `--hash-engine sha256:opt,sha1:opt,sha512:k5,skein512:r8`)
# fit the 85F after synthesis, but nextpnr 0.11.1's router1 did not converge on them (190,768
# arcs, 175,000 still unrouted after 100,000 iterations); --hash-engine picks any set.
DEFAULT_ENGINES = ("sha256:opt",)
# ECP5PLL has four outputs: sys and up to three engine clocks (--engine-clock)
ENGINE_CLOCKS_MAX = 3
DEFAULT_SEEDS = (1, 2, 3)
# the bitstream goes into bitstreams/ only up to this size (ecppack --compress: the one-engine
# SoC's is about 0.6 MB, the four algorithms' SoC's about 1.1 MB)
BITSTREAM_COMMIT_LIMIT = 2 * 1024 * 1024

# Boards: litex-boards platform module, device, clock input, reset, how to load.
BOARDS = {
    "ulx3s": dict(
        platform="litex_boards.platforms.radiona_ulx3s",
        name="Radiona ULX3S",
        devices=("LFE5U-85F", "LFE5U-45F", "LFE5U-25F"),
        default_device="LFE5U-85F",
        package="CABGA381",
        speed=6,
        part_suffix="-6BG381C",
        clk="clk25",
        clk_freq=25e6,
        rst="rst",
        rst_active_low=False,
        extra_outputs={"wifi_gpio0": 1},  # keep the ESP32 from resetting the FPGA
        load="openFPGALoader --board ulx3s {bit}   (or: ujprog {bit})",
    ),
}


def engine_list(hash_engines):
    """Engine specs from None (the default set), a list, or a comma-separated string; each is
    checked (litedigest.spec.SpecError for a bad one)."""
    from litedigest.spec import parse_list

    return parse_list(hash_engines, DEFAULT_ENGINES)


def check_dma_row_bits(bits, engines=()):
    """The DMA row width: a power of two from 32 bits up to the smallest block of `engines`
    (one RAM port serves every peripheral, and a peripheral reads whole rows of a block)."""
    from litedigest import spec as specmod

    limit = min([8 * specmod.parse(e).block_size for e in engines] or [1024])
    if not isinstance(bits, int) or bits < 32 or bits & (bits - 1) or bits > limit:
        raise ValueError(
            f"DMA row width must be a power of two from 32 to {limit} bits"
            + (" (the smallest block of the engines)" if engines else "")
            + f", got {bits!r}"
        )
    return bits


def engines_tag(engines):
    from litedigest import spec as specmod

    if not engines:
        return "none"
    return "+".join(specmod.parse(e).engine_name.replace(":", "-") for e in engines)


def _platform(board, device):
    import importlib

    b = BOARDS[board]
    mod = importlib.import_module(b["platform"])
    return mod.Platform(device=device, toolchain="trellis")


def parse_engine_clocks(text, engines=()):
    """`--engine-clock` ("spec=MHz,spec=MHz", a dict, or None) -> {engine name: MHz}: engines
    clocked by a domain of their own (soc.peripheral.engine_domain). Each spec must be one of
    `engines` (when given), each frequency a number of MHz from 1 to 400, and there can be at
    most ENGINE_CLOCKS_MAX different ones (the PLL's outputs besides sys)."""
    from litedigest import spec as specmod

    if not text:
        return {}
    items = (
        text.items()
        if isinstance(text, dict)
        else [
            part.split("=", 1) if "=" in part else (part, None)
            for part in str(text).split(",")
            if part.strip()
        ]
    )
    full = [specmod.parse(e).engine_name for e in engines]
    out = {}
    for spec, mhz in items:
        name = specmod.parse(spec.strip()).engine_name
        try:
            mhz = float(mhz)
        except (TypeError, ValueError):
            raise ValueError(f"--engine-clock wants spec=MHz, got {spec}={mhz}") from None
        if not 1 <= mhz <= 400:
            raise ValueError(f"engine clock of {name}: {mhz:g} MHz is outside 1-400 MHz")
        if engines and name not in full:
            raise ValueError(
                f"--engine-clock names {name}, which is not one of the engines "
                f"({', '.join(engines)})"
            )
        if name in out:
            raise ValueError(f"--engine-clock names {name} twice")
        out[name] = mhz
    if len(set(out.values())) > ENGINE_CLOCKS_MAX:
        raise ValueError(
            f"at most {ENGINE_CLOCKS_MAX} different engine clocks (the PLL's outputs "
            f"besides sys), got {len(set(out.values()))}"
        )
    return out


def engine_domain_name(mhz):
    """The clock domain of the engines clocked at `mhz`: eng25, eng12p5, ..."""
    return "eng" + f"{mhz:g}".replace(".", "p")


def make_soc(
    board="ulx3s",
    device=None,
    hash_engines=None,
    sys_clk_freq=DEFAULT_SYS_CLK_MHZ * 1e6,
    main_ram_size=DEFAULT_MAIN_RAM_SIZE,
    main_ram_init=None,
    dma_row_bits=DEFAULT_DMA_ROW_BITS,
    engine_clocks=None,
):
    """The LiteX SoC (not built). `engine_clocks`: {spec: MHz} (parse_engine_clocks): those
    engines run in a clock domain of that frequency from the PLL (one domain per frequency),
    behind asynchronous FIFOs; the rest of their peripheral and the SoC stay in sys."""
    from litedigest.soc.cores.csr_bridge import RegisteredCSRBridge
    from litedigest.soc.cores.wide_ram import WideRAM
    from litedigest.soc.peripheral import add_hash_subsystem
    from litex.gen import LiteXModule
    from litex.soc.cores.clock import ECP5PLL
    from litex.soc.integration.soc_core import SoCCore
    from migen import ClockDomain, Signal

    class ECP5SoC(RegisteredCSRBridge, SoCCore):
        pass

    if board not in BOARDS:
        raise ValueError(f"unknown board {board!r} (known: {', '.join(BOARDS)})")
    b = BOARDS[board]
    device = device or b["default_device"]
    if device not in b["devices"]:
        raise ValueError(f"{b['name']} has no {device} version (known: {', '.join(b['devices'])})")
    engines = engine_list(hash_engines)
    check_dma_row_bits(dma_row_bits, engines)
    engine_clocks = parse_engine_clocks(engine_clocks, engines)
    if main_ram_size % (dma_row_bits // 8):
        raise ValueError(f"main RAM size must be a multiple of {dma_row_bits // 8} bytes")
    platform = _platform(board, device)

    class CRG(LiteXModule):
        def __init__(self):
            self.rst = Signal()
            self.cd_sys = ClockDomain()
            clk = platform.request(b["clk"])
            rst = platform.request(b["rst"])
            self.pll = pll = ECP5PLL()
            self.comb += pll.reset.eq((~rst if b["rst_active_low"] else rst) | self.rst)
            pll.register_clkin(clk, b["clk_freq"])
            pll.create_clkout(self.cd_sys, sys_clk_freq)
            # the engines' own domains (engine_domain_name), one PLL output each
            for mhz in sorted(set(engine_clocks.values()), reverse=True):
                cd = ClockDomain(engine_domain_name(mhz))
                setattr(self, f"cd_{cd.name}", cd)
                pll.create_clkout(cd, mhz * 1e6)
            for name, value in b["extra_outputs"].items():
                self.comb += platform.request(name).eq(value)

    if main_ram_init is None:
        main_ram_init = [0x0000006F]  # "j ." until the firmware is written into the .init file

    soc = ECP5SoC(
        platform,
        sys_clk_freq,
        ident=f"LiteDigest on {b['name']}",
        cpu_type="vexriscv",
        cpu_variant="standard",
        cpu_reset_address=MAIN_RAM_BASE,
        integrated_rom_size=0,
        integrated_sram_size=0x2000,
        integrated_main_ram_size=0,
        uart_name="serial",
    )
    soc.crg = CRG()
    soc.main_ram = WideRAM(
        main_ram_size, row_bits=dma_row_bits, init=main_ram_init, name="main_ram"
    )
    soc.main_ram.add_as_main_ram(soc, MAIN_RAM_BASE)
    soc.hash_engines = engines
    soc.engine_clocks = engine_clocks
    soc.hash_peripherals = add_hash_subsystem(
        soc,
        engines,
        dma_port=soc.main_ram.wide,
        engine_domains={e: engine_domain_name(mhz) for e, mhz in engine_clocks.items()},
    )
    for name, periph in soc.hash_peripherals.items():
        if periph.engine_spec in engine_clocks:  # the engine's clock, for software's timing
            soc.add_constant(
                f"{name.upper()}_ENGINE_CLK_FREQ", int(engine_clocks[periph.engine_spec] * 1e6)
            )
    soc.board, soc.device = board, device
    return soc


def generate(build_dir, soc):
    """LiteX: Verilog, LPF and yosys script, headers, csr.json, software libraries (no BIOS)."""
    from litex.soc.integration.builder import Builder

    builder = Builder(soc, **litex_builder_args(build_dir))
    builder.build(run=False)
    build_software(builder)
    return builder


def main_ram_init_file(gateware_dir, main_ram_size, dma_row_bits):
    """The path of the main RAM's $readmemh file (the firmware goes there)."""
    rows = main_ram_size // (dma_row_bits // 8)
    return os.path.join(gateware_dir, builder.main_ram_init_file(gateware_dir, rows))


def _sources():
    """Every source the bitstream depends on: the gateware, this target and the build steps it
    shares, the flow that runs the tools, the firmware (its builder, the apps, the C library and
    its build)."""
    from litedigest.soc.flows import ecp5 as flow_ecp5
    from litedigest.soc.flows import tools
    from litedigest.soc.sim import firmware

    fw = os.path.join(REPO_ROOT, "software", "firmware")
    exts = (".c", ".h", ".S", ".ld", ".mak", "Makefile")
    return [
        buildcache.gateware_sources(),
        os.path.abspath(__file__),
        builder.__file__,
        target_firmware.__file__,
        flow_ecp5.__file__,
        tools.__file__,
        firmware.__file__,
        buildcache.source_files(os.path.join(fw, "apps"), exts),
        buildcache.source_files(os.path.join(fw, "lib"), exts),
        os.path.join(fw, "lib", "sources.txt"),
    ]


def utilization_summary(util):
    """nextpnr bel utilization -> the figures a report shows (used, available)."""
    pick = {
        "lut4": "TRELLIS_COMB",
        "ff": "TRELLIS_FF",
        "ebr": "DP16KD",
        "dsp": "MULT18X18D",
        "io": "TRELLIS_IO",
        "pll": "EHXPLLL",
        "ramw": "TRELLIS_RAMW",
    }
    out = {}
    for k, bel in pick.items():
        if bel in util:
            out[k] = dict(used=util[bel]["used"], available=util[bel]["available"], bel=bel)
    return out


def build(args):
    """`litedigest build ecp5`: generate, synthesize, place and route (seeds), pack; write the
    summary and the bitstreams/ manifest. Returns 0 on success."""
    from litedigest.soc.flows import ecp5 as flow_ecp5
    from litedigest.spec import SpecError

    try:
        engines = engine_list(args.hash_engine)
        seeds = [int(s) for s in str(args.seeds).split(",") if s.strip()]
        if not seeds:
            raise ValueError("--seeds needs at least one seed")
        b = BOARDS[args.board]
        device = args.device or b["default_device"]
        if device not in b["devices"]:
            raise ValueError(
                f"{b['name']} has no {device} version (known: {', '.join(b['devices'])})"
            )
        check_dma_row_bits(args.dma_row_bits, engines)
        engine_clocks = parse_engine_clocks(getattr(args, "engine_clock", None), engines)
        if any(abs(mhz - args.sys_clk_freq) < 0.5 for mhz in engine_clocks.values()):
            raise ValueError("an engine clock equal to the sys clock: leave that engine in sys")
    except (SpecError, ValueError) as e:
        print(f"litedigest build ecp5: {e}", file=sys.stderr)
        return 2
    tag = engines_tag(engines)
    if args.dma_row_bits != DEFAULT_DMA_ROW_BITS:
        tag += f"-row{args.dma_row_bits}"
    if engine_clocks:
        tag += "-clk-" + "+".join(
            f"{e.replace(':', '-')}={mhz:g}" for e, mhz in engine_clocks.items()
        )
    build_dir = os.path.abspath(
        args.build_dir
        or os.path.join(
            buildcache.build_root(), "ecp5", f"{args.board}-{device.split('-')[1].lower()}", tag
        )
    )
    cfg = dict(
        board=args.board,
        device=device,
        engines=engines,
        sys_clk_mhz=args.sys_clk_freq,
        main_ram_size=args.main_ram_size,
        dma_row_bits=args.dma_row_bits,
        freq_target=args.sys_clk_freq,
        python=list(sys.version_info[:2]),
        tools=flow_ecp5.tool_versions(),
    )
    try:
        check_placer_build(args.placer, cfg["tools"].get("nextpnr"))
    except ValueError as e:
        print(f"litedigest build ecp5: {e}", file=sys.stderr)
        return 2
    if engine_clocks:  # (absent otherwise: the stamps of the builds before the option stay valid)
        cfg["engine_clocks"] = engine_clocks
    stamp = buildcache.stamp(cfg, _sources())
    step = _steps(args)
    summary_path = os.path.join(build_dir, "summary.json")
    with buildcache.locked(build_dir):
        old = None if args.rebuild else buildcache.cached(summary_path, stamp)
        if (
            old
            and [r["seed"] for r in old["pnr"]] == seeds
            and all(_same_pnr(r, args) for r in old["pnr"])
            and os.path.exists(os.path.join(build_dir, old["bitstream"]["file"]))
        ):
            summary = old
            step(f"ecp5: up to date ({build_dir})")
        else:
            keeping = getattr(step, "keeping", lambda text: None)
            keeping(
                f"the synthesis and the seeds routed so far are kept in {build_dir}; "
                "the next run resumes from them"
            )
            summary = _run_build(
                build_dir, cfg, stamp, engines, seeds, device, b, args, engine_clocks, step
            )
            keeping(None)
            buildcache.write(summary_path, summary)
    getattr(step, "close", lambda: None)()
    _print_summary(summary)
    out_dir = args.bitstreams_dir
    if out_dir is None and _is_default(args, engines, device):
        out_dir = os.path.join(REPO_ROOT, "bitstreams", "ecp5")
    if out_dir:
        write_bitstreams_dir(summary, build_dir, out_dir, cmdline=_cmdline(args))
    return 0


def _is_default(args, engines, device):
    return (
        list(engines) == list(DEFAULT_ENGINES)
        and args.board == "ulx3s"
        and device == BOARDS["ulx3s"]["default_device"]
        and args.sys_clk_freq == DEFAULT_SYS_CLK_MHZ
        and args.main_ram_size == DEFAULT_MAIN_RAM_SIZE
        and args.dma_row_bits == DEFAULT_DMA_ROW_BITS
        and args.build_dir is None
        and not getattr(args, "engine_clock", None)
    )


# The options the manifest's `generated_by` records (targs.recipe), with the values that leave
# them out: what the bitstream is made of and how it is placed and routed
RECIPE = (
    ("hash_engine", (None,)),
    ("board", ("ulx3s",)),
    ("device", (None, "")),
    ("seeds", (",".join(map(str, DEFAULT_SEEDS)),)),
    ("sys_clk_freq", (DEFAULT_SYS_CLK_MHZ,)),
    ("dma_row_bits", (DEFAULT_DMA_ROW_BITS,)),
    ("engine_clock", (None, "")),
    ("router", ("router1",)),
    ("placer", (DEFAULT_PLACER,)),
)


def _cmdline(args):
    return targs.recipe("ecp5", args, RECIPE)


def _steps(args):
    """Where the build's steps are said: the command line's progress (stderr, `litedigest build
    ecp5`), else standard output (`python -m litedigest.soc.targets.ecp5`)."""
    return getattr(args, "progress", None) or (lambda message: print(message, flush=True))


def _run_build(
    build_dir, cfg, stamp, engines, seeds, device, b, args, engine_clocks=None, step=print
):
    """Generate + firmware + synthesis (cached by the stamp in synth.json), then nextpnr per seed
    (cached per seed in pnr_seed<N>.json), then ecppack."""
    from litedigest.soc.flows import ecp5 as flow_ecp5
    from litedigest.soc.sim.firmware import APPS_DIR, build_firmware, write_main_ram_init

    times = {}
    t0 = time.monotonic()
    synth_path = os.path.join(build_dir, "synth.json")
    st = buildcache.cached(synth_path, stamp)
    if st is not None and not os.path.exists(os.path.join(st["gateware_dir"], st["top"] + ".json")):
        st = None
    if st is None:
        for fn in os.listdir(build_dir):  # per-seed results of an older synthesis
            if fn.startswith("pnr_seed"):
                os.remove(os.path.join(build_dir, fn))
        soc = make_soc(
            args.board,
            device,
            engines,
            sys_clk_freq=args.sys_clk_freq * 1e6,
            main_ram_size=args.main_ram_size,
            dma_row_bits=args.dma_row_bits,
            engine_clocks=engine_clocks,
        )
        step(f"ecp5: generating the SoC ({', '.join(engines) or 'no engines'}) in {build_dir}")
        # (named `builder`: Migen names the signals LiteX makes while building after the variable
        # the Builder goes into here, so another name renames them in the Verilog)
        builder = generate(build_dir, soc)
        gw = builder.gateware_dir
        top = soc.platform.name
        times["litex"] = round(time.monotonic() - t0, 1)

        app = firmware_app(engines)
        t1 = time.monotonic()
        fw = build_firmware(build_dir, os.path.join(APPS_DIR, app), jobs=2)
        init = main_ram_init_file(gw, args.main_ram_size, args.dma_row_bits)
        write_main_ram_init(init, fw, args.main_ram_size, args.dma_row_bits // 8)
        times["firmware"] = round(time.monotonic() - t1, 1)
        step(f"ecp5: firmware {app} ({os.path.getsize(fw)} bytes) in main RAM")

        # Yosys with LiteX's own script (synth_ecp5 ..., write_json), plus a stat of the result
        step("ecp5: yosys synth_ecp5 ...")
        with open(os.path.join(gw, f"{top}.ys")) as f:
            script = f.read()
        script += "\ntee -q -o stat.json stat -json\n"
        times["yosys"] = round(flow_ecp5.run_yosys(script, gw, log="yosys.log"), 1)
        with open(os.path.join(gw, "stat.json")) as f:
            synth = flow_ecp5.ecp5_area(flow_ecp5.parse_stat_json(f.read()))
        st = buildcache.record(
            synth_path,
            stamp,
            gateware_dir=gw,
            top=top,
            synth=synth,
            times=times,
            peripherals={n: p.engine_spec for n, p in soc.hash_peripherals.items()},
            firmware=dict(
                app=app,
                file=os.path.relpath(fw, build_dir),
                size=os.path.getsize(fw),
                sha256=buildcache.file_sha256(fw),
            ),
        )
    gw, top, synth, times = st["gateware_dir"], st["top"], st["synth"], dict(st["times"])
    step(
        f"ecp5: synthesized ({times['yosys']} s): {synth['lut4']} LUT4 + {synth['ccu2c']} CCU2C, "
        f"{synth['ff']} FF, {synth['ebr']} EBR, {synth['dsp']} DSP"
    )

    done = {}
    for seed in seeds:
        old = buildcache.load(os.path.join(build_dir, f"pnr_seed{seed}.json"))
        if (
            old
            and os.path.exists(os.path.join(gw, f"{top}_seed{seed}.config"))
            and _same_pnr(old, args)
        ):
            done[seed] = old
    todo = [sd for sd in seeds if sd not in done]
    pnr = (build_dir, gw, top, device, b, args.router, args.placer, args.sys_clk_freq)
    if (getattr(args, "jobs", 1) or 1) > 1 and len(todo) > 1:
        done.update(_seeds_on_cluster(pnr, todo, args.jobs, engine_clocks, step))
    for seed in todo:
        if seed not in done:
            done[seed] = pnr_seed(*pnr[:3], seed, *pnr[3:], engine_clocks, step)
    runs = [done[sd] for sd in seeds]
    times["nextpnr"] = [r["seconds"] for r in runs]

    # the bitstream: the seed whose worst clock is the least below (or most above) its target
    targets = {engine_domain_name(mhz): mhz for mhz in (engine_clocks or {}).values()}
    best = max(
        runs,
        key=lambda r: min(
            [(r["sys_fmax_mhz"] or 0) / args.sys_clk_freq]
            + [(r.get("domain_fmax_mhz", {}).get(d) or 0) / mhz for d, mhz in targets.items()]
        ),
    )
    bit = os.path.join(gw, f"{top}.bit")
    times["ecppack"] = round(
        flow_ecp5.ecppack(os.path.join(gw, f"{top}_seed{best['seed']}.config"), bit), 1
    )
    times["total_this_run"] = round(time.monotonic() - t0, 1)
    fmaxes = [r["sys_fmax_mhz"] for r in runs]
    domains = {}
    for mhz in sorted(set((engine_clocks or {}).values()), reverse=True):
        d = engine_domain_name(mhz)
        per_seed = [r.get("domain_fmax_mhz", {}).get(d) for r in runs]
        routed = [f for f in per_seed if f]
        domains[d] = dict(
            target_mhz=mhz,
            engines=[e for e, f in engine_clocks.items() if f == mhz],
            per_seed_mhz=per_seed,
            median_mhz=round(statistics.median(routed), 2) if routed else None,
            meets_target=bool(routed) and statistics.median(routed) >= mhz,
        )
    info = dict(
        stamp=stamp,
        board=args.board,
        board_name=b["name"],
        platform=b["platform"],
        device=device,
        part=device + b["part_suffix"],
        package=b["package"],
        speed_grade=b["speed"],
        engines=engines,
        peripherals=st["peripherals"],
        sys_clk_target_mhz=args.sys_clk_freq,
        main_ram_size=args.main_ram_size,
        dma_row_bits=args.dma_row_bits,
        firmware=st["firmware"],
        tools=cfg["tools"],
        synth=dict((k, v) for k, v in synth.items()),
        pnr=[
            dict(
                seed=r["seed"],
                sys_fmax_mhz=r["sys_fmax_mhz"],
                fmax=r["fmax"],
                seconds=r["seconds"],
                domain_fmax_mhz=r.get("domain_fmax_mhz", {}),
                router=r.get("router", "router1"),
                placer=r.get("placer", "heap"),
            )
            for r in runs
        ],
        sys_fmax_median_mhz=round(statistics.median(fmaxes), 2),
        meets_target=statistics.median(fmaxes) >= args.sys_clk_freq
        and all(d["meets_target"] for d in domains.values()),
        engine_domains=domains,
        utilization=utilization_summary(best["utilization"]),
        utilization_raw=best["utilization"],
        bitstream=dict(
            file=os.path.relpath(bit, build_dir),
            seed=best["seed"],
            compressed=True,
            size=os.path.getsize(bit),
            sha256=buildcache.file_sha256(bit),
        ),
        seconds=times,
        build_dir=build_dir,
    )
    return info


def _seeds_on_cluster(pnr, seeds, jobs, engine_clocks, step):
    """{seed: its run} of `seeds` placed and routed at once, each pnr_seed a task of a local
    Dask cluster of `jobs` workers (soc/flows/cluster.py; the build directory is this
    machine's). pnr_seed caches each seed's run as it ends, so an interrupted build keeps
    the seeds done. A seed whose task fails twice is reported and left out: the caller runs
    it again, in this process, where its error stops the build."""
    from distributed import as_completed
    from litedigest.soc.flows import cluster

    n = min(jobs, len(seeds))
    client = cluster.client_for(n)
    out = {}
    try:
        step(f"ecp5: seeds {', '.join(map(str, seeds))} on {n} Dask workers")
        which = {}
        for sd in seeds:
            f = client.submit(
                pnr_seed,
                *pnr[:3],
                sd,
                *pnr[3:],
                engine_clocks,
                cluster._quiet,
                pure=False,
                retries=cluster.RETRIES,
            )
            which[f.key] = (sd, f)
        for f in as_completed([f for _, f in which.values()]):
            sd = which[f.key][0]
            try:
                run = f.result()
            except Exception as err:  # (after its retry)
                step(f"ecp5: seed {sd} failed twice on the cluster: {type(err).__name__}: {err}")
                continue
            out[sd] = run
            step(
                f"ecp5: seed {sd}: sys clock {run['sys_fmax_mhz']} MHz routed, "
                f"{run['seconds']} s"
                + "".join(f"; {d} {v} MHz routed" for d, v in run["domain_fmax_mhz"].items())
            )
    finally:
        client.close()
        client.cluster.close()
    return out


def pnr_seed(
    build_dir, gw, top, seed, device, b, router, placer, sys_mhz, engine_clocks=None, step=print
):
    """nextpnr on the synthesized SoC with `seed`; writes and returns the seed's record
    (pnr_seed<N>.json: the build's cache, so a seed can also be run on its own, beside
    another)."""
    from litedigest.soc.flows import ecp5 as flow_ecp5

    step(f"ecp5: nextpnr-ecp5 seed {seed} (placer {placer}, {router}) ...")
    r = flow_ecp5.nextpnr_ecp5(
        os.path.join(gw, f"{top}.json"),
        gw,
        device=device,
        package=b["package"],
        speed=b["speed"],
        seed=seed,
        lpf=os.path.join(gw, f"{top}.lpf"),
        textcfg=os.path.join(gw, f"{top}_seed{seed}.config"),
        extra=("--router", router) + placer_args(placer),
    )
    clocks = _clock_nets(r["fmax"], r.get("constraint", {}), sys_mhz, engine_clocks or {})
    sysclk = clocks["sys"]
    step(
        f"ecp5: seed {seed}: sys clock {r['fmax'].get(sysclk)} MHz routed "
        f"(target {sys_mhz} MHz), {r['seconds']} s"
        + "".join(
            f"; {d} {r['fmax'].get(net)} MHz routed" for d, net in clocks.items() if d != "sys"
        )
    )
    run = dict(
        seed=seed,
        fmax=r["fmax"],
        sys_clock=sysclk,
        sys_fmax_mhz=r["fmax"].get(sysclk),
        domain_fmax_mhz={d: r["fmax"].get(net) for d, net in clocks.items() if d != "sys"},
        seconds=r["seconds"],
        utilization=r["utilization"],
        router=router,
        placer=placer,
    )
    buildcache.write(os.path.join(build_dir, f"pnr_seed{seed}.json"), run)
    return run


def _same_pnr(run, args):
    """Was this cached place-and-route run made with the options asked for now?"""
    return run.get("router", "router1") == args.router and run.get("placer", "heap") == args.placer


def _sys_clock(fmax):
    for k in fmax:
        if "sys" in k and "ps" not in k:
            return k
    return next(iter(fmax), None)


def _clock_nets(fmax, constraint, sys_mhz, engine_clocks):
    """{domain: nextpnr clock net}: nextpnr names a PLL output's net after one of its sinks
    (e.g. `$glbnet$VexRiscv.IBusCachedPlugin_cache.clk`), so with engine clocks each domain is
    the clock whose derived constraint is its frequency (they differ: build() refuses an engine
    clock equal to sys); without, the one clock (or the one named sys)."""
    if not engine_clocks or not constraint:
        return {"sys": _sys_clock(fmax)}
    want = {"sys": sys_mhz}
    want.update({engine_domain_name(mhz): mhz for mhz in engine_clocks.values()})
    return {
        d: min(constraint, key=lambda net: abs(constraint[net] - mhz)) for d, mhz in want.items()
    }


def _print_summary(s):
    print(f"ecp5: {s['board_name']} {s['part']}: engines {', '.join(s['engines']) or '-'}")
    print(
        f"  routed sys fmax (nextpnr, speed {s['speed_grade']}): "
        + ", ".join(f"seed {r['seed']} {r['sys_fmax_mhz']:.2f} MHz" for r in s["pnr"])
        + f"; median {s['sys_fmax_median_mhz']} MHz (target {s['sys_clk_target_mhz']} MHz)"
    )
    for d, v in s.get("engine_domains", {}).items():
        print(
            f"  routed {d} fmax ({', '.join(v['engines'])}): "
            + ", ".join(
                f"seed {r['seed']} {f:.2f} MHz" if f else f"seed {r['seed']} -"
                for r, f in zip(s["pnr"], v["per_seed_mhz"])
            )
            + f"; median {v['median_mhz']} MHz (target {v['target_mhz']:g} MHz)"
        )
    print(
        "  utilization: "
        + ", ".join(f"{k} {v['used']}/{v['available']}" for k, v in s["utilization"].items())
    )
    print(
        f"  bitstream: {os.path.join(s['build_dir'], s['bitstream']['file'])} "
        f"({s['bitstream']['size']} bytes, sha256 {s['bitstream']['sha256']})"
    )


def write_bitstreams_dir(summary, build_dir, out_dir, cmdline):
    """bitstreams/<board>/: manifest.json from the run, and the bitstream when small enough."""
    os.makedirs(out_dir, exist_ok=True)
    bit = os.path.join(build_dir, summary["bitstream"]["file"])
    name = f"litedigest_{summary['board']}_{summary['device'].split('-')[1].lower()}.bit"
    committed = summary["bitstream"]["size"] <= BITSTREAM_COMMIT_LIMIT
    if committed:
        shutil.copyfile(bit, os.path.join(out_dir, name))
    man = {
        "generated_by": cmdline,
        # hash of the configuration, tool versions and every source the build read (_sources):
        # a rerun with the same stamp reproduces this build, a different one means sources moved
        "source_stamp": summary["stamp"],
        "board": summary["board_name"],
        "litex_boards_platform": summary["platform"],
        "device": summary["device"],
        "part": summary["part"],
        "package": summary["package"],
        "speed_grade": summary["speed_grade"],
        "engines": summary["engines"],
        "peripherals": summary["peripherals"],
        "cpu": "VexRiscv (standard)",
        "uart": "serial (USB-serial), 115200 baud",
        "main_ram": {
            "bytes": summary["main_ram_size"],
            "base": hex(MAIN_RAM_BASE),
            "dma_row_bits": summary["dma_row_bits"],
        },
        "firmware": summary["firmware"],
        "tools": summary["tools"],
        "sys_clk_target_mhz": summary["sys_clk_target_mhz"],
        "fmax": {
            "what": "routed fmax of the sys clock, nextpnr-ecp5 --timing-allow-fail, "
            f"{summary['device']} speed {summary['speed_grade']}",
            "per_seed_mhz": {str(r["seed"]): round(r["sys_fmax_mhz"], 2) for r in summary["pnr"]},
            "router": {str(r["seed"]): r["router"] for r in summary["pnr"]},
            "placer": {str(r["seed"]): r["placer"] for r in summary["pnr"]},
            "median_mhz": summary["sys_fmax_median_mhz"],
            "meets_target": summary["meets_target"],
        },
        # engines clocked by a domain of their own (--engine-clock): each domain's routed fmax
        "engine_domains": {
            d: dict(
                v,
                per_seed_mhz={
                    str(r["seed"]): (round(f, 2) if f else None)
                    for r, f in zip(summary["pnr"], v["per_seed_mhz"])
                },
            )
            for d, v in summary.get("engine_domains", {}).items()
        },
        "utilization": summary["utilization"],
        "synth_cells": {
            k: summary["synth"][k]
            for k in ("lut4", "lut4_with_carry", "ff", "ccu2c", "dpram16", "ebr", "dsp")
        },
        "seconds": summary["seconds"],
        "bitstream": {
            "file": name,
            "in_repository": committed,
            "compressed": True,
            "from_seed": summary["bitstream"]["seed"],
            "size": summary["bitstream"]["size"],
            "sha256": summary["bitstream"]["sha256"],
        },
    }
    builder.write_manifest(man, out_dir)
    print(
        f"ecp5: wrote {os.path.join(out_dir, 'manifest.json')}"
        + (f" and {name}" if committed else " (bitstream too large to commit)")
    )
    return man


def add_arguments(p):
    targs.soc_args(
        p,
        "engine specs, comma-separated (default: " + ",".join(DEFAULT_ENGINES) + ")",
        metavar=None,
        main_ram_help="main RAM bytes (block RAM)",
        main_ram_default=DEFAULT_MAIN_RAM_SIZE,
    )
    p.add_argument(
        "--board", default="ulx3s", choices=sorted(BOARDS), help="the board (default ulx3s)"
    )
    p.add_argument("--device", default=None, help="the board's FPGA (ulx3s: LFE5U-85F, default)")
    p.add_argument(
        "--seeds",
        default=",".join(map(str, DEFAULT_SEEDS)),
        help="nextpnr seeds, comma-separated (the bitstream is from the fastest)",
    )
    p.add_argument(
        "--sys-clk-freq",
        type=float,
        default=DEFAULT_SYS_CLK_MHZ,
        help="sys clock in MHz (the PLL output and the nextpnr target)",
    )
    p.add_argument(
        "--dma-row-bits",
        type=int,
        default=DEFAULT_DMA_ROW_BITS,
        help="width of the main RAM's DMA read port in bits (power of two, 32 up to the "
        "smallest block of the engines: 512, or 1024 with only SHA-512 engines; "
        f"default {DEFAULT_DMA_ROW_BITS})",
    )
    p.add_argument(
        "--engine-clock",
        default=None,
        metavar="SPEC=MHZ[,SPEC=MHZ]",
        help="run these engines in a clock domain of that frequency (a PLL output; at "
        f"most {ENGINE_CLOCKS_MAX} different ones), behind a request/acknowledge "
        "handshake on its block and result streams: an "
        "engine that routes below the sys clock (sha512:k5, skein512:r8) then "
        "does not set the SoC's clock",
    )
    p.add_argument("--build-dir", default=None, help="default: build/ecp5/<board>-<size>/<engines>")
    p.add_argument(
        "--bitstreams-dir",
        default=None,
        help="where the manifest (and a small bitstream) go (default: bitstreams/ecp5 "
        "for the default configuration, nowhere for others; '' for nowhere)",
    )
    p.add_argument(
        "--router",
        default="router1",
        choices=("router1", "router2"),
        help="nextpnr's router (default router1, which routed the SoC with 128-bit DMA "
        "rows; router2 stopped converging on the 512-bit-row SoC)",
    )
    p.add_argument(
        "--placer",
        default=DEFAULT_PLACER,
        type=placer_type,
        help=f"nextpnr's placer (default {DEFAULT_PLACER}; static: the electrostatic "
        "placer, whose placement router1 routes where HeAP's does not converge; "
        "static@U: spread to a target density U, default 0.7, and "
        "static@U:NAME=F: besides, the cells named *NAME* at F times their "
        "area, so they alone spread (e.g. static@0.7:soc_skein512engine=1.4), "
        "both on the patched nextpnr of scripts/native_nextpnr.sh)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="place and route up to N seeds at once, as tasks of a local Dask cluster of N "
        "workers (the [cluster] extra; default 1: one after the other)",
    )
    p.add_argument("--rebuild", action="store_true", help="ignore the stamp")
    return p


def main(argv=None):
    return targs.main("Build the LiteDigest SoC for an ECP5 board", add_arguments, build, argv)


if __name__ == "__main__":
    sys.exit(main())
