"""The declared rules of verify.claims.rules, each tested on both sides of its threshold with
sequences built here from closed forms (y = x^-a exactly, plateaus, stalls)."""
from fractions import Fraction

from flint import arb

from verify.claims import rules
from verify.numbers.precision import working_precision

XS = [100, 200, 500, 1000]


def power(a, xs=XS, c=1):
    return [c * arb(x) ** (-arb(a)) for x in xs]


def test_decays_holds_at_the_derived_rate_and_just_above_half_of_it():
    with working_precision(30):
        assert rules.decays(XS, power(2), expected=2).holds is True
        assert rules.decays(XS, power("1.01"), expected=2).holds is True  # half of 2 is 1


def test_decays_is_undecided_just_below_half_the_derived_rate():
    with working_precision(30):
        d = rules.decays(XS, power("0.99"), expected=2)
        assert d.holds is None and "0.99" in d.detail


def test_decays_without_a_derived_rate_uses_the_minimum_exponent():
    with working_precision(30):
        assert rules.decays(XS, power("0.11")).holds is True
        assert rules.decays(XS, power("0.09")).holds is None


def test_decays_needs_a_strict_decrease():
    with working_precision(30):
        ys = power(2)
        ys[2] = ys[1]  # one flat step: not strictly decreasing, fitted exponent still large
        assert rules.decays(XS, ys, expected=2).holds is None


def test_a_plateau_fails_and_a_slow_decay_does_not():
    with working_precision(30):
        flat = [arb("0.3") * (1 + arb(k) / 1000) for k in range(4)]  # ~constant 0.3
        d = rules.decays(XS, flat[::-1], expected=2)
        assert d.holds is False and "plateau" in d.detail
        # exponent 0.04 < 1/20 but the value falls below half over a long range: not a plateau
        xs = [10**k for k in (0, 4, 8, 12)]
        slow = power("0.04", xs)
        assert rules.decays(xs, slow).holds is None
        # exponent 0.06 > 1/20 and kept: not a plateau either
        assert rules.decays(XS, power("0.06")).holds is None


def test_a_plateau_is_not_read_where_the_window_cannot_show_a_slow_derived_rate():
    """XS spans x × 10: a decay at rate κ keeps 10^−κ of y, so κ = 1/20 (0.89) cannot be told from a plateau
    (needs κ·ln 10 ≥ ln 2, κ ≥ 0.301); κ = 2/5 can. The same flat values: undecided, then a plateau."""
    with working_precision(30):
        flat = [arb("0.3") * (1 + arb(k) / 1000) for k in range(4)][::-1]
        d = rules.decays(XS, flat, expected=Fraction(1, 20))
        assert d.holds is None and "too short to tell it from a plateau" in d.detail
        assert rules.decays(XS, flat, expected=Fraction(2, 5)).holds is False
        assert rules.decays(XS, flat).holds is False  # no derived rate: the plateau rule as before
        assert rules.decays(XS, power("0.05"), expected=Fraction(1, 20)).holds is True  # the rate itself


def test_a_plateau_below_the_floor_is_not_a_failure():
    with working_precision(30):
        flat = [arb(10) ** -40] * 4
        assert rules.decays(XS, flat, floor=Fraction(1, 1000)).holds is None
        assert rules.decays(XS, [arb(1)] * 4, floor=Fraction(1, 1000)).holds is False


def test_decays_needs_enough_points():
    with working_precision(30):
        assert rules.decays(XS[:3], power(2, XS[:3])).holds is None


def test_diverges_on_both_sides():
    with working_precision(30):
        assert rules.diverges(XS, power("-0.51")).holds is True
        assert rules.diverges(XS, power("-0.49")).holds is None
        assert rules.diverges(XS, power("-0.11")).holds is None
        assert rules.diverges(XS, power("-0.09")).holds is False


def test_vanishes_on_both_sides():
    with working_precision(30):
        assert rules.vanishes(arb(10) ** -11).holds is True
        assert rules.vanishes(arb(10) ** -9).holds is None
        assert rules.vanishes(arb("0.6")).holds is False
        assert rules.vanishes(arb("0.6"), stuck_confirmed=False).holds is None
        assert rules.vanishes(arb("0.4")).holds is None
        # relative to its reference: 1e-12/1e-3 = 1e-9 is not yet small, 1e-14/1e-3 = 1e-11 is
        assert rules.vanishes(arb(10) ** -12, reference=arb(10) ** -3).holds is None
        assert rules.vanishes(arb(10) ** -14, reference=arb(10) ** -3).holds is True


def test_extrapolates_to_zero_on_both_sides():
    with working_precision(30):
        xs = [1 / arb(k) for k in (5, 6, 8, 10)]  # 1/ln µ
        tol = arb(10) ** -25
        assert rules.extrapolates_to_zero(xs, [2 * x for x in xs], tol).holds is True  # a = 0
        stalled = [arb("0.3") + x / 100 for x in xs]  # a = 0.3 ≫ half the last value? last ≈ 0.301
        assert rules.extrapolates_to_zero(xs, stalled, tol).holds is False
        mid = [arb("0.05") + 2 * x for x in xs]  # a = 0.05, last 0.25: between 1/4 and 1/2 of it? 0.05 < 0.0625
        assert rules.extrapolates_to_zero(xs, mid, tol).holds is True
        mid2 = [arb("0.1") + 2 * x for x in xs]  # a = 0.1 > 0.3/4 = 0.075 and < 0.15: undecided
        assert rules.extrapolates_to_zero(xs, mid2, tol).holds is None


def test_extrapolates_to_zero_with_a_drifting_numerator_on_both_sides():
    with working_precision(30):
        xs = [1 / arb(k) for k in (5, 6, 8, 10)]  # 1/ln µ
        tol = arb(10) ** -25
        stalled = [arb("0.3") + x / 100 for x in xs]  # h = y·ln µ = 0.3·ln µ + 0.01: from the ends a = 1.5/5 = 0.3
        # drift 0.05: a ≥ (1.5 − 0.05)/5 = 0.29 > ½·0.301 — still a stall; drift 1: a ≥ 0.1 < 0.1505 — not read
        assert rules.extrapolates_to_zero(xs, stalled, tol, drift=Fraction(1, 20)).holds is False
        assert rules.extrapolates_to_zero(xs, stalled, tol, drift=1).holds is None
        # a pre-asymptotic rise of the numerator c (h = c, y = c/ln µ with c = 1, 1.5, 2.2, 2.6): the fit alone calls
        # it a stall; a drift of c as large as its rise (1.6) leaves it undecided, never VIOLATED
        rising = [arb(c) * x for c, x in zip(("1", "1.5", "2.2", "2.6"), xs)]
        assert rules.extrapolates_to_zero(xs, rising, tol).holds is False
        assert rules.extrapolates_to_zero(xs, rising, tol, drift=Fraction(8, 5)).holds is None
        # a decay (a = 0, h = 2 constant): read with a small drift (a ≤ (0 + 0.1)/5 = 0.02 ≤ ¼·0.2), not with a
        # drift that could hide a limit (a ≤ (0 + 1)/5 = 0.2 > 0.05)
        assert rules.extrapolates_to_zero(xs, [2 * x for x in xs], tol, drift=Fraction(1, 10)).holds is True
        assert rules.extrapolates_to_zero(xs, [2 * x for x in xs], tol, drift=1).holds is None


def test_witness_is_the_smallest_radius_from_which_it_holds_everywhere_deeper():
    radii = [1, 2, 5, 10, 20]
    ok = {1: True, 2: False, 5: True, 10: True, 20: True}
    R, d = rules.witness(radii, lambda r: ok[r])
    assert R == 5 and d.holds is True
    R, d = rules.witness(radii, lambda r: r != 20)
    assert R is None and d.holds is None
    R, d = rules.witness(radii, lambda r: None if r == 10 else True)
    assert R == 20


def test_near_limit_on_both_sides_of_the_slack():
    with working_precision(30):
        lo, hi = arb("0.25"), arb("0.5")
        slack = arb(rules.LIMIT_SLACK.numerator) / rules.LIMIT_SLACK.denominator
        inside = [arb("0.25") * (1 - slack / 2), arb("0.3"), arb("0.5") * (1 + slack / 2)]
        assert rules.near_limit(inside, lo=lo, hi=hi).holds is True
        assert rules.near_limit([arb("0.25") * (1 - 2 * slack)], lo=lo).holds is False  # below lo(1 − slack)
        assert rules.near_limit([arb("0.5") * (1 + 2 * slack)], hi=hi).holds is False  # above hi(1 + slack)
        assert rules.near_limit([arb("0.25") * (1 - 2 * slack)], hi=hi).holds is True  # only the upper end checked
        straddle = arb("0.25") * (1 - slack) + arb(0, "1e-20")  # a ball across lo(1 − slack)
        assert rules.near_limit([straddle], lo=lo).holds is None
        assert rules.near_limit([], lo=lo).holds is None


def test_radius_refuted_needs_an_exit_from_every_radius_tried():
    n = rules.REFUTING_RADII
    radii = [20 * 2 ** k for k in range(n)]
    d = rules.radius_refuted([(r, True) for r in radii])
    assert d.holds is False and str(radii[-1]) in d.detail
    assert rules.radius_refuted([(r, True) for r in radii[:-1]]).holds is None  # one radius short: undecided
    d = rules.radius_refuted([(20, True), (40, False)])
    assert d.holds is True and "R = 40" in d.detail
    assert rules.radius_refuted([(20, True), (40, None)]).holds is None


def test_decays_holds_when_the_value_is_zero_to_the_working_precision():
    with working_precision(30):
        tol = arb(10) ** -30
        tiny = [arb(0, "1e-40")] * 4  # balls around 0: no fit, no strict decrease
        assert rules.decays(XS, tiny, expected=2).holds is None
        assert rules.decays(XS, tiny, expected=2, zero=tol).holds is True
        assert rules.decays(XS, [arb(10) ** -29] * 4, expected=2, zero=tol).holds is False  # a plateau above it


def test_sdp_distance_resolution_counts_as_zero_only_at_or_below_it():
    res = rules.SDP_DISTANCE_RESOLUTION
    below = [res / 10] * 4  # equal values: no strict decrease, exponent 0
    assert rules.decays(XS, below, zero=res).holds is True
    above = [res * 2] * 4
    assert rules.decays(XS, above, zero=res).holds is False  # a plateau above the resolution


def test_correlates_on_both_sides_of_the_papers_threshold():
    with working_precision(30):
        assert rules.GEN_SVM_CORRELATION == Fraction(99, 100)
        assert rules.correlates(arb("0.9901")).holds is True
        assert rules.correlates(arb("0.9899")).holds is False
        assert rules.correlates(Fraction(99, 100)).holds is False  # "more than 0.99"
        assert rules.correlates(arb("0.99 +/- 0.001")).holds is None


def test_rule_stays_away_both_sides():
    xs = [arb(x) for x in (10, 100, 1000, 10000)]
    flat = [arb("0.5"), arb("0.49"), arb("0.49"), arb("0.48")]
    decay = [arb(10) ** -k for k in (1, 2, 3, 4)]
    assert rules.stays_away(xs, flat).holds is True
    assert rules.stays_away(xs, decay).holds is False
    assert rules.stays_away(xs, [arb(0)] * 4, zero=Fraction(1, 10**20)).holds is False
    assert rules.stays_away(xs[:2], flat[:2]).holds is None


def test_saturated_on_both_sides_of_the_off_mass_threshold():
    """SATURATED_OFF_MASS = 1/10: at most a tenth of every row's attention off the selection."""
    assert rules.SATURATED_OFF_MASS == Fraction(1, 10)
    with working_precision(30):
        assert rules.saturated([Fraction(99, 1000), arb("1e-10")]) is True        # just below it: saturated
        assert rules.saturated([arb("0.0999"), arb("0.1001")]) is False           # one row above it
        assert rules.saturated([Fraction(1, 2)]) is False                         # the linear regime, T = 2
        assert rules.saturated([arb("0.1", "0.01")]) is None                      # a ball straddling it


def test_in_regime_reads_a_trend_only_in_the_regime():
    with working_precision(30):
        flat = [arb("1.109")] * 4                                                  # a pre-asymptotic flat stretch
        plateau = rules.decays(XS, flat)
        assert plateau.holds is False
        assert rules.in_regime(plateau, True, "x").holds is False                  # in the regime: a failure
        off = rules.in_regime(plateau, False, "logits below ln(BT/c)")
        assert off.holds is None and "logits below ln(BT/c)" in off.detail and "too short" in off.detail
        assert rules.in_regime(plateau, None, "undecided").holds is None
        decay = rules.decays(XS, power(2), expected=2)
        assert rules.in_regime(decay, True, "x").holds is True
        assert rules.in_regime(decay, False, "x").holds is None                    # a decay outside says nothing


def test_matches_derived_on_both_sides_of_its_thresholds():
    with working_precision(30):
        agree, disagree = rules.RATE_AGREEMENT, rules.RATE_DISAGREEMENT
        assert rules.matches_derived(Fraction(639, 1000), Fraction(639, 1000)).holds is True
        assert rules.matches_derived(1 + agree * Fraction(99, 100), 1).holds is True      # just inside
        assert rules.matches_derived(1 - agree * Fraction(99, 100), 1).holds is True
        assert rules.matches_derived(1 + agree * Fraction(101, 100), 1).holds is None     # just outside
        assert rules.matches_derived(1 - disagree * Fraction(99, 100), 1).holds is None
        assert rules.matches_derived(1 + disagree, 1).holds is False                      # at the threshold
        assert rules.matches_derived(Fraction(639, 1000), 1).holds is False              # κ against 1: 36 % off
        assert rules.matches_derived(arb("1.0") + arb("0", "0.5"), 1).holds is None       # a wide ball: undecided
        assert rules.matches_derived(1, 0).holds is None


def test_face_point_resolution_on_both_sides():
    with working_precision(30):
        res = arb(rules.FACE_POINT_RESOLUTION.numerator) / rules.FACE_POINT_RESOLUTION.denominator
        flat = lambda c: [c * arb(1) for _ in XS]  # noqa: E731 - a plateau at c
        assert rules.decays(XS, flat(res / 2), zero=rules.FACE_POINT_RESOLUTION).holds is True  # 0 to the proposal
        assert rules.decays(XS, flat(res * 2), zero=rules.FACE_POINT_RESOLUTION).holds is False  # a plateau above it


def test_withheld_is_undecided_and_says_what_the_rule_would_have_said():
    for holds, said in ((True, "holds"), (False, "fails"), (None, "undecided")):
        w = rules.withheld(rules.Decision(holds, "r", "d"), "why")
        assert (w.holds, w.rule, w.detail) == (None, "r", f"why (on these values the rule {said}: d)")
