"""irgf.hyp.diagsep: the stated hypotheses do not imply diagonal separability (D-DIAGINF, exact)."""
import dataclasses
from fractions import Fraction

from lemmas.irgf import hyp_diagsep
from verify.claims import REGISTRY, run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.kit import irgf
from verify.numbers.precision import working_precision


def test_defaults_report_the_gap():
    v = run_claim(hyp_diagsep.CLAIM, hyp_diagsep.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "VIOLATED"
    assert {d.name: d.verdict for d in v.datasets} == {"D-SEED0": "HOLDS", "D-FACE": "HOLDS", "D-DIAGINF": "VIOLATED"}
    assert v.certainty == "certified" and all(d.certainty == "certified" for d in v.datasets)  # exact either way
    assert any("replay" in n and '"X"' in n for n in v.notes)


def test_diaginf_certificate_is_exact():
    res = irgf.l1_svm(d_diaginf())
    assert res.status == "infeasible"
    far = res.farkas
    assert far.passed and far.residual == 0 and far.rhs > 0 and all(x >= 0 for x in far.lam)
    assert irgf.assumption1(d_diaginf())[0]  # full-W separable


def test_seed0_holds_and_trap_premise_fails():
    with working_precision(20) as prec:
        assert hyp_diagsep.evaluate(d_seed0(), prec).decide() == "HOLDS"
        out = hyp_diagsep.evaluate(d_trap(), prec)
    assert out.decide() == "NOT_APPLICABLE"


def test_aliases():
    claim, _ = REGISTRY.resolve("diagonal-separability")
    assert claim.id == "irgf.hyp.diagsep"
    for cid in ("irgf.thm41", "irgf.thm41.loss", "irgf.prop.kkt", "irgf.lemma41", "irgf.lemma42", "irgf.hyp.diagsep"):
        c = REGISTRY.claims[cid]
        assert any(REGISTRY.aliases[a] == [cid] for a in c.aliases), cid


def test_diaginf_violated_by_exact_comparisons_with_the_closed_form_certificate():
    """B₁ = z₁ ⊙ (x₁,opt − x₁,₂) = (1,0,0) and B₂ = (−1,0,0), computed here: λ = (1/2, 1/2) gives
    λ₁B₁ + λ₂B₂ = 0 and Σλ_j·1 = 1 > 0, so the ℓ1-SVM is infeasible."""
    data = d_diaginf()
    Z = data.queries()
    B = [[z * (a - b) for z, a, b in zip(Z[i], data.X[i][0], data.X[i][1])] for i in range(2)]
    assert B == [[1, 0, 0], [-1, 0, 0]]
    with working_precision(20) as prec:
        out = hyp_diagsep.evaluate(data, prec)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    feasible = out.evidence[0]
    assert feasible.decide() is False and feasible.decided_by() == "exact"
    rhs = next(e for e in out.evidence if e.quantity.startswith("Farkas certificate: Σ λ"))
    assert rhs.value == Fraction(1, 2) + Fraction(1, 2) and rhs.decided_by() == "exact"
    assert all(e.rule is None for e in out.evidence)  # no rule or hand-set decision: exact comparisons only


def test_a_farkas_certificate_that_does_not_verify_is_inconclusive(monkeypatch):
    """solve_svm answers "unknown" when its certificate fails: never read as infeasible."""
    res = irgf.l1_svm(d_diaginf())
    unknown = dataclasses.replace(res, status="unknown", notes=["the Farkas certificate did not verify"])
    monkeypatch.setattr(irgf, "l1_svm", lambda data, dps=60: unknown)
    with working_precision(20) as prec:
        out = hyp_diagsep.evaluate(d_diaginf(), prec)
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and any("certified" in r for r in d.reasons)
    assert all(h.met for h in out.hypotheses)  # the premise (Assumptions 1–3) is met
