"""The hash peripheral: one engine behind CSRs and a bus-mastering DMA (soc/REGISTERS.md).

Two ways in, one block register in front of the engine:
- CSR path: the CPU writes a block word by word into `din` and pulses `start`;
- DMA path: the CPU gives `dma_base`/`dma_length`; a Wishbone reader pulls the words from main
  RAM into a fill buffer, which moves into the block register when the engine takes the
  previous block, so fetching block n+1 overlaps hashing block n.
Every result of the engine updates `digest`; a job is done when nothing is left in the reader,
the buffers or the engine. Bad jobs (length, range, state) never start and are reported in
`status`; the peripheral stays usable after `ack`.
"""
from migen import Module, Signal, Cat, If, Array

from litex.soc.interconnect import wishbone
from litex.soc.interconnect.csr import AutoCSR, CSRStorage, CSRStatus, CSRField
from litex.soc.interconnect.csr_eventmanager import EventManager, EventSourcePulse

from litedigest import spec as specmod
from litedigest.ip.engines import make_engine

ARCH_CODES = {"base": 0, "opt": 1}


def _msw_first(sig, nwords):
    """LiteX multi-word CSRs put the most significant word at the lowest address; the engine
    puts word 0 (H0) at the least significant bits. Reorder so H0 sits at the lowest address."""
    return Cat(*[sig[32 * (nwords - 1 - i):32 * (nwords - i)] for i in range(nwords)])


def _bswap32(x):
    return Cat(x[24:32], x[16:24], x[8:16], x[0:8])


class CycleCounter(Module, AutoCSR):
    """Free-running cycle counter; a write to `cycles_latch` snapshots it into `cycles_value`.
    Mixed into the peripheral so its registers are `<instance>_cycles_latch/_value`."""

    def add_cycle_counter(self):
        self.cycles_latch = CSRStorage(1, description="Any write copies the counter to cycles_value.")
        self.cycles_value = CSRStatus(64, description="Cycle count at the last latch.")
        count = Signal(64)
        self.sync += [
            count.eq(count + 1),
            If(self.cycles_latch.re, self.cycles_value.status.eq(count)),
        ]


class HashPeripheral(CycleCounter):
    def __init__(self, engine, ram_base, ram_size):
        self.add_cycle_counter()
        self.engine = engine
        self.submodules.core = engine
        nbw = engine.block_bits // 32     # words per block
        ncw = engine.digest_bits // 32    # words per chaining value
        block_bytes = engine.block_bits // 8

        self.bus = bus = wishbone.Interface(data_width=32, address_width=32, addressing="word")

        self.ctrl = CSRStorage(fields=[
            CSRField("start", offset=0, pulse=True, description="Hash the block written to din."),
            CSRField("dma_start", offset=1, pulse=True, description="Hash dma_length bytes at dma_base."),
            CSRField("first", offset=2, description="The job's first block starts from the IV."),
            CSRField("last", offset=3, description="The job's last block ends the message."),
            CSRField("variant", offset=4, size=max(1, (len(engine.variants) - 1).bit_length()),
                     description="IV choice: " + ", ".join(f"{v} {k}" for k, v in engine.variants.items())),
            CSRField("load_cv", offset=5, description="The job's first block starts from cv."),
            CSRField("ack", offset=6, pulse=True, description="Clear done and errors, reset din."),
        ])
        self.din = CSRStorage(32, description="Block word input (big-endian word), one per write.")
        self.cv = CSRStorage(engine.digest_bits, description="Chaining value to resume from (H0 first).")
        self.dma_base = CSRStorage(32, description="DMA byte address, 4-byte aligned, in main RAM.")
        self.dma_length = CSRStorage(32, description=f"DMA length in bytes, a multiple of {block_bytes}.")
        self.status = CSRStatus(fields=[
            CSRField("busy", offset=0), CSRField("done", offset=1), CSRField("err_len", offset=2),
            CSRField("err_addr", offset=3), CSRField("err_state", offset=4), CSRField("err_bus", offset=5),
            CSRField("words", offset=8, size=8),
        ])
        self.digest = CSRStatus(engine.digest_bits, description="Chaining value after the latest block (H0 first).")
        self.blocks = CSRStatus(32, description="Blocks completed since reset.")
        self.info = CSRStatus(fields=[
            CSRField("latency", offset=0, size=8), CSRField("in_flight", offset=8, size=8),
            CSRField("arch", offset=16, size=4),
        ])
        self.submodules.ev = EventManager()
        self.ev.done = EventSourcePulse(description="A job finished (see status for errors).")
        self.ev.finalize()

        self.comb += [
            self.info.fields.latency.eq(engine.latency),
            self.info.fields.in_flight.eq(engine.blocks_in_flight),
            self.info.fields.arch.eq(ARCH_CODES[engine.arch]),
        ]

        # --- job state ---------------------------------------------------------------------
        f = self.ctrl.fields
        active = Signal()
        done = Signal()
        err_len = Signal()
        err_addr = Signal()
        err_state = Signal()
        err_bus = Signal()
        finish = Signal()        # pulse: the job ends this cycle
        rd_addr = Signal(30)     # next word address to read
        rd_left = Signal(32)     # words still to read
        fill = Array(Signal(32, name=f"fill{i}") for i in range(nbw))
        fill_cnt = Signal(max=nbw + 1)
        first_left = Signal()    # the next block to enter the engine is the job's first
        blocks_left = Signal(32)  # blocks still to move into the block register
        din_buf = Array(Signal(32, name=f"din{i}") for i in range(nbw))
        words = Signal(8)
        inflight = Signal(8)

        blk_valid = Signal()
        blk_data = Signal(engine.block_bits)
        blk_first = Signal()
        blk_last = Signal()

        sink, source = engine.sink, engine.source
        self.comb += [
            sink.valid.eq(blk_valid),
            sink.data.eq(blk_data),
            sink.first.eq(blk_first & f.first),
            sink.load_cv.eq(blk_first & f.load_cv & ~f.first),
            sink.last.eq(blk_last & f.last),
            sink.variant.eq(f.variant),
            sink.slot.eq(0),
            sink.cv.eq(_msw_first(self.cv.storage, ncw)),
            source.ready.eq(1),
        ]
        self.comb += [
            self.status.fields.busy.eq(active),
            self.status.fields.done.eq(done),
            self.status.fields.err_len.eq(err_len),
            self.status.fields.err_addr.eq(err_addr),
            self.status.fields.err_state.eq(err_state),
            self.status.fields.err_bus.eq(err_bus),
            self.status.fields.words.eq(words),
        ]

        # --- checks at job start ------------------------------------------------------------
        base, length = self.dma_base.storage, self.dma_length.storage
        end = Signal(34)
        self.comb += end.eq(base + length)
        dma_len_bad = (length == 0) | (length[:(block_bytes - 1).bit_length()] != 0)
        dma_addr_bad = (base[:2] != 0) | (base < ram_base) | (end > ram_base + ram_size)

        accept = sink.valid & sink.ready
        reading = Signal()
        got_word = Signal()
        fill_full = fill_cnt == nbw
        move = Signal()  # fill buffer -> block register
        self.comb += [
            reading.eq(active & (rd_left != 0) & ~fill_full & ~err_bus),
            bus.cyc.eq(reading), bus.stb.eq(reading), bus.we.eq(0), bus.sel.eq(0xf),
            bus.adr.eq(rd_addr),
            got_word.eq(reading & bus.ack),
            move.eq(fill_full & (~blk_valid | accept)),
            finish.eq(active & (rd_left == 0) & (fill_cnt == 0) & ~blk_valid & (inflight == 0)),
        ]

        self.sync += [
            # engine results: every block updates digest, the counter and the in-flight count
            If(source.valid,
                self.digest.status.eq(_msw_first(source.digest, ncw)),
                self.blocks.status.eq(self.blocks.status + 1),
            ),
            inflight.eq(inflight + accept - source.valid),

            # block register
            If(move,
                blk_valid.eq(1),
                blk_data.eq(Cat(*fill)),
                blk_first.eq(first_left),
                blk_last.eq(blocks_left == 1),
                first_left.eq(0),
                blocks_left.eq(blocks_left - 1),
                fill_cnt.eq(0),
            ).Elif(accept,
                blk_valid.eq(0),
            ),

            # DMA reader: one word per bus transaction, memory byte 0 is the word's MSB
            If(got_word,
                fill[fill_cnt].eq(_bswap32(bus.dat_r)),
                fill_cnt.eq(fill_cnt + 1),
                rd_addr.eq(rd_addr + 1),
                rd_left.eq(rd_left - 1),
            ),
            If(reading & bus.err,
                # abandon the job: nothing more is read, the partial block is dropped
                err_bus.eq(1), rd_left.eq(0), fill_cnt.eq(0), blocks_left.eq(0),
            ),

            If(finish, active.eq(0), done.eq(1)),

            # din: block words for the CSR path
            If(self.din.re,
                If(words < nbw,
                    din_buf[words].eq(self.din.storage),
                    words.eq(words + 1),
                ).Else(err_state.eq(1)),
            ),

            If(f.ack,
                done.eq(0), err_len.eq(0), err_addr.eq(0), err_state.eq(0), err_bus.eq(0),
                words.eq(0),
            ),

            If(f.start | f.dma_start,
                If(active,
                    err_state.eq(1),
                ).Elif(f.start,
                    If(words != nbw,
                        err_len.eq(1), done.eq(1),
                    ).Else(
                        active.eq(1), done.eq(0), words.eq(0),
                        blk_valid.eq(1), blk_data.eq(Cat(*din_buf)), blk_first.eq(1), blk_last.eq(1),
                    ),
                ).Else(
                    If(dma_len_bad,
                        err_len.eq(1), done.eq(1),
                    ).Elif(dma_addr_bad,
                        err_addr.eq(1), done.eq(1),
                    ).Else(
                        active.eq(1), done.eq(0),
                        rd_addr.eq(base[2:]), rd_left.eq(length[2:]),
                        blocks_left.eq(length[(block_bytes.bit_length() - 1):]),
                        first_left.eq(1), fill_cnt.eq(0),
                    ),
                ),
            ),
        ]
        # a start rejected by a check completes at once: raise the event for it too
        rejected = Signal()
        self.comb += rejected.eq(~active & ((f.start & (words != nbw)) | (f.dma_start & (dma_len_bad | dma_addr_bad))))
        self.comb += self.ev.done.trigger.eq(finish | rejected)


def add_hash_peripheral(soc, hash_engine, name="sha256"):
    """Add the hash peripheral for engine spec `hash_engine` to a LiteX SoC: CSRs, DMA bus
    master, interrupt, and the engine facts as constants (csr.h / csr.json)."""
    spec = specmod.parse(hash_engine) if isinstance(hash_engine, str) else hash_engine
    engine = make_engine(spec)
    ram = soc.bus.regions["main_ram"]
    periph = HashPeripheral(engine, ram_base=ram.origin, ram_size=ram.size)
    setattr(soc.submodules, name, periph)
    soc.bus.add_master(name=f"{name}_dma", master=periph.bus)
    if soc.irq.enabled:
        soc.irq.add(name, use_loc_if_exists=True)
    soc.add_constant("LD_ENGINE_SPEC", str(spec))
    soc.add_constant(f"{name.upper()}_LATENCY", engine.latency)
    soc.add_constant(f"{name.upper()}_INTERVAL", engine.interval)
    return periph
