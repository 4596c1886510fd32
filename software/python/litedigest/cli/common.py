# SPDX-License-Identifier: BSD-2-Clause
"""What every command shares: the program's name, its --version line, the long commands'
--quiet, and the arguments the command line is parsing."""

PROG = "litedigest"


def version_line(command=None):
    """What --version prints, in coreutils' first line's
    form: `litedigest sum (LiteDigest) 0.1.0`."""
    from litedigest import __version__

    return f"{PROG}{' ' + command if command else ''} (LiteDigest) {__version__}"


def add_version_and_files(parser, command):
    """The last arguments of a command that hashes files, as coreutils' have them: --version
    and the FILE operands."""
    parser.add_argument(
        "--version",
        action="version",
        version=version_line(command),
        help="print the version and exit",
    )
    parser.add_argument("files", nargs="*", metavar="FILE")


def add_quiet(parser):
    """--quiet, the option of the long commands (demo, bench, build, dse) that silences their
    progress on stderr (litedigest.progress; not their errors)."""
    parser.add_argument(
        "--quiet",
        dest="no_progress",
        action="store_true",
        help="print no progress on stderr (by default: a live status line on a terminal, "
        "else one line per step); errors are still printed",
    )


def progress_of(args):
    """The command's progress (litedigest.progress.Progress, the `log` it gives the layers
    below): the one main() made, else (a command's run() called alone) a new one."""
    p = getattr(args, "progress", None)
    if p is None:
        from litedigest.progress import Progress

        p = args.progress = Progress(
            f"{PROG} {getattr(args, 'command', '')}".strip(),
            quiet=getattr(args, "no_progress", False),
        )
    return p


_parsing = []


def parsing_argv():
    """The arguments main() is parsing (for a command's own usage errors: which spelling of an
    option the user gave)."""
    return list(_parsing)
