# SPDX-License-Identifier: BSD-2-Clause
"""The pynq backend's own code (litedigest.board.device, litedigest.backends.pynq,
litedigest.board.overlay) against the simulated main SoC through PYNQ-compatible adapters
(litedigest.board.sim: SimMMIO for pynq.MMIO, SimAllocator for pynq.allocate with
non-coherent buffers); the overlay class runs on a stand-in `pynq` module whose DefaultIP
binds drivers by VLNV the way PYNQ does. One simulated SoC serves the whole file.
"""

import hashlib
import os
import random
import shutil
import sys
import types

import litedigest
import numpy as np
import pytest
from litedigest import _clib as native
from litedigest import backends
from litedigest.backends import pynq as pynq_backend
from litedigest.board import device as pd

SHA_ALGOS = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256")


@pytest.fixture(scope="module")
def dev():
    from litedigest.board.sim import open_sim_device

    d = open_sim_device()
    prev = pynq_backend.use_device(d)
    yield d
    pynq_backend.use_device(prev)
    d.close_sim()


@pytest.fixture
def restore_path(dev):
    """Each test starts on the DMA path of the cached pynq backends."""
    yield
    for (name, _), be in list(backends._cache.items()):
        if name == "pynq":
            be.path = "dma"


def _set_path(path):
    for algo in ("sha1", "sha256", "sha512", "skein512"):
        be = backends.get_backend("pynq", litedigest.spec.parse(algo).engine_name)
        be.path = path


# --- hashing: the same cases as the other backends -----------------------------------------


def test_device_finds_every_engine(dev):
    assert dev.engines == {
        "sha256": "sha256:opt:p1",
        "sha1": "sha1:opt:p1",
        "sha512": "sha512:k5:p1",
        "skein512": "skein512:r8",
        "hmac_sha256": "hmac-sha256:opt:p1",
    }
    assert dev.dma_align() == 64
    assert dev.buffer.physical_address % 4096 == 0 and dev.buffer.nbytes == pd.DEFAULT_BUFFER_BYTES
    assert dev.instance_for("sha384") == "sha512" and dev.instance_for("sha224:opt") == "sha256"
    assert dev.engine_spec("sha384") == "sha384:k5"


@pytest.mark.parametrize("path", ["dma", "csr"])
def test_every_sha_algorithm(dev, restore_path, path):
    _set_path(path)
    rng = random.Random(path)
    lengths = (
        [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 300]
        if path == "dma"
        else [0, 3, 64, 129]
    )
    for algo in SHA_ALGOS:
        for n in lengths:
            m = rng.randbytes(n)
            h = litedigest.new(algo, m, backend="pynq")
            assert h.digest() == hashlib.new(algo, m).digest(), (algo, n, path)
            assert h.hexdigest() == hashlib.new(algo, m).hexdigest()


@pytest.mark.parametrize(
    "name",
    ["SHA1ShortMsg", "SHA256ShortMsg", "SHA224ShortMsg", "SHA384ShortMsg", "SHA512_256ShortMsg"],
)
def test_cavp_short_messages(dev, name):
    """NIST CAVP ShortMsg files (as test_python_api runs them on the sw backend)."""
    import re

    from vectors import load_cavp

    algo = re.match(r"SHA\d+(_\d+)?", name).group(0).lower()
    for msg, md in load_cavp(name):
        assert litedigest.new(algo, msg, backend="pynq").digest() == md, (name, len(msg))


def test_skein_kat_bit_lengths_and_macs(dev):
    """Skein-512 KAT entries of every kind (bit lengths, MAC keys, long outputs), the picks the
    soc backend's test runs."""
    from vectors import check_skein_kat_picks

    assert len(check_skein_kat_picks("pynq")) >= 10


def test_multi_chunk_messages_and_update_splits(dev):
    """Messages longer than the DMA buffer (several jobs, the buffer reused), updates of
    random sizes, copy() in the middle."""
    rng = random.Random(7)
    for algo, n in (("sha256", 40000), ("sha512", 33000), ("sha1", 16385)):
        msg = rng.randbytes(n)
        h = litedigest.new(algo, backend="pynq")
        pos, copy_at, cp = 0, n // 3, None
        while pos < n:
            step = rng.choice([0, 1, 7, 63, 64, 65, 1000, 20000])
            h.update(msg[pos : pos + step])
            pos += step
            if cp is None and pos >= copy_at:
                cp, cp_len = h.copy(), min(pos, n)
        assert h.digest() == hashlib.new(algo, msg).digest(), algo
        assert h.digest() == hashlib.new(algo, msg).digest()  # digest() twice
        cp.update(b"tail")
        assert cp.digest() == hashlib.new(algo, msg[:cp_len] + b"tail").digest()


def test_device_new_and_attributes(dev):
    h = dev.new("sha384", b"abc")
    assert h.backend == "pynq" and h.engine == "sha384:k5"
    assert (h.name, h.digest_size, h.block_size) == ("sha384", 48, 128)
    assert h.digest() == hashlib.sha384(b"abc").digest()
    assert litedigest.sha256(b"abc", backend="pynq").digest() == hashlib.sha256(b"abc").digest()


@pytest.mark.parametrize("path", ["dma", "csr"])
def test_skein512(dev, restore_path, path):
    _set_path(path)
    rng = random.Random(11)
    try:
        import skein as pyskein
    except ImportError:
        pyskein = None
    cases = [
        (0, 512, b""),
        (1, 512, b""),
        (64, 256, b""),
        (65, 512, b"key"),
        (200, 1024, b""),
        (129, 160, bytes(range(64))),
        (3000, 384, b"k" * 100),
    ]
    if path == "csr":
        cases = cases[:4]
    for n, bits, key in cases:
        m = rng.randbytes(n)
        h = litedigest.new("skein512", m, digest_bits=bits, key=key, backend="pynq")
        want = native.skein512(m, bits, key)
        assert h.digest() == want, (n, bits, key)
        assert (
            litedigest.new("skein512", m, digest_bits=bits, key=key, backend="sw").digest() == want
        )
        if pyskein is not None:
            assert pyskein.skein512(m, digest_bits=bits, key=key).digest() == want
    # update splits and copy on Skein too
    m = rng.randbytes(20000)
    h = litedigest.new("skein512-256", backend="pynq")
    h.update(m[:100])
    cp = h.copy()
    h.update(m[100:])
    assert h.digest() == native.skein512(m, 256)
    assert cp.digest() == native.skein512(m[:100], 256)
    assert dev.new("skein512-512", b"abc").digest() == native.skein512(b"abc", 512)


# --- the DMA buffer is not coherent: flush before the engine reads --------------------------


def test_every_dma_write_is_flushed(dev):
    before = dev.flushes
    m = os.urandom(5000)
    assert litedigest.new("sha256", m, backend="pynq").digest() == hashlib.sha256(m).digest()
    assert dev.flushes > before


def test_missing_flush_hashes_stale_memory(dev, monkeypatch):
    """Without the flush the engine reads what memory held before: the adapter models a
    non-coherent buffer, so a driver that forgot the flush would be caught."""
    a, b = os.urandom(1000), os.urandom(1000)
    assert litedigest.new("sha256", a, backend="pynq").digest() == hashlib.sha256(a).digest()
    from litedigest.board.sim import SimBuffer

    monkeypatch.setattr(SimBuffer, "flush", lambda self: None)
    got = litedigest.new("sha256", b, backend="pynq").digest()
    assert got != hashlib.sha256(b).digest()
    # the engine read memory, which still holds a's staged blocks, not what the CPU wrote
    phys = dev.buffer.physical_address
    memory = b"".join(dev.sim.bus.read(phys + 4 * i).to_bytes(4, "little") for i in range(16))
    assert memory != bytes(dev._bytes[:64])
    monkeypatch.undo()
    assert litedigest.new("sha256", b, backend="pynq").digest() == hashlib.sha256(b).digest()


def test_invalidate_reads_memory_back(dev):
    buf = dev.allocator(shape=(16,), dtype=np.uint32)
    try:
        buf.flush()  # zeros in memory
        buf[:] = np.arange(16, dtype=np.uint32)
        assert dev.sim.bus.read(buf.physical_address + 4) == 0  # not in memory before a flush
        buf.flush()
        assert dev.sim.bus.read(buf.physical_address + 4) == 1
        dev.sim.bus.write(buf.physical_address + 8, [0xCAFE])
        assert buf[2] == 2
        buf.invalidate()
        assert buf[2] == 0xCAFE
        view = buf[4:]
        assert view.physical_address == buf.physical_address + 16
    finally:
        buf.freebuffer()
    with pytest.raises(ValueError, match="freed"):
        buf.flush()


# --- bad input -------------------------------------------------------------------------------


def test_bad_buffers(dev):
    from litedigest.board.sim import SimDevice, register_map, sim_adapters

    mmio, _ = sim_adapters(dev.sim)
    regmap = register_map(dev.sim.build)
    with pytest.raises(ValueError, match="smaller than one block"):
        SimDevice(mmio, dev.allocator, regmap, buffer_bytes=64)  # sha512 needs 128
    with pytest.raises(ValueError, match="positive integer"):
        SimDevice(mmio, dev.allocator, regmap, buffer_bytes=0)
    _, skewed = sim_adapters(dev.sim, offset=32)
    skewed.base += 64 * 1024  # clear of the module's device buffer
    skewed.size -= 64 * 1024
    with pytest.raises(ValueError, match="not aligned to the engines' 64-byte DMA alignment"):
        SimDevice(mmio, skewed, regmap)
    assert not skewed.live  # the refused buffer was freed
    with pytest.raises(TypeError, match="physical_address"):
        SimDevice(mmio, lambda shape, dtype: np.zeros(shape, dtype), regmap)
    from litedigest.board.sim import SimMMIO

    with pytest.raises(ValueError, match="MMIO window"):
        SimDevice(SimMMIO(dev.sim, mmio.base_addr, 0x100), dev.allocator, regmap)


def test_bad_calls(dev):
    p = dev.peripheral("sha256")
    with pytest.raises(ValueError, match="outside the DMA buffer"):
        dev.write_bytes(dev.physical_address + dev.buffer_bytes - 8, bytes(16))
    with pytest.raises(ValueError, match="outside the DMA buffer"):
        dev.write_bytes(dev.physical_address - 64, bytes(64))
    with pytest.raises(ValueError, match="no engine for sha256:base"):
        litedigest.new("sha256", b"abc", backend="pynq", engine="sha256:base").digest()
    with pytest.raises(ValueError, match="no hash peripheral"):
        dev.peripheral("md5")
    with pytest.raises(ValueError):
        dev.mmio.read(3)
    with pytest.raises(ValueError):
        dev.mmio.read(dev.mmio.length)
    # a job the hardware refuses reports its error bit, and the peripheral stays usable
    st = native.ffi.new("uint32_t *")
    rc = p.call(
        native.lib.ld_hw_job_dma,
        p.dev,
        dev.physical_address,
        100,
        0,
        0,
        native.lib.LD_CTRL_FIRST,
        st,
    )
    assert rc == native.lib.LD_ERR_HW and st[0] & native.lib.LD_STATUS_ERR_LEN
    assert litedigest.new("sha256", b"x", backend="pynq").digest() == hashlib.sha256(b"x").digest()


def test_no_board_no_silent_fallback(dev, monkeypatch):
    """Without a device and without PYNQ the backend refuses; it never starts a simulator
    unless asked by LITEDIGEST_PYNQ_DEVICE=sim."""
    prev = pynq_backend.use_device(None)
    try:
        monkeypatch.setitem(sys.modules, "pynq", None)  # `import pynq` fails
        monkeypatch.delenv(pynq_backend.ENV_DEVICE, raising=False)
        started = []
        import litedigest.board.sim as ps

        monkeypatch.setattr(ps, "start_sim", lambda *a, **k: started.append(1))
        with pytest.raises(ValueError, match="import pynq"):
            litedigest.new("sha256", b"abc", backend="pynq").digest()
        monkeypatch.setenv(pynq_backend.ENV_DEVICE, "fpga")
        with pytest.raises(ValueError, match="expected 'sim' or 'board'"):
            litedigest.new("sha256", b"abc", backend="pynq").digest()
        assert not started
    finally:
        pynq_backend.use_device(prev)


# --- register map and IP lookup (no board needed) -------------------------------------------


def test_find_subsystem():
    vlnv = pd.SUBSYSTEM_VLNV
    ipd = {
        "processing_system7_0": {"type": "xilinx.com:ip:processing_system7:5.5"},
        "litedigest_0": {"type": vlnv, "phys_addr": 0x43C00000, "addr_range": 0x10000},
    }
    assert pd.find_subsystem(ipd) == ("litedigest_0", ipd["litedigest_0"])
    assert pd.find_subsystem(ipd, name="litedigest_0")[0] == "litedigest_0"
    with pytest.raises(LookupError, match="no LiteDigest subsystem.*processing_system7_0"):
        pd.find_subsystem({"processing_system7_0": ipd["processing_system7_0"]})
    with pytest.raises(LookupError, match="not the LiteDigest subsystem"):
        pd.find_subsystem(ipd, name="processing_system7_0")
    with pytest.raises(LookupError, match="no IP named"):
        pd.find_subsystem(ipd, name="hash")
    wrong = {"litedigest_0": {"type": "xilinx.com:module_ref:litedigest_subsystem_old:1.0"}}
    with pytest.raises(LookupError, match="no LiteDigest subsystem"):
        pd.find_subsystem(wrong)
    two = dict(ipd, litedigest_1=dict(ipd["litedigest_0"]))
    with pytest.raises(LookupError, match="several"):
        pd.find_subsystem(two)
    with pytest.raises(TypeError):
        pd.find_subsystem(None)
    assert (
        pd.find_subsystem(
            {"x": {"type": vlnv.rsplit(":", 1)[0] + ":2.0"}}, vlnv=vlnv.rsplit(":", 1)[0]
        )[0]
        == "x"
    )


def test_vlnv_matches_board_target():
    try:
        from litedigest.soc.targets import pynq_z2
    except ImportError:
        pytest.skip("soc/targets/pynq_z2.py is not there yet")
    if not hasattr(pynq_z2, "SUBSYSTEM_VLNV"):
        pytest.skip("soc/targets/pynq_z2.py has no SUBSYSTEM_VLNV yet")
    assert pynq_z2.SUBSYSTEM_VLNV == pd.SUBSYSTEM_VLNV


def test_register_files(tmp_path):
    bit = tmp_path / "ol.bit"
    bit.write_bytes(b"")
    with pytest.raises(FileNotFoundError, match="ol.csr.json"):
        pd.register_files(str(bit))
    (tmp_path / "csr.json").write_text("{}")
    (tmp_path / "ol.csr.h").write_text("")
    assert pd.register_files(str(bit)) == (str(tmp_path / "csr.json"), str(tmp_path / "ol.csr.h"))
    os.unlink(tmp_path / "ol.csr.h")
    assert pd.register_files(str(bit)) == (str(tmp_path / "csr.json"), None)
    with pytest.raises(FileNotFoundError):
        pd.register_files(str(bit), csr_h=str(tmp_path / "nope.h"))
    with pytest.raises(ValueError, match="not a LiteX csr.json"):
        pd.RegisterMap({}, "")
    with pytest.raises(ValueError, match="no hash peripheral"):
        pd.RegisterMap({"csr_registers": {"ctrl_reset": {"addr": 0, "size": 1}}}, "")


# --- the overlay class on a stand-in pynq module ---------------------------------------------


def _fake_pynq(sim, allocator, ip_dict):
    """A `pynq` module with what LiteDigestOverlay uses: DefaultIP (drivers bound by the
    `bindto` VLNVs, `mmio` over the IP's address range), Overlay (ip_dict, one attribute per
    IP with its bound driver), allocate."""
    from litedigest.board.sim import SimMMIO

    mod = types.ModuleType("pynq")
    drivers = {}

    class DefaultIP:
        def __init_subclass__(cls, **kw):
            super().__init_subclass__(**kw)
            for v in getattr(cls, "bindto", ()):
                drivers[v] = cls

        def __init__(self, description):
            self.description = description
            self.mmio = SimMMIO(sim, description["phys_addr"], description["addr_range"])

    class Overlay:
        def __init__(self, bitfile, download=True, **kw):
            self.bitfile_name = bitfile
            self.ip_dict = ip_dict
            for name, d in ip_dict.items():
                setattr(self, name, drivers.get(d["type"], DefaultIP)(d))

    mod.DefaultIP, mod.Overlay, mod.allocate = DefaultIP, Overlay, allocator
    return mod


@pytest.fixture
def overlay_env(dev, tmp_path, monkeypatch):
    b = dev.sim.build
    # the layout `litedigest build pynq_z2` writes: litedigest.bit, csr.json, and csr.h under
    # software/include/generated
    bit = tmp_path / "litedigest.bit"
    bit.write_bytes(b"\0")
    shutil.copy(b.csr_json, tmp_path / "csr.json")
    gen = tmp_path / "software" / "include" / "generated"
    gen.mkdir(parents=True)
    shutil.copy(os.path.join(b.software_dir, "include", "generated", "csr.h"), gen / "csr.h")
    csr = dev.sim.csrs.memories["csr"]
    ip_dict = {
        "processing_system7_0": {
            "type": "xilinx.com:ip:processing_system7:5.5",
            "phys_addr": 0,
            "addr_range": 0,
        },
        "litedigest_0": {
            "type": pd.SUBSYSTEM_VLNV,
            "phys_addr": csr["base"],
            "addr_range": csr["size"],
        },
    }
    # a second allocator region clear of the module's device buffer
    from litedigest.board.sim import SimAllocator

    alloc = SimAllocator(dev.sim, dev.allocator.base + 64 * 1024, 32 * 1024)
    monkeypatch.setitem(sys.modules, "pynq", _fake_pynq(dev.sim, alloc, ip_dict))
    monkeypatch.delitem(sys.modules, "litedigest.board.overlay", raising=False)
    prev = pynq_backend.current_device(open_default=False)
    yield bit, ip_dict, alloc
    sys.modules.pop("litedigest.board.overlay", None)
    pynq_backend.use_device(prev)


def test_overlay_on_stand_in_pynq(overlay_env, monkeypatch):
    bit, ip_dict, alloc = overlay_env
    from litedigest.board.overlay import LiteDigestIP, LiteDigestOverlay

    ol = LiteDigestOverlay(str(bit))
    try:
        assert ol.subsystem_name == "litedigest_0" and isinstance(ol.subsystem, LiteDigestIP)
        assert ol.engines["sha512"] == "sha512:k5:p1"
        assert pynq_backend.current_device() is ol.device  # the backend's device now
        assert len(alloc.live) == 1  # its buffer: pynq.allocate
        m = os.urandom(3000)
        assert ol.new("sha256", m).digest() == hashlib.sha256(m).digest()
        assert litedigest.new("sha1", m, backend="pynq").digest() == hashlib.sha1(m).digest()
        assert ol.new("skein512", m, digest_bits=256).digest() == native.skein512(m, 256)
    finally:
        ol.close()
    assert not alloc.live and pynq_backend.current_device(open_default=False) is None
    # the default bitfile comes from LITEDIGEST_OVERLAY
    monkeypatch.setenv("LITEDIGEST_OVERLAY", str(bit))
    ol = LiteDigestOverlay()
    assert ol.new("sha224", b"abc").digest() == hashlib.sha224(b"abc").digest()
    ol.close()
    monkeypatch.setenv("LITEDIGEST_OVERLAY", str(bit) + ".missing")
    with pytest.raises(FileNotFoundError, match="LITEDIGEST_OVERLAY"):
        LiteDigestOverlay()


def test_overlay_without_subsystem(overlay_env):
    bit, ip_dict, _ = overlay_env
    ip_dict["litedigest_0"]["type"] = "xilinx.com:ip:axi_gpio:2.0"
    from litedigest.board.overlay import LiteDigestOverlay

    with pytest.raises(LookupError, match="no LiteDigest subsystem.*axi_gpio"):
        LiteDigestOverlay(str(bit))
    # csr.h is optional (the field positions are the generated hw_regs); csr.json is not
    os.unlink(os.path.join(os.path.dirname(bit), "software", "include", "generated", "csr.h"))
    with pytest.raises(LookupError, match="no LiteDigest subsystem"):
        LiteDigestOverlay(str(bit))
    os.unlink(os.path.join(os.path.dirname(bit), "csr.json"))
    with pytest.raises(FileNotFoundError, match="csr.json"):
        LiteDigestOverlay(str(bit))


# --- what the notebooks use on a board -------------------------------------------------------


def test_host_rates_checks_digests(dev):
    """sweep.host_rates (02's board branch) on the simulated device: the wall-clock figures
    mean nothing here (the bridge), but the code path and its digest check run."""
    from litedigest.measure.sweep import host_rates

    r = host_rates(dev.new, sizes=(64, 1000), repeat=1, rng=random.Random(3))
    assert set(r) == {"hashlib", "engine"} and set(r["engine"]) == {64, 1000}
    assert all(v > 0 for d in r.values() for v in d.values())
    with pytest.raises(ValueError, match="differs from hashlib"):
        host_rates(lambda a, m: hashlib.new("sha1", m), sizes=(64,), repeat=1)
    with pytest.raises(ValueError, match="repeat"):
        host_rates(dev.new, sizes=(64,), repeat=0)


def test_open_target_picks_the_board_when_pynq_and_overlay(overlay_env, monkeypatch):
    """litedigest.nbtarget on a (stand-in) PYNQ with the overlay: the board target, whose
    hash objects run through the overlay's device; without the overlay file and board=True
    the error surfaces instead of a silent switch to the simulator."""
    from litedigest import nbtarget

    bit, _, alloc = overlay_env
    monkeypatch.setattr(nbtarget, "_target", None)
    monkeypatch.setenv("LITEDIGEST_OVERLAY", str(bit))
    t = nbtarget.open_target()
    try:
        assert t.kind == "board" and t.on_board and t.description.startswith("the PYNQ board")
        assert pynq_backend.current_device(open_default=False) is t.device
        assert set(t.algorithms()) >= {"sha1", "sha256", "sha384", "skein512"}
        assert t.new("sha512_256", b"abc").digest() == hashlib.new("sha512_256", b"abc").digest()
    finally:
        t.close()
    assert not alloc.live
    monkeypatch.setattr(nbtarget, "_target", None)
    monkeypatch.setenv("LITEDIGEST_OVERLAY", str(bit) + ".missing")
    with pytest.raises(FileNotFoundError):
        nbtarget.open_target(board=True)
    monkeypatch.setattr(nbtarget, "_target", None)


def test_hmac_engine_on_the_simulated_board(dev):
    """litedigest.hmac with the main SoC's HMAC engine through the pynq backend's driver
    (the MMIO window and the allocate buffer of the simulated board)."""
    import hmac as std_hmac

    from litedigest import hmac as ld_hmac

    inst = dev.instance_for("hmac-sha256:opt")
    assert dev.engines[inst] == "hmac-sha256:opt:p1"
    for key, msg in (
        (b"", b""),
        (b"k" * 100, bytes(range(200))),
        (b"Jefe", b"what do ya want for nothing?"),
    ):
        h = ld_hmac.new(key, msg[:3], "sha256", backend="pynq", engine="hmac-sha256:opt")
        h.update(msg[3:])
        assert h.digest() == std_hmac.new(key, msg, "sha256").digest()


def test_hmac_many_on_the_simulated_board(dev, restore_path):
    """hmac_many through the pynq backend: a key per message (five keys: two rounds of the four
    key slots), the batch walker's MACs read back from the non-coherent DMA buffer (invalidated
    first), and the same on the CSR path one by one; all Python's hmac."""
    import hmac as std_hmac

    from litedigest import hmac as ld_hmac

    rng = random.Random("pynq hmac_many")
    sas = [rng.randbytes(rng.choice([0, 20, 32, 100])) for _ in range(5)]
    msgs = [rng.randbytes(rng.choice([0, 1, 64, 576, 1500])) for _ in range(24)]
    keys = [rng.choice(sas) for _ in msgs]
    want = [std_hmac.new(k, m, "sha256").digest() for k, m in zip(keys, msgs)]
    flushes = dev.flushes
    assert ld_hmac.hmac_many(keys, msgs, "sha256", backend="pynq", engine="hmac-sha256:opt") == want
    assert dev.flushes > flushes  # the staged batches went through dma_sync
    backends.get_backend("pynq", "hmac-sha256:opt:p1").path = "csr"
    assert (
        ld_hmac.hmac_many(keys[:6], msgs[:6], "sha256", backend="pynq", engine="hmac-sha256:opt")
        == want[:6]
    )
