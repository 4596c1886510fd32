#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Arty A7-100T (MicroBlaze V) recipe: the command that generated bitstreams/arty_a7/manifest.json.
# Without Vivado on PATH it writes the subsystem Verilog, csr.json/csr.h, the Vivado block-design
# TCL (checked in tclsh with Vivado's commands stubbed) and the xsdb run script, cross-builds the
# demo firmware for the MicroBlaze V (rv32im, the board's memory map), lints the Verilog
# (Verilator), synthesizes it with Yosys synth_xilinx for the xc7a100t (many minutes for the
# default engine set; add --no-synth to skip) and runs the same demo firmware on the simulated
# SoC with these engines (--sim-demo: the stand-in for the board). With Vivado on PATH it also
# builds litedigest.bit + litedigest.xsa into the build directory.
set -e
cd "$(dirname "$0")/../.."
exec nice -n 10 .venv/bin/litedigest build arty_a7 --sim-demo --manifest bitstreams/arty_a7/manifest.json "$@"
