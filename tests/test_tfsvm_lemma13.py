"""tfsvm.lemma13 (local cone, two-sided gradient bounds; FLAWED-v1, found here): defaults VIOLATED certified on the
constructed empty-support witness only (closed form below), HOLD on the others; the constants of D-LMM (α = B) from a
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


def test_defaults_violated_only_on_the_empty_support_witness():
    defaults = lemma13.CLAIM.default_datasets()
    assert defaults[-1].name == "tfsvm-local-empty-support"
    v = run_claim(lemma13.CLAIM, defaults, dps=30)
    assert (v.verdict, v.certainty) == ("VIOLATED", "certified")
    assert v.reasons and all(r.startswith("tfsvm-local-empty-support") for r in v.reasons)
    rest = run_claim(lemma13.CLAIM, defaults[:-1], dps=30)
    assert (rest.verdict, rest.certainty) == ("HOLDS", "certified")


def _minus_derivative(w):
    """−L'(w) on local_empty_support, by hand: s = σ(121w) and σ(100w) select the second tokens, φ₁ = −11σ(121w),
    φ₂ = 10σ(100w), L = ½[ℓ(φ₁) + ℓ(φ₂)] with |ℓ'(u)| = σ(−u): −L' = ½[1000|ℓ'(φ₂)|σ'(100w) − 1331|ℓ'(φ₁)|σ'(121w)]."""
    sig = lambda x: 1 / (1 + mpmath.exp(-x))  # noqa: E731
    dsig = lambda x: sig(x) * sig(-x)  # noqa: E731
    return (1000 * sig(-10 * sig(100 * w)) * dsig(100 * w) - 1331 * sig(11 * sig(121 * w)) * dsig(121 * w)) / 2


def test_empty_support_sequence_selecting_a_lower_score_violates_l1_and_l2_certified():
    """FLAWED (found here). local_empty_support: w^mm_α = 1/100 (121w ≥ 1 slack, 100w ≥ 1 tight), 𝒯_1 = ∅, δ = ∞,
    Θ = 100, A = 121/100, Γ = 11, γ^gap = 10, T = 2: R = (2/100)·log(64·2·11·(121/100)/10). By the closed form,
    −⟨∇L(W), W^mm_α⟩ = (1/100)(−L'(w)) is < 0 at w = R and > 0 at 10R: a stationary point inside C_{μ,R}."""
    mpmath.mp.dps = 40
    R = mpmath.mpf(2) / 100 * mpmath.log(mpmath.mpf(64) * 2 * 11 * mpmath.mpf(121) / 100 / 10)
    assert _minus_derivative(R) < 0 < _minus_derivative(10 * R)
    with working_precision(30) as prec:
        out = lemma13.evaluate(D.local_empty_support(), prec)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
    assert any("(L1)" in r for r in d.reasons) and any("(L2)" in r and "1/8" in r for r in d.reasons)
    l1 = _item(out, "(L1)")[0]
    want = _minus_derivative(R) / 100  # the check's W sits at ‖W‖ ≥ R, rounded up by < 10⁻⁶ relative
    assert abs(mpmath.mpf(l1.value.mid().str(30, radius=False)) / want - 1) < 1e-6
    with working_precision(30) as prec:
        d2 = lemma13.evaluate(D.local_empty_support_2d(), prec).decision()
    assert (d2.verdict, d2.certainty) == ("VIOLATED", "certified") and any("(L1)" in r for r in d2.reasons)


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
