# SPDX-License-Identifier: BSD-2-Clause
"""Several processes on one peripheral: a lock per device, released when its holder dies.

The C driver runs one call at a time per process (native._invoke's lock), and each hash
object keeps its chaining value between calls (LD_HW_SHARED), so what several users must not
share is the time inside a driver call: a job programmed and waited for, a staging area
written and hashed, a key loaded and used. ``DeviceLock`` makes that time exclusive across
processes (two notebook kernels on one PYNQ overlay, several programs on one simulated SoC)::

    lock = DeviceLock.for_path("/tmp/litedigest-locks/sha256-40000000.lock", recover=settle)
    with lock:            # reentrant in a process; threads of the process wait their turn
        ...

It is an ``flock`` on a lock file: the kernel releases it when the holding process dies, so a
killed process never wedges the others. The holder writes its pid into the file and clears it
when it lets go; the next holder that finds a pid there knows the previous one died inside a
driver call, with a job perhaps still running or a done bit left set, and calls ``recover``
first (``settle``: let the dead process's jobs end, acknowledge everything) before its own
work. The file is never removed (removing a lock file races with its next opener).
"""

import errno
import fcntl
import os
import tempfile
import threading
import time

LOCK_DIR = os.path.join(tempfile.gettempdir(), "litedigest-locks")


class DeviceBusy(TimeoutError):
    """Another process held the device for longer than the wait allowed."""


class DeviceLock:
    _registry = {}
    _registry_lock = threading.Lock()

    def __init__(self, path, recover=None, timeout=60.0):
        self.path = path
        self.recover = recover
        self.timeout = timeout
        self._rlock = threading.RLock()
        self._depth = 0
        self._fd = None
        self._pid = None
        self.recoveries = 0  # dead holders found (and recovered from) by this process

    @classmethod
    def for_path(cls, path, recover=None, timeout=60.0):
        """The process's one lock object for `path` (flock is per open file: two objects on one
        path in one process would block each other). The first caller's `recover` is kept."""
        path = os.path.abspath(path)
        with cls._registry_lock:
            lock = cls._registry.get(path)
            if lock is None:
                lock = cls._registry[path] = cls(path, recover, timeout)
            elif lock.recover is None:
                lock.recover = recover
            return lock

    @staticmethod
    def path_for(*parts):
        """A lock file under LOCK_DIR named after `parts` (device kind, address, instance)."""
        os.makedirs(LOCK_DIR, mode=0o777, exist_ok=True)
        name = "-".join(str(p) for p in parts).replace(os.sep, "_")
        return os.path.join(LOCK_DIR, name + ".lock")

    def _open(self):
        if self._fd is None or self._pid != os.getpid():  # a forked child opens its own
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            self._pid = os.getpid()
        return self._fd

    def _flock(self, timeout):
        """Take the flock, waiting at most `timeout` s: blocked in the kernel (which wakes the
        waiters when the holder lets go, so a holder calling in a tight loop cannot starve
        them as polling waiters would be), in a thread on a file of its own, so the wait can
        be given up: a lock it gets after that is let go at once."""
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
        state = {}
        guard = threading.Lock()

        def wait():
            try:
                mine = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
                fcntl.flock(mine, fcntl.LOCK_EX)
            except OSError as e:
                state["error"] = e
                return
            with guard:
                if not state.get("abandoned"):
                    state["fd"] = mine
                    return
            fcntl.flock(mine, fcntl.LOCK_UN)
            os.close(mine)

        waiter = threading.Thread(target=wait, name="litedigest-devlock", daemon=True)
        waiter.start()
        waiter.join(timeout)
        with guard:
            if "fd" in state:
                os.close(self._fd)  # unlocked; the waiter's file holds the lock now
                self._fd = state["fd"]
                return
            state["abandoned"] = True
        if "error" in state:
            raise state["error"]
        raise DeviceBusy(
            f"the device locked by {self.path} was held by another process "
            f"(pid {self.holder() or '?'}) for more than {timeout} s"
        )

    def holder(self):
        """The pid written in the lock file (the holder, or a holder that died), else None."""
        try:
            with open(self.path) as f:
                text = f.read().strip()
            return int(text) if text else None
        except (OSError, ValueError):
            return None

    def acquire(self, timeout=None):
        self._rlock.acquire()
        try:
            if self._depth == 0:
                self._flock(self.timeout if timeout is None else timeout)
                fd = self._fd
                try:
                    left = os.pread(fd, 32, 0).strip()
                    if left and self.recover is not None:
                        self.recoveries += 1
                        self.recover()  # the previous holder died inside a call
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, str(os.getpid()).encode(), 0)
                except BaseException:
                    fcntl.flock(fd, fcntl.LOCK_UN)  # the file keeps the dead pid: next try recovers
                    raise
            self._depth += 1
        except BaseException:
            self._rlock.release()
            raise
        return self

    def release(self):
        self._depth -= 1
        try:
            if self._depth == 0:
                os.ftruncate(self._fd, 0)
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._rlock.release()
        if self._depth == 0:
            os.sched_yield()  # a waiter the kernel just woke gets the lock before our next call

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

    @classmethod
    def _after_fork(cls):
        # the child must not use the parent's open file (it would share the parent's flock)
        cls._registry_lock = threading.Lock()
        for lock in cls._registry.values():
            lock._rlock = threading.RLock()
            lock._depth = 0
            lock._fd = None


os.register_at_fork(after_in_child=DeviceLock._after_fork)


def settle(read32, write32, peripherals, timeout=30.0):
    """After a holder died: release jobs it held (a ctrl write without `hold`), wait until
    no slot and no batch of `peripherals` (register dicts, native.instance_registers) is busy,
    then acknowledge every slot and the status. Raises DeviceBusy when a job still runs after
    `timeout` seconds (its slot stays busy; the other slots are usable)."""
    from litedigest.hw_regs import FIELDS

    field = lambda reg, name: 1 << FIELDS[reg][name][0]
    ack = field("ctrl", "ack")
    deadline = time.monotonic() + timeout
    for regs in peripherals:
        off, size = FIELDS["info"]["slots"]
        slots = (read32(regs["info"]) >> off) & ((1 << size) - 1)
        words = max(1, (slots + 31) // 32)
        write32(regs["ctrl"], ack)
        while any(read32(regs["slots_busy"] + 4 * k) for k in range(words)) or (
            "batch_status" in regs and read32(regs["batch_status"]) & field("batch_status", "busy")
        ):
            if time.monotonic() > deadline:
                raise DeviceBusy(f"a job of a process that died still runs after {timeout} s")
            time.sleep(0.001)
        for k in range(words):
            write32(regs["slots_ack"] + 4 * k, 0xFFFFFFFF)
        write32(regs["ctrl"], ack)
