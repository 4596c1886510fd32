"""Engine factory: one spec string (DESIGN.md) -> a Migen engine module, plus Verilog export."""
from migen import Signal
from migen.fhdl import verilog

from litedigest import spec as specmod

from .sha1 import SHA1Engine
from .sha256 import SHA256Engine
from .sha512 import SHA512Engine
from .skein512 import Skein512Engine

FAMILIES = {"sha1": SHA1Engine, "sha256": SHA256Engine, "sha512": SHA512Engine,
            "skein512": Skein512Engine}


def _spec(spec):
    return specmod.parse(spec) if isinstance(spec, str) else spec


def variant_of(spec):
    """The engine's variant index (IV choice) for the spec's algorithm, e.g. sha224 -> 1
    (skein512-N -> the configured chaining value of output size N)."""
    s = _spec(spec)
    name = s.algorithm
    if s.family == "skein512":
        name = f"skein512-{s.digest_size * 8}"
    return list(FAMILIES[s.family].IVS).index(name)


def make_engine(spec, slots=None):
    """Build the engine named by `spec` (str or EngineSpec). `slots` defaults to the number of
    blocks the engine holds in flight (one context per pipeline stage)."""
    s = _spec(spec)
    cls = FAMILIES[s.family]
    if s.modules != 1:
        return cls(arch=s.arch, slots=slots or s.in_flight, stages=s.stages, modules=s.modules)
    return cls(arch=s.arch, slots=slots or s.in_flight, stages=s.stages)


def engine_ios(engine):
    ios = set()
    for ep in (engine.sink, engine.source):
        ios |= {sig for sig in ep.flatten() if isinstance(sig, Signal)}
    return ios


def engine_verilog(spec, slots=None, name="ld_engine"):
    """Verilog of a bare engine with ports sys_clk, sys_rst, sink_*, source_* (the stream
    fields as `sink_payload_data`, `source_payload_digest`, ...). Returns (engine, text)."""
    engine = make_engine(spec, slots)
    out = verilog.convert(engine, ios=engine_ios(engine), name=name)
    return engine, str(out)
