# SPDX-License-Identifier: BSD-2-Clause
"""The arty_a7 target (soc/targets/arty_a7.py): the LiteDigest subsystem next to a MicroBlaze V on
the Arty A7-100T, checked as far as it can be without Vivado or the board: generation, the
register map, Verilator lint, Yosys synth_xilinx for the xc7a100t, the Vivado block-design TCL
run in tclsh with Vivado's commands stubbed (it runs; the files it adds exist; every cell it
wires exists; the buses, addresses and interrupt lines agree with csr.json and with the
firmware's memory map; the MicroBlaze V is rv32im like the firmware; the DMA reaches the DDR
and nothing else), the demo firmware cross-built for the MicroBlaze V (its headers against
csr.json, its ELF against the memory map and the ISA, the register addresses in the linked
image), and the same demo firmware run on the simulated SoC that has this target's SHA-256
engine, the stand-in for the board."""

import json
import os
import re
import subprocess

import pytest
import vivado_checks
from litedigest import spec as specmod
from litedigest.paths import repo_root
from litedigest.soc.targets import arty_a7, builder
from litedigest.soc.targets import vivado_subsystem as vs

SMARTCONNECTS = ("axi_periph", "axi_mem")  # crossbars: any slave port reaches any master port


@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    """The default engine set (arty_a7.DEFAULT_ENGINES) generated, linted, its TCL dry-run
    and the demo firmware cross-built; not synthesized (picolibc for the MicroBlaze V is
    built once and cached under build/arty_a7/)."""
    out = tmp_path_factory.mktemp("arty_a7_default")
    return vivado_checks.run_target(arty_a7, None, out, lint=True, firmware=True)


@pytest.fixture(scope="module")
def csr(default_build):
    with open(default_build["csr_json"]) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def calls(default_build):
    """The Vivado commands the block-design TCL issues, run in tclsh (builder.tcl_dry_run)."""
    c = builder.tcl_dry_run(default_build["vivado_tcl"])
    if c is None:
        pytest.fail("tclsh is not installed (Debian: tcl; scripts/setup.sh)")
    return c


def _opt(call, flag):
    return call[call.index(flag) + 1]


def _range_bytes(r):
    n, unit = int(r[:-1]), r[-1]
    return n * {"K": 1024, "M": 1024 * 1024, "G": 1024**3}[unit]


def _assigned(calls):
    """{(address space, segment): (offset, range bytes)} of the TCL's assign_bd_address calls."""
    out = {}
    for c in calls:
        if c[0] == "assign_bd_address" and "-offset" in c:
            out[(_opt(c, "-target_address_space"), c[-2] if c[-1] == "-force" else c[-1])] = (
                int(_opt(c, "-offset"), 16),
                _range_bytes(_opt(c, "-range")),
            )
    return out


def _intf_graph(calls):
    """Undirected links between interface pins (connect_bd_intf_net), plus each SmartConnect's
    internal links (every Sxx_AXI to every Mxx_AXI)."""
    edges = {}

    def link(a, b):
        edges.setdefault(a, set()).add(b)
        edges.setdefault(b, set()).add(a)

    for c in calls:
        if c[0] == "connect_bd_intf_net":
            pins = [a for a in c[1:] if "/" in a]
            for p in pins[1:]:
                link(pins[0], p)
    for sc in SMARTCONNECTS:
        ports = [p for p in edges if p.startswith(sc + "/")]
        for s in (p for p in ports if re.match(rf"{sc}/S\d\d_AXI$", p)):
            for m in (p for p in ports if re.match(rf"{sc}/M\d\d_AXI$", p)):
                link(s, m)
    return edges


def _reaches(edges, start):
    """Every pin reachable from the master port `start` going downstream: from a crossbar's
    slave port to its master ports, from a master port to what it is wired to; a slave pin
    that is not a crossbar's ends the path."""
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        cell = p.split("/")[0]
        if cell in SMARTCONNECTS:
            inside = bool(re.search(r"/S\d\d_AXI$", p))
            nxt = [q for q in edges.get(p, ()) if (q.split("/")[0] == cell) == inside]
        else:
            nxt = edges.get(p, ()) if p == start else ()
        for q in nxt:
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def _config(call):
    """{name: value} of a `set_property -dict [list CONFIG.NAME {value} ...]` call."""
    return dict(re.findall(r"CONFIG\.(\w+) \{?([^\s{}]*)\}?", " ".join(call)))


def _props(calls, cell):
    """The CONFIG values the TCL sets on `cell` (all its set_property -dict calls)."""
    out = {}
    for c in calls:
        if c[0] == "set_property" and c[1] == "-dict" and c[-1] == cell:
            out.update(_config(c))
    return out


# --- generation, register map -----------------------------------------------------------------


def test_default_engines_every_family_once(default_build):
    """The documented default: every family once (the simulated main SoC's engines without its
    HMAC engine, which would leave too little of the xc7a100t for the rest of the design)."""
    assert (
        default_build["engines"]
        == list(arty_a7.DEFAULT_ENGINES)
        == ["sha256:opt", "sha1:opt", "sha512:k5", "skein512:r8"]
    )
    names = [specmod.instance_name(e, arty_a7.DEFAULT_ENGINES) for e in arty_a7.DEFAULT_ENGINES]
    assert list(default_build["peripherals"]) == names
    assert default_build["board"] == "arty_a7" and default_build["device"] == "xc7a100tcsg324-1"


def test_csr_map_at_axi_lite_offsets_and_ddr_window(default_build, csr):
    vivado_checks.check_csr_map(default_build, csr, arty_a7)
    assert (arty_a7.DDR_BASE, arty_a7.DDR_SIZE) == (0x80000000, 256 * 1024 * 1024)
    assert csr["constants"]["litedigest_board"] == "arty_a7"
    assert csr["constants"]["config_clock_frequency"] == arty_a7.CLOCK_HZ == 100_000_000


def test_verilog_ports(default_build):
    v = vivado_checks.check_subsystem_ports(default_build, arty_a7)
    assert "ASSOCIATED_BUSIF s_axi:m_axi, ASSOCIATED_RESET rst_n, FREQ_HZ 100000000" in v


def test_lint_passes(default_build):
    lint = default_build["lint"]
    if lint.get("ok") is None:
        pytest.skip(lint["skipped"])
    assert lint["ok"] and lint["errors"] == 0


# --- the block design, run in tclsh -------------------------------------------------------------


def test_vivado_tcl_runs_and_adds_existing_files(default_build, calls):
    assert default_build["tcl_dry_run"]["ok"] is True  # the build ran it too
    added = vivado_checks.check_tcl_runs_and_adds_files(
        calls, ("validate_bd_design", "write_hw_platform")
    )
    (proj,) = [c for c in calls if c[0] == "create_project"]
    assert _opt(proj, "-part") == "xc7a100tcsg324-1"
    assert ["set_property", "board_part", arty_a7.BOARD_PART] == [
        a for a in next(c for c in calls if c[:2] == ["set_property", "board_part"]) if a
    ]
    assert any(a.endswith("litedigest_subsystem.v") for a in added)
    copies = [c for c in calls if c[:2] == ["file", "copy"]]
    assert any(c[-1].endswith("/litedigest.bit") for c in copies)
    (xsa,) = [c for c in calls if c[0] == "write_hw_platform"]
    assert _opt(xsa, "-file").endswith("/litedigest.xsa")


def test_vivado_tcl_needs_the_board_files(default_build):
    with pytest.raises(builder.TclDryRunError, match="board files"):
        builder.tcl_dry_run(default_build["vivado_tcl"], board_files=False)


def test_every_wired_cell_exists_before_use(calls):
    """Every pin, interface, address segment and automation target the TCL names belongs to a
    cell created earlier in the script (Vivado fails on a pin of a cell not yet made)."""
    created = set()
    for c in calls:
        if c[0] == "create_bd_cell":
            created.add(c[-1])
            continue
        if c[0] in (
            "connect_bd_net",
            "connect_bd_intf_net",
            "apply_bd_automation",
            "apply_board_connection",
            "assign_bd_address",
        ):
            args = c[1:]
            if c[0] == "apply_bd_automation":
                args = [args[-1]]  # the -config text names board interfaces
            for a in args:
                if "/" in a and not a.startswith(("-", "/", "xilinx.com")):
                    assert a.split("/")[0] in created, (a, c)


def test_microblaze_v_is_rv32im_like_the_firmware(default_build, calls):
    cells = {c[-1]: c for c in calls if c[0] == "create_bd_cell"}
    assert "xilinx.com:ip:microblaze_riscv:1.0" in cells["microblaze_riscv_0"]
    assert "xilinx.com:ip:mdm_riscv:1.0" in cells["mdm_1"]
    assert "xilinx.com:ip:mig_7series:4.2" in cells["mig_7series_0"]
    assert "xilinx.com:ip:axi_uartlite:2.0" in cells["axi_uartlite_0"]
    assert "xilinx.com:ip:axi_intc:4.1" in cells["axi_intc_0"]
    conf = _props(calls, "microblaze_riscv_0")
    assert conf["C_USE_MULDIV"] == "1" and conf["C_USE_COMPRESSION"] == "0"  # M, no C
    assert conf["C_USE_ATOMIC"] == "0" and conf["C_USE_FPU"] == "0"
    assert conf["C_USE_DCACHE"] == "0" and conf["C_USE_ICACHE"] == "1"
    assert _props(calls, "axi_uartlite_0")["C_BAUDRATE"] == str(arty_a7.UART_BAUD)
    assert int(conf["C_ICACHE_BASEADDR"], 16) == arty_a7.DDR_BASE
    assert int(conf["C_ICACHE_HIGHADDR"], 16) == arty_a7.DDR_BASE + arty_a7.DDR_SIZE - 1
    # the ISA the firmware is compiled for is the C library's rv32 build: rv32im
    with open(default_build["firmware"]["headers"]["variables.mak"]) as f:
        flags = re.search(r"^CPUFLAGS=(.*)$", f.read(), re.M).group(1)
    with open(os.path.join(repo_root(), "software", "firmware", "Makefile")) as f:
        clib = re.search(r"^CROSS_FLAGS \?= (.*)$", f.read(), re.M).group(1)
    march = re.search(r"-march=(\S+)", flags).group(1)
    assert march.split("_")[0] == re.search(r"-march=(\S+)", clib).group(1) == "rv32im"
    assert "-mabi=ilp32" in flags and "-mabi=ilp32" in clib
    # the DDR through the MIG with Digilent's board preset; the UART on the board's USB-UART
    assert [
        "apply_board_connection",
        "-board_interface",
        "ddr3_sdram",
        "-ip_intf",
        "mig_7series_0/mig_ddr_interface",
        "-diagram",
        "litedigest",
    ] in calls
    assert any(c[0] == "apply_board_connection" and "usb_uart" in c for c in calls)


def test_buses_dma_reaches_ddr_only(calls):
    """The CPU's data port reaches the CSR window, the UART, the interrupt controller and the
    DDR; its instruction cache the DDR; the subsystem's DMA master the DDR and nothing else."""
    edges = _intf_graph(calls)
    cpu = _reaches(edges, "microblaze_riscv_0/M_AXI_DP")
    for slave in (
        "litedigest_0/s_axi",
        "axi_uartlite_0/S_AXI",
        "axi_intc_0/s_axi",
        "mig_7series_0/S_AXI",
    ):
        assert slave in cpu, slave
    assert "mig_7series_0/S_AXI" in _reaches(edges, "microblaze_riscv_0/M_AXI_IC")
    dma = _reaches(edges, "litedigest_0/m_axi")
    slaves = {p for p in dma if p.split("/")[0] not in SMARTCONNECTS and p != "litedigest_0/m_axi"}
    assert slaves == {"mig_7series_0/S_AXI"}, slaves
    assert ["connect_bd_intf_net", "axi_intc_0/interrupt", "microblaze_riscv_0/INTERRUPT"] in calls


def test_addresses_agree_with_csr_json_and_the_firmware(default_build, csr, calls):
    a = _assigned(calls)
    data, dma = "microblaze_riscv_0/Data", "litedigest_0/m_axi"
    # the CSR window: where the firmware's csr.h puts CSR_BASE; 64 KiB, every register inside
    base, size = a[(data, "litedigest_0/s_axi/reg0")]
    assert base == arty_a7.CSR_WINDOW_BASE and size == 1 << arty_a7.AXIL_ADDRESS_WIDTH
    top = max(r["addr"] + 4 * r["size"] for r in csr["csr_registers"].values())
    assert top <= size
    # the DDR: csr.json's main_ram for the DMA (the peripherals check DMA ranges against it),
    # the same addresses for the CPU (a pointer is a DMA address) and its instruction cache
    ram = csr["memories"]["main_ram"]
    for space in (dma, data, "microblaze_riscv_0/Instruction"):
        assert a[(space, "mig_7series_0/memmap/memaddr")] == (ram["base"], ram["size"]), space
    assert [k for k in a if k[0] == dma] == [(dma, "mig_7series_0/memmap/memaddr")]
    # the firmware's memory map (mem.h, regions.ld, soc.h) is the block design's
    gen = default_build["firmware"]["headers"]
    with open(gen["mem.h"]) as f:
        mem = {
            m.group(1): int(m.group(2), 16)
            for m in re.finditer(r"#define (\w+) 0x([0-9a-f]+)L?\n", f.read())
        }
    assert (mem["MAIN_RAM_BASE"], mem["MAIN_RAM_SIZE"]) == (ram["base"], ram["size"])
    assert (
        (mem["SRAM_BASE"], mem["SRAM_SIZE"])
        == a[(data, "dlmb_bram_if_cntlr/SLMB/Mem")]
        == a[("microblaze_riscv_0/Instruction", "ilmb_bram_if_cntlr/SLMB/Mem")]
    )
    assert (mem["CSR_BASE"], mem["CSR_SIZE"]) == (base, size)
    assert (mem["UARTLITE_BASE"], mem["UARTLITE_SIZE"]) == a[(data, "axi_uartlite_0/S_AXI/Reg")]
    assert (mem["INTC_BASE"], mem["INTC_SIZE"]) == a[(data, "axi_intc_0/S_AXI/Reg")]
    with open(gen["soc.h"]) as f:
        soc = f.read()
    assert f"#define MBV_UARTLITE_BASE {mem['UARTLITE_BASE']}\n" in soc
    assert f"#define MBV_INTC_BASE {mem['INTC_BASE']}\n" in soc
    with open(gen["regions.ld"]) as f:
        ld = f.read()
    assert f"main_ram : ORIGIN = 0x{ram['base']:08x}, LENGTH = 0x{ram['size']:08x}" in ld


def test_interrupt_lines_in_csr_json_order(default_build, csr, calls):
    irqs = [c for c in calls if c[0] == "connect_bd_net" and any("irq_concat/In" in x for x in c)]
    assert len(irqs) == len(default_build["peripherals"])
    for name in default_build["peripherals"]:
        (call,) = [c for c in irqs if f"litedigest_0/irq_{name}" in c]
        assert f"irq_concat/In{csr['constants'][f'{name}_interrupt']}" in call, call
    assert _props(calls, "irq_concat")["NUM_PORTS"] == str(len(irqs))
    assert _props(calls, "axi_intc_0")["C_HAS_FAST"] == "0"
    assert ["connect_bd_net", "irq_concat/dout", "axi_intc_0/intr"] in calls
    with open(default_build["firmware"]["headers"]["soc.h"]) as f:
        assert f"#define CONFIG_CPU_INTERRUPTS {len(irqs)}\n" in f.read()


def test_clocks(calls):
    """The subsystem, the CPU and the crossbars run on clk_wiz_0's 100 MHz output (the
    subsystem's FREQ_HZ); the MIG's AXI side on its ui_clk, axi_mem's second clock."""
    wiz = _props(calls, "clk_wiz_0")
    assert float(wiz["CLKOUT3_REQUESTED_OUT_FREQ"]) * 1e6 == arty_a7.CLOCK_HZ
    assert float(wiz["CLKOUT1_REQUESTED_OUT_FREQ"]) == pytest.approx(166.667)  # MIG sys_clk_i
    assert float(wiz["CLKOUT2_REQUESTED_OUT_FREQ"]) == 200.0  # MIG clk_ref_i
    assert ["connect_bd_net", "clk_wiz_0/clk_out1", "mig_7series_0/sys_clk_i"] in calls
    assert ["connect_bd_net", "clk_wiz_0/clk_out2", "mig_7series_0/clk_ref_i"] in calls
    (net,) = [
        c
        for c in calls
        if c[0] == "connect_bd_net" and "clk_wiz_0/clk_out3" in c and "litedigest_0/clk" in c
    ]
    for pin in ("microblaze_riscv_0/Clk", "axi_periph/aclk", "axi_mem/aclk"):
        assert pin in net
    assert ["connect_bd_net", "mig_7series_0/ui_clk", "axi_mem/aclk1"] in calls


def test_dma_at_the_arty_ddr_base_in_simulation():
    """The Arty's subsystem (DDR at 0x80000000) in Migen simulation with the AXI DDR model
    there: a DMA job of a message in DDR hashes right (the burst addresses are the CPU's
    pointers), a job at the end of the DDR window (the firmware's "outside main RAM" check) is
    refused with err_addr and nothing read."""
    import hashlib

    from litedigest.soc.targets.pynq_dma import SubsystemSim

    mem_base = arty_a7.DDR_BASE
    msg = bytes((7 * i + 3) & 0xFF for i in range(300))
    mem = bytearray(0x2000)
    mem[0x1000 : 0x1000 + len(msg)] = msg
    sim = SubsystemSim(["sha256:opt"], mem, mem_base, target=arty_a7.TARGET, latency=20, seed=1)
    assert sim.csr["memories"]["main_ram"]["base"] == arty_a7.DDR_BASE
    res = {}

    def host():
        yield from sim.start_pad_job("sha256", 0, mem_base + 0x1000, len(msg))
        res["status"] = yield from sim.wait_slots("sha256", 1, limit=500)
        res["digest"] = yield from sim.digest("sha256", 0, 32)
        yield from sim.write("sha256", "slots_ack", 1)
        yield from sim.ctrl("sha256", ack=1)
        bursts = len(sim.ddr.ar_log)
        # refused at once: status done + err_addr, no slot taken (soc/REGISTERS.md)
        yield from sim.write("sha256", "dma_base", arty_a7.DDR_BASE + arty_a7.DDR_SIZE)
        yield from sim.write("sha256", "dma_length", 64)
        yield from sim.ctrl("sha256", dma_start=1, first=1)
        for _ in range(50):
            res["outside"] = yield from sim.read("sha256", "status")
            if res["outside"] & 0x2:
                break
        res["reads_outside"] = len(sim.ddr.ar_log) - bursts

    sim.run(host())
    assert res["status"] & 0x3C == 0, hex(res["status"])
    assert res["digest"] == hashlib.sha256(msg).digest()
    assert all(a >= mem_base for a, _ in sim.ddr.ar_log)
    assert res["outside"] & 0x3E == 0x0A, hex(res["outside"])  # done, err_addr alone
    assert res["reads_outside"] == 0


# --- the firmware --------------------------------------------------------------------------------


def test_firmware_csr_header_is_csr_json_at_the_window(default_build, csr):
    """The firmware's csr.h: every register of csr.json at the CSR window's address + its
    offset (CSR_BASE = the window in the MicroBlaze V's map)."""
    fw = default_build["firmware"]
    if fw.get("ok") is None:
        pytest.skip(fw["skipped"])
    with open(fw["headers"]["csr.h"]) as f:
        h = f.read()
    assert (
        re.search(r"#define CSR_BASE 0x([0-9a-f]+)L", h).group(1) == f"{arty_a7.CSR_WINDOW_BASE:x}"
    )
    addrs = {
        m.group(1).lower(): int(m.group(2), 16)
        for m in re.finditer(r"#define CSR_(\w+)_ADDR \(CSR_BASE \+ 0x([0-9a-f]+)L\)", h)
    }
    assert addrs and len(addrs) == len(csr["csr_registers"])
    for name, reg in csr["csr_registers"].items():
        assert addrs[name] == reg["addr"], name


def test_firmware_elf_for_the_microblaze_v(default_build):
    fw = default_build["firmware"]
    if fw.get("ok") is None:
        pytest.skip(fw["skipped"])
    c = fw["checks"]
    assert fw["ok"] and c["ok"], c
    assert c["elf32"] and c["riscv"] and not c["rvc"] and c["float_abi"] == 0
    assert c["entry"] == "0x80000000" and not c["outside_ram"]
    assert not c["compressed_instructions"] and not c["undecodable"] and c["instructions"] > 1000
    assert c["sections"][".text"]["addr"] == "0x80000000"
    assert os.path.getsize(fw["bin"]) == fw["bin_bytes"] > 1000
    # the C library and the demo, compiled from the same sources as on the simulated SoC
    objs = sorted(
        f
        for f in os.listdir(os.path.join(fw["build_dir"], "firmware", "libld"))
        if f.endswith(".o")
    )
    from litedigest.soc.sim.firmware import APPS_DIR

    with open(os.path.join(APPS_DIR, "..", "lib", "sources.txt")) as f:
        srcs = sorted(os.path.splitext(s)[0] + ".o" for s in f.read().split())
    assert objs == srcs
    # the run script loads this ELF
    with open(os.path.join(default_build["output_dir"], "vivado", arty_a7.RUN_TCL_NAME)) as f:
        run = f.read()
    assert 'dow "$out_dir/mbv/firmware/demo/demo.elf"' in run and "fpga -file" in run


def test_firmware_image_drives_the_csr_window(default_build, csr):
    """In the linked image, the demo's device (`dev`, its register addresses) points at the
    sha256 peripheral's registers in the window: 0x44A00000 + their csr.json offsets."""
    fw = default_build["firmware"]
    if fw.get("ok") is None:
        pytest.skip(fw["skipped"])
    tool = lambda name: fw["triple"] + "-" + name  # noqa: E731
    syms = subprocess.run(
        [tool("nm"), fw["elf"]], capture_output=True, text=True, check=True
    ).stdout
    (addr,) = [int(line.split()[0], 16) for line in syms.splitlines() if line.split()[-1] == "dev"]
    dump = subprocess.run(
        [
            tool("objdump"),
            "-s",
            f"--start-address=0x{addr:x}",
            f"--stop-address=0x{addr + 64:x}",
            fw["elf"],
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = b"".join(
        bytes.fromhex("".join(line.split()[1:5]))
        for line in dump.splitlines()
        if re.match(r"^ [0-9a-f]{8} ", line)
    )
    words = {int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data) - 3, 4)}
    regs = csr["csr_registers"]
    for r in ("ctrl", "din", "status", "dma_base", "dma_length"):
        assert arty_a7.CSR_WINDOW_BASE + regs[f"sha256_{r}"]["addr"] in words, r


def test_demo_firmware_on_the_simulated_soc(default_build):
    """The stand-in for the board: the same demo firmware (same source, same C library) on the
    simulated SoC that has this build's sha256 engine (the peripheral the demo drives; the
    standard SoC the other tests cache), every digest and check right, and the engine it
    reports is the board's."""
    sd = arty_a7.run_sim_demo(default_build["peripherals"], log=lambda *a: None)
    assert sd["ok"], sd
    assert sd["engine"] == default_build["peripherals"]["sha256"] == "sha256:opt:p1"
    assert {(r["path"], r["bytes"]) for r in sd["records"]} == {
        (p, n) for p in ("sw", "csr", "dma") for n in (64, 1024, 16384)
    }
    assert all(sd["checks"].values()) and len(sd["checks"]) >= 10


# --- the rest of the build -----------------------------------------------------------------------


def test_manifest_without_vivado(default_build):
    with open(default_build["manifest"]) as f:
        m = json.load(f)
    assert m["board"] == "arty_a7" and m["board_part"] == arty_a7.BOARD_PART
    assert m["subsystem"]["vlnv"] == "xilinx.com:module_ref:litedigest_subsystem:1.0"
    assert m["engines"] == list(arty_a7.DEFAULT_ENGINES)
    assert m["cpu"]["ip"] == "xilinx.com:ip:microblaze_riscv:1.0"
    assert m["memory_map"]["main_ram"] == "0x80000000+0x10000000"
    if not default_build["vivado"]["ran"]:
        assert m["bitstream"]["sha256"] is None and "Vivado" in m["bitstream"]["reason"]
    assert m["fmax_mhz"] is None
    assert m["checks"]["tcl_dry_run"]["ok"] is True
    if default_build["firmware"].get("ok") is not None:
        assert m["firmware"]["checks_ok"] and m["firmware"]["run_on_board"] is False


def test_rerun_is_cached(default_build):
    elf = default_build["firmware"].get("elf")
    elf_mtime = os.path.getmtime(elf) if elf else None
    rep = vivado_checks.rerun_is_cached(arty_a7, default_build)
    if elf:
        assert os.path.getmtime(elf) == elf_mtime  # nothing of the firmware rebuilt
        assert rep["firmware"]["elf_sha256"] == default_build["firmware"]["elf_sha256"]


def test_synth_small_config_xc7a100t(tmp_path):
    from litedigest.soc.flows import xc7 as flow_xc7

    rep, m = vivado_checks.synth_small_config(arty_a7, tmp_path, firmware=False)
    c = rep["synth_xc7"]["counts"]
    assert rep["synth_xc7"]["capacity"] == flow_xc7.XC7A100T
    assert rep["synth_xc7"]["fits"] and flow_xc7.fits(c, flow_xc7.XC7A100T)
    assert "firmware" not in rep
    assert m["utilization_yosys_xc7"]["capacity"]["device"] == "xc7a100tcsg324-1"


def test_engine_sets_without_the_demo_peripheral(tmp_path):
    """An engine set without a SHA-256 engine builds; the demo firmware (it drives the sha256
    peripheral) and its stand-in run are reported as not built, with the reason."""
    rep = vivado_checks.run_target(arty_a7, "sha1:base", tmp_path, sim_demo=True)
    assert rep["firmware"]["ok"] is None and "sha256" in rep["firmware"]["skipped"]
    assert rep["sim_demo"]["ok"] is None
    with open(rep["manifest"]) as f:
        assert "sha256" in json.load(f)["firmware"]["skipped"]


def test_bad_input_is_a_clear_error(tmp_path):
    vivado_checks.check_unknown_engine_is_a_clear_error("arty_a7", tmp_path)
    vivado_checks.check_output_dir_file_is_a_clear_error("arty_a7", tmp_path)
    with pytest.raises(vs.TargetError, match="listed twice"):
        vs.LiteDigestSubsystem(["sha256:base", "sha256:base"], target=arty_a7.TARGET)


def test_csr_header_rebase_refuses_other_forms():
    ok = "#ifndef CSR_BASE\n#define CSR_BASE 0x0L\n#endif\n#define CSR_A_ADDR (CSR_BASE + 0x4L)\n"
    assert "#define CSR_BASE 0x44a00000L" in arty_a7.rebase_csr_header(ok, 0x44A00000)
    with pytest.raises(vs.TargetError):
        arty_a7.rebase_csr_header(ok.replace("0x0L", "0x10L"), 0x44A00000)
    with pytest.raises(vs.TargetError):
        arty_a7.rebase_csr_header(ok.replace("(CSR_BASE + 0x4L)", "0x4L"), 0x44A00000)
