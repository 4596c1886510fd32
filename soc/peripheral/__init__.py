# SPDX-License-Identifier: BSD-2-Clause
"""The hash peripheral (litedigest.soc.peripheral): one engine behind CSRs and a DMA reader,
made of stream stages (soc/REGISTERS.md for the registers):

- layouts: the records and streams between the stages, the block byte order (engine_block);
- csr_block.CSRBlock: `din` words -> one block with its job's metadata;
- dma_reader.DMAReader: per-slot segments, round-robin choice, whole-block fetch, bus errors;
- axi_reader.AXIBurstReader: the same on an AXI4 port, a burst per block, blocks requested
  ahead into a ring buffer; axi_read_arbiter.AXIReadArbiter: several of them on one port;
- slots.SlotControl: admission checks, per-slot job state, slots_busy/done, status bits;
- skein_tweak.SkeinTweak: the per-block tweak of a Skein job, the output block of `ctrl.out`;
- core.HashPeripheral: the CSR bank and the composition (block register, digest memory,
  cycle counter, event);
- engine_domain.EngineInClockDomain: an engine clocked by a domain of its own, its streams
  crossed by a request/acknowledge handshake (HeldCrossing);
- integration: add_hash_peripheral / add_hash_subsystem for LiteX SoCs.
"""

from .axi_read_arbiter import AXIReadArbiter
from .axi_reader import AXIBurstReader
from .core import ARCH_CODES, BlockRegister, CycleCounter, DigestMemory, HashPeripheral
from .csr_block import CSRBlock
from .dma_reader import DMAReader, round_robin_choice, round_robin_pick, row_geometry
from .engine_domain import EngineInClockDomain, HeldCrossing
from .integration import add_hash_peripheral, add_hash_subsystem
from .layouts import engine_block
from .skein_tweak import (
    OUTPUT_TWEAK,
    TWEAK_BITPAD,
    TWEAK_FINAL,
    TWEAK_FIRST,
    SkeinTweak,
    tweak_of_block,
)
from .slots import SlotControl

__all__ = [
    "ARCH_CODES",
    "AXIBurstReader",
    "AXIReadArbiter",
    "BlockRegister",
    "CSRBlock",
    "CycleCounter",
    "DMAReader",
    "DigestMemory",
    "EngineInClockDomain",
    "HashPeripheral",
    "HeldCrossing",
    "OUTPUT_TWEAK",
    "SkeinTweak",
    "SlotControl",
    "TWEAK_BITPAD",
    "TWEAK_FINAL",
    "TWEAK_FIRST",
    "add_hash_peripheral",
    "add_hash_subsystem",
    "engine_block",
    "round_robin_choice",
    "round_robin_pick",
    "row_geometry",
    "tweak_of_block",
]
