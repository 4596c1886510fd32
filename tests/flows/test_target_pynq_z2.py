# SPDX-License-Identifier: BSD-2-Clause
"""The pynq_z2 target (soc/targets/pynq_z2.py): generation, register map at AXI-Lite offsets,
the Vivado TCL, Verilator lint, Yosys synth_xilinx, bad input, and a Migen simulation of the
subsystem's AXI ports (CSR path and DMA path against hashlib)."""

import hashlib
import json
import struct

import pytest
import vivado_checks
from litedigest import spec as specmod
from litedigest.soc.targets import builder, pynq_z2
from litedigest.soc.targets.sim import MAIN_SOC


@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    """The default engine set (MAIN_SOC of soc/targets/sim.py)
    generated and linted, not synthesized."""
    out = tmp_path_factory.mktemp("pynq_z2_default")
    report = vivado_checks.run_target(pynq_z2, None, out, lint=True)
    return report


def test_default_engines_are_the_main_soc(default_build):
    assert default_build["engines"] == list(MAIN_SOC)
    names = [specmod.instance_name(e, MAIN_SOC) for e in MAIN_SOC]
    assert list(default_build["peripherals"]) == names


def test_csr_map_at_axi_lite_offsets(default_build):
    with open(default_build["csr_json"]) as f:
        csr = json.load(f)
    vivado_checks.check_csr_map(default_build, csr, pynq_z2)
    with open(default_build["csr_h"]) as f:
        h = f.read()
    assert "#define CSR_SHA256_CTRL_ADDR" in h and "sha256_ctrl_write" in h


def test_verilog_ports(default_build):
    vivado_checks.check_subsystem_ports(default_build, pynq_z2)


def test_vivado_tcl(default_build):
    with open(default_build["vivado_tcl"]) as f:
        tcl = f.read()
    for needle in [
        "xc7z020clg400-1",
        "xilinx.com:ip:processing_system7",
        f"-type module -reference {pynq_z2.SUBSYSTEM_TOP}",
        "S_AXI_HP0",
        "M_AXI_GP0",
        "IRQ_F2P",
        "CONFIG.PCW_S_AXI_HP0_DATA_WIDTH {64}",
        "CONFIG.PCW_FPGA0_PERIPHERAL_FREQMHZ {100}",
        "MT41K256M16 RE-125",
        "write_bitstream",
        "litedigest.hwh",
        "litedigest.bit",
        "axi_intc",
        "assign_bd_address -offset 0x43C00000",
    ]:
        assert needle in tcl, needle
    n = len(default_build["peripherals"])
    assert f"CONFIG.NUM_PORTS {{{n}}}" in tcl
    for i, name in enumerate(default_build["peripherals"]):
        assert f"litedigest_0/irq_{name}] [get_bd_pins irq_concat/In{i}]" in tcl


def test_vivado_tcl_runs_and_agrees_without_vivado(default_build):
    """The block-design TCL checked as far as it can be without Vivado: it runs in tclsh (so it
    parses and its control flow and substitutions work) with Vivado's commands recorded; every
    file it adds exists; the address it gives the subsystem's AXI-Lite port and the window's
    range are the ones the register map (csr.json) and the drivers assume; one interrupt line
    per peripheral, in csr.json's order."""
    calls = builder.tcl_dry_run(default_build["vivado_tcl"])  # tclsh, Vivado's commands recorded
    if calls is None:
        pytest.fail("tclsh is not installed (Debian: tcl; scripts/setup.sh)")
    added = vivado_checks.check_tcl_runs_and_adds_files(calls)
    assert added, "the TCL adds no source file"
    (assign,) = [c for c in calls if c[0] == "assign_bd_address" and "-offset" in c]
    offset = int(assign[assign.index("-offset") + 1], 16)
    window = assign[assign.index("-range") + 1]
    assert offset == pynq_z2.GP0_BASE
    assert window == f"{(1 << pynq_z2.AXIL_ADDRESS_WIDTH) // 1024}K"
    with open(default_build["csr_json"]) as f:
        csr = json.load(f)
    top = max(reg["addr"] + 4 * reg["size"] for reg in csr["csr_registers"].values())
    assert top <= 1 << pynq_z2.AXIL_ADDRESS_WIDTH  # every register inside the mapped window
    irqs = [c for c in calls if c[0] == "connect_bd_net" and any("irq_concat/In" in a for a in c)]
    assert len(irqs) == len(default_build["peripherals"])
    for name in default_build["peripherals"]:
        (call,) = [c for c in irqs if f"litedigest_0/irq_{name}" in c]
        assert f"irq_concat/In{csr['constants'][f'{name}_interrupt']}" in call, call


def test_lint_passes(default_build):
    lint = default_build["lint"]
    if lint.get("ok") is None:
        pytest.skip(lint["skipped"])
    assert lint["ok"] and lint["errors"] == 0


def test_manifest_without_vivado(default_build):
    with open(default_build["manifest"]) as f:
        m = json.load(f)
    assert (
        m["subsystem"]["vlnv"]
        == pynq_z2.SUBSYSTEM_VLNV
        == "xilinx.com:module_ref:litedigest_subsystem:1.0"
    )
    assert m["engines"] == list(MAIN_SOC)
    if not default_build["vivado"]["ran"]:
        assert m["bitstream"]["sha256"] is None and "Vivado" in m["bitstream"]["reason"]
    assert m["fmax_mhz"] is None


def test_rerun_is_cached(default_build, tmp_path):
    vivado_checks.rerun_is_cached(pynq_z2, default_build)


def test_synth_small_config(tmp_path):
    from litedigest.soc.flows import xc7 as flow_xc7

    rep, m = vivado_checks.synth_small_config(pynq_z2, tmp_path)
    assert rep["synth_xc7"]["fits"] and flow_xc7.fits(rep["synth_xc7"]["counts"])
    assert m["tools"]["yosys"].startswith("Yosys")


def test_unknown_engine_is_a_clear_error(tmp_path):
    vivado_checks.check_unknown_engine_is_a_clear_error("pynq_z2", tmp_path)


def test_bad_output_dir_is_a_clear_error(tmp_path):
    vivado_checks.check_output_dir_file_is_a_clear_error("pynq_z2", tmp_path)
    with pytest.raises(pynq_z2.TargetError, match="listed twice"):
        pynq_z2.LiteDigestSubsystem(["sha256:base", "sha256:base"])


# --- the AXI ports in simulation --------------------------------------------------------------
# The subsystem in Migen's simulator (soc/targets/pynq_dma.py): CSRs through the AXI-Lite slave,
# the DMA's AXI4 master on the DDR model (soc/sim/axi_ddr.py: first-beat latency, random
# ARREADY / RVALID gaps, protocol checks by assertion).


def _pad(msg):
    ml = len(msg) * 8
    msg = msg + b"\x80" + b"\0" * ((55 - len(msg)) % 64) + struct.pack(">Q", ml)
    return msg


def test_axi_ports_simulation():
    """Migen simulation of the subsystem (sha256:base): CSR accesses through the AXI-Lite
    slave (CSR path: din words, start, digest) and one DMA job whose reads leave through the
    AXI4 master to the DDR model as one 8-beat INCR burst per block; both digests checked
    against hashlib."""
    from litedigest.soc.targets.pynq_dma import SubsystemSim

    mem_base = 0x1234_0000
    msg2 = bytes(range(200))
    mem = bytearray(_pad(msg2))
    sim = SubsystemSim(["sha256:base"], mem, mem_base, latency=30, seed=2)
    results = {}

    def host():
        # scratch register round trip: the AXI-Lite -> Wishbone -> CSR path both ways
        scratch = sim.csr["csr_registers"]["ctrl_scratch"]["addr"]
        yield from sim.host.write(scratch, 0xA5A55A5A)
        results["scratch"] = yield from sim.host.read(scratch)
        # CSR path: one block of "abc", its interrupt enabled
        yield from sim.write("sha256", "ev_enable", 1)
        results["irq_before"] = yield sim.soc.irq_pads["sha256"]
        block = _pad(b"abc")
        for i in range(16):
            yield from sim.write("sha256", "din", int.from_bytes(block[4 * i : 4 * i + 4], "big"))
        yield from sim.ctrl("sha256", start=1, first=1, last=1)
        results["csr_status"] = yield from sim.wait_slots("sha256", 1)
        results["csr_digest"] = yield from sim.digest("sha256", 0, 32)
        results["irq_done"] = yield sim.soc.irq_pads["sha256"]
        yield from sim.write("sha256", "ev_pending", 1)  # clear the event
        results["irq_cleared"] = yield sim.soc.irq_pads["sha256"]
        yield from sim.write("sha256", "slots_ack", 1)
        yield from sim.ctrl("sha256", ack=1)
        # DMA path: a 4-block message in "DDR" at mem_base
        yield from sim.write("sha256", "dma_base", mem_base)
        yield from sim.write("sha256", "dma_length", len(mem))
        yield from sim.ctrl("sha256", dma_start=1, first=1, last=1)
        results["dma_status"] = yield from sim.wait_slots("sha256", 1)
        results["dma_digest"] = yield from sim.digest("sha256", 0, 32)

    sim.run(host())
    assert results["scratch"] == 0xA5A55A5A
    assert results["csr_status"] & 0x3C == 0, hex(results["csr_status"])
    assert results["csr_digest"] == hashlib.sha256(b"abc").digest()
    assert (results["irq_before"], results["irq_done"], results["irq_cleared"]) == (0, 1, 0)
    assert results["dma_status"] & 0x3C == 0, hex(results["dma_status"])
    assert results["dma_digest"] == hashlib.sha256(msg2).digest()
    # a block a burst: 8 beats of 8 bytes (ARLEN 7, ARSIZE 3, INCR: checked by the model)
    assert sim.ddr.ar_log == [(mem_base + 64 * i, 8) for i in range(len(mem) // 64)]


def _messages(rng, n, mem, mem_base, top):
    """n random messages (pad jobs: any length, some 0) at 8-byte aligned addresses below
    `top`, some straddling a 4 KiB boundary; returns [(addr, msg)]."""
    out = []
    for i in range(n):
        length = rng.choice([0, 1, 55, 56, 64, 119, rng.randrange(64, 400)])
        addr = mem_base + 0x1000 * (1 + 2 * i) - 8 * rng.randrange(0, 40)
        assert addr + length <= top
        msg = rng.randbytes(length)
        mem[addr - mem_base : addr - mem_base + length] = msg
        out.append((addr, msg))
    return out


def test_axi_dma_p4_slots_with_back_pressure():
    """sha256:opt:p4, its four slots at once (jobs started with hold, released together),
    random pad jobs, the DDR model with a 30-cycle first beat, ARREADY low 40% of the time and
    RVALID gaps 30%: every digest right, several bursts in flight. (Migen simulates this
    subsystem at some 20 cycles a second: one round of short messages.)"""
    import random

    from litedigest.soc.targets.pynq_dma import SubsystemSim

    rng = random.Random(7)
    mem_base = 0x0800_0000
    mem = bytearray(rng.randbytes(0x9000))
    msgs = _messages(rng, 4, mem, mem_base, mem_base + len(mem))
    sim = SubsystemSim(
        ["sha256:opt:p4"], mem, mem_base, latency=30, seed=7, ar_ready=0.6, r_gap=0.3
    )
    got = []

    def host():
        for slot, (addr, msg) in enumerate(msgs):
            yield from sim.start_pad_job("sha256", slot, addr, len(msg), hold=True)
        yield from sim.ctrl("sha256")
        st = yield from sim.wait_slots("sha256", 0xF, limit=500)
        for slot in range(4):
            got.append(((yield from sim.digest("sha256", slot, 32)), st & 0x3C))

    sim.run(host())
    assert got == [(hashlib.sha256(m).digest(), 0) for _, m in msgs]
    assert sim.ddr.stats["max_in_flight"] >= 4
    assert all(beats <= 8 for _, beats in sim.ddr.ar_log)


def test_axi_dma_bus_error_then_fine():
    """On sha256:opt:p4, slot 0's message runs past the DDR model's memory (SLVERR beats)
    while slot 1 hashes a good one: slot 0's job ends with err_bus in status; the reader then
    waits for the CPU's ack (as the Wishbone reader does), after which slot 1's digest comes
    out right, and a new job on slot 0 hashes right."""
    import random

    from litedigest.soc.targets.pynq_dma import SubsystemSim

    rng = random.Random(3)
    mem_base = 0x0C00_0000
    mem = bytearray(rng.randbytes(0x3000))
    good = bytes(mem[0x1000 : 0x1000 + 700])
    bad_addr = mem_base + len(mem) - 256  # 1 KiB from here: 768 bytes past the end
    res = {}

    def host():
        yield from sim.start_pad_job("sha256", 0, bad_addr, 1024, hold=True)
        yield from sim.start_pad_job("sha256", 1, mem_base + 0x1000, len(good), hold=True)
        yield from sim.ctrl("sha256")
        res["status"] = yield from sim.wait_slots("sha256", 0b01, limit=200)
        yield from sim.write("sha256", "slots_ack", 0b01)
        yield from sim.ctrl("sha256", ack=1)
        res["good_status"] = yield from sim.wait_slots("sha256", 0b10, limit=200)
        res["good"] = yield from sim.digest("sha256", 1, 32)
        yield from sim.write("sha256", "slots_ack", 0b10)
        yield from sim.start_pad_job("sha256", 0, mem_base + 0x800, 300)
        res["again_status"] = yield from sim.wait_slots("sha256", 1, limit=200)
        res["again"] = yield from sim.digest("sha256", 0, 32)

    sim = SubsystemSim(
        ["sha256:opt:p4"], mem, mem_base, latency=30, seed=3, ar_ready=0.7, r_gap=0.2
    )
    sim.run(host())
    assert res["status"] & 0x3C == 0x20, hex(res["status"])  # err_bus only
    assert sim.ddr.stats["read_errors"] > 0
    assert res["good_status"] & 0x3C == 0
    assert res["good"] == hashlib.sha256(good).digest()
    assert res["again_status"] & 0x3C == 0
    assert res["again"] == hashlib.sha256(bytes(mem[0x800 : 0x800 + 300])).digest()


def test_axi_batch_walker():
    """Two SHA peripherals (their walkers share one Wishbone bus bridged to AXI): a batch on
    sha256 (descriptors read, digests written back through the AXI write channel) while sha1
    hashes a DMA job; every digest right, nothing else in memory written."""
    import random

    from litedigest.soc.targets.pynq_dma import SubsystemSim

    rng = random.Random(5)
    mem_base = 0x1800_0000
    mem = bytearray(rng.randbytes(0x4000))
    table, outs = mem_base + 0x100, mem_base + 0x3000
    msgs, desc, addr = [], bytearray(), mem_base + 0x400
    for i in range(5):
        msg = rng.randbytes(rng.choice([0, 3, 64, rng.randrange(400)]))
        mem[addr - mem_base : addr - mem_base + len(msg)] = msg
        desc += b"".join(x.to_bytes(4, "little") for x in (addr, len(msg), outs + 32 * i, 0))
        msgs.append(msg)
        addr += (len(msg) + 64) // 64 * 64
    mem[table - mem_base : table - mem_base + len(desc)] = desc
    other = bytes(mem[0x2000 : 0x2000 + 500])
    before = bytes(mem)
    res = {}

    def host():
        yield from sim.start_pad_job("sha1", 0, mem_base + 0x2000, len(other))
        yield from sim.write("sha256", "batch_base", table)
        yield from sim.write("sha256", "batch_count", len(msgs))
        yield from sim.ctrl("sha256", batch_start=1)
        for _ in range(500):
            st = yield from sim.read("sha256", "batch_status")
            if st & 2:
                break
        res["batch"] = st
        res["progress"] = yield from sim.read("sha256", "batch_progress")
        res["sha1_status"] = yield from sim.wait_slots("sha1", 1, limit=500)
        res["sha1"] = yield from sim.digest("sha1", 0, 20)

    sim = SubsystemSim(
        ["sha256:base", "sha1:base"],
        mem,
        mem_base,
        latency=30,
        seed=5,
        ar_ready=0.7,
        r_gap=0.2,
        w_ready=0.5,
    )
    sim.run(host())
    assert res["batch"] == 0b10 and res["progress"] == len(msgs)
    for i, msg in enumerate(msgs):
        o = outs - mem_base + 32 * i
        assert bytes(mem[o : o + 32]) == hashlib.sha256(msg).digest(), i
    spans = [(outs - mem_base + 32 * i, outs - mem_base + 32 * i + 32) for i in range(len(msgs))]
    assert all(any(a <= i < e for a, e in spans) for i in range(len(mem)) if mem[i] != before[i])
    assert res["sha1_status"] & 0x3C == 0 and res["sha1"] == hashlib.sha1(other).digest()
    # a digest: four single-beat writes of 8 bytes (AWLEN 0)
    assert sim.ddr.stats["write_bursts"] == sim.ddr.stats["write_beats"] == 4 * len(msgs)


@pytest.mark.slow
def test_synth_main_soc(tmp_path):
    """The full default engine set through synth_xilinx: fits the xc7z020 (takes many minutes)."""
    rep = vivado_checks.run_target(pynq_z2, None, tmp_path, synth=True, lint=True, niceness=10)
    assert rep["lint"].get("ok") in (True, None)
    assert rep["synth_xc7"]["fits"], rep["synth_xc7"]


@pytest.mark.parametrize("resp", ["SLVERR", "DECERR"])
def test_c_driver_reports_axi_errors_then_hashes_right(resp):
    """The C driver (litedigest._clib.HwDevice, as it runs on the Zynq's ARM) on the PYNQ-Z2
    subsystem in Migen simulation (soc/sim/pynq_dma.DriverPort: its registers through
    AXI-Lite, its DMA on the AXI4 DDR model): told its DMA buffer is larger than the DDR
    behind it, a hash staged across the end of the DDR gets error beats (SLVERR from the
    memory, or DECERR where the model says no slave decodes the address): HardwareError from
    the one-shot call (err_bus), then the same peripheral hashes right."""
    import hashlib
    import time

    from litedigest import _clib as native
    from litedigest.soc.targets.pynq_dma import DriverPort, SubsystemSim

    mem_base, size = 0x0C00_0000, 0x2000
    mem = bytearray(size)
    sim = SubsystemSim(
        ["sha256:opt"],
        mem,
        mem_base,
        latency=10,
        seed=5,
        decode_end=mem_base + size if resp == "DECERR" else None,
    )
    port = DriverPort(sim).start()
    try:
        regs = native.instance_registers(sim.csr["csr_registers"], "sha256")

        def device(stage_at):
            return native.HwDevice(
                regs,
                read32=port.read32,
                write32=port.write32,
                family="sha256",
                ram_base=mem_base,
                ram_size=4 * size,
                dma_write=port.dma_write,
                stage=(stage_at, 0x1000),
                shared=True,
                timeout_polls=400,
            )

        msg = bytes(range(256)) * 2
        t = time.monotonic()
        with pytest.raises(native.HardwareError):
            device(mem_base + size - 0x100).md("sha256", msg, native.PATH_DMA)  # past the end
        assert time.monotonic() - t < 300
        assert sim.ddr.stats["read_errors"] > 0  # it was the error beats
        assert (sim.ddr.stats["read_decerrs"] > 0) == (resp == "DECERR")
        errors = sim.ddr.stats["read_errors"]
        assert device(mem_base).md("sha256", msg, native.PATH_DMA) == hashlib.sha256(msg).digest()
        assert sim.ddr.stats["read_errors"] == errors
    finally:
        port.close()
    assert port.error is None
