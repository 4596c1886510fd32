# SPDX-License-Identifier: BSD-2-Clause
"""The package as its users get it (docs/PACKAGING.md): `python -m build` makes an sdist and a
wheel (the wheel built from the sdist, so the sdist must carry the C library the cffi
extension compiles); the wheel goes into a clean venv without extras -- the PYNQ board's
install -- where Migen and LiteX are not importable, the `sw` backend and the CLI hash, the
optional commands say which extra they need, and the `pynq` backend drives the simulated SoC
(started by this test process, which has the extras, and reached by the clean venv through its
bridge alone: the board's driver code, a simulated board behind it)."""

import hashlib
import hmac
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest
from litedigest import _clib as native
from litedigest import spec
from litedigest.paths import build_root, repo_root

WORK = os.path.join(build_root(), "packaging")
# what a PYNQ image has besides litedigest's own dependencies: numpy (pynq depends on it)
BOARD_PACKAGES = ["numpy"]


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, (
        f"{cmd} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    )
    return r


def _pip_install(py, *args):
    """pip install `args` quietly into the venv of the interpreter `py`."""
    return _run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *args])


@pytest.fixture(scope="module")
def dist():
    out = os.path.join(WORK, "dist")
    shutil.rmtree(out, ignore_errors=True)
    # --no-isolation: the build requirements (setuptools, wheel, cffi) are this venv's
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, repo_root()])
    files = os.listdir(out)
    sdist = [f for f in files if f.endswith(".tar.gz")]
    wheel = [f for f in files if f.endswith(".whl")]
    assert len(sdist) == 1 and len(wheel) == 1, files
    return os.path.join(out, sdist[0]), os.path.join(out, wheel[0])


@pytest.fixture(scope="module")
def venv(dist):
    path = os.path.join(WORK, "venv")
    _run([sys.executable, "-m", "venv", "--clear", path])
    py = os.path.join(path, "bin", "python")
    _pip_install(py, dist[1], *BOARD_PACKAGES)
    return py


def test_sdist_carries_the_c_library_and_the_notebooks(dist):
    with tarfile.open(dist[0]) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    lib = os.path.join(repo_root(), "software", "firmware", "lib")
    for sub in ("src", os.path.join("include", "litedigest")):
        for f in os.listdir(os.path.join(lib, sub)):
            if f.endswith((".c", ".h")):
                assert f"software/firmware/lib/{sub}/{f}" in names, f
    for f in ("CMakeLists.txt", "meson.build", "Makefile", "litedigest.pc.in"):
        assert f"software/firmware/lib/{f}" in names, f
    for nb in ("01_interactive_hashing", "02_speedup", "03_design_space"):
        assert f"notebooks/{nb}.ipynb" in names


def _package_sets():
    """setup.py's base packages (the wheel's) and checkout-only packages, {package: folder}."""
    spec = importlib.util.spec_from_file_location(
        "lint_imports", os.path.join(repo_root(), "scripts", "lint_imports.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.package_sets()


def test_wheel_has_the_board_users_modules_and_no_gateware(dist):
    """Every module of the base packages is in the wheel; the gateware and the build and
    verification tools (an editable install's) are not."""
    names = set(zipfile.ZipFile(dist[1]).namelist())
    sets = _package_sets()
    for pkg, folder in sets["BASE"].items():
        top = os.path.join(repo_root(), folder)
        for fn in os.listdir(top):
            if fn.endswith(".py"):
                assert f"{pkg.replace('.', '/')}/{fn}" in names, f"{pkg}.{fn} is not in the wheel"
    for pkg in sets["CHECKOUT"]:
        inside = [n for n in names if n.startswith(pkg.replace(".", "/") + "/")]
        assert not inside, f"the wheel carries {pkg}: {inside[:3]}"
    assert any(n.startswith("litedigest/_clib/_native") and n.endswith(".so") for n in names)
    for nb in ("01_interactive_hashing", "02_speedup", "03_design_space"):
        assert f"litedigest/notebooks/{nb}.ipynb" in names


CHECK_BASE = r"""
import hashlib, importlib.util, json, sys
cases = json.load(open(sys.argv[1]))
for mod in ("migen", "litex", "litedram", "pythondata_cpu_vexriscv"):
    assert importlib.util.find_spec(mod) is None, f"{mod} is importable in the base install"
import litedigest
from litedigest import extras
assert not extras.available("soc") and not extras.available("flows")
for c in cases:
    h = litedigest.new(c["alg"], bytes.fromhex(c["msg"]), backend="sw", **c.get("kw", {}))
    assert h.hexdigest() == c["hex"], (c["alg"], h.hexdigest(), c["hex"])
for backend in ("rtl", "soc"):
    try:
        litedigest.new("sha256", b"abc", backend=backend)
    except ImportError as e:
        assert "[soc]" in str(e), str(e)
    else:
        raise AssertionError(f"backend {backend} worked without the soc extra")
from importlib.metadata import entry_points
import importlib, os
(ep,) = [e for e in entry_points(group="pynq.notebooks") if e.name == "litedigest"]
nbdir = os.path.dirname(importlib.import_module(ep.value).__file__)
assert {"01_interactive_hashing.ipynb", "02_speedup.ipynb"} <= set(os.listdir(nbdir)), (
    os.listdir(nbdir)
)
print("base ok", len(cases))
"""


def _cases():
    rnd = __import__("random").Random(18)
    out = []
    for alg in spec.ALGORITHMS:
        for n in (0, 3, 55, 64, 1000):
            msg = bytes(rnd.randrange(256) for _ in range(n))
            if alg.startswith("skein512-"):
                out.append(
                    {
                        "alg": alg,
                        "msg": msg.hex(),
                        "hex": native.skein512(msg, digest_bits=int(alg[9:])).hex(),
                    }
                )
            elif alg == "skein512":
                for bits in (512, 256, 1000):
                    out.append(
                        {
                            "alg": alg,
                            "msg": msg.hex(),
                            "kw": {"digest_bits": bits},
                            "hex": native.skein512(msg, digest_bits=bits).hex(),
                        }
                    )
            else:
                out.append({"alg": alg, "msg": msg.hex(), "hex": hashlib.new(alg, msg).hexdigest()})
    return out


def test_base_install_hashes_without_migen_or_litex(venv, tmp_path):
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(_cases()))
    script = tmp_path / "check.py"
    script.write_text(CHECK_BASE)
    r = _run([venv, str(script), str(cases)], cwd=tmp_path)
    assert r.stdout.startswith("base ok")


def test_base_install_command_line(venv, tmp_path):
    exe = os.path.join(os.path.dirname(venv), "litedigest")
    f = tmp_path / "data.bin"
    f.write_bytes(b"LiteDigest on the board\n" * 100)
    r = _run([exe, "sum", "-a", "sha256", str(f)], cwd=tmp_path)
    assert r.stdout == f"{hashlib.sha256(f.read_bytes()).hexdigest()}  {f}\n"
    for cmd, extra in (
        (["demo"], "soc"),
        (["bench", "--backend", "rtl"], "soc"),
        (["build", "ecp5"], "flows"),
        (["dse"], "flows"),
    ):
        r = subprocess.run([exe, *cmd], capture_output=True, text=True, cwd=tmp_path)
        assert r.returncode == 2, (cmd, r.stdout, r.stderr)
        assert f"[{extra}]" in r.stderr and "Traceback" not in r.stderr, (cmd, r.stderr)


CHECK_PYNQ = r"""
import json, sys
import litedigest
import litedigest.hmac
from litedigest.backends import pynq as pynq_backend
from litedigest.board.sim import attach_sim_device
port, csr_json, cases = int(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3]))
dev = attach_sim_device(port, csr_json)
pynq_backend.use_device(dev)
try:
    for c in cases:
        if "key" in c:         # the HMAC engine
            h = litedigest.hmac.new(bytes.fromhex(c["key"]), bytes.fromhex(c["msg"]), c["alg"],
                                    backend="pynq", engine=c["engine"])
        else:
            h = litedigest.new(c["alg"], bytes.fromhex(c["msg"]), backend="pynq",
                               engine=c["engine"])
        assert h.hexdigest() == c["hex"], (c, h.hexdigest())
finally:
    dev.close_sim()
print("pynq ok", len(cases))
"""


@pytest.fixture(scope="module")
def running_sim():
    from litedigest.board.sim import start_sim

    sim, build = start_sim()
    sim.bus.close()  # the bridge serves one client: the clean venv's
    yield sim, build
    sim.close()


def test_base_install_pynq_backend_drives_the_simulated_board(venv, running_sim, tmp_path):
    sim, build = running_sim
    rnd = __import__("random").Random(5)
    cases = []
    for inst, eng in sorted(json.load(open(build.csr_json))["constants"].items()):
        if not inst.endswith("_engine"):
            continue
        s = spec.parse(eng)
        mac = s.mac
        alg = mac.hash_family if mac else s.family  # each family's own hash; HMAC's hash
        for n in (0, 64, 1500):
            msg = bytes(rnd.randrange(256) for _ in range(n))
            if mac:
                key = bytes(rnd.randrange(256) for _ in range(n % 100 + 5))
                cases.append(
                    {
                        "alg": alg,
                        "engine": eng,
                        "msg": msg.hex(),
                        "key": key.hex(),
                        "hex": hmac.new(key, msg, alg).hexdigest(),
                    }
                )
                continue
            ref = (
                native.skein512(msg).hex()
                if alg == "skein512"
                else hashlib.new(alg, msg).hexdigest()
            )
            cases.append({"alg": alg, "engine": eng, "msg": msg.hex(), "hex": ref})
    assert cases
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "check.py").write_text(CHECK_PYNQ)
    r = _run(
        [
            venv,
            str(tmp_path / "check.py"),
            str(sim.port),
            build.csr_json,
            str(tmp_path / "cases.json"),
        ],
        cwd=tmp_path,
        timeout=600,
    )
    assert r.stdout.startswith("pynq ok")


def test_sdist_installs_offline_with_the_boards_build_tools(dist, tmp_path):
    """The board's route (docs/PACKAGING.md): a venv that already has what a PYNQ image has
    (setuptools, wheel, cffi, and tqdm, a dependency of pynq) installs the sdist with
    --no-index --no-build-isolation, compiling the C library from the sdist's sources, and
    hashes."""
    path = tmp_path / "board"
    _run([sys.executable, "-m", "venv", str(path)])
    py = str(path / "bin" / "python")
    _pip_install(py, "setuptools>=68", "wheel", "cffi", "tqdm")
    _pip_install(py, "--no-index", "--no-build-isolation", dist[0])
    r = _run(
        [py, "-c", "import litedigest; print(litedigest.new('sha512', b'abc').hexdigest())"],
        cwd=tmp_path,
    )
    assert r.stdout.strip() == hashlib.sha512(b"abc").hexdigest()
