# SPDX-License-Identifier: BSD-2-Clause
"""The command line: `litedigest sum|hmac|demo|bench|build|dse`, a module a command
(``command``: the parser, the dispatch and the exit statuses; ``common``: the name, --version,
the arguments being parsed; ``output``: standard output as coreutils treats it)."""

from litedigest.cli.command import main

__all__ = ["main"]
