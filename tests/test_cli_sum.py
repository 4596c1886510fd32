"""`litedigest sum` against GNU coreutils sha256sum/sha224sum, byte for byte."""
import os
import random
import shutil
import subprocess
import sys

import pytest

from litedigest import cli

pytestmark = pytest.mark.skipif(shutil.which("sha256sum") is None, reason="coreutils not installed")

LD = [sys.executable, "-m", "litedigest.cli", "sum"]


def run(cmd, cwd, stdin=b""):
    r = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True)
    return r.returncode, r.stdout, r.stderr


def compare(gnu_tool, args, cwd, stdin=b"", algo=None):
    """Same exit status, identical stdout, same stderr up to the program name."""
    algo = algo or gnu_tool[:6]
    g = run([gnu_tool] + args, cwd, stdin)
    m = run(LD + ["-a", algo] + args, cwd, stdin)
    assert m[0] == g[0], (args, g, m)
    assert m[1] == g[1], (args, g[1], m[1])
    assert m[2].replace(b"litedigest:", b"X:") == g[2].replace(gnu_tool.encode() + b":", b"X:"), (args, g[2], m[2])
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
    rc, out, _ = run(LD + ["-a", "sha256", "--engine", "sha256:base", "--backend", "sw", "f55.bin"], d)
    assert rc == 0 and out == subprocess.run(["sha256sum", "f55.bin"], cwd=d, capture_output=True).stdout
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
    assert capsysbinary.readouterr().out == \
        b"d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f  f0.bin\n"
    exe = shutil.which("litedigest", path=os.path.dirname(sys.executable))
    if exe:
        r = subprocess.run([exe, "sum", "f0.bin"], cwd=d, capture_output=True)
        assert r.returncode == 0 and r.stdout.startswith(b"e3b0c442")
    with pytest.raises(SystemExit):
        cli.main(["nosuchcommand"])
