#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Set up everything (system packages when root, .venv) and run the whole test suite: C library,
# Python API and CLI, gateware (full NIST CAVP in Verilator), the simulated SoC. Builds are
# cached under build/ (git-ignored), so reruns are fast. Extra arguments go to pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
cd "$ROOT"
# two workers, one test file each at a time: the SoC and engine builds of different files
# proceed in parallel, module fixtures (a running SoC) are not duplicated
exec .venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
