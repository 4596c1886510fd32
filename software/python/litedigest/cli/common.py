# SPDX-License-Identifier: BSD-2-Clause
"""What every command shares: the program's name, its --version line, and the arguments the
command line is parsing."""

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


_parsing = []


def parsing_argv():
    """The arguments main() is parsing (for a command's own usage errors: which spelling of an
    option the user gave)."""
    return list(_parsing)
