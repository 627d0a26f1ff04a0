"""verify.kit.cone_scan (mutation tests): the probe levels (μ·DEFAULT_LEVELS, the radius-adapted angles with
θ²/2 ≤ μ, the extra levels ≤ μ), the probe-point counts (rings only at the outer levels, one ray point at m = 0, the
flat case), every quantity at a probe point against an independent mpmath evaluation of the softmax, the gradient
and the spherical-cap extremes (two inputs, ‖p^mm‖ = 2 so that no normalisation is invisible), C' and m_μ; the
selection of points by radius, the Tallies (scope, relation, bound), the L3 comparison on both sides of the
denominator's sign, the deciders, the witness and the existential parts, the deepest failure and the asymptotic item
it feeds, L2 compactness, ``scan_radii`` and ``deep_limits`` (stand-ins for the margin rates, a closed form)."""
import math
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import pytest
from flint import arb

from verify import Dataset
from verify.claims import Tally
from verify.geometry.cones import DEFAULT_LEVELS, cone_directions, lmm_geometry, unit
from verify.kit import cone_scan as S
from verify.kit.cone_scan import ADAPTIVE, LADDER, ConeScan, _levels, deep_limits, scan_radii
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 40
LOGISTIC = get_loss("logistic")
# two copies of Fig. 1(b)'s keys halved (p^mm = (2, 0, 0), ‖p^mm‖² = 4), α = token 1 in both; scores (1, 0.9, 0.1)
# and (2, 0.9, 0.1): Γ = 0.9 and 1.9, so C' is decided by input 1
KEYS = [["-0.05", "0.5", 0], ["0.5", 0, 0], [0, 0, 0]]
HALF = Dataset.make(X=[[[0, 0, 1], [0, 0, "0.9"], [0, 0, "0.1"]], [[0, 0, 2], [0, 0, "0.9"], [0, 0, "0.1"]]], Y=[1, 1],
                    v=[0, 0, 1], K=[KEYS, KEYS], name="half")
FLAT = Dataset.make(X=[[[1], [0]]], Y=[1], v=[1], K=[[[1], [0]]], name="flat")
MU = Fraction(1, 400)


@pytest.fixture
def scan():
    """Built per test (cheap): mutmut attributes a function to the tests that call it, so a module-scoped fixture would
    credit ConeScan's construction to the first test only."""
    with working_precision(30):
        g = lmm_geometry(HALF, (1, 1))
        yield g, ConeScan(HALF, g, MU, [Fraction(1), Fraction(10)], LOGISTIC, pis=(Fraction(1, 100),))


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


def _mp(x):
    return mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator


def _ref(p, d1=lambda u: -1 / (1 + mpmath.exp(u))):
    """(−∇L(p), mean_i Σ_{t≠α} s_it) for HALF at p (mpmath): ∇L = (1/n)Σ_i ℓ'(φ_i) Σ_t s_it(γ_it − φ_i) k_t,
    ℓ'(u) = −1/(1 + e^u), φ_i = Σ_t s_it γ_it."""
    keys = [[_mp(x) for x in k] for k in KEYS]
    w, mean = [mpmath.mpf(0)] * 3, mpmath.mpf(0)
    for gam in ([1, "0.9", "0.1"], [2, "0.9", "0.1"]):
        gam = [mpmath.mpf(x) for x in gam]
        z = [mpmath.fsum(a * b for a, b in zip(k, p)) for k in keys]
        e = [mpmath.exp(x - max(z)) for x in z]
        s = [x / mpmath.fsum(e) for x in e]
        phi = mpmath.fsum(a * b for a, b in zip(s, gam))
        lp = d1(phi)
        for j in range(3):
            w[j] -= lp * mpmath.fsum(s[t] * (gam[t] - phi) * keys[t][j] for t in range(3)) / 2
        mean += (s[0] + s[2]) / 2
    return w, mean


def _close(a: arb, b, tol=1e-25) -> bool:
    return abs(mpmath.mpf(a.mid().str(40, radius=False)) - b) < tol * max(1, abs(b))


def _pt(pts, m, k):
    return next(pt for pt in pts if pt["m"] == m and pt["k"] == k)


def test_ladders():
    assert LADDER[0] == 1 and LADDER[-1] == 10**8 and len(LADDER) == 19
    assert ADAPTIVE == tuple(Fraction(x) for x in ("0.03", "0.1", "0.3", "1", "3", "10", "30"))


def test_levels():
    """μ = 1/100, r = 10, A = 1: θ = x/10 adds θ²/2 = 4.5e−6, 5e−5, 4.5e−4, 5e−3 (the others exceed μ); extra levels
    ≤ μ are added, larger ones not; sorted from the widest."""
    mu = Fraction(1, 100)
    base = {mu * f for f in DEFAULT_LEVELS}
    added = {Fraction(9, 2 * 10**6), Fraction(5, 10**5), Fraction(45, 10**5), Fraction(5, 10**3)}
    assert _levels(mu, Fraction(10), 1.0) == sorted(base | added, reverse=True)
    assert _levels(mu, Fraction(10), 1.0, (mu / 3, 2 * mu, mu)) == sorted(base | added | {mu / 3}, reverse=True)
    # A = 2 halves θ: θ²/2 = x²/800
    got = set(_levels(mu, Fraction(10), 2.0)) - base
    assert got == {x * x / 800 for x in ADAPTIVE if x * x / 800 <= mu}
    # θ²/2 = μ exactly (x = 1, r = 10, A = 1, μ = 1/200) is kept: it is μ itself
    assert _levels(Fraction(1, 200), Fraction(10), 1.0)[0] == Fraction(1, 200)


def test_argmax_argmin_by_midpoint():
    vals = [arb(2), arb(3, 5), arb(1)]
    assert S._argmax(vals) is vals[1] and S._argmin(vals) is vals[2]
    vals = [arb(1), arb(0, 5)]   # overlapping balls: by midpoint, not by a certain comparison
    assert S._argmin(vals) is vals[1]
    vals = [arb(1), arb(2, 5)]
    assert S._argmax(vals) is vals[1]


def test_constants(scan):
    """C' = M₁ max_i Γ_i A_i = 1 · 1.9 · ‖(0.55, −0.5, 0)‖ (logistic M₁ = 1; Γ = 1.9 on input 1); m_μ =
    min(0.55·2/2 − ‖(0.55, −0.5)‖√(2μ), 0.5·2/2 − 0.5√(2μ))."""
    g, sc = scan
    a = mpmath.sqrt(_mp("0.55") ** 2 + _mp("0.5") ** 2)
    assert _close(sc.Cp, _mp("1.9") * a)
    s2mu = mpmath.sqrt(2 * _mp(MU))
    assert _close(sc.m_mu, min(_mp("0.55") - a * s2mu, _mp("0.5") - _mp("0.5") * s2mu))
    assert _close(sc.nrm, 2) and not sc.flat and len(sc.dirs) == len(cone_directions(g))


def test_point_counts(scan):
    """Per radius: one point at m = 0 and one per direction at every other level (no ring: the keys span 2 of 3
    dimensions)."""
    g, sc = scan
    amax = float(max(sum(x * x for x in row) for row in g.rows.values())) ** 0.5
    for r, pts in zip(sc.radii, sc.points):
        lv = _levels(MU, r, amax)
        assert len(pts) == (len(lv) - 1) * len(sc.dirs) + 1
        assert [pt["r"] for pt in pts] == [r] * len(pts)
        assert sorted({pt["m"] for pt in pts}, reverse=True) == lv
        assert [pt["k"] for pt in pts if pt["m"] == 0] == [0]


@pytest.mark.parametrize("m,k,ri", [(MU, 0, 1), (Fraction(0), 0, 1), (MU * Fraction("0.25"), 1, 0)])
def test_quantities_at_a_point(scan, m, k, ri):
    """Each quantity at p = r((1−m)p̄^mm + √(m(2−m))u_k) against the mpmath reference: l1 = ⟨w, p^mm⟩/mean,
    den = ⟨w, p̄^mm⟩, num = ⟨w, (1−m)p̄^mm + √(m(2−m))u⟩, gn = ‖∇L‖/mean, l2 = ‖p^mm‖·(cap extremes of ⟨w, q̂⟩)/mean
    (the cap corr ≥ 1 − μ around p̄^mm: w/‖w‖ outside it here, so (1−μ)w∥ ± √(μ(2−μ))w⊥), c31 =
    ‖∇L‖e^{m_μ r}/(C'(T−1))."""
    g, sc = scan
    r = sc.radii[ri]
    pt = _pt(sc.points[ri], m, k)
    u = [_mp(0)] * 3 if m == 0 else [mpmath.mpf(x.mid().str(45, radius=False)) for x in unit(cone_directions(g)[k])]
    mm = _mp(m)
    c, s = 1 - mm, mpmath.sqrt(mm * (2 - mm))
    q = [c * a + s * b for a, b in zip([1, 0, 0], u)]
    w, mean = _ref([_mp(r) * x for x in q])
    assert _close(pt["l1"], 2 * w[0] / mean)
    assert _close(pt["den"], w[0]) and _close(pt["num"], mpmath.fsum(a * b for a, b in zip(w, q)))
    gn = mpmath.sqrt(mpmath.fsum(x * x for x in w))
    assert _close(pt["gn"], gn / mean)
    wperp = mpmath.sqrt(w[1] ** 2 + w[2] ** 2)
    cm, sm = 1 - _mp(MU), mpmath.sqrt(_mp(MU) * (2 - _mp(MU)))
    assert w[0] / gn < cm   # w outside the cap: the extremes are on its edge
    assert _close(pt["l2lo"], 2 * (cm * w[0] - sm * wperp) / mean)
    assert _close(pt["l2hi"], 2 * (cm * w[0] + sm * wperp) / mean)
    m_mu = mpmath.mpf(sc.m_mu.mid().str(45, radius=False))
    Cp = mpmath.mpf(sc.Cp.mid().str(45, radius=False))
    assert _close(pt["c31"], gn * mpmath.exp(m_mu * _mp(r)) / (Cp * 2), 1e-20)
    assert (pt["m"], pt["k"], pt["r"]) == (m, k, r)
    assert ConeScan.where(pt).startswith(f"‖p‖ = {float(r):g}, ") and pt["where"].endswith(f"direction {k}")


def test_the_scan_uses_its_loss():
    """The exponential loss: ℓ'(u) = −e^{−u}, M₁ = e^B (B = 2): l1 at p = 10·p̄^mm and C' = e²·1.9·‖(0.55, −0.5)‖."""
    g = lmm_geometry(HALF, (1, 1))
    sc = ConeScan(HALF, g, MU, [Fraction(10)], get_loss("exponential"))
    w, mean = _ref([_mp(10), 0, 0], lambda u: -mpmath.exp(-u))
    assert _close(_pt(sc.points[0], Fraction(0), 0)["l1"], 2 * w[0] / mean)
    assert _close(sc.Cp, mpmath.exp(2) * _mp("1.9") * mpmath.sqrt(_mp("0.55") ** 2 + _mp("0.5") ** 2))


def test_no_c31_without_a_positive_selection_rate():
    """μ = 1/4: m_μ = 0.5 − 0.5·√(1/2) > 0 still; μ = 0.49: m_μ = min(0.55 − 0.743·0.99, …) < 0 → no c31."""
    g = lmm_geometry(HALF, (1, 1))
    sc = ConeScan(HALF, g, Fraction(49, 100), [Fraction(1)], LOGISTIC)
    assert sc.m_mu < 0 and all("c31" not in pt for pt in sc.points[0])
    assert all("c31" in pt for pt in ConeScan(HALF, g, MU, [Fraction(1)], LOGISTIC).points[0])
    # m_μ = 1 − 1·√(2μ) = 0 exactly at μ = 1/2 (the flat data: one row (1), ‖p^mm‖ = 1): not > 0, no c31
    flat = ConeScan(FLAT, lmm_geometry(FLAT, (0,)), Fraction(1, 2), [Fraction(1)], LOGISTIC)
    assert flat.m_mu == 0 and all("c31" not in pt for pt in flat.points[0])


def test_extra_levels_are_probed():
    g = lmm_geometry(HALF, (1, 1))
    sc = ConeScan(HALF, g, MU, [Fraction(1)], LOGISTIC, levels=(MU / 3,))
    assert any(pt["m"] == MU / 3 for pt in sc.points[0])


def test_flat_keys_probe_only_the_ray():
    """d = 1: no direction ⊥ p^mm: one point per radius, at m = 0, on the ray."""
    g = lmm_geometry(FLAT, (0,))
    sc = ConeScan(FLAT, g, MU, [Fraction(1), Fraction(2)], LOGISTIC)
    assert sc.flat and [len(p) for p in sc.points] == [1, 1] and sc.points[0][0]["m"] == 0
    assert len(sc.dirs) == 1


def test_rings_at_the_outer_levels():
    """Keys spanning 3 dimensions: 36-direction circles are added at the levels μ, μ/2 and μ/4 (μ/2 only when it is a
    level: given as an extra one here), not at the others (μ/3, an extra level too)."""
    d3 = Dataset.make(X=[[[0, 0, 1], [0, 0, "0.5"], [0, 0, "0.5"], [0, 0, 0]]], Y=[1], v=[0, 0, 1],
                      K=[[[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]])
    g = lmm_geometry(d3, (0,))
    mu = Fraction(1, 100)
    sc = ConeScan(d3, g, mu, [Fraction(1)], LOGISTIC, levels=(mu / 2, mu / 3))
    nd = len(cone_directions(g))
    ring = len(sc.dirs) - nd
    assert ring == 36
    per = {}
    for pt in sc.points[0]:
        per[pt["m"]] = per.get(pt["m"], 0) + 1
    assert per[mu] == nd + ring and per[mu / 4] == nd + ring and per[Fraction(0)] == 1
    assert per[mu * Fraction("0.8")] == nd and per[mu / 2] == nd + ring and per[mu / 3] == nd


# ----- helpers on a hand-made scan -----------------------------------------------------------------------------------
def _fake(radii, points, **kw):
    sc = ConeScan.__new__(ConeScan)
    sc.radii, sc.points = list(radii), points
    for k, v in kw.items():
        setattr(sc, k, v)
    return sc


def _p(r, **q):
    return {"r": r, "where": f"at {r}", **{k: (v if isinstance(v, arb) else to_arb(Fraction(v))) for k, v in q.items()}}


def test_select_scopes():
    sc = _fake([1, 10, 100], [[_p(1)], [_p(10)], [_p(100)]])
    assert [pt["r"] for pt in sc.select()] == [1, 10, 100]
    assert [pt["r"] for pt in sc.select(10)] == [10, 100]
    assert [pt["r"] for pt in sc.select(to_r=10)] == [1, 10]
    assert [pt["r"] for pt in sc.select(10, 10)] == [10]
    assert ConeScan.where({"where": "w"}) == "w"


def test_tally_counts_the_points_with_the_key_from_a_radius():
    sc = _fake([1, 10], [[_p(1, a=-1)], [_p(10, a=2), _p(10)]])
    e = sc.tally("Q", "a", ">", 0)
    assert e.coverage.points == 1 + 1 and e.decide() is False
    e = sc.tally("Q", "a", ">", 0, from_r=10, note="n")
    assert e.coverage.points == 1 and e.decide() is True and e.note.startswith("n; ")
    assert sc.tally("Q", "a", ">=", 2, from_r=10).decide() is True


def test_l3_add_on_both_sides_of_the_denominator():
    """den > 0: num/den ≤ 1 + π (3/2 ≤ 3/2 holds, 1.6/1 fails); den ≤ 0: num ≤ (1 + π)·den (−3 ≤ −3 holds, −2.9 fails;
    den = 0: num = 0 holds, num = 1/10 fails)."""
    sc = _fake([1], [[]])
    pi = Fraction(1, 2)
    cases = [((3, 2), True), ((Fraction(8, 5), 1), False), ((-3, -2), True), ((Fraction(-29, 10), -2), False),
             ((0, 0), True), ((Fraction(1, 10), 0), False), ((-4, -2), True)]
    for (num, den), want in cases:
        t = Tally("Q", "<=", 1 + to_arb(pi))
        assert sc.l3_add(t, _p(1, num=num, den=den), pi) is want, (num, den)
        assert sc.l3_decider(pi)(_p(1, num=num, den=den)) is want, (num, den)
    assert sc.l3_decider(pi)(_p(1, num=arb(1.5, 0.125), den=1)) is None
    assert sc.l3_decider(pi)(_p(1, num=arb(0, 1), den=0)) is None


def test_l3_add_passes_its_own_bound_and_names_the_point():
    """The Tally's own bound (0 here) is not used: the ratio is compared with 1 + π; den = 1/2, num = 1/2: the value
    kept is the ratio 1, not num; a failure names the point."""
    sc = _fake([1], [[]])
    t = Tally("Q", "<=", 0)
    assert sc.l3_add(t, _p(1, num=Fraction(1, 2), den=Fraction(1, 2)), Fraction(1, 2)) is True
    assert t.worst_value == 1
    t = Tally("Q", "<=", 0)
    assert sc.l3_add(t, _p(1, num=-1, den=-1), Fraction(1, 2)) is False   # −1 ≤ (3/2)(−1) fails (≤ 0 would hold)
    t = Tally("Q", "<=", 0)
    assert sc.l3_add(t, _p(7, num=3, den=1), Fraction(1, 2)) is False and t.coverage.first_violation == "at 7"
    t = Tally("Q", "<=", 0)
    assert sc.l3_add(t, _p(8, num=1, den=0), Fraction(1, 2)) is False and t.coverage.first_violation == "at 8"


def test_l3_tally_without_points_keeps_its_bound():
    sc = _fake([1], [[_p(1, num=1, den=1)]])
    e = sc.l3_tally("Q", Fraction(1, 4), from_r=2)
    assert e.coverage.points == 0 and abs(e.bound - to_arb(Fraction(5, 4))) < arb(10) ** -25


def test_figures():
    """L3: log10(sup ρ − 1) over the points with den > 0 (ρ = num/den: 3/2 and 11/10 → 1/2, den = 0 left out; a radius with only
    den ≤ 0 → None); L2: min l2lo, max l2hi, min l1 per radius, styles -o, -s, -^; π lines."""
    pts = [[_p(1, num=5, den=0, l2lo=1, l2hi=4, l1=2), _p(1, num=3, den=2, l2lo=1, l2hi=4, l1=2),
            _p(1, num=Fraction(11, 10), den=1, l2lo=2, l2hi=3, l1=1)],
           [_p(10, num=5, den=-1, l2lo=Fraction(1, 2), l2hi=5, l1=3), _p(10, num=5, den=0, l2lo=1, l2hi=6, l1=4)],
           [_p(100, num=Fraction(1001, 1000), den=Fraction(1, 2), l2lo=1, l2hi=1, l1=1)]]
    sc = _fake([1, 10, 100], pts, pis=(Fraction(1, 100),))
    l3, l2 = sc.figures()
    y = l3.series[0].y
    assert abs(y[0] - math.log10(0.5)) < 1e-12 and y[1] is None and abs(y[2] - math.log10(1.002)) < 1e-12
    assert l3.series[0].x == [1.0, 10.0, 100.0] and l3.hlines[0][0] == -2
    lo, hi, l1 = l2.series
    assert lo.y == [1.0, 0.5, 1.0] and hi.y == [4.0, 6.0, 1.0] and l1.y == [1.0, 3.0, 1.0]
    assert [s.style for s in l2.series] == ["-o", "-s", "-^"]
    assert lo.label.startswith("inf") and hi.label.startswith("sup") and l1.label.startswith("q = p^mm")


def test_l3_tally():
    sc = _fake([1, 10], [[_p(1, num=5, den=1)], [_p(10, num=1, den=1), _p(10, num=-2, den=-1)]])
    e = sc.l3_tally("Q", Fraction(1, 10))
    assert e.coverage.points == 3 and e.decide() is False and e.relation == "<="
    e = sc.l3_tally("Q", Fraction(1, 10), from_r=10, note="n")
    assert e.coverage.points == 2 and e.decide() is True
    assert abs(e.bound - to_arb(Fraction(11, 10))) < arb(10) ** -25


def test_positive_and_radius_decision():
    pos = ConeScan.positive("a")
    assert [pos(_p(1, a=x)) for x in (1, 0, -1)] == [True, False, False] and pos(_p(1, a=arb(0, 0.5))) is None
    sc = _fake([1, 10, 100], [[_p(1, a=1), _p(1, a=-1)], [_p(10, a=1), _p(10, a=arb(0, 1))], [_p(100, a=1)]])
    assert [sc.radius_decision(r, pos) for r in (1, 10, 100)] == [False, None, True]
    sc2 = _fake([1], [[_p(1, a=arb(0, 1)), _p(1, a=-1)]])
    assert sc2.radius_decision(1, pos) is False


def test_witness_and_existential():
    """Witness: the smallest radius from which every deeper radius holds (100 here: 10 undecided); the existential
    part with R given adds only tally(R); without, the rule item and tally(witness)."""
    pos = ConeScan.positive("a")
    sc = _fake([1, 10, 100, 1000], [[_p(1, a=1)], [_p(10, a=arb(0, 1))], [_p(100, a=1)], [_p(1000, a=2)]])
    R, item = sc.witness(pos, "N")
    assert R == 100 and item.value == 100 and item.decide() is True and "for N" in item.quantity
    added = []
    out = SimpleNamespace(add=lambda *x: added.extend(x))
    asked = []
    assert sc.existential(out, "N", pos, lambda r: asked.append(r) or "T", R=10) == 10
    assert added == ["T"] and asked == [10]
    added.clear()
    assert sc.existential(out, "N", pos, lambda r: asked.append(r) or "T") == 100
    assert len(added) == 2 and added[0].decide() is True and added[1] == "T" and asked[-1] == 100
    assert "witness R for N (" in added[0].quantity
    bad = _fake([1, 10], [[_p(1, a=1)], [_p(10, a=-1)]])
    added.clear()
    assert bad.existential(out, "N", pos, lambda r: "T") is None
    assert len(added) == 1 and added[0].decide() is None


def test_deepest_failure_and_the_l1_limit(monkeypatch):
    """At the deepest radius the failing point of smallest l1 (−3, not −1, not the passing 2); none → None. The L1
    limit asks the leading term along that point's direction at unit norm, v = p^mm."""
    pos = ConeScan.positive("l1")
    pts = [_p(5, l1=2, m=0, k=0), _p(5, l1=-1, m=0, k=1), _p(5, l1=-3, m=Fraction(1, 4), k=1)]
    for pt, m, k in zip(pts, (0, 0, Fraction(1, 4)), (0, 1, 1)):
        pt["m"], pt["k"] = m, k
    sc = _fake([1, 5], [[_p(1, l1=-9)], pts], pbar=[arb(1), arb(0)], pmm=[arb(2), arb(0)],
               dirs=[[arb(0), arb(1)], [arb(0), arb(-1)]])
    assert sc.deepest_failure(pos, "l1") is pts[2]
    assert _fake([1], [[_p(1, l1=1)]]).deepest_failure(pos, "l1") is None
    seen = []
    monkeypatch.setattr(S, "asymptotic_evidence", lambda q, g, qbar, v, loss, where: seen.append((g, qbar, v, loss,
                                                                                                  where, q)) or "E")
    assert sc.l1_limit("G", "L") == "E"
    g, qbar, v, loss, where, quantity = seen[0]
    assert quantity.startswith("L1 as ‖p‖ → ∞")
    assert g == "G" and loss == "L" and v is sc.pmm and where == "at 5"
    # (1 − 1/4)(1, 0) + √(1/4 · 7/4)(0, −1)
    assert abs(qbar[0] - arb(3) / 4) < arb(10) ** -25 and abs(qbar[1] + arb(7).sqrt() / 4) < arb(10) ** -25


def test_compactness():
    """No R_deep or R_deep beyond the deepest radius: a note, nothing added. Otherwise min l2lo ≥ c_lim and
    max l2hi ≤ C_lim by ``rules.near_limit`` over the points from R_deep (the radius-1 values 0 and 9 are left out)."""
    pts = [[_p(1, l2lo=0, l2hi=9)], [_p(10, l2lo=2, l2hi=3)], [_p(100, l2lo=Fraction(5, 2), l2hi=4)]]
    sc = _fake([1, 10, 100], pts)
    added, notes = [], []
    out = SimpleNamespace(add=lambda *x: added.extend(x), notes=notes)
    sc.compactness(out, None, 1, 5)
    sc.compactness(out, Fraction(101), 1, 5)
    assert len(notes) == 2 and not added and all("R_deep" in x for x in notes)
    sc.compactness(out, Fraction(100), 1, 5)
    sc.compactness(out, Fraction(5), 1, 5)
    assert len(added) == 4
    lo, hi = added[2], added[3]
    assert lo.value == 2 and hi.value == 4 and lo.relation == ">=" and hi.relation == "<="
    assert lo.bound == 1 and hi.bound == 5 and lo.decide() is True and hi.decide() is True
    assert added[0].value == to_arb(Fraction(5, 2)) and "1 of 1" in added[0].rule.detail
    sc.compactness(out, Fraction(5), 3, Fraction(7, 2))
    assert added[4].decide() is False and added[5].decide() is False
    assert ", 2 certainly outside" in added[4].rule.detail and "1 of 2 value(s) certainly inside, 1 certainly outside" in added[5].rule.detail
    # R_deep below the first radius: every point
    sc.compactness(out, Fraction(1, 2), -1, 10)
    assert added[6].value == 0 and added[7].value == 9


def test_scan_radii():
    """σ = 2 on the ladder (1, 5): radii 2, 10; R_deep = 30 beyond it is appended, R_deep = 10 or 5 is not; given
    radii replace the ladder (sorted); with R: R and the radii from R on."""
    assert scan_radii(2, (1, 5)) == [2, 10]
    assert scan_radii(2, (1, 5), r_deep=Fraction(30)) == [2, 10, 30]
    assert scan_radii(2, (1, 5), r_deep=Fraction(10)) == [2, 10]
    assert scan_radii(2, (1, 5), r_deep=Fraction(5)) == [2, 10]
    assert scan_radii(2, (1, 5), radii=[7, 3]) == [3, 7]
    assert scan_radii(2, (1, 5, 20), r_deep=Fraction(30)) == [2, 10, 40]   # 30 < 40: not appended
    assert scan_radii(2, (1, 5, 20), R=10) == [10, 40]
    assert scan_radii(2, (1, 5, 20), R=Fraction(7)) == [7, 10, 40]
    assert scan_radii(2, (1, 5, 20), r_deep=Fraction(50), R=1) == [1, 2, 10, 40, 50]
    assert all(isinstance(x, Fraction) for x in scan_radii(2, (1,)))


# ----- deep_limits -------------------------------------------------------------------------------------------------
def _dl_geom(scale=1):
    rows = {(0, 0): (Fraction(11, 10) * scale, -1 * scale, 0), (0, 2): (1 * scale, 0, 0)}
    scores = ((1, Fraction(9, 10), 0),)
    return SimpleNamespace(alpha=(1,), rows=rows, scores=scores, norm_sq=Fraction(4),
                           neighbour_pairs=lambda: [(0, 2)], score_gap=lambda i, t: scores[i][1] - scores[i][t])


def _dl(monkeypatch, gap, rate, scale=1, mu=Fraction(1, 50), row=(3, Fraction(9, 10), Fraction(1, 2))):
    geom = _dl_geom(scale)
    monkeypatch.setattr(S, "order_gap", lambda g, m: gap if g is geom and m == mu else 1 / 0)
    monkeypatch.setattr(S, "selection_rate", lambda g, m: to_arb(Fraction(rate)) if g is geom and m == mu else 1 / 0)
    # the data's score row (for W_max) spans [1/2, 3]: Γ = 5/2 and |ℓ'(1/2)| (the geometry's scores give the weights)
    data = SimpleNamespace(n=1, T=3, scores=(row,))
    return deep_limits(data, geom, mu, LOGISTIC)


def _dl_ref(rate, scale=1, mu=Fraction(1, 50), low="0.5", spread="2.5"):
    w = _mp("0.9") / (1 + mpmath.exp(_mp("0.9")))
    eps = scale * 2 * mpmath.sqrt(2 * _mp(mu))   # ‖row‖ · ‖p^mm‖ · √(2μ)
    heavy = 1 / (1 + mpmath.exp(_mp(low))) * _mp(spread) * scale * mpmath.sqrt(_mp("2.21"))
    extra = max(0, mpmath.log(heavy / w) + mpmath.log(3))
    return int((30 + extra) / rate) + 1, w * (1 - eps), w * (1 + eps)


def test_deep_limits_closed_form(monkeypatch):
    """rate = min(g_μ, m_μ) = 1/4 (g_μ = 1/2) or 1/8 (g_μ = 1/8 < m_μ): R_deep = ⌊(30 + ln(W_max/w_min) + ln(nT))/rate⌋
    + 1 with W_max = |ℓ'(1/2)|·(5/2)·‖(1.1, −1)‖, w_min = |ℓ'(0.9)|·0.9; c_lim, C_lim = w_min(1 ∓ ‖row‖‖p^mm‖√(2μ))."""
    r, c, C = _dl(monkeypatch, arb(1) / 2, Fraction(1, 4))
    rr, cc, CC = _dl_ref(Fraction(1, 4))
    assert r == rr and _close(c, cc) and _close(C, CC)
    r, _, _ = _dl(monkeypatch, arb(1) / 8, Fraction(1, 4))
    assert r == _dl_ref(Fraction(1, 8))[0]
    r, _, _ = _dl(monkeypatch, None, Fraction(1, 5))
    assert r == _dl_ref(Fraction(1, 5))[0]
    # the score row (1, 0.9, 0): W_max = |ℓ'(0)|·1·‖(1.1, −1)‖ = 0.743 < 1 (still > 0: the extra depth counts)
    r, _, _ = _dl(monkeypatch, None, Fraction(1, 4), row=(1, Fraction(9, 10), 0))
    assert r == _dl_ref(Fraction(1, 4), low="0", spread="1")[0] > 121


def test_deep_limits_extra_depth_is_never_negative(monkeypatch):
    """Keys scaled by 1/100: ln(W_max/w_min) + ln 3 < 0, so R_deep = ⌊30/rate⌋ + 1 = 121 at rate 1/4."""
    r, c, C = _dl(monkeypatch, None, Fraction(1, 4), scale=Fraction(1, 100))
    assert r == 121 == _dl_ref(Fraction(1, 4), Fraction(1, 100))[0]
    rr, cc, CC = _dl_ref(Fraction(1, 4), Fraction(1, 100))
    assert _close(c, cc) and _close(C, CC)


def test_deep_limits_without_a_rate_or_neighbours(monkeypatch):
    r, c, C = _dl(monkeypatch, arb(-1), Fraction(1, 4))
    assert r is None and _close(c, _dl_ref(1)[1]) and _close(C, _dl_ref(1)[2])
    r, c, C = _dl(monkeypatch, None, 0)
    assert r is None and c is not None
    monkeypatch.setattr(S, "order_gap", lambda g, m: None)
    monkeypatch.setattr(S, "selection_rate", lambda g, m: arb(1))
    g = _dl_geom()
    g.neighbour_pairs = lambda: []
    assert deep_limits(SimpleNamespace(n=1, T=3, scores=g.scores), g, Fraction(1, 50), LOGISTIC) == (None, None, None)


def test_deep_limits_zero_weight(monkeypatch):
    """A neighbour of score gap 0 has weight 0: not certainly positive → no R_deep."""
    monkeypatch.setattr(S, "order_gap", lambda g, m: None)
    monkeypatch.setattr(S, "selection_rate", lambda g, m: arb(1))
    g = _dl_geom()
    g.score_gap = lambda i, t: 0
    r, c, C = deep_limits(SimpleNamespace(n=1, T=3, scores=g.scores), g, Fraction(1, 50), LOGISTIC)
    assert r is None and c == 0
