# SPDX-License-Identifier: BSD-2-Clause
"""The constructors a user calls (hashlib's `new` and `file_digest`, and `hash_many`): they
pick the object (a SHA hash object of litedigest.hashobj, a Skein512 of litedigest.skein) and
the backend."""

from litedigest import spec as _spec
from litedigest.backends import get_backend
from litedigest.board import device
from litedigest.hashobj import HashObject, _algorithm, _as_bytes, _engine_spec, initial_data
from litedigest.skein import Skein512, skein_arguments


def new(
    name,
    data=b"",
    *,
    backend="sw",
    engine=None,
    digest_bits=None,
    key=b"",
    usedforsecurity=True,
    string=None,
):
    """hashlib.new-style constructor: new("sha256", b"...", backend="sw"|"rtl"|"soc"|"pynq",
    engine=SPEC), the name in any spelling hashlib.new takes ("SHA-256", "sha512-224").
    Skein-512: new("skein512", data, digest_bits=N, key=MAC_KEY) (digest_bits defaults to 512,
    or to the size a name such as "skein512-256" carries). usedforsecurity is hashlib's
    keyword, accepted and ignored (no algorithm here is blocked)."""
    lname = _algorithm(name)
    data = initial_data(data, string)
    bits = _skein_bits(name, lname, digest_bits, key)
    if bits is not None:
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


def hash_many(name, messages, *, backend="sw", engine=None, digest_bits=None, key=b""):
    """The digests (a list of bytes) of many messages of one algorithm, in order: what
    `[new(name, m, backend=..., engine=...).digest() for m in messages]` gives, with one
    call; Skein-512 takes new()'s `digest_bits` and `key` too. On the `soc` backend's DMA path
    the peripheral's batch walker hashes them (messages and descriptors staged in main RAM,
    one batch start, one interrupt; soc/REGISTERS.md "Batches"): every SHA algorithm, and
    unkeyed Skein-512 of the sizes the engine has configured IVs for (128, 160, 224, 256, 384,
    512 bits), a message too large for the staging area streamed on its own; elsewhere each
    message is hashed in turn."""
    bits = _skein_bits(name, _algorithm(name), digest_bits, key)
    if bits is not None:
        spec, key = skein_arguments(bits, key, engine)
        msgs = [bytes(_as_bytes(m)) for m in messages]
        return get_backend(backend, spec.engine_name).hash_many(spec, msgs, bits, key)
    spec = _engine_spec(name, engine)
    msgs = [bytes(_as_bytes(m)) for m in messages]
    return get_backend(backend, spec.engine_name).hash_many(spec, msgs)


# a board device's .new() (and so an overlay's) builds its hash objects with this constructor
device.register_constructor(new)
