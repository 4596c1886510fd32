# SPDX-License-Identifier: BSD-2-Clause
"""The batch walker: many messages with one start, their jobs described in main RAM.

The CPU writes `batch_count` descriptors of 16 bytes (four little-endian 32-bit words) at
`batch_base` (16-byte aligned) and pulses `ctrl.batch_start`:

    word 0  message address (aligned to the DMA row, `info.align_log2`)
    word 1  message length in bytes (any, 0 included)
    word 2  output address: the message's final chaining value is written there, in the
            digest's byte order (the digest is its first digest-size bytes), aligned to
            `out_align` (the chaining value's size rounded up to a power of two)
    word 3  bits 3:0 the variant (IV choice, as ctrl.variant); on a MAC peripheral bit 7
            `own_key`: the message's key slot is bits 6:4 (else the key slot of the ctrl
            write that started the batch); the other bits are 0

The walker starts each message on a free slot as a `pad` job (the DMA reader pads it, so one
job is the whole message; on Skein with the output block, `out_block`, and the tweaks made by
the tweak stage); a pipelined engine so holds one message per slot. On a one-slot engine the
walker works ahead of the slot, so that it restarts a few cycles after its job ends:
- it reads the next descriptor (and checks it) while the slot is busy, so the freed slot's
  next message is issued without a bus read;
- when the job ends it takes the chaining value into a register and frees the slot at once;
  the value is written to the descriptor's output address while the next message runs (if
  that write fails, no later value is written or counted).
Both of these use the bus only when the DMA reader would not start a fetch (`reader_wants`),
unless the slot waits for them. Descriptors are so read before earlier messages' outputs are
written: an output address must not lie in the table. On a pipeline the walker writes a
finished slot's value, then frees the slot, and reads a descriptor for a free slot. When every
message is written, `status.done` is set in `batch_status`, `finish_cycles` stamped and the
`batch` event raised: one interrupt for the batch.

While a batch runs it owns the slots (a ctrl job start is refused with err_state). A
descriptor the job checks refuse (length, address: REGISTERS.md) or a bad output address stops
the batch with `err_desc` after the messages already started are written; `progress` says how
many were written (descriptors 0 .. progress - 1 of the table, in order only for one slot). A
bus error stops it with `err_bus`. A start while the slots are busy is refused (`err_state`).

The walker shares the peripheral's bus with the DMA reader: it takes it between the reader's
block fetches (the reader is paused while the walker waits), so a fetch is never split.
"""

from litex.soc.interconnect import wishbone
from migen import FSM, Array, Cat, If, Module, Mux, NextState, NextValue, Replicate, Signal
from migen.fhdl.bitcontainer import log2_int
from migen.genlib.record import Record

from .layouts import VARIANT_BITS, engine_block, request_layout
from .slots import CHECK_LAYOUT, in_ram, range_checks

DESC_BYTES = 16
KEY_SHIFT = 4  # descriptor word 3 on a MAC peripheral: bits 6:4 the key slot, bit 7 own_key


def out_align(digest_bits):
    """Bytes an output address is aligned to: the chaining value's size rounded up to a power
    of two (SHA-1 32, SHA-256 32, SHA-512 64)."""
    n = digest_bits // 8
    return 1 << (n - 1).bit_length()


def out_address_ok(out, A, ram_base, ram_size):
    """`out` is aligned to A and its A bytes lie in RAM at [ram_base, ram_base + ram_size)
    (9 LUT4 and a PFUMX for the ECP5 SoC's RAM; a mask of the high bits instead is no smaller)."""
    return in_ram(out, log2_int(A), ram_base, ram_base + ram_size - A)


class BatchWalker(Module):
    """Ports:
    - `bus` (Wishbone master, `dma_width` data bits, row addresses): descriptor reads, output
      writes; `grant` (in): the bus is the walker's this cycle (the reader is between fetches);
      `want` (out): the walker needs the bus (the reader starts no fetch); `reader_wants` (in):
      the reader would start a fetch now (the walker's reads ahead and writes behind wait);
    - `start` (in, pulse), `base`, `count` (in): ctrl.batch_start and its registers;
    - `idle` (in): no slot has a job and none is done but unacknowledged;
    - `request` (request_layout, out), `request_valid` (out): a job start for SlotControl;
      `checks` (CHECK_LAYOUT, out): its range checks, made as the descriptor is loaded
      (SlotControl's `prechecked`); `refused` (in): that request was refused;
    - `active` (nslots, in): slots with a job; `finish` (nslots, in): slots whose job ends now;
    - `cv_sel` (out), `cv` (in): a chaining value by slot (the digest memory's second port);
    - `ack_slots` (nslots, out): slots_done bits to clear (the walker's own jobs);
    - `locked` (out): a batch runs; `stamp`, `event` (out): the batch ended;
    - `busy`, `done`, `err_desc`, `err_bus`, `err_state` (out), `progress` (32, out);
      `clear` (in): ctrl.ack clears done and the errors."""

    def __init__(
        self,
        nslots,
        digest_bits,
        word_bits,
        dma_width,
        ram_base,
        ram_size,
        row_bytes,
        block_bytes,
        out_block=False,
        has_keys=False,
    ):
        rb = log2_int(row_bytes)
        A = out_align(digest_bits)
        ab = log2_int(A)
        cv_bytes = digest_bits // 8
        self.bus = bus = wishbone.Interface(
            data_width=dma_width, address_width=32, addressing="word"
        )
        self.grant = Signal()
        self.want = Signal()
        self.reader_wants = Signal()
        self.start = Signal()
        self.base = Signal(32)
        self.count = Signal(32)
        self.idle = Signal()
        self.request = req = Record(request_layout())
        self.request_valid = Signal()
        self.checks = Record(CHECK_LAYOUT)
        self.refused = Signal()
        self.active = Signal(nslots)
        self.finish = Signal(nslots)
        self.cv_sel = Signal(max=max(2, nslots))
        self.cv = Signal(digest_bits)
        self.ack_slots = Signal(nslots)
        self.locked = Signal()
        self.stamp = Signal()
        self.event = Signal()
        self.busy = Signal()
        self.done = Signal()
        self.err_desc = Signal()
        self.err_bus = Signal()
        self.err_state = Signal()
        self.progress = Signal(32)
        self.started = Signal()  # (out) a batch starts (its start was accepted)
        self.clear = Signal()
        # (MAC peripherals, out) the descriptor being issued names its key slot (`own_key`,
        # word 3 bit 7) and which (`key`, bits 6:4)
        self.own_key = Signal()
        self.key = Signal(3)
        self.csr_write = Signal()  # (in) ctrl is written this cycle
        self.reader_error = Signal()  # (in) the DMA reader saw a bus error
        self.owns_bus = Signal()  # (out) the bus mux: the walker's transfer
        self.pause_reader = Signal()  # (out) the reader starts no fetch

        idx = Signal(32)  # descriptors started
        ptr = Signal(32)  # the next descriptor's byte address
        stop = Signal()  # no more descriptors are started (end or error)
        # a batch runs (the FSM is out of IDLE), a flip-flop of its own set and cleared with the
        # FSM's two transitions: SlotControl's request multiplexer selects on it, and decoded
        # from the FSM's state, placed with the bus logic, it sat at the start of the
        # four-engine ECP5 SoC's long sys path through the admission checks
        running = Signal()
        desc = Signal(8 * DESC_BYTES)
        have = Signal()  # `desc` holds descriptor `idx`, read and checked, not yet issued
        d_addr, d_len, d_out, d_flags = (desc[32 * i : 32 * i + 32] for i in range(4))
        out_of = Array(Signal(32, name=f"out{s}") for s in range(nslots))
        wb = Signal(nslots)  # slots finished, their chaining value not taken (written)
        mine = Signal(nslots)  # slots running a job of the batch
        # One slot: the walker works ahead of it (the module's docstring). Several slots (a
        # pipeline): it takes a finished slot's value straight to memory and reads a descriptor
        # only for a free slot. Issuing a pipeline's next message sooner does not make it
        # sooner: its first block waits in the reader's one-block buffer for a free place in
        # the ring and there holds up the other slots' next blocks (measured: 64-byte batches
        # on sha256:opt:p4 and sha1:opt:p8 took more cycles a message).
        ahead = nslots == 1
        # the chaining value written behind (one slot): taken from the finished slot, which is
        # then free, and written to `out_q` while the next message runs
        cv_q, out_q, pend = Signal(digest_bits), Signal(32), Signal()
        # an output write failed: the values taken after it are dropped, not written, so that
        # the outputs written stay the table's first `progress` (the next message was started
        # before the write)
        wlost = Signal()

        # a free slot (lowest) and a finished one (lowest)
        free = Signal(nslots)
        self.comb += free.eq(~self.active & ~wb & ~mine)
        free_slot, wb_slot = Signal(max=max(2, nslots)), Signal(max=max(2, nslots))
        self.comb += [If(free[s], free_slot.eq(s)) for s in reversed(range(nslots))]
        self.comb += [If(wb[s], wb_slot.eq(s)) for s in reversed(range(nslots))]
        self.comb += self.cv_sel.eq(wb_slot)

        # --- bus transfers: descriptor rows in, chaining-value rows out ------------------------
        desc_rows = max(1, DESC_BYTES // row_bytes)
        out_rows = max(1, -(-cv_bytes // row_bytes)) if row_bytes < A else 1
        beat = Signal(max=max(desc_rows, out_rows) + 1)
        cv_mem = Signal(8 * A)  # the chaining value in memory order, zero-extended
        cv_valid = Signal(A)  # its bytes that are written
        cv_out = cv_q if ahead else self.cv
        self.comb += [cv_mem.eq(engine_block(cv_out, word_bits)), cv_valid.eq((1 << cv_bytes) - 1)]
        out_addr = out_q if ahead else out_of[wb_slot]
        if row_bytes >= A:
            lanes = row_bytes // A
            lane = out_addr[ab:rb] if lanes > 1 else 0
            out_dat = Replicate(cv_mem, lanes)
            out_sel = (
                Cat(*[Mux(lane == j, cv_valid, 0) for j in range(lanes)]) if lanes > 1 else cv_valid
            )
            out_adr = out_addr[rb:]
        else:
            out_dat = Array(
                cv_mem[8 * row_bytes * j : 8 * row_bytes * (j + 1)] for j in range(out_rows)
            )[beat]
            out_sel = Array(cv_valid[row_bytes * j : row_bytes * (j + 1)] for j in range(out_rows))[
                beat
            ]
            out_adr = out_addr[rb:] + beat
        # a row holds several descriptors: the last row read is kept, and a descriptor in it is
        # taken without a bus read (`drow_ok`: it holds the row at `drow_adr`; cleared at a
        # batch's start and by the walker's own writes, so that a table an output overwrote,
        # against the rule, is read as it now is rather than as it was)
        drow, drow_adr, drow_ok = Signal(8 * row_bytes), Signal(32 - rb), Signal()
        if row_bytes >= DESC_BYTES:
            dlanes = row_bytes // DESC_BYTES
            dlane = ptr[4:rb] if dlanes > 1 else 0
            lanes_of = lambda row: Array(row[128 * j : 128 * (j + 1)] for j in range(dlanes))[dlane]
            desc_in, desc_kept = lanes_of(bus.dat_r), lanes_of(drow)
        else:
            desc_in, desc_kept = None, desc
        kept = Signal()
        self.comb += kept.eq(drow_ok & (drow_adr == ptr[rb:]) if row_bytes >= 2 * DESC_BYTES else 0)

        # The walker's own checks of a descriptor (output address aligned and in RAM, flags),
        # made on the value as it is loaded into `desc` and kept in `desc_ok`: in ISSUE they
        # would sit in one cycle with SlotControl's admission of the request (the ECP5 SoC's
        # critical path, 21.6 ns, with the walker's reaction to a refusal).
        desc_ok = Signal()

        # word 3's bits a descriptor may set: the variant's, and on a MAC peripheral the key
        # slot's (bits 6:4) and own_key (bit 7); a key slot out of range or without states is
        # refused by the job's admission (SlotControl's extra checks), like a ctrl job's
        flag_bits = KEY_SHIFT + 4 if has_keys else VARIANT_BITS

        def checks(d):
            out, flags = d[64:96], d[96:128]
            return out_address_ok(out, A, ram_base, ram_size) & (flags[flag_bits:] == 0)

        def load(d):
            """Take descriptor `d`: the walker's checks and SlotControl's range checks of it."""
            job = range_checks(d[0:32], d[32:64], block_bytes, row_bytes, ram_base, ram_size)
            return [NextValue(desc, d), NextValue(desc_ok, checks(d))] + [
                NextValue(getattr(self.checks, k), v) for k, v in job.items()
            ]

        desc_read = desc_in if desc_in is not None else Cat(desc[8 * row_bytes :], bus.dat_r)

        self.comb += [
            req.dma_start.eq(1),
            req.pad.eq(1),
            req.first.eq(1),
            req.last.eq(1),
            req.out.eq(out_block),
            req.slot.eq(free_slot),
            req.base.eq(d_addr),
            req.length.eq(d_len),
            req.variant.eq(d_flags[:VARIANT_BITS]),
            self.locked.eq(running),
        ]
        if has_keys:
            self.comb += [
                self.own_key.eq(d_flags[KEY_SHIFT + 3]),
                self.key.eq(d_flags[KEY_SHIFT : KEY_SHIFT + 3]),
            ]

        self.submodules.fsm = fsm = FSM(reset_state="IDLE")
        self.comb += self.started.eq(fsm.ongoing("IDLE") & self.start & self.idle)
        fsm.act(
            "IDLE",
            If(
                self.start,
                If(
                    ~self.idle,
                    NextValue(self.err_state, 1),
                    NextValue(self.done, 1),
                    self.event.eq(1),
                    NextValue(self.err_desc, 0),
                    NextValue(self.err_bus, 0),
                ).Else(
                    NextValue(self.done, 0),
                    NextValue(idx, 0),
                    NextValue(ptr, self.base),
                    NextValue(self.progress, 0),
                    NextValue(stop, self.count == 0),
                    NextValue(have, 0),
                    NextValue(drow_ok, 0),
                    NextValue(self.err_desc, 0),
                    NextValue(self.err_bus, 0),
                    NextValue(self.err_state, 0),
                    NextValue(wlost, 0),
                    NextValue(running, 1),
                    NextState("PICK"),
                ),
            ),
        )
        # What the walker does next, most urgent first. One slot: take the finished slot's
        # chaining value (frees the slot), issue the descriptor it holds, write the value it
        # holds (at once if the slot has finished again, else when the reader would not
        # fetch), read the next descriptor (at once if the slot is free, else likewise), end
        # the batch. Several slots: write a finished slot's value (then free it), issue to a
        # free slot the descriptor kept in the last row read or read it, end the batch.
        free_any = free != 0
        write = [self.want.eq(1), If(self.grant, NextValue(beat, 0), NextState("WRITE"))]
        read = [self.want.eq(1), If(self.grant, NextValue(beat, 0), NextState("READ"))]
        if ahead:
            pick = (
                If(
                    (wb != 0) & ~pend,
                    NextValue(cv_q, self.cv),
                    NextValue(out_q, out_of[wb_slot]),
                    NextValue(pend, ~wlost),
                    self.ack_slots.eq(1 << wb_slot),
                )
                .Elif(have & ~stop & free_any, NextState("ISSUE"))
                .Elif(pend & ((wb != 0) | ~self.reader_wants), *write)
            )
        else:
            pick = If(wb != 0, *write)
        pick.Elif(~stop & ~have & (idx == self.count), NextValue(stop, 1))
        pick.Elif(
            ~stop & ~have & kept & free_any,
            load(desc_kept),
            NextValue(have, 1),
            NextState("ISSUE"),
        )
        if ahead:
            pick.Elif(~stop & ~have & kept, load(desc_kept), NextValue(have, 1))
            pick.Elif(~stop & ~have & (free_any | ~self.reader_wants), *read)
        else:
            pick.Elif(~stop & ~have & free_any, *read)
        pick.Elif(
            stop & (mine == 0) & ~pend,
            NextValue(self.done, 1),
            self.stamp.eq(1),
            self.event.eq(1),
            NextValue(running, 0),
            NextState("IDLE"),
        )
        fsm.act("PICK", pick)
        fsm.act(
            "READ",
            bus.cyc.eq(1),
            bus.stb.eq(1),
            bus.we.eq(0),
            bus.adr.eq(ptr[rb:] + beat),
            bus.sel.eq(Replicate(1, row_bytes)),
            If(
                bus.ack,
                load(desc_read),
                NextValue(drow, bus.dat_r),
                NextValue(drow_adr, ptr[rb:]),
                NextValue(drow_ok, 1),
                NextValue(beat, beat + 1),
                If(
                    beat == desc_rows - 1,
                    NextValue(have, 1),
                    # (one slot: its value first, if it has finished meanwhile)
                    If(free_any & (wb == 0) if ahead else 1, NextState("ISSUE")).Else(
                        NextState("PICK")
                    ),
                ),
            ),
            If(bus.err, NextValue(self.err_bus, 1), NextValue(stop, 1), NextState("PICK")),
        )
        # ISSUE requests the start; ISSUED acts on SlotControl's answer, registered (a cycle
        # per message: the answer's adders and the walker's counters in one cycle were a
        # critical path too)
        refused_q = Signal()
        slot_q = Signal(max=max(2, nslots))
        fsm.act(
            "ISSUE",
            If(
                ~desc_ok,
                NextValue(self.err_desc, 1),
                NextValue(stop, 1),
                NextValue(have, 0),
                NextState("PICK"),
            ).Elif(
                ~self.csr_write,  # a ctrl write this cycle is SlotControl's request
                self.request_valid.eq(1),
                NextValue(refused_q, self.refused),
                NextValue(slot_q, free_slot),
                NextState("ISSUED"),
            ),
        )
        fsm.act(
            "ISSUED",
            NextValue(have, 0),
            If(
                refused_q,
                NextValue(self.err_desc, 1),
                NextValue(stop, 1),
            ).Else(
                NextValue(idx, idx + 1),
                NextValue(ptr, ptr + DESC_BYTES),
            ),
            NextState("PICK"),
        )
        fsm.act(
            "WRITE",
            bus.cyc.eq(1),
            bus.stb.eq(1),
            bus.we.eq(1),
            NextValue(drow_ok, 0),
            bus.adr.eq(out_adr),
            bus.sel.eq(out_sel),
            bus.dat_w.eq(out_dat),
            If(
                bus.ack,
                NextValue(beat, beat + 1),
                If(
                    beat == out_rows - 1,
                    NextValue(pend, 0) if ahead else self.ack_slots.eq(1 << wb_slot),
                    NextValue(self.progress, self.progress + 1),
                    NextState("PICK"),
                ),
            ),
            If(
                bus.err,
                NextValue(self.err_bus, 1),
                NextValue(stop, 1),
                *(
                    [NextValue(pend, 0), NextValue(wlost, 1)]
                    if ahead
                    else [self.ack_slots.eq(1 << wb_slot)]
                ),
                NextState("PICK"),
            ),
        )

        # --- the bus is the walker's while it reads or writes (the reader is paused) -------------
        self.comb += [
            self.busy.eq(running),
            self.owns_bus.eq(fsm.ongoing("READ") | fsm.ongoing("WRITE")),
            self.pause_reader.eq(self.want | self.owns_bus),
        ]

        # --- per-slot bookkeeping -----------------------------------------------------------------
        accepted = Signal()
        self.comb += accepted.eq(fsm.ongoing("ISSUED") & ~refused_q)
        for s in range(nslots):
            self.sync += [
                If(accepted & (slot_q == s), out_of[s].eq(d_out), mine[s].eq(1)),
                If(self.finish[s] & mine[s], wb[s].eq(1)),
                If(self.ack_slots[s] & wb[s], wb[s].eq(0), mine[s].eq(0)),
            ]
        # a reader bus error on a batch job: its message is lost, the batch stops
        self.sync += If(self.busy & self.reader_error, self.err_bus.eq(1), stop.eq(1))
        # a start while a batch runs is refused (the FSM sets err_state only in IDLE); ack
        # clears the end state of a finished batch
        self.sync += [
            If(self.start & self.busy, self.err_state.eq(1)),
            If(
                self.clear & ~self.busy,
                self.done.eq(0),
                self.err_desc.eq(0),
                self.err_bus.eq(0),
                self.err_state.eq(0),
            ),
        ]
