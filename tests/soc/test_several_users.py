# SPDX-License-Identifier: BSD-2-Clause
"""Several users on one simulated SoC (docs/RELIABILITY.md, "Several users"): processes that
attach to one running SoC (SoCBackend(attach=...), LITEDIGEST_SOC_ATTACH) and threads of one
process hash at once, on one peripheral and on several, and every digest is checked against
hashlib/hmac; a process killed while it holds the SoC's lock, with its job running, neither
wedges the others nor gives them a wrong digest (the next holder recovers the peripheral).
"""

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from litedigest import _clib as native
from litedigest.board.lock import DeviceBusy, DeviceLock

ENGINE = "sha256:opt"


@pytest.fixture(scope="module")
def backend():
    from litedigest.backends.soc import SoCBackend

    be = SoCBackend(ENGINE)
    yield be
    be.close()


WORKER = textwrap.dedent("""
    import hashlib, hmac, os, random, sys
    import litedigest
    from litedigest import hmac as ldhmac
    seed, algs, rounds = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3])
    rng = random.Random(seed)
    checked = 0
    for r in range(rounds):
        alg = rng.choice(algs)
        msg = rng.randbytes(rng.choice([0, 1, 55, 64, 100, 1000, rng.randrange(4000)]))
        if alg.startswith("hmac-"):
            key = rng.randbytes(rng.randrange(1, 100))
            mac = ldhmac.new(key, msg, "sha256", backend="soc", engine=alg).digest()
            assert mac == hmac.new(key, msg, "sha256").digest(), (seed, r, alg, len(msg))
        else:
            h = litedigest.new(alg, backend="soc")
            cut = rng.randrange(len(msg) + 1)
            h.update(msg[:cut])
            twin = h.copy()
            h.update(msg[cut:])
            want = hashlib.new(alg, msg)
            assert h.digest() == want.digest(), (seed, r, alg, len(msg), cut)
            twin.update(msg[cut:])
            assert twin.hexdigest() == want.hexdigest(), (seed, r, alg, "copy")
            if r % 5 == 0:
                many = [rng.randbytes(rng.randrange(300)) for _ in range(6)]
                got = litedigest.hash_many(alg, many, backend="soc")
                assert got == [hashlib.new(alg, m).digest() for m in many], (seed, r, "many")
        checked += 1
    print("CHECKED", checked, flush=True)
""")


def _worker(backend, seed, algs, rounds=12):
    env = dict(os.environ, LITEDIGEST_SOC_ATTACH=backend.attach_info)
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, str(seed), ",".join(algs), str(rounds)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_processes_hash_at_once_on_one_soc(backend):
    # four processes on one peripheral and on the SoC's others (SHA-1, SHA-512, the HMAC
    # engine), while this one hashes too
    jobs = [
        _worker(backend, 1, ["sha256", "sha224"]),
        _worker(backend, 2, ["sha256"]),
        _worker(backend, 3, ["sha1", "sha512", "sha384"]),
        _worker(backend, 4, ["hmac-sha256:opt", "sha256"]),
    ]
    rng = os.urandom
    mine = 0
    while any(p.poll() is None for p in jobs):
        msg = rng(int.from_bytes(rng(2), "little") % 3000)
        assert backend.hw.md("sha256", msg, native.PATH_DMA) == hashlib.sha256(msg).digest()
        mine += 1
    for p in jobs:
        out = p.stdout.read()
        assert p.returncode == 0, out
        assert "CHECKED 12" in out, out
    assert mine > 0
    assert backend.lock.recoveries == 0


def test_threads_hash_at_once(backend):
    errors = []

    def work(seed):
        import random

        r = random.Random(seed)
        try:
            for _ in range(8):
                msg = r.randbytes(r.randrange(2000))
                ctx = backend.hw.context("sha256", native.PATH_DMA)
                ctx.update(msg[: len(msg) // 2])
                ctx.update(msg[len(msg) // 2 :])
                assert ctx.digest() == hashlib.sha256(msg).digest()
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors


HOLDER = textwrap.dedent("""
    import os, sys, time
    from litedigest import _clib as native
    from litedigest.backends.soc import SoCBackend
    be = SoCBackend("sha256:opt", attach=sys.argv[1])
    hw, lib = be.hw, native.lib
    base = be.sim.constants["main_ram_base"] + be.sim.constants["main_ram_size"] // 2
    msg = bytes(range(256)) * 256                # 64 KiB
    be.sim.bus.write_bytes(base, msg)
    hw.owned().acquire()                         # held until the process dies
    st = native.ffi.new("uint32_t *")
    # a job left running (held: it waits for a ctrl write without hold, which never comes)
    rc = hw.call(lib.ld_hw_start_dma, hw.dev, base, len(msg), 0, 0,
                 lib.LD_CTRL_FIRST | lib.LD_CTRL_LAST | lib.LD_CTRL_PAD | lib.LD_CTRL_HOLD, st)
    print("HOLDING", rc, flush=True)
    time.sleep(600)
""")


def test_process_killed_holding_the_lock_is_recovered_from(backend):
    regs = native.instance_registers(backend.sim.csrs.registers, backend.instance)
    p = subprocess.Popen(
        [sys.executable, "-c", HOLDER, backend.attach_info],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = p.stdout.readline()
        assert line.startswith("HOLDING 0"), line + p.stdout.read()
        # held by the other process: a short wait for the lock gives up, with its pid
        with pytest.raises(DeviceBusy, match=str(p.pid)):
            backend.lock.acquire(timeout=0.2)
        assert backend.sim.bus.read(regs["slots_busy"]) & 1  # its job runs
        os.kill(p.pid, signal.SIGKILL)
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
    before = backend.lock.recoveries
    # the next call takes the lock, finds the dead holder's pid, lets its job end and acks it
    msg = os.urandom(5000)
    t = time.monotonic()
    assert backend.hw.md("sha256", msg, native.PATH_DMA) == hashlib.sha256(msg).digest()
    assert time.monotonic() - t < 30
    assert backend.lock.recoveries == before + 1
    assert not backend.sim.bus.read(regs["slots_busy"]) & 1
    assert DeviceLock.for_path(backend.lock.path).holder() is None  # released after the call


def test_attach_refuses_what_is_not_there(backend, tmp_path):
    from litedigest.backends.soc import SoCBackend

    with pytest.raises(ValueError, match="no running simulated SoC"):
        SoCBackend("sha256", attach=str(tmp_path))
    with pytest.raises(ValueError, match="sha256:base:p4"):
        SoCBackend("sha256:base:p4", attach=backend.attach_info)


PYNQ_KERNEL = textwrap.dedent("""
    import hashlib, random, sys
    from litedigest.board.sim import attach_sim_device
    dev = attach_sim_device(int(sys.argv[1]), sys.argv[2])
    rng = random.Random(int(sys.argv[3]))
    for r in range(20):
        msg = rng.randbytes(rng.randrange(5000))
        alg = rng.choice(["sha256", "sha1", "sha512"])
        assert dev.new(alg, msg).digest() == hashlib.new(alg, msg).digest(), (alg, len(msg), r)
    print("CHECKED", flush=True)
""")


def test_two_kernels_on_one_pynq_device():
    """Two 'notebook kernels' on one (simulated) PYNQ device: each process's DMA buffer is
    allocated at the same place of the simulated RAM, so only the SoC-wide lock keeps their
    jobs apart; both get right digests."""
    from litedigest.board.sim import open_sim_device

    dev = open_sim_device()
    try:
        kernel = subprocess.Popen(
            [sys.executable, "-c", PYNQ_KERNEL, str(dev.sim.bus.port), dev.sim.build.csr_json, "7"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        rounds = 0
        while kernel.poll() is None or rounds < 5:
            msg = os.urandom(rounds * 97 % 5000)
            assert dev.new("sha256", msg).digest() == hashlib.sha256(msg).digest()
            rounds += 1
        out = kernel.stdout.read()
        assert kernel.returncode == 0 and "CHECKED" in out, out
    finally:
        dev.close_sim()
