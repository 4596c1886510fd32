# SPDX-License-Identifier: BSD-2-Clause
"""Property-based tests (Hypothesis) of the Python API against the standard library and pyskein,
on the `sw` backend (the C library's software hashes and host protocol, which every backend
shares): any data, any update splits, copies taken anywhere, HMAC with any key, Skein-512 with
any output size and key; and bad input types and sizes, which must raise what hashlib raises
and leave the object usable. Example counts are bounded so the file takes seconds."""

import hashlib
import hmac as std_hmac

import litedigest
import pytest
import skein  # pyskein (the test extra)
from hypothesis import given, settings  # (the test extra)
from hypothesis import strategies as st
from litedigest import hmac as ld_hmac

SHA = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]
SETTINGS = settings(max_examples=60, deadline=None)


def _splits(data, cuts):
    """data cut at the (sorted, clipped) positions `cuts`."""
    pos = sorted({min(c, len(data)) for c in cuts})
    out, last = [], 0
    for p in pos + [len(data)]:
        out.append(data[last:p])
        last = p
    return out


@SETTINGS
@given(
    alg=st.sampled_from(SHA),
    data=st.binary(max_size=600),
    cuts=st.lists(st.integers(0, 600), max_size=6),
    at=st.integers(0, 6),
)
def test_sha_streams_and_copies_like_hashlib(alg, data, cuts, at):
    h, ref = litedigest.new(alg), hashlib.new(alg)
    pieces = _splits(data, cuts)
    copy = None
    for i, p in enumerate(pieces):
        if i == min(at, len(pieces) - 1):
            copy, copy_ref = h.copy(), ref.copy()
        h.update(p)
        ref.update(p)
    assert h.digest() == ref.digest() and h.hexdigest() == ref.hexdigest()
    copy.update(b"tail")
    copy_ref.update(b"tail")
    assert copy.digest() == copy_ref.digest()
    assert h.digest() == ref.digest()  # the copy's update left the original alone
    assert (h.digest_size, h.block_size) == (ref.digest_size, ref.block_size)


@SETTINGS
@given(
    alg=st.sampled_from(SHA),
    key=st.binary(max_size=300),
    data=st.binary(max_size=400),
    cuts=st.lists(st.integers(0, 400), max_size=4),
)
def test_hmac_like_the_standard_library(alg, key, data, cuts):
    h = ld_hmac.new(key, digestmod=alg)
    for p in _splits(data, cuts):
        h.update(p)
    want = std_hmac.new(key, data, alg)
    assert h.digest() == want.digest()
    assert ld_hmac.digest(key, data, alg) == want.digest()
    assert ld_hmac.compare_digest(h.hexdigest(), want.hexdigest())


@SETTINGS
@given(
    data=st.binary(max_size=500),
    bits=st.integers(1, 1024),
    key=st.binary(max_size=100),
    cuts=st.lists(st.integers(0, 500), max_size=4),
)
def test_skein512_like_pyskein(data, bits, key, cuts):
    h = litedigest.skein512(digest_bits=bits, key=key)
    for p in _splits(data, cuts):
        h.update(p)
    assert h.digest() == skein.skein512(data, digest_bits=bits, key=key).digest()


BAD_DATA = st.one_of(
    st.text(min_size=1, max_size=5),
    st.integers(),
    st.lists(st.integers(0, 255), max_size=3),
    st.none(),
    st.floats(allow_nan=False),
)


@SETTINGS
@given(alg=st.sampled_from(SHA), bad=BAD_DATA, good=st.binary(max_size=100))
def test_bad_data_raises_what_hashlib_raises_and_loses_nothing(alg, bad, good):
    h, ref = litedigest.new(alg, good), hashlib.new(alg, good)
    with pytest.raises(Exception) as got:
        h.update(bad)
    with pytest.raises(Exception) as want:
        ref.update(bad)
    assert type(got.value) is type(want.value), (bad, got.value, want.value)
    assert h.digest() == ref.digest()  # the refused update changed nothing
    h.update(b"more")
    ref.update(b"more")
    assert h.digest() == ref.digest()


@SETTINGS
@given(bits=st.one_of(st.integers(max_value=0), st.integers(min_value=2**64)))
def test_skein512_refuses_bad_output_sizes(bits):
    with pytest.raises((ValueError, OverflowError)):
        litedigest.skein512(b"x", digest_bits=bits)
