"""Every irgf claim that uses an assumption decides it with the shared predicate (verify.kit.irgf, the same one
irgf.asm1–asm4 decide) and answers NOT_APPLICABLE naming it on the spec's dataset that breaks it (only that
assumption's claims are listed for each dataset; the check stops before any flow)."""
import pytest

from verify.claims.registry import REGISTRY
from verify.data.irgf import d_a1viol, d_a2viol, d_a4_shift, d_trap
from verify.kit import irgf
from verify.numbers.precision import working_precision

USES = {
    irgf.A1: (d_a1viol, ("irgf.hyp.diagsep", "irgf.lemma42", "irgf.prop.inf-loss", "irgf.prop.kkt", "irgf.thm41",
                         "irgf.thm41.loss")),
    irgf.A2: (d_a2viol, ("irgf.asm3", "irgf.aux.gradients", "irgf.hyp.diagsep", "irgf.lemma42", "irgf.lemma51",
                         "irgf.prop.kkt", "irgf.rem.asm3", "irgf.thm41", "irgf.thm41.loss", "irgf.thm51")),
    irgf.A3: (d_trap, ("irgf.hyp.diagsep", "irgf.prop.kkt", "irgf.thm41", "irgf.thm41.loss", "irgf.thm51")),
    irgf.A4: (d_a4_shift, ("irgf.aux.a4-coincide", "irgf.lemma51", "irgf.prop.lift", "irgf.thm51")),
}
CASES = [(a, cid) for a, (_, ids) in USES.items() for cid in ids]
ASM = {irgf.A1: "irgf.asm1", irgf.A2: "irgf.asm2", irgf.A3: "irgf.asm3", irgf.A4: "irgf.asm4"}


@pytest.mark.parametrize("assumption, cid", CASES)
def test_not_applicable_names_the_assumption(assumption, cid):
    make = USES[assumption][0]
    claim, _ = REGISTRY.resolve(cid)
    with working_precision(20) as prec:
        out = claim.check(make(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    failed = [h for h in out.hypotheses if h.met is False]
    assert any(h.name.startswith(irgf.NAMES[assumption]) for h in failed), [h.name for h in failed]


@pytest.mark.parametrize("assumption", list(ASM))
def test_the_assumption_claim_fails_on_the_same_dataset(assumption):
    # irgf.asm3 needs Assumption 2; the other datasets break exactly the assumption named (D-A4-SHIFT: 2 and 3 hold)
    claim, _ = REGISTRY.resolve(ASM[assumption])
    with working_precision(20) as prec:
        assert claim.check(USES[assumption][0](), prec).decide() == "VIOLATED"
