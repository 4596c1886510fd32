# SPDX-License-Identifier: BSD-2-Clause
"""What the peripheral's stages pass each other: record layouts, stream layouts, byte orders.

- `block_layout`: a block on its way to the engine (a LiteX stream payload; the endpoint's
  `first` starts the job from the IV of `variant`, its `last` ends the message);
- `request_layout`: a write of `ctrl` with the job registers, as SlotControl checks it;
- `job_layout` / `segment_layout`: an accepted job start, which every stage that keeps per-slot
  state of the job takes (the segments, in rows, only the DMA reader);
- `slot_event_layout`: a one-cycle event about a slot (a fetch begun, a fetch dropped, a block
  out of the engine);
- `tweak_port_layout`: the DMA reader's questions to the Skein tweak stage (litedigest.soc.
  peripheral.skein_tweak); a peripheral without one leaves the port unconnected (all zero:
  no output block owed, zero tweaks).
"""

from migen import Cat
from migen.genlib.record import DIR_M_TO_S, DIR_S_TO_M

VARIANT_BITS = 4  # ctrl.variant
TWEAK_BITS = 128  # a Skein tweak: T0 (position) in bits 63:0, T1 in bits 127:64
SLOT_FIELD_BITS = 8  # ctrl.slot


def slot_bits(nslots):
    """Bits of a slot number (at least one)."""
    return max(1, (nslots - 1).bit_length())


def block_layout(block_bits, nslots):
    return [
        ("data", block_bits),  # engine word i at bits [W*i, W*(i+1))
        ("slot", slot_bits(nslots)),
        ("load_cv", 1),  # start from the cv register (never with first)
        ("variant", VARIANT_BITS),
        ("tweak", TWEAK_BITS),  # Skein only
    ]


def request_layout():
    return [
        ("start", 1),
        ("dma_start", 1),
        ("slot", SLOT_FIELD_BITS),
        ("first", 1),
        ("last", 1),
        ("load_cv", 1),
        ("tail", 1),
        ("out", 1),
        ("pad", 1),
        ("variant", VARIANT_BITS),
        ("base", 32),
        ("length", 32),
        ("tail_base", 32),
        ("tail_length", 32),
        ("final_bytes", 7),
    ]


def job_layout(nslots):
    return [
        ("start", 1),  # a job starts on `slot` this cycle
        ("slot", slot_bits(nslots)),
        ("csr", 1),  # its one block is the CSR block (else: DMA segments)
        ("first", 1),
        ("load_cv", 1),
        ("last", 1),
        ("variant", VARIANT_BITS),
        ("out", 1),  # Skein: the output block follows the job's blocks
        ("pad", 1),  # SHA: the segment is the whole message, padded here
    ]


def segment_layout(row_bits):
    """The job's two segments in DMA rows (row address, row count); no tail: 0 rows. `bytes`:
    the message length of a `pad` job (its rows: the bytes rounded up to whole rows)."""
    return [
        ("row", row_bits),
        ("rows", row_bits),
        ("tail_row", row_bits),
        ("tail_rows", row_bits),
        ("bytes", 32),
    ]


def slot_event_layout(nslots):
    return [("valid", 1), ("slot", slot_bits(nslots))]


def tweak_port_layout(nslots):
    sb = slot_bits(nslots)
    return [
        # the next block of `slot`: its tweak (the job's final block when `final`); `advance`:
        # that block is made, the slot's position moves on
        ("slot", sb, DIR_M_TO_S),
        ("final", 1, DIR_M_TO_S),
        ("advance", 1, DIR_M_TO_S),
        ("tweak", TWEAK_BITS, DIR_S_TO_M),
        # slots that still owe their output block, its tweak; `out_take`: made for `out_slot`
        ("out_pending", nslots, DIR_S_TO_M),
        ("out_tweak", TWEAK_BITS, DIR_S_TO_M),
        ("out_slot", sb, DIR_M_TO_S),
        ("out_take", 1, DIR_M_TO_S),
    ]


def engine_block(block_le, word_bits):
    """The engine's block (word i at bits [W*i, W*(i+1)), big-endian words) from the block's
    bytes in memory order (byte k at bits [8k, 8k+8))."""
    nb = word_bits // 8
    nbytes = len(block_le) // 8
    byte = lambda k: block_le[8 * k : 8 * (k + 1)]
    return Cat(*[byte(i * nb + nb - 1 - j) for i in range(nbytes // nb) for j in range(nb)])


def data_reset_less(endpoint):
    """The data fields of a block endpoint need no reset (`valid` says when they hold a
    block): on the ECP5 the reset net to every data flip-flop of four peripherals did not
    route. Fields of more than 32 bits are data (the block, its tweak)."""
    for sig in endpoint.payload.flatten():
        if len(sig) > 32:
            sig.reset_less = True
