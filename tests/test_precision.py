"""Working precision: explicit, restored, certified digits, exit-2 validation."""
import flint
import mpmath
import pytest
from flint import arb

from verify.errors import UsageError
from verify.numbers.precision import agreement_digits, certified_digits, parse_precision, to_arb, working_precision


def test_context_restores_both_libraries():
    before = (flint.ctx.prec, mpmath.mp.prec)
    with working_precision(200) as p:
        assert flint.ctx.dps >= 200 and mpmath.mp.dps >= 200 and p.total == 210
    assert (flint.ctx.prec, mpmath.mp.prec) == before


def test_context_restores_on_error():
    before = flint.ctx.prec
    with pytest.raises(RuntimeError):
        with working_precision(100):
            raise RuntimeError
    assert flint.ctx.prec == before


@pytest.mark.parametrize("bad", [14, 10001, "x", "1e3", None, True])
def test_bad_precision(bad):
    with pytest.raises(UsageError):
        parse_precision(bad)


def test_certified_digits_follow_the_ball():
    with working_precision(50):
        x = to_arb("1/3")
        assert certified_digits(x, cap=50) == 50
        assert certified_digits(arb(1, 1e-10), cap=50) == 10 or certified_digits(arb(1, 1e-10), cap=50) == 9
        assert certified_digits(arb(0, 1), cap=50) == 0


def test_agreement_digits():
    with working_precision(50):
        a = to_arb("1/3")
        assert 19 <= agreement_digits(a, a + arb(10) ** -20, 50) <= 20
        assert agreement_digits(a, a, 50) == 50


def test_zero_digits_counts_the_places_a_zero_figure_is_known_to():
    from verify.numbers.precision import zero_digits

    with working_precision(60):
        tenth = arb(10) ** -1
        assert zero_digits(arb(0), None, 30) == 30  # exactly 0
        assert zero_digits(arb(0, 1e-20), arb(0, 1e-25), 30) == 19  # both balls hold 0, radius 10⁻²⁰: 0 to 10⁻¹⁹
        assert zero_digits(arb(3) * tenth ** 40, arb(-2) * tenth ** 45, 30) == 30  # below 10⁻³⁰: capped
        assert zero_digits(arb(3) * tenth ** 34, None, 40) == 0  # 3·10⁻³⁴ at 40 digits: a figure, not a zero
        assert zero_digits(arb(0, 1e-20), arb(1) / 3, 30) == 0  # the recomputation is not zero
        assert zero_digits(arb(0, 2), None, 30) == 0  # a ball as wide as 2: no place known
        assert zero_digits(arb("nan"), None, 30) == 0
