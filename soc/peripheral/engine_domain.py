# SPDX-License-Identifier: BSD-2-Clause
"""An engine in a clock domain of its own: the engine contract (docs/ARCHITECTURE.md: the sink
of blocks, the source of chaining values) on the `sys` side, the engine clocked by another
domain, a request/acknowledge handshake each way between.

Why: an engine that does several rounds per clock (`sha512:k5`'s five 64-bit rounds,
`skein512:r8`'s eight Threefish rounds) has one long combinational path and routes at 20-30
MHz (bitstreams/engines.json), while the CPU, the bus and every other peripheral of the ECP5
SoC run at 50 MHz. In `sys` it would set the whole SoC's clock; in its own, slower domain it
keeps its cycles per block and the rest of the SoC keeps its clock (the engine's time per
block is its cycles at its own clock; the peripheral's cycle counter counts `sys` cycles).

How a stream crosses (HeldCrossing): the sender holds an item (valid and payload) until it is
taken, as a LiteX stream does, so the item itself crosses without being stored again: a
request toggle goes over (two flip-flops), the receiver sees `valid` and reads the payload
straight from the sender's register, and the acknowledge toggle it sends back when it takes
the item becomes the sender's `ready`. The blocks cross from the peripheral's block register
(1,000 to 1,700 bits held there anyway); the results from a register on the engine's side
(`stream.Buffer`), so the engine does not wait for the acknowledge. A round trip is about two
clocks of each domain, inside the engine's own time per block (10 cycles or more), so the
engine is not slowed; an engine faster than that (a deep pipeline) would be paced by the
crossing. Asynchronous FIFOs (LiteX's ClockDomainCrossing) were the first version: a copy of
every block and result in LUT RAM (938 DPR16X4 in the four-engine SoC) and its wide write
enables in `sys`.

What crosses: every field of a block (data, slot, variant, load_cv, the chaining value to
load, Skein's tweak, first/last) and of a result (digest, slot, last). A MAC engine (its key
store, `wipe`, `keys_valid` are more than the two streams) is refused: its ports would need
their own crossing.

`blocks_per_slot` tells the peripheral how many blocks of one slot can be between its block
register and the result (SlotControl's outstanding count): the engine's own and the result
register's.
"""

from litex.soc.interconnect import stream
from migen import ClockDomainsRenamer, If, Module, Signal
from migen.genlib.cdc import MultiReg

# the engine facts the peripheral, the integration and the reports read (ip/engine_base.py)
ENGINE_FACTS = (
    "family",
    "arch",
    "slots",
    "word_bits",
    "block_bits",
    "digest_bits",
    "variants",
    "stages",
    "latency",
    "interval",
    "blocks_in_flight",
)


class HeldCrossing(Module):
    """A stream from domain `cd_from` to `cd_to` with no storage of its own: the sender must
    hold an item (valid, payload, first/last) until `sink.ready`, and `source` shows that same
    item to the receiver. `sink.ready` is a one-cycle pulse once the receiver has taken it."""

    def __init__(self, description, cd_from, cd_to):
        self.sink = sink = stream.Endpoint(description)
        self.source = source = stream.Endpoint(description)
        req, ack = Signal(), Signal()  # toggles: in cd_from, in cd_to
        req_to, ack_from = Signal(), Signal()  # each seen by the other domain
        sent = Signal()  # (cd_from) the held item's request is out
        self.specials += [MultiReg(req, req_to, cd_to), MultiReg(ack, ack_from, cd_from)]
        taken = Signal()
        self.comb += [
            taken.eq(sent & (ack_from == req)),
            sink.ready.eq(taken),
            sink.connect(source, omit={"valid", "ready"}),
            source.valid.eq(req_to != ack),
        ]
        getattr(self.sync, cd_from).__iadd__(
            If(taken, sent.eq(0)).Elif(sink.valid & ~sent, sent.eq(1), req.eq(~req))
        )
        getattr(self.sync, cd_to).__iadd__(If(source.valid & source.ready, ack.eq(~ack)))


class EngineInClockDomain(Module):
    """`engine` (a litedigest.ip engine, built for `sys`) clocked by `clock_domain`; `sink` and
    `source` are in `sys`. `engine` is the engine itself (its facts are copied here).

    The sink's sender must hold a block until it is taken (the peripheral's block register
    does); the source's results are held until taken too."""

    def __init__(self, engine, clock_domain):
        if not isinstance(clock_domain, str) or not clock_domain or clock_domain == "sys":
            raise ValueError(
                f"an engine's own clock domain must be a domain name other than sys, "
                f"got {clock_domain!r}"
            )
        if hasattr(engine, "wipe") or hasattr(engine, "keys_valid") or hasattr(engine.sink, "key"):
            raise ValueError(
                "a MAC engine (key store, wipe) cannot run in a clock domain of its "
                "own: only the block and result streams are crossed"
            )
        self.clock_domain = clock_domain
        for name in ENGINE_FACTS:
            if hasattr(engine, name):
                setattr(self, name, getattr(engine, name))
        # a slot's blocks past the block register: the engine's own and the result register's
        self.blocks_per_slot = getattr(engine, "blocks_per_slot", 1) + 1
        self.engine = engine
        self.submodules.core = ClockDomainsRenamer(clock_domain)(engine)

        self.sink = stream.Endpoint(engine.sink.description)
        self.source = stream.Endpoint(engine.source.description)
        self.submodules.to_engine = HeldCrossing(engine.sink.description, "sys", clock_domain)
        self.submodules.result = ClockDomainsRenamer(clock_domain)(
            stream.Buffer(engine.source.description)
        )
        self.submodules.from_engine = HeldCrossing(engine.source.description, clock_domain, "sys")
        self.comb += [
            self.sink.connect(self.to_engine.sink),
            self.to_engine.source.connect(engine.sink),
            engine.source.connect(self.result.sink),
            self.result.source.connect(self.from_engine.sink),
            self.from_engine.source.connect(self.source),
        ]
