"""`litedigest sum`: sha256sum/sha224sum work-alike (GNU coreutils 9 output and -c rules)
running on any backend.

    litedigest sum -a sha256 [--engine SPEC] [--backend sw|rtl|soc|pynq] [-b|-t] [--tag] FILE...
    litedigest sum -a sha256 -c [--quiet] [--status] [--strict] [-w] SUMSFILE...
"""
import os
import re
import sys

from .backends import BACKENDS

PROG = "litedigest"
READ_CHUNK = 64 * 1024


def add_parser(subparsers):
    p = subparsers.add_parser(
        "sum", help="print or check checksums (like sha256sum)",
        description="Print or check SHA-2 checksums, byte-identical to GNU sha256sum/sha224sum. "
                    "With no FILE, or when FILE is -, read standard input.")
    p.add_argument("-a", "--algorithm", default="sha256", help="sha256 (default), sha224, sha1, sha384, sha512, sha512_224, sha512_256, skein512-256, skein512-512 (and skein512-N for N in 128 160 224 384)")
    p.add_argument("--engine", default=None, help="engine spec, e.g. sha256:opt (rtl/soc backends)")
    p.add_argument("--backend", default="sw", choices=BACKENDS,
                   help="where to hash (default sw; pynq: the board, or the simulated SoC with "
                        "LITEDIGEST_PYNQ_DEVICE=sim)")
    p.add_argument("-c", "--check", action="store_true", help="read checksums from the FILEs and check them")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("-b", "--binary", action="store_true", help="read in binary mode (prints ' *')")
    mode.add_argument("-t", "--text", action="store_true", help="read in text mode (default)")
    p.add_argument("--tag", action="store_true", help="create a BSD-style checksum")
    p.add_argument("--quiet", action="store_true", help="check: don't print OK for each verified file")
    p.add_argument("--status", action="store_true", help="check: print nothing, the exit status tells")
    p.add_argument("--strict", action="store_true", help="check: exit non-zero for improperly formatted lines")
    p.add_argument("-w", "--warn", action="store_true", help="check: warn about improperly formatted lines")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.set_defaults(func=run)
    return p


# --------------------------------------------------------------------------------------
# output helpers (bytes throughout: file names are OS bytes, output must match GNU exactly)

def _out():
    return sys.stdout.buffer


def _err(msg):
    sys.stdout.flush()
    sys.stderr.buffer.write(f"{PROG}: ".encode() + msg + b"\n")
    sys.stderr.flush()


_SAFE = re.compile(rb"^[A-Za-z0-9_./+,:@%=^-]+$")


def _quotef(name):
    """GNU quotef-like: plain when harmless, else shell single quotes."""
    if _SAFE.match(name):
        return name
    if b"\n" in name or b"\r" in name or b"\t" in name:
        # $'...' form as GNU does for control characters
        esc = name.replace(b"\\", b"\\\\").replace(b"'", b"\\'")
        esc = esc.replace(b"\n", b"\\n").replace(b"\r", b"\\r").replace(b"\t", b"\\t")
        return b"$'" + esc + b"'"
    return b"'" + name.replace(b"'", b"'\\''") + b"'"


def _escape(name):
    return name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def _unescape(name):
    """filename_unescape: \\\\, \\n, \\r; anything else is invalid (None)."""
    out = bytearray()
    i = 0
    while i < len(name):
        c = name[i:i + 1]
        if c == b"\\":
            nxt = name[i + 1:i + 2]
            if nxt == b"\\":
                out += b"\\"
            elif nxt == b"n":
                out += b"\n"
            elif nxt == b"r":
                out += b"\r"
            else:
                return None
            i += 2
        elif c == b"\n":
            return None
        else:
            out += c
            i += 1
    return bytes(out)


def _strerror(e):
    return (e.strerror or str(e)).encode()


def _hash_file(name, algo, backend, engine):
    """Hex digest (bytes) of file `name` (b"-" = stdin); raises OSError."""
    from .hashobj import new
    h = new(algo, backend=backend, engine=engine)
    if name == b"-":
        f = sys.stdin.buffer
        close = False
    else:
        if os.path.isdir(name):
            raise IsADirectoryError(21, "Is a directory")
        f = open(name, "rb")
        close = True
    try:
        while True:
            chunk = f.read(READ_CHUNK)
            if not chunk:
                break
            h.update(chunk)
    finally:
        if close:
            f.close()
    return h.hexdigest().encode()


# --------------------------------------------------------------------------------------

def run(args):
    from . import spec
    algo = args.algorithm.lower()
    if algo not in spec.ALGORITHMS:
        _err(f"unsupported algorithm {args.algorithm!r} (known: {', '.join(sorted(spec.ALGORITHMS))})".encode())
        return 2
    if args.engine is not None:
        try:
            if spec.ALGORITHMS[algo][0] == "skein512":  # one engine serves every output size
                if spec.parse(args.engine).family != "skein512":
                    raise spec.SpecError(f"engine spec {args.engine!r} is not a Skein-512 engine")
            else:
                spec.parse(args.engine, default_algorithm=algo)
        except spec.SpecError as e:
            _err(str(e).encode())
            return 2
    files = [os.fsencode(f) for f in args.files] or [b"-"]
    try:
        return _run(files, algo, args)
    except ValueError as e:   # a backend that cannot run here (no board, no simulator, ...)
        _err(str(e).encode())
        return 2


def _run(files, algo, args):
    if args.check:
        if args.tag or args.binary or args.text:
            _err(b"the --binary, --text and --tag options are meaningless when verifying checksums")
            return 1
        return _check(files, algo, args)
    if args.quiet or args.status or args.strict or args.warn:
        _err(b"the --quiet, --status, --strict and --warn options are meaningful only when verifying checksums")
        return 1
    return _print_sums(files, algo, args)


def _print_sums(files, algo, args):
    ok = True
    out = _out()
    for name in files:
        try:
            hexd = _hash_file(name, algo, args.backend, args.engine)
        except OSError as e:
            _err(_quotef(name) + b": " + _strerror(e))
            ok = False
            continue
        esc = any(c in name for c in (b"\\", b"\n", b"\r"))
        shown = _escape(name) if esc else name
        if args.tag:
            line = (b"\\" if esc else b"") + algo.upper().encode() + b" (" + shown + b") = " + hexd
        else:
            line = (b"\\" if esc else b"") + hexd + (b" *" if args.binary else b"  ") + shown
        out.write(line + b"\n")
    out.flush()
    return 0 if ok else 1


_HEX = re.compile(rb"^[0-9A-Fa-f]+$")


def _parse_line(line, algo, hexlen, state):
    """Split one sums line: (hex bytes lowercase, file name) or None if improperly formatted.
    state['bsd_reversed']: -1 unknown, 0 standard ('  '/' *'), 1 'hex name' lines."""
    i = 0
    while i < len(line) and line[i:i + 1] in (b" ", b"\t"):
        i += 1
    escaped = line[i:i + 1] == b"\\"
    if escaped:
        i += 1
    s = line[i:]
    # BSD tag: "SHA256 (name) = hex"
    tag = algo.upper().encode()
    if s.startswith(tag + b" (") or s.startswith(tag + b"("):
        body = s[len(tag):].lstrip(b" ")
        j = body.rfind(b") = ")
        if body.startswith(b"(") and j > 0:
            name = body[1:j]
            hexd = body[j + 4:]
            if len(hexd) == hexlen and _HEX.match(hexd):
                if escaped:
                    name = _unescape(name)
                    if name is None:
                        return None
                return hexd.lower(), name
        return None
    hexd = s[:hexlen]
    if len(hexd) != hexlen or not _HEX.match(hexd):
        return None
    rest = s[hexlen:]
    if not rest or rest[:1] not in (b" ", b"\t"):
        return None
    rest = rest[1:]
    if len(rest) == 1 or rest[:1] not in (b" ", b"*"):
        if state["bsd_reversed"] == 0:
            return None
        state["bsd_reversed"] = 1
    elif state["bsd_reversed"] != 1:
        state["bsd_reversed"] = 0
        rest = rest[1:]
    if not rest:
        return None
    name = rest
    if escaped:
        name = _unescape(name)
        if name is None:
            return None
    return hexd.lower(), name


def _check(files, algo, args):
    from . import spec
    hexlen = 2 * spec.ALGORITHMS[algo][2]
    out = _out()
    rc = 0
    for sums in files:
        try:
            if sums == b"-":
                data = sys.stdin.buffer.read()
            else:
                if os.path.isdir(sums):
                    raise IsADirectoryError(21, "Is a directory")
                with open(sums, "rb") as f:
                    data = f.read()
        except OSError as e:
            _err(_quotef(sums) + b": " + _strerror(e))
            rc = 1
            continue
        shown_sums = b"standard input" if sums == b"-" else sums
        n_bad_fmt = n_fail = n_unread = n_ok = 0
        state = {"bsd_reversed": -1}
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for lineno, line in enumerate(lines, 1):
            if line.endswith(b"\r"):
                line = line[:-1]
            if line.startswith(b"#") or line == b"":
                continue
            parsed = _parse_line(line, algo, hexlen, state)
            if parsed is None:
                n_bad_fmt += 1
                if args.warn:
                    _err(_quotef(shown_sums) + b": " + str(lineno).encode() +
                         f": improperly formatted {algo.upper()} checksum line".encode())
                continue
            want, name = parsed
            esc = b"\n" in name
            shown = (b"\\" + _escape(name)) if esc else name
            try:
                got = _hash_file(name, algo, args.backend, args.engine)
            except OSError as e:
                _err(_quotef(name) + b": " + _strerror(e))
                n_unread += 1
                if not args.status:
                    out.write(shown + b": FAILED open or read\n")
                continue
            if got == want:
                n_ok += 1
                if not (args.quiet or args.status):
                    out.write(shown + b": OK\n")
            else:
                n_fail += 1
                if not args.status:
                    out.write(shown + b": FAILED\n")
        out.flush()
        if n_ok + n_fail + n_unread == 0:
            _err(_quotef(shown_sums) + b": no properly formatted checksum lines found")
            rc = 1
            continue
        if not args.status:
            if n_bad_fmt:
                _err(b"WARNING: %d line%s improperly formatted" %
                     (n_bad_fmt, b" is" if n_bad_fmt == 1 else b"s are"))
            if n_unread:
                _err(b"WARNING: %d listed file%s could not be read" %
                     (n_unread, b"" if n_unread == 1 else b"s"))
            if n_fail:
                _err(b"WARNING: %d computed checksum%s did NOT match" %
                     (n_fail, b"" if n_fail == 1 else b"s"))
        if n_fail or n_unread or (args.strict and n_bad_fmt):
            rc = 1
    return rc
