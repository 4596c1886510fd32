# SPDX-License-Identifier: BSD-2-Clause
"""Build flows beside the targets: the open ECP5 flow (``ecp5``: Yosys synth_ecp5, nextpnr-ecp5,
ecppack), Yosys synth_xilinx for the xc7z020 (``xc7``), how both find their tools
(``tools``), and the latest paths of a placed, unrouted ECP5 design (``placed_paths``)."""
