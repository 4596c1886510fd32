"""The pynq_z2 target (soc/targets/pynq_z2.py): generation, register map at AXI-Lite offsets,
the Vivado TCL, Verilator lint, Yosys synth_xilinx, bad input, and a Migen simulation of the
subsystem's AXI ports (CSR path and DMA path against hashlib)."""
import hashlib
import json
import os
import struct
import subprocess
import sys

import pytest

from litedigest.soc.targets.sim import MAIN_SOC
from litedigest import hw_regs
from litedigest import spec as specmod
from litedigest.soc.targets import pynq_z2

# (csr, access) every peripheral has (soc/REGISTERS.md)
PERIPHERAL_REGS = list(hw_regs.REGISTERS) + list(hw_regs.EVENT_REGISTERS)  # the generated map


@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    """The default engine set (MAIN_SOC of soc/targets/sim.py) generated and linted, not synthesized."""
    out = tmp_path_factory.mktemp("pynq_z2_default")
    report = pynq_z2.run(None, str(out), synth=False, lint=True, vivado=False, log=lambda *a: None)
    return report


def test_default_engines_are_the_main_soc(default_build):
    assert default_build["engines"] == list(MAIN_SOC)
    names = [specmod.instance_name(e, MAIN_SOC) for e in MAIN_SOC]
    assert list(default_build["peripherals"]) == names


def test_csr_map_at_axi_lite_offsets(default_build):
    with open(default_build["csr_json"]) as f:
        csr = json.load(f)
    regs, consts = csr["csr_registers"], csr["constants"]
    window = 1 << pynq_z2.AXIL_ADDRESS_WIDTH
    for name in default_build["peripherals"]:
        for r in PERIPHERAL_REGS:
            reg = regs[f"{name}_{r}"]
            # offsets from the AXI-Lite base: inside the 64 KiB window, word aligned
            assert 0 <= reg["addr"] < window and reg["addr"] % 4 == 0, (name, r, reg)
            assert reg["addr"] + 4 * reg["size"] <= window
        assert consts[f"{name}_interrupt"] == list(default_build["peripherals"]).index(name)
        assert consts[f"{name}_dma_align"] == pynq_z2.DMA_DATA_WIDTH // 8
    assert min(csr["csr_bases"].values()) == 0
    ram = csr["memories"]["main_ram"]
    assert (ram["base"], ram["size"]) == (pynq_z2.DDR_BASE, pynq_z2.DDR_SIZE)
    with open(default_build["csr_h"]) as f:
        h = f.read()
    assert "#define CSR_SHA256_CTRL_ADDR" in h and "sha256_ctrl_write" in h


def test_verilog_ports(default_build):
    with open(default_build["verilog"]) as f:
        v = f.read()
    assert f"module {pynq_z2.SUBSYSTEM_TOP}" in v
    assert "input  wire   [15:0] s_axi_awaddr" in v
    assert "input  wire   [63:0] m_axi_rdata" in v
    assert "output wire   [31:0] m_axi_araddr" in v
    for name in default_build["peripherals"]:
        assert f"output wire          irq_{name}" in v
    assert "ASSOCIATED_BUSIF s_axi:m_axi" in v


def test_vivado_tcl(default_build):
    with open(default_build["vivado_tcl"]) as f:
        tcl = f.read()
    for needle in ["xc7z020clg400-1", "xilinx.com:ip:processing_system7",
                   f"-type module -reference {pynq_z2.SUBSYSTEM_TOP}",
                   "S_AXI_HP0", "M_AXI_GP0", "IRQ_F2P", "CONFIG.PCW_S_AXI_HP0_DATA_WIDTH {64}",
                   "CONFIG.PCW_FPGA0_PERIPHERAL_FREQMHZ {100}", "MT41K256M16 RE-125",
                   "write_bitstream", "litedigest.hwh", "litedigest.bit", "axi_intc",
                   "assign_bd_address -offset 0x43C00000"]:
        assert needle in tcl, needle
    n = len(default_build["peripherals"])
    assert f"CONFIG.NUM_PORTS {{{n}}}" in tcl
    for i, name in enumerate(default_build["peripherals"]):
        assert f"litedigest_0/irq_{name}] [get_bd_pins irq_concat/In{i}]" in tcl


def test_lint_passes(default_build):
    lint = default_build["lint"]
    if lint.get("ok") is None:
        pytest.skip(lint["skipped"])
    assert lint["ok"] and lint["errors"] == 0


def test_manifest_without_vivado(default_build):
    with open(default_build["manifest"]) as f:
        m = json.load(f)
    assert m["subsystem"]["vlnv"] == pynq_z2.SUBSYSTEM_VLNV == \
        "xilinx.com:module_ref:litedigest_subsystem:1.0"
    assert m["engines"] == list(MAIN_SOC)
    if not default_build["vivado"]["ran"]:
        assert m["bitstream"]["sha256"] is None and "Vivado" in m["bitstream"]["reason"]
    assert m["fmax_mhz"] is None


def test_rerun_is_cached(default_build, tmp_path):
    out = default_build["output_dir"]
    mtime = os.path.getmtime(default_build["verilog"])
    msgs = []
    pynq_z2.run(None, out, synth=False, lint=False, vivado=False, log=msgs.append)
    assert os.path.getmtime(default_build["verilog"]) == mtime
    assert any("up to date" in m for m in msgs)


def test_synth_small_config(tmp_path):
    from litedigest.soc.flows import xc7 as flow_xc7
    rep = pynq_z2.run("sha256:base", str(tmp_path), synth=True, lint=False, vivado=False,
                      niceness=10, log=lambda *a: None)
    c = rep["synth_xc7"]["counts"]
    assert c["lut"] > 500 and c["ff"] > 500   # an engine, its CSRs and two AXI bridges
    assert rep["synth_xc7"]["fits"] and flow_xc7.fits(c)
    with open(rep["manifest"]) as f:
        m = json.load(f)
    assert m["utilization_yosys_xc7"]["counts"]["lut"] == c["lut"]
    assert m["tools"]["yosys"].startswith("Yosys")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "litedigest.cli", "build", "pynq_z2", *args],
                          capture_output=True, text=True)


def test_unknown_engine_is_a_clear_error(tmp_path):
    r = _cli("--hash-engine", "sha256:base,md5", "--output-dir", str(tmp_path), "--no-synth")
    assert r.returncode == 2
    assert "bad engine spec 'md5'" in r.stderr and "Traceback" not in r.stderr


def test_bad_output_dir_is_a_clear_error(tmp_path):
    f = tmp_path / "a_file"
    f.write_text("x")
    r = _cli("--hash-engine", "sha256:base", "--output-dir", str(f), "--no-synth")
    assert r.returncode == 2
    assert "is not a directory" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(pynq_z2.TargetError, match="listed twice"):
        pynq_z2.LiteDigestSubsystem(["sha256:base", "sha256:base"])


# --- the AXI ports in simulation --------------------------------------------------------------

def _pad(msg):
    ml = len(msg) * 8
    msg = msg + b"\x80" + b"\0" * ((55 - len(msg)) % 64) + struct.pack(">Q", ml)
    return msg


def test_axi_ports_simulation():
    """Migen simulation of the subsystem (sha256:base): CSR accesses through the AXI-Lite
    slave (CSR path: din words, start, digest) and one DMA job whose reads leave through the
    AXI4 master to a memory model; both digests checked against hashlib."""
    from migen.sim import run_simulation, passive
    from litex.soc.integration import export

    soc = pynq_z2.LiteDigestSubsystem(["sha256:base"], with_clock_pads=False)
    soc.finalize()
    csr = json.loads(export.get_csr_json(soc.csr_regions, soc.constants, soc.bus.regions))
    reg = lambda n: csr["csr_registers"][f"sha256_{n}"]["addr"]
    s, m = soc.s_axi_pads, soc.m_axi_pads

    mem_base = 0x1234_0000
    msg2 = bytes(range(200))
    mem = bytearray(_pad(msg2))
    dma_reads = []

    def axil_write(addr, data):
        yield s.awaddr.eq(addr); yield s.awvalid.eq(1)
        yield s.wdata.eq(data); yield s.wstrb.eq(0xF); yield s.wvalid.eq(1)
        aw = w = False
        while not (aw and w):
            yield
            aw = aw or (yield s.awready) and (yield s.awvalid)
            w = w or (yield s.wready) and (yield s.wvalid)
            if aw:
                yield s.awvalid.eq(0)
            if w:
                yield s.wvalid.eq(0)
        yield s.awvalid.eq(0); yield s.wvalid.eq(0)
        yield s.bready.eq(1)
        while not (yield s.bvalid):
            yield
        assert (yield s.bresp) == 0
        yield
        yield s.bready.eq(0)

    def axil_read(addr):
        yield s.araddr.eq(addr); yield s.arvalid.eq(1)
        yield
        while not (yield s.arready):
            yield
        yield s.arvalid.eq(0); yield s.rready.eq(1)
        while not (yield s.rvalid):
            yield
        data, resp = (yield s.rdata), (yield s.rresp)
        yield
        yield s.rready.eq(0)
        assert resp == 0
        return data

    @passive
    def axi_memory():
        """AXI4 read slave: one beat per request, data from `mem` at mem_base."""
        while True:
            yield m.arready.eq(1)
            yield
            if (yield m.arvalid):
                addr, length = (yield m.araddr), (yield m.arlen)
                yield m.arready.eq(0)
                off = addr - mem_base
                assert length == 0 and 0 <= off < len(mem) and off % 8 == 0, hex(addr)
                dma_reads.append(addr)
                yield m.rdata.eq(int.from_bytes(mem[off:off + 8], "little"))
                yield m.rresp.eq(0); yield m.rlast.eq(1); yield m.rvalid.eq(1)
                yield
                while not (yield m.rready):
                    yield
                yield m.rvalid.eq(0)

    results = {}

    def read_digest():
        words = []
        for i in range(8):
            words.append((yield from axil_read(reg("digest") + 4 * i)))
        return b"".join(w.to_bytes(4, "big") for w in words)

    def wait_done():
        for _ in range(2000):
            st = yield from axil_read(reg("status"))
            if st & 2:
                return st
        raise AssertionError("no done")

    def host():
        # scratch register round trip: the AXI-Lite -> Wishbone -> CSR path both ways
        yield from axil_write(csr["csr_registers"]["ctrl_scratch"]["addr"], 0xA5A55A5A)
        results["scratch"] = yield from axil_read(csr["csr_registers"]["ctrl_scratch"]["addr"])
        # CSR path: one block of "abc", its interrupt enabled
        yield from axil_write(reg("ev_enable"), 1)
        results["irq_before"] = (yield soc.irq_pads["sha256"])
        block = _pad(b"abc")
        for i in range(16):
            yield from axil_write(reg("din"), int.from_bytes(block[4 * i:4 * i + 4], "big"))
        yield from axil_write(reg("ctrl"), (1 << 0) | (1 << 2) | (1 << 3))
        results["csr_status"] = yield from wait_done()
        results["csr_digest"] = yield from read_digest()
        results["irq_done"] = (yield soc.irq_pads["sha256"])
        yield from axil_write(reg("ev_pending"), 1)  # clear the event
        results["irq_cleared"] = (yield soc.irq_pads["sha256"])
        yield from axil_write(reg("ctrl"), 1 << 6)   # ack
        # DMA path: a 4-block message in "DDR" at mem_base
        yield from axil_write(reg("dma_base"), mem_base)
        yield from axil_write(reg("dma_length"), len(mem))
        yield from axil_write(reg("ctrl"), (1 << 1) | (1 << 2) | (1 << 3))
        results["dma_status"] = yield from wait_done()
        results["dma_digest"] = yield from read_digest()

    run_simulation(soc, [host(), axi_memory()])
    assert results["scratch"] == 0xA5A55A5A
    assert results["csr_status"] & 0x3C == 0, hex(results["csr_status"])
    assert results["csr_digest"] == hashlib.sha256(b"abc").digest()
    assert (results["irq_before"], results["irq_done"], results["irq_cleared"]) == (0, 1, 0)
    assert results["dma_status"] & 0x3C == 0, hex(results["dma_status"])
    assert results["dma_digest"] == hashlib.sha256(msg2).digest()
    assert dma_reads == [mem_base + 8 * i for i in range(len(mem) // 8)]


@pytest.mark.slow
def test_synth_main_soc(tmp_path):
    """The full default engine set through synth_xilinx: fits the xc7z020 (takes many minutes)."""
    rep = pynq_z2.run(None, str(tmp_path), synth=True, lint=True, vivado=False, niceness=10,
                      log=lambda *a: None)
    assert rep["lint"].get("ok") in (True, None)
    assert rep["synth_xc7"]["fits"], rep["synth_xc7"]
