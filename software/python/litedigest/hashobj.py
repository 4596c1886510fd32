# SPDX-License-Identifier: BSD-2-Clause
"""hashlib-style hash objects: a thin layer over the C library's contexts.

Buffering, Merkle-Damgard padding and the peripheral protocol are the C library's
(software/firmware/lib: ld_md.h, ld_hw.h), reached through the backend's context
(`Backend.md_context`); this module keeps only what hashlib users see: name, digest_size,
block_size, update, digest (of a copy: the object stays usable), hexdigest, copy.
"""
from . import spec as _spec
from .backends import get_backend


def _as_bytes(data):
    """data's bytes without a copy; hashlib's errors for what is not a C-contiguous buffer
    (hashlib asks for a simple buffer: a strided view is a BufferError, not a TypeError)."""
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    try:
        view = memoryview(data)
    except TypeError:
        raise TypeError(f"object supporting the buffer API required, not {type(data).__name__!r}") from None
    if not view.c_contiguous:
        _simple_buffer_error(data)
    return view.cast("B")


def _simple_buffer_error(data):
    """Raise the error data's exporter gives for a simple (contiguous) buffer request, as
    hashlib does: numpy's ValueError for a strided array, BufferError for a strided memoryview
    (cffi's from_buffer asks for exactly that kind of buffer)."""
    try:
        from ._native import ffi
    except ImportError:
        ffi = None
    if ffi is not None:
        ffi.from_buffer(data)
    raise BufferError("memoryview: underlying buffer is not C-contiguous")


def initial_data(data, string):
    """hashlib's two keywords for a constructor's first data: `data` (Python 3.12 on) and
    `string` (3.11 and before, still accepted); both at once is hashlib's TypeError."""
    if string is None:
        return data
    if isinstance(data, (bytes, bytearray)) and not data:
        return string
    raise TypeError("'data' and 'string' are mutually exclusive and support for 'string' keyword "
                    "parameter is slated for removal in a future version.")


def _openssl_spellings(alg):
    """The other names hashlib.new() takes for SHA-family algorithm `alg` (OpenSSL's, lower
    case): sha-256 and sha2-256 (SHA-1 is no SHA-2), sha512-224, sha-512/224, sha2-512/224."""
    bits, _, cut = alg[len("sha"):].partition("_")
    if cut:
        return (f"sha{bits}-{cut}", f"sha-{bits}/{cut}", f"sha2-{bits}/{cut}")
    return (f"sha-{bits}",) + ((f"sha2-{bits}",) if bits != "1" else ())


# the catalogue's SHA-family algorithms (hashlib's names; each has a litedigest.<name>)
SHA_ALGORITHMS = tuple(alg for alg, (family, _, _) in _spec.ALGORITHMS.items()
                       if family != "skein512")
# a name as new() takes it, lower case -> the catalogue's algorithm
_NAMES = {**{alias: alg for alg in SHA_ALGORITHMS for alias in _openssl_spellings(alg)},
          **{alg: alg for alg in _spec.ALGORITHMS}}


def _algorithm(name):
    """The catalogue's algorithm for `name` in any spelling hashlib.new() takes; hashlib's
    errors otherwise (TypeError for a non-string, ValueError for an unknown name)."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, not {type(name).__name__!r}")
    try:
        return _NAMES[name.lower()]
    except KeyError:
        raise ValueError(f"unsupported hash type {name}") from None


class ContextHash:
    """What every hash object is: a C library context (`_ctx`, from the backend) behind the
    hashlib methods. Subclasses set _ctx, name, digest_size and their own attributes."""

    def update(self, data, /):
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
        self.update(data)   # None too: hashlib raises TypeError for it

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


def new(name, data=b"", *, backend="sw", engine=None, digest_bits=None, key=b"",
        usedforsecurity=True, string=None):
    """hashlib.new-style constructor: new("sha256", b"...", backend="sw"|"rtl"|"soc"|"pynq",
    engine=SPEC), the name in any spelling hashlib.new takes ("SHA-256", "sha512-224").
    Skein-512: new("skein512", data, digest_bits=N, key=MAC_KEY) (digest_bits defaults to 512,
    or to the size a name such as "skein512-256" carries). usedforsecurity is hashlib's
    keyword, accepted and ignored (no algorithm here is blocked)."""
    lname = _algorithm(name)
    data = initial_data(data, string)
    bits = _skein_bits(name, lname, digest_bits, key)
    if bits is not None:
        from .skein import Skein512
        return Skein512(data, digest_bits=bits, key=key, backend=backend, engine=engine, name=lname)
    return HashObject(name, data, backend=backend, engine=engine)


def _skein_bits(name, lname, digest_bits, key):
    """Skein-512's output bits for catalogue algorithm `lname` (digest_bits, default the size
    its name carries); None for a SHA algorithm, for which digest_bits and key are a
    TypeError (new() and hash_many)."""
    if _spec.ALGORITHMS[lname][0] == "skein512":
        return digest_bits if digest_bits is not None else 8 * _spec.ALGORITHMS[lname][2]
    if digest_bits is not None or key:
        raise TypeError(f"digest_bits and key are Skein-512 arguments, not {name}'s")
    return None


def file_digest(fileobj, digest, /, *, backend=None, engine=None, _bufsize=2**18):
    """hashlib.file_digest: the hash object of a file object's contents, read to its end.
    `digest` is a name new() takes (hashed on `backend`, default "sw", with `engine`) or a
    callable returning a fresh hash object (litedigest.sha256, hashlib.sha256; backend and
    engine are then its own: passing them too is a TypeError). `fileobj` is a binary file
    open for reading, or a BytesIO (hashed from its buffer, without a copy); anything else
    is a ValueError, and a non-blocking file with no data ready a BlockingIOError, as hashlib."""
    if isinstance(digest, str):
        digestobj = new(digest, backend=backend or "sw", engine=engine)
    elif backend is not None or engine is not None:
        raise TypeError("backend and engine go with a digest name; a constructor carries its own")
    else:
        digestobj = digest()
    if hasattr(fileobj, "getbuffer"):
        # io.BytesIO: its buffer, not a copy (hashlib's shortcut)
        digestobj.update(fileobj.getbuffer())
        return digestobj
    # only binary files have readinto()
    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")
    buf = bytearray(_bufsize)
    view = memoryview(buf)
    while True:
        size = fileobj.readinto(buf)
        if size is None:
            raise BlockingIOError("I/O operation would block.")
        if size == 0:
            break
        digestobj.update(view[:size])
    return digestobj


def _engine_spec(name, engine):
    """The engine spec hashing algorithm `name` (engine: a spec string, None for the default);
    _algorithm's errors for a bad name, ValueError for an engine of another algorithm."""
    name = _algorithm(name)
    try:
        return _spec.parse(engine if engine is not None else name, default_algorithm=name)
    except _spec.SpecError as e:
        raise ValueError(f"bad engine for {name}: {e}") from None


def hash_many(name, messages, *, backend="sw", engine=None, digest_bits=None, key=b""):
    """The digests (a list of bytes) of many messages of one algorithm, in order: what
    `[new(name, m, backend=..., engine=...).digest() for m in messages]` gives, with one
    call; Skein-512 takes new()'s `digest_bits` and `key` too. On the `soc` backend's DMA path
    the peripheral's batch walker hashes them (messages and descriptors staged in main RAM,
    one batch start, one interrupt; soc/REGISTERS.md "Batches"): every SHA algorithm, and
    unkeyed Skein-512 of the sizes the engine has configured IVs for (128, 160, 224, 256, 384,
    512 bits); elsewhere each message is hashed in turn."""
    bits = _skein_bits(name, _algorithm(name), digest_bits, key)
    if bits is not None:
        from .skein import skein_arguments
        spec, key = skein_arguments(bits, key, engine)
        msgs = [bytes(_as_bytes(m)) for m in messages]
        return get_backend(backend, spec.engine_name).hash_many(spec, msgs, bits, key)
    spec = _engine_spec(name, engine)
    msgs = [bytes(_as_bytes(m)) for m in messages]
    return get_backend(backend, spec.engine_name).hash_many(spec, msgs)
