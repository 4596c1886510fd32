# SPDX-License-Identifier: BSD-2-Clause
"""Faults the simulated SoC can be told to make (docs/RELIABILITY.md, "Fault injection").

``DMAFaultInjector`` sits between the hash peripherals' DMA masters and main RAM's wide port
(soc/targets/sim.py): transparent (combinational, no cycle added) until the host programs it,
then it answers the next ``count`` reads of the 64-byte row holding byte address ``addr`` with
a Wishbone bus error instead of data, as a memory or interconnect fault would. Writes (the
batch walker's chaining values) always pass.

``SoftReset`` makes LiteX's ``ctrl_reset`` soc_rst bit reset the whole SoC, peripherals and the
bridge included, for 16 cycles (the simulator's CRG has no reset input, so in LiteX's sim the
bit reaches only the CPU): a watchdog's or a user's soft reset in the middle of a job.
"""

from litex.soc.interconnect.csr import AutoCSR, CSRStorage
from migen import If, Module, Signal


class DMAFaultInjector(Module, AutoCSR):
    def __init__(self, master, slave, row_bytes):
        # master: the port the DMA masters drive; slave: main RAM's wide port (row addressing)
        row_shift = (row_bytes - 1).bit_length()
        self.addr = CSRStorage(
            32,
            name="addr",
            description="byte address: DMA reads of the "
            "row holding it are answered with a bus error",
        )
        self.count = CSRStorage(
            8,
            name="count",
            write_from_dev=True,
            description="reads still to fail; each one injected counts down (0: transparent)",
        )
        self.injected = injected = Signal()
        hit = Signal()
        self.comb += [
            master.connect(slave, omit={"cyc", "stb", "ack", "err"}),
            hit.eq(
                master.cyc
                & master.stb
                & ~master.we
                & (self.count.storage != 0)
                & (master.adr[: 32 - row_shift] == self.addr.storage[row_shift:])
            ),
            slave.cyc.eq(master.cyc & ~hit),
            slave.stb.eq(master.stb & ~hit),
            master.ack.eq(slave.ack & ~injected),
            master.err.eq(slave.err | injected),
            self.count.we.eq(injected),
            self.count.dat_w.eq(self.count.storage - 1),
        ]
        # the error answers in the cycle after the request, as the RAM's ack would
        self.sync += injected.eq(hit & ~injected)


class SoftReset(Module):
    def __init__(self, crg, soc_rst, cycles=16):
        # the counter runs in CRG's reset-less `por` domain: the reset it makes cannot clear it
        hold = Signal(max=cycles + 1)
        self.sync.por += If(soc_rst, hold.eq(cycles)).Elif(hold != 0, hold.eq(hold - 1))
        self.comb += If(hold != 0, crg.cd_sys.rst.eq(1))
