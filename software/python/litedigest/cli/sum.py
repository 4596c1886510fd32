# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest sum`: sha256sum/sha224sum work-alike (GNU coreutils 9 output and -c rules)
running on any backend.

    litedigest sum -a sha256 [--engine SPEC] [--backend sw|rtl|soc|pynq]
                   [-b|-t] [--tag] [-z] FILE...
    litedigest sum -a sha256 -c [--ignore-missing] [--quiet|--status|-w] [--strict] SUMSFILE...

-c reads the standard lines (`hex  name`, `hex *name`), BSD-style tagged ones (`SHA256 (name) =
hex`, what --tag writes) and OpenSSL 1.1's (`SHA256(name)= hex`; OpenSSL 3's `SHA2-256(name)=` is
refused, as coreutils 9.1 refuses it); a tagged line of another algorithm
is improperly formatted, as in coreutils.
"""

import argparse
import errno
import functools
import os
import re
import sys

from litedigest.backends import BACKENDS
from litedigest.cli.common import add_version_and_files, parsing_argv
from litedigest.cli.output import write_out

PROG = "litedigest"
READ_CHUNK = 64 * 1024


class _TagAction(argparse.Action):
    """--tag implies binary mode, as in coreutils: `-t --tag` tags, `--tag -t` is refused."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=False, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.tag = True
        namespace.binary = True


def add_parser(subparsers):
    p = subparsers.add_parser(
        "sum",
        help="print or check checksums (like sha256sum)",
        description="Print or check SHA-2 checksums, byte-identical to GNU sha256sum/sha224sum. "
        "With no FILE, or when FILE is -, read standard input.",
    )
    p.add_argument(
        "-a",
        "--algorithm",
        default="sha256",
        help="sha256 (default), sha224, sha1, sha384, sha512, sha512_224, sha512_256, "
        "skein512-256, skein512-512 (and skein512-N for N in 128 160 224 384)",
    )
    p.add_argument("--engine", default=None, help="engine spec, e.g. sha256:opt (rtl/soc backends)")
    p.add_argument(
        "--backend",
        default="sw",
        choices=BACKENDS,
        help="where to hash (default sw; pynq: the board, or the simulated SoC with "
        "LITEDIGEST_PYNQ_DEVICE=sim)",
    )
    p.add_argument(
        "-c", "--check", action="store_true", help="read checksums from the FILEs and check them"
    )
    # the last of -b/-t (and --tag, which implies -b) wins, as in coreutils
    p.add_argument(
        "-b",
        "--binary",
        dest="binary",
        action="store_const",
        const=True,
        default=None,
        help="read in binary mode (prints ' *')",
    )
    p.add_argument(
        "-t",
        "--text",
        dest="binary",
        action="store_const",
        const=False,
        help="read in text mode (default)",
    )
    p.add_argument("--tag", action=_TagAction, help="create a BSD-style checksum")
    p.add_argument(
        "-z",
        "--zero",
        action="store_true",
        help="end each output line with NUL, not newline, and disable file name escaping",
    )
    p.add_argument(
        "--ignore-missing",
        action="store_true",
        help="check: don't fail or report status for missing files",
    )
    # the last of --quiet/--status/-w wins, as in coreutils
    p.add_argument(
        "--quiet",
        dest="report",
        action="store_const",
        const="quiet",
        default=None,
        help="check: don't print OK for each verified file",
    )
    p.add_argument(
        "--status",
        dest="report",
        action="store_const",
        const="status",
        help="check: print nothing, the exit status tells",
    )
    p.add_argument(
        "--strict", action="store_true", help="check: exit non-zero for improperly formatted lines"
    )
    p.add_argument(
        "-w",
        "--warn",
        dest="report",
        action="store_const",
        const="warn",
        help="check: warn about improperly formatted lines",
    )
    add_version_and_files(p, "sum")
    p.set_defaults(func=run, unrecognized=_unrecognized)
    p.error = _argparse_error
    return p


def _unrecognized(extras):
    """coreutils' getopt error for the first argument the parser did not know, status 1."""
    arg = extras[0]
    if arg.startswith("--"):
        return _usage_error(f"unrecognized option '{arg}'".encode())
    return _usage_error(f"invalid option -- '{arg[1:2]}'".encode())


def _long_form_given(long_name, argv):
    """Whether `argv` spells the long option `long_name` (or getopt's abbreviation of it), with
    or without =value, rather than its short letter."""
    for a in argv:
        head = a.split("=", 1)[0]
        if a.startswith("--") and len(head) > 2 and long_name.startswith(head):
            return True
    return False


def _argparse_error(message):
    """argparse's usage errors in getopt_long's words and status 1, as coreutils reports them
    (the unknown options: _unrecognized). Never returns (argparse's contract for error())."""
    argv = parsing_argv()
    m = re.match(r"ambiguous option: (\S+) could match (.*)$", message)
    if m:
        choices = " ".join(f"'{o}'" for o in m[2].split(", "))
        sys.exit(_usage_error(f"option '{m[1]}' is ambiguous; possibilities: {choices}".encode()))
    m = re.match(
        r"argument (\S+): (ignored explicit argument '(.*)'|expected one argument)$", message
    )
    if m:
        names = m[1].split("/")
        long_name = next((n for n in names if n.startswith("--")), None)
        short = next((n for n in names if not n.startswith("--")), None)
        use_long = long_name is not None and (short is None or _long_form_given(long_name, argv))
        if m[3] is not None:  # a value given to a flag: --check=x, or -cq (q: no such option)
            if use_long and any(a.startswith("--") and "=" in a for a in argv):
                sys.exit(_usage_error(f"option '{long_name}' doesn't allow an argument".encode()))
            # -c=x: getopt takes "=" for the next option letter (argparse drops it)
            eq = short is not None and any(a.startswith(short + "=") for a in argv)
            sys.exit(_usage_error(f"invalid option -- '{'=' if eq else m[3][:1]}'".encode()))
        if use_long:
            sys.exit(_usage_error(f"option '{long_name}' requires an argument".encode()))
        sys.exit(_usage_error(f"option requires an argument -- '{short[1:]}'".encode()))
    sys.exit(_usage_error(message.encode()))


# --------------------------------------------------------------------------------------
# output helpers (bytes throughout: file names are OS bytes, output must match GNU exactly)


def _err(msg):
    write_out(b"", flush=True)
    sys.stderr.buffer.write(f"{PROG}: ".encode() + msg + b"\n")
    sys.stderr.flush()


def _usage_error(msg):
    """coreutils' error + usage(EXIT_FAILURE): the message, a pointer to --help, status 1."""
    _err(msg)
    sys.stderr.buffer.write(f"Try '{PROG} sum --help' for more information.\n".encode())
    sys.stderr.flush()
    return 1


# gnulib quotearg's shell-escape style, as coreutils' quotef uses it for file names in
# messages (measured against GNU sha256sum 9.1 for every printable ASCII character):
# characters that need no quotes (":" does: quotef quotes colons; "#" and "~" only start a
# word: "-x" and "--tag" stand bare), and those that may stand in double quotes, the form taken
# for a name whose only quoting need is a single quote
_PLAIN = frozenset(b"#%+,-./0123456789@ABCDEFGHIJKLMNOPQRSTUVWXYZ]_abcdefghijklmnopqrstuvwxyz{}~")
_PLAIN_FIRST = _PLAIN - frozenset(b"#~")
_DOUBLE_QUOTABLE = frozenset(
    b" %'+,-./0123456789:@ABCDEFGHIJKLMNOPQRSTUVWXYZ]_abcdefghijklmnopqrstuvwxyz"
)
# C escapes of gnulib's quotearg; other unprintable bytes are three octal digits
_C_ESCAPES = {7: b"a", 8: b"b", 9: b"t", 10: b"n", 11: b"v", 12: b"f", 13: b"r"}


@functools.cache
def _utf8_locale():
    """Whether the user's locale (LC_ALL, LC_CTYPE, LANG: what coreutils' setlocale reads) is
    UTF-8: there a printable non-ASCII character needs no quoting, in the C locale its bytes
    are escaped. Read from the environment the process started with: Python coerces a C
    locale to C.UTF-8 by setting LC_CTYPE in its own (PEP 538)."""
    try:
        with open("/proc/self/environ", "rb") as f:
            env = dict(kv.partition(b"=")[::2] for kv in f.read().split(b"\0") if kv)
        env = {k.decode("latin-1"): v.decode("latin-1") for k, v in env.items()}
    except OSError:
        env = os.environ
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False


def _quote_units(name):
    """name as (bytes, kind) units: kind "ascii" (one byte), "printable" (a printable non-ASCII
    character of a UTF-8 locale) or "unprintable" (one byte to escape)."""
    if all(c < 0x80 for c in name):
        return [(bytes([c]), "ascii") for c in name]
    if not _utf8_locale():
        return [(bytes([c]), "ascii" if c < 0x80 else "unprintable") for c in name]
    units = []
    for ch in name.decode("utf-8", "surrogateescape"):
        raw = ch.encode("utf-8", "surrogateescape")
        if ord(ch) < 0x80:
            units.append((raw, "ascii"))
        elif not 0xDC80 <= ord(ch) <= 0xDCFF and ch.isprintable():
            units.append((raw, "printable"))
        else:
            units += [(bytes([b]), "unprintable") for b in raw]
    return units


def _single_quoted(units, in_escape):
    """One pass of quotearg's single-quote form over `units`, starting in or out of a $'...'
    run; returns the text and whether it ended inside one."""
    out = bytearray(b"'")
    for raw, kind in units:
        c = raw[0]
        if kind == "unprintable" or (kind == "ascii" and (c < 0x20 or c == 0x7F)):
            if not in_escape:
                out += b"'$'"
                in_escape = True
            out += b"\\" + _C_ESCAPES.get(c, b"%03o" % c)
            continue
        if raw == b"'":
            out += b"'\\''"  # closes the quotes or the $'...' run alike
        else:
            if in_escape:
                out += b"''"
            out += raw
        in_escape = False
    return bytes(out + b"'"), in_escape


def _quotef(name):
    """GNU quotef: a file name as coreutils writes it in a message. Plain when harmless; in
    double quotes when a single quote is all that needs quoting ("it's"); else in single
    quotes, a single quote as '\\'' and each run of unprintable bytes as $'...' between them:
    'new'$'\\n''line', ''$'\\001''z'."""
    units = _quote_units(name)
    force_quotes = not units or name in (b"{", b"}")
    if not force_quotes and all(
        kind == "printable" or raw[0] in (_PLAIN_FIRST if i == 0 else _PLAIN)
        for i, (raw, kind) in enumerate(units)
    ):
        return name
    if b"'" in name and all(
        kind == "printable" or (kind == "ascii" and raw[0] in _DOUBLE_QUOTABLE)
        for raw, kind in units
    ):
        return b'"' + name + b'"'
    text, ends_in_escape = _single_quoted(units, False)
    if b"'" in name:
        # gnulib quotes a name with a single quote twice (a scan for the double-quote form,
        # then the output) and keeps the first pass's open $'...' state into the second: a
        # leading '' or a $'...' run without its $' (coreutils 9.1 prints exactly this)
        text, _ = _single_quoted(units, ends_in_escape)
    return text


def _escape(name):
    return name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def _unescape(name):
    """filename_unescape: \\\\, \\n, \\r; anything else is invalid (None)."""
    out = bytearray()
    i = 0
    while i < len(name):
        c = name[i : i + 1]
        if c == b"\\":
            nxt = name[i + 1 : i + 2]
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
    from litedigest.api import new

    h = new(algo, backend=backend, engine=engine)
    feed_file(h, name)
    return h.hexdigest().encode()


def feed_file(h, name):
    """Update hash-like `h` with the bytes of file `name` (b"-" = stdin); raises OSError (a
    directory is an IsADirectoryError, as coreutils reports it)."""
    if name == b"-":
        if sys.stdin is None:  # started with standard input closed (`<&-`), as coreutils says
            raise OSError(errno.EBADF, "Bad file descriptor")
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


# --------------------------------------------------------------------------------------


def run(args):
    from litedigest import spec
    from litedigest.hashobj import _algorithm

    try:  # any spelling new() and `litedigest hmac -a` take ("SHA-256", "sha512-256")
        algo = _algorithm(args.algorithm)
    except ValueError:
        _err(
            f"unsupported algorithm {args.algorithm!r} "
            f"(known: {', '.join(sorted(spec.ALGORITHMS))})".encode()
        )
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
        rc = _run(files, algo, args)
    except ValueError as e:  # a backend that cannot run here (no board, no simulator, ...)
        _err(str(e).encode())
        return 2
    if sys.stdin is None and b"-" in files and rc != 2:
        # coreutils closes the standard input it was told to read: closed from the start, that fails
        _err(b"standard input: Bad file descriptor")
        rc = 1
    return rc


def _run(files, algo, args):
    # coreutils' option checks, in its order
    if args.tag and args.binary is False:
        return _usage_error(b"--tag does not support --text mode")
    if args.check:
        if args.zero:
            return _usage_error(b"the --zero option is not supported when verifying checksums")
        if args.tag:
            return _usage_error(b"the --tag option is meaningless when verifying checksums")
        if args.binary is not None:
            return _usage_error(
                b"the --binary and --text options are meaningless when verifying checksums"
            )
        return _check(files, algo, args)
    for option, given in (
        ("ignore-missing", args.ignore_missing),
        ("status", args.report == "status"),
        ("warn", args.report == "warn"),
        ("quiet", args.report == "quiet"),
        ("strict", args.strict),
    ):
        if given:
            return _usage_error(
                f"the --{option} option is meaningful only when verifying checksums".encode()
            )
    return _print_sums(files, algo, args)


def _print_sums(files, algo, args):
    ok = True
    for name in files:
        try:
            hexd = _hash_file(name, algo, args.backend, args.engine)
        except OSError as e:
            _err(_quotef(name) + b": " + _strerror(e))
            ok = False
            continue
        # -z: NUL-terminated lines and no file name escaping
        esc = not args.zero and any(c in name for c in (b"\\", b"\n", b"\r"))
        shown = _escape(name) if esc else name
        if args.tag:
            line = (b"\\" if esc else b"") + algo.upper().encode() + b" (" + shown + b") = " + hexd
        else:
            line = (b"\\" if esc else b"") + hexd + (b" *" if args.binary else b"  ") + shown
        write_out(line + (b"\0" if args.zero else b"\n"))
    write_out(b"", flush=True)
    return 0 if ok else 1


_HEX = re.compile(rb"[0-9A-Fa-f]+")
# a tagged line's start: BSD `NAME (` (what --tag writes) or OpenSSL `NAME(`
_TAG = re.compile(rb"([A-Za-z0-9_-]+) ?\(")


def _tag_names(algo):
    """Tag name -> whether it names the hash of `algo`, for every hash we know: our --tag names
    (the algorithm upper-cased) and OpenSSL's (SHA512-224, SHA512-256). A hash is its family and
    digest size (skein512 is skein512-512)."""
    from litedigest import spec

    own = spec.ALGORITHMS[algo][0], spec.ALGORITHMS[algo][2]
    names = {}
    for alg, (family, _, size) in spec.ALGORITHMS.items():
        for name in (alg.upper(), alg.upper().replace("_", "-")):
            names[name.encode()] = (family, size) == own
    return names


def _split_tagged(body, hexlen, escaped):
    """coreutils' bsd_split_3 on what follows `NAME (`: the name up to the last ')', then
    blanks, '=', blanks and exactly the digest's hex digits."""
    j = body.rfind(b")")
    if j < 0:
        return None
    name = body[:j]
    rest = body[j + 1 :].lstrip(b" \t")
    if not rest.startswith(b"="):
        return None
    hexd = rest[1:].lstrip(b" \t")
    if len(hexd) != hexlen or not _HEX.fullmatch(hexd):
        return None
    if escaped:
        name = _unescape(name)
        if name is None:
            return None
    return hexd.lower(), name


def _parse_line(line, hexlen, tags, state):
    """Split one sums line: (hex bytes lowercase, file name) or None if improperly formatted.
    tags: _tag_names(algo). state['bsd_reversed']: -1 unknown, 0 standard ('  '/' *'),
    1 'hex name' lines."""
    i = 0
    while i < len(line) and line[i : i + 1] in (b" ", b"\t"):
        i += 1
    escaped = line[i : i + 1] == b"\\"
    if escaped:
        i += 1
    s = line[i:]
    # tagged: "SHA256 (name) = hex" (BSD, --tag) or "SHA256(name)= hex" (OpenSSL); a tag that
    # names another hash is an improperly formatted line (coreutils)
    m = _TAG.match(s)
    if m and m.group(1) in tags:
        return _split_tagged(s[m.end() :], hexlen, escaped) if tags[m.group(1)] else None
    hexd = s[:hexlen]
    if len(hexd) != hexlen or not _HEX.fullmatch(hexd):
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
    from litedigest import spec

    hexlen = 2 * spec.ALGORITHMS[algo][2]
    tags = _tag_names(algo)
    status, quiet, warn = (args.report == r for r in ("status", "quiet", "warn"))
    rc = 0
    for sums in files:
        try:
            if sums == b"-" and sys.stdin is None:
                # standard input closed from the start: coreutils' read error (and at the
                # end its closing of standard input fails: run())
                _err(b"'standard input': read error")
                rc = 1
                continue
            if sums == b"-":
                data = sys.stdin.buffer.read()
            elif os.path.isdir(sums):
                # coreutils opens it, and its first read fails
                _err(_quotef(sums) + b": read error")
                rc = 1
                continue
            else:
                with open(sums, "rb") as f:
                    data = f.read()
        except OSError as e:
            _err(_quotef(sums) + b": " + _strerror(e))
            rc = 1
            continue
        shown_sums = b"standard input" if sums == b"-" else sums
        n_bad_fmt = n_fail = n_unread = n_ok = 0
        formatted = False  # a properly formatted line seen (its file may be missing)
        state = {"bsd_reversed": -1}
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for lineno, line in enumerate(lines, 1):
            if line.endswith(b"\r"):
                line = line[:-1]
            if line.startswith(b"#") or line == b"":
                continue
            parsed = _parse_line(line, hexlen, tags, state)
            if parsed is not None and sums == b"-" and parsed[1] == b"-":
                parsed = None  # stdin is the sums list, it cannot be a listed file too
            if parsed is None:
                n_bad_fmt += 1
                if warn:
                    _err(
                        _quotef(shown_sums)
                        + b": "
                        + str(lineno).encode()
                        + f": improperly formatted {algo.upper()} checksum line".encode()
                    )
                continue
            want, name = parsed
            # coreutils opens the name as a C string: a NUL byte ends it (the file is then
            # the part before, present or missing like any other)
            name = name.split(b"\0", 1)[0]
            formatted = True
            esc = b"\n" in name
            shown = (b"\\" + _escape(name)) if esc else name
            try:
                got = _hash_file(name, algo, args.backend, args.engine)
            except OSError as e:
                if args.ignore_missing and e.errno == errno.ENOENT:
                    continue
                _err(_quotef(name) + b": " + _strerror(e))
                n_unread += 1
                if not status:
                    write_out(shown + b": FAILED open or read\n")
                continue
            if got == want:
                n_ok += 1
                if not (quiet or status):
                    write_out(shown + b": OK\n")
            else:
                n_fail += 1
                if not status:
                    write_out(shown + b": FAILED\n")
        write_out(b"", flush=True)
        if not formatted:
            _err(_quotef(shown_sums) + b": no properly formatted checksum lines found")
            rc = 1
            continue
        if not status:
            if n_bad_fmt:
                _err(
                    b"WARNING: %d line%s improperly formatted"
                    % (n_bad_fmt, b" is" if n_bad_fmt == 1 else b"s are")
                )
            if n_unread:
                _err(
                    b"WARNING: %d listed file%s could not be read"
                    % (n_unread, b"" if n_unread == 1 else b"s")
                )
            if n_fail:
                _err(
                    b"WARNING: %d computed checksum%s did NOT match"
                    % (n_fail, b"" if n_fail == 1 else b"s")
                )
            if args.ignore_missing and not n_ok:
                _err(_quotef(shown_sums) + b": no file was verified")
        # coreutils: a list passes only if some file matched (only --ignore-missing can leave none)
        if not n_ok or n_fail or n_unread or (args.strict and n_bad_fmt):
            rc = 1
    return rc
