# SPDX-License-Identifier: BSD-2-Clause
"""`python -m litedigest.cli`: the `litedigest` command."""

import sys

from litedigest.cli.command import main

sys.exit(main())
