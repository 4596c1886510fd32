#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ULX3S (LFE5U-85F) recipe of the four-algorithm image: the command that generated
# bitstreams/ecp5/four_engines/manifest.json and the bitstream next to it. One engine of each
# family (sha256:opt, sha1:opt, sha512:base, skein512:r1), the demo firmware in main RAM,
# nextpnr seeds 1, 2, 3 (the default; the bitstream is the fastest seed's), its static placer
# (HeAP's placement of this SoC does not route). Synthesis and the
# seeds' place and route are cached under build/ecp5/; from scratch expect 2 to 3 hours on one
# core (router1 needs most of it: 26, 54 and 39 minutes for seeds 1, 2, 3).
set -e
cd "$(dirname "$0")/../../.."
exec .venv/bin/litedigest build ecp5 --hash-engine sha256:opt,sha1:opt,sha512:base,skein512:r1 --placer static --bitstreams-dir bitstreams/ecp5/four_engines "$@"
