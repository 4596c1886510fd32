# SPDX-License-Identifier: BSD-2-Clause
"""Job and slot control: admission checks at job start, the per-slot job state, status bits.

A `start` (CSR path) or `dma_start` (DMA path) names a slot; the job starts only when it is
good (REGISTERS.md "status"): the slot exists and is free, a second `load_cv` job does not
overtake the first one's cv, a CSR block is whole and the previous one has left, DMA segments
are non-empty multiples of the block, row-aligned and inside main RAM, Skein's final bytes fit a
block. A bad job changes nothing but `done` and one error bit. A started job runs until its
slot has nothing left to fetch (`more`) and no block fetched and not yet out of the engine;
then the slot's `done_slots` bit and `status.done` are set and the cycle counter is stamped.
"""

from migen import Array, Cat, Constant, If, Module, Mux, Signal
from migen.fhdl.bitcontainer import log2_int
from migen.genlib.record import Record

from .layouts import job_layout, request_layout, segment_layout, slot_bits, slot_event_layout


def in_ram(addr, align_bits, ram_base, limit, end=None):
    """A DMA range check against the RAM's constant bounds, SlotControl's and the batch
    walker's: `addr` is a multiple of 2**align_bits and at least `ram_base`, and `end` (default
    `addr` itself) is at most `limit`. (Yosys reduces the comparisons with constants to LUTs,
    no carry chain.)"""
    return (addr[:align_bits] == 0) & (addr >= ram_base) & ((addr if end is None else end) <= limit)


# the range checks of a DMA job's request (REGISTERS.md "status"), SlotControl's long part of
# the admission: `len_bad` the segment's length is 0 or not whole blocks, `tail_len_bad` the
# tail's is not whole blocks, `addr_bad` the segment is not row-aligned inside main RAM,
# `tail_addr_bad` a non-empty tail is not
CHECK_LAYOUT = [("len_bad", 1), ("tail_len_bad", 1), ("addr_bad", 1), ("tail_addr_bad", 1)]


def range_checks(
    base, length, block_bytes, row_bytes, ram_base, ram_size, tail_base=None, tail_length=None
):
    """The CHECK_LAYOUT bits of a request's segment (`base`, `length`) and tail (none: its bits
    are 0), as expressions by name: the sums and their comparisons with the RAM's bounds.
    SlotControl makes them from its request, or takes them made a cycle earlier
    (`prechecked`)."""
    rb, bb = log2_int(row_bytes), log2_int(block_bytes)
    ram_end = ram_base + ram_size
    whole = lambda x: x[:bb] == 0
    # the sums widened first: in Verilog an expression takes the width of its context, and a
    # 32-bit sum compared with a 32-bit bound would lose its carry (Migen's simulator keeps it)
    wide = lambda x: Cat(x, Constant(0, 2))
    checks = dict(
        len_bad=(length == 0) | ~whole(length),
        addr_bad=~in_ram(base, rb, ram_base, ram_end, wide(base) + wide(length)),
        tail_len_bad=0,
        tail_addr_bad=0,
    )
    if tail_base is not None:
        checks.update(
            tail_len_bad=~whole(tail_length),
            tail_addr_bad=(tail_length != 0)
            & ~in_ram(tail_base, rb, ram_base, ram_end, wide(tail_base) + wide(tail_length)),
        )
    return checks


STATUS_LAYOUT = [
    ("busy", 1),
    ("done", 1),
    ("err_len", 1),
    ("err_addr", 1),
    ("err_state", 1),
    ("err_bus", 1),
]


class SlotControl(Module):
    """Ports:
    - `request` (request_layout, in): this cycle's `ctrl` write with the job registers;
      `ack` (in): `ctrl.ack`; `ack_slots` (nslots, in): the `slots_done` bits to clear;
    - `csr_words` (8, in), `csr_busy` (in): the CSR block buffer's words, a CSR block waiting;
    - `more` (nslots, in): slots with blocks left to fetch (the DMA reader);
    - `fetch`, `abort`, `retire` (slot_event_layout, in): a block fetch begun, dropped by a bus
      error, a block out of the engine;
    - `cv_taken` (in): a `load_cv` block entered the engine; `overflow` (in): a `din` word
      was dropped; `bus_error` (in): a DMA bus error; `now` (64, in): the cycle counter;
    - `job` (job_layout, out), `segments` (segment_layout, out): an admitted job start;
    - `active`, `done_slots` (nslots, out); `status` (STATUS_LAYOUT, out); `finish_cycles`
      (64, out): `now` when a job last finished; `event` (out): a job finished or was refused.

    `outstanding`: a slot's blocks fetched and not yet out of the engine, at most (3 with
    DMAReader: its fill buffer, the block register, the engine). `out_block` (Skein): a `pad`
    job may end with the output block (`out`).

    `prechecked`: the range checks (CHECK_LAYOUT) are not made here from the request but taken
    from `checks` (in), which whoever drives the request makes a cycle ahead from the same
    values (HashPeripheral: registered from the job registers, which a CSR write changes at
    least two cycles before the `ctrl` write that starts the job; the batch walker: with the
    descriptor). That takes the sums and the comparisons off the cycle of the start, whose
    path ends in the slot state and the status bits (a long sys path of the four-engine ECP5
    SoC)."""

    def __init__(
        self,
        nslots,
        block_bytes,
        row_bytes,
        ram_base,
        ram_size,
        outstanding=3,
        out_block=False,
        prechecked=False,
    ):
        sb = slot_bits(nslots)
        nbw = block_bytes // 4  # din words per block
        rb = log2_int(row_bytes)  # byte address -> row address
        self.request = r = Record(request_layout())
        # a batch owns the slots while it runs (`locked`): only its own requests (`owner`)
        # start jobs, a ctrl job start is refused with err_state
        self.locked = Signal()
        self.owner = Signal()
        self.ack = Signal()
        self.ack_slots = Signal(nslots)
        self.csr_words = Signal(8)
        self.csr_busy = Signal()
        self.more = Signal(nslots)
        self.fetch = Record(slot_event_layout(nslots))
        self.abort = Record(slot_event_layout(nslots))
        self.retire = Record(slot_event_layout(nslots))
        self.cv_taken = Signal()
        self.overflow = Signal()
        self.bus_error = Signal()
        self.now = Signal(64)
        self.job = job = Record(job_layout(nslots))
        self.segments = seg = Record(segment_layout(32 - rb))
        self.active = Signal(nslots)
        self.done_slots = sdone = Signal(nslots)
        self.status = st = Record(STATUS_LAYOUT)
        self.finish_cycles = Signal(64)
        self.event = Signal()
        self.refused = Signal()  # this cycle's request was refused (a status error)
        self.finish = Signal(nslots)  # slots whose job ends this cycle
        self.stamp = Signal()  # (in) stamp finish_cycles now (a batch's end)
        # the peripheral's own checks (a MAC peripheral's key slots): this cycle's request is
        # refused with err_state (`extra_bad`), a command that is not a job (wipe) is (`refuse`)
        self.extra_bad = Signal()
        self.refuse = Signal()

        act = Array(Signal(name=f"act{s}") for s in range(nslots))  # a job is running
        outst = Array(
            Signal(max=outstanding + 1, name=f"outst{s}") for s in range(nslots)
        )  # blocks fetched, not out
        cv_pending = Signal()  # a load_cv job has not yet sent its first block

        # --- checks at job start ----------------------------------------------------------------
        slot = r.slot
        base, length, tbase, tlen = r.base, r.length, r.tail_base, r.tail_length
        rows_up = Signal(33)
        self.comb += rows_up.eq(length + (row_bytes - 1))
        chk = Record(CHECK_LAYOUT)
        if prechecked:
            self.checks = chk
        else:
            self.comb += [
                getattr(chk, k).eq(v)
                for k, v in range_checks(
                    base, length, block_bytes, row_bytes, ram_base, ram_size, tbase, tlen
                ).items()
            ]
        slot_bad = Signal()
        slot_active = Signal()
        self.comb += [slot_bad.eq(slot >= nslots), slot_active.eq(act[slot[:sb]] & ~slot_bad)]
        fb_bad = r.final_bytes > block_bytes
        # a `pad` job's one segment is the whole message, any length (0 too): no tail, and it
        # starts from the IV (the length it appends counts this job's bytes only; Skein: the
        # tweak stage makes its final bytes, final_bytes is not used)
        dma_len_bad = Mux(r.pad, 0, chk.len_bad | (r.tail & chk.tail_len_bad) | fb_bad)
        dma_addr_bad = chk.addr_bad | (r.tail & chk.tail_addr_bad)
        pad_bad = r.pad & (r.tail | ~r.first | (0 if out_block else r.out) | r.start)
        state_bad = (
            slot_bad
            | slot_active
            | (r.load_cv & ~r.first & cv_pending)
            | pad_bad
            | (self.locked & ~self.owner)
            | self.extra_bad
        )
        csr_bad = Signal()
        dma_bad = Signal()
        self.comb += [
            csr_bad.eq(
                r.start & (state_bad | self.csr_busy | r.out | (self.csr_words != nbw) | fb_bad)
            ),
            dma_bad.eq(r.dma_start & ~r.start & (state_bad | dma_len_bad | dma_addr_bad)),
        ]
        starting = Signal()
        self.comb += [
            starting.eq((r.start | r.dma_start) & ~csr_bad & ~dma_bad),
            job.start.eq(starting),
            job.slot.eq(slot),
            job.csr.eq(r.start),
            job.first.eq(r.first),
            job.load_cv.eq(r.load_cv & ~r.first),
            job.last.eq(r.last),
            job.variant.eq(r.variant),
            job.out.eq(r.out),
            seg.row.eq(base[rb:]),
            seg.rows.eq(Mux(r.pad, rows_up[rb:], length[rb:])),
            seg.bytes.eq(length),
            job.pad.eq(r.pad),
            seg.tail_row.eq(tbase[rb:]),
            seg.tail_rows.eq(Mux(r.tail, tlen[rb:], 0)),
        ]

        # --- per-slot bookkeeping -----------------------------------------------------------------
        finish = self.finish
        self.comb += finish.eq(
            Cat(*[act[s] & ~self.more[s] & (outst[s] == 0) for s in range(nslots)])
        )
        on = lambda ev, s: ev.valid & (ev.slot == s)
        for s in range(nslots):
            inc = on(self.fetch, s) | (job.start & job.csr & (job.slot == s))
            # (a block of the slot may leave the engine in the cycle another one is dropped)
            self.sync += outst[s].eq(outst[s] + inc - on(self.retire, s) - on(self.abort, s))
            self.sync += If(finish[s], act[s].eq(0))
            self.sync += If(job.start & (job.slot == s), act[s].eq(1))
        self.sync += sdone.eq((sdone & ~self.ack_slots) | finish)

        # --- status -------------------------------------------------------------------------------
        self.comb += [
            self.active.eq(Cat(*act)),
            st.busy.eq(Cat(*act) != 0),
            self.event.eq((finish != 0) | csr_bad | dma_bad | self.refuse),
            self.refused.eq(csr_bad | dma_bad),
        ]
        # ack clears what the driver has seen; it comes first, so that an error or a job's end
        # in the cycle of the ack (another slot's) is set after it and not lost
        self.sync += [
            If(
                self.ack,
                st.done.eq(0),
                st.err_len.eq(0),
                st.err_addr.eq(0),
                st.err_state.eq(0),
                st.err_bus.eq(0),
            ),
            If(self.bus_error, st.err_bus.eq(1)),
            If(self.cv_taken, cv_pending.eq(0)),
            If(finish != 0, st.done.eq(1)),
            If((finish != 0) | self.stamp, self.finish_cycles.eq(self.now)),
            If(self.overflow, st.err_state.eq(1)),
            If(
                csr_bad,
                st.done.eq(1),
                If(state_bad | self.csr_busy | r.out, st.err_state.eq(1)).Else(st.err_len.eq(1)),
            ),
            If(
                dma_bad,
                st.done.eq(1),
                If(state_bad, st.err_state.eq(1))
                .Elif(dma_len_bad, st.err_len.eq(1))
                .Else(st.err_addr.eq(1)),
            ),
            If(self.refuse, st.done.eq(1), st.err_state.eq(1)),
            If(starting & r.load_cv & ~r.first, cv_pending.eq(1)),
        ]
