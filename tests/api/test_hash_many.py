# SPDX-License-Identifier: BSD-2-Clause
"""litedigest.hash_many: the digests of many messages with one call, against hashlib. On the `soc`
backend's DMA path the peripheral's batch walker hashes them (hardware padding, the chaining values
written back to RAM); on `sw` one context each. Random lengths (0 and block boundaries included),
every algorithm of the SoC's SHA peripherals and Skein-512's configured sizes, bad input."""

import hashlib
import random

import litedigest
import pytest


def _messages(seed, n):
    rng = random.Random(seed)
    lens = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129] + [
        rng.randrange(600) for _ in range(n)
    ]
    return [rng.randbytes(k) for k in lens]


def _want(alg, msgs):
    return [hashlib.new(alg.replace("-", "_"), m).digest() for m in msgs]


@pytest.mark.parametrize("alg", ["sha256", "sha1", "sha512", "sha384"])
def test_sw(alg):
    msgs = _messages(1, 20)
    assert litedigest.hash_many(alg, msgs) == _want(alg, msgs)


def test_bad_input():
    with pytest.raises(ValueError):
        litedigest.hash_many("md5", [b"x"])
    with pytest.raises(TypeError):
        litedigest.hash_many("sha256", ["text"])
    with pytest.raises(TypeError):
        litedigest.hash_many("sha256", [None])
    assert litedigest.hash_many("sha256", []) == []


@pytest.mark.parametrize(
    "alg,engine",
    [
        ("sha256", "sha256:opt"),
        ("sha224", None),
        ("sha1", "sha1:opt"),
        ("sha512", "sha512:k5"),
        ("sha512_256", None),
    ],
)
@pytest.mark.soc
def test_soc_batch_walker(alg, engine):
    spec = litedigest.spec.parse(engine or alg, default_algorithm=alg)
    be = litedigest.backends.get_backend("soc", spec.engine_name)
    assert be.hw.dev.batch_base != 0  # the walker is used, not the one-by-one fallback
    msgs = _messages(hash(alg) & 0xFFFF, 40)
    assert litedigest.hash_many(alg, msgs, backend="soc", engine=engine) == _want(alg, msgs)
    # the peripheral is usable afterwards by the streaming path
    h = litedigest.new(alg, b"abc", backend="soc", engine=engine)
    assert h.digest() == hashlib.new(alg, b"abc").digest()


# --- Skein-512: new()'s digest_bits and key; the batch walker for the configured sizes -------


def _skein_want(bits, msgs, key=b""):
    import skein as pyskein

    return [pyskein.skein512(m, digest_bits=bits, key=key).digest() for m in msgs]


@pytest.mark.parametrize(
    "name,bits,key",
    [
        ("skein512", None, b""),
        ("skein512-256", None, b""),
        ("skein512", 1000, b""),
        ("skein512", 200, b"k" * 70),
    ],
)
def test_skein_sw(name, bits, key):
    msgs = _messages(7, 10)
    want_bits = bits or (256 if name.endswith("256") else 512)
    assert litedigest.hash_many(name, msgs, digest_bits=bits, key=key) == _skein_want(
        want_bits, msgs, key
    )


def test_skein_bad_input():
    with pytest.raises(ValueError, match="digest_bits"):
        litedigest.hash_many("skein512", [b"x"], digest_bits=0)
    with pytest.raises(TypeError):
        litedigest.hash_many("skein512", [b"x"], key="text")
    with pytest.raises(TypeError):
        litedigest.hash_many("skein512", ["text"])
    with pytest.raises(ValueError, match="not a Skein-512 engine"):
        litedigest.hash_many("skein512", [b"x"], engine="sha256:opt")
    with pytest.raises(TypeError, match="Skein-512 arguments"):
        litedigest.hash_many("sha256", [b"x"], digest_bits=256)
    assert litedigest.hash_many("skein512", []) == []


@pytest.mark.soc
def test_skein_soc_batch_walker(monkeypatch):
    """The configured sizes go through the walker in one call each (the peripheral pads,
    makes the tweaks and the output block); a keyed or other-size hash goes one by one."""
    be = litedigest.backends.get_backend("soc", "skein512:r8")
    assert be.hw.dev.batch_base != 0
    batches = []
    walker = be.hw.hash_many
    monkeypatch.setattr(
        be.hw, "hash_many", lambda alg, m, rb: batches.append(alg) or walker(alg, m, rb)
    )
    msgs = _messages(11, 12)
    for bits in (512, 384, 256, 224, 160, 128):
        assert litedigest.hash_many(
            "skein512", msgs, digest_bits=bits, backend="soc", engine="skein512:r8"
        ) == _skein_want(bits, msgs)
    assert batches == [f"skein512-{b}" for b in (512, 384, 256, 224, 160, 128)]
    assert litedigest.hash_many(
        "skein512-256", msgs[:4], key=b"mac key", backend="soc", engine="skein512:r8"
    ) == _skein_want(256, msgs[:4], b"mac key")
    assert litedigest.hash_many(
        "skein512", msgs[:4], digest_bits=200, backend="soc", engine="skein512:r8"
    ) == _skein_want(200, msgs[:4])
    assert len(batches) == 6
    # the peripheral is usable afterwards by the streaming path
    assert (
        litedigest.new("skein512", b"abc", backend="soc").digest() == _skein_want(512, [b"abc"])[0]
    )
