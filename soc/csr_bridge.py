"""The LiteX SoCs' Wishbone-to-CSR bridge, registered.

LiteX registers its Wishbone2CSR bridge (the CSR bus's address, strobes and write data come
from flip-flops) only in SoCs with SDRAM; without it the CPU's data-bus address reaches every
CSR bank's decoder and read-data register in one cycle, through the bus decoder and the
instruction cache's line loader. In the four-algorithm ECP5 SoC that path was the critical
one (23.2 ns, 43 MHz: docs/MEASUREMENTS.md, "The ECP5 SoC"). The register costs one cycle per
CSR access. The simulated SoC gets the same bridge as the board's so that its cycle counts
stay the board's.
"""


class RegisteredCSRBridge:
    """Mixin for a LiteX SoC class (before ``SoCCore``/``SimSoC`` in the bases): the CSR bridge
    that ``SoC.finalize`` adds is registered, whatever ``register`` it asks for."""

    def add_csr_bridge(self, name="csr", origin=None, register=True):
        super().add_csr_bridge(name=name, origin=origin, register=True)
