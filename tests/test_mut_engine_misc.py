"""Working precision (verify.numbers.precision) and the computed hypotheses (verify.kit.assumptions):
the edge cases of parsing, conversions, digit counting and formatting, and every branch of
step_size / svm_feasible, with expected values derived here."""
from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace

import flint
import mpmath
import pytest
from flint import arb, fmpq

from verify.data import Dataset
from verify.errors import UsageError
from verify.kit.assumptions import assumption_a, score_bound, step_size, svm_feasible
from verify.numbers import precision as P
from verify.numbers.precision import (
    Precision,
    agreement_digits,
    certainly,
    certified_digits,
    log10_abs,
    parse_precision,
    to_arb,
    to_decimal_string,
    working_precision,
)


# ----- parse_precision ------------------------------------------------------------------------------
def test_precision_constants():
    assert (P.MIN_DPS, P.MAX_DPS, P.DEFAULT_DPS, P.DEFAULT_GUARD) == (15, 10000, 50, 10)


@pytest.mark.parametrize("value,dps", [(15, 15), (10000, 10000), ("50", 50), (" 60 ", 60), ("+70", 70), (30, 30)])
def test_parse_precision_accepts(value, dps):
    assert parse_precision(value) == dps


@pytest.mark.parametrize("value", ["050", "5e1", "50.0", 50.5, "", "fifty", False, [50]])
def test_parse_precision_rejects(value):
    with pytest.raises(UsageError):
        parse_precision(value)


def test_parse_precision_messages():
    with pytest.raises(UsageError, match=r"--precision 14 is outside 15\.\.10000"):
        parse_precision(14)
    with pytest.raises(UsageError, match=r"--precision must be an integer number of decimal digits in 15\.\.10000, "
                                         r"got 'x'"):
        parse_precision("x")


# ----- Precision, working_precision -----------------------------------------------------------------
def test_precision_object():
    p = Precision(40)
    assert p.guard == 10 and p.total == 50 and Precision(40, 3).total == 43
    assert p.higher() == Precision(60, 10)  # 40 + max(20, 20)
    assert Precision(15).higher().dps == 35 and Precision(41).higher().dps == 61 and Precision(100, 7).higher() == \
        Precision(150, 7)
    with working_precision(30):
        tol = Precision(25).tolerance
        assert tol.overlaps(arb(10) ** -25) and tol.rad() < arb(10) ** -50
        assert Precision(25).tolerance < arb(10) ** -24 and Precision(25).tolerance > arb(10) ** -26


def test_working_precision_sets_dps_plus_guard_for_both_libraries():
    with working_precision(40, guard=5) as p:
        assert p == Precision(40, 5)
        assert flint.ctx.dps == 45 and mpmath.mp.dps == 45
    with working_precision("35") as p:
        assert p.dps == 35 and flint.ctx.dps == 45
    with pytest.raises(UsageError):
        with working_precision(14):
            pass


def test_working_precision_nests():
    before = flint.ctx.prec, mpmath.mp.prec
    with working_precision(100):
        inner_before = flint.ctx.prec
        with working_precision(20):
            assert flint.ctx.dps == 30
        assert flint.ctx.prec == inner_before and mpmath.mp.dps == 110
    assert (flint.ctx.prec, mpmath.mp.prec) == before


# ----- conversions ----------------------------------------------------------------------------------
def test_to_arb_is_exact():
    with working_precision(30):
        x = arb(1) / 3
        assert to_arb(x) is x
        assert to_arb(Fraction(3, 4)) == arb("0.75") and to_arb(Fraction(3, 4)).is_exact()
        assert to_arb(5) == 5 and to_arb(fmpq(1, 4)) == arb("0.25")
        assert to_arb("3/8") == arb("0.375") and to_arb("0.125").is_exact()
        third = to_arb("1/3")
        assert third.contains(fmpq(1, 3)) and not third.is_exact()
        with pytest.raises(TypeError, match="refusing inexact conversion of float"):
            to_arb(0.5)


def test_certified_digits():
    with working_precision(30):
        assert certified_digits(arb(1, 2.0 ** -40)) == 12  # log10(2^40) = 12.04
        assert certified_digits(arb(100, 2.0 ** -40)) == 14
        assert certified_digits(arb(1, 2.0 ** -40), cap=5) == 5
        assert certified_digits(arb(3)) == 40  # exact: the context's digits (30 + guard 10)
        assert certified_digits(arb(3), cap=7) == 7
        assert certified_digits(Fraction(1, 3), cap=9) == 9  # not a ball: every digit
        assert certified_digits(arb(0, 1)) == 0  # contains 0
        assert certified_digits(arb(1, 1)) == 0  # radius ≥ midpoint
        assert certified_digits(arb(-1, 2.0 ** -40)) == 12  # the sign does not matter
        assert certified_digits(arb(1, 2.0 ** -400), cap=200) == 120  # 400·log10 2 = 120.4
        assert certified_digits(arb(1, 0.5)) == 0  # mid/rad ≈ 2: not one digit


def test_agreement_digits():
    with working_precision(60):
        a = arb(1) / 3
        assert agreement_digits(a, a * (1 + arb(2) ** -40), 50) == 12
        assert agreement_digits(a, a * (1 + arb(2) ** -40), 5) == 5
        assert agreement_digits(a, a, 17) == 17
        assert agreement_digits(arb(0), arb(0), 9) == 9
        assert agreement_digits(arb(1), arb(-1), 9) == 0  # opposite signs
        assert agreement_digits(arb(1), arb(0), 9) == 0
        assert agreement_digits(arb(2), arb(1), 9) == 0  # ratio 2: log10 2 < 1
        assert agreement_digits(arb(20), arb(19), 9) == 1  # 20/1
        assert agreement_digits(arb(1), 1 - arb(2) ** -40, 50) == 12  # the larger is exactly 1: 2^40
        assert agreement_digits(Fraction(1), Fraction(1, 10**6) + 1, 20) == 6  # exact inputs
        # midpoints compared: two balls of the same midpoint agree fully whatever their radii
        assert agreement_digits(arb(1, 0.5), arb(1, 0.25), 11) == 11
        assert agreement_digits(arb(-3), arb(-3) * (1 + arb(10) ** -8), 30) in (7, 8)


def test_certainly():
    assert certainly(arb(1) < 2) is True
    assert certainly(arb(1, 2) < 2) is False


def test_to_decimal_string():
    with working_precision(30):
        assert to_decimal_string(12345678901234567890, 3) == "12345678901234567890"  # ints print exactly
        assert to_decimal_string(Fraction(1, 3), 5) == "0.33333"
        assert to_decimal_string(Fraction(2, 3), 60) == "0." + "6" * 59 + "7"  # beyond the context's digits
        assert to_decimal_string(Fraction(1, 8), 10) == "0.125"
        assert to_decimal_string(arb(1) / 8, 10) == "0.125"
        assert to_decimal_string(arb("1.25e-5"), 10) == "1.25e-5"
        assert to_decimal_string(arb(0), 10) == "0" and to_decimal_string(arb(0, 1e-10), 10) == "0"
        assert to_decimal_string(arb(2) / 3, 0) == "0.7"  # at least one digit
        assert to_decimal_string(arb(-7) / 4, 3) == "-1.75"
        assert Fraction(to_decimal_string(arb(1000), 3)) == 1000 and "0e" not in to_decimal_string(arb(1000), 3)
        assert to_decimal_string(arb("inf"), 5) == "inf" and to_decimal_string(-arb("inf"), 5) == "-inf"
        assert to_decimal_string(arb("nan"), 5) == "nan"
        assert to_decimal_string(0.5, 5) == "0.5" and to_decimal_string("x", 5) == "x"  # not numbers: str
        assert to_decimal_string(arb(1) / 3 + arb(0, 1e-3), 10) == "0.3333333333"  # the midpoint, digits asked


def test_exact_values_are_rounded_once_half_to_even():
    """Decimal ties of exact values round half to even, as verify.svm.numeric.fraction_to_decimal does
    (not by the side of their binary approximation: 0.15 is 0.1499… in binary)."""
    from verify.svm.numeric import fraction_to_decimal

    assert to_decimal_string(Fraction(3, 20), 1) == "0.2" and to_decimal_string(Fraction(-3, 20), 1) == "-0.2"
    assert to_decimal_string(Fraction(25, 100), 1) == "0.2" and to_decimal_string(Fraction(35, 100), 1) == "0.4"
    assert to_decimal_string(Fraction(15, 100) + Fraction(1, 10**13), 1) == "0.2"
    assert to_decimal_string(Fraction(1, 8), 2) == "0.12" and to_decimal_string(Fraction(999, 1000), 2) == "1"
    assert to_decimal_string(Fraction(0), 5) == "0"
    for x in (Fraction(1, 3), Fraction(-2, 7) * 10**25, Fraction(12345, 10**40), Fraction(5, 2) + Fraction(1, 10**30)):
        for d in (1, 3, 17, 35):
            assert Fraction(to_decimal_string(x, d)) == Fraction(fraction_to_decimal(x, d)), (x, d)


def test_balls_of_infinite_radius_have_no_value():
    assert to_decimal_string(arb(0, float("inf")), 5) == "nan"
    assert to_decimal_string(arb(5) + arb(0, float("inf")), 5) == "nan"


def test_fraction_formatting_restores_the_context():
    with working_precision(20):
        before = flint.ctx.prec
        to_decimal_string(Fraction(1, 7), 200)
        assert flint.ctx.prec == before


def test_tidy():
    assert P._tidy("1.2500000e-5") == "1.25e-5"
    assert P._tidy("3.000") == "3" and P._tidy("300") == "300" and P._tidy("1.0e+10") == "1e+10"
    assert P._tidy("0.50") == "0.5"


def test_log10_abs():
    with working_precision(30):
        assert log10_abs(arb(1000)) == pytest.approx(3.0, abs=1e-12)
        assert log10_abs(-arb(10) ** -5000) == pytest.approx(-5000.0, abs=1e-9)  # far below float range
        assert log10_abs(arb(0)) == -math.inf and log10_abs(arb(0, 1)) == -math.inf  # midpoint 0
        assert log10_abs(Fraction(1, 100)) == pytest.approx(-2.0, abs=1e-12) and log10_abs(100) == pytest.approx(2.0)
        assert log10_abs(arb(100, 1)) == pytest.approx(2.0, abs=1e-12)  # the midpoint's


# ----- assumptions ----------------------------------------------------------------------------------
def test_score_bound_is_the_largest_absolute_score():
    d = Dataset.make(X=[[[1, 0], [0, 1], [-1, 0]], [[2, 0], [0, 5], [0, 0]]], Y=[1, -1], v=[3, 1])
    # scores γ_it = Y_i x_itᵀv: (3, 1, −3) and −(6, 1, 0): B = 6
    assert score_bound(d) == 6 and isinstance(score_bound(d), Fraction)
    d2 = Dataset.make(X=[[[Fraction(1, 2), 0], [0, 0]]], Y=[1], v=[-1, 0])
    assert score_bound(d2) == Fraction(1, 2)


def test_assumption_a_is_checked_on_minus_b_to_b():
    from verify.models.losses import certify_assumption_a, get_loss

    d = Dataset.make(X=[[[1, 0], [0, 1], [-1, 0]]], Y=[1], v=[0, 3], name="B3")  # B = 3
    with working_precision(30):
        h = assumption_a("logistic", d, name="A (logistic)")
        met, detail, _, _ = certify_assumption_a(get_loss("logistic"), arb(3))
        assert h.met is met is True and h.detail == detail
        assert h.name == "A (logistic): ℓ' < 0 on [−B, B], ℓ' M₀-Lipschitz, |ℓ'| ≤ M₁"
        assert assumption_a("exponential", d).name.startswith("Assumption A: ")


def test_step_size_boundary_and_detail():
    with working_precision(30):
        h = step_size(Fraction(1, 4), arb(4))  # η·L = 1 exactly: met (≤)
        assert h.met is True and h.name == "step size η ≤ 1/L"
        assert h.detail == "η = 0.25, L = 4, η·L = 1"
        assert step_size(arb(1) / 4, arb(4), name="η").met is True  # a ball η is used as it is
        assert step_size(arb("0.3"), arb(4)).met is False
        assert step_size(Fraction(1, 4), arb(4) + arb(0, "1e-20")).met is None  # η·L straddles 1
        assert step_size(Fraction(1, 5), arb(4)).met is True
        assert step_size(Fraction(26, 100), arb(4)).met is False
        assert step_size("1/8", arb(8)).met is True  # strings are exact rationals


class Interval:
    """A closed interval [lo, hi] with the certain comparisons of a ball (True only when certain)."""

    def __init__(self, lo, hi):
        self.lo, self.hi = Fraction(lo), Fraction(hi)

    def __rmul__(self, eta):
        e = Fraction(1, 4)  # the η of the test
        return Interval(e * self.lo, e * self.hi)

    def __le__(self, c):
        return self.hi <= c

    def __gt__(self, c):
        return self.lo > c

    def __ge__(self, c):
        return self.lo >= c

    def __lt__(self, c):
        return self.hi < c


def test_step_size_touching_one_from_above_is_undecided(monkeypatch):
    """η·L ∈ [1, 1.01]: neither certainly ≤ 1 nor certainly > 1 (though certainly ≥ 1): undecided."""
    from verify.kit import assumptions

    monkeypatch.setattr(assumptions, "to_decimal_string", lambda x, d: "x")
    assert step_size(Fraction(1, 4), Interval(4, Fraction(404, 100))).met is None
    assert step_size(Fraction(1, 4), Interval(Fraction(404, 100), 5)).met is False
    assert step_size(Fraction(1, 4), Interval(3, 4)).met is True


def result(status, cert=None, farkas=None, notes=None, support=()):
    return SimpleNamespace(status=status, certificate=cert, farkas=farkas, notes=notes, support=support)


def test_svm_feasible_optimal():
    ok = SimpleNamespace(passed=True, upper=arb("inf"))
    h = svm_feasible(result("optimal", ok, support=[(0, 1)]), "SVM")
    assert (h.name, h.met) == ("SVM", True) and h.detail == "certified feasible (optimum certified), support [(0, 1)]"
    # not passed, but the primal point gives a finite certified upper bound: feasible all the same
    bounded = SimpleNamespace(passed=False, upper=arb(3))
    assert svm_feasible(result("optimal", bounded), "SVM").met is True
    for cert in (SimpleNamespace(passed=False, upper=arb("inf")), SimpleNamespace(passed=False, upper=None),
                 SimpleNamespace(passed=False), SimpleNamespace(passed=False, upper=3.0), None):
        h = svm_feasible(result("optimal", cert), "SVM")
        assert h.met is None and h.name == "SVM" and h.detail == "the solver's optimum did not pass its certificate"


def test_svm_feasible_infeasible():
    far = SimpleNamespace(passed=True, rows=[(0, 1), (1, 0)])
    h = svm_feasible(result("infeasible", farkas=far), "SVM")
    assert h.met is False and h.name == "SVM" and h.detail == "infeasible: verified Farkas certificate on rows [(0, 1), (1, 0)]"
    for far in (SimpleNamespace(passed=False, rows=[]), None):
        h = svm_feasible(result("infeasible", farkas=far), "SVM")
        assert h.met is None and h.name == "SVM" and h.detail == "reported infeasible, but the Farkas certificate did not verify"


def test_svm_feasible_unknown():
    h = svm_feasible(result("unknown", notes=["a", "b"]), "SVM")
    assert h.met is None and h.name == "SVM" and h.detail == "no certified answer: a; b"
    assert svm_feasible(result("unknown", notes=[]), "SVM").detail == "no certified answer: solver failed"
    assert svm_feasible(result("unknown", notes=None), "SVM").detail == "no certified answer: solver failed"
