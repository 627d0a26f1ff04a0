"""tfsvm.lemma10 (FLAWED-v1): D-T2 and the constructed shared-query dataset are VIOLATED (certified); ρ along the LMM
ray matches the closed forms of the docstring (recomputed here in mpmath from the softmax by hand); R_π matches
the hand formula; n = 1 B.2 data HOLDS; B.2 failing is NOT_APPLICABLE."""
import re
from fractions import Fraction

import mpmath
import pytest

import verify
from lemmas.tfsvm import lemma10
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.stationarity import gmm
from verify.geometry.tfsvm_cones import lemma10_radius, sqrt_ball, w_constants
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision


def _lp(u):
    return -1 / (1 + mpmath.e ** u)


def _closed_form(r, gamma2, m_alpha2, m_mm2, limit):
    """T = 2, sequence 1 gap r (γ = (1, 0), both margins 1), sequence 2 gap k·r selecting token 1 with γ_21 − γ_22 =
    gamma2: ρ = limit·(A₁ + A₂·gamma2·m_alpha2/1)/(A₁ + A₂·gamma2·m_mm2) with A_i = |ℓ'(φ_i)|s_i1 s_i2."""
    k = m_alpha2
    s12 = mpmath.e ** (-r) / (1 + mpmath.e ** (-r))
    s22 = mpmath.e ** (-k * r) / (1 + mpmath.e ** (-k * r))
    phi1, phi2 = 1 - s12, gamma2 * (1 - s22)  # φ = γ_1 s_1 + γ_2 s_2 with γ_i2 = 0
    A1 = -_lp(phi1) * (1 - s12) * s12
    A2 = -_lp(phi2) * (1 - s22) * s22
    return limit * (A1 + A2 * gamma2 * m_alpha2) / (A1 + A2 * gamma2 * m_mm2)


@pytest.mark.parametrize("make, ray, gamma2, k, m_mm2, limit_sq", [
    (D.d_t2, (Fraction(1, 2), 0, Fraction(1, 2), 0), -2, 2, -1, 10),        # W^mm_α = [[½,0],[½,0]]
    (D.lemma10_shared_query, (1, 0, 0, 0), -1, 3, -1, 17),                  # W^mm_α z = (1, 0), z = e₁
])
def test_ratio_on_the_lmm_ray_matches_the_closed_form(make, ray, gamma2, k, m_mm2, limit_sq):
    mpmath.mp.dps = 50
    data = make()
    with working_precision(50):
        q = tuple(gmm(data, "W", 50).solution)
        model = LinearLogitModel.from_dataset(data, "W", "logistic")
        qn = sqrt_ball(w_constants(data, q).norm_sq)
        for r in (3, 7, 25):
            W = tuple(Fraction(r) * Fraction(x) for x in ray)
            num, den = lemma10.ratio(model, q, W, qn)
            got = mpmath.mpf((num / den).mid().str(45, radius=False))
            want = _closed_form(mpmath.mpf(r), gamma2, k, m_mm2, mpmath.sqrt(limit_sq))
            assert abs(got - want) < mpmath.mpf(10) ** -40


def test_r_pi_hand_formula_on_dt2():
    """M² = ‖(2,2)‖²‖(1,½)‖² = 10, ‖W^mm‖² = 5: ε²Θ² = π²/(4·10·5) = 1/800 at π = ½, δ = 1/3200;
    R_π = 3200·√5·log(2·√50·2/(½)) = 3200√5 log(8√50)."""
    mpmath.mp.dps = 40
    data = D.d_t2()
    with working_precision(40):
        c = w_constants(data, gmm(data, "W", 40).solution)
        R, delta = lemma10_radius(c, Fraction(1, 2))
    assert delta == Fraction(1, 3200)
    want = 3200 * mpmath.sqrt(5) * mpmath.log(8 * mpmath.sqrt(50))
    assert abs(mpmath.mpf(R.mid().str(35, radius=False)) - want) < 1e-25


def test_violated_certified_on_both_counterexamples():
    v = run_claim(lemma10.CLAIM, [D.d_t2(), D.lemma10_shared_query()], dps=30)
    assert v.verdict == "VIOLATED" and v.certainty == "certified"
    for ds in v.datasets:
        assert ds.verdict == "VIOLATED" and ds.certainty == "certified"


def test_one_point_beyond_r_pi_violates_with_ratio_near_sqrt10():
    """π = 2 on D-T2: R_π ≈ 3200/16·… < 1300; W = 1700·W^mm_α has ‖W‖ = 1700/√2 > R_π and ρ = √10 to every digit."""
    with working_precision(30) as prec:
        out = lemma10.evaluate(D.d_t2(), prec, pis=("2",), points=[("ray", (850, 0, 850, 0))])
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    tally = [e for e in out.evidence if e.coverage is not None][0]
    assert abs(mpmath.mpf(tally.value.mid().str(25, radius=False)) - mpmath.sqrt(10)) < 1e-20


def test_n1_equal_scores_holds():
    v = run_claim(lemma10.CLAIM, [D.n1_equal_scores()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_b2_failing_is_not_applicable():
    v = run_claim(lemma10.CLAIM, [D.b1_only()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "B.2" in v.reasons[0]


def test_n1_holds_only_for_the_fixed_pis_and_says_so():
    """n = 1: no locally-optimal ray, so no harder π can be derived: the verdict names the π it covered."""
    v = run_claim(lemma10.CLAIM, [D.n1_equal_scores()], dps=30)
    assert v.range.startswith("π ∈ {1/2, 1, 2}")
    assert re.match(r"HOLDS — certified at [0-9]+ points for π ∈ \{1/2, 1, 2\}", v.label), v.label


def _closed_form_low_limit():
    """lemma10_low_limit: W^mm z = (1, 5/8) (both constraints w₁ ≥ 1, −3w₁/2 + 4w₂ ≥ 1 tight), W^mm_α z = (1, 0):
    the limit is ‖W^mm‖/‖W^mm_α‖ = √(1 + 25/64) = √89/8; the hardest π is (limit − 1)/2 to 3 significant digits,
    rounded down."""
    mpmath.mp.dps = 40
    limit = mpmath.sqrt(89) / 8
    half = (limit - 1) / 2                               # 0.0896238…
    e = int(mpmath.floor(mpmath.log10(half))) - 2        # keep 3 significant digits
    return limit, Fraction(int(mpmath.floor(half / mpmath.mpf(10) ** e))) * Fraction(10) ** e


def test_a_low_limit_ray_passes_every_fixed_pi_but_fails_the_derived_one():
    """The pattern the inventory fixes: ρ → √89/8 ≈ 1.179 along the LMM ray, so π ∈ {½, 1, 2} all hold there and a
    check trying only them answers HOLDS; the hardest π derived from the data is refuted (certified)."""
    limit, pi = _closed_form_low_limit()
    assert pi == Fraction(56, 625)
    fixed_only = verify.check("tfsvm.lemma10", D.lemma10_low_limit(), precision=30, derive_pi=False)
    assert fixed_only.verdict == "HOLDS" and fixed_only.range.startswith("π ∈ {1/2, 1, 2}; ")
    with working_precision(30) as prec:
        out = lemma10.evaluate(D.lemma10_low_limit(), prec, figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert len(d.reasons) == 1 and d.reasons[0].startswith(f"fails: π = {pi} (hardest")
    tally = [e for e in out.evidence if e.coverage is not None and e.quantity.startswith(f"π = {pi}")][0]
    assert tally.bound == 1 + pi and tally.coverage.violated == 1
    assert abs(mpmath.mpf(tally.value.mid().str(30, radius=False)) - limit) < mpmath.mpf(10) ** -25
