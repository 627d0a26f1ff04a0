"""tfsvm.lemma13 (local cone, two-sided gradient bounds): defaults HOLD certified; the constants of D-LMM (α = B) from a
hand solution of its one-constraint SVM (spec: δ = 0.2, A = 1.265, μ = 3.125e−3, R = 27.7); the spec's ratios on
D-LMM (min value/lower ≈ 7.98, min upper/value ≈ 2); the v1-printed (reversed) signs and a tightened upper constant are
VIOLATED (certified); α = C (not locally optimal) is NOT_APPLICABLE naming local optimality."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import lemma13
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.local_cone import local_cone
from verify.numbers.precision import working_precision


def _item(out, text):
    found = [e for e in out.evidence if text in e.quantity]
    assert found, [e.quantity for e in out.evidence]
    return found


def test_defaults_hold_certified():
    v = run_claim(lemma13.CLAIM, lemma13.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty) == ("HOLDS", "certified")


def test_d_lmm_constants_by_hand():
    """α = B (index 1): the SVM min ‖w‖ s.t. (x_B − x_A)ᵀw ≥ 1, (x_B − x_C)ᵀw ≥ 1 with z = e₁ (only W's first column
    enters). Try the C-constraint alone: w = (x_B − x_C)/‖x_B − x_C‖² = (0, −1, ½)/(5/4) = (0, −4/5, 2/5); then
    (x_B − x_A)ᵀw = (0, −2, −½)·w = 8/5 − 1/5 = 7/5 ≥ 1, so it is optimal, 𝒯 = {C}, 𝒯̄ = {A}. δ = (7/5 − 1)/2 = 1/5;
    A² = ‖x_A‖²‖z‖²‖w‖² = 2·(4/5) = 8/5; μ = (1/5)²/(8·8/5) = 1/320; Γ = 1, γ^gap = γ_B − γ_C = 1/2, T = 3:
    R = max(2, 5)·√(4/5)·log(64·3·√(8/5)/(1/2))."""
    with working_precision(40):
        c = local_cone(D.d_lmm(), (1,))
        assert c.locally_optimal
        assert c.w == (0, 0, 0, Fraction(-4, 5), 0, 0, Fraction(2, 5), 0, 0)
        assert (c.delta, c.A_sq, c.mu, c.Gamma, c.gap_min) == (Fraction(1, 5), Fraction(8, 5), Fraction(1, 320), 1,
                                                               Fraction(1, 2))
        R = c.radius()
    mpmath.mp.dps = 40
    want = 5 * mpmath.sqrt(mpmath.mpf(4) / 5) * mpmath.log(64 * 3 * mpmath.sqrt(mpmath.mpf(8) / 5) / mpmath.mpf("0.5"))
    assert abs(mpmath.mpf(R.mid().str(35, radius=False)) - want) < 1e-30
    assert abs(float(want) - 27.7) < 0.05 and abs(float(mpmath.sqrt(mpmath.mpf(8) / 5)) - 1.265) < 5e-4  # the spec


def test_d_lmm_ratios_match_the_spec():
    with working_precision(30) as prec:
        out = lemma13.evaluate(D.d_lmm(), prec, alphas=[(1,)])
    low = _item(out, "min of −⟨∇L(W), V⟩")[0]
    up = _item(out, "max of −⟨∇L(W), V⟩")[0]
    assert low.decide() is True and up.decide() is True
    # spec: min value/lower = 7.98 (at most 8 = 8·h·g/(g) on the ray), min upper/value = 2.0002
    assert 7.9 < float(low.value.mid()) < 8
    assert abs(1 / float(up.value.mid()) - 2) < 1e-3


def test_printed_signs_violated_certified():
    with working_precision(30) as prec:
        d = lemma13.evaluate(D.d_lmm(), prec, signs="printed").decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
    assert any("printed signs" in r for r in d.reasons)


def test_tightened_upper_constant_violated_certified():
    """On D-LMM −⟨∇L(W), V⟩ ≈ (1/n)|ℓ'|q·γ̄^gap·1 (support margin 1): half the printed 2/n bound, so 1/(2n) fails."""
    with working_precision(30) as prec:
        d = lemma13.evaluate(D.d_lmm(), prec, upper_factor=Fraction(1, 2)).decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")


def test_not_locally_optimal_not_applicable():
    """α = C: W^mm_C = (0, 1/3, −4/3) in the first column has both A and B (scores 1, ½ > 0) as support indices."""
    with working_precision(30) as prec:
        d = lemma13.evaluate(D.d_lmm(), prec, alphas=[(2,)]).decision()
    assert d.verdict == "NOT_APPLICABLE" and "locally optimal" in d.reasons[0]


def test_empty_support_sequence_is_left_out_and_said():
    with working_precision(30) as prec:
        out = lemma13.evaluate(D.d_t2(), prec, alphas=[(0, 0)])
    assert out.decision().verdict == "HOLDS"
    assert any("𝒯_i = ∅" in n and "[2]" in n for n in out.notes)


def test_registered():
    c = lemma13.CLAIM
    assert c.id == "tfsvm.lemma13" and c.aliases == ("local-gradient-condition",) and c.parameters
