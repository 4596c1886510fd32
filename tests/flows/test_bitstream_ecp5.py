# SPDX-License-Identifier: BSD-2-Clause
"""The committed ECP5 build records: bitstreams/ecp5/manifest.json (written by `litedigest build
ecp5 --seeds 1`, bitstreams/ecp5/recipe.sh, from a real run), every other image's in a
directory of its own under bitstreams/ecp5/ (four_engines/, ...: each with its recipe.sh), and
the bitstreams they name."""

import hashlib
import json
import os

import pytest
from litedigest.paths import repo_root
from litedigest.soc.targets.ecp5 import BITSTREAM_COMMIT_LIMIT

ECP5_DIR = os.path.join(repo_root(), "bitstreams", "ecp5")
# the default image, then every directory beside it that holds a manifest
IMAGES = [""] + sorted(
    d for d in os.listdir(ECP5_DIR) if os.path.isfile(os.path.join(ECP5_DIR, d, "manifest.json"))
)
BITDIRS = [os.path.join(ECP5_DIR, d) for d in IMAGES]


def test_images_found():
    assert "four_engines" in IMAGES


@pytest.mark.parametrize("bitdir", BITDIRS, ids=[d or "default" for d in IMAGES])
def test_committed_manifest_and_bitstream(bitdir):
    with open(os.path.join(bitdir, "manifest.json")) as f:
        man = json.load(f)
    assert man["generated_by"].startswith("litedigest build ecp5")
    # the recipe next to the manifest runs the command that wrote it
    with open(os.path.join(bitdir, "recipe.sh")) as f:
        recipe = f.read()
    assert man["generated_by"].split(" ", 1)[1] + " " in recipe
    assert man["device"] == "LFE5U-85F" and man["package"] == "CABGA381" and man["speed_grade"] == 6
    # any engine set may be committed (bitstreams/ecp5/README.md says which one is)
    from litedigest import spec

    assert man["engines"] and all(spec.parse(e) for e in man["engines"])
    fm = man["fmax"]
    assert fm["per_seed_mhz"] and all(v > 5 for v in fm["per_seed_mhz"].values())
    vals = sorted(fm["per_seed_mhz"].values())
    assert vals[0] - 0.005 <= fm["median_mhz"] <= vals[-1] + 0.005  # the median is rounded to 0.01
    # engines in clock domains of their own (--engine-clock): each domain's clock counts too
    domains = man.get("engine_domains", {})
    for d in domains.values():
        routed = sorted(v for v in d["per_seed_mhz"].values() if v)
        assert d["engines"] and d["target_mhz"] > 0
        assert d["meets_target"] == (bool(routed) and d["median_mhz"] >= d["target_mhz"])
    assert fm["meets_target"] == (
        fm["median_mhz"] >= man["sys_clk_target_mhz"]
        and all(d["meets_target"] for d in domains.values())
    )
    assert man["main_ram"]["dma_row_bits"] in (32, 64, 128, 256, 512, 1024)
    for k in ("lut4", "ff", "ebr"):
        u = man["utilization"][k]
        assert 0 < u["used"] <= u["available"]
    for tool in ("yosys", "nextpnr", "ecppack", "litex"):
        assert man["tools"].get(tool)
    bit = man["bitstream"]
    path = os.path.join(bitdir, bit["file"])
    if not bit["in_repository"]:
        assert bit["size"] > BITSTREAM_COMMIT_LIMIT and not os.path.exists(path)
        return
    with open(path, "rb") as f:
        data = f.read()
    assert len(data) == bit["size"]
    assert hashlib.sha256(data).hexdigest() == bit["sha256"]


def test_four_engine_image():
    """The board image with an engine of each algorithm family, at its target clock, and the
    firmware it boots named."""
    from litedigest import spec

    with open(os.path.join(ECP5_DIR, "four_engines", "manifest.json")) as f:
        man = json.load(f)
    assert {spec.parse(e).family for e in man["engines"]} == {
        "sha1",
        "sha256",
        "sha512",
        "skein512",
    }
    assert sorted(man["peripherals"].values()) == sorted(
        spec.parse(e).engine_name for e in man["engines"]
    )
    # the committed bitstream is from the fastest seed: its own routed clock meets the PLL's
    per_seed = man["fmax"]["per_seed_mhz"]
    own = per_seed[str(man["bitstream"]["from_seed"])]
    assert man["sys_clk_target_mhz"] >= 50
    assert own >= man["sys_clk_target_mhz"] and own == max(per_seed.values())
    assert man["firmware"]["app"] and man["bitstream"]["in_repository"]


@pytest.mark.parametrize(
    "image, skein", [("four_engines_k5_r4", "skein512:r4"), ("four_engines_k5_r8", "skein512:r8")]
)
def test_main_set_fast_engines_image(image, skein):
    """The images with the simulated main SoC's fast engines (sha512:k5 beside sha256:opt and
    sha1:opt) and a Skein-512 engine (`r8`: the simulated main SoC's own four): every clock at
    its target, the slow engines in a domain of their own, the firmware it boots named."""
    from litedigest import spec

    with open(os.path.join(ECP5_DIR, image, "manifest.json")) as f:
        man = json.load(f)
    assert {"sha256:opt", "sha1:opt", "sha512:k5", skein} <= set(man["engines"])
    assert {spec.parse(e).family for e in man["engines"]} == {
        "sha1",
        "sha256",
        "sha512",
        "skein512",
    }
    assert man["fmax"]["meets_target"] and man["sys_clk_target_mhz"] >= 50
    assert man["fmax"]["median_mhz"] >= man["sys_clk_target_mhz"]
    domains = man["engine_domains"]
    in_domains = {e for d in domains.values() for e in d["engines"]}
    assert "sha512:k5:p1" in in_domains and all(d["meets_target"] for d in domains.values())
    assert man["firmware"]["app"] and man["bitstream"]["in_repository"]
    # the tool versions are the tools' own lines (not yowasp's first-run notice)
    assert not any(str(v).startswith("Preparing to run") for v in man["tools"].values())
