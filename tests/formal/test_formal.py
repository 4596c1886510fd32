# SPDX-License-Identifier: BSD-2-Clause
"""The formal proofs of docs/RELIABILITY.md ("What is proven"), run by SymbiYosys with Yices on the
Verilog Migen makes of the real modules (litedigest.soc.formal): the engine contract of the standard
SoCs' engines (the MAC engines too), SlotControl, the Wishbone DMA reader and the AXI burst reader.

Part of the normal suite (no marker). Each proof is a test; the proofs of this session run
two at a time, each with its own time limit (litedigest.soc.formal.proofs.TIMEOUT), and their
verdicts are cached under build/formal/ by a hash of the Verilog, the harness, the .sby
script and the tool versions, so a rerun with nothing changed takes seconds.

Every property group can fail: the `fault-*` proofs plant a bug (a mutated module, a wrong
design parameter, a wrong latency) and must end in FAIL, caught by the group they target.
A proof marked `known` is a finding on the design as it is (docs/RELIABILITY.md): it must
FAIL until the design is changed, and then its test says so. (The two findings of the first
run, SlotControl losing an event in the cycle of an ack and the AXI reader withdrawing a shown
block, are fixed and proven now: `slots-prove` J7, `axi-256-held`.)
"""

import pytest
from litedigest.soc.formal import PROOFS, ok, run, run_one
from litedigest.soc.formal import proofs as proofs_mod

NAMES = list(PROOFS)


def _selected(session):
    names = []
    for item in session.items:
        cs = getattr(item, "callspec", None)
        if item.module.__name__.endswith("test_formal") and cs and "name" in cs.params:
            names.append(cs.params["name"])
    return names


@pytest.fixture(scope="module")
def results(request):
    """The verdicts of the proofs this session selected, run two at a time."""
    names = [n for n in _selected(request.session) if n in PROOFS] or NAMES
    return run(names, jobs=2)


def _explain(proof, r):
    return (
        f"{proof.name}: {r['status']} (expected {proof.expect}"
        f"{' caught by ' + proof.catches if proof.catches else ''}; failed groups "
        f"{r.get('failed')})\n{r.get('log', '')}\ntrace: {r.get('trace')}"
    )


@pytest.mark.parametrize("name", [n for n in NAMES if PROOFS[n].expect == "PASS"])
def test_proof_holds(name, results):
    proof, r = PROOFS[name], results[name]
    assert ok(proof, r), _explain(proof, r)


@pytest.mark.parametrize(
    "name", [n for n in NAMES if PROOFS[n].expect == "FAIL" and not PROOFS[n].known]
)
def test_planted_fault_is_caught(name, results):
    proof, r = PROOFS[name], results[name]
    assert ok(proof, r), _explain(proof, r)


@pytest.mark.parametrize("name", [n for n in NAMES if PROOFS[n].known])
def test_known_finding_still_fails(name, results):
    """A property the design does not satisfy yet (see docs/RELIABILITY.md): when this
    fails because the proof passes, the design was fixed: make the property a plain one."""
    proof, r = PROOFS[name], results[name]
    assert r["status"] != "PASS", f"{name} now holds: the finding is fixed, update the proof"
    assert ok(proof, r), _explain(proof, r)


def test_every_group_has_a_planted_fault():
    """The property groups with a planted fault of their own (docs/RELIABILITY.md lists
    them); a group dropped from the faults fails here."""
    targeted = {p.catches for p in PROOFS.values() if p.expect == "FAIL"}
    for group in (
        "E1",
        "E2",
        "E3",
        "E4",
        "E5",
        "E6",
        "J1",
        "J3",
        "J4",
        "J6",
        "J7",
        "D1",
        "D2",
        "D3",
        "X1",
        "X3",
        "X4",
        "X5",
        "X7",
    ):
        assert group in targeted, group


def test_every_engine_of_the_standard_socs_has_its_contract_proven():
    """Each engine of the main SoC and the MAC SoC (soc/targets/sim.py) has a BMC and a
    k-induction of the engine contract (E1-E8) that must pass; the MAC engines are checked by
    their own harness (`engine_mac_formal`: key slots, key initializations, per-slot order)."""
    from litedigest.soc.targets.sim import MAC_SOC, MAIN_SOC

    for spec in dict.fromkeys(MAIN_SOC + MAC_SOC):
        key = spec.replace(":", "_")
        for mode in ("bmc", "prove"):
            proof = PROOFS.get(f"engine-{key}-{mode}")
            assert proof is not None and proof.mode == mode and proof.expect == "PASS", (spec, mode)
            assert (proof.top == "engine_mac_formal") == spec.startswith("hmac-"), spec


def test_cache_is_keyed_by_the_design_harness_and_script(results):
    """A verdict is reused only for the same Verilog, harness and script: a changed depth or
    parameter is a new key; an unchanged proof comes from the cache."""
    proof = PROOFS["slots-prove"]
    unit = proof.make_unit()
    key = proofs_mod.cache_key(proof, unit)
    deeper = proofs_mod.Proof(**{**proof.__dict__, "depth": proof.depth + 1})
    assert proofs_mod.cache_key(deeper, unit) != key
    other = proofs_mod.Proof(**{**proof.__dict__, "params": {"JOB": 4}})
    assert proofs_mod.cache_key(other, unit) != key
    again = run_one(proof)
    assert again["cached"] and again["key"] == key and again["status"] == "PASS"


def test_output_sums_become_xor_of_words_only():
    """`cheap_output_sums` turns the additions of words in front of an output into exclusive
    ors (the output-side digest of sha256:opt and sha512:k5) and leaves a narrow addition (an
    index, a counter) and everything outside the output's cone alone."""
    from litedigest.soc.formal.units import cheap_output_sums
    from migen import Module, Signal
    from migen.fhdl.visit import NodeVisitor

    m = Module()
    a, b, other = Signal(32), Signal(32), Signal(32)
    idx, out, mid, elsewhere = Signal(4), Signal(32), Signal(32), Signal(32)
    m.comb += [mid.eq((a + b)[:32]), out.eq(mid + idx), elsewhere.eq(a + other)]
    frag = m.get_fragment()
    cone = cheap_output_sums(frag, out, 32)
    assert {out, mid, a, b, idx} <= cone and other not in cone

    class Ops(NodeVisitor):
        def __init__(self):
            self.ops = []

        def visit_Operator(self, node):
            self.ops.append(node.op)
            super().visit_Operator(node)

    def ops(target):
        (st,) = [s for s in frag.comb if s.l is target]
        v = Ops()
        v.visit(st.r)
        return v.ops

    assert ops(mid) == ["^"]  # words: the sum abstracted
    assert ops(out) == ["+"]  # a word plus a 4-bit index: kept
    assert ops(elsewhere) == ["+"]  # not in the output's cone
