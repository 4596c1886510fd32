"""hashlib-style hash objects built only on `Backend.compress`.

Buffering and Merkle-Damgard padding are done here, with the same rule as the C library's
ld_md_pad: 0x80, zeros, then the message length in bits as a big-endian integer of
block_size/8 bytes. Whole blocks go to the backend in batches of up to CHUNK bytes (hardware
backends pay a per-call overhead). digest() pads a copy of the state and never changes the
object (hashlib semantics).
"""
from . import spec as _spec
from .backends import get_backend

CHUNK = 16 * 1024


def md_pad(tail, total_len, block_size):
    """Padding of the final partial block `tail` (len < block_size) of a total_len-byte message."""
    lenbytes = block_size // 8
    tail = bytes(tail)
    if len(tail) >= block_size:
        raise ValueError("tail must be shorter than one block")
    n = block_size if len(tail) + 1 + lenbytes <= block_size else 2 * block_size
    bits = (total_len * 8) % (1 << (8 * lenbytes))
    return tail + b"\x80" + bytes(n - len(tail) - 1 - lenbytes) + bits.to_bytes(lenbytes, "big")


def _as_bytes(data):
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    try:
        return memoryview(data).cast("B")
    except TypeError:
        raise TypeError(f"object supporting the buffer API required, not {type(data).__name__!r}") from None


class HashObject:
    """A running hash: update/digest/hexdigest/copy; name, digest_size, block_size."""

    def __init__(self, name, data=b"", *, backend="sw", engine=None):
        if not isinstance(name, str) or name.lower() not in _spec.ALGORITHMS:
            raise ValueError(f"unsupported hash type {name}")
        name = name.lower()
        try:
            self._spec = _spec.parse(engine if engine is not None else name, default_algorithm=name)
        except _spec.SpecError as e:
            raise ValueError(f"bad engine for {name}: {e}") from None
        self._backend_name = backend
        self._backend = get_backend(backend, self._spec.engine_name)
        self._cv = None          # chaining value after the compressed blocks (None: the IV)
        self._buf = bytearray()  # not yet compressed bytes
        self._len = 0            # message bytes so far
        if data is not None:
            self.update(data)

    # hashlib attributes
    @property
    def name(self):
        return self._spec.algorithm

    @property
    def digest_size(self):
        return self._spec.digest_size

    @property
    def block_size(self):
        return self._spec.block_size

    @property
    def engine(self):
        """The engine spec this object hashes with (architecture meaningful for rtl/soc)."""
        return str(self._spec)

    @property
    def backend(self):
        return self._backend_name

    def _compress(self, cv, data):
        mv = memoryview(data)
        for off in range(0, len(mv), CHUNK):
            cv = self._backend.compress(self._spec, cv, bytes(mv[off:off + CHUNK]))
        return cv

    def update(self, data):
        mv = _as_bytes(data)
        self._len += len(mv)
        self._buf += mv
        if len(self._buf) >= CHUNK:
            bs = self.block_size
            whole = len(self._buf) - len(self._buf) % bs
            self._cv = self._compress(self._cv, memoryview(self._buf)[:whole])
            del self._buf[:whole]

    def digest(self):
        bs = self.block_size
        whole = len(self._buf) - len(self._buf) % bs
        data = bytes(self._buf[:whole]) + md_pad(self._buf[whole:], self._len, bs)
        cv = self._compress(self._cv, data)
        return cv[:self.digest_size]

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = object.__new__(type(self))
        other._spec = self._spec
        other._backend_name = self._backend_name
        other._backend = self._backend
        other._cv = self._cv
        other._buf = bytearray(self._buf)
        other._len = self._len
        return other

    def __repr__(self):
        return f"<litedigest {self.name} HASH object, backend {self._backend_name}, engine {self.engine}>"


def new(name, data=b"", *, backend="sw", engine=None, digest_bits=None, key=b""):
    """hashlib.new-style constructor: new("sha256", b"...", backend="sw"|"rtl"|"soc", engine=SPEC).
    Skein-512: new("skein512", data, digest_bits=N, key=MAC_KEY) (digest_bits defaults to 512,
    or to the size a name such as "skein512-256" carries)."""
    lname = name.lower() if isinstance(name, str) else name
    if isinstance(lname, str) and lname in _spec.ALGORITHMS and _spec.ALGORITHMS[lname][0] == "skein512":
        from .skein import Skein512
        bits = digest_bits if digest_bits is not None else 8 * _spec.ALGORITHMS[lname][2]
        return Skein512(data, digest_bits=bits, key=key, backend=backend, engine=engine, name=lname)
    if digest_bits is not None or key:
        raise TypeError(f"digest_bits and key are Skein-512 arguments, not {name}'s")
    return HashObject(name, data, backend=backend, engine=engine)
