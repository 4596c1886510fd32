# SPDX-License-Identifier: BSD-2-Clause
"""The LiteDigest notebooks (01_interactive_hashing, 02_speedup, 03_design_space), installed as
the package litedigest.notebooks so that PYNQ's `pynq get-notebooks` finds them through the
`pynq.notebooks` entry point. They are written by generate.py; the package itself has no code."""
