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
import gmpy2
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


@contextlib.contextmanager
def raised_precision(dps: int, lost: float, cap: int = 6000):
    """flint and mpmath at ``dps`` + DEFAULT_GUARD + ⌈lost/ln 10⌉ + 10 digits (at most ``cap`` more) for a block
    whose evaluation cancels about e^{−lost} in relative terms (a literal, naive form at a saturated softmax; a bound
    tight to 1 − σ ≈ e^{−lost}); restored after. Beyond ``cap`` the block's balls come out as wide as they are
    (undecided, never wrong). Build models inside the block: their cached balls carry the precision made at."""
    old, old_mp = flint.ctx.prec, mpmath.mp.prec
    extra = min(cap, math.ceil(max(0.0, lost) / math.log(10)) + 10) if math.isfinite(lost) else cap  # lost = inf:
    flint.ctx.dps = dps + DEFAULT_GUARD + extra  # a cancellation beyond float64 (data at 10^400) takes the cap
    mpmath.mp.prec = flint.ctx.prec
    try:
        yield
    finally:
        flint.ctx.prec, mpmath.mp.prec = old, old_mp


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
    if not x.is_finite():  # NaN or an infinite radius: no digit is certain (never float(NaN))
        return 0
    rad = x.rad()
    mid = abs(x.mid())
    if mid == 0 or rad >= mid:
        return 0
    return max(0, min(cap, _floor_log10(mid / rad)))


def _floor_log10(ratio: arb) -> int:
    """⌊log10 ratio⌋ for a finite ratio > 1 of any magnitude (arb exponents are unbounded; the float
    of a log10 is then at most ~10¹⁸ and exact enough to floor)."""
    value = ratio.log_base(10)
    return math.floor(float(value.mid())) if value.is_finite() else 0


def agreement_digits(a: arb, b: arb, cap: int) -> int:
    """Significant digits on which two computations of one figure agree (midpoints compared)."""
    a, b = arb(a.mid()) if isinstance(a, arb) else to_arb(a), arb(b.mid()) if isinstance(b, arb) else to_arb(b)
    diff = abs(a - b)
    scale = max(abs(a), abs(b))
    if diff == 0:
        return cap
    if scale == 0:
        return 0
    if not (diff.is_finite() and scale.is_finite()):
        return 0
    ratio = scale / diff
    if ratio <= 1:
        return 0
    return max(0, min(cap, _floor_log10(ratio)))


def zero_digits(a: arb, b, cap: int) -> int:
    """Decimal places to which a figure that is zero to its precision is known — "0 to 10⁻ᵏ": for ``a`` and its
    recomputation ``b`` (or None) that both contain 0 or are both below 10^−cap in magnitude (an integrator's drift
    of 10⁻³⁷ at 30 digits, a limit 0 reached), k = ⌊−log10 of the larger magnitude bound⌋ in 0..cap. Such a figure
    has no significant digit (``certified_digits``/``agreement_digits`` say 0), yet is a result to k places; any
    other figure gets 0 here."""
    balls = [x if isinstance(x, arb) else to_arb(x) for x in (a, b) if x is not None]
    if not all(x.is_finite() for x in balls):
        return 0
    bound = max(abs(arb(x.mid())) + x.rad() for x in balls)
    if bound == 0:
        return cap
    if not (all(x.contains(0) for x in balls) or bound < arb(10) ** (-cap)) or bound >= 1:
        return 0
    return max(0, min(cap, _floor_log10(1 / bound)))


def certainly(cmp: bool) -> bool:
    """arb comparisons are True only when certain; this names that at the call site."""
    return bool(cmp)


EXACT_TEXT_DIGITS = 10**6  # ints of up to this many digits may be printed (messages show exact values)


def allow_exact_text() -> None:
    """Lift Python's 4300-digit limit on int↔str conversion (sys.set_int_max_str_digits) to
    ``EXACT_TEXT_DIGITS`` for this process. The limit guards int(str) against untrusted text; here
    every text that becomes a number passes ``verify.data.inputs`` first, which bounds it (10000
    digits, exponents of 10⁴), while exact values computed from valid data legitimately exceed 4300
    digits (1e-5000 has a 5001-digit denominator) and are shown in messages and reports (str of a
    Fraction failed: "internal error (… 4300 digits …)"). The formatters of this module
    (``int_text``, ``decimal_exponent``) need no lifted limit. Called when ``verify`` is imported."""
    if hasattr(sys, "get_int_max_str_digits") and 0 < sys.get_int_max_str_digits() < EXACT_TEXT_DIGITS:
        sys.set_int_max_str_digits(EXACT_TEXT_DIGITS)


def int_text(n: int) -> str:
    """The decimal digits of an int of any length: ``str(n)`` fails beyond Python's 4300-digit limit
    (sys.set_int_max_str_digits), which exact values reach (1e-5000 squared has a 10001-digit
    denominator); gmpy2 converts in quasi-linear time."""
    return str(n) if -10**300 < n < 10**300 else str(gmpy2.mpz(n))


def decimal_exponent(x) -> int:
    """The exact e with 10^e ≤ |x| < 10^(e+1) of a nonzero rational, from bit lengths and one or two
    integer comparisons — never from the length of a decimal string."""
    x = Fraction(x)
    num, den = abs(x.numerator), x.denominator
    if num == 0:
        raise ValueError("decimal_exponent(0)")
    e = math.floor((num.bit_length() - den.bit_length()) * math.log10(2))  # within 1 of the answer

    def at_least(k: int) -> bool:  # |x| ≥ 10^k
        return num >= den * 10**k if k >= 0 else num * 10**-k >= den

    while not at_least(e):
        e -= 1
    while at_least(e + 1):
        e += 1
    return e


def g_format(x, digits: int = 3) -> str:
    """``f"{float(x):.{digits}g}"`` for a message — and, where x is beyond float64 (float() overflows past
    1e308, or a nonzero x underflows to 0), the same significant digits exactly (``to_decimal_string``)."""
    try:
        f = float(x)
    except (OverflowError, ValueError):
        f = None
    if f is not None and math.isfinite(f) and (f != 0 or x == 0):
        return f"{f:.{digits}g}"
    return to_decimal_string(Fraction(x) if not isinstance(x, arb) else x, digits)


def to_decimal_string(x, digits: int) -> str:
    """A decimal string with ``digits`` significant digits (exact values print exactly when short)."""
    if isinstance(x, int):
        return int_text(x)
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
    e = decimal_exponent(ax)
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
