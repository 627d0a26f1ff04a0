"""Two interval engines behind one small interface, and forward-mode derivatives over either.

A *margin* g (what a region certificate proves positive) is written once, as a function ``g(x, ops)`` of a
sequence of numbers ``x`` and an ``ops`` namespace (exp, log, sqrt, abs, max, min, const). The same code then
runs on

* ``ARB`` — flint ``arb`` balls (the search: fast, rigorous), and
* ``IV`` — mpmath's ``iv`` context (the independent re-check: other code, other rounding),

and on ``Dual`` numbers over either, which carry an enclosure of the gradient beside the value (forward mode:
the one derivative engine for every margin, no derivative written by hand). On a box, the gradient's
enclosure gives the centred (mean-value) form g(X) ⊆ g(c) + Σ ∂ᵢg(X)·(Xᵢ − cᵢ), which tames the dependency
problem of the plain interval extension. ``abs``, ``max`` and ``min`` are Lipschitz: where the box meets
their kink, the derivative's enclosure is the whole generalised gradient ([−1, 1] for abs), so the
mean-value form stays valid.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
from flint import arb, fmpq


class Dual:
    """A value and the enclosure of its gradient (a tuple, one entry per variable), over one engine."""

    __slots__ = ("v", "g")

    def __init__(self, v, g):
        self.v, self.g = v, g

    def _lift(self, other):
        if isinstance(other, Dual):
            return other
        return Dual(other, tuple(0 * gi for gi in self.g))

    def __add__(self, other):
        o = self._lift(other)
        return Dual(self.v + o.v, tuple(a + b for a, b in zip(self.g, o.g)))

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.v, tuple(-a for a in self.g))

    def __sub__(self, other):
        return self + (-self._lift(other))

    def __rsub__(self, other):
        return self._lift(other) - self

    def __mul__(self, other):
        o = self._lift(other)
        return Dual(self.v * o.v, tuple(a * o.v + self.v * b for a, b in zip(self.g, o.g)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        o = self._lift(other)
        q = self.v / o.v
        return Dual(q, tuple((a - q * b) / o.v for a, b in zip(self.g, o.g)))

    def __rtruediv__(self, other):
        return self._lift(other) / self

    def __pow__(self, k: int):
        if not isinstance(k, int) or k < 0:
            raise TypeError("Dual ** k: k must be a non-negative integer")
        out = self._lift(1)
        for _ in range(k):
            out = out * self
        return out

    def chain(self, value, slope):
        """f(self) given f's value and the enclosure of f' over self's value."""
        return Dual(value, tuple(slope * a for a in self.g))


class _Engine:
    """The operations a margin may use; ``Dual`` arguments get the chain rule, plain numbers the engine's own
    function. Subclasses say how to make an interval from rational ends and how to read one."""

    name = ""

    # --- numbers ---------------------------------------------------------------------------------------
    def const(self, q) -> object:
        raise NotImplementedError

    def interval(self, lo: Fraction, hi: Fraction) -> object:
        raise NotImplementedError

    def lower(self, x) -> Fraction | float:
        """The enclosure's lower end, exactly (a Fraction; a float only for ±inf or nan)."""
        raise NotImplementedError

    def upper(self, x) -> Fraction | float:
        raise NotImplementedError

    def positive(self, x) -> bool:
        """x > 0 for every point of the enclosure."""
        raise NotImplementedError

    def nonnegative(self, x) -> bool:
        raise NotImplementedError

    def intersect(self, a, b):
        raise NotImplementedError

    def signs(self, x):
        """The enclosure of sign(x) (the derivative of |x|): ±1 where x has one sign, else [−1, 1]."""
        if self.positive(x):
            return self.const(1)
        if self.positive(-x):
            return self.const(-1)
        return self.interval(Fraction(-1), Fraction(1))

    # --- functions ----------------------------------------------------------------------------------
    def exp(self, x):
        if isinstance(x, Dual):
            e = self.exp(x.v)
            return x.chain(e, e)
        return self._exp(x)

    def log(self, x):
        if isinstance(x, Dual):
            return x.chain(self.log(x.v), 1 / x.v)
        return self._log(x)

    def sqrt(self, x):
        if isinstance(x, Dual):
            r = self.sqrt(x.v)
            return x.chain(r, 1 / (2 * r))
        return self._sqrt(x)

    def abs(self, x):
        if isinstance(x, Dual):
            return x.chain(self.abs(x.v), self.signs(x.v))
        return self._abs(x)

    def max(self, a, b):
        """max(a, b) = (a + b + |a − b|)/2 (its derivative enclosure follows from abs's)."""
        return (a + b + self.abs(a - b)) / 2

    def min(self, a, b):
        return (a + b - self.abs(a - b)) / 2


class _Arb(_Engine):
    name = "arb"

    def const(self, q):
        q = Fraction(q)
        return arb(fmpq(q.numerator, q.denominator))

    def interval(self, lo, hi):
        return self.const(lo).union(self.const(hi))

    def lower(self, x):
        return _dyadic(x.lower())

    def upper(self, x):
        return _dyadic(x.upper(), up=True)

    def positive(self, x):
        return bool(x > 0)

    def nonnegative(self, x):
        return bool(x >= 0)

    def intersect(self, a, b):
        return a.intersection(b)

    def _exp(self, x):
        return x.exp()

    def _log(self, x):
        return x.log()

    def _sqrt(self, x):
        return x.sqrt()

    def _abs(self, x):
        return abs(x)


class IvNumber:
    """An mpmath ``iv`` interval behind the arithmetic a margin uses: mpmath's own operators raise on an
    operand they do not know (a ``Dual``) instead of deferring to it, so the re-check wraps its intervals."""

    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    @staticmethod
    def _of(other):
        if isinstance(other, IvNumber):
            return other.x
        if isinstance(other, int):
            return other
        return None

    def _op(self, other, fn):
        o = self._of(other)
        return NotImplemented if o is None else IvNumber(fn(self.x, o))

    def __add__(self, other):
        return self._op(other, lambda a, b: a + b)

    def __radd__(self, other):
        return self._op(other, lambda a, b: b + a)

    def __sub__(self, other):
        return self._op(other, lambda a, b: a - b)

    def __rsub__(self, other):
        return self._op(other, lambda a, b: b - a)

    def __mul__(self, other):
        return self._op(other, lambda a, b: a * b)

    def __rmul__(self, other):
        return self._op(other, lambda a, b: b * a)

    def __truediv__(self, other):
        return self._op(other, lambda a, b: a / b)

    def __rtruediv__(self, other):
        return self._op(other, lambda a, b: b / a)

    def __neg__(self):
        return IvNumber(-self.x)

    def __pow__(self, k: int):
        return IvNumber(self.x ** k)

    def __abs__(self):
        return IvNumber(abs(self.x))

    def __repr__(self):
        return f"[{mpmath.nstr(self.x.a, 12)}, {mpmath.nstr(self.x.b, 12)}]"


class _Iv(_Engine):
    """mpmath's interval context (``mpmath.iv``): endpoints rounded outward at iv's precision."""

    name = "mpmath.iv"

    def const(self, q):
        q = Fraction(q)
        return IvNumber(mpmath.iv.mpf(q.numerator) / q.denominator)

    def interval(self, lo, hi):
        a, b = self.const(lo).x, self.const(hi).x
        return IvNumber(mpmath.iv.mpf([a.a, b.b]))

    def lower(self, x):
        return _raw_dyadic(x.x._mpi_[0])

    def upper(self, x):
        return _raw_dyadic(x.x._mpi_[1], up=True)

    def positive(self, x):
        return bool(x.x.a > 0)

    def nonnegative(self, x):
        return bool(x.x.a >= 0)

    def intersect(self, a, b):
        lo, hi = max(a.x.a, b.x.a), min(a.x.b, b.x.b)
        if lo > hi:
            raise ArithmeticError("disjoint enclosures of one quantity: an interval engine is wrong")
        return IvNumber(mpmath.iv.mpf([lo, hi]))

    def _exp(self, x):
        return IvNumber(mpmath.iv.exp(x.x))

    def _log(self, x):
        return IvNumber(mpmath.iv.log(x.x))

    def _sqrt(self, x):
        return IvNumber(mpmath.iv.sqrt(x.x))

    def _abs(self, x):
        return abs(x)


#: beyond 2^±EXACT_BITS an interval's end is not made an exact Fraction (2^(10¹⁰⁰) has no digits to hold): it is
#: rounded outward to ±2^±EXACT_BITS, 0 or ±inf, still a valid end (a margin of e^(−10¹⁰⁰) while proving a region)
EXACT_BITS = 1 << 18


def _dyadic(end: arb, up: bool = False):
    """An exact arb (an interval's end) as a Fraction, rounded outward (``up``: an upper end) beyond 2^±EXACT_BITS;
    ±inf or nan as a float."""
    if not end.is_finite():
        return float("nan") if end.is_nan() else (float("inf") if end > 0 else float("-inf"))
    man, exp = end.mid().man_exp()
    return _exact(int(man), int(exp), up)


def _raw_dyadic(raw, up: bool = False):
    """mpmath's raw mpf tuple (sign, mantissa, exponent, bits) — an iv end — as a Fraction (±inf, nan: floats)."""
    sign, man, exp, _ = raw
    if not man:
        if raw == mpmath.libmp.fzero:
            return Fraction(0)
        return float(mpmath.mpf(raw))
    return _exact((-1) ** sign * int(man), int(exp), up)


def _exact(man: int, exp: int, up: bool):
    """man·2^exp exactly while its magnitude lies within 2^±EXACT_BITS, else rounded outward (down unless ``up``)."""
    top = exp + man.bit_length()  # 2^(top − 1) ≤ |man·2^exp| < 2^top
    if man == 0 or -EXACT_BITS < top <= EXACT_BITS:
        return Fraction(man) * Fraction(2) ** exp
    if top <= -EXACT_BITS:  # below 2^−EXACT_BITS
        tiny = Fraction(1, 2 ** EXACT_BITS)
        return (tiny if up else Fraction(0)) if man > 0 else (Fraction(0) if up else -tiny)
    big = Fraction(2 ** EXACT_BITS)  # at least 2^EXACT_BITS
    return (float("inf") if up else big) if man > 0 else (-big if up else float("-inf"))


ARB = _Arb()
IV = _Iv()
ENGINES = {e.name: e for e in (ARB, IV)}


def gradient_and_hessian(f, x, engine):
    """(f(x), ∇f(x), ∇²f(x)) by nested forward mode: every entry an enclosure over the box x (a sequence of the
    engine's numbers). f is written with ``engine``'s ops (module docstring)."""
    n = len(x)
    zero, one = engine.const(0), engine.const(1)
    inner = [Dual(x[i], tuple(one if j == i else zero for j in range(n))) for i in range(n)]
    outer = [Dual(inner[i], tuple(Dual(one if j == i else zero, (zero,) * n) for j in range(n))) for i in range(n)]
    out = f(outer, engine)
    value = out.v.v
    grad = tuple(out.v.g)
    hess = tuple(tuple(out.g[j].g[i] for i in range(n)) for j in range(n))
    return value, grad, hess
