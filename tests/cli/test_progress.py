# SPDX-License-Identifier: BSD-2-Clause
"""The long commands' progress (litedigest.progress): one plain line per step on a stderr that
is not a terminal, nothing with --quiet, standard output untouched (bench --json byte for
byte), and Ctrl-C ending with one "interrupted ... kept" line and status 130.

The SoC build runs a stand-in target script (soc.sim.build.TARGET_SCRIPT) that goes through
the real build's phases in seconds; the firmware build and run are stubbed."""

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from litedigest import progress
from litedigest.cli.command import main
from litedigest.measure import socdemo
from litedigest.soc.sim import build as simbuild
from litedigest.soc.sim import firmware as simfirmware
from litedigest.soc.sim import process as simprocess
from sim_driver import sigint_default

FAKE_TARGET = textwrap.dedent(
    """\
    # the SoC build's stand-in: its phases as the real one shows them (build.log, files)
    import argparse, json, os, sys, time
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    a, _ = ap.parse_known_args()
    d, step = a.build_dir, float(os.environ.get("FAKE_STEP", "0"))
    gw = os.path.join(d, "gateware")
    os.makedirs(os.path.join(gw, "obj_dir"), exist_ok=True)
    with open(os.path.join(d, "fake_build.pid"), "w") as f:
        f.write(str(os.getpid()))
    print("INFO:SoC:generating", flush=True)
    time.sleep(step)
    open(os.path.join(gw, "build_sim.sh"), "w").close()
    time.sleep(step)
    print("verilator -Wno-fatal -O3 --cc sim.v", flush=True)
    time.sleep(step)
    for n in ("Vsim__1.cpp", "Vsim__2.cpp", "Vsim__1.o"):
        open(os.path.join(gw, "obj_dir", n), "w").close()
    print("make -j2 -C obj_dir -f Vsim.mk Vsim", flush=True)
    time.sleep(step)
    if os.environ.get("FAKE_HANG"):
        time.sleep(600)
    vsim = os.path.join(gw, "obj_dir", "Vsim")
    with open(vsim, "w") as f:
        f.write("#!/bin/sh\\n")
    os.chmod(vsim, 0o755)
    info = dict(gateware_dir=gw, software_dir=os.path.join(d, "software"), main_ram_base=0,
                main_ram_size=1024, main_ram_init="main_ram.init")
    with open(os.path.join(d, "sim_build_info.json"), "w") as f:
        json.dump(info, f)
    """
)


def _console():
    """A demo firmware's console: every path and size, the checks, the timer, LDDONE."""
    lines = []
    for n in (64, 1024, 16384):
        digest = hashlib.sha256(socdemo.demo_message(n)).hexdigest()
        for i, path in enumerate(("sw", "csr", "dma")):
            lines.append(
                f"LDRESULT path={path} bytes={n} cycles={(3 - i) * 10 * n} ok=1 digest={digest}"
            )
    lines += ["LDCHECK name=null_ctx ok=1", "LDTIMER cycles=12", "LDDONE"]
    return "\n".join(lines) + "\n"


class FakeSim:
    def __init__(self, build, firmware=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def read_console_until(self, pattern, timeout=30.0, tick=None):
        if tick is not None:
            tick(b"\nLDRESULT path=sw")
        return _console()


def _fake_firmware(b, app_dir, **kw):
    out = os.path.join(b.build_dir, "firmware", os.path.basename(app_dir))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "app.bin"), "wb") as f:
        f.write(b"\0" * 16)
    return os.path.join(out, "app.bin")


@pytest.fixture
def fake_soc(tmp_path, monkeypatch):
    """The SoC build through the stand-in target script, the firmware build and run stubbed,
    the build cache in tmp_path."""
    script = tmp_path / "fake_target.py"
    script.write_text(FAKE_TARGET)
    monkeypatch.setenv("LITEDIGEST_BUILD", str(tmp_path / "build"))
    monkeypatch.setattr(simbuild, "TARGET_SCRIPT", str(script))
    monkeypatch.setattr(simfirmware, "build_firmware", _fake_firmware)
    monkeypatch.setattr(simprocess, "SimProcess", FakeSim)
    return tmp_path


class TTY(io.StringIO):
    def isatty(self):
        return True


def test_not_a_terminal_one_plain_line_per_step(fake_soc, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_STEP", "1.3")  # (the build's phase is looked at every second)
    assert main(["demo"]) == 0
    out, err = capsys.readouterr()
    assert "LiteDigest demo: sha256:opt" in out and "SoC build" not in out
    lines = err.splitlines()
    assert "\r" not in err and "\x1b" not in err  # plain lines, no live line
    assert lines[0].startswith("building the simulated SoC with ")
    assert lines[1].startswith("SoC build in ")
    phases = [ln.removeprefix("SoC build: ") for ln in lines if ln.startswith("SoC build: ")]
    assert phases and phases == [p for p in simbuild.PHASES if p in phases]  # in order, once
    assert "verilating" in phases or "C++ compile of the model" in phases
    assert any(ln.startswith("SoC build done (") for ln in lines)
    assert lines[-2:] == [
        "building the demo firmware...",
        "running demo on the simulated SoC (Verilator + VexRiscv)...",
    ]


def test_quiet_prints_nothing_on_stderr(fake_soc, capsys):
    assert main(["demo", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "LiteDigest demo" in out


def _bench_json(argv, monkeypatch, capsys, tty=False):
    if tty:
        monkeypatch.setattr(sys, "stderr", TTY())
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, (sys.stderr.getvalue() if tty else err)


def test_bench_json_stdout_is_unchanged_by_progress(fake_soc, monkeypatch, capsys):
    monkeypatch.setenv(socdemo.RUN_CACHE_ENV, "0")
    argv = ["bench", "--backend", "soc", "--json"]
    rc, quiet_out, quiet_err = _bench_json(argv + ["--quiet"], monkeypatch, capsys)
    assert rc == 0 and quiet_err == ""
    rc, plain_out, plain_err = _bench_json(argv, monkeypatch, capsys)
    assert rc == 0 and plain_out == quiet_out and "running demo" in plain_err
    rc, tty_out, tty_err = _bench_json(argv, monkeypatch, capsys, tty=True)
    assert rc == 0 and tty_out == quiet_out and "running demo" in tty_err
    records = [json.loads(line) for line in quiet_out.splitlines()]
    assert len(records) == 9 and all(r["digest_ok"] for r in records)
    assert quiet_out == "".join(json.dumps(r) + "\n" for r in records)


def test_rtl_bench_of_several_engines_says_each(monkeypatch, capsys):
    from litedigest.cli import bench as cmd_bench

    def fake_rtl(spec, sizes):
        for n in sizes:
            yield {"engine": spec, "backend": "rtl", "path": "stream", "messages": 1,
                   "bytes": n, "cycles": n, "bytes_per_cycle": 1.0, "latency": 1,
                   "interval": 1, "occupancy": 1.0, "digest_ok": True}  # fmt: skip

    monkeypatch.setattr(cmd_bench, "bench_rtl", fake_rtl)
    argv = ["bench", "--engine", "sha1:base,sha256:base", "--sizes", "64,128", "--json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 4
    assert err.splitlines()[-2:] == [
        "bench rtl: 1/2 done: sha1:base (2 records), about 0 s left",
        "bench rtl: 2/2 done: sha256:base (2 records)",
    ]
    assert main(argv + ["--quiet"]) == 0
    assert capsys.readouterr() == (out, "")


def test_a_task_estimates_the_time_left_from_the_units_that_ran(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    err = io.StringIO()
    p = progress.Progress("litedigest dse", stream=err)
    t = progress.task(p, 6, "dse")
    t.advance("sha1:base cached", worked=False, n=2)  # cached: no time spent
    now[0] += 600
    t.advance("sha1:opt seed 1: 120.5 MHz")
    now[0] += 1200
    t.advance("sha1:opt seed 2: 118.0 MHz")
    assert err.getvalue().splitlines() == [
        "dse: 2/6 done: sha1:base cached",
        "dse: 3/6 done: sha1:opt seed 1: 120.5 MHz, about 30 min 00 s left",
        "dse: 4/6 done: sha1:opt seed 2: 118.0 MHz, about 30 min 00 s left",
    ]
    progress.keeping(p, "every seed run so far is kept")
    assert p.interrupted() == "litedigest dse: interrupted: every seed run so far is kept"
    # a plain callback hears the steps alone
    said = []
    progress.status(said.append, "x")
    progress.task(said.append, 3, "dse").advance("y")
    assert said == []


def test_a_terminal_gets_a_live_line(monkeypatch):
    tty = TTY()
    p = progress.Progress("litedigest demo", stream=tty)
    p("SoC build: verilating")
    p.status("3/40 objects")
    assert "SoC build: verilating" in tty.getvalue() and "3/40 objects" in tty.getvalue()
    p.close()
    quiet = TTY()
    q = progress.Progress("litedigest demo", stream=quiet, quiet=True)
    q("step")
    q.status("x")
    q.close()
    assert quiet.getvalue() == ""


def _interrupt_script(tmp_path):
    script = tmp_path / "fake_target.py"
    script.write_text(FAKE_TARGET)
    return textwrap.dedent(
        f"""\
        import sys
        from litedigest.soc.sim import build
        build.TARGET_SCRIPT = {str(script)!r}
        from litedigest.cli.command import main
        sys.exit(main(["demo"]))
        """
    )


def test_ctrl_c_says_what_is_kept_and_exits_130(tmp_path):
    env = dict(os.environ, LITEDIGEST_BUILD=str(tmp_path / "build"), FAKE_STEP="0.2", FAKE_HANG="1")
    p = subprocess.Popen(
        [sys.executable, "-c", _interrupt_script(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=str(tmp_path),
        preexec_fn=sigint_default,
    )
    try:
        seen = b""
        deadline = time.monotonic() + 120
        while b"C++ compile" not in seen and time.monotonic() < deadline:
            line = p.stderr.readline()
            if not line:
                break
            seen += line
        assert b"SoC build: C++ compile of the model" in seen, seen
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    err = (seen + err).decode()
    assert p.returncode == 130, err
    assert "Traceback" not in err and out == b""
    last = err.splitlines()[-1]
    assert last.startswith("litedigest demo: interrupted: the unfinished SoC build in build/soc/")
    assert last.endswith("is left as it is; the next run starts it again"), last
    # the stand-in build (its own process group) went with it
    (pidfile,) = (tmp_path / "build" / "soc").glob("*/fake_build.pid")
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the SoC build's process outlived the command")
