"""litedigest.hash_many: the digests of many messages with one call, against hashlib. On the
`soc` backend's DMA path the peripheral's batch walker hashes them (hardware padding, the
chaining values written back to RAM); on `sw` one context each. Random lengths (0 and block
boundaries included), every algorithm of the SoC's SHA peripherals, bad input."""
import hashlib
import random

import pytest

import litedigest


def _messages(seed, n):
    rng = random.Random(seed)
    lens = [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129] + [rng.randrange(600) for _ in range(n)]
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


@pytest.mark.parametrize("alg,engine", [("sha256", "sha256:opt"), ("sha224", None),
                                        ("sha1", "sha1:opt"), ("sha512", "sha512:k5"),
                                        ("sha512_256", None)])
def test_soc_batch_walker(alg, engine):
    spec = litedigest.spec.parse(engine or alg, default_algorithm=alg)
    be = litedigest.backends.get_backend("soc", spec.engine_name)
    assert be.hw.dev.batch_base != 0      # the walker is used, not the one-by-one fallback
    msgs = _messages(hash(alg) & 0xFFFF, 40)
    assert litedigest.hash_many(alg, msgs, backend="soc", engine=engine) == _want(alg, msgs)
    # the peripheral is usable afterwards by the streaming path
    h = litedigest.new(alg, b"abc", backend="soc", engine=engine)
    assert h.digest() == hashlib.new(alg, b"abc").digest()
