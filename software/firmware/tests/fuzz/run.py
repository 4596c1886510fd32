#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Coverage-guided fuzzing of the C library (software/firmware/lib) with libFuzzer.

Each target fuzz_<name>.c of this directory is built with the whole library by clang with
libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer (every report fatal) into
build/fuzz/ (cached: the library's objects once, in lib-<hash>/, and each executable, their
names carrying a hash of the compiler, the flags and every source and header, those of
software/firmware/tests/ included), then run for a bounded time (-max_total_time) on its
corpus, corpus/<name>/. By default the corpus in the repository is only read (the fuzzer
works on a temporary copy); --update-corpus merges what the run found back into it and
minimizes it (libFuzzer's -merge, the hand-written seed_* inputs always kept, at most
CORPUS_MAX_FILES files).

    python software/firmware/tests/fuzz/run.py                      # every target, 20 s each
    python software/firmware/tests/fuzz/run.py --seconds 600 --update-corpus
    python software/firmware/tests/fuzz/run.py md_pad skein --seconds 60
    python software/firmware/tests/fuzz/run.py --plant md_stream    # the planted bug: must crash

Exit status 0 when every target ran its time without a crash, sanitizer report or mismatch;
1 otherwise (the fuzzer's output is printed and the input that failed is kept under
build/fuzz/artifacts/); 2 when clang with libFuzzer is not installed (scripts/setup.sh).
Standard library only.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FW = os.path.dirname(os.path.dirname(HERE))
ROOT = os.path.dirname(os.path.dirname(FW))
LIB = os.path.join(FW, "lib")
BUILD = os.path.join(ROOT, "build", "fuzz")
CORPUS = os.path.join(HERE, "corpus")

# name -> libFuzzer -max_len: room for the target's fields and a message of several blocks
TARGETS = {"md_stream": 4096, "md_pad": 320, "sched": 512, "skein": 2048}
PLANTABLE = {"md_stream"}  # targets with an LD_FUZZ_PLANT bug (tests/clib/test_fuzz.py)
CLANGS = ["clang-14", "clang"]
FLAGS = [
    "-g",
    "-O1",
    "-fsanitize=fuzzer,address,undefined",
    "-fno-sanitize-recover=undefined",
    "-fno-omit-frame-pointer",
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
]
ENV = {
    "ASAN_OPTIONS": "abort_on_error=0:detect_leaks=1:allocator_may_return_null=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
# the corpus kept in the repository: at most this many files and bytes per target
CORPUS_MAX_FILES, CORPUS_MAX_BYTES = 200, 1 << 20
SETUP_HINT = (
    "clang with libFuzzer is not installed: run scripts/setup.sh as root (it installs "
    "clang-14 and libclang-rt-14-dev with the test packages)"
)


class ClangMissing(RuntimeError):
    pass


def lib_sources():
    """The library's sources as lib/sources.txt lists them (the one list every build reads)."""
    with open(os.path.join(LIB, "sources.txt")) as f:
        return [os.path.join(LIB, "src", s) for s in f.read().split()]


def find_clang():
    """The clang to build with (clang-14 first), or ClangMissing when none links libFuzzer."""
    for cc in CLANGS:
        path = shutil.which(cc)
        if path is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w") as f:
                f.write(
                    "#include <stddef.h>\n#include <stdint.h>\n"
                    "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\n"
                    "int LLVMFuzzerTestOneInput(const uint8_t *d, "
                    "size_t n) { (void)d; (void)n; return 0; }\n"
                )
            r = subprocess.run(
                [
                    path,
                    "-fsanitize=fuzzer,address,undefined",
                    src,
                    "-o",
                    os.path.join(tmp, "probe"),
                ],
                capture_output=True,
                text=True,
            )
            if r.returncode == 0:
                return path
    raise ClangMissing(SETUP_HINT)


def _hash_files(h, files):
    for path in files:
        h.update(os.path.relpath(path, ROOT).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())


def _lib_key(cc):
    """A hash of what the library's objects depend on: compiler, flags, sources, headers."""
    h = hashlib.sha256()
    h.update(subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.encode())
    h.update("\0".join(FLAGS).encode())
    inc = os.path.join(LIB, "include", "litedigest")
    _hash_files(
        h,
        lib_sources()
        + [os.path.join(LIB, "sources.txt")]
        + sorted(
            os.path.join(LIB, "src", f)
            for f in os.listdir(os.path.join(LIB, "src"))
            if f.endswith(".h")
        )
        + sorted(os.path.join(inc, f) for f in os.listdir(inc) if f.endswith(".h")),
    )
    return h.hexdigest()[:16]


def build_lib(cc=None):
    """The library's objects, compiled once with FLAGS (instrumented for the fuzzer and the
    sanitizers): build/fuzz/lib-<hash>/*.o"""
    cc = cc or find_clang()
    objdir = os.path.join(BUILD, f"lib-{_lib_key(cc)}")
    if os.path.isdir(objdir):
        return objdir, sorted(os.path.join(objdir, f) for f in os.listdir(objdir))
    os.makedirs(BUILD, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="tmp-lib-", dir=BUILD)
    cmd = [cc, *FLAGS, "-I", os.path.join(LIB, "include"), "-c", *lib_sources()]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
    if r.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"building the library failed:\n{' '.join(cmd)}\n{r.stderr}")
    try:
        os.rename(tmp, objdir)
    except OSError:  # built at the same time by another process: use that one
        shutil.rmtree(tmp, ignore_errors=True)
    return objdir, sorted(os.path.join(objdir, f) for f in os.listdir(objdir))


def build(target, plant=False, cc=None):
    """The executable of target (built once per content: build/fuzz/fuzz_<target>[-plant]-<hash>,
    linked with build_lib's objects)."""
    if target not in TARGETS:
        raise ValueError(f"no fuzz target {target!r} (targets: {', '.join(TARGETS)})")
    if plant and target not in PLANTABLE:
        raise ValueError(
            f"{target} has no planted bug (those with one: {', '.join(sorted(PLANTABLE))})"
        )
    cc = cc or find_clang()
    objdir, objs = build_lib(cc)
    flags = FLAGS + (["-DLD_FUZZ_PLANT"] if plant else [])
    h = hashlib.sha256(os.path.basename(objdir).encode())
    h.update("\0".join(flags).encode())
    tests = os.path.dirname(HERE)  # software/firmware/tests: the headers shared with the host tests
    _hash_files(
        h,
        [os.path.join(HERE, f"fuzz_{target}.c")]
        + sorted(
            os.path.join(d, f) for d in (HERE, tests) for f in os.listdir(d) if f.endswith(".h")
        ),
    )
    exe = os.path.join(BUILD, f"fuzz_{target}{'-plant' if plant else ''}-{h.hexdigest()[:16]}")
    if os.path.exists(exe):
        return exe
    tmp = f"{exe}.tmp{os.getpid()}"
    cmd = [
        cc,
        *flags,
        "-I",
        os.path.join(LIB, "include"),
        os.path.join(HERE, f"fuzz_{target}.c"),
        *objs,
        "-o",
        tmp,
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"building {target} failed:\n{' '.join(cmd)}\n{r.stderr}")
    os.replace(tmp, exe)  # atomic: a concurrent build of the same hash is harmless
    return exe


class Result:
    """A run: ok, the fuzzer's output, its time, the failing inputs (their bytes, and where
    they are kept: build/fuzz/artifacts/, not for a planted bug) and libFuzzer's final
    statistics (stat::number_of_executed_units, ..., and the last cov)."""

    def __init__(self, target, ok, output, seconds, artifacts, stats, crash_inputs=()):
        self.target, self.ok, self.output, self.seconds = target, ok, output, seconds
        self.artifacts, self.stats, self.crash_inputs = artifacts, stats, list(crash_inputs)

    def summary(self):
        runs = self.stats.get("number_of_executed_units", "?")
        cov = self.stats.get("cov", "?")
        state = "ok" if self.ok else "FAILED"
        return f"{self.target}: {state}, {runs} runs in {self.seconds:.0f} s, cov {cov}"


def corpus_files(target):
    d = os.path.join(CORPUS, target)
    return sorted(os.path.join(d, f) for f in os.listdir(d)) if os.path.isdir(d) else []


def _stats(output):
    stats = dict(re.findall(r"^stat::(\w+):\s*(\d+)", output, re.M))
    m = re.findall(r"\bcov: (\d+)", output)
    if m:
        stats["cov"] = m[-1]
    return stats


# the memory a target may use on top of what it starts with (libFuzzer's default limit)
RSS_LIMIT_MB = 2048


def memory_limits():
    """libFuzzer's -rss_limit_mb and -malloc_limit_mb for a target started from this process.
    libFuzzer checks the peak RSS that getrusage reports, and Linux folds the peak RSS of the
    process that execs into it (exec keeps signal->maxrss): a fuzzer started from a pytest
    worker that has grown to 2 GB starts "out of memory" with no input at fault (CI failed
    so). The RSS limit is therefore this process's peak plus the budget; a single allocation
    of more than the budget is still reported, whatever the start."""
    peak_mb = 0
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak_mb = int(line.split()[1]) // 1024 + 1
    except OSError:
        pass
    return [f"-rss_limit_mb={peak_mb + RSS_LIMIT_MB}", f"-malloc_limit_mb={RSS_LIMIT_MB}"]


def fuzz(target, seconds, plant=False, update_corpus=False, seed=None, cc=None, log=None):
    """Run target for `seconds` on a copy of its corpus. Returns a Result: ok when the fuzzer
    ran its time and exited 0 with no crash input. update_corpus: merge the run's finds into
    corpus/<target>/ and minimize it (only when ok)."""
    exe = build(target, plant=plant, cc=cc)
    os.makedirs(os.path.join(BUILD, "artifacts"), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f"ld-fuzz-{target}-")
    try:
        work = os.path.join(tmp, "corpus")
        os.makedirs(work)
        for f in corpus_files(target):
            shutil.copy(f, work)
        art = os.path.join(tmp, "artifacts") + os.sep
        os.makedirs(art)
        cmd = [
            exe,
            f"-max_total_time={seconds}",
            f"-max_len={TARGETS[target]}",
            "-timeout=20",
            *memory_limits(),
            "-print_final_stats=1",
            "-print_pcs=0",
            f"-artifact_prefix={art}",
            work,
        ]
        if seed is not None:
            cmd.insert(1, f"-seed={seed}")
        t0 = time.monotonic()
        r = subprocess.run(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env={**os.environ, **ENV},
            timeout=seconds + 300,
        )
        took = time.monotonic() - t0
        crashes = sorted(os.listdir(art))
        kept, inputs = [], []
        for c in crashes:  # keep the failing inputs where they can be rerun (not the plant's)
            with open(os.path.join(art, c), "rb") as f:
                inputs.append(f.read())
            if not plant:
                dst = os.path.join(BUILD, "artifacts", f"{target}-{c}")
                shutil.copy(os.path.join(art, c), dst)
                kept.append(dst)
        ok = r.returncode == 0 and not crashes
        res = Result(target, ok, r.stdout, took, kept, _stats(r.stdout), inputs)
        if ok and update_corpus:
            _update_corpus(exe, target, work, tmp, log or print)
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def replay(target, plant=False, cc=None):
    """Run target once on every input of its corpus, no fuzzing: (ok, output)."""
    exe = build(target, plant=plant, cc=cc)
    files = corpus_files(target)
    r = subprocess.run(
        [exe, "-runs=1", *memory_limits(), *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env={**os.environ, **ENV},
        timeout=600,
    )
    return r.returncode == 0, r.stdout


def _merge(exe, target, into, dirs, *opts):
    """libFuzzer -merge=1: the inputs of dirs that add coverage, copied into `into`"""
    os.makedirs(into)
    r = subprocess.run(
        [exe, "-merge=1", f"-max_len={TARGETS[target]}", *memory_limits(), *opts, into, *dirs],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env={**os.environ, **ENV},
    )
    if r.returncode != 0:
        raise RuntimeError(f"merging the corpus of {target} failed:\n{r.stdout[-4000:]}")
    return sorted(os.listdir(into))


def _update_corpus(exe, target, work, tmp, log):
    """corpus/<target>/ := the seed_* files and a minimal set of the old corpus and the run's
    finds with the same coverage (libFuzzer -merge=1 into an empty directory, edges and hit
    counts). Over CORPUS_MAX_FILES, the inputs that add edges (-use_counters=0) first, then
    others up to the limit."""
    dest = os.path.join(CORPUS, target)
    os.makedirs(dest, exist_ok=True)
    merged = os.path.join(tmp, "merged")
    chosen = _merge(exe, target, merged, [dest, work])
    seeds = sorted(f for f in os.listdir(dest) if f.startswith("seed_"))
    room = CORPUS_MAX_FILES - len(seeds)
    if len(chosen) > room:
        edges = _merge(exe, target, os.path.join(tmp, "edges"), [merged], "-use_counters=0")
        chosen = (edges + [f for f in chosen if f not in set(edges)])[:room]
    seed_data = set()
    for f in seeds:
        with open(os.path.join(dest, f), "rb") as fh:
            seed_data.add(fh.read())
    for f in os.listdir(dest):
        if f not in seeds:
            os.remove(os.path.join(dest, f))
    for f in chosen:
        with open(os.path.join(merged, f), "rb") as fh:
            if fh.read() in seed_data:  # a seed already there under its own name
                continue
        shutil.copy(os.path.join(merged, f), dest)
    files = corpus_files(target)
    size = sum(os.path.getsize(f) for f in files)
    log(f"{target}: corpus now {len(files)} files, {size} bytes")
    if len(files) > CORPUS_MAX_FILES or size > CORPUS_MAX_BYTES:
        log(
            f"{target}: WARNING the corpus is over "
            f"{CORPUS_MAX_FILES} files / {CORPUS_MAX_BYTES} bytes"
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "targets", nargs="*", help=f"targets to run (default: all of {', '.join(TARGETS)})"
    )
    ap.add_argument("--seconds", type=int, default=20, help="fuzzing time per target (default 20)")
    ap.add_argument(
        "--update-corpus",
        action="store_true",
        help="merge new interesting inputs into corpus/<target>/ and minimize it",
    )
    ap.add_argument(
        "--plant",
        action="store_true",
        help="build with -DLD_FUZZ_PLANT (the planted bug; the run must then fail)",
    )
    ap.add_argument("--seed", type=int, help="libFuzzer's -seed (default: a new one each run)")
    ap.add_argument("--build-only", action="store_true", help="build the targets and stop")
    args = ap.parse_args(argv)
    targets = args.targets or (sorted(PLANTABLE) if args.plant else list(TARGETS))
    try:
        cc = find_clang()
    except ClangMissing as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2
    if args.build_only:
        for t in targets:
            print(build(t, plant=args.plant, cc=cc))
        return 0
    failed = []
    for t in targets:
        res = fuzz(
            t,
            args.seconds,
            plant=args.plant,
            update_corpus=args.update_corpus,
            seed=args.seed,
            cc=cc,
        )
        if not res.ok:
            print(res.output[-12000:])
            for a in res.artifacts:
                print(f"{t}: failing input kept in {a} (rerun: {build(t, cc=cc)} {a})")
            if args.plant and res.crash_inputs:
                print(f"{t}: the planted bug was found (its input is not kept)")
            failed.append(t)
        print(res.summary(), flush=True)
    if failed:
        print(f"run.py: findings in {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
