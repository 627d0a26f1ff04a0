"""Working precision: one explicit context for flint (arb balls) and mpmath.

Every computation runs inside ``working_precision(dps)``; the context sets the precision of both
libraries to ``dps + guard`` decimal digits and restores the previous values on exit, so nothing
leaks between checks. Numbers are flint ``arb`` balls: each carries a rigorous error radius, so the
digits it certifies can be read off (``certified_digits``) and comparisons can be certain
(``certainly``). ``agreement_digits`` compares a figure recomputed at a higher precision.
"""
from __future__ import annotations

import contextlib
import math
import sys
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath
from flint import arb, fmpq

from verify.errors import UsageError

MIN_DPS, MAX_DPS = 15, 10000
RECHECK_MIN_EXTRA = 20  # the recheck runs at least this many digits higher (else it cannot count stable digits)
RECHECK_MAX_DPS = MAX_DPS + RECHECK_MIN_EXTRA  # the highest precision anything runs at (the recheck of MAX_DPS)
DEFAULT_DPS = 50
DEFAULT_GUARD = 10

if mpmath.libmp.BACKEND != "gmpy":  # pragma: no cover - depends on the installation
    print(
        f"attnverify: warning: mpmath runs on the {mpmath.libmp.BACKEND!r} backend, not gmpy2; "
        "high-precision work will be slow (pip install gmpy2)",
        file=sys.stderr,
    )


def parse_precision(value) -> int:
    """The working precision in decimal digits, an integer in 15..10000 (else UsageError)."""
    try:
        if isinstance(value, bool):
            raise ValueError
        dps = int(str(value).strip())
        if str(dps) != str(value).strip().lstrip("+"):
            raise ValueError
    except (TypeError, ValueError):
        raise UsageError(f"--precision must be an integer number of decimal digits in {MIN_DPS}..{MAX_DPS}, got {value!r}")
    if not MIN_DPS <= dps <= MAX_DPS:
        raise UsageError(f"--precision {dps} is outside {MIN_DPS}..{MAX_DPS}")
    return dps


@dataclass(frozen=True)
class Precision:
    """The precision a computation runs at: ``dps`` asked for, ``guard`` extra digits carried."""

    dps: int
    guard: int = DEFAULT_GUARD

    @property
    def total(self) -> int:
        return self.dps + self.guard

    @property
    def tolerance(self) -> arb:
        """10^-dps: an identity holds to the working precision when its deviation stays below this
        (the guard digits absorb the rounding of the computation; docs/contract.md)."""
        return arb(10) ** (-self.dps)

    def higher(self) -> "Precision":
        """The precision used to recompute a verdict and count its stable digits: 1.5 × dps (at
        least 20 digits more), capped so every precision the contract allows can be rechecked —
        never above max(MAX_DPS, dps + 20), i.e. at most RECHECK_MAX_DPS."""
        wanted = self.dps + max(RECHECK_MIN_EXTRA, self.dps // 2)
        return Precision(min(wanted, max(MAX_DPS, self.dps + RECHECK_MIN_EXTRA)), self.guard)


@contextlib.contextmanager
def working_precision(dps: int, guard: int = DEFAULT_GUARD):
    """Set flint and mpmath to ``dps + guard`` digits for the block; restore afterwards. ``dps`` is
    a user's precision (15..MAX_DPS) or a recheck of one (up to RECHECK_MAX_DPS)."""
    if isinstance(dps, int) and MAX_DPS < dps <= RECHECK_MAX_DPS:
        prec = Precision(dps, guard)
    else:
        prec = Precision(parse_precision(dps), guard)
    old_flint, old_mp = flint.ctx.prec, mpmath.mp.prec
    flint.ctx.dps = prec.total
    mpmath.mp.dps = prec.total
    try:
        yield prec
    finally:
        flint.ctx.prec = old_flint
        mpmath.mp.prec = old_mp


def to_arb(x) -> arb:
    """Exact conversion of a Fraction/int/fmpq to an arb ball at the current precision."""
    if isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        return arb(fmpq(x.numerator, x.denominator))
    if isinstance(x, (int, fmpq)):
        return arb(x)
    if isinstance(x, str):
        f = Fraction(x)
        return arb(fmpq(f.numerator, f.denominator))
    raise TypeError(f"refusing inexact conversion of {type(x).__name__} to arb")


def certified_digits(x: arb, cap: int | None = None) -> int:
    """Significant decimal digits the ball guarantees (0 if it contains 0 and is not exact 0)."""
    cap = cap if cap is not None else int(flint.ctx.dps)
    if not isinstance(x, arb):
        return cap
    if x.is_exact():
        return cap
    rad = x.rad()
    mid = abs(x.mid())
    if mid == 0 or rad >= mid:
        return 0
    digits = math.floor(float((mid / rad).log_base(10)))
    return max(0, min(cap, digits))


def agreement_digits(a: arb, b: arb, cap: int) -> int:
    """Significant digits on which two computations of one figure agree (midpoints compared)."""
    a, b = arb(a.mid()) if isinstance(a, arb) else to_arb(a), arb(b.mid()) if isinstance(b, arb) else to_arb(b)
    diff = abs(a - b)
    scale = max(abs(a), abs(b))
    if diff == 0:
        return cap
    if scale == 0:
        return 0
    ratio = scale / diff
    if ratio <= 1:
        return 0
    return max(0, min(cap, math.floor(float(ratio.log_base(10)))))


def certainly(cmp: bool) -> bool:
    """arb comparisons are True only when certain; this names that at the call site."""
    return bool(cmp)


def to_decimal_string(x, digits: int) -> str:
    """A decimal string with ``digits`` significant digits (exact values print exactly when short)."""
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction):  # exact: round once (half to even, exactly), then print that decimal
        old = flint.ctx.prec
        flint.ctx.dps = digits + 10
        try:
            return to_decimal_string(to_arb(_round_significant(x, max(1, digits))), digits)
        finally:
            flint.ctx.prec = old
    if not isinstance(x, arb):
        return str(x)
    if not x.is_finite():  # a ball of infinite radius has no value to show: "nan", not a signed infinity
        return "nan" if x.is_nan() else ("inf" if x > 0 else "-inf" if x < 0 else "nan")
    mid = x.mid()
    if mid == 0:
        return "0"
    s = mid.str(max(1, digits), radius=False, more=True)
    return _tidy(s)


def _round_significant(x: Fraction, digits: int) -> Fraction:
    """x rounded to ``digits`` significant decimal digits, half to even, in exact arithmetic (printing
    its binary approximation instead would round decimal ties such as 0.15 by their binary side)."""
    if x == 0:
        return x
    ax = abs(x)
    e = len(str(ax.numerator)) - len(str(ax.denominator))  # 10^(e-1) < |x| < 10^(e+1)
    if Fraction(10) ** e > ax:
        e -= 1
    scale = Fraction(10) ** (digits - 1 - e)
    q, r = divmod(ax.numerator * scale.numerator, ax.denominator * scale.denominator)
    twice, den = 2 * r, ax.denominator * scale.denominator
    if twice > den or (twice == den and q % 2 == 1):
        q += 1
    return (1 if x > 0 else -1) * q / scale


def _tidy(s: str) -> str:
    """Strip trailing zeros of the mantissa: '1.2500000e-5' -> '1.25e-5'."""
    if "e" in s:
        mant, exp = s.split("e")
    else:
        mant, exp = s, None
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return mant + ("e" + exp if exp is not None else "")


def log10_abs(x: arb) -> float:
    """log10|x| as a float for plotting and rates (never for comparisons)."""
    m = abs(x.mid()) if isinstance(x, arb) else abs(to_arb(x))
    if m == 0:
        return float("-inf")
    return float(m.log_base(10).mid())
