# SPDX-License-Identifier: BSD-2-Clause
"""docs/PROGRAMMERS_GUIDE.md in step with the peripheral: it names every register, every field
and every event that tools/regmap.py reads from the CSRs soc/peripheral/ declares, with a row
of its error tables for every `status` and `batch_status` bit; its C code uses only register
macros that the generated ld_hw_regs.h defines (and catalogue macros of ld_catalog.h) and only
registers the peripheral has; the C library functions it cites exist; its links to its own
sections resolve; and it types no performance figure (docs/MEASUREMENTS.md has them)."""

import os
import re

import pytest
from litedigest.paths import repo_root
from litedigest.tools import regmap

ROOT = repo_root()
GUIDE = os.path.join(ROOT, "docs", "PROGRAMMERS_GUIDE.md")
LIB = os.path.join(ROOT, "software", "firmware", "lib")
CATALOG = os.path.join(ROOT, regmap.CATALOG_HEADER)
REGS_H = os.path.join(ROOT, regmap.HEADER)
# the macros ld_hw_regs.h generates (tools/regmap.py header()): fields, events, arch, sizes
REGISTER_MACRO = re.compile(r"LD_(?:CTRL|STATUS|INFO|BATCH_STATUS|EV|ARCH|REG|DESC)_")
# the guide's register accessors (its "Register access" section): RD(CTRL), WRW(CV, i, v), ...
ACCESSOR = re.compile(r"\b(?:RD|WR|RDW|WRW)\(\s*([A-Z][A-Z0-9_]*)")
# a number with a unit of speed or time: those figures belong to docs/MEASUREMENTS.md
FIGURE = re.compile(
    r"\d[\d,.]*\s*(?:cycles?\b|MHz|GHz|kHz|bytes?/cycle|bits?/cycle|[KMG]i?B/s|[kMG]bit/s|"
    r"ns\b|µs|ms\b)"
)


@pytest.fixture(scope="module")
def rm():
    return regmap.collect()


@pytest.fixture(scope="module")
def guide():
    with open(GUIDE) as f:
        return f.read()


def _code(text):
    """The C code blocks of a Markdown text, joined."""
    return "\n".join(re.findall(r"^[ \t]*```c\n(.*?)^[ \t]*```", text, re.S | re.M))


def _defines(path):
    with open(path) as f:
        return set(re.findall(r"^#define\s+(\w+)", f.read(), re.M))


def _slug(heading):
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_register_is_named(rm, guide):
    missing = [r.name for r in rm.registers if f"`{r.name}`" not in guide]
    assert len(rm.registers) > 20
    assert not missing, f"registers the guide does not name: {missing}"


def test_every_field_and_event_is_named(rm, guide):
    """A field as `register.field` or as its C macro (LD_CTRL_START); an event by its name and
    its LD_EV_ bit."""
    missing = []
    for r in rm.registers:
        if r.event:  # the EventManager's registers: their bits are the events, below
            continue
        for f in r.fields:
            macro = f"LD_{r.name.upper()}_{f.name.upper()}"
            if f"`{r.name}.{f.name}`" not in guide and macro not in guide:
                missing.append(f"{r.name}.{f.name}")
    for name, _ in rm.events:
        if f"`{name}`" not in guide or f"LD_EV_{name.upper()}" not in guide:
            missing.append(f"event {name}")
    assert not missing, f"fields and events the guide does not name: {missing}"


def test_every_status_bit_has_a_row_in_the_error_tables(rm, guide):
    """Every bit of `status` and `batch_status` (the errors among them): what sets it, the
    state after it and the recovery, one table row each."""
    rows = set(re.findall(r"^\| `(\w+\.\w+)` \|", guide, re.M))
    want = {f"{reg}.{f.name}" for reg in ("status", "batch_status") for f in rm[reg].fields}
    assert {w for w in want if w.split(".")[1].startswith("err_")}, "no error bits in the map"
    assert not want - rows, f"status bits without a row: {sorted(want - rows)}"
    assert not rows - want, f"rows for bits the peripheral does not have: {sorted(rows - want)}"


def test_code_uses_only_existing_macros_and_registers(rm, guide):
    code = _code(guide)
    regs_h, catalog = _defines(REGS_H), _defines(CATALOG)
    names = set(re.findall(r"\bLD_[A-Z0-9_]+\b(?!\*)", code))  # (not LD_CTRL_* in comments)
    used = {n for n in names if REGISTER_MACRO.match(n)}
    assert len(used) > 20, "the guide's code uses hardly any register macro"
    assert not used - regs_h, f"not in ld_hw_regs.h: {sorted(used - regs_h)}"
    other = names - used
    assert not other - catalog, f"not in ld_catalog.h: {sorted(other - catalog)}"
    registers = {r.name for r in rm.registers}
    accessed = {m.lower() for m in ACCESSOR.findall(code)}
    accessed |= {m.lower() for m in re.findall(r"\bCSR_SHA256_([A-Z0-9_]+)_ADDR", code)}
    assert len(accessed) > 15, "the guide's code accesses hardly any register"
    assert not accessed - registers, f"registers that do not exist: {sorted(accessed - registers)}"


def test_cited_library_functions_exist(guide):
    """Every `ld_...` name the guide cites (the C library's functions, types and hooks) is in
    the library's headers or sources."""
    text = []
    for sub in ("include/litedigest", "src"):
        d = os.path.join(LIB, sub)
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")):
                with open(os.path.join(d, name)) as f:
                    text.append(f.read())
    words = set(re.findall(r"\b\w+\b", "\n".join(text)))
    cited = set(re.findall(r"`(ld_\w+)", guide)) | set(re.findall(r"\b(ld_\w+)\(", guide))
    cited = {c for c in cited if not re.search(rf"{c}\.[ch]\b", guide)}  # (files: ld_hw_regs.h)
    assert len(cited) > 20
    assert not cited - words, f"not in the C library: {sorted(cited - words)}"


def test_links_and_no_figures(guide):
    assert "](../soc/REGISTERS.md)" in guide
    assert "MEASUREMENTS.md" in guide
    with open(os.path.join(ROOT, "docs", "ARCHITECTURE.md")) as f:
        assert "](PROGRAMMERS_GUIDE.md)" in f.read()
    anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", guide, re.M)}
    broken = set(re.findall(r"\]\(#([\w-]+)\)", guide)) - anchors
    assert not broken, f"links to no section: {sorted(broken)}"
    figures = FIGURE.findall(guide)
    assert not figures, f"performance figures typed in (see docs/MEASUREMENTS.md): {figures}"
