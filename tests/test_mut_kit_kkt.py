"""verify.kit.kkt (mutation tests): the residuals ε, ε′, δ and the duality gap at one record (each term derived by
hand on a 2×2 system with a fake B), the rows (λ = φ/ln µ, the transform), the certified identity (31) and the
feasibility tallies (both sides of each tolerance), the trend / off-support / gap items (routed to the same rule
calls made here, both branches), the support drift, the predicted limit of ε·ln µ and the exact KKT items of the
ℓ1-SVM (every value derived in exact Fractions here)."""
import math
from fractions import Fraction
from types import SimpleNamespace as NS

import mpmath
import pytest
from flint import arb

from verify.claims import rules
from verify.kit import kkt
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


def _q(x):
    return to_arb(Fraction(x))


def _near(x, want, tol=1e-20):
    """The ball ``x`` is ``want`` (a Fraction / float) to ``tol``."""
    return x is not None and abs(float((x - to_arb(want) if not isinstance(want, float) else x - arb(want)).mid())) < max(tol, 1e-14)


def _sysm(B, w2=None):
    """A fake system: rows B_k (m of them, dimension d), θ(λ) = Bᵀλ = Σ_k λ_k B_k."""
    d, m = len(B[0]), len(B)
    return NS(d=d, m=m, w2_exact=w2 or [Fraction(1)] * d,
              theta=lambda lam: [sum((lam[k] * _q(B[k][j]) for k in range(m)), arb(0)) for j in range(d)])


def _point(mu, beta, margins):
    return NS(mu=_q(mu), beta=[_q(b) for b in beta], margins=[_q(x) for x in margins])


B2 = [[1, 0], [0, 2]]   # Bλ = (λ₀, 2λ₁)


def test_residuals_each_term():
    """µ = 2, β = (−1, 3) → β̂ = (−1/2, 3/2); λ = (1/2, 3/4) → Bλ = (1/2, 3/2). J₁ = {0}: |1/2 − sign(−1/2)| = 3/2;
    j = 1 off J₁: |3/2| − 1 = 1/2 → ε = 3/2. ε′ = |β̂₁| = 3/2. margins (4, 1): δ = max(1/2·(2 − 1), 3/4·(1/2 − 1))
    = 1/2. gap = 1/2 + 3/2 − (5/4)/(3/2) = 2 − 5/6 = 7/6."""
    sysm = _sysm(B2)
    eps, eps_off, delta, gap, Bl = kkt.residuals(sysm, _point(2, [-1, 3], [4, 1]), [_q("1/2"), _q("3/4")], {0})
    assert _near(eps, Fraction(3, 2)) and _near(eps_off, Fraction(3, 2)) and _near(delta, Fraction(1, 2))
    assert _near(gap, Fraction(7, 6)) and _near(Bl[0], Fraction(1, 2)) and _near(Bl[1], Fraction(3, 2))


def test_residuals_sign_of_zero_and_small_values():
    """β̂ = (0, 1/4) with J₁ = {0, 1}: sign 0 counts as +1 → |Bλ₀ − 1|; λ = (3/4, 1/16) → Bλ = (3/4, 1/8):
    ε = max(1/4, |1/8 − 1| = 7/8) = 7/8; nothing off J₁ → ε′ = 0. margins (1, 3) at µ = 1: δ = max(3/4·0, 1/16·2) = 1/8.
    gap = 1/4 − (13/16)/(3/4) = 1/4 − 13/12 = −5/6."""
    sysm = _sysm(B2)
    eps, eps_off, delta, gap, _ = kkt.residuals(sysm, _point(1, [0, "1/4"], [1, 3]), [_q("3/4"), _q("1/16")], {0, 1})
    assert _near(eps, Fraction(7, 8)) and _near(eps_off, 0) and _near(delta, Fraction(1, 8))
    assert _near(gap, Fraction(-5, 6))


def test_residuals_start_from_zero_and_clip_off_support():
    """Bλ = (1/4, −1/2), β̂ = (1/2, 1/2), J₁ = {0}: on J₁ |1/4 − 1| = 3/4; off J₁ |−1/2| − 1 < 0 → 0: ε = 3/4.
    A second point with Bλ₀ = 1 exactly: ε = 0 (below 1, so the running maximum starts at 0, not 1)."""
    sysm = _sysm(B2)
    eps, eps_off, *_ = kkt.residuals(sysm, _point(2, [1, 1], [2, 2]), [_q("1/4"), _q("-1/4")], {0})
    assert _near(eps, Fraction(3, 4)) and _near(eps_off, Fraction(1, 2))
    eps, *_ = kkt.residuals(sysm, _point(2, [1, 1], [2, 2]), [_q(1), _q("-1/4")], {0})
    assert _near(eps, 0)
    eps, eps_off, *_ = kkt.residuals(sysm, _point(1, ["3/5", "4/5"], [2, 2]), [_q(1), _q("1/4")], {0})
    assert _near(eps, 0) and _near(eps_off, Fraction(4, 5))
    _, eps_off, *_ = kkt.residuals(sysm, _point(1, ["3/5", "4/5"], [2, 2]), [_q(1), _q("1/4")], set())
    assert _near(eps_off, 1)   # √(9/25 + 16/25)


def _window(mus, phis, betas, margins):
    return [(NS(s=Fraction(k + 1), phi=[_q(x) for x in ph]), _point(mu, b, mg))
            for k, (mu, ph, b, mg) in enumerate(zip(mus, phis, betas, margins))]


def test_rows_divide_phi_by_ln_mu_and_apply_the_transform():
    """µ = e² is not rational; take µ = 4: ln µ = ln 4, φ = (ln 4, 2 ln 4)·… given as Fractions (1, 2) → λ = (1, 2)/ln 4.
    The transform doubles λ; each row's residuals are ``residuals`` at that λ."""
    sysm = _sysm(B2)
    win = _window([4, 8], [[1, 2], [3, 1]], [[4, 0], [8, 8]], [[4, 4], [8, 16]])
    rows = kkt.rows(sysm, win, {0})
    assert [r.s for r in rows] == [1, 2]
    assert _near(rows[0].ln_mu, math.log(4)) and _near(rows[1].ln_mu, math.log(8))
    assert _near(rows[0].lam[1], 2 / math.log(4), 1e-15) and _near(rows[1].lam[0], 3 / math.log(8), 1e-15)
    assert rows[1].point is win[1][1]
    for row, (r, p) in zip(rows, win):
        eps, eps_off, delta, gap, _ = kkt.residuals(sysm, p, row.lam, {0})
        assert _near(row.eps - eps, 0) and _near(row.eps_off - eps_off, 0)
        assert _near(row.delta - delta, 0) and _near(row.gap - gap, 0)
    doubled = kkt.rows(sysm, win, {0}, lam_transform=lambda lam: [2 * x for x in lam])
    assert _near(doubled[1].lam[0], 6 / math.log(8), 1e-15)
    assert _near(doubled[1].delta, kkt.residuals(sysm, win[1][1], doubled[1].lam, {0})[2])


def _identity_rhs(w2, mu, bl):
    mp = mpmath.mpf
    w2 = mp(w2.numerator) / w2.denominator if isinstance(w2, Fraction) else w2
    return mp(w2) / 2 * (mp(mu) ** (mp(bl) - 1) - mp(mu) ** (-mp(bl) - 1))


def test_identity31_relative_residual_and_tolerance():
    """d = 1, B = (2), ω₀² = 4, µ = 4, φ = (3/4)·ln 4 → λ = 3/4, Bλ = 3/2: rhs = 2(4^(1/2) − 4^(−5/2)) = 63/16. Record 1:
    β/µ = 63/16 exactly (residual ~0). Record 2 (µ = 4 again): β/µ = 63/16 + 63/160 → relative residual
    (63/160)/(693/160) = 1/11 (divided by |β̂| > 1). Record 3: rhs = 1/2·(…) < 1 with an absolute error 1/50 → 1/50
    (divided by 1)."""
    with working_precision(30):
        ln4 = to_arb(4).log()
        sysm = NS(d=1, m=1, w2_exact=[Fraction(4)], theta=lambda lam: [2 * lam[0]])
        rhs = _identity_rhs(4, 4, 1.5)
        assert abs(rhs - mpmath.mpf(63) / 16) < 1e-25
        rhs3 = _identity_rhs(Fraction(1, 4), 4, 1.5)   # 1/8·(2 − 1/32) = 63/256
        win = []
        for s, (w2, b_hat) in enumerate([(4, Fraction(63, 16)), (4, Fraction(63, 16) * Fraction(11, 10)),
                                         (Fraction(1, 4), Fraction(63, 256) + Fraction(1, 50))], 1):
            p = NS(mu=to_arb(4), beta=[to_arb(b_hat * 4)], margins=[to_arb(1)])
            win.append((NS(s=Fraction(s), phi=[ln4 * to_arb(Fraction(3, 4))]), p, w2))
        assert abs(rhs3 - mpmath.mpf(63) / 256) < 1e-25
        ev = kkt.identity31(sysm, [(r, p) for r, p, _ in win[:2]], Fraction(1, 10))
        assert ev.decide() is True and ev.coverage.points == 2 and ev.certified
        assert _near(ev._ball, Fraction(1, 11), 1e-20)
        ev = kkt.identity31(sysm, [(r, p) for r, p, _ in win[:2]], Fraction(1, 12))
        assert ev.decide() is False and ev.coverage.first_violation == "s = 2, j = 0"
        sysm3 = NS(d=1, m=1, w2_exact=[Fraction(1, 4)], theta=lambda lam: [2 * lam[0]])
        ev = kkt.identity31(sysm3, [win[2][:2]], Fraction(1, 49))
        assert ev.decide() is True and _near(ev._ball, Fraction(1, 50), 1e-20)
        assert kkt.identity31(sysm3, [win[2][:2]], Fraction(1, 51)).decide() is False
        ev = kkt.identity31(sysm, [win[0][:2]], Fraction(1, 10**20))
        assert ev.decide() is True


def _rows(lams=(), margins=None, mu=2, eps_off=None, gaps=None, ln_mus=None, betas=None, mus=None):
    out = []
    n = len(lams)
    for k in range(n):
        m = mus[k] if mus else mu
        p = NS(mu=_q(m), margins=[_q(x) for x in (margins[k] if margins else [m])],
               beta=[_q(x) for x in (betas[k] if betas else [1])])
        out.append(kkt.KKTRow(Fraction(k + 1), p, _q(ln_mus[k]) if ln_mus else to_arb(m).log(),
                              [_q(x) for x in lams[k]], arb(0), _q(eps_off[k]) if eps_off else arb(0), arb(0),
                              _q(gaps[k]) if gaps else arb(0)))
    return out


def test_dual_feasible_min_lambda_against_minus_tol():
    """min λ = −1/8 at s = 2: ≥ −1/8 holds (non-strict), ≥ −1/16 fails there; evidence only (enclosed=False)."""
    rows = _rows([[1, 2], ["1/2", "-1/8"]])
    ev = kkt.dual_feasible(rows, _q("1/8"))
    assert ev.decide() is True and ev.coverage.points == 2 and _near(ev.value, Fraction(-1, 8))
    assert not ev.enclosed and not ev.certified and ev.relation == ">="
    ev = kkt.dual_feasible(rows, _q("1/16"))
    assert ev.decide() is False and ev.coverage.first_violation == "s = 2"


def test_primal_feasible_largest_shortfall():
    """µ = 2, margins (2, 3) → max(1 − 1, 1 − 3/2) = 0; margins (1, 4) → 1/2 at s = 2: ≤ 1/2 holds, ≤ 1/4 fails; the
    largest (not the smallest) term counts; certified (enclosed)."""
    rows = _rows([[1], [1]], margins=[[2, 3], [1, 4]])
    ev = kkt.primal_feasible(rows, Fraction(1, 2))
    assert ev.decide() is True and ev.certified and ev.coverage.points == 2 and _near(ev._ball, Fraction(1, 2))
    ev = kkt.primal_feasible(rows, Fraction(1, 4))
    assert ev.decide() is False and ev.coverage.first_violation == "s = 2"
    assert kkt.primal_feasible(rows[:1], Fraction(1, 10**25)).decide() is True


LNS = ["2", "4", "8", "16", "32"]


def test_trend_identically_zero_is_a_residual_tally():
    """Every |value| ≤ tol (one equal to it) → one residual Tally over all records, enclosed=False."""
    rows = _rows([[1]] * 3, ln_mus=LNS[:3])
    vals = [_q("1/128"), _q("-1/128"), _q(0)]
    (ev,) = kkt.trend("(C1)", "ε", rows, vals, _q("1/128"))
    assert ev.coverage is not None and ev.coverage.points == 3 and ev.decide() is True and not ev.enclosed
    assert ev.relation == "<="


def test_trend_routes_to_extrapolates_to_zero_against_one_over_ln_mu():
    """Values above tol → ``rules.extrapolates_to_zero(1/ln µ, values, tol, drift)`` (the same Decision here, with and
    without a drift) and the value × ln µ at the last record."""
    rows = _rows([[1]] * 5, ln_mus=LNS)
    for vals in ([Fraction(3, int(x)) for x in LNS], [Fraction(1, 10) + Fraction(1, int(x)) for x in LNS]):
        ys = [_q(v) for v in vals]
        xs = [1 / _q(x) for x in LNS]
        for drift in (None, 0.05, 3.0):
            ev, tail = kkt.trend("(C1)", "ε", rows, ys, _q("1/1000000"), drift)
            want = rules.extrapolates_to_zero(xs, ys, _q("1/1000000"), drift)
            assert (ev.rule.holds, ev.rule.detail) == (want.holds, want.detail)
            assert _near(ev.value, vals[-1]) and not ev.enclosed
            assert _near(tail.value, vals[-1] * 32)
    ev, _ = kkt.trend("(C1)", "ε", rows, [_q(Fraction(3, int(x))) for x in LNS], _q("1/1000000"))
    assert ev.rule.holds is True
    ev, _ = kkt.trend("(C1)", "ε", rows, [_q(Fraction(1, 10) + Fraction(1, int(x))) for x in LNS], _q("1/1000000"))
    assert ev.rule.holds is False


def test_trend_one_value_above_tol_is_ruled():
    rows = _rows([[1]] * 5, ln_mus=LNS)
    vals = [_q(0)] * 4 + [_q("1/64")]
    out = kkt.trend("(C3)", "δ", rows, vals, _q("1/128"))
    assert len(out) == 2 and out[0].rule is not None


def test_support_drift_largest_log_change_on_the_support():
    """β̂ first (1, −2, 5), last (e·1, −2/… ) on J₁ = {0, 1}: |ln 3 − ln 1| and |ln(1/2) − ln 2| → max ln 4; coordinate 2
    (off J₁) moves more but is not counted; a zero on J₁ → ∞."""
    rows = _rows([[1]] * 3, betas=[[2, -4, 10], [0, 0, 0], [3, "-1/2", 1000]], mus=[2, 7, 1])
    assert abs(kkt.support_drift(rows, [0, 1]) - math.log(4)) < 1e-12
    assert abs(kkt.support_drift(rows, [0]) - math.log(3)) < 1e-12
    assert kkt.support_drift(rows, []) == 0.0
    rows = _rows([[1]] * 2, betas=[[2, 0], [3, 1]], mus=[2, 1])
    assert kkt.support_drift(rows, [0, 1]) == float("inf")
    rows = _rows([[1]] * 2, betas=[[2, 1], [3, 0]], mus=[2, 1])
    assert kkt.support_drift(rows, [0, 1]) == float("inf")
    assert abs(kkt.support_drift(rows, [0]) - math.log(3)) < 1e-12


def test_off_support_identically_zero_and_routed_to_decays():
    """All ε′ ≤ tol → a residual Tally; else ``rules.decays(µ, ε′, expected=κ, tail=len(rows))`` (same Decision)."""
    mus = [2, 4, 8, 16, 32]
    rows = _rows([[1]] * 5, eps_off=["1/128", 0, 0, 0, "-1/128"], mus=mus)
    ev = kkt.off_support(rows, 1, _q("1/128"))
    assert ev.coverage is not None and ev.coverage.points == 5 and ev.decide() is True and not ev.enclosed
    for ys, kappa in (([Fraction(1, m) for m in mus], Fraction(1)), ([Fraction(1, m) for m in mus], Fraction(3)),
                      ([Fraction(1, 2)] * 5, None), ([Fraction(1, m ** 2) for m in mus], None)):
        rows = _rows([[1]] * 5, eps_off=ys, mus=mus)
        ev = kkt.off_support(rows, kappa, _q("1/1000000"))
        want = rules.decays([_q(m) for m in mus], [_q(y) for y in ys], expected=kappa, tail=5)
        assert (ev.rule.holds, ev.rule.detail) == (want.holds, want.detail) and _near(ev.value, ys[-1])
    # tail over the whole window: an early rise (not in the last 4) makes the 5-point rule undecided/failing
    ys = [Fraction(1, 64), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16), Fraction(1, 32)]
    rows = _rows([[1]] * 5, eps_off=ys, mus=mus)
    ev = kkt.off_support(rows, Fraction(1), _q("1/1000000"))
    want = rules.decays([_q(m) for m in mus], [_q(y) for y in ys], expected=Fraction(1), tail=5)
    assert ev.rule.holds == want.holds and ev.rule.holds is not True


def test_duality_gap_both_branches():
    """|gap| ≤ tol (equal included) → a residual item ≤ tol; else gap ≥ −tol; only the last record counts."""
    tol = _q("1/128")
    ev = kkt.duality_gap(_rows([[1], [1]], gaps=[5, "-1/128"]), tol)
    assert ev.residual and ev.relation == "<=" and ev.decide() is True and not ev.enclosed
    ev = kkt.duality_gap(_rows([[1], [1]], gaps=[0, "-1/64"]), tol)
    assert not ev.residual and ev.relation == ">=" and ev.decide() is False and not ev.enclosed
    assert _near(ev.value, Fraction(-1, 64))
    ev = kkt.duality_gap(_rows([[1], [1]], gaps=[0, "1/2"], ln_mus=[1, 4]), tol)
    assert ev.decide() is True and "·ln µ = 2" in ev.note


def test_predicted_eps_limit():
    """β* = (1/16, 0, 3, 100), ω₀² = (4, 1, 1, 1), J₁ = {0, 1, 2}: |ln(1/32)| = ln 32 > ln 6 (the abs matters); the
    zero and the coordinate off J₁ are skipped; not unique → None; only zeros on J₁ → None."""
    res = NS(unique=True, solution=[Fraction(1, 16), Fraction(0), Fraction(3), Fraction(100)])
    w2 = [to_arb(4), to_arb(1), to_arb(1), to_arb(1)]
    ev = kkt.predicted_eps_limit(res, [0, 1, 2], w2)
    assert _near(ev.value, math.log(32), 1e-14)
    assert _near(kkt.predicted_eps_limit(res, [1, 2], w2).value, math.log(6), 1e-14)
    assert kkt.predicted_eps_limit(res, [1], w2) is None
    assert kkt.predicted_eps_limit(NS(unique=False, solution=res.solution), [0], w2) is None
    res = NS(unique=True, solution=[Fraction(-1, 2)])
    assert _near(kkt.predicted_eps_limit(res, [0], [to_arb(1)]).value, 0)


def _res(rows):
    return NS(problem=NS(rows=[[Fraction(x) for x in r] for r in rows], m=len(rows), dim=len(rows[0])))


def _vals(items):
    return [e.value for e in items], [e.decide() for e in items]


def test_exact_kkt_at_the_optimum():
    """B = ((1, 1), (1, −1)), β = (1, 0), λ = (1/2, 1/2): margins (1, 1), Bλ = (1, 0) — every item exact and holding."""
    items = kkt.exact_kkt(_res([[1, 1], [1, -1]]), [Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1, 2)])
    vals, dec = _vals(items)
    assert vals == [1, Fraction(1, 2), 0, 0, 0, 0] and dec == [True] * 6
    assert all(e.certified for e in items) and "support [1]" in items[2].note


def test_exact_kkt_every_item_failing():
    """β = (−2, 1), λ = (1, −1/4): margins (−1, −3), Bλ = (3/4, 5/4); stationarity on both coordinates
    max(|3/4 + 1|, |5/4 − 1|) = 7/4, none off the support (0); slackness max(|1·(−2)|, |−1/4·(−4)|) = 2;
    ‖β‖₁ − Σλ = 3 − 3/4 = 9/4."""
    items = kkt.exact_kkt(_res([[1, 1], [1, -1]]), [Fraction(-2), Fraction(1)], [Fraction(1), Fraction(-1, 4)])
    vals, dec = _vals(items)
    assert vals == [-3, Fraction(-1, 4), Fraction(7, 4), 0, 2, Fraction(9, 4)]
    assert dec == [False, False, False, True, False, False]


def test_exact_kkt_off_support_bound_and_empty_support():
    """β = (1, 0), λ = (1, 2): Bλ = (3, −1): on the support |3 − 1| = 2, off it |−1| = 1 ≤ 1 (holds, boundary);
    λ = (0, 3): Bλ = (3, −3) → off 3 > 1; β = 0: nothing on the support (0), margins 0 < 1."""
    res = _res([[1, 1], [1, -1]])
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(1), Fraction(0)], [Fraction(1), Fraction(2)]))
    assert vals[2:4] == [2, 1] and dec[3] is True
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(1), Fraction(0)], [Fraction(0), Fraction(3)]))
    assert vals[3] == 3 and dec[3] is False and vals[4] == 0
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(0), Fraction(0)], [Fraction(0), Fraction(0)]))
    assert vals == [0, 0, 0, 0, 0, 0] and dec == [False, True, True, True, True, True]


def test_max_and_min_go_by_midpoints():
    """Overlapping balls: 1 ± 2 and 2 ± 1/10 — by midpoint the second is the larger (a plain max keeps the first,
    the comparison being uncertain); dual feasibility's min λ likewise picks −1/2 ± 1/100 over 0 ± 1."""
    assert kkt._max([arb(1, 2), arb(2, 0.1)]).mid() == 2
    row = _rows([[0]])[0]
    row.lam = [arb(0, 1), arb(-0.5, 0.01)]
    ev = kkt.dual_feasible([row], _q("1/128"))
    assert ev.value.mid() == -0.5


def test_items_decided_on_flow_output_are_never_certified():
    """enclosed=False on every flow item: ``certified`` is False (not a falsy None: the JSON contract's boolean)."""
    tol = _q("1/128")
    rows = _rows([[1]] * 3, eps_off=[0, 0, 0], gaps=[0, 0, "1/2"], ln_mus=LNS[:3])
    items = [kkt.dual_feasible(rows, tol), kkt.off_support(rows, 1, tol), kkt.duality_gap(rows, tol),
             kkt.duality_gap(_rows([[1]], gaps=[0]), tol), *kkt.trend("(C1)", "ε", rows, [_q(0)] * 3, tol)]
    assert all(e.decide() is True and e.certified is False for e in items)
    for ev in (kkt.off_support(rows, 1, tol), kkt.trend("(C1)", "ε", rows, [_q(0)] * 3, tol)[0]):
        assert ev.residual is True and ev.coverage.worst_at.startswith("s = ")


def test_duality_gap_reads_the_last_of_three_and_an_uncertain_gap():
    """Three records, gaps (0, 0, −1/64): the last one decides (fails); a gap 1/128 ± 10⁻²⁰ at tol = 1/128 is not
    certainly ≤ tol, so it goes to ``gap ≥ −tol`` (holds; against +tol it would be undecided)."""
    tol = _q("1/128")
    assert kkt.duality_gap(_rows([[1]] * 3, gaps=[0, 0, "-1/64"]), tol).decide() is False
    row = _rows([[1]])[0]
    row.gap = arb(1 / 128, 1e-20)
    ev = kkt.duality_gap([row], tol)
    assert ev.relation == ">=" and ev.decide() is True


def test_residuals_off_support_dominates():
    """J₁ = {0} with Bλ₀ = 1 = sign β̂₀ (0) and Bλ₁ = 3/2 off J₁: ε = 3/2 − 1 = 1/2 (the clipped term counts when
    positive, whatever its size)."""
    eps, *_ = kkt.residuals(_sysm(B2), _point(1, [1, 1], [2, 2]), [_q(1), _q("3/4")], {0})
    assert _near(eps, Fraction(1, 2))


def test_exact_kkt_rows_with_entries_other_than_one_and_the_off_bound():
    """B = ((2, 1), (1, 2)), β = (1/3, 1/3), λ = (1/3, 1/3): margins (1, 1), Bλ = (1, 1) — all holding; with
    β = (1/2, 0), λ = (1/2, 0): Bλ = (1, 1/2); β = (1, 0), λ = (0, 3/4): Bλ = (3/4, 3/2): off the support 3/2 > 1."""
    res = _res([[2, 1], [1, 2]])
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(1, 3)] * 2, [Fraction(1, 3)] * 2))
    assert vals == [1, Fraction(1, 3), 0, 0, 0, 0] and dec == [True] * 6
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(1, 2), Fraction(0)], [Fraction(1, 2), Fraction(0)]))
    assert vals[2:4] == [0, Fraction(1, 2)]
    vals, dec = _vals(kkt.exact_kkt(res, [Fraction(1), Fraction(0)], [Fraction(0), Fraction(3, 4)]))
    assert vals[2:4] == [Fraction(1, 4), Fraction(3, 2)] and dec[3] is False


def test_support_drift_divides_the_last_record_by_its_mu():
    """β̂ = β/µ at both ends: β (2, ·) at µ = 2 and (12, ·) at µ = 4 → |ln 3 − ln 1| = ln 3."""
    rows = _rows([[1]] * 2, betas=[[2, 1], [12, 1]], mus=[2, 4])
    assert abs(kkt.support_drift(rows, [0]) - math.log(3)) < 1e-12
