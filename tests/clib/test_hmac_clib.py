# SPDX-License-Identifier: BSD-2-Clause
"""HMAC of the C library (ld_hmac.h, software/firmware/lib/src/hmac.c) through the cffi binding
(litedigest._clib._native) against Python's hmac: random keys of 0..300 bytes (shorter than, equal
to and longer than both block sizes), random messages fed in random update splits, every
algorithm; copies, verification with truncated MACs, and the errors. The RFC 2202 / RFC 4231
test cases and the wiping checks are in software/firmware/tests/test_hmac.c (tests/clib/test_clib.py
runs it)."""

import hashlib
import hmac
import random

import pytest
from litedigest import _clib as native
from litedigest._clib._native import ffi, lib
from vectors import copies_diverge, fed_in_random_steps

MD_NAMES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]


def _key_lengths(rng, bs):
    """the lengths around the block size (hashed or not), then random ones up to 300"""
    return [0, 1, bs - 1, bs, bs + 1, 300] + [rng.randrange(0, 301) for _ in range(30)]


class _Ctx:
    """ld_hmac_init/update/final on a cffi context"""

    def __init__(self, alg, key):
        self.alg, self.ctx = alg, ffi.new("ld_hmac_ctx *")
        assert lib.ld_hmac_init(self.ctx, alg, key, len(key)) == lib.LD_OK

    def update(self, data):
        assert lib.ld_hmac_update(self.ctx, data, len(data)) == lib.LD_OK

    def copy(self):
        other = _Ctx.__new__(_Ctx)
        other.alg, other.ctx = self.alg, ffi.new("ld_hmac_ctx *")
        assert lib.ld_hmac_copy(other.ctx, self.ctx) == lib.LD_OK
        return other

    def final(self):
        out = ffi.new(f"uint8_t[{lib.LD_HMAC_MAX_SIZE}]")
        assert lib.ld_hmac_final(self.ctx, out) == lib.LD_OK
        return bytes(ffi.buffer(out, lib.ld_hmac_size(self.alg)))


def _streamed(alg, key, msg, rng, maxstep):
    return fed_in_random_steps(_Ctx(alg, key), msg, rng, maxstep)


@pytest.mark.parametrize("name", MD_NAMES)
def test_hmac_random_vs_python(name):
    rng = random.Random("hmac" + name)
    alg = native.md_alg(name)
    bs = hashlib.new(name).block_size
    assert lib.ld_hmac_size(alg) == hashlib.new(name).digest_size
    for keylen in _key_lengths(rng, bs):
        key = rng.randbytes(keylen)
        for _ in range(4):
            msg = rng.randbytes(
                rng.choice([0, 1, bs - 1, bs, bs + 1, rng.randrange(0, 3 * bs + 50)])
            )
            want = hmac.digest(key, msg, name)
            assert native.hmac(name, key, msg) == want, (keylen, len(msg))
            assert _streamed(alg, key, msg, rng, bs + 20) == want, (keylen, len(msg))
            assert native.hmac_verify(name, key, msg, want)
            cut = rng.randint(10, len(want))
            assert native.hmac_verify(name, key, msg, want[:cut])
            bad = bytearray(want[:cut])
            bad[rng.randrange(cut)] ^= 1 << rng.randrange(8)
            assert not native.hmac_verify(name, key, msg, bytes(bad))


@pytest.mark.parametrize("name", MD_NAMES)
def test_hmac_copy_vs_python(name):
    """a context copied after init and part-way through a message, each copy going its own
    way: as hmac.HMAC.copy()"""
    rng = random.Random("copy" + name)
    alg = native.md_alg(name)
    for _ in range(10):
        key = rng.randbytes(rng.randrange(0, 301))
        a, h = _Ctx(alg, key), hmac.new(key, digestmod=name)
        copies_diverge(a, h, rng, 5, lambda c: c.final())
        assert a.final() == h.digest()


def test_hmac_errors():
    out = ffi.new(f"uint8_t[{lib.LD_HMAC_MAX_SIZE}]")
    ctx = ffi.new("ld_hmac_ctx *")  # never initialised
    assert lib.ld_hmac_update(ctx, b"a", 1) == lib.LD_ERR_STATE
    assert lib.ld_hmac_final(ctx, out) == lib.LD_ERR_STATE
    for bad in (-1, lib.LD_ALG_COUNT, lib.LD_ALG_SKEIN512_BASE + 256):
        assert lib.ld_hmac_size(bad) == 0
        assert lib.ld_hmac_init(ctx, bad, b"k", 1) == lib.LD_ERR_ARG
        assert lib.ld_hmac(bad, b"k", 1, b"a", 1, out) == lib.LD_ERR_ARG
    with pytest.raises(ValueError):
        native.hmac("md5", b"k", b"a")
    with pytest.raises(native.ArgumentError):
        native.hmac(lib.LD_ALG_SKEIN512_BASE + 256, b"k", b"a")
    # after final: refused until init again
    assert lib.ld_hmac_init(ctx, lib.LD_ALG_SHA256, b"k", 1) == lib.LD_OK
    assert lib.ld_hmac_final(ctx, out) == lib.LD_OK
    assert lib.ld_hmac_final(ctx, out) == lib.LD_ERR_STATE
    assert lib.ld_hmac_update(ctx, b"a", 1) == lib.LD_ERR_STATE
    # verify: truncation bounds, a mismatch is its own code
    mac = hmac.digest(b"k", b"msg", "sha256")
    # the other codes run from LD_OK (0) down to LD_ERR_RANGE (test_clib.py's
    # test_call_order_errors)
    assert lib.LD_ERR_MISMATCH not in range(lib.LD_ERR_RANGE, lib.LD_OK + 1)
    assert (
        lib.ld_hmac_verify(lib.LD_ALG_SHA256, b"k", 1, b"msg", 3, bytes(32), 32)
        == lib.LD_ERR_MISMATCH
    )
    assert lib.LD_HMAC_MIN_VERIFY_SIZE == 10
    for cut in (0, 9, 33):
        with pytest.raises(native.ArgumentError):
            native.hmac_verify("sha256", b"k", b"msg", (mac + b"x")[:cut])
    assert native.hmac_verify("sha256", b"k", b"msg", mac[:10])
    assert lib.ld_ct_equal(b"abcd", b"abcd", 4) == 1 and lib.ld_ct_equal(b"abcd", b"abce", 4) == 0
