"""tfsvm.lemma11 (margin-cone correlation): defaults HOLD certified; the LMM ray of D-T2 lies outside S_μ
(NOT_APPLICABLE naming the cone) and, with the cone requirement dropped, is VIOLATED with ρ = √10 (the limit of the
Lemma 10 closed form, ‖W^mm‖/‖W^mm_α‖ = √5/(1/√2)); R_π's ν part against the hand formula; a tie → NOT_APPLICABLE."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import lemma11
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.stationarity import gmm
from verify.geometry.tfsvm_cones import lemma11_radius, w_constants
from verify.numbers.precision import working_precision

RAY = [("LMM ray 2000·W^mm_α", (1000, 0, 1000, 0))]  # W^mm_α = [[½,0],[½,0]] on D-T2, ‖W‖ = 1000√2


def test_defaults_hold_certified():
    v = run_claim(lemma11.CLAIM, lemma11.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_lmm_ray_is_outside_the_cone():
    with working_precision(30) as prec:
        out = lemma11.evaluate(D.d_t2(), prec, pis=("1/2",), points=RAY)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "C̄" in d.reasons[0]


def test_lmm_ray_violates_without_the_cone():
    with working_precision(30) as prec:
        out = lemma11.evaluate(D.d_t2(), prec, pis=("1/2",), points=RAY, require_cone=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    tally = [e for e in out.evidence if e.coverage is not None][0]
    assert abs(mpmath.mpf(tally.value.mid().str(25, radius=False)) - mpmath.sqrt(10)) < 1e-20


def test_radius_nu_part_by_hand():
    """D-T2: A² = max(‖x‖ ∨ ‖x − x'‖)²‖z‖²·‖W^mm‖² = 8·(5/4)·5 = 50; ε²Θ² = π²/(16A²) = 1/3200 at π = ½, ν = 1/12800;
    Γ = 2, γ^gap_min = 1, T = 2: ν part = 12800·√5·log(4·2·√50·2/(1·½))."""
    mpmath.mp.dps = 40
    data = D.d_t2()
    with working_precision(40):
        c = w_constants(data, gmm(data, "W", 40).solution)
        R, r51, rnu, nu = lemma11_radius(c, Fraction(1, 2), Fraction(1, 2))
    assert nu == Fraction(1, 12800)
    want = 12800 * mpmath.sqrt(5) * mpmath.log(32 * mpmath.sqrt(50))
    assert abs(mpmath.mpf(rnu.mid().str(35, radius=False)) - want) < 1e-25
    want51 = 2 * mpmath.sqrt(5) * mpmath.log(12 * 2 * 2 * mpmath.sqrt(50) / mpmath.mpf("0.5"))  # (1/(μΘ)) = 2√5
    assert abs(mpmath.mpf(r51.mid().str(35, radius=False)) - want51) < 1e-25
    assert R.overlaps(rnu) and R > r51  # the ν part dominates


def test_tied_opt_not_applicable():
    tied = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 1], z=[[1, 1]], name="tied")
    v = run_claim(lemma11.CLAIM, [tied], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "unique" in v.reasons[0]
