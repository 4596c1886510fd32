# SPDX-License-Identifier: BSD-2-Clause
"""Standard output for the commands that write results (`sum`, `hmac`): a failed write is
one exception the CLI answers as coreutils does."""

import sys


class WriteError(Exception):
    """Standard output could not be written (a full disk, an I/O error): the command stops
    with coreutils' `write error` and status 1 instead of a traceback."""


# output written while standard output was closed from the start (`>&-`): coreutils buffers
# it, goes on, and fails only when it closes standard output at exit (the CLI: stdout_lost)
_lost = False


def stdout_lost():
    """Whether output was written to a standard output closed from the start."""
    return _lost


def write_out(data, flush=False):
    """Write bytes to standard output (and flush); a failure other than a broken pipe (the
    CLI's status 141) is a WriteError."""
    global _lost
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        _lost = _lost or bool(data)
        return
    try:
        if data:
            sys.stdout.buffer.write(data)
        if flush:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise WriteError(e) from e
