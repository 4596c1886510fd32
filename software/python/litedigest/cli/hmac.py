# SPDX-License-Identifier: BSD-2-Clause
"""`litedigest hmac`: MAC files the way `openssl dgst -hmac` does, on any backend.

    litedigest hmac -a sha256 --key-file KEYFILE [--hex-key] [-r] [--backend B] [FILE...]
    LD_KEY=secret litedigest hmac -a sha512 --key-env LD_KEY FILE

Output as OpenSSL 3.0's `openssl dgst -<alg> -hmac`: `HMAC-SHA2-256(name)= hex`, and for
standard input `SHA2-256(stdin)= hex` (OpenSSL's own line, without the prefix), or with -r
coreutils' `hex *name`. The key is read from a file or an
environment variable, never from the command line, where `ps` shows it to every user.
"""

import os
import sys

from litedigest.backends import BACKENDS
from litedigest.cli.common import add_version_and_files
from litedigest.cli.output import write_out

PROG = "litedigest"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "hmac",
        help="MAC files with HMAC (like openssl dgst -hmac)",
        description="Print the HMAC of each FILE (standard input with no FILE or with -), as "
        "openssl dgst -hmac prints it. The key comes from --key-file or --key-env: "
        "not from the command line, where ps shows it.",
    )
    p.add_argument(
        "-a",
        "--algorithm",
        default="sha256",
        help="sha256 (default), sha224, sha1, sha384, sha512, sha512_224, sha512_256, "
        "skein512-N; any spelling litedigest.new takes (SHA-256, sha512-224)",
    )
    key = p.add_mutually_exclusive_group()
    key.add_argument(
        "--key-file",
        metavar="FILE",
        help="the key: this file's bytes as they are (a trailing newline is part of it)",
    )
    key.add_argument(
        "--key-env", metavar="VAR", help="the key: this environment variable's value (UTF-8)"
    )
    p.add_argument(
        "--hex-key",
        action="store_true",
        help="the key file or variable holds the key in hex (white space ignored)",
    )
    p.add_argument(
        "-r",
        dest="coreutils",
        action="store_true",
        help="print 'hex *name', as sha256sum -b does (openssl dgst -r)",
    )
    p.add_argument(
        "--engine",
        default=None,
        help="engine spec, e.g. sha256:opt (rtl/soc backends), "
        "or the HMAC engine hmac-sha256:opt:p4 (soc/pynq)",
    )
    p.add_argument("--backend", default="sw", choices=BACKENDS, help="where to hash (default sw)")
    add_version_and_files(p, "hmac")
    p.set_defaults(func=run)
    return p


def openssl_name(alg):
    """OpenSSL 3's name of a digest, as `openssl dgst` prints it: SHA1, SHA2-256, SHA2-512/224."""
    a = alg.upper()
    if a.startswith("SHA") and a != "SHA1":
        bits, _, cut = a[3:].partition("_")
        return f"SHA2-{bits}" + (f"/{cut}" if cut else "")
    return a


def _error(msg):
    sys.stderr.write(f"{PROG} hmac: {msg}\n")


def read_key(args):
    """The key bytes from --key-file / --key-env; ValueError with a message for the user."""
    if args.key_file is None and args.key_env is None:
        raise ValueError(
            "a key is needed: --key-file FILE or --key-env VAR (not on the command "
            "line, where ps shows it)"
        )
    if args.key_file is not None:
        try:
            with open(args.key_file, "rb") as f:
                key = f.read()
        except OSError as e:
            raise ValueError(f"{args.key_file}: {e.strerror or e}") from None
    else:
        if hasattr(os, "environb"):
            value = os.environb.get(os.fsencode(args.key_env))
        else:
            value = os.environ.get(args.key_env)
            value = None if value is None else value.encode()
        if value is None:
            raise ValueError(f"the environment variable {args.key_env} is not set")
        key = value
    if args.hex_key:
        try:
            key = bytes.fromhex(key.decode("ascii", "strict").replace("\n", " ").replace("\r", " "))
        except (UnicodeDecodeError, ValueError):
            raise ValueError("the key is not hex (--hex-key)") from None
    return key


def run(args):
    from litedigest import hashobj
    from litedigest.cli.sum import feed_file
    from litedigest.hmac import new as hmac_new

    try:
        alg = hashobj._algorithm(args.algorithm)
        # the key's two started hashes, once (bad algorithm or engine: refused here); each
        # file is MACed from a copy
        keyed = hmac_new(read_key(args), None, alg, backend=args.backend, engine=args.engine)
    except (TypeError, ValueError) as e:
        # no key, a bad key or algorithm: exit 1, as openssl dgst does for each of these
        _error(str(e))
        return 1
    label = "HMAC-" + openssl_name(alg)
    rc = 0
    for name in args.files or ["-"]:
        h = keyed.copy()
        try:
            feed_file(h, os.fsencode(name))
        except OSError as e:
            _error(f"{name}: {e.strerror or e}")
            rc = 1
            continue
        if args.coreutils:
            # OpenSSL 3's -r marks a name with a newline as coreutils does (a leading
            # backslash, the newline as \n; it doubles no backslash)
            shown = "stdin" if name == "-" else name
            mark = ""
            if "\n" in shown:
                mark, shown = "\\", shown.replace("\n", "\\n")
            line = f"{mark}{h.hexdigest()} *{shown}"
        elif name == "-":  # OpenSSL 3.0 leaves the HMAC- prefix off for standard input
            line = f"{openssl_name(alg)}(stdin)= {h.hexdigest()}"
        else:
            line = f"{label}({name})= {h.hexdigest()}"
        write_out(os.fsencode(line) + b"\n")
    write_out(b"", flush=True)
    return rc
