"""Host-side driver of the hash peripheral (soc/REGISTERS.md) over any register bus.

The bus is three callables: ``read32(addr)``, ``write32(addr, value)`` and ``write_bytes(addr,
data)`` (bulk memory writes for DMA buffers). Register addresses come from the build's
csr.json and field positions from its csr.h (``CSR_<NAME>_<REG>_<FIELD>_OFFSET``), so nothing
here hard-codes the register map. The simulated SoC (UARTBone bridge) and a PYNQ board
(``pynq.MMIO``) both plug in through these callables.
"""
import re
import time


class PeripheralError(RuntimeError):
    """The peripheral reported an error for a job (status bits in `.flags`)."""

    def __init__(self, message, flags=()):
        super().__init__(message)
        self.flags = tuple(flags)


class PeripheralTimeout(PeripheralError, TimeoutError):
    """A job did not finish within the timeout."""


def parse_csr_fields(csr_h_text, instance):
    """{register: {field: (offset, size)}} for `instance` from a LiteX csr.h."""
    pat = re.compile(rf"#define CSR_{instance.upper()}_([A-Z0-9]+(?:_[A-Z0-9]+)*)_OFFSET (\d+)")
    sizes = dict(re.findall(rf"#define CSR_{instance.upper()}_(\w+)_SIZE (\d+)", csr_h_text))
    fields = {}
    for name, off in pat.findall(csr_h_text):
        # NAME is <REG>_<FIELD>; registers may contain underscores: match the longest known one
        for reg in ("CTRL", "STATUS", "INFO"):
            if name.startswith(reg + "_"):
                fld = name[len(reg) + 1:].lower()
                fields.setdefault(reg.lower(), {})[fld] = (int(off), int(sizes.get(name, 1)))
    return fields


class HashPeripheral:
    """Jobs on one hash peripheral instance (e.g. "sha256").

    `registers`: csr.json "csr_registers" dict; `fields`: parse_csr_fields(...);
    `dma_buffer`: (address, size) of memory the host may use for DMA data, or None."""

    ERROR_FIELDS = ("err_len", "err_addr", "err_state", "err_bus")

    def __init__(self, read32, write32, write_bytes, registers, fields, instance="sha256",
                 dma_buffer=None, block_bytes=64, digest_bytes=32, timeout=10.0):
        self.read32, self.write32, self.write_bytes = read32, write32, write_bytes
        self.instance = instance
        self.block_bytes = block_bytes
        self.digest_bytes = digest_bytes
        self.dma_buffer = dma_buffer
        self.timeout = timeout
        try:
            self.addr = {k[len(instance) + 1:]: v["addr"] for k, v in registers.items()
                         if k.startswith(instance + "_")}
            self.ctrl_fields = fields["ctrl"]
            self.ctrl_bits = {k: 1 << off for k, (off, _) in fields["ctrl"].items()}
            off, size = fields["ctrl"]["variant"]
            self.variant_mask = ((1 << size) - 1) << off
            self.status_fields = fields["status"]
            self.info_fields = fields.get("info", {})
            for reg in ("ctrl", "din", "cv", "dma_base", "dma_length", "status", "digest",
                        "cycles_latch", "cycles_value"):
                self.addr[reg]
        except KeyError as e:
            raise ValueError(f"the register map has no {instance} peripheral field/register {e}") from None

    # --- registers ----------------------------------------------------------------------
    def _field(self, value, fields, name):
        off, size = fields[name]
        return (value >> off) & ((1 << size) - 1)

    def status(self):
        """The status register decoded into a dict of fields."""
        v = self.read32(self.addr["status"])
        return {name: self._field(v, self.status_fields, name) for name in self.status_fields}

    def info(self):
        v = self.read32(self.addr["info"])
        return {name: self._field(v, self.info_fields, name) for name in self.info_fields}

    def cycles(self):
        """The free-running cycle counter (latched, 64 bits)."""
        self.write32(self.addr["cycles_latch"], 1)
        hi = self.read32(self.addr["cycles_value"])
        lo = self.read32(self.addr["cycles_value"] + 4)
        return (hi << 32) | lo

    def read_digest(self, slot=0):
        """Slot `slot`'s chaining value after its latest completed block, H0 first (bytes)."""
        if "digest_sel" in self.addr:
            self.write32(self.addr["digest_sel"], slot)
        elif slot:
            raise ValueError("this peripheral has one slot")
        a = self.addr["digest"]
        n = self.digest_bytes // 4
        return b"".join(self.read32(a + 4 * i).to_bytes(4, "big") for i in range(n))

    def ack(self, levels=0):
        self.write32(self.addr["ctrl"], self.ctrl_bits["ack"] | levels)

    def levels(self, first=False, last=False, variant=0, load_cv=False, slot=0):
        bits = 0
        if first:
            bits |= self.ctrl_bits["first"]
        if last:
            bits |= self.ctrl_bits["last"]
        if load_cv:
            bits |= self.ctrl_bits["load_cv"]
        off, size = self.ctrl_fields["variant"]
        if not 0 <= variant < (1 << size):
            raise ValueError(f"variant {variant} does not fit the ctrl register")
        bits |= variant << off
        if slot:
            off, size = self.ctrl_fields["slot"]
            if not 0 <= slot < (1 << size):
                raise ValueError(f"slot {slot} does not fit the ctrl register")
            bits |= slot << off
        return bits

    def load_cv(self, cv):
        if len(cv) != self.digest_bytes:
            raise ValueError(f"a chaining value is {self.digest_bytes} bytes, got {len(cv)}")
        a = self.addr["cv"]
        for i in range(self.digest_bytes // 4):
            self.write32(a + 4 * i, int.from_bytes(cv[4 * i:4 * i + 4], "big"))

    # --- jobs ---------------------------------------------------------------------------
    def wait(self, levels, timeout=None):
        """Wait for `done`, ack, and raise PeripheralError on any error bit."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            st = self.status()
            if st["done"]:
                break
            if time.monotonic() > deadline:
                self.ack(levels & self.variant_mask)
                raise PeripheralTimeout(f"{self.instance}: job not done after "
                                        f"{self.timeout if timeout is None else timeout} s (status {st})")
        self.ack(levels & self.variant_mask)
        errs = [f for f in self.ERROR_FIELDS if st.get(f)]
        if errs:
            raise PeripheralError(f"{self.instance}: job failed: {', '.join(errs)}", errs)
        return st

    def job_csr(self, block, levels):
        """Hash one block written word by word into din (the CSR path)."""
        if len(block) != self.block_bytes:
            raise ValueError(f"a block is {self.block_bytes} bytes, got {len(block)}")
        din = self.addr["din"]
        for i in range(0, self.block_bytes, 4):
            self.write32(din, int.from_bytes(block[i:i + 4], "big"))
        self.write32(self.addr["ctrl"], self.ctrl_bits["start"] | levels)
        return self.wait(levels)

    def job_dma(self, address, length, levels, timeout=None):
        """Hash `length` bytes of memory at `address` (the DMA path)."""
        self.write32(self.addr["dma_base"], address & 0xFFFFFFFF)
        self.write32(self.addr["dma_length"], length & 0xFFFFFFFF)
        self.write32(self.addr["ctrl"], self.ctrl_bits["dma_start"] | levels)
        return self.wait(levels, timeout)

    def compress(self, blocks, cv=None, variant=0, path="dma"):
        """Hash whole blocks from `cv` (None: the IV of `variant`); return the new chaining
        value. On the DMA path the data goes through the host's DMA buffer in chunks."""
        bb = self.block_bytes
        if not blocks or len(blocks) % bb:
            raise ValueError(f"compress needs a non-zero multiple of {bb} bytes, got {len(blocks)}")
        if path not in ("csr", "dma"):
            raise ValueError(f"unknown path {path!r} (csr or dma)")
        if cv is not None:
            self.load_cv(cv)
        self.ack()  # start clean whatever an earlier user left behind
        start = dict(first=cv is None, load_cv=cv is not None, variant=variant)
        cont = dict(variant=variant)
        if path == "csr":
            for i in range(0, len(blocks), bb):
                lv = self.levels(last=i + bb == len(blocks), **(start if i == 0 else cont))
                self.job_csr(blocks[i:i + bb], lv)
        else:
            if not self.dma_buffer:
                raise ValueError("no DMA buffer configured for this peripheral")
            base, size = self.dma_buffer
            chunk = size - size % bb
            for i in range(0, len(blocks), chunk):
                part = blocks[i:i + chunk]
                self.write_bytes(base, part)
                lv = self.levels(last=i + len(part) == len(blocks), **(start if i == 0 else cont))
                self.job_dma(base, len(part), lv)
        return self.read_digest()

    # --- Skein-512 -------------------------------------------------------------------------
    def set_tweak(self, t0, t1, final_bytes):
        """Skein peripherals: the next job's start tweak (position = bytes before the job) and
        the byte count of the UBI's final block (REGISTERS.md "Skein")."""
        if "tweak" not in self.addr:
            raise ValueError(f"{self.instance} is not a Skein peripheral (no tweak register)")
        a = self.addr["tweak"]
        for i, w in enumerate(((t1 >> 32), t1, (t0 >> 32), t0)):  # most significant word first
            self.write32(a + 4 * i, w & 0xFFFFFFFF)
        self.write32(self.addr["final_bytes"], final_bytes)

    def ubi(self, blocks, start, t0, t1, final_bytes, path="dma"):
        """One Skein UBI job (litedigest.skein): whole blocks from chaining value `start`
        (64 bytes, loaded through cv) or engine variant `start` (int); on the CSR path one
        job per block, on the DMA path one per chunk of the DMA buffer, each with its start
        tweak. Returns the new chaining value."""
        from .skein import part_t1
        bb = self.block_bytes
        if not blocks or len(blocks) % bb:
            raise ValueError(f"ubi needs a non-zero multiple of {bb} bytes, got {len(blocks)}")
        if not 0 <= final_bytes <= bb:
            raise ValueError(f"final_bytes must be 0..{bb}, got {final_bytes}")
        if path not in ("csr", "dma"):
            raise ValueError(f"unknown path {path!r} (csr or dma)")
        self.ack()
        if isinstance(start, int):
            first_levels = self.levels(first=True, variant=start)
        else:
            self.load_cv(bytes(start))
            first_levels = self.levels(load_cv=True)
        if path == "csr":
            step = bb
        else:
            if not self.dma_buffer:
                raise ValueError("no DMA buffer configured for this peripheral")
            step = self.dma_buffer[1] - self.dma_buffer[1] % bb
        for off in range(0, len(blocks), step):
            part = blocks[off:off + step]
            last = off + len(part) == len(blocks)
            self.set_tweak(t0 + off, part_t1(t1, off == 0, last), final_bytes)
            lv = (first_levels if off == 0 else 0) | (self.ctrl_bits["last"] if last else 0)
            if path == "csr":
                self.job_csr(part, lv)
            else:
                self.write_bytes(self.dma_buffer[0], part)
                self.job_dma(self.dma_buffer[0], len(part), lv)
        return self.read_digest()
