# SPDX-License-Identifier: BSD-2-Clause
"""The PYNQ driver on the real `pynq` package (4.0.0), not a stand-in: a pynq Device backed by
the simulated main SoC (litedigest.board.pynq_sim), so that the subsystem's driver is bound by
pynq's own VLNV registry, its registers go through pynq.MMIO and its DMA buffer is a
pynq.buffer.PynqBuffer from pynq.allocate. No Overlay: that needs the .hwh only Vivado writes.
Skipped where pynq is not installed (scripts/setup.sh test installs it)."""

import hashlib
import hmac as std_hmac
import os
import random
import sys

import numpy as np
import pytest

try:
    from litedigest.board import pynq_sim as psd
except ImportError as e:
    pytest.skip(
        f"the pynq package is not importable here ({e}); scripts/setup.sh test installs pynq 4.0.0",
        allow_module_level=True,
    )

import litedigest
from litedigest import _clib as native
from litedigest import backends
from litedigest.backends import pynq as pynq_backend
from litedigest.board.device import SUBSYSTEM_VLNV

pynq = psd.pynq
from pynq.buffer import PynqBuffer  # noqa: E402


@pytest.fixture(scope="module")
def ps():
    prev = pynq_backend.use_device(None)
    p = psd.open_pynq_sim()
    yield p
    p.close()
    pynq_backend.use_device(prev)


@pytest.fixture
def on_driver(ps):
    """The pynq backend drives this module's driver; the DMA path afterwards."""
    pynq_backend.use_device(ps.driver)
    yield ps.driver
    for (name, _), be in list(backends._cache.items()):
        if name == "pynq":
            be.path = "dma"


# --- the objects in the path are pynq's -----------------------------------------------------


def test_the_path_is_pynqs_own_code(ps):
    assert pynq.__version__ == "4.0.0"
    assert isinstance(ps.device, pynq.Device)
    assert pynq.Device.active_device is ps.device
    # the driver pynq binds to the subsystem's VLNV, as an Overlay would from the .hwh
    assert pynq.overlay._ip_drivers[SUBSYSTEM_VLNV] is psd.LiteDigestIP
    assert type(ps.ip) is psd.LiteDigestIP and isinstance(ps.ip, pynq.DefaultIP)
    # registers: pynq.MMIO over the CSR window, on the device, through its REGISTER_RW path
    csr = ps.sim.csrs.memories["csr"]
    assert type(ps.ip.mmio) is pynq.MMIO and ps.driver.mmio is ps.ip.mmio
    assert (ps.ip.mmio.base_addr, ps.ip.mmio.length) == (csr["base"], csr["size"])
    assert ps.ip.mmio.device is ps.device and ps.device.has_capability("REGISTER_RW")
    assert not ps.device.has_capability("MEMORY_MAPPED")
    assert ps.driver._mmio_window() is None  # no host memory to hand the C driver
    # the DMA buffer: a PynqBuffer from pynq.allocate, in the upper half of simulated main RAM
    buf = ps.driver.buffer
    assert isinstance(buf, PynqBuffer) and buf.device is ps.device and not buf.coherent
    c = ps.sim.constants
    upper = c["main_ram_base"] + c["main_ram_size"] // 2
    assert upper <= buf.device_address < c["main_ram_base"] + c["main_ram_size"]
    assert buf.physical_address == buf.device_address and buf.device_address % 4096 == 0
    assert ps.memory.live == {buf.device_address: buf.nbytes}
    # the driver's view of the buffer keeps pynq's attributes (its flushes are pynq's)
    assert isinstance(ps.driver._bytes, PynqBuffer)
    assert ps.driver._bytes.device_address == buf.device_address
    assert ps.driver.engines == {
        "sha256": "sha256:opt:p1",
        "sha1": "sha1:opt:p1",
        "sha512": "sha512:k5:p1",
        "skein512": "skein512:r8",
        "hmac_sha256": "hmac-sha256:opt:p1",
    }


def test_mmio_reads_and_writes_reach_the_simulated_csrs(ps):
    mmio, regmap, bus = ps.ip.mmio, ps.driver.regmap, ps.sim.bus
    info = regmap.offset(regmap.registers["sha256_info"]["addr"])
    reads = ps.device.register_reads
    assert mmio.read(info) == bus.read(mmio.base_addr + info) != 0
    assert ps.ip.read(info) == mmio.read(info)  # DefaultIP.read
    assert ps.device.register_reads == reads + 3
    # a read-write register: MMIO.write (an int, and bytes) lands in the CSR
    reg = regmap.registers["sha256_dma_base"]
    off = regmap.offset(reg["addr"])
    old = bus.read(reg["addr"])
    try:
        writes = ps.device.register_writes
        mmio.write(off, 0x4002_0040)
        assert bus.read(reg["addr"]) == 0x4002_0040 and mmio.read(off) == 0x4002_0040
        ps.ip.write(off, (0x4002_0080).to_bytes(4, "little"))
        assert bus.read(reg["addr"]) == 0x4002_0080
        assert ps.device.register_writes == writes + 2
    finally:
        bus.write(reg["addr"], [old])
    # pynq's own checks
    with pytest.raises(MemoryError, match="Unaligned"):
        mmio.read(info + 2)
    with pytest.raises(IndexError):
        mmio.read(mmio.length)
    with pytest.raises(MemoryError, match="unaligned"):
        ps.device.read_registers(mmio.base_addr + 2, 4)


def test_a_plain_default_ip_on_the_device(ps):
    """An IP of another VLNV gets pynq's DefaultIP, with its MMIO on the same device."""
    csr = ps.sim.csrs.memories["csr"]
    ip_dict = psd.subsystem_ip_dict(
        ps.device, csr["base"], csr["size"], name="gpio_0", vlnv="xilinx.com:ip:axi_gpio:2.0"
    )
    ip = psd.bind_drivers(ip_dict, ps.device)["gpio_0"]
    assert type(ip) is pynq.DefaultIP and type(ip.mmio) is pynq.MMIO
    info = ps.driver.regmap.offset(ps.driver.regmap.registers["sha1_info"]["addr"])
    assert ip.read(info) == ps.ip.read(info) == ps.sim.bus.read(csr["base"] + info)


# --- hashing through pynq's MMIO and pynq's allocate ------------------------------------------

ALGOS = ("sha256", "sha224", "sha1", "sha512", "sha384", "sha512_256")


@pytest.mark.parametrize("algo", ALGOS)
def test_random_messages_match_hashlib(ps, on_driver, algo):
    rng = random.Random(f"pynq-real-{algo}")
    lengths = [0, 1, 64, 5000] + [rng.randint(0, 5000) for _ in range(6)]
    flushes = ps.device.flushes
    for n in lengths:
        m = rng.randbytes(n)
        assert ps.new(algo, m).digest() == hashlib.new(algo, m).digest(), (algo, n)
        h = litedigest.new(algo, backend="pynq")  # the backend on the same driver
        cut = rng.randint(0, n)
        h.update(m[:cut])
        h.update(m[cut:])
        assert h.hexdigest() == hashlib.new(algo, m).hexdigest(), (algo, n, cut)
    assert ps.device.flushes > flushes  # the message reached the engine by pynq's flush


def test_long_message_reuses_the_buffer(ps, on_driver):
    m = random.Random(5).randbytes(3 * ps.driver.buffer_bytes + 77)
    for algo in ("sha256", "sha512"):
        assert ps.new(algo, m).digest() == hashlib.new(algo, m).digest()


def test_csr_path(ps, on_driver):
    """The engine fed through the data registers (pynq.MMIO writes) instead of the DMA buffer."""
    rng = random.Random(9)
    for algo in ("sha1", "sha256", "sha512"):
        backends.get_backend("pynq", litedigest.spec.parse(algo).engine_name).path = "csr"
        for n in (0, 3, 129, rng.randint(0, 1000)):
            m = rng.randbytes(n)
            assert litedigest.new(algo, m, backend="pynq").digest() == hashlib.new(algo, m).digest()


def test_hmac_engine(ps, on_driver):
    from litedigest import hmac as ld_hmac

    rng = random.Random(13)
    assert ps.driver.instance_for("hmac-sha256:opt") == "hmac_sha256"
    cases = [
        (b"", b""),
        (b"Jefe", b"what do ya want for nothing?"),
        (b"k" * 100, bytes(range(200))),
    ]
    cases += [
        (rng.randbytes(rng.randint(0, 80)), rng.randbytes(rng.randint(0, 5000))) for _ in range(4)
    ]
    for key, msg in cases:
        h = ld_hmac.new(key, msg[:5], "sha256", backend="pynq", engine="hmac-sha256:opt")
        h.update(msg[5:])
        assert h.digest() == std_hmac.new(key, msg, "sha256").digest(), (len(key), len(msg))


def test_skein512(ps, on_driver):
    rng = random.Random(17)
    for n, bits in ((0, 512), (rng.randint(1, 5000), 256), (rng.randint(1, 5000), 1024)):
        m = rng.randbytes(n)
        assert ps.new("skein512", m, digest_bits=bits).digest() == native.skein512(m, bits)


# --- pynq's buffers on the simulated RAM: not coherent -----------------------------------------


def test_missing_flush_hashes_stale_memory(ps, on_driver, monkeypatch):
    a, b = os.urandom(1000), os.urandom(1000)
    assert ps.new("sha256", a).digest() == hashlib.sha256(a).digest()
    monkeypatch.setattr(ps.device, "flush", lambda *args: None)
    assert ps.new("sha256", b).digest() != hashlib.sha256(b).digest()
    monkeypatch.undo()
    assert ps.new("sha256", b).digest() == hashlib.sha256(b).digest()


def test_allocate_flush_invalidate_free(ps):
    bus = ps.sim.bus
    live = dict(ps.memory.live)
    with pytest.raises(ValueError):
        pynq.allocate(shape=(0,), dtype=np.uint8, target=ps.device)
    buf = pynq.allocate(shape=(4, 4), dtype=np.uint32, target=ps.device)
    other = pynq.allocate(100, "u1")  # no target: pynq's active device
    try:
        assert isinstance(buf, PynqBuffer) and isinstance(other, PynqBuffer)
        assert buf.shape == (4, 4) and buf.dtype == np.uint32 and other.device is ps.device
        assert other.device_address >= buf.device_address + buf.nbytes
        assert set(ps.memory.live) == set(live) | {buf.device_address, other.device_address}
        buf.flush()  # zeros in memory
        buf[:] = np.arange(16, dtype=np.uint32).reshape(4, 4)
        assert bus.read(buf.device_address + 4) == 0  # not there before a flush
        buf.sync_to_device()
        assert bus.read(buf.device_address + 4) == 1
        row = buf[2]  # a view: its own range
        assert isinstance(row, PynqBuffer) and row.device_address == buf.device_address + 32
        row[:] = 7
        row.flush()
        assert (
            bus.read(buf.device_address + 32, 4) == [7] * 4
            and bus.read(buf.device_address + 48) == 12
        )
        bus.write(buf.device_address + 8, [0xCAFE])
        assert buf[0, 2] == 2
        buf.invalidate()
        assert buf[0, 2] == 0xCAFE
        bus.write(buf.device_address + 36, [0xBEEF])
        row.sync_from_device()
        assert list(buf[2]) == [7, 0xBEEF, 7, 7]
    finally:
        addr = buf.device_address
        buf.freebuffer()
        other.freebuffer()
    assert ps.memory.live == live
    with pytest.raises(ValueError, match="freed"):
        buf.flush()
    buf.freebuffer()  # twice: harmless
    again = pynq.allocate(shape=(16,), dtype=np.uint32, target=ps.device)
    assert again.device_address == addr  # the region came back
    again.freebuffer()


def test_close_restores_pynqs_state(ps):
    """A second PynqSim on the same simulator (another RAM region): closing it frees its
    driver's buffer and gives pynq its previous active device back."""
    from litedigest.board.sim import register_map

    c = ps.sim.constants
    top = c["main_ram_base"] + c["main_ram_size"]
    second = psd.PynqSim(ps.sim, register_map(ps.sim.build), ram=(top - 64 * 1024, 64 * 1024))
    try:
        assert pynq.Device.active_device is second.device
        m = os.urandom(2000)
        assert second.new("sha1", m).digest() == hashlib.sha1(m).digest()
        assert len(second.memory.live) == 1
    finally:
        second.close()
    assert not second.memory.live and pynq.Device.active_device is ps.device
    assert ps.sim is not None and ps.new("sha1", b"abc").digest() == hashlib.sha1(b"abc").digest()


def test_pkg_resources_stand_in_only_for_the_import():
    """pynqutils needs pkg_resources, gone from setuptools 81: the stand-in serves pynq's
    import and its extension lookup (what `pynq get-notebooks` uses to find litedigest's
    notebooks) without being left in sys.modules."""
    try:
        import pkg_resources  # noqa: F401

        real = True
    except ImportError:
        real = False
    if not real:
        assert "pkg_resources" not in sys.modules
    from pynqutils.setup_utils import ExtensionsManager

    nb = ExtensionsManager("pynq.notebooks")
    if "litedigest" not in [e.name for e in nb.list]:
        pytest.skip("the installed litedigest metadata has no pynq.notebooks entry point")
    path = nb.extension_path("litedigest.notebooks")
    assert os.path.isdir(path) and any(f.endswith(".ipynb") for f in os.listdir(path))
