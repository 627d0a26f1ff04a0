"""A nonlinear prediction head on top of the attention output (mmts Lemma 1: h differentiable).

L(θ) = (1/n) Σ_i ℓ(Y_i h(φ_i)), φ_i = vᵀX_iᵀS(F_i θ), h = tanh. The engine's stable softmax states
are reused with the *unsigned* scores vᵀx_it (``LinearLogitModel`` with the correlation loss), so
φ_i = vᵀX_iᵀs_i, c_t = s_t(vᵀx_t − φ_i) and ∂φ_i/∂θ = F_iᵀc_i:

    ∇L(θ) = (1/n) Σ_i ℓ'(Y_i h(φ_i)) Y_i h'(φ_i) F_iᵀ c_i,     h' = sech² (no 1 − tanh² cancellation).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.models.attention import LinearLogitModel
from verify.models.losses import get_loss

HEADS = ("linear", "tanh")


class TanhHeadModel:
    """∇θ of (1/n) Σ_i ℓ(Y_i tanh(vᵀ X_iᵀ S(F_i θ))) at the working precision (``grad`` only)."""

    def __init__(self, feats, data, loss):
        raw = tuple(tuple(sum((a * b for a, b in zip(x, data.v)), Fraction(0)) for x in seq) for seq in data.X)
        self.model = LinearLogitModel(feats, raw, "correlation")
        self.loss = get_loss(loss)
        self.Y = data.Y

    def grad(self, theta):
        m = self.model
        acc = [arb(0)] * m.D
        for Fi, st, y in zip(m.F, m.states(theta), self.Y):
            w = self.loss.d1(y * st.phi.tanh()) * y / st.phi.cosh() ** 2
            for row, ct in zip(Fi, st.c):
                wc = w * ct
                acc = [a + wc * f for a, f in zip(acc, row)]
        return [a / m.n for a in acc]


def head_model(feats, data, loss, head: str):
    """The model with the head ``head`` ("linear": h(r) = vᵀr, the paper's; "tanh": h(r) = tanh(vᵀr))."""
    if head == "linear":
        return LinearLogitModel(feats, data.scores, loss)
    if head == "tanh":
        return TanhHeadModel(feats, data, loss)
    raise ValueError(f"unknown head {head!r}; choose one of {', '.join(HEADS)}")
