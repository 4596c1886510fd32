"""Thin Python access to the C library compiled for the host (`litedigest._native`).

- `sha256(data, variant)` / `Sha256Ctx`: the C library's own streaming API (its padding and
  buffering, not only the compression function);
- `md(name, data)` / `MdCtx(name)`: the generic streaming API of every algorithm (ld_md.h),
  names as in hashlib ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224",
  "sha512_256"); `MD_ALGS` maps them to the C algorithm ids;
- `compress(state_words, blocks)`, `iv(variant)`, `md_pad(tail, total_len, block_size)`;
- `HwDevice`: the C hash-peripheral driver (ld_hw_sha256_*) running against registers
  provided by Python (`read32(addr)`, `write32(addr, value)`), e.g. a model or a bridge.
"""
import struct

from ._native import ffi, lib

SHA256, SHA224 = lib.LD_SHA256, lib.LD_SHA224
PATH_CSR, PATH_DMA = lib.LD_PATH_CSR, lib.LD_PATH_DMA
VARIANTS = {"sha256": SHA256, "sha224": SHA224}

ERRORS = {
    lib.LD_ERR_ARG: "LD_ERR_ARG", lib.LD_ERR_STATE: "LD_ERR_STATE",
    lib.LD_ERR_TIMEOUT: "LD_ERR_TIMEOUT", lib.LD_ERR_HW: "LD_ERR_HW",
    lib.LD_ERR_RANGE: "LD_ERR_RANGE",
}


class NativeError(RuntimeError):
    """A non-zero LD_* return code of the C library (`code` holds it)."""

    def __init__(self, code, what=""):
        self.code = code
        name = ERRORS.get(code, str(code))
        msg = ffi.string(lib.ld_strerror(code)).decode()
        super().__init__(f"{what + ': ' if what else ''}{name} ({msg})")


def _check(code, what):
    if code != lib.LD_OK:
        raise NativeError(code, what)


def _by_name(table, key, what):
    """table[key] for a name (ValueError naming `what` when unknown); an int passes through."""
    if isinstance(key, str):
        try:
            return table[key]
        except KeyError:
            raise ValueError(f"unknown {what} {key!r}") from None
    return key


def _variant(variant):
    return _by_name(VARIANTS, variant, "SHA-256 variant")


def strerror(code):
    return ffi.string(lib.ld_strerror(code)).decode()


def digest_size(variant):
    return lib.ld_sha256_digest_size(_variant(variant))


def iv(variant=SHA256):
    """The initial hash value as 8 ints."""
    st = ffi.new("uint32_t[8]")
    _check(lib.ld_sha256_iv(_variant(variant), st), "ld_sha256_iv")
    return list(st)


def _compress(cfunc, word_type, nwords, block_size, state, blocks):
    """Run a C compression function: state = nwords ints, blocks a multiple of block_size."""
    blocks = bytes(blocks)
    if len(blocks) % block_size:
        raise ValueError(f"blocks must be a multiple of {block_size} bytes")
    st = ffi.new(f"{word_type}[{nwords}]", list(state))
    cfunc(st, blocks, len(blocks) // block_size)
    return list(st)


def compress(state, blocks):
    """ld_sha256_compress: state = 8 ints, blocks a multiple of 64 bytes; returns 8 ints."""
    return _compress(lib.ld_sha256_compress, "uint32_t", 8, 64, state, blocks)


def sha1_iv():
    """The SHA-1 initial hash value as 5 ints."""
    st = ffi.new("uint32_t[5]")
    lib.ld_sha1_iv(st)
    return list(st)


def sha1_compress(state, blocks):
    """ld_sha1_compress: state = 5 ints, blocks a multiple of 64 bytes; returns 5 ints."""
    return _compress(lib.ld_sha1_compress, "uint32_t", 5, 64, state, blocks)


SHA512_VARIANTS = {"sha512": 0, "sha384": 1, "sha512_224": 2, "sha512_256": 3}


def sha512_iv(algorithm):
    """The initial hash value of a SHA-512-family algorithm as 8 ints."""
    if algorithm not in SHA512_VARIANTS:
        raise ValueError(f"unknown SHA-512 variant {algorithm!r}")
    st = ffi.new("uint64_t[8]")
    _check(lib.ld_sha512_iv(SHA512_VARIANTS[algorithm], st), "ld_sha512_iv")
    return list(st)


def sha512_compress(state, blocks):
    """ld_sha512_compress: state = 8 ints, blocks a multiple of 128 bytes; returns 8 ints."""
    return _compress(lib.ld_sha512_compress, "uint64_t", 8, 128, state, blocks)


def md_pad(tail, total_len, block_size=64):
    """ld_md_pad: the padded final block(s) for a message of total_len bytes ending in tail."""
    tail = bytes(tail)
    out = ffi.new("uint8_t[]", 2 * max(block_size, 1))
    n = lib.ld_md_pad(out, tail if tail else ffi.NULL, len(tail), total_len, block_size)
    if n == 0:
        raise ValueError(f"ld_md_pad rejected tail_len={len(tail)} block_size={block_size}")
    return bytes(ffi.buffer(out, n))


class Sha256Ctx:
    """The C streaming context (ld_sha256_init/update/final). final() twice raises
    NativeError(LD_ERR_STATE), as does update() after final()."""

    def __init__(self, variant=SHA256):
        self.variant = _variant(variant)
        self._ctx = ffi.new("ld_sha256_ctx *")
        _check(lib.ld_sha256_init(self._ctx, self.variant), "ld_sha256_init")

    def update(self, data):
        data = bytes(data)
        _check(lib.ld_sha256_update(self._ctx, data, len(data)), "ld_sha256_update")
        return self

    def final(self):
        out = ffi.new("uint8_t[32]")
        _check(lib.ld_sha256_final(self._ctx, out), "ld_sha256_final")
        return bytes(ffi.buffer(out, digest_size(self.variant)))


def sha256(data, variant=SHA256):
    """One-shot ld_sha256(variant, data): the digest bytes (32 or 28)."""
    data = bytes(data)
    variant = _variant(variant)
    out = ffi.new("uint8_t[32]")
    _check(lib.ld_sha256(variant, data, len(data), out), "ld_sha256")
    return bytes(ffi.buffer(out, digest_size(variant)))



# ---------------------------------------------------------------------------------------
# The generic Merkle-Damgard API (ld_md.h): every algorithm, by hashlib name.

# hashlib name -> LD_ALG_* id, from the C table itself
MD_ALGS = {ffi.string(lib.ld_md_name(a)).decode(): a for a in range(lib.LD_ALG_COUNT)}


def md_alg(name):
    """The LD_ALG_* id of a hashlib algorithm name (an int is passed through)."""
    return _by_name(MD_ALGS, name, "algorithm")


def md_iv_words(name):
    """ld_md_iv_words: the initial chaining value as big-endian 32-bit words."""
    alg = md_alg(name)
    words = ffi.new(f"uint32_t[{lib.LD_MD_MAX_STATE_WORDS}]")
    _check(lib.ld_md_iv_words(alg, words), "ld_md_iv_words")
    return list(words)[:lib.ld_md_state_words(alg)]


class MdCtx:
    """ld_md_init/update/final/copy as a hashlib-like object. digest() finalises a copy, so
    it can be called any number of times and update() may follow; final() finalises this
    context itself (a second final() or a later update() raises NativeError(LD_ERR_STATE))."""

    def __init__(self, name="sha256", data=b""):
        self.alg = md_alg(name)
        self._ctx = ffi.new("ld_md_ctx *")
        _check(lib.ld_md_init(self._ctx, self.alg), "ld_md_init")
        if data:
            self.update(data)

    @property
    def name(self):
        return ffi.string(lib.ld_md_name(self.alg)).decode()

    @property
    def digest_size(self):
        return lib.ld_md_digest_size(self.alg)

    @property
    def block_size(self):
        return lib.ld_md_block_size(self.alg)

    def update(self, data):
        data = bytes(data)
        _check(lib.ld_md_update(self._ctx, data, len(data)), "ld_md_update")
        return self

    def copy(self):
        other = MdCtx.__new__(MdCtx)
        other.alg = self.alg
        other._ctx = ffi.new("ld_md_ctx *")
        _check(lib.ld_md_copy(other._ctx, self._ctx), "ld_md_copy")
        return other

    def final(self):
        out = ffi.new(f"uint8_t[{lib.LD_MD_MAX_DIGEST_SIZE}]")
        _check(lib.ld_md_final(self._ctx, out), "ld_md_final")
        return bytes(ffi.buffer(out, self.digest_size))

    def digest(self):
        return self.copy().final()

    def hexdigest(self):
        return self.digest().hex()


def md(name, data):
    """One-shot ld_md(alg, data): the digest bytes."""
    data = bytes(data)
    alg = md_alg(name)
    out = ffi.new(f"uint8_t[{lib.LD_MD_MAX_DIGEST_SIZE}]")
    _check(lib.ld_md(alg, data, len(data), out), "ld_md")
    return bytes(ffi.buffer(out, lib.ld_md_digest_size(alg)))

# ---------------------------------------------------------------------------------------
# The C peripheral driver against Python-provided registers.

_active = []  # stack of (read32, write32) bound while a driver call runs


@ffi.def_extern()
def ld_py_read32(addr):
    try:
        return _active[-1][0](int(addr)) & 0xFFFFFFFF
    except Exception as e:  # exceptions cannot cross C: remember and return 0
        _pending.append(e)
        return 0


@ffi.def_extern()
def ld_py_write32(addr, value):
    try:
        _active[-1][1](int(addr), int(value))
    except Exception as e:
        _pending.append(e)


_pending = []

DEV_FIELDS = ("ctrl", "din", "cv", "dma_base", "dma_length", "status", "digest", "blocks",
              "cycles_latch", "cycles_value", "info")


class HwDevice:
    """Runs the C driver (ld_hw_*) with register accesses going to Python callables.

    regs: dict register name -> address (the DEV_FIELDS); read32(addr) -> int;
    write32(addr, value). ram_base/ram_size: the DMA-able range (host addresses when the
    'peripheral' reads host memory, as a model does)."""

    def __init__(self, regs, read32, write32, ram_base=0, ram_size=0, timeout_polls=0):
        self._rw = (read32, write32)
        self.dev = ffi.new("ld_hw_dev *")
        for name in DEV_FIELDS:
            setattr(self.dev, name, regs[name])
        self.dev.read32 = lib.ld_py_read32
        self.dev.write32 = lib.ld_py_write32
        self.dev.dma_sync = ffi.NULL
        self.dev.timeout_polls = timeout_polls
        self.dev.ram_base = ram_base
        self.dev.ram_size = ram_size

    def _call(self, fn, *args):
        _active.append(self._rw)
        del _pending[:]
        try:
            r = fn(*args)
        finally:
            _active.pop()
        if _pending:
            e = _pending[0]
            del _pending[:]
            raise e
        return r

    def sha256(self, data, variant=SHA256, path=PATH_CSR):
        """ld_hw_sha256 one-shot. data: bytes, or a cffi uint8_t buffer (its address is what
        the DMA path sees). Raises NativeError on an LD_* error."""
        variant = _variant(variant)
        out = ffi.new("uint8_t[32]")
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = ffi.from_buffer(bytes(data))
        n = len(data)
        _check(self._call(lib.ld_hw_sha256, self.dev, variant, path, data, n, out), "ld_hw_sha256")
        return bytes(ffi.buffer(out, digest_size(variant)))

    def context(self, variant=SHA256, path=PATH_CSR):
        return HwCtx(self, _variant(variant), path)

    def cycles(self):
        out = ffi.new("uint64_t *")
        _check(self._call(lib.ld_hw_cycles, self.dev, out), "ld_hw_cycles")
        return int(out[0])


class HwCtx:
    """ld_hw_sha256_init/update/final as an object (for streaming and call-order tests)."""

    def __init__(self, hw, variant, path):
        self.hw, self.variant = hw, variant
        self._ctx = ffi.new("ld_hw_sha256_ctx *")
        _check(hw._call(lib.ld_hw_sha256_init, self._ctx, hw.dev, variant, path), "ld_hw_sha256_init")

    def update(self, data):
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = ffi.from_buffer(bytes(data))
        _check(self.hw._call(lib.ld_hw_sha256_update, self._ctx, data, len(data)),
               "ld_hw_sha256_update")
        return self

    def final(self):
        out = ffi.new("uint8_t[32]")
        _check(self.hw._call(lib.ld_hw_sha256_final, self._ctx, out), "ld_hw_sha256_final")
        return bytes(ffi.buffer(out, digest_size(self.variant)))


def ctrl_bits():
    """The ctrl/status bit masks the driver was compiled with."""
    return {n: getattr(lib, n) for n in dir(lib) if n.startswith(("LD_CTRL_", "LD_STATUS_"))}


def words_to_bytes(words):
    return struct.pack(">8I", *words)
