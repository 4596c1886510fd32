# SPDX-License-Identifier: BSD-2-Clause
"""The `rtl` backend: one engine alone in a Verilator simulation (litedigest.ip.rtlsim).

The C library does everything around the engine (ld_md_init_hook, ld_skein512_init_hook:
buffering, padding, Skein's UBI sequence and every block's tweak); this backend only runs the
blocks it is handed on the engine, from the engine's own IV (ctrl.variant) when the chain is
at its start and from the chaining value otherwise."""

import struct

from litedigest import _clib as native
from litedigest import spec as specmod
from litedigest.backends import Backend


class RTLBackend(Backend):
    name = "rtl"

    def __init__(self, engine=None):
        self.spec = specmod.parse(engine or "sha256")
        from litedigest.ip.rtlsim import RTLSim  # Verilator build on first use

        self.sim = RTLSim(self.spec.engine_name)

    def _check_family(self, family):
        if family != self.spec.family:
            raise ValueError(f"the rtl backend runs {self.spec}, not {family}")

    def md_context(self, spec):
        self._check_family(spec.family)
        return native.MdCtx(spec.algorithm, hook=self._compress)

    def skein_context(self, spec, digest_bits, key):
        self._check_family("skein512")
        return native.Skein512Ctx(digest_bits, key, hook=self._skein_blocks)

    def _compress(self, alg, first, words, blocks):
        """ld_md_compress_fn: whole blocks from the IV (first) or the chaining value `words`"""
        sim = self.sim
        cv = None if first else struct.pack(f">{len(words)}I", *words)
        todo = sim.blocks(blocks, variant=int(native.lib.ld_md_variant(alg)), cv=cv)
        results, _ = sim.run(todo)
        out = sim.to_bytes(results[-1].cv)
        return struct.unpack(f">{len(out) // 4}I", out)

    def _skein_blocks(self, x, variant, blocks, tweaks):
        """ld_skein512_ubi_fn: blocks with the tweaks the C library computed"""
        from litedigest.ip.rtlsim import Block

        sim = self.sim
        todo = []
        for i, (t0, t1) in enumerate(tweaks):
            blk = Block(
                sim.words(blocks[64 * i : 64 * (i + 1)]),
                tweak=t0 | (t1 << 64),
                last=i == len(tweaks) - 1,
            )
            if i == 0:
                if variant >= 0:
                    blk.first, blk.variant = True, variant
                else:
                    blk.cv = sim.words(struct.pack("<8Q", *x))
            todo.append(blk)
        results, _ = sim.run(todo)
        return struct.unpack("<8Q", sim.to_bytes(results[-1].cv))

    def mac(self, spec, key, data):
        """A MAC engine (hmac-sha256:opt:pN): K0 into key slot 0 (the engine makes both
        states), then the message's blocks, padded by the C library for the 64 bytes of
        K0 ^ ipad before it; the last block's result is the MAC."""
        from litedigest.ip.rtlsim import Block

        if not spec.mac or spec.family != self.spec.family:
            raise ValueError(f"the rtl backend runs {self.spec}, not the MAC engine {spec}")
        sim, bs = self.sim, spec.block_size
        key = bytes(key)
        k0 = (native.md(spec.hash_family, key) if len(key) > bs else key).ljust(bs, b"\0")
        data = bytes(data)
        whole = len(data) - len(data) % bs
        padded = data[:whole] + native.md_pad(data[whole:], bs + len(data), bs)
        todo = [Block(sim.words(k0), key=0, key_init=True, last=True)] + sim.blocks(padded)
        results, _ = sim.run(todo)
        return sim.to_bytes(results[-1].cv)[: spec.digest_size]

    def close(self):
        self.sim.close()


def open_backend(engine=None):
    return RTLBackend(engine)
