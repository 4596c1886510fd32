# SPDX-License-Identifier: BSD-2-Clause
"""A minimal LiteX UARTBone client over TCP: the host's bus into the simulated SoC.

``UARTBoneClient(host, port)`` speaks the ``Stream2Wishbone`` protocol to the patched
``serial2tcp_nodelay`` sim module (soc/sim_modules); ``free_tcp_port()`` picks a port for a run.
"""

import contextlib
import socket
import time

from litedigest.signals import deferred


class BridgeError(ConnectionError):
    """The UARTBone bridge failed (connection refused/closed, protocol error)."""


class BridgeTimeout(BridgeError, TimeoutError):
    """The UARTBone bridge did not answer in time (sim dead, hung or absent)."""


CMD_WRITE_BURST_INCR = 0x01
CMD_READ_BURST_INCR = 0x02
CMD_WRITE_BURST_FIXED = 0x03
CMD_READ_BURST_FIXED = 0x04
MAX_BURST = 255  # words per UARTBone command (8-bit length)
READ_WINDOW = 8  # read bursts in flight (keeps replies well under the socket buffers)
# seconds: a wait on the simulation looks this often whether it is still there
WAIT_SLICE = 0.5


def wait_slice(deadline, timed_out):
    """How long the next wait before `deadline` (a time.monotonic() time) may take: the time
    left, at most WAIT_SLICE; raises timed_out() (an exception) once the deadline has passed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise timed_out()
    return min(remaining, WAIT_SLICE)


class UARTBoneClient:
    """Minimal LiteX UARTBone (``Stream2Wishbone``) client over TCP with TCP_NODELAY.

    Protocol: ``cmd, length, addr[31:0]/4`` big-endian, then ``length`` big-endian 32-bit words
    for writes; reads answer ``length`` big-endian words. Addresses here are byte addresses.

    - ``read(addr)`` -> int; ``read(addr, n)`` -> list of n words
    - ``write(addr, value_or_list)``
    - ``write_bytes(addr, data)`` / ``read_bytes(addr, n)``: bulk, pipelined burst commands;
      memory is little-endian (byte 0 of a word is its LSB), addr and length multiples of 4
      are fastest (other cases are completed with read-modify-write of the edge words).
    Every wait has ``timeout`` seconds; failures raise BridgeTimeout / BridgeError.
    """

    def __init__(self, host="127.0.0.1", port=None, timeout=10.0, connect_timeout=10.0, alive=None):
        self.host, self.port, self.timeout = host, port, timeout
        self._alive = alive  # optional callable: False when the sim process is gone
        self.sock = None
        self.stats = {"reads": 0, "writes": 0, "bytes_out": 0, "bytes_in": 0}
        if port is not None:
            self.connect(connect_timeout)

    # Connection
    def connect(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        last = None
        while True:
            if self._alive is not None and not self._alive():
                raise BridgeError(
                    f"simulation exited before the bridge on port {self.port} answered"
                )
            try:
                s = socket.create_connection((self.host, self.port), timeout=min(1.0, timeout))
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(self.timeout)
                self.sock = s
                return self
            except OSError as e:
                last = e
            if time.monotonic() > deadline:
                raise BridgeTimeout(
                    f"cannot connect to the UARTBone bridge at {self.host}:{self.port} "
                    f"within {timeout} s: {last}"
                )
            time.sleep(0.05)

    def close(self):
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()
            self.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Raw I/O
    def _send(self, data):
        if self.sock is None:
            raise BridgeError("bridge is not connected")
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise BridgeTimeout(
                f"bridge send timed out after {self.timeout} s (sim not consuming)"
            ) from None
        except OSError as e:
            raise BridgeError(f"bridge send failed: {e}") from None
        self.stats["bytes_out"] += len(data)

    def _recv_exact(self, n):
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        deadline = time.monotonic() + self.timeout
        while got < n:
            self.sock.settimeout(
                wait_slice(
                    deadline,
                    lambda: BridgeTimeout(
                        f"bridge read timed out after {self.timeout} s "
                        f"({got}/{n} bytes received): is the simulation running?"  # noqa: B023  (called at once)
                    ),
                )
            )
            try:
                k = self.sock.recv_into(view[got:], n - got)
            except TimeoutError:
                if self._alive is not None and not self._alive():
                    raise BridgeError(
                        "simulation exited while waiting for a bridge reply"
                    ) from None
                continue
            except OSError as e:
                raise BridgeError(f"bridge receive failed: {e}") from None
            if k == 0:
                raise BridgeError("bridge connection closed by the simulation")
            got += k
        self.sock.settimeout(self.timeout)
        self.stats["bytes_in"] += n
        return bytes(buf)

    @staticmethod
    def _header(cmd, addr, n):
        if addr % 4:
            raise ValueError(f"UARTBone addresses are word aligned: 0x{addr:x}")
        if not 1 <= n <= MAX_BURST:
            raise ValueError(f"burst of {n} words")
        return bytes([cmd, n]) + ((addr >> 2) & 0xFFFFFFFF).to_bytes(4, "big")

    # Word access
    def read(self, addr, n=None):
        """One word (``n`` None) as an int, or ``n`` consecutive words as a list."""
        with deferred():  # a transaction is never cut in two by a signal
            return self._read_now(addr, n)

    def _read_now(self, addr, n=None):
        count = 1 if n is None else n
        words = self._read_words(addr, count)
        self.stats["reads"] += 1
        return words[0] if n is None else words

    def write(self, addr, data):
        """Write one word (int) or consecutive words (list) at ``addr``."""
        with deferred():  # a transaction is never cut in two by a signal
            return self._write_now(addr, data)

    def _write_now(self, addr, data):
        if isinstance(data, int):
            data = [data]
        out = bytearray()
        for i in range(0, len(data), MAX_BURST):
            chunk = data[i : i + MAX_BURST]
            out += self._header(CMD_WRITE_BURST_INCR, addr + 4 * i, len(chunk))
            for w in chunk:
                out += (w & 0xFFFFFFFF).to_bytes(4, "big")
        self._send(bytes(out))
        self.stats["writes"] += 1

    def _read_words(self, addr, count):
        raw = self._read_raw(addr, count)
        return [int.from_bytes(raw[i : i + 4], "big") for i in range(0, len(raw), 4)]

    def _read_raw(self, addr, count):
        """``count`` words as the big-endian byte stream the bridge sends."""
        bursts = [(addr + 4 * i, min(MAX_BURST, count - i)) for i in range(0, count, MAX_BURST)]
        out = []
        pending = []
        i = 0
        while i < len(bursts) or pending:
            while i < len(bursts) and len(pending) < READ_WINDOW:
                a, k = bursts[i]
                self._send(self._header(CMD_READ_BURST_INCR, a, k))
                pending.append(k)
                i += 1
            k = pending.pop(0)
            out.append(self._recv_exact(4 * k))
        return b"".join(out)

    # Byte access (little-endian memory)
    def write_bytes(self, addr, data):
        with deferred():  # a transaction is never cut in two by a signal
            return self._write_bytes_now(addr, data)

    def _write_bytes_now(self, addr, data):
        data = bytes(data)
        if not data:
            return
        head = addr % 4
        end = addr + len(data)
        if head or end % 4:
            start, end4 = addr - head, (end + 3) & ~3
            buf = bytearray(end4 - start)
            if head:
                buf[0:4] = self.read_bytes(start, 4)
            if end % 4:
                buf[-4:] = self.read_bytes(end4 - 4, 4)
            buf[head : head + len(data)] = data
            addr, data = start, bytes(buf)
        n = len(data) // 4
        # Little-endian memory, big-endian wire words: byte-swap each 32-bit word.
        swapped = bytearray(len(data))
        swapped[0::4], swapped[1::4], swapped[2::4], swapped[3::4] = (
            data[3::4],
            data[2::4],
            data[1::4],
            data[0::4],
        )
        out = bytearray()
        for i in range(0, n, MAX_BURST):
            k = min(MAX_BURST, n - i)
            out += self._header(CMD_WRITE_BURST_INCR, addr + 4 * i, k)
            out += swapped[4 * i : 4 * (i + k)]
        self._send(bytes(out))
        self.stats["writes"] += 1

    def read_bytes(self, addr, n):
        with deferred():  # a transaction is never cut in two by a signal
            return self._read_bytes_now(addr, n)

    def _read_bytes_now(self, addr, n):
        if n <= 0:
            return b""
        start = addr & ~3
        end4 = (addr + n + 3) & ~3
        raw = self._read_raw(start, (end4 - start) // 4)
        data = bytearray(len(raw))
        data[0::4], data[1::4], data[2::4], data[3::4] = raw[3::4], raw[2::4], raw[1::4], raw[0::4]
        self.stats["reads"] += 1
        off = addr - start
        return bytes(data[off : off + n])


# Ports --------------------------------------------------------------------------------------------


def free_tcp_port():
    """A currently free TCP port on 127.0.0.1 (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
