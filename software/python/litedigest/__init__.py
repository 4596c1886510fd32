# SPDX-License-Identifier: BSD-2-Clause
"""LiteDigest: hashing on FPGA SoCs, with a hashlib-style Python API::

    import litedigest
    h = litedigest.new("sha256", b"abc", backend="sw")   # or backend="rtl" / "soc"
    h.hexdigest()
    litedigest.sha224(b"abc", engine="sha224:base", backend="rtl").digest()

Backends: `sw` (the C library on the host via cffi), `rtl` (an engine alone in simulation),
`soc` (the simulated SoC), `pynq` (the LiteDigest overlay on a PYNQ board, or the simulated
SoC behind the same driver on request: litedigest.backends.pynq). `engine` is an engine spec
string (litedigest.spec).
"""

from litedigest import spec
from litedigest.api import file_digest, hash_many, new
from litedigest.hashobj import SHA_ALGORITHMS, HashObject
from litedigest.hmac import hmac_many

# hashlib's named constructors: one per SHA-family algorithm of the catalogue (sha1, sha224,
# sha256, sha384, sha512, sha512_224, sha512_256, made below), and skein512
__all__ = [
    "__version__",
    "new",
    "file_digest",
    "hash_many",
    "hmac_many",
    *SHA_ALGORITHMS,
    "skein512",
    "algorithms_available",
    "algorithms_guaranteed",
    "native_sha256",
    "HashObject",
    "spec",
]


def _version():
    """The installed distribution's version; in a source tree that is not installed, the file
    the package's build reads it from (software/firmware/lib/VERSION, the C library's too)."""
    import importlib.metadata
    import os

    try:
        return importlib.metadata.version("litedigest")
    except importlib.metadata.PackageNotFoundError:
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "firmware", "lib", "VERSION")) as f:
            return f.read().strip()


__version__ = _version()

algorithms_available = frozenset(spec.ALGORITHMS)
algorithms_guaranteed = algorithms_available


def _constructor(name):
    """litedigest.<name>(data, backend=..., engine=...), as hashlib.<name>(data)."""

    def construct(data=b"", *, backend="sw", engine=None, usedforsecurity=True, string=None):
        return new(
            name,
            data,
            backend=backend,
            engine=engine,
            usedforsecurity=usedforsecurity,
            string=string,
        )

    construct.__name__ = construct.__qualname__ = name
    construct.__doc__ = f"new({name!r}, data, backend=..., engine=...): hashlib.{name}'s signature."
    return construct


globals().update({alg: _constructor(alg) for alg in SHA_ALGORITHMS})


def skein512(
    data=b"", *, digest_bits=512, key=b"", backend="sw", engine=None, usedforsecurity=True
):
    """Skein-512 with any output length, MAC when `key` is given (litedigest.skein)."""
    return new(
        "skein512",
        data,
        digest_bits=digest_bits,
        key=key,
        backend=backend,
        engine=engine,
        usedforsecurity=usedforsecurity,
    )


def native_sha256(data, variant="sha256"):
    """The C library's own one-shot ld_sha256 (its buffering and padding), variant
    "sha256"/"sha224" (or LD_SHA256/LD_SHA224)."""
    from litedigest import _clib as native

    return native.sha256(data, variant)
