# SPDX-License-Identifier: BSD-2-Clause
"""Thin Python access to the C library compiled for the host (`litedigest._clib._native`).

- `sha256(data, variant)` / `Sha256Ctx`: the C library's own streaming API (its padding and
  buffering, not only the compression function);
- `md(name, data)` / `MdCtx(name)`: the generic streaming API of every algorithm (ld_md.h),
  names as in hashlib ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224",
  "sha512_256"); `MD_ALGS` maps them to the C algorithm ids;
- `hmac(name, key, data)` / `hmac_verify(name, key, data, mac)`: HMAC (ld_hmac.h) of any of
  those algorithms, and its constant-time verification (truncated MACs of 10 bytes or more);
- `compress(state_words, blocks)`, `iv(variant)`, `md_pad(tail, total_len, block_size)`;
- `HwDevice`: the C hash-peripheral driver (ld_hw.h: ld_hw_md_*, every algorithm; ld_skein.h)
  and the message scheduler's executor (ld_sched.h: ld_hw_schedule) running against registers
  provided by Python (`read32(addr)`, `write32(addr, value)`: a model, the simulator's bridge)
  or a memory-mapped register window (`mmio_base`: the C library's own loads and stores, no
  Python call per register), with DMA staging for a host whose memory the DMA cannot read
  (`dma_write`, `stage`) and contexts that share the peripheral (`shared`);
  `DmaArena` places buffers in the DMA-able "RAM" at aligned addresses;
- hashlib-style contexts on the C library: `MdCtx` / `Skein512Ctx` (software, or around a
  compression hook: the padding and Skein's UBI sequence stay C), `HwCtx` / `HwSkeinCtx` (a
  peripheral); each has update/copy/digest/final;
- `sched_order(lengths, alg, nslots, whole_message_jobs)`: the scheduler's pure policy
  (ld_sched_init/next/complete) run with a FIFO executor: the jobs in issue order
  (`sched_job`: one issued ld_sched_job as a SchedJob).
"""

import collections
import contextlib
import struct
import threading
import time

from litedigest import hw_regs, signals, spec
from litedigest._clib._native import ffi, lib

SHA256, SHA224 = lib.LD_SHA256, lib.LD_SHA224
PATH_CSR, PATH_DMA = lib.LD_PATH_CSR, lib.LD_PATH_DMA
VARIANTS = {name: getattr(lib, f"LD_{name.upper()}") for name in spec.VARIANTS["sha256"]}

ERRORS = {
    lib.LD_ERR_ARG: "LD_ERR_ARG",
    lib.LD_ERR_STATE: "LD_ERR_STATE",
    lib.LD_ERR_TIMEOUT: "LD_ERR_TIMEOUT",
    lib.LD_ERR_HW: "LD_ERR_HW",
    lib.LD_ERR_RANGE: "LD_ERR_RANGE",
    lib.LD_ERR_MISMATCH: "LD_ERR_MISMATCH",
}


class NativeError(RuntimeError):
    """A non-zero LD_* return code of the C library (`code` holds it)."""

    def __init__(self, code, what=""):
        self.code = code
        name = ERRORS.get(code, str(code))
        msg = ffi.string(lib.ld_strerror(code)).decode()
        super().__init__(f"{what + ': ' if what else ''}{name} ({msg})")


class HardwareError(NativeError):
    """The peripheral reported an error bit for a job (LD_ERR_HW); it is acked and usable."""


class HardwareTimeout(NativeError, TimeoutError):
    """A job did not finish within the driver's poll bound (LD_ERR_TIMEOUT); acked."""


class ArgumentError(NativeError, ValueError):
    """The C library refused an argument (LD_ERR_ARG, LD_ERR_RANGE)."""


class StateError(NativeError, ValueError):
    """A call out of order (LD_ERR_STATE): after final, after the message ended, ..."""


_ERROR_CLASSES = {
    lib.LD_ERR_HW: HardwareError,
    lib.LD_ERR_TIMEOUT: HardwareTimeout,
    lib.LD_ERR_ARG: ArgumentError,
    lib.LD_ERR_RANGE: ArgumentError,
    lib.LD_ERR_STATE: StateError,
}


def _check(code, what):
    if code != lib.LD_OK:
        raise _ERROR_CLASSES.get(code, NativeError)(code, what)


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


SHA512_VARIANTS = {name: getattr(lib, f"LD_{name.upper()}") for name in spec.VARIANTS["sha512"]}


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
    return list(words)[: lib.ld_md_state_words(alg)]


class MdCtx:
    """ld_md_init/update/final/copy as a hashlib-like object. digest() finalises a copy, so
    it can be called any number of times and update() may follow; final() finalises this
    context itself (a second final() or a later update() raises NativeError(LD_ERR_STATE))."""

    def __init__(self, name="sha256", data=b"", hook=None):
        """hook(alg, first, words, blocks) -> words: the compression function (e.g. an engine
        in a simulator) under the C library's buffering and padding (ld_md_init_hook); words
        are the chaining value as big-endian 32-bit ints, the IV when `first` is set."""
        self.alg = md_alg(name)
        self._ctx = ffi.new("ld_md_ctx *")
        self._hook = None
        if hook is None:
            _check(lib.ld_md_init(self._ctx, self.alg), "ld_md_init")
        else:
            self._hook = ffi.new_handle(hook)  # kept alive with the context (and its copies)
            _check(
                lib.ld_md_init_hook(self._ctx, self.alg, lib.ld_py_md_compress, self._hook),
                "ld_md_init_hook",
            )
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
        data = _as_cdata(data)
        _check(_invoke(_NO_BINDING, lib.ld_md_update, self._ctx, data, len(data)), "ld_md_update")
        return self

    def copy(self):
        other = MdCtx.__new__(MdCtx)
        other.alg = self.alg
        other._hook = self._hook
        other._ctx = ffi.new("ld_md_ctx *")
        _check(lib.ld_md_copy(other._ctx, self._ctx), "ld_md_copy")
        return other

    def final(self):
        out = ffi.new(f"uint8_t[{lib.LD_MD_MAX_DIGEST_SIZE}]")
        _check(_invoke(_NO_BINDING, lib.ld_md_final, self._ctx, out), "ld_md_final")
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


def hmac(name, key, data):
    """One-shot ld_hmac(alg, key, data): the MAC bytes (hmac.digest(key, data, name))."""
    key, data, alg = bytes(key), bytes(data), md_alg(name)
    out = ffi.new(f"uint8_t[{lib.LD_HMAC_MAX_SIZE}]")
    _check(lib.ld_hmac(alg, key, len(key), data, len(data), out), "ld_hmac")
    return bytes(ffi.buffer(out, lib.ld_hmac_size(alg)))


def hmac_verify(name, key, data, mac):
    """ld_hmac_verify: True when mac (the whole MAC or its first 10 bytes or more) is the MAC
    of data under key, False when not (compared in constant time); NativeError on bad
    arguments (a mac shorter than 10 bytes or longer than the digest, an unknown name)."""
    key, data, mac = bytes(key), bytes(data), bytes(mac)
    r = lib.ld_hmac_verify(md_alg(name), key, len(key), data, len(data), mac, len(mac))
    if r == lib.LD_ERR_MISMATCH:
        return False
    _check(r, "ld_hmac_verify")
    return True


# ---------------------------------------------------------------------------------------
# The C peripheral driver and the message scheduler against Python-provided registers.

_Binding = collections.namedtuple("_Binding", "read32 write32 dma_write dma_sync")
_NO_BINDING = _Binding(None, None, None, None)
_active = []  # stack of _Binding bound while a C call runs
_pending = []  # exceptions raised by the callbacks during the current call
# One C call at a time: the callbacks find their Python side through _active, and a
# peripheral runs one context's jobs at a time (hash objects of several threads interleave
# between calls, which LD_HW_SHARED contexts allow).
_lock = threading.RLock()


def _invoke(binding, fn, *args):
    """Call C function `fn` with `binding` (_Binding) serving the HAL callbacks; an exception
    raised by a callback meanwhile is re-raised after it returns. A signal (Ctrl-C, SIGTERM)
    that arrives during the call is acted on when it has returned (litedigest.signals): the
    driver finishes what it started on the peripheral, so the next call finds it idle."""
    with _lock:
        _active.append(binding)
        del _pending[:]
        try:
            with signals.deferred():
                r = fn(*args)
        finally:
            _active.pop()
        if _pending:
            e = _pending[0]
            del _pending[:]
            try:
                raise e
            finally:
                # no cycle exception -> traceback -> this frame -> e: a cycle the garbage
                # collector breaks later may hold the caller's buffers (a memoryview exported
                # to C by ffi.from_buffer), and clearing those in the wrong order crashed the
                # interpreter when the simulator died under a hash object
                e = None
    return r


@ffi.def_extern()
def ld_py_read32(addr):
    try:
        return _active[-1].read32(int(addr)) & 0xFFFFFFFF
    except BaseException as e:  # exceptions cannot cross C: remember and return 0
        _pending.append(e)
        return 0


@ffi.def_extern()
def ld_py_write32(addr, value):
    try:
        _active[-1].write32(int(addr), int(value))
    except BaseException as e:
        _pending.append(e)


@ffi.def_extern()
def ld_py_dma_write(addr, src, n):
    try:
        _active[-1].dma_write(int(addr), ffi.buffer(src, n)[:])
    except BaseException as e:
        _pending.append(e)


@ffi.def_extern()
def ld_py_dma_sync():
    try:
        _active[-1].dma_sync()
    except BaseException as e:
        _pending.append(e)


@ffi.def_extern()
def ld_py_md_compress(user, alg, first, words, blocks, nblocks):
    """ld_md_compress_fn of MdCtx(hook=...): hook(alg, first, words, blocks) -> new words"""
    try:
        n = lib.ld_md_state_words(alg)
        bs = lib.ld_md_block_size(alg)
        out = ffi.from_handle(user)(
            int(alg), bool(first), list(words[0:n]), ffi.buffer(blocks, nblocks * bs)[:]
        )
        if len(out) != n:
            raise ValueError(f"a compression hook returned {len(out)} words, not {n}")
        words[0:n] = [int(w) & 0xFFFFFFFF for w in out]
        return lib.LD_OK
    except Exception as e:
        _pending.append(e)
        return lib.LD_ERR_HW


@ffi.def_extern()
def ld_py_skein_ubi(user, x, variant, blocks, nblocks, tweaks):
    """ld_skein512_ubi_fn of Skein512Ctx(hook=...): hook(x, variant, blocks, tweaks) -> new x
    (x: 8 ints, variant: -1 or the engine variant to start from, tweaks: (T0, T1) per block)"""
    try:
        tw = [(int(tweaks[2 * i]), int(tweaks[2 * i + 1])) for i in range(nblocks)]
        out = ffi.from_handle(user)(
            list(x[0:8]), int(variant), ffi.buffer(blocks, 64 * nblocks)[:], tw
        )
        x[0:8] = [int(w) for w in out]
        return lib.LD_OK
    except Exception as e:
        _pending.append(e)
        return lib.LD_ERR_HW


# the registers behind ld_hw_dev's address fields (the generated register map names them;
# the C structure says which the driver uses)
# the batch walker's registers: optional (0 in the device when a register map has none: one
# built before the walker)
BATCH_FIELDS = tuple(
    n
    for n, _ in ffi.typeof("ld_hw_dev").fields
    if n.startswith("batch_") and (n in hw_regs.REGISTERS or n in hw_regs.SHA_REGISTERS)
)
DEV_FIELDS = tuple(
    n for n, _ in ffi.typeof("ld_hw_dev").fields if n in hw_regs.REGISTERS and n not in BATCH_FIELDS
)

# the hash families and the MAC engine families (a MAC peripheral's ld_hw_dev.family)
FAMILIES = {
    name: getattr(lib, f"LD_FAMILY_{name.upper()}") for name in (*spec.FAMILIES, *spec.MAC_FAMILIES)
}
SKEIN_FIELDS = tuple(n for n, _ in ffi.typeof("ld_hw_dev").fields if n in hw_regs.SKEIN_REGISTERS)
MAC_FIELDS = tuple(n for n, _ in ffi.typeof("ld_hw_dev").fields if n in hw_regs.MAC_REGISTERS)


def instance_registers(csr_registers, instance, offset=0):
    """{register: address + offset} of peripheral `instance` from a csr.json's
    "csr_registers" (what HwDevice takes); ValueError when a register the driver needs is
    missing."""
    out = {}
    for name in DEV_FIELDS + SKEIN_FIELDS + BATCH_FIELDS + MAC_FIELDS:
        reg = csr_registers.get(f"{instance}_{name}")
        if reg is not None:
            out[name] = reg["addr"] + offset
        elif name in DEV_FIELDS:
            raise ValueError(f"the register map has no {instance}_{name} register")
    return out


# Skein-512 output sizes with a configured IV: ld_skein512_variant gives 1..6 for them
SKEIN_SIZES = spec.SKEIN_SIZES

DMA_ALIGN = 64  # what LD_DMA_ALIGNED gives the C structures (the largest peripheral alignment)


def _family(family):
    return _by_name(FAMILIES, family, "family")


def address(cdata):
    """The address of a cdata pointer/array (what the DMA sees)."""
    return int(ffi.cast("uintptr_t", cdata))


def aligned_new(ctype, n=1, align=DMA_ALIGN):
    """A zeroed `ctype[n]` array (ctype a type name such as "ld_sched_slot") at an
    `align`-byte aligned address; the returned cdata keeps its memory alive and passes as a
    `ctype *`. (ffi.new does not promise the 64-byte alignment the C structures declare.)"""
    size = ffi.sizeof(ctype) * n
    raw = bytearray(size + align)
    off = -address(ffi.from_buffer(raw)) % align
    return ffi.from_buffer(f"{ctype}[]", memoryview(raw)[off : off + size])


class DmaArena:
    """Places data in a caller-owned buffer that the (model) peripheral's DMA may read, at
    aligned addresses: `put(data)` copies bytes and returns a cdata `uint8_t[n]` view at its
    address, `alloc(ctype, n)` reserves zeroed room for C structures (ld_sched_slot[],
    ld_hw_md_ctx). `skew` shifts an allocation off the alignment (to test unaligned data).

    buf: a cdata uint8_t array (the RAM), offset: where the arena starts in it."""

    def __init__(self, buf, offset=0, align=DMA_ALIGN):
        self.buf, self.align = buf, align
        self.base = address(buf)
        self.size = len(buf)
        self.pos = offset

    def _take(self, nbytes, align, skew):
        align = align or self.align
        start = self.pos + (-(self.base + self.pos) % align) + skew
        if start + nbytes > self.size:
            raise MemoryError(f"DmaArena: {nbytes} bytes do not fit (at {start} of {self.size})")
        self.pos = start + nbytes
        return start

    def put(self, data, align=None, skew=0):
        data = bytes(data)
        off = self._take(len(data), align, skew)
        ffi.memmove(self.buf + off, data, len(data))
        return ffi.cast(f"uint8_t(*)[{len(data)}]", self.buf + off)[0]

    def alloc(self, ctype, n=1, align=None, skew=0):
        size = ffi.sizeof(ctype) * n
        off = self._take(size, align, skew)
        ffi.memmove(self.buf + off, bytes(size), size)
        return ffi.cast(f"{ctype} *", self.buf + off)


def _as_cdata(data):
    """bytes-like -> a cdata char buffer (a copy, outside any DMA RAM); cdata as it is."""
    if isinstance(data, ffi.CData):
        return data
    return ffi.from_buffer(bytes(data))


# A hardware context's update() hands the driver at most this many bytes per call: a signal
# (Ctrl-C, SIGTERM) is acted on between two calls (litedigest.signals), so this bounds how long
# an interruption waits (a chunk's jobs on the peripheral, its staging over a bridge).
INTERRUPT_CHUNK = 64 * 1024


def _chunks(data):
    """(cdata pointer, length) pieces of at most INTERRUPT_CHUNK bytes of `data` (bytes-like or
    cdata: the pieces keep its addresses, which the DMA path reads)."""
    data = _as_cdata(data)
    n = len(data)
    if n == 0:
        yield data, 0
    for off in range(0, n, INTERRUPT_CHUNK):
        yield data + off, min(INTERRUPT_CHUNK, n - off)


class Interrupted(ValueError):
    """A hash object whose update() a signal interrupted part way: it no longer knows which
    bytes it has hashed, so it refuses further use rather than give a wrong digest."""


class _HwStream:
    """What the hardware contexts share: update() in chunks, and refusing further use after
    an interrupted update."""

    _interrupted = False

    def _usable(self):
        if self._interrupted:
            raise Interrupted(
                "an update() of this hash object was interrupted part way, so it no longer "
                "knows which bytes it has hashed: start a new one"
            )

    def _update(self, fn, name, data):
        self._usable()
        try:
            for ptr, n in _chunks(data):
                _check(self.hw.call(fn, self._ctx, ptr, n), name)
        except Exception:
            raise
        except BaseException:  # a signal's exception (KeyboardInterrupt, SystemExit, ...)
            self._interrupted = True
            raise


# Skein-512 with a configured output size, as the scheduler's alg (ld_skein.h LD_ALG_SKEIN512)
SKEIN_SCHED_ALGS = {f"skein512-{bits}": lib.LD_ALG_SKEIN512_BASE + bits for bits in SKEIN_SIZES}


def sched_alg(name):
    """The alg id the message scheduler takes: a hashlib name (LD_ALG_*), "skein512-<bits>"
    for a configured Skein-512 size (LD_ALG_SKEIN512(bits)), or an int passed through."""
    if isinstance(name, str) and name in SKEIN_SCHED_ALGS:
        return SKEIN_SCHED_ALGS[name]
    if isinstance(name, int):
        return name
    try:
        return md_alg(name)
    except ValueError:
        raise ValueError(
            f"unknown algorithm {name!r} for the scheduler: one of "
            f"{sorted(MD_ALGS) + sorted(SKEIN_SCHED_ALGS)}"
        ) from None


def _algs(alg, n):
    """scheduler alg ids of n messages from one algorithm or a list of one per message"""
    if isinstance(alg, (list, tuple)):
        if len(alg) != n:
            raise ValueError(f"{len(alg)} algorithms for {n} messages")
        return [sched_alg(a) for a in alg]
    return [sched_alg(alg)] * n


SchedStats = collections.namedtuple(
    "SchedStats", "cycles run_cycles blocks interval period in_flight jobs"
)
ScheduleResult = collections.namedtuple("ScheduleResult", "rc digests results stats")
# blocks: the job's bytes (data blocks then tail blocks) when sched_order was given messages
# out: a Skein job whose last block is the output block the peripheral makes (not in blocks)
SchedJob = collections.namedtuple(
    "SchedJob",
    "slot msg first_block nblocks first last variant skein out t0 t1 final_bytes blocks",
    defaults=(0, False, False, 0, 0, 0, None),
)


class HwDevice:
    """Runs the C driver (ld_hw_*, ld_skein.h, ld_hw_schedule) on one peripheral.

    regs: dict register name -> address (all DEV_FIELDS, plus SKEIN_FIELDS on a Skein
    peripheral; multi-word registers: the address of the most significant word).
    Registers: read32(addr) -> int and write32(addr, value), Python callables (a model, the
    simulator's bridge); or, with `mmio_base`, a memory-mapped window at that CPU address
    (regs are offsets in it) that the C library reads and writes itself (ld_hal_mmio_*: no
    Python call per register).
    family: the engine's family ("sha1", "sha256", "sha512", "skein512" or LD_FAMILY_*);
    ram_base/ram_size: the DMA-able range (host addresses when the 'peripheral' reads host
    memory, as a model does); timeout_polls: the driver's poll bound (0: its default).
    dma_write(addr, data) and stage=(base, size): DMA staging for a host whose memory the DMA
    cannot read (the driver copies each job's blocks to the staging area); dma_sync(): called
    before every DMA job (cache flush); shared: contexts interleave on the peripheral
    (LD_HW_SHARED, needed for copy() and digest()).
    lock: a devlock.DeviceLock that every driver call holds (several processes on one
    peripheral; `owned()` holds it across several calls)."""

    def __init__(
        self,
        regs: dict,
        read32=None,
        write32=None,
        family: str | int = "sha256",
        ram_base: int = 0,
        ram_size: int = 0,
        timeout_polls: int = 0,
        dma_write=None,
        stage: tuple[int, int] | None = None,
        dma_sync=None,
        shared: bool = False,
        mmio_base: int | None = None,
        lock=None,
    ):
        if mmio_base is None and (read32 is None or write32 is None):
            raise ValueError("HwDevice needs read32 and write32, or an mmio_base")
        self._binding = _Binding(read32, write32, dma_write, dma_sync)
        self.lock = lock
        base = mmio_base or 0
        self.dev = ffi.new("ld_hw_dev *")
        for name in DEV_FIELDS:
            setattr(self.dev, name, base + regs[name])
        for name in SKEIN_FIELDS + BATCH_FIELDS + MAC_FIELDS:
            setattr(self.dev, name, base + regs[name] if name in regs else 0)
        if mmio_base is not None:
            self.dev.read32 = ffi.addressof(lib, "ld_hal_mmio_read32")
            self.dev.write32 = ffi.addressof(lib, "ld_hal_mmio_write32")
        else:
            self.dev.read32 = lib.ld_py_read32
            self.dev.write32 = lib.ld_py_write32
        self.dev.dma_sync = lib.ld_py_dma_sync if dma_sync is not None else ffi.NULL
        if dma_write is not None:
            if stage is None:
                raise ValueError("dma_write needs a staging area: stage=(bus address, bytes)")
            self.dev.dma_write = lib.ld_py_dma_write
            self.dev.stage_base, self.dev.stage_size = stage
        self.dev.flags = lib.LD_HW_SHARED if shared else 0
        self.dev.timeout_polls = timeout_polls
        self.dev.ram_base = ram_base
        self.dev.ram_size = ram_size
        self.dev.family = _family(family)

    @property
    def family(self):
        return {v: k for k, v in FAMILIES.items()}[int(self.dev.family)]

    def set_timeout(self, seconds, probe_polls=256):
        """Bound every wait of the driver to about `seconds`: the driver counts status polls
        (timeout_polls), so time `probe_polls` of them through this device's HAL (a C load on
        a mapped window, a round trip over a bridge) and set the bound from that rate.
        Returns the bound."""
        if not seconds > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {seconds!r}")
        saved = self.dev.timeout_polls
        self.dev.timeout_polls = probe_polls
        t0 = time.perf_counter()
        self.call(lib.ld_hw_poll, self.dev, self.dev.info, 0)  # mask 0: polls until the bound
        per_poll = max((time.perf_counter() - t0) / probe_polls, 1e-9)
        self.dev.timeout_polls = saved
        self.dev.timeout_polls = max(1000, min(0xFFFFFFFF, int(seconds / per_poll)))
        return int(self.dev.timeout_polls)

    def call(self, fn, *args):
        """Call a C function of the driver (lib.ld_hw_*) with this device's callbacks bound
        (and its lock held); an exception raised by one of them meanwhile is re-raised after
        it returns."""
        with self.owned():
            return _invoke(self._binding, fn, *args)

    def owned(self):
        """A context in which no other process (or thread) uses the device: its lock, held
        across the calls of a sequence (a key loaded then used, data staged then hashed)."""
        return self.lock if self.lock is not None else contextlib.nullcontext()

    def md(self, alg, data, path=PATH_CSR):
        """ld_hw_md one-shot: the digest of data (bytes, or a cdata uint8_t buffer whose
        address is what the DMA path reads). alg: hashlib name or LD_ALG_* id. Raises
        NativeError on an LD_* error."""
        alg = md_alg(alg)
        out = ffi.new(f"uint8_t[{lib.LD_MD_MAX_DIGEST_SIZE}]")
        data = _as_cdata(data)
        _check(self.call(lib.ld_hw_md, self.dev, alg, path, data, len(data), out), "ld_hw_md")
        return bytes(ffi.buffer(out, lib.ld_md_digest_size(alg)))

    # --- a MAC peripheral (ld_hw_hmac.h): key slots, MACs --------------------------------
    @property
    def mac_key_slots(self):
        """The key slots of a MAC peripheral (0: not one)."""
        return int(lib.ld_hw_mac_key_slots(self.dev))

    def mac_set_key(self, key_slot, key):
        """ld_hw_mac_set_key: load `key` (bytes, any length) into key slot `key_slot`."""
        key = bytes(key)
        _check(
            self.call(lib.ld_hw_mac_set_key, self.dev, key_slot, key, len(key)), "ld_hw_mac_set_key"
        )

    def mac_keys(self):
        """The key slots holding states (a bit mask)."""
        return int(self.call(lib.ld_hw_mac_keys, self.dev))

    def mac_wipe(self):
        """ld_hw_mac_wipe: zero every key slot's states (NativeError LD_ERR_STATE while busy)."""
        _check(self.call(lib.ld_hw_mac_wipe, self.dev), "ld_hw_mac_wipe")

    def mac(self, key_slot, data, path=PATH_CSR):
        """ld_hw_mac one-shot: the MAC of `data` under key slot `key_slot`."""
        size = int(lib.ld_hw_mac_size(self.dev))
        if size == 0:
            raise ValueError("this peripheral is not a MAC peripheral")
        data = _as_cdata(data)
        out = ffi.new(f"uint8_t[{size}]")
        _check(
            self.call(lib.ld_hw_mac, self.dev, key_slot, path, data, len(data), out), "ld_hw_mac"
        )
        return bytes(ffi.buffer(out, size))

    def skein512(self, data, digest_bits=512, key=b"", nbits=None, path=PATH_CSR):
        """ld_hw_skein512 one-shot on a Skein peripheral (see skein512())."""
        data, nbits = _skein_input(data, nbits)
        key = bytes(key)
        out = ffi.new("uint8_t[]", max(1, (digest_bits + 7) // 8))
        _check(
            self.call(
                lib.ld_hw_skein512, self.dev, path, digest_bits, key, len(key), data, nbits, out
            ),
            "ld_hw_skein512",
        )
        return bytes(ffi.buffer(out, (digest_bits + 7) // 8))

    def context(self, alg, path=PATH_CSR, ctx_mem=None):
        """A streaming context (ld_hw_md_init/update/final). ctx_mem: where the ld_hw_md_ctx
        lives (e.g. DmaArena.alloc("ld_hw_md_ctx") so the DMA can read its padded tail);
        default: a 64-byte aligned host allocation."""
        return HwCtx(self, alg, path, ctx_mem)

    def hash_many(self, alg, messages, read_bytes):
        """The digests of `messages` (bytes-like, any lengths) of one algorithm (`sched_alg`:
        a SHA name or "skein512-<bits>") by the peripheral's batch walker
        (ld_hw_batch_desc_set, ld_hw_md_batch_run): messages, descriptors and the output area
        staged in one dma_write per chunk that fits the staging area, one batch per chunk, the
        outputs read back with `read_bytes(addr, n)` in one call. Needs dma_write/stage and a
        peripheral with the walker; NativeError on a refused batch or a timeout."""
        a = sched_alg(alg)

        def describe(d, msg_at, length, out_at, _index):
            _check(
                self.call(lib.ld_hw_batch_desc_set, d, self.dev, a, msg_at, length, out_at),
                "ld_hw_batch_desc_set",
            )

        def run(table_at, n, done):
            _check(
                self.call(lib.ld_hw_md_batch_run, self.dev, table_at, n, done), "ld_hw_md_batch_run"
            )

        size = int(lib.ld_sched_digest_size(a))
        return self._batches("hash_many", a, size, messages, read_bytes, describe, run)

    def mac_many(self, key_slot, messages, read_bytes):
        """The MACs of `messages` under key slot `key_slot` of a MAC peripheral by its batch
        walker (ld_hw_mac_batch_desc_set, ld_hw_mac_batch_run), staged as hash_many stages
        them. `key_slot` may be a sequence, a key slot per message: each descriptor then names
        its own (REGISTERS.md, word 3's own_key), so messages under several keys share a
        batch. NativeError LD_ERR_STATE: the key slot holds no key (LD_ERR_HW: a message's
        own key slot holds none; the batch stops at it)."""
        size = int(lib.ld_hw_mac_size(self.dev))
        if size == 0:
            raise ValueError("this peripheral is not a MAC peripheral")
        own = None if isinstance(key_slot, int) else [int(k) for k in key_slot]
        if own is not None:
            slots = int(lib.ld_hw_mac_key_slots(self.dev))
            if len(own) != len(messages):
                raise ValueError(f"{len(own)} key slots for {len(messages)} messages")
            bad = [k for k in own if not 0 <= k < slots]
            if bad:
                raise ValueError(f"key slot {bad[0]} out of range (0..{slots - 1})")
            batch_key = own[0] if own else 0  # (a valid slot for the run's ctrl write)

        def describe(d, msg_at, length, out_at, index):
            _check(
                self.call(lib.ld_hw_mac_batch_desc_set, d, self.dev, msg_at, length, out_at),
                "ld_hw_mac_batch_desc_set",
            )
            if own is not None:  # word 3 (little-endian, as the peripheral reads it)
                w = ffi.buffer(d)
                flags = int.from_bytes(w[12:16], "little")
                flags |= hw_regs.DESC_OWN_KEY | own[index] << hw_regs.DESC_KEY_SHIFT
                w[12:16] = flags.to_bytes(4, "little")

        def run(table_at, n, done):
            k = key_slot if own is None else batch_key
            _check(
                self.call(lib.ld_hw_mac_batch_run, self.dev, k, table_at, n, done),
                "ld_hw_mac_batch_run",
            )

        return self._batches(
            "mac_many", self.mac_hash_alg, size, messages, read_bytes, describe, run
        )

    @property
    def mac_hash_alg(self):
        """The LD_ALG_* of the hash a MAC peripheral's cores run (its batch descriptors')."""
        mac = spec.mac_of_family(self.family)
        if mac is None:
            raise ValueError("this peripheral is not a MAC peripheral")
        return md_alg(mac.hash_family)

    def batch_fits(self, alg, nbytes):
        """Whether a message of `nbytes` fits one batch of hash_many (its descriptor, output
        and data in the staging area); a larger one goes through a streaming context."""
        if not self.dev.batch_base or not self.dev.stage_size:
            return False
        a = sched_alg(alg)
        up = lambda n, k: -(-n // k) * k
        align = self.info()["dma_align"]
        need = ffi.sizeof("ld_hw_batch_desc") + int(lib.ld_hw_batch_stride(a)) + up(nbytes, align)
        return need + 2 * align <= int(self.dev.stage_size)

    def _batches(self, what, a, size, messages, read_bytes, describe, run):
        """hash_many's and mac_many's staging: as many messages as fit the staging area a
        batch, `describe(desc, msg_at, length, out_at, index)` filling message `index`'s
        descriptor and `run(table_at,
        n, done)` running the batch (each a checked driver call); `size` bytes of each output
        read back."""
        if not self.dev.batch_base:
            raise ValueError("this peripheral has no batch walker")
        if not self._binding.dma_write or not self.dev.stage_size:
            raise ValueError(f"{what} needs a staging area (dma_write, stage)")
        stride = int(lib.ld_hw_batch_stride(a))
        align = self.info()["dma_align"]
        base, room = int(self.dev.stage_base), int(self.dev.stage_size)
        msgs = [bytes(m) for m in messages]  # (bytes already: no copy)
        with self.owned():  # the staging area is the device's
            return self._staged(msgs, read_bytes, stride, size, align, base, room, describe, run)

    def _staged(self, msgs, read_bytes, stride, size, align, base, room, describe, run):
        up = lambda n, k: -(-n // k) * k
        desc = ffi.sizeof("ld_hw_batch_desc")
        out, i = [], 0
        while i < len(msgs):
            # as many messages as fit: table (a descriptor
            # each), outputs (stride each), the messages
            n, used = 0, 0
            while i + n < len(msgs):
                need = desc + stride + up(len(msgs[i + n]), align)
                if used + need + 2 * align > room:
                    break
                n, used = n + 1, used + need
            if n == 0:
                raise ValueError(
                    f"a message of {len(msgs[i])} bytes does not fit the staging area "
                    f"({room} bytes)"
                )
            chunk = msgs[i : i + n]
            table_at = base
            outs_at = up(table_at + desc * n, align)
            addr = up(outs_at + stride * n, align)
            image = bytearray(addr - base)
            table = ffi.new(f"ld_hw_batch_desc[{n}]")
            for k, m in enumerate(chunk):
                describe(table + k, addr, len(m), outs_at + k * stride, i + k)
                image += m + bytes(up(len(m), align) - len(m))
                addr += up(len(m), align)
            image[0 : desc * n] = ffi.buffer(table)[:]
            self._binding.dma_write(base, bytes(image))
            if self._binding.dma_sync:
                self._binding.dma_sync()
            run(table_at, n, ffi.new("size_t *"))
            raw = read_bytes(outs_at, stride * n)
            out += [bytes(raw[k * stride : k * stride + size]) for k in range(n)]
            i += n
        return out

    def skein_context(self, digest_bits=512, key=b"", path=PATH_CSR):
        """A Skein-512 streaming context on this (Skein) peripheral (ld_hw_skein512_init)."""
        return HwSkeinCtx(self, digest_bits, key, path)

    def cycles(self):
        """ld_hw_cycles: the peripheral's 64-bit cycle counter (latched now)."""
        out = ffi.new("uint64_t *")
        _check(self.call(lib.ld_hw_cycles, self.dev, out), "ld_hw_cycles")
        return int(out[0])

    def info(self):
        """ld_hw_get_info as a dict: latency, stages, slots, arch, dma_align, in_flight,
        period, interval."""
        info = ffi.new("ld_hw_info *")
        _check(self.call(lib.ld_hw_get_info, self.dev, info), "ld_hw_get_info")
        return {
            k: int(getattr(info, k))
            for k in (
                "latency",
                "stages",
                "slots",
                "arch",
                "dma_align",
                "in_flight",
                "period",
                "interval",
            )
        }

    def schedule(self, messages, alg, path=PATH_CSR, nslots=None, arena=None, slots=None):
        """ld_hw_schedule: hash all messages on the peripheral with up to nslots slots
        (default: the engine's).

        messages: bytes-like (copied into `arena` when one is given, else passed from host
        memory, which the DMA path refuses with LD_ERR_RANGE) or cdata buffers (used at their
        address, e.g. from DmaArena.put). alg: one algorithm (sched_alg: hashlib name,
        "skein512-<bits>" or an id) for all, or a list with one per message.
        slots: a cdata `ld_sched_slot *` of at least nslots entries (their padded tails are
        read by the DMA, so they must be in RAM on that path); default: allocated in `arena`
        when given, else on the host.
        Returns ScheduleResult(rc, digests, results, stats): rc the C return code, digests[i]
        bytes or None where results[i] (an LD_* code) is not LD_OK, stats a SchedStats."""
        n = len(messages)
        algs = _algs(alg, n)
        if nslots is None:
            nslots = self.info()["slots"]
        keep = []
        msgs = ffi.new("ld_sched_msg[]", max(n, 1))
        outs = ffi.new("uint8_t[]", max(n, 1) * lib.LD_MD_MAX_DIGEST_SIZE)
        for i, (m, a) in enumerate(zip(messages, algs)):
            if arena is not None and not isinstance(m, ffi.CData):
                m = arena.put(m) if len(m) else ffi.NULL
            elif not isinstance(m, ffi.CData):
                m = _as_cdata(m) if len(m) else ffi.NULL
            keep.append(m)
            msgs[i].data = m
            msgs[i].len = 0 if m == ffi.NULL else len(m)
            msgs[i].alg = a
            msgs[i].out = outs + i * lib.LD_MD_MAX_DIGEST_SIZE
        if slots is None:
            if arena is not None:
                slots = arena.alloc("ld_sched_slot", max(nslots, 1))
            else:
                slots = aligned_new("ld_sched_slot", max(nslots, 1))
        st = ffi.new("ld_sched_stats *")
        rc = self.call(lib.ld_hw_schedule, self.dev, path, msgs, n, slots, nslots, st)
        results = [int(msgs[i].result) for i in range(n)]
        digests = [
            bytes(ffi.buffer(msgs[i].out, lib.ld_sched_digest_size(algs[i])))
            if results[i] == lib.LD_OK
            else None
            for i in range(n)
        ]
        return ScheduleResult(
            rc,
            digests,
            results,
            SchedStats(
                int(st.cycles),
                int(st.run_cycles),
                int(st.blocks),
                int(st.interval),
                int(st.period),
                int(st.in_flight),
                int(st.jobs),
            ),
        )


class HwCtx(_HwStream):
    """ld_hw_md_init/update/final/copy as an object. copy() and digest() (which finalises a
    copy) need a shared device (HwDevice(shared=True))."""

    def __init__(self, hw, alg, path=PATH_CSR, ctx_mem=None, _from=None):
        self.hw, self.alg, self.path = hw, md_alg(alg), path
        # the default memory is owned by the array itself: keep that cdata, not a cast of it
        self._ctx = (
            aligned_new("ld_hw_md_ctx") if ctx_mem is None else ffi.cast("ld_hw_md_ctx *", ctx_mem)
        )
        if _from is not None:
            _check(lib.ld_hw_md_copy(self._ctx, _from), "ld_hw_md_copy")
        else:
            _check(hw.call(lib.ld_hw_md_init, self._ctx, hw.dev, self.alg, path), "ld_hw_md_init")

    @property
    def digest_size(self):
        return lib.ld_md_digest_size(self.alg)

    def update(self, data):
        self._update(lib.ld_hw_md_update, "ld_hw_md_update", data)
        return self

    def copy(self):
        self._usable()
        return HwCtx(self.hw, self.alg, self.path, _from=self._ctx)

    def final(self):
        self._usable()
        out = ffi.new(f"uint8_t[{lib.LD_MD_MAX_DIGEST_SIZE}]")
        _check(self.hw.call(lib.ld_hw_md_final, self._ctx, out), "ld_hw_md_final")
        return bytes(ffi.buffer(out, self.digest_size))

    def digest(self):
        return self.copy().final()


class HwSkeinCtx(_HwStream):
    """ld_hw_skein512_init/update/update_bits/final/copy on a Skein peripheral (copy() and
    digest() need a shared device)."""

    def __init__(self, hw, digest_bits=512, key=b"", path=PATH_CSR, _from=None):
        self.hw, self.path = hw, path
        self._ctx = aligned_new("ld_skein512_ctx")
        if _from is not None:
            _check(lib.ld_skein512_copy(self._ctx, _from), "ld_skein512_copy")
        else:
            _skein_out_bits(digest_bits)
            key = bytes(key)
            _check(
                hw.call(
                    lib.ld_hw_skein512_init, self._ctx, hw.dev, path, digest_bits, key, len(key)
                ),
                "ld_hw_skein512_init",
            )
        self.digest_size = int(lib.ld_skein512_digest_size(self._ctx))

    def update(self, data):
        self._update(lib.ld_skein512_update, "ld_skein512_update", data)

    def update_bits(self, data, nbits):
        self._usable()
        data, nbits = _skein_input(data, nbits)
        _check(
            self.hw.call(lib.ld_skein512_update_bits, self._ctx, data, nbits),
            "ld_skein512_update_bits",
        )

    def copy(self):
        self._usable()
        return HwSkeinCtx(self.hw, path=self.path, _from=self._ctx)

    def final(self):
        self._usable()
        out = ffi.new("uint8_t[]", max(1, self.digest_size))
        _check(self.hw.call(lib.ld_skein512_final, self._ctx, out), "ld_skein512_final")
        return bytes(ffi.buffer(out, self.digest_size))

    def digest(self):
        return self.copy().final()


def sched_job(job, blocks=None):
    """The SchedJob of an ld_sched_job that ld_sched_next issued (`blocks`: its bytes, when
    the caller read them)."""
    return SchedJob(
        int(job.slot),
        int(job.msg),
        int(job.first_block),
        int(job.nblocks),
        bool(job.first),
        bool(job.last),
        int(job.variant),
        bool(job.skein),
        bool(job.out),
        int(job.t0),
        int(job.t1),
        int(job.final_bytes),
        blocks,
    )


def sched_order(lengths, alg="sha256", nslots=1, whole_message_jobs=False, messages=None):
    """The scheduler's pure policy (ld_sched_init/next/complete) for messages of `lengths`
    bytes, with an executor that completes jobs in issue order (a pipeline: FIFO; a slot has
    at most one job outstanding, so per slot too) and issues every job it can before waiting
    for the next completion. alg: one algorithm (sched_alg: hashlib name, "skein512-<bits>"
    or an id) or a list with one per message. messages: the messages themselves (then
    lengths is ignored) to get each job's bytes in SchedJob.blocks.
    Returns the jobs in issue order as SchedJob(slot, msg, first_block, nblocks, first, last,
    variant, skein, out, t0, t1, final_bytes, blocks); block i < the message's own blocks is its
    data, the rest come from the slot's pad. Raises NativeError(LD_ERR_ARG) for bad arguments
    (nslots 0, unknown alg)."""
    if messages is not None:
        messages = [bytes(m) for m in messages]
        lengths = [len(m) for m in messages]
    lengths = list(lengths)
    n = len(lengths)
    algs = _algs(alg, n)
    if messages is not None:
        data = [ffi.from_buffer(m + b"\0") for m in messages]
    else:  # the policy reads no data, but the jobs point into it: contents do not matter
        data = [ffi.new("uint8_t[]", max(lengths, default=0) + 1)] * n
    outs = ffi.new("uint8_t[]", max(n, 1) * lib.LD_MD_MAX_DIGEST_SIZE)
    msgs = ffi.new("ld_sched_msg[]", max(n, 1))
    for i, (ln, a) in enumerate(zip(lengths, algs)):
        msgs[i].data, msgs[i].len, msgs[i].alg = data[i], ln, a
        msgs[i].out = outs + i * lib.LD_MD_MAX_DIGEST_SIZE
    slots = aligned_new("ld_sched_slot", max(nslots, 1))
    s = ffi.new("ld_sched *")
    job = ffi.new("ld_sched_job *")
    _check(
        lib.ld_sched_init(s, msgs, n, slots, nslots, 1 if whole_message_jobs else 0),
        "ld_sched_init",
    )
    bad = [i for i in range(n) if msgs[i].result == lib.LD_ERR_ARG]
    if bad:
        raise NativeError(lib.LD_ERR_ARG, f"ld_sched_init: message {bad[0]}")
    order, fifo = [], collections.deque()
    while True:
        r = lib.ld_sched_next(s, job)
        if r == 1:
            blocks = None
            if messages is not None:
                bs = int(job.block_size)
                blocks = bytes(ffi.buffer(job.data, int(job.data_blocks) * bs)) + (
                    bytes(ffi.buffer(job.tail, int(job.tail_blocks) * bs))
                    if job.tail_blocks
                    else b""
                )
            order.append(sched_job(job, blocks))
            fifo.append(int(job.slot))
            continue
        if r < 0:
            break
        if not fifo:
            raise RuntimeError("ld_sched_next waits with no job outstanding")
        lib.ld_sched_complete(s, fifo.popleft(), lib.LD_OK)
    return order


def ctrl_bits():
    """The ctrl/status bit masks the driver was compiled with (LD_CTRL_*, LD_STATUS_*)."""
    return {n: getattr(lib, n) for n in dir(lib) if n.startswith(("LD_CTRL_", "LD_STATUS_"))}


def words_to_bytes(words):
    return struct.pack(f">{len(words)}I", *words)


# --- Skein-512 (ld_skein.h) -------------------------------------------------------------------


def _skein_input(data, nbits):
    """(cdata-or-bytes, bits): nbits defaults to 8 * len(data) and may not exceed it."""
    if not isinstance(data, ffi.CData):
        data = bytes(data)
        size = len(data)
    else:
        size = ffi.sizeof(data)
    if nbits is None:
        nbits = 8 * size
    if not 0 <= nbits <= 8 * size:
        raise ValueError(f"nbits must be 0..{8 * size} for {size} bytes of data, got {nbits}")
    return data, nbits


def _skein_out_bits(digest_bits):
    if not isinstance(digest_bits, int) or not 1 <= digest_bits <= lib.LD_SKEIN512_MAX_OUT_BITS:
        raise ValueError(
            f"digest_bits must be 1..{lib.LD_SKEIN512_MAX_OUT_BITS}, got {digest_bits!r}"
        )
    return digest_bits


def skein512(data, digest_bits=512, key=b"", nbits=None):
    """The C library's one-shot ld_skein512: Skein-512 with `digest_bits` output bits of the
    first `nbits` bits of data (default all; most significant bit of a byte first), MAC when
    `key` is non-empty."""
    _skein_out_bits(digest_bits)
    data, nbits = _skein_input(data, nbits)
    key = bytes(key)
    out = ffi.new("uint8_t[]", (digest_bits + 7) // 8)
    _check(lib.ld_skein512(digest_bits, key, len(key), data, nbits, out), "ld_skein512")
    return bytes(ffi.buffer(out))


class Skein512Ctx:
    """ld_skein512_init/update/update_bits/final/copy (software), or around a block hook
    (ld_skein512_init_hook: hook(x, variant, blocks, tweaks) -> x, e.g. an engine in a
    simulator, under the C library's UBI sequence and tweaks)."""

    def __init__(self, digest_bits=512, key=b"", hook=None, _from=None):
        self._ctx = ffi.new("ld_skein512_ctx *")
        if _from is not None:
            self._hook = _from._hook
            _check(lib.ld_skein512_copy(self._ctx, _from._ctx), "ld_skein512_copy")
        else:
            _skein_out_bits(digest_bits)
            key = bytes(key)
            self._hook = None
            if hook is None:
                _check(
                    lib.ld_skein512_init(self._ctx, digest_bits, key, len(key)), "ld_skein512_init"
                )
            else:
                self._hook = ffi.new_handle(hook)
                _check(
                    _invoke(
                        _NO_BINDING,
                        lib.ld_skein512_init_hook,
                        self._ctx,
                        lib.ld_py_skein_ubi,
                        self._hook,
                        digest_bits,
                        key,
                        len(key),
                    ),
                    "ld_skein512_init_hook",
                )
        self.digest_size = int(lib.ld_skein512_digest_size(self._ctx))

    def update(self, data):
        data = _as_cdata(data)
        _check(
            _invoke(_NO_BINDING, lib.ld_skein512_update, self._ctx, data, len(data)),
            "ld_skein512_update",
        )

    def update_bits(self, data, nbits):
        data, nbits = _skein_input(data, nbits)
        _check(
            _invoke(_NO_BINDING, lib.ld_skein512_update_bits, self._ctx, data, nbits),
            "ld_skein512_update_bits",
        )

    def copy(self):
        return Skein512Ctx(_from=self)

    def final(self):
        out = ffi.new("uint8_t[]", max(1, self.digest_size))
        _check(_invoke(_NO_BINDING, lib.ld_skein512_final, self._ctx, out), "ld_skein512_final")
        return bytes(ffi.buffer(out, self.digest_size))

    def digest(self):
        return self.copy().final()


def skein512_ubi(start, blocks, t0, t1, final_bytes):
    """One UBI job in software, the rule the peripheral applies (ld_skein512_ubi): from
    chaining value `start` (64 bytes) or an engine variant number (0 zero, 1.. a configured
    IV, see ld_skein512_variant); returns the new chaining value (64 bytes)."""
    blocks = bytes(blocks)
    if not blocks or len(blocks) % 64:
        raise ValueError(f"blocks must be a non-zero multiple of 64 bytes, got {len(blocks)}")
    if not 0 <= final_bytes <= 64:
        raise ValueError(f"final_bytes must be 0..64, got {final_bytes}")
    x = ffi.new("uint64_t[8]")
    if isinstance(start, int):
        if start:
            sizes = {lib.ld_skein512_variant(n): n for n in SKEIN_SIZES}
            if start not in sizes:
                raise ValueError(f"unknown Skein variant {start}")
            _check(lib.ld_skein512_iv(sizes[start], x), "ld_skein512_iv")
    else:
        start = bytes(start)
        if len(start) != 64:
            raise ValueError("a Skein-512 chaining value is 64 bytes")
        x[0:8] = list(struct.unpack("<8Q", start))
    lib.ld_skein512_ubi(x, blocks, len(blocks) // 64, t0, t1, final_bytes)
    return struct.pack("<8Q", *x)


def skein512_block_tweaks(t0, t1, nblocks, final_bytes):
    """The (T0, T1) of each block of a UBI job started with tweak (t0 = bytes before the job,
    t1) -- ld_skein512_block_tweak, the peripheral's rule -- for driving an engine directly."""
    tw = ffi.new("uint64_t[2]")
    out = []
    for b in range(nblocks):
        lib.ld_skein512_block_tweak(t0, t1, b, nblocks, final_bytes, tw)
        out.append((int(tw[0]), int(tw[1])))
    return out


def skein512_t1(ubi_type, first=False, final=False, bitpad=False):
    """T1 of a UBI's start tweak (ld_skein.h: LD_SKEIN_T1_*)."""
    return (
        (ubi_type << 56)
        | (lib.LD_SKEIN_T1_FIRST if first else 0)
        | (lib.LD_SKEIN_T1_FINAL if final else 0)
        | (lib.LD_SKEIN_T1_BITPAD if bitpad else 0)
    )
