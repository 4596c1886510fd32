# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest sum` against GNU coreutils sha256sum/sha224sum, byte for byte."""

import os
import random
import shutil
import subprocess
import sys

import pytest
from litedigest import cli
from litedigest.paths import repo_root

pytestmark = pytest.mark.skipif(shutil.which("sha256sum") is None, reason="coreutils not installed")

LD = [sys.executable, "-m", "litedigest.cli", "sum"]


def run(cmd, cwd, stdin=b"", stdout=subprocess.PIPE):
    r = subprocess.run(cmd, cwd=cwd, input=stdin, stdout=stdout, stderr=subprocess.PIPE)
    return r.returncode, r.stdout, r.stderr


def compare(gnu_tool, args, cwd, stdin=b"", algo=None, stdout=subprocess.PIPE):
    """Same exit status, identical stdout, same stderr up to the program name."""
    algo = algo or gnu_tool[:-3]
    g = run([gnu_tool] + args, cwd, stdin, stdout)
    m = run(LD + ["-a", algo] + args, cwd, stdin, stdout)
    assert m[0] == g[0], (args, g, m)
    assert m[1] == g[1], (args, g[1], m[1])
    ours = m[2].replace(b"litedigest:", b"X:").replace(b"'litedigest sum --help'", b"'X --help'")
    gnus = (
        g[2]
        .replace(gnu_tool.encode() + b":", b"X:")
        .replace(b"'%s --help'" % gnu_tool.encode(), b"'X --help'")
    )
    assert ours == gnus, (args, g[2], m[2])
    return m


@pytest.fixture
def files(tmp_path):
    rng = random.Random(3)
    names = []
    for n in (0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 70000):
        p = tmp_path / f"f{n}.bin"
        p.write_bytes(rng.randbytes(n))
        names.append(p.name)
    (tmp_path / "back\\slash").write_bytes(b"abc")
    (tmp_path / "new\nline").write_bytes(b"def")
    (tmp_path / "sp ace").write_bytes(b"ghi")
    names += ["back\\slash", "new\nline", "sp ace"]
    return tmp_path, names


@pytest.mark.parametrize("tool", ["sha256sum", "sha224sum"])
def test_hash_files(files, tool):
    d, names = files
    compare(tool, names, d)
    compare(tool, ["-b"] + names[:3], d)
    compare(tool, ["--tag"] + names, d)


@pytest.mark.parametrize("tool", ["sha256sum", "sha224sum"])
def test_stdin(files, tool):
    d, _ = files
    data = random.Random(4).randbytes(5000)
    compare(tool, [], d, stdin=data)
    compare(tool, ["-"], d, stdin=data)
    compare(tool, ["f0.bin", "-", "f1.bin"], d, stdin=b"")


def test_missing_file_and_directory(files):
    d, _ = files
    rc, out, err = compare("sha256sum", ["f1.bin", "missing", "f55.bin"], d)
    assert rc == 1 and out.count(b"\n") == 2
    assert err == b"litedigest: missing: No such file or directory\n"
    (d / "sub").mkdir()
    compare("sha256sum", ["sub", "f0.bin"], d)
    # a directory as the checksum file: coreutils opens it and reports its failed read
    rc, _, err = compare("sha256sum", ["-c", "sub"], d)
    assert rc == 1 and err == b"litedigest: sub: read error\n"


@pytest.mark.parametrize("lang", ["C.UTF-8", "C"])
def test_file_names_in_messages_quoted_as_coreutils(tmp_path, lang, monkeypatch):
    """gnulib's quotef, which names a file in coreutils' messages: plain, double quotes,
    single quotes with $'...' runs for unprintable bytes (octal in the C locale for every
    non-ASCII byte), for every printable ASCII character at the start, in the middle and
    beside a single quote, and for control characters around quotes."""
    for var in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", lang)
    names = []
    for c in (bytes([i]) for i in range(0x20, 0x7F)):
        # (not "-" first: an option, or standard input alone)
        names += [b"a" + c + b"b", b"it's" + c] + ([c, c + b"ab"] if c != b"-" else [])
    names += [
        b"new\nline",
        b"a\n\nb",
        b"x\n'y",
        b"\x01z",
        b"q'\nr",
        b"it's\n",
        b"\nit's\n",
        b"'a\tb'",
        b"x\x7fy",
        b"caf\xc3\xa9",
        b"it's\xc3\xa9",
        b"bad\xffbyte",
        b"a\rb\x1b",
    ]
    rc, _, err = compare("sha256sum", names, tmp_path)
    assert rc == 1 and err.count(b"\n") == len(names)  # ".", "/": a directory


def test_a_failed_write_is_a_write_error(files):
    """A full disk under standard output: coreutils' `write error` and status 1, for the
    sums and for a check's report, no traceback."""
    d, names = files
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    sums = subprocess.run(["sha256sum"] + names[:3], cwd=d, capture_output=True, check=True).stdout
    (d / "good.sum").write_bytes(sums)
    for args in (names[:3], ["-c", "good.sum"]):
        with open("/dev/full", "wb") as full:
            rc, _, err = compare("sha256sum", args, d, stdout=full)
        assert rc == 1 and err == b"litedigest: write error\n"


def test_an_unknown_option_as_coreutils(files):
    d, _ = files
    for args in (["--bogus"], ["-q", "f0.bin"]):
        rc, _, err = compare("sha256sum", args, d)
        assert rc == 1 and err.startswith(b"litedigest: "), err
    compare("sha256sum", ["--ta", "f0.bin"], d)  # getopt_long's abbreviation of --tag
    # argparse's own errors in getopt_long's words, status 1: an ambiguous abbreviation, a
    # value given to a flag (long, abbreviated, or a short letter followed by more letters)
    for args in (
        ["--s", "f0.bin"],
        ["--st=1", "f0.bin"],
        ["--check=x", "f0.bin"],
        ["--che=x", "f0.bin"],
        ["--tag=1", "f0.bin"],
        ["-cq", "f0.bin"],
        ["-bq", "f0.bin"],
        ["-c=x", "f0.bin"],
        ["--zero=3", "f0.bin"],
    ):
        rc, _, err = compare("sha256sum", args, d)
        assert rc == 1 and b"Try 'litedigest sum --help'" in err, (args, err)


def test_an_option_without_its_argument(files):
    """-a / --algorithm (ours: coreutils' sha256sum has none) at the end: getopt_long's words."""
    d, _ = files
    for args, msg in (
        (["-a"], b"option requires an argument -- 'a'"),
        (["--algo"], b"option '--algorithm' requires an argument"),
        (["f0.bin", "--backend"], b"option '--backend' requires an argument"),
    ):
        rc, out, err = run(LD + args, d)
        assert (
            (rc, out) == (1, b"")
            and err
            == b"litedigest: " + msg + b"\nTry 'litedigest sum --help' for more information.\n"
        ), (args, err)


@pytest.mark.parametrize("tool", ["sha256sum", "sha224sum"])
def test_check(files, tool):
    d, names = files
    sums = subprocess.run([tool] + names, cwd=d, capture_output=True, check=True).stdout
    (d / "good.sums").write_bytes(sums)
    compare(tool, ["-c", "good.sums"], d)
    compare(tool, ["-c", "--quiet", "good.sums"], d)
    # one corrupted entry, one missing file, one improperly formatted line, a comment, CRLF
    lines = sums.split(b"\n")
    first = lines[1]
    lines[1] = (b"0" if first[:1] != b"0" else b"1") + first[1:]
    lines.insert(0, b"# comment")
    lines.insert(2, b"not a checksum line")
    lines.insert(3, sums.split(b"\n")[0][:64] + b"  gone.bin")
    lines.insert(4, lines[5] + b"\r")
    bad = b"\n".join(lines)
    (d / "bad.sums").write_bytes(bad)
    rc, out, err = compare(tool, ["-c", "bad.sums"], d)
    assert rc == 1 and b": FAILED\n" in out and b"gone.bin: FAILED open or read\n" in out
    assert b"litedigest: WARNING: 1 computed checksum did NOT match" in err
    compare(tool, ["-c", "--status", "bad.sums"], d)
    compare(tool, ["-c", "-w", "bad.sums"], d)
    compare(tool, ["-c", "--strict", "good.sums"], d)
    # binary-mode '*' entries and BSD tags are accepted
    bsums = subprocess.run([tool, "-b"] + names[:4], cwd=d, capture_output=True, check=True).stdout
    (d / "bin.sums").write_bytes(bsums)
    compare(tool, ["-c", "bin.sums"], d)
    tsums = subprocess.run([tool, "--tag"] + names, cwd=d, capture_output=True, check=True).stdout
    (d / "tag.sums").write_bytes(tsums)
    compare(tool, ["-c", "tag.sums"], d)
    # sums from stdin, a sums file with no valid line, a missing sums file
    compare(tool, ["-c"], d, stdin=sums)
    compare(tool, ["-c", "-"], d, stdin=sums)
    (d / "junk.sums").write_bytes(b"junk\n")
    compare(tool, ["-c", "junk.sums"], d)
    compare(tool, ["-c", "nosuch.sums"], d)


def test_engine_and_backend_options(files, capsys):
    d, _ = files
    rc, out, _ = run(
        LD + ["-a", "sha256", "--engine", "sha256:base", "--backend", "sw", "f55.bin"], d
    )
    assert (
        rc == 0
        and out == subprocess.run(["sha256sum", "f55.bin"], cwd=d, capture_output=True).stdout
    )
    rc, _, err = run(LD + ["-a", "sha256", "--engine", "sha224:opt", "f55.bin"], d)
    assert rc == 2 and b"sha224" in err
    rc, _, err = run(LD + ["-a", "md5", "f55.bin"], d)
    assert rc == 2 and b"unsupported algorithm" in err


def test_pynq_backend_without_a_board_is_a_clear_error(files, monkeypatch):
    """no pynq here and no simulated device asked for: exit 2 with the reason, nothing printed"""
    d, _ = files
    monkeypatch.delenv("LITEDIGEST_PYNQ_DEVICE", raising=False)
    rc, out, err = run(LD + ["--backend", "pynq", "f55.bin"], d)
    assert rc == 2 and out == b"" and b"pynq" in err and b"Traceback" not in err


def test_main_in_process_and_console_script(files, monkeypatch, capsysbinary):
    d, _ = files
    monkeypatch.chdir(d)
    assert cli.main(["sum", "-a", "sha224", "f0.bin"]) == 0
    assert (
        capsysbinary.readouterr().out
        == b"d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f  f0.bin\n"
    )
    exe = shutil.which("litedigest", path=os.path.dirname(sys.executable))
    if exe:
        r = subprocess.run([exe, "sum", "f0.bin"], cwd=d, capture_output=True)
        assert r.returncode == 0 and r.stdout.startswith(b"e3b0c442")
    with pytest.raises(SystemExit):
        cli.main(["nosuchcommand"])


def test_zero_terminated_output(files):
    """-z/--zero: NUL ends each line and names are never escaped (tagged lines too); not with -c"""
    d, names = files
    tool = "sha256sum"
    rc, out, _ = compare(tool, ["-z"] + names, d)
    assert (
        rc == 0 and out.count(b"\0") == len(names) and b"\n" not in out.replace(b"new\nline", b"")
    )
    assert b"  new\nline\0" in out and b"  back\\slash\0" in out and not out.startswith(b"\\")
    compare(tool, ["--zero", "-b"] + names, d)
    compare(tool, ["-z", "--tag"] + names, d)
    compare(tool, ["-z", "f1.bin", "missing", "-"], d, stdin=b"x")
    (d / "z.sums").write_bytes(out)
    compare(tool, ["-c", "-z", "z.sums"], d)  # coreutils: not supported when verifying
    compare(tool, ["--check", "--zero", "--tag", "z.sums"], d)


def test_binary_and_text_last_one_wins(files):
    d, names = files
    tool = "sha256sum"
    for args in (
        ["-b", "-t"],
        ["-t", "-b"],
        ["--binary", "--text"],
        ["-t", "--binary", "-t", "-b"],
        ["-b", "--tag"],
        ["--tag", "-b"],
    ):
        rc, out, _ = compare(tool, args + names[:4], d)
        assert rc == 0 and out
    assert compare(tool, ["-b", "-t", "f1.bin"], d)[1].endswith(b"  f1.bin\n")
    assert compare(tool, ["-t", "-b", "f1.bin"], d)[1].endswith(b" *f1.bin\n")
    # refused, as by coreutils: --tag then --text; -b/-t/--tag with -c
    for args in (
        ["--tag", "-t"],
        ["-c", "-b"],
        ["-c", "-t", "-b"],
        ["-c", "--tag"],
        ["-c", "--tag", "-b"],
    ):
        rc, out, err = compare(tool, args + ["f1.bin"], d)
        assert (
            rc == 1
            and out == b""
            and err.endswith(b"Try 'litedigest sum --help' for more information.\n")
        )
    # coreutils 9.1's rules, not compared with the system's tool: 9.10 refuses --tag with -t in
    # either order, and with -c names the -c conflict first. In 9.1 --tag implies -b, so an
    # earlier -t is overridden and a later one refused (before any -c conflict).
    tagged = run([tool, "--tag", "f1.bin"], d)[1]
    assert run(LD + ["-t", "--tag", "f1.bin"], d) == (0, tagged, b"")
    assert run(LD + ["-c", "--tag", "-t", "f1.bin"], d) == (
        1,
        b"",
        b"litedigest: --tag does not support --text mode\n"
        b"Try 'litedigest sum --help' for more information.\n",
    )


def test_check_only_options_without_check(files):
    d, _ = files
    for args in (
        ["--ignore-missing"],
        ["--status"],
        ["-w"],
        ["--quiet"],
        ["--strict"],
        ["--status", "-w"],
        ["-w", "--quiet"],
        ["--quiet", "--status"],
        ["--strict", "--quiet"],
    ):
        rc, out, _ = compare("sha256sum", args + ["f1.bin"], d)
        assert rc == 1 and out == b""


def test_quiet_status_warn_last_one_wins(files):
    d, names = files
    sums = subprocess.run(["sha256sum"] + names[:3], cwd=d, capture_output=True, check=True).stdout
    (d / "w.sums").write_bytes(sums + b"junk\n")
    for args in (
        ["--status", "-w"],
        ["-w", "--status"],
        ["--status", "--quiet"],
        ["--quiet", "-w"],
        ["-w", "--quiet"],
    ):
        compare("sha256sum", ["-c"] + args + ["w.sums"], d)


def test_check_ignore_missing(files):
    d, names = files
    tool = "sha256sum"
    sums = subprocess.run([tool] + names, cwd=d, capture_output=True, check=True).stdout
    good = sums.split(b"\n")[0]
    hexd = good.split(b" ")[0]
    (d / "sub").mkdir()
    cases = {
        "some.sums": sums + hexd + b"  gone.bin\n",  # verified + missing: OK
        "none.sums": hexd + b"  gone.bin\n" + hexd + b"  gone2.bin\n",  # nothing verified: fails
        "bad.sums": hexd + b"  gone.bin\n" + hexd + b"  f1.bin\n",  # missing + mismatch
        "dir.sums": hexd + b"  gone.bin\n" + hexd + b"  sub\n",  # a directory is not missing
        "tag.sums": b"SHA%s (gone.bin) = %s\n" % (tool[3:6].encode(), hexd) + good + b"\n",
    }
    for name, data in cases.items():
        (d / name).write_bytes(data)
    for flags in ([], ["--status"]):
        for name in cases:
            compare(tool, ["-c", "--ignore-missing"] + flags + [name], d)
        compare(tool, ["-c", "--ignore-missing"] + flags + ["none.sums", "some.sums"], d)
        compare(tool, ["-c", "--ignore-missing"] + flags, d, stdin=cases["none.sums"])
    for flags in (["--quiet"], ["-w", "--strict"]):
        compare(
            tool, ["-c", "--ignore-missing"] + flags + ["some.sums", "none.sums", "bad.sums"], d
        )
    rc, out, err = compare(tool, ["-c", "--ignore-missing", "none.sums"], d)
    assert rc == 1 and out == b"" and err == b"litedigest: none.sums: no file was verified\n"
    rc, out, err = compare(tool, ["-c", "--ignore-missing", "some.sums"], d)
    assert rc == 0 and b"gone" not in out + err
    # without --ignore-missing a missing file still fails the check
    rc, out, _ = compare(tool, ["-c", "some.sums"], d)
    assert rc == 1 and b"gone.bin: FAILED open or read\n" in out


@pytest.mark.parametrize("tool", ["sha1sum", "sha256sum", "sha512sum"])
def test_check_openssl_and_bsd_tagged_lines(files, tool):
    """SHA256(name)= hex (OpenSSL), SHA256 (name) = hex (--tag), blanks around '=' optional; a
    tagged line of another algorithm is improperly formatted, as coreutils has it"""
    d, names = files
    tag = tool[:-3].upper().encode()
    lines = subprocess.run(
        [tool, "--tag"] + names, cwd=d, capture_output=True, check=True
    ).stdout.splitlines()
    hexd = {n: ln.rsplit(b" ", 1)[1] for n, ln in zip(names, lines)}
    (d / "pa)ren").write_bytes(b"(")
    paren = subprocess.run([tool, "pa)ren"], cwd=d, capture_output=True, check=True).stdout[
        : len(hexd["f0.bin"])
    ]
    (d / "ossl.sums").write_bytes(
        b"".join(
            [
                tag + b"(f0.bin)= " + hexd["f0.bin"] + b"\n",
                tag + b"(f1.bin)=" + hexd["f1.bin"] + b"\n",
                tag + b" (f55.bin)\t=\t" + hexd["f55.bin"].upper() + b"\n",
                b"  " + tag + b"(pa)ren) = " + paren + b"\n",
                b"\\" + tag + b"(back\\\\slash)= " + hexd["back\\slash"] + b"\r\n",
                tag + b"(f56.bin)= " + hexd["f55.bin"] + b"\n",  # mismatch
                tag + b"(gone.bin)= " + hexd["f55.bin"] + b"\n",  # missing
                tag + b"  (f63.bin) = " + hexd["f63.bin"] + b"\n",  # two blanks: bad
                tag + b"(f63.bin)= " + hexd["f63.bin"] + b"0\n",  # long digest: bad
                tag + b"(f63.bin) " + hexd["f63.bin"] + b"\n",  # no '=': bad
                tag.lower() + b"(f63.bin)= " + hexd["f63.bin"] + b"\n",  # lower-case name: bad
            ]
        )
    )
    for flags in ([], ["-w"], ["--strict"], ["--status"], ["--ignore-missing"]):
        compare(tool, ["-c"] + flags + ["ossl.sums"], d)
    rc, out, _ = compare(tool, ["-c", "ossl.sums"], d)
    assert out.count(b": OK\n") == 5 and b"pa)ren: OK\n" in out and b"back\\slash: OK\n" in out
    # every other algorithm's tagged lines: improperly formatted here
    others = [
        t for t in ("sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum") if t != tool
    ]
    mixed = b"".join(
        subprocess.run([t, "--tag", "f1.bin"], cwd=d, capture_output=True, check=True).stdout
        for t in others
    )
    openssl = mixed.replace(b" (", b"(").replace(b") = ", b")= ")
    for data, flags in (
        (mixed, ["-w"]),
        (openssl + lines[0] + b"\n", ["-w"]),
        (mixed + lines[0] + b"\n", ["--strict"]),
    ):
        (d / "mixed.sums").write_bytes(data)
        compare(tool, ["-c"] + flags + ["mixed.sums"], d)
    # a '-' entry in a list read from stdin is improperly formatted
    compare(
        tool,
        ["-c", "-w", "-"],
        d,
        stdin=tag + b" (-) = " + hexd["f0.bin"] + b"\n" + lines[1] + b"\n",
    )


@pytest.mark.parametrize(
    "algo,other",
    [
        ("sha512_224", "sha512_256"),
        ("sha512_256", "sha256"),
        ("skein512-256", "sha512_256"),
        ("skein512-512", "sha512"),
    ],
)
def test_check_tagged_lines_without_a_coreutils_tool(files, algo, other):
    """OpenSSL's SHA512-224/SHA512-256 names and our own --tag names (SHA512_224, SKEIN512-256,
    SKEIN512 for skein512-512) are read back; another algorithm's tag is improperly formatted"""
    d, names = files
    ours = run(LD + ["-a", algo, "--tag"] + names[:3], d)[1]
    assert ours.startswith(algo.upper().encode() + b" (f0.bin) = ")
    hexd = [ln.rsplit(b" ", 1)[1] for ln in ours.splitlines()]
    spellings = {algo.upper().encode(), algo.upper().replace("_", "-").encode()}
    if algo == "skein512-512":
        spellings.add(b"SKEIN512")
    data = ours + b"".join(
        t + b"(%s)= %s\n" % (n.encode(), h) for t in spellings for n, h in zip(names, hexd)
    )
    (d / "t.sums").write_bytes(data)
    rc, out, err = run(LD + ["-a", algo, "-c", "--strict", "t.sums"], d)
    assert (rc, err) == (0, b"") and out.count(b": OK\n") == 3 * (1 + len(spellings))
    other_line = run(LD + ["-a", other, "--tag", "f0.bin"], d)[1]
    (d / "o.sums").write_bytes(
        data + other_line + other_line.replace(b" (", b"(").replace(b" = ", b"= ")
    )
    rc, out, err = run(LD + ["-a", algo, "-c", "-w", "o.sums"], d)
    assert rc == 0 and out.count(b": OK\n") == 3 * (1 + len(spellings))
    n = len(data.splitlines())
    assert err == (
        b"litedigest: o.sums: %d: improperly formatted %s checksum line\n"
        % (n + 1, algo.upper().encode())
        + b"litedigest: o.sums: %d: improperly formatted %s checksum line\n"
        % (n + 2, algo.upper().encode())
        + b"litedigest: WARNING: 2 lines are improperly formatted\n"
    )
    assert run(LD + ["-a", algo, "-c", "--strict", "o.sums"], d)[0] == 1


def test_check_line_with_a_nul_byte(files):
    """A NUL byte in a listed name ends it, as the C string coreutils opens (a checksum file is
    untrusted input: it used to stop the check with Python's 'embedded null byte')."""
    d, _ = files
    good = subprocess.run(["sha256sum", "f1.bin"], cwd=d, capture_output=True).stdout.split()[0]
    (d / "nul_end.sum").write_bytes(good + b"  f1.bin\0")
    (d / "nul_mid.sum").write_bytes(
        good + b"  f1.bin\n" + good + b"  emp\0ty\n" + good + b"  f1.bin\n"
    )
    (d / "nul_hex.sum").write_bytes(good[:10] + b"\0" + good[11:] + b"  f1.bin\n")
    for sums in ("nul_end.sum", "nul_mid.sum", "nul_hex.sum"):
        compare("sha256sum", ["-c", sums], d)
        compare("sha256sum", ["-c", "--warn", "--strict", sums], d)


def test_names_starting_with_a_dash_are_not_quoted(files):
    d, _ = files
    compare("sha256sum", ["--", "--tag", "-x", "-", "#x", "~x"], d, stdin=b"abc")


@pytest.mark.parametrize("closed", ["<&-", ">&-"])
@pytest.mark.parametrize("args", [["-"], ["f1.bin", "-"], ["-c", "-"], ["f1.bin"]])
def test_closed_standard_streams_as_coreutils(files, closed, args):
    """Started with standard input or output closed: coreutils' messages and status, not a
    Python traceback."""
    d, _ = files

    def sh(cmd):
        r = subprocess.run(["sh", "-c", f'"$@" {closed}', "sh"] + cmd, cwd=d, capture_output=True)
        return r.returncode, r.stdout, r.stderr

    g = sh(["sha256sum"] + args)
    m = sh(LD + ["-a", "sha256"] + args)
    assert m[0] == g[0] and m[1] == g[1], (g, m)
    assert m[2].replace(b"litedigest:", b"X:") == g[2].replace(b"sha256sum:", b"X:"), (g, m)
    assert b"Traceback" not in m[2]


def test_algorithm_in_hashlib_spellings(files):
    d, names = files
    want = subprocess.run(LD + ["-a", "sha512_256", names[3]], cwd=d, capture_output=True)
    for spelling in ("SHA512_256", "sha512-256", "SHA-512/256"):
        got = subprocess.run(LD + ["-a", spelling, names[3]], cwd=d, capture_output=True)
        assert got.returncode == 0 and got.stdout == want.stdout, (spelling, got.stderr)
    got = subprocess.run(LD + ["-a", "md5", names[3]], cwd=d, capture_output=True)
    assert got.returncode == 2 and b"unsupported algorithm 'md5'" in got.stderr


def test_version_as_coreutils(files):
    """--version: one line naming the program and its version on standard output, status 0,
    whatever else is on the line (coreutils stops at it too); the version is the package's."""
    import litedigest

    d, _ = files
    g = run(["sha256sum", "--version", "f0.bin"], d)
    assert g[0] == 0 and g[1].startswith(b"sha256sum (GNU coreutils) ")
    for cmd, line in (
        (LD, "litedigest sum"),
        (LD[:-1] + ["hmac"], "litedigest hmac"),
        (LD[:-1], "litedigest"),
    ):
        rc, out, err = run(cmd + ["--version", "f0.bin"], d)
        assert (rc, out, err) == (
            0,
            f"{line} (LiteDigest) {litedigest.__version__}\n".encode(),
            b"",
        )
    assert litedigest.__version__ == (
        open(os.path.join(repo_root(), "software", "firmware", "lib", "VERSION")).read().strip()
    )
