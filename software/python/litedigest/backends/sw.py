"""The `sw` backend: the C library's software SHA-256 compression (ld_sha256_compress) on the
host through cffi. The engine architecture in a spec is meaningless here and ignored."""
import struct

from . import Backend
from .. import native


class SwBackend(Backend):
    name = "sw"

    def compress(self, spec, cv, blocks):
        if spec.family != "sha256":
            raise ValueError(f"sw backend: {spec.algorithm} is not supported")
        blocks = bytes(blocks)
        if not blocks or len(blocks) % spec.block_size:
            raise ValueError(f"blocks must be a non-zero multiple of {spec.block_size} bytes, "
                             f"got {len(blocks)}")
        if cv is None:
            state = native.iv(spec.algorithm)
        else:
            if len(cv) != 32:
                raise ValueError("cv must be 32 bytes")
            state = struct.unpack(">8I", cv)
        return struct.pack(">8I", *native.compress(state, blocks))


def open_backend(engine=None):
    return SwBackend()
