# SPDX-License-Identifier: BSD-2-Clause
"""The AXI burst reader: the DMA reader of an AXI4 port, a block per INCR burst, blocks requested
ahead of the engine.

Why: through DDR's latency (tens of cycles to a read's first beat, e.g. the Zynq's S_AXI_HP0)
one read at a time (DMAReader, a Wishbone classic read a row, bridged to AXI) leaves the port
idle most of the time, while a pipelined engine takes a block per slot every few cycles. This
reader asks for a slot's next block as soon as the slot has one to fetch and buffer room is
free, so several bursts are in flight at once; the blocks wait in a ring buffer (`depth`
blocks: requested, arriving, or waiting for the engine) and leave on `source` in request order.

What it shares with DMAReader (dma_reader.py): the ports but `bus`, the per-slot job state, the
round-robin choice among the slots that may be fetched for, the `pad` jobs (the padding made on
the way out, rows past the message zeros made without a read), Skein's owed output block (a
block of zeros with the port's `out_tweak`, no read). What differs:
- a block is one burst of its rows: ARBURST INCR, ARSIZE the row (dma_width / 8 bytes), ARLEN
  rows - 1, ARCACHE 0011 (normal non-cacheable bufferable, the HP ports' usual setting), ARID
  0 for every burst so the data returns in request order. A burst must not cross a 4 KiB
  boundary (AXI4 A3.4.1); DMA bases are only row-aligned, so a block that straddles one is
  split into two bursts;
- `fetch` fires when a block is requested (or an output / zero block made), so SlotControl
  counts a slot's blocks in the buffer as fetched: a slot may have `per_slot` of them, so
  SlotControl must count up to per_slot + 2 (one in the block register, one in the engine);
- `allow` is the slots whose job runs: unlike DMAReader's single fill buffer, a block that
  must wait for its slot (the engine takes a slot's block only once the previous one left)
  waits in the buffer; the blocks of other slots behind it wait too, but nothing deadlocks, as
  the engine always lets the slot's previous block out;
- a beat with RRESP != OKAY is a bus error (`bus_error`): the slot's job is abandoned (nothing
  more is requested for it) and all its blocks still in the buffer (the failing one, the ones
  requested after it, and the ones before it not yet shown) are dropped as they reach the head,
  each with an `abort`, so SlotControl's count of the slot ends at zero; a block already shown
  on `source` stays until taken (valid until ready).
The buffer is sized so that the R channel is never stalled by the reader (RREADY stays high
but for a cycle at a block without live rows): room is taken when a block is requested.
"""

from litex.soc.interconnect.axi import AXIInterface
from migen import Array, Cat, If, Memory, Module, Mux, Replicate, Signal
from migen.fhdl.bitcontainer import bits_for, log2_int
from migen.genlib.record import Record

from .dma_reader import SlotJobs, add_reader_ports, pad_block, round_robin_pick, row_geometry
from .layouts import TWEAK_BITS, VARIANT_BITS, engine_block

AXI_BURST_INCR = 0b01
AXI_CACHE = 0b0011  # normal non-cacheable bufferable
AXI_4K = 4096  # a burst never crosses a 4 KiB boundary


def default_depth(block_bits):
    """Blocks of the ring buffer: 1 KiB of blocks (16 of 64 bytes, 8 of 128), enough for the
    bursts in flight over ~60 cycles of first-beat latency at a beat per cycle."""
    return max(4, 8192 // block_bits)


class AXIBurstReader(Module):
    """Ports: as DMAReader (dma_reader.py), with `axi` (AXIInterface, `dma_width` data bits,
    byte addresses; only its read channels AR and R are used) in place of `bus`.

    `depth`: blocks in the ring buffer (a power of two); `per_slot`: blocks of one slot in it
    at most; `with_tweak`: keep each block's tweak (Skein); `boundary`: the address boundary no
    burst crosses (AXI's 4 KiB; the formal harness plants a wrong one)."""

    def __init__(
        self,
        nslots: int,
        block_bits: int,
        word_bits: int,
        dma_width: int,
        depth: int | None = None,
        per_slot: int | None = None,
        with_tweak: bool = False,
        zero_pad: bool = False,
        pad_offset: int = 0,
        boundary: int = AXI_4K,
    ):
        _, rpb, rb = row_geometry(block_bits, dma_width)
        depth = depth or default_depth(block_bits)
        per_slot = per_slot or max(1, depth // 2)
        assert depth & (depth - 1) == 0 and depth >= 2
        self.depth, self.per_slot = depth, per_slot
        row_bits = 32 - rb
        self.axi = axi = AXIInterface(data_width=dma_width, address_width=32, id_width=1)
        add_reader_ports(self, nslots, block_bits, row_bits)
        job, seg, tw, source = self.job, self.segments, self.tweak, self.source
        block_bytes = block_bits // 8

        # --- per-slot jobs (as DMAReader), and what a bus error leaves -------------------------
        jobs = SlotJobs(nslots, row_bits, tw, zero_pad, pad_offset)
        cur_row, cur_rows, tail_row, tail_rows = jobs.rows
        nfirst, nlcv, jlast, jvar, jout = jobs.nfirst, jobs.nlcv, jobs.jlast, jobs.jvar, jobs.jout
        left, marked, pmore, plen = jobs.left, jobs.marked, jobs.pmore, jobs.plen
        mk = lambda n, w=1: Array(Signal(w, name=f"{n}{s}") for s in range(nslots))
        drop = mk("drop")  # a bus error: the slot's blocks are dropped
        cnt = mk("in_buf", bits_for(per_slot))  # the slot's blocks in the buffer
        self.comb += self.more.eq(jobs.more)

        # --- the ring buffer: entries taken at the request (alloc), filled in order by the R
        # beats (fill), given to the engine or dropped in order (head) ----------------------------
        pw = log2_int(depth) + 1  # pointers with a wrap bit
        alloc, fill, head = Signal(pw), Signal(pw), Signal(pw)
        idx = lambda p: p[: pw - 1]
        nl_bits = bits_for(rpb)
        e_slot = Array(Signal(len(source.slot), name=f"e_slot{i}") for i in range(depth))
        e_rows = Array(Signal(nl_bits, name=f"e_rows{i}") for i in range(depth))  # live rows
        data = Memory(block_bits, depth, name="blocks")
        wport = data.get_port(write_capable=True, we_granularity=dma_width)
        rport = data.get_port(async_read=True)
        # what `source` needs of a block besides its data, written at the request
        meta_layout = [
            ("first", 1),
            ("load_cv", 1),
            ("last", 1),
            ("variant", VARIANT_BITS),
            ("p_on", 1),
            ("p_cnt", bits_for(block_bytes)),
            ("p_mark", 1),
            ("p_last", 1),
        ]
        if with_tweak:
            meta_layout.append(("tweak", TWEAK_BITS))
        m_in, m_out = Record(meta_layout), Record(meta_layout)
        meta = Memory(len(m_in.raw_bits()), depth, name="block_meta")
        mwport = meta.get_port(write_capable=True)
        mrport = meta.get_port(async_read=True)
        self.specials += data, wport, rport, meta, mwport, mrport

        # --- the choice: a slot with a block to request, room in the buffer ----------------------
        ar_busy = Signal()  # a request's burst(s) not yet accepted
        req = Signal(nslots)
        self.comb += req.eq(
            self.allow & self.more & Cat(*[cnt[s] < per_slot for s in range(nslots)])
        )
        choose = Signal()
        any_req, pick, rr_comb, rr_sync = round_robin_pick(choose, req, nslots)
        self.comb += rr_comb
        self.sync += rr_sync
        used = Signal(pw)  # entries taken
        self.comb += [
            used.eq(alloc - head),
            choose.eq(any_req & ~self.pause & ~ar_busy & (used != depth)),
        ]

        # the block requested for `pick`: its live rows (a pad job's last rows, none for a zero
        # block or the owed output block), its flags, the pad facts of its bytes
        rows = cur_rows[pick]
        synth = Signal()  # Skein's owed output block
        live = Signal(nl_bits)
        job_end = Signal()
        self.comb += [
            synth.eq(jobs.output_due(pick)),
            live.eq(Mux(rows >= rpb, rpb, rows)),
            job_end.eq((rows <= rpb) & (tail_rows[pick] == 0)),
        ]
        lft = left[pick]
        full, pad_last, comb = jobs.pad_facts(pick, block_bytes)
        self.comb += comb
        self.comb += [
            m_in.first.eq(nfirst[pick] & ~synth),
            m_in.load_cv.eq(nlcv[pick] & ~synth),
            m_in.last.eq(
                Mux(
                    synth,
                    jlast[pick],
                    jlast[pick] & Mux(pmore[pick], pad_last, job_end) & ~jout[pick],
                )
            ),
            m_in.variant.eq(jvar[pick]),
            m_in.p_on.eq(pmore[pick] & ~synth),
            m_in.p_cnt.eq(Mux(full, block_bytes, lft)),
            m_in.p_mark.eq(~marked[pick] & ~full),
            m_in.p_last.eq(pad_last),
            mwport.adr.eq(idx(alloc)),
            mwport.dat_w.eq(m_in.raw_bits()),
            mwport.we.eq(choose),
            self.fetch.valid.eq(choose),
            self.fetch.slot.eq(pick),
            tw.slot.eq(pick),
            tw.final.eq(Mux(pmore[pick], pad_last, job_end)),
            tw.advance.eq(choose & ~synth),
            tw.out_slot.eq(pick),
            tw.out_take.eq(choose & synth),
        ]
        if with_tweak:
            self.comb += m_in.tweak.eq(Mux(synth, tw.out_tweak, tw.tweak))
        self.sync += If(
            choose,
            alloc.eq(alloc + 1),
            e_slot[idx(alloc)].eq(pick),
            e_rows[idx(alloc)].eq(live),
            If(
                ~synth,
                nfirst[pick].eq(0),
                nlcv[pick].eq(0),
                If(
                    (rows <= rpb) & (tail_rows[pick] != 0),
                    cur_row[pick].eq(tail_row[pick]),
                    cur_rows[pick].eq(tail_rows[pick]),
                    tail_rows[pick].eq(0),
                ).Else(
                    cur_row[pick].eq(cur_row[pick] + live),
                    cur_rows[pick].eq(rows - live),
                ),
                If(
                    pmore[pick],
                    left[pick].eq(Mux(full, lft - block_bytes, 0)),
                    If(~full, marked[pick].eq(1)),
                    If(pad_last, pmore[pick].eq(0)),
                ),
            ),
        )

        # --- the address channel: the block's rows as one INCR burst, two at a 4 KiB boundary --
        row_4k = boundary // (dma_width // 8)  # rows per 4 KiB
        ar_row = Signal(row_bits)
        ar_rows = Signal(nl_bits)
        to_4k = Signal(bits_for(row_4k))
        beats = Signal(nl_bits)
        ar = axi.ar
        self.comb += [
            to_4k.eq(row_4k - ar_row[: log2_int(row_4k)]),
            beats.eq(Mux(ar_rows > to_4k, to_4k, ar_rows)),
            ar.valid.eq(ar_busy),
            ar.addr.eq(ar_row << rb),
            ar.len.eq(beats - 1),
            ar.size.eq(rb),
            ar.burst.eq(AXI_BURST_INCR),
            ar.cache.eq(AXI_CACHE),
            ar.id.eq(0),
            ar.lock.eq(0),
            ar.prot.eq(0),
            ar.qos.eq(0),
        ]
        self.sync += [
            If(
                ar.valid & ar.ready,
                If(
                    ar_rows > beats,
                    ar_row.eq(ar_row + beats),
                    ar_rows.eq(ar_rows - beats),
                ).Else(
                    ar_busy.eq(0),
                ),
            ),
            If(choose & (live != 0), ar_busy.eq(1), ar_row.eq(cur_row[pick]), ar_rows.eq(live)),
        ]

        # --- the data channel: beats into the entry being filled, in request order --------------
        r = axi.r
        beat = Signal(nl_bits)
        f_slot, f_rows = e_slot[idx(fill)], e_rows[idx(fill)]
        skip = Signal()  # the entry being filled has no live rows
        got, err = Signal(), Signal()
        self.comb += [
            skip.eq((fill != alloc) & (f_rows == 0)),
            r.ready.eq(~skip),
            got.eq(r.valid & r.ready & (fill != alloc)),
            err.eq(got & (r.resp != 0)),
            wport.adr.eq(idx(fill)),
            wport.dat_w.eq(Replicate(r.data, rpb)),
            wport.we.eq(Mux(got, 1 << beat, 0)),
            self.bus_error.eq(err),
        ]
        self.sync += [
            If(skip, fill.eq(fill + 1)),
            If(
                got,
                If(beat == f_rows - 1, beat.eq(0), fill.eq(fill + 1)).Else(beat.eq(beat + 1)),
            ),
        ]

        # --- the head: the oldest filled block to the engine, or dropped ------------------------
        h_slot = e_slot[idx(head)]
        h_rows = e_rows[idx(head)]
        ready_blk, release, h_drop = Signal(), Signal(), Signal()
        # a block shown and not yet taken stays shown (valid until ready) even when a bus error
        # on a later block of its slot abandons the job: its own beats were good
        shown = Signal()
        self.sync += shown.eq(source.valid & ~source.ready)
        self.comb += [
            ready_blk.eq(head != fill),
            h_drop.eq(drop[h_slot] & ~shown),
            source.valid.eq(ready_blk & ~h_drop),
            release.eq(ready_blk & (h_drop | source.ready)),
            self.abort.valid.eq(ready_blk & h_drop),
            self.abort.slot.eq(h_slot),
            rport.adr.eq(idx(head)),
            mrport.adr.eq(idx(head)),
            m_out.raw_bits().eq(mrport.dat_r),
        ]
        self.sync += If(release, head.eq(head + 1))
        for s in range(nslots):
            inc = choose & (pick == s)
            dec = release & (h_slot == s)
            self.sync += If(inc & ~dec, cnt[s].eq(cnt[s] + 1)).Elif(
                dec & ~inc, cnt[s].eq(cnt[s] - 1)
            )

        # the block in memory order: rows past the live ones zero, then the padding (DMAReader's
        # rule: `p_cnt` message bytes, 0x80 when `p_mark`, zeros, the bit length when `p_last`)
        blk_le = Signal(block_bits)
        p_bits = Signal(35)
        self.comb += [
            blk_le.eq(
                Cat(
                    *[
                        Mux(h_rows > i, rport.dat_r[dma_width * i : dma_width * (i + 1)], 0)
                        for i in range(rpb)
                    ]
                )
            ),
            # the slot's job is the block's: a job starts on a slot only once its blocks left
            p_bits.eq(plen[h_slot] << 3),
        ]
        padded_le, comb = pad_block(
            blk_le, m_out.p_on, m_out.p_cnt, m_out.p_mark, m_out.p_last, p_bits, zero_pad
        )
        self.comb += comb
        self.comb += [
            source.data.eq(engine_block(padded_le, word_bits)),
            source.slot.eq(h_slot),
            source.first.eq(m_out.first),
            source.load_cv.eq(m_out.load_cv),
            source.last.eq(m_out.last),
            source.variant.eq(m_out.variant),
        ]
        if with_tweak:
            self.comb += source.tweak.eq(m_out.tweak)

        # --- a bus error abandons the slot's job; a start on a slot wins over the updates above --
        self.sync += If(
            err,
            drop[f_slot].eq(1),
            cur_rows[f_slot].eq(0),
            tail_rows[f_slot].eq(0),
            pmore[f_slot].eq(0),
        )
        self.sync += jobs.start(job, seg, lambda s: [drop[s].eq(0)])
        # the write channels are not this reader's
        self.comb += [axi.aw.valid.eq(0), axi.w.valid.eq(0), axi.b.ready.eq(0)]
