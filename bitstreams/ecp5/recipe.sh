#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ULX3S (LFE5U-85F) recipe: the command that generated bitstreams/ecp5/manifest.json and the
# bitstream next to it. LiteX writes the SoC (default engines, 128-bit DMA rows), the demo
# firmware goes into the main RAM's initial contents, then Yosys synth_ecp5, nextpnr-ecp5
# (one seed) and ecppack, all from the venv's yowasp tools. Synthesis
# and each seed's place and route are cached under build/ecp5/, so a rerun with nothing
# changed takes seconds; from scratch expect the better part of an hour or more on one core.
set -e
cd "$(dirname "$0")/../.."
exec .venv/bin/litedigest build ecp5 --seeds 1 "$@"
