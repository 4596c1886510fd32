# SPDX-License-Identifier: BSD-2-Clause
"""litedigest.hmac against RFC 2202 / RFC 4231 (cryptography-vectors) and Python's hmac:
random keys of 0..300 bytes, random message lengths and update splits, every SHA algorithm;
the standard library's API and errors."""

import copy
import functools
import hashlib
import hmac as std_hmac
import random
import types

import litedigest
import pytest
from litedigest import hmac as ld_hmac
from vectors import HMAC_VECTOR_FILES as VECTOR_FILES
from vectors import load_hmac_vectors as load_vectors

cryptography_vectors = pytest.importorskip("cryptography_vectors")

SHA_ALGS = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256")


@pytest.mark.parametrize("alg", sorted(VECTOR_FILES))
def test_rfc_vectors(alg):
    cases = load_vectors(alg)
    assert len(cases) >= 6
    for key, msg, mac in cases:
        assert ld_hmac.new(key, msg, alg).digest() == mac
        assert ld_hmac.digest(key, msg, alg) == mac
        assert std_hmac.compare_digest(ld_hmac.new(key, msg, alg).hexdigest(), mac.hex())


def test_rfc4231_truncated_output():
    """RFC 4231 case 5 (truncation to 128 bits; not in cryptography-vectors): the MAC's prefix."""
    key, msg = b"\x0c" * 20, b"Test With Truncation"
    for alg in ("sha224", "sha256", "sha384", "sha512"):
        want = std_hmac.new(key, msg, alg).digest()[:16]
        got = ld_hmac.new(key, msg, alg).digest()[:16]
        assert ld_hmac.compare_digest(got, want)


@pytest.mark.parametrize("alg", SHA_ALGS)
def test_random_against_python_hmac(alg):
    rng = random.Random(f"hmac/{alg}")
    for _ in range(40):
        key = rng.randbytes(rng.randrange(0, 301))
        msg = rng.randbytes(
            rng.choice([0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, rng.randrange(0, 1000)])
        )
        want = std_hmac.new(key, msg, lambda d=b"": hashlib.new(alg, d)).digest()
        h = ld_hmac.new(key, digestmod=alg)
        i = 0
        while i < len(msg):  # random update splits, empty ones included
            n = rng.randrange(0, 150)
            h.update(msg[i : i + n])
            i += n
        assert h.digest() == want, (len(key), len(msg))
        assert h.digest() == want  # digest() does not finish the object
        h.update(b"x")
        assert h.digest() == std_hmac.new(key, msg + b"x", alg).digest()


@pytest.mark.rtl
@pytest.mark.parametrize("alg", ["sha256", "sha1"])
def test_rtl_backend(alg):
    """The MAC on an engine in simulation (the rtl backend): 4 keys and lengths."""
    rng = random.Random(f"hmac-rtl/{alg}")
    for klen, mlen in ((0, 0), (20, 64), (64, 65), (131, 200)):
        key, msg = rng.randbytes(klen), rng.randbytes(mlen)
        h = ld_hmac.new(key, msg, alg, backend="rtl")
        assert h.digest() == std_hmac.new(key, msg, alg).digest()


def test_api_as_the_standard_library():
    h = ld_hmac.new(b"key", b"abc", digestmod="sha256")
    s = std_hmac.new(b"key", b"abc", digestmod="sha256")
    assert (h.name, h.digest_size, h.block_size) == (s.name, s.digest_size, s.block_size)
    assert ld_hmac.new(b"key", digestmod="SHA-512").name == "hmac-sha512"
    c = h.copy()
    c.update(b"def")
    assert h.digest() == s.digest()  # the copy is independent
    assert c.digest() == std_hmac.new(b"key", b"abcdef", "sha256").digest()
    for other in (copy.copy(h), copy.deepcopy(h)):
        other.update(b"!")
        assert h.digest() == s.digest()
    # a constructor as digestmod, its own backend
    assert (
        ld_hmac.new(b"k", b"m", litedigest.sha384).digest()
        == std_hmac.new(b"k", b"m", "sha384").digest()
    )
    assert (
        ld_hmac.new(bytearray(b"k"), b"m", "sha1").digest()
        == std_hmac.new(b"k", b"m", "sha1").digest()
    )
    assert ld_hmac.compare_digest is std_hmac.compare_digest
    # a module with new() (PEP 247), as the standard library takes it
    module = types.SimpleNamespace(new=hashlib.sha512)
    assert ld_hmac.new(b"k", b"m", module).digest() == std_hmac.new(b"k", b"m", module).digest()


def test_skein512_as_the_hash():
    """RFC 2104 over Skein-512-256 (block 64 bytes): the construction, checked by hand."""
    key, msg = b"k" * 10, b"message"
    k0 = key.ljust(64, b"\0")
    inner = litedigest.new("skein512-256", bytes(b ^ 0x36 for b in k0) + msg).digest()
    want = litedigest.new("skein512-256", bytes(b ^ 0x5C for b in k0) + inner).digest()
    assert ld_hmac.new(key, msg, "skein512-256").digest() == want


class _SmallBlockSHA256:
    """A PEP 247 hash object whose block size is too
    small for HMAC (or absent: `block_size=None`)."""

    digest_size = 32

    def __init__(self, data=b"", block_size=8):
        self._h = hashlib.sha256(data)
        if block_size is not None:
            self.block_size = block_size

    def update(self, data):
        self._h.update(data)

    def copy(self):
        c = _SmallBlockSHA256(block_size=getattr(self, "block_size", None))
        c._h = self._h.copy()
        return c

    def digest(self):
        return self._h.digest()

    def hexdigest(self):
        return self._h.hexdigest()


@pytest.mark.parametrize("block_size", [8, None])
def test_small_or_missing_block_size_as_the_standard_library(block_size):
    """A hash with a block size under 16 bytes, or none, is keyed over 64 bytes with a
    RuntimeWarning, as hmac.new does (not refused)."""
    make = functools.partial(_SmallBlockSHA256, block_size=block_size)
    key = bytes(range(70))  # longer than 64: hashed first
    with pytest.warns(RuntimeWarning) as ours:
        h = ld_hmac.new(key, b"msg", make)
    with pytest.warns(RuntimeWarning) as theirs:
        s = std_hmac.new(key, b"msg", make)
    assert str(ours[0].message) == str(theirs[0].message)
    assert h.block_size == s.block_size == 64
    assert h.digest() == s.digest() == std_hmac.new(key, b"msg", "sha256").digest()
    with pytest.raises(TypeError):
        ld_hmac.new(b"k", b"m", functools.partial(_SmallBlockSHA256, block_size="64"))


def test_errors_as_the_standard_library():
    with pytest.raises(TypeError):
        ld_hmac.new(b"key", b"msg")  # digestmod is required
    with pytest.raises(TypeError):
        ld_hmac.new(b"key", b"msg", None)
    with pytest.raises(TypeError):
        ld_hmac.new("key", b"msg", "sha256")  # a str key
    with pytest.raises(TypeError):
        ld_hmac.new(memoryview(b"key"), b"msg", "sha256")  # the standard library refuses it too
    with pytest.raises(ValueError):
        ld_hmac.new(b"key", b"msg", "md5x")
    with pytest.raises(TypeError):
        ld_hmac.new(b"key", "msg", "sha256")  # a str message
    with pytest.raises(TypeError):
        ld_hmac.new(b"key", b"msg", 5)
    with pytest.raises(TypeError):
        std_hmac.digest(b"key", None, "sha256")
    with pytest.raises(TypeError):
        ld_hmac.digest(b"key", None, "sha256")  # one-shot: the message is required
    # after an error the module still works
    assert ld_hmac.digest(b"key", b"msg", "sha256") == std_hmac.digest(b"key", b"msg", "sha256")


def test_digest_takes_a_bytes_like_key_as_the_standard_library():
    import array
    import hmac as std

    from litedigest import hmac as ld

    for key in (memoryview(b"key"), array.array("B", b"key"), bytearray(b"key")):
        assert ld.digest(key, b"msg", "sha256") == std.digest(key, b"msg", "sha256")
    with pytest.raises(TypeError):
        ld.digest("key", b"msg", "sha256")


@pytest.mark.parametrize("alg", SHA_ALGS)
def test_hmac_many_against_python_hmac(alg):
    """hmac_many: a key per message (a few keys shared, as security associations) or one key
    for all, any bytes-like messages, in order, equal to Python's hmac one at a time."""
    rng = random.Random("many" + alg)
    sas = [rng.randbytes(rng.choice([0, 16, 32, 200])) for _ in range(3)]
    msgs = [rng.randbytes(rng.choice([0, 1, 64, 576, 1500])) for _ in range(30)]
    keys = [rng.choice(sas) for _ in msgs]
    want = [std_hmac.new(k, m, alg).digest() for k, m in zip(keys, msgs)]
    assert ld_hmac.hmac_many(keys, msgs, alg) == want
    assert litedigest.hmac_many(keys, [bytearray(m) for m in msgs], alg) == want
    assert ld_hmac.hmac_many(b"one", [memoryview(m) for m in msgs], alg) == [
        std_hmac.new(b"one", m, alg).digest() for m in msgs
    ]
    # HMAC-SHA-256-128 (RFC 4868): the first 16 bytes
    assert [m[:16] for m in ld_hmac.hmac_many(keys, msgs, alg)] == [w[:16] for w in want]


def test_hmac_many_errors():
    with pytest.raises(ValueError, match="2 keys for 1 messages"):
        ld_hmac.hmac_many([b"a", b"b"], [b"m"], "sha256")
    with pytest.raises(TypeError):
        ld_hmac.hmac_many(["text key"], [b"m"], "sha256")
    with pytest.raises(TypeError):
        ld_hmac.hmac_many(b"k", ["text"], "sha256")
    with pytest.raises(TypeError):
        ld_hmac.hmac_many(b"k", [b"m"], None)
    with pytest.raises(ValueError):
        ld_hmac.hmac_many(b"k", [b"m"], "md5")
    assert ld_hmac.hmac_many(b"k", [], "sha256") == []
    with pytest.raises(TypeError):
        ld_hmac.hmac_many(b"k", [], "")
