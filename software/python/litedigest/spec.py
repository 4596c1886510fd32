# SPDX-License-Identifier: BSD-2-Clause
"""The engine catalogue and spec strings: the one pure-data module every layer shares.

Gateware (litedigest.ip, litedigest.soc), the drivers and the board-side Python all take the
facts about engines from here: the families, their algorithms and engine variants (the IV
choice in ctrl.variant), the round architectures with their info.arch codes, the pipeline
depths, and the spec grammar. This module imports nothing but the standard library, so the
board side can use it without Migen or LiteX.

`sha256:opt:p1` -> EngineSpec(algorithm="sha256", arch="opt", stages=1). The algorithm part
may name a variant that shares an engine (sha224 runs on the sha256 engines).
"""

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Arch:
    """A round architecture of an engine family: its info.arch code, the latency of one block
    (cycles from accepted to its chaining value) when unpipelined, and the pipeline depths it
    is built with (SHA `pN`; Skein's functional pipeline `fpN`) and Skein's structural
    pipeline (`spM`: Threefish modules in a row)."""

    code: int
    latency: int
    stages: tuple = (1,)
    modules: tuple = (1,)


@dataclass(frozen=True)
class Family:
    """An engine family: what the engines, the peripheral, the drivers and the spec grammar
    all need to know about it. `algorithms`: the names it hashes (hashlib's, or Skein-512's
    output sizes) -> digest bytes; `variants`: its initial chaining values in ctrl.variant
    order; `word_bits`: the width of the words of a block and of the chaining value; `ring`:
    pipelines are rings of rounds written fpN[:spM] (Skein), not pN."""

    block_bytes: int
    state_bytes: int
    word_bits: int
    algorithms: dict
    variants: tuple
    archs: dict
    default_arch: str
    ring: bool = False

    def latency(self, arch, stages=1):
        """Cycles from a block accepted to its chaining value. A SHA pipeline splits the
        rounds over its stages (same latency); a Skein ring of P stages goes round P times,
        plus a cycle between its stages' last and first registers when P > 1."""
        lat = self.archs[arch].latency
        if self.ring and stages > 1:
            return (lat - 1) * stages + 2
        return lat


# Skein-512 output sizes with a configured chaining value (the engines' variants 1..6)
SKEIN_SIZES = (512, 384, 256, 224, 160, 128)

# THE engine catalogue: one record per family; every table below derives from it.
FAMILIES = {
    "sha1": Family(
        block_bytes=64,
        state_bytes=20,
        word_bits=32,
        algorithms={"sha1": 20},
        variants=("sha1",),
        archs={
            "base": Arch(0, 81, (1, 2, 4, 5, 8, 10, 16, 20, 40, 80)),
            "k5": Arch(2, 17),
            "opt": Arch(1, 41, (1, 2, 4, 5, 8, 10, 20, 40)),
        },
        default_arch="opt",
    ),
    "sha256": Family(
        block_bytes=64,
        state_bytes=32,
        word_bits=32,
        algorithms={"sha256": 32, "sha224": 28},
        variants=("sha256", "sha224"),
        archs={
            "base": Arch(0, 65, (1, 2, 4, 8, 16, 32, 64)),
            "opt": Arch(1, 33, (1, 2, 4, 8, 16, 32)),
        },
        default_arch="opt",
    ),
    "sha512": Family(
        block_bytes=128,
        state_bytes=64,
        word_bits=64,
        algorithms={"sha512": 64, "sha384": 48, "sha512_224": 28, "sha512_256": 32},
        variants=("sha512", "sha384", "sha512_224", "sha512_256"),
        archs={"base": Arch(0, 81), "k5": Arch(2, 17)},
        default_arch="k5",
    ),
    # Skein-512: any output length (litedigest.new("skein512", digest_bits=...)); the named
    # sizes are what `litedigest sum -a` takes
    "skein512": Family(
        block_bytes=64,
        state_bytes=64,
        word_bits=64,
        algorithms={
            "skein512": 64,
            **{f"skein512-{n}": n // 8 for n in (256, 512, 384, 224, 160, 128)},
        },
        variants=("zero",) + tuple(f"skein512-{n}" for n in SKEIN_SIZES),
        archs={"r1": Arch(3, 73), "r4": Arch(4, 19), "r8": Arch(5, 10, (1, 2, 4, 8), (1, 3))},
        default_arch="r8",
        ring=True,
    ),
}


@dataclass(frozen=True)
class Mac:
    """A MAC engine: `cores` cores of a hash family's architecture in one pipeline (HMAC: the
    inner core hashes the message from the key's stored inner state, the outer core the inner
    digest from the stored outer state, Michail et al. 2012, sec. 8). `archs`: the hash
    family's architectures it is built with -> the pipeline depths per core (pN); `key_slots`:
    keys held at once (their stored states are write-only secrets)."""

    hash_family: str
    archs: dict
    default_arch: str
    key_slots: int
    cores: int = 2

    @property
    def family(self):
        return FAMILIES[self.hash_family]


# THE MAC engines, by algorithm name (`hmac-sha256:opt:p4`); the engine family (the module in
# litedigest.ip, the peripheral's instance) is the name with "_" for "-"
MACS = {
    "hmac-sha256": Mac(
        hash_family="sha256", archs={"opt": (1, 4)}, default_arch="opt", key_slots=4
    ),
}
MAC_FAMILIES = {alg.replace("-", "_"): alg for alg in MACS}  # engine family -> MAC algorithm


def mac_of_family(family):
    """The Mac record of a MAC engine family ("hmac_sha256"), or None for a hash family."""
    alg = MAC_FAMILIES.get(family)
    return MACS[alg] if alg else None


# Derived tables (kept under their old names for the code that reads them)
# algorithm -> (engine family, block bytes, digest bytes)
ALGORITHMS = {
    alg: (fam, f.block_bytes, size)
    for fam, f in FAMILIES.items()
    for alg, size in f.algorithms.items()
}
# round architectures implemented per engine family
ARCHITECTURES = {fam: tuple(f.archs) for fam, f in FAMILIES.items()}
DEFAULT_ARCH = {fam: f.default_arch for fam, f in FAMILIES.items()}
# pipeline stage counts per (family, arch) (SHA pN; Skein's functional pipeline fpN)
STAGES = {
    (fam, a): arch.stages
    for fam, f in FAMILIES.items()
    for a, arch in f.archs.items()
    if arch.stages != (1,)
}
# Skein's structural pipeline (spN): Threefish modules in a row, on the 8-round datapath
MODULES = {
    (fam, a): arch.modules
    for fam, f in FAMILIES.items()
    for a, arch in f.archs.items()
    if arch.modules != (1,)
}
# families whose pipeline parts are written fpN[:spM] (Skein) rather than pN (SHA)
RING_FAMILIES = tuple(fam for fam, f in FAMILIES.items() if f.ring)
STATE_BYTES = {fam: f.state_bytes for fam, f in FAMILIES.items()}
# info.arch: the code the peripheral reports for an engine's round architecture (the C
# library's LD_ARCH_*, generated into ld_hw_regs.h); Skein codes mean "a block takes the
# whole latency" to the driver
ARCH_CODES = {a: arch.code for f in FAMILIES.values() for a, arch in f.archs.items()}
# ctrl.variant: the engine's initial chaining values in variant order (index = variant). The
# SHA families' variants are algorithms; Skein-512's are the zero chain (a key or
# configuration UBI starts from it) and the configured IVs of its standard output sizes.
VARIANTS = {fam: f.variants for fam, f in FAMILIES.items()}


class SpecError(ValueError):
    """An engine spec string that names no engine we can build."""


@dataclass(frozen=True)
class EngineSpec:
    algorithm: str
    arch: str
    stages: int = 1  # pipeline stages (SHA pN, Skein's functional pipeline fpN)
    modules: int = 1  # Skein's structural pipeline (spN): Threefish modules in a row

    @property
    def mac(self):
        """The Mac record of a MAC engine's spec, None for a hash engine."""
        return MACS.get(self.algorithm)

    @property
    def hash_family(self):
        """The hash family whose rounds the engine runs (a MAC engine's cores')."""
        return self.mac.hash_family if self.mac else self.family

    @property
    def family(self):
        if self.mac:
            return self.algorithm.replace("-", "_")
        return ALGORITHMS[self.algorithm][0]

    @property
    def block_size(self):
        return FAMILIES[self.hash_family].block_bytes

    @property
    def digest_size(self):
        if self.mac:
            return FAMILIES[self.hash_family].state_bytes
        return ALGORITHMS[self.algorithm][2]

    @property
    def state_size(self):
        """Bytes of the chaining value (what the engine returns per block)."""
        return STATE_BYTES[self.hash_family]

    @property
    def cores(self):
        """Hash cores in a row in the engine (a MAC engine's inner and outer core; 1)."""
        return self.mac.cores if self.mac else 1

    @property
    def in_flight(self):
        """Blocks the engine holds at once (one slot, i.e. one message, each)."""
        return self.stages * self.modules * self.cores

    @property
    def latency(self):
        """Cycles from a block accepted to its chaining value (the catalogue's). A MAC engine's
        cores hand over in the cycle the inner one's block is done: cores x (latency - 1) + 1
        (HMAC on sha256:opt: 65, Michail et al. 2012, fig. 16)."""
        lat = FAMILIES[self.hash_family].latency(self.arch, self.stages)
        return self.cores * (lat - 1) + 1

    @property
    def interval(self):
        """Cycles per block when the engine is full (a Fraction): a SHA p-stage pipeline
        completes p blocks every latency - 1 cycles (its final addition overlaps the next
        block's first round), a Skein ring or structural pipeline in_flight blocks every
        latency."""
        if FAMILIES[self.hash_family].ring:
            return Fraction(self.latency, self.in_flight)
        if self.stages == 1 and self.cores == 1:
            return Fraction(self.latency)
        return Fraction(self.latency - 1, self.in_flight)

    def _pipe_suffix(self, always):
        if self.family in RING_FAMILIES:
            return (f":fp{self.stages}" if self.stages != 1 else "") + (
                f":sp{self.modules}" if self.modules != 1 else ""
            )
        return f":p{self.stages}" if always or self.stages != 1 else ""

    @property
    def engine_name(self):
        """The spec of the hardware engine (variants share one)."""
        family = self.algorithm if self.mac else self.family
        return f"{family}:{self.arch}" + self._pipe_suffix(True)

    def __str__(self):
        return f"{self.algorithm}:{self.arch}" + self._pipe_suffix(False)


def parse(spec, default_algorithm=None):
    """Parse 'sha256', 'sha256:opt', 'sha224:base:p1' into an EngineSpec; raise SpecError."""
    if not isinstance(spec, str) or not spec:
        raise SpecError(f"engine spec must be a non-empty string, got {spec!r}")
    parts = spec.lower().split(":")
    algo = parts[0]
    if algo in MACS:
        return _parse_mac(spec, algo, parts[1:])
    if algo not in ALGORITHMS:
        raise SpecError(
            f"unknown algorithm {algo!r} in engine spec {spec!r} "
            f"(known: {', '.join(sorted(ALGORITHMS))})"
        )
    if default_algorithm is not None and algo != default_algorithm:
        raise SpecError(f"engine spec {spec!r} is for {algo}, not {default_algorithm}")
    family = ALGORITHMS[algo][0]
    arch = DEFAULT_ARCH[family]
    stages = 1
    rest = parts[1:]
    if family in RING_FAMILIES:
        return _parse_ring(spec, algo, family, rest)
    if rest and not rest[0].startswith("p"):
        arch = rest.pop(0)
        if arch not in ARCHITECTURES[family]:
            raise SpecError(
                f"unknown architecture {arch!r} for {family} in {spec!r} "
                f"(known: {', '.join(ARCHITECTURES[family])})"
            )
    if rest:
        p = rest.pop(0)
        if not (p.startswith("p") and p[1:].isdigit() and int(p[1:]) >= 1):
            raise SpecError(f"bad pipeline part {p!r} in {spec!r} (expected pN, N >= 1)")
        stages = int(p[1:])
        allowed = STAGES.get((family, arch), (1,))
        if stages not in allowed:
            if len(allowed) == 1:
                raise SpecError(f"{spec!r}: {family}:{arch} has no pipelined version (p > 1) yet")
            raise SpecError(
                f"{spec!r}: {family}:{arch} pipelines have "
                f"{', '.join(map(str, allowed))} stages, not {stages}"
            )
    if rest:
        raise SpecError(f"trailing parts {':'.join(rest)!r} in engine spec {spec!r}")
    return EngineSpec(algo, arch, stages)


def _parse_mac(spec, algo, rest):
    """hmac-sha256[:arch][:pN]: the hash family's architecture and pipeline depth per core."""
    mac = MACS[algo]
    arch = mac.default_arch
    if rest and not rest[0].startswith("p"):
        arch = rest.pop(0)
        if arch not in mac.archs:
            raise SpecError(
                f"{algo} is built on {', '.join(mac.archs)} cores, not {arch!r} ({spec!r})"
            )
    stages = 1
    if rest:
        p = rest.pop(0)
        if not (p.startswith("p") and p[1:].isdigit() and int(p[1:]) in mac.archs[arch]):
            raise SpecError(
                f"bad pipeline part {p!r} in {spec!r} ({algo}:{arch} has "
                f"{', '.join(f'p{n}' for n in mac.archs[arch])})"
            )
        stages = int(p[1:])
    if rest:
        raise SpecError(f"trailing parts {':'.join(rest)!r} in engine spec {spec!r}")
    return EngineSpec(algo, arch, stages)


def _parse_ring(spec, algo, family, rest):
    """skein512[:rN][:fpP][:spM]"""
    arch = DEFAULT_ARCH[family]
    if rest and not rest[0].startswith(("fp", "sp")):
        arch = rest.pop(0)
        if arch not in ARCHITECTURES[family]:
            raise SpecError(
                f"unknown architecture {arch!r} for {family} in {spec!r} "
                f"(known: {', '.join(ARCHITECTURES[family])})"
            )
    got = {}
    for kind in ("fp", "sp"):
        if rest and rest[0].startswith(kind):
            n = rest.pop(0)[len(kind) :]
            if not n.isdigit() or int(n) < 1:
                raise SpecError(f"bad {kind} part in {spec!r} (expected {kind}N, N >= 1)")
            got[kind] = int(n)
    if rest:
        raise SpecError(
            f"unexpected part {':'.join(rest)!r} in engine spec {spec!r} "
            f"(expected {family}[:arch][:fpN][:spM])"
        )
    stages, modules = got.get("fp", 1), got.get("sp", 1)
    allowed = STAGES.get((family, arch), (1,))
    if stages not in allowed:
        raise SpecError(
            f"{spec!r}: functional pipelines of {family}:{arch} have "
            f"{', '.join(map(str, allowed))} stages, not {stages}"
        )
    allowed = MODULES.get((family, arch), (1,))
    if modules not in allowed:
        raise SpecError(
            f"{spec!r}: structural pipelines of {family}:{arch} have "
            f"{', '.join(map(str, allowed))} modules, not {modules}"
        )
    return EngineSpec(algo, arch, stages, modules)


def mac_specs():
    """Every MAC engine spec implemented (one per MAC, architecture and stage count)."""
    return [
        str(EngineSpec(alg, arch, p))
        for alg, mac in MACS.items()
        for arch, stages in mac.archs.items()
        for p in stages
    ]


def variants_of(family):
    """A hash family's variants, or a MAC engine family's (its one MAC)."""
    return VARIANTS[family] if family in VARIANTS else (MAC_FAMILIES[family],)


def variant_of(spec):
    """The engine variant (ctrl.variant) of a spec's algorithm, e.g. sha224 -> 1; a Skein-512
    spec -> the configured chaining value of its output size (skein512-256 -> 3)."""
    s = parse(spec) if isinstance(spec, str) else spec
    name = s.algorithm
    if s.family == "skein512":
        name = f"skein512-{s.digest_size * 8}"
    return variants_of(s.family).index(name)


def all_specs():
    """Every engine spec implemented (one per family, architecture and stage count)."""
    out = []
    for family, archs in ARCHITECTURES.items():
        for arch in archs:
            for m in MODULES.get((family, arch), (1,)):
                for p in STAGES.get((family, arch), (1,)):
                    out.append(str(EngineSpec(family, arch, p, m)))
    return out


def instance_name(spec, engines=()):
    """The peripheral instance (register prefix in csr.h/csr.json) of `spec` in a SoC with
    `engines`: its family ("sha256", "sha1", "sha512"), or the engine name with "_" for ":"
    ("sha256_opt_p4") when the SoC has two engines of that family."""
    spec = parse(spec) if isinstance(spec, str) else spec
    same = [e for e in engines if (parse(e) if isinstance(e, str) else e).family == spec.family]
    if len(same) > 1:
        return spec.engine_name.replace(":", "_")
    return spec.family


def parse_list(specs, default=()):
    """Engine spec strings from None (then `default`), a list, or one comma-separated string
    (what the targets' --hash-engine takes), each checked: SpecError names a bad one."""
    if specs is None:
        specs = default
    if isinstance(specs, str):
        specs = [e.strip() for e in specs.split(",") if e.strip()]
    specs = [str(e) for e in specs]
    for e in specs:
        try:
            parse(e)
        except SpecError as err:
            raise SpecError(f"bad engine spec {e!r}: {err}") from None
    return specs
