"""tfsvm.lemma12 (margin cone: no stationary point, two-sided bounds): defaults HOLD, proven on the whole cone; D-NB at W z = (0, −10)
with V = W^mm lies outside the cone (NOT_APPLICABLE naming it) and, with the cone dropped, is VIOLATED with
−⟨∇L(W), W^mm⟩ = −0.1325 (recomputed by hand in mpmath); R_μ against the hand formula; the lower bound is attained up
to its factor 2 (the μ/2 slack of (58)) on n = 1 data; a tie → NOT_APPLICABLE."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import lemma12
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.stationarity import gmm
from verify.geometry.tfsvm_cones import lemma12_radius, w_constants
from verify.numbers.precision import working_precision

OUTSIDE = dict(points=[("W z = (0, -10)", (0, 0, -10, 0))], vs=[("W^mm", (Fraction(1, 2), 0, Fraction(1, 2), 0))])


def test_defaults_hold_proven_on_the_whole_cone():
    v = run_claim(lemma12.CLAIM, lemma12.CLAIM.default_datasets(), dps=30)
    # the reduction (kit.descent_proof.margin_cone_proof) holds at R_μ on every default dataset: the unbounded cone
    assert (v.verdict, v.certainty) == ("HOLDS", "proven")
    assert v.range.startswith("every W ∈ C̄_(μ,R_μ) and V ∈ S_μ with ‖V‖ = ‖W^mm‖ (μ = 1/2)")


def test_dnb_outside_the_cone_not_applicable():
    with working_precision(30) as prec:
        out = lemma12.evaluate(D.d_nb(), prec, **OUTSIDE)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "C̄" in d.reasons[0]


def test_dnb_outside_the_cone_violated_when_dropped():
    mpmath.mp.dps = 40
    a, g, b = [-10, 0, 0], [1, mpmath.mpf("0.9"), mpmath.mpf("0.18")], [mpmath.mpf("0.5"), -2.5, -0.5]
    e = [mpmath.e ** x for x in a]
    s = [x / sum(e) for x in e]
    phi = sum(x * y for x, y in zip(s, g))
    cov = sum(x * y * z for x, y, z in zip(s, g, b)) - phi * sum(x * z for x, z in zip(s, b))
    expected = (1 / (1 + mpmath.e ** phi)) * cov  # −⟨∇L, W^mm⟩ = −ℓ'(φ)Cov = Cov/(1 + e^φ)
    assert abs(expected + mpmath.mpf("0.13254")) < 1e-5
    with working_precision(30) as prec:
        out = lemma12.evaluate(D.d_nb(), prec, require_cone=False, **OUTSIDE)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    l1 = [e for e in out.evidence if "(L1)" in e.quantity][0]
    assert abs(mpmath.mpf(l1.value.mid().str(30, radius=False)) - expected) < 1e-25


def test_r_mu_by_hand_on_dt2():
    """μ = ½: (1/(μΘ)) = 2√5, T = 2, Γ = 2, A = √50, γ^gap_min = 1: R_μ = 2√5·log(4·2·2·√50/(½·1))."""
    mpmath.mp.dps = 40
    data = D.d_t2()
    with working_precision(40):
        R = lemma12_radius(w_constants(data, gmm(data, "W", 40).solution), Fraction(1, 2))
    want = 2 * mpmath.sqrt(5) * mpmath.log(32 * mpmath.sqrt(50))
    assert abs(mpmath.mpf(R.mid().str(35, radius=False)) - want) < 1e-25


def test_lower_bound_ratio_tends_to_two_for_a_boundary_v():
    """n = 1, V on the boundary of S_μ (margins ≥ μ, one = μ), W deep in the cone: −⟨∇L, V⟩ ≈ |ℓ'|·μ·q·γ^gap at
    leading order while the bound is (μ/2)|ℓ'|qγ^gap: the minimum ratio is ≥ 1 and close to 2 (not below)."""
    with working_precision(30) as prec:
        out = lemma12.evaluate(D.d_lmm(), prec)
    low = [e for e in out.evidence if "min of −⟨∇L(W), V⟩" in e.quantity][0]
    assert low.value >= 1 and abs(float(low.value.mid()) - 2) < 0.01


def test_tied_opt_not_applicable():
    tied = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 1], z=[[1, 1]], name="tied")
    v = run_claim(lemma12.CLAIM, [tied], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "unique" in v.reasons[0]
