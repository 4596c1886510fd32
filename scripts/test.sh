#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Set up everything (system packages when root, .venv) and run the test suite (docs/TESTING.md):
#   scripts/test.sh            everything but the board builds: what CI runs
#   scripts/test.sh --quick    the quick tier, before each commit: the API, the command line, the
#                              C library on the host, the generated files, style and layering
#   scripts/test.sh -m slow    the board builds
# Builds are cached under build/ (git-ignored), so reruns are fast. Other arguments go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
# the quick tier: the tests that need none of the expensive kinds' markers (pyproject.toml)
QUICK="not (slow or rtl or migen or soc or formal or flows or build)"
if [ "${1:-}" = --quick ]; then
  shift
  exec .venv/bin/python -m pytest -q -n 2 -m "$QUICK" "$@"
fi
# two workers, one test file each at a time: the SoC and engine builds of different files
# proceed in parallel, module fixtures (a running SoC) are not duplicated
exec .venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
