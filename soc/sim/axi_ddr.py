# SPDX-License-Identifier: BSD-2-Clause
"""An AXI4 slave model of DDR for Migen simulation (run_simulation), with protocol checks.

Why: the PYNQ-Z2 subsystem's DMA reads DDR through the Zynq's S_AXI_HP0, tens of cycles to a
read's first beat and a port that is not always ready; what the burst readers achieve there is
measured against this model, and the model checks by assertion what the master must obey.

`AXIDDR(port, mem, base)` serves `mem` (a bytearray) at byte address `base`:
- reads: several bursts accepted (up to `max_outstanding` in flight, answered in order), each
  burst's first beat `latency` cycles after its AR handshake at the earliest, the beats of a
  burst and the bursts after it back to back but for random RVALID gaps (`r_gap`: the chance a
  beat is held back a cycle); ARREADY low at random (`ar_ready`: the chance it is high);
- writes: AW and W (random AWREADY / WREADY), the bytes of WSTRB written, then B after a few
  cycles;
- a beat outside the memory reads zero with RRESP SLVERR (a write: not written, BRESP SLVERR);
- checks (AXIProtocolError, an AssertionError): ARBURST/AWBURST INCR, ARSIZE/AWSIZE the data
  width, ARLEN/AWLEN within AXI4's 256 beats, no burst crossing a 4 KiB boundary, addresses
  aligned to the beat, ARCACHE/AWCACHE 0011 (`cache`, None to skip), a VALID that does not fall
  nor its payload change before its READY, WLAST on the last write beat and only there; the
  model itself drives RLAST on each burst's last beat.
The random choices come from `random.Random(seed)`: a run is reproducible.

`port`: the master's AXIInterface (ar.valid, ...) or its pads (arvalid, ...: LiteX's
connect_to_pads names, e.g. the pynq_z2 subsystem's `m_axi_pads`). `stats` counts bursts,
beats, stall cycles and the most bursts in flight; `ar_log` lists (address, beats) of every
read burst.
"""

import random
from collections import deque

from migen.sim import passive

RESP_OKAY, RESP_SLVERR, RESP_DECERR = 0, 2, 3
BURST_INCR = 1
CACHE_NORMAL = 0b0011


class AXIProtocolError(AssertionError):
    """The master broke an AXI4 rule the model checks."""


class _Port:
    """A channel signal by (channel, name) on an AXIInterface or on its pads."""

    def __init__(self, port):
        self.port = port

    def __call__(self, ch, name):
        if hasattr(self.port, ch):
            return getattr(getattr(self.port, ch), name)
        return getattr(self.port, ch + name)


class AXIDDR:
    def __init__(
        self,
        port,
        mem,
        base: int = 0,
        latency: int = 30,
        seed: int = 0,
        ar_ready: float = 0.75,
        r_gap: float = 0.1,
        w_ready: float = 0.75,
        b_latency: int = 4,
        max_outstanding: int = 8,
        data_width: int = 64,
        cache: int = CACHE_NORMAL,
        decode_end: int | None = None,
    ):
        if latency < 1:
            raise ValueError("latency must be at least one cycle")
        self.sig = _Port(port)
        self.mem, self.base = mem, base
        # reads past the memory answer SLVERR (the slave's error); from `decode_end` on (an
        # address no slave decodes), DECERR, as the interconnect answers
        self.decode_end = decode_end
        self.latency, self.b_latency = latency, b_latency
        self.rng = random.Random(seed)
        self.p_ar, self.p_gap, self.p_w = ar_ready, r_gap, w_ready
        self.max_outstanding = max_outstanding
        self.nbytes = data_width // 8
        self.size = self.nbytes.bit_length() - 1
        self.cache = cache
        self.ar_log = []
        self.stats = dict(
            read_bursts=0,
            read_beats=0,
            read_errors=0,
            read_decerrs=0,
            write_bursts=0,
            write_beats=0,
            write_errors=0,
            max_in_flight=0,
            cycles=0,
        )

    # --- memory ---------------------------------------------------------------------------
    def _inside(self, addr):
        return self.base <= addr and addr + self.nbytes <= self.base + len(self.mem)

    def _read(self, addr):
        if not self._inside(addr):
            if self.decode_end is not None and addr >= self.decode_end:
                return 0, RESP_DECERR
            return 0, RESP_SLVERR
        off = addr - self.base
        return int.from_bytes(self.mem[off : off + self.nbytes], "little"), RESP_OKAY

    def _write(self, addr, data, strb):
        if not self._inside(addr):
            return False
        off = addr - self.base
        for k in range(self.nbytes):
            if strb >> k & 1:
                self.mem[off + k] = data >> (8 * k) & 0xFF
        return True

    # --- checks ------------------------------------------------------------------------------
    def _check_burst(self, kind, addr, length, size, burst, cache):
        def fail(what):
            raise AXIProtocolError(f"{kind} 0x{addr:08x} len {length}: {what}")

        if burst != BURST_INCR:
            fail(f"burst type {burst}, not INCR")
        if size != self.size:
            fail(f"size {size}, not the {self.nbytes}-byte data width")
        if length > 255:
            fail("more than 256 beats")
        if addr % self.nbytes:
            fail("address not aligned to the beat")
        if addr % 4096 + (length + 1) * self.nbytes > 4096:
            fail("crosses a 4 KiB boundary")
        if self.cache is not None and cache != self.cache:
            fail(f"cache {cache:04b}, not {self.cache:04b}")

    def _payload(self, ch, names):
        out = []
        for n in names:
            out.append((yield self.sig(ch, n)))
        return tuple(out)

    # --- the slave ---------------------------------------------------------------------------
    @passive
    def process(self):
        s = self.sig
        ax = ("addr", "len", "size", "burst", "cache")
        bursts = deque()  # read bursts: [first beat's cycle, address, beats left]
        aws = deque()  # write bursts: [address, beats left]
        wbeats = deque()  # write beats without their AW yet: (data, strb, last)
        bresp = deque()  # [cycle due, resp]
        pending = {}  # channel -> payload of a VALID not yet taken (stability)
        cur = dict(arready=0, rvalid=0, awready=0, wready=0, bvalid=0)
        cycle = 0
        while True:
            yield
            cycle += 1
            self.stats["cycles"] = cycle
            # --- this cycle's handshakes
            for ch, names in (("ar", ax), ("aw", ax), ("w", ("data", "strb", "last"))):
                valid = yield s(ch, "valid")
                if ch in pending:
                    if not valid:
                        raise AXIProtocolError(f"{ch.upper()}VALID fell before {ch.upper()}READY")
                    now = yield from self._payload(ch, names)
                    if now != pending[ch]:
                        raise AXIProtocolError(
                            f"{ch.upper()} payload changed while waiting: {pending[ch]} -> {now}"
                        )
                if not valid:
                    pending.pop(ch, None)
                    continue
                payload = yield from self._payload(ch, names)
                if not cur[ch + "ready"]:
                    pending[ch] = payload
                    continue
                pending.pop(ch, None)
                if ch == "ar":
                    addr, length, size, burst, cache = payload
                    self._check_burst("AR", addr, length, size, burst, cache)
                    bursts.append([cycle + self.latency, addr, length + 1])
                    self.ar_log.append((addr, length + 1))
                    self.stats["read_bursts"] += 1
                elif ch == "aw":
                    addr, length, size, burst, cache = payload
                    self._check_burst("AW", addr, length, size, burst, cache)
                    aws.append([addr, length + 1, True])
                    self.stats["write_bursts"] += 1
                else:
                    wbeats.append(payload)
            if cur["rvalid"] and (yield s("r", "ready")):
                b = bursts[0]
                self.stats["read_beats"] += 1
                b[1] += self.nbytes
                b[2] -= 1
                if b[2] == 0:
                    bursts.popleft()
                cur["rvalid"] = 0
            if cur["bvalid"] and (yield s("b", "ready")):
                bresp.popleft()
                cur["bvalid"] = 0
            # write beats meet their bursts
            while aws and wbeats:
                a = aws[0]
                data, strb, last = wbeats.popleft()
                if bool(last) != (a[1] == 1):
                    raise AXIProtocolError(f"WLAST {last} on a beat with {a[1] - 1} more to come")
                a[2] &= self._write(a[0], data, strb)
                self.stats["write_beats"] += 1
                a[0] += self.nbytes
                a[1] -= 1
                if a[1] == 0:
                    aws.popleft()
                    ok = a[2]
                    self.stats["write_errors"] += not ok
                    bresp.append([cycle + self.b_latency, RESP_OKAY if ok else RESP_SLVERR])
            self.stats["max_in_flight"] = max(self.stats["max_in_flight"], len(bursts))

            # --- next cycle's outputs
            cur["arready"] = int(
                len(bursts) < self.max_outstanding and self.rng.random() < self.p_ar
            )
            yield s("ar", "ready").eq(cur["arready"])
            if (
                not cur["rvalid"]
                and bursts
                and bursts[0][0] <= cycle + 1
                and self.rng.random() >= self.p_gap
            ):
                b = bursts[0]
                data, resp = self._read(b[1])
                self.stats["read_errors"] += resp != RESP_OKAY
                self.stats["read_decerrs"] += resp == RESP_DECERR
                cur["rvalid"] = 1
                yield s("r", "data").eq(data)
                yield s("r", "resp").eq(resp)
                yield s("r", "last").eq(int(b[2] == 1))
                yield s("r", "id").eq(0)
            yield s("r", "valid").eq(cur["rvalid"])
            cur["awready"] = int(self.rng.random() < self.p_w)
            cur["wready"] = int(self.rng.random() < self.p_w)
            yield s("aw", "ready").eq(cur["awready"])
            yield s("w", "ready").eq(cur["wready"])
            if not cur["bvalid"] and bresp and bresp[0][0] <= cycle + 1:
                cur["bvalid"] = 1
                yield s("b", "resp").eq(bresp[0][1])
                yield s("b", "id").eq(0)
            yield s("b", "valid").eq(cur["bvalid"])
