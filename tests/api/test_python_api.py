# SPDX-License-Identifier: BSD-2-Clause
"""litedigest's hashlib-style API on the sw backend, against hashlib and NIST CAVP vectors."""

import hashlib
import random
import re

import litedigest
import pytest
from litedigest import _clib as native
from litedigest import backends
from vectors import load_cavp, load_monte, monte_check


@pytest.mark.parametrize(
    "name",
    [
        "SHA256ShortMsg",
        "SHA256LongMsg",
        "SHA224ShortMsg",
        "SHA224LongMsg",
        "SHA1ShortMsg",
        "SHA1LongMsg",
        "SHA384ShortMsg",
        "SHA512LongMsg",
        "SHA512_224ShortMsg",
        "SHA512_256ShortMsg",
    ],
)
def test_cavp(name):
    algo = re.match(r"SHA\d+(_\d+)?", name).group(0).lower()
    for msg, md in load_cavp(name):
        h = litedigest.new(algo, msg)
        assert h.digest() == md
        assert h.hexdigest() == md.hex()


@pytest.mark.parametrize("algo", ["sha256", "sha1"])
def test_monte_two_checkpoints(algo):
    seed, mds = load_monte(f"{algo.upper()}Monte")
    assert monte_check(lambda m: litedigest.new(algo, m).digest(), seed, mds, iterations=2) == 2


@pytest.mark.parametrize("algo", ["sha1", "sha256", "sha224", "sha384", "sha512", "sha512_256"])
def test_random_lengths_and_splits(algo):
    rng = random.Random(algo)
    lengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 16383, 16384, 16385, 40000] + [
        rng.randrange(0, 5000) for _ in range(60)
    ]
    for n in lengths:
        msg = rng.randbytes(n)
        h = litedigest.new(algo)
        pos = 0
        while pos < n:
            step = rng.choice([0, 1, 7, 63, 64, 65, 1000, 20000])
            h.update(msg[pos : pos + step])
            pos += step
        assert h.digest() == hashlib.new(algo, msg).digest(), n


def test_attributes():
    for algo, ds in (("sha256", 32), ("sha224", 28)):
        h = litedigest.new(algo)
        ref = hashlib.new(algo)
        assert (
            (h.name, h.digest_size, h.block_size)
            == (ref.name, ref.digest_size, ref.block_size)
            == (algo, ds, 64)
        )
    assert litedigest.algorithms_available == {
        "sha1",
        "sha256",
        "sha224",
        "sha384",
        "sha512",
        "sha512_224",
        "sha512_256",
        "skein512",
    } | {f"skein512-{n}" for n in (128, 160, 224, 256, 384, 512)}
    assert litedigest.sha224(b"abc").hexdigest() == hashlib.sha224(b"abc").hexdigest()
    assert litedigest.new("SHA256", b"abc").digest() == hashlib.sha256(b"abc").digest()


def test_input_types():
    ref = hashlib.sha256(b"abcdef").digest()
    for data in (b"abcdef", bytearray(b"abcdef"), memoryview(b"abcdef")):
        assert litedigest.sha256(data).digest() == ref
    import array

    a = array.array("I", [1, 2, 3])
    assert litedigest.sha256(a).digest() == hashlib.sha256(a).digest()
    with pytest.raises(TypeError, match="Strings must be encoded"):
        litedigest.sha256("abc")
    with pytest.raises(TypeError):
        litedigest.sha256().update("abc")
    with pytest.raises(TypeError):
        litedigest.sha256(12)


def test_digest_does_not_change_state_and_copy():
    h = litedigest.sha256(b"x" * 100)
    d1 = h.digest()
    assert h.digest() == d1  # twice: same value
    c = h.copy()
    h.update(b"more")  # update after digest is fine
    assert h.digest() == hashlib.sha256(b"x" * 100 + b"more").digest()
    assert c.digest() == d1  # the copy is independent
    c.update(b"other" * 5000)
    assert c.digest() == hashlib.sha256(b"x" * 100 + b"other" * 5000).digest()
    assert h.digest() == hashlib.sha256(b"x" * 100 + b"more").digest()
    # copy of a state with compressed chunks and a partial buffer
    big = litedigest.sha224(b"y" * 40001)
    cp = big.copy()
    cp.update(b"z")
    assert big.digest() == hashlib.sha224(b"y" * 40001).digest()
    assert cp.digest() == hashlib.sha224(b"y" * 40001 + b"z").digest()


def test_errors():
    with pytest.raises(ValueError, match="unsupported hash type md5"):
        litedigest.new("md5")
    with pytest.raises(ValueError, match="unknown backend"):
        litedigest.new("sha256", backend="gpu")
    with pytest.raises(ValueError, match="sha224"):
        litedigest.new("sha256", engine="sha224:opt")  # engine of another algorithm
    with pytest.raises(ValueError, match="unknown architecture"):
        litedigest.new("sha256", engine="sha256:fast")
    with pytest.raises(ValueError):
        litedigest.new("sha256", engine="sha256:opt:p0")
    # sw ignores the architecture, but the spec is validated and kept
    h = litedigest.new("sha256", b"abc", engine="sha256:base")
    assert h.engine == "sha256:base" and h.digest() == hashlib.sha256(b"abc").digest()


def test_backend_registry(monkeypatch):
    sw1 = backends.get_backend("sw", "sha256:opt:p1")
    assert backends.get_backend("sw", "sha256:opt:p1") is sw1  # cached
    assert sw1.name == "sw" and isinstance(sw1, backends.Backend)
    with pytest.raises(ValueError):
        backends.get_backend("nope")
    monkeypatch.setattr(backends, "BACKENDS", backends.BACKENDS + ("missing_backend",))
    with pytest.raises(ValueError, match="not available"):
        backends.get_backend("missing_backend")


def test_backend_context_contract():
    """A backend hands out C contexts: update, copy (independent), digest (of a copy: the
    context goes on), final (once)."""
    from litedigest import spec

    be = backends.get_backend("sw")
    for algo in ("sha256", "sha224", "sha1", "sha512_256"):
        ctx = be.md_context(spec.parse(algo))
        ctx.update(b"abc")
        cp = ctx.copy()
        cp.update(b"def")
        assert ctx.digest() == hashlib.new(algo, b"abc").digest()
        assert cp.digest() == hashlib.new(algo, b"abcdef").digest()
        ctx.update(b"def")
        assert ctx.final() == cp.final()
        with pytest.raises(native.NativeError):
            ctx.update(b"more")


def test_hash_objects_delegate_to_the_backend_context():
    """The hash object keeps no bytes of its own: every update reaches the backend's C
    context (the buffering and padding are the C library's)."""
    seen = []

    class Spy(backends.Backend):
        name = "spy"

        def md_context(self, spec):
            ctx = backends.get_backend("sw").md_context(spec)
            update = ctx.update
            ctx.update = lambda data: (seen.append(len(data)), update(data))
            return ctx

    h = litedigest.sha256()
    h._ctx = Spy().md_context(h._spec)
    data = random.Random(5).randbytes(100000)
    h.update(data[:7])
    h.update(data[7:])
    assert seen == [7, 100000 - 7]
    assert h.digest() == hashlib.sha256(data).digest()


def test_native_streaming_api():
    rng = random.Random(9)
    for n in (0, 55, 56, 64, 1000):
        msg = rng.randbytes(n)
        assert litedigest.native_sha256(msg) == hashlib.sha256(msg).digest()
        assert litedigest.native_sha256(msg, "sha224") == hashlib.sha224(msg).digest()


@pytest.mark.parametrize(
    "name",
    [
        "sha1",
        "sha224",
        "sha256",
        "sha384",
        "sha512",
        "sha512_224",
        "sha512_256",
        "skein512",
        "skein512-256",
    ],
)
def test_copy_module_makes_real_copies(name):
    """copy.copy and copy.deepcopy of a hash object are independent copies (each owns its C
    context): updating one never changes the other's digest."""
    import copy

    h = litedigest.new(name, b"abc")
    ref = h.digest()
    for dup in (copy.copy(h), copy.deepcopy(h), h.copy()):
        dup.update(b"more")
        assert h.digest() == ref and dup.digest() != ref
        expected = litedigest.new(name, b"abcmore").digest()
        assert dup.digest() == expected
