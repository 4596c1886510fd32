"""The `litedigest` command. Subcommands are modules `litedigest.cmd_<name>` listed in COMMANDS,
each providing `add_parser(subparsers)` that registers its parser and sets `func(args) -> int`."""
import argparse
import importlib
import signal
import sys

from .extras import MissingExtra

COMMANDS = ["sum", "hmac", "demo", "bench", "build", "dse"]

PROG = "litedigest"


def build_parser():
    parser = argparse.ArgumentParser(
        prog=PROG, description="LiteDigest: hash engines on FPGA SoCs (software, RTL, SoC backends).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        mod = importlib.import_module(f"{__package__}.cmd_{name}")
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


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _terminate)
    try:
        rc = args.func(args)
    except Terminated as t:
        return 128 + t.signum
    except MissingExtra as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
