"""verify.kit.probe_inequality (mutation tests): a ratio num/den ≤ bound counted at each probe point, an exactly zero
denominator decided as the module says (num exactly 0 → the ratio 0, holds; num certainly ≠ 0 → +∞, fails; num a
ball containing 0 → undecided), an unevaluated point counted as undecided, and the probe points' labels."""
from fractions import Fraction

from flint import arb

from verify.kit.probe_inequality import ProbeInequality, point_label


def _t(bound=1):
    return ProbeInequality("f(p)", "<=", bound)


def test_a_ratio_with_a_nonzero_denominator_is_num_over_den():
    t = _t(Fraction(1, 2))
    assert t.add_ratio(Fraction(1), Fraction(2), "a") is True           # 1/2 ≤ 1/2
    assert t.add_ratio(Fraction(2), Fraction(3), "b") is False          # 2/3 > 1/2
    assert t.worst_value == Fraction(2, 3) and t.coverage.first_violation == "b"
    c = t.coverage
    assert (c.points, c.holds, c.violated, c.undecided) == (2, 1, 1, 0)


def test_a_zero_denominator_with_a_zero_numerator_holds_as_zero():
    t = _t(Fraction(0))
    assert t.add_ratio(Fraction(0), Fraction(0), "z") is True          # 0 ≤ 0: the ratio is exactly 0
    assert t.coverage.worst_at == "z"
    assert t.worst_value == 0 and isinstance(t.worst_value, Fraction)
    assert _t(Fraction(0)).add_ratio(arb(0), arb(0)) is True            # exact zero balls
    t = ProbeInequality("f", ">=", Fraction(0))
    assert t.add_ratio(Fraction(0), Fraction(0)) is True               # 0 ≥ 0: 0, not +∞ or nan


def test_a_zero_denominator_with_a_certainly_nonzero_numerator_fails_as_infinity():
    t = _t(10**9)
    assert t.add_ratio(Fraction(1, 10**12), Fraction(0), "p") is False
    assert not t.worst_value.is_finite() and t.worst_value > 10**100
    assert t.coverage.first_violation == "p" and t.coverage.worst_at == "p"
    assert t.add_ratio(arb(1, 0.5), arb(0)) is False                  # [1 ± 1/2] excludes 0
    t = ProbeInequality("f", ">=", 10**9)
    assert t.add_ratio(Fraction(-1), Fraction(0)) is True               # +∞ ≥ 10⁹ (the sign is +)


def test_an_unnamed_point_is_counted_by_its_number():
    t = _t(1)
    t.add_ratio(Fraction(1), Fraction(2))
    t.add_ratio(Fraction(3), Fraction(0))
    assert t.coverage.first_violation == "point 2" and t.coverage.worst_at == ""


def test_a_zero_denominator_with_a_ball_containing_zero_is_undecided():
    t = _t(1)
    assert t.add_ratio(arb(0, 1), Fraction(0), "q") is None
    c = t.coverage
    assert (c.points, c.undecided, c.first_undecided) == (1, 1, "q")


def test_skip_counts_an_undecided_point():
    t = _t(1)
    assert t.skip("r") is None
    t.add_ratio(Fraction(1, 2), Fraction(1))
    c = t.coverage
    assert (c.points, c.holds, c.undecided, c.first_undecided) == (2, 1, 1, "r")
    assert t.evidence().decide() is None
    t = _t(1)
    t.skip()
    assert t.coverage.first_undecided == "point 1" and t.coverage.worst_at == ""


def test_point_label_has_the_given_significant_digits():
    assert point_label([Fraction(1, 3), 2]) == "p = (0.333333, 2)"
    assert point_label([Fraction(2, 3)], digits=3) == "p = (0.667)"
