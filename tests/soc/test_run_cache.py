# SPDX-License-Identifier: BSD-2-Clause
"""socdemo.run_app keeps a firmware run's console beside the SoC build: a second run of the same
firmware on the same simulator reuses it; a new simulator binary, a new firmware image, `fresh`
or LITEDIGEST_RUN_CACHE=0 run it again; a run that fails leaves nothing behind. (The SoC, the
firmware build and the simulator are stand-ins here: the real ones are the other SoC tests'.)"""

import types

import pytest
from litedigest.measure import socdemo
from litedigest.soc.sim import build as build_mod
from litedigest.soc.sim import firmware as firmware_mod
from litedigest.soc.sim import process as process_mod
from litedigest.soc.sim.process import SimTimeout


class FakeSim:
    """Counts the runs; each run's console says which run it was."""

    runs = 0
    fail = False

    def __init__(self, build, firmware=None):
        self.firmware = firmware

    def __enter__(self):
        FakeSim.runs += 1
        return self

    def __exit__(self, *exc):
        return False

    def read_console_until(self, pattern, timeout, tick=None):
        if FakeSim.fail:
            raise SimTimeout(f"no {pattern} within {timeout} s")
        return f"LDRESULT run={FakeSim.runs}\n\r{pattern}\n\r"


@pytest.fixture
def soc(tmp_path, monkeypatch):
    vsim = tmp_path / "gateware" / "obj_dir" / "Vsim"
    vsim.parent.mkdir(parents=True)
    vsim.write_bytes(b"simulator 1")
    fw = tmp_path / "app.bin"
    fw.write_bytes(b"firmware 1")
    build = types.SimpleNamespace(build_dir=str(tmp_path), vsim=str(vsim), build_seconds=0.0)
    monkeypatch.setattr(build_mod, "build_soc", lambda engines, **kw: build)
    monkeypatch.setattr(firmware_mod, "build_firmware", lambda b, app, **kw: str(fw))
    monkeypatch.setattr(process_mod, "SimProcess", FakeSim)
    monkeypatch.delenv(socdemo.RUN_CACHE_ENV, raising=False)
    FakeSim.runs, FakeSim.fail = 0, False
    return types.SimpleNamespace(vsim=vsim, fw=fw, build=build)


def run(app="batch", **kw):
    text, _ = socdemo.run_app(["sha256:opt"], app, **kw)
    return text


def test_the_same_run_is_reused(soc):
    first = run()
    assert FakeSim.runs == 1 and "run=1" in first and "\r" not in first
    assert run() == first and FakeSim.runs == 1
    assert "run=2" in run("sched") and FakeSim.runs == 2  # another app is another run


@pytest.mark.parametrize("change", ["firmware", "simulator"])
def test_a_new_firmware_or_simulator_runs_again(soc, change):
    run()
    (soc.fw if change == "firmware" else soc.vsim).write_bytes(b"version 2")
    assert "run=2" in run() and FakeSim.runs == 2
    assert "run=2" in run() and FakeSim.runs == 2  # and that run is kept


def test_fresh_and_the_environment_run_again(soc, monkeypatch):
    run()
    assert "run=2" in run(fresh=True)
    monkeypatch.setenv(socdemo.RUN_CACHE_ENV, "0")
    assert "run=3" in run()
    monkeypatch.setenv(socdemo.RUN_CACHE_ENV, "1")
    assert "run=3" in run() and FakeSim.runs == 3  # the latest run was recorded


def test_a_failed_run_is_not_kept(soc):
    FakeSim.fail = True
    with pytest.raises(SimTimeout):
        run()
    FakeSim.fail = False
    assert "run=2" in run() and FakeSim.runs == 2


def test_the_demo_command_always_runs(soc, monkeypatch):
    seen = []
    monkeypatch.setattr(
        socdemo, "run_app", lambda *a, **kw: seen.append(kw.get("fresh")) or ("", soc.build)
    )
    from litedigest import cli

    cli.main(["demo"])
    assert seen == [True]
