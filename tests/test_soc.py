"""The main simulated SoC (spec.MAIN_SOC: sha256:opt, sha1:opt, sha512:k5, skein512:r8): the
firmware demo (software, CSR and DMA paths, measured in cycles), the `soc` backend through
the host bridge for every algorithm, and bad input.

Cycle counts come from the simulation and are exact, so the performance figures the README
states are checked here as regression bounds."""
import hashlib
import os
import random
import subprocess
import sys
import time

import pytest

from litedigest import socdemo, spec
from litedigest.driver import PeripheralError, PeripheralTimeout

ENGINE = "sha256:opt"


@pytest.fixture(scope="module")
def demo_opt():
    return socdemo.run_demo(ENGINE, timeout=600)


@pytest.fixture(scope="module")
def backend():
    from litedigest.backends.soc import SoCBackend
    be = SoCBackend(ENGINE)
    yield be
    be.close()


def test_demo_digests_and_checks(demo_opt):
    assert demo_opt.engine == ENGINE
    paths = {(r["path"], r["bytes"]) for r in demo_opt.records}
    assert paths == {(p, n) for p in ("sw", "csr", "dma") for n in (64, 1024, 16384)}
    assert all(r["ok"] for r in demo_opt.records), [r for r in demo_opt.records if not r["ok"]]
    names = {c["name"] for c in demo_opt.checks}
    assert {"dma_outside_ram_err_addr", "dma_length_not_multiple_64", "final_twice_state",
            "update_after_final_state", "good_hash_after_errors_dma", "dma_misaligned_err_addr",
            "wrong_family_arg"} <= names
    assert all(c["ok"] for c in demo_opt.checks), [c for c in demo_opt.checks if not c["ok"]]


def test_demo_performance_targets(demo_opt):
    sw = demo_opt.record("sw", 16384)["cycles"]
    dma = demo_opt.record("dma", 16384)["cycles"]
    csr = demo_opt.record("csr", 16384)["cycles"]
    assert sw / 16384 <= 75, "software SHA-256 must stay a fair baseline (<= 75 cycles/byte)"
    # issue 2 measured 1.568 B/cycle and 102.8x; the multi-slot driver's fixed cost per call
    # is higher (README, "Measured"): these bounds hold the current figures
    assert 16384 / dma >= 1.4, f"DMA path {16384 / dma:.3f} bytes/cycle"
    assert sw / dma >= 90, f"DMA speedup {sw / dma:.1f}x"
    assert dma < csr < sw


@pytest.mark.slow
def test_demo_on_base_engine():
    """The architecture is a build option: the same firmware on a sha256:base SoC (a SoC build
    of its own, ~4 min: `-m slow`, not in CI; sha256:base itself is tested in Verilator)."""
    demo = socdemo.run_demo("sha256:base", timeout=600)
    assert demo.all_ok
    dma = demo.record("dma", 16384)["cycles"]
    assert "engine sha256:base:p1, latency 65" in demo.console
    # at one block per 65 cycles, 257 blocks bound the DMA path from below
    assert dma >= 257 * 65


@pytest.mark.parametrize("family,algos", [
    ("sha256", ("sha256", "sha224")),
    ("sha1", ("sha1",)),
    ("sha512", ("sha512", "sha384", "sha512_224", "sha512_256")),
])
def test_soc_backend_every_algorithm_both_paths(family, algos, monkeypatch):
    """Every algorithm on the main SoC's peripherals, lengths around the block boundaries."""
    import litedigest
    from litedigest.backends import _cache
    from litedigest.backends.soc import SoCBackend
    eng = spec.parse(family)
    be = SoCBackend(family)
    try:
        # hash objects reach the backend through the registry: hand them this one
        monkeypatch.setitem(_cache, ("soc", eng.engine_name), be)
        bs = eng.block_size
        rng = random.Random(5)
        for path in ("dma", "csr"):
            monkeypatch.setattr(be, "path", path)
            for n in (0, 1, bs - 9, bs - 8, bs - 1, bs, bs + 1, 2 * bs - 9, 2 * bs, 1000):
                m = rng.randbytes(n)
                for algo in algos:
                    h = litedigest.new(algo, m, backend="soc", engine=f"{algo}:{eng.arch}")
                    assert h.digest() == hashlib.new(algo, m).digest(), (path, n, algo)
    finally:
        be.close()


def test_host_hashes_64k_quickly(backend):
    m = os.urandom(65536)
    t = time.monotonic()
    got = backend.periph.compress(m, variant=0)  # 1024 whole blocks through the DMA buffer
    elapsed = time.monotonic() - t
    assert got == _compress_ref(m)
    assert elapsed < 20, f"64 KiB from the host took {elapsed:.1f} s"


def test_bad_inputs_leave_peripheral_usable(backend):
    p = backend.periph
    ram = backend.sim.constants
    base, size = ram["main_ram_base"], ram["main_ram_size"]
    block = bytes(range(64))
    cases = [
        (lambda: p.job_dma(base + size - 64, 128, p.levels(first=True)), "err_addr"),   # past the end
        (lambda: p.job_dma(0x100, 64, p.levels(first=True)), "err_addr"),               # not RAM
        (lambda: p.job_dma(base + size // 2 + 2, 64, p.levels(first=True)), "err_addr"),  # unaligned
        (lambda: p.job_dma(base + size // 2, 100, p.levels(first=True)), "err_len"),    # not whole blocks
        (lambda: p.job_dma(base + size // 2, 0, p.levels(first=True)), "err_len"),
    ]
    for call, flag in cases:
        with pytest.raises(PeripheralError) as e:
            call()
        assert flag in e.value.flags
        assert p.compress(block, variant=0) == _compress_ref(block)
    # CSR path: a short block, then a 17th word
    p.ack()
    for i in range(5):
        p.write32(p.addr["din"], i)
    p.write32(p.addr["ctrl"], p.ctrl_bits["start"] | p.levels(first=True))
    with pytest.raises(PeripheralError) as e:
        p.wait(0)
    assert "err_len" in e.value.flags
    for i in range(17):
        p.write32(p.addr["din"], i)
    assert p.status()["err_state"]
    p.ack()
    assert p.status() == {k: 0 for k in p.status_fields}
    assert p.compress(block, variant=0, path="csr") == _compress_ref(block)


def test_job_timeout_is_reported_not_hung(backend):
    p = backend.periph
    base, size = backend.sim.constants["main_ram_base"], backend.sim.constants["main_ram_size"]
    with pytest.raises(PeripheralTimeout):
        p.job_dma(base + size // 2, size // 2, p.levels(first=True), timeout=0.0)
    # the job keeps running in hardware; once done the peripheral works again
    deadline = time.monotonic() + 30
    while not p.status()["done"] and time.monotonic() < deadline:
        pass
    p.ack()
    assert p.compress(bytes(64), variant=0) == _compress_ref(bytes(64))


def test_interrupt_event_and_cycle_counter(backend):
    p = backend.periph
    sim = backend.sim
    ev_pending = sim.csr("sha256_ev_pending")
    ev_pending.write(1)
    c0 = p.cycles()
    p.compress(bytes(128), variant=1)
    assert ev_pending.read() & 1
    ev_pending.write(1)
    assert not ev_pending.read() & 1
    assert p.cycles() > c0
    assert p.info() == {"latency": 33, "stages": 1, "arch": 1, "align_log2": 6, "slots": 1}


def test_cli_sum_soc_backend_matches_sha256sum(tmp_path):
    rng = random.Random(11)
    files = []
    for n in (0, 55, 56, 63, 64, 119, 120, 1000):
        f = tmp_path / f"m{n}.bin"
        f.write_bytes(rng.randbytes(n))
        files.append(f.name)
    for algo in ("sha256", "sha224", "sha1", "sha384", "sha512"):
        ours = subprocess.run([sys.executable, "-m", "litedigest.cli", "sum", "-a", algo,
                               "--backend", "soc", *files],
                              cwd=tmp_path, capture_output=True, check=True)
        ref = subprocess.run([f"{algo}sum", *files], cwd=tmp_path, capture_output=True, check=True)
        assert ours.stdout == ref.stdout
    data = rng.randbytes(300)
    ours = subprocess.run([sys.executable, "-m", "litedigest.cli", "sum", "--backend", "soc", "-"],
                          input=data, capture_output=True, check=True)
    ref = subprocess.run(["sha256sum", "-"], input=data, capture_output=True, check=True)
    assert ours.stdout == ref.stdout


def _compress_ref(blocks):
    """SHA-256 compression of whole blocks from the IV, no padding (the C library's software
    compression, itself checked against NIST vectors in test_clib)."""
    from litedigest import native
    return native.words_to_bytes(native.compress(native.iv(), blocks))
