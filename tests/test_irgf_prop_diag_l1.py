"""irgf.prop.diag-l1: ‖Diag(β)‖_* = ‖β‖₁ (computed without assuming diagonality) and the two SVMs coincide."""
import math
from fractions import Fraction

from lemmas.irgf import prop_diag_l1
from verify.claims import run_claim
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.numbers.precision import working_precision


def test_defaults_hold_certified():
    v = run_claim(prop_diag_l1.CLAIM, prop_diag_l1.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"
    assert [d.verdict for d in v.datasets] == ["HOLDS"] * 3


def test_nuclear_norm_of_non_diagonal_matrices():
    """Independent closed forms: [[1, 1], [−1, 1]] = √2·rotation has singular values √2, √2;
    [[3, 0], [4, 0]] has rank 1 with singular value 5; [[2, 1], [1, 2]] is PSD: ‖·‖_* = trace = 4."""
    with working_precision(30):
        for rows, expected in (([[1, 1], [-1, 1]], 2 * math.sqrt(2)), ([[3, 0], [4, 0]], 5.0), ([[2, 1], [1, 2]], 4.0)):
            val = prop_diag_l1.nuclear_norm(prop_diag_l1.matrix(rows))
            assert abs(float(val.mid()) - expected) < 1e-14 and val.rad() < 1e-25


def test_contraction_is_exact():
    with working_precision(30):
        assert prop_diag_l1.contraction(prop_diag_l1.matrix([[1, 0], [0, -1]]))[0]  # ‖U‖ = 1 exactly
        assert not prop_diag_l1.contraction(prop_diag_l1.matrix([[1, Fraction(1, 10**12)], [0, 1]]))[0]
        assert prop_diag_l1.contraction(prop_diag_l1.matrix([[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(-1, 2)]]))[0]


def test_svm_values_agree_with_the_spec():
    with working_precision(30) as prec:
        out = prop_diag_l1.evaluate(d_face(), prec)  # B = (1, 1, 0): p* = 1 (spec §6)
        assert out.decide() == "HOLDS"
        assert next(e for e in out.evidence if e.quantity.startswith("(b)")).note == "p* = 1"
        out = prop_diag_l1.evaluate(d_seed0(), prec)  # p* = 1.59532775783559631… (spec §6)
        assert out.decide() == "HOLDS"
        assert next(e for e in out.evidence if e.quantity.startswith("(b)")).note.startswith("p* = 1.5953277578356")
        out = prop_diag_l1.evaluate(d_diaginf(), prec)  # both infeasible: B₁ = −B₂
        assert out.decide() == "HOLDS" and any(e.quantity.startswith("infeasible together") for e in out.evidence)


def test_non_diagonal_w_is_violated():
    with working_precision(30) as prec:
        out = prop_diag_l1.evaluate(d_seed0(), prec, offdiag=Fraction(1, 100))
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert out.evidence[0].decide() is False


def test_embedding_dimension_below_d_not_applicable():
    with working_precision(30) as prec:
        out = prop_diag_l1.evaluate(d_seed0(), prec, d_e=3)
    assert out.decide() == "NOT_APPLICABLE" and "d_e ≥ d" in out.hypotheses[0].name
