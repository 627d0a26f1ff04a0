"""irgf.hyp.diagsep items (mutation tests): every item of the exact verdict, its value and what the
report shows, against closed forms derived here (ℓ1-SVM of one constraint, Farkas λ = (1/2, 1/2),
the Frobenius SVM of two orthogonal constraints)."""
import ast
import dataclasses
from fractions import Fraction

from lemmas.irgf import hyp_diagsep
from verify import Dataset
from verify.data.irgf import d_diaginf, d_seed0
from verify.kit import irgf
from verify.numbers.precision import working_precision


def _run(data):
    with working_precision(20) as prec:
        return hyp_diagsep.evaluate(data, prec)


def _item(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def one_constraint(a: Fraction) -> Dataset:
    """n = 1, L = 2, d = 2: B = z ⊙ (x_opt − x_2) = (a, 0), so the ℓ1-SVM is min |β₁| s.t. aβ₁ ≥ 1:
    p* = 1/a. Assumption 2 (two tokens) and 3 (ℒ(0) = e^{−1/2} ≤ e^0) hold."""
    return Dataset.make(X=[[[a, 1], [0, 0]]], Y=[1], v=[0, 1], z=[[1, 0]], name="one-constraint")


def test_feasible_item_shows_p_star_exactly_when_its_denominator_is_small():
    """p* = 7/1000 is shown as a fraction; p* = 7/10^6 (denominator 10^6, not below it) as a 15-digit
    float; the item is the exact minimum margin of the solution, which is 1 at the optimum."""
    for a, shown in ((Fraction(1000, 7), "p* = ‖β*‖₁ = 7/1000"), (Fraction(10**6, 7), "p* = ‖β*‖₁ ≈ 7e-06")):
        data = one_constraint(a)
        assert irgf.l1_svm(data).objective == 1 / a
        out = _run(data)
        assert out.decide() == "HOLDS" and out.decision().certainty == "certified"
        assert len(out.evidence) == 1
        e = out.evidence[0]
        assert e.value == 1 and e.relation == ">=" and e.bound == 1 and e.note == shown
        assert [(r.name, r.met, r.detail) for r in out.requirements] == [
            ("the ℓ1-SVM's answer is certified (optimum or Farkas certificate verified)", True, "")]


def test_seed0_p_star_has_a_long_denominator():
    out = _run(d_seed0())
    p = irgf.l1_svm(d_seed0()).objective
    assert p.denominator >= 10**6 and out.evidence[0].note == f"p* = ‖β*‖₁ ≈ {float(p):.15g}"


def test_diaginf_items_the_certificate_and_the_witness():
    """D-DIAGINF: B₁ = (1,0,0) = −B₂. Farkas λ = (1/2, 1/2): Σλ_jB_j = 0 and Σλ_j·1 = 1 > 0 — both
    certificate items hold, only "(ℓ1-SVM) feasible" fails. The full-W Frobenius SVM has the
    orthogonal constraints a₁z₁ᵀ, a₂z₂ᵀ (a₁ = (1,0,1), z₁ = e₁; a₂ = (−1,0,1), z₂ = (1,1,0)):
    W* = a₁z₁ᵀ/(‖a₁‖²‖z₁‖²) + a₂z₂ᵀ/(‖a₂‖²‖z₂‖²), entries {1/4, −1/4, 3/4, 1/4, 0 ×5}, min margin 1.
    At β = 0 the two sequences have the same mean score and opposite B: ∇_βℒ(0) = 0 exactly."""
    out = _run(d_diaginf())
    assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
    feas = _item(out, "(ℓ1-SVM) feasible")
    assert feas.value is False and feas.decide() is False and "Farkas" in feas.note
    res = _item(out, "Farkas certificate: ‖Σ λ_il B_il‖_∞")
    rhs = _item(out, "Farkas certificate: Σ λ_il · 1")
    assert res.value == 0 and res.decide() is True and res.decided_by() == "exact"
    assert rhs.value == 1 and rhs.decide() is True and rhs.decided_by() == "exact"
    assert res.note.startswith("λ = ['1/2', '1/2'] ≥ 0 on rows")
    assert [e.quantity for e in out.evidence if e.decide() is False] == [feas.quantity]
    wit = _item(out, "Assumption 1 witness")
    assert wit.value == 1 and wit.informative
    entries = ast.literal_eval(wit.note.removeprefix("W* = "))
    assert sorted(Fraction(x) for x in entries) == sorted(
        [Fraction(1, 4), Fraction(-1, 4), Fraction(3, 4), Fraction(1, 4)] + [Fraction(0)] * 5)
    zero = _item(out, "∇_βℒ(0) = 0 (exact)")
    assert zero.value is True and zero.note == "Lemma 4.2 and Theorem 4.1 fail as printed on this dataset"
    assert len(out.evidence) == 5
    assert any(n.startswith("replay: save this JSON as D-DIAGINF.json and run `python -m verify irgf.hyp.diagsep "
                            "--data D-DIAGINF.json`") for n in out.notes)
    assert any("do not imply the hypothesis the proofs" in n for n in out.notes)


def test_infeasible_with_a_moving_flow():
    """D-DIAGINF with sequence 2's optimal score 2: B₂ = (−1,0,0) = −B₁ still (ℓ1-SVM infeasible), but the
    mean scores differ (1/2 and 1), so ∇_βℒ(0) ≠ 0 (Lindemann–Weierstrass) and the note stays empty.
    Assumption 3: ℒ(0) = (e^{−1/2} + e^{−1})/2 ≤ min((1 + e^{−2})/2, (1 + e^{−1})/2)."""
    data = Dataset.make(X=[[[1, 0, 1], [0, 0, 0]], [[-1, 0, 2], [0, 0, 0]]], Y=[1, 1], v=[0, 0, 1],
                        z=[[1, 0, 0], [1, 1, 0]], name="diaginf-moving")
    out = _run(data)
    assert all(h.met for h in out.hypotheses)
    assert out.decide() == "VIOLATED"
    zero = _item(out, "∇_βℒ(0) = 0 (exact)")
    assert zero.value is False and zero.note == ""


def test_unverified_certificate_names_the_solver_notes(monkeypatch):
    res = irgf.l1_svm(d_diaginf())
    unknown = dataclasses.replace(res, status="unknown", notes=["certificate A failed", "certificate B failed"])
    monkeypatch.setattr(irgf, "l1_svm", lambda data, dps=60: unknown)
    out = _run(d_diaginf())
    assert out.evidence == []
    assert [(r.met, r.detail) for r in out.requirements] == [(False, "certificate A failed; certificate B failed")]


def test_certified_answer_leaves_the_requirement_detail_empty(monkeypatch):
    """The solver's notes are the detail only when its answer is not certified."""
    res = irgf.l1_svm(d_seed0())
    noted = dataclasses.replace(res, notes=["a remark of the solver"])
    monkeypatch.setattr(irgf, "l1_svm", lambda data, dps=60: noted)
    out = _run(d_seed0())
    assert out.decide() == "HOLDS"
    assert [(r.met, r.detail) for r in out.requirements] == [(True, "")]
