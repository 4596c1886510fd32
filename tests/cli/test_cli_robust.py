# SPDX-License-Identifier: BSD-2-Clause
"""The CLI under bad input and signals (issue 16): clear errors, never a traceback; a `--backend
soc` command killed with SIGTERM or SIGHUP takes its simulator and run directory with it."""

import glob
import os
import signal
import subprocess
import sys
import time

import pytest
from sim_driver import sigint_default

LITEDIGEST = [sys.executable, "-m", "litedigest.cli"]


def run(args, **kw):
    return subprocess.run(LITEDIGEST + args, capture_output=True, timeout=600, **kw)


@pytest.mark.parametrize(
    "args,msg",
    [
        (["bench", "--sizes", "99999999999"], b"sizes must be between 0 and"),
        (["bench", "--sizes", "-1"], b"sizes must be between 0 and"),
        (["bench", "--sizes", "1,x"], b"comma-separated integers"),
        (["demo", "--timeout", "-1"], b"--timeout must be a positive"),
        (["demo", "--timeout", "nan"], b"--timeout must be a positive"),
    ],
)
def test_bad_arguments_are_clear_errors(args, msg):
    r = run(args)
    assert r.returncode == 2 and msg in r.stderr, r.stderr
    assert b"Traceback" not in r.stderr


def _sims_in(tmpdir):
    """pids of processes whose working directory is a run directory under tmpdir"""
    pids = []
    for d in glob.glob("/proc/[0-9]*"):
        try:
            cwd = os.readlink(os.path.join(d, "cwd"))
        except OSError:
            continue
        if cwd.startswith(str(tmpdir)):
            pids.append(int(os.path.basename(d)))
    return pids


@pytest.mark.soc
def test_an_expiring_timeout_is_reported(tmp_path):
    r = run(["demo", "--timeout", "0.001"], env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert r.returncode == 1 and b"timed out" in r.stderr and b"Traceback" not in r.stderr, r.stderr
    assert not glob.glob(str(tmp_path / "ldsim-*")) and not _sims_in(tmp_path)


def _signalled_while_running(args, tmp_path, sig, settle):
    """Run `litedigest args` with its run directories under tmp_path, send it `sig` `settle`
    seconds after its simulator started; (status, stdout, stderr), the simulator and its run
    directory checked gone."""
    p = subprocess.Popen(
        LITEDIGEST + args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, TMPDIR=str(tmp_path)),
        preexec_fn=sigint_default,
    )
    try:
        deadline = time.monotonic() + 900  # a first run builds the SoC
        sims = []
        while time.monotonic() < deadline and not sims and p.poll() is None:
            time.sleep(0.5)
            sims = _sims_in(tmp_path)
        assert sims, f"the simulator of {args} did not start"
        time.sleep(settle)
        assert p.poll() is None, f"{args} ended before the signal"
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    time.sleep(0.5)
    assert not _sims_in(tmp_path), "the simulator outlived its command"
    assert not glob.glob(str(tmp_path / "ldsim-*")), "the run directory was left behind"
    return p.returncode, out, err


@pytest.mark.soc
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the simulator")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_killed_command_takes_its_simulator_along(tmp_path, sig):
    rc, _, err = _signalled_while_running(["demo"], tmp_path, sig, 1.0)
    assert rc == 128 + sig, (rc, err)
    assert b"Traceback" not in err, err


@pytest.mark.soc
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the simulator")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_while_hashing_on_the_soc_is_a_clean_stop(tmp_path, sig):
    """`litedigest sum --backend soc` stopped by a signal while the C driver is busy: the
    shell's status (128 + the signal), no traceback and no hardware error, at most one line on
    stderr, the simulator and its run directory gone."""
    big = tmp_path / "big"
    big.write_bytes(os.urandom(16 << 20))
    args = ["sum", "-a", "sha256", "--backend", "soc", str(big)]
    rc, out, err = _signalled_while_running(args, tmp_path, sig, 8.0)  # booted, hashing
    assert rc == 128 + sig, (rc, err)
    assert out == b""
    assert b"Traceback" not in err and b"Error" not in err, err
    assert len(err.splitlines()) <= 1, err
