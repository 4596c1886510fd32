"""LiteDigest: hashing on FPGA SoCs, with a hashlib-style Python API.

    import litedigest
    h = litedigest.new("sha256", b"abc", backend="sw")   # or backend="rtl" / "soc"
    h.hexdigest()
    litedigest.sha224(b"abc", engine="sha224:base", backend="rtl").digest()

Backends: `sw` (the C library on the host via cffi), `rtl` (an engine alone in simulation),
`soc` (the simulated SoC), `pynq` (the LiteDigest overlay on a PYNQ board, or the simulated
SoC behind the same driver on request: litedigest.backends.pynq). `engine` is an engine spec
string (litedigest.spec).
"""
from . import spec
from .hashobj import HashObject, hash_many, new

__all__ = ["new", "hash_many", "sha256", "sha224", "skein512", "algorithms_available", "algorithms_guaranteed",
           "native_sha256", "HashObject", "spec"]

algorithms_available = frozenset(spec.ALGORITHMS)
algorithms_guaranteed = algorithms_available


def sha256(data=b"", *, backend="sw", engine=None):
    return new("sha256", data, backend=backend, engine=engine)


def sha224(data=b"", *, backend="sw", engine=None):
    return new("sha224", data, backend=backend, engine=engine)


def skein512(data=b"", *, digest_bits=512, key=b"", backend="sw", engine=None):
    """Skein-512 with any output length, MAC when `key` is given (litedigest.skein)."""
    return new("skein512", data, digest_bits=digest_bits, key=key, backend=backend, engine=engine)


def native_sha256(data, variant="sha256"):
    """The C library's own one-shot ld_sha256 (its buffering and padding), variant
    "sha256"/"sha224" (or LD_SHA256/LD_SHA224)."""
    from . import native
    return native.sha256(data, variant)
