"""tfsvm.lemma11 (mutation tests): the scope C̄_{μ,R_π} of given points on both sides of each of its two conditions
(in S_μ, ‖W‖_F ≥ R_π) and the refusal naming the first three points outside; the sampled points certified in the cone
at ‖W‖_F ≥ f·R_π for each factor f and every one counted; the bound 1 + π, R_π's value beside the verdict (hand
formula), the worst point named, the informative ladder radius recomputed from its definition.

D-T2 (tests/test_tfsvm_lemma11.py): W^mm = (½, −3/2, ½, −3/2) (‖W^mm‖² = 5, Θ = 1/√5; its margins are ≥ 1, so the
margin slack of t·W^mm is t − μΘ·t√5 = t/2 at μ = ½); at μ = π = ½, R_π = 12800√5·log(32√50) ≈ 155179.47 (ν part,
the hand formula of tests/test_tfsvm_lemma11.py). The LMM ray W^mm_α ∝ (1, 0, 1, 0) lies outside S_μ (sequence 2
selects its non-optimal token) and ρ → √10 along it."""
from fractions import Fraction

import mpmath
from flint import arb

from lemmas.tfsvm import lemma11
from verify.data import tfsvm as D
from verify.geometry.stationarity import gmm
from verify.geometry.tfsvm_cones import at_norm, cone_samples, margin_rows, margin_slack, w_constants
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 40
HALF = Fraction(1, 2)
Q = (HALF, Fraction(-3, 2), HALF, Fraction(-3, 2))
R_HAND = 12800 * mpmath.sqrt(5) * mpmath.log(32 * mpmath.sqrt(50))


def _mp(x):
    return mpmath.mpf(x.mid().str(35, radius=False))


def _fmp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _run(**kw):
    with working_precision(30) as prec:
        return lemma11.evaluate(D.d_t2(), prec, pis=("1/2",), **kw)


def _scale(t):
    return tuple(t * x for x in Q)


def _tally(out):
    return [e for e in out.evidence if e.coverage is not None][0]


def test_the_exact_w_mm_of_d_t2():
    assert tuple(Fraction(x) for x in gmm(D.d_t2(), "W", 30).solution) == Q


def test_given_points_inside_the_scope_are_counted():
    """t·W^mm with ‖W‖ = 10⁶·√5 > R_π (ρ = 1 exactly: W ∥ W^mm), and a sampled boundary point of S_μ at ‖W‖ ≥ R_π whose
    margin slack is certified in [0, 1) (a point of S_μ, not deep inside it): both in scope, both counted."""
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        R = to_arb(mpmath.nstr(R_HAND, 30))
        edge = [W for lb, W in cone_samples(D.d_t2(), Q, HALF, c.theta, R, (1,), 2) if "boundary" in lb][0]
        s = margin_slack(margin_rows(D.d_t2()), edge, HALF, c.theta)
        assert s >= 0 and s < 1
    out = _run(points=[("deep", _scale(10 ** 6)), ("edge", edge)])
    hyp = [h for h in out.hypotheses if "C̄_(μ,R_π)" in h.name]
    assert len(hyp) == 1 and hyp[0].met and hyp[0].detail == "all inside"
    t = _tally(out)
    assert t.coverage.points == 2 and t.coverage.holds == 2
    assert t.bound == Fraction(3, 2)  # 1 + π
    assert abs(_mp(t.value) - 1) < mpmath.mpf("1e-3")  # ρ(t·W^mm) = 1; the edge point ≈ 1 (it is the max here)
    assert out.decision().verdict == "HOLDS"


def test_given_points_outside_either_condition_are_refused_the_first_three_named():
    """Outside S_μ but far out (10⁶·(1, 0, 1, 0): ‖W‖ ≈ 1.4·10⁶ > R_π); in S_μ with R_π² − 1 ≤ ‖W‖² < R_π² (t·W^mm,
    t√5 = R_π − 1/(4R_π)); W^mm itself and 2·W^mm (in S_μ, ‖W‖ ≪ R_π). Refused, the first three named."""
    t = Fraction(mpmath.nstr((R_HAND - 1 / (4 * R_HAND)) / mpmath.sqrt(5), 30))
    assert R_HAND ** 2 - 1 <= 5 * mpmath.mpf(t.numerator) ** 2 / t.denominator ** 2 < R_HAND ** 2
    pts = [("outside far", (10 ** 6, 0, 10 ** 6, 0)), ("just below", _scale(t)), ("W^mm", Q), ("2W^mm", _scale(2))]
    out = _run(points=pts)
    hyp = [h for h in out.hypotheses if "C̄_(μ,R_π)" in h.name]
    assert len(hyp) == 1 and not hyp[0].met
    assert hyp[0].detail == "not certified inside: ['outside far', 'just below', 'W^mm']"
    assert out.decision().verdict == "NOT_APPLICABLE"
    for one in pts[:2]:  # each condition alone refuses
        assert _run(points=[one]).decision().verdict == "NOT_APPLICABLE"


def test_without_the_cone_the_first_failing_point_is_named():
    out = _run(points=[("on W^mm", _scale(10 ** 6)), ("LMM ray", (1000, 0, 1000, 0))], require_cone=False)
    t = _tally(out)
    assert t.coverage.points == 2 and t.coverage.violated == 1 and t.coverage.first_violation == "LMM ray"
    assert abs(_mp(t.value) - mpmath.sqrt(10)) < mpmath.mpf("1e-20")
    assert out.decision().verdict == "VIOLATED"


def test_sampled_points_are_in_the_cone_beyond_each_factor_and_all_counted(monkeypatch):
    """Every W at which ρ is decided (not the informative ladder below R_π) is certified in S_μ with
    f·R_π ≤ ‖W‖_F ≤ f·R_π·(1 + 10⁻⁸) for its factor f; the tally counts directions × factors; R_π beside it."""
    seen = []
    real = lemma11.rho

    def spy(model, q, W, qn):
        seen.append(W)
        return real(model, q, W, qn)

    monkeypatch.setattr(lemma11, "rho", spy)
    for dirs_asked, factors in ((2, (1, 10)), (0, (3,))):
        seen.clear()
        out = _run(factors=factors, random_dirs=dirs_asked)
        with working_precision(30):
            c = w_constants(D.d_t2(), Q)
            dirs = cone_samples(D.d_t2(), Q, HALF, c.theta, None, random_dirs=dirs_asked)
            rows = margin_rows(D.d_t2())
            big = [W for W in seen if sum(Fraction(x) ** 2 for x in W) > 10 ** 8]
            assert len(big) == len(dirs) * len(factors)
            for f in factors:
                lo, hi = f * R_HAND, f * R_HAND * (1 + mpmath.mpf("1e-8"))
                at_f = [W for W in big if lo ** 2 <= sum(_fmp(x) ** 2 for x in W) <= hi ** 2]
                assert len(at_f) == len(dirs)
                assert all(margin_slack(rows, W, HALF, c.theta) >= 0 for W in at_f)
        assert _tally(out).coverage.points == len(dirs) * len(factors)
        R = [e for e in out.evidence if e.quantity.startswith("μ = 1/2, π = 1/2: R_π")]
        assert len(R) == 1 and abs(_mp(R[0].value) - R_HAND) < mpmath.mpf("1e-20")
    assert len(cone_samples(D.d_t2(), Q, HALF, to_arb(1) / to_arb(5).sqrt(), None, random_dirs=2)) > \
        len(cone_samples(D.d_t2(), Q, HALF, to_arb(1) / to_arb(5).sqrt(), None, random_dirs=0))


def test_default_random_directions_are_two():
    with working_precision(30):
        theta = arb(1) / arb(5).sqrt()
        n2 = len(cone_samples(D.d_t2(), Q, HALF, theta, None, random_dirs=2))
    assert _tally(_run()).coverage.points == n2 * len(lemma11.FACTORS)


def test_ladder_radius_from_its_definition():
    """The smallest rung r of LADDER such that every sampled direction, at ‖W‖ = r and at every larger rung, has
    ρ ≤ 1 + π (ρ by ``lemma11.rho``, tested against closed forms elsewhere); given points: no ladder item."""
    for pi in (HALF, Fraction(1)):
        with working_precision(30) as prec:
            out = lemma11.evaluate(D.d_t2(), prec, pis=(str(pi),))
            c = w_constants(D.d_t2(), Q)
            model = LinearLogitModel.from_dataset(D.d_t2(), "W", "logistic")
            qn = to_arb(5).sqrt()
            dirs = cone_samples(D.d_t2(), Q, HALF, c.theta, None, random_dirs=2)
            ok = [all(n / m <= to_arb(1 + pi) for n, m in (lemma11.rho(model, Q, at_norm(d, to_arb(r)), qn)
                                                          for _, d in dirs)) for r in lemma11.LADDER]
        want = 0
        for r, good in reversed(list(zip(lemma11.LADDER, ok))):
            if not good:
                break
            want = r
        lad = [e for e in out.evidence if "smallest ladder radius" in e.quantity]
        assert len(lad) == 1 and lad[0].value == want
    assert want == 5  # every rung holds on D-T2
    assert not [e for e in _run(points=[("p", _scale(10 ** 6))]).evidence if "smallest ladder" in e.quantity]


def _grad_dt2(W, lp):
    """∇L(W) on D-T2 by hand: (1/n)Σ_i ℓ'(φ_i)Σ_t s_it(γ_it − φ_i)F_it; the non-zero tokens have F = (1, 0, 1, 0),
    γ = 1 (sequence 1, Y = +1) and F = (2, 1, 2, 1), γ = −2 (sequence 2, Y = −1); the other tokens F = 0, γ = 0."""
    g = [mpmath.mpf(0)] * 4
    for f, gam in (((1, 0, 1, 0), 1), ((2, 1, 2, 1), -2)):
        s = 1 / (1 + mpmath.e ** (-sum(a * _fmp(b) for a, b in zip(f, W))))
        phi = s * gam
        c = lp(phi) * s * (gam - phi) / 2
        g = [x + c * a for x, a in zip(g, f)]
    return g


def test_the_loss_reaches_the_model():
    """Exponential loss (ℓ'(u) = −e^{−u}) on the LMM ray point (3, 0, 3, 0), cone dropped: ρ by hand."""
    W = (3, 0, 3, 0)
    g = _grad_dt2(W, lambda u: -mpmath.e ** (-u))
    nw = mpmath.sqrt(sum(_fmp(x) ** 2 for x in W))
    want = (-sum(a * _fmp(b) for a, b in zip(g, W)) / nw) / (-sum(a * _fmp(b) for a, b in zip(g, Q)) / mpmath.sqrt(5))
    with working_precision(30) as prec:
        out = lemma11.evaluate(D.d_t2(), prec, pis=("1/2",), points=[("p", W)], require_cone=False, loss="exponential")
    assert abs(_mp(_tally(out).value) - want) < mpmath.mpf("1e-25")


def test_the_false_case_note_and_the_covered_points():
    out = _run(points=[("p", _scale(10 ** 6))], require_cone=False)
    assert "W ∈ C̄_(μ,R_π) NOT required (false case)" in out.notes
    assert out.covers[-1] == "W at the 1 given point(s)"
    dflt = _run(factors=(1,))
    assert not [n for n in dflt.notes if "NOT required" in n]
    assert dflt.covers[-1].startswith("W at W^mm and boundary points of S_μ along the adversarial directions (2 random)")
