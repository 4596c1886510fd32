# SPDX-License-Identifier: BSD-2-Clause
"""Skein-512 hash and MAC objects (hashlib style) on any backend.

The UBI sequence (MAC key, configuration or the engine's configured IV, the message with its
last block held back, Skein's bit padding, the output UBIs) and every block's tweak are the C
library's (ld_skein.h, software/firmware/lib/src/skein_sw.c), reached through the backend's
context (`Backend.skein_context`); this module keeps the hashlib-style object.

    h = litedigest.new("skein512", b"abc", digest_bits=256, key=b"k", backend="rtl")
    h.update(b"more"); h.hexdigest()
"""

from litedigest import spec as _spec
from litedigest.backends import get_backend
from litedigest.hashobj import ContextHash, _as_bytes

BLOCK = 64
MAX_OUT_BITS = 1 << 20


def skein_arguments(digest_bits, key, engine):
    """What a Skein-512 hash (Skein512, hash_many) is made from, checked: (the engine spec,
    the key's bytes). ValueError for an output size outside 1..MAX_OUT_BITS bits or an engine
    that is not a Skein-512 one; hashlib's errors for a key that is no bytes-like object."""
    if (
        not isinstance(digest_bits, int)
        or isinstance(digest_bits, bool)
        or not 1 <= digest_bits <= MAX_OUT_BITS
    ):
        raise ValueError(f"digest_bits must be an integer 1..{MAX_OUT_BITS}, got {digest_bits!r}")
    key = bytes(_as_bytes(key))
    try:
        spec = _spec.parse(engine if engine is not None else "skein512")
    except _spec.SpecError as e:
        raise ValueError(f"bad engine for skein512: {e}") from None
    if spec.family != "skein512":
        raise ValueError(f"engine {engine!r} is not a Skein-512 engine")
    return spec, key


class Skein512(ContextHash):
    """A running Skein-512 hash or MAC: update/update_bits/digest/hexdigest/copy."""

    block_size = BLOCK

    def __init__(
        self, data=b"", *, digest_bits=512, key=b"", backend="sw", engine=None, name="skein512"
    ):
        self._spec, key = skein_arguments(digest_bits, key, engine)
        self._name = name
        self._bits = digest_bits
        self._backend_name = backend
        self._backend = get_backend(backend, self._spec.engine_name)
        self._ctx = self._backend.skein_context(self._spec, digest_bits, key)
        self.update(data)

    # hashlib attributes
    @property
    def name(self):
        return self._name

    @property
    def digest_size(self):
        return (self._bits + 7) // 8

    @property
    def digest_bits(self):
        return self._bits

    @property
    def engine(self):
        return str(self._spec)

    def update_bits(self, data, nbits):
        """Append the first nbits bits of data (most significant bit of each byte first); a
        count that is not a multiple of 8 ends the message (Skein's bit padding)."""
        data = bytes(_as_bytes(data))
        if not isinstance(nbits, int) or isinstance(nbits, bool) or not 0 <= nbits <= 8 * len(data):
            raise ValueError(f"nbits must be 0..{8 * len(data)}, got {nbits!r}")
        self._ctx.update_bits(data, nbits)

    def __repr__(self):
        return (
            f"<litedigest {self._name} ({self._bits}-bit) HASH object, backend "
            f"{self._backend_name}, engine {self.engine}>"
        )
