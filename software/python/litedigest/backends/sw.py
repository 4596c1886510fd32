"""The `sw` backend: the C library's software compression functions (ld_sha256_compress,
ld_sha1_compress, ld_sha512_compress) on the host through cffi. The engine architecture in a spec is meaningless
here and ignored."""
import struct

from . import Backend
from .. import native

# family -> (IV for an algorithm, compress(state, blocks), chaining-value words, word format)
FAMILIES = {
    "sha256": (native.iv, native.compress, 8, "I"),
    "sha1": (lambda algorithm: native.sha1_iv(), native.sha1_compress, 5, "I"),
    "sha512": (native.sha512_iv, native.sha512_compress, 8, "Q"),
}


class SwBackend(Backend):
    name = "sw"

    def compress(self, spec, cv, blocks):
        if spec.family not in FAMILIES:
            raise ValueError(f"sw backend: {spec.algorithm} is not supported")
        iv, compress, nwords, fmt = FAMILIES[spec.family]
        blocks = bytes(blocks)
        if not blocks or len(blocks) % spec.block_size:
            raise ValueError(f"blocks must be a non-zero multiple of {spec.block_size} bytes, "
                             f"got {len(blocks)}")
        if cv is None:
            state = iv(spec.algorithm)
        else:
            size = struct.calcsize(f">{nwords}{fmt}")
            if len(cv) != size:
                raise ValueError(f"cv must be {size} bytes")
            state = struct.unpack(f">{nwords}{fmt}", cv)
        return struct.pack(f">{nwords}{fmt}", *compress(state, blocks))


    def ubi(self, spec, start, blocks, t0, t1, final_bytes):
        return native.skein512_ubi(start, blocks, t0, t1, final_bytes)


def open_backend(engine=None):
    return SwBackend()
