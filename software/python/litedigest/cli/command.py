# SPDX-License-Identifier: BSD-2-Clause
"""The `litedigest` command: its parser and its exit statuses. Subcommands are the modules of
this package named in COMMANDS, each providing `add_parser(subparsers)` that registers its
parser and sets `func(args) -> int`."""

import argparse
import importlib
import os
import signal
import sys

from litedigest.cli.common import PROG, _parsing, version_line
from litedigest.cli.output import WriteError, stdout_lost
from litedigest.extras import MissingExtra
from litedigest.progress import Progress

COMMANDS = ["sum", "hmac", "demo", "bench", "build", "dse"]


def build_parser():
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="LiteDigest: hash engines on FPGA SoCs (software, RTL, SoC backends).",
    )
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        mod = importlib.import_module(f"{__package__}.{name}")
        mod.add_parser(sub)
    return parser


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: raised in the main thread so that every `with` block on the
    way out runs (a simulated SoC's process group is killed, its run directory removed) instead
    of the interpreter dying with the simulator left running at full CPU."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _terminate(signum, frame):
    raise Terminated(signum)


def _drop_stdout():
    """Point standard output at /dev/null, so that the interpreter's last flush of what is
    still buffered neither fails again nor prints a second error."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError):
        pass


def main(argv=None):
    parser = build_parser()
    _parsing[:] = sys.argv[1:] if argv is None else list(argv)
    args, extras = parser.parse_known_args(argv)
    if extras:
        # a command may answer an unknown option its own way (`sum`: as coreutils does)
        unrecognized = getattr(args, "unrecognized", None)
        if unrecognized is None:
            parser.error("unrecognized arguments: " + " ".join(extras))
        return unrecognized(extras)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _terminate)
    # the long commands (demo, bench, build, dse: a --quiet option) report their progress on
    # stderr through args.progress, the `log` they give the layers below
    long_command = hasattr(args, "no_progress")
    args.progress = Progress(f"{PROG} {args.command}", quiet=getattr(args, "no_progress", False))
    try:
        rc = args.func(args)
    except Terminated as t:
        return 128 + t.signum
    except MissingExtra as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C: one line saying what the build cache keeps, no traceback
        args.progress.close()
        if long_command:
            print(args.progress.interrupted(), file=sys.stderr, flush=True)
        return 130
    except BrokenPipeError:
        return 141
    except WriteError:
        _drop_stdout()
        print(f"{PROG}: write error", file=sys.stderr)
        return 1
    finally:
        args.progress.close()
    if stdout_lost():
        print(f"{PROG}: write error: Bad file descriptor", file=sys.stderr)
        return 1
    return int(rc or 0)
