# SPDX-License-Identifier: BSD-2-Clause
"""The design units under proof, as Verilog made by Migen from the real modules.

Each builder returns a `Unit`: the Verilog text (one module) and the harness parameters that
follow from the design. The datapath is abstracted in Migen before the conversion
(`abstract_data`): a data register still loads when the design says so, but what it loads is
free (or, for a register whose stability is a property, its own complement), so the solver
deals with control only. Ports are every Signal, Record, stream endpoint or bus a module
keeps as a public attribute, so a port added to a module appears in its Verilog without an
edit here; the harnesses name the ports they use, and an input they leave open is free (any
value, any cycle). A few `aux_*` ports show internal registers (found by their Migen names)
that a harness's auxiliary invariants relate to its model, so that k-induction closes.

`fault` plants a bug (a mutated module or a wrong design parameter) for the proofs that show
each property group can fail. A MAC engine (HMAC) gets ports of its own for the harness
`engine_mac_formal` (`_mac_engine_unit`).
"""

from dataclasses import dataclass, field

from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litex.soc.interconnect import stream, wishbone
from litex.soc.interconnect.axi import AXIInterface
from migen import Array, Cat, Constant, If, Memory, Module, Mux, Signal
from migen.fhdl import verilog
from migen.fhdl.structure import _ArrayProxy, _Assign, _Fragment, _Operator, _Part, _Slice
from migen.fhdl.tools import list_signals, list_targets
from migen.fhdl.visit import NodeTransformer
from migen.genlib.record import Record
from migen.util.misc import flat_iteration


@dataclass
class Unit:
    name: str  # the Verilog module
    verilog: str
    cut: list = field(default_factory=list)  # signals (Verilog names) for yosys `cutpoint`
    params: dict = field(default_factory=dict)  # harness parameters
    info: dict = field(default_factory=dict)  # facts for the report (latency, slots, ...)


def module_ios(m):
    """The ports of module `m`: the signals of its public Signal, Record (stream endpoints
    too), Wishbone and AXI attributes."""
    ios = set()
    for k, v in vars(m).items():
        if k.startswith("_"):
            continue
        if isinstance(v, Signal):
            ios.add(v)
        elif isinstance(v, Record):
            ios |= {s for s in v.flatten() if isinstance(s, Signal)}
        elif isinstance(v, AXIInterface):
            for ch in (v.aw, v.w, v.b, v.ar, v.r):
                ios |= set(ch.flatten())
    return ios


def convert(m, name, ios=None):
    """(Verilog text, fragment, namespace) of module (or fragment) `m` as module `name`."""
    ios = module_ios(m) if ios is None else ios
    frag = m if isinstance(m, _Fragment) else m.get_fragment()
    out = verilog.convert(frag, ios=ios, name=name)
    return str(out), frag, out.ns


# --- engines -------------------------------------------------------------------------------


class _FaultyEngine(Module):
    """An engine with a bug planted between it and its source (the ports keep their names):
    `drop`: its first result is taken silently; `release`: `valid` falls for a cycle after
    a cycle of back-pressure; `spurious`: a result appears from nowhere (`inject`, a free
    input); `slot_flip`: results carry the wrong slot."""

    def __init__(self, engine, fault):
        self.submodules.engine = engine
        self.sink = engine.sink
        self.source = stream.Endpoint(engine.source.description)
        src = engine.source
        for k in (
            "latency",
            "interval",
            "blocks_in_flight",
            "slots",
            "word_bits",
            "digest_bits",
            "block_bits",
            "round_cycles",
            "count",
        ):
            setattr(self, k, getattr(engine, k))
        show = Signal()
        take = Signal()
        self.comb += [
            self.source.payload.eq(src.payload),
            self.source.last.eq(src.last),
            self.source.valid.eq(src.valid & show),
            src.ready.eq(self.source.ready | take),
        ]
        if fault == "drop":
            dropped = Signal()
            self.comb += [show.eq(dropped), take.eq(src.valid & ~dropped)]
            self.sync += If(src.valid, dropped.eq(1))
        elif fault == "release":
            stalled = Signal()
            self.comb += show.eq(~stalled)
            self.sync += stalled.eq(src.valid & ~self.source.ready & ~stalled)
        elif fault == "spurious":
            self.inject = Signal()
            self.comb += [show.eq(1), self.source.valid.eq(src.valid | self.inject)]
        elif fault == "slot_flip":
            self.comb += [show.eq(1), self.source.slot.eq(src.slot ^ 1)]
        else:
            raise ValueError(f"unknown engine fault {fault!r}")


def _lhs_signals(node):
    """The signals an assignment target writes (a signal, a slice or part of one, an array
    element, a concatenation)."""
    if isinstance(node, Signal):
        return [node]
    if isinstance(node, (_Slice, _Part)):
        return _lhs_signals(node.value)
    if isinstance(node, _ArrayProxy):
        return [s for c in node.choices for s in _lhs_signals(c)]
    if isinstance(node, Cat):
        return [s for c in node.l for s in _lhs_signals(c)]
    return []


class _FreeData(NodeTransformer):
    """Replaces the value of every synchronous assignment to a data register (one of
    `regs`) by a new free input: the register still loads when the design says so, but what
    it loads is arbitrary. A register of `flip` (one whose stability is a property) loads
    the complement of its value instead: every load changes it, so none goes unseen."""

    def __init__(self, regs, flip=()):
        self.regs = regs
        self.flip = set(flip)
        self.inputs = []

    def visit_Assign(self, node):
        targets = _lhs_signals(node.l)
        if isinstance(node.l, Signal) and node.l in self.flip:
            return _Assign(node.l, ~node.l)
        if targets and all(t in self.regs for t in targets):
            free = Signal(len(node.l), name=f"free{len(self.inputs)}")
            self.inputs.append(free)
            return _Assign(node.l, free)
        return node


class _SumToXor(NodeTransformer):
    """Replaces every addition of words (operands of at least `width` bits: data, not an
    index or a counter) by an exclusive or of the same operands."""

    def __init__(self, width):
        self.width = width

    def visit_Operator(self, node):
        node = super().visit_Operator(node)
        if node.op == "+" and all(len(o) >= self.width for o in node.operands):
            return _Operator("^", node.operands)
        return node


def cheap_output_sums(frag, out, width):
    """Abstract the combinational datapath in front of output `out` (a signal): in the comb
    assignments of the signals `out` is computed from (transitively; not the registers, which
    `abstract_data` frees), every addition of words (`width` bits or more) becomes an
    exclusive or. An engine that reads its
    result from the round registers on the output side (the chaining value added there, the
    carry-save words summed) makes its digest a sum of abstracted registers: a change of any
    one operand still changes the digest for some free values, as a sum's does, but the solver
    has no carry chains to unroll at each step (the BMC of sha256:opt went from 12 s to 170 s
    with them). Returns the signals of that cone."""
    comb = [st for st in frag.comb if isinstance(st, _Assign) and isinstance(st.l, Signal)]
    by_target = {}
    for st in comb:
        by_target.setdefault(st.l, []).append(st)
    cone, todo = set(), [out]
    while todo:
        sig = todo.pop()
        if sig in cone:
            continue
        cone.add(sig)
        for st in by_target.get(sig, []):
            todo.extend(list_signals(st.r))
    xor = _SumToXor(width)
    frag.comb = [
        xor.visit(st)
        if isinstance(st, _Assign) and isinstance(st.l, Signal) and st.l in cone
        else st
        for st in frag.comb
    ]
    return cone


def drivers(frag, sig):
    """The signals `sig` is a copy of (its comb assignments `sig.eq(x)`, x a signal)."""
    return {
        st.r
        for st in frag.comb
        if isinstance(st, _Assign) and st.l is sig and isinstance(st.r, Signal)
    }


def abstract_data(frag, regs, flip=()):
    """Abstract the data registers `regs` of fragment `frag` in place (`_FreeData`); returns
    the free inputs to add to the ports."""
    t = _FreeData(set(regs), flip)
    for cd in list(frag.sync):
        frag.sync[cd] = t.visit(frag.sync[cd])
    return t.inputs


def ns_name(sig):
    """The name Migen gives a signal (its explicit name or the variable it was assigned to)."""
    return sig.name_override or (sig.backtrace[-1][0] if sig.backtrace else None)


def expose(frag, *names):
    """Registers of fragment `frag` by their Migen names, to add to the ports: the internal
    state an auxiliary invariant of a harness relates to its model (for the induction)."""
    found = {ns_name(t): t for t in list_targets(frag.sync.get("sys", []))}
    missing = [n for n in names if n not in found]
    if missing:
        raise KeyError(f"no register named {', '.join(missing)}")
    return [found[n] for n in names]


def engine_unit(spec, fault=None):
    """The engine of `spec` with its datapath abstracted: every register of at least a word's
    width (round state, message window, pre-computed sums, stored and current chaining values,
    Skein's key, tweak and plaintext words, the result register) loads a free value, in the
    cycles the engine loads it. The control (busy flags, round and phase counters, stage
    valid bits, slot and last tags, the slots in flight, Skein's round and subkey counters,
    the result's valid) is the engine's own. A MAC engine: `_mac_engine_unit`."""
    s = specmod.parse(spec)
    engine = make_engine(s)
    if engine.latency != s.latency:
        raise ValueError(f"{spec}: engine latency {engine.latency} != catalogue {s.latency}")
    if hasattr(engine, "key_slots"):
        return _mac_engine_unit(spec, s, engine, fault)
    top = engine if fault is None else _FaultyEngine(engine, fault)
    ios = set()
    for ep in (top.sink, top.source):
        ios |= {sig for sig in ep.flatten() if isinstance(sig, Signal)}
    if fault == "spurious":
        ios.add(top.inject)
    frag = top.get_fragment()
    targets = list_targets(frag.sync.get("sys", []))
    # the round counter of the one-block sequencers (unused by the others): the harness
    # checks it stays within the rounds, which lets induction close early
    counted = engine.count in targets
    if not counted:
        frag.comb.append(engine.count.eq(0))
    ios.add(engine.count)
    # the engine's own record of the blocks inside: `busy` (one-block sequencers) or the
    # bits of `slot_busy` (pipelines and Skein: one block per slot)
    occupancy = Signal(max=engine.slots + 2, name="occupancy")
    busy_mask = Signal(engine.slots, name="busy_mask")
    if engine.busy in targets:
        frag.comb += [occupancy.eq(engine.busy), busy_mask.eq(engine.busy)]
    else:
        (sb,) = [t for t in targets if ns_name(t) == "slot_busy"]
        frag.comb += [occupancy.eq(sum(sb[i] for i in range(len(sb)))), busy_mask.eq(sb)]
    ios |= {occupancy, busy_mask}
    # the slots of the blocks in the stage registers (pipelines: `s<i>_valid`, `s<i>_slot`)
    stage_mask = Signal(engine.slots, name="stage_mask")
    names = {ns_name(t): t for t in targets}
    stages = [
        (names[f"s{i}_valid"], names[f"s{i}_slot"])
        for i in range(engine.stages)
        if f"s{i}_valid" in names
    ]
    mask = 0
    for v, sl in stages:
        mask = mask | Mux(v, Constant(1, engine.slots) << sl, 0)
    stage_count = Signal(max=engine.stages + 2, name="stage_count")
    frag.comb += [stage_mask.eq(mask), stage_count.eq(sum(v for v, _ in stages))]
    ios |= {stage_mask, stage_count}
    regs = [r for r in targets if len(r) >= engine.word_bits]
    free = abstract_data(frag, regs, flip=drivers(frag, engine.source.digest))
    cheap_output_sums(frag, engine.source.digest, engine.word_bits)
    text, frag, ns = convert(frag, "ld_engine", ios | set(free))
    return Unit(
        "ld_engine",
        text,
        [],
        params=dict(
            LAT=s.latency,
            IN_FLIGHT=engine.blocks_in_flight,
            SB=len(engine.sink.slot),
            SLOTS=engine.slots,
            DB=engine.digest_bits,
            ROUNDS=engine.round_cycles if counted else 0,
            CB=len(engine.count),
            OB=len(occupancy),
            PIPE=int(bool(stages)),
        ),
        info=dict(
            spec=str(spec),
            latency=s.latency,
            in_flight=engine.blocks_in_flight,
            slots=engine.slots,
            abstracted_bits=sum(len(r) for r in regs),
            abstracted=sorted(ns.get_name(r) for r in regs),
        ),
    )


def _passenger_dropped(frag, engine, outer):
    """The planted fault `passenger` of a MAC engine: the result register does not load when
    a passenger (a block that is neither its message's last one nor a key initialization)
    leaves the outer core, so that block gets no result (the engine goes on as if it had)."""
    (res_valid,) = drivers(frag, engine.source.valid)
    keep = outer["mac"] | outer["key_init"]

    class Drop(NodeTransformer):
        def visit_If(self, node):
            node = super().visit_If(node)
            if any(
                isinstance(st, _Assign)
                and st.l is res_valid
                and isinstance(st.r, Constant)
                and st.r.value == 1
                for st in flat_iteration(node.t)
            ):
                node.cond = node.cond & keep
            return node

    frag.sync["sys"] = Drop().visit(frag.sync["sys"])


def _mac_engine_unit(spec, s, engine, fault=None):
    """A MAC engine (`hmac-sha256:opt:pN`, ip/hmac_sha256.py) for the harness
    `engine_mac_formal` (engine.sv): the sink's key slot and `key_init` and the `wipe` input
    are ports (free inputs); the auxiliary ports `mac_<core>_<field>` show the stage
    registers of both cores (`i`: inner, `o`: outer; each a vector, stage 0 first): valid,
    key_init, slot, key, last; `mac_slot_busy` and `mac_key_busy` the engine's record of the
    slots with a block in the inner core and of the key slots being initialized, `mac_phase`
    the cycle of the stage period, `mac_handover` the register that says it is the last (the
    harness asserts that they agree). The harness derives the blocks inside from them (a key
    initialization is one block: its outer half; its inner half runs beside it and yields no
    result). The datapath is abstracted as for every engine (`engine_unit`). Fault
    `passenger`: a passenger's result is dropped."""
    frag = engine.get_fragment()
    targets = list_targets(frag.sync.get("sys", []))
    names = {ns_name(t): t for t in targets}
    p = engine.stages
    ports = set()
    for sig in (engine.sink, engine.source):
        ports |= {x for x in sig.flatten() if isinstance(x, Signal)}
    ports |= {engine.wipe, engine.keys_valid}
    stage = {
        (c, f): [names[f"{c}{i}_{f}"] for i in range(p)]
        for c in "io"
        for f in ("valid", "key_init", "slot", "key", "last", "mac")
        if f != "mac" or c == "o"
    }
    for (c, f), regs in stage.items():
        if f == "mac":
            continue
        port = Signal(sum(len(r) for r in regs), name=f"mac_{c}_{f}")
        frag.comb.append(port.eq(Cat(*regs)))
        ports.add(port)
    for name in ("slot_busy", "key_busy", "phase", "handover"):
        port = Signal(len(names[name]), name=f"mac_{name}")
        frag.comb.append(port.eq(names[name]))
        ports.add(port)
    if fault == "passenger":
        last = {f: stage[("o", f)][-1] for f in ("mac", "key_init")}
        _passenger_dropped(frag, engine, last)
    elif fault is not None:
        raise ValueError(f"unknown MAC engine fault {fault!r}")
    regs = [r for r in targets if len(r) >= engine.word_bits]
    free = abstract_data(frag, regs, flip=drivers(frag, engine.source.digest))
    text, frag, ns = convert(frag, "ld_engine", ports | set(free))
    mac = specmod.mac_of_family(engine.family)
    core = specmod.parse(f"{mac.hash_family}:{engine.arch}" + (f":p{p}" if p > 1 else ""))
    if core.latency != engine.round_cycles + 1:
        raise ValueError(f"{spec}: core latency {core.latency} != {engine.round_cycles} + 1")
    return Unit(
        "ld_engine",
        text,
        [],
        params=dict(
            LAT=s.latency,
            KLAT=core.latency,
            IN_FLIGHT=engine.blocks_in_flight,
            SB=len(engine.sink.slot),
            SLOTS=engine.slots,
            KB=len(engine.sink.key),
            KEYS=engine.key_slots,
            DB=engine.digest_bits,
            P=p,
            PER=engine.round_cycles // p,
            PB=len(names["phase"]),
            BPS=engine.blocks_per_slot,
        ),
        info=dict(
            spec=str(spec),
            latency=s.latency,
            key_init_latency=core.latency,
            in_flight=engine.blocks_in_flight,
            slots=engine.slots,
            key_slots=engine.key_slots,
            abstracted_bits=sum(len(r) for r in regs),
            abstracted=sorted(ns.get_name(r) for r in regs),
        ),
    )


# --- planted faults in the peripheral's units ------------------------------------------------


class _Wrapped(Module):
    """Module `inner` with the same ports (the same public attributes, so the same Verilog
    port names), some of them replaced by the caller to plant a fault between the outside
    and `inner`."""

    def __init__(self, inner):
        self.submodules.inner = inner
        for k, v in vars(inner).items():
            if not k.startswith("_") and isinstance(v, (Signal, Record, AXIInterface)):
                setattr(self, k, v)


def _glitch(m, waiting):
    """A signal that is 1 in the first cycle after a cycle with `waiting` (once): a handshake
    released too early."""
    prev, used = Signal(), Signal()
    g = Signal()
    m.comb += g.eq(prev & ~used)
    m.sync += [prev.eq(waiting), If(g, used.eq(1))]
    return g


def _segments_one_row_more(w, inner):
    """The reader is told one row more than the job's first segment: it reads a row past it."""
    w.segments = Record(inner.segments.layout)
    w.comb += [inner.segments.eq(w.segments), inner.segments.rows.eq(w.segments.rows + 1)]


# --- the peripheral's job control ----------------------------------------------------------

# the standard configurations: (slots, block bytes, DMA row bytes, main RAM base and size)
SIM_RAM = (0x40000000, 256 * 1024)  # soc/targets/sim.py: main RAM, 512-bit DMA rows


def slots_unit(
    nslots=4, block_bytes=64, row_bytes=64, ram=SIM_RAM, outstanding=3, out_block=False, fault=None
):
    """SlotControl of a peripheral of `nslots` slots (the scheduler SoC's sha256:opt:p4 on the
    sim target's 512-bit DMA port by default). Faults: `outstanding` (the counter of a
    slot's blocks out sized for one block, where the DMA reader may have three), `ram_row`
    (main RAM one row larger than the harness's: a job ending a row past it starts),
    `ack_late` (ack clears the status a cycle late), `ack_loses` (a bus error in the cycle of
    an ack does not reach the status: the first run's finding, J7)."""
    from litedigest.soc.peripheral.slots import SlotControl

    ram_base, ram_size = ram
    design_size, design_out = ram_size, outstanding
    if fault == "ram_row":
        design_size += row_bytes
    elif fault == "outstanding":
        design_out = 1
    elif fault not in (None, "ack_late", "ack_loses"):
        raise ValueError(f"unknown slots fault {fault!r}")
    m = SlotControl(
        nslots,
        block_bytes,
        row_bytes,
        ram_base,
        design_size,
        outstanding=design_out,
        out_block=out_block,
    )
    top = m
    if fault == "ack_late":  # the ack reaches the status bits a cycle late
        top = _Wrapped(m)
        top.ack = Signal(name="ack")
        top.sync += m.ack.eq(top.ack)
    elif fault == "ack_loses":
        top = _Wrapped(m)
        top.bus_error = Signal(name="bus_error")
        top.comb += m.bus_error.eq(top.bus_error & ~m.ack)
    frag = top.get_fragment()
    # auxiliary ports: the pending load_cv and each slot's count of outstanding blocks, which
    # the harness checks against its model (so that the induction closes)
    aux = expose(frag, "cv_pending", *[f"outst{s}" for s in range(nslots)])
    outst = Signal(4 * nslots, name="outst")
    frag.comb.append(outst.eq(Cat(*[Cat(o, Constant(0, 4 - len(o))) for o in aux[1:]])))
    text, _, _ = convert(frag, "ld_slots", module_ios(top) | {aux[0], outst})
    return Unit(
        "ld_slots",
        text,
        params=dict(
            S=nslots,
            SB=len(m.job.slot),
            BLOCK=block_bytes,
            LOGROW=row_bytes.bit_length() - 1,
            RAM_BASE=ram_base,
            RAM_SIZE=ram_size,
            OUT=outstanding,
            OUT_BLOCK=int(out_block),
        ),
        info=dict(
            slots=nslots, block_bytes=block_bytes, row_bytes=row_bytes, outstanding=outstanding
        ),
    )


# --- the DMA readers ----------------------------------------------------------------------


def _ram_rows(ram, row_bytes):
    base, size = ram
    return base // row_bytes, (base + size) // row_bytes


def _reader_params(m, nslots, block_bits, dma_width):
    """The harness parameters every DMA reader `m` has: its slots, the bits of a slot number,
    the rows of a block and log2 of a row's bytes."""
    return dict(
        S=nslots,
        SB=len(m.job.slot),
        RPB=block_bits // dma_width,
        LOGROW=(dma_width // 8).bit_length() - 1,
    )


def _row_pointers(frag, nslots, prefix):
    """Auxiliary ports `<prefix>_<name>` with each slot's row pointers of a reader (SlotJobs:
    cur_row, cur_rows, tail_row, tail_rows), concatenated slot 0 first."""
    out = []
    for name in ("cur_row", "cur_rows", "tail_row", "tail_rows"):
        regs = expose(frag, *[f"{name}{s}" for s in range(nslots)])
        port = Signal(sum(len(r) for r in regs), name=f"{prefix}_{name}")
        frag.comb.append(port.eq(Cat(*regs)))
        out.append(port)
    return out


def dma_unit(nslots=4, block_bits=512, word_bits=32, dma_width=128, ram=SIM_RAM, fault=None):
    """The Wishbone DMAReader (SHA: no tweak stage). Default: four slots (sha256:opt:p4) on
    128-bit rows (the ECP5 target's DMA port): four rows a block. The fill buffer is
    abstracted like an engine's result register: it loads the complement of its value (the
    block's data come from the bus and do not steer the reader; D3 sees every load)."""
    from litedigest.soc.peripheral.dma_reader import DMAReader

    m = DMAReader(nslots, block_bits, word_bits, dma_width)
    top = m
    if fault is not None:
        top = _Wrapped(m)
        if fault == "row_past":
            _segments_one_row_more(top, m)
        elif fault == "stb_drop":  # the request falls for a cycle before its ack
            top.bus = bus = wishbone.Interface(
                data_width=dma_width, address_width=32, addressing="word"
            )
            g = _glitch(top, m.bus.stb & ~bus.ack & ~bus.err)
            top.comb += [m.bus.connect(bus), bus.cyc.eq(m.bus.cyc & ~g), bus.stb.eq(m.bus.stb & ~g)]
        elif fault == "valid_drop":  # the block shown falls for a cycle before it is taken
            top.source = src = stream.Endpoint(m.source.description)
            g = _glitch(top, m.source.valid & ~src.ready)
            top.comb += [m.source.connect(src), src.valid.eq(m.source.valid & ~g)]
        else:
            raise ValueError(f"unknown dma fault {fault!r}")
    frag = top.get_fragment()
    fill = [
        t
        for t in list_targets(frag.sync["sys"])
        if (ns_name(t) or "").startswith("fill") and len(t) == dma_width
    ]
    abstract_data(frag, [], flip=fill)
    aux = _row_pointers(frag, nslots, "aux") + [
        Signal(len(m.source.slot), name="aux_fs"),
        Signal(nslots, name="aux_jlast"),
    ]
    pmore = Signal(nslots, name="aux_pmore")
    frag.comb.append(pmore.eq(Cat(*expose(frag, *[f"pad_more{s}" for s in range(nslots)]))))
    aux.append(pmore)
    live = Signal(nslots, name="aux_live")
    frag.comb.append(live.eq(Cat(*expose(frag, *[f"row_live{s}" for s in range(nslots)]))))
    aux.append(live)
    fill_cnt = Signal(8, name="aux_fill_cnt")
    frag.comb.append(fill_cnt.eq(expose(frag, "fill_cnt")[0]))
    aux.append(fill_cnt)
    (fs,) = expose(frag, "fs")
    frag.comb += [
        aux[4].eq(fs),
        aux[5].eq(Cat(*expose(frag, *[f"jlast{s}" for s in range(nslots)]))),
    ]
    text, _, _ = convert(frag, "ld_dma", module_ios(top) | set(aux))
    lo, hi = _ram_rows(ram, dma_width // 8)
    return Unit(
        "ld_dma",
        text,
        params=dict(
            **_reader_params(m, nslots, block_bits, dma_width),
            RB=len(m.bus.adr),
            RAM_BASE_ROW=lo,
            RAM_END_ROW=hi,
        ),
        info=dict(slots=nslots, block_bits=block_bits, dma_width=dma_width),
    )


PYNQ_RAM = (0x00000000, 512 * 1024 * 1024)  # soc/targets/pynq_z2.py: the PS DDR window


def axi_unit(
    nslots=1, block_bits=512, word_bits=32, dma_width=64, ram=None, depth=None, fault=None
):
    """The AXI burst reader of the pynq_z2 target (64-bit HP port; its engines have one slot:
    MAIN_SOC), SHA configuration, default depth. The block data memory is left out (its read
    port feeds `source.data` only, which the harness does not check)."""
    from litedigest.soc.peripheral import axi_reader

    # `cross4k`: the reader's idea of the boundary is 8 KiB (a parameter, not the module's
    # constant patched: the proofs are built two at a time, in threads)
    boundary = 8192 if fault == "cross4k" else axi_reader.AXI_4K
    m = axi_reader.AXIBurstReader(
        nslots, block_bits, word_bits, dma_width, depth=depth, boundary=boundary
    )
    top = m
    if fault not in (None, "cross4k"):
        top = _Wrapped(m)
        if fault == "row_past":
            _segments_one_row_more(top, m)
        elif fault == "valid_drop":  # the block shown falls for a cycle before it is taken
            top.source = src = stream.Endpoint(m.source.description)
            g = _glitch(top, m.source.valid & ~src.ready)
            top.comb += [m.source.connect(src), src.valid.eq(m.source.valid & ~g)]
        elif fault == "arvalid_drop":  # ARVALID falls for a cycle before ARREADY
            top.axi = a = AXIInterface(data_width=dma_width, address_width=32, id_width=1)
            g = _glitch(top, m.axi.ar.valid & ~a.ar.ready)
            top.comb += [
                m.axi.ar.connect(a.ar),
                a.r.connect(m.axi.r),
                m.axi.aw.connect(a.aw),
                m.axi.w.connect(a.w),
                a.b.connect(m.axi.b),
                a.ar.valid.eq(m.axi.ar.valid & ~g),
            ]
        else:
            raise ValueError(f"unknown axi fault {fault!r}")
    frag = top.get_fragment()
    ios = module_ios(top)
    regs = {ns_name(t): t for t in list_targets(frag.sync["sys"])}
    e_slot = [regs[f"e_slot{i}"] for i in range(m.depth)]
    e_rows = [regs[f"e_rows{i}"] for i in range(m.depth)]
    # the ring's pointers (with their wrap bit): `fill` is the data memory's write address,
    # `alloc` the metadata memory's, `head` their read address
    mems = {sp.name_override: sp for sp in frag.specials if isinstance(sp, Memory)}
    adr = lambda port: [st.r for st in frag.comb if isinstance(st, _Assign) and st.l is port.adr][0]
    wport = [p for p in mems["blocks"].ports if p.we is not None][0]
    mwport = [p for p in mems["block_meta"].ports if p.we is not None][0]
    fill, alloc, head = adr(wport).value, adr(mwport).value, regs["head"]
    pw = len(head)
    aux = dict(
        aux_fill_slot=(len(m.source.slot), Array(e_slot)[fill[: pw - 1]]),
        aux_used=(pw, alloc - head),
        aux_filled=(pw, fill - head),
        aux_head=(pw, head),
        aux_e_slot=(len(m.source.slot) * m.depth, Cat(*e_slot)),
        aux_e_rows=(len(e_rows[0]) * m.depth, Cat(*e_rows)),
        aux_in_buf=(
            8 * nslots,
            Cat(
                *[
                    Cat(regs[f"in_buf{s}"], Constant(0, 8 - len(regs[f"in_buf{s}"])))
                    for s in range(nslots)
                ]
            ),
        ),
        aux_drop=(nslots, Cat(*[regs[f"drop{s}"] for s in range(nslots)])),
        aux_pmore=(nslots, Cat(*[regs[f"pad_more{s}"] for s in range(nslots)])),
        aux_ar_busy=(1, regs["ar_busy"]),
        aux_ar_row=(len(regs["ar_row"]), regs["ar_row"]),
        aux_ar_rows=(8, regs["ar_rows"]),
        aux_beat=(8, regs["beat"]),
    )
    ports = set()
    for name, (width, value) in aux.items():
        sig = Signal(width, name=name)
        frag.comb.append(sig.eq(value))
        ports.add(sig)
    ports |= set(_row_pointers(frag, nslots, "aux"))
    text, _, _ = convert(frag, "ld_axi", ios | ports)
    lo, hi = _ram_rows(ram or PYNQ_RAM, dma_width // 8)
    return Unit(
        "ld_axi",
        text,
        params=dict(
            **_reader_params(m, nslots, block_bits, dma_width),
            RB=len(m.segments.row),
            DEPTH=m.depth,
            PER_SLOT=m.per_slot,
            RAM_BASE_ROW=lo,
            RAM_END_ROW=hi,
            PW=pw,
            ERB=len(e_rows[0]),
        ),
        info=dict(
            slots=nslots,
            block_bits=block_bits,
            dma_width=dma_width,
            depth=m.depth,
            per_slot=m.per_slot,
        ),
    )
