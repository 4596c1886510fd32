# SPDX-License-Identifier: BSD-2-Clause
"""Work that a signal must not cut in two: a bridge transaction (a request sent, its reply
not yet read, would leave the next reply out of step) and a C driver call (the driver's
register reads run Python callbacks, where an exception cannot cross the C frames).

``with deferred(): ...`` holds SIGINT, SIGTERM and SIGHUP back while the block runs, then acts
on the first that arrived as the process would have at that moment (Ctrl-C raises
KeyboardInterrupt, the command line's SIGTERM handler raises its Terminated, ...): the
interruption happens between two transactions or two driver calls, never inside one.
Callers keep each deferred block short (a bridge transaction, a driver call on a bounded
chunk of a message), so a signal is still acted on promptly.

Only the main thread receives signals in Python; elsewhere ``deferred()`` does nothing. A
signal whose disposition is not a Python handler (SIG_DFL, SIG_IGN) is left alone.
Standard library only (the bottom layer).
"""

import contextlib
import signal
import threading

NAMES = ("SIGINT", "SIGTERM", "SIGHUP")
_depth = 0  # deferred blocks open in the main thread (the outermost one holds the signals)


@contextlib.contextmanager
def deferred():
    """Hold back SIGINT, SIGTERM and SIGHUP while the block runs (see the module's docstring)."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth:  # an outer block holds the signals already
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    caught = []
    saved = {}
    for name in NAMES:
        num = getattr(signal, name, None)
        if num is None:
            continue
        old = signal.getsignal(num)
        if callable(old):
            saved[num] = old
            signal.signal(num, lambda s, f: caught.append((s, f)))
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        for num, old in saved.items():
            signal.signal(num, old)
        if caught:
            num, frame = caught[0]
            saved[num](num, frame)
