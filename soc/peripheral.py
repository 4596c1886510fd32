"""The hash peripheral: one engine behind CSRs and a bus-mastering DMA (soc/REGISTERS.md).

An engine with S slots (S = p for a p-stage pipeline) holds S messages; every register that
starts a job names its slot (`ctrl.slot`), and the peripheral keeps one job per slot:
- CSR path: the CPU writes one block into `din` (32-bit big-endian words) and pulses `start`;
- DMA path: the CPU gives a segment (`dma_base`/`dma_length`) and optionally a second one
  (`tail_base`/`tail_length`, e.g. the padded tail the C library builds), and pulses
  `dma_start`. The reader fetches blocks for the slots with work, in round-robin order, a
  whole block at a time, into a fill buffer that moves to the block register in front of the
  engine; a slot's next block may be fetched while its previous one is in the engine (the
  data does not depend on the chaining value; the engine itself admits a slot's block only
  once the previous one has left, seed 000's scheduling rule), so the pipeline stays full.
The DMA reads rows of `dma_width` bits (32 on the SoC bus, or a block-wide port such as
soc.wide_ram.WideRAM's); segments must be aligned to a row. Each slot's chaining value is
kept (`digest_sel` picks which one `digest` shows); `slots_done` says which jobs finished.
Bad jobs (length, range, state, slot) never start and are reported in `status`; the
peripheral stays usable after `ack`.
"""
from migen import Module, Signal, Cat, If, Array, Memory, Constant, Mux, Replicate
from migen.fhdl.bitcontainer import log2_int

from litex.soc.interconnect import wishbone
from litex.soc.interconnect.csr import AutoCSR, CSRStorage, CSRStatus, CSRField
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourcePulse

from litedigest import spec as specmod
from litedigest.ip import skein512
from litedigest.ip.engines import make_engine

ARCH_CODES = {"base": 0, "opt": 1, "k5": 2, "r1": 3, "r4": 4, "r8": 5}

# Skein's tweak word T1 (bits 127:64 of the tweak): first, final, bitpad flags
TWEAK_FIRST, TWEAK_FINAL, TWEAK_BITPAD = 126, 127, 119


# the output UBI's first block (Skein 1.3: counter 0, 8 bytes): position 8, OUT, first, final
OUTPUT_TWEAK = (((skein512.T_OUT << 56) | skein512.FLAG_FIRST | skein512.FLAG_FINAL) << 64) | 8


def tweak_of_block(start, pos, first, is_final, final_bytes):
    """The tweak of one block of a Skein job (REGISTERS.md "Skein"): the job's `start` tweak
    with the position `pos` + 64 (or + final_bytes for the UBI's final block), first only when
    `first`, final and bitpad only on the final block. Returns (tweak, new position)."""
    new_pos = Signal(96)
    tw = Signal(128)
    final_on = start[TWEAK_FINAL] & is_final
    return tw, new_pos, [
        new_pos.eq(pos + Mux(final_on, final_bytes, 64)),
        tw.eq(Cat(new_pos, start[96:119], start[TWEAK_BITPAD] & final_on, start[120:126],
                  first, final_on)),
    ]


def _msw_first(sig, nwords, width):
    """LiteX multi-word CSRs put the most significant 32 bits at the lowest address; the engine
    puts word 0 (H0) at the least significant bits. Reorder the engine words so H0 sits at the
    lowest address (a 64-bit word: its high half first)."""
    return Cat(*[sig[width * (nwords - 1 - i):width * (nwords - i)] for i in range(nwords)])


def _bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


def engine_block(block_le, word_bits):
    """The engine's block (word i at bits [W*i, W*(i+1)), big-endian words) from the block's
    bytes in memory order (byte k at bits [8k, 8k+8))."""
    nb = word_bits // 8
    nbytes = len(block_le) // 8
    byte = lambda k: block_le[8 * k:8 * (k + 1)]
    return Cat(*[byte(i * nb + nb - 1 - j) for i in range(nbytes // nb) for j in range(nb)])


class CycleCounter(Module, AutoCSR):
    """Free-running cycle counter; a write to `cycles_latch` snapshots it into `cycles_value`.
    Mixed into the peripheral so its registers are `<instance>_cycles_latch/_value`."""

    def add_cycle_counter(self):
        self.cycles_latch = CSRStorage(1, description="Any write copies the counter to cycles_value.")
        self.cycles_value = CSRStatus(64, description="Cycle count at the last latch.")
        self.cycle_count = count = Signal(64)
        self.sync += [
            count.eq(count + 1),
            If(self.cycles_latch.re, self.cycles_value.status.eq(count)),
        ]


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


def round_robin_pick(sync_ce, req, n):
    """Round-robin choice among the n request bits `req`: returns (any, slot, comb, sync) where
    `slot` is the first requester after the previous choice (cyclically); `comb` are the
    comb statements, and the previous choice advances on `sync_ce` (sync statements)."""
    last = Signal(max=max(2, n), name="rr_last")
    pick, comb = round_robin_choice(req, last, n)
    sync = [If(sync_ce, last.eq(pick))]
    return req != 0, pick, comb, sync


class HashPeripheral(CycleCounter):
    def __init__(self, engine, ram_base, ram_size, dma_width=32):
        self.add_cycle_counter()
        self.engine = engine
        self.submodules.core = engine
        nslots = engine.slots
        W = engine.word_bits
        block_bits = engine.block_bits
        block_bytes = block_bits // 8
        nbw = block_bits // 32            # din words per block
        ncw = engine.digest_bits // W     # engine words per chaining value
        if dma_width % 32 or block_bits % dma_width or dma_width & (dma_width - 1):
            raise ValueError(f"dma_width must be a power of two multiple of 32 dividing {block_bits}")
        row_bytes = dma_width // 8
        rows_per_block = block_bits // dma_width
        rb = log2_int(row_bytes)          # byte address -> row address
        bb = log2_int(block_bytes)
        self.dma_width, self.row_bytes = dma_width, row_bytes
        sb = max(1, (nslots - 1).bit_length())

        self.bus = bus = wishbone.Interface(data_width=dma_width, address_width=32, addressing="word")

        has_tweak = hasattr(engine.sink, "tweak")
        out_field = [CSRField("out", offset=12, description="Skein, dma_start: after the job's "
                              "blocks, the output UBI's first block (counter 0: 64 zero bytes, tweak "
                              "OUT|FIRST|FINAL, position 8), made here, not read.")] if has_tweak else []
        self.ctrl = CSRStorage(fields=[
            CSRField("start", offset=0, pulse=True, description="Hash the block written to din (slot `slot`)."),
            CSRField("dma_start", offset=1, pulse=True, description="Hash the DMA segment(s) (slot `slot`)."),
            CSRField("first", offset=2, description="The job's first block starts from the IV of `variant`."),
            CSRField("last", offset=3, description="The job's last block ends the message."),
            CSRField("hold", offset=4, description="The DMA reader fetches nothing while set: jobs "
                     "started meanwhile wait and a ctrl write without hold releases them together."),
            CSRField("load_cv", offset=5, description="The job's first block starts from cv."),
            CSRField("ack", offset=6, pulse=True, description="Clear done and errors; reset din."),
            CSRField("tail", offset=7, description="dma_start: the job continues with the tail segment."),
            CSRField("variant", offset=8, size=4,
                     description="IV choice: " + ", ".join(f"{v} {k}" for k, v in engine.variants.items())),
        ] + out_field + [
            CSRField("slot", offset=16, size=8, description=f"The job's slot, 0..{nslots - 1}."),
        ])
        self.din = CSRStorage(32, description="Block word input (big-endian word), one per write.")
        self.cv = CSRStorage(engine.digest_bits, description="Chaining value to resume from (H0 first).")
        self.dma_base = CSRStorage(32, description=f"DMA byte address, {row_bytes}-byte aligned, in main RAM.")
        self.dma_length = CSRStorage(32, description=f"DMA length in bytes, a non-zero multiple of {block_bytes}.")
        self.tail_base = CSRStorage(32, description=f"Tail segment byte address, {row_bytes}-byte aligned.")
        self.tail_length = CSRStorage(32, description=f"Tail length in bytes, a multiple of {block_bytes}.")
        self.status = CSRStatus(fields=[
            CSRField("busy", offset=0), CSRField("done", offset=1), CSRField("err_len", offset=2),
            CSRField("err_addr", offset=3), CSRField("err_state", offset=4), CSRField("err_bus", offset=5),
            CSRField("words", offset=8, size=8),
        ])
        self.slots_busy = CSRStatus(nslots, description="Slots with a job running (bit s: slot s).")
        self.slots_done = CSRStatus(nslots, description="Slots whose job finished since their last ack.")
        self.slots_ack = CSRStorage(nslots, description="Writing clears the slots_done bits set here.")
        self.digest_sel = CSRStorage(8, description="The slot whose chaining value `digest` shows.")
        self.digest = CSRStatus(engine.digest_bits, description="Chaining value of slot digest_sel (H0 first).")
        self.blocks = CSRStatus(32, description="Blocks completed since reset.")
        self.has_tweak = has_tweak
        if has_tweak:
            self.tweak = CSRStorage(128, description="Skein: the job's start tweak (T1 first): type, "
                                    "first, final, bitpad as in Skein, position = bytes before the job.")
            self.final_bytes = CSRStorage(7, description="Skein: bytes the UBI's final block adds to "
                                          "the position (0..64), used when the tweak's final bit is set.")
        self.finish_cycles = CSRStatus(64, description="The cycle counter when the latest job finished.")
        self.info = CSRStatus(fields=[
            CSRField("latency", offset=0, size=8), CSRField("stages", offset=8, size=8),
            CSRField("arch", offset=16, size=4), CSRField("align_log2", offset=20, size=4),
            CSRField("slots", offset=24, size=8),
        ])
        self.submodules.ev = EventManager()
        self.ev.done = EventSourcePulse(description="A job finished (see status for errors).")
        self.ev.finalize()

        self.comb += [
            self.info.fields.latency.eq(engine.latency),
            self.info.fields.stages.eq(engine.stages),
            self.info.fields.arch.eq(ARCH_CODES[engine.arch]),
            self.info.fields.align_log2.eq(rb),
            self.info.fields.slots.eq(nslots),
        ]

        f = self.ctrl.fields
        sink, source = engine.sink, engine.source
        err_len, err_addr, err_state, err_bus = Signal(), Signal(), Signal(), Signal()
        done = Signal()
        words = Signal(8)
        din_buf = Array(Signal(32, name=f"din{i}") for i in range(nbw))

        # --- per-slot jobs --------------------------------------------------------------
        mk = lambda n, w=1: Array(Signal(w, name=f"{n}{s}") for s in range(nslots))
        act = mk("act")                 # a job is running
        cur_row = mk("cur_row", 32 - rb)  # next row to read
        cur_rows = mk("cur_rows", 32 - rb)  # rows left in the current segment
        tail_row = mk("tail_row", 32 - rb)
        tail_rows = mk("tail_rows", 32 - rb)
        nfirst = mk("nfirst")           # the slot's next block is its job's first
        nlcv = mk("nlcv")               # ... and starts from cv
        jlast = mk("jlast")             # the job ends the message
        jvar = mk("jvar", 4)
        jout = mk("jout")               # Skein: the output block is still to come
        outst = mk("outst", 2)          # blocks fetched/queued and not yet out of the engine
        # Skein: the job's start tweak, position so far, first-block flag, final block bytes
        tstart = mk("tstart", 128)
        tpos = mk("tpos", 96)
        tfirst = mk("tfirst")
        tfb = mk("tfb", 7)
        sdone = Signal(nslots)
        cv_pending = Signal()           # a load_cv job has not yet sent its first block

        # --- block register in front of the engine ----------------------------------------
        blk_valid = Signal()
        blk = dict(data=Signal(block_bits), slot=Signal(sb), first=Signal(), lcv=Signal(),
                   last=Signal(), var=Signal(4), tweak=Signal(128))
        accept = Signal()
        self.comb += [
            sink.valid.eq(blk_valid),
            sink.data.eq(blk["data"]),
            sink.first.eq(blk["first"]),
            sink.load_cv.eq(blk["lcv"] & ~blk["first"]),
            sink.last.eq(blk["last"]),
            sink.variant.eq(blk["var"]),
            sink.slot.eq(blk["slot"]),
            sink.tweak.eq(blk["tweak"]) if has_tweak else [],
            sink.cv.eq(_msw_first(self.cv.storage, ncw, W)),
            source.ready.eq(1),
            accept.eq(sink.valid & sink.ready),
        ]

        # --- CSR path: a block waiting for the block register -------------------------------
        csr_pending = Signal()
        csr = dict(data=Signal(block_bits), slot=Signal(sb), first=Signal(), lcv=Signal(),
                   last=Signal(), var=Signal(4), tweak=Signal(128))

        # --- DMA reader --------------------------------------------------------------------
        fill = Array(Signal(dma_width, name=f"fill{i}") for i in range(rows_per_block))
        fill_cnt = Signal(max=rows_per_block + 1)
        fill_full = Signal()
        filling = Signal()
        fs = Signal(sb)                 # the slot being fetched
        fmeta = dict(first=Signal(), lcv=Signal(), last=Signal(), var=Signal(4), tweak=Signal(128))
        req = Signal(nslots)
        self.comb += req.eq(Cat(*[act[s] & ((cur_rows[s] != 0) | jout[s]) & ~(blk_valid & (blk["slot"] == s))
                                  & ~(csr_pending & (csr["slot"] == s)) for s in range(nslots)]))
        choose = Signal()
        any_req, pick, rr_comb, rr_sync = round_robin_pick(choose, req, nslots)
        self.comb += rr_comb
        self.sync += rr_sync
        self.comb += choose.eq(~filling & ~fill_full & any_req & ~err_bus & ~f.hold)

        got = Signal()
        self.comb += [
            bus.cyc.eq(filling), bus.stb.eq(filling), bus.we.eq(0),
            bus.sel.eq(Replicate(1, dma_width // 8)),
            bus.adr.eq(cur_row[fs]),
            got.eq(filling & bus.ack),
        ]
        last_row_of_block = fill_cnt == rows_per_block - 1
        seg_end = cur_rows[fs] == 1
        job_end = seg_end & (tail_rows[fs] == 0)

        if has_tweak:
            dma_tw, dma_pos, stmts = tweak_of_block(tstart[fs], tpos[fs], tfirst[fs], job_end, tfb[fs])
            self.comb += stmts
        # Skein `out`: when the chosen slot has read all its blocks, its next one is the output
        # block, made in the fill buffer at once (no bus read)
        synth = Signal()
        self.comb += synth.eq((Array(jout)[pick] & (Array(cur_rows)[pick] == 0)) if has_tweak else 0)

        move = Signal()
        self.comb += move.eq((csr_pending | fill_full) & (~blk_valid | accept))
        fields = ("data", "slot", "first", "lcv", "last", "var", "tweak")
        self.sync += [
            If(move,
                blk_valid.eq(1),
                If(csr_pending,  # a CSR block goes first
                    [blk[k].eq(csr[k]) for k in fields],
                    csr_pending.eq(0),
                ).Else(
                    blk["data"].eq(engine_block(Cat(*fill), W)),
                    blk["slot"].eq(fs),
                    [blk[k].eq(fmeta[k]) for k in ("first", "lcv", "last", "var", "tweak")],
                    fill_full.eq(0),
                ),
            ).Elif(accept,
                blk_valid.eq(0),
            ),
            If(accept & sink.load_cv, cv_pending.eq(0)),
            If(choose & ~synth,
                filling.eq(1), fs.eq(pick), fill_cnt.eq(0),
            ),
            If(choose & synth,
                fs.eq(pick), fill_full.eq(1), [fill[i].eq(0) for i in range(rows_per_block)],
                Array(jout)[pick].eq(0),
                fmeta["first"].eq(0), fmeta["lcv"].eq(0), fmeta["last"].eq(Array(jlast)[pick]),
                fmeta["var"].eq(Array(jvar)[pick]), fmeta["tweak"].eq(OUTPUT_TWEAK),
            ) if has_tweak else [],
            If(got,
                fill[fill_cnt].eq(bus.dat_r),
                fill_cnt.eq(fill_cnt + 1),
                If(seg_end & (tail_rows[fs] != 0),
                    cur_row[fs].eq(tail_row[fs]), cur_rows[fs].eq(tail_rows[fs]), tail_rows[fs].eq(0),
                ).Else(
                    cur_row[fs].eq(cur_row[fs] + 1), cur_rows[fs].eq(cur_rows[fs] - 1),
                ),
                If(last_row_of_block,
                    filling.eq(0), fill_full.eq(1),
                    fmeta["first"].eq(nfirst[fs]), fmeta["lcv"].eq(nlcv[fs]),
                    fmeta["last"].eq(jlast[fs] & job_end & ~jout[fs]), fmeta["var"].eq(jvar[fs]),
                    nfirst[fs].eq(0), nlcv[fs].eq(0),
                    [fmeta["tweak"].eq(dma_tw), tpos[fs].eq(dma_pos), tfirst[fs].eq(0)] if has_tweak else [],
                ),
            ),
            If(filling & bus.err,
                # abandon the slot's job: nothing more is read, the partial block is dropped
                err_bus.eq(1), filling.eq(0), cur_rows[fs].eq(0), tail_rows[fs].eq(0),
            ),
        ]

        # --- checks at job start ------------------------------------------------------------
        slot = f.slot
        base, length = self.dma_base.storage, self.dma_length.storage
        tbase, tlen = self.tail_base.storage, self.tail_length.storage
        ram_end = ram_base + ram_size
        end, tend = Signal(34), Signal(34)
        self.comb += [end.eq(base + length), tend.eq(tbase + tlen)]
        slot_bad = Signal()
        slot_active = Signal()
        self.comb += [slot_bad.eq(slot >= nslots), slot_active.eq(Array(act)[slot[:sb]] & ~slot_bad)]
        mult = lambda x: x[:bb] == 0
        fb_bad = (self.final_bytes.storage > block_bytes) if has_tweak else 0
        dma_len_bad = (length == 0) | ~mult(length) | (f.tail & ~mult(tlen)) | fb_bad
        in_ram = lambda b, e: (b[:rb] == 0) & (b >= ram_base) & (e <= ram_end)
        dma_addr_bad = ~in_ram(base, end) | (f.tail & (tlen != 0) & ~in_ram(tbase, tend))
        state_bad = slot_bad | slot_active | (f.load_cv & ~f.first & cv_pending)
        csr_bad = Signal()
        dma_bad = Signal()
        csr_out = f.out if has_tweak else 0     # `out` is for DMA jobs
        self.comb += [
            csr_bad.eq(f.start & (state_bad | csr_pending | csr_out | (words != nbw) | fb_bad)),
            dma_bad.eq(f.dma_start & ~f.start & (state_bad | dma_len_bad | dma_addr_bad)),
        ]
        starting = Signal()
        self.comb += starting.eq((f.start | f.dma_start) & ~csr_bad & ~dma_bad)

        # --- per-slot bookkeeping -------------------------------------------------------------
        finish = Signal(nslots)
        self.comb += finish.eq(Cat(*[act[s] & (cur_rows[s] == 0) & ~jout[s] & (outst[s] == 0)
                                     for s in range(nslots)]))
        for s in range(nslots):
            inc = (choose & (pick == s)) | (f.start & starting & (slot == s))
            dec = (source.valid & (source.slot == s)) | (filling & bus.err & (fs == s) & ~got)
            self.sync += outst[s].eq(outst[s] + inc - dec)
            self.sync += If(finish[s], act[s].eq(0))
            self.sync += If(starting & (slot == s),
                act[s].eq(1),
                nfirst[s].eq(f.first), nlcv[s].eq(f.load_cv & ~f.first), jlast[s].eq(f.last),
                jvar[s].eq(f.variant),
                [tstart[s].eq(self.tweak.storage), tpos[s].eq(self.tweak.storage[:96]),
                 tfirst[s].eq(self.tweak.storage[TWEAK_FIRST]),
                 tfb[s].eq(self.final_bytes.storage), jout[s].eq(f.out)] if has_tweak else [],
                If(f.start,
                    cur_rows[s].eq(0), tail_rows[s].eq(0),
                ).Else(
                    cur_row[s].eq(base[rb:]), cur_rows[s].eq(length[rb:]),
                    tail_row[s].eq(tbase[rb:]), tail_rows[s].eq(Mux(f.tail, tlen[rb:], 0)),
                ),
            )
        slots_ack = Signal(nslots)
        self.comb += slots_ack.eq(Mux(self.slots_ack.re, self.slots_ack.storage, 0))
        self.sync += sdone.eq((sdone & ~slots_ack) | finish)

        # --- digests: one chaining value per slot ------------------------------------------------
        if nslots == 1:
            cv_out = Signal(engine.digest_bits)
            self.sync += If(source.valid, cv_out.eq(source.digest))
        else:
            dmem = Memory(engine.digest_bits, nslots, name="digests")
            wp = dmem.get_port(write_capable=True)
            rp = dmem.get_port(async_read=True)
            self.specials += dmem, wp, rp
            self.comb += [
                wp.adr.eq(source.slot), wp.dat_w.eq(source.digest), wp.we.eq(source.valid),
                rp.adr.eq(self.digest_sel.storage),
            ]
            cv_out = rp.dat_r
        self.comb += self.digest.status.eq(_msw_first(cv_out, ncw, W))

        self.comb += [
            self.status.fields.busy.eq(Cat(*act) != 0),
            self.status.fields.done.eq(done),
            self.status.fields.err_len.eq(err_len),
            self.status.fields.err_addr.eq(err_addr),
            self.status.fields.err_state.eq(err_state),
            self.status.fields.err_bus.eq(err_bus),
            self.status.fields.words.eq(words),
            self.slots_busy.status.eq(Cat(*act)),
            self.slots_done.status.eq(sdone),
        ]
        rejected = Signal()
        self.comb += rejected.eq(csr_bad | dma_bad)
        if has_tweak:  # a CSR job is one block: the UBI's final one when the tweak says so
            tws = self.tweak.storage
            csr_tw, _, stmts = tweak_of_block(tws, tws[:96], tws[TWEAK_FIRST], 1, self.final_bytes.storage)
            self.comb += stmts
        self.sync += [
            If(source.valid, self.blocks.status.eq(self.blocks.status + 1)),
            If(finish != 0, done.eq(1), self.finish_cycles.status.eq(self.cycle_count)),
            If(self.din.re,
                If((words < nbw) & ~(f.start & ~csr_bad),
                    din_buf[words].eq(self.din.storage),
                    words.eq(words + 1),
                ).Else(err_state.eq(1)),
            ),
            If(f.ack,
                done.eq(0), err_len.eq(0), err_addr.eq(0), err_state.eq(0), err_bus.eq(0),
                words.eq(0),
            ),
            If(csr_bad,
                done.eq(1),
                If(state_bad | csr_pending | csr_out, err_state.eq(1)).Else(err_len.eq(1)),
            ),
            If(dma_bad,
                done.eq(1),
                If(state_bad, err_state.eq(1)).Elif(dma_len_bad, err_len.eq(1)).Else(err_addr.eq(1)),
            ),
            If(starting & f.load_cv & ~f.first, cv_pending.eq(1)),
            If(f.start & ~csr_bad,
                csr_pending.eq(1), words.eq(0),
                csr["data"].eq(engine_block(Cat(*[_bswap32(din_buf[i]) for i in range(nbw)]), W)),
                csr["slot"].eq(slot), csr["first"].eq(f.first), csr["lcv"].eq(f.load_cv & ~f.first),
                csr["last"].eq(f.last), csr["var"].eq(f.variant),
                csr["tweak"].eq(csr_tw) if has_tweak else [],
            ),
        ]
        self.comb += self.ev.done.trigger.eq((finish != 0) | rejected)


def add_hash_peripheral(soc, hash_engine, name=None, dma_port=None):
    """Add the hash peripheral for engine spec `hash_engine` to a LiteX SoC: CSRs, DMA bus
    master, interrupt, and the engine facts as constants (csr.h / csr.json).

    `dma_port`: None to master the SoC bus (32-bit rows), or (data_width, add_master) for a
    wider port of main RAM (the sim target's WideRAM)."""
    spec = specmod.parse(hash_engine) if isinstance(hash_engine, str) else hash_engine
    name = name or spec.family
    engine = make_engine(spec)
    ram = soc.bus.regions["main_ram"]
    width = 32 if dma_port is None else dma_port[0]
    if width > engine.block_bits:
        # the port is wired straight to the RAM's rows: a narrower master would read the
        # wrong rows, so a row wider than a block is refused rather than narrowed
        raise ValueError(f"a {width}-bit DMA row is wider than {spec.engine_name}'s "
                         f"{engine.block_bits}-bit block")
    periph = HashPeripheral(engine, ram_base=ram.origin, ram_size=ram.size, dma_width=width)
    periph.engine_spec = spec.engine_name
    setattr(soc.submodules, name, periph)
    if dma_port is None:
        soc.bus.add_master(name=f"{name}_dma", master=periph.bus)
    else:
        dma_port[1](periph.bus)
    if soc.irq.enabled:
        soc.irq.add(name, use_loc_if_exists=True)
    up = name.upper()
    soc.add_constant(f"{up}_ENGINE", str(spec.engine_name))
    soc.add_constant(f"{up}_LATENCY", engine.latency)
    if engine.interval == int(engine.interval):  # Skein rings: latency / blocks in flight
        soc.add_constant(f"{up}_INTERVAL", int(engine.interval))
    soc.add_constant(f"{up}_IN_FLIGHT", engine.blocks_in_flight)
    soc.add_constant(f"{up}_SLOTS", engine.slots)
    soc.add_constant(f"{up}_BLOCK_BYTES", engine.block_bits // 8)
    soc.add_constant(f"{up}_DMA_ALIGN", periph.row_bytes)
    return periph
