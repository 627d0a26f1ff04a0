"""The attention loss written once for any interval engine (``verify.numbers.intervals``).

L(θ) = (1/n) Σ_i ℓ(φ_i),  φ_i = Σ_t s_it γ_it,  s_i = softmax(F_i θ),

written with the ``ops`` of an engine only, so it runs on arb balls, on mpmath's iv intervals and on
forward-mode derivatives over either (gradients and Hessians without a formula derived by hand). This is
the naive form — s_t = e^{a_t − a_1}/Σ_u e^{a_u − a_1}, no cancellation-free rewriting — so it is an
enclosure at any point but loses digits in saturation; it serves the independent re-check of region
certificates (``verify.numbers.regions.recheck``), where ``verify.models.attention`` is the fast, stable
engine of everything else.
"""
from __future__ import annotations

from fractions import Fraction

LOSSES = ("logistic", "exponential", "correlation")


def ell(loss: str, u, ops):
    """ℓ(u) for the papers' losses, written with ``ops``."""
    if loss == "logistic":
        return ops.log(1 + ops.exp(-u))
    if loss == "exponential":
        return ops.exp(-u)
    if loss == "correlation":
        return -u
    raise ValueError(f"no generic form of the loss {loss!r}; choose one of {', '.join(LOSSES)}")


def attention_loss(theta, features, scores, loss: str, ops):
    """L(θ) for features F (per sequence, per token: a row of Fractions) and scores γ (Fractions).

    Each weight is s_t = 1 / Σ_u e^{(F_u − F_t)·θ}, with the feature differences exact: every logit difference
    is one linear form in θ (an interval engine overestimates far less than from separately enclosed logits),
    and the u = t term is e⁰ = 1 exactly."""
    n = len(features)
    total = 0
    for F, gamma in zip(features, scores):
        T = len(F)
        phi = 0
        for t in range(T):
            z = ops.const(1)
            for u in range(T):
                if u != t:
                    diff = [Fraction(a) - Fraction(b) for a, b in zip(F[u], F[t])]
                    z = z + ops.exp(_linear(diff, theta, ops))
            phi = phi + ops.const(Fraction(gamma[t])) / z
        total = total + ell(loss, phi, ops)
    return total / n


def _linear(coefficients, theta, ops):
    """Σ_j c_j θ_j over the nonzero c_j (0 exactly when every c_j is 0)."""
    out = ops.const(0)
    for c, th in zip(coefficients, theta):
        if c:
            out = out + th * ops.const(c)
    return out
