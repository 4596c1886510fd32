# SPDX-License-Identifier: BSD-2-Clause
"""The ECP5 board target (soc/targets/ecp5.py); the
committed manifest/bitstream: test_bitstream_ecp5.py."""

import hashlib
import json

import pytest
from litedigest.soc.targets import ecp5


def run_ecp5(argv):
    """What `litedigest build ecp5 ARGV` runs (cmd_build hands the target's parser to build)."""
    import argparse

    p = argparse.ArgumentParser(prog="litedigest build ecp5")
    ecp5.add_arguments(p)
    return ecp5.build(p.parse_args(argv))


def generate(soc, out):
    """LiteX writes the SoC's gateware sources and csr.json to `out`, building nothing."""
    from litex.soc.integration.builder import Builder

    Builder(
        soc,
        output_dir=str(out),
        compile_software=False,
        compile_gateware=False,
        csr_json=str(out / "csr.json"),
    ).build(run=False)


def test_generate_small_soc_verilog(tmp_path):
    """LiteX generates the ULX3S SoC with one engine: Verilog, LPF, Yosys script, CSR map."""
    soc = ecp5.make_soc(hash_engines="sha1:base", main_ram_size=16 * 1024)
    generate(soc, tmp_path)
    gw = tmp_path / "gateware"
    v = (gw / "radiona_ulx3s.v").read_text()
    assert "module radiona_ulx3s" in v and "EHXPLLL" in v and "VexRiscv" in v
    assert "synth_ecp5" in (gw / "radiona_ulx3s.ys").read_text()
    lpf = (gw / "radiona_ulx3s.lpf").read_text()
    assert '"G2"' in lpf  # the 25 MHz oscillator
    csr = json.loads((tmp_path / "csr.json").read_text())
    assert csr["constants"]["sha1_engine"] == "sha1:base:p1"
    assert (
        csr["constants"]["sha1_dma_align"] == ecp5.DEFAULT_DMA_ROW_BITS // 8
    )  # main RAM's DMA port
    assert soc.main_ram.row_bits == soc.sha1.dma_width == ecp5.DEFAULT_DMA_ROW_BITS
    assert csr["memories"]["main_ram"]["size"] == 16 * 1024
    assert csr["constants"]["config_cpu_reset_addr"] == ecp5.MAIN_RAM_BASE
    assert soc.platform.device == "LFE5U-85F-6BG381C"
    # the main RAM init file is found by its depth
    assert ecp5.main_ram_init_file(str(gw), 16 * 1024, ecp5.DEFAULT_DMA_ROW_BITS).endswith(
        "main_ram.init"
    )


def test_generate_soc_with_the_hmac_engine(tmp_path):
    """The HMAC peripheral in the ECP5 SoC's engine list: LiteX generates it with its key-slot
    register (the board image keeps its default engine: see the README)."""
    soc = ecp5.make_soc(hash_engines="sha256:opt,hmac-sha256:opt", main_ram_size=16 * 1024)
    generate(soc, tmp_path)
    csr = json.loads((tmp_path / "csr.json").read_text())
    assert csr["constants"]["hmac_sha256_engine"] == "hmac-sha256:opt:p1"
    assert "hmac_sha256_keys_valid" in csr["csr_registers"]
    assert "sha256_keys_valid" not in csr["csr_registers"]


def test_engine_list_and_tag():
    assert ecp5.engine_list(None) == list(ecp5.DEFAULT_ENGINES)
    assert ecp5.engine_list(" sha1:base, sha256 ") == ["sha1:base", "sha256"]
    assert ecp5.engines_tag(["sha1:base", "sha256"]) == "sha1-base-p1+sha256-opt-p1"
    assert ecp5.firmware_app(["sha1:opt", "sha256:opt"]) == "demo"
    assert ecp5.firmware_app(["sha1:opt"]) == "idle"


def test_bad_input(capsys):
    from litedigest.spec import SpecError

    with pytest.raises(SpecError):
        ecp5.make_soc(hash_engines="sha1:nope")
    with pytest.raises(ValueError, match="unknown board"):
        ecp5.make_soc(board="arty")
    with pytest.raises(ValueError, match="LFE5U-12F"):
        ecp5.make_soc(device="LFE5U-12F")
    with pytest.raises(SystemExit) as e:
        run_ecp5(["--board", "no_such_board"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    assert run_ecp5(["--hash-engine", "sha9"]) == 2
    assert "unknown algorithm" in capsys.readouterr().err
    assert run_ecp5(["--device", "LFE5U-12F"]) == 2
    assert run_ecp5(["--seeds", ","]) == 2
    assert run_ecp5(["--dma-row-bits", "1024"]) == 2  # wider than the SHA-256 block
    assert "32 to 512 bits" in capsys.readouterr().err
    assert run_ecp5(["--hash-engine", "sha256:base", "--dma-row-bits", "48"]) == 2


def test_router_option_and_command_line():
    import argparse

    p = argparse.ArgumentParser()
    ecp5.add_arguments(p)
    args = p.parse_args(["--hash-engine", "sha256:opt", "--seeds", "1", "--router", "router2"])
    assert (
        ecp5._cmdline(args)
        == "litedigest build ecp5 --hash-engine sha256:opt --seeds 1 --router router2"
    )
    assert "--router" not in ecp5._cmdline(p.parse_args([]))
    args = p.parse_args(["--dma-row-bits", "512"])
    assert ecp5._cmdline(args) == "litedigest build ecp5 --dma-row-bits 512"
    assert not ecp5._is_default(args, ecp5.engine_list(None), "LFE5U-85F")
    with pytest.raises(SystemExit):
        p.parse_args(["--router", "router9"])


@pytest.mark.slow
def test_full_bitstream_build(tmp_path):
    """The whole flow for a one-engine SoC: Verilog, firmware, synth_ecp5, nextpnr, ecppack."""
    out = tmp_path / "bitstreams"
    rc = run_ecp5(
        [
            "--hash-engine",
            "sha256:base",
            "--seeds",
            "1",
            "--build-dir",
            str(tmp_path / "b"),
            "--bitstreams-dir",
            str(out),
        ]
    )
    assert rc == 0
    man = json.loads((out / "manifest.json").read_text())
    assert man["engines"] == ["sha256:base"] and man["fmax"]["median_mhz"] > 10
    assert man["firmware"]["app"] == "demo"
    bit = tmp_path / "b" / "gateware" / "radiona_ulx3s.bit"
    assert hashlib.sha256(bit.read_bytes()).hexdigest() == man["bitstream"]["sha256"]


def test_engine_clocks(tmp_path, capsys):
    """`--engine-clock`: the engines named run in a domain of that frequency (a PLL output, one
    per frequency), their constant says so; bad values are refused before anything is built."""
    engines = ["sha256:base", "sha512:k5", "skein512:r8"]
    assert ecp5.parse_engine_clocks("sha512:k5=25, skein512:r8=20", engines) == {
        "sha512:k5:p1": 25.0,
        "skein512:r8": 20.0,
    }
    assert ecp5.parse_engine_clocks(None) == {}
    assert ecp5.engine_domain_name(12.5) == "eng12p5"
    for bad, msg in [
        ("sha1:base=25", "not one of the engines"),
        ("sha512:k5=fast", "spec=MHz"),
        ("sha512:k5", "spec=MHz"),
        ("sha512:k5=0.5", "outside"),
        ("sha512:k5=25,sha512:k5:p1=20", "twice"),
    ]:
        with pytest.raises(ValueError, match=msg):
            ecp5.parse_engine_clocks(bad, engines)
    with pytest.raises(ValueError, match="at most 3"):
        ecp5.parse_engine_clocks(
            "sha256:base=10,sha512:k5=20,skein512:r8=30,sha1:base=40", engines + ["sha1:base"]
        )
    assert run_ecp5(["--hash-engine", "sha256:base", "--engine-clock", "sha256:base=50"]) == 2
    assert "equal to the sys clock" in capsys.readouterr().err

    soc = ecp5.make_soc(
        hash_engines=",".join(engines),
        main_ram_size=16 * 1024,
        engine_clocks="sha512:k5=25,skein512:r8=20",
    )
    generate(soc, tmp_path)
    v = (tmp_path / "gateware" / "radiona_ulx3s.v").read_text()
    assert "posedge eng25_clk" in v and "posedge eng20_clk" in v
    assert {n: p.engine_domain for n, p in soc.hash_peripherals.items()} == {
        "sha256": "sys",
        "sha512": "eng25",
        "skein512": "eng20",
    }
    csr = json.loads((tmp_path / "csr.json").read_text())
    assert csr["constants"]["sha512_engine_clk_freq"] == 25_000_000
    assert "sha256_engine_clk_freq" not in csr["constants"]
    # the PLL makes the three clocks (besides its feedback output)
    assert sorted(c[1] for c in soc.crg.pll.clkouts.values() if c[1]) == [20e6, 25e6, 50e6]
    # nextpnr names clock nets after a sink: the domains are told apart by their constraints
    fmax = {"$glbnet$a": 52.0, "$glbnet$b": 27.5, "$glbnet$c": 21.0}
    constraint = {"$glbnet$a": 50.0, "$glbnet$b": 25.0, "$glbnet$c": 20.0}
    assert ecp5._clock_nets(
        fmax, constraint, 50.0, {"sha512:k5:p1": 25.0, "skein512:r8": 20.0}
    ) == {"sys": "$glbnet$a", "eng25": "$glbnet$b", "eng20": "$glbnet$c"}
    args = __import__("argparse").ArgumentParser()
    ecp5.add_arguments(args)
    a = args.parse_args(["--hash-engine", "sha512:k5", "--engine-clock", "sha512:k5=25"])
    assert (
        ecp5._cmdline(a)
        == "litedigest build ecp5 --hash-engine sha512:k5 --engine-clock sha512:k5=25"
    )
    assert not ecp5._is_default(a, ecp5.engine_list("sha256:opt"), "LFE5U-85F")


_PNR_CALLS = []


def _stand_in_pnr_seed(
    build_dir, gw, top, seed, device, b, router, placer, sys_mhz, clocks=None, step=print
):
    """pnr_seed's stand-in (module level: Dask pickles the functions it runs): seed 3 fails."""
    _PNR_CALLS.append(seed)
    if seed == 3:
        raise RuntimeError("nextpnr crashed")
    return dict(seed=seed, sys_fmax_mhz=50.0 + seed, domain_fmax_mhz={"eng25": 25.5}, seconds=1.0)


def test_seeds_on_a_dask_cluster(monkeypatch):
    """`build ecp5 --jobs N`: the seeds' place and route as tasks of a Dask cluster (threads
    here, so that the stand-in pnr_seed reaches them); a seed that fails twice is reported and
    left to the caller; the --jobs option does not enter the manifest's recipe."""
    import argparse

    from distributed import Client, LocalCluster
    from litedigest.soc.flows import cluster

    calls = _PNR_CALLS
    calls.clear()
    monkeypatch.setattr(ecp5, "pnr_seed", _stand_in_pnr_seed)
    monkeypatch.setattr(
        cluster,
        "client_for",
        lambda jobs=None, scheduler=None: Client(
            LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=False, dashboard_address=None
            )
        ),
    )
    lines = []
    pnr = ("b", "gw", "top", "LFE5U-85F", {}, "router1", "heap", 50.0)
    out = ecp5._seeds_on_cluster(pnr, [1, 2, 3], 2, None, lines.append)
    assert {sd: r["sys_fmax_mhz"] for sd, r in out.items()} == {1: 51.0, 2: 52.0}
    assert calls.count(3) == 2  # tried again once
    assert any("seed 3 failed twice" in line for line in lines)
    assert any("seed 1: sys clock 51.0 MHz routed" in line for line in lines)
    p = argparse.ArgumentParser()
    ecp5.add_arguments(p)
    args = p.parse_args(["--seeds", "1,2,3", "--jobs", "3"])
    assert args.jobs == 3 and "--jobs" not in ecp5._cmdline(args)
