# SPDX-License-Identifier: BSD-2-Clause
"""The simulated LiteDigest SoC (soc/targets/sim.py under Verilator), one module per job:

- ``build``: ``build_sim`` builds or reuses the model, ``SimBuild`` describes it;
- ``firmware``: ``build_firmware`` (also for the board targets), ``write_main_ram_init``,
  ``load_firmware``, ``app_dir``;
- ``process``: ``SimProcess``, a running model with its console and bridge;
- (the host's bus over TCP, ``UARTBoneClient``, and the register map from csr.json,
  ``CSRMap``, are litedigest.remote's: the board side uses them too);
- ``errors``: ``SimError``, ``SimTimeout``;
- ``bench``: boot/CSR/bulk rates and a small CLI (``python -m litedigest.soc.sim.bench``);
- ``migen_widths``, ``migen_compiled``: Migen's simulator with expression widths computed once
  and the design's statements compiled to Python (installed by the PYNQ subsystem model
  soc/targets/pynq_dma.py and by the tests).

    from litedigest.soc.sim.build import build_sim
    from litedigest.soc.sim.firmware import build_firmware
    from litedigest.soc.sim.process import SimProcess

    b = build_sim("build/sim")                                   # cached Verilator model
    fw = build_firmware(b, "software/firmware/apps/idle")        # -> .../idle.bin
    with SimProcess(b, firmware=fw) as sim:                      # free TCP port, own run dir
        sim.read_console_until("LDIDLE", timeout=30)
        sim.regs.ctrl_scratch.write(0xdeadbeef)
        sim.bus.write_bytes(sim.constants["main_ram_base"] + 0x20000, data)
"""
