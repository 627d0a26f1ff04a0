"""The losses of the papers, with derivatives and a cancellation-free excess ℓ(γ−δ) − ℓ(γ).

All three are decreasing (Assumption A); ``constants(B)`` gives (M₀, M₁) on [−B, B]: ℓ' is
M₀-Lipschitz and |ℓ'| ≤ M₁ there (mmts §3).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb, fmpq

from verify.errors import UsageError


class Loss:
    name = "loss"
    #: how ``constants`` are proved (a closed-form argument); None: certify them by interval evaluation
    constants_proof: str | None = None

    def value(self, u: arb) -> arb:
        raise NotImplementedError

    def d1(self, u: arb) -> arb:
        raise NotImplementedError

    def d2(self, u: arb) -> arb:
        raise NotImplementedError

    def excess(self, gamma: arb, delta: arb) -> arb:
        """ℓ(γ − δ) − ℓ(γ) for δ ≥ 0, accurate to relative precision when δ is tiny."""
        raise NotImplementedError

    def value_d1(self, u: arb) -> tuple[arb, arb]:
        """(ℓ(u), ℓ'(u)) together; subclasses share the transcendental work."""
        return self.value(u), self.d1(u)

    def constants(self, B: arb) -> tuple[arb, arb]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class Logistic(Loss):
    """ℓ(u) = log(1 + e^{−u})."""

    name = "logistic"
    constants_proof = "|ℓ''| = σ(u)σ(−u) ≤ 1/4 (AM–GM), |ℓ'| = σ(−u) < 1"

    def value(self, u):
        return (-u).exp().log1p()

    def d1(self, u):
        return -1 / (1 + u.exp())

    def d2(self, u):
        e = (-abs(u)).exp()  # symmetric: σ(u)σ(−u) = e^{−|u|}/(1+e^{−|u|})²
        return e / (1 + e) ** 2

    def value_d1(self, u):
        # one exp of −|u|; branching keeps the balls tight (−q/(1+q) with q = e^{−u} ≫ 1 widens them)
        if u < 0:
            p = u.exp()
            return p.log1p() - u, -1 / (1 + p)
        q = (-u).exp()
        return q.log1p(), -q / (1 + q)

    def excess(self, gamma, delta):
        return (delta.expm1() / (1 + gamma.exp())).log1p()

    def constants(self, B):
        return arb(1) / 4, arb(1)


class Exponential(Loss):
    """ℓ(u) = e^{−u}."""

    name = "exponential"
    constants_proof = "|ℓ''| = |ℓ'| = e^{−u} ≤ e^B on [−B, B] (decreasing in u)"

    def value(self, u):
        return (-u).exp()

    def d1(self, u):
        return -(-u).exp()

    def d2(self, u):
        return (-u).exp()

    def value_d1(self, u):
        q = (-u).exp()
        return q, -q

    def excess(self, gamma, delta):
        return (-gamma).exp() * delta.expm1()

    def constants(self, B):
        return B.exp(), B.exp()


class Correlation(Loss):
    """ℓ(u) = −u."""

    name = "correlation"
    constants_proof = "ℓ'' = 0, |ℓ'| = 1"

    def value(self, u):
        return -u

    def d1(self, u):
        return arb(-1)

    def d2(self, u):
        return arb(0)

    def excess(self, gamma, delta):
        return delta

    def constants(self, B):
        return arb(0), arb(1)


class Square(Loss):
    """ℓ(u) = (c − u)², not a loss of the papers: decreasing only for u < c — the standard example of a
    loss that fails Assumption A on [−B, B] once B ≥ c (from Python: ``loss=Square()``)."""

    name = "square"

    def __init__(self, centre=1):
        self.centre = Fraction(centre)

    def _c(self) -> arb:
        return arb(fmpq(self.centre.numerator, self.centre.denominator))

    def value(self, u):
        return (self._c() - u) ** 2

    def d1(self, u):
        return -2 * (self._c() - u)

    def d2(self, u):
        return arb(2)

    def constants(self, B):
        return arb(2), 2 * (abs(self._c()) + B) + 1  # |ℓ'| ≤ 2(|c| + B), with a margin (attained at −B)


LOSSES = {cls.name: cls for cls in (Logistic, Exponential, Correlation)}  # the papers' losses


def get_loss(name: str | Loss) -> Loss:
    if isinstance(name, Loss):
        return name
    try:
        return LOSSES[name]()
    except KeyError:
        raise UsageError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}")


def certify_assumption_a(loss: str | Loss, B, max_depth: int = 40, max_balls: int = 4000):
    """Assumption A of mmts for ``loss`` on [−B, B], decided by interval evaluation:
    (met, detail, M₀, M₁) with met True when ℓ' < 0 is certified on [−B, B] and the loss's declared
    constants bound it there (|ℓ''| ≤ M₀, |ℓ'| ≤ M₁, certified on the same covering); False when
    ℓ' ≥ 0 somewhere (certain) or a constant is certainly exceeded; None when undecided.

    ℓ', ℓ'' are evaluated on balls covering [−B, B], bisected adaptively (one wide ball
    overestimates, e.g. e^{[−1000, 1000]}). At most ``max_balls`` balls are evaluated: where the
    bisection would need more (B ≈ 10³⁰⁰: ℓ' stays undecided on every ball wider than 1, and the tree
    has 2^max_depth leaves) the answer is None (undecided) at once instead of a run that never ends."""
    ell = get_loss(loss)
    Ba = B if isinstance(B, arb) else arb(B)
    M0, M1 = ell.constants(Ba)
    proven = ell.constants_proof is not None
    lo, hi = -Ba, Ba
    for end in (lo, hi):  # the ends as points: ℓ'(±B) = 0 exactly is decided there, not left to a ball
        d1 = ell.d1(end)
        if d1.is_finite() and d1 >= 0:
            return False, f"{ell.name}: ℓ'({end.mid().str(6, radius=False)}) ≥ 0 at an end of [−B, B]: not strictly decreasing", M0, M1
    stack, undecided, balls = [(lo, hi, 0)], None, 0
    while stack:
        a, b, depth = stack.pop()
        balls += 1
        if balls > max_balls:
            undecided = f"{_iv(a, b)} (stopped after {max_balls} balls)"
            break
        ball = (a + b) / 2 + arb(0, ((b - a) / 2).upper()) if b != a else a
        d1 = ell.d1(ball)
        d2 = None if proven else ell.d2(ball)
        if d1.is_finite() and d1 >= 0:
            return False, f"{ell.name}: ℓ' ≥ 0 at u ∈ {_iv(a, b)} ⊂ [−B, B]: not strictly decreasing", M0, M1
        if not proven and (abs(d2) > M0 or abs(d1) > M1):
            return False, f"{ell.name}: a declared constant is exceeded at u ∈ {_iv(a, b)}", M0, M1
        if d1.is_finite() and d1 < 0 and (proven or (abs(d2) <= M0 and abs(d1) <= M1)):
            continue
        if depth >= max_depth:
            undecided = _iv(a, b)
            continue
        m = (a + b) / 2
        stack += [(a, m, depth + 1), (m, b, depth + 1)]
    what = (f"{ell.name} on [−B, B], B = {Ba.mid().str(8, radius=False)}: M₀ = {M0.mid().str(6, radius=False)}, "
            f"M₁ = {M1.mid().str(6, radius=False)}")
    if undecided is not None:
        return None, f"{what}; ℓ' < 0 and the constants could not be certified near u ∈ {undecided}", M0, M1
    how = f"constants proved: {ell.constants_proof}" if proven else "|ℓ''| ≤ M₀, |ℓ'| ≤ M₁ certified"
    return True, f"{what}; ℓ' < 0 certified by interval evaluation, {how}", M0, M1


def _iv(a: arb, b: arb) -> str:
    return f"[{a.mid().str(6, radius=False)}, {b.mid().str(6, radius=False)}]"
