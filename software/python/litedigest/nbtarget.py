# SPDX-License-Identifier: BSD-2-Clause
"""Where the notebooks run: the PYNQ board when `pynq` is importable and the LiteDigest overlay
loads, else the simulated main SoC behind the same driver (litedigest.board.sim). Either way
the pynq backend's device is set, so ``litedigest.new(name, data, backend="pynq")`` hashes on
the target's engines.

    from litedigest.nbtarget import open_target
    target = open_target()
    print(target.description)
"""

import atexit
import dataclasses


@dataclasses.dataclass
class Target:
    kind: str  # "board" or "sim"
    device: object  # litedigest.board.device.LiteDigestDevice
    description: str
    overlay: object = None

    @property
    def on_board(self):
        return self.kind == "board"

    @property
    def engines(self):
        return self.device.engines

    def algorithms(self):
        """The hashlib names the target's engines compute (every algorithm of every family
        that has an engine; engines added to the SoC appear here by themselves)."""
        from litedigest import spec

        fams = {self.device.regmap.spec(i).family for i in self.device.engines}
        return [a for a, (fam, _, _) in spec.ALGORITHMS.items() if fam in fams]

    def new(self, name, data=b"", **kwargs):
        return self.device.new(name, data, **kwargs)

    def close(self):
        if self.overlay is not None:
            self.overlay.close()
        elif hasattr(self.device, "close_sim"):
            self.device.close_sim()


_target = None


def open_target(board=None):
    """The notebooks' target (opened once per kernel). `board`: None picks the board when PYNQ
    and the overlay are there; True requires the board; False forces the simulated SoC."""
    global _target
    if _target is not None:
        return _target
    from litedigest.backends import pynq as pynq_backend

    reason = "asked for the simulated SoC"
    if board is not False:
        try:
            import pynq  # noqa: F401
        except ImportError as e:
            reason = f"`import pynq` failed ({e}): not on a PYNQ board"
            if board:
                raise
        else:
            try:
                from litedigest.board.overlay import LiteDigestOverlay

                ol = LiteDigestOverlay()
            except Exception as e:
                if board:
                    raise
                reason = f"PYNQ is here but the LiteDigest overlay did not load ({e})"
            else:
                _target = Target(
                    "board",
                    ol.device,
                    f"the PYNQ board: overlay {ol.bitfile_name}, engines {ol.engines}",
                    overlay=ol,
                )
                return _target
    from litedigest.board.sim import open_sim_device

    dev = open_sim_device()
    pynq_backend.use_device(dev)
    _target = Target(
        "sim",
        dev,
        "the simulated SoC (Verilator + VexRiscv, the main SoC's engines "
        f"{dev.engines}, reached through the PYNQ driver's MMIO/allocate adapters), "
        f"because {reason}",
    )
    atexit.register(dev.close_sim)
    return _target
