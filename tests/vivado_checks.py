# SPDX-License-Identifier: BSD-2-Clause
"""Checks both Vivado targets (soc/targets/pynq_z2.py, soc/targets/arty_a7.py) make of the
subsystem they generate: the same register map at AXI-Lite offsets and the same subsystem ports,
each target passing its own module for its window, DMA width and DDR."""

from litedigest import hw_regs

PERIPHERAL_REGS = list(hw_regs.REGISTERS) + list(hw_regs.EVENT_REGISTERS)  # the generated map


def check_csr_map(build, csr, target):
    """Every peripheral's registers inside the AXI-Lite window, word aligned, at offsets from 0;
    interrupts in peripheral order; the DMA alignment of the target's data width; main_ram is
    the target's DDR."""
    regs, consts = csr["csr_registers"], csr["constants"]
    window = 1 << target.AXIL_ADDRESS_WIDTH
    for name in build["peripherals"]:
        for r in PERIPHERAL_REGS:
            reg = regs[f"{name}_{r}"]
            assert 0 <= reg["addr"] < window and reg["addr"] % 4 == 0, (name, r, reg)
            assert reg["addr"] + 4 * reg["size"] <= window
        assert consts[f"{name}_interrupt"] == list(build["peripherals"]).index(name)
        assert consts[f"{name}_dma_align"] == target.DMA_DATA_WIDTH // 8
    assert min(csr["csr_bases"].values()) == 0
    ram = csr["memories"]["main_ram"]
    assert (ram["base"], ram["size"]) == (target.DDR_BASE, target.DDR_SIZE)


def check_subsystem_ports(build, target):
    """The subsystem's top: AXI-Lite slave, 64-bit AXI master, one interrupt per peripheral, the
    bus interface association Vivado's module reference reads. Returns the Verilog text."""
    with open(build["verilog"]) as f:
        v = f.read()
    assert f"module {target.SUBSYSTEM_TOP}" in v
    assert "input  wire   [15:0] s_axi_awaddr" in v
    assert "input  wire   [63:0] m_axi_rdata" in v
    assert "output wire   [31:0] m_axi_araddr" in v
    for name in build["peripherals"]:
        assert f"output wire          irq_{name}" in v
    assert "ASSOCIATED_BUSIF s_axi:m_axi" in v
    return v
