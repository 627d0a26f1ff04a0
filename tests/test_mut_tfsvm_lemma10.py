"""tfsvm.lemma10 (mutation tests): the hardest π on both sides of "ρ far out certainly > 1", the informative values
beside the verdict pinned from closed forms on D-T2 (limit ‖W^mm‖/‖W^mm_α‖ = √10, corr(W^mm_α, W^mm) from exact
Fractions, R_π by the hand formula (32), ρ below its limit along the ray), given points below R_π refused and named,
the ones beyond it counted, and the stated ranges.

D-T2 (tests/test_tfsvm_lemma10.py): W^mm_α = [[½, 0], [½, 0]] (‖W^mm_α‖² = ½), ‖W^mm‖² = 5; for π = ½, δ = 1/3200 and
R_π = 3200·√5·log(8√50); for π = 2, ε²Θ² = 4/200 = 1/50, δ = 1/200 and R_π = 200·√5·log(2·√50·2/2) = 200√5·log(2√50)."""
from fractions import Fraction

import mpmath
from flint import arb

from lemmas.tfsvm import lemma10
from verify.data import tfsvm as D
from verify.geometry.stationarity import gmm
from verify.numbers.precision import working_precision

mpmath.mp.dps = 40


def _mp(x):
    return mpmath.mpf(x.mid().str(35, radius=False))


def test_hardest_pi_on_both_sides_of_one():
    with working_precision(30):
        assert lemma10.hardest_pi(arb(1)) is None  # ρ = 1 exactly: no π is refuted
        assert lemma10.hardest_pi(arb("0.9")) is None
        # (ρ − 1)/2 to 3 significant digits, rounded down (strictly below the gap: never π = the limit's own gap)
        assert lemma10.hardest_pi(arb("2.0246")) == Fraction(512, 1000)  # gap 0.5123
        assert lemma10.hardest_pi(arb(3)) == Fraction(999, 1000)  # gap 1 exactly: just below it
        assert lemma10.hardest_pi(arb("1.000002468")) == Fraction(123, 10 ** 8)  # gap 1.234e-6


def _dt2(**kw):
    with working_precision(30) as prec:
        return lemma10.evaluate(D.d_t2(), prec, **kw)


def test_dt2_limit_corr_and_radius_beside_the_verdict():
    out = _dt2(pis=("1/2",))
    q = [Fraction(x) for x in gmm(D.d_t2(), "W", 30).solution]
    d = (Fraction(1, 2), 0, Fraction(1, 2), 0)
    qq = sum(x * x for x in q)
    assert abs(qq - 5) < Fraction(1, 10 ** 20)
    ip = sum(Fraction(a) * b for a, b in zip(d, q))
    corr = mpmath.mpf(ip.numerator) / ip.denominator / (mpmath.sqrt(mpmath.mpf(1) / 2) * mpmath.sqrt(5))
    ev = {e.quantity: e for e in out.evidence}
    lim = [e for k, e in ev.items() if "limit ‖W^mm‖/‖W^mm_α‖" in k]
    cor = [e for k, e in ev.items() if "corr(W^mm_α, W^mm)" in k]
    assert len(lim) == 1 and len(cor) == 1
    assert abs(_mp(lim[0].value) - mpmath.sqrt(10)) < mpmath.mpf(10) ** -25
    assert abs(_mp(cor[0].value) - corr) < mpmath.mpf(10) ** -25
    R = [e for k, e in ev.items() if k.startswith("π = 1/2: R_π")]
    assert len(R) == 1
    assert abs(_mp(R[0].value) - 3200 * mpmath.sqrt(5) * mpmath.log(8 * mpmath.sqrt(50))) < mpmath.mpf(10) ** -20
    # ρ < its limit along the ray (ρ = √10(1 − 6A₂/(A₁ + 2A₂)), A₂ > 0): the gap is certainly negative near the
    # origin and below the working precision (a residual) far out
    gaps = [e for k, e in ev.items() if "(minus the limit)" in k]
    assert len(gaps) == len(lemma10.RAY_NORMS)
    assert gaps[0].value < 0 and abs(gaps[-1].value) < arb(10) ** -30
    assert out.figures and out.figures[0].name == "ratio"


def test_given_points_below_r_pi_are_refused_and_named_the_others_counted():
    """π = 2: R_π = 200√5·log(2√50) ≈ 2066.9. (1, 0, 1, 0) has ‖W‖ = √2 < R_π: refused, named; a point with
    R_π² − 1 ≤ ‖W‖² < R_π² is refused too; 1700·W^mm_α (‖W‖ = 1700/√2 > R_π) is counted (ρ = √10 > 3: fails)."""
    R = 200 * mpmath.sqrt(5) * mpmath.log(2 * mpmath.sqrt(50))
    a = Fraction(str(mpmath.nstr(R - 1 / (4 * R), 30)))
    assert R ** 2 - 1 <= mpmath.mpf(a.numerator) ** 2 / a.denominator ** 2 < R ** 2
    pts = [("small", (1, 0, 1, 0)), ("just below", (a, 0, 0, 0)), ("ray", (850, 0, 850, 0))]
    out = _dt2(pis=("2",), points=pts)
    reqs = [r for r in out.requirements if "every given point has ‖W‖_F ≥ R_π" in r.name]
    assert [r.met for r in reqs] == [False, False] and [r.detail for r in reqs] == ["small", "just below"]
    tally = [e for e in out.evidence if e.coverage is not None][0]
    assert tally.coverage.points == 1 and tally.coverage.violated == 1
    assert out.decision().verdict == "VIOLATED"
    assert "the 3 given point(s)" in "; ".join(out.covers)


def test_only_points_beyond_r_pi_hold_without_a_requirement():
    out = _dt2(pis=("1000",), points=[("ray", (850, 0, 850, 0))])  # ρ = √10 ≤ 1001: holds
    assert not out.requirements or all(r.met for r in out.requirements)
    tally = [e for e in out.evidence if e.coverage is not None][0]
    assert tally.coverage.points == 1 and tally.coverage.holds == 1


def test_probe_set_includes_the_lmm_ray_at_each_factor():
    """Fixed π = 2 without the derived one: the points checked are the LMM ray and the probe directions, each at
    R_π·{1, 10}: the ray's points (ρ → √10 > 3) are among the violations."""
    out = _dt2(pis=("2",), derive_pi=False, figure=False)
    tally = [e for e in out.evidence if e.coverage is not None][0]
    assert tally.coverage.points % 2 == 0 and tally.coverage.points >= 2 * (1 + 2 + 2)
    assert "LMM ray" in tally.coverage.first_violation
    assert not out.figures


def test_no_derivable_pi_is_said_in_the_range():
    with working_precision(30) as prec:
        out = lemma10.evaluate(D.n1_equal_scores(), prec)
    assert any("no locally-optimal ray with a ratio > 1 far out" in c for c in out.covers)
    with working_precision(30) as prec:
        out = lemma10.evaluate(D.n1_equal_scores(), prec, derive_pi=False)
    assert not any("no locally-optimal ray" in c for c in out.covers)


def _rho_dt2(r, loss):
    """ρ along D-T2's LMM ray at W = r·W^mm_α (‖W‖_F = r/√2), closed form of the module docstring with
    A_i = |ℓ'(φ_i)| s_i1 s_i2: ρ = √10 (A₁ − 4A₂)/(A₁ + 2A₂), sequence 1 gap r, sequence 2 gap 2r, γ_21 − γ_22 = −2."""
    lp = (lambda u: 1 / (1 + mpmath.e ** u)) if loss == "logistic" else (lambda u: mpmath.e ** (-u))  # |ℓ'(u)|
    s12 = mpmath.e ** (-r) / (1 + mpmath.e ** (-r))
    s22 = mpmath.e ** (-2 * r) / (1 + mpmath.e ** (-2 * r))
    A1 = lp(1 - s12) * (1 - s12) * s12
    A2 = lp(-2 * (1 - s22)) * (1 - s22) * s22
    return mpmath.sqrt(10) * (A1 - 4 * A2) / (A1 + 2 * A2)


def test_the_loss_reaches_the_ratio_and_the_residual_flags():
    """ρ at ‖W‖_F ≈ 5 on the LMM ray (r ≈ 5√2: the point's scale is rounded up to 10 significant digits, so 1e-7
    relative) minus the limit √10, for both losses (they differ by far more); far out the gap is a residual (below
    10^−dps), near the origin it is not."""
    for loss in ("logistic", "exponential"):
        out = _dt2(pis=("1/2",), loss=loss, derive_pi=False, figure=False)
        gaps = [e for e in out.evidence if "(minus the limit)" in e.quantity]
        assert "ρ at ‖W‖_F ≈ 5 " in gaps[0].quantity
        want = _rho_dt2(5 * mpmath.sqrt(2), loss) - mpmath.sqrt(10)
        assert abs(_mp(gaps[0].value) - want) < mpmath.mpf(10) ** -7 * abs(want)
        assert gaps[0].residual is False and gaps[-1].residual is True
    assert abs(_rho_dt2(5 * mpmath.sqrt(2), "logistic") - _rho_dt2(5 * mpmath.sqrt(2), "exponential")) > 1e-4


def test_the_derived_run_names_its_ray_its_rho_and_where_it_failed():
    """lemma10_low_limit: the locally-optimal α = (0, 1) — (1, 2) 1-indexed — with ρ far out = √89/8 = 1.1792476…
    (8 digits in the name); the derived π is refuted at the first rung, R_π·1."""
    with working_precision(30) as prec:
        out = lemma10.evaluate(D.lemma10_low_limit(), prec, figure=False)
    tally = [e for e in out.evidence if e.coverage is not None and "(hardest" in e.quantity]
    assert len(tally) == 1
    assert f"ρ = {mpmath.nstr(mpmath.sqrt(89) / 8, 8)})" in tally[0].quantity
    assert "α = (1, 2) (1-indexed)" in tally[0].quantity
    assert tally[0].coverage.points == 1
    assert tally[0].coverage.first_violation.startswith("the ray of α = (1, 2) (1-indexed) at ‖W‖_F ≥ 1·R_π")
    lim = [e for e in out.evidence if "limit ‖W^mm‖/‖W^mm_α‖" in e.quantity]
    assert [e.quantity.split(":")[0] for e in lim] == ["LMM α = (1, 2) (1-indexed)"]


def test_random_directions_are_counted():
    """Each extra random direction adds one point per factor (R_π·{1, 10}); the default is 2 random directions."""
    def points(**kw):
        out = _dt2(pis=("20",), derive_pi=False, figure=False, **kw)  # 2M̄T/π = 4√50/20 > 1: R_π > 0
        return [e for e in out.evidence if e.coverage is not None][0].coverage.points
    p2 = points()
    assert points(random_dirs=2) == p2 and points(random_dirs=3) == p2 + 2 and points(random_dirs=0) == p2 - 4


def test_b2_not_required_is_not_asked_and_its_detail_is_shown():
    from verify.geometry.stationarity import assumption_b
    with working_precision(20) as prec:
        out = lemma10.evaluate(D.b1_only(), prec)
        b2 = [h for h in out.hypotheses if h.name.startswith("Assumption B.2")]
        assert len(b2) == 1 and b2[0].met is False and b2[0].detail == assumption_b(D.b1_only()).detail != ""
        out = lemma10.evaluate(D.b1_only(), prec, require_B2=False, figure=False)
        assert not [h for h in out.hypotheses if h.name.startswith("Assumption B.2")]


def test_a_pi_beyond_2mt_has_a_negative_radius_and_is_still_checked():
    """π = 40 on D-T2: ε = π/(2M) = 40/(2√10), ε²Θ² = 8 ≥ 2 so δ = 1/2, and R_π = 2√5·log(2√50·2/40) = 2√5·log(√2/2)
    < 0: every W ≠ 0 is in scope. The probe points are placed at ‖W‖_F ≥ 1·{1, 10} (``at_norm`` with R ≤ 0) — the
    same number of points as for π = 20 (R_π > 0), and the check decides (this raised ValueError before)."""
    out = _dt2(pis=("40",), derive_pi=False, figure=False)
    R = [e for e in out.evidence if e.quantity.startswith("π = 40: R_π")][0]
    want = 2 * mpmath.sqrt(5) * mpmath.log(mpmath.sqrt(2) / 2)
    assert want < 0 and abs(_mp(R.value) - want) < mpmath.mpf(10) ** -25
    tally = [e for e in out.evidence if e.coverage is not None][0]
    ref = [e for e in _dt2(pis=("20",), derive_pi=False, figure=False).evidence if e.coverage is not None][0]
    assert tally.coverage.points == ref.coverage.points > 0 and tally.coverage.undecided == 0


def test_at_norm_with_a_radius_not_certainly_positive_gives_norm_at_least_one():
    from verify.geometry.tfsvm_cones import at_norm
    with working_precision(30):
        for R in (arb(-3), arb(0), arb("0 +/- 0.5")):
            W = at_norm((3, 4), R)
            n2 = sum(Fraction(x) ** 2 for x in W)
            assert 1 <= n2 < Fraction(101, 100)  # ‖W‖ ≥ 1, rounded up to 10 digits only
        W = at_norm((3, 4), arb(10))
        assert 100 <= sum(Fraction(x) ** 2 for x in W) < Fraction(10001, 100)
