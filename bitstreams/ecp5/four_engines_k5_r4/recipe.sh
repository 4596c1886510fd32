#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ULX3S (LFE5U-85F) recipe of the image with the simulated main SoC's fast engines but a smaller
# Skein: the command that generated bitstreams/ecp5/four_engines_k5_r4/manifest.json and the
# bitstream next to it. sha256:opt and sha1:opt at the 50 MHz sys clock; sha512:k5 and
# skein512:r4 (not the main SoC's skein512:r8, whose region does not route on this flow) in a
# 25 MHz domain of their own (eng25); the demo firmware in main RAM; nextpnr seed 1, static
# placer. From scratch about 2 hours on one core (Yosys 197 s, nextpnr 6,934 s, router1 6,231 s
# of it); the synthesis and the seed are cached under build/ecp5/.
set -e
cd "$(dirname "$0")/../../.."
exec .venv/bin/litedigest build ecp5 --hash-engine sha256:opt,sha1:opt,sha512:k5,skein512:r4 --seeds 1 --engine-clock sha512:k5=25,skein512:r4=25 --placer static --bitstreams-dir bitstreams/ecp5/four_engines_k5_r4 "$@"
