"""irgf.aux.direct-beta: β̇ = −∇_βℒ from 0 heads to the diagonal ℓ2-SVM (spec numbers on D-SEED0, closed form on
D-FACE2), not to the ℓ1-SVM (false case: that target plateaus)."""
from fractions import Fraction

from lemmas.irgf import aux_direct_beta as m
from verify.claims import run_claim
from verify.data.irgf import d_a2viol, d_diaginf, d_face2, d_seed0
from verify.dynamics.svmref import beta_dataset
from verify.kit import irgf
from verify.numbers.precision import working_precision
from verify.svm import solve_svm


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_defaults_hold():
    v = run_claim(m.CLAIM, m.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence" and v.range == "‖β‖₂ ≤ 200"


def test_l2_solution_closed_form_and_spec():
    # D-FACE2: one constraint B = (1, −1, 1/2, 0): β_ℓ2 = B/‖B‖² = (4, −4, 2, 0)/9, its ℓ1 norm 10/9 > p* = 1
    res = solve_svm(beta_dataset(d_face2()), "p", dps=40)
    assert [Fraction(x) for x in res.solution] == [Fraction(4, 9), Fraction(-4, 9), Fraction(2, 9), 0]
    with working_precision(20) as prec:
        out = m.evaluate(d_face2(), prec)
    assert out.decide() == "HOLDS"
    assert abs(float(_ev(out, "‖β_ℓ2‖₁/µ(β_ℓ2) − p*").value.mid()) - 1 / 9) < 1e-15
    # D-SEED0 (spec §6): β_ℓ2 = (−0.21946, −0.40706, −1.13867, −0.09023), ‖β_ℓ2/µ‖₁ = 1.855 vs p* = 1.595
    res = solve_svm(beta_dataset(d_seed0()), "p", dps=40)
    spec = (-0.21946, -0.40706, -1.13867, -0.09023)
    assert max(abs(float(a) - b) for a, b in zip(res.solution, spec)) < 1e-5
    with working_precision(20) as prec:
        out = m.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS"
    assert abs(float(_ev(out, "‖β_ℓ2‖₁/µ(β_ℓ2) − p*").value.mid()) - (1.855 - 1.5953)) < 1e-3
    item = _ev(out, "1 − corr(β(t), β_ℓ2")
    assert item.decide() is True and float(item.value.mid()) < 1e-3
    assert float(_ev(out, "1 − corr(β(t), β*_ℓ1)").value.mid()) > 0.03  # the contrast: far from the ℓ1 direction


def test_l1_target_plateaus():
    with working_precision(20) as prec:
        out = m.evaluate(d_seed0(), prec, target="l1")
    assert out.decide() == "VIOLATED"
    item = _ev(out, "1 − corr(β(t), β*_ℓ1 (the")
    assert item.decide() is False and "a plateau" in item.note


def test_not_applicable():
    with working_precision(20) as prec:
        out = m.evaluate(d_diaginf(), prec)
        assert out.decide() == "NOT_APPLICABLE"
        assert any(h.name == irgf.NAMES[irgf.DIAGSEP] and h.met is False for h in out.hypotheses)
        out = m.evaluate(d_a2viol(), prec)
        assert out.decide() == "NOT_APPLICABLE"
        assert any(h.name == irgf.NAMES[irgf.A2] and h.met is False for h in out.hypotheses)
