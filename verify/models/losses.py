"""The losses of the papers, with derivatives and a cancellation-free excess ℓ(γ−δ) − ℓ(γ).

All three are decreasing (Assumption A); ``constants(B)`` gives (M₀, M₁) on [−B, B]: ℓ' is
M₀-Lipschitz and |ℓ'| ≤ M₁ there (mmts §3).
"""
from __future__ import annotations

from flint import arb

from verify.errors import UsageError


class Loss:
    name = "loss"

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


LOSSES = {cls.name: cls for cls in (Logistic, Exponential, Correlation)}


def get_loss(name: str | Loss) -> Loss:
    if isinstance(name, Loss):
        return name
    try:
        return LOSSES[name]()
    except KeyError:
        raise UsageError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}")
