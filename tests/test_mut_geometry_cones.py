"""Fast unit tests pinning verify.geometry.cones (mutation testing, issue 21).

The workhorse is mmts Fig. 1(b): one sequence, keys k0 = (−1/10, 1, 0), k1 = (1, 0, 0), k2 = 0, scores 1, 9/10, 0.
For α = 1 the ATT-SVM constraints are (11/10, −1, 0)ᵀp ≥ 1 and (1, 0, 0)ᵀp ≥ 1; p = (1, 0, 0) meets the second with
equality and the first with margin 11/10, and no shorter p meets (1,0,0)ᵀp ≥ 1, so p^mm = e1, T = {2}, T̄ = {0},
δ = 1/10. Every expected number below is derived by hand from these (see each docstring)."""
from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from flint import arb

from verify.data.dataset import Dataset
from verify.data.mmts import mmts_fig1a, mmts_fig1b
from verify.errors import UsageError
from verify.geometry import cones as C
from verify.numbers.precision import to_arb as A
from verify.numbers.precision import working_precision

PREC = 30


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Empty the geometry caches before each test: a cached geometry would hide the code under test (a mutant
    of ``lmm_geometry`` is never executed when an earlier run already filled the cache)."""
    C._GEOMETRY_CACHE.clear()
    C._LMM_CACHE.clear()


def _near(x, expected, tol=1e-25):
    x = A(x)
    return abs(float((x - A(expected)).mid())) < tol and float(x.rad()) < 1e-20


def _fig1b(alpha=(1,)):
    return C.lmm_geometry(mmts_fig1b(), alpha)


def _two_inputs():
    """n = 2, T = 3, keys in the plane: both sequences select token 1 = (1, 0) over 0 and a far token 2.

    Sequence 0: k = (0,0), (1,0), (−1/2, 3) with scores 1, 9/10, 0 (via x₃); sequence 1: k = (0,0), (1,0), (3,1)."""
    X = [[[0, 0, 1], [1, 0, "0.9"], ["-0.5", 3, 0]], [[0, 0, 1], [1, 0, "0.9"], [3, 1, 0]]]
    K = [[[t[0], t[1], 0] for t in seq] for seq in X]
    return Dataset.make(X=X, Y=[1, 1], v=[0, 0, 1], K=K, name="two-inputs")


def _full_3d():
    """n = 1, T = 4, keys spanning 3-D: k0 = 0 (selected, score 1), k1 = −e1, k2 = −e2, k3 = −e3 (scores 0)."""
    X = [[[0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0], [0, 0, -1, 0]]]
    K = [[[t[0], t[1], t[2], 0] for t in seq] for seq in X]
    return Dataset.make(X=X, Y=[1], v=[0, 0, 0, 1], K=K, name="full-3d")


def _line():
    """d = 1: keys 1 and 0 (score 1 and 0): p^mm = (1,), no direction ⊥ p^mm."""
    return Dataset.make(X=[[[1], [0]]], Y=[1], v=[1], name="line")


# ----- lmm_geometry -------------------------------------------------------------------------------
def test_lmm_geometry_fig1b_non_global_lmm():
    """p^mm = e1, T_0 = [2], T̄_0 = [0], margins 11/10 and 1, rows k1 − k_t, |p|² = 1, locally optimal, not GMM."""
    g = _fig1b()
    assert g.feasible and g.locally_optimal and not g.is_gmm
    assert g.alpha == (1,) and g.n == 1
    assert g.p_mm == (1, 0, 0) and g.norm_sq == 1
    assert g.neighbours == {0: [2]} and g.non_neighbours == {0: [0]}
    assert g.margins == {(0, 0): F(11, 10), (0, 2): F(1)}
    assert g.rows == {(0, 0): (F(11, 10), F(-1), F(0)), (0, 2): (F(1), F(0), F(0))}
    assert g.delta(0, 0) == F(1, 10) and g.delta(0, 2) == 0
    assert g.neighbour_pairs() == [(0, 2)] and g.non_neighbour_pairs() == [(0, 0)]
    assert g.score_gap(0, 2) == F(9, 10) and g.score_gap(0, 0) == F(-1, 10)
    assert g.scores == ((1, F(9, 10), 0),)
    assert "strictly smaller" in g.reason


def test_lmm_geometry_fig1b_gmm():
    """α = 0: only (−1/10, 1)ᵀp ≥ 1 is active, p = (−10, 100, 0)/101; the other margin is 111/101."""
    g = C.lmm_geometry(mmts_fig1b(), [0])
    assert g.is_gmm and g.locally_optimal
    assert g.p_mm == (F(-10, 101), F(100, 101), 0)
    assert g.norm_sq == F(100 + 10000, 101 ** 2)
    assert g.neighbours == {0: [2]} and g.non_neighbours == {0: [1]}
    assert g.margins[(0, 1)] == F(111, 101)


def test_lmm_geometry_higher_score_neighbour_is_not_locally_optimal():
    """α = 2 (score 0): both other tokens score more; the active neighbour makes it not locally optimal."""
    g = C.lmm_geometry(mmts_fig1b(), (2,))
    assert g.feasible and not g.locally_optimal and not g.is_gmm
    t = g.neighbour_pairs()[0][1]
    assert f"token {t}" in g.reason and "not locally optimal" in g.reason


def test_lmm_geometry_tied_score_neighbour_is_not_locally_optimal():
    """A neighbour whose score EQUALS γ_α is not allowed (Definition 2 needs <): keys 1 and 0, both scores 1."""
    data = Dataset.make(X=[[[1, 1], [0, 1]]], Y=[1], v=[0, 1], K=[[[1, 0], [0, 0]]], name="tied")
    g = C.lmm_geometry(data, (0,))
    assert g.feasible and g.neighbours == {0: [1]}
    assert not g.locally_optimal
    # the selected token is optimal but tied: not the GMM either (opt has two tokens)
    assert not g.is_gmm


def test_lmm_geometry_infeasible():
    """Two identical keys: (k0 − k1)ᵀp = 0 ≥ 1 is impossible."""
    data = Dataset.make(X=[[[1, 0, 1], [1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [1, 0, 0]]], name="dup")
    g = C.lmm_geometry(data, (0,))
    assert not g.feasible and not g.locally_optimal
    assert g.is_gmm and g.p_mm is None and g.svm is not None
    assert g.scores == data.scores
    assert "infeasible" in g.reason
    assert "infeasible" in g.describe()
    assert C.lmm_geometry(data, (0,)) is g  # cached


def test_lmm_geometry_is_cached_and_validates_alpha():
    """Same (data, α) → the same object; α of the wrong length or out of [0, T) → UsageError."""
    data = mmts_fig1b()
    assert C.lmm_geometry(data, (1,)) is C.lmm_geometry(data, [1])
    for bad in ((), (1, 1), (3,), (-1,)):
        with pytest.raises(UsageError):
            C.lmm_geometry(data, bad)
    assert C.lmm_geometry(data, (2,)).alpha == (2,)


def test_describe_lists_the_geometry():
    """describe(): α, GMM/non-global, p^mm, ‖p^mm‖², T_i."""
    s = _fig1b().describe()
    assert s == "α = [1] (non-global), p^mm(α) = (1, 0, 0), ‖p^mm‖² = 1, SVM-neighbours T_i = {0: [2]}"
    assert "(GMM)" in C.lmm_geometry(mmts_fig1b(), (0,)).describe()


def test_short():
    """Integers and short fractions print exactly; long ones in 6 significant digits."""
    assert C._short(F(5)) == "5" and C._short(F(1, 3)) == "1/3"
    assert C._short(F(10 ** 13)) == "10000000000000"
    assert C._short(F(1, 123456789)) == "1/123456789"  # 11 characters
    assert C._short(F(1, 1234567890)) == "1/1234567890"  # 12 characters: still exact
    assert C._short(F(1, 12345678901)) == "8.1e-11"  # 13 characters: 6 significant digits (g format)
    assert C._short(F(2, 3000000000000)) == "6.66667e-13"
    assert C._short(3) == "3"


# ----- enumeration and choice ---------------------------------------------------------------------
def test_locally_optimal_geometries_and_limit():
    """Fig. 1(b): α = 0 (GMM) and α = 1 are locally optimal, α = 2 is not; T^n = 3 > limit 2 → None, = 3 ok."""
    data = mmts_fig1b()
    out = C.locally_optimal_geometries(data)
    assert [g.alpha for g in out] == [(0,), (1,)]
    assert C.locally_optimal_geometries(mmts_fig1b().with_name("x"), limit=2) is None
    assert [g.alpha for g in C.locally_optimal_geometries(data.with_name("y"), limit=3)] == [(0,), (1,)]


def test_choose_alpha_prefers_the_non_global_lmm():
    g, note = C.choose_alpha(mmts_fig1b())
    assert g.alpha == (1,) and "non-global LMM [1]" in note


def test_choose_alpha_widest_mu0_among_non_global():
    """Two sequences; every non-global LMM candidate's μ₀ is recomputed here: the choice is the largest."""
    data = _two_inputs()
    lmms = C.locally_optimal_geometries(data)
    ng = [g for g in lmms if not g.is_gmm]
    g, note = C.choose_alpha(data)
    if ng:
        assert not g.is_gmm
        assert C.mu0(g) == max(C.mu0(h) for h in ng)
        tied = [h for h in ng if C.mu0(h) == C.mu0(g)]
        assert g.alpha == min(h.alpha for h in tied)
    else:
        assert g.is_gmm


def test_choose_alpha_gmm_when_no_non_global():
    """Fig. 1(a) (Assumption B): only the GMM α = 0 is locally optimal."""
    data = mmts_fig1a()
    lmms = C.locally_optimal_geometries(data)
    assert all(g.is_gmm for g in lmms)
    g, note = C.choose_alpha(data)
    assert g is lmms[0] and g.alpha == (0,) and "no non-global LMM" in note


def test_choose_alpha_none_when_nothing_is_locally_optimal():
    """Identical keys: every α infeasible → (None, note)."""
    data = Dataset.make(X=[[[1, 0, 1], [1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [1, 0, 0]]], name="dup2")
    g, note = C.choose_alpha(data)
    assert g is None and "no locally-optimal" in note


def _many(tied):
    """n = 7 (3^7 > 729): sequence i keys (i+1, 0), (0, 0), (0, 1); scores 1, 0, 0 (or 1, 1, 0 when tied)."""
    X = [[[i + 1, 0, 1], [0, 0, 1 if tied else 0], [0, 1, 0]] for i in range(7)]
    K = [[[t[0], t[1], 0] for t in seq] for seq in X]
    return Dataset.make(X=X, Y=[1] * 7, v=[0, 0, 1], K=K, name=f"many-{tied}")


def test_choose_alpha_beyond_enumeration_limit():
    """T^n = 3^7 > ENUMERATION_LIMIT: α = opt without search; a tied opt → (None, note)."""
    assert 3 ** 7 > C.ENUMERATION_LIMIT >= 3 ** 6
    g, note = C.choose_alpha(_many(False))
    assert g.alpha == (0,) * 7 and g.is_gmm and "too many" in note
    g, note = C.choose_alpha(_many(True))
    assert g is None and "tied" in note


# ----- widths -------------------------------------------------------------------------------------
def test_selection_width_and_mu0_fig1b():
    """max‖row‖² = 1.21 + 1 = 221/100 → ½/(1·221/100) = 50/221; the pair w = (1,0,0) − (11/10,−1,0) = (−1/10, 1, 0),
    ‖w‖² = 101/100, δ = 1/10 → ½·(1/100)/(101/100) = 1/202 = μ₀ (the paper figure's 4.950e−3)."""
    g = _fig1b()
    assert C.selection_width(g) == F(50, 221)
    assert C.mu0(g) == F(1, 202) and C.mu0(g, within_only=True) == F(1, 202)
    pairs = list(C._pairs(g))
    assert pairs == [((0, 2), (0, 0), (F(-1, 10), F(1), F(0)), F(1, 10))]
    assert list(C._pairs(g, higher_only=True)) == pairs  # score 1 > 9/10


def _manual_geometry(rows, margins, neighbours, non_neighbours, scores, alpha, p, norm_sq=None):
    return C.LMMGeometry(tuple(alpha), True, True, "", False, tuple(p), norm_sq if norm_sq is not None else
                         sum(x * x for x in p), neighbours, non_neighbours, margins, rows, scores)


def test_mu0_cross_input_pairs_and_caps():
    """Hand-made geometry, two inputs: neighbour (0,1) row (1,0), non-neighbour (1,1) row (2,0) (δ = 1, p = e1).
    Cross pair: w = (−1, 0), ‖w‖² = 1 → ½·1/1 = ½; selection ½/(1·4) = 1/8 → μ₀ = 1/8; within only: 1/8 as well.
    With a non-neighbour (0,2) row (3/2, 1) (δ = 1/2): within pair w = (−1/2, −1), ‖w‖² = 5/4 → ½·(1/4)/(5/4) = 1/10."""
    e1 = (F(1), F(0))
    rows = {(0, 1): (F(1), F(0)), (1, 1): (F(2), F(0))}
    g = _manual_geometry(rows, {(0, 1): F(1), (1, 1): F(2)}, {0: [1], 1: []}, {0: [], 1: [1]},
                         ((1, 0), (1, 0)), (0, 0), e1)
    assert C.selection_width(g) == F(1, 8)
    assert C.mu0(g) == F(1, 8)
    assert [(a, b) for a, b, _, _ in C._pairs(g)] == [((0, 1), (1, 1))]
    assert list(C._pairs(g, within_only=True)) == []
    # higher_only keeps a non-neighbour only if its score exceeds γ_α of ITS sequence
    assert list(C._pairs(g, higher_only=True)) == []
    g2 = _manual_geometry({**rows, (0, 2): (F(3, 2), F(1))}, {(0, 1): F(1), (1, 1): F(2), (0, 2): F(3, 2)},
                          {0: [1], 1: []}, {0: [2], 1: [1]}, ((1, 0, 2), (1, 0)), (0, 0), e1)
    assert C.mu0(g2, within_only=True) == F(1, 10)
    assert C.mu0(g2) == F(1, 10)
    assert [(a, b) for a, b, _, _ in C._pairs(g2, higher_only=True)] == [((0, 1), (0, 2))]


def test_mu0_cross_pair_can_be_smaller_than_within():
    """Cross pair δ small: neighbour (0,1) row (1,0), non-neighbour (1,1) row (11/10, 3) (margin 11/10 on p = e1, δ = 1/10):
    w = (−1/10, −3), ‖w‖² = 901/100 → ½·(1/100)/(901/100) = 1/1802 < within-only (selection width ½/(1·(121/100+9)))."""
    e1 = (F(1), F(0))
    rows = {(0, 1): (F(1), F(0)), (1, 1): (F(11, 10), F(3))}
    g = _manual_geometry(rows, {(0, 1): F(1), (1, 1): F(11, 10)}, {0: [1], 1: []}, {0: [], 1: [1]},
                         ((1, 0), (1, 2)), (0, 0), e1)
    sel = F(1, 2) / (F(121, 100) + 9)
    assert C.selection_width(g) == sel
    assert C.mu0(g, within_only=True) == sel
    assert C.mu0(g) == F(1, 1802)


def test_mu0_zero_w_skipped_and_half_cap():
    """w = 0 (a non-neighbour row equal to a neighbour row) is skipped; all-zero rows → selection width 1, μ₀ ≤ ½."""
    z = (F(0), F(0))
    g = _manual_geometry({(0, 1): z, (0, 2): z}, {(0, 1): F(0), (0, 2): F(0)}, {0: [1]}, {0: [2]},
                         ((1, 0, 0),), (0,), (F(1), F(0)))
    assert C.selection_width(g) == 1
    assert C.mu0(g) == F(1, 2)
    g3 = _manual_geometry({(0, 1): (F(1, 10), F(0))}, {(0, 1): F(1, 10)}, {0: [1]}, {0: []}, ((1, 0),), (0,),
                          (F(1), F(0)))
    assert C.selection_width(g3) == 50 and C.mu0(g3) == F(1, 2)


def test_critical_width_fig1b():
    """Pair: sin²φ = δ²/(‖p‖²‖w‖²) = (1/100)/(101/100) = 1/101 → μ* = 1 − √(100/101) = 1 − 1/√1.01; the selection
    bound of row 0 is cos² = (121/100)/(221/100) → 1 − √(100/221) (larger); row 2 is parallel to p (cos² = 1, skipped)."""
    with working_precision(PREC):
        m, what = C.critical_width(_fig1b())
        assert _near(m, 1 - 1 / A("1.01").sqrt())
        assert "(0,0)" in what and "(0,2)" in what


def test_critical_width_selection_and_none():
    """No higher-score non-neighbour: the selection bound decides, min over rows of 1 − √(1 − cos²); nothing → None."""
    e1 = (F(1), F(0))
    rows = {(0, 1): (F(1), F(1)), (0, 2): (F(2), F(4))}  # cos² = 1/2 and 4/20 → 1 − √(1/2), 1 − √(4/5)
    g = _manual_geometry(rows, {(0, 1): F(1), (0, 2): F(2)}, {0: [1]}, {0: [2]}, ((1, 0, 0),), (0,), e1)
    with working_precision(PREC):
        m, what = C.critical_width(g)
        assert _near(m, 1 - A(F(4, 5)).sqrt())
        assert "sequence 0" in what and "token 2" in what
        rows2 = {(0, 1): (F(1), F(1)), (0, 2): (F(2), F(2))}  # cos² = 1/2 both; first kept on a tie
        g2 = _manual_geometry(rows2, {(0, 1): F(1), (0, 2): F(2)}, {0: [1]}, {0: [2]}, ((1, 0, 0),), (0,), e1)
        m2, what2 = C.critical_width(g2)
        assert _near(m2, 1 - A(F(1, 2)).sqrt()) and "token 1" in what2
        g0 = _manual_geometry({(0, 1): (F(1), F(0)), (0, 2): (F(0), F(0))}, {(0, 1): F(1), (0, 2): F(0)}, {0: [1]},
                              {0: [2]}, ((1, 0, 0),), (0,), e1)
        assert C.critical_width(g0) == (None, "")


def test_critical_width_pair_min_and_skips():
    """Two higher-score pairs with s² = 1/4 and 1/9: the smaller μ* = 1 − √(8/9) wins over 1 − √(3/4) and the
    selection bounds; a pair with s² ≥ 1 and one with w = 0 are skipped."""
    e1 = (F(1), F(0))
    # neighbour (0,1) row (1,0); non-neighbours (0,2) row (1+δ, y), scores above γ_α = 1
    # pair s² = δ²/(δ² + y²): choose δ = 1, y = √3 impossible exactly → use δ = 1/2, y with (1/4)/(1/4 + y²)
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(3, 2), F(0)), (0, 3): (F(2), F(2) * 2), (0, 4): (F(1), F(0))}
    margins = {k: v[0] for k, v in rows.items()}
    # pairs: (0,2): w = (−1/2, 0), δ = 1/2 → s² = (1/4)/(1/4) = 1 → skipped; (0,3): w = (−1, −4), δ = 1 → s² = 1/17;
    # (0,4) non-neighbour with margin 1? give it margin via rows (1, 0) → w = 0 → skipped.
    g = _manual_geometry(rows, margins, {0: [1]}, {0: [2, 3, 4]}, ((1, 0, 2, 2, 2),), (0,), e1)
    with working_precision(PREC):
        m, what = C.critical_width(g)
        # selection rows: (0,3) cos² = 4/20 = 1/5 → 1 − √(4/5) = 0.1056; pair 1 − √(16/17) = 0.0298 (smaller)
        assert _near(m, 1 - A(F(16, 17)).sqrt())
        assert "(0,3)" in what


def test_order_gap_and_selection_rate_fig1b():
    """order_gap = δ/‖p‖ − ‖w‖√(2μ) = 1/10 − √(101/100)·√(2μ); selection_rate = min(11/10 − √(221/100)√(2μ),
    1 − √(2μ)); at μ = 1/202 the order gap is 0 (μ₀ is where it closes)."""
    g = _fig1b()
    with working_precision(PREC):
        for mu in (F(1, 202), F(1, 1000), F(0)):
            s = (2 * A(mu)).sqrt()
            assert _near(C.order_gap(g, mu), A("0.1") - A(F(101, 100)).sqrt() * s)
            assert _near(C.selection_rate(g, mu), min(A("1.1") - A(F(221, 100)).sqrt() * s, 1 - s,
                                                      key=lambda x: x.mid()))
        assert abs(C.order_gap(g, F(1, 202))) < A("1e-25")
        # ‖p^mm‖ ≠ 1: the GMM (‖p‖² = 100/101): δ/‖p‖ with δ = 10/101
        h = C.lmm_geometry(mmts_fig1b(), (0,))
        mu = F(1, 100)
        s = (2 * A(mu)).sqrt()
        w2 = F(1) + F(1)  # w = row(2) − row(1) = (−1/10, 1) − (−11/10, 1) = (1, 0)... computed below
        w = [a - b for a, b in zip(h.rows[(0, 2)], h.rows[(0, 1)])]
        w2 = sum(x * x for x in w)
        assert w2 == 1
        nrm = A(F(100, 101)).sqrt()
        assert _near(C.order_gap(h, mu), A(F(10, 101)) / nrm - s)
        exp_rate = min(A(F(111, 101)) / nrm - A(F(221, 100)).sqrt() * s, 1 / nrm - A(F(101, 100)).sqrt() * s,
                       key=lambda x: x.mid())
        assert _near(C.selection_rate(h, mu), exp_rate)


def test_order_gap_none_without_non_neighbours_and_min_over_pairs():
    e1 = (F(1), F(0))
    g = _manual_geometry({(0, 1): (F(1), F(0))}, {(0, 1): F(1)}, {0: [1]}, {0: []}, ((1, 0),), (0,), e1)
    assert C.order_gap(g, F(1, 10)) is None
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(2), F(0)), (0, 3): (F(3, 2), F(0))}
    g2 = _manual_geometry(rows, {k: v[0] for k, v in rows.items()}, {0: [1]}, {0: [2, 3]}, ((1, 0, 0, 0),), (0,), e1)
    with working_precision(PREC):
        s = (2 * A(F(1, 50))).sqrt()
        # pairs: δ = 1, ‖w‖ = 1 and δ = 1/2, ‖w‖ = 1/2 → min(1 − s, 1/2 − s/2) = 1/2 − s/2 (s < 1)
        assert _near(C.order_gap(g2, F(1, 50)), A("0.5") - s / 2)
        # rates: 1 − s, 2 − 2s, 3/2 − 3s/2 → 1 − s
        assert _near(C.selection_rate(g2, F(1, 50)), 1 - s)


# ----- directions ---------------------------------------------------------------------------------
def test_project_out_and_gram_schmidt():
    assert C._project_out((F(1), F(1)), (F(2), F(0))) == (0, 1)
    assert C._gram_schmidt([(F(1), F(0)), (F(2), F(0)), (F(1), F(1)), (F(0), F(0))]) == [(1, 0), (0, 1)]


def test_orthogonal_basis_and_cone_directions_fig1b():
    """Rows ⊥ e1: (0, −1, 0) and 0 → basis [(0,−1,0)]; the null vector ⊥ span(e1, e2) is e3. Directions: ±(0,1,0)
    (the pair's w ⊥ e1 = (0,1,0), −row0 ⊥ e1 = (0,1,0) duplicates), then e3."""
    g = _fig1b()
    basis, null = C._orthogonal_basis(g)
    assert basis == [(0, -1, 0)] and null == (0, 0, 1)
    assert C.cone_directions(g) == [(0, -1, 0), (0, 1, 0), (0, 0, 1)]
    assert C.dense_directions(g) == []
    with working_precision(PREC):
        u = C.plane_direction(g)
        assert [float(x.mid()) for x in u] == [0, -1, 0]


def test_cone_directions_dedup_is_up_to_positive_scale():
    """−row0 ⊥ p = (0, 2, 0)-like multiples are dropped, but −b is kept (a negative scale is a new direction)."""
    e1 = (F(1), F(0), F(0))
    rows = {(0, 1): (F(1), F(0), F(0)), (0, 2): (F(2), F(-3), F(0))}
    g = _manual_geometry(rows, {(0, 1): F(1), (0, 2): F(2)}, {0: [1]}, {0: [2]}, ((1, 0, 2),), (0,), e1)
    # basis [(0,−3,0)]; pairs (higher): w = (1,0,0) − (2,−3,0) = (−1,3,0) → ⊥ e1 (0,3,0) = +(0,1,0) dup of −b;
    # −row1 ⊥ = 0 (skipped), −row2 ⊥ = (0,3,0) dup; null e3
    assert C.cone_directions(g) == [(0, -3, 0), (0, 3, 0), (0, 0, 1)]


def test_cone_directions_3d_random_and_null():
    """Full 3-D keys, p^mm = (1,1,1) (all three constraints active): basis of span(rows) ∩ p⊥ has 2 vectors, no
    null vector; random_count seeded combinations of the basis are added (deterministic, distinct)."""
    data = _full_3d()
    g = C.lmm_geometry(data, (0,))
    assert g.p_mm == (1, 1, 1, 0)
    basis, null = C._orthogonal_basis(g)
    assert len(basis) == 2 and null == (0, 0, 0, 1)  # the score coordinate is not a key direction
    for b in basis:
        assert sum(x for x in b) == 0  # ⊥ (1,1,1)
    d0 = C.cone_directions(g, random_count=0)
    d2 = C.cone_directions(g, random_count=2)
    d5 = C.cone_directions(g, random_count=5, seed=3)
    assert d0[:4] == [basis[0], tuple(-x for x in basis[0]), basis[1], tuple(-x for x in basis[1])]
    assert d2[:len(d0) - 1] == d0[:-1] and d2[-1] == d0[-1] == null and len(d2) == len(d0) + 2
    assert len(d5) == len(d0) + 5
    assert d2 == C.cone_directions(g)
    assert C.cone_directions(g, seed=1) != d2
    import random
    rng = random.Random(0)
    coef = [F(rng.randint(-9, 9), 7) for _ in basis]
    u = tuple(sum((c * b[k] for c, b in zip(coef, basis)), F(0)) for k in range(4))
    assert d2[len(d0) - 1] == u
    for v in d5[:-1]:
        assert sum(v) == 0 and any(v)
    assert C.plane_direction(g) is None


def test_dense_directions_circles():
    """Two basis vectors, per_circle = 4: the points a, b, −a, −b of the unit circle (angles 2πm/4)."""
    g = C.lmm_geometry(_full_3d(), (0,))
    with working_precision(PREC):
        basis, _ = C._orthogonal_basis(g)
        a, b = C.unit(basis[0]), C.unit(basis[1])
        pts = C.dense_directions(g, per_circle=4)
        assert len(pts) == 4
        expected = [a, b, [-x for x in a], [-x for x in b]]
        for p, e in zip(pts, expected):
            for x, y in zip(p, e):
                assert abs(float((x - y).mid())) < 1e-25
        assert len(C.dense_directions(g)) == 36
        assert len(C.dense_directions(g, max_basis=1)) == 0
        p6 = C.dense_directions(g, per_circle=6)
        for x, y in zip(p6[1], [A(F(1, 2)) * u + A(3).sqrt() / 2 * v for u, v in zip(a, b)]):
            assert abs(float((x - y).mid())) < 1e-25


def test_unit_and_cone_point():
    """unit((3,4)) = (3/5, 4/5); cone_point(e1, e2, m, r) = r(1−m, √(m(2−m))): norm r and 1 − corr = m."""
    with working_precision(PREC):
        u = C.unit((F(3), F(4)))
        assert _near(u[0], F(3, 5)) and _near(u[1], F(4, 5))
        p = C.cone_point([A(1), A(0)], [A(0), A(1)], F(1, 10), 5)
        assert _near(p[0], F(9, 2)) and _near(p[1], 5 * A(F(19, 100)).sqrt())


def test_safe_norm():
    with working_precision(PREC):
        assert _near(C.safe_norm([A(3), A(4)]), 5)
        z = C.safe_norm([arb(0, 1e-10)])
        assert z.lower() <= 0 and z.contains(0) and z.upper() >= A("1e-10") and z.upper() < A("2e-10")
        assert C.safe_norm([A(0)]) == 0
        assert C.safe_norm([]) == 0


def test_cap_extremes():
    """w = p̄: (1 − μ, 1); w = −p̄: (−1, −(1 − μ)); w ⊥ p̄: (−√(μ(2−μ)), +√(μ(2−μ))); μ = 2 (the whole sphere):
    (−‖w‖, ‖w‖); w = 0: both contain 0; a tilted w inside the cap: its max is ‖w‖."""
    pb = [A(1), A(0)]
    with working_precision(PREC):
        mu = F(1, 10)
        s = A(F(19, 100)).sqrt()
        lo, hi = C.cap_extremes([A(1), A(0)], pb, mu)
        assert _near(lo, F(9, 10)) and _near(hi, 1)
        lo, hi = C.cap_extremes([A(-2), A(0)], pb, mu)
        assert _near(lo, -2) and _near(hi, F(-9, 5))
        lo, hi = C.cap_extremes([A(0), A(3)], pb, mu)
        assert _near(lo, -3 * s) and _near(hi, 3 * s)
        lo, hi = C.cap_extremes([A(1), A(1)], pb, 2)
        assert _near(lo, -A(2).sqrt()) and _near(hi, A(2).sqrt())
        lo, hi = C.cap_extremes([A(0), A(0)], pb, mu)
        assert lo.contains(0) and hi.contains(0)
        # w = (cos θ, sin θ) with 1 − cos θ = 1/50 < μ: w inside the cap → max 1; min on the edge: cos(θ + φ)
        c = F(49, 50)
        sn = A(1 - c * c).sqrt()
        lo, hi = C.cap_extremes([A(c), sn], pb, mu)
        assert _near(hi, 1)
        assert _near(lo, A(c) * A(F(9, 10)) - sn * s)
        # outside the cap: max on the edge c·wpar + s·wperp
        c2 = F(1, 2)
        sn2 = A(F(3, 4)).sqrt()
        lo, hi = C.cap_extremes([A(c2), sn2], pb, mu)
        assert _near(hi, A(c2) * A(F(9, 10)) + sn2 * s)
        assert _near(lo, A(c2) * A(F(9, 10)) - sn2 * s)


def test_inward_component_and_in_cone_margin():
    """p = (1, 1) (unit (1,1)/√2), p̄^mm = e1, μ = 1/10, grad = (g1, g2):
    −⟨g, e1 − (9/10)(1,1)/√2⟩; in_cone_margin = μ − ‖p̂ − p̄^mm‖²/2 = μ − (1 − 1/√2)."""
    with working_precision(PREC):
        r2 = A(2).sqrt()
        val = C.inward_component([A(2), A(-3)], [A(1), A(1)], [A(1), A(0)], F(1, 10))
        assert _near(val, -(2 * (1 - A("0.9") / r2) + 3 * A("0.9") / r2))
        assert _near(C.in_cone_margin([A(1), A(1)], [A(1), A(0)], F(1, 10)), A("0.1") - (1 - 1 / r2))
        assert _near(C.in_cone_margin([A(5), A(0)], [A(1), A(0)], F(1, 10)), A("0.1"))


# ----- leading term -------------------------------------------------------------------------------
class _Loss:
    """ℓ'(u) = u − 5: |ℓ'(9/10)| = 41/10 (a stand-in that pins the argument and the absolute value)."""

    def d1(self, u):
        return u - 5


def test_leading_term_signs():
    """q̄ = e1 on Fig. 1(b): margins 11/10 (token 0) and 1 (token 2) → token 2 leads; coefficient
    |ℓ'(9/10)|·(9/10 − 0)·(row2ᵀv) = (41/10)(9/10)(v₁)."""
    g = _fig1b()
    q = [A(1), A(0), A(0)]
    with working_precision(PREC):
        s, detail, coef = C.leading_term(g, q, [A(1), A(0), A(0)], _Loss())
        assert s == 1 and _near(coef, F(369, 100)) and "(0,2)" in detail
        s, detail, coef = C.leading_term(g, q, [A(-2), A(5), A(0)], _Loss())
        assert s == -1 and _near(coef, -2 * F(369, 100)) and "(0,2)" in detail
        s, detail, coef = C.leading_term(g, q, [A(0), A(1), A(0)], _Loss())
        assert s is None and coef == 0
        # q̄ = (1, −1/10)/‖·‖: margins (11/10 + 1/10) and 1 → still token 2 (scale does not matter for the sign)
        s, _, _ = C.leading_term(g, [A(1), A("-0.1"), A(0)], [A(1), A(0), A(0)], _Loss())
        assert s == 1
        # q̄ = (1, 1/2): margins 11/10 − 1/2 = 3/5 < 1: token 0 (score 1 > 9/10, gap −1/10) leads
        s, detail, coef = C.leading_term(g, [A(1), A("0.5"), A(0)], [A(1), A(0), A(0)], _Loss())
        assert s == -1 and _near(coef, F(41, 10) * F(-1, 10) * F(11, 10)) and "(0,0)" in detail


def test_leading_term_not_selected_and_ties():
    g = _fig1b()
    with working_precision(PREC):
        v = [A(1), A(0), A(0)]
        assert C.leading_term(g, [A(-1), A(0), A(0)], v, _Loss())[0::2] == (None, None)
        # margin exactly 0 for token 2 along e2 (row2 = e1): not certainly > 0
        assert C.leading_term(g, [A(0), A(-1), A(0)], v, _Loss())[0::2] == (None, None)
        # tie: 11/10 q1 − q2 = q1 ⟺ q2 = q1/10
        s, detail, coef = C.leading_term(g, [A(1), A("0.1"), A(0)], v, _Loss())
        assert s is None and coef is None and "not separated" in detail


# ----- boundary scan ------------------------------------------------------------------------------
class _FakeModel:
    """grad(p) = sign(‖p‖ − r0)·(−p̄^mm)·c, mass_off = [1/2, 3/2] (mean 1): the inward value is
    c·sign·⟨p̄^mm, p̄^mm − (1−μ)p̂⟩ = c·sign·(1 − (1−μ)(1−m)) at a point with 1 − corr = m."""

    def __init__(self, pmm_unit, r0, c=1):
        self.pmm, self.r0, self.c = pmm_unit, r0, c
        self.points = []

    def states(self, p):
        self.points.append(p)
        return "st"

    def grad(self, p, st):
        assert st == "st"
        nrm = sum((x * x for x in p), A(0)).sqrt()
        sign = 1 if nrm > self.r0 else -1
        return [-sign * self.c * x for x in self.pmm]

    def mass_off(self, p, alpha, st):
        assert st == "st" and alpha == (1,)
        return [A("0.5"), A("1.5")][: len(alpha)] + ([A("1.5")] if len(alpha) == 1 else [])


def test_boundary_scan_values_and_ok():
    """Fig. 1(b), μ = 1/10, m = μ: value = sign·(1 − (9/10)²)/mean, mean = (1/2 + 3/2)/1 = 2; level m = 0 gives
    sign·(1 − 9/10)/2; ok iff every value > 0."""
    g = _fig1b()
    e1 = [A(1), A(0), A(0)]
    with working_precision(PREC):
        dirs = [C.unit(u) for u in C.cone_directions(g)]
        model = _FakeModel(e1, r0=3)
        scan = C.boundary_scan(model, g, F(1, 10), [1, 5], dirs)
        assert [rec["r"] for rec in scan] == [1, 5]
        assert [rec["ok"] for rec in scan] == [False, True]
        assert [k for _, k in scan[1]["values"]] == [0, 1, 2]
        for v, _ in scan[1]["values"]:
            assert _near(v, (1 - A("0.81")) / 2)
        for v, _ in scan[0]["values"]:
            assert _near(v, -(1 - A("0.81")) / 2)
        # probe points: norm r and 1 − corr = μ
        p = model.points[-1]
        assert _near(p[0], 5 * A("0.9"))
        scan0 = C.boundary_scan(_FakeModel(e1, r0=0), g, F(1, 10), [2], dirs, level=F(0))
        for v, _ in scan0[0]["values"]:
            assert _near(v, (1 - A("0.9")) / 2)
        scan_l = C.boundary_scan(_FakeModel(e1, r0=0), g, F(1, 10), [2], dirs, level=F(1, 20))
        for v, _ in scan_l[0]["values"]:
            assert _near(v, (1 - A("0.9") * A("0.95")) / 2)


def test_boundary_directions():
    g = _fig1b()
    with working_precision(PREC):
        exact, dirs, flat = C.boundary_directions(g)
        assert exact == C.cone_directions(g) and not flat and len(dirs) == 3
        g1 = C.lmm_geometry(_line(), (0,))
        exact, dirs, flat = C.boundary_directions(g1)
        assert flat and exact == [(0,)] and len(dirs) == 1 and dirs[0][0] == 0


def test_first_order_witness_radius():
    """Radii 1, 2, 5, 10 with r0 = 3: ok at 5 and 10 → R = 5; r0 = 20: never ok → None; r0 = 0: R = 1."""
    g = _fig1b()
    e1 = [A(1), A(0), A(0)]
    with working_precision(PREC):
        R, scan, dirs = C.first_order_witness(_FakeModel(e1, r0=3), g, F(1, 10), [1, 2, 5, 10])
        assert R == 5 and len(scan) == 4 and len(dirs) == 3
        assert C.first_order_witness(_FakeModel(e1, r0=20), g, F(1, 10), [1, 2, 5, 10])[0] is None
        assert C.first_order_witness(_FakeModel(e1, r0=0), g, F(1, 10), [1, 2, 5, 10])[0] == 1


class _NonMonotone(_FakeModel):
    """ok at r = 1, not at 2, ok from 5 on."""

    def grad(self, p, st):
        nrm = sum((x * x for x in p), A(0)).sqrt()
        sign = -1 if (nrm > 1.5 and nrm < 3) else 1
        return [-sign * x for x in self.pmm]


def test_first_order_witness_needs_every_deeper_radius_and_flat_level():
    g = _fig1b()
    with working_precision(PREC):
        R, _, _ = C.first_order_witness(_NonMonotone([A(1), A(0), A(0)], 0), g, F(1, 10), [1, 2, 5, 10])
        assert R == 5
        g1 = C.lmm_geometry(_line(), (0,))

        class M(_FakeModel):
            def mass_off(self, p, alpha, st):
                return [A(2)]

        model = M([A(1)], r0=0)
        R, scan, dirs = C.first_order_witness(model, g1, F(1, 10), [1, 2])
        # flat: the points are on the ray (level 0): p = r·e1; value = (1 − (9/10))/2
        assert R == 1 and len(dirs) == 1
        assert _near(model.points[0][0], 1) and _near(scan[0]["values"][0][0], (1 - A("0.9")) / 2)
        g3 = C.lmm_geometry(_full_3d(), (0,))
        _, _, dirs3 = C.first_order_witness(_FakeModel([A(1) / A(3).sqrt()] * 3, r0=0) if False else
                                            _Const3(), g3, F(1, 10), [1])
        assert len(dirs3) == len(C.cone_directions(g3)) + 36


class _Const3:
    def states(self, p):
        return None

    def grad(self, p, st):
        return [A(-1)] * 3

    def mass_off(self, p, alpha, st):
        return [A(1)]


# ----- radius scale -------------------------------------------------------------------------------
def test_radius_scale():
    """√1 = 1 → 1; √2 = 1.414… → 1.5; √(1/100) = 0.1 → 0.1; √(10^6) = 1000 → 1000; √(99/100) = 0.99498… → 1.0;
    beyond float64: √(10^400) = 10^200 exactly, √(2·10^400) → 1.5·10^200, √(10^−400) = 10^−200."""
    assert C.radius_scale(F(1)) == 1
    assert C.radius_scale(F(2)) == F(15, 10)
    assert C.radius_scale(F(1, 100)) == F(1, 10)
    assert C.radius_scale(F(10 ** 6)) == 1000
    assert C.radius_scale(F(99, 100)) == 1
    assert C.radius_scale(F(3)) == F(18, 10)
    assert C.radius_scale(F(10) ** 400) == F(10) ** 200
    assert C.radius_scale(2 * F(10) ** 400) == F(15) * F(10) ** 199
    assert C.radius_scale(F(10) ** -400) == F(10) ** -200
    assert C.radius_scale(F(4, 9) * F(10) ** -400) == F(67, 100) * F(10) ** -200
    assert C.radius_scale(F(9, 4) * F(10) ** 400) == F(15) * F(10) ** 199
    assert C.radius_scale(F(10) ** 300) == F(10) ** 150
    x = C.radius_scale(F(10) ** -300)
    assert x == F(10) ** -150
    assert math.isclose(float(C.radius_scale(F(1234567))), 1200)


# ----- G5 additions (issue 21: the survivors of dev/mutation-survivors-geometry-G1.md) -------------------------
def _spy_solve_svm(monkeypatch):
    """Record every solve_svm(data, kind, select, dps, check_unique=...) call of lmm_geometry and delegate to the
    real solver (the results stay real; the calls show which precision and options were passed)."""
    import verify.svm as svm

    real, calls = svm.solve_svm, []

    def spy(data, kind, select, *args, **kwargs):
        calls.append((kind, tuple(select) if not isinstance(select, str) else select, args, kwargs))
        return real(data, kind, select, *args, **kwargs)

    monkeypatch.setattr(svm, "solve_svm", spy)
    return calls


def test_lmm_geometry_passes_its_precision_and_skips_the_uniqueness_check(monkeypatch):
    """lmm_geometry(data, α, dps) solves ATT-SVM(α) in p at that dps (default 40) without the uniqueness check (the
    p-SVM is strictly convex); choose_alpha and locally_optimal_geometries pass their dps through (default 40)."""
    calls = _spy_solve_svm(monkeypatch)

    def run(f, *args):
        C._GEOMETRY_CACHE.clear()
        C._LMM_CACHE.clear()
        calls.clear()
        f(*args)
        return list(calls)

    assert run(C.lmm_geometry, mmts_fig1b(), (1,), 17) == [("p", (1,), (17,), {"check_unique": False})]
    assert run(C.lmm_geometry, mmts_fig1b(), (1,)) == [("p", (1,), (40,), {"check_unique": False})]
    got = run(C.locally_optimal_geometries, mmts_fig1b(), 23)
    assert [c[2] for c in got] == [(23,)] * 3 and [c[1] for c in got] == [(0,), (1,), (2,)]
    assert [c[2] for c in run(C.locally_optimal_geometries, mmts_fig1b())] == [(40,)] * 3
    assert [c[2] for c in run(C.choose_alpha, mmts_fig1b(), 19)] == [(19,)] * 3
    assert [c[2] for c in run(C.choose_alpha, mmts_fig1b())] == [(40,)] * 3
    # beyond the enumeration limit: α = opt alone, at the given dps
    assert run(C.choose_alpha, _many(False), 21) == [("p", (0,) * 7, (21,), {"check_unique": False})]
    assert [c[2] for c in run(C.choose_alpha, _many(False))] == [(40,)]


def test_lmm_geometry_keeps_the_svm_result():
    """The feasible geometry carries its SVM result: status optimal, solution p^mm = e1 (Fig. 1(b), α = 1)."""
    g = _fig1b()
    assert g.svm is not None and g.svm.status == "optimal"
    assert tuple(F(x) for x in g.svm.solution) == (1, 0, 0)


def test_lmm_geometry_validation_is_its_own():
    """α of the wrong length or with a token outside [0, T) is refused by lmm_geometry itself (its message names
    n and T), before any SVM is built: (1, 1) for n = 1 and (3,) for T = 3."""
    for bad in ((1, 1), (3,), (-1,), ()):
        with pytest.raises(UsageError, match=r"does not fit n = 1, T = 3"):
            C.lmm_geometry(mmts_fig1b(), bad)


def test_lmm_geometry_infeasible_flags_are_false_and_the_reason_names_the_certificate(monkeypatch):
    """Identical keys: (k0 − k1)ᵀp = 0 ≥ 1 is impossible; its Farkas certificate (y = 1) is exact, so the reason says
    "verified exactly"; a certificate that did not pass, or none, leaves the plain ")"; feasible and locally_optimal
    are False (not merely falsy)."""
    data = Dataset.make(X=[[[1, 0, 1], [1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [1, 0, 0]]], name="dup-r")
    g = C.lmm_geometry(data, (0,))
    assert g.feasible is False and g.locally_optimal is False
    assert g.reason == "ATT-SVM(α) is infeasible (Farkas certificate verified exactly)"
    import types

    import verify.svm as svm
    for farkas in (None, types.SimpleNamespace(passed=False)):
        C._GEOMETRY_CACHE.clear()
        monkeypatch.setattr(svm, "solve_svm", lambda *a, farkas=farkas, **k: types.SimpleNamespace(
            status="infeasible", farkas=farkas, solution=None))
        g = C.lmm_geometry(data, (0,))
        assert g.reason == "ATT-SVM(α) is infeasible (Farkas certificate)"
        assert g.feasible is False and g.locally_optimal is False


def test_lmm_enumeration_limit_is_t_to_the_n():
    """Two inputs, T = 3: T^n = 9 selections; limit 8 → None (T·n = 6 would not exceed it). Kept fast: mutmut runs the
    fastest tests first, and this one must come before the n = 7 test (3^7 selections would be enumerated)."""
    assert C.locally_optimal_geometries(_two_inputs(), limit=8) is None


def test_locally_optimal_geometries_cached_per_dataset():
    """The cache is keyed by the dataset: Fig. 1(b) has the LMMs α = 0, 1; Fig. 1(a), asked next, only its GMM α = 0."""
    assert [g.alpha for g in C.locally_optimal_geometries(mmts_fig1b())] == [(0,), (1,)]
    assert [g.alpha for g in C.locally_optimal_geometries(mmts_fig1a())] == [(0,)]


def _ray_geometry(alpha, row, gmm=False):
    """One input, p = e1, a single neighbour row ``row`` and no non-neighbour: μ₀ = min(½, ½/‖row‖²)."""
    g = _manual_geometry({(0, 1): row}, {(0, 1): row[0]}, {0: [1]}, {0: []}, ((1, 0, 0),), alpha, (F(1), F(0)))
    g.is_gmm = gmm
    return g


def test_choose_alpha_takes_the_widest_non_global_and_the_smallest_alpha_on_a_tie(monkeypatch):
    """Stand-in LMM list [B (μ₀ 1/32), C (1/8), GMM (½), A (1/8)] (μ₀ = ½/‖row‖² for rows (4,0), (2,0), (1,0),
    (2,0)): the GMM is skipped, A and C tie at 1/8 and the smaller α = (0,) wins; the note lists every LMM."""
    A, B, Cg = _ray_geometry((0,), (F(2), F(0))), _ray_geometry((1,), (F(4), F(0))), _ray_geometry((2,), (F(2), F(0)))
    G = _ray_geometry((3,), (F(1), F(0)), gmm=True)
    assert [C.mu0(h) for h in (A, B, Cg, G)] == [F(1, 8), F(1, 32), F(1, 8), F(1, 2)]
    monkeypatch.setattr(C, "locally_optimal_geometries", lambda data, dps: [B, Cg, G, A])
    g, note = C.choose_alpha(mmts_fig1b())
    assert g is A
    assert note.endswith("among the locally-optimal selections [[1]; [2]; [3] (GMM); [0]]")
    monkeypatch.setattr(C, "locally_optimal_geometries", lambda data, dps: [B, G])
    assert C.choose_alpha(mmts_fig1b())[0] is B


def test_choose_alpha_note_lists_the_lmms_of_fig1b():
    """Fig. 1(b): the locally-optimal selections are α = 0 (the GMM) and α = 1."""
    _, note = C.choose_alpha(mmts_fig1b())
    assert note.endswith("[[0] (GMM); [1]]")


def test_pairs_within_only_skips_cross_pairs_but_keeps_later_ones():
    """Neighbour (1,1); non-neighbours (0,1) (another input: skipped) then (1,2) (same input: kept)."""
    e1 = (F(1), F(0))
    rows = {(0, 1): (F(2), F(0)), (1, 1): (F(1), F(0)), (1, 2): (F(3), F(1))}
    g = _manual_geometry(rows, {k: v[0] for k, v in rows.items()}, {0: [], 1: [1]}, {0: [1], 1: [2]},
                         ((1, 0), (1, 0, 0)), (0, 0), e1)
    assert [(a, b) for a, b, _, _ in C._pairs(g, within_only=True)] == [((1, 1), (1, 2))]
    assert [(a, b) for a, b, _, _ in C._pairs(g)] == [((1, 1), (0, 1)), ((1, 1), (1, 2))]


def _tilted_geometry():
    """p = e1 in 3-D; neighbour (0,1) row (1,1,0); non-neighbours (0,2) row (2,0,1) with score γ_α (tied: not
    higher), (0,3) row (3,2,1) with a higher score, (0,4) row (5,0,2) with a lower score.
    Rows ⊥ e1: (0,1,0), (0,0,1), (0,2,1), (0,0,2) → basis [(0,1,0), (0,0,1)], no null vector (D = 3 is spanned).
    Directions: ±basis; the higher pair w = (1,1,0) − (3,2,1) = (−2,−1,−1) → ⊥ (0,−1,−1); −rows ⊥: (0,−1,0) and
    (0,0,−1) (duplicates of −b), (0,−2,−1) (new), (0,0,−2) (the ray of (0,0,−1): dropped)."""
    rows = {(0, 1): (F(1), F(1), F(0)), (0, 2): (F(2), F(0), F(1)), (0, 3): (F(3), F(2), F(1)),
            (0, 4): (F(5), F(0), F(2))}
    return _manual_geometry(rows, {k: v[0] for k, v in rows.items()}, {0: [1]}, {0: [2, 3, 4]},
                            ((1, 0, 1, 2, 0),), (0,), (F(1), F(0), F(0)))


def test_cone_directions_higher_pairs_negated_rows_and_positive_scale_dedup():
    g = _tilted_geometry()
    assert [(a, b) for a, b, _, _ in C._pairs(g, higher_only=True)] == [((0, 1), (0, 3))]
    assert C._orthogonal_basis(g) == ([(0, 1, 0), (0, 0, 1)], None)
    assert C.cone_directions(g, random_count=0) == [(0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1), (0, -1, -1),
                                                    (0, -2, -1)]


def test_orthogonal_basis_null_vector_is_the_first_unit_vector_outside_the_span():
    """Rows along p = e1 only: no basis ⊥ p, and the first unit vector not in span(e1) is e2 (projected: itself)."""
    g = _manual_geometry({(0, 1): (F(1), F(0), F(0))}, {(0, 1): F(1)}, {0: [1]}, {0: []}, ((1, 0),), (0,),
                         (F(1), F(0), F(0)))
    assert C._orthogonal_basis(g) == ([], (0, 1, 0))
    assert C.cone_directions(g) == [(0, 1, 0)]


def test_cone_directions_random_coefficients_are_randint_minus9_9_over_7():
    """Seed 5 on the full 3-D keys: the two random directions are Σ_k c_k b_k with c_k = randint(−9, 9)/7 from
    random.Random(5) (re-derived here with the same generator)."""
    import random

    g = C.lmm_geometry(_full_3d(), (0,))
    basis, null = C._orthogonal_basis(g)
    rng = random.Random(5)
    expected = []
    for _ in range(2):
        coef = [F(rng.randint(-9, 9), 7) for _ in basis]
        expected.append(tuple(sum((c * b[k] for c, b in zip(coef, basis)), F(0)) for k in range(4)))
    got = C.cone_directions(g, random_count=2, seed=5)
    assert got[-3:-1] == expected and got[-1] == null


def test_mu0_skips_a_zero_w_and_keeps_scanning():
    """Neighbour row (1,0); non-neighbours (0,2) with the same row (w = 0: skipped) and (0,3) row (3/2, 1), δ = 1/2:
    w = (−1/2, −1), ‖w‖² = 5/4 → ½·(1/4)/(5/4) = 1/10 < selection width ½/(13/4) = 2/13."""
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(1), F(0)), (0, 3): (F(3, 2), F(1))}
    g = _manual_geometry(rows, {(0, 1): F(1), (0, 2): F(1), (0, 3): F(3, 2)}, {0: [1]}, {0: [2, 3]},
                         ((1, 0, 0, 0),), (0,), (F(1), F(0)))
    assert C.selection_width(g) == F(2, 13)
    assert C.mu0(g) == F(1, 10)


def test_critical_width_skip_rules_keep_scanning():
    """Pairs: (0,2) has w = 0 (skipped), then (0,3) with s² = 1/17 → μ* = 1 − √(16/17) (pair loop continues past a
    zero w). Rows: (0,1) = 0 (skipped), (0,2) ∥ p (cos² = 1, skipped), then (0,4) (1,1): cos² = 1/2 — the row loop
    continues past both (without the pairs: 1 − √(1/2))."""
    e1 = (F(1), F(0))
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(1), F(0)), (0, 3): (F(2), F(4))}
    g = _manual_geometry(rows, {k: v[0] for k, v in rows.items()}, {0: [1]}, {0: [2, 3]}, ((1, 0, 2, 2),), (0,), e1)
    with working_precision(PREC):
        m, what = C.critical_width(g)
        assert _near(m, 1 - A(F(16, 17)).sqrt()) and "(0,3)" in what
        rows2 = {(0, 1): (F(0), F(0)), (0, 2): (F(2), F(0)), (0, 4): (F(1), F(1))}
        g2 = _manual_geometry(rows2, {(0, 1): F(0), (0, 2): F(2), (0, 4): F(1)}, {0: [1]}, {0: [2, 4]},
                              ((1, 0, 0, 0, 0),), (0,), e1)
        m2, what2 = C.critical_width(g2)
        assert _near(m2, 1 - A(F(1, 2)).sqrt()) and "token 4" in what2


def test_critical_width_pair_with_s2_exactly_one_is_skipped():
    """Neighbour row (1,0), higher-score non-neighbour row (2,0): δ = 1, w = (−1,0), s² = 1 (sin φ = 1: the tie is
    never reached inside the open half-space) → skipped; both rows ∥ p (cos² = 1) → no bound at all."""
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(2), F(0))}
    g = _manual_geometry(rows, {(0, 1): F(1), (0, 2): F(2)}, {0: [1]}, {0: [2]}, ((1, 0, 2),), (0,), (F(1), F(0)))
    assert C.critical_width(g) == (None, "")


def test_critical_width_first_pair_kept_on_a_tie():
    """Two higher non-neighbours with the same row (3/2, 1) (δ = 1/2, w = (−1/2, −1), s² = 1/5): the first, (0,2),
    is named; μ* = 1 − √(4/5)."""
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(3, 2), F(1)), (0, 3): (F(3, 2), F(1))}
    g = _manual_geometry(rows, {k: v[0] for k, v in rows.items()}, {0: [1]}, {0: [2, 3]}, ((1, 0, 2, 2),), (0,),
                         (F(1), F(0)))
    with working_precision(PREC):
        m, what = C.critical_width(g)
        assert _near(m, 1 - A(F(4, 5)).sqrt())
        assert what.startswith("non-neighbour (0,2)")


def test_dense_directions_default_uses_three_basis_vectors():
    """p = e1 in 5-D with rows e1 + e_k (k = 2..5): the basis ⊥ p has 4 vectors; by default the first 3 are used:
    3 pairs × 36 points; max_basis = 4: 6 pairs."""
    rows = {(0, k): tuple(F(1 if j in (0, k) else 0) for j in range(5)) for k in range(1, 5)}
    g = _manual_geometry(rows, {k: F(1) for k in rows}, {0: [1, 2, 3, 4]}, {0: []}, ((1, 0, 0, 0, 0),), (0,),
                         tuple(F(1 if j == 0 else 0) for j in range(5)))
    assert len(C._orthogonal_basis(g)[0]) == 4
    with working_precision(PREC):
        assert len(C.dense_directions(g)) == 3 * 36
        assert len(C.dense_directions(g, max_basis=4)) == 6 * 36


def test_first_order_witness_scans_at_mu_when_not_flat():
    """Fig. 1(b) is not flat: the scan's points are at 1 − corr = μ, value (1 − (9/10)²)/2 (not the ray's level 0,
    (1 − 9/10)/2)."""
    g = _fig1b()
    with working_precision(PREC):
        _, scan, _ = C.first_order_witness(_FakeModel([A(1), A(0), A(0)], r0=0), g, F(1, 10), [2])
        for v, _ in scan[0]["values"]:
            assert _near(v, (1 - A("0.81")) / 2)


class _TwoInputModel:
    """Two inputs: grad = −c·e1 (constant), mass_off = [1/2, 3/2] (mean (1/2 + 3/2)/2 = 1); records the points."""

    def __init__(self, c=1):
        self.c, self.points = c, []

    def states(self, p):
        return "st"

    def grad(self, p, st):
        return [-self.c * A(1), A(0)]

    def mass_off(self, p, alpha, st):
        assert alpha == (0, 0) and len(p) == 2
        self.points.append(p)
        return [A("0.5"), A("1.5")]


def test_boundary_scan_two_inputs_and_a_long_p_mm():
    """p^mm = (2, 0) (‖p^mm‖ = 2, p̄ = e1), n = 2, μ = 1/10, u = e2: the point r((9/10)e1 + √(19/100) e2), the inward
    value ⟨e1, e1 − (9/10)p̂⟩/mean = (1 − 81/100)/1; a zero gradient gives exactly 0, which is not > 0 (ok False)."""
    g = _manual_geometry({(0, 1): (F(1, 2), F(0)), (1, 1): (F(1, 2), F(0))}, {(0, 1): F(1), (1, 1): F(1)},
                         {0: [1], 1: [1]}, {0: [], 1: []}, ((1, 0), (1, 0)), (0, 0), (F(2), F(0)))
    with working_precision(PREC):
        model = _TwoInputModel()
        scan = C.boundary_scan(model, g, F(1, 10), [3], [[A(0), A(1)]])
        assert scan[0]["ok"] is True
        assert _near(scan[0]["values"][0][0], 1 - A("0.81"))
        p = model.points[0]
        assert _near(p[0], 3 * A("0.9")) and _near(p[1], 3 * A(F(19, 100)).sqrt())
        zero = C.boundary_scan(_TwoInputModel(c=0), g, F(1, 10), [3], [[A(0), A(1)]])
        assert zero[0]["values"][0][0] == 0 and zero[0]["ok"] is False


def test_cap_extremes_zero_and_ball_w():
    """w = 0 exactly: ⟨0, q⟩ = 0 for every q, so (0, 0) exactly. w = (y, 0) with y ∈ [−10⁻¹⁰, 10⁻¹⁰]: the min over
    the cap reaches −10⁻¹⁰ (y = −10⁻¹⁰, q = p̄) and the max +10⁻¹⁰, so the enclosures reach them."""
    pb = [A(1), A(0)]
    with working_precision(PREC):
        lo, hi = C.cap_extremes([A(0), A(0)], pb, F(1, 10))
        assert lo == 0 and hi == 0
        lo, hi = C.cap_extremes([arb(0, 1e-10), A(0)], pb, F(1, 10))
        assert lo.lower() <= -A("1e-10") and hi.upper() >= A("1e-10")


def test_cap_extremes_short_w_inside_the_cap():
    """w = p̄/8 (‖w‖ = 1/8 < 1 − μ): the max is ‖w‖ = 1/8 at q = p̄, the min (9/10)/8 on the cap's edge."""
    with working_precision(PREC):
        lo, hi = C.cap_extremes([A(F(1, 8)), A(0)], [A(1), A(0)], F(1, 10))
        assert _near(hi, F(1, 8)) and _near(lo, F(9, 80))


def test_leading_term_exact_tie_and_a_small_positive_coefficient():
    """Rows (1,0) and (0,1), q = (1/2, 1/2): both margins are exactly 1/2 → not separated (None). Fig. 1(b) with
    v = e1/8: coefficient (41/10)(9/10)(1/8) = 369/800 ∈ (0, 1) → sign +1."""
    rows = {(0, 1): (F(1), F(0)), (0, 2): (F(0), F(1))}
    g = _manual_geometry(rows, {(0, 1): F(1), (0, 2): F(1)}, {0: [1, 2]}, {0: []}, ((1, 0, 0),), (0,), (F(1), F(1)))
    with working_precision(PREC):
        s, detail, coef = C.leading_term(g, [A("0.5"), A("0.5")], [A(1), A(0)], _Loss())
        assert s is None and coef is None and "not separated" in detail
        s, _, coef = C.leading_term(_fig1b(), [A(1), A(0), A(0)], [A(F(1, 8)), A(0), A(0)], _Loss())
        assert s == 1 and _near(coef, F(369, 800))


def test_radius_scale_float_edges_and_exact_roots():
    """Rounded up to two significant digits, exactly beyond float64's range:
    * Fraction(1e300) > 10³⁰⁰ (checked) → √ > 10¹⁵⁰ → 1.1·10¹⁵⁰; Fraction(1e−300) > 10⁻³⁰⁰ → 1.1·10⁻¹⁵⁰ (the
      float64 path would give 10¹⁵⁰ and 10⁻¹⁵⁰: the bounds 1e±300 themselves take the exact path);
    * (1.5·10²⁰⁰)² + 1 is not a square: √ > 1.5·10²⁰⁰ → 1.6·10²⁰⁰; 10⁴⁰⁰/2 has a square numerator only:
      √ = 10²⁰⁰/√2 = 7.07…·10¹⁹⁹ → 7.1·10¹⁹⁹.
    * In float64's range the mantissa x/10^e is rounded up with a 10⁻¹² allowance (float √ of an exact square may
      come out a few ulps high): 81/100 + 10⁻¹⁵ has √ = 0.9 + 5.6·10⁻¹⁶, mantissa 90 + 5.6·10⁻¹⁴ → 0.9."""
    assert F(1e300) > F(10) ** 300 and F(1e-300) > F(10) ** -300
    assert C.radius_scale(F(1e300)) == 11 * F(10) ** 149
    assert C.radius_scale(F(1e-300)) == 11 * F(10) ** -151
    assert C.radius_scale(F(15 * 10 ** 199) ** 2 + 1) == 16 * F(10) ** 199
    assert C.radius_scale(F(10) ** 400 / 2) == 71 * F(10) ** 198
    assert C.radius_scale(F(81, 100) + F(1, 10 ** 15)) == F(9, 10)
    assert C.radius_scale(F(121, 100) + F(1, 10 ** 15)) == F(11, 10)
