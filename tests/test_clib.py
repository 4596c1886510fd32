"""The portable C library (software/firmware/lib): host build + host C tests, cross compile
for RV32IM, and the cffi build (litedigest._native) against NIST CAVP vectors, hashlib, and
a Python model of the hash peripheral of soc/REGISTERS.md (driver on the CSR and DMA paths)."""
import hashlib
import os
import random
import shutil
import struct
import subprocess

import pytest

from vectors import load_cavp, load_monte, monte_check

from litedigest import native
from litedigest._native import ffi, lib
from litedigest.hashobj import md_pad as py_md_pad

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FW = os.path.join(ROOT, "software", "firmware")
LIB_SRCS = ["common.c", "pad.c", "md_sw.c", "sha1_sw.c", "sha256_sw.c", "sha512_sw.c", "md_hw.c", "sched.c"]


# ------------------------------------------------------------------ C builds

def test_host_c_tests(tmp_path):
    r = subprocess.run(["make", "-C", FW, f"O={tmp_path}", "test"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert " 0 failures" in r.stdout


@pytest.mark.parametrize("cc", [["gcc"], ["riscv64-unknown-elf-gcc", "-march=rv32im", "-mabi=ilp32"]],
                         ids=["host", "rv32im"])
def test_library_compiles_warning_free(cc, tmp_path):
    if shutil.which(cc[0]) is None:
        pytest.skip(f"{cc[0]} not installed")
    for src in LIB_SRCS:
        r = subprocess.run(cc + ["-O2", "-std=c99", "-Wall", "-Wextra", "-I", os.path.join(FW, "lib", "include"),
                                 "-c", os.path.join(FW, "lib", "src", src), "-o", str(tmp_path / (src + ".o"))],
                           capture_output=True, text=True)
        assert r.returncode == 0 and r.stderr == "", (src, r.stderr)


def test_rv32_compress_fits_icache(tmp_path):
    """The sw baseline must stay small next to a 4 KiB I-cache (8-round unroll, not 64)."""
    if shutil.which("riscv64-unknown-elf-gcc") is None:
        pytest.skip("riscv64-unknown-elf-gcc not installed")
    obj = tmp_path / "sw.o"
    subprocess.run(["riscv64-unknown-elf-gcc", "-march=rv32im", "-mabi=ilp32", "-O2", "-std=c99",
                    "-I", os.path.join(FW, "lib", "include"), "-c",
                    os.path.join(FW, "lib", "src", "sha256_sw.c"), "-o", str(obj)], check=True)
    nm = subprocess.run(["riscv64-unknown-elf-nm", "-S", str(obj)], capture_output=True, text=True, check=True)
    sizes = {l.split()[3]: int(l.split()[1], 16) for l in nm.stdout.splitlines() if len(l.split()) == 4}
    assert sizes["ld_sha256_compress"] < 3072, sizes


# ------------------------------------------------------------------ sw SHA-256 via cffi

@pytest.mark.parametrize("name", ["SHA256ShortMsg", "SHA256LongMsg", "SHA224ShortMsg", "SHA224LongMsg"])
def test_cavp_oneshot_and_streaming(name):
    variant = name[:6].lower()
    rng = random.Random(name)
    for msg, md in load_cavp(name):
        assert native.sha256(msg, variant) == md
        ctx = native.Sha256Ctx(variant)
        pos = 0
        while pos < len(msg):
            step = rng.randint(0, 150)
            ctx.update(msg[pos:pos + step])
            pos += step
        assert ctx.final() == md


@pytest.mark.parametrize("name", ["SHA256Monte", "SHA224Monte"])
def test_cavp_monte_first_checkpoints(name):
    seed, mds = load_monte(name)
    variant = name[:6].lower()
    assert monte_check(lambda m: native.sha256(m, variant), seed, mds, iterations=5) == 5


def test_compress_matches_hashlib_blocks():
    rng = random.Random(1)
    for nblocks in (1, 2, 7, 256):
        data = rng.randbytes(64 * nblocks)
        st = native.compress(native.iv("sha256"), data + py_md_pad(b"", len(data), 64))
        assert struct.pack(">8I", *st) == hashlib.sha256(data).digest()


def test_md_pad_c_equals_python():
    rng = random.Random(2)
    for bs in (64, 128):
        for tail_len in range(bs):
            tail = rng.randbytes(tail_len)
            total = rng.randrange(0, 1 << 40) * bs + tail_len
            assert native.md_pad(tail, total, bs) == py_md_pad(tail, total, bs)
    p = native.md_pad(b"x" * 55, 55)
    assert len(p) == 64 and p[55] == 0x80
    assert len(native.md_pad(b"x" * 56, 56)) == 128
    with pytest.raises(ValueError):
        native.md_pad(b"x" * 64, 64)
    with pytest.raises(ValueError):
        native.md_pad(b"", 0, 32)


def test_call_order_errors():
    ctx = native.Sha256Ctx()
    ctx.update(b"abc")
    assert ctx.final() == hashlib.sha256(b"abc").digest()
    with pytest.raises(native.NativeError) as e:
        ctx.final()
    assert e.value.code == lib.LD_ERR_STATE
    with pytest.raises(native.NativeError) as e:
        ctx.update(b"more")
    assert e.value.code == lib.LD_ERR_STATE
    with pytest.raises(native.NativeError) as e:
        native.Sha256Ctx(7)
    assert e.value.code == lib.LD_ERR_ARG
    raw = ffi.new("ld_sha256_ctx *")  # never initialised
    assert lib.ld_sha256_update(raw, b"a", 1) == lib.LD_ERR_STATE
    assert lib.ld_sha256_update(ffi.NULL, b"a", 1) == lib.LD_ERR_ARG
    assert native.strerror(lib.LD_ERR_RANGE) == "DMA address/length not usable"
    assert (lib.LD_OK, lib.LD_ERR_ARG, lib.LD_ERR_STATE, lib.LD_ERR_TIMEOUT, lib.LD_ERR_HW,
            lib.LD_ERR_RANGE) == (0, -1, -2, -3, -4, -5)


# ------------------------------------------------------------------ ld_md: every algorithm

MD_NAMES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]


def _stream(name, msg, rng, maxstep):
    """The digest of msg through MdCtx, fed in random chunk sizes (0 included)."""
    ctx = native.MdCtx(name)
    pos = 0
    while pos < len(msg):
        step = rng.randint(0, maxstep)
        ctx.update(msg[pos:pos + step])
        pos += step
    return ctx.final()


@pytest.mark.parametrize("name", MD_NAMES)
@pytest.mark.parametrize("kind", ["ShortMsg", "LongMsg"])
def test_md_cavp_oneshot_and_streaming(name, kind):
    vectors = load_cavp(name.upper() + kind)  # SHA1ShortMsg, ..., SHA512_224LongMsg
    rng = random.Random(name + kind)
    bs = hashlib.new(name).block_size
    for msg, md in vectors:
        assert native.md(name, msg) == md
        assert _stream(name, msg, rng, 2 * bs + 10) == md
    assert len(vectors) >= 64


@pytest.mark.parametrize("name", MD_NAMES)
def test_md_cavp_monte_first_checkpoints(name):
    seed, mds = load_monte(name.upper() + "Monte")
    assert monte_check(lambda m: native.md(name, m), seed, mds, iterations=3) == 3


@pytest.mark.parametrize("name", MD_NAMES)
def test_md_vs_hashlib(name):
    rng = random.Random(name)
    bs = hashlib.new(name).block_size
    # every length across the one/two padding-block boundaries of the first blocks, then random
    lengths = list(range(0, 3 * bs + 2)) + [rng.randrange(3 * bs, 20000) for _ in range(40)]
    for n in lengths:
        msg = rng.randbytes(n)
        want = hashlib.new(name, msg).digest()
        assert native.md(name, msg) == want, n
        assert _stream(name, msg, rng, 3 * bs) == want, n


@pytest.mark.parametrize("name", MD_NAMES)
def test_md_ctx_copy_and_digest_semantics(name):
    rng = random.Random(name + "copy")
    a, h = native.MdCtx(name), hashlib.new(name)
    for _ in range(20):
        chunk = rng.randbytes(rng.randint(0, 300))
        a.update(chunk)
        h.update(chunk)
        b, hb = a.copy(), h.copy()
        tail = rng.randbytes(rng.randint(0, 200))
        b.update(tail)          # the copy diverges; the original is unaffected
        hb.update(tail)
        assert b.digest() == hb.digest()
        assert a.digest() == h.digest()  # digest() leaves the context usable
    assert a.name == h.name and a.digest_size == h.digest_size and a.block_size == h.block_size
    assert a.hexdigest() == h.hexdigest()
    assert a.final() == h.digest()
    # a finished context copies into a finished one
    c = a.copy()
    for ctx in (a, c):
        for op in (ctx.final, lambda: ctx.update(b"x")):
            with pytest.raises(native.NativeError) as e:
                op()
            assert e.value.code == lib.LD_ERR_STATE


def test_md_table():
    want_variant = {"sha1": 0, "sha256": lib.LD_SHA256, "sha224": lib.LD_SHA224,
                    "sha512": lib.LD_SHA512, "sha384": lib.LD_SHA384,
                    "sha512_224": lib.LD_SHA512_224, "sha512_256": lib.LD_SHA512_256}
    assert (lib.LD_SHA256, lib.LD_SHA224) == (0, 1)
    assert (lib.LD_SHA512, lib.LD_SHA384, lib.LD_SHA512_224, lib.LD_SHA512_256) == (0, 1, 2, 3)
    assert want_variant["sha512_224"] == native.SHA512_VARIANTS["sha512_224"]
    assert sorted(native.MD_ALGS) == sorted(MD_NAMES) and lib.LD_ALG_COUNT == 7
    ids = {"sha1": lib.LD_ALG_SHA1, "sha256": lib.LD_ALG_SHA256, "sha224": lib.LD_ALG_SHA224,
           "sha512": lib.LD_ALG_SHA512, "sha384": lib.LD_ALG_SHA384,
           "sha512_224": lib.LD_ALG_SHA512_224, "sha512_256": lib.LD_ALG_SHA512_256}
    assert native.MD_ALGS == ids
    for name, alg in ids.items():
        h = hashlib.new(name)
        family = {"sha1": lib.LD_FAMILY_SHA1, "sha256": lib.LD_FAMILY_SHA256,
                  "sha224": lib.LD_FAMILY_SHA256}.get(name, lib.LD_FAMILY_SHA512)
        assert ffi.string(lib.ld_md_name(alg)).decode() == name
        assert lib.ld_md_block_size(alg) == h.block_size
        assert lib.ld_md_digest_size(alg) == h.digest_size
        assert lib.ld_md_family(alg) == family
        assert lib.ld_md_variant(alg) == want_variant[name]
        assert lib.ld_md_state_words(alg) == {lib.LD_FAMILY_SHA1: 5, lib.LD_FAMILY_SHA256: 8,
                                              lib.LD_FAMILY_SHA512: 16}[family]
        assert lib.ld_md_block_size(alg) <= lib.LD_MD_MAX_BLOCK_SIZE
        assert lib.ld_md_digest_size(alg) <= lib.LD_MD_MAX_DIGEST_SIZE
        assert lib.ld_md_state_words(alg) <= lib.LD_MD_MAX_STATE_WORDS
        # the IV as big-endian 32-bit words, 64-bit words as (high, low)
        if family == lib.LD_FAMILY_SHA1:
            iv = native.sha1_iv()
        elif family == lib.LD_FAMILY_SHA256:
            iv = native.iv(name)
        else:
            iv = [w for q in native.sha512_iv(name) for w in (q >> 32, q & 0xFFFFFFFF)]
        assert native.md_iv_words(name) == iv
    assert native.md_iv_words("sha1") == [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
    assert native.md_iv_words("sha512_224")[:2] == [0x8C3D37C8, 0x19544DA2]
    for bad in (-1, lib.LD_ALG_COUNT, 1000):
        assert lib.ld_md_block_size(bad) == 0 and lib.ld_md_digest_size(bad) == 0
        assert lib.ld_md_state_words(bad) == 0
        assert lib.ld_md_family(bad) == -1 and lib.ld_md_variant(bad) == -1
        assert lib.ld_md_name(bad) == ffi.NULL
        assert lib.ld_md_iv_words(bad, ffi.new("uint32_t[16]")) == lib.LD_ERR_ARG
    assert lib.ld_md_iv_words(lib.LD_ALG_SHA1, ffi.NULL) == lib.LD_ERR_ARG
    # ld_md_iv_words writes exactly state_words words
    words = ffi.new("uint32_t[16]", [0xA5A5A5A5] * 16)
    assert lib.ld_md_iv_words(lib.LD_ALG_SHA1, words) == lib.LD_OK
    assert list(words)[5:] == [0xA5A5A5A5] * 11


def test_md_errors():
    out = ffi.new("uint8_t[64]")
    ctx = ffi.new("ld_md_ctx *")
    # NULL context, unknown algorithm
    assert lib.ld_md_init(ffi.NULL, lib.LD_ALG_SHA256) == lib.LD_ERR_ARG
    for bad in (-1, lib.LD_ALG_COUNT):
        assert lib.ld_md_init(ctx, bad) == lib.LD_ERR_ARG
        assert lib.ld_md(bad, b"abc", 3, out) == lib.LD_ERR_ARG
    assert lib.ld_md_update(ffi.NULL, b"a", 1) == lib.LD_ERR_ARG
    assert lib.ld_md_final(ffi.NULL, out) == lib.LD_ERR_ARG
    assert lib.ld_md_copy(ffi.NULL, ctx) == lib.LD_ERR_ARG
    assert lib.ld_md_copy(ctx, ffi.NULL) == lib.LD_ERR_ARG
    assert lib.ld_md_ctx_alg(ffi.NULL) == -1
    with pytest.raises(ValueError):
        native.MdCtx("md5")
    with pytest.raises(native.NativeError) as e:
        native.MdCtx(lib.LD_ALG_COUNT)
    assert e.value.code == lib.LD_ERR_ARG
    # uninitialised: zeroed, and garbage that carries no magic
    for fill in (0x00, 0x5A):
        raw = ffi.new("ld_md_ctx *")
        ffi.memmove(raw, bytes([fill]) * ffi.sizeof("ld_md_ctx"), ffi.sizeof("ld_md_ctx"))
        assert lib.ld_md_ctx_alg(raw) == -1
        assert lib.ld_md_update(raw, b"a", 1) == lib.LD_ERR_STATE
        assert lib.ld_md_final(raw, out) == lib.LD_ERR_STATE
        assert lib.ld_md_copy(ctx, raw) == lib.LD_ERR_STATE
        assert lib.ld_sha256_update(raw, b"a", 1) == lib.LD_ERR_STATE
        assert lib.ld_sha256_final(raw, out) == lib.LD_ERR_STATE
    # a context with the magic but inconsistent fields is refused too
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA256) == lib.LD_OK
    ctx.alg = 99
    assert lib.ld_md_update(ctx, b"a", 1) == lib.LD_ERR_STATE
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA256) == lib.LD_OK
    ctx.buflen = 64
    assert lib.ld_md_final(ctx, out) == lib.LD_ERR_STATE
    # arguments and call order
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA384) == lib.LD_OK
    assert lib.ld_md_ctx_alg(ctx) == lib.LD_ALG_SHA384
    assert lib.ld_md_update(ctx, ffi.NULL, 5) == lib.LD_ERR_ARG
    assert lib.ld_md_update(ctx, ffi.NULL, 0) == lib.LD_OK
    assert lib.ld_md_final(ctx, ffi.NULL) == lib.LD_ERR_ARG
    assert lib.ld_md_final(ctx, out) == lib.LD_OK
    assert bytes(out)[:48] == hashlib.sha384(b"").digest()
    assert lib.ld_md_final(ctx, out) == lib.LD_ERR_STATE          # final twice
    assert lib.ld_md_update(ctx, b"x", 1) == lib.LD_ERR_STATE     # update after final
    assert lib.ld_md_ctx_alg(ctx) == lib.LD_ALG_SHA384            # still initialised
    assert lib.ld_md_copy(ctx, ctx) == lib.LD_OK                  # copy onto itself
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA1) == lib.LD_OK      # re-init after final
    assert lib.ld_md_final(ctx, out) == lib.LD_OK
    assert bytes(out)[:20] == hashlib.sha1(b"").digest()
    # final writes exactly digest_size bytes
    for name, alg in native.MD_ALGS.items():
        buf = ffi.new("uint8_t[80]", [0xEE] * 80)
        assert lib.ld_md(alg, b"abc", 3, buf) == lib.LD_OK
        n = lib.ld_md_digest_size(alg)
        assert bytes(buf)[:n] == hashlib.new(name, b"abc").digest()
        assert bytes(buf)[n:] == b"\xee" * (80 - n)
    assert lib.ld_md(lib.LD_ALG_SHA1, ffi.NULL, 1, out) == lib.LD_ERR_ARG
    assert lib.ld_md(lib.LD_ALG_SHA1, ffi.NULL, 0, out) == lib.LD_OK
    assert bytes(out)[:20] == hashlib.sha1(b"").digest()


def test_sha256_api_is_the_md_core():
    """ld_sha256_ctx is an ld_md_ctx: the wrappers and ld_md_* interoperate on one context,
    and the wrappers refuse a context of another family (its digest would overflow out)."""
    assert ffi.sizeof("ld_sha256_ctx") == ffi.sizeof("ld_md_ctx")
    ctx = ffi.new("ld_sha256_ctx *")
    out = ffi.new("uint8_t[64]", [0xEE] * 64)
    assert lib.ld_sha256_init(ctx, lib.LD_SHA224) == lib.LD_OK
    assert lib.ld_md_ctx_alg(ctx) == lib.LD_ALG_SHA224
    assert lib.ld_md_update(ctx, b"ab", 2) == lib.LD_OK
    assert lib.ld_sha256_update(ctx, b"c", 1) == lib.LD_OK
    assert lib.ld_sha256_final(ctx, out) == lib.LD_OK
    assert bytes(out)[:28] == hashlib.sha224(b"abc").digest() and bytes(out)[28:] == b"\xee" * 36
    for alg in (lib.LD_ALG_SHA1, lib.LD_ALG_SHA512, lib.LD_ALG_SHA512_224):
        assert lib.ld_md_init(ctx, alg) == lib.LD_OK
        assert lib.ld_sha256_update(ctx, b"a", 1) == lib.LD_ERR_ARG
        assert lib.ld_sha256_final(ctx, out) == lib.LD_ERR_ARG
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA256) == lib.LD_OK
    assert lib.ld_sha256_final(ctx, out) == lib.LD_OK
    assert bytes(out)[:32] == hashlib.sha256(b"").digest()
    assert lib.ld_sha256_init(ctx, 2) == lib.LD_ERR_ARG
    assert lib.ld_sha256_init(ffi.NULL, lib.LD_SHA256) == lib.LD_ERR_ARG
    assert lib.ld_sha256(2, b"abc", 3, out) == lib.LD_ERR_ARG
    assert lib.ld_sha256(lib.LD_SHA256, ffi.NULL, 3, out) == lib.LD_ERR_ARG
    assert lib.ld_sha256_update(ffi.NULL, b"a", 1) == lib.LD_ERR_ARG
    assert lib.ld_sha256_final(ffi.NULL, out) == lib.LD_ERR_ARG


# ------------------------------------------------------------------ hw driver vs a model

# bit positions from soc/REGISTERS.md (independent of the C header)
START, DMA_START, FIRST, LAST, VARIANT, LOAD_CV, ACK = (1 << b for b in range(7))
BUSY, DONE, ERR_LEN, ERR_ADDR, ERR_STATE, ERR_BUS = (1 << b for b in range(6))


def test_driver_bits_match_registers_md():
    b = native.ctrl_bits()
    assert (b["LD_CTRL_START"], b["LD_CTRL_DMA_START"], b["LD_CTRL_FIRST"], b["LD_CTRL_LAST"],
            b["LD_CTRL_VARIANT"], b["LD_CTRL_LOAD_CV"], b["LD_CTRL_ACK"]) == \
        (START, DMA_START, FIRST, LAST, VARIANT, LOAD_CV, ACK)
    assert (b["LD_STATUS_BUSY"], b["LD_STATUS_DONE"], b["LD_STATUS_ERR_LEN"], b["LD_STATUS_ERR_ADDR"],
            b["LD_STATUS_ERR_STATE"], b["LD_STATUS_ERR_BUS"], b["LD_STATUS_WORDS_BIT"]) == \
        (BUSY, DONE, ERR_LEN, ERR_ADDR, ERR_STATE, ERR_BUS, 8)


class PeripheralModel:
    """The hash peripheral of soc/REGISTERS.md, in Python, reading 'main RAM' = a host buffer."""
    REGS = dict(ctrl=0x00, din=0x04, cv=0x08, dma_base=0x28, dma_length=0x2C, status=0x30,
                digest=0x34, blocks=0x54, cycles_latch=0x58, cycles_value=0x5C, info=0x64)

    def __init__(self, ram_base, ram_size, busy_polls=2, hang=False):
        self.ram_base, self.ram_size = ram_base, ram_size
        self.busy_polls, self.hang = busy_polls, hang
        self.words, self.cvreg, self.cv = [], [0] * 8, [0] * 8
        self.done = self.errs = 0
        self.busy_left = 0
        self.blocks = self.cycles = self.latched = 0
        self.jobs = []          # (kind, levels, nblocks) of the jobs that ran
        self.dma_reads = []     # (addr, len)

    def _run(self, levels, data):
        if levels & FIRST:
            st = native.iv(1 if levels & VARIANT else 0)
        elif levels & LOAD_CV:
            st = list(self.cvreg)
        else:
            st = list(self.cv)
        self.cv = native.compress(st, data)
        self.blocks += len(data) // 64

    def _finish(self, err=0):
        self.errs |= err
        self.done = 1
        self.busy_left = 0 if err else self.busy_polls

    def write32(self, addr, v):
        self.cycles += 1
        r = self.REGS
        if addr == r["ctrl"]:
            levels = v & (FIRST | LAST | VARIANT | LOAD_CV)
            if v & ACK:
                self.done = self.errs = 0
                self.words = []
            busy = self.busy_left > 0 or self.hang and self.jobs
            if v & (START | DMA_START) and busy:
                self.errs |= ERR_STATE
                return
            if v & START:
                if len(self.words) < 16:
                    return self._finish(ERR_LEN)
                blk = struct.pack(">16I", *self.words)
                self.words = []
                self._run(levels, blk)
                self.jobs.append(("csr", levels, 1))
                self._finish()
            elif v & DMA_START:
                # dma_base is a 32-bit register: rebuild the host address (the test RAM buffer
                # does not straddle a 4 GiB boundary, checked in the fixture)
                base, n = (self.ram_base & ~0xFFFFFFFF) | self.dma_base, self.dma_length
                if n == 0 or n % 64:
                    return self._finish(ERR_LEN)
                if base % 4 or base < self.ram_base or base + n > self.ram_base + self.ram_size:
                    return self._finish(ERR_ADDR)
                self.dma_reads.append((base, n))
                self._run(levels, bytes(ffi.buffer(ffi.cast("uint8_t *", base), n)))
                self.jobs.append(("dma", levels, n // 64))
                self._finish()
        elif addr == r["din"]:
            if len(self.words) >= 16:
                self.errs |= ERR_STATE
            else:
                self.words.append(v)
        elif r["cv"] <= addr < r["cv"] + 32:
            self.cvreg[(addr - r["cv"]) // 4] = v
        elif addr == r["dma_base"]:
            self.dma_base = v
        elif addr == r["dma_length"]:
            self.dma_length = v
        elif addr == r["cycles_latch"]:
            self.latched = self.cycles

    def read32(self, addr):
        self.cycles += 1
        r = self.REGS
        if addr == r["status"]:
            if self.hang and self.jobs:
                return BUSY
            if self.busy_left > 0:
                self.busy_left -= 1
                return BUSY
            return (DONE if self.done else 0) | self.errs | (len(self.words) << 8)
        if r["digest"] <= addr < r["digest"] + 32:
            return self.cv[(addr - r["digest"]) // 4]
        if addr == r["blocks"]:
            return self.blocks & 0xFFFFFFFF
        if addr == r["cycles_value"]:
            return self.latched >> 32
        if addr == r["cycles_value"] + 4:
            return self.latched & 0xFFFFFFFF
        if addr == r["info"]:
            return 0x00010141
        return 0


@pytest.fixture
def ram():
    buf = ffi.new("uint8_t[]", 1 << 17)
    base = int(ffi.cast("uintptr_t", buf))
    if base >> 32 != (base + len(buf)) >> 32:
        pytest.skip("test RAM buffer straddles a 4 GiB boundary")
    return buf, base


def make_hw(ram, **kw):
    buf, base = ram
    model = PeripheralModel(base, len(buf), **kw)
    hw = native.HwDevice(model.REGS, model.read32, model.write32, ram_base=base, ram_size=len(buf),
                         timeout_polls=kw.get("timeout_polls", 1000) if "timeout_polls" in kw else 1000)
    return model, hw


@pytest.mark.parametrize("variant", ["sha256", "sha224"])
@pytest.mark.parametrize("length", [0, 3, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096])
def test_hw_driver_csr_path(ram, variant, length):
    model, hw = make_hw(ram)
    msg = random.Random(length).randbytes(length)
    assert hw.sha256(msg, variant, native.PATH_CSR) == hashlib.new(variant, msg).digest()
    assert all(kind == "csr" for kind, _, _ in model.jobs)
    assert model.jobs[0][1] & FIRST and not any(l & FIRST for _, l, _ in model.jobs[1:])
    assert model.jobs[-1][1] & LAST and not any(l & LAST for _, l, _ in model.jobs[:-1])
    assert all(bool(l & VARIANT) == (variant == "sha224") for _, l, _ in model.jobs)
    assert model.done == 0 and model.errs == 0  # acked


@pytest.mark.parametrize("length", [0, 64, 100, 1024, 16384, 16384 + 55])
def test_hw_driver_dma_path(ram, length):
    buf, base = ram
    model, hw = make_hw(ram)
    msg = random.Random(length).randbytes(length)
    ffi.memmove(buf + 256, msg, length)
    out = hw.sha256(_cdata(buf, 256, length), "sha256", native.PATH_DMA)
    assert out == hashlib.sha256(msg).digest()
    whole = length // 64
    if whole:
        # all whole blocks of the caller's buffer in ONE DMA job straight from its address
        assert model.dma_reads[0] == (base + 256, whole * 64)
        assert model.jobs[0] == ("dma", FIRST, whole)
    else:
        assert model.dma_reads == []


def _cdata(buf, off, n):
    """A cdata view of buf[off:off+n] that keeps its address (len() works on arrays)."""
    return ffi.cast(f"uint8_t(*)[{n}]", buf + off)[0] if n else ffi.new("uint8_t[]", 0)


def test_hw_driver_dma_tail_from_ctx_buffer_in_ram(ram):
    buf, base = ram
    model, hw = make_hw(ram)
    ctx = native.HwCtx.__new__(native.HwCtx)
    ctx.hw, ctx.variant = hw, native.SHA256
    ctx._ctx = ffi.cast("ld_hw_sha256_ctx *", buf + 65536)  # the context lives in "RAM" too
    assert hw._call(lib.ld_hw_sha256_init, ctx._ctx, hw.dev, native.SHA256, native.PATH_DMA) == 0
    msg = bytes(range(200))
    ffi.memmove(buf, msg, 200)
    ctx.update(_cdata(buf, 0, 10))      # partial: buffered
    ctx.update(_cdata(buf, 10, 190))    # fills the buffer (unaligned rest: CSR) + tail
    assert ctx.final() == hashlib.sha256(msg).digest()
    assert model.jobs[-1][0] == "dma" and model.jobs[-1][1] & LAST
    with pytest.raises(native.NativeError) as e:
        ctx.final()
    assert e.value.code == lib.LD_ERR_STATE


def test_hw_driver_unaligned_dma_falls_back_to_csr(ram):
    buf, base = ram
    model, hw = make_hw(ram)
    msg = bytes(range(256)) * 2
    ffi.memmove(buf + 1, msg, len(msg))
    assert hw.sha256(_cdata(buf, 1, len(msg)), "sha256", native.PATH_DMA) == hashlib.sha256(msg).digest()
    assert model.jobs[0][0] == "csr"


def test_hw_driver_errors_and_recovery(ram):
    buf, base = ram
    model, hw = make_hw(ram)
    # caller buffer outside RAM on the DMA path
    with pytest.raises(native.NativeError) as e:
        hw.sha256(b"x" * 128, "sha256", native.PATH_DMA)
    assert e.value.code == lib.LD_ERR_RANGE
    # peripheral-side errors are reported and acked
    st = ffi.new("uint32_t *")
    assert hw._call(lib.ld_hw_job_dma, hw.dev, base + len(buf), 64, FIRST, st) == lib.LD_ERR_HW
    assert st[0] & ERR_ADDR and model.done == 0
    assert hw._call(lib.ld_hw_job_dma, hw.dev, base, 100, FIRST, st) == lib.LD_ERR_HW
    assert st[0] & ERR_LEN
    # still usable
    assert hw.sha256(b"abc") == hashlib.sha256(b"abc").digest()
    # call order
    ctx = hw.context()
    ctx.update(b"abc")
    ctx.final()
    for op in (ctx.final, lambda: ctx.update(b"x")):
        with pytest.raises(native.NativeError) as e:
            op()
        assert e.value.code == lib.LD_ERR_STATE
    assert hw.cycles() > 0


def test_hw_driver_timeout(ram):
    buf, base = ram
    model = PeripheralModel(base, len(buf), hang=True)
    hw = native.HwDevice(model.REGS, model.read32, model.write32, ram_base=base, ram_size=len(buf),
                         timeout_polls=50)
    with pytest.raises(native.NativeError) as e:
        hw.sha256(b"abc")
    assert e.value.code == lib.LD_ERR_TIMEOUT
    assert 50 <= model.cycles < 100  # 16 din + start + 50 polls + ack
