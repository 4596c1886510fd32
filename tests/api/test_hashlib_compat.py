# SPDX-License-Identifier: BSD-2-Clause
"""litedigest against hashlib's own behaviour on this Python (every expectation is checked
with a real hashlib call): copies, buffer and argument errors, the named constructors and
the names new() takes; Skein-512's output bits against pyskein."""

import copy
import hashlib
import inspect

import litedigest
import pytest
import skein as pyskein
from litedigest import spec

SHA_ALGORITHMS = [a for a, (family, _, _) in spec.ALGORITHMS.items() if family != "skein512"]
NON_CONTIGUOUS = memoryview(b"abcdef")[::2]


def _hashlib_error(call):
    """The exception type `call` raises (None when it returns)."""
    try:
        call()
    except Exception as e:
        return type(e)
    return None


# --- 1. copy.copy / copy.deepcopy: independent copies on every backend ------------------------


def _check_copies(h, reference):
    """Every way of copying h gives an object of its own: updating it never changes h's
    digest, and its digest is that of the data it saw."""
    start = h.digest()
    dups = [copy.copy(h), copy.deepcopy(h), h.copy(), copy.copy(copy.copy(h))]
    for dup in dups:
        assert type(dup) is type(h) and dup._ctx is not h._ctx
        dup.update(b"more" * 20)
        assert h.digest() == start, "a copy's update changed the original"
        assert dup.digest() == reference(b"abc" * 30 + b"more" * 20)
    h.update(b"tail")
    assert all(dup.digest() == reference(b"abc" * 30 + b"more" * 20) for dup in dups)
    assert h.digest() == reference(b"abc" * 30 + b"tail")
    # a deep copy of a structure holding one object twice copies it once
    a, b = copy.deepcopy([h, h])
    assert a is b and a is not h and a.digest() == h.digest()


def _reference(name):
    if spec.ALGORITHMS[name][0] == "skein512":
        bits = 8 * spec.ALGORITHMS[name][2]
        return lambda m: pyskein.skein512(m, digest_bits=bits).digest()
    return lambda m: hashlib.new(name, m).digest()


@pytest.mark.parametrize("name", list(spec.ALGORITHMS))
def test_copy_module_copies_are_independent_sw(name):
    _check_copies(litedigest.new(name, b"abc" * 30), _reference(name))


def test_copy_module_copies_of_a_keyed_skein_sw():
    h = litedigest.skein512(b"abc" * 30, digest_bits=200, key=b"k" * 70)
    _check_copies(h, lambda m: pyskein.skein512(m, digest_bits=200, key=b"k" * 70).digest())


@pytest.mark.rtl
@pytest.mark.parametrize("name", ["sha1", "sha224", "sha512_256", "skein512-256"])
def test_copy_module_copies_are_independent_rtl(name):
    """The rtl backend (one engine in Verilator; the default engines' libraries are built
    once and cached under build/rtlsim): a copy shares the simulator, never the context."""
    _check_copies(litedigest.new(name, b"abc" * 30, backend="rtl"), _reference(name))


# --- 2. buffers: a non-contiguous view is hashlib's BufferError --------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda mod, data: mod.sha256(data),
        lambda mod, data: mod.new("sha512_224", data),
        lambda mod, data: mod.sha1().update(data),
    ],
    ids=["constructor", "new", "update"],
)
def test_non_contiguous_buffer_is_a_buffer_error(call):
    assert _hashlib_error(lambda: call(hashlib, NON_CONTIGUOUS)) is BufferError
    with pytest.raises(BufferError, match="not C-contiguous"):
        call(litedigest, NON_CONTIGUOUS)


def test_non_contiguous_buffer_is_a_buffer_error_skein_and_hash_many():
    with pytest.raises(BufferError):
        litedigest.skein512(NON_CONTIGUOUS)
    with pytest.raises(BufferError):
        litedigest.skein512().update(NON_CONTIGUOUS)
    with pytest.raises(BufferError):
        litedigest.skein512(key=NON_CONTIGUOUS)
    with pytest.raises(BufferError):  # was hashed as b"ace"
        litedigest.hash_many("sha256", [b"x", NON_CONTIGUOUS])


def test_contiguous_views_of_any_shape_are_hashed_as_hashlib_does():
    for data in (
        memoryview(b"abcdef").cast("B", (2, 3)),
        memoryview(b"abcdef")[1:5],
        memoryview(bytearray(b"abcdef")).cast("H"),
    ):
        assert litedigest.sha256(data).digest() == hashlib.sha256(data).digest()
    assert litedigest.hash_many("sha256", [memoryview(b"abcdef")[1:5]]) == [
        hashlib.sha256(b"bcde").digest()
    ]


def test_fortran_order_view_is_a_buffer_error():
    np = pytest.importorskip("numpy")
    view = memoryview(np.arange(6, dtype=np.uint8).reshape(2, 3).T)
    assert _hashlib_error(lambda: hashlib.sha256(view)) is BufferError
    with pytest.raises(BufferError):
        litedigest.sha256(view)


# --- 3. new(): None, usedforsecurity, the name's type -----------------------------------------


@pytest.mark.parametrize("name", ["sha256", "sha1", "skein512", "skein512-256"])
def test_none_data_is_what_hashlib_does(name):
    """hashlib.new("sha256", None) raises TypeError on this Python (it used to be taken as no
    data); litedigest does the same for every algorithm."""
    assert _hashlib_error(lambda: hashlib.new("sha256", None)) is TypeError
    assert _hashlib_error(lambda: hashlib.sha256(None)) is TypeError
    with pytest.raises(TypeError, match="buffer API"):
        litedigest.new(name, None)
    with pytest.raises(TypeError, match="buffer API"):
        litedigest.new(name, data=None)


@pytest.mark.parametrize("ctor", SHA_ALGORITHMS + ["skein512"])
def test_none_data_in_named_constructors(ctor):
    with pytest.raises(TypeError):
        getattr(litedigest, ctor)(None)


@pytest.mark.parametrize("flag", [True, False])
def test_usedforsecurity_is_accepted_and_ignored(flag):
    for name in SHA_ALGORITHMS:
        want = hashlib.new(name, b"abc", usedforsecurity=flag).digest()
        assert litedigest.new(name, b"abc", usedforsecurity=flag).digest() == want
        assert getattr(litedigest, name)(b"abc", usedforsecurity=flag).digest() == want
    want = pyskein.skein512(b"abc").digest()
    assert litedigest.new("skein512", b"abc", usedforsecurity=flag).digest() == want
    assert litedigest.skein512(b"abc", usedforsecurity=flag).digest() == want


@pytest.mark.parametrize("name", [5, None, b"sha256", 2.5])
def test_a_name_that_is_no_string_is_a_type_error(name):
    assert _hashlib_error(lambda: hashlib.new(name)) is TypeError
    with pytest.raises(TypeError, match="name must be a string"):
        litedigest.new(name)
    with pytest.raises(TypeError, match="name must be a string"):
        litedigest.hash_many(name, [b"abc"])


@pytest.mark.parametrize("name", ["md5x", "sha3", "sha512/224", "sha2-1", "skein256", ""])
def test_an_unknown_name_is_a_value_error(name):
    assert _hashlib_error(lambda: hashlib.new(name)) is ValueError
    with pytest.raises(ValueError, match=f"unsupported hash type {name}"):
        litedigest.new(name)


# --- 4. the named constructors and the names new() takes -------------------------------------


@pytest.mark.parametrize("name", SHA_ALGORITHMS)
def test_named_constructor_per_sha_algorithm(name):
    ctor = getattr(litedigest, name)
    assert name in litedigest.__all__
    h = ctor(b"abc")
    ref = hashlib.new(name, b"abc")
    assert (h.name, h.digest_size, h.block_size, h.digest()) == (
        ref.name,
        ref.digest_size,
        ref.block_size,
        ref.digest(),
    )
    assert ctor().digest() == hashlib.new(name).digest()
    assert ctor(data=b"abc", backend="sw", engine=name).digest() == ref.digest()
    sig = inspect.signature(ctor)
    assert [(p.name, p.kind, p.default) for p in sig.parameters.values()] == [
        ("data", inspect.Parameter.POSITIONAL_OR_KEYWORD, b""),
        ("backend", inspect.Parameter.KEYWORD_ONLY, "sw"),
        ("engine", inspect.Parameter.KEYWORD_ONLY, None),
        ("usedforsecurity", inspect.Parameter.KEYWORD_ONLY, True),
        ("string", inspect.Parameter.KEYWORD_ONLY, None),
    ]
    assert ctor.__name__ == name


def test_the_string_keyword_of_older_hashlib():
    """hashlib before 3.12 named the first argument `string` (and still takes it); `data`
    and `string` together are its TypeError."""
    ref = hashlib.sha256(b"abc").digest()
    assert litedigest.sha256(string=b"abc").digest() == ref
    assert litedigest.new("sha256", string=b"abc").digest() == ref
    with pytest.raises(TypeError, match="mutually exclusive"):
        litedigest.sha256(b"abc", string=b"abc")


def test_update_takes_its_data_by_position_only():
    h = litedigest.sha256()
    assert _hashlib_error(lambda: hashlib.sha256().update(data=b"a")) is TypeError
    with pytest.raises(TypeError):
        h.update(data=b"a")
    assert h.digest() == hashlib.sha256().digest()


def test_a_strided_buffer_is_the_exporters_error():
    """hashlib asks for a simple buffer, so the exporter says what is wrong: numpy's
    ValueError for a strided array, BufferError for a strided memoryview."""
    np = pytest.importorskip("numpy")
    for data in (
        np.arange(12, dtype=np.uint8).reshape(3, 4)[:, :2],
        np.asfortranarray(np.arange(12, dtype=np.uint8).reshape(3, 4)),
        memoryview(b"abcdef")[::2],
    ):
        expected = _hashlib_error(lambda data=data: hashlib.sha256(data))
        assert expected in (ValueError, BufferError)
        with pytest.raises(expected):
            litedigest.sha256(data)


def test_all_names_exist():
    assert "skein512" in litedigest.__all__
    for name in litedigest.__all__:
        assert hasattr(litedigest, name), name


def _spellings():
    """Candidate spellings of every SHA-family name: separators, SHA-2 prefixes, case."""
    out = set()
    for alg in SHA_ALGORITHMS:
        bits, _, cut = alg[3:].partition("_")
        tails = [bits] + ([f"{bits}{sep}{cut}" for sep in "_-/"] if cut else [])
        for prefix in ("sha", "sha-", "sha2-", "sha2", "sha_"):
            for tail in tails:
                out |= {prefix + tail, (prefix + tail).upper()}
    return sorted(out)


@pytest.mark.parametrize("spelling", _spellings())
def test_new_takes_the_names_hashlib_takes(spelling):
    """hashlib.new takes OpenSSL's spellings too (SHA-256, SHA2-256, sha512-224,
    SHA-512/224): new() takes exactly the same ones, and names them as hashlib does."""
    try:
        ref = hashlib.new(spelling, b"abc")
    except ValueError:
        with pytest.raises(ValueError, match="unsupported hash type"):
            litedigest.new(spelling, b"abc")
        return
    h = litedigest.new(spelling, b"abc")
    assert (h.name, h.digest()) == (ref.name, ref.digest())
    assert litedigest.hash_many(spelling, [b"abc"]) == [ref.digest()]


# --- 5. Skein-512 output lengths that are not whole bytes ------------------------------------

ODD_BITS = [1, 7, 12, 513, 1001]


@pytest.mark.parametrize("bits", ODD_BITS)
def test_skein_odd_output_bits_agree_with_pyskein_on_the_used_bits(bits):
    """The first digest_bits bits are Skein's (the last byte's unused bits: the next test)."""
    want = pyskein.skein512(b"abc", digest_bits=bits).digest()
    got = litedigest.skein512(b"abc", digest_bits=bits).digest()
    keep = (0xFF << (8 - bits % 8)) & 0xFF
    assert len(got) == len(want) == (bits + 7) // 8
    assert got[:-1] == want[:-1] and got[-1] & keep == want[-1]


@pytest.mark.parametrize("bits", ODD_BITS)
def test_skein_odd_output_bits_zero_the_unused_bits(bits):
    """pyskein and the Skein reference clear the low 8 - digest_bits % 8 bits of the last
    byte. LiteDigest's bytes come from the C library's output() (skein_sw.c), shared by every
    backend, which copies whole bytes of the output chain."""
    want = pyskein.skein512(b"abc", digest_bits=bits).digest()
    assert litedigest.skein512(b"abc", digest_bits=bits).digest() == want


# --- 6. file_digest: hashlib.file_digest's contract ------------------------------------------


def _file_of(tmp_path, data):
    p = tmp_path / "data.bin"
    p.write_bytes(data)
    return p


@pytest.mark.parametrize("name", list(spec.ALGORITHMS))
def test_file_digest_of_a_file_is_the_digest_of_its_bytes(tmp_path, name):
    """Random lengths around the read buffer (small here, so a file takes many reads): the
    digest of the whole file, as hashlib.file_digest gives (Skein-512: pyskein)."""
    import random

    rng = random.Random(name)
    for n in (0, 1, 63, 64, 65, 1000, rng.randrange(2000, 5000)):
        data = rng.randbytes(n)
        p = _file_of(tmp_path, data)
        with open(p, "rb") as f:
            h = litedigest.file_digest(f, name, _bufsize=61)
        assert h.name == litedigest.new(name).name
        assert h.digest() == _reference(name)(data), (name, n)
        if name in hashlib.algorithms_available:
            with open(p, "rb") as f:
                assert h.digest() == hashlib.file_digest(f, name).digest()


def test_file_digest_reads_from_the_current_position_to_the_end(tmp_path):
    p = _file_of(tmp_path, b"0123456789" * 100)
    with open(p, "rb") as f, open(p, "rb") as g:
        f.seek(123)
        g.seek(123)
        assert (
            litedigest.file_digest(f, "sha384").digest()
            == hashlib.file_digest(g, "sha384").digest()
        )
        assert f.read() == b""


def test_file_digest_of_a_bytesio_and_of_an_unbuffered_file(tmp_path):
    import io

    data = b"abc" * 1000
    assert litedigest.file_digest(io.BytesIO(data), "sha1").digest() == hashlib.sha1(data).digest()
    with open(_file_of(tmp_path, data), "rb", buffering=0) as f:
        assert litedigest.file_digest(f, "sha224").digest() == hashlib.sha224(data).digest()


@pytest.mark.parametrize(
    "ctor",
    [litedigest.sha256, hashlib.sha256, lambda: litedigest.new("sha512", backend="sw")],
    ids=["litedigest", "hashlib", "lambda"],
)
def test_file_digest_takes_a_constructor(tmp_path, ctor):
    data = bytes(range(256)) * 9
    with open(_file_of(tmp_path, data), "rb") as f:
        h = litedigest.file_digest(f, ctor)
    assert type(h) is type(ctor())
    assert h.digest() == hashlib.new(ctor().name, data).digest()


def test_file_digest_backend_goes_with_a_name_only(tmp_path):
    with open(_file_of(tmp_path, b"x"), "rb") as f:
        with pytest.raises(TypeError, match="backend and engine"):
            litedigest.file_digest(f, litedigest.sha256, backend="rtl")
        with pytest.raises(ValueError, match="unsupported hash type"):
            litedigest.file_digest(f, "md17")


@pytest.mark.rtl
def test_file_digest_on_the_rtl_backend(tmp_path):
    data = bytes(range(200)) * 3
    with open(_file_of(tmp_path, data), "rb") as f:
        h = litedigest.file_digest(f, "sha256", backend="rtl", engine="sha256:base")
    assert h.engine == "sha256:base" and h.digest() == hashlib.sha256(data).digest()


@pytest.mark.parametrize(
    "opener",
    [lambda p: open(p), lambda p: open(p, "wb"), lambda p: object()],
    ids=["text", "write-only", "no-file"],
)
def test_file_digest_refuses_what_is_not_a_binary_reader(tmp_path, opener):
    """A text file, a file open for writing, an object that is no file: hashlib's ValueError."""
    p = _file_of(tmp_path, b"abc")
    f = opener(p)
    try:
        assert _hashlib_error(lambda: hashlib.file_digest(f, "sha256")) is ValueError
        with pytest.raises(ValueError, match="binary reading mode"):
            litedigest.file_digest(f, "sha256")
    finally:
        if hasattr(f, "close"):
            f.close()


def test_file_digest_of_a_non_blocking_pipe_without_data_is_a_blocking_io_error():
    """readinto() answers None when a non-blocking file has nothing ready: BlockingIOError,
    as hashlib.file_digest raises since Python 3.12 (3.11 hashed its whole buffer instead)."""
    import os

    r, w = os.pipe()
    os.set_blocking(r, False)
    try:
        with open(r, "rb", buffering=0, closefd=False) as f:
            with pytest.raises(BlockingIOError):
                litedigest.file_digest(f, "sha256")
    finally:
        os.close(r)
        os.close(w)
