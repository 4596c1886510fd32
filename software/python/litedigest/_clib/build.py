# SPDX-License-Identifier: BSD-2-Clause
"""cffi API-mode builder of `litedigest._clib._native`: the
portable C library (software/firmware/lib) compiled for the host.

Exposes everything the public headers (software/firmware/lib/include/litedigest/*.h) declare:
the generic Merkle-Damgard API of every algorithm (ld_md.h), the software SHA-1/SHA-2/Skein-512
functions, the padding, the hash-peripheral driver and the message scheduler, with their
integer constants (LD_*). The cffi declarations are not written here but generated from the
headers at build time (`generate_cdef`), so a function, type or constant added to a header
reaches Python without a second edit:

- the C compiler (found as setuptools finds it: $CPP, or $CC / the one Python was built with,
  plus -E) preprocesses one translation unit including every public header, with -nostdinc and
  empty stand-ins for the system headers (<stdint.h>, ...) so that only the library's own
  declarations come out, and GNU attributes defined away (the structs' layout comes from the
  compiler anyway, below);
- pycparser parses that (behind parse-only typedefs of the standard integer types, which cffi
  knows itself) and regenerates the text of every typedef, struct and non-static function
  prototype; function definitions (static inline helpers) and static declarations are left out;
  every struct/union is made partial (`...;`), enums lose their values (`...`), so cffi takes
  sizes, offsets and values from the compiler;
- the object-like LD_* macros in force after preprocessing (-dM) whose value is an integer
  constant expression become `#define NAME ...` (the value from the compiler); others (empty,
  attributes, casts, strings, function-like macros) are skipped.

What stays written here is what belongs to the Python binding: the build's macros
(DEFINE_MACROS: LD_CONFIG_HOST) and the names of the `extern "Python"` callbacks native.py
defines (PYTHON_CALLBACKS: the HAL's `ld_py_read32`/`ld_py_write32`/..., the compression hooks),
each mapped to the header's function pointer type whose signature it takes; so the C driver can
run against any Python-side peripheral (a model, the simulated SoC through its bridge, ...).

Built by setuptools through `setup(cffi_modules=[".../_clib/build.py:ffibuilder"])`, or by hand:
`python software/python/litedigest/_clib/build.py` (builds the extension in build/cffi and
prints its path; an extension next to this file would shadow the one setuptools installs);
`python software/python/litedigest/_clib/build.py --cdef` prints the generated declarations.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, "..", "..", "..", ".."))
_LIB = os.path.join(_ROOT, "software", "firmware", "lib")
_INCLUDE = os.path.join(_LIB, "include")
_HEADER_DIR = "litedigest"  # the public headers: <include>/litedigest/*.h
_SRC = os.path.join(_LIB, "src")
# the whole library (every function a public header declares must be linked in)
_SOURCES = sorted(f for f in os.listdir(_SRC) if f.endswith(".c"))
# macros of the build, for the compiler and for the generation of the declarations alike
# (LD_CONFIG_HOST, ld_config.h: what a host reaching the peripheral from outside needs)
DEFINE_MACROS = [("LD_CONFIG_HOST", "1")]

# What is specific to the Python binding: the callbacks native.py defines with
# @ffi.def_extern() (`extern "Python"`), each declared with the signature of the header's
# function pointer it is stored in: "typedef name" or "struct typedef name.field".
PYTHON_CALLBACKS = {
    "ld_py_read32": "ld_hw_dev.read32",
    "ld_py_write32": "ld_hw_dev.write32",
    "ld_py_dma_write": "ld_hw_dev.dma_write",
    "ld_py_dma_sync": "ld_hw_dev.dma_sync",
    "ld_py_md_compress": "ld_md_compress_fn",
    "ld_py_skein_ubi": "ld_skein512_ubi_fn",
}

# Integer macros kept out of `lib`: native.ctrl_bits() takes every LD_CTRL_*/LD_STATUS_* name of
# lib for a register-field mask (tests/clib/test_clib.py checks each against soc/REGISTERS.md), so
# the field positions (LD_*_BIT) and the union of the error bits, which are not fields, stay C-only.
NOT_EXPORTED = re.compile(r"LD_(CTRL|STATUS)_\w*_BIT|LD_STATUS_ERRORS")

# Parse-only typedefs of the types the stand-in system headers no longer declare; cffi knows
# all of them itself, so they are not part of the generated declarations.
_STD_TYPES = [
    "%sint%s%s_t" % (u, kind, bits)
    for u in ("", "u")
    for kind in ("", "_least", "_fast")
    for bits in (8, 16, 32, 64)
]
_STD_TYPES += [
    "intptr_t",
    "uintptr_t",
    "intmax_t",
    "uintmax_t",
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "wchar_t",
    "bool",
]
# GNU keywords pycparser does not know, defined away for the parse (layout: from the compiler)
_PARSE_DEFINES = [
    "-D__attribute__(x)=",
    "-D__extension__=",
    "-D__asm__(x)=",
    "-D__inline__=inline",
    "-D__restrict=restrict",
    "-D__restrict__=restrict",
]


def _rel(path):
    # setuptools prefers sources relative to the project root (its working directory)
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def public_headers(include_dir=_INCLUDE):
    """The public headers, as include names ("litedigest/ld_md.h", ...), sorted."""
    d = os.path.join(include_dir, _HEADER_DIR)
    return sorted(_HEADER_DIR + "/" + f for f in os.listdir(d) if f.endswith(".h"))


def _includes(headers):
    return "".join('#include "%s"\n' % h for h in headers)


def preprocessor():
    """The C preprocessor command the way setuptools (distutils) sets the compiler up:
    $CPP, else $CC (or the compiler Python was built with) plus -E; `cc -E` when that fails."""
    cmd = None
    try:
        from distutils.ccompiler import new_compiler
        from distutils.sysconfig import customize_compiler

        import setuptools  # noqa: F401  (provides distutils on Python >= 3.12)

        compiler = new_compiler()
        customize_compiler(compiler)
        cmd = list(getattr(compiler, "preprocessor", None) or [])  # absent: MSVC
    except Exception:
        pass
    if not cmd or not shutil.which(cmd[0]):
        cmd = shlex.split(os.environ.get("CC") or "cc") + ["-E"]
    if "-E" not in cmd:  # a standalone cpp
        cmd.append("-E")
    return cmd


def _run(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise RuntimeError(
            "litedigest cdef: cannot run the C preprocessor %r: %s" % (cmd[0], e)
        ) from e
    if r.returncode != 0:
        raise RuntimeError(
            "litedigest cdef: preprocessing the public headers failed:\n%s\n%s"
            % (" ".join(shlex.quote(c) for c in cmd), r.stderr)
        )
    return r.stdout


def preprocess(include_dir=_INCLUDE, cpp=None, define_macros=None):
    """(declarations, macros) of the public headers in include_dir: the preprocessed text (no
    line markers) and the `#define` lines in force at its end (-dM). define_macros: as
    setuptools takes them, (name, value or None); default DEFINE_MACROS."""
    headers = public_headers(include_dir)
    with tempfile.TemporaryDirectory(prefix="ld_cdef") as tmp:
        sysdir = os.path.join(tmp, "sys")
        # empty stand-ins for every <...> header the public headers include
        for h in headers:
            with open(os.path.join(include_dir, h)) as f:
                for name in re.findall(r"^\s*#\s*include\s*<([^>]+)>", f.read(), re.M):
                    path = os.path.join(sysdir, *name.split("/"))
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    open(path, "w").close()
        os.makedirs(sysdir, exist_ok=True)
        tu = os.path.join(tmp, "ld_cdef.c")
        with open(tu, "w") as f:
            f.write(_includes(headers))
        defines = [
            "-D%s" % n if v is None else "-D%s=%s" % (n, v)
            for n, v in (DEFINE_MACROS if define_macros is None else define_macros)
        ]
        cmd = (cpp or preprocessor()) + ["-nostdinc", "-I", sysdir, "-I", include_dir] + defines
        cmd += _PARSE_DEFINES
        return _run(cmd + ["-P", tu]), _run(cmd + ["-dM", tu])


_INT_TOKEN = re.compile(
    r"\s*(?:((?:0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*)(?![\w.])|([A-Za-z_]\w*)"
    r"|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!()<>?:]))"
)


def _int_refs(value):
    """The macro names an integer constant expression made of literals, operators and macro
    names refers to, or None when value is something else (a cast, a string, a float, ...)."""
    refs, pos, value = set(), 0, value.strip()
    if not value:
        return None
    while pos < len(value):
        m = _INT_TOKEN.match(value, pos)
        if not m or m.end() == pos:
            return None
        if m.group(2):
            refs.add(m.group(2))
        pos = m.end()
        while pos < len(value) and value[pos].isspace():
            pos += 1
    return refs


def integer_macros(macros):
    """The names of the object-like LD_* macros of a -dM listing whose value is an integer
    constant expression (possibly through other such macros), sorted."""
    candidates = {}
    for line in macros.splitlines():
        m = re.match(r"#define\s+(LD_\w+)(\()?(.*)$", line)
        if m and not m.group(2):
            refs = _int_refs(m.group(3))
            if refs is not None:
                candidates[m.group(1)] = refs
    ints, grown = set(), True
    while grown:
        new = {n for n, refs in candidates.items() if n not in ints and refs <= ints}
        grown = bool(new)
        ints |= new
    return sorted(ints)


def _make_partial(node):
    """The outermost struct/union/enum that node (a typedef or declaration) defines, made
    partial for cffi: returns (node to print, text to put before its closing brace) or None."""
    from pycparser import c_ast

    t = node.type
    while t is not None and not isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
        t = getattr(t, "type", None)
    if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.decls:
        return "  ...;\n"
    if isinstance(t, c_ast.Enum) and t.values is not None and t.values.enumerators:
        for e in t.values.enumerators:
            e.value = None
        return ", ...\n"
    return None


def parse(text):
    """The file-scope nodes of preprocessed C (pycparser), after the parse-only typedefs."""
    from pycparser import c_parser

    prelude = "".join("typedef int %s;\n" % t for t in _STD_TYPES)
    return (
        c_parser.CParser()
        .parse(prelude + text, "<litedigest public headers>")
        .ext[len(_STD_TYPES) :]
    )


def declarations(nodes):
    """cffi declarations of the typedefs, structs and non-static functions among parsed nodes."""
    from pycparser import c_ast, c_generator

    gen = c_generator.CGenerator()
    out, seen = [], set()
    for node in nodes:
        if isinstance(node, c_ast.Typedef):
            if node.name in _STD_TYPES:
                continue
        elif isinstance(node, c_ast.Decl):
            if "static" in node.storage or "inline" in node.funcspec:
                continue
        else:  # function definitions, pragmas, static assertions
            continue
        tail = _make_partial(node)
        s = gen.visit(node)
        if tail:
            i = s.rindex("}")
            s = s[:i].rstrip() + ("\n" if tail.startswith(" ") else "") + tail + s[i:]
        s += ";"
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def python_callbacks(nodes, callbacks):
    """`extern "Python"` declarations of callbacks {name: "typedef" or "typedef.field"}, each
    with the signature of that function pointer type among parsed nodes."""
    import copy

    from pycparser import c_ast, c_generator

    types = {n.name: n.type for n in nodes if isinstance(n, c_ast.Typedef)}
    out = []
    for name, where in callbacks.items():
        tname, _, field = where.partition(".")
        t = types.get(tname)
        if field:
            while t is not None and not isinstance(t, c_ast.Struct):
                t = getattr(t, "type", None)
            t = (
                next((d.type for d in (t.decls or []) if d.name == field), None)
                if t is not None
                else None
            )
        while isinstance(t, (c_ast.PtrDecl, c_ast.TypeDecl)):  # to the function type
            t = t.type
        if not isinstance(t, c_ast.FuncDecl):
            raise RuntimeError(
                "litedigest cdef: callback %s: no function pointer %s in the headers"
                % (name, where)
            )
        t = copy.deepcopy(t)
        d = t.type
        while not isinstance(d, c_ast.TypeDecl):
            d = d.type
        d.declname = name
        out.append('extern "Python" %s;' % c_generator.CGenerator().visit(t))
    return out


def _cffi_accepts(decls):
    try:
        FFI().cdef("\n".join(decls))
        return True
    except Exception:
        return False


def generate_cdef(include_dir=_INCLUDE, cpp=None, define_macros=None, callbacks=None):
    """The cffi declarations of the public headers in include_dir/litedigest: typedefs,
    partial structs, prototypes, `#define NAME ...` lines, then the Python callbacks
    (default PYTHON_CALLBACKS)."""
    text, macros = preprocess(include_dir, cpp, define_macros)
    nodes = parse(text)
    decls = declarations(nodes)
    if not _cffi_accepts(decls):  # leave out what cffi cannot take, say so
        kept = []
        for d in decls:
            if _cffi_accepts(kept + [d]):
                kept.append(d)
            else:
                sys.stderr.write("litedigest cdef: cffi cannot take, left out:\n%s\n" % d)
        decls = kept
    consts = ["#define %s ..." % n for n in integer_macros(macros) if not NOT_EXPORTED.fullmatch(n)]
    calls = python_callbacks(nodes, PYTHON_CALLBACKS if callbacks is None else callbacks)
    return "\n".join(decls + consts + calls) + "\n"


CDEF = generate_cdef()


def make_builder(path=_rel):
    """The FFI builder of litedigest._clib._native; path(p) gives the form of the source and include
    paths (setuptools: relative to the project root, its working directory)."""
    builder = FFI()
    builder.cdef(CDEF)
    builder.set_source(
        "litedigest._clib._native",
        _includes(public_headers()),
        sources=[path(os.path.join(_SRC, s)) for s in _SOURCES],
        include_dirs=[path(_INCLUDE)],
        define_macros=DEFINE_MACROS,
        extra_compile_args=["-O2", "-std=c99"],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    if "--cdef" in sys.argv[1:]:
        sys.stdout.write(CDEF)
    else:  # compile() works in tmpdir: absolute paths
        print(make_builder(os.path.abspath).compile(tmpdir=os.path.join(_ROOT, "build", "cffi")))
