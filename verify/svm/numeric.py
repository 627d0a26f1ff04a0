"""Small exact/ball-arithmetic helpers shared by the SVM modules (no solving here)."""
from __future__ import annotations

from fractions import Fraction

import mpmath
from flint import arb, arb_mat, fmpq, fmpz

from verify.numbers.precision import decimal_exponent, int_text, to_decimal_string


def _mpf_man_exp(x) -> tuple[int, int]:
    """Signed mantissa and exponent of an mpf (mpf.man_exp drops the sign)."""
    sign, man, exp, _ = mpmath.mpf(x)._mpf_
    if not man:
        return 0, 0
    return (-int(man) if sign else int(man)), int(exp)


def is_exact(x) -> bool:
    return isinstance(x, (Fraction, int, fmpq)) and not isinstance(x, bool)


def flatten(x) -> list:
    """A solution given as a flat list or as a matrix (list of rows) → flat row-major list."""
    if hasattr(x, "tolist"):
        x = x.tolist()
    out = []
    for v in x:
        if isinstance(v, (list, tuple)):
            out.extend(flatten(v))
        else:
            out.append(v)
    return out


def to_exact(x) -> Fraction | None:
    """Exact Fraction of a number when it has one that is safe to take (never via float parsing of
    strings); None for arb balls with a radius."""
    if isinstance(x, bool):
        raise TypeError("bool is not a number here")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, fmpq):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, float):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x.strip())
    if isinstance(x, mpmath.mpf):
        man, exp = _mpf_man_exp(x)
        return Fraction(man) * Fraction(2) ** exp
    if isinstance(x, arb):
        if x.is_exact():
            man, exp = x.mid().man_exp()
            return Fraction(int(man)) * Fraction(2) ** int(exp)
        return None
    if hasattr(x, "item"):  # numpy scalar
        return Fraction(float(x))
    raise TypeError(f"not a number: {type(x).__name__}")


def to_arb(x) -> arb:
    """Any supported number as an arb ball at the current precision (exact where possible)."""
    if isinstance(x, arb):
        return x
    q = to_exact(x)
    return arb(fmpq(q.numerator, q.denominator))


def arb_from_mpf(x: mpmath.mpf) -> arb:
    """The exact value of an mpf as an arb (exact when the mantissa fits the precision)."""
    man, exp = _mpf_man_exp(x)
    if exp >= 0:
        return arb(fmpz(man << exp))
    return arb(fmpq(man, 1 << (-exp)))


def mid_mpf(x: arb) -> mpmath.mpf:
    man, exp = x.mid().man_exp()
    return mpmath.mpf((int(man), int(exp))) if man != 0 else mpmath.mpf(0)


def amat(rows) -> arb_mat:
    return arb_mat([[to_arb(v) for v in r] for r in rows])


def arb_max(values, floor=None) -> arb:
    """Upper-biased max of balls (arb.max), starting from ``floor`` if given."""
    out = floor
    for v in values:
        out = v if out is None else out.max(v)
    return out if out is not None else arb(0)


def fraction_to_decimal(x: Fraction, digits: int) -> str:
    """Exact rational → decimal string rounded (half-even) to ``digits`` significant digits;
    exactly when the expansion terminates within them. No floating point involved."""
    x = Fraction(x)
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    e = decimal_exponent(x)  # 10^e <= x < 10^(e+1), exactly (no decimal string of a huge integer)
    shift = digits - 1 - e
    scaled = x * Fraction(10) ** shift
    q, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and q % 2 == 1):
        q += 1
    if q >= 10**digits:       # rounding carried into a new digit (9.99 → 10.0)
        e += 1
        shift -= 1
        q //= 10
    mant = int_text(q)
    # strip trailing zeros
    stripped = mant.rstrip("0") or "0"
    k = len(stripped)
    if -7 <= e < 21:
        if e >= 0:
            if k <= e + 1:
                out = stripped + "0" * (e + 1 - k)
            else:
                out = stripped[:e + 1] + "." + stripped[e + 1:]
        else:
            out = "0." + "0" * (-e - 1) + stripped
    else:
        out = stripped[0] + ("." + stripped[1:] if k > 1 else "") + f"e{e:+d}".replace("+", "")
    return sign + out


def fmt(x, digits: int) -> str:
    """Decimal string with ``digits`` significant digits: exact rationals by integer arithmetic,
    arb balls by their midpoint (``precision.to_decimal_string``)."""
    if isinstance(x, fmpq):
        x = Fraction(int(x.p), int(x.q))
    if isinstance(x, int) and not isinstance(x, bool):
        return int_text(x)
    if isinstance(x, Fraction):
        return fraction_to_decimal(x, digits)
    return to_decimal_string(x, digits)
