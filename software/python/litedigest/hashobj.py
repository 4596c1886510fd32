"""hashlib-style hash objects: a thin layer over the C library's contexts.

Buffering, Merkle-Damgard padding and the peripheral protocol are the C library's
(software/firmware/lib: ld_md.h, ld_hw.h), reached through the backend's context
(`Backend.md_context`); this module keeps only what hashlib users see: name, digest_size,
block_size, update, digest (of a copy: the object stays usable), hexdigest, copy.
"""
from . import spec as _spec
from .backends import get_backend


def _as_bytes(data):
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    try:
        return memoryview(data).cast("B")
    except TypeError:
        raise TypeError(f"object supporting the buffer API required, not {type(data).__name__!r}") from None


class ContextHash:
    """What every hash object is: a C library context (`_ctx`, from the backend) behind the
    hashlib methods. Subclasses set _ctx, name, digest_size and their own attributes."""

    def update(self, data):
        self._ctx.update(_as_bytes(data))

    def digest(self):
        return self._ctx.digest()

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._ctx = self._ctx.copy()
        return other

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    @property
    def backend(self):
        return self._backend_name


class HashObject(ContextHash):
    """A running hash: update/digest/hexdigest/copy; name, digest_size, block_size."""

    def __init__(self, name, data=b"", *, backend="sw", engine=None):
        self._spec = _engine_spec(name, engine)
        self._backend_name = backend
        self._backend = get_backend(backend, self._spec.engine_name)
        self._ctx = self._backend.md_context(self._spec)
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

    def __repr__(self):
        return f"<litedigest {self.name} HASH object, backend {self._backend_name}, engine {self.engine}>"


def new(name, data=b"", *, backend="sw", engine=None, digest_bits=None, key=b""):
    """hashlib.new-style constructor: new("sha256", b"...", backend="sw"|"rtl"|"soc"|"pynq",
    engine=SPEC). Skein-512: new("skein512", data, digest_bits=N, key=MAC_KEY) (digest_bits
    defaults to 512, or to the size a name such as "skein512-256" carries)."""
    lname = name.lower() if isinstance(name, str) else name
    if isinstance(lname, str) and lname in _spec.ALGORITHMS and _spec.ALGORITHMS[lname][0] == "skein512":
        from .skein import Skein512
        bits = digest_bits if digest_bits is not None else 8 * _spec.ALGORITHMS[lname][2]
        return Skein512(data, digest_bits=bits, key=key, backend=backend, engine=engine, name=lname)
    if digest_bits is not None or key:
        raise TypeError(f"digest_bits and key are Skein-512 arguments, not {name}'s")
    return HashObject(name, data, backend=backend, engine=engine)


def _engine_spec(name, engine):
    """The engine spec hashing algorithm `name` (engine: a spec string, None for the default);
    ValueError for an unknown algorithm or an engine of another algorithm."""
    if not isinstance(name, str) or name.lower() not in _spec.ALGORITHMS:
        raise ValueError(f"unsupported hash type {name}")
    name = name.lower()
    try:
        return _spec.parse(engine if engine is not None else name, default_algorithm=name)
    except _spec.SpecError as e:
        raise ValueError(f"bad engine for {name}: {e}") from None


def hash_many(name, messages, *, backend="sw", engine=None):
    """The digests (a list of bytes) of many messages of one SHA-family algorithm, in order:
    what `[new(name, m, backend=..., engine=...).digest() for m in messages]` gives, with one
    call. On the `soc` backend's DMA path the peripheral's batch walker hashes them (messages
    and descriptors staged in main RAM, one batch start, one interrupt; soc/REGISTERS.md
    "Batches"); elsewhere each message is hashed in turn."""
    spec = _engine_spec(name, engine)
    if spec.family == "skein512":
        raise ValueError("hash_many takes the SHA-family algorithms (Skein-512: new() per message)")
    msgs = []
    for m in messages:
        if isinstance(m, str):
            raise TypeError("Strings must be encoded before hashing")
        msgs.append(memoryview(m).tobytes())   # TypeError for what is not bytes-like
    return get_backend(backend, spec.engine_name).hash_many(spec, msgs)
