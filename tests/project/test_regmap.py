# SPDX-License-Identifier: BSD-2-Clause
"""The register map generated from the peripheral's CSRs (tools/regmap.py): the committed
ld_hw_regs.h, litedigest/hw_regs.py and REGISTERS.md tables are what the generator writes, the
header compiles and has the map's values, hw_regs.py needs no Migen/LiteX, and the csr.h LiteX
emits for other engines than the generator's has the same fields and register sizes."""

import ast
import os
import re
import shutil
import subprocess
import sys

import pytest
from litedigest import hw_regs
from litedigest.paths import repo_root
from litedigest.tools import regmap

ROOT = repo_root()
INCLUDE = os.path.join(ROOT, "software", "firmware", "lib", "include")
PY = sys.executable


@pytest.fixture(scope="module")
def rm():
    return regmap.collect()


def test_committed_files_are_generated(tmp_path):
    """Regenerate into a temporary tree: every file equals the committed one."""
    regmap.write(out_root=str(tmp_path))
    for rel in (regmap.HEADER, regmap.PYMOD, regmap.DOC):
        with open(os.path.join(ROOT, rel)) as f:
            committed = f.read()
        with open(tmp_path / rel) as f:
            generated = f.read()
        if committed != generated:
            import difflib

            diff = "".join(
                difflib.unified_diff(
                    committed.splitlines(True),
                    generated.splitlines(True),
                    rel,
                    rel + " (generated)",
                )
            )
            pytest.fail(f"{rel} is not what `{regmap.COMMAND}` writes:\n{diff}")


def test_check_cli(tmp_path):
    """--check: 0 on the repository; 1 with a diff on a tree whose header was edited by hand."""
    r = subprocess.run(
        [PY, "-m", "litedigest.tools.regmap", "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    for rel in (regmap.HEADER, regmap.PYMOD, regmap.DOC):
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
        shutil.copy(os.path.join(ROOT, rel), tmp_path / rel)
    h = tmp_path / regmap.HEADER
    h.write_text(h.read_text().replace("(1u << 3)", "(1u << 9)"))
    r = subprocess.run(
        [PY, "-m", "litedigest.tools.regmap", "--check", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1
    assert "-#define LD_CTRL_LAST" in r.stdout and "+#define LD_CTRL_LAST" in r.stdout


def test_hw_regs_needs_no_migen_or_litex():
    with open(hw_regs.__file__) as f:
        tree = ast.parse(f.read())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    # as on the board: Migen and LiteX absent
    code = (
        "import sys; sys.modules.update(migen=None, litex=None); "
        "import litedigest.hw_regs as h; print(h.FIELDS['ctrl']['slot'])"
    )
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "(16, 8)", r.stderr


def test_map(rm):
    """What the drivers rely on: the fields, their kinds, the Skein-only and SHA-only parts."""
    assert hw_regs.FIELDS == {
        reg: {f.name: (f.offset, f.size) for f in rm[reg].fields}
        for reg in ("ctrl", "status", "info", "batch_status")
    }
    assert hw_regs.PULSE_FIELDS == ("start", "dma_start", "ack", "batch_start", "wipe")
    assert hw_regs.SKEIN_FIELDS == {"ctrl": ("out",)}
    # a MAC peripheral's key slots (HMAC)
    assert hw_regs.MAC_FIELDS == {"ctrl": ("key_init", "key", "wipe")}
    assert hw_regs.MAC_REGISTERS == {"keys_valid": ("R", 4)}
    # (hardware padding and the batch walker: every peripheral since Skein got them)
    assert hw_regs.SHA_FIELDS == {} and hw_regs.SHA_REGISTERS == {}
    assert {"batch_base", "batch_count", "batch_status", "batch_progress"} <= set(hw_regs.REGISTERS)
    assert set(hw_regs.SKEIN_REGISTERS) == {"tweak", "final_bytes"}
    assert hw_regs.EVENTS == {"done": 0, "batch": 1}
    assert rm["digest"].words(state_bits=160) == 5
    assert rm["slots_done"].words(slots=33) == 2
    assert rm["tweak"].words() == 4 and rm["cycles_value"].words() == 2
    with pytest.raises(ValueError):
        rm["cv"].bits()


def test_meanings(rm, monkeypatch):
    """Every register and field has a meaning: tools/regmap.py's, else the CSR's description;
    a meaning of something the peripheral does not declare is an error too."""
    regs, fields, events = regmap.meanings(rm)
    assert set(regs) == set(hw_regs.REGISTERS) | set(hw_regs.SKEIN_REGISTERS) | set(
        hw_regs.SHA_REGISTERS
    ) | set(hw_regs.MAC_REGISTERS)
    assert {r: set(f) for r, f in fields.items() if f} == {
        r: set(f) for r, f in hw_regs.FIELDS.items()
    }
    assert set(events) == set(hw_regs.EVENTS)
    monkeypatch.delitem(regmap.REGISTER_DOCS, "din")
    assert regmap.meanings(rm)[0]["din"] == rm["din"].description != ""
    monkeypatch.setitem(
        regmap.FIELD_DOCS,
        "status",
        {k: v for k, v in regmap.FIELD_DOCS["status"].items() if k != "err_bus"},
    )
    monkeypatch.setitem(regmap.REGISTER_DOCS, "no_such_register", "x")
    with pytest.raises(ValueError) as e:
        regmap.meanings(rm)
    assert "status.err_bus: no meaning" in str(e.value) and "no_such_register" in str(e.value)


def _cc():
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    return cc


def test_header_compiles_pedantic(tmp_path):
    src = tmp_path / "t.c"
    src.write_text('#include "litedigest/ld_hw_regs.h"\n')
    r = subprocess.run(
        [
            _cc(),
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-fsyntax-only",
            "-I",
            INCLUDE,
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr


def test_header_values(tmp_path):
    """The C macros, evaluated by the compiler, are the
    map's fields and the catalogue's arch codes."""
    from litedigest import spec

    checks = []  # (C expression, expected value)
    for reg in ("ctrl", "status", "info", "batch_status"):
        for name, (off, size) in hw_regs.FIELDS[reg].items():
            N = f"LD_{reg.upper()}_{name.upper()}"
            if size == 1:
                checks.append((N, 1 << off))
            elif reg == "ctrl":
                checks += [
                    (N + "_BIT", off),
                    (N + "_MASK", ((1 << size) - 1) << off),
                    (f"{N}_VAL(0xffffffffu)", ((1 << size) - 1) << off),
                ]
            else:
                checks.append((f"{N}(0xa5c3e1f7u)", (0xA5C3E1F7 >> off) & ((1 << size) - 1)))
    checks.append(
        ("LD_STATUS_ERRORS", sum(1 << hw_regs.FIELDS["status"][f][0] for f in hw_regs.ERROR_FIELDS))
    )
    arch_names = {
        "base": "BASE",
        "opt": "OPT",
        "k5": "K5",
        "r1": "SKEIN_R1",
        "r4": "SKEIN_R4",
        "r8": "SKEIN_R8",
    }
    assert set(arch_names) == set(spec.ARCH_CODES)
    checks += [(f"LD_ARCH_{arch_names[a]}", code) for a, code in spec.ARCH_CODES.items()]
    checks += [
        (f"LD_REG_{n.upper()}_NWORDS", -(-w // hw_regs.WORD_BITS))
        for n, (_, w) in {
            **hw_regs.REGISTERS,
            **hw_regs.SKEIN_REGISTERS,
            **hw_regs.SHA_REGISTERS,
        }.items()
        if isinstance(w, int)
    ]
    checks += [("LD_REG_CV_NWORDS(512)", 16), ("LD_REG_SLOTS_BUSY_NWORDS(33)", 2)]
    src = tmp_path / "v.c"
    src.write_text(
        '#include <stdio.h>\n#include "litedigest/ld_hw_regs.h"\nint main(void) {\n'
        + "".join(f'    printf("%lu\\n", (unsigned long)({e}));\n' for e, _ in checks)
        + "    return 0;\n}\n"
    )
    exe = tmp_path / "v"
    subprocess.run(
        [_cc(), "-std=c99", "-Wall", "-Werror", "-I", INCLUDE, str(src), "-o", str(exe)], check=True
    )
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert [(e, int(g)) for (e, _), g in zip(checks, got)] == checks


ENGINES = {
    "sha256_opt_p4": "sha256:opt:p4",
    "sha512": "sha512:k5",
    "skein512": "skein512:r8",
    "hmac_sha256": "hmac-sha256:opt:p4",
}


def _csr_h_fields(h, instance, registers):
    """{register: {field: (offset, size)}} of `instance`
    from a csr.h (CSR_<I>_<REG>_<FIELD>_OFFSET)."""
    out = {}
    for name, off in re.findall(rf"#define CSR_{instance.upper()}_(\w+)_OFFSET (\d+)", h):
        reg = max((r for r in registers if name.startswith(r.upper() + "_")), key=len)
        size = int(re.search(rf"#define CSR_{instance.upper()}_{name}_SIZE (\d+)", h).group(1))
        out.setdefault(reg, {})[name[len(reg) + 1 :].lower()] = (int(off), size)
    return out


def test_csr_h_agrees(rm):
    """The csr.h LiteX emits for instances of engines the generator did not look at: the same
    fields (Skein's `out` on Skein only), register sizes and address order as hw_regs."""
    from litedigest import spec
    from litedigest.ip.engines import make_engine
    from litedigest.soc.peripheral import HashPeripheral
    from litex.soc.integration.export import get_csr_header
    from litex.soc.integration.soc import SoCCSRRegion

    regions, engines = {}, {}
    for i, (name, s) in enumerate(ENGINES.items()):
        engines[name] = e = make_engine(s)
        p = HashPeripheral(e, ram_base=0x40000000, ram_size=0x10000, dma_width=32)
        regions[name] = SoCCSRRegion(0xF0000000 + 0x800 * i, 32, p.get_csrs())
    h = get_csr_header(regions, {}, with_access_functions=False)
    for name, e in engines.items():
        skein = spec.parse(ENGINES[name]).family == "skein512"
        mac = bool(spec.parse(ENGINES[name]).mac)
        other = hw_regs.SHA_FIELDS if skein else hw_regs.SKEIN_FIELDS  # fields it lacks
        other = {
            reg: other.get(reg, ()) + (() if mac else hw_regs.MAC_FIELDS.get(reg, ()))
            for reg in hw_regs.FIELDS
        }
        want = {
            reg: {f: v for f, v in fs.items() if f not in other.get(reg, ())}
            for reg, fs in hw_regs.FIELDS.items()
            if not (skein and reg in hw_regs.SHA_REGISTERS)
        }
        regs = {
            **hw_regs.REGISTERS,
            **(hw_regs.SKEIN_REGISTERS if skein else hw_regs.SHA_REGISTERS),
            **(hw_regs.MAC_REGISTERS if mac else {}),
            **hw_regs.EVENT_REGISTERS,
        }
        events = hw_regs.EVENTS
        got = _csr_h_fields(h, name, regs)
        assert got == {
            **want,
            **{r: {ev: (b, 1) for ev, b in events.items()} for r in hw_regs.EVENT_REGISTERS},
        }, name
        addrs = []
        for reg in regs:
            P = f"#define CSR_{name.upper()}_{reg.upper()}_"
            size = int(h.split(P + "SIZE ")[1].split()[0])
            assert size == rm[reg].words(state_bits=e.digest_bits, slots=e.slots), (
                name,
                reg,
            )
            if reg not in hw_regs.SKEIN_REGISTERS and reg not in hw_regs.MAC_REGISTERS:
                addrs.append(int(h.split(P + "ADDR ")[1].split("+ ")[1].split("L)")[0], 16))
        assert addrs == sorted(addrs), name  # REGISTERS, EVENT_REGISTERS: in address order
        assert (
            h.count(f"#define CSR_{name.upper()}_")
            == 2 * len(regs) + 1 + 2 * sum(len(f) for f in want.values()) + 2 * len(events) * 3
        ), name  # nothing undeclared
