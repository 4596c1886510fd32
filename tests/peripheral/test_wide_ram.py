# SPDX-License-Identifier: BSD-2-Clause
"""WideRAM (soc/cores/wide_ram.py) feeding the hash peripheral's DMA (soc/peripheral/) at several
DMA row widths, in Migen simulation.

The ECP5 target builds main RAM with `--dma-row-bits` from 32 up to the smallest block;
the Verilator sim SoC only ever uses 512 and the pynq subsystem 64. Here each width gets a
top module with the RAM and one peripheral whose DMA master is wired to the RAM's wide
port by `periph.bus.connect(ram.wide)`, as soc/targets/ecp5.py wires a single master,
optionally with the handshake gated so a test generator can stall the memory at random.
The CSRs go through a real LiteX CSRBank (big-endian word order, as in the SoCs), so
multi-word registers (`digest`) are read as the firmware reads them. Every digest is
checked against hashlib, the DMA's row addresses against the segments.

- test_dma_from_wide_ram: per (engine, row width), refused misaligned jobs, then three jobs
  (one block; body + padded tail segment; a message the 'CPU' writes through the 32-bit port),
  the last two with random stalls;
- test_narrow_port_byte_lanes_and_row_layout: byte-select writes through the 32-bit port, read
  back through both ports (word j of a row at bits 32j);
- test_ecp5_target_wiring: the DMA width the ECP5 target picks for an engine and row width,
  wired as the target wires it; rows wider than a block are refused.
"""

import hashlib
import random
import re

import pytest
from litedigest import hw_regs
from litedigest import spec as specmod
from litedigest.ip.engines import make_engine
from litedigest.soc.cores.wide_ram import WideRAM
from litedigest.soc.peripheral import HashPeripheral
from litex.soc.interconnect import csr_bus
from migen import Module, Signal
from migen.sim import passive, run_simulation

RAM_BASE = 0x40000000
RAM_SIZE = 8 * 1024

# ctrl fields and status bits (the generated register map, soc/REGISTERS.md)
START, DMA_START, FIRST, LAST, HOLD, LOAD_CV, ACK, TAIL = (
    1 << hw_regs.FIELDS["ctrl"][f][0]
    for f in ("start", "dma_start", "first", "last", "hold", "load_cv", "ack", "tail")
)
BUSY, DONE, ERR_LEN, ERR_ADDR, ERR_STATE, ERR_BUS = (
    1 << hw_regs.FIELDS["status"][f][0]
    for f in ("busy", "done", "err_len", "err_addr", "err_state", "err_bus")
)
VARIANT_SHIFT = hw_regs.FIELDS["ctrl"]["variant"][0]
ERRORS = ERR_LEN | ERR_ADDR | ERR_STATE | ERR_BUS

HASHLIB = {
    "sha1": hashlib.sha1,
    "sha224": hashlib.sha224,
    "sha256": hashlib.sha256,
    "sha384": hashlib.sha384,
    "sha512": hashlib.sha512,
}


def sha_pad(msg, block_bytes):
    """FIPS 180-4 padding: 0x80, zeros, the bit length (64 bits for 64-byte blocks, 128 for 128)."""
    nlen = 8 if block_bytes == 64 else 16
    zeros = (-(len(msg) + 1 + nlen)) % block_bytes
    return msg + b"\x80" + bytes(zeros) + (8 * len(msg)).to_bytes(nlen, "big")


def le_words(image):
    return [int.from_bytes(image[i : i + 4], "little") for i in range(0, len(image), 4)]


class Top(Module):
    """WideRAM + one HashPeripheral (+ its CSR bank), the DMA master wired to the wide port by
    `periph.bus.connect(ram.wide)` as soc/targets/ecp5.py wires a single master.

    `stall`: the same connection with the handshake gated: the RAM sees the request only when
    `go_req` is set and the master sees the RAM's ack (or err) only when `go_ack` is set (a
    missed ack is repeated by the RAM two cycles later, the master keeping its request up), so a
    generator driving them at random makes a slow memory; held at 1 they are the plain wiring."""

    def __init__(self, engine_spec, row_bits, image, dma_width=None, stall=False):
        self.submodules.ram = ram = WideRAM(RAM_SIZE, row_bits=row_bits, init=le_words(image))
        self.engine = engine = make_engine(specmod.parse(engine_spec))
        self.submodules.periph = p = HashPeripheral(
            engine, ram_base=RAM_BASE, ram_size=RAM_SIZE, dma_width=dma_width or row_bits
        )
        self.csr = csr_bus.Interface(data_width=32, address_width=14)
        self.submodules.bank = bank = csr_bus.CSRBank(
            p.get_csrs(), address=0, bus=self.csr, ordering="big"
        )
        # register name -> (address of its first word, number of words); first word = MSW
        self.regs = {}
        for i, c in enumerate(bank.simple_csrs):
            name = re.fullmatch(r"(.*?)\d*", c.name).group(1)  # digest7 .. digest0 -> digest
            base, n = self.regs.get(name, (i, 0))
            assert base + n == i
            self.regs[name] = (base, n + 1)
        self.stall = stall
        if stall:
            self.go_req, self.go_ack = Signal(reset=1), Signal(reset=1)
            s, w = p.bus, ram.wide
            self.comb += s.connect(w, omit={"stb", "ack", "err"})
            self.comb += [
                w.stb.eq(s.stb & self.go_req),
                s.ack.eq(w.ack & self.go_ack),
                s.err.eq(w.err & self.go_ack),
            ]
        else:
            self.comb += p.bus.connect(ram.wide)  # soc/targets/ecp5.py, one DMA master


# --- simulation helpers (generators) ------------------------------------------------------------


def csr_write(top, reg, value):
    """Write a register through the CSR bus, most significant word at the lowest address."""
    base, n = top.regs[reg]
    for i in range(n):
        yield top.csr.adr.eq(base + i)
        yield top.csr.dat_w.eq((value >> (32 * (n - 1 - i))) & 0xFFFFFFFF)
        yield top.csr.we.eq(1)
        yield
    yield top.csr.we.eq(0)
    yield


def csr_read(top, reg):
    base, n = top.regs[reg]
    value = 0
    for i in range(n):
        yield top.csr.adr.eq(base + i)
        yield
        yield  # the bank's dat_r is registered
        value = (value << 32) | (yield top.csr.dat_r)
    return value


def wait_done(top, limit=20000):
    for _ in range(limit // 4):
        st = yield from csr_read(top, "status")
        if st & DONE:
            return st
    raise AssertionError("the job never finished (no status.done)")


def read_digest(top):
    v = yield from csr_read(top, "digest")
    return v.to_bytes(top.engine.digest_bits // 8, "big")


def wb_access(bus, adr, dat_w=None, sel=None):
    """One Wishbone classic cycle on `bus` (a write when dat_w is given); returns (dat_r, err)."""
    yield bus.adr.eq(adr)
    yield bus.we.eq(dat_w is not None)
    yield bus.dat_w.eq(dat_w or 0)
    yield bus.sel.eq((1 << len(bus.sel)) - 1 if sel is None else sel)
    yield bus.cyc.eq(1)
    yield bus.stb.eq(1)
    yield
    for _ in range(100):
        yield
        if (yield bus.ack) or (yield bus.err):
            break
    else:
        raise AssertionError("no ack")
    dat, err = (yield bus.dat_r), (yield bus.err)
    yield bus.cyc.eq(0)
    yield bus.stb.eq(0)
    yield bus.we.eq(0)
    yield
    return dat, err


def stall_driver(top, rng, ctl):
    """While ctl["on"]: every DMA request is held back 1 to 4 cycles (go_req low) before the RAM
    sees it, and each ack the RAM gives is dropped (go_ack low) with probability 1/2; counts the
    held cycles in ctl["held"] and the dropped acks in ctl["dropped"]. Otherwise both are held
    at 1 (the plain wiring)."""

    @passive
    def gen():
        bus, wide = top.periph.bus, top.ram.wide
        wait = None
        while True:
            yield
            if not ctl["on"]:
                yield top.go_req.eq(1)
                yield top.go_ack.eq(1)
                continue
            pending = (yield bus.cyc) and (yield bus.stb)
            ctl["held"] += pending and not (yield top.go_req)
            ctl["dropped"] += (yield wide.ack) and not (yield top.go_ack)
            if not pending or (yield bus.ack):
                wait = None
                yield top.go_req.eq(0)  # the next request starts held
            else:
                if wait is None:
                    wait = rng.randrange(0, 4)
                yield top.go_req.eq(wait == 0)
                wait = max(0, wait - 1)
            yield top.go_ack.eq(rng.random() < 0.5)

    return gen()


def dma_monitor(top, reads):
    """Row addresses the DMA master got (acked reads), in order."""

    @passive
    def gen():
        bus = top.periph.bus
        while True:
            yield
            if (yield bus.cyc) and (yield bus.stb) and (yield bus.ack):
                reads.append((yield bus.adr))

    return gen()


# --- the jobs -------------------------------------------------------------------------------------


class Layout:
    """Places segments in the RAM image at random row-aligned (not necessarily block-aligned)
    offsets, in order, with random gaps; the rest of the image is random junk."""

    def __init__(self, rng, row_bytes):
        self.rng, self.row_bytes = rng, row_bytes
        self.image = bytearray(rng.getrandbits(8) for _ in range(RAM_SIZE))
        self.cursor = 0

    def place(self, data, write_image=True):
        self.cursor += self.rng.randrange(0, 4) * self.row_bytes
        off = self.cursor
        assert off + len(data) <= RAM_SIZE, "test layout does not fit the RAM"
        if write_image:
            self.image[off : off + len(data)] = data
        self.cursor += -(-len(data) // self.row_bytes) * self.row_bytes
        return off


def make_jobs(rng, layout, block_bytes, family):
    """Three DMA jobs (dicts), random lengths:
    1. a one-block message in one segment, with the family's second IV (SHA-224, SHA-384) when
       there is one;
    2. a message of a body block (first segment) and a padded tail segment elsewhere, whose
       padding spills into a second tail block (three blocks in all);
    3. a one-block message that the test's 'CPU' writes through the 32-bit port while job 2's
       DMA runs; started with the tail flag and a tail length of 0."""
    nlen = 8 if block_bytes == 64 else 16
    jobs = []
    msg = rng.randbytes(rng.randrange(0, block_bytes - nlen))
    padded = sha_pad(msg, block_bytes)
    second = {"sha256": "sha224", "sha512": "sha384"}.get(family)
    jobs.append(
        dict(
            msg=msg,
            hash=second or family,
            variant=1 if second else 0,
            base=layout.place(padded),
            length=len(padded),
        )
    )
    msg = rng.randbytes(block_bytes + rng.randrange(block_bytes - nlen, block_bytes))
    padded = sha_pad(msg, block_bytes)
    assert len(padded) == 3 * block_bytes
    body, tail = padded[:block_bytes], padded[block_bytes:]
    jobs.append(
        dict(
            msg=msg,
            hash=family,
            variant=0,
            base=layout.place(body),
            length=len(body),
            tail_base=layout.place(tail),
            tail_length=len(tail),
        )
    )
    msg = rng.randbytes(rng.randrange(1, block_bytes - nlen))
    padded = sha_pad(msg, block_bytes)
    jobs.append(
        dict(
            msg=msg,
            hash=family,
            variant=0,
            base=layout.place(padded, write_image=False),
            length=len(padded),
            tail_base=0,
            tail_length=0,
            narrow=padded,
        )
    )
    return jobs


def expected_digest(job):
    return HASHLIB[job["hash"]](job["msg"]).digest()


def expected_rows(job, row_bytes):
    rows = [(RAM_BASE + job["base"]) // row_bytes + i for i in range(job["length"] // row_bytes)]
    if job.get("tail_length"):
        rows += [
            (RAM_BASE + job["tail_base"]) // row_bytes + i
            for i in range(job["tail_length"] // row_bytes)
        ]
    return rows


def start_dma_job(top, job):
    yield from csr_write(top, "dma_base", RAM_BASE + job["base"])
    yield from csr_write(top, "dma_length", job["length"])
    ctrl = DMA_START | FIRST | LAST | (job["variant"] << VARIANT_SHIFT)
    if "tail_base" in job:
        yield from csr_write(top, "tail_base", RAM_BASE + job["tail_base"])
        yield from csr_write(top, "tail_length", job["tail_length"])
        ctrl |= TAIL
    yield from csr_write(top, "ctrl", ctrl)


def finish_dma_job(top):
    """Wait for done; returns (status, digest bytes); acks."""
    st = yield from wait_done(top)
    digest = yield from read_digest(top)
    yield from csr_write(top, "ctrl", ACK)
    return st, digest


def run_dma_job(top, job):
    yield from start_dma_job(top, job)
    return (yield from finish_dma_job(top))


def refused_jobs(top, good, row_bytes, block_bytes, out):
    """Bad input first: a job whose dma_base is not row-aligned, then one whose tail_base is not;
    each must end at once with done + err_addr, read nothing and hash nothing, the slot not
    busy; `ack` clears the status. Records what it saw in `out`."""
    mis = row_bytes // 2 if row_bytes > 4 else 2
    for key, base, tail_base in (("bad_base", good + mis, good), ("bad_tail", good, good + mis)):
        yield from csr_write(top, "dma_base", RAM_BASE + base)
        yield from csr_write(top, "dma_length", block_bytes)
        yield from csr_write(top, "tail_base", RAM_BASE + tail_base)
        yield from csr_write(top, "tail_length", block_bytes)
        yield from csr_write(top, "ctrl", DMA_START | FIRST | LAST | TAIL)
        for _ in range(16):  # time for the DMA to start reading, if it wrongly did
            yield
        out[key] = dict(
            status=(yield from csr_read(top, "status")),
            busy=(yield from csr_read(top, "slots_busy")),
            slots_done=(yield from csr_read(top, "slots_done")),
            blocks=(yield from csr_read(top, "blocks")),
        )
        yield from csr_write(top, "ctrl", ACK)
        out[key]["after_ack"] = yield from csr_read(top, "status")


CASES = [("sha256:base", w) for w in (32, 64, 128, 256, 512)] + [
    ("sha1:base", 128),
    ("sha512:base", 128),
    ("sha512:base", 1024),
]


@pytest.mark.parametrize("engine_spec,row_bits", CASES, ids=[f"{e}-{w}" for e, w in CASES])
def test_dma_from_wide_ram(engine_spec, row_bits):
    """One simulation per (engine, row width):
    - two refused jobs (dma_base, then tail_base, not row-aligned): err_addr, nothing read;
    - job 1 with a zero-wait memory (stall gates held open), jobs 2 and 3 with random stalls;
      job 3's message written through the 32-bit port while job 2 reads through the wide one.
    Every digest matches hashlib, the DMA reads exactly the segments' rows in order, `blocks`
    counts the blocks hashed."""
    spec = specmod.parse(engine_spec)
    block_bytes = make_engine(spec).block_bits // 8
    row_bytes = row_bits // 8
    rng = random.Random(f"{engine_spec}/{row_bits}")
    layout = Layout(rng, row_bytes)
    jobs = make_jobs(rng, layout, block_bytes, spec.family)
    top = Top(engine_spec, row_bits, layout.image, stall=True)
    reads, results, refused = [], [], {}
    ctl = dict(on=False, held=0, dropped=0)

    def cpu_writes(job):
        for i, w in enumerate(le_words(job["narrow"])):
            _, err = yield from wb_access(top.ram.bus, job["base"] // 4 + i, w)
            assert not err

    def bench():
        yield from refused_jobs(top, jobs[0]["base"], row_bytes, block_bytes, refused)
        refused["reads"] = len(reads)
        for n, job in enumerate(jobs):
            start = len(reads)
            yield from start_dma_job(top, job)
            if n == 1:  # the CPU writes job 3's message meanwhile (both RAM ports busy)
                ctl["on"] = True
                yield from cpu_writes(jobs[2])
            st, digest = yield from finish_dma_job(top)
            results.append((st, digest, reads[start:]))
        results.append(("blocks", (yield from csr_read(top, "blocks"))))

    run_simulation(top, [bench(), dma_monitor(top, reads), stall_driver(top, rng, ctl)])

    for key in ("bad_base", "bad_tail"):
        r = refused[key]
        assert (
            r["status"] & (BUSY | DONE | ERR_LEN | ERR_ADDR | ERR_STATE | ERR_BUS)
            == DONE | ERR_ADDR
        ), (key, hex(r["status"]))
        assert (r["busy"], r["slots_done"], r["blocks"]) == (0, 0, 0), key
        assert r["after_ack"] & 0x3F == 0, (key, hex(r["after_ack"]))
    assert refused["reads"] == 0
    assert len(results) == len(jobs) + 1
    for n, (job, (st, digest, got_rows)) in enumerate(zip(jobs, results)):
        assert st & (DONE | ERRORS | BUSY) == DONE, (n, hex(st))
        want = expected_digest(job)
        assert digest[: len(want)] == want, (n, job["hash"], len(job["msg"]))
        assert got_rows == expected_rows(job, row_bytes), n
    total_blocks = sum(j["length"] + j.get("tail_length", 0) for j in jobs) // block_bytes
    assert results[-1] == ("blocks", total_blocks)
    rows_stalled = sum(len(expected_rows(j, row_bytes)) for j in jobs[1:])
    assert ctl["held"] >= rows_stalled and ctl["dropped"] > 0, ("too few stalls", ctl)


@pytest.mark.parametrize("row_bits", [32, 64, 128, 256, 512, 1024])
def test_narrow_port_byte_lanes_and_row_layout(row_bits):
    """32-bit port writes with byte selects, read back through the 32-bit port and the wide
    port: word j of row r is word r*row_words + j at bits [32j, 32j+32), bytes in memory order;
    a write on the wide port (the batch walker's chaining values) changes the bytes of its
    byte lanes only, seen through both ports."""
    rng = random.Random(row_bits)
    row_words = row_bits // 32
    nwords = RAM_SIZE // 4
    words = le_words(bytes(rng.getrandbits(8) for _ in range(RAM_SIZE)))
    ram = WideRAM(RAM_SIZE, row_bits=row_bits, init=list(words))
    nrows = RAM_SIZE // (row_bits // 8)
    # first/last word of a row, a middle one, the RAM's last word; each written with all byte
    # lanes, one or two lanes, none
    targets = [
        0,
        row_words - 1,
        5 * row_words + row_words // 2,
        7 * row_words,
        7 * row_words + row_words - 1,
        nwords - 1,
    ]
    writes = []
    for adr in targets:
        for sel in (0xF, rng.choice([0x1, 0x2, 0x4, 0x8, 0x5, 0xA, 0x6, 0x9]), 0x0):
            writes.append((adr, rng.getrandbits(32), sel))
    writes.append((RAM_BASE // 4 + 3, 0xDEADBEEF, 0xC))  # address bits above the RAM ignored
    expect = list(words)
    for adr, val, sel in writes:
        mask = sum(0xFF << (8 * b) for b in range(4) if sel >> b & 1)
        expect[adr % nwords] = (expect[adr % nwords] & ~mask) | (val & mask)
    rows = sorted({(adr % nwords) // row_words for adr, _, _ in writes} | {1, nrows - 2})
    wide_val = rng.getrandbits(row_bits)
    wide_sel = rng.getrandbits(row_bits // 8) | 1
    got = {}

    def bench():
        for adr, val, sel in writes:
            _, err = yield from wb_access(ram.bus, adr, val, sel)
            assert not err
        got["narrow"] = []
        for adr, _, _ in writes:
            got["narrow"].append((adr % nwords, (yield from wb_access(ram.bus, adr))[0]))
        got["wide"] = []
        for r in rows:
            got["wide"].append((r, (yield from wb_access(ram.wide, r))))
        # a wide write with a random set of byte lanes
        got["wide_write"] = yield from wb_access(ram.wide, rows[0], wide_val, wide_sel)
        got["after"] = (yield from wb_access(ram.wide, rows[0]))[0]
        got["after_narrow"] = (yield from wb_access(ram.bus, rows[0] * row_words))[0]
        # a row address with the bits above the RAM (the DMA sends byte address >> log2 row)
        got["high"] = (yield from wb_access(ram.wide, RAM_BASE // (row_bits // 8) + rows[1]))[0]

    run_simulation(ram, bench())
    for a, v in got["narrow"]:
        assert v == expect[a], (hex(a), hex(v), hex(expect[a]))
    mem = b"".join(w.to_bytes(4, "little") for w in expect)
    row_of = lambda r: sum(expect[r * row_words + j] << (32 * j) for j in range(row_words))
    for r, (v, err) in got["wide"]:
        assert not err
        assert v == row_of(r), f"row {r}"
        # the row's bytes (little-endian) are the memory's bytes in order
        assert (
            v.to_bytes(row_bits // 8, "little") == mem[r * row_bits // 8 : (r + 1) * row_bits // 8]
        )
    assert got["wide_write"][1] == 0
    lanes = sum(0xFF << (8 * b) for b in range(row_bits // 8) if wide_sel >> b & 1)
    assert got["after"] == (row_of(rows[0]) & ~lanes) | (wide_val & lanes)
    assert got["after_narrow"] == got["after"] & 0xFFFFFFFF
    assert got["high"] == row_of(rows[1])


ECP5_CASES = [
    pytest.param("sha256:base", 128, id="sha256:base-128"),
    pytest.param("sha512:base", 1024, id="sha512:base-1024"),
]


def test_ecp5_refuses_rows_wider_than_a_block():
    """A 1024-bit row with a 512-bit-block engine was once narrowed silently to a 512-bit DMA
    port wired to the 1024-bit RAM port: the DMA hashed the bytes at twice the offset with no
    error. Now the target and add_hash_peripheral refuse it."""
    from litedigest.soc.targets import ecp5

    with pytest.raises(ValueError, match="32 to 512 bits"):
        ecp5.make_soc(hash_engines="sha256:base", main_ram_size=RAM_SIZE, dma_row_bits=1024)
    with pytest.raises(ValueError, match="32 to 512 bits"):
        ecp5.make_soc(
            hash_engines="sha512:base,sha1:base", main_ram_size=RAM_SIZE, dma_row_bits=1024
        )
    with pytest.raises(ValueError, match="power of two"):
        ecp5.make_soc(hash_engines="sha256:base", main_ram_size=RAM_SIZE, dma_row_bits=96)
    from types import SimpleNamespace

    from litedigest.soc.peripheral import add_hash_peripheral

    ram = SimpleNamespace(origin=RAM_BASE, size=RAM_SIZE)
    soc = SimpleNamespace(bus=SimpleNamespace(regions={"main_ram": ram}))  # refused before use
    with pytest.raises(ValueError, match="wider than sha256:base:p1's 512-bit block"):
        add_hash_peripheral(soc, "sha256:base", dma_port=(1024, lambda m: None))


@pytest.mark.parametrize("engine_spec,row_bits", ECP5_CASES)
def test_ecp5_target_wiring(engine_spec, row_bits):
    """What soc/targets/ecp5.py builds for --dma-row-bits `row_bits` with one engine: the
    peripheral's DMA width as the target chose it, wired by `connect` as the target wires it,
    one DMA job checked against hashlib."""
    from litedigest.soc.targets import ecp5

    soc = ecp5.make_soc(hash_engines=engine_spec, main_ram_size=RAM_SIZE, dma_row_bits=row_bits)
    assert soc.main_ram.row_bits == row_bits
    width = soc.hash_peripherals[specmod.parse(engine_spec).family].dma_width
    block_bytes = make_engine(specmod.parse(engine_spec)).block_bits // 8
    rng = random.Random(f"ecp5/{engine_spec}/{row_bits}")
    layout = Layout(rng, max(width, row_bits) // 8)
    msg = rng.randbytes(rng.randrange(0, block_bytes - 16))
    padded = sha_pad(msg, block_bytes)
    off = layout.place(padded)
    top = Top(engine_spec, row_bits, layout.image, dma_width=width)
    reads, out = [], {}

    def bench():
        out["job"] = yield from run_dma_job(top, dict(base=off, length=len(padded), variant=0))

    run_simulation(top, [bench(), dma_monitor(top, reads)])
    st, digest = out["job"]
    assert st & 0x3F == DONE, hex(st)
    assert digest == HASHLIB[specmod.parse(engine_spec).family](msg).digest()
    assert reads == [(RAM_BASE + off) // (width // 8) + i for i in range(len(padded) * 8 // width)]
