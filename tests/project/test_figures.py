# SPDX-License-Identifier: BSD-2-Clause
"""Every figure of the documentation comes from a record: the generated tables are up to date,
no figure is typed into the prose, and the records say how they were measured."""

import glob
import json
import os
import shutil

import pytest
from litedigest import generated, records
from litedigest.measure import figures

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_tables_are_generated():
    stale = generated.diffs(figures.outputs(ROOT), ROOT)
    assert not stale, "".join(stale) + f"\nrun {figures.COMMAND}"


def test_no_figure_typed_by_hand():
    typed = figures.typed_figures(ROOT)
    assert not typed, "\n".join(f"{p}:{n}: {f!r}" for p, n, f in typed)


def test_check_command_passes():
    assert figures.main(["--check", "--root", ROOT]) == 0


@pytest.mark.parametrize(
    "path",
    sorted(glob.glob(os.path.join(ROOT, records.RECORDS_DIR, "*.json"))),
    ids=os.path.basename,
)
def test_record_says_how_it_was_measured(path):
    rec = records.load(records.name_of(path), ROOT)
    assert rec["record"] == records.name_of(path)
    assert rec["command"].split()[0] in (
        "litedigest",
        "python",
        "scripts/c_library_sizes.py",
        "scripts/dse_jobs.py",
        "scripts/dse_projection.py",
        "scripts/install_sizes.py",
    )
    assert f"--record records/{rec['record']}.json" in rec["command"]
    assert len(rec["build"]["sources"]) == 64 and rec["build"]["git"]
    assert rec["tools"]["python"] and rec["results"]


def _copy_tree(tmp_path):
    for d in ("docs", "bitstreams", "records", "soc"):
        shutil.copytree(
            os.path.join(ROOT, d),
            tmp_path / d,
            ignore=shutil.ignore_patterns("*.py", "*.bit", "*.xz", "__pycache__"),
        )
    shutil.copy(os.path.join(ROOT, "README.md"), tmp_path / "README.md")
    return tmp_path


def test_a_changed_record_makes_check_fail(tmp_path, capsys):
    root = _copy_tree(tmp_path)
    path = root / "records" / "soc_demo.json"
    rec = json.loads(path.read_text())
    row = next(r for r in rec["results"] if r["path"] == "dma" and r["bytes"] == 64)
    row["cycles"] += 1000
    path.write_text(json.dumps(rec))
    assert figures.main(["--check", "--root", str(root)]) == 1
    assert f"{row['cycles']:,}" in capsys.readouterr().out  # the diff shows the new figure
    assert figures.main(["--write", "--root", str(root)]) == 0
    assert figures.main(["--check", "--root", str(root)]) == 0


def test_a_typed_figure_is_found_outside_blocks_and_code_only(tmp_path):
    root = _copy_tree(tmp_path)
    page = root / "docs" / "NEW.md"
    page.write_text(
        "# A page\n\nThe call takes 480 cycles at 50.0 MHz, 121x software.\n\n"
        "```\n$ litedigest bench\n480 cycles\n```\n\n16 KiB messages, p = 4 slots.\n"
    )
    found = [(p, n, f) for p, n, f in figures.typed_figures(str(root)) if p == "docs/NEW.md"]
    assert found == [
        ("docs/NEW.md", 3, "480 cycles"),
        ("docs/NEW.md", 3, "50.0 MHz"),
        ("docs/NEW.md", 3, "121x"),
    ]
    assert figures.main(["--check", "--root", str(root)]) == 1


def test_unknown_block_is_an_error(tmp_path):
    root = _copy_tree(tmp_path)
    (root / "docs" / "NEW.md").write_text(
        "<!-- BEGIN GENERATED: no_such_table -->\n<!-- END GENERATED: no_such_table -->\n"
    )
    with pytest.raises(ValueError, match="no_such_table"):
        figures.outputs(str(root))


def test_record_names_are_checked():
    with pytest.raises(ValueError, match="<name>.json"):
        records.name_of("records/Soc Demo.json")
    assert records.name_of("records/soc_demo.json") == "soc_demo"


def test_missing_record_names_the_fix(tmp_path):
    with pytest.raises(FileNotFoundError, match="run the command"):
        records.load("soc_demo", str(tmp_path))


def test_oneshot_bound_adds_the_phases_that_cannot_overlap():
    """The one-shot bound (docs/measurements/soc.md): the profile's phases of the 64-byte DMA
    call but the driver's checks and return, which include the engine's two blocks of a
    64-byte message and stay under the measured call."""
    b = figures.oneshot_bound(figures.Sources(ROOT))
    assert b["blocks"] == 2 and b["engine_cycles"] == 66
    assert "padding" not in b["phases"] and "return" not in b["phases"]
    assert "waiting for the engine" in b["phases"]
    assert b["bound"] == sum(b["phases"].values())
    assert b["engine_cycles"] < b["bound"] < b["measured"]
