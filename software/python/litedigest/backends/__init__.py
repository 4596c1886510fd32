# SPDX-License-Identifier: BSD-2-Clause
"""Backends: where a hash runs (sw, rtl, soc, pynq).

Every hash object (litedigest.hashobj, litedigest.skein) is a C library context underneath:
the buffering, padding, Skein's UBI sequence and the peripheral protocol are the C library's
(software/firmware/lib, through litedigest._clib). A backend only says which context:
`md_context(spec)` for the SHA family and `skein_context(spec, digest_bits, key)` for
Skein-512, each with update/update_bits/copy/digest/final. Backends live in
`litedigest.backends.<name>`, each module providing `open_backend(engine: str | None) ->
Backend`; they are imported lazily (the `rtl` and `soc` ones need Migen/LiteX/a simulator)
and cached per (name, engine), so repeated `litedigest.new(...)` calls reuse one simulator.
"""

import importlib
import threading

BACKENDS = ("sw", "rtl", "soc", "pynq")
# the optional part of the installation a backend needs (litedigest.extras); the others run on
# the base install
NEEDS_EXTRA = {"rtl": "soc", "soc": "soc"}


class Backend:
    """Interface of every backend."""

    name = "?"

    def md_context(self, spec):
        """A C context hashing spec.algorithm (a SHA-family algorithm of litedigest.spec)."""
        raise NotImplementedError

    def skein_context(self, spec, digest_bits, key):
        """A C context for Skein-512 with `digest_bits` output bits, MAC key `key`."""
        raise ValueError(f"the {self.name} backend has no Skein-512")

    def mac(self, spec, key, data):
        """The MAC of `data` under `key` on the MAC engine `spec` (litedigest.hmac with a MAC
        engine, e.g. hmac-sha256:opt:p4)."""
        raise ValueError(f"the {self.name} backend has no MAC engine ({spec})")

    def hash_many(self, spec, messages, digest_bits=None, key=b""):
        """The digests of `messages` (a list of bytes) for spec.algorithm (Skein-512: of
        `digest_bits` bits under MAC key `key`): one context each (a backend with a batch
        interface overrides this)."""
        out = []
        for m in messages:
            if spec.family == "skein512":
                ctx = self.skein_context(spec, digest_bits, key)
            else:
                ctx = self.md_context(spec)
            ctx.update(m)
            out.append(ctx.digest())
        return out

    def close(self):
        """Release the backend's resources (simulator, bridge). Idempotent."""

    def __repr__(self):
        return f"<litedigest backend {self.name}>"


_cache = {}
_lock = threading.Lock()


def get_backend(name, engine=None):
    """The (cached) backend `name` ("sw", "rtl", "soc", "pynq") for engine spec `engine`."""
    if not isinstance(name, str) or name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    key = (name, engine)
    with _lock:
        be = _cache.get(key)
        if be is not None:
            return be
        if name in NEEDS_EXTRA:
            from litedigest import extras

            extras.require(NEEDS_EXTRA[name], f"the {name} backend")
        modname = f"{__name__}.{name}"
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                raise ValueError(
                    f"backend {name!r} is not available in this installation "
                    f"(module {modname} is missing)"
                ) from e
            raise
        if not hasattr(mod, "open_backend"):
            raise ValueError(f"backend module {modname} has no open_backend()")
        be = mod.open_backend(engine)
        _cache[key] = be
        return be


def close_all():
    """Close and forget every cached backend."""
    with _lock:
        items = list(_cache.values())
        _cache.clear()
    for be in items:
        try:
            be.close()
        except Exception:
            pass
