"""An engine in a clock domain of its own: the engine contract (docs/ARCHITECTURE.md: the sink
of blocks, the source of chaining values) on the `sys` side, the engine clocked by another
domain, an asynchronous FIFO each way between (LiteX's stream.ClockDomainCrossing).

Why: an engine that does several rounds per clock (`sha512:k5`'s five 64-bit rounds,
`skein512:r8`'s eight Threefish rounds) has one long combinational path and routes at 20-30
MHz (bitstreams/engines.json), while the CPU, the bus and every other peripheral of the ECP5
SoC run at 50 MHz. In `sys` it would set the whole SoC's clock; in its own, slower domain it
keeps its cycles per block and the rest of the SoC keeps its clock (the engine's time per
block is its cycles at its own clock; the peripheral's cycle counter counts `sys` cycles).

What crosses: every field of a block (data, slot, variant, load_cv, the chaining value to
load, Skein's tweak, first/last) and of a result (digest, slot, last). The peripheral hands a
`load_cv` block its chaining value as it enters the FIFO (`cv_taken`), so the value travels with
the block. A MAC engine (its key store, `wipe`, `keys_valid` are more than the two streams) is
refused: its ports would need their own crossing.

`blocks_per_slot` tells the peripheral how many blocks of one slot can be between its block
register and the result (SlotControl's outstanding count): both FIFOs and the engine's own.
"""
from migen import ClockDomainsRenamer, Module
from litex.soc.interconnect import stream

# LiteX's AsyncFIFO takes no fewer than 4 entries; 4 is enough for an engine that takes a block
# every 10 or more of its cycles (the FIFO only has to cover the crossing's few cycles)
FIFO_DEPTH = 4

# the engine facts the peripheral, the integration and the reports read (ip/engine_base.py)
ENGINE_FACTS = ("family", "arch", "slots", "word_bits", "block_bits", "digest_bits", "variants",
                "stages", "latency", "interval", "blocks_in_flight")


class EngineInClockDomain(Module):
    """`engine` (a litedigest.ip engine, built for `sys`) clocked by `clock_domain`; `sink` and
    `source` are in `sys`. `engine` is the engine itself (its facts are copied here)."""

    def __init__(self, engine, clock_domain, depth=FIFO_DEPTH):
        if not isinstance(clock_domain, str) or not clock_domain or clock_domain == "sys":
            raise ValueError(f"an engine's own clock domain must be a domain name other than sys, "
                             f"got {clock_domain!r}")
        if hasattr(engine, "wipe") or hasattr(engine, "keys_valid") or hasattr(engine.sink, "key"):
            raise ValueError("a MAC engine (key store, wipe) cannot run in a clock domain of its "
                             "own: only the block and result streams are crossed")
        self.clock_domain = clock_domain
        for name in ENGINE_FACTS:
            if hasattr(engine, name):
                setattr(self, name, getattr(engine, name))
        self.blocks_per_slot = getattr(engine, "blocks_per_slot", 1) + 2 * depth
        self.engine = engine
        self.submodules.core = ClockDomainsRenamer(clock_domain)(engine)

        self.sink = stream.Endpoint(engine.sink.description)
        self.source = stream.Endpoint(engine.source.description)
        self.submodules.to_engine = stream.ClockDomainCrossing(
            engine.sink.description, cd_from="sys", cd_to=clock_domain, depth=depth)
        self.submodules.from_engine = stream.ClockDomainCrossing(
            engine.source.description, cd_from=clock_domain, cd_to="sys", depth=depth)
        self.comb += [
            self.sink.connect(self.to_engine.sink),
            self.to_engine.source.connect(engine.sink),
            engine.source.connect(self.from_engine.sink),
            self.from_engine.source.connect(self.source),
        ]
