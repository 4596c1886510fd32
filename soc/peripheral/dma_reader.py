# SPDX-License-Identifier: BSD-2-Clause
"""The DMA reader: whole blocks from main RAM for the slots with work, round-robin.

Each slot's job has up to two segments (the message, then e.g. the padded tail the C library
builds), in rows of `dma_width` bits (a power of two from 32 bits up to the block). The reader
picks the first slot after the previous pick that may be fetched for (`allow`: a job runs and no
block of the slot waits in front of the engine) and has blocks left, reads the block's rows into
a fill buffer, one Wishbone classic read a row, and offers the block on `source` with the job's
flags; the next fetch is chosen in the cycle the buffer is taken. A slot's next block may thus
be read while its previous one is in the engine (the data does not depend on the chaining value;
the engine admits a slot's block only once the previous one has left), so a pipelined engine
stays full. A bus error abandons the slot's job: nothing more is read for it, the partial block
is dropped. A slot that owes an extra block after its segments (Skein's output block, on the
tweak port) gets it made in the buffer at once: zero data, the port's `out_tweak`.

A `pad` job (SHA families) names the whole message, any number of bytes: the reader reads the
rows that hold it and makes the padding (FIPS 180-4 sec. 5.1) on the way out: the bytes past
the message are replaced by 0x80 and zeros, rows past it are zeros made without a bus read, and
the last block ends with the message's bit length. The CPU builds no tail and copies nothing.
A Skein reader (`zero_pad`) pads the way UBI does (Ferguson et al., "The Skein Hash Function
Family", v1.3, 2010, section 3.4): the bytes past the message are zeros, no marker and no length
(the final block's tweak carries the byte count: the tweak stage), the block holding the
message's last byte is the final one, and the empty message is one zero block.
"""

from litex.soc.interconnect import stream, wishbone
from migen import Array, Cat, If, Module, Mux, Replicate, Signal
from migen.fhdl.bitcontainer import log2_int
from migen.genlib.record import Record

from .layouts import (
    VARIANT_BITS,
    block_layout,
    engine_block,
    job_layout,
    segment_layout,
    slot_event_layout,
    tweak_port_layout,
)


def row_geometry(block_bits, dma_width):
    """(row bytes, rows per block, log2 row bytes) of a DMA of `dma_width`-bit rows; a width
    that is not a power-of-two multiple of 32 dividing the block is a ValueError."""
    if dma_width % 32 or block_bits % dma_width or dma_width & (dma_width - 1):
        raise ValueError(f"dma_width must be a power of two multiple of 32 dividing {block_bits}")
    row_bytes = dma_width // 8
    return row_bytes, block_bits // dma_width, log2_int(row_bytes)


def round_robin_choice(req, last, n):
    """The first of the n request bits `req` after position `last` (cyclically): returns
    (pick, comb statements).

    The sum start + off (up to 2n - 2) gets a signal of its own: inside a comparison Verilog
    sizes `start + off` to its operands (log2 n bits), so for n not a power of two it wrapped
    (n = 6: 4 + 4 = 8 read as 0, picking slot 0 for slot 2), while Migen's simulator, on Python
    integers, was right."""
    w = max(2, n)
    start = Signal(max=w, name="rr_start")
    rot = Signal(n, name="rr_rot")
    off = Signal(max=w, name="rr_off")
    total = Signal(max=2 * w, name="rr_total")
    pick = Signal(max=w, name="rr_pick")
    comb = [
        start.eq(Mux(last == n - 1, 0, last + 1)),
        rot.eq(Cat(req, req) >> start),
        off.eq(0),
    ]
    comb += [If(rot[k], off.eq(k)) for k in reversed(range(n))]
    comb += [total.eq(start + off), pick.eq(Mux(total >= n, total - n, total))]
    return pick, comb


def add_reader_ports(reader, nslots, block_bits, row_bits):
    """The ports every DMA reader has but its bus (DMAReader's docstring), set on `reader`."""
    reader.job = Record(job_layout(nslots))
    reader.segments = Record(segment_layout(row_bits))
    reader.allow = Signal(nslots)
    reader.pause = Signal()
    reader.more = Signal(nslots)
    reader.fetch = Record(slot_event_layout(nslots))
    reader.abort = Record(slot_event_layout(nslots))
    reader.bus_error = Signal()
    reader.tweak = Record(tweak_port_layout(nslots))
    reader.source = stream.Endpoint(block_layout(block_bits, nslots))


class SlotJobs:
    """The per-slot state of the jobs a DMA reader serves: the segments' rows (`cur_row`,
    `cur_rows`: the current one; `tail_row`, `tail_rows`), the next block's flags (`nfirst`,
    `nlcv`), the job's (`jlast`, `jvar`, `jout`: Skein's output block owed, from the tweak
    port), a `pad` job's message bytes not yet in a block (`left`), whether its 0x80 byte is
    placed (`marked`), whether blocks are left (`pmore`) and its length (`plen`); `more`: the
    slots with blocks left to fetch. Arrays of one signal per slot. `pad_offset`: bytes the
    padding's length counts before a pad job's message (HMAC's inner hash: the K0 ^ ipad block
    that the key's stored state stands for)."""

    @property
    def rows(self):
        """The segments' rows: (cur_row, cur_rows, tail_row, tail_rows)."""
        return self.cur_row, self.cur_rows, self.tail_row, self.tail_rows

    def __init__(self, nslots, row_bits, tweak, zero_pad=False, pad_offset=0):
        mk = lambda n, w=1: Array(Signal(w, name=f"{n}{s}") for s in range(nslots))
        self.nslots = nslots
        self.zero_pad = zero_pad  # Skein's padding (pad_facts), not MD's
        self.pad_offset = pad_offset
        self.cur_row = mk("cur_row", row_bits)  # next row to read
        self.cur_rows = mk("cur_rows", row_bits)  # rows left in the current segment
        self.tail_row = mk("tail_row", row_bits)
        self.tail_rows = mk("tail_rows", row_bits)
        self.nfirst = mk("nfirst")  # the slot's next block is its job's first
        self.nlcv = mk("nlcv")  # ... and starts from cv
        self.jlast = mk("jlast")  # the job ends the message
        self.jvar = mk("jvar", VARIANT_BITS)
        self.jout = Array(tweak.out_pending[s] for s in range(nslots))
        self.left = mk("pad_left", 33)
        self.marked = mk("pad_marked")
        self.pmore = mk("pad_more")
        self.plen = mk("pad_len", 32)
        self.more = Cat(
            *[(self.cur_rows[s] != 0) | self.jout[s] | self.pmore[s] for s in range(nslots)]
        )

    def pad_facts(self, slot, block_bytes):
        """Of `slot`'s next block of a pad job: whether the message fills it (`full`) and
        whether it is the job's last (`pad_last`: MD: the 0x80 placed, or room for the length;
        Skein: the message's last byte is in it, or the message is empty).
        Returns (full, pad_last, comb statements)."""
        len_bytes = block_bytes // 8  # the length field: 64 bits (SHA-1/256), 128 (SHA-512)
        full, pad_last = Signal(name="full"), Signal(name="pad_last")
        lft = self.left[slot]
        last = (
            (lft <= block_bytes)
            if self.zero_pad
            else (self.marked[slot] | (lft < block_bytes - len_bytes))
        )
        return full, pad_last, [full.eq(lft >= block_bytes), pad_last.eq(last)]

    def output_due(self, slot):
        """`slot` owes its output block now: its rows are read and a pad job's blocks made."""
        return self.jout[slot] & (self.cur_rows[slot] == 0) & ~self.pmore[slot]

    def start(self, job, seg, extra=lambda s: []):
        """The sync statements of a job start (after the reader's updates: a start on a slot
        wins over them); `extra(s)`: the reader's own statements for slot s."""
        return [
            If(
                job.start & (job.slot == s),
                self.nfirst[s].eq(job.first),
                self.nlcv[s].eq(job.load_cv),
                self.jlast[s].eq(job.last),
                self.jvar[s].eq(job.variant),
                self.pmore[s].eq(job.pad & ~job.csr),
                self.left[s].eq(seg.bytes),
                self.plen[s].eq(seg.bytes + self.pad_offset),
                self.marked[s].eq(0),
                If(
                    job.csr,
                    self.cur_rows[s].eq(0),
                    self.tail_rows[s].eq(0),
                ).Else(
                    self.cur_row[s].eq(seg.row),
                    self.cur_rows[s].eq(seg.rows),
                    self.tail_row[s].eq(seg.tail_row),
                    self.tail_rows[s].eq(seg.tail_rows),
                ),
                *extra(s),
            )
            for s in range(self.nslots)
        ]


def pad_masks(p_on, p_cnt, p_mark, block_bytes):
    """Which bytes of a pad job's block are padding (`pad`, one bit a byte) and which one
    holds the 0x80 marker (`mark`): when `p_on`, those after the `p_cnt` message bytes, the
    marker the first of them when `p_mark`. Returns (pad, mark) as lists of one expression a
    byte. They are Mux selects, and Migen's simulator reads ~0 of a bit as -1, true: a `~`
    appears only under an `&` with a one-bit operand, which keeps bit 0."""
    nb = log2_int(block_bytes, need_pow2=False)
    if 1 << nb != block_bytes or nb < 5:
        pad = [p_on & (p_cnt <= i) for i in range(block_bytes)]
        mark = [p_on & p_mark & (p_cnt == i) for i in range(block_bytes)]
        return pad, mark
    # Byte i = 16 j + k compared as (high part, low nibble): a decoder each, and one LUT a byte
    # (on, hi < j, hi == j, lo <= k). Compared whole, synthesis shared each comparison with
    # the next byte's and the bytes' masks formed a chain of LUTs across the block.
    on = p_on & ~p_cnt[nb] if len(p_cnt) > nb else p_on  # p_cnt == block_bytes: no padding
    lo, hi = p_cnt[:4], p_cnt[4:nb]
    pad = [
        on & ((hi < (i >> 4)) | ((hi == (i >> 4)) & (lo <= (i & 15)))) for i in range(block_bytes)
    ]
    mark = [on & p_mark & (hi == (i >> 4)) & (lo == (i & 15)) for i in range(block_bytes)]
    return pad, mark


def pad_mask_groups(p_on, p_cnt, p_mark, block_bytes):
    """pad_masks in two steps, for a power-of-two block of 32 bytes or more: registers a group
    of 16 bytes (`sync`: on and the count's high part equal to the group, below it, the marker
    in it, and the low nibble where it is equal, else 0: each group's registers differ, so
    synthesis keeps them apart), from which each byte's masks are one LUT. Every group's
    registers can sit beside its bytes, and one broadcast from a central decoder no longer
    reaches masks spread along the block. Returns (sync statements, pad, mark), the masks
    of the registered inputs, a cycle after them."""
    nb = log2_int(block_bytes)
    assert nb >= 5
    on = p_on & ~p_cnt[nb] if len(p_cnt) > nb else p_on
    lo, hi = p_cnt[:4], p_cnt[4:nb]
    sync, pad, mark = [], [], []
    for g in range(block_bytes // 16):
        eq, below, marker = (
            Signal(name=f"pad_eq{g}"),
            Signal(name=f"pad_below{g}"),
            Signal(name=f"pad_mark{g}"),
        )
        nib = Signal(4, name=f"pad_lo{g}", reset_less=True)
        sync += [
            eq.eq(on & (hi == g)),
            below.eq(on & (hi < g)),
            marker.eq(on & p_mark & (hi == g)),
            nib.eq(Mux(hi == g, lo, 0)),
        ]
        pad += [below | (eq & (nib <= k)) for k in range(16)]
        mark += [marker & (nib == k) for k in range(16)]
    return sync, pad, mark


def apply_pad(block_le, pad, mark, p_last, p_bits, zero_pad=False):
    """A pad job's block in memory order from its bytes `block_le` and the byte masks of
    pad_masks: the bytes not padding, then 0x80 where marked, zeros, and the bit length
    `p_bits` in the last bytes when `p_last` (FIPS 180-4 sec. 5.1); `zero_pad` (Skein): zeros
    only.
    Returns (the padded block, comb statements)."""
    if zero_pad:
        p_last = 0
        mark = [0] * len(mark)
    block_bytes = len(block_le) // 8
    padded_le = Signal(len(block_le), name="padded_le")
    comb = []
    for i in range(block_bytes):
        byte = block_le[8 * i : 8 * i + 8]
        k = block_bytes - 1 - i  # the length's byte k (little-endian) sits at byte i
        length_byte = p_bits[8 * k : 8 * k + 8] if 8 * k < len(p_bits) else 0
        comb.append(
            padded_le[8 * i : 8 * i + 8].eq(
                Mux(pad[i], Mux(mark[i], 0x80, 0) | Mux(p_last, length_byte, 0), byte)
            )
        )
    return padded_le, comb


def pad_block(block_le, p_on, p_cnt, p_mark, p_last, p_bits, zero_pad=False):
    """A pad job's block in memory order from its bytes `block_le`: `p_cnt` message bytes
    (when `p_on`), then 0x80 when `p_mark`, zeros, and the bit length `p_bits` in the last
    bytes when `p_last` (FIPS 180-4 sec. 5.1); `zero_pad` (Skein): zeros only.
    Returns (the padded block, comb statements)."""
    pad, mark = pad_masks(p_on, p_cnt, p_mark, len(block_le) // 8)
    return apply_pad(block_le, pad, mark, p_last, p_bits, zero_pad)


def round_robin_pick(sync_ce, req, n):
    """Round-robin choice among the n request bits `req`: returns (any, slot, comb, sync) where
    `slot` is the first requester after the previous choice (cyclically); `comb` are the
    comb statements, and the previous choice advances on `sync_ce` (sync statements)."""
    last = Signal(max=max(2, n), name="rr_last")
    pick, comb = round_robin_choice(req, last, n)
    sync = [If(sync_ce, last.eq(pick))]
    return req != 0, pick, comb, sync


class DMAReader(Module):
    """Ports:
    - `bus` (Wishbone master, `dma_width` data bits, row addresses): the reads;
    - `job` (job_layout, in), `segments` (segment_layout, in): a job starts (a CSR job has no
      segments);
    - `allow` (nslots, in): slots that may be fetched for; `pause` (in): fetch nothing new;
    - `more` (nslots, out): slots with blocks left to fetch (rows, or an output block owed);
    - `fetch` (slot_event_layout, out): a fetch for `slot` begins (or its output block is made);
    - `abort` (out): the fetch for `slot` is dropped by a bus error; `bus_error` (out): a bus
      error this cycle;
    - `tweak` (tweak_port_layout, master side): the Skein tweak stage, or nothing;
    - `source` (block_layout, out): the fetched block, in the engine's word order."""

    def __init__(self, nslots, block_bits, word_bits, dma_width, zero_pad=False, pad_offset=0):
        _, rows_per_block, rb = row_geometry(block_bits, dma_width)
        row_bits = 32 - rb
        self.bus = bus = wishbone.Interface(
            data_width=dma_width, address_width=32, addressing="word"
        )
        add_reader_ports(self, nslots, block_bits, row_bits)
        job, seg, tw, source = self.job, self.segments, self.tweak, self.source

        # --- per-slot jobs ------------------------------------------------------------------
        jobs = SlotJobs(nslots, row_bits, tw, zero_pad, pad_offset)
        cur_row, cur_rows, tail_row, tail_rows = jobs.rows
        nfirst, nlcv, jlast, jvar, jout = jobs.nfirst, jobs.nlcv, jobs.jlast, jobs.jvar, jobs.jout
        left, marked, pmore, plen = jobs.left, jobs.marked, jobs.pmore, jobs.plen
        self.comb += self.more.eq(jobs.more)

        # --- the choice ---------------------------------------------------------------------
        # the row buffer has no reset: every row is written (or zeroed, for a made block) before
        # the block is shown, and on the reset net its bits were a third of the ECP5 SoC's LSR sinks
        fill = Array(
            Signal(dma_width, name=f"fill{i}", reset_less=True) for i in range(rows_per_block)
        )
        fill_cnt = Signal(max=rows_per_block + 1)
        filling = Signal()
        fs = Signal(len(source.slot))  # the slot being fetched
        req = Signal(nslots)
        # the next fetch is chosen in the cycle the buffer's block leaves (not a cycle after):
        # with rows as wide as the block a fetch then takes three cycles, not four, which is
        # what a pipelined engine taking a block every 20/6 cycles needs (skein512:r8:fp2:sp3).
        # The leaving block's slot is not chosen again then: its next block would wait for it.
        leaving = Signal(nslots)
        self.comb += If(source.valid, leaving.eq(1 << source.slot))
        self.comb += req.eq(self.allow & self.more & ~leaving)
        choose = Signal()
        any_req, pick, rr_comb, rr_sync = round_robin_pick(choose, req, nslots)
        self.comb += rr_comb
        self.sync += rr_sync
        self.comb += choose.eq(~filling & (~source.valid | source.ready) & any_req & ~self.pause)
        # (out) a fetch would start now but for `pause`: the batch walker leaves the bus to it
        self.wants = Signal()
        self.comb += self.wants.eq(~filling & (~source.valid | source.ready) & any_req)
        # an owed output block, once the slot's rows are read: made at once, no bus read
        synth = Signal()
        self.comb += synth.eq(jobs.output_due(pick))

        # --- the reads ----------------------------------------------------------------------
        # a pad job's rows past its message are zeros made without a bus read. Whether the
        # slot's segment has rows left is kept in a bit of its own (`live`, = cur_rows != 0),
        # set with cur_rows: compared as it was read, the fetched slot's row count reached the
        # enables of every bit of the row buffer through a wide comparison (the four-engine
        # ECP5 SoC's next long sys path once the pad masks were registers).
        live = Array(Signal(name=f"row_live{s}") for s in range(nslots))
        self.live = live  # (the benches check it against cur_rows)
        self.jobs = jobs
        got = Signal()
        row_live = Signal()
        self.filling = filling
        self.comb += [
            row_live.eq(live[fs]),
            bus.cyc.eq(filling & row_live),
            bus.stb.eq(filling & row_live),
            bus.we.eq(0),
            bus.sel.eq(Replicate(1, dma_width // 8)),
            bus.adr.eq(cur_row[fs]),
            got.eq(filling & (bus.ack | ~row_live)),
        ]
        last_row_of_block = fill_cnt == rows_per_block - 1
        seg_end = cur_rows[fs] == 1
        job_end = seg_end & (tail_rows[fs] == 0)
        fill_le = Signal(block_bits, reset_less=True)  # the buffer's bytes in memory order
        block_bytes = block_bits // 8
        # the block on `source` of a pad job: `p_cnt` message bytes, then 0x80 when `p_mark`,
        # zeros, and the bit length in the last bytes when `p_last`
        p_on, p_mark, p_last = Signal(), Signal(), Signal()
        p_cnt = Signal(max=block_bytes + 1)
        p_bits = Signal(35)
        self.pad_out = (p_on, p_cnt, p_mark, p_last, p_bits)  # the block on `source` (benches)
        lft = left[fs]
        full, pad_last, comb = jobs.pad_facts(fs, block_bytes)
        self.comb += comb
        # The byte masks are registers, set with p_cnt from its next value: formed from p_cnt
        # on the way out, the comparisons (shared between bytes by synthesis) chained across
        # the block register's bits, and with the block register next to an engine in a clock
        # domain of its own that chain crossed the ECP5 die three times (the four-engine SoC's
        # longest sys path, about 35 ns). Registered, a block byte is one LUT from its row.
        n_on, n_cnt, n_mark = Signal(), Signal(max=block_bytes + 1), Signal()
        self.comb += [
            n_on.eq(pmore[fs]),
            n_cnt.eq(Mux(full, block_bytes, lft)),
            n_mark.eq(~marked[fs] & ~full),
        ]
        pad = Signal(block_bytes, reset_less=True)  # (set before every block is shown)
        mark = Signal(block_bytes, reset_less=True)
        # (a full block has no padding: its masks from `left`'s low bits, not through n_cnt)
        m_on = Signal()
        self.comb += m_on.eq(n_on & ~full)
        m_cnt = lft[: log2_int(block_bytes, need_pow2=False)]
        if rows_per_block > 2 and block_bytes in (64, 128):
            # With three rows or more a block there is a cycle more before the last row: the
            # masks' inputs (read through the slot multiplexer and `full`'s wide comparison)
            # are registered first, a set a group of 16 bytes (pad_mask_groups), and each
            # group's masks decoded from its own (in one cycle, slot multiplexer, comparison
            # and a central decoder's fan-out to the mask registers spread over the die were
            # the four-engine ECP5 SoC's next sys path; from one register set, the decoder's
            # fan-out still was).
            stage, next_pad, next_mark = pad_mask_groups(m_on, m_cnt, n_mark, block_bytes)
            self.sync += stage
        else:
            next_pad, next_mark = pad_masks(m_on, m_cnt, n_mark, block_bytes)
        next_pad, next_mark = Cat(*next_pad), Cat(*next_mark)
        if rows_per_block > 1:
            # ... and formed a cycle ahead, from the slot being fetched (`fs`, set a cycle
            # before its first row, so at least a cycle before its last one; its `left` moves
            # only with a block's last row): the masks' comparisons then end in registers of
            # their own beside them, and each mask bit loads from one register (the
            # comparisons' fan-out to bits spread along the block was the next long sys path).
            # With one row a block the last row can come the cycle after the choice; those
            # readers (the simulated SoC's 512-bit port) form the masks as they load.
            ahead_pad = Signal(block_bytes, reset_less=True)
            ahead_mark = Signal(block_bytes, reset_less=True)
            self.sync += ahead_pad.eq(next_pad), ahead_mark.eq(next_mark)
            next_pad, next_mark = ahead_pad, ahead_mark
        padded_le, comb = apply_pad(fill_le, pad, mark, p_last, p_bits, zero_pad)
        self.comb += comb
        self.comb += [
            fill_le.eq(Cat(*fill)),
            source.data.eq(engine_block(padded_le, word_bits)),
            source.slot.eq(fs),
            self.fetch.valid.eq(choose),
            self.fetch.slot.eq(pick),
            self.bus_error.eq(filling & bus.err),
            self.abort.valid.eq(filling & bus.err & ~got),
            self.abort.slot.eq(fs),
            # (a pad job's final block: the padding's last)
            tw.slot.eq(fs),
            tw.final.eq(Mux(pmore[fs], pad_last, job_end)),
            tw.advance.eq(got & last_row_of_block),
            tw.out_slot.eq(pick),
            tw.out_take.eq(choose & synth),
        ]
        self.sync += [
            If(source.valid & source.ready, source.valid.eq(0)),
            If(
                choose & ~synth,
                filling.eq(1),
                fs.eq(pick),
                fill_cnt.eq(0),
            ),
            If(
                choose & synth,
                fs.eq(pick),
                source.valid.eq(1),
                [fill[i].eq(0) for i in range(rows_per_block)],
                source.first.eq(0),
                source.load_cv.eq(0),
                source.last.eq(jlast[pick]),
                source.variant.eq(jvar[pick]),
                source.tweak.eq(tw.out_tweak),
            ),
            If(
                got,
                fill[fill_cnt].eq(Mux(row_live, bus.dat_r, 0)),
                fill_cnt.eq(fill_cnt + 1),
                If(
                    row_live,  # (a pad job's zero row advances no segment)
                    If(
                        seg_end & (tail_rows[fs] != 0),
                        cur_row[fs].eq(tail_row[fs]),
                        cur_rows[fs].eq(tail_rows[fs]),
                        tail_rows[fs].eq(0),
                    ).Else(
                        cur_row[fs].eq(cur_row[fs] + 1),
                        cur_rows[fs].eq(cur_rows[fs] - 1),
                        live[fs].eq(~seg_end),
                    ),
                ),
                If(
                    last_row_of_block,
                    filling.eq(0),
                    source.valid.eq(1),
                    source.first.eq(nfirst[fs]),
                    source.load_cv.eq(nlcv[fs]),
                    source.last.eq(jlast[fs] & job_end & ~jout[fs]),
                    source.variant.eq(jvar[fs]),
                    source.tweak.eq(tw.tweak),
                    nfirst[fs].eq(0),
                    nlcv[fs].eq(0),
                    p_on.eq(n_on),
                    p_cnt.eq(n_cnt),
                    p_mark.eq(n_mark),
                    pad.eq(next_pad),
                    mark.eq(next_mark),
                    p_last.eq(pad_last),
                    p_bits.eq(plen[fs] << 3),
                    If(
                        pmore[fs],
                        source.last.eq(jlast[fs] & pad_last & ~jout[fs]),
                        left[fs].eq(Mux(full, lft - block_bytes, 0)),
                        If(~full, marked[fs].eq(1)),
                        If(pad_last, pmore[fs].eq(0)),
                    ),
                ),
            ),
            If(choose & synth, p_on.eq(0), pad.eq(0)),
            If(
                filling & row_live & bus.err,
                # abandon the slot's job: nothing more is read, the partial block is dropped
                filling.eq(0),
                cur_rows[fs].eq(0),
                live[fs].eq(0),
                tail_rows[fs].eq(0),
                pmore[fs].eq(0),
            ),
        ]
        # a start on a slot wins over the updates above
        self.sync += jobs.start(job, seg, lambda s: [live[s].eq(~job.csr & (seg.rows != 0))])
