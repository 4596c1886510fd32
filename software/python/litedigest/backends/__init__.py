"""Backends: where the compression function of a hash runs (sw, rtl, soc, pynq).

Every backend implements `Backend.compress`; the hashlib-style front end (litedigest.hashobj)
does buffering and padding on top of it. Backends live in `litedigest.backends.<name>`, each
module providing `open_backend(engine: str | None) -> Backend`; they are imported lazily
(the `rtl` and `soc` ones need Migen/LiteX/a simulator) and cached per (name, engine), so
repeated `litedigest.new(...)` calls reuse one simulator.
"""
import importlib
import threading

BACKENDS = ("sw", "rtl", "soc", "pynq")


class Backend:
    """Interface of every backend."""

    name = "?"

    def compress(self, spec, cv, blocks):
        """Hash whole blocks (len(blocks) a non-zero multiple of spec.block_size) starting from
        chaining value cv (32 bytes, H0..H7 big-endian words) or from the algorithm's IV when
        cv is None. Return the new chaining value (32 bytes)."""
        raise NotImplementedError

    def ubi(self, spec, start, blocks, t0, t1, final_bytes):
        """Skein-512: one UBI job (litedigest.skein, the peripheral's job): whole blocks from
        chaining value `start` (64 bytes) or engine variant `start` (int: 0 zero, 1.. a
        configured IV), block tweaks by litedigest.skein.block_tweaks(t0, t1, n, final_bytes).
        Return the new chaining value (64 bytes)."""
        raise ValueError(f"the {self.name} backend has no Skein-512")

    def close(self):
        """Release the backend's resources (simulator, bridge). Idempotent."""

    def __repr__(self):
        return f"<litedigest backend {self.name}>"


_cache = {}
_lock = threading.Lock()


def get_backend(name, engine=None):
    """The (cached) backend `name` ("sw", "rtl", "soc") for engine spec `engine`."""
    if not isinstance(name, str) or name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    key = (name, engine)
    with _lock:
        be = _cache.get(key)
        if be is not None:
            return be
        modname = f"{__name__}.{name}"
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                raise ValueError(f"backend {name!r} is not available in this installation "
                                 f"(module {modname} is missing)") from e
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
