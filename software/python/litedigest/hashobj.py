# SPDX-License-Identifier: BSD-2-Clause
"""hashlib-style hash objects: a thin layer over the C library's contexts.

Buffering, Merkle-Damgard padding and the peripheral protocol are the C library's
(software/firmware/lib: ld_md.h, ld_hw.h), reached through the backend's context
(`Backend.md_context`); this module keeps only what hashlib users see: name, digest_size,
block_size, update, digest (of a copy: the object stays usable), hexdigest, copy.
"""

from litedigest import spec as _spec
from litedigest.backends import get_backend


def _as_bytes(data):
    """data's bytes without a copy; hashlib's errors for what is not a C-contiguous buffer
    (hashlib asks for a simple buffer: a strided view is a BufferError, not a TypeError)."""
    if isinstance(data, str):
        raise TypeError("Strings must be encoded before hashing")
    try:
        view = memoryview(data)
    except TypeError:
        raise TypeError(
            f"object supporting the buffer API required, not {type(data).__name__!r}"
        ) from None
    if not view.c_contiguous:
        _simple_buffer_error(data)
    return view.cast("B")


def _simple_buffer_error(data):
    """Raise the error data's exporter gives for a simple (contiguous) buffer request, as
    hashlib does: numpy's ValueError for a strided array, BufferError for a strided memoryview
    (cffi's from_buffer asks for exactly that kind of buffer)."""
    try:
        from litedigest._clib import ffi
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
    raise TypeError(
        "'data' and 'string' are mutually exclusive and support for 'string' keyword "
        "parameter is slated for removal in a future version."
    )


def _openssl_spellings(alg):
    """The other names hashlib.new() takes for SHA-family algorithm `alg` (OpenSSL's, lower
    case): sha-256 and sha2-256 (SHA-1 is no SHA-2), sha512-224, sha-512/224, sha2-512/224."""
    bits, _, cut = alg[len("sha") :].partition("_")
    if cut:
        return (f"sha{bits}-{cut}", f"sha-{bits}/{cut}", f"sha2-{bits}/{cut}")
    return (f"sha-{bits}",) + ((f"sha2-{bits}",) if bits != "1" else ())


# the catalogue's SHA-family algorithms (hashlib's names; each has a litedigest.<name>)
SHA_ALGORITHMS = tuple(
    alg for alg, (family, _, _) in _spec.ALGORITHMS.items() if family != "skein512"
)
# a name as new() takes it, lower case -> the catalogue's algorithm
_NAMES = {
    **{alias: alg for alg in SHA_ALGORITHMS for alias in _openssl_spellings(alg)},
    **{alg: alg for alg in _spec.ALGORITHMS},
}


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
        self.update(data)  # None too: hashlib raises TypeError for it

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
        return (
            f"<litedigest {self.name} HASH object, backend "
            f"{self._backend_name}, engine {self.engine}>"
        )


def _engine_spec(name, engine):
    """The engine spec hashing algorithm `name` (engine: a spec string, None for the default);
    _algorithm's errors for a bad name, ValueError for an engine of another algorithm."""
    name = _algorithm(name)
    try:
        return _spec.parse(engine if engine is not None else name, default_algorithm=name)
    except _spec.SpecError as e:
        raise ValueError(f"bad engine for {name}: {e}") from None
