"""The declared rules (verify.claims.rules) at their exact thresholds and with their names and details
(the name is the ``decided_by: "rule: <name>"`` of the JSON contract). Sequences are built so that
the least-squares fits are exact in floating point (powers of 10 and 2, dyadic values), so a fitted
exponent equal to its threshold is tested as such."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb

from verify.claims import rules
from verify.claims.rules import _f, _lt, _positive, _s, _short, fitted_exponent
from verify.numbers.precision import working_precision

DECADES = [10, 100, 1000, 10000]  # log10 x = 1, 2, 3, 4


@pytest.fixture(autouse=True)
def prec():
    with working_precision(30):
        yield


def inverse(xs, power=1):
    return [Fraction(1, x ** power) for x in xs]


# ----- helpers --------------------------------------------------------------------------------------
def test_fraction_labels():
    assert _f(1) == "1" and _f(Fraction(4, 2)) == "2" and _f(Fraction(7)) == "7"
    assert _f(Fraction(1, 2)) == "1/2" and _f(Fraction(1, 20)) == "1/20" and _f(Fraction(3, 100)) == "3/100"
    assert _f(Fraction(1, 10)) == "1e-1" and _f(Fraction(1, 10**10)) == "1e-10" and _f(Fraction(1, 10**6)) == "1e-6"
    assert _f(Fraction(1, 1001)) == "1/1001" and _f(Fraction(1, 3)) == "1/3" and _f(Fraction(2, 10**6)) == "1/500000"


def test_short_labels():
    assert _s(arb(1) / 3) == "0.3333" and _s(arb(2) / 3) == "0.6667" and _s(arb(10) ** 20 / 3) == "3.333e+19"
    assert _s(arb("inf")) == str(arb("inf")) and _s(arb("nan")) == str(arb("nan"))
    assert _s(arb(1) / 3 + arb(0, "1e-3")) == "0.3333"  # the midpoint, no radius
    unbounded = arb(1) + arb(0, float("inf"))  # a finite midpoint, no bound: shown as the ball, not as 1
    assert _s(unbounded) == str(unbounded) and _s(unbounded) != "1.000"
    assert _short(20) == "20" and _short(Fraction(5, 2)) == "2.5" and _short(1e6) == "1e+06"


def test_lt_is_certain_or_undecided():
    assert _lt(1, 2) is True and _lt(2, 1) is False
    assert _lt(1, 1) is False and _lt(arb(1), Fraction(1)) is False  # equal: certainly not <
    assert _lt(Fraction(1, 2), arb(1)) is True and _lt(arb(1), Fraction(1, 2)) is False  # mixed types
    assert _lt(arb(1) + arb(0, "0.1"), 1) is None


def test_positive():
    assert _positive(Fraction(1, 2)) is True and _positive(0) is False and _positive(-1) is False
    assert _positive(arb(0)) is False and _positive(arb(0, 1)) is False and _positive(arb("0.5")) is True


def test_strictly_decreasing():
    assert rules.strictly_decreasing([3, 2, 1]) is True
    assert rules.strictly_decreasing([3, 3, 1]) is False  # equal: certainly not decreasing
    assert rules.strictly_decreasing([1, 2]) is False
    assert rules.strictly_decreasing([3, arb(2) + arb(0, 2), 1]) is None
    assert rules.strictly_decreasing([3, arb(2) + arb(0, 1), 4]) is False  # one certain failure decides
    assert rules.strictly_decreasing([5]) is True and rules.strictly_decreasing([]) is True


def test_fitted_exponent_uses_positive_points_only():
    assert fitted_exponent(DECADES, inverse(DECADES)) == -1.0
    assert fitted_exponent([10, 1000], [Fraction(1, 10), Fraction(1, 1000)]) == -1.0  # two points suffice
    assert fitted_exponent([10], [1]) is None
    xs = [0, Fraction(1, 10), 1, 10]  # x = 0 is skipped, x = 1/10 counts (positive but < 1)
    assert fitted_exponent(xs, [5, Fraction(1, 10), 1, 10]) == pytest.approx(1.0, abs=1e-12)
    assert fitted_exponent([10, 100, 1000], [10, 0, 1000]) == pytest.approx(1.0, abs=1e-12)  # y = 0 skipped
    assert fitted_exponent([arb(0), arb(10), arb(100)], [arb(3), arb(10), arb(100)]) == pytest.approx(1.0, abs=1e-12)


# ----- decays ---------------------------------------------------------------------------------------
def test_decays_names():
    assert rules.decays(DECADES, inverse(DECADES), expected=2).rule == "decays (rate ≥ 1/2·2)"
    assert rules.decays(DECADES, inverse(DECADES)).rule == "decays (rate ≥ 1e-1)"
    assert rules.decays(DECADES, inverse(DECADES), expected=Fraction(639, 1000)).rule == "decays (rate ≥ 1/2·0.639)"


def test_decays_at_exactly_the_required_rate():
    d = rules.decays(DECADES, inverse(DECADES), expected=2)  # exponent 1 = ½·2
    assert d.holds is True and d.detail == "fitted exponent 1 over the last 4 points ≥ 1; strictly decreasing"
    d = rules.decays(DECADES, inverse(DECADES), expected=Fraction(201, 100))  # needs 1.005
    assert d.holds is None and d.rule == "decays (rate ≥ 1/2·2.01)"
    assert d.detail == "fitted exponent 1 over the last 4 points; exponent below 1.005: range too short to decide"


def test_decays_detail_names_what_is_missing():
    ys = inverse(DECADES, 2)
    ys[2] = ys[1]
    d = rules.decays(DECADES, ys, expected=2)
    assert d.holds is None and d.detail.endswith("; not strictly decreasing: range too short to decide")
    d = rules.decays(DECADES[:3], inverse(DECADES[:3]))
    assert d.holds is None and d.detail == "3 point(s), the rule needs 4" and d.rule == "decays (rate ≥ 1e-1)"
    d = rules.decays([1, 2], [1, Fraction(1, 2)], tail=2)  # the tail is a parameter
    assert d.holds is True and "over the last 2 points" in d.detail


def test_decays_uses_the_last_tail_points():
    xs = [1, 2] + DECADES
    ys = [Fraction(1, 10**6), 5] + inverse(DECADES)  # an early rise does not matter
    assert rules.decays(xs, ys, expected=2).holds is True


def test_decays_is_zero_to_the_working_precision_at_the_last_value():
    zero = arb(2) ** -100
    ys = [arb(1), arb(1), arb(1), zero]  # exactly at the resolution: ≤ holds
    d = rules.decays(DECADES, ys, expected=2, zero=zero)
    assert d.holds is True and d.rule == "decays (rate ≥ 1/2·2)"
    assert d.detail == f"the last value is ≤ {_s(zero)}: zero to the working precision"
    # the value before the last being 0 does not count
    assert rules.decays(DECADES, [arb(1), arb(1), zero, arb(1)], expected=2, zero=zero).holds is not True
    assert rules.decays(DECADES, [arb(1), arb(1), arb(1), -zero], expected=2, zero=zero).holds is True  # |y|
    assert rules.decays([], [], zero=zero).holds is None  # no values: nothing is zero
    assert rules.decays(DECADES, [arb(1), arb(1), arb(1), zero], expected=2).holds is None  # no zero given


def test_a_plateau_is_judged_on_the_tail():
    flat = [Fraction(3, 10)] * 4
    d = rules.decays(DECADES, flat, expected=2)
    assert d.holds is False and d.rule == "decays (rate ≥ 1/2·2)"
    assert d.detail.endswith(" over the last 4 points < 1/20 and it kept ≥ 1/2 of its value: a plateau")
    # "kept": the last value against half the tail's first (not the second, not the one before the last)
    assert rules.decays(DECADES, [1, 3, 3, Fraction(9, 10)]).holds is False  # exponent ≈ 0.014, 0.9 ≥ ½·1
    assert rules.decays(DECADES, [1, 1, Fraction(9, 20), 1]).holds is False  # exponent ≈ 0.035, 1 ≥ ½·1
    assert rules.decays(DECADES, [1, 1, 1, Fraction(1, 2) - Fraction(1, 10**9)]).holds is None  # not kept
    # above the floor: the last value (not the one before it) is compared
    ys = [Fraction(1, 100), Fraction(1, 1000), Fraction(1, 1000), Fraction(1, 100)]  # exponent 0
    assert rules.decays(DECADES, ys, floor=Fraction(1, 500)).holds is False
    assert rules.decays(DECADES, ys[::-1][:1] * 3 + [Fraction(1, 1000)], floor=Fraction(1, 500)).holds is None


def test_a_plateau_at_the_resolution_is_not_a_failure():
    zero = Fraction(1, 2**60)
    flat = [arb(2) ** -59] * 4  # 2·zero: above it, a plateau
    assert rules.decays(DECADES, flat, zero=zero).holds is False
    at = [arb(2) ** -61] * 3 + [arb(2) ** -60]  # the last value is zero to the resolution: holds
    assert rules.decays(DECADES, at, zero=zero).holds is True
    # a floor above the value, even with zero given, makes it no failure
    assert rules.decays(DECADES, flat, floor=Fraction(1, 2**50), zero=zero).holds is None
    # a value not certainly above the resolution is no plateau either (the floor alone, 0, would say it is)
    fuzzy = [arb(2) ** -60 + arb(0, 2.0 ** -70)] * 4
    assert rules.decays(DECADES, fuzzy, zero=zero).holds is None


# ----- diverges -------------------------------------------------------------------------------------
def test_diverges_names_and_thresholds():
    xs = [1, 100, 10**4, 10**6]  # log10 x = 0, 2, 4, 6
    half = [1, 10, 100, 1000]  # y = √x: exponent exactly ½
    d = rules.diverges(xs, half)
    assert d.holds is None and d.rule == "diverges (exponent > 1/2)"
    assert d.detail == "fitted exponent 0.5: range too short to decide"
    d = rules.diverges(DECADES, DECADES)
    assert d.holds is True and d.detail == "fitted exponent 1" and d.rule == "diverges (exponent > 1/2)"
    d = rules.diverges(DECADES, [5] * 4)
    assert d.holds is False and d.detail.endswith(" < 1e-1: the norm stalls") and d.rule.startswith("diverges")
    d = rules.diverges([1], [1])
    assert d.holds is None and d.detail == "no fit" and d.rule == "diverges (exponent > 1/2)"


# ----- vanishes -------------------------------------------------------------------------------------
def test_vanishes_names_and_the_stuck_threshold():
    d = rules.vanishes(Fraction(1, 2))  # exactly STUCK_FRACTION: stuck
    assert d.holds is False and d.rule == "vanishes (≤ 1e-10 of its reference)"
    assert d.detail == "ratio 0.5000 ≥ 1/2: stuck"
    d = rules.vanishes(arb(10) ** -11)
    assert d.holds is True and d.detail == "ratio 1.000e-11" and d.rule == "vanishes (≤ 1e-10 of its reference)"
    d = rules.vanishes(Fraction(1, 4), reference=Fraction(1, 2), stuck_confirmed=True)
    assert d.holds is False and d.detail == "ratio 0.5000 ≥ 1/2: stuck"
    # at the certified lower end of the ball 10⁻¹⁰ (exactly): certainly ≤ it
    low = arb(rules._arb(rules.VANISHING).lower())
    assert rules.vanishes(low).holds is True and rules.vanishes(low * (1 + arb(2) ** -60)).holds is None
    d = rules.vanishes(Fraction(1, 3))
    assert d.holds is None and d.detail == "ratio 0.3333: range too short to decide"
    assert d.rule == "vanishes (≤ 1e-10 of its reference)"


# ----- extrapolates_to_zero -------------------------------------------------------------------------
XS = [1, Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)]  # 1/ln µ, decreasing


def test_extrapolation_names():
    d = rules.extrapolates_to_zero(XS, [2 * x for x in XS], 0)
    assert d.holds is True and d.rule == "extrapolates to 0 (limit ≤ 1/4 of the last value)"
    assert d.detail == "extrapolated limit a = 0 (last value 0.2500)"
    d = rules.extrapolates_to_zero([1, 1], [1, 2], 0)
    assert d.holds is None and d.detail == "no fit" and d.rule == "extrapolates to 0 (limit ≤ 1/4 of the last value)"


def test_extrapolation_at_its_thresholds():
    # y = 1 + 8x: a = 1, last value 2: a = ½·last is not stalled (>), and above ¼·last: undecided
    d = rules.extrapolates_to_zero(XS, [1 + 8 * x for x in XS], 0)
    assert d.holds is None and d.detail == "extrapolated limit a = 1 (last value 2.000): range too short to decide"
    assert d.rule == "extrapolates to 0 (limit ≤ 1/4 of the last value)"
    # y = 1 + 24x: a = 1 = ¼ of the last value 4: holds (≤)
    assert rules.extrapolates_to_zero(XS, [1 + 24 * x for x in XS], 0).holds is True
    # y = 1 + 4x: a = 1 > ½·1.5: stalled
    d = rules.extrapolates_to_zero(XS, [1 + 4 * x for x in XS], 0)
    assert d.holds is False and d.detail == "extrapolated limit a = 1 (last value 1.500): stalled"
    assert d.rule == "extrapolates to 0 (limit ≤ 1/4 of the last value)"


def test_extrapolation_needs_a_decrease_from_the_first_to_the_last_value():
    # least squares over x = 1, ½, ¼, ⅛: [4, 0, 0, 4] gives a = 28/23 ≈ 1.217, [5, 1, 0, 4] a = 26/23 ≈ 1.130
    assert rules.extrapolates_to_zero(XS, [4, 0, 0, 4], 3).holds is None  # a ≤ ½·4 and ≤ tol, but 4 = 4
    assert rules.extrapolates_to_zero(XS, [5, 1, 0, 4], 3).holds is True  # it decreased: the tolerance admits a
    assert rules.extrapolates_to_zero(XS, [5, 1, 0, 4], Fraction(1, 2)).holds is None  # a > ¼·4 and > tol
    # the ends are the first and the last values, not their neighbours
    d = rules.extrapolates_to_zero(XS, [2, 1, 0, 1], 0)  # a = 5/23 ≤ ½·1 (½·0 would be a stall), 1 < 2
    assert d.holds is True
    assert rules.extrapolates_to_zero(XS, [1, 0, 0, 0], 0).holds is True  # a = −7/23, 0 < 1 (0 < 0 would not be)


# ----- witness, near_limit, radius_refuted ------------------------------------------------------------
def test_witness_names():
    R, d = rules.witness([1, 2, 5], lambda r: r >= 2)
    assert R == 2 and d.rule == "witness in range" and d.detail == "R = 2: holds at every ladder radius from R to 5"
    R, d = rules.witness([1, 2, 5], lambda r: False)
    assert R is None and d.holds is None and d.rule == "witness in range"
    assert d.detail == "no radius of the ladder ≤ 5 from which it holds"


def test_near_limit_at_an_exact_zero_end():
    assert rules.near_limit([arb(0)], lo=0).holds is True  # 0 ≥ 0·(1 − slack) = 0
    assert rules.near_limit([arb(0)], hi=0).holds is True
    assert rules.near_limit([arb(1)], lo=Fraction(1, 2)).holds is True  # only the lower end given
    d = rules.near_limit([arb(1)], hi=Fraction(1, 2))
    assert d.holds is False and d.detail == "0 of 1 value(s) certainly inside, 1 certainly outside"


def test_near_limit_names_and_counts():
    d = rules.near_limit([arb(3), arb(-3), arb(1)], lo=0, hi=2)
    assert d.holds is False and d.rule == "near its derived limit (slack 1e-6)"
    assert d.detail == "1 of 3 value(s) certainly inside, 2 certainly outside"
    d = rules.near_limit([arb(1), arb(2)], lo=0, hi=2)
    assert d.holds is True and d.detail == "2 of 2 value(s) certainly inside, 0 certainly outside"
    assert d.rule == "near its derived limit (slack 1e-6)"
    d = rules.near_limit([arb(1), arb(2) + arb(0, 1)], lo=0, hi=2)
    assert d.holds is None and d.detail == "1 of 2 value(s) certainly inside, 0 certainly outside"
    d = rules.near_limit([], lo=0)
    assert d.detail == "0 of 0 value(s) certainly inside, 0 certainly outside: no value"
    assert d.rule == "near its derived limit (slack 1e-6)"


def test_radius_refuted_names():
    name = "radius witness (refuted after 4 radii)"
    d = rules.radius_refuted([(20, True), (50, None)])
    assert (d.holds, d.rule, d.detail) == (None, name, "R = 50: undecided")
    d = rules.radius_refuted([(20, True), (50, False)])
    assert (d.holds, d.rule, d.detail) == (True, name, "R = 50: no exit")
    d = rules.radius_refuted([(10, True), (20, True), (50, True), (100, True)])
    assert (d.holds, d.rule, d.detail) == (False, name, "an exit from every R tried (10, 20, 50, 100)")
    d = rules.radius_refuted([(10, True)])
    assert (d.holds, d.rule) == (None, name)
    assert d.detail == "an exit from every R tried (10), fewer than 4 radii"
