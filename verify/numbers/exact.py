"""Exact rational arithmetic: linear algebra with flint ``fmpq_mat`` (ranks, minimum-norm solutions)
and short rationals below a ball (``rational_below``, e.g. a step size).

No rounding in the linear algebra: inputs are Fractions (or ints), outputs are Fractions, so a
consistency or a rank decided here is a certificate.
"""
from __future__ import annotations

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


def rational_below(x, digits: int = 3) -> Fraction:
    """A rational with ``digits`` significant digits, ≤ the lower end of the ball x > 0, and the same
    at every working precision (so two runs at two precisions take equal steps)."""
    f = Fraction(arb(x.lower()).mid().str(digits + 10, radius=False)) * (1 - Fraction(1, 10**9))
    if f >= 1:
        q = Fraction(10) ** (len(str(int(f))) - digits)
    else:
        e = 0  # floor(log10 f)
        while f * Fraction(10) ** (-e) < 1:
            e -= 1
        q = Fraction(1, 10 ** (digits - 1 - e))
    return (f // q) * q
