"""Exact rational arithmetic: linear algebra with flint ``fmpq_mat`` (ranks, minimum-norm solutions)
and short rationals below a ball (``rational_below``, e.g. a step size).

No rounding in the linear algebra: inputs are Fractions (or ints), outputs are Fractions, so a
consistency or a rank decided here is a certificate.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb, fmpq, fmpq_mat


def fmpq_matrix(rows) -> fmpq_mat:
    """An exact flint matrix from rows of Fractions / ints / decimal strings."""
    rows = [[Fraction(x) for x in r] for r in rows]
    return fmpq_mat(len(rows), len(rows[0]), [fmpq(x.numerator, x.denominator) for r in rows for x in r])


def to_fraction(q) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def rank(rows) -> int:
    """The rank of a matrix given as rows (0 for an empty matrix)."""
    rows = list(rows)
    if not rows or not rows[0]:
        return 0
    return fmpq_matrix(rows).rank()


def min_norm_solution(A_rows, b):
    """The minimum-norm exact solution of A x = b (a list of Fractions), or None when inconsistent.

    x lies in the row space of A: with R a basis of it (the nonzero rows of rref A), x = Rᵀc where
    (BᵀB)c = Bᵀb, B = A Rᵀ of full column rank; A x = b is then checked exactly."""
    A = fmpq_matrix(A_rows)
    R_full, r = A.rref()
    cols = A.ncols()
    if r == 0:
        return [Fraction(0)] * cols if all(Fraction(x) == 0 for x in b) else None
    R = fmpq_mat(r, cols, [R_full[i, j] for i in range(r) for j in range(cols)])
    B = A * R.transpose()
    bb = fmpq_matrix([[x] for x in b])
    x = R.transpose() * (B.transpose() * B).solve(B.transpose() * bb)
    if A * x != bb:
        return None
    return [to_fraction(x[j, 0]) for j in range(cols)]


def ball_upper(x) -> Fraction:
    """The upper end of a ball (or a Fraction itself), exactly, at any magnitude (never via float64)."""
    if not isinstance(x, arb):
        return Fraction(x)
    man, exp = arb(x.upper()).mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def rational_above(x, digits: int = 2) -> Fraction:
    """The smallest decimal with ``digits`` significant digits that is ≥ x > 0 (a Fraction, or the upper
    end of a ball), exact at any magnitude: where a float64 path (float(x), math.log10) overflows
    beyond 10^±308."""
    f = ball_upper(x)
    if not f > 0:
        raise ValueError(f"rational_above needs x > 0, got {f}")
    from verify.numbers.precision import decimal_exponent

    q = Fraction(10) ** (decimal_exponent(f) - (digits - 1))
    return -((-f) // q) * q


def float_or_none(x) -> float | None:
    """x as a float64 when it is a finite, nonzero-preserving one, else None (beyond the float range: the
    caller takes its exact path)."""
    try:
        f = float(x)
    except (OverflowError, ValueError):
        return None
    if not math.isfinite(f) or (f == 0 and x != 0):
        return None
    return f


def float64_or_undecided(x, what: str) -> float:
    """x as a float64 for a step of a check that is float64 by design (a start ladder, a float LP), or ``Undecided``
    naming the quantity when x lies beyond float64's range (data at 10^±400): a clear INCONCLUSIVE exit, never an
    OverflowError or a silent 0."""
    f = float_or_none(x)
    if f is None:
        from verify.errors import Undecided
        from verify.numbers.precision import g_format

        raise Undecided(f"{what} = {g_format(x, 4)} lies beyond float64's range, which this step of the check uses "
                        "(rescale the data toward 1): no answer at this scale")
    return f


def rational_below(x, digits: int = 3) -> Fraction:
    """A rational with ``digits`` significant digits, ≤ the lower end of the ball x > 0, and the same
    at every working precision (so two runs at two precisions take equal steps)."""
    f = Fraction(arb(x.lower()).mid().str(digits + 10, radius=False)) * (1 - Fraction(1, 10**9))
    from verify.numbers.precision import decimal_exponent

    q = Fraction(10) ** (decimal_exponent(f) - (digits - 1))  # (was a loop of one power of ten a step)
    return (f // q) * q
