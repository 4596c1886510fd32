# SPDX-License-Identifier: BSD-2-Clause
"""Several AXI4 read masters on one AXI4 port, with many bursts in flight.

LiteX's AXIArbiter grants a master until all its requests are answered, so only one master's
bursts are ever in flight and a switch waits for the port to drain; the hash subsystem's burst
readers each keep several bursts outstanding and must share the port without that pause. Here:
- AR: a round-robin choice among the masters' requests into one register stage (the payload
  stays stable while ARVALID waits for ARREADY, as AXI requires); the chosen master's index is
  pushed into a tag FIFO;
- R: every burst carries ARID 0, so the slave answers in request order, and the tag FIFO's head
  says whose beats are arriving: RVALID goes to that master only, RREADY comes from it, and
  the tag leaves with the burst's RLAST beat.
The tag FIFO's depth bounds the bursts in flight (`max_bursts`, the register's included). The
write channels are not this module's (the target's AW/W/B are left to the caller).
"""

from migen import Array, Cat, If, Module, Signal
from migen.fhdl.bitcontainer import bits_for
from migen.genlib.fifo import SyncFIFO

from .dma_reader import round_robin_pick


class AXIReadArbiter(Module):
    """`masters`: AXIInterfaces whose AR/R channels are served; `target`: the AXIInterface they
    share (AR out, R in). `issued` (out) pulses when a burst is handed on, `in_flight` (out)
    counts the bursts handed on and not yet finished (benches)."""

    def __init__(self, masters, target, max_bursts=16):
        n = len(masters)
        tb = bits_for(max(1, n - 1))
        self.submodules.tags = tags = SyncFIFO(tb, max_bursts)
        ar = target.ar
        fields = [name for name, _ in ar.description.payload_layout]

        # --- AR: round-robin into a register ----------------------------------------------------
        req = Signal(n)
        take = Signal()
        self.comb += req.eq(Cat(*[m.ar.valid for m in masters]))
        any_req, pick, rr_comb, rr_sync = round_robin_pick(take, req, n)
        self.comb += rr_comb
        self.sync += rr_sync
        self.comb += take.eq(any_req & (~ar.valid | ar.ready) & tags.writable)
        self.comb += [m.ar.ready.eq(take & (pick == i)) for i, m in enumerate(masters)]
        self.sync += If(
            take,
            ar.valid.eq(1),
            [getattr(ar, f).eq(Array(getattr(m.ar, f) for m in masters)[pick]) for f in fields],
        ).Elif(
            ar.ready,
            ar.valid.eq(0),
        )
        self.comb += [ar.id.eq(0), tags.we.eq(take), tags.din.eq(pick)]

        # --- R: to the master at the tag FIFO's head --------------------------------------------
        r = target.r
        head = tags.dout
        self.comb += [
            r.ready.eq(tags.readable & Array(m.r.ready for m in masters)[head]),
            tags.re.eq(r.valid & r.ready & r.last),
        ]
        for i, m in enumerate(masters):
            self.comb += [
                m.r.valid.eq(r.valid & tags.readable & (head == i)),
                m.r.data.eq(r.data),
                m.r.resp.eq(r.resp),
                m.r.last.eq(r.last),
                m.r.id.eq(r.id),
            ]
        self.issued = Signal()
        self.in_flight = Signal(bits_for(max_bursts))
        self.comb += [self.issued.eq(ar.valid & ar.ready), self.in_flight.eq(tags.level)]
