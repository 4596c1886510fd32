#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Set up everything (system packages when root, .venv) and run the main demo: the simulated
# LiteX SoC (Verilator + VexRiscv + the SHA-256 peripheral) hashing in software, through CSRs
# and through DMA. The first run builds the SoC (a few minutes); later runs reuse build/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh" soc
exec "$ROOT/.venv/bin/litedigest" demo "$@"
