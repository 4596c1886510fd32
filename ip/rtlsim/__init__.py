# SPDX-License-Identifier: BSD-2-Clause
"""Run one bare engine in Verilator from Python (the `rtl` backend and the gateware tests).

`RTLSim(spec)` exports the engine to Verilog, compiles it with the C++ harness next to this
file into a shared library (cached under build/rtlsim/<hash>/, keyed by the Verilog and the
harness source; litedigest.buildcache: the build root, a lock per build directory), and
drives it through ctypes.
"""

import ctypes
import hashlib
import os
import shutil
import struct
import subprocess
from pathlib import Path

from litedigest import buildcache

from ..engines import engine_verilog

HERE = Path(__file__).resolve().parent


def _verilator_root():
    out = subprocess.run(
        ["verilator", "--getenv", "VERILATOR_ROOT"], capture_output=True, text=True, check=True
    )
    return Path(out.stdout.strip())


class RTLSimError(RuntimeError):
    pass


def build_library(spec, slots=None, build_dir=None):
    """Compile (or reuse) the harness library for an engine. Returns (engine, path)."""
    engine, vtext = engine_verilog(spec, slots)
    bw, cw = engine.block_bits // 32, engine.digest_bits // 32
    harness = (HERE / "harness.cpp").read_text()
    key = hashlib.sha256((vtext + harness + f"{bw},{cw}").encode()).hexdigest()[:16]
    out_dir = Path(build_dir or buildcache.build_root()) / "rtlsim" / key
    lib = out_dir / "libldsim.so"
    if lib.exists():
        return engine, lib
    if shutil.which("verilator") is None:
        raise RTLSimError("verilator is not installed (run scripts/setup.sh)")
    with buildcache.locked(
        out_dir
    ):  # concurrent builders (pytest-xdist): one builds, the others wait
        if not lib.exists():
            _build(engine, vtext, bw, cw, out_dir, lib)
    return engine, lib


def _build(engine, vtext, bw, cw, out_dir, lib):
    """Verilate and compile the harness library into out_dir (the caller holds its lock)."""
    tmp = out_dir / "work"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    (tmp / "ld_engine.v").write_text(vtext)
    flags = f"-fPIC -O2 -DLD_BLOCK_WORDS={bw} -DLD_CV_WORDS={cw}"
    if hasattr(engine.sink, "tweak"):
        flags += " -DLD_TWEAK"
    if hasattr(engine.sink, "key"):
        flags += " -DLD_KEYS"
    run = lambda cmd: subprocess.run(cmd, cwd=tmp, check=True, capture_output=True, text=True)
    try:
        run(
            [
                "verilator",
                "--cc",
                "ld_engine.v",
                "--top-module",
                "ld_engine",
                "-O3",
                "-Wno-fatal",
                "-Wno-lint",
                "-Wno-style",
                "--Mdir",
                "obj",
                "-CFLAGS",
                flags,
            ]
        )
        # the model archive plus Verilator's runtime objects (VM_GLOBAL_FAST)
        run(
            [
                "make",
                "-s",
                "-C",
                "obj",
                "-f",
                "Vld_engine.mk",
                f"-j{os.cpu_count() or 2}",
                "Vld_engine__ALL.a",
                "verilated.o",
                "verilated_threads.o",
            ]
        )
        root = _verilator_root()
        objs = ["obj/Vld_engine__ALL.a", "obj/verilated.o", "obj/verilated_threads.o"]
        run(
            [
                "g++",
                "-shared",
                *flags.split(),
                "-std=c++17",
                "-Iobj",
                f"-I{root}/include",
                f"-I{root}/include/vltstd",
                str(HERE / "harness.cpp"),
                "-Wl,--whole-archive",
                *objs,
                "-Wl,--no-whole-archive",
                "-pthread",
                "-o",
                "libldsim.so",
            ]
        )
    except subprocess.CalledProcessError as e:
        raise RTLSimError(
            f"building the engine simulator failed: {' '.join(e.cmd)}\n"
            f"{e.stdout[-3000:]}{e.stderr[-3000:]}"
        ) from None
    os.replace(tmp / "libldsim.so", lib)  # whole: readers check for it without the lock


class Block:
    """One block for the engine: `words` (block_bits/word_bits ints), flags and tags, for
    Skein its 128-bit `tweak` (int: T0 in bits 63:0, T1 in bits 127:64), for a MAC engine its
    key slot `key` and `key_init` (the block is the padded key K0)."""

    __slots__ = ("words", "slot", "first", "last", "variant", "cv", "tweak", "key", "key_init")

    def __init__(
        self,
        words,
        slot=0,
        first=False,
        last=False,
        variant=0,
        cv=None,
        tweak=0,
        key=0,
        key_init=False,
    ):
        self.words, self.slot, self.first, self.last = words, slot, first, last
        self.variant, self.cv, self.tweak = variant, cv, tweak
        self.key, self.key_init = key, key_init


class Result:
    __slots__ = ("cv", "slot", "last", "cycle")

    def __init__(self, cv, slot, last, cycle):
        self.cv, self.slot, self.last, self.cycle = cv, slot, last, cycle


class RTLSim:
    """A running engine simulation. `run(blocks)` feeds the blocks and returns
    (results, accept_cycles); results come in the order the engine emits them."""

    def __init__(self, spec, slots=None, seed=1, stall_in=0, stall_out=0, build_dir=None):
        self.engine, path = build_library(spec, slots, build_dir)
        self.word_bits = wb = self.engine.word_bits
        self.bw = self.engine.block_bits // wb  # engine words per block
        self.cw = self.engine.digest_bits // wb  # engine words per chaining value
        self._chunks = wb // 32  # harness 32-bit chunks per engine word
        self._lib = lib = ctypes.CDLL(str(path))
        u32p = ctypes.POINTER(ctypes.c_uint32)
        u64p = ctypes.POINTER(ctypes.c_uint64)
        lib.ldsim_new.restype = ctypes.c_void_p
        lib.ldsim_new.argtypes = [ctypes.c_uint64]
        lib.ldsim_free.argtypes = [ctypes.c_void_p]
        lib.ldsim_set_stalls.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
        lib.ldsim_cycle.restype = ctypes.c_uint64
        lib.ldsim_cycle.argtypes = [ctypes.c_void_p]
        lib.ldsim_run.restype = ctypes.c_long
        lib.ldsim_run.argtypes = [
            ctypes.c_void_p,
            ctypes.c_long,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u32p,
            u64p,
            u64p,
            ctypes.c_uint64,
        ]
        if hasattr(self.engine.sink, "key"):
            lib.ldsim_wipe.argtypes = [ctypes.c_void_p]
            lib.ldsim_keys_valid.restype = ctypes.c_uint32
            lib.ldsim_keys_valid.argtypes = [ctypes.c_void_p]
        self._h = lib.ldsim_new(seed)
        self.set_stalls(stall_in, stall_out)

    def words(self, data):
        """Big-endian engine words of `data` (a block or a chaining value)."""
        fmt = "Q" if self.word_bits == 64 else "I"
        return list(struct.unpack(f">{len(data) * 8 // self.word_bits}{fmt}", data))

    def to_bytes(self, words):
        fmt = "Q" if self.word_bits == 64 else "I"
        return struct.pack(f">{len(words)}{fmt}", *words)

    def _split(self, words):
        """Engine words -> the harness's 32-bit chunks (Verilator order: low chunk first)."""
        if self._chunks == 1:
            return list(words)
        return [(w >> (32 * c)) & 0xFFFFFFFF for w in words for c in range(self._chunks)]

    def _join(self, chunks):
        n = self._chunks
        return [sum(chunks[i + c] << (32 * c) for c in range(n)) for i in range(0, len(chunks), n)]

    def blocks(self, data, slot=0, variant=0, first=True, last=True, cv=None):
        """`data` (whole blocks) as Blocks of one message: the first starts from the IV when
        `first`, or from chaining value `cv` (bytes) when given; the final one carries `last`."""
        bs = self.engine.block_bits // 8
        if not data or len(data) % bs:
            raise ValueError(f"need a non-zero multiple of {bs} bytes, got {len(data)}")
        n = len(data) // bs
        cv_words = self.words(cv) if cv is not None else None
        return [
            Block(
                self.words(data[bs * i : bs * (i + 1)]),
                slot=slot,
                variant=variant,
                first=i == 0 and first and cv is None,
                last=i == n - 1 and last,
                cv=cv_words if i == 0 else None,
            )
            for i in range(n)
        ]

    def set_stalls(self, stall_in, stall_out):
        """Percent of cycles the sink has no valid / the source no ready (random, seeded)."""
        self._lib.ldsim_set_stalls(self._h, stall_in, stall_out)

    @property
    def cycle(self):
        return self._lib.ldsim_cycle(self._h)

    def run(self, blocks, max_cycles=None):
        n = len(blocks)
        if n == 0:
            return [], []
        bw = self.bw
        cw = self.cw * self._chunks  # harness chunks per chaining value
        flat = []
        cvs = []
        for b in blocks:
            if len(b.words) != bw:
                raise ValueError(f"a block has {len(b.words)} words, the engine takes {bw}")
            flat.extend(self._split(b.words))
            cvs.extend(self._split(b.cv) if b.cv is not None else [0] * cw)
        U32, U64 = ctypes.c_uint32, ctypes.c_uint64
        a_blk = (U32 * len(flat))(*flat)
        a_slot = (U32 * n)(*[b.slot for b in blocks])
        a_flags = (U32 * n)(
            *[
                (1 if b.first else 0)
                | (2 if b.last else 0)
                | (4 if b.cv is not None else 0)
                | (8 if b.key_init else 0)
                for b in blocks
            ]
        )
        a_key = (U32 * n)(*[b.key for b in blocks])
        a_var = (U32 * n)(*[b.variant for b in blocks])
        a_cv = (U32 * len(cvs))(*cvs)
        a_tw = (U32 * (4 * n))(
            *[(b.tweak >> (32 * c)) & 0xFFFFFFFF for b in blocks for c in range(4)]
        )
        o_cv, o_slot, o_last = (U32 * (n * cw))(), (U32 * n)(), (U32 * n)()
        o_acc, o_cyc = (U64 * n)(), (U64 * n)()
        if max_cycles is None:
            max_cycles = 1000 + n * (self.engine.latency + 2) * 50
        got = self._lib.ldsim_run(
            self._h,
            n,
            a_blk,
            a_slot,
            a_flags,
            a_var,
            a_cv,
            a_tw,
            a_key,
            o_cv,
            o_slot,
            o_last,
            o_acc,
            o_cyc,
            max_cycles,
        )
        if got < 0:
            raise TimeoutError(
                f"engine produced no result for {n} blocks within {max_cycles} cycles"
            )
        results = [
            Result(self._join(o_cv[cw * j : cw * (j + 1)]), o_slot[j], bool(o_last[j]), o_cyc[j])
            for j in range(got)
        ]
        return results, list(o_acc)

    def wipe(self):
        """MAC engines: pulse `wipe` (zeroize the stored key states) for one cycle."""
        self._lib.ldsim_wipe(self._h)

    @property
    def keys_valid(self):
        """MAC engines: the key slots holding stored states (a bit mask)."""
        return self._lib.ldsim_keys_valid(self._h)

    def close(self):
        if self._h:
            self._lib.ldsim_free(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
