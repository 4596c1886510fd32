# SPDX-License-Identifier: BSD-2-Clause
"""The hash peripheral: one engine behind CSRs and a bus-mastering DMA (soc/REGISTERS.md).

An engine with S slots (S = p for a p-stage pipeline) holds S messages; every register that
starts a job names its slot (`ctrl.slot`), and the peripheral keeps one job per slot:
- CSR path: the CPU writes one block into `din` (32-bit big-endian words) and pulses `start`;
- DMA path: the CPU gives a segment (`dma_base`/`dma_length`) and optionally a second one
  (`tail_base`/`tail_length`, e.g. the padded tail the C library builds), and pulses
  `dma_start`; the reader fetches whole blocks for the slots with work, round-robin.
Each slot's chaining value is kept (`digest_sel` picks which one `digest` shows); `slots_done`
says which jobs finished. Bad jobs (length, range, state, slot) never start and are reported in
`status`; the peripheral stays usable after `ack`.

HashPeripheral is the CSR bank and the composition of the stages:

    ctrl + job registers ─> SlotControl ─ job ─> CSRBlock, DMAReader, SkeinTweak (Skein)
    din ──────> CSRBlock ──┐
                           ├─> BlockRegister ─> engine ─> DigestMemory ─> digest
    bus <─────> DMAReader ─┘    (CSR first)       └─> SlotControl (retire), blocks
                    └── tweak port ──> SkeinTweak
"""

from litedigest import spec as specmod
from litex.soc.interconnect import stream, wishbone
from litex.soc.interconnect.csr import AutoCSR, CSRField, CSRStatus, CSRStorage
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourcePulse
from migen import Array, Cat, If, Memory, Module, Mux, Signal
from migen.genlib.record import Record

from .axi_reader import AXIBurstReader
from .batch import BatchWalker
from .csr_block import CSRBlock
from .dma_reader import DMAReader, row_geometry
from .layouts import block_layout, data_reset_less, job_layout, slot_event_layout
from .skein_tweak import SkeinTweak
from .slots import CHECK_LAYOUT, SlotControl, range_checks

ARCH_CODES = specmod.ARCH_CODES


def _msw_first(sig, nwords, width):
    """LiteX multi-word CSRs put the most significant 32 bits at the lowest address; the engine
    puts word 0 (H0) at the least significant bits. Reorder the engine words so H0 sits at the
    lowest address (a 64-bit word: its high half first)."""
    return Cat(*[sig[width * (nwords - 1 - i) : width * (nwords - i)] for i in range(nwords)])


class WriteOnlyCSRStorage(CSRStorage):
    """A CSRStorage that reads back as zero: what is written through it (`din`: a MAC
    peripheral's keys) cannot be read back over the bus."""

    def do_finalize(self, busword, ordering):
        super().do_finalize(busword, ordering)
        for sc in self.simple_csrs:
            # the read value: the last assignment to sc.w wins over the parent's
            self.comb += sc.w.eq(0)


class CycleCounter(Module, AutoCSR):
    """Free-running cycle counter; a write to `cycles_latch` snapshots it into `cycles_value`.
    Mixed into the peripheral so its registers are `<instance>_cycles_latch/_value`."""

    def add_cycle_counter(self):
        self.cycles_latch = CSRStorage(
            1, description="Any write copies the counter to cycles_value."
        )
        self.cycles_value = CSRStatus(64, description="Cycle count at the last latch.")
        self.cycle_count = count = Signal(64)
        self.sync += [
            count.eq(count + 1),
            If(self.cycles_latch.re, self.cycles_value.status.eq(count)),
        ]


class BlockRegister(Module):
    """The register in front of the engine: takes a block from `csr` or, when the CSR path has
    none, from `dma`, whenever it is empty or its block enters the engine in this cycle (so the
    engine can take a block every cycle); `source` is the held block."""

    def __init__(self, block_bits, nslots):
        self.csr = csr = stream.Endpoint(block_layout(block_bits, nslots))
        self.dma = dma = stream.Endpoint(block_layout(block_bits, nslots))
        self.source = source = stream.Endpoint(block_layout(block_bits, nslots))
        data_reset_less(source)
        self.wipe = Signal()  # (in) zero the held block (a MAC peripheral's wipe, when idle)
        free = Signal()
        self.comb += [
            free.eq(~source.valid | source.ready),
            csr.ready.eq(free),
            dma.ready.eq(free & ~csr.valid),
        ]
        take = lambda ep: [
            source.payload.eq(ep.payload),
            source.first.eq(ep.first),
            source.last.eq(ep.last),
        ]
        self.sync += If(
            (csr.valid | dma.valid) & free,
            source.valid.eq(1),
            If(csr.valid, take(csr)).Else(take(dma)),
        ).Elif(
            source.ready,
            source.valid.eq(0),
        )
        self.sync += If(self.wipe, source.data.eq(0))


class DigestMemory(Module):
    """One chaining value per slot: `write` (the engine's results: valid, slot, digest) stores,
    `sel` (in) picks the slot whose value `value` (out) shows."""

    def __init__(self, digest_bits, nslots):
        self.write = write = Record(slot_event_layout(nslots) + [("digest", digest_bits)])
        self.sel = Signal(8)
        self.value = Signal(digest_bits, reset_less=True)
        self.sel2 = Signal(8)  # a second reader (the batch walker)
        self.value2 = Signal(digest_bits)
        if nslots == 1:
            self.sync += If(write.valid, self.value.eq(write.digest))
            self.comb += self.value2.eq(self.value)
        else:
            mem = Memory(digest_bits, nslots, name="digests")
            wp = mem.get_port(write_capable=True)
            rp = mem.get_port(async_read=True)
            rp2 = mem.get_port(async_read=True)
            self.specials += mem, wp, rp, rp2
            self.comb += [
                wp.adr.eq(write.slot),
                wp.dat_w.eq(write.digest),
                wp.we.eq(write.valid),
                rp.adr.eq(self.sel),
                self.value.eq(rp.dat_r),
                rp2.adr.eq(self.sel2),
                self.value2.eq(rp2.dat_r),
            ]


def on_slot(ep, s):
    """`ep` (a block stream) holds a block of slot `s`."""
    return ep.valid & (ep.slot == s)


class HashPeripheral(CycleCounter):
    """`engine` (litedigest.ip) behind the CSRs of soc/REGISTERS.md; `bus`: the DMA's Wishbone
    master (`dma_width`-bit rows, row addresses), reading main RAM at [ram_base, ram_base +
    ram_size); `ev`: the interrupt (a job finished or was refused).

    `axi=True`: the DMA reads through `axi` instead (an AXI4 read port, axi_reader.py's burst
    reader: bursts requested ahead of the engine); `bus` is then the batch walker's alone (its
    descriptor reads and digest writes, single accesses)."""

    def __init__(self, engine, ram_base, ram_size, dma_width=32, axi=False):
        self.add_cycle_counter()
        self.engine = engine
        self.submodules.core = engine
        nslots = engine.slots
        W = engine.word_bits
        block_bits = engine.block_bits
        block_bytes = block_bits // 8
        ncw = engine.digest_bits // W  # engine words per chaining value
        row_bytes, _, rb = row_geometry(block_bits, dma_width)
        self.dma_width, self.row_bytes = dma_width, row_bytes
        self.has_tweak = has_tweak = hasattr(engine.sink, "tweak")
        self.has_keys = has_keys = hasattr(engine.sink, "key")  # a MAC engine (HMAC)
        self._add_csrs(engine, row_bytes, block_bytes, has_tweak, has_keys)
        self.comb += [
            self.info.fields.latency.eq(engine.latency),
            self.info.fields.stages.eq(engine.stages),
            self.info.fields.arch.eq(ARCH_CODES[engine.arch]),
            self.info.fields.align_log2.eq(rb),
            self.info.fields.slots.eq(nslots),
        ]

        # --- the stages ---------------------------------------------------------------------
        self.axi_reads = axi
        # a MAC engine's pad jobs count the key block its stored inner state stands for
        pad_offset = block_bytes if has_keys else 0
        # a slot's blocks inside the engine at once (HMAC: one in each core)
        in_engine = getattr(engine, "blocks_per_slot", 1)
        if axi:
            reader = AXIBurstReader(
                nslots,
                block_bits,
                W,
                dma_width,
                with_tweak=has_tweak,
                zero_pad=has_tweak,
                pad_offset=pad_offset,
            )
            # a slot's blocks fetched and not out of the engine: the reader's buffer, the block
            # register, the engine
            outstanding = reader.per_slot + 1 + in_engine
        else:
            reader = DMAReader(
                nslots, block_bits, W, dma_width, zero_pad=has_tweak, pad_offset=pad_offset
            )
            outstanding = 2 + in_engine
        self.submodules.slots = slots = SlotControl(
            nslots,
            block_bytes,
            row_bytes,
            ram_base,
            ram_size,
            outstanding=outstanding,
            out_block=has_tweak,
            prechecked=True,
        )
        # ctrl's range checks, a cycle behind the job registers (SlotControl's `prechecked`):
        # a ctrl write comes two cycles or more after the last job register write (each CSR
        # access is a bus transaction of its own), so at its start they are the registers' own
        ctrl_checks = Record(CHECK_LAYOUT)
        self.sync += [
            getattr(ctrl_checks, k).eq(v)
            for k, v in range_checks(
                self.dma_base.storage,
                self.dma_length.storage,
                block_bytes,
                row_bytes,
                ram_base,
                ram_size,
                self.tail_base.storage,
                self.tail_length.storage,
            ).items()
        ]
        self.submodules.csr_block = csr_block = CSRBlock(block_bits, W, nslots)
        self.submodules.reader = reader
        self.submodules.block = block = BlockRegister(block_bits, nslots)
        self.submodules.digests = digests = DigestMemory(engine.digest_bits, nslots)
        f = self.ctrl.fields
        sink, source = engine.sink, engine.source
        fetch_job, fetch_segments, start_pending = self._job_register(slots, nslots)
        # what the batch walker adds: the slots_done bits it acknowledges, its pause of the
        # reader while it uses the bus
        self.walker_ack = Signal(nslots)
        self.walker_pause = Signal()
        self.walker_busy = Signal()  # a batch runs

        req = slots.request
        self.comb += [
            req.start.eq(f.start),
            req.dma_start.eq(f.dma_start),
            req.slot.eq(f.slot),
            req.first.eq(f.first),
            req.last.eq(f.last),
            req.load_cv.eq(f.load_cv),
            req.tail.eq(f.tail),
            req.variant.eq(f.variant),
            req.base.eq(self.dma_base.storage),
            req.length.eq(self.dma_length.storage),
            req.tail_base.eq(self.tail_base.storage),
            req.tail_length.eq(self.tail_length.storage),
            slots.ack.eq(f.ack),
            slots.ack_slots.eq(Mux(self.slots_ack.re, self.slots_ack.storage, 0) | self.walker_ack),
            reader.pause.eq(slots.status.err_bus | f.hold | (0 if axi else self.walker_pause)),
            slots.csr_words.eq(csr_block.words),
            slots.csr_busy.eq(csr_block.source.valid),
            slots.more.eq(reader.more | start_pending),
            slots.fetch.eq(reader.fetch),
            slots.abort.eq(reader.abort),
            slots.retire.valid.eq(source.valid),
            slots.retire.slot.eq(source.slot),
            slots.cv_taken.eq(sink.valid & sink.ready & sink.load_cv),
            slots.overflow.eq(csr_block.overflow),
            slots.bus_error.eq(reader.bus_error),
            slots.now.eq(self.cycle_count),
            csr_block.job.eq(slots.job),
            csr_block.din.eq(self.din.storage),
            csr_block.din_we.eq(self.din.re),
            csr_block.clear.eq(f.ack),
            reader.job.eq(fetch_job),
            reader.segments.eq(fetch_segments),
            # a slot is fetched for while its job runs and (one fill buffer) no block of it waits
            # for the engine; the burst reader keeps waiting blocks in its buffer
            reader.allow.eq(
                slots.active
                if axi
                else Cat(
                    *[
                        slots.active[s] & ~on_slot(block.source, s) & ~on_slot(csr_block.source, s)
                        for s in range(nslots)
                    ]
                )
            ),
            csr_block.source.connect(block.csr),
            reader.source.connect(block.dma),
        ]

        # --- the engine -------------------------------------------------------------------------
        blk = block.source
        self.comb += [
            sink.valid.eq(blk.valid),
            sink.data.eq(blk.data),
            sink.first.eq(blk.first),
            sink.load_cv.eq(blk.load_cv & ~blk.first),
            sink.last.eq(blk.last),
            sink.variant.eq(blk.variant),
            sink.slot.eq(blk.slot),
            sink.cv.eq(_msw_first(self.cv.storage, ncw, W)),
            blk.ready.eq(sink.ready),
            source.ready.eq(1),
            digests.write.valid.eq(source.valid),
            digests.write.slot.eq(source.slot),
            digests.write.digest.eq(source.digest),
            digests.sel.eq(self.digest_sel.storage),
            self.digest.status.eq(_msw_first(digests.value, ncw, W)),
        ]
        if axi:
            self.axi = reader.axi
        if has_tweak:
            self.submodules.tweaks = tweaks = SkeinTweak(nslots)
            self.comb += [
                tweaks.job.eq(fetch_job),
                tweaks.pad_bytes.eq(fetch_segments.bytes),
                tweaks.tweak.eq(self.tweak.storage),
                tweaks.final_bytes.eq(self.final_bytes.storage),
                csr_block.tweak.eq(tweaks.csr_tweak),
                reader.tweak.connect(tweaks.port),
                sink.tweak.eq(blk.tweak),
            ]
        self._add_batch(ram_base, ram_size, ctrl_checks, has_keys)
        if has_keys:
            self._add_keys(engine, slots, csr_block, block)

        # --- status, counters, event --------------------------------------------------------------
        st = slots.status
        self.comb += [
            [getattr(self.status.fields, k).eq(getattr(st, k)) for k, _ in st.layout],
            self.status.fields.words.eq(csr_block.words),
            self.slots_busy.status.eq(slots.active),
            self.slots_done.status.eq(slots.done_slots),
            self.finish_cycles.status.eq(slots.finish_cycles),
        ]
        # the interrupt's pulse a cycle after the status bits: from the request through the
        # admission checks to the event's pending bit, placed by the CSR bank, was a long sys
        # path of the four-engine ECP5 SoC (the walker's requests, which raise no `done`, too)
        done_event = Signal()
        self.sync += done_event.eq(slots.event & ~self.walker_busy)
        self.comb += self.ev.done.trigger.eq(done_event)
        self.sync += If(source.valid, self.blocks.status.eq(self.blocks.status + 1))

    def _job_register(self, slots, nslots):
        """The admitted job start, a cycle late, for the DMA reader and the Skein tweak stage
        (the CSR block and the slot state take it at once). In one cycle, the admission
        checks (the walker's or ctrl's request, the range adders, the slot state) and the
        reader's per-slot start statements (row counters, padding counters) were the three-SHA
        ECP5 SoC's critical path (24.3 ns, mostly routing across the device, at 41 MHz). While
        the start is in the register its slot counts as having work (`start_pending`), so the
        job cannot finish before the reader has it. Cost: a DMA job's first fetch is one cycle
        later. Returns (job, segments, start_pending)."""
        job_q = Record(job_layout(nslots))
        seg_q = Record(slots.segments.layout)
        for sig in seg_q.flatten():  # (data: read only in the cycle job_q.start says so)
            sig.reset_less = True
        pending = Signal(nslots)
        self.sync += [job_q.eq(slots.job), seg_q.eq(slots.segments)]
        self.comb += pending.eq(Mux(job_q.start & ~job_q.csr, 1 << job_q.slot, 0))
        return job_q, seg_q, pending

    def _add_batch(self, ram_base, ram_size, ctrl_checks, has_keys=False):
        """Hardware padding (`ctrl.pad`) and the batch walker (batch.py), which shares the bus
        with the DMA reader and SlotControl's request port with ctrl (`ctrl_checks`: ctrl's range
        checks); the stages are the peripheral's own (`slots`, `reader`, `digests`). Skein: the
        walker's jobs end with the output block, so a chaining value it writes is the digest."""
        engine, slots, reader, digests = self.engine, self.slots, self.reader, self.digests
        nslots = engine.slots
        dma_width, row_bytes, has_tweak = self.dma_width, self.row_bytes, self.has_tweak
        block_bytes = engine.block_bits // 8
        req = slots.request
        f = self.ctrl.fields
        self.submodules.batch = walker = BatchWalker(
            nslots,
            engine.digest_bits,
            engine.word_bits,
            dma_width,
            ram_base,
            ram_size,
            row_bytes,
            block_bytes,
            out_block=has_tweak,
            has_keys=has_keys,
        )
        wreq = walker.request
        strobes = ("start", "dma_start")
        self.comb += [
            # SlotControl's request: the walker's when it issues one, else the ctrl write. The
            # job's fields are the walker's for as long as a batch runs (`locked`), not only
            # while it issues: a ctrl start then is refused with err_state whatever its fields
            # (SlotControl's `locked`), and the fields' multiplexer does not wait for the
            # walker's decision to issue (from its descriptor checks through the multiplexer,
            # the range adders and the admission to the status bits was a long sys path of
            # the four-engine ECP5 SoC)
            If(
                walker.locked,
                [getattr(req, k).eq(getattr(wreq, k)) for k, _ in req.layout if k not in strobes],
                slots.checks.eq(walker.checks),
            ).Else(
                slots.checks.eq(ctrl_checks),
                req.pad.eq(f.pad),
                [req.out.eq(f.out), req.final_bytes.eq(self.final_bytes.storage)]
                if has_tweak
                else [],
            ),
            If(walker.request_valid, [getattr(req, k).eq(getattr(wreq, k)) for k in strobes]),
            slots.owner.eq(walker.request_valid),
            slots.locked.eq(walker.locked),
            slots.stamp.eq(walker.stamp),
            walker.refused.eq(slots.refused),
            walker.finish.eq(slots.finish),
            walker.active.eq(slots.active),
            walker.idle.eq(
                (slots.active == 0) & (slots.done_slots == 0) & ~self.csr_block.source.valid
            ),
            walker.start.eq(f.batch_start),
            walker.csr_write.eq(self.ctrl.re),
            walker.base.eq(self.batch_base.storage),
            walker.count.eq(self.batch_count.storage),
            walker.clear.eq(f.ack),
            walker.reader_error.eq(reader.bus_error),
            digests.sel2.eq(walker.cv_sel),
            walker.cv.eq(digests.value2),
            self.walker_ack.eq(walker.ack_slots),
            self.walker_pause.eq(walker.pause_reader),
            self.batch_status.fields.busy.eq(walker.busy),
            self.batch_status.fields.done.eq(walker.done),
            self.batch_status.fields.err_desc.eq(walker.err_desc),
            self.batch_status.fields.err_bus.eq(walker.err_bus),
            self.batch_status.fields.err_state.eq(walker.err_state),
            self.batch_progress.status.eq(walker.progress),
            self.ev.batch.trigger.eq(walker.event),
            # a batch raises one interrupt, at its end: its own jobs do not raise `done`
            self.walker_busy.eq(walker.busy),
        ]
        self.sync += If(walker.started, self.batch_start_cycles.status.eq(self.cycle_count))
        if self.axi_reads:
            # the reader has its own port: the walker's bus is the peripheral's, always granted
            self.bus = walker.bus
            self.comb += [walker.grant.eq(1), walker.reader_wants.eq(0)]
            return
        self.bus = bus = wishbone.Interface(
            data_width=dma_width, address_width=32, addressing="word"
        )
        wr, rd = walker.bus, reader.bus
        own = walker.owns_bus
        self.comb += [
            walker.grant.eq(~reader.filling),
            walker.reader_wants.eq(reader.wants),
            # the bus: the walker's transfer, else the reader's
            bus.adr.eq(Mux(own, wr.adr, rd.adr)),
            bus.dat_w.eq(wr.dat_w),
            bus.sel.eq(Mux(own, wr.sel, rd.sel)),
            bus.we.eq(own & wr.we),
            bus.cyc.eq(Mux(own, wr.cyc, rd.cyc)),
            bus.stb.eq(Mux(own, wr.stb, rd.stb)),
            bus.cti.eq(0),
            bus.bte.eq(0),
            wr.dat_r.eq(bus.dat_r),
            rd.dat_r.eq(bus.dat_r),
            wr.ack.eq(own & bus.ack),
            rd.ack.eq(~own & bus.ack),
            wr.err.eq(own & bus.err),
            rd.err.eq(~own & bus.err),
        ]

    def _add_keys(self, engine, slots, csr_block, block):
        """A MAC engine's key slots (REGISTERS.md, "MAC peripherals"). A `start` with
        `key_init` hashes the `din` block as the key K0 of key slot `key` (the engine stores
        H(K0 ^ ipad) and H(K0 ^ opad), 33 cycles); every other job uses the stored states of
        its `key` (the batch walker's jobs: the key of the ctrl write that started the batch).
        Refused with err_state: a key slot out of range; `key_init` on the DMA path or for a key
        slot a running job uses; a message job on a key slot without states (`keys_valid`).
        `wipe` zeroes every key slot's states, the CSR block buffer and the block register when
        no job runs (else it is refused with err_state, nothing wiped)."""
        f = self.ctrl.fields
        sink, nslots = engine.sink, engine.slots
        kb = len(sink.key)
        req, job = slots.request, slots.job
        slot_key = Array(Signal(kb, name=f"slot_key{s}") for s in range(nslots))
        slot_key_init = Array(Signal(name=f"slot_key_init{s}") for s in range(nslots))
        key = Signal(len(f.key))
        key_bad, in_use, idle = Signal(), Signal(), Signal()
        walker = self.batch
        self.comb += [
            # the job's key slot: a batch descriptor's own (own_key), else ctrl's (a batch's
            # jobs: the key of the ctrl write that started it)
            key.eq(Mux(walker.locked & walker.own_key, walker.key, f.key)),
            key_bad.eq(key >= engine.key_slots),
            in_use.eq(Cat(*[slots.active[s] & (slot_key[s] == key) for s in range(nslots)]) != 0),
            slots.extra_bad.eq(
                key_bad | Mux(f.key_init, ~req.start | in_use, ~(engine.keys_valid >> key)[0])
            ),
            sink.key.eq(slot_key[block.source.slot]),
            sink.key_init.eq(slot_key_init[block.source.slot]),
            self.keys_valid.status.eq(engine.keys_valid),
            idle.eq(
                (slots.active == 0)
                & ~csr_block.source.valid
                & ~block.source.valid
                & ~self.walker_busy
            ),
            engine.wipe.eq(f.wipe & idle),
            csr_block.wipe.eq(f.wipe & idle),
            block.wipe.eq(f.wipe & idle),
            slots.refuse.eq(f.wipe & ~idle),
        ]
        self.sync += [
            If(
                job.start & (job.slot == s),
                slot_key[s].eq(key),
                slot_key_init[s].eq(f.key_init & job.csr),
            )
            for s in range(nslots)
        ]
        self.sync += If(f.wipe & idle, self.din.storage.eq(0))

    def _add_csrs(self, engine, row_bytes, block_bytes, has_tweak, has_keys=False):
        """The CSR bank, in register order (soc/REGISTERS.md is generated from it)."""
        nslots = engine.slots
        out_field = (
            [
                CSRField(
                    "out",
                    offset=12,
                    description="Skein, dma_start: after the job's "
                    "blocks, the output UBI's first block (counter 0: 64 zero bytes, tweak "
                    "OUT|FIRST|FINAL, position 8), made here, not read.",
                )
            ]
            if has_tweak
            else []
        )
        pad_fields = [
            CSRField(
                "pad",
                offset=13,
                description="dma_start: dma_length is the whole message in "
                "bytes (any length); the peripheral pads it (SHA: FIPS 180-4; Skein: zeros, "
                "the final tweak made from the length; tweak and final_bytes unused). Needs "
                "first; no tail.",
            ),
            CSRField(
                "batch_start",
                offset=14,
                pulse=True,
                description="Hash the batch_count descriptors at batch_base.",
            ),
        ]
        key_init_field, key_fields = [], []
        if has_keys:
            key_init_field = [
                CSRField(
                    "key_init",
                    offset=15,
                    description="start: the din block "
                    "is the key K0 of key slot `key` (its stored states are made).",
                )
            ]
            key_fields = [
                CSRField(
                    "key",
                    offset=24,
                    size=3,
                    description=f"The job's key slot, 0..{engine.key_slots - 1}.",
                ),
                CSRField(
                    "wipe",
                    offset=27,
                    pulse=True,
                    description="Zero every key slot's "
                    "stored states and the key words held (refused while a job runs).",
                ),
            ]
        self.ctrl = CSRStorage(
            fields=[
                CSRField(
                    "start",
                    offset=0,
                    pulse=True,
                    description="Hash the block written to din (slot `slot`).",
                ),
                CSRField(
                    "dma_start",
                    offset=1,
                    pulse=True,
                    description="Hash the DMA segment(s) (slot `slot`).",
                ),
                CSRField(
                    "first",
                    offset=2,
                    description="The job's first block starts from the IV of `variant`.",
                ),
                CSRField("last", offset=3, description="The job's last block ends the message."),
                CSRField(
                    "hold",
                    offset=4,
                    description="The DMA reader fetches nothing while set: jobs "
                    "started meanwhile wait and a ctrl write without hold releases them together.",
                ),
                CSRField("load_cv", offset=5, description="The job's first block starts from cv."),
                CSRField(
                    "ack", offset=6, pulse=True, description="Clear done and errors; reset din."
                ),
                CSRField(
                    "tail",
                    offset=7,
                    description="dma_start: the job continues with the tail segment.",
                ),
                CSRField(
                    "variant",
                    offset=8,
                    size=4,
                    description="IV choice: "
                    + ", ".join(f"{v} {k}" for k, v in engine.variants.items()),
                ),
            ]
            + out_field
            + pad_fields
            + key_init_field
            + [
                CSRField(
                    "slot", offset=16, size=8, description=f"The job's slot, 0..{nslots - 1}."
                ),
            ]
            + key_fields
        )
        self.din = WriteOnlyCSRStorage(
            32, description="Block word input (big-endian word), one per write; reads as 0."
        )
        # (data: read only by a load_cv job, after the CPU wrote it; the reset need not reach it)
        self.cv = CSRStorage(
            engine.digest_bits,
            reset_less=True,
            description="Chaining value to resume from (H0 first).",
        )
        self.dma_base = CSRStorage(
            32, description=f"DMA byte address, {row_bytes}-byte aligned, in main RAM."
        )
        self.dma_length = CSRStorage(
            32, description=f"DMA length in bytes, a non-zero multiple of {block_bytes}."
        )
        self.tail_base = CSRStorage(
            32, description=f"Tail segment byte address, {row_bytes}-byte aligned."
        )
        self.tail_length = CSRStorage(
            32, description=f"Tail length in bytes, a multiple of {block_bytes}."
        )
        self.status = CSRStatus(
            fields=[
                CSRField("busy", offset=0),
                CSRField("done", offset=1),
                CSRField("err_len", offset=2),
                CSRField("err_addr", offset=3),
                CSRField("err_state", offset=4),
                CSRField("err_bus", offset=5),
                CSRField("words", offset=8, size=8),
            ]
        )
        self.slots_busy = CSRStatus(nslots, description="Slots with a job running (bit s: slot s).")
        self.slots_done = CSRStatus(
            nslots, description="Slots whose job finished since their last ack."
        )
        self.slots_ack = CSRStorage(
            nslots, description="Writing clears the slots_done bits set here."
        )
        self.digest_sel = CSRStorage(8, description="The slot whose chaining value `digest` shows.")
        self.digest = CSRStatus(
            engine.digest_bits, description="Chaining value of slot digest_sel (H0 first)."
        )
        self.blocks = CSRStatus(32, description="Blocks completed since reset.")
        if has_tweak:
            self.tweak = CSRStorage(
                128,
                description="Skein: the job's start tweak (T1 first): type, "
                "first, final, bitpad as in Skein, position = bytes before the job.",
            )
            self.final_bytes = CSRStorage(
                7,
                description="Skein: bytes the UBI's final block adds to "
                "the position (0..64), used when the tweak's final bit is set.",
            )
        if has_keys:
            self.keys_valid = CSRStatus(
                engine.key_slots, description="Key slots holding stored states (bit k: key slot k)."
            )
        self.finish_cycles = CSRStatus(
            64, description="The cycle counter when the latest job finished."
        )
        self.info = CSRStatus(
            fields=[
                CSRField("latency", offset=0, size=8),
                CSRField("stages", offset=8, size=8),
                CSRField("arch", offset=16, size=4),
                CSRField("align_log2", offset=20, size=4),
                CSRField("slots", offset=24, size=8),
            ]
        )
        self.batch_base = CSRStorage(
            32, description="Byte address of the descriptor table, 16-byte aligned."
        )
        self.batch_count = CSRStorage(32, description="Descriptors in the table.")
        self.batch_status = CSRStatus(
            fields=[
                CSRField("busy", offset=0),
                CSRField("done", offset=1),
                CSRField("err_desc", offset=2),
                CSRField("err_bus", offset=3),
                CSRField("err_state", offset=4),
            ]
        )
        self.batch_progress = CSRStatus(32, description="Chaining values written by the batch.")
        self.batch_start_cycles = CSRStatus(
            64,
            description="The cycle counter when the latest batch "
            "started (finish_cycles: when it ended).",
        )
        self.submodules.ev = EventManager()
        self.ev.done = EventSourcePulse(
            description="A job finished (see status for errors); not "
            "the jobs of a batch, which raises `batch` once at its end."
        )
        self.ev.batch = EventSourcePulse(description="A batch ended (see batch_status).")
        self.ev.finalize()
