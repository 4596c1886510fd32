# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest hmac` against Python's hmac and, where it is installed, `openssl dgst -hmac`
(its output byte for byte)."""

import hmac as std_hmac
import os
import shutil
import subprocess
import sys

import pytest

LITEDIGEST = [sys.executable, "-m", "litedigest.cli"]
OPENSSL = shutil.which("openssl")
ALGS = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"]


def run(args, env=None, stdin=b""):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(LITEDIGEST + ["hmac"] + args, input=stdin, capture_output=True, env=e)


@pytest.fixture
def files(tmp_path):
    a = tmp_path / "a.txt"
    a.write_bytes(b"abc")
    b = tmp_path / "big.bin"
    b.write_bytes(bytes(range(256)) * 700)
    k = tmp_path / "key"
    k.write_bytes(b"a key longer than one block: " * 10)
    return a, b, k


@pytest.mark.parametrize("alg", ALGS)
def test_against_python_hmac(files, alg):
    a, b, k = files
    key = k.read_bytes()
    r = run(["-a", alg, "--key-file", str(k), str(a), str(b)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    for line, f in zip(lines, (a, b)):
        want = std_hmac.new(key, f.read_bytes(), alg).hexdigest()
        assert line.endswith(f"({f})= {want}") and line.startswith("HMAC-"), line


@pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
@pytest.mark.parametrize("alg", ALGS)
def test_byte_for_byte_as_openssl(files, alg):
    a, b, _ = files
    ossl_alg = "-" + alg.replace("_", "-")
    for extra in ([], ["-r"]):
        want = subprocess.run(
            [OPENSSL, "dgst", ossl_alg, "-hmac", "secret"] + extra + [str(a), str(b)],
            capture_output=True,
        )
        if want.returncode != 0:
            pytest.skip(f"this openssl has no {ossl_alg}")
        got = run(
            ["-a", alg, "--key-env", "LD_TEST_KEY"] + extra + [str(a), str(b)],
            env={"LD_TEST_KEY": "secret"},
        )
        assert got.returncode == 0 and got.stdout == want.stdout, (got.stdout, want.stdout)
        # standard input
        want = subprocess.run(
            [OPENSSL, "dgst", ossl_alg, "-hmac", "secret"] + extra,
            input=b"abc",
            capture_output=True,
        )
        got = run(
            ["-a", alg, "--key-env", "LD_TEST_KEY"] + extra,
            env={"LD_TEST_KEY": "secret"},
            stdin=b"abc",
        )
        assert got.stdout == want.stdout, (got.stdout, want.stdout)


def test_hex_key_and_errors(files, tmp_path):
    a, _, _ = files
    hk = tmp_path / "hexkey"
    hk.write_text("0b0b0b0b0b0b0b0b0b0b\n0b0b0b0b0b0b0b0b0b0b\n")
    r = run(["--key-file", str(hk), "--hex-key", str(a)])
    want = std_hmac.new(b"\x0b" * 20, b"abc", "sha256").hexdigest()
    assert r.returncode == 0 and r.stdout.decode().strip().endswith(want)
    # no key: refused, and no way to give it on the command line; these refusals exit 1 as
    # openssl dgst does (no key, unknown digest, a hexkey that is not hex)
    r = run([str(a)])
    assert r.returncode == 1 and b"--key-file" in r.stderr and r.stdout == b""
    r = run(["--key-env", "LD_NO_SUCH_VARIABLE", str(a)], env={"LD_NO_SUCH_VARIABLE": ""})
    assert r.returncode == 0  # set and empty: the empty key
    env = {k: v for k, v in os.environ.items() if k != "LD_UNSET_VAR"}
    r = subprocess.run(
        LITEDIGEST + ["hmac", "--key-env", "LD_UNSET_VAR", str(a)], capture_output=True, env=env
    )
    assert r.returncode == 1 and b"not set" in r.stderr
    r = run(["--key-file", str(tmp_path / "missing"), str(a)])
    assert r.returncode == 1 and b"missing" in r.stderr
    bad = run(["--key-env", "K", "--hex-key", str(a)], env={"K": "xyz"})
    assert bad.returncode == 1 and b"not hex" in bad.stderr
    r = run(["-a", "md5x", "--key-env", "K", str(a)], env={"K": "k"})
    assert r.returncode == 1 and b"unsupported" in r.stderr
    # an unreadable file: reported, the others still MACed, exit 1
    r = run(["--key-env", "K", str(tmp_path / "nope"), str(a)], env={"K": "secret"})
    assert r.returncode == 1 and b"nope" in r.stderr
    assert r.stdout.decode().strip().endswith(std_hmac.new(b"secret", b"abc", "sha256").hexdigest())


def test_r_marks_a_name_with_a_newline_as_openssl(tmp_path):
    """-r: a name with a newline gets OpenSSL 3's (and coreutils') leading backslash and \\n;
    a backslash or a carriage return is left as it is (OpenSSL escapes nothing else)."""
    names = ["new\nline", "back\\slash", "cr\rname", "both\\and\nnewline"]
    for n in names:
        (tmp_path / n).write_bytes(b"x")
    got = subprocess.run(
        LITEDIGEST + ["hmac", "-r", "--key-env", "LD_TEST_KEY"] + names,
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "LD_TEST_KEY": "k"},
    )
    assert got.returncode == 0, got.stderr
    mac = std_hmac.new(b"k", b"x", "sha256").hexdigest()
    assert (
        got.stdout
        == (
            f"\\{mac} *new\\nline\n{mac} *back\\slash\n{mac} *cr\rname\n"
            f"\\{mac} *both\\and\\nnewline\n"
        ).encode()
    )
    if OPENSSL:
        want = subprocess.run(
            [OPENSSL, "dgst", "-sha256", "-r", "-hmac", "k"] + names,
            cwd=tmp_path,
            capture_output=True,
        )
        assert got.stdout == want.stdout
