"""The `rtl` backend: one engine alone in a Verilator simulation (litedigest.ip.rtlsim)."""
from .. import spec as specmod
from . import Backend


class RTLBackend(Backend):
    name = "rtl"

    def __init__(self, engine=None):
        self.spec = specmod.parse(engine or "sha256")
        from litedigest.ip.rtlsim import RTLSim  # Verilator build on first use
        self.sim = RTLSim(self.spec.engine_name)

    def compress(self, spec, cv, blocks):
        """Hash whole blocks from cv (None: the IV of spec.algorithm); return the new cv."""
        from litedigest.ip.engines import variant_of
        if spec.family != self.spec.family:
            raise ValueError(f"the rtl backend runs {self.spec}, not {spec.algorithm}")
        bs = spec.block_size
        if not blocks or len(blocks) % bs:
            raise ValueError(f"compress needs a non-zero multiple of {bs} bytes, got {len(blocks)}")
        sim = self.sim
        todo = sim.blocks(bytes(blocks), variant=variant_of(spec), cv=cv)
        results, _ = sim.run(todo)
        return sim.to_bytes(results[-1].cv)

    def close(self):
        self.sim.close()


def open_backend(engine=None):
    return RTLBackend(engine)
