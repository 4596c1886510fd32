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

    def mac_many(self, spec, keys, messages):
        """The MACs of messages[i] under keys[i] on the MAC engine `spec`: one mac() each (a
        backend with a batch walker overrides this)."""
        return [self.mac(spec, k, m) for k, m in zip(keys, messages)]

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


def walker_macs(hw, keys, messages, read_bytes, path):
    """mac_many on a MAC peripheral `hw` (litedigest._clib.HwDevice) with a batch walker: the
    distinct keys in rounds of as many as it has key slots, each round's messages one batch
    in their order, each descriptor naming its message's key slot (HwDevice.mac_many, the
    outputs read back with `read_bytes`); a message too large for the staging area by a
    one-shot call on `path`."""
    out = [None] * len(messages)
    by_key = {}
    for i, k in enumerate(keys):
        by_key.setdefault(k, []).append(i)
    groups = list(by_key.items())
    nslots = hw.mac_key_slots
    alg = hw.mac_hash_alg
    with hw.owned():  # no other process loads its keys in between
        for first in range(0, len(groups), nslots):
            slot_of = {}
            for slot, (key, idx) in enumerate(groups[first : first + nslots]):
                hw.mac_set_key(slot, key)
                slot_of.update(dict.fromkeys(idx, slot))
            order = sorted(slot_of)  # the round's messages in their order
            small = [i for i in order if hw.batch_fits(alg, len(messages[i]))]
            macs = hw.mac_many(
                [slot_of[i] for i in small], [messages[i] for i in small], read_bytes
            )
            for i, mac in zip(small, macs):
                out[i] = mac
            for i in order:
                if out[i] is None:
                    out[i] = hw.mac(slot_of[i], messages[i], path)
    return out
