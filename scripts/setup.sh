#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Idempotent setup: system packages (when root), a project venv in .venv, the litedigest
# package in editable mode with one of its extras (pyproject.toml, docs/PACKAGING.md):
#   scripts/setup.sh [soc|test]     soc: the simulated SoC (the demo); test (default): all
# Safe to run any number of times.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
EXTRA="${1:-test}"
case "$EXTRA" in soc|test) ;; *) echo "setup: unknown extra '$EXTRA' (soc or test)" >&2; exit 2;; esac

# the simulated SoC: Verilator and litex_sim's libraries, the firmware's cross compiler
APT_PKGS=(verilator gcc-riscv64-unknown-elf meson ninja-build libevent-dev libjson-c-dev
          zlib1g-dev build-essential python3-venv coreutils)
# the tests also build the C library with CMake, for arm-none-eabi and (fuzzers) with clang,
# use pkg-config, run the PYNQ-Z2 block-design TCL in tclsh, check the C style (clang-format)
# and build the documentation site (doxygen: the C reference, scripts/docs.sh)
if [ "$EXTRA" = test ]; then
  APT_PKGS+=(cmake pkg-config gcc-arm-none-eabi clang-14 libclang-rt-14-dev tcl clang-format
             doxygen)
fi
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # wait for another apt/dpkg (a second setup running at the same time) instead of failing
    apt_lock=(-o DPkg::Lock::Timeout=900)
    apt-get "${apt_lock[@]}" update -qq
    apt-get "${apt_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: missing system packages (run as root to install): ${missing[*]}" >&2
    exit 1
  fi
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# reinstall when the dependencies or the C library behind the cffi extension change
stamp=.venv/.litedigest-deps-$EXTRA
want="$(cat pyproject.toml setup.py software/firmware/lib/VERSION software/python/litedigest/_clib/build.py \
          software/firmware/lib/src/*.[ch] software/firmware/lib/include/litedigest/*.h | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/pip install -q --upgrade pip setuptools wheel
  .venv/bin/pip install -q -e ".[$EXTRA]"
  echo "$want" > "$stamp"
fi
# the test suite also runs the PYNQ driver on the real pynq package (tests/board/test_pynq_real.py,
# litedigest.board.pynq_sim). Not in the [test] extra: pynq 4.0.0 declares numpy<2, setuptools
# <=80 (pynqutils) and pycparser<3, and pip would downgrade the environment's to satisfy them.
# Installed without its dependencies instead, plus the two its import needs that the extra
# does not bring (pydantic, tqdm); no compiling (pure Python on x86). Checked on every run,
# so an existing venv gets it too.
if [ "$EXTRA" = test ] && ! .venv/bin/python - <<'EOF' 2>/dev/null
import importlib.metadata as m, sys
want = {"pynq": "4.0.0", "pynqutils": "0.1.3", "pynqmetadata": "0.2.0"}
sys.exit(any(m.version(p) != v for p, v in want.items()) or not all(
    m.version(p) for p in ("pydantic", "tqdm")))
EOF
then
  echo "setup: installing pynq 4.0.0 (without its numpy<2/setuptools<=80 pins)"
  .venv/bin/pip install -q --no-deps pynq==4.0.0 pynqutils==0.1.3 pynqmetadata==0.2.0
  .venv/bin/pip install -q "pydantic>=2" tqdm
fi
echo "setup: ok ($(.venv/bin/python --version))"
