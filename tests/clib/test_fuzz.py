# SPDX-License-Identifier: BSD-2-Clause
"""Coverage-guided fuzzing of the C library (software/firmware/tests/fuzz/, docs/RELIABILITY.md
"Fuzzing"): every libFuzzer target, built by clang with ASan + UBSan (every report fatal) by
software/firmware/tests/fuzz/run.py into build/fuzz/ (cached by a hash of the sources and the
flags), runs for a bounded time on a temporary copy of its corpus in the repository; a crash,
a sanitizer report or a mismatch against the target's reference fails its test with the
fuzzer's output. A planted bug (fuzz_md_stream.c under -DLD_FUZZ_PLANT) must be found.
clang is a test dependency (scripts/setup.sh installs it): without it these tests fail."""

import concurrent.futures
import importlib.util
import os
import subprocess
import sys

import pytest
from litedigest.paths import repo_root

ROOT = repo_root()
FUZZ_DIR = os.path.join(ROOT, "software", "firmware", "tests", "fuzz")

# Seconds of fuzzing per target in the normal test suite. 4 targets x 20 s, the planted bug
# (found in about a second: the run stops at its first crash) and the builds (about 15 s cold,
# nothing when cached) keep the file under 2 minutes. To fuzz longer and grow the corpora:
#   python software/firmware/tests/fuzz/run.py --seconds 600 --update-corpus
FUZZ_SECONDS = 20


def _load_runner():
    spec = importlib.util.spec_from_file_location("ld_fuzz_run", os.path.join(FUZZ_DIR, "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


run = _load_runner()


@pytest.fixture(scope="module")
def clang():
    """The clang that builds the targets, all of them built up front (two at a time); no clang
    with libFuzzer is a failure that names scripts/setup.sh, not a skip."""
    try:
        cc, missing = run.find_clang(), None
    except run.ClangMissing as e:
        cc, missing = None, str(e)
    if missing:
        pytest.fail(f"tests/clib/test_fuzz.py: {missing}", pytrace=False)
    run.build_lib(cc)
    builds = [(t, False) for t in run.TARGETS] + [(t, True) for t in sorted(run.PLANTABLE)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for f in [pool.submit(run.build, t, plant=p, cc=cc) for t, p in builds]:
            f.result()
    return cc


def _corpus_state(target):
    return {os.path.basename(f): os.path.getmtime(f) for f in run.corpus_files(target)}


@pytest.mark.parametrize("target", list(run.TARGETS))
def test_fuzz_target(clang, target):
    before = _corpus_state(target)
    res = run.fuzz(target, FUZZ_SECONDS, cc=clang)
    assert res.ok, (
        f"{res.summary()}; failing input kept in {res.artifacts}\n"
        f"(rerun: {run.build(target, cc=clang)} <input>)\n{res.output[-10000:]}"
    )
    assert int(res.stats.get("number_of_executed_units", 0)) > 100, res.output[-3000:]
    assert _corpus_state(target) == before, "a run without --update-corpus changed the corpus"


def test_started_from_a_large_process(clang):
    """A target started from a process that has grown past libFuzzer's 2 GB budget (a pytest
    worker late in the suite) is not reported out of memory: Linux hands the parent's peak RSS
    to the exec'd fuzzer, and CI failed every target so before run.memory_limits()."""
    code = (
        "import importlib.util, sys\n"
        "big = bytearray(2300 << 20)\n"
        "for i in range(0, len(big), 4096): big[i] = 1\n"
        "spec = importlib.util.spec_from_file_location('r', "
        f"{os.path.join(FUZZ_DIR, 'run.py')!r})\n"
        "run = importlib.util.module_from_spec(spec); spec.loader.exec_module(run)\n"
        f"res = run.fuzz('md_pad', 4, cc={clang!r})\n"
        "print('RESULT', res.ok, res.summary()); print(res.output[-3000:])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert "RESULT True" in r.stdout, r.stdout[-4000:] + r.stderr[-4000:]


def test_planted_bug_is_found(clang):
    """fuzz_md_stream with -DLD_FUZZ_PLANT corrupts the streamed digest of a 100-byte message
    hashed in 3 updates; no input of the corpus is such a message (checked first): the fuzzer
    has to get there."""
    ok, out = run.replay("md_stream", plant=True, cc=clang)
    assert ok, "an input of corpus/md_stream/ triggers the planted bug: remove it\n" + out[-4000:]
    res = run.fuzz("md_stream", FUZZ_SECONDS, plant=True, cc=clang)
    assert not res.ok, f"the planted bug was not found in {FUZZ_SECONDS} s: {res.summary()}"
    assert (
        "LD_FUZZ MISMATCH" in res.output and "split updates differ from the one-shot" in res.output
    ), res.output[-6000:]
    assert "message 100 bytes, 3 updates" in res.output and res.crash_inputs, res.output[-6000:]


def test_corpora_in_the_repository():
    """every target has a corpus with its hand-written seeds, each small enough to keep"""
    for target in run.TARGETS:
        files = run.corpus_files(target)
        assert any(os.path.basename(f).startswith("seed_") for f in files), target
        assert len(files) <= run.CORPUS_MAX_FILES, (target, len(files))
        assert sum(os.path.getsize(f) for f in files) <= run.CORPUS_MAX_BYTES, target
        assert all(os.path.getsize(f) <= run.TARGETS[target] for f in files), target
    for name in os.listdir(FUZZ_DIR):
        if name.startswith("fuzz_") and name.endswith(".c"):
            assert name[5:-2] in run.TARGETS, f"{name} is not run (run.TARGETS)"
