# SPDX-License-Identifier: BSD-2-Clause
"""The engine catalogue (litedigest.spec.FAMILIES) is the one source of the engines' facts:
every spec the grammar accepts builds an engine whose latency, blocks in flight, interval,
variants and architecture code are the catalogue's, and the derived tables agree with it."""

import pytest
from litedigest import spec
from litedigest.ip.engines import FAMILIES as ENGINE_CLASSES
from litedigest.ip.engines import make_engine


@pytest.mark.parametrize("name", spec.all_specs() + spec.mac_specs())
def test_every_spec_builds_the_catalogued_engine(name):
    s = spec.parse(name)
    e = make_engine(s)
    assert e.latency == s.latency, name
    assert e.blocks_in_flight == s.in_flight, name
    assert e.interval == s.interval, name
    assert tuple(e.variants) == spec.variants_of(s.family)
    assert e.block_bits == 8 * s.block_size and e.digest_bits == 8 * s.state_size
    assert e.word_bits == spec.FAMILIES[s.hash_family].word_bits
    assert e.slots == s.in_flight


def test_engine_classes_are_the_catalogue_families():
    assert set(ENGINE_CLASSES) == set(spec.FAMILIES) | set(spec.MAC_FAMILIES)
    for fam, cls in ENGINE_CLASSES.items():
        mac = spec.mac_of_family(fam)
        assert set(cls.ARCHITECTURES) == set(mac.archs if mac else spec.FAMILIES[fam].archs), fam
        assert tuple(cls.IVS) == spec.variants_of(fam), fam


def test_mac_specs():
    """The MAC engines: HMAC-SHA-256 on two sha256:opt cores (Michail et al. 2012, fig. 16)."""
    s = spec.parse("hmac-sha256:opt:p4")
    assert (s.family, s.hash_family, s.latency, s.interval, s.in_flight) == (
        "hmac_sha256",
        "sha256",
        65,
        8,
        8,
    )
    assert s.engine_name == "hmac-sha256:opt:p4" and s.digest_size == 32 and s.block_size == 64
    assert str(spec.parse("HMAC-SHA256")) == "hmac-sha256:opt"
    assert spec.parse("hmac-sha256").interval == 32
    for bad in ("hmac-sha256:base", "hmac-sha256:opt:p3", "hmac-sha256:opt:p4:x"):
        with pytest.raises(spec.SpecError):
            spec.parse(bad)
    # a MAC is not a hash algorithm: litedigest.new and `sum -a` do not list it
    assert "hmac-sha256" not in spec.ALGORITHMS and "hmac_sha256" not in spec.FAMILIES
    assert spec.instance_name("hmac-sha256:opt:p4") == "hmac_sha256"


def test_derived_tables():
    assert spec.ALGORITHMS["sha384"] == ("sha512", 128, 48)
    assert spec.ALGORITHMS["skein512-160"] == ("skein512", 64, 20)
    assert spec.STAGES[("sha256", "opt")] == (1, 2, 4, 8, 16, 32)
    assert spec.MODULES == {("skein512", "r8"): (1, 3)}
    assert spec.ARCH_CODES == {"base": 0, "opt": 1, "k5": 2, "r1": 3, "r4": 4, "r8": 5}
    assert spec.variant_of("sha512_256") == 3 and spec.variant_of("skein512-128") == 6
    # every spec string round-trips and names its engine
    for name in spec.all_specs():
        s = spec.parse(name)
        assert str(spec.parse(str(s))) == str(s)
        assert spec.parse(s.engine_name).engine_name == s.engine_name


def test_spec_module_is_pure_data():
    """The catalogue imports nothing outside the standard library (the board side and the
    gateware both import it)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(spec))
    mods = {
        n.module if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in (n.names if isinstance(n, ast.Import) else [None])
    }
    assert mods <= {"dataclasses", "fractions"}, mods
