# SPDX-License-Identifier: BSD-2-Clause
"""The cffi declarations of litedigest._clib._native are generated from the public C headers
(software/python/litedigest/_clib/build.py), not copied by hand."""

import os
import re
import shutil

import pytest
from cffi import FFI
from litedigest._clib import build as nb
from litedigest._clib._native import ffi, lib
from litedigest.paths import repo_root

ROOT = repo_root()
INCLUDE = os.path.join(ROOT, "software", "firmware", "lib", "include")
BUILD_PY = os.path.join(ROOT, "software", "python", "litedigest", "_clib", "build.py")


def _top_level_prototypes(text):
    """Names of the functions declared (not defined, not static) at file scope of preprocessed C;
    found without pycparser, by splitting statements at ; { } and following the brace depth."""
    names, depth, chunk = set(), 0, ""
    for tok in re.split(r"([;{}])", text):
        if tok == "{":
            depth += 1
            chunk = "" if depth == 1 else chunk
        elif tok == "}":
            depth -= 1
        elif tok == ";":
            if depth == 0:
                m = re.match(r"\s*(?:extern\s+)?[\w\s*]*?\b(ld_\w+)\s*\(", chunk)
                if m and "static" not in chunk.split():
                    names.add(m.group(1))
            chunk = ""
        elif depth == 0:
            chunk += tok
    return names


def _c_value(name, macros, seen=()):
    """An object-like macro's value evaluated in Python (integer literals, arithmetic, other
    macros), or None when it is not such an integer expression."""
    value = macros.get(name)
    if value is None or name in seen or not value.strip():
        return None
    expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]+\b", r"\1", value)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("/", "//")
    env = {}
    for ref in set(re.findall(r"\b[A-Za-z_]\w*", expr)) - {"and", "or"}:
        env[ref] = _c_value(ref, macros, seen + (name,))
        if env[ref] is None:
            return None
    try:
        v = eval(expr, {"__builtins__": {}}, env)
    except Exception:
        return None
    return v if isinstance(v, int) else None


def _object_macros(dm):
    return {
        m.group(1): m.group(2)
        for m in re.finditer(r"^#define (LD_\w+)(?!\()(?: (.*))?$", dm, re.M)
        if m.group(1)
    }


@pytest.fixture(scope="module")
def preprocessed():
    return nb.preprocess(INCLUDE)


def test_every_header_function_is_in_lib(preprocessed):
    text, _ = preprocessed
    protos = _top_level_prototypes(text)
    assert {
        "ld_md_init",
        "ld_hw_md",
        "ld_sched_init",
        "ld_skein512",
        "ld_md_pad",
        "ld_sha1_compress",
    } <= protos
    missing = sorted(n for n in protos if not hasattr(lib, n))
    assert not missing, (
        "declared in the public headers but not in litedigest._clib._native.lib: %s" % missing
    )


def test_every_integer_macro_is_in_lib(preprocessed):
    _, dm = preprocessed
    macros = _object_macros(dm)
    checked = 0
    for name in sorted(macros):
        want = _c_value(name, macros)
        if want is None or nb.NOT_EXPORTED.fullmatch(name):
            continue
        assert hasattr(lib, name), name
        got = getattr(lib, name)
        assert got in (want, want % 2**32, want % 2**64), (name, got, want)
        checked += 1
    assert checked >= 60
    # the only integer macros kept out are the ctrl/status names that are not register fields
    assert all(
        n.startswith(("LD_CTRL_", "LD_STATUS_")) for n in macros if nb.NOT_EXPORTED.fullmatch(n)
    )
    # non-integer object-like macros are left out (the build would fail otherwise)
    assert "LD_DMA_ALIGNED" in macros and not hasattr(lib, "LD_DMA_ALIGNED")


def test_names_the_package_uses():
    names = [
        "LD_OK",
        "LD_ERR_ARG",
        "LD_ERR_STATE",
        "LD_ERR_TIMEOUT",
        "LD_ERR_HW",
        "LD_ERR_RANGE",
        "LD_ALG_SHA1",
        "LD_ALG_SHA512_256",
        "LD_ALG_COUNT",
        "LD_FAMILY_SHA1",
        "LD_FAMILY_SKEIN512",
        "LD_PATH_CSR",
        "LD_PATH_DMA",
        "LD_MD_MAX_BLOCK_SIZE",
        "LD_MD_MAX_DIGEST_SIZE",
        "LD_MD_MAX_STATE_WORDS",
        "LD_SHA256",
        "LD_SHA224",
        "LD_SHA512",
        "LD_SHA384",
        "LD_SHA512_224",
        "LD_SHA512_256",
        "LD_ALG_SKEIN512_BASE",
        "LD_SKEIN512_MAX_OUT_BITS",
        "LD_CTRL_START",
        "LD_CTRL_DMA_START",
        "LD_CTRL_FIRST",
        "LD_CTRL_LAST",
        "LD_CTRL_LOAD_CV",
        "LD_CTRL_ACK",
        "LD_CTRL_TAIL",
        "LD_CTRL_HOLD",
        "LD_CTRL_OUT",
        "LD_CTRL_VARIANT_MASK",
        "LD_CTRL_SLOT_MASK",
        "LD_STATUS_BUSY",
        "LD_STATUS_DONE",
        "LD_STATUS_ERR_LEN",
        "LD_STATUS_ERR_ADDR",
        "LD_STATUS_ERR_STATE",
        "LD_STATUS_ERR_BUS",
        "ld_py_read32",
        "ld_py_write32",
    ]
    assert [n for n in names if not hasattr(lib, n)] == []
    assert (lib.LD_ERR_ARG, lib.LD_CTRL_SLOT_MASK, lib.LD_SKEIN512_MAX_OUT_BITS) == (
        -1,
        0xFF << 16,
        1 << 20,
    )
    for t in (
        "ld_md_ctx",
        "ld_hw_dev",
        "ld_hw_md_ctx",
        "ld_skein512_ctx",
        "ld_sched_slot",
        "ld_sched_job",
    ):
        assert ffi.sizeof(t) > 0
    assert ffi.offsetof("ld_hw_md_ctx", "buf") % 64 == 0  # LD_DMA_ALIGNED: layout from the compiler


def test_no_hand_copy_of_declarations():
    with open(BUILD_PY) as f:
        src = f.read()
    assert not re.search(r"typedef\s+(struct|union|enum)|\bstruct\s*\w*\s*\{", src)
    assert not re.search(r"#define\s+LD_", src)
    # no C prototype (a name followed by a parameter list starting with a type)
    assert not re.search(
        r"\b\w+\s*\(\s*(?:const\s+)?(?:void|int|unsigned|size_t|u?int\w*_t)\b[^)]*\)\s*;", src
    )
    # what the build declares is the generated text, nothing else
    assert nb.CDEF == nb.generate_cdef()


def test_python_callbacks_take_the_header_signatures():
    """The extern "Python" callbacks have the signatures of the function pointers they go into."""
    lines = nb.CDEF.splitlines()
    assert 'extern "Python" uint32_t ld_py_read32(uintptr_t addr);' in lines
    assert 'extern "Python" void ld_py_write32(uintptr_t addr, uint32_t value);' in lines
    for name, where in nb.PYTHON_CALLBACKS.items():
        cb = getattr(lib, name)
        tname, _, field = where.partition(".")
        want = (
            ffi.typeof(tname).fields[[f for f, _ in ffi.typeof(tname).fields].index(field)][1].type
            if field
            else ffi.typeof(tname)
        )
        assert ffi.typeof(cb) is want, name
    with pytest.raises(RuntimeError, match="ld_hw_dev.no_such_field"):
        nb.generate_cdef(callbacks={"ld_py_x": "ld_hw_dev.no_such_field"})


PROBE = """
typedef struct {
    uint32_t words[LD_MD_MAX_STATE_WORDS] __attribute__((aligned(16)));
    const ld_md_ctx *ctx;
} ld_cdef_probe_t;
int ld_cdef_probe(ld_cdef_probe_t *p, const uint8_t *data, size_t len);
static inline int ld_cdef_inline(int x) { return ld_md_family(x) + 1; }
static int ld_cdef_static(int x);
#define LD_CDEF_PROBE (3u << LD_CDEF_PROBE_SHIFT)
#define LD_CDEF_PROBE_SHIFT 4
#define LD_CDEF_PROBE_CAST ((uint32_t)1)
#define LD_CDEF_PROBE_STR "probe"
#define LD_CDEF_PROBE_FN(x) ((x) + 1)
#ifdef LD_CDEF_PROBE_ON
int ld_cdef_probe_on(void);
#endif
"""


def _probe_include(tmp_path):
    inc = tmp_path / "include"
    shutil.copytree(INCLUDE, inc)
    h = inc / "litedigest" / "ld_md.h"
    text = h.read_text()
    i = text.rindex("#ifdef __cplusplus")
    text = text[:i] + PROBE + text[i:]
    text, n = re.subn(
        r"(\n\s*uint32_t\s+magic;[^\n]*\n)", r"\1    uint16_t cdef_probe_field;\n", text
    )
    assert n == 1
    h.write_text(text)
    (inc / "litedigest" / "ld_cdef_probe.h").write_text(
        '#include "ld_types.h"\n#define LD_CDEF_NEW_HEADER 7\n'
        "void ld_cdef_new_header(uint64_t x[2]);\n"
    )
    return str(inc)


def test_header_additions_reach_the_cdef(tmp_path):
    assert nb.generate_cdef(INCLUDE) == nb.CDEF
    inc = _probe_include(tmp_path)
    cdef = nb.generate_cdef(inc)
    lines = cdef.splitlines()
    assert "int ld_cdef_probe(ld_cdef_probe_t *p, const uint8_t *data, size_t len);" in lines
    assert "void ld_cdef_new_header(uint64_t x[2]);" in lines
    assert {
        "#define LD_CDEF_PROBE ...",
        "#define LD_CDEF_PROBE_SHIFT ...",
        "#define LD_CDEF_NEW_HEADER ...",
    } <= set(lines)
    for absent in (
        "ld_cdef_inline",
        "ld_cdef_static",
        "LD_CDEF_PROBE_CAST",
        "LD_CDEF_PROBE_STR",
        "LD_CDEF_PROBE_FN",
        "ld_cdef_probe_on",
        "__attribute__",
    ):
        assert absent not in cdef, absent
    md_ctx = re.search(r"typedef struct\s*\{(.*?)\} ld_md_ctx;", cdef, re.S).group(1)
    assert "uint16_t cdef_probe_field;" in md_ctx and md_ctx.rstrip().endswith("...;")
    assert re.search(
        r"typedef struct\s*\{[^}]*const ld_md_ctx \*ctx;\s*\.\.\.;\s*\} ld_cdef_probe_t;", cdef
    )
    # the build's macros select declarations as they select code
    on = nb.generate_cdef(inc, define_macros=nb.DEFINE_MACROS + [("LD_CDEF_PROBE_ON", None)])
    assert "int ld_cdef_probe_on(void);" in on.splitlines()
    # cffi takes the whole of it
    probe = FFI()
    probe.cdef(cdef)
    declared = set(probe._parser._declarations)
    assert {
        "function ld_cdef_probe",
        "function ld_cdef_new_header",
        "typedef ld_cdef_probe_t",
        "macro LD_CDEF_PROBE",
    } <= declared


def test_integer_macro_filter():
    dm = "\n".join(
        [
            "#define LD_A (1u << 3)",
            "#define LD_B (LD_A | 0x10UL)",
            "#define LD_C LD_D",
            "#define LD_D ((int)2)",
            "#define LD_E 1.5",
            "#define LD_F",
            "#define LD_G(x) x",
            "#define LD_H 'a'",
            "#define LD_I -LD_B",
            "#define OTHER 1",
            '#define LD_J "s"',
            "#define LD_K __attribute__((aligned(64)))",
            "#define LD_L sizeof(int)",
        ]
    )
    assert nb.integer_macros(dm) == ["LD_A", "LD_B", "LD_I"]
