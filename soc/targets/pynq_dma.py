# SPDX-License-Identifier: BSD-2-Clause
"""The PYNQ-Z2 subsystem's DMA in Migen simulation: its rate through an AXI4 model of DDR.

The subsystem (soc/targets/pynq_z2.py, LiteDigestSubsystem) is simulated whole with Migen's
run_simulation: the CPU's side is its AXI-Lite slave (`AXILiteHost` drives `s_axi_pads`, the
registers found in the csr.json LiteX exports), the DDR's side its AXI4 master on the slave
model `axi_ddr.AXIDDR` (first-beat latency, random ARREADY and RVALID gaps, protocol checks).
`SubsystemSim` puts these together for tests and benches.

`measure(engine, nbytes, latency)`: one message per slot (the engine's slots; `nbytes` split
evenly), started as `pad` jobs with `ctrl.hold` and released together, as a scheduler issues
them; it counts the cycles from the first block request to the last job's end and returns the
bytes per cycle, the 64-bit port's use, the engine's cycles per block and whether every digest
matches hashlib. The command prints it:

    python -m litedigest.soc.targets.pynq_dma --engine sha256:opt:p4 --bytes 65536 --latency 30

Migen's simulator is slow on this subsystem (it re-evaluates the whole combinational logic
several times a cycle): some 15 to 25 cycles a second with sha256:opt:p4, whose 64 KiB take
about 9,300 cycles, so 10 minutes a latency; some 75 with sha256:opt (16 KiB: 2 minutes).
"""

import argparse
import hashlib
import json
import random
import sys
import time

from litedigest import records
from litedigest import spec as specmod
from litedigest.soc.sim import migen_compiled, migen_widths
from litedigest.soc.sim.axi_ddr import AXIDDR
from migen.sim import passive, run_simulation

MEM_BASE = 0x1000_0000  # where the model's memory sits in the HP0 map (inside main_ram)
BYTES_PER_BEAT = 8


class AXILiteHost:
    """CSR accesses through an AXI4-Lite slave's pads (awaddr, wdata, ...): `write`, `read`
    (generators, one access at a time; a response other than OKAY is an AssertionError)."""

    def __init__(self, pads):
        self.s = pads

    def write(self, addr, data):
        s = self.s
        yield s.awaddr.eq(addr)
        yield s.awvalid.eq(1)
        yield s.wdata.eq(data)
        yield s.wstrb.eq(0xF)
        yield s.wvalid.eq(1)
        aw = w = False
        while not (aw and w):
            yield
            aw = aw or (yield s.awready) and (yield s.awvalid)
            w = w or (yield s.wready) and (yield s.wvalid)
            if aw:
                yield s.awvalid.eq(0)
            if w:
                yield s.wvalid.eq(0)
        yield s.awvalid.eq(0)
        yield s.wvalid.eq(0)
        yield s.bready.eq(1)
        while not (yield s.bvalid):
            yield
        assert (yield s.bresp) == 0
        yield
        yield s.bready.eq(0)

    def read(self, addr):
        s = self.s
        yield s.araddr.eq(addr)
        yield s.arvalid.eq(1)
        yield
        while not (yield s.arready):
            yield
        yield s.arvalid.eq(0)
        yield s.rready.eq(1)
        while not (yield s.rvalid):
            yield
        data, resp = (yield s.rdata), (yield s.rresp)
        yield
        yield s.rready.eq(0)
        assert resp == 0
        return data


class SubsystemSim:
    """The subsystem of `engines` for run_simulation, its CSRs through AXI-Lite and its DMA on
    an AXIDDR over `mem` at `mem_base` (`ddr` keywords: latency, seed, ar_ready, r_gap, ...).

    Register access by instance and name (`write`, `read`, `ctrl`, `digest`); `cycle` counts
    the simulated cycles (`run` adds the counter)."""

    def __init__(self, engines, mem, mem_base=MEM_BASE, target=None, **ddr):
        """`target`: the board whose subsystem to simulate (a vivado_subsystem.Target: its DDR
        window is csr.json's main_ram), by default the PYNQ-Z2's."""
        import logging

        from litedigest.soc.targets import pynq_z2, vivado_subsystem
        from litex.soc.integration import export

        logging.disable(logging.INFO)  # LiteX's SoC creation log
        try:
            if target is None:
                soc = pynq_z2.LiteDigestSubsystem(list(engines), with_clock_pads=False)
            else:
                soc = vivado_subsystem.LiteDigestSubsystem(
                    list(engines), with_clock_pads=False, target=target
                )
            self.soc = soc
            soc.finalize()
        finally:
            logging.disable(logging.NOTSET)
        self.csr = json.loads(export.get_csr_json(soc.csr_regions, soc.constants, soc.bus.regions))
        self.peripherals = soc.hash_peripherals
        self.host = AXILiteHost(soc.s_axi_pads)
        self.ddr = AXIDDR(
            soc.m_axi_pads, mem, mem_base, data_width=len(soc.m_axi_pads.rdata), **ddr
        )
        self.mem, self.mem_base = mem, mem_base
        self.cycle = 0

    def addr(self, inst, name):
        return self.csr["csr_registers"][f"{inst}_{name}"]["addr"]

    def write(self, inst, name, value):
        """Write a register of one or more 32-bit words (LiteX: the most significant first)."""
        reg = self.csr["csr_registers"][f"{inst}_{name}"]
        n = reg["size"]
        for i in range(n):
            yield from self.host.write(
                reg["addr"] + 4 * i, value >> (32 * (n - 1 - i)) & 0xFFFFFFFF
            )

    def read(self, inst, name):
        reg = self.csr["csr_registers"][f"{inst}_{name}"]
        v = 0
        for i in range(reg["size"]):
            v = v << 32 | (yield from self.host.read(reg["addr"] + 4 * i))
        return v

    def ctrl(self, inst, **fields):
        """Write `ctrl` with the named fields (soc/REGISTERS.md), the others 0."""
        offsets = {f.name: f.offset for f in self.peripherals[inst].ctrl.fields.fields}
        yield from self.write(inst, "ctrl", sum(int(v) << offsets[k] for k, v in fields.items()))

    def start_pad_job(self, inst, slot, addr, length, hold=False, variant=0):
        """A `pad` job: the whole message of `length` bytes at `addr` on `slot`."""
        yield from self.write(inst, "dma_base", addr)
        yield from self.write(inst, "dma_length", length)
        yield from self.ctrl(
            inst, dma_start=1, pad=1, first=1, last=1, hold=hold, slot=slot, variant=variant
        )

    def digest(self, inst, slot, nbytes):
        """Slot `slot`'s chaining value, its first `nbytes` bytes (H0 first)."""
        yield from self.write(inst, "digest_sel", slot)
        reg = self.csr["csr_registers"][f"{inst}_digest"]
        v = yield from self.read(inst, "digest")
        return v.to_bytes(4 * reg["size"], "big")[:nbytes]

    def wait_slots(self, inst, mask, limit=200000):
        """Poll `slots_done` until the bits of `mask` are set; returns `status`."""
        for _ in range(limit):
            if (yield from self.read(inst, "slots_done")) & mask == mask:
                return (yield from self.read(inst, "status"))
        raise AssertionError(f"{inst}: slots {mask:b} not done")

    @passive
    def _count(self):
        while True:
            yield
            self.cycle += 1

    def run(self, *generators):
        migen_widths.install()
        migen_compiled.install()
        run_simulation(self.soc, [self._count(), self.ddr.process(), *generators])


class DriverPort:
    """The subsystem's registers and DDR for a program outside the simulation -- the C driver
    (litedigest._clib.HwDevice) as it runs on the Zynq's ARM: `read32(addr)`/`write32(addr,
    value)` at the AXI-Lite addresses of csr.json, `dma_write(addr, data)` into the DDR model's
    memory (the CPU's stores into a DMA buffer; bytes past the model's memory are dropped).
    The Migen simulation runs in a thread (`start`), its host process serving one register
    access at a time from a queue; `close` ends it. Slow (Migen: tens of cycles a second):
    for short messages."""

    def __init__(self, sim, timeout=600.0):
        import queue

        self.sim, self.timeout = sim, timeout
        self._requests = queue.Queue()
        self._closed = False
        self._thread = None
        self.error = None

    def _serve(self):
        import queue

        while not self._closed:
            try:
                kind, addr, value, reply = self._requests.get_nowait()
            except queue.Empty:
                yield
                continue
            try:
                if kind == "r":
                    reply.put((yield from self.sim.host.read(addr)))
                else:
                    yield from self.sim.host.write(addr, value)
                    reply.put(None)
            except AssertionError as e:  # a response other than OKAY
                reply.put(e)

    def start(self):
        import threading

        def run():
            try:
                self.sim.run(self._serve())
            except BaseException as e:  # reported to the next access
                self.error = e

        self._thread = threading.Thread(target=run, name="pynq-subsystem-sim", daemon=True)
        self._thread.start()
        return self

    def _access(self, kind, addr, value=None):
        import queue

        if self.error is not None:
            raise RuntimeError(f"the subsystem simulation failed: {self.error!r}")
        reply = queue.Queue(maxsize=1)
        self._requests.put((kind, addr, value, reply))
        try:
            r = reply.get(timeout=self.timeout)
        except queue.Empty:
            raise TimeoutError(
                f"no answer from the subsystem simulation in {self.timeout} s"
            ) from None
        if isinstance(r, BaseException):
            raise r
        return r

    def read32(self, addr):
        return self._access("r", addr)

    def write32(self, addr, value):
        self._access("w", addr, value)

    def dma_write(self, addr, data):
        off = addr - self.sim.mem_base
        data = bytes(data)
        if off < 0:
            raise ValueError(f"0x{addr:x} is below the DDR model's memory")
        n = max(0, min(len(data), len(self.sim.mem) - off))
        self.sim.mem[off : off + n] = data[:n]

    def close(self):
        self._closed = True
        if self._thread is not None:
            self._thread.join(60)


@passive
def _monitor(sim, periph, seen):
    """The first block request, the last job end, the engine's accepts, the R beats."""
    pads = sim.soc.m_axi_pads
    sink = periph.engine.sink
    while True:
        yield
        c = sim.cycle
        if (yield periph.reader.fetch.valid) and seen.get("first_fetch") is None:
            seen["first_fetch"] = c
        if (yield periph.slots.finish):
            seen["last_finish"] = c
        if (yield sink.valid) and (yield sink.ready):
            seen.setdefault("first_accept", c)
            seen["last_accept"] = c
            seen["accepts"] = seen.get("accepts", 0) + 1
        if (yield pads.rvalid) and (yield pads.rready):
            seen["beats"] = seen.get("beats", 0) + 1


def measure(
    engine="sha256:opt:p4",
    nbytes=65536,
    latency=30,
    seed=1,
    messages=None,
    ar_ready=0.75,
    r_gap=0.1,
):
    """Hash `nbytes` on `engine` in the subsystem, `messages` messages (default: one per slot)
    of equal length as `pad` jobs released together, with the DDR model at first-beat latency
    `latency` (ARREADY high with chance `ar_ready`, an RVALID gap with chance `r_gap`).
    Returns a dict: cycles (first request to last job end), bytes_per_cycle, port_use (of the
    port's 8 B/cycle), cycles_per_block (the engine's, first accept to last accept over the
    blocks between), engine_bytes_per_cycle (its nominal rate), digests_ok, sim_seconds."""
    from litedigest.ip.engines import make_engine

    spec = specmod.parse(engine)
    eng = make_engine(spec)
    slots = eng.slots
    messages = messages or slots
    if messages > slots:
        raise ValueError(f"{spec.engine_name} has {slots} slot(s): at most {slots} messages")
    size = nbytes // messages
    rng = random.Random(seed)
    stride = (size + 4095) // 4096 * 4096 + 4096
    mem = bytearray(rng.randbytes(stride * messages))
    sim = SubsystemSim(
        [spec.engine_name], mem, latency=latency, seed=seed, ar_ready=ar_ready, r_gap=r_gap
    )
    inst = next(iter(sim.peripherals))
    periph = sim.peripherals[inst]
    # message k at an 8-byte aligned offset that is not block aligned for k odd (a 4 KiB
    # straddling block now and then)
    addrs = [MEM_BASE + k * stride + 8 * (k % 2) * 3 for k in range(messages)]
    msgs = [bytes(mem[a - MEM_BASE : a - MEM_BASE + size]) for a in addrs]
    alg = spec.family if spec.family != "skein512" else None
    if alg is None:
        raise ValueError("measure() runs pad jobs: a SHA engine")
    seen, out = {}, {}

    def host():
        for k, a in enumerate(addrs):
            yield from sim.start_pad_job(inst, k, a, size, hold=True)
        yield from sim.ctrl(inst)  # released together
        out["status"] = yield from sim.wait_slots(inst, (1 << messages) - 1)
        out["digests"] = []
        for k in range(messages):
            out["digests"].append((yield from sim.digest(inst, k, eng.digest_bits // 8)))

    t0 = time.monotonic()
    sim.run(host(), _monitor(sim, periph, seen))
    seconds = time.monotonic() - t0
    want = [hashlib.new(alg, m).digest() for m in msgs]
    cycles = seen["last_finish"] - seen["first_fetch"] + 1
    blocks = seen["accepts"]
    return {
        "engine": engine,
        "messages": messages,
        "message_bytes": size,
        "bytes": size * messages,
        "latency": latency,
        "ar_ready": ar_ready,
        "r_gap": r_gap,
        "cycles": cycles,
        "bytes_per_cycle": size * messages / cycles,
        "port_use": seen["beats"] * BYTES_PER_BEAT / cycles / BYTES_PER_BEAT,
        "blocks": blocks,
        "cycles_per_block": (seen["last_accept"] - seen["first_accept"]) / max(1, blocks - 1),
        "engine_bytes_per_cycle": eng.block_bits // 8 / eng.interval,
        "max_bursts_in_flight": sim.ddr.stats["max_in_flight"],
        "read_bursts": sim.ddr.stats["read_bursts"],
        "digests_ok": out["digests"] == want and out["status"] & 0x3C == 0,
        "sim_seconds": round(seconds, 1),
    }


def format_result(r):
    return (
        f"{r['engine']}: {r['messages']} x {r['message_bytes']} B pad jobs, DDR model first "
        f"beat {r['latency']} cycles (ARREADY {r['ar_ready']:.0%}, RVALID gaps "
        f"{r['r_gap']:.0%}): {r['cycles']} cycles, {r['bytes_per_cycle']:.2f} B/cycle of the "
        f"64-bit port (port busy {r['port_use']:.0%}; engine {r['cycles_per_block']:.2f} "
        f"cycles/block, its rate {r['engine_bytes_per_cycle']:.2f} B/cycle; "
        f"{r['read_bursts']} bursts, up to {r['max_bursts_in_flight']} in flight); digests "
        f"{'match' if r['digests_ok'] else 'WRONG'} hashlib [{r['sim_seconds']} s simulated]"
    )


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Bytes per cycle of the PYNQ-Z2 subsystem's DMA "
        "through an AXI4 model of DDR (Migen simulation)"
    )
    p.add_argument("--engine", default="sha256:opt:p4")
    p.add_argument("--bytes", type=int, default=65536, help="bytes in all (default 65536)")
    p.add_argument(
        "--latency",
        type=int,
        nargs="+",
        default=[30],
        help="first-beat latencies in cycles (default 30)",
    )
    p.add_argument("--messages", type=int, default=None, help="messages (default: one per slot)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ar-ready", type=float, default=0.75, help="chance ARREADY is high")
    p.add_argument("--r-gap", type=float, default=0.1, help="chance of an RVALID gap")
    p.add_argument("--json", action="store_true")
    records.add_argument(p)
    args = p.parse_args(argv)
    results = []
    for lat in args.latency:
        r = measure(
            args.engine,
            args.bytes,
            lat,
            seed=args.seed,
            messages=args.messages,
            ar_ready=args.ar_ready,
            r_gap=args.r_gap,
        )
        results.append(r)
        if not args.json:
            print(format_result(r), flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    ok = all(r["digests_ok"] for r in results)
    if ok:
        records.write_if_asked(
            args,
            results,
            "python -m litedigest.soc.targets.pynq_dma",
            tools=records.tool_versions(tools=(), packages=("migen", "litex")),
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
