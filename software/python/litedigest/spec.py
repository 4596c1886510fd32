"""Engine spec strings (DESIGN.md "Engines are named by one spec string").

`sha256:opt:p1` -> EngineSpec(algorithm="sha256", arch="opt", stages=1). The algorithm part
may name a variant that shares an engine (sha224 runs on the sha256 engines).
"""
from dataclasses import dataclass

# algorithm -> (engine family, block bytes, digest bytes)
ALGORITHMS = {
    "sha1": ("sha1", 64, 20),
    "sha256": ("sha256", 64, 32),
    "sha224": ("sha256", 64, 28),
    "sha512": ("sha512", 128, 64),
    "sha384": ("sha512", 128, 48),
    "sha512_224": ("sha512", 128, 28),
    "sha512_256": ("sha512", 128, 32),
    # Skein-512 (seed 004): any output length (litedigest.new("skein512", digest_bits=...));
    # the named sizes are what `litedigest sum -a` takes
    "skein512": ("skein512", 64, 64),
    "skein512-256": ("skein512", 64, 32),
    "skein512-512": ("skein512", 64, 64),
    "skein512-384": ("skein512", 64, 48),
    "skein512-224": ("skein512", 64, 28),
    "skein512-160": ("skein512", 64, 20),
    "skein512-128": ("skein512", 64, 16),
}
# round architectures implemented per engine family
ARCHITECTURES = {
    "sha1": ("base", "k5", "opt"),
    "sha256": ("base", "opt"),
    "sha512": ("base", "k5"),
    "skein512": ("r1", "r4", "r8"),
}
DEFAULT_ARCH = {"sha1": "opt", "sha256": "opt", "sha512": "k5", "skein512": "r8"}
# pipeline stage counts implemented per (family, arch) (seed 000's sets for the base rounds)
STAGES = {
    ("sha1", "base"): (1, 2, 4, 5, 8, 10, 16, 20, 40, 80),
    ("sha256", "base"): (1, 2, 4, 8, 16, 32, 64),
    ("sha1", "opt"): (1, 2, 4, 5, 8, 10, 20, 40),
    ("sha256", "opt"): (1, 2, 4, 8, 16, 32),
    # Skein: functional pipeline stages (fpN) of the 8-round datapath
    ("skein512", "r8"): (1, 2, 4, 8),
}
# Skein's structural pipeline: Threefish modules in a row (spN), on the 8-round datapath
MODULES = {("skein512", "r8"): (1, 3)}
# families whose pipeline parts are written fpN[:spM] (Skein) rather than pN (SHA)
RING_FAMILIES = ("skein512",)


class SpecError(ValueError):
    """An engine spec string that names no engine we can build."""

STATE_BYTES = {"sha1": 20, "sha256": 32, "sha512": 64, "skein512": 64}

# The simulated SoCs the soc backend, the demo and the scheduler measurements use: the main
# one has the default engine of every family; the scheduler one the pipelines of seeds 000
# and 004 whose utilization the C scheduler is measured on (skein512:r8:fp2:sp3: three
# modules of a 2-stage functional ring, 6 blocks in flight). Any other spec gets a SoC of its own.
MAIN_SOC = ("sha256:opt", "sha1:opt", "sha512:k5", "skein512:r8")
SCHED_SOC = ("sha256:opt:p4", "sha1:opt:p8", "skein512:r8:fp2:sp3")


@dataclass(frozen=True)
class EngineSpec:
    algorithm: str
    arch: str
    stages: int = 1       # pipeline stages (SHA pN, Skein's functional pipeline fpN)
    modules: int = 1      # Skein's structural pipeline (spN): Threefish modules in a row

    @property
    def family(self):
        return ALGORITHMS[self.algorithm][0]

    @property
    def block_size(self):
        return ALGORITHMS[self.algorithm][1]

    @property
    def digest_size(self):
        return ALGORITHMS[self.algorithm][2]

    @property
    def state_size(self):
        """Bytes of the chaining value (what the engine returns per block)."""
        return STATE_BYTES[self.family]

    @property
    def in_flight(self):
        """Blocks the engine holds at once (one slot, i.e. one message, each)."""
        return self.stages * self.modules

    def _pipe_suffix(self, always):
        if self.family in RING_FAMILIES:
            return ((f":fp{self.stages}" if self.stages != 1 else "")
                    + (f":sp{self.modules}" if self.modules != 1 else ""))
        return f":p{self.stages}" if always or self.stages != 1 else ""

    @property
    def engine_name(self):
        """The spec of the hardware engine (variants share one)."""
        family = self.family
        return f"{family}:{self.arch}" + self._pipe_suffix(True)

    def __str__(self):
        return f"{self.algorithm}:{self.arch}" + self._pipe_suffix(False)


def parse(spec, default_algorithm=None):
    """Parse 'sha256', 'sha256:opt', 'sha224:base:p1' into an EngineSpec; raise SpecError."""
    if not isinstance(spec, str) or not spec:
        raise SpecError(f"engine spec must be a non-empty string, got {spec!r}")
    parts = spec.lower().split(":")
    algo = parts[0]
    if algo not in ALGORITHMS:
        raise SpecError(f"unknown algorithm {algo!r} in engine spec {spec!r} "
                        f"(known: {', '.join(sorted(ALGORITHMS))})")
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
            raise SpecError(f"unknown architecture {arch!r} for {family} in {spec!r} "
                            f"(known: {', '.join(ARCHITECTURES[family])})")
    if rest:
        p = rest.pop(0)
        if not (p.startswith("p") and p[1:].isdigit() and int(p[1:]) >= 1):
            raise SpecError(f"bad pipeline part {p!r} in {spec!r} (expected pN, N >= 1)")
        stages = int(p[1:])
        allowed = STAGES.get((family, arch), (1,))
        if stages not in allowed:
            if len(allowed) == 1:
                raise SpecError(f"{spec!r}: {family}:{arch} has no pipelined version (p > 1) yet")
            raise SpecError(f"{spec!r}: {family}:{arch} pipelines have "
                            f"{', '.join(map(str, allowed))} stages, not {stages}")
    if rest:
        raise SpecError(f"trailing parts {':'.join(rest)!r} in engine spec {spec!r}")
    return EngineSpec(algo, arch, stages)


def _parse_ring(spec, algo, family, rest):
    """skein512[:rN][:fpP][:spM]"""
    arch = DEFAULT_ARCH[family]
    if rest and not rest[0].startswith(("fp", "sp")):
        arch = rest.pop(0)
        if arch not in ARCHITECTURES[family]:
            raise SpecError(f"unknown architecture {arch!r} for {family} in {spec!r} "
                            f"(known: {', '.join(ARCHITECTURES[family])})")
    got = {}
    for kind in ("fp", "sp"):
        if rest and rest[0].startswith(kind):
            n = rest.pop(0)[len(kind):]
            if not n.isdigit() or int(n) < 1:
                raise SpecError(f"bad {kind} part in {spec!r} (expected {kind}N, N >= 1)")
            got[kind] = int(n)
    if rest:
        raise SpecError(f"unexpected part {':'.join(rest)!r} in engine spec {spec!r} "
                        f"(expected {family}[:arch][:fpN][:spM])")
    stages, modules = got.get("fp", 1), got.get("sp", 1)
    allowed = STAGES.get((family, arch), (1,))
    if stages not in allowed:
        raise SpecError(f"{spec!r}: functional pipelines of {family}:{arch} have "
                        f"{', '.join(map(str, allowed))} stages, not {stages}")
    allowed = MODULES.get((family, arch), (1,))
    if modules not in allowed:
        raise SpecError(f"{spec!r}: structural pipelines of {family}:{arch} have "
                        f"{', '.join(map(str, allowed))} modules, not {modules}")
    return EngineSpec(algo, arch, stages, modules)


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


def soc_engines_for(spec):
    """The engine list of the simulated SoC that serves `spec` (see MAIN_SOC, SCHED_SOC)."""
    spec = parse(spec) if isinstance(spec, str) else spec
    for soc in (MAIN_SOC, SCHED_SOC):
        if spec.engine_name in [parse(e).engine_name for e in soc]:
            return list(soc)
    return [spec.engine_name]
