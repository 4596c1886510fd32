#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Simulated LiteDigest SoC: LiteX + VexRiscv under Verilator.

- VexRiscv (standard), sys clock 1 MHz nominal (a simulation: the wall rate is what Verilator
  manages, about 1.8 M cycles/s).
- No ROM and no BIOS: the CPU resets straight into the integrated main RAM, whose contents come
  from a ``$readmemh`` ``.init`` file that the runner rewrites per run (no Verilator rebuild for a
  firmware change, see ``litedigest.soc.sim.firmware.load_firmware``).
- Console UART on ``serial:0`` (sim module ``serial2console``: the sim's stdout/stdin).
- Host bridge: ``UARTBone`` on ``serial:1`` through ``RS232PHYModel``, exposed over TCP by the
  patched ``serial2tcp_nodelay`` sim module (``soc/sim_modules``): TCP_NODELAY, buffered TX,
  bounded RX, loopback only, port chosen per run in ``sim_config.js``.
- Main RAM is ``soc.cores.wide_ram.WideRAM``: the CPU's 32-bit port plus a port one
  64-byte row wide for the hash peripherals' DMA (round-robin arbitrated between them), so a
  pipelined engine can be fed a block every few cycles.
- ``hash_engines``: engine specs (a list, or one comma-separated string); each becomes a
  peripheral (``litedigest.soc.peripheral.add_hash_subsystem``) named after its family
  (``sha256``, ``sha1``, ``sha512``), or after the whole spec when a family appears twice.
- Faults on demand (``soc/cores/fault_inject.py``): ``dma_fault_addr``/``dma_fault_count`` make DMA
  reads of one row answer with a bus error; ``ctrl_reset`` (soc_rst) resets the whole SoC.
- The bridge serves several host connections at once (whole commands, round-robin), so
  several processes can share one simulated SoC.

Run as a script to build (used by ``litedigest.soc.sim.build.build_sim`` in a subprocess)::

    python soc/targets/sim.py --build-dir build/sim [--hash-engine sha256:base,sha1]
                              [--main-ram-size N]
"""

import json
import os
import shutil
import sys

from litedigest.soc.cores.csr_bridge import RegisteredCSRBridge
from litedigest.soc.targets import args as targs
from litedigest.soc.targets.builder import build_software, litex_builder_args, main_ram_init_file
from litex.build.generic_platform import Pins, Subsignal
from litex.build.sim.config import SimConfig
from litex.soc.cores.uart import RS232PHYModel, UARTBone
from litex.soc.integration.builder import Builder
from litex.soc.integration.soc_core import SoCCore
from litex.tools.litex_sim import SimSoC

SYS_CLK_FREQ = int(1e6)
MAIN_RAM_BASE = SoCCore.mem_map["main_ram"]
DEFAULT_MAIN_RAM_SIZE = 256 * 1024
DMA_ROW_BITS = 512  # the wide port of main RAM: one SHA-1/SHA-256 block per read
# RISC-V "j ." : the placeholder program the model is built with (the runner replaces it).
PLACEHOLDER_PROGRAM = [0x0000006F]
BRIDGE_MODULE = "serial2tcp_nodelay"
SIM_MODULES_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sim_modules")

_bridge_serial_io = [
    (
        "serial",
        1,
        Subsignal("source_valid", Pins(1)),
        Subsignal("source_ready", Pins(1)),
        Subsignal("source_data", Pins(8)),
        Subsignal("sink_valid", Pins(1)),
        Subsignal("sink_ready", Pins(1)),
        Subsignal("sink_data", Pins(8)),
    ),
]


def firmware_words(data, size):
    """Little-endian 32-bit words of ``data`` padded with zeros to ``size`` bytes."""
    if len(data) > size:
        raise ValueError(
            f"firmware image of {len(data)} bytes does not fit in {size} bytes of main RAM"
        )
    data = bytes(data) + bytes(size - len(data))
    return [int.from_bytes(data[i : i + 4], "little") for i in range(0, size, 4)]


# The standard simulated SoCs (the soc backend, the demo and the benches use them): the main one
# has the default engine of every family and the HMAC engine's two-core p1 version; the
# scheduler one the pipelines whose utilization the C scheduler is measured on (Michail et al.
# 2016's p-stage SHA pipelines, and skein512:r8:fp2:sp3 of Athanasiou et al. 2013: three modules
# of a 2-stage functional ring, 6 blocks in flight). Any other spec gets a SoC of its own.
MAIN_SOC = ("sha256:opt", "sha1:opt", "sha512:k5", "skein512:r8", "hmac-sha256:opt")
SCHED_SOC = ("sha256:opt:p4", "sha1:opt:p8", "skein512:r8:fp2:sp3")
# HMAC's measurements (apps/hmac): the paper's pipelined HMAC engine beside the plain SHA-256
# engine that HMAC runs on through its chaining-value load (Michail et al. 2012, sec. 8)
MAC_SOC = ("hmac-sha256:opt:p4", "sha256:opt")


def soc_engines_for(spec):
    """The engine list of the standard simulated SoC that serves `spec` (MAIN_SOC, SCHED_SOC),
    else a SoC of the spec's engine alone."""
    from litedigest import spec as specmod

    spec = specmod.parse(spec) if isinstance(spec, str) else spec
    for soc in (MAIN_SOC, SCHED_SOC, MAC_SOC):
        if spec.engine_name in [specmod.parse(e).engine_name for e in soc]:
            return list(soc)
    return [spec.engine_name]


def engine_list(hash_engines):
    """Engine specs (checked) from None (no engine), a list, or a comma-separated string."""
    from litedigest.spec import parse_list

    return parse_list(hash_engines)


class LiteDigestSimSoC(RegisteredCSRBridge, SimSoC):
    def __init__(
        self,
        hash_engines=None,
        main_ram_size=DEFAULT_MAIN_RAM_SIZE,
        main_ram_init=None,
        sram_size=0x2000,
        **kwargs,
    ):
        from litedigest.soc.cores.wide_ram import WideRAM

        assert main_ram_size % (DMA_ROW_BITS // 8) == 0
        if main_ram_init is None:
            main_ram_init = PLACEHOLDER_PROGRAM
        if isinstance(main_ram_init, (bytes, bytearray)):
            main_ram_init = firmware_words(main_ram_init, main_ram_size)

        SimSoC.__init__(
            self,
            cpu_type="vexriscv",
            cpu_variant="standard",
            cpu_reset_address=MAIN_RAM_BASE,
            integrated_rom_size=0,
            integrated_sram_size=sram_size,
            integrated_main_ram_size=0,  # our own, below
            uart_name="sim",
            # ident: SimSoC sets "LiteX Simulation" itself.
            **kwargs,
        )
        self.main_ram = WideRAM(
            main_ram_size, row_bits=DMA_ROW_BITS, init=main_ram_init, name="main_ram"
        )
        self.main_ram.add_as_main_ram(self, MAIN_RAM_BASE)

        # Host bridge: UARTBone on a second sim serial pad.
        self.platform.add_extension(_bridge_serial_io)
        self.uartbone_phy = RS232PHYModel(self.platform.request("serial", 1))
        self.uartbone = UARTBone(phy=self.uartbone_phy, clk_freq=SYS_CLK_FREQ)
        self.bus.add_master(name="uartbone", master=self.uartbone.wishbone)

        # Hash peripherals, their DMA masters sharing the wide port of main RAM.
        from litedigest.soc.peripheral import add_hash_subsystem

        self.hash_engines = engine_list(hash_engines)
        # between them and the RAM: the DMA fault injector (soc/cores/fault_inject.py), transparent
        # until a test programs it
        from litedigest.soc.cores.fault_inject import DMAFaultInjector, SoftReset
        from litex.soc.interconnect import wishbone

        dma_port = wishbone.Interface(data_width=DMA_ROW_BITS, address_width=32, addressing="word")
        self.hash_peripherals = add_hash_subsystem(self, self.hash_engines, dma_port=dma_port)
        self.dma_fault = DMAFaultInjector(dma_port, self.main_ram.wide, DMA_ROW_BITS // 8)
        # ctrl_reset's soc_rst resets the whole SoC, not only the CPU (a soft reset mid-job)
        self.submodules.soft_reset = SoftReset(self.crg, self.ctrl.soc_rst)
        # the DMA has a port of its own: the C driver's waits may poll the CSRs closely (they
        # take no bus slot from the DMA), so a job's or a batch's end is seen sooner (ld_hw.h
        # poll_delay; the default, 16 turns, suits a DMA on the CPU's bus)
        self.add_constant("LITEDIGEST_POLL_DELAY", 2)


def sim_config(port=0):
    """The runtime configuration the Vsim binary reads (``sim_config.js``).

    The bridge port is a placeholder here: the runner rewrites it per run."""
    cfg = SimConfig()
    cfg.add_clocker("sys_clk", freq_hz=SYS_CLK_FREQ)
    cfg.add_module("serial2console", "serial")
    cfg.add_module(BRIDGE_MODULE, ("serial", 1), args={"port": port})
    return cfg


def build(
    build_dir,
    hash_engines=None,
    main_ram_size=DEFAULT_MAIN_RAM_SIZE,
    firmware=None,
    compile_gateware=True,
    jobs=None,
    opt_level="O3",
):
    """Generate gateware, csr.json/csr.csv, software headers and libraries; compile the
    Verilator model unless ``compile_gateware`` is False. Returns the Builder."""
    build_dir = os.path.abspath(build_dir)
    init = None
    if firmware is not None:
        with open(firmware, "rb") as f:
            init = f.read()
    soc = LiteDigestSimSoC(
        hash_engines=hash_engines, main_ram_size=main_ram_size, main_ram_init=init
    )
    # With no ROM the Builder compiles no software: the libraries firmware links against are
    # built below (without the BIOS).
    builder = Builder(soc, **litex_builder_args(build_dir))
    # The patched TCP bridge module, copied into the build (the toolchain writes a
    # variables.mak next to extra modules, so they must not live in the source tree).
    mods_dir = os.path.join(build_dir, "sim_modules")
    if os.path.isdir(mods_dir):
        shutil.rmtree(mods_dir)
    shutil.copytree(
        os.path.join(SIM_MODULES_SRC, BRIDGE_MODULE), os.path.join(mods_dir, BRIDGE_MODULE)
    )

    builder.build(
        sim_config=sim_config(),
        run=False,  # we compile ourselves below and never run here
        interactive=False,
        extra_mods=[BRIDGE_MODULE],
        extra_mods_path=mods_dir,
        jobs=jobs or os.cpu_count(),
        opt_level=opt_level,
    )
    build_software(builder)

    if compile_gateware:
        import subprocess

        gw = builder.gateware_dir
        subprocess.check_call(["bash", "build_sim.sh"], cwd=gw)
    return builder


def add_arguments(p):
    p.add_argument("--build-dir", required=True)
    targs.soc_args(
        p, "engine spec(s), comma-separated", metavar=None, main_ram_default=DEFAULT_MAIN_RAM_SIZE
    )
    p.add_argument("--firmware", default=None, help="initial main RAM image (.bin)")
    p.add_argument("--no-compile-gateware", action="store_true")
    p.add_argument("--opt-level", default="O3")


def run(args):
    """Build from the command line's `args`, then write sim_build_info.json (what the runner,
    soc.sim.build, reads of the build)."""
    builder = build(
        args.build_dir,
        hash_engines=args.hash_engine,
        main_ram_size=args.main_ram_size,
        firmware=args.firmware,
        compile_gateware=not args.no_compile_gateware,
        opt_level=args.opt_level,
    )
    soc = builder.soc
    rows = soc.integrated_main_ram_size // (DMA_ROW_BITS // 8)
    info = {
        "gateware_dir": os.path.abspath(builder.gateware_dir),
        "software_dir": os.path.abspath(builder.software_dir),
        "main_ram_base": MAIN_RAM_BASE,
        "main_ram_size": args.main_ram_size,
        "main_ram_init": main_ram_init_file(builder.gateware_dir, rows),
        "hash_engines": engine_list(args.hash_engine),
        "hash_peripherals": {n: p.engine_spec for n, p in soc.hash_peripherals.items()},
        "main_ram_row_bytes": DMA_ROW_BITS // 8,
        "bridge_module": BRIDGE_MODULE,
    }
    with open(os.path.join(args.build_dir, "sim_build_info.json"), "w") as f:
        json.dump(info, f, indent=2)
    return 0


def main(argv=None):
    return targs.main("Build the LiteDigest simulated SoC", add_arguments, run, argv)


if __name__ == "__main__":
    sys.exit(main())
