# SPDX-License-Identifier: BSD-2-Clause
"""Formal proofs of the engine contract and the peripheral's control (docs/RELIABILITY.md,
"What is proven"), with SymbiYosys on the Verilog that Migen makes of the real modules.

- `units`: the design units as Verilog (engines with their datapath abstracted, SlotControl,
  the Wishbone DMA reader, the AXI burst reader), and the faults the tests plant in them;
- `harness/*.sv`: the properties, one SystemVerilog harness per kind of unit;
- `proofs`: the list of proofs (unit, harness, mode, depth), running them with a time limit
  and caching their verdicts under build/formal/;
- `sby`: one SymbiYosys run; `trace`: a counterexample in a few lines.

Run them with `python -m litedigest.soc.formal` or `pytest tests/formal/test_formal.py`.
"""

from .proofs import PROOFS, Proof, ok, run, run_one  # noqa: F401
