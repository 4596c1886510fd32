# SPDX-License-Identifier: BSD-2-Clause
"""HMAC (RFC 2104) on any LiteDigest hash and backend, with the standard library's `hmac` API::

    from litedigest import hmac
    h = hmac.new(key, b"message", digestmod="sha256", backend="sw")   # or "rtl", "soc", "pynq"
    h.hexdigest()
    hmac.digest(key, b"message", "sha512")
    hmac.compare_digest(a, b)
    hmac.hmac_many(keys, messages, "sha256", backend="soc", engine="hmac-sha256:opt:p4")

The MAC is built from two running hash objects of the chosen backend, exactly as RFC 2104 and
CPython's pure-Python `hmac` do: the inner hash starts with the key xor ipad, the outer one with
the key xor opad; a key longer than the block is hashed first. `digest()` finishes copies, so
the object stays usable. `digestmod` is an algorithm name in any spelling `litedigest.new`
takes ("sha256", "SHA-256", "skein512-256"), or a constructor returning a hash object (e.g.
`litedigest.sha384` with its own backend). Nothing of the key is kept but the two started
hashes (Python cannot wipe the caller's bytes).
"""

import warnings
from hmac import compare_digest  # constant time, the standard library's (OpenSSL's CRYPTO_memcmp)

from litedigest import api, hashobj

__all__ = ["HMAC", "new", "digest", "hmac_many", "compare_digest", "digest_size"]

IPAD, OPAD = 0x36, 0x5C

digest_size = None  # as the standard library's module: the size is the object's


def _constructor(digestmod, backend, engine):
    """A function returning a new running hash of `digestmod`."""
    if callable(digestmod):
        return digestmod
    if isinstance(digestmod, str):
        if not digestmod:
            raise TypeError("Missing required parameter 'digestmod'.")
        hashobj._algorithm(digestmod)  # hashlib's errors for an unknown name, now
        return lambda: api.new(digestmod, backend=backend, engine=engine)
    if digestmod is None:
        raise TypeError("Missing required parameter 'digestmod'.")
    if callable(getattr(digestmod, "new", None)):
        # a module with new(), as the standard library's hmac takes (PEP 247)
        return lambda: digestmod.new(b"")
    raise TypeError(
        f"digestmod must be a name or a hash constructor, not {type(digestmod).__name__!r}"
    )


class _HMACObject:
    """What both kinds of HMAC object share: copy (also copy.copy and copy.deepcopy: a real,
    independent copy), hexdigest, repr. A subclass copies its own state in _copy_state."""

    def copy(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        self._copy_state(other)
        return other

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def hexdigest(self):
        return self.digest().hex()

    def __repr__(self):
        return f"<litedigest {self.name} HMAC object>"


class HMAC(_HMACObject):
    """An HMAC object: update, copy, digest, hexdigest; name, digest_size, block_size."""

    def __init__(self, key, msg=None, digestmod="", *, backend="sw", engine=None):
        if not isinstance(key, (bytes, bytearray)):
            raise TypeError(f"key: expected bytes or bytearray, but got {type(key).__name__!r}")
        make = _constructor(digestmod, backend, engine)
        self._inner, self._outer = make(), make()
        # as the standard library's hmac: a hash without a block size, or with one under 16
        # bytes, is keyed over 64 bytes, with a RuntimeWarning
        bs = getattr(self._inner, "block_size", None)
        if bs is None:
            warnings.warn(
                "No block_size attribute on given digest object; Assuming 64.", RuntimeWarning, 2
            )
            bs = 64
        elif not isinstance(bs, int):
            raise TypeError(f"digestmod's hash: block_size must be an int, not {type(bs).__name__}")
        elif bs < 16:
            warnings.warn(
                f"block_size of {bs} seems too small; using our default of 64.", RuntimeWarning, 2
            )
            bs = 64
        self.block_size = bs
        self.digest_size = self._inner.digest_size
        if len(key) > bs:
            k = make()
            k.update(key)
            key = k.digest()
        key = bytes(key).ljust(bs, b"\0")
        self._inner.update(bytes(b ^ IPAD for b in key))
        self._outer.update(bytes(b ^ OPAD for b in key))
        if msg is not None:
            self.update(msg)

    @property
    def name(self):
        return "hmac-" + self._inner.name

    def update(self, msg):
        self._inner.update(msg)

    def _copy_state(self, other):
        other._inner, other._outer = self._inner.copy(), self._outer.copy()

    def digest(self):
        outer = self._outer.copy()
        outer.update(self._inner.digest())
        return outer.digest()


class EngineHMAC(_HMACObject):
    """An HMAC computed by a MAC engine (`engine="hmac-sha256:opt:p4"`: the HMAC peripheral,
    Michail et al. 2012) on the `soc` or `pynq` backend (the HMAC peripheral) or the `rtl`
    backend (the engine alone in Verilator): the message is kept until digest(), which loads the
    key into key slot 0 and MACs the message in one call (the peripheral keeps no chaining value
    between calls to resume from, so the object buffers).
    The same API as HMAC."""

    def __init__(self, key, msg, digestmod, backend, engine):
        from litedigest import backends
        from litedigest import spec as specmod

        if not isinstance(key, (bytes, bytearray)):
            raise TypeError(f"key: expected bytes or bytearray, but got {type(key).__name__!r}")
        self._spec = specmod.parse(engine)
        mac = self._spec.mac
        if not isinstance(digestmod, str) or not digestmod:
            raise TypeError("Missing required parameter 'digestmod'.")
        if hashobj._algorithm(digestmod) != mac.hash_family:
            raise ValueError(
                f"the engine {engine} computes HMAC-{mac.hash_family.upper()}, "
                f"not HMAC of {digestmod!r}"
            )
        if backend not in ("rtl", "soc", "pynq"):
            raise ValueError(
                f"a MAC engine ({engine}) runs on the rtl, soc or pynq backend, not {backend!r}"
            )
        self._backend = backends.get_backend(backend, self._spec.engine_name)
        self._key = bytes(key)
        self._msg = bytearray()
        self.digest_size = self._spec.digest_size
        self.block_size = self._spec.block_size
        if msg is not None:
            self.update(msg)

    @property
    def name(self):
        return "hmac-" + self._spec.hash_family

    def update(self, msg):
        self._msg += hashobj._as_bytes(msg)

    def _copy_state(self, other):
        other._msg = bytearray(self._msg)

    def digest(self):
        return self._backend.mac(self._spec, self._key, bytes(self._msg))


def _is_mac_engine(engine):
    if engine is None:
        return False
    from litedigest import spec as specmod

    return bool(specmod.parse(engine).mac)


def new(key, msg=None, digestmod="", *, backend="sw", engine=None):
    """hmac.new: an HMAC of `digestmod` (required, as in the standard library since 3.8). With
    a MAC engine (`engine="hmac-sha256:opt:p4"`, backend "rtl", "soc" or "pynq") the HMAC
    engine computes it; otherwise it is built from two hash objects of the backend."""
    if _is_mac_engine(engine):
        return EngineHMAC(key, msg, digestmod, backend, engine)
    return HMAC(key, msg, digestmod, backend=backend, engine=engine)


def digest(key, msg, digest, *, backend="sw", engine=None):
    """hmac.digest: the MAC of one message at once (msg is required: None is a TypeError, as in
    the standard library, not an empty message). With a named digest the key may be any
    bytes-like object (memoryview, array), as the standard library's fast path takes it."""
    if isinstance(digest, str) and not isinstance(key, (bytes, bytearray)):
        key = bytes(memoryview(key))  # (a str is a TypeError here, as there)
    mac = new(key, None, digest, backend=backend, engine=engine)
    mac.update(msg)
    return mac.digest()


def hmac_many(keys, messages, digestmod, *, backend="sw", engine=None):
    """The MACs (a list of bytes) of many messages, in order: what `[digest(k, m, digestmod,
    backend=..., engine=...) for k, m in zip(keys, messages)]` gives, with one call. `keys` is
    one key (bytes) for every message or a sequence of keys, one per message (IPsec: each
    packet under its security association's key). With a MAC engine
    (`engine="hmac-sha256:opt:p4"`) on the `soc` or `pynq` backend, the HMAC peripheral's
    batch walker computes them: the distinct keys go into its key slots, as many at a time as
    it has, and their messages are one batch in their order, each naming its key slot.
    Otherwise each distinct key's inner and
    outer hashes are started once and copied for each of its messages. HMAC-SHA-256-128
    (RFC 4868, IPsec's ESP and AH) is the first 16 bytes of each HMAC-SHA-256."""
    messages = [bytes(hashobj._as_bytes(m)) for m in messages]
    if isinstance(keys, (bytes, bytearray)):
        keys = [bytes(keys)] * len(messages)
    else:
        keys = list(keys)
        for k in keys:
            if not isinstance(k, (bytes, bytearray)):
                raise TypeError(f"key: expected bytes or bytearray, but got {type(k).__name__!r}")
        if len(keys) != len(messages):
            raise ValueError(f"{len(keys)} keys for {len(messages)} messages: give one each")
        keys = [bytes(k) for k in keys]
    if _is_mac_engine(engine):
        first = EngineHMAC(b"", None, digestmod, backend, engine)  # the arguments' checks
        return first._backend.mac_many(first._spec, keys, messages)
    _constructor(digestmod, backend, engine)  # its errors, with messages or without
    started = {}
    out = []
    for k, m in zip(keys, messages):
        h = started.get(k)
        if h is None:
            h = started[k] = HMAC(k, None, digestmod, backend=backend, engine=engine)
        h = h.copy()
        h.update(m)
        out.append(h.digest())
    return out
