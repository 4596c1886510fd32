"""Faults injected into the simulated SoC under the C driver and the Python API
(docs/RELIABILITY.md, "Faults survived"): each one reported by the driver, nothing hung, no
wrong digest reported as good, and the peripheral usable afterwards.

- the simulator process killed under a running hash object (a clear error, no crash: this
  crashed the interpreter before, see native._invoke);
- a job programmed on a slot whose job still runs (refused, err_state; the running job ends
  with the right digest);
- a stalled job (the DMA reader held with ctrl.hold): the driver's bounded wait reports
  LD_ERR_TIMEOUT; released, the job ends with the right digest.
The bus errors of the DMA readers (Wishbone and AXI) are injected in the Migen benches
(tests/test_peripheral_parts.py, tests/test_axi_reader.py) and proven handled
(tests/test_formal.py); a timeout by a short poll bound is tests/test_soc.py's."""
import hashlib
import os
import subprocess
import sys
import textwrap
import time

import pytest

from litedigest import native

ENGINE = "sha256:opt"
ERRORS = (native.lib.LD_STATUS_ERR_LEN | native.lib.LD_STATUS_ERR_ADDR | native.lib.LD_STATUS_ERR_STATE
          | native.lib.LD_STATUS_ERR_BUS)


@pytest.fixture(scope="module")
def backend():
    from litedigest.backends.soc import SoCBackend
    be = SoCBackend(ENGINE)
    yield be
    be.close()


def _place(backend, data):
    """`data` written into the upper quarter of main RAM (above the staging area's use here);
    its bus address."""
    ram = backend.sim.constants
    addr = ram["main_ram_base"] + ram["main_ram_size"] * 3 // 4
    backend.sim.bus.write_bytes(addr, data)
    return addr


def _wait_done(backend, regs, deadline_s=60):
    bus = backend.sim.bus
    deadline = time.monotonic() + deadline_s
    while not bus.read(regs["slots_done"]) & 1:
        assert time.monotonic() < deadline, "the job never ended"
    return bus.read(regs["status"])


def _digest(backend):
    words = native.ffi.new("uint32_t[8]")
    backend.hw.call(native.lib.ld_hw_read_digest_words, backend.hw.dev, 0, words, 8)
    return b"".join(int(w).to_bytes(4, "big") for w in words)


def _ack(backend, regs):
    bus = backend.sim.bus
    bus.write(regs["slots_ack"], [1])
    bus.write(regs["ctrl"], [native.lib.LD_CTRL_ACK])


def test_job_on_a_busy_slot_is_refused_and_the_running_one_ends_right(backend):
    hw, lib = backend.hw, native.lib
    regs = native.instance_registers(backend.sim.csrs.registers, "sha256")
    msg = os.urandom(48 * 1024)
    addr = _place(backend, msg)
    st = native.ffi.new("uint32_t *")
    _ack(backend, regs)
    # one hardware-padded job of 768 blocks (about 25,000 engine cycles)
    rc = hw.call(lib.ld_hw_start_dma, hw.dev, addr, len(msg), 0, 0,
                 lib.LD_CTRL_FIRST | lib.LD_CTRL_LAST | lib.LD_CTRL_PAD, st)
    assert rc == lib.LD_OK
    # a second job on slot 0 while it runs
    rc = hw.call(lib.ld_hw_start_dma, hw.dev, addr, 64, 0, 0, lib.LD_CTRL_FIRST, st)
    assert rc == lib.LD_ERR_HW and st[0] & lib.LD_STATUS_ERR_STATE, hex(st[0])
    assert backend.sim.bus.read(regs["slots_busy"]) & 1, "the refused job ended the running one"
    status = _wait_done(backend, regs)
    assert not status & ERRORS
    assert _digest(backend) == hashlib.sha256(msg).digest()
    _ack(backend, regs)
    assert hw.md("sha256", b"after", native.PATH_DMA) == hashlib.sha256(b"after").digest()


def test_stalled_job_times_out_and_ends_right_when_released(backend):
    sim, lib = backend.sim, native.lib
    regs = native.instance_registers(sim.csrs.registers, "sha256")
    ram = sim.constants
    impatient = native.HwDevice(regs, read32=lambda a: sim.bus.read(a),
                                write32=lambda a, v: sim.bus.write(a, [v]), family="sha256",
                                ram_base=ram["main_ram_base"], ram_size=ram["main_ram_size"],
                                timeout_polls=40)
    msg = os.urandom(4096)
    addr = _place(backend, msg)
    _ack(backend, regs)
    t = time.monotonic()
    # held: the reader fetches nothing, the engine gets no block
    rc = impatient.call(lib.ld_hw_job_dma, impatient.dev, addr, len(msg), 0, 0,
                        lib.LD_CTRL_FIRST | lib.LD_CTRL_LAST | lib.LD_CTRL_PAD | lib.LD_CTRL_HOLD,
                        native.ffi.NULL)
    assert rc == lib.LD_ERR_TIMEOUT
    assert time.monotonic() - t < 30
    assert sim.bus.read(regs["slots_busy"]) & 1       # still waiting, not lost
    sim.bus.write(regs["ctrl"], [0])                  # a write without hold releases it
    status = _wait_done(backend, regs)
    assert not status & ERRORS
    assert _digest(backend) == hashlib.sha256(msg).digest()
    _ack(backend, regs)
    assert backend.hw.md("sha256", msg, native.PATH_CSR) == hashlib.sha256(msg).digest()


KILLED = textwrap.dedent('''
    import os, signal, sys, time
    from litedigest.backends.soc import SoCBackend
    from litedigest import spec
    be = SoCBackend("sha256:opt")
    ctx = be.md_context(spec.parse("sha256"))
    ctx.update(memoryview(b"before" * 100))
    os.kill(be.sim.proc.pid, signal.SIGKILL)
    be.sim.proc.wait()
    for step in ("update", "digest", "new"):
        t = time.monotonic()
        try:
            if step == "update":
                ctx.update(memoryview(b"x" * 5000))
            elif step == "digest":
                ctx.digest()
            else:
                be.md_context(spec.parse("sha256")).update(b"y" * 100)
            print(step, "NO ERROR")
        except Exception as e:
            print(step, type(e).__name__, round(time.monotonic() - t, 1))
    be.close()
    print("END")
''')


def test_simulator_killed_under_a_hash_object():
    """Every call after the simulator died raises the bridge's error at once; the process
    goes on (it crashed in the garbage collector before)."""
    r = subprocess.run([sys.executable, "-X", "faulthandler", "-c", KILLED], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.split("\n")
    assert "END" in lines, r.stdout + r.stderr
    # (the context the failed update ended refuses digest as a failed context)
    for step, errors in (("update", {"BridgeError"}), ("digest", {"BridgeError", "StateError"}),
                         ("new", {"BridgeError"})):
        (line,) = [l for l in lines if l.startswith(step + " ")]
        name, secs = line.split()[1:]
        assert name in errors and float(secs) < 15, line
