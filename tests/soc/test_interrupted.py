# SPDX-License-Identifier: BSD-2-Clause
"""Work interrupted by a signal on the `soc` backend: Ctrl-C (or SIGTERM) that arrives while the
C driver is inside a register access over the bridge raises KeyboardInterrupt once the driver's
call has returned (litedigest.signals), never a HardwareError; the interrupted hash object
refuses further use, the peripheral is left idle, and the next hash on it is right. Also
hash_many with messages larger than the staging area (streamed) among batched ones."""

import hashlib
import os
import signal

import litedigest
import pytest
from litedigest import _clib as native
from litedigest.backends import get_backend

ENGINE = "sha256:opt"


@pytest.fixture(scope="module")
def backend():
    return get_backend("soc", litedigest.spec.parse(ENGINE).engine_name)


def _signal_on_read(bus, n, sig=signal.SIGINT):
    """Make the bridge's `n`th register read send `sig` to this process (inside the C driver's
    call: the read is one of its HAL callbacks); returns a function that undoes it."""
    real = bus.read
    count = [0]

    def read(addr, k=None):
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), sig)
        return real(addr, k)

    bus.read = read
    return lambda: setattr(bus, "read", real)


@pytest.mark.parametrize("path", ["dma", "csr"])
def test_ctrl_c_inside_a_register_access(backend, path, monkeypatch):
    monkeypatch.setattr(backend, "path", path)
    data = os.urandom(3 * native.INTERRUPT_CHUNK + 100)
    h = litedigest.new("sha256", backend="soc", engine=ENGINE)
    h.update(b"a prefix")
    undo = _signal_on_read(backend.sim.bus, 40)
    try:
        with pytest.raises(KeyboardInterrupt):
            h.update(data)
    finally:
        undo()
    # the object no longer knows what it hashed: it says so instead of a wrong digest
    with pytest.raises(native.Interrupted, match="interrupted"):
        h.digest()
    with pytest.raises(native.Interrupted):
        h.update(b"more")
    # the peripheral is idle and right
    assert litedigest.new("sha256", data, backend="soc", engine=ENGINE).digest() == (
        hashlib.sha256(data).digest()
    )


def test_sigterm_handler_inside_a_driver_call_runs_after_it(backend):
    """A Python SIGTERM handler (the command line's raises its Terminated) runs once the
    driver's call has returned, never inside a HAL callback."""

    class Stop(BaseException):
        pass

    def handler(signum, frame):
        raise Stop(signum)

    old = signal.signal(signal.SIGTERM, handler)
    undo = _signal_on_read(backend.sim.bus, 5, signal.SIGTERM)
    try:
        h = litedigest.new("sha256", backend="soc", engine=ENGINE)
        with pytest.raises(Stop):
            h.update(os.urandom(2 * native.INTERRUPT_CHUNK))
    finally:
        undo()
        signal.signal(signal.SIGTERM, old)
    m = b"after the signal"
    assert litedigest.new("sha256", m, backend="soc", engine=ENGINE).digest() == (
        hashlib.sha256(m).digest()
    )


def test_ctrl_c_in_hash_many_leaves_the_walker_idle(backend):
    msgs = [os.urandom(n) for n in (64, 1000, 5000) * 20]
    undo = _signal_on_read(backend.sim.bus, 3)
    try:
        with pytest.raises(KeyboardInterrupt):
            litedigest.hash_many("sha256", msgs, backend="soc", engine=ENGINE)
    finally:
        undo()
    got = litedigest.hash_many("sha256", msgs, backend="soc", engine=ENGINE)
    assert got == [hashlib.sha256(m).digest() for m in msgs]


def test_hash_many_takes_messages_larger_than_the_staging_area(backend):
    stage = int(backend.hw.dev.stage_size)
    msgs = [os.urandom(stage + 1000), b"", os.urandom(64), os.urandom(2 * stage + 3), b"abc"]
    assert not backend.hw.batch_fits("sha256", len(msgs[0]))
    got = litedigest.hash_many("sha256", msgs, backend="soc", engine=ENGINE)
    assert got == [hashlib.sha256(m).digest() for m in msgs]


def test_interrupting_a_jupyter_kernel_mid_hash():
    """The notebook user's stop button: the kernel gets SIGINT while a long update runs on the
    `soc` backend; the cell ends with KeyboardInterrupt, the kernel stays, and the next cell
    hashes right on the same simulated SoC."""
    jupyter_client = pytest.importorskip("jupyter_client")
    pytest.importorskip("ipykernel")
    import time

    # ipykernel's own kernelspec: this interpreter (the venv's)
    km = jupyter_client.KernelManager(kernel_name="python3")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)

        def run(code, timeout=900):
            """Execute `code`; (status, ename or None, stdout)."""
            msg_id = kc.execute(code)
            out, ename = [], None
            deadline = time.monotonic() + timeout
            while True:
                msg = kc.get_iopub_msg(timeout=max(1, deadline - time.monotonic()))
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream":
                    out.append(content["text"])
                elif kind == "error":
                    ename = content["ename"]
                elif kind == "status" and content["execution_state"] == "idle":
                    return ename, "".join(out)

        ename, _ = run(
            f"import hashlib, os, litedigest\n"
            f"h = litedigest.new('sha256', backend='soc', engine={ENGINE!r})\n"
            f"h.update(b'x')\nprint('ready')"
        )
        assert ename is None
        msg_id = kc.execute("data = bytes(32 << 20)\nh.update(data)\nprint('not interrupted')")
        time.sleep(5.0)  # inside the update
        km.interrupt_kernel()
        ename, text = None, []
        while True:
            msg = kc.get_iopub_msg(timeout=120)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "error":
                ename = msg["content"]["ename"]
            elif msg["msg_type"] == "stream":
                text.append(msg["content"]["text"])
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        assert ename == "KeyboardInterrupt", (ename, text)
        ename, out = run(
            "m = os.urandom(100000)\n"
            f"print(litedigest.new('sha256', m, backend='soc', engine={ENGINE!r}).digest()"
            " == hashlib.sha256(m).digest())\n"
            "try:\n    h.digest()\nexcept ValueError as e:\n    print('refused:', e)"
        )
        assert ename is None
        assert out.startswith("True\nrefused: an update() of this hash object was interrupted"), out
        ename, out = run("print(h._backend.sim.proc.pid)")
        sim_pid = int(out)
    finally:
        kc.stop_channels()
        # at once: the kernel is killed and its simulator with it (SimProcess: the simulator
        # dies with the thread that started it)
        km.shutdown_kernel(now=True)
    time.sleep(1.0)
    assert not os.path.exists(f"/proc/{sim_pid}") or _zombie(sim_pid), (
        "the simulator outlived its kernel"
    )


def _zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True
