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


# ----- the scan's items, ties, saturation and coverage (one T = 2 sequence: the bound attained everywhere) -------
T2 = ([[(F(1),), (F(-1),)]], [(F(1), F(0))])  # keys ±1, γ = (1, 0): a = (q, −q), ratio exactly 1 at every point


def _tied():
    """The T = 2 scan on its defaults, run inside each test (mutmut maps the calls of a test's body to it)."""
    with working_precision(20):
        return key_lemma_scan(*T2, ((0,),))


def test_a_t2_scan_attains_the_bound_and_ties_are_decided_exactly():
    """T = 2: LHS = −s₂²(a₁ − a₂)(γ₁ − γ₂) and factor·Γ·A·s₂² = 2·1·|q|·s₂², so the ratio is 1 at every point (a
    = (q, −q)); the tie bound M_a·M_γ/(2·Γ·A) = 2|q|·1/(2|q|) = 1. Defaults: q_count = 3 seeded q's plus the one
    vertex (1, −1); 6 directions (4 seeded, ±(k₁ − k₂)); 8 scales. The tally's value is the exact 1 of a tie."""
    tied = _tied()
    dirs = directions(T2[0], count=SEEDED_DIRECTIONS, seed=0)
    n = len(dirs) * len(SCALES) * (3 + 1)
    assert len(dirs) == 6 and tied.ratio.coverage.points == n == tied.overlap.coverage.points
    assert 0 < tied.ties <= n and tied.ratio.evidence().value == 1
    ratio, overlap, dev, sat = tied.evidence()
    assert ratio.decide() is True and overlap.decide() is True
    assert ratio.note.startswith(f"{tied.ties} point(s) where the bound is attained (the ball straddles it)")
    assert dev.residual is True and dev.value.overlaps(tied.deviation) and 0 < tied.deviation < arb(10) ** -20
    assert sat.value.overlaps(tied.min_off) and sat.relation == "~"
    assert "vertex 0 of {‖Kq‖∞ ≤ 1}" in " ".join([ratio.coverage.worst_at, ratio.note]) or tied.ties


def test_a_t2_scan_saturation_and_the_smallest_off_mass():
    """Saturation: one record per scale along direction 0 and q 0: (log10(1 − s₁), ratio 1); at scale 0 the
    softmax is uniform, 1 − s₁ = 1/2. The smallest 1 − s₁: ‖p‖∞ = 1000 along a direction with p > 0, logits
    (1000, −1000): 1 − s₁ = e^{−2000}/(1 + e^{−2000})."""
    tied = _tied()
    import math

    import mpmath

    assert len(tied.saturation) == len(SCALES)
    assert abs(tied.saturation[0][0] - math.log10(0.5)) < 1e-12 and all(abs(r - 1) < 1e-12 for _, r in tied.saturation)
    with mpmath.workdps(30):
        want = mpmath.log(mpmath.exp(-2000) / (1 + mpmath.exp(-2000)))
        assert abs(mpmath.log(mpmath.mpf(tied.min_off.mid().str(25, radius=False))) - want) < 1e-15


def test_power_one_has_no_ties_and_the_bound_holds_by_enclosure():
    """power 1, factor 3: the ratio is (2/3)(1 − s₁) < 2/3 (T = 2), decided by the enclosures, no tie structure;
    its largest value, where s₁ → 0 (‖p‖∞ = 1000 along a direction with p < 0), is 2/3 to many digits."""
    with working_precision(20):
        scan = key_lemma_scan(*T2, ((0,),), factor=3, power=1, q_count=1)
        e = scan.ratio.evidence()
        assert scan.ties == 0 and e.decide() is True and "the bound is attained" not in e.note
        assert abs(e.value - arb(2) / 3) < arb(10) ** -15


def test_a_smaller_factor_fails_at_the_tie():
    """factor 1: the ratio is 2 at every point, its ball certainly above 1 (no tie): the ratio tally fails at 2."""
    with working_precision(20):
        scan = key_lemma_scan(*T2, ((0,),), factor=1, q_count=1)
    assert scan.ratio.evidence().decide() is False and abs(scan.ratio.evidence().value - 2) < 1e-15 and scan.ties == 0


def test_the_scan_names_its_coverage_for_w():
    """names = (direction, ‖W‖∞, z): the covered text names W's scale and the feature differences; the vertex
    labels name {‖Xzz‖∞ ≤ 1}."""
    with working_precision(20):
        scan = key_lemma_scan(*T2, ((0,),), q_count=1, names=("d", "‖W‖∞", "z"), hardest_q=False)
    assert scan.covered[0].startswith("W along 4 seeded directions and ± each sequence's feature differences, ‖W‖∞ ∈ {")
    assert scan.covered[1] == "z ∈ 1 seeded directions"
    from verify.kit.key_lemma import _logits

    assert _logits("q") == "Kq" and _logits("z") == "Xzz"


def test_two_sequences_use_their_own_reference_and_directions():
    """Sequence 1 has its optimal token last (reference 2): its LHS uses a₂ − a_t; scanning it alone or beside
    sequence 0 gives the same worst ratio for it, and the counts add up."""
    feats = [[(F(1), F(0)), (F(0), F(1)), (F(0), F(0))], [(F(0), F(0)), (F(1), F(1)), (F(2), F(-1))]]
    scores = [(F(1), F(0), F(0)), (F(0), F(1, 2), F(2))]
    with working_precision(20):
        both = key_lemma_scan(feats, scores, ((0,), (2,)), q_count=1)
        one = key_lemma_scan(feats[1:], scores[1:], ((2,),), q_count=1)
        zero = key_lemma_scan(feats[:1], scores[:1], ((0,),), q_count=1)
        wrong = key_lemma_scan(feats[1:], scores[1:], ((0,),), q_count=1)
    assert both.ratio.coverage.points == one.ratio.coverage.points + zero.ratio.coverage.points
    assert both.ratio.evidence().decide() is True and not wrong.ratio.evidence().value.overlaps(one.ratio.evidence().value)
    assert len(both.saturation) == 2 * len(SCALES)


def test_proven_on_domain_witness_is_the_first_failing_x():
    """power 3, factor 8: the ratio on the family is (2/8)/x = 1/(4x) > 1 first at x = 1/8 of 1/2, 1/4, 1/8 (x = 1/4
    gives exactly 1); power 1, factor 3/2: (4/3)x > 1 first at x = 7/8 of 1/2, 3/4, 7/8 (3/4 gives exactly 1)."""
    from verify.kit.key_lemma import proven_on_domain

    _, sup = proven_on_domain(3, 8, 3)
    assert "x = 1/8:" in sup.note and sup.value == 2
    _, sup = proven_on_domain(3, F(3, 2), 1)
    assert "x = 7/8:" in sup.note and sup.value == F(7, 6)
    _, sup = proven_on_domain(2, 2, 2, symbol="W")
    assert sup.value == 1 and "W = (1, −1, …, −1)" in sup.note and "s₁ = 1/2 it is 1 (exact)" in sup.note


def test_proven_on_domain_without_the_identity_searches_a_witness(monkeypatch):
    """The identity refuted (a stand-in): the sup item is no proof; the family's ratio is 1 at every x for factor 2,
    power 2, so the search runs its 4000 steps, x = 1 − 2^−4001, and reports the exact 1."""
    from verify.kit import key_lemma as K

    monkeypatch.setattr(K, "identity_holds", lambda T: False)
    ident, sup = K.proven_on_domain(3)
    assert ident.decide() is False and sup.value == 1
    assert f"x = {1 - F(1, 2**4001)}:" in sup.note


def test_key_lemma_terms_magnitude_and_off_mass():
    """a = (1, 0, 3), γ = (2, 1, −1), s = (1/4, 1/4, 1/2), reference 0: da = (0, 1, −2), dg = (0, 1, 3);
    1 − s₀ = 3/4, magnitude (1/4 + 1)(1/4 + 3/2) = 35/16 (the product, neither factor 1)."""
    a, g, s = (1, 0, 3), (2, 1, -1), (F(1, 4), F(1, 4), F(1, 2))
    with working_precision(30):
        da = [to_arb(a[0] - x) for x in a]
        dg = [to_arb(g[0] - x) for x in g]
        L, ident, off, m = key_lemma_terms(da, dg, [to_arb(x) for x in s], 0)
        want = -(F(1, 4) * 1 + F(1, 2) * -2) * (F(1, 4) * 1 + F(1, 2) * 3)
        assert abs(m - to_arb(F(35, 16))) < arb(10) ** -25 and abs(off - to_arb(F(3, 4))) < arb(10) ** -25
        assert abs(L - to_arb(want)) < arb(10) ** -25 and abs(ident - to_arb(want)) < arb(10) ** -25


def test_a_single_token_polytope_is_the_segment():
    """T = 1: {a = kq : |a| ≤ 1} has the vertex a = 1 (kept as the positive one of ±1)."""
    assert logit_vertices([[2]]) == [(1,)] and logit_vertices([[F(-1, 3), 5]]) == [(1,)]


def test_the_scan_labels_its_points():
    """The tightest tie is named with "(tie, exact structure)" (the first point: direction 0, scale 0, q 0); the
    overlap and enclosure-decided ratio points carry their sequence/direction/scale/q label."""
    tied = _tied()
    assert tied.ratio.coverage.worst_at == "sequence 0, direction 0, ‖p‖∞ = 0, q 0 (tie, exact structure)"
    assert tied.ties > 1 and tied.overlap.coverage.worst_at.startswith("sequence 0, direction 0, ‖p‖∞ = ")
    assert tied.overlap.quantity.startswith("LHS and −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)) overlap")
    with working_precision(20):
        scan = key_lemma_scan(*T2, ((0,),), factor=3, power=1, q_count=1)
    w = scan.ratio.coverage.worst_at
    assert w.startswith("sequence 0, direction ") and ", ‖p‖∞ = " in w and "(tie" not in w
    ratio = scan.evidence()[0]
    assert ratio.note == scan.ratio.evidence().note and "the bound is attained" not in ratio.note


def test_the_scale_uses_the_score_range():
    """γ = (1, −1): Γ = max γ − min γ = 2, M_γ = 2: the ratio is still 1 at every point (ties), the tally holds."""
    with working_precision(20):
        scan = key_lemma_scan(T2[0], [(F(1), F(-1))], ((0,),), q_count=1)
    e = scan.ratio.evidence()
    assert e.decide() is True and e.value == 1


def test_progress_counts_probe_points(monkeypatch):
    """The progress line counts direction × scale points: 6 directions × 8 scales = 48."""
    from verify.claims import progress as P

    lines = []
    monkeypatch.setattr(P, "MIN_INTERVAL", -1.0)
    with working_precision(20), P.progress_sink(lines.append):
        key_lemma_scan(*T2, ((0,),), q_count=1)
    assert lines[0] == "probe points 0/48" and lines[-1] == "probe points 48/48" and len(lines) == 49


def test_saturation_records_follow_the_seeded_directions():
    """Recomputed here from the definition with mpmath: the first probe direction (seed 0) at every scale, the first
    logit direction q (seed 1, from all sequences' features), softmax s of the logits, LHS = aᵀdiag(s)γ − aᵀssᵀγ −
    Σ_{t≠0}(a₀ − a_t)s_t(γ₀ − γ_t) and the ratio |LHS|/(2Γ·A·(1 − s₀)²); log10(1 − s₀)."""
    import mpmath

    from verify.geometry.probes import scaled

    K = [(F(1), F(0)), (F(0), F(1)), (F(-1), F(1))]
    g = (F(1), F(0), F(-1, 2))
    with working_precision(30):
        scan = key_lemma_scan([K], [g], ((0,),), q_count=2, hardest_q=False)
    d0 = directions([K], count=SEEDED_DIRECTIONS, seed=0)[0]
    q0 = directions([K], count=2, seed=1)[0]
    a = [sum(x * y for x, y in zip(row, q0)) for row in K]
    A, Gam = max(abs(x) for x in a), max(g) - min(g)
    assert len(scan.saturation) == len(SCALES)
    with mpmath.workdps(40):
        for (logoff, ratio), sc in zip(scan.saturation, SCALES):
            p = scaled(d0, sc)
            z = [mpmath.mpf(sum(x * y for x, y in zip(row, p)).numerator) / sum(x * y for x, y in zip(row, p)).denominator
                 for row in K]
            m = max(z)
            w = [mpmath.exp(v - m) for v in z]
            s = [v / sum(w) for v in w]
            af = [mpmath.mpf(x.numerator) / x.denominator for x in a]
            gf = [mpmath.mpf(x.numerator) / x.denominator for x in g]
            lhs = (sum(af[t] * s[t] * gf[t] for t in range(3)) - sum(af[t] * s[t] for t in range(3)) *
                   sum(s[t] * gf[t] for t in range(3)) - sum((af[0] - af[t]) * s[t] * (gf[0] - gf[t]) for t in (1, 2)))
            off = s[1] + s[2]
            want = abs(lhs) / (2 * (mpmath.mpf(Gam.numerator) / Gam.denominator) *
                               (mpmath.mpf(A.numerator) / A.denominator) * off ** 2)
            assert abs(ratio - float(want)) < 1e-9 * max(1, float(want))
            assert abs(logoff - float(mpmath.log10(off))) < 1e-9


def test_proven_on_domain_witness_starts_at_one_half():
    """power 3, factor 1: the ratio (2/1)/x is already 4 > 1 at the first x = 1/2 (at x = 1 it would be 2)."""
    from verify.kit.key_lemma import proven_on_domain

    _, sup = proven_on_domain(3, 1, 3)
    assert "x = 1/2:" in sup.note and sup.value == 4


def test_the_deviation_is_relative_to_the_magnitude():
    """γ = (10⁻⁶, 0): |LHS − identity| is rounding of a 10⁻⁶-sized product; relative to the magnitude
    (Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|) ≤ 10⁻⁶·2|q| it is rounding-sized again (≥ 10⁻³³ at 20 digits: the balls are
    inexact), far above the raw difference (≤ 10⁻³⁰·10⁻⁶) and far below 10⁻²⁵."""
    with working_precision(20):
        scan = key_lemma_scan(T2[0], [(F(1, 10**6), F(0))], ((0,),), q_count=1)
    assert arb(10) ** -33 < scan.deviation < arb(10) ** -25


def test_equal_keys_have_zero_magnitude_and_zero_deviation():
    """Keys (1), (1): every logit direction gives a₁ − a_t = 0, so LHS = identity = 0 and the magnitude is 0: the
    deviation is the exact 0 (no division by the zero magnitude), the ratio 0 ≤ 1 at every point."""
    with working_precision(20):
        scan = key_lemma_scan([[(F(1),), (F(1),)]], [(F(1), F(0))], ((0,),), q_count=1)
    assert scan.deviation == 0 and scan.ratio.evidence().decide() is True


def test_saturation_is_recorded_when_the_scale_is_one():
    """factor = 1/(Γ·A) makes factor·Γ·A = 1 exactly (A = |q₀| of the first seeded q): still recorded (≠ 0)."""
    q0 = directions(T2[0], count=1, seed=1)[0]
    with working_precision(20):
        scan = key_lemma_scan(*T2, ((0,),), factor=1 / abs(q0[0]), q_count=1)
    assert len(scan.saturation) == len(SCALES)


def test_a_single_token_sequence_is_scanned_without_error():
    """T = 1: no other token, 1 − s₁ = 0 exactly (a ball), Γ = 0: every point gives 0/0, decided as 0 ≤ 1; the
    smallest 1 − s₁ is the exact 0; no saturation record (the scale factor·Γ·A is 0)."""
    with working_precision(20):
        scan = key_lemma_scan([[(F(1), F(2))]], [(F(1),)], ((0,),), q_count=1)
    assert scan.ratio.evidence().decide() is True and scan.min_off == 0 and scan.saturation == []
    assert scan.ratio.coverage.points == SEEDED_DIRECTIONS * len(SCALES) * 2  # q 0 and the vertex (1)


def test_domain_proof_names_the_domain_on_both_items_with_the_symbol():
    """domain_proof = proven_on_domain's two items, each naming "every s in the open simplex, all <symbol>, γ"
    (proven when they hold); the symbol reaches both the text and the items."""
    from verify.kit.key_lemma import domain_proof

    items = domain_proof(2, symbol="b")
    assert len(items) == 2 and all(e.proves == "every s in the open simplex, all b, γ" for e in items)
    assert [e.level for e in items] == ["proven", "proven"]
    assert "every b, γ" in items[1].quantity
    assert [e.decide() for e in domain_proof(2, factor=Fraction(3, 2))] == [True, False]  # 2/(3/2) > 1
