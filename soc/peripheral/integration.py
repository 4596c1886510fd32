# SPDX-License-Identifier: BSD-2-Clause
"""Adding hash peripherals to a LiteX SoC, in LiteX's add_* style.

- `add_hash_peripheral(soc, spec, name, dma_port)`: one peripheral (CSRs, DMA master,
  interrupt, the engine facts as csr.h/csr.json constants);
- `add_hash_subsystem(soc, engines, dma_port)`: one peripheral per engine spec, named by
  litedigest.spec.instance_name, their DMA masters on one port (directly, or through a
  round-robin wishbone.Arbiter when there are several);
- `add_hash_subsystem(soc, engines, axi_port=...)`: the same peripherals with AXI burst readers
  (axi_reader.py) on one AXI4 master port (axi_read_arbiter.py: many bursts in flight); the
  batch walkers' single accesses share one Wishbone bus bridged to the same port (LiteX's
  Wishbone2AXI: their reads join the read arbiter, their writes own the write channels);
- `engine_domains={spec: domain}`: those engines clocked by a clock domain of their own (the
  SoC's CRG makes it), its blocks and results crossing by a request/acknowledge handshake
  (engine_domain.py); the rest of the peripheral stays in `sys`.
"""

from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litex.soc.interconnect import wishbone
from litex.soc.interconnect.axi import AXIInterface, Wishbone2AXI

from .axi_read_arbiter import AXIReadArbiter
from .core import HashPeripheral
from .engine_domain import EngineInClockDomain


def add_hash_peripheral(soc, hash_engine, name=None, dma_port=None, axi=False, engine_domain=None):
    """Add the hash peripheral for engine spec `hash_engine` to a LiteX SoC: CSRs, DMA bus
    master, interrupt, and the engine facts as constants (csr.h / csr.json).

    `dma_port`: None to master the SoC bus (32-bit rows), or (data_width, add_master) for a
    wider port of main RAM (the sim target's WideRAM). `axi`: the DMA reads through the
    peripheral's `axi` port (AXIBurstReader), which the caller connects; `dma_port` then takes
    the batch walker's bus. `engine_domain`: the name of a clock domain (made by the SoC) that
    clocks the engine itself (EngineInClockDomain); None: `sys`."""
    spec = specmod.parse(hash_engine) if isinstance(hash_engine, str) else hash_engine
    name = name or spec.family
    engine = make_engine(spec)
    if engine_domain is not None:
        engine = EngineInClockDomain(engine, engine_domain)
    ram = soc.bus.regions["main_ram"]
    width = 32 if dma_port is None else dma_port[0]
    if width > engine.block_bits:
        # the port is wired straight to the RAM's rows: a narrower master would read the
        # wrong rows, so a row wider than a block is refused rather than narrowed
        raise ValueError(
            f"a {width}-bit DMA row is wider than {spec.engine_name}'s "
            f"{engine.block_bits}-bit block"
        )
    periph = HashPeripheral(
        engine, ram_base=ram.origin, ram_size=ram.size, dma_width=width, axi=axi
    )
    periph.engine_spec = spec.engine_name
    periph.engine_domain = engine_domain or "sys"
    setattr(soc.submodules, name, periph)
    if dma_port is None:
        soc.bus.add_master(name=f"{name}_dma", master=periph.bus)
    elif periph.bus is not None:
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


def add_hash_subsystem(
    soc, engines, dma_port=None, irq_pads=None, axi_port=None, engine_domains=None
):
    """Add one hash peripheral per engine spec of `engines` (add_hash_peripheral), named by
    litedigest.spec.instance_name (its family, or the whole spec when a family appears twice);
    a spec listed twice is a ValueError. Returns {instance: peripheral}, in the order given.

    `dma_port`: None to make each DMA reader a master of the SoC bus (32-bit rows), or a
    Wishbone slave interface (e.g. soc.wide_ram.WideRAM's `wide`, or a bus bridged elsewhere)
    whose data width is the DMA's row: one reader is connected to it, several are arbitrated
    round-robin (`soc.dma_arbiter`).
    `axi_port`: instead of `dma_port`, an AXIInterface (master side, byte addresses, 64-bit
    data e.g.) that the peripherals' burst readers share (`soc.dma_arbiter`, an AXIReadArbiter)
    with the walkers' bridge (`soc.walker_bridge`).
    `irq_pads`: for a SoC without an interrupt controller, {instance: pad}: each peripheral's
    interrupt drives its pad and the constant `<instance>_interrupt` is the pad's index in
    `engines` order.
    `engine_domains`: {engine spec: clock domain name} for engines clocked by a domain of their
    own (add_hash_peripheral's `engine_domain`); a spec that is not in `engines` is a ValueError."""
    engines = [str(e) for e in engines]
    names = [specmod.instance_name(e, engines) for e in engines]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ValueError(f"engine {engines[i]} is listed twice")
    full = [specmod.parse(e).engine_name for e in engines]
    domains = {}
    for spec, domain in (engine_domains or {}).items():
        key = specmod.parse(spec).engine_name
        if key not in full:
            raise ValueError(
                f"engine {spec} has a clock domain but is not one of the engines "
                f"({', '.join(engines)})"
            )
        domains[key] = domain
    masters = []
    axi = axi_port is not None
    if axi:
        port = (axi_port.data_width, masters.append)
    else:
        port = None if dma_port is None else (len(dma_port.dat_r), masters.append)
    peripherals = {}
    for index, (spec, name) in enumerate(zip(engines, names)):
        periph = add_hash_peripheral(
            soc,
            spec,
            name=name,
            dma_port=port,
            axi=axi,
            engine_domain=domains.get(specmod.parse(spec).engine_name),
        )
        peripherals[name] = periph
        if irq_pads is not None:
            soc.comb += irq_pads[name].eq(periph.ev.irq)
            soc.add_constant(f"{name}_interrupt", index)
    if axi:
        _connect_axi(soc, [p.axi for p in peripherals.values()], masters, axi_port)
    elif len(masters) == 1:
        soc.comb += masters[0].connect(dma_port)
    elif masters:
        soc.submodules.dma_arbiter = wishbone.Arbiter(masters, dma_port)
    return peripherals


def _connect_axi(soc, readers, walker_buses, axi_port):
    """The burst readers' AXI ports and the walkers' Wishbone buses (arbitrated, bridged) onto
    `axi_port`: reads through an AXIReadArbiter, the walkers' writes straight through."""
    width = axi_port.data_width
    if walker_buses:
        wb = wishbone.Interface(data_width=width, address_width=32, addressing="word")
        if len(walker_buses) == 1:
            soc.comb += walker_buses[0].connect(wb)
        else:
            soc.submodules.walker_arbiter = wishbone.Arbiter(walker_buses, wb)
        walker_axi = AXIInterface(data_width=width, address_width=32, id_width=1)
        # (single beats: ARLEN/AWLEN 0, INCR, ARCACHE/AWCACHE 0011)
        soc.submodules.walker_bridge = Wishbone2AXI(wb, walker_axi)
        readers = readers + [walker_axi]
        soc.comb += [
            walker_axi.aw.connect(axi_port.aw),
            walker_axi.w.connect(axi_port.w),
            axi_port.b.connect(walker_axi.b),
        ]
    else:
        soc.comb += [axi_port.aw.valid.eq(0), axi_port.w.valid.eq(0), axi_port.b.ready.eq(1)]
    soc.submodules.dma_arbiter = AXIReadArbiter(readers, axi_port)
