"""verify.kit.key_lemma (mutation tests): the vertices of {a = Fq : ‖a‖∞ ≤ 1} derived by hand (a square, a segment,
a hexagon), the cancellation-free terms against the Key Lemma's definition and its identity in exact arithmetic,
the tie bound M_a·M_γ/(factor·Γ·A) in closed form, and the scan's coverage counted from its parts: every seeded
and difference direction (``verify.geometry.probes.directions``) × every scale × every q and vertex."""
from fractions import Fraction
from fractions import Fraction as F

import pytest
from flint import arb

from verify.geometry.probes import SCALES, directions
from verify.kit.key_lemma import (
    SEEDED_DIRECTIONS,
    key_lemma_scan,
    key_lemma_terms,
    logit_vertices,
    tie_bound,
    unique_reference,
)
from verify.numbers.precision import to_arb, working_precision


def test_logit_vertices_by_hand():
    assert set(logit_vertices([[1, 0], [0, 1]])) == {(1, 1), (1, -1)}  # the square, one of each ± pair
    assert logit_vertices([[1], [2], [0]]) == [(F(1, 2), 1, 0)]  # the segment t(1, 2, 0), |t| ≤ 1/2
    # |x|, |y|, |x + y| ≤ 1: the hexagon (1,0), (0,1), (−1,1) and their negatives
    assert set(logit_vertices([[1, 0], [0, 1], [1, 1]])) == {(1, 0, 1), (0, 1, 1), (1, -1, 0)}
    assert logit_vertices([[0], [0]]) == [] and logit_vertices([]) == []
    assert logit_vertices([[-2], [1]]) == [(1, F(-1, 2))]  # first entry made positive


def test_key_lemma_terms_are_the_definition_and_the_identity():
    """a = (2, −1, 1/2), γ = (1, 0, −3), s = (1/2, 1/3, 1/6), reference 0: LHS = aᵀdiag(s)γ − aᵀssᵀγ −
    Σ_{t≠0}(a₀ − a_t)s_t(γ₀ − γ_t) and −(Σs_t(a₀−a_t))(Σs_t(γ₀−γ_t)), both exactly."""
    a, g, s = (F(2), F(-1), F(1, 2)), (F(1), F(0), F(-3)), (F(1, 2), F(1, 3), F(1, 6))
    lhs = sum(x * y * z for x, y, z in zip(a, s, g)) - sum(x * y for x, y in zip(a, s)) * sum(
        x * y for x, y in zip(s, g)) - sum((a[0] - a[t]) * s[t] * (g[0] - g[t]) for t in (1, 2))
    ident = -sum(s[t] * (a[0] - a[t]) for t in (1, 2)) * sum(s[t] * (g[0] - g[t]) for t in (1, 2))
    assert lhs == ident
    mag = sum(s[t] * abs(a[0] - a[t]) for t in (1, 2)) * sum(s[t] * abs(g[0] - g[t]) for t in (1, 2))
    with working_precision(30):
        da = [to_arb(a[0] - x) for x in a]
        dg = [to_arb(g[0] - x) for x in g]
        L, I, off, m = key_lemma_terms(da, dg, [to_arb(x) for x in s], 0)
        for got, want in ((L, lhs), (I, ident), (off, F(1, 2)), (m, mag)):
            assert abs(got - to_arb(want)) < arb(10) ** -25
        # reference 1: the same quantities with token 1 as reference
        da = [to_arb(a[1] - x) for x in a]
        dg = [to_arb(g[1] - x) for x in g]
        L, I, off, _ = key_lemma_terms(da, dg, [to_arb(x) for x in s], 1)
        lhs1 = sum(x * y * z for x, y, z in zip(a, s, g)) - sum(x * y for x, y in zip(a, s)) * sum(
            x * y for x, y in zip(s, g)) - sum((a[1] - a[t]) * s[t] * (g[1] - g[t]) for t in (0, 2))
        assert abs(L - to_arb(lhs1)) < arb(10) ** -25 and abs(I - to_arb(lhs1)) < arb(10) ** -25
        assert abs(off - to_arb(F(2, 3))) < arb(10) ** -25


def test_tie_bound_closed_form():
    assert tie_bound((1, -1), (1, 0), 0, 2, 2) == 1  # M_a = 2, M_γ = 1, factor·Γ·A = 2·1·1
    assert tie_bound((F(1, 2), 1, 0), (3, 1, 0), 0, 2, 2) == F(1, 2) * 3 / (2 * 3 * 1)
    assert tie_bound((1, -1), (1, 0), 0, 2, 1) is None  # power 1: no structure used
    assert tie_bound((1, -1), (1, 1), 0, 2, 2) is None  # Γ = 0
    assert tie_bound((0, 0), (1, 0), 0, 2, 2) is None  # A = 0


def test_unique_reference():
    h = unique_reference(((0,), (2,)), "unique")
    assert (h.met, h.detail, h.name) == (True, "opt = {0}, {2}", "unique")
    assert unique_reference(((0, 1),), "u").met is False


def test_scan_counts_every_probe_point_and_decides_both_sides():
    """One sequence, keys (1, 0), (0, 1), (0, 0), scores (1, 0, 0): its directions × SCALES × (q_count seeded q's +
    the vertices of its logit polytope). With factor 2 the lemma holds at every point; with factor 1/100 it fails."""
    feats = [[(F(1), F(0)), (F(0), F(1)), (F(0), F(0))]]
    scores = [(F(1), F(0), F(0))]
    dirs = directions(feats, count=SEEDED_DIRECTIONS, seed=0)
    assert set(logit_vertices(feats[0])) == {(1, 1, 0), (1, -1, 0)}  # a = (x, y, 0): the square |x|, |y| ≤ 1
    nv = 2
    with working_precision(20):
        scan = key_lemma_scan(feats, scores, ((0,),), q_count=2)
        n = len(dirs) * len(SCALES) * (2 + nv)
        assert scan.ratio.coverage.points == n == scan.overlap.coverage.points
        assert scan.ratio.evidence().decide() is True and scan.overlap.evidence().decide() is True
        assert len(scan.covered) == 1 and str(SEEDED_DIRECTIONS) in scan.covered[0]
        seeded = key_lemma_scan(feats, scores, ((0,),), q_count=2, hardest_q=False)
        assert seeded.ratio.coverage.points == len(dirs) * len(SCALES) * 2
        assert seeded.covered[1] == "q ∈ 2 seeded directions"
        bad = key_lemma_scan(feats, scores, ((0,),), factor=F(1, 100), q_count=2)
        assert bad.ratio.evidence().decide() is False and bad.ratio.coverage.points == n
        assert len(bad.evidence()) == 4 and bad.min_off is not None and bad.min_off < arb(10) ** -100


# ----- the Key Lemma on its whole domain, by exact algebra (kit.key_lemma.proven_on_domain) -------------------
def _printed_lhs(s, a, g):
    """(16)'s printed left side, computed here from its definition with Fractions."""
    T = len(s)
    ads = sum(a[t] * s[t] * g[t] for t in range(T))
    return ads - sum(a[t] * s[t] for t in range(T)) * sum(s[t] * g[t] for t in range(T)) - \
        sum((a[0] - a[t]) * s[t] * (g[0] - g[t]) for t in range(1, T))


def test_the_identity_holds_for_small_T_and_a_wrong_identity_is_caught():
    from verify.kit.key_lemma import identity_holds

    assert all(identity_holds(T) for T in (2, 3, 4, 6))
    # independent spot check of the identity at a rational point (T = 4)
    s = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    a, g = [Fraction(3), Fraction(-1), Fraction(2, 3), Fraction(0)], [Fraction(1), Fraction(5), Fraction(-2), Fraction(7, 3)]
    ident = -sum(s[t] * (a[0] - a[t]) for t in range(1, 4)) * sum(s[t] * (g[0] - g[t]) for t in range(1, 4))
    assert _printed_lhs(s, a, g) == ident


@pytest.mark.parametrize("factor, power, holds", [(2, 2, True), (3, 2, True), (2, 1, True), (1, 2, False),
                                                  ("19/10", 2, False), (2, 3, False), ("3/2", 1, False)])
def test_proven_on_domain_decides_every_constant_exactly(factor, power, holds):
    """The supremum of the ratio is 2/factor for power ≤ 2 and unbounded for power > 2 (derivation in the kit's
    docstring); a failure carries an exact witness on the family a = (1, −1, −1), γ = (1, 0, 0), s = (1 − x, x/2, x/2),
    whose ratio is recomputed here from the printed left side."""
    from verify.kit.key_lemma import proven_on_domain

    ident, sup = proven_on_domain(3, factor, power)
    assert ident.decide() is True and ident.decided_by() == "exact"
    assert sup.decide() is holds and sup.decided_by() == "exact"
    f = Fraction(factor)
    if holds:
        assert sup.value == 2 / f
    else:
        x = Fraction(sup.note.split("x = ")[1].split(":")[0])
        s, a, g = [1 - x, x / 2, x / 2], [1, -1, -1], [1, 0, 0]
        assert sup.value == abs(_printed_lhs(s, a, g)) / (f * x ** power) > 1
