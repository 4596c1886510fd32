# SPDX-License-Identifier: BSD-2-Clause
"""The portable C library (software/firmware/lib): host build + host C tests, cross compile
for RV32IM, and the cffi build (litedigest._clib._native) against NIST CAVP vectors, hashlib, and
a Python model of the hash peripheral of soc/REGISTERS.md (driver on the CSR and DMA paths)."""

import collections
import hashlib
import os
import random
import re
import shutil
import struct
import subprocess

import pytest
from litedigest import _clib as native
from litedigest._clib._native import ffi, lib
from litedigest.paths import repo_root
from vectors import (
    copies_diverge,
    fed_in_random_steps,
    load_cavp,
    load_monte,
    monte_check,
    padding_lengths,
)

ROOT = repo_root()
FW = os.path.join(ROOT, "software", "firmware")
LIB_INCLUDE = os.path.join(FW, "lib", "include")


def _lib_sources():
    """The library's sources as software/firmware/lib/sources.txt lists them (the one list
    every build of it reads); every source file of lib/src must be in it."""
    with open(os.path.join(FW, "lib", "sources.txt")) as f:
        srcs = f.read().split()
    assert sorted(srcs) == sorted(
        f for f in os.listdir(os.path.join(FW, "lib", "src")) if f.endswith(".c")
    )
    return srcs


LIB_SRCS = _lib_sources()


# ------------------------------------------------------------------ C builds


def py_md_pad(tail, total_len, block_size):
    """The padded final block(s) of a total_len-byte message ending in `tail` (FIPS 180-4),
    written here independently of the library under test."""
    lenbytes = block_size // 8
    zeros = (block_size - lenbytes - 1 - len(tail)) % block_size
    return (
        bytes(tail)
        + b"\x80"
        + bytes(zeros)
        + ((8 * total_len) % (1 << (8 * lenbytes))).to_bytes(lenbytes, "big")
    )


def test_host_c_tests(tmp_path):
    r = subprocess.run(["make", "-C", FW, f"O={tmp_path}", "test"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert " 0 failures" in r.stdout


# The C host test programs (software/firmware/tests/*.c) built with the whole library in one
# gcc call, plainly and with AddressSanitizer + UndefinedBehaviorSanitizer, every report fatal
# (a read or write out of bounds, an overflow, a misaligned or null access stops the program).
# test_edges.c (argument and context checks), test_sched_exec.c (the scheduler's policy run
# by a software executor) and test_hmac.c (HMAC: RFC vectors, wiping, verification) are made
# of named groups, run one at a time so that a crash fails its own group.
C_BUILDS = {
    "plain": ["-O2"],
    "asan_ubsan": [
        "-O1",
        "-g",
        "-fno-omit-frame-pointer",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
    ],
}
C_GROUPS = {
    "test_edges": [
        "skein_null_bits",
        "skein_bad_context",
        "md_null_zero_length",
        "pad_checks",
        "sched_complete_result",
        "sched_next_bad_args",
        "md_length_limits",
    ],
    "test_sched_exec": ["md_random", "skein_random", "skein_held_back", "null_data_empty"],
    "test_hmac": [
        "rfc2202_sha1",
        "rfc4231_sha2",
        "sha512_t_known",
        "streaming_splits",
        "copy_independent",
        "wipe",
        "verify",
        "ct_equal",
        "bad_args",
        "bad_context",
        "length_limit",
    ],
}


@pytest.fixture(scope="module")
def c_test_program(tmp_path_factory):
    """c_test_program(name, build) -> the executable of software/firmware/tests/<name>.c, built
    once per build of C_BUILDS"""
    out, built = tmp_path_factory.mktemp("c_tests"), {}

    def build(name, kind):
        if (name, kind) not in built:
            exe = out / f"{name}-{kind}"
            r = subprocess.run(
                [
                    "gcc",
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    *C_BUILDS[kind],
                    "-I",
                    LIB_INCLUDE,
                    os.path.join(FW, "tests", name + ".c"),
                    *(os.path.join(FW, "lib", "src", s) for s in LIB_SRCS),
                    "-o",
                    str(exe),
                ],
                capture_output=True,
                text=True,
            )
            assert r.returncode == 0, r.stderr
            built[name, kind] = exe
        return built[name, kind]

    return build


def _run_c_program(exe, *args):
    r = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and " 0 failures" in r.stdout, (r.stdout + r.stderr)[-6000:]


def test_host_c_tests_sanitized(c_test_program):
    _run_c_program(c_test_program("test_host", "asan_ubsan"))


@pytest.mark.parametrize("kind", list(C_BUILDS))
@pytest.mark.parametrize("name,group", [(n, g) for n, gs in C_GROUPS.items() for g in gs])
def test_c_program_groups(c_test_program, name, group, kind):
    _run_c_program(c_test_program(name, kind), group)


def test_c_program_groups_listed(c_test_program):
    """every group of a program is run above (a group added in C and not here would not be)"""
    for name, groups in C_GROUPS.items():
        r = subprocess.run(
            [str(c_test_program(name, "plain")), "--list"], capture_output=True, text=True
        )
        assert r.returncode == 0 and r.stdout.split() == groups, r.stdout
    r = subprocess.run(
        [str(c_test_program("test_edges", "plain")), "no_such_group"], capture_output=True
    )
    assert r.returncode == 2


def _compile_object(cc, flags, src, obj, include=LIB_INCLUDE, **run):
    """The library source `src` compiled to the object `obj` by `cc` (the compiler's command,
    a list) at -O2, C99, with `flags`; subprocess.run's result (`run`: its options)."""
    cmd = [*cc, "-O2", "-std=c99", *flags, "-I", include, "-c", str(src), "-o", str(obj)]
    return subprocess.run(cmd, **run)


@pytest.mark.parametrize(
    "cc",
    [["gcc"], ["riscv64-unknown-elf-gcc", "-march=rv32im", "-mabi=ilp32"]],
    ids=["host", "rv32im"],
)
def test_library_compiles_warning_free(cc, tmp_path):
    if shutil.which(cc[0]) is None:
        pytest.skip(f"{cc[0]} not installed")
    for src in LIB_SRCS:
        r = _compile_object(
            cc,
            ["-Wall", "-Wextra"],
            os.path.join(FW, "lib", "src", src),
            tmp_path / (src + ".o"),
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0 and r.stderr == "", (src, r.stderr)


# The library's layers (lib/README.md): the software algorithms (hashes, padding, HMAC) below
# the driver (jobs, batches, MAC keys, the scheduler's executor, Skein on a peripheral)
SW_SOURCES = [
    "common.c",
    "pad.c",
    "md_sw.c",
    "sha1_sw.c",
    "sha256_sw.c",
    "sha512_sw.c",
    "skein_sw.c",
    "hmac.c",
]
SW_INTERNAL_HEADERS = ["ld_sw_internal.h", "ld_lock.h", "ld_md_table.h", "ld_skein_internal.h"]
HW_HEADERS = [
    "ld_hw.h",
    "ld_hw_regs.h",
    "ld_hw_hmac.h",
    "ld_hw_skein.h",
    "ld_sched.h",
    "litedigest.h",
    "ld_hw_internal.h",
]


def _includes(path):
    with open(path) as f:
        return [
            os.path.basename(h)
            for h in re.findall(r'^\s*#\s*include\s*["<]([^">]+)[">]', f.read(), re.M)
        ]


def test_layers_cover_the_sources():
    hw = [s for s in LIB_SRCS if s not in SW_SOURCES]
    assert set(SW_SOURCES) <= set(LIB_SRCS)
    assert all(
        any("ld_hw_internal.h" == h for h in _includes(os.path.join(FW, "lib", "src", s)))
        for s in hw
    ), hw


def test_software_sources_include_no_hardware_header(tmp_path):
    """A software source, and every header it reaches, includes no driver header; and it
    compiles with the driver's headers taken away."""
    src, inc = os.path.join(FW, "lib", "src"), os.path.join(FW, "lib", "include", "litedigest")
    seen, todo = set(), list(SW_SOURCES)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = (
            os.path.join(src, name)
            if os.path.exists(os.path.join(src, name))
            else os.path.join(inc, name)
        )
        for h in _includes(path):
            assert h not in HW_HEADERS, f"{name} (reached from a software source) includes {h}"
            if os.path.exists(os.path.join(src, h)) or os.path.exists(os.path.join(inc, h)):
                todo.append(h)
    assert not set(seen) - set(SW_SOURCES) - set(SW_INTERNAL_HEADERS) - set(os.listdir(inc))
    # the same, by the compiler: the software sources against a copy of the headers without
    # the driver's
    (tmp_path / "include" / "litedigest").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    for h in os.listdir(inc):
        if h not in HW_HEADERS:
            shutil.copy(os.path.join(inc, h), tmp_path / "include" / "litedigest" / h)
    for h in SW_INTERNAL_HEADERS + SW_SOURCES:
        shutil.copy(os.path.join(src, h), tmp_path / "src" / h)
    for config in ([], ["-DLD_CONFIG_HOST=1"], ["-DLD_CONFIG_LOCK=1"]):
        for s in SW_SOURCES:
            r = _compile_object(
                ["gcc"],
                ["-Wall", "-Wextra", "-Werror", *config],
                tmp_path / "src" / s,
                tmp_path / (s + ".o"),
                include=str(tmp_path / "include"),
                capture_output=True,
                text=True,
            )
            assert r.returncode == 0, (s, config, r.stderr)


def test_locked_entry_points_called_unlocked_inside(tmp_path):
    """With LD_CONFIG_LOCK only hw_lock.c calls the public name of a locked entry point (the
    list of ld_lock.h): anywhere else the library would take the lock twice."""
    with open(os.path.join(FW, "lib", "src", "ld_lock.h")) as f:
        locked = set(re.findall(r"^\s*X\((\w+),", f.read(), re.M))
    assert len(locked) >= 20
    for s in LIB_SRCS:
        o = tmp_path / (s + ".o")
        _compile_object(
            ["gcc"],
            ["-DLD_CONFIG_LOCK=1", "-DLD_CONFIG_HOST=1"],
            os.path.join(FW, "lib", "src", s),
            o,
            check=True,
        )
        nm = subprocess.run(
            ["nm", str(o)], capture_output=True, text=True, check=True
        ).stdout.split("\n")
        undefined = {line.split()[-1] for line in nm if line.strip().startswith("U ")}
        defined = {line.split()[-1] for line in nm if " T " in line}
        if s == "hw_lock.c":
            assert defined == locked, defined ^ locked
        else:
            assert not undefined & locked, (s, undefined & locked)


def test_rv32_compress_fits_icache(tmp_path):
    """The sw baseline must stay small next to a 4 KiB I-cache (8-round unroll, not 64)."""
    if shutil.which("riscv64-unknown-elf-gcc") is None:
        pytest.skip("riscv64-unknown-elf-gcc not installed")
    obj = tmp_path / "sw.o"
    _compile_object(
        ["riscv64-unknown-elf-gcc", "-march=rv32im", "-mabi=ilp32"],
        [],
        os.path.join(FW, "lib", "src", "sha256_sw.c"),
        obj,
        check=True,
    )
    nm = subprocess.run(
        ["riscv64-unknown-elf-nm", "-S", str(obj)], capture_output=True, text=True, check=True
    )
    sizes = {
        l.split()[3]: int(l.split()[1], 16) for l in nm.stdout.splitlines() if len(l.split()) == 4
    }
    assert sizes["ld_sha256_compress"] < 3072, sizes


# ------------------------------------------------------------------ sw SHA-256 via cffi


@pytest.mark.parametrize(
    "name", ["SHA256ShortMsg", "SHA256LongMsg", "SHA224ShortMsg", "SHA224LongMsg"]
)
def test_cavp_oneshot_and_streaming(name):
    variant = name[:6].lower()
    rng = random.Random(name)
    for msg, md in load_cavp(name):
        assert native.sha256(msg, variant) == md
        ctx = native.Sha256Ctx(variant)
        pos = 0
        while pos < len(msg):
            step = rng.randint(0, 150)
            ctx.update(msg[pos : pos + step])
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
    assert (
        lib.LD_OK,
        lib.LD_ERR_ARG,
        lib.LD_ERR_STATE,
        lib.LD_ERR_TIMEOUT,
        lib.LD_ERR_HW,
        lib.LD_ERR_RANGE,
    ) == (0, -1, -2, -3, -4, -5)


# ------------------------------------------------------------------ ld_md: every algorithm

MD_NAMES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]


def _stream(name, msg, rng, maxstep):
    """The digest of msg through MdCtx, fed in random chunk sizes (0 included)."""
    return fed_in_random_steps(native.MdCtx(name), msg, rng, maxstep)


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
        copies_diverge(a, h, rng, 1, lambda c: c.digest())
        assert a.digest() == h.digest()  # digest() leaves the context usable
    assert a.name == h.name and a.digest_size == h.digest_size and a.block_size == h.block_size
    assert a.hexdigest() == h.hexdigest()
    assert a.final() == h.digest()
    # a finished context copies into a finished one
    c = a.copy()
    for ctx in (a, c):
        for op in (ctx.final, lambda ctx=ctx: ctx.update(b"x")):
            with pytest.raises(native.NativeError) as e:
                op()
            assert e.value.code == lib.LD_ERR_STATE


def test_md_table():
    want_variant = {
        "sha1": 0,
        "sha256": lib.LD_SHA256,
        "sha224": lib.LD_SHA224,
        "sha512": lib.LD_SHA512,
        "sha384": lib.LD_SHA384,
        "sha512_224": lib.LD_SHA512_224,
        "sha512_256": lib.LD_SHA512_256,
    }
    assert (lib.LD_SHA256, lib.LD_SHA224) == (0, 1)
    assert (lib.LD_SHA512, lib.LD_SHA384, lib.LD_SHA512_224, lib.LD_SHA512_256) == (0, 1, 2, 3)
    assert want_variant["sha512_224"] == native.SHA512_VARIANTS["sha512_224"]
    assert sorted(native.MD_ALGS) == sorted(MD_NAMES) and lib.LD_ALG_COUNT == 7
    ids = {
        "sha1": lib.LD_ALG_SHA1,
        "sha256": lib.LD_ALG_SHA256,
        "sha224": lib.LD_ALG_SHA224,
        "sha512": lib.LD_ALG_SHA512,
        "sha384": lib.LD_ALG_SHA384,
        "sha512_224": lib.LD_ALG_SHA512_224,
        "sha512_256": lib.LD_ALG_SHA512_256,
    }
    assert native.MD_ALGS == ids
    for name, alg in ids.items():
        h = hashlib.new(name)
        family = {
            "sha1": lib.LD_FAMILY_SHA1,
            "sha256": lib.LD_FAMILY_SHA256,
            "sha224": lib.LD_FAMILY_SHA256,
        }.get(name, lib.LD_FAMILY_SHA512)
        assert ffi.string(lib.ld_md_name(alg)).decode() == name
        assert lib.ld_md_block_size(alg) == h.block_size
        assert lib.ld_md_digest_size(alg) == h.digest_size
        assert lib.ld_md_family(alg) == family
        assert lib.ld_md_variant(alg) == want_variant[name]
        assert (
            lib.ld_md_state_words(alg)
            == {lib.LD_FAMILY_SHA1: 5, lib.LD_FAMILY_SHA256: 8, lib.LD_FAMILY_SHA512: 16}[family]
        )
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
    assert native.md_iv_words("sha1") == [
        0x67452301,
        0xEFCDAB89,
        0x98BADCFE,
        0x10325476,
        0xC3D2E1F0,
    ]
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
    assert lib.ld_md_final(ctx, out) == lib.LD_ERR_STATE  # final twice
    assert lib.ld_md_update(ctx, b"x", 1) == lib.LD_ERR_STATE  # update after final
    assert lib.ld_md_ctx_alg(ctx) == lib.LD_ALG_SHA384  # still initialised
    assert lib.ld_md_copy(ctx, ctx) == lib.LD_OK  # copy onto itself
    assert lib.ld_md_init(ctx, lib.LD_ALG_SHA1) == lib.LD_OK  # re-init after final
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
#
# PeripheralModel is the hash peripheral of soc/REGISTERS.md in Python; its field positions
# are parsed from that document (not from the C header), so the driver is checked against
# the contract. "Main RAM" is a host buffer whose address the DMA reads.

REGISTERS_MD = os.path.join(ROOT, "soc", "REGISTERS.md")


def _md_table(text, heading):
    """The rows (dicts by header) of the first markdown table after `heading`."""
    rows, started = [], False
    lines = text[text.index(heading) :].splitlines()
    for line in lines if heading.startswith("|") else lines[1:]:
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.replace("\\|", "\x00").strip().strip("|").split("|")]
            rows.append([c.replace("\x00", "|") for c in cells])
        elif started:
            break
    header = rows[0]
    return [dict(zip(header, r)) for r in rows[2:]]


def _bits(spec):
    """'11:8' -> (8, 4); '3' -> (3, 1)"""
    hi, _, lo = spec.partition(":")
    lo = lo or hi
    return int(lo), int(hi) - int(lo) + 1


def registers_md():
    """From soc/REGISTERS.md: register names, and ctrl/status/info fields {name: (lo, width)}."""
    with open(REGISTERS_MD) as f:
        text = f.read()
    regs = _md_table(text, "| register |")
    names = []
    for r in regs:
        names += [n for n in (x.strip("` ") for x in r["register"].replace("/", ",").split(","))]
    fields = {}
    for reg in ("ctrl", "status"):
        fields[reg] = {
            r["name"].strip("`"): _bits(r["bit"]) for r in _md_table(text, f"`{reg}` fields:")
        }
    info_row = next(r for r in regs if r["register"] == "`info`")["meaning"]
    words = {
        "latency": "latency",
        "pipeline": "stages",
        "arch": "arch",
        "log2": "align_log2",
        "slots": "slots",
    }
    fields["info"] = {}
    for hi, lo, what in re.findall(r"(\d+):(\d+) (\w+)", info_row):
        fields["info"][words[what]] = (int(lo), int(hi) - int(lo) + 1)
    return names, fields


REG_NAMES, FIELDS = registers_md()
_C, _S = FIELDS["ctrl"], FIELDS["status"]
START, DMA_START, FIRST, LAST, LOAD_CV, ACK, TAIL, OUT = (
    1 << _C[n][0] for n in ("start", "dma_start", "first", "last", "load_cv", "ack", "tail", "out")
)
BUSY, DONE, ERR_LEN, ERR_ADDR, ERR_STATE, ERR_BUS = (
    1 << _S[n][0] for n in ("busy", "done", "err_len", "err_addr", "err_state", "err_bus")
)
ERRORS = ERR_LEN | ERR_ADDR | ERR_STATE | ERR_BUS
HOLD = 1 << _C["hold"][0] if "hold" in _C else 0  # DMA reader paused while set


def _field(value, spec):
    lo, width = spec
    return (value >> lo) & ((1 << width) - 1)


def _put_field(x, spec):
    lo, width = spec
    assert 0 <= x < 1 << width
    return x << lo


def test_driver_bits_match_registers_md():
    """Every LD_CTRL_*/LD_STATUS_* the driver was compiled with is the field of that name in
    the REGISTERS.md tables (LD_*_MASK: a multi-bit field), and the driver has the fields
    it needs; every register of the contract is in its device."""
    b = native.ctrl_bits()
    for cname, value in b.items():
        reg, name = ("ctrl", cname[8:]) if cname.startswith("LD_CTRL_") else ("status", cname[10:])
        name = name.lower()
        mask = name.endswith("_mask")
        name = name[:-5] if mask else name
        assert name in FIELDS[reg], f"{cname}: no field {name!r} in the {reg} table"
        lo, width = FIELDS[reg][name]
        assert value == ((1 << width) - 1) << lo and (width > 1) == mask, cname
    needed = {
        "LD_CTRL_" + n.upper()
        for n in ("start", "dma_start", "first", "last", "load_cv", "ack", "tail")
    }
    needed |= {"LD_CTRL_VARIANT_MASK", "LD_CTRL_SLOT_MASK"}
    needed |= {
        "LD_STATUS_" + n.upper()
        for n in ("busy", "done", "err_len", "err_addr", "err_state", "err_bus")
    }
    assert needed <= set(b)
    assert _S["words"] == (8, 8)
    assert set(FIELDS["info"]) == {"latency", "stages", "arch", "align_log2", "slots"}
    # (the EventManager's registers are not the driver's)
    assert set(REG_NAMES) - {"ev_status", "ev_pending", "ev_enable"} == set(
        native.DEV_FIELDS + native.BATCH_FIELDS
    )


FAMILY_ALGS = {
    "sha1": ["sha1"],
    "sha256": ["sha256", "sha224"],
    "sha512": ["sha512", "sha384", "sha512_224", "sha512_256"],
}
FAMILY_OF = {a: f for f, algs in FAMILY_ALGS.items() for a in algs}


def _compress(family, words, data):
    """The C library's compression function on 32-bit state words (64-bit words as hi, lo)."""
    if family == "sha1":
        return native.sha1_compress(words, data)
    if family == "sha256":
        return native.compress(words, data)
    q = native.sha512_compress([(words[2 * i] << 32) | words[2 * i + 1] for i in range(8)], data)
    return [w for x in q for w in (x >> 32, x & 0xFFFFFFFF)]


class PeripheralModel:
    """The hash peripheral of soc/REGISTERS.md with `slots` slots, reading 'main RAM' = host
    memory [ram_base, ram_base + ram_size).

    Jobs complete lazily: a job needs `busy_polls` reads of status/slots_busy/slots_done
    (an int, or a function of the job's index) before it finishes, so several slots are in
    flight at once; its DMA data is read when it finishes (a buffer changed meanwhile would
    show). `hang`: True (no job finishes) or an int k (jobs k, k+1, ... never finish).
    `bus_error(addr)`: True for a block address that gives a bus error. `regions`: more
    (start, end) host ranges the DMA may read besides the RAM buffer (e.g. the C stack).
    Recorded: jobs (every accepted job, in start order), errors_seen (every error bit ever
    set, although the driver acks them), violations (things the contract leaves undefined
    that a driver should not do), max_busy (most slots busy at once)."""

    def __init__(
        self,
        family: str = "sha256",
        slots: int = 1,
        align: int = 64,
        ram_base: int = 0,
        ram_size: int = 0,
        busy_polls: int = 2,
        hang: bool = False,
        latency: int | None = None,
        stages: int | None = None,
        arch: int = 0,
        bus_error=None,
        regions: tuple = (),
    ):
        self.family, self.nslots, self.align = family, slots, align
        self.skein = family == "skein512"
        self.bs = 128 if family == "sha512" else 64
        self.nw = {"sha1": 5, "sha256": 8, "sha512": 16, "skein512": 16}[family]
        self.nbw = self.bs // 4
        self.sw = (slots + 31) // 32  # words of the slots_* registers
        self.latency = latency or {"sha1": 81, "sha256": 65, "sha512": 81, "skein512": 10}[family]
        # a Skein engine's blocks in flight are its slots; its stages are the ring's (fp)
        self.stages = stages or (1 if self.skein else slots)
        self.arch = arch or (5 if self.skein else 0)
        self.ram_base, self.ram_size = ram_base, ram_size
        self.regions = [(ram_base, ram_base + ram_size)] + list(regions)
        self.busy_polls, self.hang, self.bus_error = busy_polls, hang, bus_error
        names = list(native.DEV_FIELDS) + (list(native.SKEIN_FIELDS) if self.skein else [])
        # the registers' 32-bit words: one but for these
        sizes = dict.fromkeys(names, 1) | dict(cv=self.nw, digest=self.nw, tweak=4)
        sizes |= dict.fromkeys(("slots_busy", "slots_done", "slots_ack"), self.sw)
        sizes |= dict.fromkeys(("cycles_value", "finish_cycles"), 2)
        self.regs, self.size, addr = {}, sizes, 0x100
        for name in names:
            self.regs[name] = addr
            addr += 4 * sizes[name]
        self.store = {
            n: 0 for n in ("dma_base", "dma_length", "tail_base", "tail_length", "digest_sel")
        }
        self.tweakreg, self.store["final_bytes"] = [0] * 4, 0
        self.cvreg = [0] * self.nw
        self.ackreg = [0] * self.sw
        self.words = []
        self.done = self.errs = self.errors_seen = 0
        self.slot_cv = [[0] * self.nw for _ in range(slots)]
        self.running = {}  # slot -> job dict
        self.sdone = 0
        self.blocks = self.cycles = self.latched = self.finished_at = 0
        self.jobs, self.violations, self.max_busy, self.polls = [], [], 0, 0
        self.hold = False

    # -- helpers
    def _reg(self, addr):
        for name, base in self.regs.items():
            if base <= addr < base + 4 * self.size[name]:
                return name, (addr - base) // 4
        return None, 0

    def _host(self, v):
        # 32-bit address registers: rebuild the host address from the high bits of a region
        # that holds it (the RAM buffer does not straddle a 4 GiB boundary: see the fixture)
        for lo, hi in self.regions:
            for high in {lo & ~0xFFFFFFFF, (hi - 1) & ~0xFFFFFFFF}:
                if lo <= (high | v) < hi:
                    return high | v
        return (self.ram_base & ~0xFFFFFFFF) | v

    def _in_ram(self, addr, n):
        return addr % self.align == 0 and any(
            lo <= addr and addr + n <= hi for lo, hi in self.regions
        )

    def _error(self, bit):
        self.errs |= bit
        self.errors_seen |= bit
        self.done = 1

    def info_word(self):
        f = FIELDS["info"]
        return (
            _put_field(self.latency, f["latency"])
            | _put_field(self.stages, f["stages"])
            | _put_field(self.arch, f["arch"])
            | _put_field(self.align.bit_length() - 1, f["align_log2"])
            | _put_field(self.nslots, f["slots"])
        )

    def _iv(self, variant):
        if self.skein:
            sizes = {lib.ld_skein512_variant(n): n for n in native.SKEIN_SIZES}
            x = ffi.new("uint64_t[8]")
            if variant and variant not in sizes:
                self.violations.append(f"variant {variant}")
            elif variant:
                lib.ld_skein512_iv(sizes[variant], x)
            return list(struct.unpack(">16I", struct.pack("<8Q", *x)))
        algs = FAMILY_ALGS[self.family]
        if variant >= len(algs):
            self.violations.append(f"variant {variant}")
            return [0] * self.nw
        return native.md_iv_words(algs[variant])

    # -- jobs
    def _start(self, v):
        """A start/dma_start write: None (accepted) or the error bit."""
        slot = _field(v, _C["slot"])
        if slot >= self.nslots or slot in self.running:
            return ERR_STATE
        job = dict(
            kind="csr" if v & START else "dma",
            slot=slot,
            first=bool(v & FIRST),
            last=bool(v & LAST),
            load_cv=bool(v & LOAD_CV) and not v & FIRST,
            variant=_field(v, _C["variant"]),
            tail=bool(v & TAIL),
            index=len(self.jobs),
            out=bool(v & OUT) and self.skein,
        )
        if job["out"] and v & START:
            return ERR_STATE
        if v & START:
            if len(self.words) != self.nbw:
                return ERR_LEN
            job["data"], job["segs"] = struct.pack(f">{self.nbw}I", *self.words), []
        else:
            segs = [(self._host(self.store["dma_base"]), self.store["dma_length"])]
            if v & TAIL:
                segs.append((self._host(self.store["tail_base"]), self.store["tail_length"]))
            if segs[0][1] == 0 or any(n % self.bs for _, n in segs):
                return ERR_LEN
            if any(n and not self._in_ram(a, n) for a, n in segs):
                return ERR_ADDR
            job["segs"] = [(a, n) for a, n in segs if n]
        job["nblocks"] = (
            len(job["data"]) // self.bs if v & START else sum(n for _, n in job["segs"]) // self.bs
        )
        job["cv"] = list(self.cvreg) if job["load_cv"] else None
        if self.skein:  # the start tweak (T1 at the lowest address) and final bytes, read at start
            job["t1"] = (self.tweakreg[0] << 32) | self.tweakreg[1]
            job["t0"] = (self.tweakreg[2] << 32) | self.tweakreg[3]
            job["final_bytes"] = self.store["final_bytes"]
            if job["final_bytes"] > 64:
                return ERR_LEN
        hang = self.hang is True or (self.hang is not False and job["index"] >= self.hang)
        bp = self.busy_polls(job["index"]) if callable(self.busy_polls) else self.busy_polls
        job["left"] = float("inf") if hang else bp
        self.running[slot] = job
        self.jobs.append(job)
        self.max_busy = max(self.max_busy, len(self.running))
        self.words = []
        return None

    def _finish(self, job):
        s = job["slot"]
        if job["first"]:
            st = self._iv(job["variant"])
        elif job["load_cv"]:
            st = job["cv"]
        else:
            st = self.slot_cv[s]
        blocks = []
        if job["kind"] == "csr":
            blocks = [job["data"]]
        else:
            for a, n in job["segs"]:
                for off in range(0, n, self.bs):
                    if self.bus_error and self.bus_error(a + off):
                        self._error(ERR_BUS)  # abandoned: finishes at once
                        job["bus_error"] = True
                        break
                    blocks.append(bytes(ffi.buffer(ffi.cast("uint8_t *", a + off), self.bs)))
                if job.get("bus_error"):
                    break
        if self.skein and blocks:  # one UBI job: the peripheral's per-block tweak rule
            cv = native.skein512_ubi(
                struct.pack(">16I", *st), b"".join(blocks), job["t0"], job["t1"], job["final_bytes"]
            )
            if job["out"] and not job.get("bus_error"):
                cv = native.skein512_ubi(cv, bytes(64), 0, OUT_T1, 8)
                self.blocks += 1
            st = list(struct.unpack(">16I", cv))
            self.blocks += len(blocks)
        for blk in blocks if not self.skein else ():
            st = _compress(self.family, st, blk)
            self.blocks += 1
        self.slot_cv[s] = st
        job["cv_out"] = list(st)
        del self.running[s]
        self.sdone |= 1 << s
        self.finished_at = self.cycles
        self.done = 1

    def _tick(self):
        self.polls += 1
        for job in list(self.running.values()):
            if self.hold and job["kind"] == "dma":  # the DMA reader is paused
                continue
            job["left"] -= 1
            if job["left"] <= 0:
                self._finish(job)

    # -- bus
    def write32(self, addr, v):
        self.cycles += 1
        name, k = self._reg(addr)
        if name == "ctrl":
            self.hold = bool(v & HOLD)
            err = self._start(v) if v & (START | DMA_START) else None
            if v & ACK:
                self.done = self.errs = 0
                self.words = []
            if err:
                self._error(err)
        elif name == "din":
            if len(self.words) >= self.nbw:  # dropped; err_state without done
                self.errs |= ERR_STATE
                self.errors_seen |= ERR_STATE
            else:
                self.words.append(v)
        elif name == "cv":
            self.cvreg[k] = v
        elif name == "tweak":
            self.tweakreg[k] = v
        elif name in self.store:
            self.store[name] = v
        elif name == "slots_ack":
            self.ackreg[k] = v
            if k == self.sw - 1:  # the least significant word: the write strobe
                mask = 0
                for w in self.ackreg:
                    mask = (mask << 32) | w
                self.sdone &= ~mask
        elif name == "cycles_latch":
            self.latched = self.cycles
        else:
            self.violations.append(f"write {name or hex(addr)}")

    def read32(self, addr):
        self.cycles += 1
        name, k = self._reg(addr)
        if name in ("status", "slots_busy", "slots_done"):
            self._tick()
        if name == "status":
            return (
                (BUSY if self.running else 0)
                | (DONE if self.done else 0)
                | self.errs
                | _put_field(len(self.words), _S["words"])
            )
        if name in ("slots_busy", "slots_done"):
            bits = sum(1 << s for s in self.running) if name == "slots_busy" else self.sdone
            return (bits >> (32 * (self.sw - 1 - k))) & 0xFFFFFFFF
        if name == "digest":
            sel = self.store["digest_sel"]
            if sel >= self.nslots:
                self.violations.append(f"digest_sel {sel}")
                return 0
            return self.slot_cv[sel][k]
        if name == "blocks":
            return self.blocks & 0xFFFFFFFF
        if name == "cycles_value":
            return (self.latched >> (32 * (1 - k))) & 0xFFFFFFFF
        if name == "finish_cycles":
            return (self.finished_at >> (32 * (1 - k))) & 0xFFFFFFFF
        if name == "info":
            return self.info_word()
        self.violations.append(f"read {name or hex(addr)}")
        return 0

    # -- checks
    def assert_clean(self):
        assert self.errors_seen == 0, hex(self.errors_seen)
        assert self.violations == []
        assert self.done == 0 and self.errs == 0 and self.sdone == 0  # acked
        assert not self.running


RAM_SIZE = 1 << 20


def _blocks_of(length, bs):
    """blocks of a message: its whole blocks and its padded tail (1 or 2)"""
    return length // bs + len(py_md_pad(bytes(length % bs), length, bs)) // bs


@pytest.fixture
def ram():
    buf = ffi.new("uint8_t[]", RAM_SIZE)
    base = int(ffi.cast("uintptr_t", buf))
    if base >> 32 != (base + len(buf)) >> 32:
        pytest.skip("test RAM buffer straddles a 4 GiB boundary")
    return buf, base


def make_hw(ram, family="sha256", timeout_polls=1000, **kw):
    buf, base = ram
    model = PeripheralModel(family, ram_base=base, ram_size=len(buf), **kw)
    hw = native.HwDevice(
        model.regs,
        model.read32,
        model.write32,
        family,
        ram_base=base,
        ram_size=len(buf),
        timeout_polls=timeout_polls,
    )
    return model, hw


def _lengths(bs):
    """message lengths around the block and padding boundaries of a block size"""
    return sorted(padding_lengths(bs) | {3, 1000, 4096})


ALGS = [a for algs in FAMILY_ALGS.values() for a in algs]
ALG_LENGTHS = [(a, n) for a in ALGS for n in _lengths(hashlib.new(a).block_size)]


@pytest.mark.parametrize("alg,length", ALG_LENGTHS)
def test_hw_driver_csr_path(ram, alg, length):
    model, hw = make_hw(ram, FAMILY_OF[alg])
    msg = random.Random(length).randbytes(length)
    assert hw.md(alg, msg, native.PATH_CSR) == hashlib.new(alg, msg).digest()
    jobs = model.jobs
    assert all(j["kind"] == "csr" and j["slot"] == 0 and j["nblocks"] == 1 for j in jobs)
    assert len(jobs) == _blocks_of(length, model.bs)
    assert jobs[0]["first"] and not any(j["first"] for j in jobs[1:])
    assert jobs[-1]["last"] and not any(j["last"] for j in jobs[:-1])
    assert all(j["variant"] == lib.ld_md_variant(native.md_alg(alg)) for j in jobs)
    model.assert_clean()


@pytest.mark.parametrize(
    "alg,length",
    [(a, n) for a, n in ALG_LENGTHS if a in ("sha1", "sha224", "sha512", "sha512_256")],
)
def test_hw_driver_dma_path(ram, alg, length):
    buf, base = ram
    model, hw = make_hw(ram, FAMILY_OF[alg])
    bs = model.bs
    msg = random.Random(length).randbytes(length)
    data = native.DmaArena(buf, 256).put(msg)
    assert hw.md(alg, data, native.PATH_DMA) == hashlib.new(alg, msg).digest()
    whole = length // bs
    if whole:
        # all whole blocks straight from the caller's buffer in ONE job; the padded tail is on
        # ld_hw_md's stack, outside the model's RAM here, so it goes through the CSR path
        assert model.jobs[0]["kind"] == "dma" and model.jobs[0]["segs"] == [
            (native.address(data), whole * bs)
        ]
        assert model.jobs[0]["first"] and not model.jobs[0]["last"]
        assert all(j["kind"] == "csr" for j in model.jobs[1:]) and model.jobs[-1]["last"]
    else:
        assert all(j["kind"] == "csr" for j in model.jobs)
    model.assert_clean()


def _stack_region():
    """The main thread's stack (where ld_hw_md keeps its context) from /proc/self/maps."""
    try:
        with open("/proc/self/maps") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.endswith("[stack]"):
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            return lo, hi
    return None


@pytest.mark.parametrize("alg", ["sha1", "sha224", "sha384"])
def test_hw_driver_dma_oneshot_with_tail_segment(ram, alg):
    """ld_hw_md on the DMA path: ONE job, the whole blocks from the caller's buffer and the
    padded tail (on ld_hw_md's stack) as the tail segment, when the DMA can read both; here
    the model's DMA may read the C stack too (the driver's range is the whole address space)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the C stack is the main thread's only in the main thread")
    stack = _stack_region()
    if stack is None or stack[0] >> 32 != (stack[1] - 1) >> 32:
        pytest.skip("no [stack] in /proc/self/maps, or it straddles a 4 GiB boundary")
    buf, base = ram
    family = FAMILY_OF[alg]
    model = PeripheralModel(family, ram_base=base, ram_size=len(buf), regions=[stack])
    hw = native.HwDevice(
        model.regs,
        model.read32,
        model.write32,
        family,
        ram_base=0,
        ram_size=(1 << 64) - 1,
        timeout_polls=1000,
    )
    arena = native.DmaArena(buf)
    bs = model.bs
    for length in (0, 1, bs - 1, bs, 3 * bs + 5, 3 * bs + bs - 8, 1000):
        model.jobs = []
        msg = random.Random(length).randbytes(length)
        data = arena.put(msg)
        assert hw.md(alg, data, native.PATH_DMA) == hashlib.new(alg, msg).digest()
        assert len(model.jobs) == 1, length
        job = model.jobs[0]
        assert job["kind"] == "dma" and job["first"] and job["last"]
        segs = job["segs"]
        if length >= bs:
            assert job["tail"] and segs[0] == (native.address(data), length // bs * bs)
            assert len(segs) == 2 and stack[0] <= segs[1][0] < stack[1]
        else:
            assert len(segs) == 1 and stack[0] <= segs[0][0] < stack[1]
        assert segs[-1][1] == _blocks_of(length, bs) * bs - length // bs * bs
    model.assert_clean()


@pytest.mark.parametrize("family", FAMILY_ALGS)
@pytest.mark.parametrize("path", [native.PATH_CSR, native.PATH_DMA])
def test_hw_driver_streaming(ram, family, path):
    buf, _ = ram
    model, hw = make_hw(ram, family)
    rng = random.Random(family + str(path))
    arena = native.DmaArena(buf)
    for alg in FAMILY_ALGS[family]:
        msg = rng.randbytes(rng.randrange(2 * model.bs, 3000))
        ctx, h, pos = hw.context(alg, path), hashlib.new(alg), 0
        while pos < len(msg):
            # chunks in RAM, some aligned (DMA), some not (CSR fallback); the first one whole
            # aligned blocks (DMA on that path)
            step = 2 * model.bs if pos == 0 else rng.randint(0, 400)
            chunk = msg[pos : pos + step]
            skew = 0 if pos == 0 else rng.choice([0, 0, 1, 4])
            ctx.update(arena.put(chunk, skew=skew) if chunk else b"")
            h.update(chunk)
            pos += step
        assert ctx.final() == h.digest()
    model.assert_clean()
    if path == native.PATH_DMA:
        assert any(j["kind"] == "dma" for j in model.jobs)


@pytest.mark.parametrize("family", FAMILY_ALGS)
def test_hw_driver_dma_tail_from_ctx_buffer_in_ram(ram, family):
    buf, base = ram
    model, hw = make_hw(ram, family)
    alg = FAMILY_ALGS[family][-1]
    arena = native.DmaArena(buf)
    mem = arena.alloc("ld_hw_md_ctx")  # the context lives in "RAM" too
    ctx = hw.context(alg, native.PATH_DMA, ctx_mem=mem)
    msg = bytes(range(200)) * 2
    data = arena.put(msg)
    ctx.update(data[0:10])  # partial: buffered
    ctx.update(
        ffi.cast("uint8_t(*)[390]", native.address(data) + 10)[0]
    )  # fills buf, unaligned rest
    assert ctx.final() == hashlib.new(alg, msg).digest()
    last = model.jobs[-1]
    assert last["kind"] == "dma" and last["last"] and not last["first"]
    ctx_lo, ctx_hi = native.address(mem), native.address(mem) + ffi.sizeof("ld_hw_md_ctx")
    assert all(ctx_lo <= a < ctx_hi for a, _ in last["segs"])  # the pad inside the context
    # the buffered block went by DMA from the context's own buffer too
    assert any(j["kind"] == "dma" and ctx_lo <= j["segs"][0][0] < ctx_hi for j in model.jobs[:-1])
    with pytest.raises(native.NativeError) as e:
        ctx.final()
    assert e.value.code == lib.LD_ERR_STATE
    model.assert_clean()


@pytest.mark.parametrize("family", FAMILY_ALGS)
def test_hw_driver_unaligned_dma_falls_back_to_csr(ram, family):
    buf, base = ram
    alg = FAMILY_ALGS[family][0]
    msg = bytes(range(256)) * 3
    for align, skew, kind in (
        (64, 1, "csr"),
        (64, 4, "csr"),
        (64, 32, "csr"),
        (4, 4, "dma"),
        (4, 2, "csr"),
    ):
        model, hw = make_hw(ram, family, align=align)
        assert hw.info()["dma_align"] == align
        data = native.DmaArena(buf, 0, align=64).put(msg, skew=skew)
        assert hw.md(alg, data, native.PATH_DMA) == hashlib.new(alg, msg).digest()
        assert model.jobs[0]["kind"] == kind, (align, skew)
        model.assert_clean()


def _job(hw, fn, *args):
    st = ffi.new("uint32_t *")
    return hw.call(fn, hw.dev, *args, st), st[0]


@pytest.mark.parametrize("family", FAMILY_ALGS)
def test_hw_driver_errors_and_recovery(ram, family):
    buf, base = ram
    model, hw = make_hw(ram, family, slots=4, busy_polls=5)
    alg = FAMILY_ALGS[family][-1]
    bs = model.bs
    want = hashlib.new(alg, b"abc").digest()
    # caller buffer outside RAM on the DMA path; an alg of another family; unknown path
    with pytest.raises(native.NativeError) as e:
        hw.md(alg, b"x" * 300, native.PATH_DMA)
    assert e.value.code == lib.LD_ERR_RANGE
    other = "sha1" if family != "sha1" else "sha256"
    for bad in (
        lambda: hw.md(other, b"abc"),
        lambda: hw.context(other),
        lambda: hw.md(alg, b"abc", 7),
    ):
        with pytest.raises(native.NativeError) as e:
            bad()
        assert e.value.code == lib.LD_ERR_ARG
    assert model.errors_seen == 0
    # peripheral-side errors are reported and acked
    slot = lambda s: s << _C["slot"][0]
    cases = [
        (lib.ld_hw_job_dma, (base + len(buf), bs, 0, 0, FIRST), ERR_ADDR),  # outside RAM
        (lib.ld_hw_job_dma, (base + 64 + 4, bs, 0, 0, FIRST), ERR_ADDR),  # unaligned
        (lib.ld_hw_job_dma, (base, bs + 4, 0, 0, FIRST), ERR_LEN),  # not whole blocks
        (lib.ld_hw_job_dma, (base, 0, 0, 0, FIRST), ERR_LEN),  # empty
        (lib.ld_hw_job_dma, (base, bs, base + 64, 8, FIRST), ERR_LEN),  # tail length
        (lib.ld_hw_job_dma, (base, bs, base - 64, bs, FIRST), ERR_ADDR),  # tail outside RAM
        (lib.ld_hw_job_dma, (base, bs, base, 0, FIRST | slot(4)), ERR_STATE),  # no such slot
        (lib.ld_hw_job_csr, (b"x" * 128, bs, FIRST | slot(7)), ERR_STATE),
    ]
    if bs == 128:
        cases.append((lib.ld_hw_job_csr, (b"x" * 128, 64, FIRST), ERR_LEN))  # a short block
    for fn, args, err in cases:
        r, st = _job(hw, fn, *args)
        assert r == lib.LD_ERR_HW and st & ERRORS == err, (args, hex(st))
        assert model.done == 0 and model.errs == 0 and model.words == []  # acked
    assert not model.running and model.jobs == []
    # a start on a busy slot: the second job is refused, the first one still finishes
    data = native.DmaArena(buf).put(b"y" * bs)
    r, st = _job(hw, lib.ld_hw_start_dma, native.address(data), bs, 0, 0, FIRST | slot(2))
    assert r == lib.LD_OK and 2 in model.running
    r, st = _job(hw, lib.ld_hw_start_csr, b"z" * 128, bs, FIRST | slot(2))
    assert r == lib.LD_ERR_HW and st & ERR_STATE and model.errs == 0
    r, st = _job(hw, lib.ld_hw_job_csr, b"z" * 128, bs, FIRST | slot(1))  # another slot is fine
    assert r == lib.LD_OK and st & ERRORS == 0
    assert (
        hw.call(
            lib.ld_hw_md,
            hw.dev,
            native.md_alg(alg),
            native.PATH_CSR,
            b"abc",
            3,
            ffi.new("uint8_t[64]"),
        )
        == lib.LD_OK
    )
    assert not model.running and model.slot_cv[2] == _compress(family, model._iv(0), b"y" * bs)
    # one din word too many: err_state, the word is dropped; init acks, so the driver recovers
    for i in range(model.nbw + 1):
        model.write32(model.regs["din"], i)
    assert model.errs & ERR_STATE and len(model.words) == model.nbw
    assert hw.md(alg, b"abc") == want
    assert model.errs == 0 and model.words == []
    # a rejected job leaves the slot's chaining value as it was
    cv = list(model.slot_cv[0])
    r, st = _job(hw, lib.ld_hw_job_dma, base + 1, bs, 0, 0, FIRST)
    assert r == lib.LD_ERR_HW and model.slot_cv[0] == cv
    # call order
    ctx = hw.context(alg)
    ctx.update(b"abc")
    assert ctx.final() == want
    for op in (ctx.final, lambda: ctx.update(b"x")):
        with pytest.raises(native.NativeError) as e:
            op()
        assert e.value.code == lib.LD_ERR_STATE
    assert hw.cycles() > 0
    assert model.violations == []


@pytest.mark.parametrize("family", FAMILY_ALGS)
def test_hw_driver_timeout(ram, family):
    model, hw = make_hw(ram, family, hang=True, timeout_polls=50)
    alg = FAMILY_ALGS[family][0]
    with pytest.raises(native.NativeError) as e:
        hw.md(alg, b"abc")
    assert e.value.code == lib.LD_ERR_TIMEOUT
    assert 50 <= model.polls <= 52  # bounded by timeout_polls
    # a context that timed out stays failed
    model, hw = make_hw(ram, family, hang=1, timeout_polls=50)
    ctx = hw.context(alg)
    ctx.update(b"a" * model.bs)  # job 0 finishes
    with pytest.raises(native.NativeError) as e:
        ctx.update(b"a" * model.bs)  # job 1 hangs
    assert e.value.code == lib.LD_ERR_TIMEOUT
    for op in (ctx.final, lambda: ctx.update(b"x")):
        with pytest.raises(native.NativeError) as e:
            op()
        assert e.value.code == lib.LD_ERR_STATE


@pytest.mark.parametrize("slots", [33, 64, 80])
def test_hw_driver_many_slot_words(ram, slots):
    """slots_done/slots_ack of more than 32 slots span several words, slot 0 in the last."""
    model, hw = make_hw(ram, "sha1", slots=slots)
    for path in (native.PATH_CSR, native.PATH_DMA):
        msg = native.DmaArena(ram[0]).put(b"q" * 300)
        assert hw.md("sha1", msg, path) == hashlib.sha1(b"q" * 300).digest()
    model.assert_clean()
    assert hw.info()["slots"] == slots


def test_hw_info(ram):
    model, hw = make_hw(ram, "sha256", slots=4, align=64, latency=66, stages=4, arch=1)
    assert hw.info() == dict(
        latency=66,
        stages=4,
        slots=4,
        arch=1,
        dma_align=64,
        in_flight=4,
        period=65,
        interval=65 // 4,
    )
    model, hw = make_hw(ram, "sha512", slots=1, align=4, latency=81, stages=1)
    assert hw.info() == dict(
        latency=81, stages=1, slots=1, arch=0, dma_align=4, in_flight=1, period=81, interval=81
    )
    # Skein skein512:r8:fp2:sp3: 6 blocks in flight over the whole latency (2 ring stages)
    model, hw = make_hw(ram, "skein512", slots=6, latency=20, stages=2, arch=5)
    assert hw.info() == dict(
        latency=20, stages=2, slots=6, arch=5, dma_align=64, in_flight=6, period=20, interval=3
    )
    model, hw = make_hw(ram, "sha1")
    model.info_word = lambda: 0  # not a hash peripheral
    with pytest.raises(native.NativeError) as e:
        hw.info()
    assert e.value.code == lib.LD_ERR_HW


# ------------------------------------------------------------------ the message scheduler


def _check_slot_sequences(model):
    """Per slot, the jobs form whole messages: FIRST opens one, LAST closes it."""
    per_slot = {}
    for j in model.jobs:
        per_slot.setdefault(j["slot"], []).append(j)
    for s, jobs in per_slot.items():
        open_msg = False
        for j in jobs:
            assert j["first"] != open_msg, (s, j["index"])
            open_msg = not j["last"]
        assert not open_msg
    return per_slot


@pytest.mark.parametrize("family", FAMILY_ALGS)
@pytest.mark.parametrize("path", [native.PATH_CSR, native.PATH_DMA], ids=["csr", "dma"])
@pytest.mark.parametrize("nslots", [1, 2, 4, 8])
def test_hw_schedule_many_messages(ram, family, path, nslots):
    buf, base = ram
    rng = random.Random(f"{family}{path}{nslots}")
    engine_slots = 4 if nslots == 8 else nslots  # nslots 8 on a 4-slot engine: uses 4
    for count in (0, 1, rng.randrange(2, 12), 40):
        model, hw = make_hw(
            ram,
            family,
            slots=engine_slots,
            # one seeded generator per lambda, drawn from call after call: not a shared default
            busy_polls=lambda i, r=random.Random(count): r.randint(1, 6),  # noqa: B008
        )
        algs = [rng.choice(FAMILY_ALGS[family]) for _ in range(count)]
        msgs = [
            rng.randbytes(rng.choice([0, rng.randrange(0, 300), rng.randrange(0, 5001)]))
            for _ in range(count)
        ]
        arena = native.DmaArena(buf)
        res = hw.schedule(msgs, algs, path, nslots, arena=arena)
        assert res.rc == lib.LD_OK
        assert res.results == [lib.LD_OK] * count
        assert res.digests == [hashlib.new(a, m).digest() for a, m in zip(algs, msgs)]
        model.assert_clean()
        per_slot = _check_slot_sequences(model)
        # as many slots in flight as the run allows (a job may finish at the status read
        # right after its start, so only a long run is sure to fill them all)
        assert model.max_busy <= min(engine_slots, count) and len(per_slot) <= min(
            engine_slots, count
        )
        if count == 40:
            assert model.max_busy == len(per_slot) == engine_slots
        nblocks = sum(_blocks_of(len(m), model.bs) for m in msgs)
        assert res.stats.jobs == len(model.jobs) and res.stats.blocks == nblocks == model.blocks
        assert res.stats.interval == hw.info()["interval"]
        assert res.stats.cycles > 0
        if path == native.PATH_CSR:
            assert all(j["kind"] == "csr" for j in model.jobs) and len(model.jobs) == nblocks
        else:
            # one job per message: its whole blocks from its buffer, then the slot's pad
            assert len(model.jobs) == count and all(
                j["kind"] == "dma" and j["first"] and j["last"] for j in model.jobs
            )
            for j in model.jobs:
                assert 1 <= len(j["segs"]) <= 2


@pytest.mark.parametrize("path", [native.PATH_CSR, native.PATH_DMA], ids=["csr", "dma"])
def test_hw_schedule_bad_messages(ram, path):
    """A message with a wrong family, an unknown alg, NULL out or NULL data gets LD_ERR_ARG;
    the others still complete."""
    buf, base = ram
    model, hw = make_hw(ram, "sha256", slots=2, busy_polls=3)
    arena = native.DmaArena(buf)
    n = 8
    bodies = [random.Random(i).randbytes(70 * i) for i in range(n)]
    msgs = ffi.new("ld_sched_msg[]", n)
    outs = ffi.new("uint8_t[]", 64 * n)
    keep = []
    for i, b in enumerate(bodies):
        d = arena.put(b) if b else ffi.NULL
        keep.append(d)
        msgs[i].data, msgs[i].len, msgs[i].alg, msgs[i].out = (
            d,
            len(b),
            lib.LD_ALG_SHA256,
            outs + 64 * i,
        )
    msgs[1].alg = lib.LD_ALG_SHA512  # another family
    msgs[3].out = ffi.NULL
    msgs[4].data = ffi.NULL  # len > 0
    msgs[6].alg = lib.LD_ALG_COUNT  # unknown
    slots = arena.alloc("ld_sched_slot", 2)
    st = ffi.new("ld_sched_stats *")
    rc = hw.call(lib.ld_hw_schedule, hw.dev, path, msgs, n, slots, 2, st)
    assert rc == lib.LD_ERR_ARG
    for i in range(n):
        if i in (1, 3, 4, 6):
            assert msgs[i].result == lib.LD_ERR_ARG, i
        else:
            assert msgs[i].result == lib.LD_OK
            assert bytes(ffi.buffer(outs + 64 * i, 32)) == hashlib.sha256(bodies[i]).digest()
    model.assert_clean()
    assert st.jobs == len(model.jobs)
    # bad arguments: nothing runs
    for args in (
        (ffi.NULL, path, msgs, n, slots, 2, st),
        (hw.dev, 7, msgs, n, slots, 2, st),
        (hw.dev, path, msgs, n, slots, 0, st),
        (hw.dev, path, msgs, n, ffi.NULL, 2, st),
        (hw.dev, path, ffi.NULL, n, slots, 2, st),
    ):
        assert hw.call(lib.ld_hw_schedule, *args) == lib.LD_ERR_ARG
    assert hw.call(lib.ld_hw_schedule, hw.dev, path, ffi.NULL, 0, slots, 2, ffi.NULL) == lib.LD_OK


def test_hw_schedule_dma_range(ram):
    """DMA path: a message outside RAM or unaligned gets LD_ERR_RANGE, the others run; one
    shorter than a block needs only the pad (in RAM) and runs wherever it is; slots outside
    RAM: nothing runs, every message gets LD_ERR_RANGE."""
    buf, base = ram
    model, hw = make_hw(ram, "sha512", slots=4, busy_polls=lambda i: 1 + i % 5)
    arena = native.DmaArena(buf)
    rng = random.Random(5)
    bodies = [rng.randbytes(rng.randrange(200, 2000)) for _ in range(10)]
    msgs = [arena.put(b) for b in bodies]
    # (bytes would be copied into the arena: cdata is passed at its own address)
    msgs[2] = ffi.from_buffer(bodies[2])  # host memory, outside RAM
    msgs[5] = arena.put(bodies[5], skew=8)  # unaligned
    bodies[7] = b"short" * 10
    msgs[7] = ffi.from_buffer(bodies[7])  # < one block, outside RAM: fine
    res = hw.schedule(msgs, "sha384", native.PATH_DMA, 4, arena=arena)
    assert res.rc == lib.LD_ERR_RANGE
    for i, b in enumerate(bodies):
        if i in (2, 5):
            assert res.results[i] == lib.LD_ERR_RANGE and res.digests[i] is None
        else:
            assert res.results[i] == lib.LD_OK and res.digests[i] == hashlib.sha384(b).digest()
    model.assert_clean()
    # the same messages on the CSR path: all fine
    res = hw.schedule(msgs, "sha384", native.PATH_CSR, 4)
    assert res.rc == lib.LD_OK and res.digests == [hashlib.sha384(b).digest() for b in bodies]
    # slots outside RAM (or unaligned)
    for slots in (native.aligned_new("ld_sched_slot", 4), arena.alloc("ld_sched_slot", 4, skew=4)):
        n_jobs = len(model.jobs)
        res = hw.schedule([arena.put(b) for b in bodies], "sha384", native.PATH_DMA, 4, slots=slots)
        assert res.rc == lib.LD_ERR_RANGE and res.results == [lib.LD_ERR_RANGE] * len(bodies)
        assert len(model.jobs) == n_jobs


@pytest.mark.parametrize("path", [native.PATH_CSR, native.PATH_DMA], ids=["csr", "dma"])
def test_hw_schedule_timeout(ram, path):
    """A hang gives LD_ERR_TIMEOUT (not a hang of the caller); every unfinished message gets
    LD_ERR_TIMEOUT, the finished ones keep their digests."""
    buf, base = ram
    model, hw = make_hw(ram, "sha1", slots=3, hang=7, busy_polls=2, timeout_polls=50)
    bodies = [random.Random(i).randbytes(100 + 37 * i) for i in range(12)]
    res = hw.schedule(bodies, "sha1", path, 3, arena=native.DmaArena(buf))
    assert res.rc == lib.LD_ERR_TIMEOUT
    assert set(res.results) == {lib.LD_OK, lib.LD_ERR_TIMEOUT}
    ok = [i for i, r in enumerate(res.results) if r == lib.LD_OK]
    assert ok and all(res.digests[i] == hashlib.sha1(bodies[i]).digest() for i in ok)
    assert model.polls < 200
    assert model.violations == [] and model.errors_seen == 0
    assert res.stats.jobs == len(model.jobs)
    # a peripheral that never finishes anything
    model, hw = make_hw(ram, "sha1", slots=3, hang=True, timeout_polls=50)
    res = hw.schedule(bodies, "sha1", path, 3, arena=native.DmaArena(buf))
    assert res.rc == lib.LD_ERR_TIMEOUT and res.results == [lib.LD_ERR_TIMEOUT] * len(bodies)
    assert len(model.jobs) == 3


def test_hw_schedule_bus_error(ram):
    """err_bus does not say which slot's DMA failed: no message may come back LD_OK with a
    wrong digest; the failing one gets LD_ERR_HW, and the run goes on."""
    buf, base = ram
    arena = native.DmaArena(buf)
    rng = random.Random(9)
    bodies = [rng.randbytes(rng.randrange(64, 1500)) for _ in range(20)]
    msgs = [arena.put(b) for b in bodies]
    bad = native.address(msgs[6]) + 64  # the second block of message 6
    for polls in (1, 3, 7):
        model, hw = make_hw(
            ram,
            "sha256",
            slots=4,
            bus_error=lambda a: a == bad,
            # one seeded generator per lambda, drawn from call after call: not a shared default
            busy_polls=lambda i, r=random.Random(polls), polls=polls: r.randint(1, polls),  # noqa: B008
        )
        res = hw.schedule(msgs, "sha256", native.PATH_DMA, 4, arena=arena)
        assert res.rc == lib.LD_ERR_HW and model.errors_seen == ERR_BUS
        assert res.results[6] == lib.LD_ERR_HW
        for i, b in enumerate(bodies):
            assert res.results[i] in (lib.LD_OK, lib.LD_ERR_HW)
            if res.results[i] == lib.LD_OK:
                assert res.digests[i] == hashlib.sha256(b).digest(), i
        assert res.results[-4:] == [lib.LD_OK] * 4  # started after the error was acked
        assert model.errs == 0 and not model.running


# ------------------------------------------------------------------ the scheduler's policy


def _ntail(length, bs):
    return len(py_md_pad(bytes(length % bs), length, bs)) // bs


def _run_policy(lengths, algs, nslots, whole, rng, fail=()):
    """Drive ld_sched_init/next/complete directly, completing a random outstanding job each
    time next() says to wait; check the invariants at every step. Returns the issued jobs."""
    n = len(lengths)
    data = ffi.new("uint8_t[]", max(lengths, default=0) + 1)
    outs = ffi.new("uint8_t[]", 64 * max(n, 1))
    msgs = ffi.new("ld_sched_msg[]", max(n, 1))
    for i, (ln, a) in enumerate(zip(lengths, algs)):
        msgs[i].data, msgs[i].len, msgs[i].alg, msgs[i].out = (
            data,
            ln,
            native.md_alg(a),
            outs + 64 * i,
        )
    slots = native.aligned_new("ld_sched_slot", nslots)
    s, job = ffi.new("ld_sched *"), ffi.new("ld_sched_job *")
    assert lib.ld_sched_init(s, msgs, n, slots, nslots, whole) == lib.LD_OK
    bs = [lib.ld_md_block_size(native.md_alg(a)) for a in algs]
    total = [lengths[i] // bs[i] + _ntail(lengths[i], bs[i]) for i in range(n)]
    outstanding = {}  # slot -> (msg, end block)
    progress = [0] * n  # next block expected per message
    slot_msg = {}  # slot -> message it holds
    started, finished, issued, just_freed = [], set(), [], set()
    while True:
        r = lib.ld_sched_next(s, job)
        if r == 1:
            j = tuple(native.sched_job(job))[:6]  # slot, msg, first_block, nblocks, first, last
            slot, m, fb, nb, first, last = j
            issued.append(j)
            assert slot < nslots and slot not in outstanding, "two jobs on one slot"
            assert m not in finished and fb == progress[m], "blocks in order, once"
            assert nb == (total[m] - fb if whole else 1)
            assert first == (fb == 0) and last == (fb + nb == total[m])
            assert int(job.data_blocks) + int(job.tail_blocks) == nb
            whole_blocks = lengths[m] // bs[m]
            if fb < whole_blocks:
                assert int(ffi.cast("uintptr_t", job.data)) == native.address(data) + fb * bs[m]
                assert int(job.data_blocks) == (whole_blocks - fb if whole else 1)
            if first:
                assert m == len(started), "messages start in order"
                started.append(m)
                assert slot_msg.get(slot) is None
                slot_msg[slot] = m
            else:
                assert slot_msg[slot] == m
            just_freed.discard(slot)
            progress[m] += nb
            outstanding[slot] = (m, fb + nb)
            continue
        if r < 0:
            break
        assert r == 0 and outstanding, "waits with nothing outstanding"
        # waiting: every slot with a message has a job out, and a freed slot was refilled
        assert not just_freed or len(started) == n
        assert len(outstanding) == min(nslots, n - len(finished))
        slot = rng.choice(sorted(outstanding))
        m, end = outstanding.pop(slot)
        res = lib.LD_ERR_HW if (m, end) in fail else lib.LD_OK
        got = lib.ld_sched_complete(s, slot, res)
        if end == total[m] or res != lib.LD_OK:
            assert got == m
            finished.add(m)
            assert msgs[m].result == res
            slot_msg[slot] = None
            just_freed.add(slot)
        else:
            assert got == -1
    assert finished == set(range(n)) and not outstanding
    assert all(progress[m] == total[m] for m in range(n) if msgs[m].result == lib.LD_OK)
    assert lib.ld_sched_next(s, job) == -1
    assert lib.ld_sched_complete(s, 0, lib.LD_OK) == -1  # nothing outstanding
    return issued


@pytest.mark.parametrize("nslots", [1, 2, 3, 4, 8])
@pytest.mark.parametrize("whole", [0, 1])
def test_sched_policy_invariants(nslots, whole):
    rng = random.Random(nslots * 10 + whole)
    for _trial in range(30):
        n = rng.randrange(0, 25)
        family = rng.choice(list(FAMILY_ALGS))
        algs = [rng.choice(FAMILY_ALGS[family]) for _ in range(n)]
        lengths = [
            rng.choice([0, 55, 56, 64, 111, 112, 128, rng.randrange(0, 3000)]) for _ in range(n)
        ]
        _run_policy(lengths, algs, nslots, whole, rng)
    # a job that fails ends its message at once; its slot is refilled
    lengths = [1000] * 6
    issued = _run_policy(lengths, ["sha256"] * 6, nslots, whole, rng, fail={(2, 1), (4, 16)})
    assert 5 in [m for _, m, _, _, _, _ in issued]


def test_sched_policy_errors():
    s, job = ffi.new("ld_sched *"), ffi.new("ld_sched_job *")
    slots = native.aligned_new("ld_sched_slot", 2)
    msgs = ffi.new("ld_sched_msg[]", 1)
    assert lib.ld_sched_init(ffi.NULL, msgs, 1, slots, 2, 0) == lib.LD_ERR_ARG
    assert lib.ld_sched_init(s, ffi.NULL, 1, slots, 2, 0) == lib.LD_ERR_ARG
    assert lib.ld_sched_init(s, msgs, 1, ffi.NULL, 2, 0) == lib.LD_ERR_ARG
    assert lib.ld_sched_init(s, msgs, 1, slots, 0, 0) == lib.LD_ERR_ARG
    assert lib.ld_sched_init(s, ffi.NULL, 0, slots, 2, 0) == lib.LD_OK
    assert lib.ld_sched_next(s, job) == lib.LD_SCHED_DONE == -1
    assert lib.ld_sched_next(ffi.NULL, job) == lib.LD_SCHED_BAD_ARG != lib.LD_SCHED_DONE
    assert lib.ld_sched_next(s, ffi.NULL) == lib.LD_SCHED_BAD_ARG
    assert lib.ld_sched_complete(s, 5, lib.LD_OK) == -1
    with pytest.raises(native.NativeError):
        native.sched_order([10], "sha256", 0)
    with pytest.raises(ValueError):
        native.sched_order([10], "md5", 1)


@pytest.mark.parametrize("nslots", [1, 2, 4, 8])
@pytest.mark.parametrize("whole", [False, True])
def test_sched_order(nslots, whole):
    """sched_order: the jobs in issue order under a FIFO (pipeline) executor."""
    rng = random.Random(nslots)
    lengths = [rng.randrange(0, 2000) for _ in range(3 * nslots + 5)]
    order = native.sched_order(lengths, "sha256", nslots, whole)
    per_msg = {}
    for j in order:
        per_msg.setdefault(j.msg, []).append(j)
    assert sorted(per_msg) == list(range(len(lengths)))
    for m, jobs in per_msg.items():
        total = _blocks_of(lengths[m], 64)
        assert [j.first_block for j in jobs] == list(range(0, total, 1) if not whole else [0])
        assert sum(j.nblocks for j in jobs) == total
        assert jobs[0].first and jobs[-1].last and len({j.slot for j in jobs}) == 1
    # messages start in order
    firsts = [j.msg for j in order if j.first]
    assert firsts == sorted(firsts)
    # full occupancy: while messages are left to start, the slots take turns
    last_start = next(i for i, j in enumerate(order) if j.msg == len(lengths) - 1)
    assert [j.slot for j in order[: last_start + 1]] == [i % nslots for i in range(last_start + 1)]
    # the FIFO executor gives the same order as any run completing jobs in issue order
    assert order == native.sched_order(lengths, ["sha256"] * len(lengths), nslots, whole)
    # mixed algorithms (per-message block sizes)
    order = native.sched_order([200, 200], ["sha1", "sha512"], 2)
    assert [(j.msg, j.nblocks) for j in order if j.first] == [(0, 1), (1, 1)]
    assert sum(1 for j in order if j.msg == 1) == 2 and sum(1 for j in order if j.msg == 0) == 4


# --- the scheduler on Skein-512 messages (two UBIs per message, a tweak per job) ----------

SKEIN_SIZES = native.SKEIN_SIZES
OUT_T1 = (63 << 56) | (1 << 62) | (1 << 63)  # the output UBI's tweak: type OUT, first, final


def _skein_ref(msg, bits):
    import skein as pyskein

    return pyskein.skein512(msg, digest_bits=bits).digest()


def _skein_batch(rng, n):
    msgs = [
        rng.randbytes(rng.choice([0, 1, 63, 64, 65, 127, 128, 129, rng.randrange(0, 1500)]))
        for _ in range(n)
    ]
    return msgs, [rng.choice(SKEIN_SIZES) for _ in msgs]


@pytest.mark.parametrize("nslots", [1, 3, 6])
@pytest.mark.parametrize("whole", [False, True])
def test_sched_skein_policy_run_by_software_ubi(nslots, whole):
    """The policy's Skein jobs (blocks, first/variant, start tweak, final bytes) executed one UBI
    job at a time by the software UBI, chaining per slot, give pyskein's digests."""
    rng = random.Random(100 * nslots + whole)
    msgs, bits = _skein_batch(rng, 4 * nslots + 3)
    jobs = native.sched_order(None, [f"skein512-{b}" for b in bits], nslots, whole, messages=msgs)
    cv, got, count = {}, {}, collections.Counter()
    for j in jobs:
        assert j.skein and j.out == whole and len(j.blocks) == 64 * (j.nblocks - j.out)
        cv[j.slot] = native.skein512_ubi(
            j.variant if j.first else cv[j.slot], j.blocks, j.t0, j.t1, j.final_bytes
        )
        if j.out:  # what the peripheral appends (ctrl.out)
            cv[j.slot] = native.skein512_ubi(cv[j.slot], bytes(64), 0, OUT_T1, 8)
        count[j.msg] += 1
        if j.out or j.t1 >> 56 & 0x3F == 63:  # the output UBI: the message is done
            assert j.last and j.msg not in got
            got[j.msg] = cv[j.slot][: bits[j.msg] // 8]
    assert got == {i: _skein_ref(m, b) for i, (m, b) in enumerate(zip(msgs, bits))}
    for i, m in enumerate(msgs):  # DMA: one job per message; CSR: a job per block
        assert count[i] == (1 if whole else max(1, -(-len(m) // 64)) + 1)


def test_sched_skein_algs():
    assert native.sched_alg("skein512-256") == lib.LD_ALG_SKEIN512_BASE + 256
    assert lib.ld_sched_digest_size(native.sched_alg("skein512-224")) == 28
    assert lib.ld_skein512_alg_bits(lib.LD_ALG_SKEIN512_BASE + 200) == 0  # no configured IV
    assert lib.ld_sched_digest_size(lib.LD_ALG_SKEIN512_BASE + 200) == 0
    with pytest.raises(native.NativeError):
        native.sched_order([10], lib.LD_ALG_SKEIN512_BASE + 200, 1)
    with pytest.raises(ValueError):
        native.sched_order([10], "skein512-200", 1)


@pytest.mark.parametrize("path", [native.PATH_CSR, native.PATH_DMA], ids=["csr", "dma"])
@pytest.mark.parametrize("slots", [1, 3, 6])
def test_hw_schedule_skein(ram, path, slots):
    """ld_hw_schedule on a Skein peripheral model: every message's digest equals pyskein's,
    the slots fill, and the stats describe the engine (slots = blocks in flight)."""
    buf, base = ram
    rng = random.Random(f"skein{path}{slots}")
    # jobs outlast the issue of a wave (the CSR path writes ~25 registers per job)
    model, hw = make_hw(
        ram,
        "skein512",
        slots=slots,
        latency=20,
        # one seeded generator per lambda, drawn from call after call: not a shared default
        busy_polls=lambda i, r=random.Random(slots): r.randint(8, 20),  # noqa: B008
    )
    msgs, bits = _skein_batch(rng, 3 * slots + 4)
    res = hw.schedule(msgs, [f"skein512-{b}" for b in bits], path, arena=native.DmaArena(buf))
    assert res.rc == lib.LD_OK and res.results == [lib.LD_OK] * len(msgs)
    assert res.digests == [_skein_ref(m, b) for m, b in zip(msgs, bits)]
    model.assert_clean()
    assert model.max_busy == slots
    nblocks = sum(max(1, -(-len(m) // 64)) + 1 for m in msgs)
    assert res.stats.blocks == nblocks == model.blocks
    assert (res.stats.period, res.stats.in_flight) == (20, slots)
    info = hw.info()
    assert (info["in_flight"], info["period"], info["interval"]) == (slots, 20, 20 // slots)
    if path == native.PATH_DMA:  # one job per message, the output block made by the peripheral
        assert len(model.jobs) == len(msgs) and all(
            j["kind"] == "dma" and j["out"] for j in model.jobs
        )
    else:
        assert not any(j["out"] for j in model.jobs)


def test_hw_schedule_skein_bad_messages(ram):
    """Wrong family either way, a size without a configured IV: LD_ERR_ARG for that message,
    the others complete; a Skein device without tweak registers refuses Skein messages."""
    buf, base = ram
    model, hw = make_hw(ram, "skein512", slots=2, busy_polls=3)
    msgs = [b"a" * 100, b"b" * 10, b"c" * 70, b"d" * 5]
    algs = ["skein512-256", "sha256", lib.LD_ALG_SKEIN512_BASE + 200, "skein512-512"]
    res = hw.schedule(msgs, algs, native.PATH_DMA, arena=native.DmaArena(buf))
    assert res.results == [lib.LD_OK, lib.LD_ERR_ARG, lib.LD_ERR_ARG, lib.LD_OK]
    assert res.rc == lib.LD_ERR_ARG
    assert res.digests[0] == _skein_ref(msgs[0], 256) and res.digests[3] == _skein_ref(msgs[3], 512)
    model.assert_clean()
    _, sha = make_hw(ram, "sha256", slots=2, busy_polls=3)
    res = sha.schedule([b"x" * 3], ["skein512-256"], native.PATH_CSR)
    assert res.results == [lib.LD_ERR_ARG]
    regs = dict(model.regs)
    del regs["tweak"], regs["final_bytes"]
    bare = native.HwDevice(
        regs,
        model.read32,
        model.write32,
        "skein512",
        ram_base=base,
        ram_size=len(buf),
        timeout_polls=1000,
    )
    res = bare.schedule([b"x" * 3], ["skein512-256"], native.PATH_CSR)
    assert res.results == [lib.LD_ERR_ARG]


# ------------------------------------------------------------------ batches: ld_hw_md_batch

_B = {
    r["name"].strip("`"): 1 << int(r["bit"])
    for r in _md_table(open(REGISTERS_MD).read(), "`batch_status` fields:")
}
BATCH_START = 1 << _C["batch_start"][0]


class WalkerModel(PeripheralModel):
    """PeripheralModel with the batch walker (soc/REGISTERS.md, "Batches"): at each poll of
    batch_status it walks `steps(poll)` more descriptors of the table in host memory, checks
    each as the hardware does and writes hashlib's digest of the message (the chaining value's
    first digest-size bytes) to its output address. Recorded: `batches`, the (base, count)
    of every batch started, `walked`, the descriptors taken in order, and `ahead`, for each
    batch, the descriptors after its table already written when it was first polled."""

    def __init__(self, family="sha256", steps=lambda poll: 1, **kw):
        super().__init__(family, **kw)
        addr = max(self.regs.values()) + 4 * max(self.size.values())
        for name, words in (
            ("batch_base", 1),
            ("batch_count", 1),
            ("batch_status", 1),
            ("batch_progress", 1),
            ("batch_start_cycles", 2),
        ):
            self.regs[name], self.size[name] = addr, words
            addr += 4 * words
        self.store |= dict(batch_base=0, batch_count=0)
        self.steps, self.batch = steps, None
        self.bstatus = self.progress = 0
        self.batches, self.walked, self.ahead = [], [], []
        self.out_bytes = 64 if family == "sha512" else 32

    def _desc_ok(self, addr, length, out, flags):
        msg_ok = length <= 0xFFFFFF80 and (length == 0 or self._in_ram(addr, length))
        out_ok = out % self.out_bytes == 0 and any(
            lo <= out and out + self.out_bytes <= hi for lo, hi in self.regions
        )
        return msg_ok and out_ok and flags < len(FAMILY_ALGS[self.family])

    def _walk(self, n):
        b = self.batch
        while n > 0 and b["next"] < b["count"]:
            n -= 1
            at = self._host(b["base"]) + 16 * b["next"]
            addr, length, out, flags = struct.unpack(
                "<4I", bytes(ffi.buffer(ffi.cast("uint8_t *", at), 16))
            )
            addr, out = self._host(addr), self._host(out)
            self.walked.append((addr, length, out, flags))
            if not self._desc_ok(addr, length, out, flags):
                self.bstatus |= _B["err_desc"]
                break
            if self.bus_error and length and self.bus_error(addr):
                self.bstatus |= _B["err_bus"]
                break
            msg = bytes(ffi.buffer(ffi.cast("uint8_t *", addr), length)) if length else b""
            digest = hashlib.new(FAMILY_ALGS[self.family][flags], msg).digest()
            ffi.memmove(ffi.cast("uint8_t *", out), digest, len(digest))
            b["next"] += 1
            self.progress += 1
        if b["next"] == b["count"] or self.bstatus & (_B["err_desc"] | _B["err_bus"]):
            self.bstatus = (self.bstatus & ~_B["busy"]) | _B["done"]
            self.batch = None

    def write32(self, addr, v):
        name, _ = self._reg(addr)
        if name == "ctrl" and v & BATCH_START:
            self.cycles += 1
            if self.batch is not None or self.running or self.sdone:
                self.bstatus |= _B["err_state"] | _B["done"]
                return
            self.batch = dict(
                base=self.store["batch_base"], count=self.store["batch_count"], next=0, polls=0
            )
            self.batches.append((self._host(self.batch["base"]), self.batch["count"]))
            self.bstatus, self.progress = _B["busy"], 0
            return
        if name == "ctrl" and v & ACK and self.batch is None:
            self.bstatus = 0
        super().write32(addr, v)

    def read32(self, addr):
        name, _ = self._reg(addr)
        if name == "batch_status":
            self.cycles += 1
            if self.batch is not None and self.batch["polls"] == 0:
                b, k = self.batch, 0
                end = self._host(b["base"]) + 16 * b["count"]
                while (
                    end + 16 * k + 16 <= self.ram_base + self.ram_size
                    and struct.unpack(
                        "<I", bytes(ffi.buffer(ffi.cast("uint8_t *", end + 16 * k + 8), 4))
                    )[0]
                ):
                    k += 1  # (a written descriptor's output address is never 0)
                self.ahead.append(k)
            if self.batch is not None and not self.hang:
                self.batch["polls"] += 1
                self._walk(self.steps(self.batch["polls"]))
            return self.bstatus
        if name == "batch_progress":
            self.cycles += 1
            return self.progress
        return super().read32(addr)


def make_walker(ram, family="sha256", **kw):
    buf, base = ram
    model = WalkerModel(family, ram_base=base, ram_size=len(buf), **kw)
    hw = native.HwDevice(
        model.regs, model.read32, model.write32, family, ram_base=base, ram_size=len(buf)
    )
    return model, hw


def run_md_batch(hw, arena, alg, msgs, lengths=None, table=None, outs=None):
    """ld_hw_md_batch over `msgs` (cdata in the model's RAM; `lengths`: theirs by default):
    (rc, done, digests as bytes, table)."""
    n, stride = len(msgs), lib.ld_hw_batch_stride(native.md_alg(alg))
    lengths = lengths if lengths is not None else [ffi.sizeof(m) for m in msgs]
    table = table if table is not None else arena.alloc("ld_hw_batch_desc", max(n, 1), align=16)
    outs = outs if outs is not None else arena.alloc("uint8_t", max(n, 1) * stride, align=64)
    ptrs = ffi.new("void *[]", [ffi.cast("void *", m) for m in msgs] or [ffi.NULL])
    lens = ffi.new("size_t[]", lengths or [0])
    done = ffi.new("size_t *", 12345)
    rc = hw.call(lib.ld_hw_md_batch, hw.dev, native.md_alg(alg), table, ptrs, lens, n, outs, done)
    size = hashlib.new(alg).digest_size
    digests = [bytes(ffi.buffer(outs + i * stride, size)) for i in range(n)]
    return rc, done[0], digests, table


def _batch_runs(n):
    """The runs ld_hw_md_batch hands the walker: 8, 16, 32, 64, then 128 each."""
    runs, size = [], 8
    while n > 0:
        runs.append(min(size, n))
        n -= runs[-1]
        size = min(2 * size, 128)
    return runs


@pytest.mark.parametrize("n", [0, 1, 8, 9, 24, 25, 300])
@pytest.mark.parametrize("alg", ["sha256", "sha1", "sha512", "sha224"])
def test_md_batch_in_overlapping_runs(ram, alg, n):
    buf, _ = ram
    rng = random.Random(n * 31 + len(alg))
    stalls = random.Random(n)  # the walker's progress at each poll: 0 to 4 descriptors
    model, hw = make_walker(ram, FAMILY_OF[alg], steps=lambda poll: stalls.randint(0, 4))
    arena = native.DmaArena(buf)
    bodies = [
        rng.randbytes(rng.choice([0, 1, 55, 56, 64, 111, 112, 128, rng.randrange(700)]))
        for _ in range(n)
    ]
    msgs = [arena.put(b) if b else arena.alloc("uint8_t", 0) for b in bodies]
    rc, done, digests, table = run_md_batch(hw, arena, alg, msgs, [len(b) for b in bodies])
    assert (rc, done) == (lib.LD_OK, n)
    assert digests == [hashlib.new(alg, b).digest() for b in bodies]
    base = native.address(table)
    starts = [base + 16 * sum(_batch_runs(n)[:k]) for k in range(len(_batch_runs(n)))]
    assert model.batches == list(zip(starts, _batch_runs(n)))
    # the CPU filled each next run before it first polled the one walking
    assert model.ahead[:-1] == _batch_runs(n)[1:]
    assert model.violations == [] and model.bstatus == 0 and model.batch is None


def test_md_batch_refused_message_ends_it_at_its_index(ram):
    """A message the descriptor cannot hold: the ones before it are hashed and written, *done
    is its index, the walker never sees it, and the error says which check failed."""
    buf, base = ram
    rng = random.Random(5)
    for k, bad, rc_bad in (
        (0, base + 1, lib.LD_ERR_RANGE),  # not aligned
        (7, base + 3, lib.LD_ERR_RANGE),
        (8, base - 4096, lib.LD_ERR_RANGE),  # outside the DMA's RAM
        (30, base + len(buf) - 32, lib.LD_ERR_RANGE),  # runs past its end
        (41, None, lib.LD_ERR_ARG),  # too long
    ):
        model, hw = make_walker(ram, "sha256", steps=lambda poll: rng.randint(0, 3))
        arena = native.DmaArena(buf, 4096)
        bodies = [rng.randbytes(rng.randrange(200)) for _ in range(60)]
        msgs = [arena.put(b + b"\0") for b in bodies]  # (never empty: a real address)
        bodies = [b + b"\0" for b in bodies]
        n, stride = len(msgs), 32
        table = arena.alloc("ld_hw_batch_desc", n, align=16)
        outs = arena.alloc("uint8_t", n * stride, align=64)
        ptrs = ffi.new("void *[]", [ffi.cast("void *", m) for m in msgs])
        lens = ffi.new("size_t[]", [len(b) for b in bodies])
        if bad is None:
            lens[k] = 0xFFFFFF81
        else:
            ptrs[k] = ffi.cast("void *", bad)
        done = ffi.new("size_t *")
        alg = native.md_alg("sha256")
        rc = hw.call(lib.ld_hw_md_batch, hw.dev, alg, table, ptrs, lens, n, outs, done)
        assert (rc, done[0]) == (rc_bad, k)
        assert len(model.walked) == k and model.bstatus == 0 and model.batch is None
        for i in range(k):
            assert bytes(ffi.buffer(outs + i * stride, 32)) == hashlib.sha256(bodies[i]).digest()


def test_md_batch_range_of_table_and_outputs(ram):
    """The table and the output area are checked before anything starts."""
    buf, base = ram
    model, hw = make_walker(ram)
    arena = native.DmaArena(buf)
    msgs = [arena.put(bytes(64)) for _ in range(3)]
    table = arena.alloc("ld_hw_batch_desc", 3, align=16)
    outs = arena.alloc("uint8_t", 96, align=64)
    skewed = ffi.cast("ld_hw_batch_desc *", ffi.cast("uint8_t *", table) + 4)
    assert run_md_batch(hw, arena, "sha256", msgs, table=skewed)[:2] == (lib.LD_ERR_ARG, 0)
    outside = ffi.new("uint8_t[]", 128)
    assert run_md_batch(hw, arena, "sha256", msgs, outs=outside)[:2] == (lib.LD_ERR_RANGE, 0)
    unaligned = ffi.cast("uint8_t *", outs) + 8
    assert run_md_batch(hw, arena, "sha256", msgs, outs=unaligned)[:2] == (lib.LD_ERR_RANGE, 0)
    assert model.batches == [] and model.violations == []


def test_md_batch_bus_error_and_timeout(ram):
    buf, base = ram
    arena = native.DmaArena(buf)
    bodies = [bytes([i]) * 64 for i in range(40)]
    msgs = [arena.put(b) for b in bodies]
    bad = native.address(msgs[20])
    model, hw = make_walker(ram, bus_error=lambda a: a == bad, steps=lambda poll: 2)
    rc, done, digests, _ = run_md_batch(hw, arena, "sha256", msgs)
    assert (rc, done) == (lib.LD_ERR_HW, 20)  # runs 8 and 16: the second stops at message 20
    assert digests[:20] == [hashlib.sha256(b).digest() for b in bodies[:20]]
    assert model.bstatus == 0  # acknowledged
    model, hw = make_walker(ram, hang=True)
    hw.dev.timeout_polls = 50
    rc, done, _, _ = run_md_batch(hw, arena, "sha256", msgs)
    assert (rc, done) == (lib.LD_ERR_TIMEOUT, 0) and model.batch is not None


def test_md_batch_lengths_runs_a_ring(ram):
    """A descriptor ring: the table set once for buffers of `cap` bytes, then run again and
    again with new lengths (only the length words written): every digest hashlib's of the
    buffer's first lens[i] bytes; a length over the capacity ends it at its index."""
    buf, _ = ram
    rng = random.Random(11)
    cap, n = 256, 70
    model, hw = make_walker(ram, "sha256", steps=lambda poll: rng.randint(0, 5))
    arena = native.DmaArena(buf)
    bodies = [rng.randbytes(cap) for _ in range(n)]
    msgs = [arena.put(b) for b in bodies]
    rc, done, _, table = run_md_batch(hw, arena, "sha256", msgs)  # sets the ring (length cap)
    assert (rc, done) == (lib.LD_OK, n)
    stride = 32
    out_at = [
        struct.unpack("<I", bytes(ffi.buffer(ffi.cast("uint8_t *", table) + 16 * i + 8, 4)))[0]
        for i in range(n)
    ]
    for rnd in range(3):
        lengths = [rng.choice([0, 1, 55, 56, 64, 200, cap]) for _ in range(n)]
        bad = 33 if rnd == 2 else None
        if bad is not None:
            lengths[bad] = cap + 1
        lens = ffi.new("size_t[]", lengths)
        done = ffi.new("size_t *")
        model.batches.clear()
        rc = hw.call(lib.ld_hw_md_batch_lengths, hw.dev, table, lens, n, cap, done)
        upto = n if bad is None else bad
        assert (rc, done[0]) == ((lib.LD_OK, n) if bad is None else (lib.LD_ERR_RANGE, bad))
        for i in range(upto):
            got = bytes(ffi.buffer(ffi.cast("uint8_t *", model._host(out_at[i])), stride))
            assert got == hashlib.sha256(bodies[i][: lengths[i]]).digest(), (rnd, i)
        assert sum(c for _, c in model.batches) == upto
    bad_args = ffi.new("size_t[]", [1])
    assert hw.call(lib.ld_hw_md_batch_lengths, hw.dev, table, bad_args, 1, 0xFFFFFF81, done) == (
        lib.LD_ERR_ARG
    )
