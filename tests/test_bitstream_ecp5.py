"""The committed ECP5 build record: bitstreams/ecp5/manifest.json (written by `litedigest build
ecp5 --seeds 1`, bitstreams/ecp5/recipe.sh, from a real run) and the bitstream it names."""
import hashlib
import json
import os

from litedigest.paths import repo_root

BITDIR = os.path.join(repo_root(), "bitstreams", "ecp5")


def test_committed_manifest_and_bitstream():
    with open(os.path.join(BITDIR, "manifest.json")) as f:
        man = json.load(f)
    assert man["generated_by"].startswith("litedigest build ecp5")
    assert man["device"] == "LFE5U-85F" and man["package"] == "CABGA381" and man["speed_grade"] == 6
    # any engine set may be committed (bitstreams/ecp5/README.md says which one is)
    from litedigest import spec
    assert man["engines"] and all(spec.parse(e) for e in man["engines"])
    fm = man["fmax"]
    assert fm["per_seed_mhz"] and all(v > 5 for v in fm["per_seed_mhz"].values())
    vals = sorted(fm["per_seed_mhz"].values())
    assert vals[0] - 0.005 <= fm["median_mhz"] <= vals[-1] + 0.005  # the median is rounded to 0.01
    assert fm["meets_target"] == (fm["median_mhz"] >= man["sys_clk_target_mhz"])
    assert man["main_ram"]["dma_row_bits"] in (32, 64, 128, 256, 512, 1024)
    for k in ("lut4", "ff", "ebr"):
        u = man["utilization"][k]
        assert 0 < u["used"] <= u["available"]
    for tool in ("yosys", "nextpnr", "ecppack", "litex"):
        assert man["tools"].get(tool)
    bit = man["bitstream"]
    path = os.path.join(BITDIR, bit["file"])
    if not bit["in_repository"]:
        assert bit["size"] > 1024 * 1024 and not os.path.exists(path)
        return
    with open(path, "rb") as f:
        data = f.read()
    assert len(data) == bit["size"]
    assert hashlib.sha256(data).hexdigest() == bit["sha256"]
