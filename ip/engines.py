# SPDX-License-Identifier: BSD-2-Clause
"""Engine factory: one spec string (litedigest.spec)
-> a Migen engine module, plus Verilog export."""

import importlib

from litedigest import spec as specmod
from migen import Signal
from migen.fhdl import verilog

from .engine_base import HashEngine


def _engine_class(family):
    """The engine of a catalogue family: the HashEngine subclass with that `family` in the
    module litedigest.ip.<family> (the path follows the name: a new family needs no entry
    here)."""
    mod = importlib.import_module(f"{__package__}.{family}")
    found = [
        c
        for c in vars(mod).values()
        if isinstance(c, type) and issubclass(c, HashEngine) and c.__dict__.get("family") == family
    ]
    if len(found) != 1:
        raise ImportError(
            f"{mod.__name__} must define one HashEngine subclass with family = "
            f"{family!r}, found {len(found)}"
        )
    return found[0]


FAMILIES = {family: _engine_class(family) for family in (*specmod.FAMILIES, *specmod.MAC_FAMILIES)}


def _spec(spec):
    return specmod.parse(spec) if isinstance(spec, str) else spec


variant_of = specmod.variant_of  # the catalogue's (litedigest.spec.VARIANTS)


def make_engine(spec, slots=None):
    """Build the engine named by `spec` (str or EngineSpec). `slots` defaults to the number of
    blocks the engine holds in flight (one context per pipeline stage)."""
    s = _spec(spec)
    cls = FAMILIES[s.family]
    if s.modules != 1:
        return cls(arch=s.arch, slots=slots or s.in_flight, stages=s.stages, modules=s.modules)
    return cls(arch=s.arch, slots=slots or s.in_flight, stages=s.stages)


def engine_ios(engine):
    """The engine's ports: its streams, and a MAC engine's `wipe` and `keys_valid`."""
    ios = set()
    for ep in (engine.sink, engine.source):
        ios |= {sig for sig in ep.flatten() if isinstance(sig, Signal)}
    ios |= {getattr(engine, name) for name in ("wipe", "keys_valid") if hasattr(engine, name)}
    return ios


def engine_verilog(spec, slots=None, name="ld_engine"):
    """Verilog of a bare engine with ports sys_clk, sys_rst, sink_*, source_* (the stream
    fields as `sink_payload_data`, `source_payload_digest`, ...). Returns (engine, text)."""
    engine = make_engine(spec, slots)
    out = verilog.convert(engine, ios=engine_ios(engine), name=name)
    return engine, str(out)
