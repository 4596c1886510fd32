# SPDX-License-Identifier: BSD-2-Clause
"""The C library as a firmware developer takes it (software/firmware/lib/README.md): built and
installed on its own with its Makefile, CMake or Meson; a program that uses it through the
installed pkg-config file or CMake package; the build-time configuration (ld_config.h) taking
out what a small target does not use; cross builds for rv32 and arm-none-eabi warning-free
(-Wpedantic -Werror) in every configuration; and the minimal example firmware, built from the
installed rv32 library and the SoC's generated headers only, hashing on the simulated SoC."""

import hashlib
import importlib.util
import os
import shutil
import subprocess

import pytest
from litedigest.paths import repo_root

LIB = os.path.join(repo_root(), "software", "firmware", "lib")
EXAMPLE = os.path.join(repo_root(), "software", "firmware", "examples", "minimal")

# a program of the library's user: hashes stdin with the algorithm named on the command line
CONSUMER_C = r"""
#include <stdio.h>
#include <string.h>
#include <litedigest/ld_md.h>

int main(int argc, char **argv)
{
    static unsigned char data[1 << 16];
    unsigned char out[64];
    size_t n = fread(data, 1, sizeof data, stdin);
    int alg, r;

    for (alg = 0; alg < LD_ALG_COUNT; alg++)   /* NULL: an algorithm configured out */
        if (argc > 1 && ld_md_name(alg) != NULL && strcmp(ld_md_name(alg), argv[1]) == 0)
            break;
    r = ld_md(alg, data, n, out);
    if (r != LD_OK) {
        printf("error %d\n", r);
        return 1;
    }
    for (r = 0; r < (int)ld_md_digest_size(alg); r++)
        printf("%02x", out[r]);
    printf("\n");
    return 0;
}
"""
CONSUMER_CMAKE = """
cmake_minimum_required(VERSION 3.13)
project(consumer C)
find_package(litedigest REQUIRED)
add_executable(consumer consumer.c)
target_link_libraries(consumer litedigest::litedigest)
"""
DATA = bytes((i * 31 + 7) & 0xFF for i in range(3000))


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def _pkg(prefix, *args):
    libdirs = [
        os.path.join(dp, d) for dp, dns, _ in os.walk(prefix) for d in dns if d == "pkgconfig"
    ]
    env = dict(os.environ, PKG_CONFIG_PATH=":".join(libdirs))
    return _run(["pkg-config", *args, "litedigest"], env=env).stdout.split()


def _consumer(tmp_path, prefix):
    src = tmp_path / "consumer.c"
    src.write_text(CONSUMER_C)
    exe = tmp_path / "consumer"
    _run(
        [
            "cc",
            "-std=c99",
            "-Wall",
            "-Werror",
            str(src),
            "-o",
            str(exe),
            *_pkg(prefix, "--cflags"),
            *_pkg(prefix, "--libs"),
        ]
    )
    return exe


def _hash(exe, alg):
    r = subprocess.run([str(exe), alg], input=DATA, capture_output=True)
    return r.returncode, r.stdout.decode().strip()


def test_make_install_and_pkg_config(tmp_path):
    prefix = tmp_path / "prefix"
    _run(["make", "-s", "-C", LIB, f"O={tmp_path / 'build'}", f"PREFIX={prefix}", "install"])
    for f in (
        "litedigest.h",
        "ld_md.h",
        "ld_hw.h",
        "ld_config.h",
        "ld_catalog.h",
        "ld_skein.h",
        "ld_hw_skein.h",
        "ld_sched.h",
        "ld_hmac.h",
    ):
        assert (prefix / "include" / "litedigest" / f).exists(), f
    assert (prefix / "lib" / "liblitedigest.a").exists()
    assert _pkg(prefix, "--modversion") == [open(os.path.join(LIB, "VERSION")).read().strip()]
    exe = _consumer(tmp_path, prefix)
    for alg in ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256"):
        assert _hash(exe, alg) == (0, hashlib.new(alg, DATA).hexdigest()), alg


def test_cmake_build_install_and_find_package(tmp_path):
    prefix = tmp_path / "prefix"
    _run(
        [
            "cmake",
            "-S",
            LIB,
            "-B",
            str(tmp_path / "build"),
            f"-DCMAKE_INSTALL_PREFIX={prefix}",
            "-DLITEDIGEST_SKEIN512=OFF",
        ]
    )
    _run(["cmake", "--build", str(tmp_path / "build")])
    _run(["cmake", "--install", str(tmp_path / "build")])
    lib = next(prefix.rglob("liblitedigest.a"))
    syms = _run(["nm", str(lib)]).stdout
    assert "ld_sha256_compress" in syms and "ld_skein512" not in syms, "Skein-512 configured out"
    assert "-DLD_CONFIG_SKEIN512=0" in _pkg(prefix, "--cflags")
    app = tmp_path / "app"
    app.mkdir()
    (app / "consumer.c").write_text(CONSUMER_C)
    (app / "CMakeLists.txt").write_text(CONSUMER_CMAKE)
    _run(["cmake", "-S", str(app), "-B", str(app / "build"), f"-DCMAKE_PREFIX_PATH={prefix}"])
    _run(["cmake", "--build", str(app / "build")])
    assert _hash(app / "build" / "consumer", "sha256") == (0, hashlib.sha256(DATA).hexdigest())


def test_meson_build_with_one_family(tmp_path):
    prefix = tmp_path / "prefix"
    _run(
        [
            "meson",
            "setup",
            str(tmp_path / "build"),
            LIB,
            f"--prefix={prefix}",
            "-Dsha1=false",
            "-Dsha512=false",
            "-Dskein512=false",
        ]
    )
    _run(["meson", "compile", "-C", str(tmp_path / "build")])
    _run(["meson", "install", "-C", str(tmp_path / "build")])
    lib = next(prefix.rglob("liblitedigest.a"))
    syms = _run(["nm", str(lib)]).stdout
    assert "ld_sha256_compress" in syms
    for gone in ("ld_sha1_compress", "ld_sha512_compress", "ld_skein512_ubi"):
        assert gone not in syms, gone
    exe = _consumer(tmp_path, prefix)
    assert _hash(exe, "sha256") == (0, hashlib.sha256(DATA).hexdigest())
    assert _hash(exe, "sha224") == (0, hashlib.sha224(DATA).hexdigest())
    # a family configured out is refused, like an unknown algorithm (LD_ERR_ARG)
    assert _hash(exe, "sha1") == (1, "error -1")
    assert _hash(exe, "sha512") == (1, "error -1")


def _sizes_module():
    path = os.path.join(repo_root(), "scripts", "c_library_sizes.py")
    spec = importlib.util.spec_from_file_location("c_library_sizes", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("target", [0, 1, 2], ids=["rv32im", "cortex-m0", "cortex-a9"])
def test_cross_builds_every_configuration(target, tmp_path):
    sizes = _sizes_module()
    name, prefix, cflags = sizes.TARGETS[target]
    if shutil.which(prefix + "gcc") is None:
        pytest.fail(f"{prefix}gcc is missing (scripts/setup.sh installs it)")
    text = {}
    for i, (cname, config) in enumerate(sizes.CONFIGS):
        text[cname] = sizes.build(prefix, cflags, config, str(tmp_path / f"c{i}"))["text"]
    # each configuration takes something out of the one before it
    values = [text[c] for c, _ in sizes.CONFIGS]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values), text


@pytest.fixture(scope="module")
def soc_build():
    from litedigest.soc.sim.build import build_soc
    from litedigest.soc.targets.sim import MAIN_SOC

    return build_soc(list(MAIN_SOC))


@pytest.mark.parametrize(
    "config",
    ["", "LD_CONFIG_SHA1=0 LD_CONFIG_SHA512=0 LD_CONFIG_SKEIN512=0 LD_CONFIG_HAL_INLINE=1"],
    ids=["default", "sha256-inline-hal"],
)
def test_minimal_example_firmware_on_the_simulated_soc(config, soc_build, tmp_path):
    from litedigest.soc.sim.process import SimProcess

    prefix = tmp_path / "ld-rv32"
    _run(
        [
            "make",
            "-s",
            "-C",
            LIB,
            f"O={tmp_path / 'lib'}",
            f"PREFIX={prefix}",
            "install",
            "CC=riscv64-unknown-elf-gcc",
            "AR=riscv64-unknown-elf-ar",
            "CFLAGS=-march=rv32im -mabi=ilp32 -Os",
            f"CONFIG={config}",
        ]
    )
    out = tmp_path / "fw"
    _run(
        [
            "make",
            "-s",
            "-C",
            EXAMPLE,
            f"BUILD_DIR={soc_build.build_dir}",
            f"PREFIX={prefix}",
            f"OUT={out}",
        ]
    )
    # the example sees the library only through what was installed (pkg-config's -I/-L)
    mapfile = (out / "minimal.elf.map").read_text()
    assert str(prefix / "lib" / "liblitedigest.a") in mapfile
    assert "software/firmware/lib" not in mapfile.replace(str(prefix), "")
    with SimProcess(soc_build, firmware=str(out / "minimal.bin")) as sim:
        console = sim.read_console_until("MINIMAL done", timeout=120)
    lines = dict(
        l.split()[1:3] for l in console.splitlines() if l.startswith("MINIMAL ") and "done" not in l
    )
    message = bytes((i * 7 + 1) & 0xFF for i in range(1000))
    assert lines == {
        "sw-abc": hashlib.sha256(b"abc").hexdigest(),
        "csr-abc": hashlib.sha256(b"abc").hexdigest(),
        "dma-1000": hashlib.sha256(message).hexdigest(),
    }, console[-800:]
