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

    def ubi(self, spec, start, blocks, t0, t1, final_bytes):
        from litedigest.ip.rtlsim import Block
        from ..skein import block_tweaks
        if self.spec.family != "skein512":
            raise ValueError(f"the rtl backend runs {self.spec}, not Skein-512")
        if not blocks or len(blocks) % 64:
            raise ValueError(f"ubi needs a non-zero multiple of 64 bytes, got {len(blocks)}")
        sim = self.sim
        tweaks = block_tweaks(t0, t1, len(blocks) // 64, final_bytes)
        todo = []
        for i, (b0, b1) in enumerate(tweaks):
            blk = Block(sim.words(blocks[64 * i:64 * (i + 1)]), tweak=b0 | (b1 << 64),
                        last=i == len(tweaks) - 1)
            if i == 0:
                if isinstance(start, int):
                    blk.first, blk.variant = True, start
                else:
                    blk.cv = sim.words(bytes(start))
            todo.append(blk)
        results, _ = sim.run(todo)
        return sim.to_bytes(results[-1].cv)

    def close(self):
        self.sim.close()


def open_backend(engine=None):
    return RTLBackend(engine)
