# SPDX-License-Identifier: BSD-2-Clause
"""The simulated SoC and its host bridge (UARTBone over the patched TCP serial module).

Uses the same cached SoC build as the `soc` backend and the demo (MAIN_SOC of soc/targets/sim.py):
the first run builds it (a few minutes from empty), later runs take a few seconds.
"""

import os
import socket
import threading
import time

import pytest
from litedigest.paths import repo_root
from litedigest.remote.bridge import BridgeError, UARTBoneClient, free_tcp_port
from litedigest.soc.sim.build import build_sim
from litedigest.soc.sim.errors import SimError
from litedigest.soc.sim.firmware import build_firmware, write_main_ram_init
from litedigest.soc.sim.process import SimProcess
from litedigest.soc.targets.sim import soc_engines_for

ROOT = repo_root()
ENGINE = "sha256:opt:p1"


def engines():

    return soc_engines_for(ENGINE)


IDLE_APP = os.path.join(ROOT, "software", "firmware", "apps", "idle")


@pytest.fixture(scope="module")
def sim_build():
    from litedigest.soc.sim.build import build_soc

    return build_soc(engines())


@pytest.fixture(scope="module")
def idle_fw(sim_build):
    return build_firmware(sim_build, IDLE_APP)


@pytest.fixture
def sim(sim_build, idle_fw):
    with SimProcess(sim_build, firmware=idle_fw) as s:
        s.read_console_until("LDIDLE", timeout=60)
        yield s


def test_build_outputs(sim_build):
    assert os.access(sim_build.vsim, os.X_OK)
    for f in (
        "csr.json",
        "csr.csv",
        "software/include/generated/csr.h",
        "software/include/generated/mem.h",
        "software/include/generated/variables.mak",
        "software/libbase/libbase.a",
    ):
        assert os.path.exists(os.path.join(sim_build.build_dir, f)), f
    regs = sim_build.csr_map()
    assert "ctrl_scratch" in regs.registers
    assert regs.constants["main_ram_base"] == sim_build.main_ram_base
    assert regs.constants["main_ram_size"] == sim_build.main_ram_size
    # The cache: a second call reuses the model.
    again = build_sim(sim_build.build_dir, hash_engine=engines())
    assert not again.built


def test_init_file_format(tmp_path):
    p = tmp_path / "ram.init"
    write_main_ram_init(str(p), bytes([1, 2, 3, 4, 5]), 16)
    assert p.read_text().split() == ["04030201", "00000005", "00000000", "00000000"]
    # rows of the wide main RAM: one 16-byte row per line, memory byte 0 lowest
    write_main_ram_init(str(p), bytes(range(1, 18)), 32, row_bytes=16)
    assert p.read_text().split() == ["100F0E0D0C0B0A090807060504030201", "%032X" % 0x11]
    with pytest.raises(SimError):
        write_main_ram_init(str(p), bytes(20), 16)


def test_boot_identifier_and_scratch(sim):
    assert sim.identifier().startswith("LiteX Simulation")
    scratch = sim.csr("ctrl_scratch")
    assert scratch.addr == sim.csrs.addr("ctrl_scratch")
    assert scratch.read() == 0x12345678  # LiteX reset value
    for v in (0xDEADBEEF, 0x00000000, 0xFFFFFFFF, 0x5A5AA5A5):
        sim.regs.ctrl_scratch.write(v)
        assert sim.regs.ctrl_scratch.read() == v
    assert sim.bus.read(scratch.addr, 1) == [0x5A5AA5A5]


def test_bulk_64k_roundtrip(sim):
    data = os.urandom(64 * 1024)
    base = sim.constants["main_ram_base"] + sim.constants["main_ram_size"] // 2
    t0 = time.monotonic()
    sim.bus.write_bytes(base, data)
    back = sim.bus.read_bytes(base, len(data))
    elapsed = time.monotonic() - t0
    assert back == data
    assert elapsed < 20, f"64 KiB write+read took {elapsed:.1f} s"
    # Word view is little-endian memory.
    assert sim.bus.read(base) == int.from_bytes(data[:4], "little")


def test_unaligned_bytes(sim):
    base = sim.constants["main_ram_base"] + sim.constants["main_ram_size"] // 2 + 0x100
    sim.bus.write_bytes(base, bytes(16))
    sim.bus.write_bytes(base + 3, b"\x11\x22\x33\x44\x55")
    assert sim.bus.read_bytes(base, 12) == bytes(3) + b"\x11\x22\x33\x44\x55" + bytes(4)
    assert sim.bus.read_bytes(base + 5, 2) == b"\x33\x44"
    sim.bus.write_bytes(base + 9, b"\x99")
    assert sim.bus.read_bytes(base + 8, 4) == b"\x00\x99\x00\x00"


def test_console_wait_times_out(sim):
    t0 = time.monotonic()
    with pytest.raises(TimeoutError):
        sim.read_console_until("THIS NEVER APPEARS", timeout=1.0)
    assert time.monotonic() - t0 < 5


def test_dead_sim_raises(sim_build, idle_fw):
    with SimProcess(sim_build, firmware=idle_fw, bus_timeout=2.0) as sim:
        sim.read_console_until("LDIDLE", timeout=60)
        addr = sim.csrs.addr("ctrl_scratch")
        sim.proc.kill()
        sim.proc.wait(timeout=10)
        t0 = time.monotonic()
        with pytest.raises((TimeoutError, ConnectionError)):
            sim.bus.read(addr)
        with pytest.raises(SimError):
            sim.read_console_until("LDIDLE again", timeout=5)
        assert time.monotonic() - t0 < 10


def test_absent_sim_times_out():
    # A port that accepts connections but never answers: a hung or absent sim.
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    try:
        bus = UARTBoneClient("127.0.0.1", port, timeout=1.0)
        t0 = time.monotonic()
        with pytest.raises(TimeoutError):
            bus.read(0xF0000004)
        assert time.monotonic() - t0 < 5
        bus.close()
    finally:
        srv.close()
    # Nothing listening at all: connecting gives up in time too.
    t0 = time.monotonic()
    with pytest.raises(BridgeError):
        UARTBoneClient("127.0.0.1", free_tcp_port(), connect_timeout=1.0)
    assert time.monotonic() - t0 < 5


def test_two_sims_concurrently(sim_build, idle_fw):
    with SimProcess(sim_build, firmware=idle_fw) as a, SimProcess(sim_build, firmware=idle_fw) as b:
        assert a.port != b.port
        a.read_console_until("LDIDLE", timeout=60)
        b.read_console_until("LDIDLE", timeout=60)
        results = {}

        def work(name, s, value):
            for i in range(50):
                s.regs.ctrl_scratch.write(value + i)
                assert s.regs.ctrl_scratch.read() == value + i
            results[name] = s.regs.ctrl_scratch.read()

        ta = threading.Thread(target=work, args=("a", a, 0x1000))
        tb = threading.Thread(target=work, args=("b", b, 0x2000))
        ta.start()
        tb.start()
        ta.join(60)
        tb.join(60)
        assert results == {"a": 0x1000 + 49, "b": 0x2000 + 49}
        assert a.proc.pid != b.proc.pid and a.run_dir != b.run_dir
    assert a.proc is None and b.proc is None and a.run_dir is None
