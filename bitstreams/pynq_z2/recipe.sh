#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# PYNQ-Z2 overlay recipe: the command that generated bitstreams/pynq_z2/manifest.json.
# Without Vivado on PATH it writes the subsystem Verilog, csr.json/csr.h and the Vivado TCL,
# lints the Verilog (Verilator) and synthesizes it with Yosys synth_xilinx for the xc7z020
# (many minutes for the default engine set; add --no-synth to skip). With Vivado on PATH it
# also builds litedigest.bit + litedigest.hwh into the build directory.
set -e
cd "$(dirname "$0")/../.."
exec nice -n 10 .venv/bin/litedigest build pynq_z2 --manifest bitstreams/pynq_z2/manifest.json "$@"
