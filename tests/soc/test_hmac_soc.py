# SPDX-License-Identifier: BSD-2-Clause
"""HMAC on the simulated SoC: the HMAC peripheral (hmac-sha256:opt:p4 in the sim target's
MAC_SOC, hmac-sha256:opt in MAIN_SOC) and HMAC on the hash peripherals from stored key states,
driven by the C library (ld_hw_hmac.h) in the HMAC firmware (apps/hmac) and from the host
(litedigest.hmac with a MAC engine, the soc backend), against Python's hmac and the RFC 4231
vectors; key slots switched, wipe, re-keying, bad input (the peripheral usable afterwards)."""

import hmac as std_hmac
import os
import random

import pytest
from litedigest import _clib as native
from litedigest import hmac as ld_hmac
from litedigest.backends import get_backend
from litedigest.measure import socdemo
from litedigest.soc.targets.sim import MAC_SOC, MAIN_SOC
from vectors import load_hmac_vectors as load_vectors

P4 = "hmac-sha256:opt:p4"


@pytest.fixture(scope="module")
def mac_run():
    return socdemo.run_hmac(list(MAC_SOC))


def test_firmware_macs_and_checks(mac_run):
    """Every MAC the firmware computed (1,000 by the batch walker, one by one on DMA and CSR,
    on the sha256 peripheral from stored states) equals ld_hmac's, the pool's equal Python's,
    and the key-slot checks pass."""
    assert mac_run.checks and all(c["ok"] for c in mac_run.checks), [
        c["name"] for c in mac_run.checks if not c["ok"]
    ]
    names = {c["name"] for c in mac_run.checks}
    assert {
        "mac_batch",
        "mac_batch_run",
        "mac_batch_keys",
        "mac_batch_keys_refused",
        "mac_one_by_one",
        "mac_csr",
        "mac_long_key",
        "mac_streaming",
        "mac_key_slots",
        "mac_bad_slot",
        "mac_wipe",
        "mac_rekey",
        "mac_dma_paths",
        "hash_one_by_one",
        "hash_sha224_streaming",
    } <= names
    assert not mac_run.digest_mismatches() and len(mac_run.digests) == socdemo.BATCH_POOL


def test_firmware_rates(mac_run):
    """The HMAC peripheral's batch is the fastest way to MAC 64-byte messages: a MAC in well
    under 150 cycles, faster than one by one, than the sha256 peripheral from stored key
    states, and than software on the same CPU. The walker alone (the table ready) takes a MAC
    in at most 25 cycles (issue "small messages": the engine's limit is 16.5)."""
    per = lambda r, k: r[f"{k}_cycles"] / r[f"{k}_msgs"]
    mac, sha, sw = (mac_run.record(i) for i in ("hmac_sha256", "sha256", "sw"))
    assert mac["engine"] == P4
    batch, one, csr = per(mac, "batch"), per(mac, "one"), per(mac, "csr")
    walk = per(mac, "walk")
    assert batch < 150, batch
    assert walk <= 25, walk
    assert walk <= batch, (walk, batch)
    # one by one on DMA: ld_hw_mac's one-shot job (measured 1,070 cycles, README; 2,508 through
    # the general job path before it)
    assert one < 1200, one
    assert batch < one < csr < per(sw, "sw")
    assert one < per(sha, "one") < per(sw, "sw")


def test_firmware_on_the_main_soc():
    """The main SoC's HMAC peripheral (two-core p1), and HMAC-SHA-1, -SHA-384, -SHA-512,
    -SHA-512/224, -SHA-512/256 on its sha1 and sha512 peripherals from stored states."""
    run = socdemo.run_hmac(list(MAIN_SOC))
    assert run.all_ok, [c["name"] for c in run.checks if not c["ok"]]
    assert {"hash_sha512_family", "hash_sha1"} <= {c["name"] for c in run.checks}
    assert run.record("hmac_sha256")["engine"] == "hmac-sha256:opt:p1"


@pytest.fixture(scope="module")
def soc():
    return get_backend("soc", P4)


@pytest.mark.parametrize("path", ["dma", "csr"])
def test_python_hmac_on_the_mac_engine(soc, path, monkeypatch):
    """litedigest.hmac with engine=hmac-sha256:opt:p4: RFC 4231 and random keys (0..300 bytes,
    longer than a block included), lengths and update splits against Python's hmac."""
    old = soc.path
    soc.path = path
    try:
        for key, msg, mac in load_vectors("sha256"):
            assert ld_hmac.new(key, msg, "sha256", backend="soc", engine=P4).digest() == mac
        rng = random.Random(path)
        for _ in range(12):
            key = rng.randbytes(rng.choice([0, 1, 63, 64, 65, rng.randrange(0, 301)]))
            msg = rng.randbytes(rng.randrange(0, 400))
            h = ld_hmac.new(key, digestmod="sha256", backend="soc", engine=P4)
            cut = rng.randrange(0, len(msg) + 1)
            h.update(msg[:cut])
            c = h.copy()
            h.update(msg[cut:])
            assert h.digest() == std_hmac.new(key, msg, "sha256").digest()
            assert c.hexdigest() == std_hmac.new(key, msg[:cut], "sha256").hexdigest()
        assert ld_hmac.digest(b"k", b"m", "SHA-256", backend="soc", engine=P4) == std_hmac.digest(
            b"k", b"m", "sha256"
        )
    finally:
        soc.path = old


def test_bad_input_is_refused_and_the_peripheral_stays_usable(soc):
    with pytest.raises(ValueError):  # the engine computes HMAC-SHA-256 only
        ld_hmac.new(b"k", b"", "sha1", backend="soc", engine=P4)
    with pytest.raises(TypeError):
        ld_hmac.new(b"k", b"", None, backend="soc", engine=P4)
    with pytest.raises(TypeError):
        ld_hmac.new("text key", b"", "sha256", backend="soc", engine=P4)
    with pytest.raises(ValueError):  # a MAC engine needs the soc or pynq backend
        ld_hmac.new(b"k", b"", "sha256", backend="sw", engine=P4)
    hw = soc.hw
    assert hw.mac_key_slots == 4
    with pytest.raises(native.NativeError):  # a key slot out of range
        hw.mac_set_key(4, b"key")
    hw.mac_set_key(1, b"one")
    hw.mac_set_key(2, os.urandom(100))
    assert hw.mac_keys() & 0b110 == 0b110
    hw.mac_wipe()
    assert hw.mac_keys() == 0
    with pytest.raises(native.NativeError):  # no key in the slot: refused, not a wrong MAC
        hw.mac(1, b"abc")
    assert (
        ld_hmac.new(b"again", b"abc", "sha256", backend="soc", engine=P4).digest()
        == std_hmac.new(b"again", b"abc", "sha256").digest()
    )


def test_key_words_read_back_as_zero(soc):
    """The key goes in through `din`, which reads back as 0 (and so does every key state: no
    register shows them); the MAC of a block written there is still right."""
    bus, regs = soc.sim.bus, soc.sim.csrs.registers
    din = regs["hmac_sha256_din"]["addr"]
    bus.write(din, [0x5ECE7000])
    assert bus.read(din) == 0
    bus.write(regs["hmac_sha256_ctrl"]["addr"], [1 << 6])  # ack: the word is dropped
    # after a key initialization the slot's digest register shows zeros, not a state
    soc.hw.mac_set_key(0, b"secret key")
    bus.write(regs["hmac_sha256_digest_sel"]["addr"], [0])
    digest = regs["hmac_sha256_digest"]
    assert [bus.read(digest["addr"] + 4 * i) for i in range(digest["size"])] == [0] * digest["size"]
    assert (
        ld_hmac.new(b"k", b"after", "sha256", backend="soc", engine=P4).digest()
        == std_hmac.new(b"k", b"after", "sha256").digest()
    )


def test_cli_on_the_mac_engine(tmp_path):
    """`litedigest hmac --backend soc --engine hmac-sha256:opt:p4`, as openssl dgst -hmac."""
    import subprocess
    import sys

    f = tmp_path / "msg.bin"
    f.write_bytes(bytes(range(256)) * 5)
    key = tmp_path / "key"
    key.write_bytes(b"file key")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "litedigest.cli",
            "hmac",
            "-a",
            "sha256",
            "--key-file",
            str(key),
            "--backend",
            "soc",
            "--engine",
            P4,
            str(f),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    want = std_hmac.new(b"file key", f.read_bytes(), "sha256").hexdigest()
    assert r.stdout == f"HMAC-SHA2-256({f})= {want}\n"


def _packets(rng, n, nkeys):
    """n packets of random IMIX sizes (and a few edge sizes) under nkeys random keys."""
    keys = [rng.randbytes(rng.choice([0, 20, 32, 64, 65, 131])) for _ in range(nkeys)]
    sizes = [64, 576, 1500, 0, 1, 55, 56, 119, 4096]
    msgs = [rng.randbytes(rng.choice(sizes)) for _ in range(n)]
    return [keys[rng.randrange(nkeys)] for _ in range(n)], msgs


@pytest.mark.parametrize("nkeys", [1, 3, 6])
def test_hmac_many_through_the_walker(soc, nkeys, monkeypatch):
    """hmac_many with a key per message on the HMAC peripheral: every MAC Python's hmac, in
    order, with fewer and more distinct keys than the four key slots (six: two rounds), each
    round's messages one staged batch whose descriptors name their key slots."""
    rng = random.Random(nkeys)
    keys, msgs = _packets(rng, 40, nkeys)
    calls = []
    staged = soc.hw.mac_many
    monkeypatch.setattr(soc.hw, "mac_many", lambda *a: calls.append(a[0]) or staged(*a))
    got = ld_hmac.hmac_many(keys, msgs, "sha256", backend="soc", engine=P4)
    assert got == [std_hmac.new(k, m, "sha256").digest() for k, m in zip(keys, msgs)]
    assert len(calls) == -(-nkeys // 4)  # a call a round of key slots
    assert all(set(c) <= set(range(4)) for c in calls) and sum(map(len, calls)) <= len(msgs)
    monkeypatch.undo()
    # one key for all, and a message too large for one batch (streamed by a one-shot call)
    big = rng.randbytes(soc.hw.dev.stage_size + 100)
    got = ld_hmac.hmac_many(b"one key", [b"abc", big, b""], "SHA-256", backend="soc", engine=P4)
    assert got == [std_hmac.new(b"one key", m, "sha256").digest() for m in (b"abc", big, b"")]


def test_hmac_many_csr_path_and_bad_input(soc):
    """The CSR path (one by one), the same MACs; bad input refused before anything runs."""
    rng = random.Random("csr")
    keys, msgs = _packets(rng, 8, 2)
    old = soc.path
    soc.path = "csr"
    try:
        got = ld_hmac.hmac_many(keys, msgs, "sha256", backend="soc", engine=P4)
    finally:
        soc.path = old
    assert got == [std_hmac.new(k, m, "sha256").digest() for k, m in zip(keys, msgs)]
    with pytest.raises(ValueError, match="keys for"):
        ld_hmac.hmac_many([b"a", b"b"], [b"m"], "sha256", backend="soc", engine=P4)
    with pytest.raises(TypeError):
        ld_hmac.hmac_many(["text"], [b"m"], "sha256", backend="soc", engine=P4)
    with pytest.raises(ValueError):  # the engine computes HMAC-SHA-256 only
        ld_hmac.hmac_many(b"k", [b"m"], "sha1", backend="soc", engine=P4)
    assert ld_hmac.hmac_many(b"k", [], "sha256", backend="soc", engine=P4) == []
    # the staged batch's own key slots: one each, in range
    read = soc.sim.bus.read_bytes
    with pytest.raises(ValueError, match="key slots for"):
        soc.hw.mac_many([0, 1], [b"m"], read)
    with pytest.raises(ValueError, match="out of range"):
        soc.hw.mac_many([4], [b"m"], read)
