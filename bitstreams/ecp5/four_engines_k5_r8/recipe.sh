#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ULX3S (LFE5U-85F) recipe of the main SoC's four engines (sha256:opt, sha1:opt at sys;
# sha512:k5 in eng25, skein512:r8 in eng20), demo firmware, nextpnr seed 2, the static placer at
# target density 0.55 on the patched native nextpnr (scripts/native_nextpnr.sh
# --static-target-util). Routed sys 51.34, eng25 27.32, eng20 23.62 MHz: every clock at its
# target. About 75 minutes (nextpnr 4,278 s on a machine with another nextpnr run beside it).
set -e
cd "$(dirname "$0")/../../.."
exec env LITEDIGEST_NEXTPNR_ECP5="${LITEDIGEST_NEXTPNR_ECP5:-$PWD/build/nextpnr-static-target-util/nextpnr-ecp5}" \
  .venv/bin/litedigest build ecp5 --hash-engine sha256:opt,sha1:opt,sha512:k5,skein512:r8 --seeds 2 --engine-clock sha512:k5=25,skein512:r8=20 --placer static@0.55 --bitstreams-dir bitstreams/ecp5/four_engines_k5_r8 "$@"
