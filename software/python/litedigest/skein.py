"""Skein-512 hash and MAC objects (hashlib style) on any backend.

The UBI sequence is the C library's (ld_skein.h, software/firmware/lib/src/skein.c): a MAC
key UBI, the configuration UBI (or the engine's configured IV for a standard output size and
no key), the message UBI with its last block held back until the message ends (zero padding,
Skein's bit padding for a final partial byte), then one output UBI per 64 output bytes. Each
UBI is one job for `Backend.ubi(spec, start, blocks, t0, t1, final_bytes)`, the same job a
peripheral runs (its tweak rule: `block_tweaks`).

    h = litedigest.new("skein512", b"abc", digest_bits=256, key=b"k", backend="rtl")
    h.update(b"more"); h.hexdigest()
"""
import struct

from . import spec as _spec
from .backends import get_backend
from .hashobj import _as_bytes

BLOCK = 64
T_KEY, T_CFG, T_MSG, T_OUT = 0, 4, 48, 63
FIRST, FINAL, BITPAD = 1 << 62, 1 << 63, 1 << 55
FLAGS = FIRST | FINAL | BITPAD
STANDARD_SIZES = (512, 384, 256, 224, 160, 128)  # the engines' variants 1..6 (0: zero)
MAX_OUT_BITS = 1 << 20
CHUNK = 16 * 1024


def t1_of(ubi_type, first=False, final=False, bitpad=False):
    return (ubi_type << 56) | (FIRST if first else 0) | (FINAL if final else 0) | (BITPAD if bitpad else 0)


def part_t1(t1, first, last):
    """T1 of one part (a block, or a sub-job) of a job started with T1 `t1`: FIRST kept only on
    the first part, FINAL and BITPAD only on the last."""
    return (t1 & ~FLAGS) | (t1 & FIRST if first else 0) | (t1 & (FINAL | BITPAD) if last else 0)


def block_tweaks(t0, t1, nblocks, final_bytes):
    """The (T0, T1) of each block of a UBI job started with tweak (t0 = bytes before the job,
    t1) -- the peripheral's rule (soc/REGISTERS.md, ld_skein512_ubi)."""
    out = []
    for b in range(nblocks):
        last = b == nblocks - 1
        t0 += final_bytes if last and t1 & FINAL else BLOCK
        out.append((t0, part_t1(t1, b == 0, last)))
    return out


def variant_of_bits(digest_bits):
    """The engine variant of a configured IV (1..6), or None."""
    return STANDARD_SIZES.index(digest_bits) + 1 if digest_bits in STANDARD_SIZES else None


def _bytes(data):
    return bytes(_as_bytes(data))


class Skein512:
    """A running Skein-512 hash or MAC: update/update_bits/digest/hexdigest/copy."""

    block_size = BLOCK

    def __init__(self, data=b"", *, digest_bits=512, key=b"", backend="sw", engine=None,
                 name="skein512"):
        if not isinstance(digest_bits, int) or isinstance(digest_bits, bool) or \
                not 1 <= digest_bits <= MAX_OUT_BITS:
            raise ValueError(f"digest_bits must be an integer 1..{MAX_OUT_BITS}, got {digest_bits!r}")
        key = _bytes(key)
        try:
            self._spec = _spec.parse(engine if engine is not None else "skein512")
        except _spec.SpecError as e:
            raise ValueError(f"bad engine for skein512: {e}") from None
        if self._spec.family != "skein512":
            raise ValueError(f"engine {engine!r} is not a Skein-512 engine")
        self._name = name
        self._bits = digest_bits
        self._backend_name = backend
        self._backend = get_backend(backend, self._spec.engine_name)
        self._pos = 0            # message bytes processed
        self._started = False    # a message block went out
        self._buf = bytearray()  # held-back message bytes (the last block stays here)
        self._bitpad = False     # the message ended inside a byte
        v = variant_of_bits(digest_bits)
        if not key and v is not None:
            self._x = v          # the chain starts at the engine's configured IV
        else:
            x = 0
            if key:
                n = max(1, -(-len(key) // BLOCK))
                x = self._ubi(x, key.ljust(n * BLOCK, b"\0"), 0, t1_of(T_KEY, True, True),
                              len(key) - BLOCK * (n - 1))
            cfg = struct.pack("<QQ", 0x133414853, digest_bits).ljust(BLOCK, b"\0")
            self._x = self._ubi(x, cfg, 0, t1_of(T_CFG, True, True), 32)
        if data is not None:
            self.update(data)

    def _ubi(self, start, blocks, t0, t1, final_bytes):
        return self._backend.ubi(self._spec, start, bytes(blocks), t0, t1, final_bytes)

    # hashlib attributes
    @property
    def name(self):
        return self._name

    @property
    def digest_size(self):
        return (self._bits + 7) // 8

    @property
    def digest_bits(self):
        return self._bits

    @property
    def engine(self):
        return str(self._spec)

    @property
    def backend(self):
        return self._backend_name

    def _message_blocks(self, data):
        """Blocks known not to be the message's last: chunks of CHUNK bytes per job."""
        mv = memoryview(data)
        for off in range(0, len(mv), CHUNK):
            part = mv[off:off + CHUNK]
            self._x = self._ubi(self._x, part, self._pos, t1_of(T_MSG, first=not self._started), 0)
            self._pos += len(part)
            self._started = True

    def update(self, data):
        data = _bytes(data)
        if self._bitpad and data:
            raise ValueError("the message ended with a partial byte (update_bits); no more data")
        self._buf += data
        if len(self._buf) > CHUNK:
            keep = (len(self._buf) - 1) % BLOCK + 1  # hold the last (maybe full) block back
            whole = len(self._buf) - keep
            self._message_blocks(self._buf[:whole])
            del self._buf[:whole]

    def update_bits(self, data, nbits):
        """Append the first nbits bits of data (most significant bit of each byte first); a
        count that is not a multiple of 8 ends the message (Skein's bit padding)."""
        data = _bytes(data)
        if not isinstance(nbits, int) or not 0 <= nbits <= 8 * len(data):
            raise ValueError(f"nbits must be 0..{8 * len(data)}, got {nbits!r}")
        if self._bitpad and nbits:
            raise ValueError("the message ended with a partial byte; no more data")
        self.update(data[:nbits // 8])
        rem = nbits % 8
        if rem:
            mask = 1 << (7 - rem)
            self._buf.append((data[nbits // 8] & (0x100 - mask) & 0xFF) | mask)
            self._bitpad = True

    def digest(self):
        buf = bytes(self._buf)
        x = self._x
        if len(buf) > BLOCK:
            whole = (len(buf) - 1) // BLOCK * BLOCK
            x = self._ubi(x, buf[:whole], self._pos, t1_of(T_MSG, first=not self._started), 0)
            pos, started, buf = self._pos + whole, True, buf[whole:]
        else:
            pos, started = self._pos, self._started
        g = self._ubi(x, buf.ljust(BLOCK, b"\0"), pos,
                      t1_of(T_MSG, first=not started, final=True, bitpad=self._bitpad), len(buf))
        out = bytearray()
        for i in range(-(-self.digest_size // BLOCK)):
            ctr = struct.pack("<Q", i).ljust(BLOCK, b"\0")
            out += self._ubi(g, ctr, 0, t1_of(T_OUT, True, True), 8)
        return bytes(out[:self.digest_size])

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._buf = bytearray(self._buf)
        return other

    def __repr__(self):
        return (f"<litedigest {self._name} ({self._bits}-bit) HASH object, backend "
                f"{self._backend_name}, engine {self.engine}>")
