"""Standard output for the commands that write results (`sum`, `hmac`): a failed write is
one exception the CLI answers as coreutils does. Its own module, not cli.py: run as
`python -m litedigest.cli`, that file is `__main__`, and a class defined there would be
another class than the one the commands import."""
import sys


class WriteError(Exception):
    """Standard output could not be written (a full disk, an I/O error): the command stops
    with coreutils' `write error` and status 1 instead of a traceback."""


def write_out(data, flush=False):
    """Write bytes to standard output (and flush); a failure other than a broken pipe (the
    CLI's status 141) is a WriteError."""
    try:
        if data:
            sys.stdout.buffer.write(data)
        if flush:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise WriteError(e) from e
